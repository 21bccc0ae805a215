//! The command line: one subcommand per game and per engine tool, each with its flags and their
//! allowed values, turned into the driver's [`Task`] in one place ([`Cli::task`]). It only
//! describes and validates arguments; running them is the driver's job.

use std::ffi::OsString;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::arena::Contender;
use crate::board::{BoardSide, Coord, LEVELS, PitsPerRow, STONES};
use crate::driver::{
    ArenaBoard, Contest, KalahBoard, Opponents, OthelloBoard, PerftCounting, Showing, Task,
    Training,
};
use crate::generate::Generation;
use crate::judge::{Game as JudgedGame, Judging, Keeping};
use crate::mancala::Capture;
use crate::relay::Relaying;

mod judge;
mod solve;
use judge::Judge;
use solve::Solve;

/// Console ports of two classic C++ course assignments: Othello with pits and Kalah.
#[derive(Debug, Parser)]
#[command(
    name = "boardgames",
    version,
    propagate_version = true,
    after_help = "Examples:\n  \
                  boardgames othello                          two people, one keyboard\n  \
                  boardgames othello --computer O --friendly  play X against the computer\n  \
                  boardgames mancala --computer 2 --level 8   Kalah against a strong computer\n  \
                  boardgames judge othello --cases 200 --errors -- ./othello   grade a program\n  \
                  boardgames arena othello --games 20         how strong each level is"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// What the command line asks the program to do.
pub enum Invocation {
    /// A task for the console driver, and how the console shows it (the command line sets
    /// `echo` and `friendly`; whether the output is a terminal is for the caller to add).
    Driver(Task, Showing),
    /// A judging.
    Judge(Box<Judging>),
    /// A relay between two programs.
    Relay(Box<Relaying>),
    /// The keeper of one judged run.
    Keep(Keeping),
}

impl Cli {
    /// What the command line asks for.
    #[must_use]
    pub fn invocation(self) -> Invocation {
        let (task, showing) = match self.command {
            Command::Judge(Judge::Othello { side, how }) => {
                return Invocation::Judge(Box::new(how.judging(JudgedGame::Othello(side.size))));
            }
            Command::Judge(Judge::Mancala { kalah, how }) => {
                let game = JudgedGame::Mancala(kalah.board());
                return Invocation::Judge(Box::new(how.judging(game)));
            }
            Command::Relay(Relay::Othello(args)) => {
                return Invocation::Relay(Box::new(args.relaying()));
            }
            Command::JudgeKeeper { memory_mb, program } => {
                return Invocation::Keep(Keeping { memory_mb, program });
            }
            Command::Othello(args) => {
                let opponents = args.vs.opponents(args.computer);
                let side = args.side.size;
                (
                    Task::PlayOthello { side, opponents },
                    args.console.showing(),
                )
            }
            Command::Mancala(args) => {
                let opponents = args.vs.opponents(args.computer);
                let board = args.kalah.board();
                (
                    Task::PlayMancala { board, opponents },
                    args.console.showing(),
                )
            }
            Command::Perft(args) => {
                let counting = PerftCounting {
                    threads: usize::from(args.threads),
                    hash_mb: args.hash.then_some(args.hash_mb as usize),
                };
                let board = args.board.board();
                let depth = args.depth;
                (
                    Task::Perft {
                        board,
                        depth,
                        counting,
                    },
                    Showing::default(),
                )
            }
            Command::Solve(solve) => (solve.task(), Showing::default()),
            Command::Arena(Arena::Othello { side, how }) => {
                (how.task(ArenaBoard::Othello(side.size)), Showing::default())
            }
            Command::Arena(Arena::Mancala { kalah, how }) => (
                how.task(ArenaBoard::Mancala(kalah.board())),
                Showing::default(),
            ),
            Command::Train(args) => (
                Task::TrainOthello(Training {
                    side: args.size,
                    seed: args.seed,
                    samples: usize::try_from(args.samples).unwrap_or(usize::MAX),
                    epochs: args.epochs,
                    threads: usize::from(args.threads),
                    output: args.output,
                    cache: args.cache,
                    features: args.features,
                    midgame: args.midgame,
                }),
                Showing::default(),
            ),
            Command::Generate(Generate::Othello { side, how }) => {
                let side = side.size;
                (
                    Task::GenerateOthello {
                        side,
                        how: how.generation(),
                    },
                    Showing::default(),
                )
            }
            Command::Generate(Generate::Mancala { kalah, how }) => {
                let board = kalah.board();
                (
                    Task::GenerateMancala {
                        board,
                        how: how.generation(),
                    },
                    Showing::default(),
                )
            }
        };
        Invocation::Driver(task, showing)
    }
}

/// The games on offer, and the engine's tools.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Othello (Reversi) with pits: two people at one console, or against the computer.
    #[command(
        long_about = "Othello (Reversi) with pits, as the course's sample program plays it: two \
                      people at one console, or against the computer (--computer).\n\
                      First answer how many pits (0 for none) and where each goes; pits are \
                      cells no one may play. Then type each move as a column letter and a row \
                      number (D3, h10). Black (X) moves first.",
        after_help = "Examples:\n  boardgames othello --computer O --level 3 --friendly\n  \
                      boardgames othello --size 6 --echo < moves.txt"
    )]
    Othello(OthelloArgs),
    /// Kalah (Mancala) with undo: two people at one console, or against the computer.
    #[command(
        long_about = "Kalah (Mancala) as the console contract plays it: two people at one \
                      console, or against the computer (--computer). Sow stones anticlockwise, \
                      fill your store.\nAnswer a prompt with a pit number, or u to take back \
                      the last move.",
        after_help = "Examples:\n  boardgames mancala --computer 2 --level 4 --friendly\n  \
                      boardgames mancala --pits 4 --stones 3 --echo < moves.txt"
    )]
    Mancala(MancalaArgs),
    /// Count the move paths of an Othello start position to each depth (perft).
    #[command(
        long_about = "Count the move paths of an Othello start position to each depth (perft).\n\
                      A pass is a ply; a position where neither player can move is one leaf.",
        after_help = "Example:\n  boardgames perft --size 6 --pits A1,A2,B1 --depth 8"
    )]
    Perft(PerftArgs),
    /// Fit the Othello evaluation's weights to solved positions (for developers).
    #[command(
        hide = true,
        long_about = "Fit the weights of the learned Othello evaluation of an 8x8 or 6x6 \
                      board: play games of varied moves from SEED, solve positions of 12 to 16 \
                      empty cells (6x6: 10 to 17) and every move of each, and fit pattern \
                      weights to the values by least squares. Writes the weights to FILE (what \
                      src/othello/evaluation/weights/weights.bin or weights6.bin holds) and prints how well they \
                      fit. With --midgame, the earlier phases' weights instead (midgame.bin, \
                      midgame6.bin), fitted to the solved results of games played on from \
                      random openings. The same flags make the same file.",
        after_help = "Example:\n  boardgames train --seed 1 --samples 400000 --output weights.bin"
    )]
    Train(TrainArgs),
    /// Solve a game under perfect play: from its start, or an Othello position.
    #[command(
        subcommand,
        long_about = "Solve a game under perfect play, by exhaustive search: from its start, or \
                      (Othello) from positions given as text. Memory is bounded by --hash-mb; \
                      progress shows on standard error when it is a terminal (or with \
                      --progress)."
    )]
    Solve(Solve),
    /// Play the computer's levels against each other and print how often each wins.
    #[command(
        subcommand,
        long_about = "Play the computer's levels (and a greedy player) against each other and \
                      print a table of wins, draws and losses: every pair plays the same \
                      openings of random moves, each contender taking both sides of each. The \
                      same seed and flags give the same table on any machine."
    )]
    Arena(Arena),
    /// Grade a program against the reference: run it on many games and compare transcripts.
    #[command(
        subcommand,
        long_about = "Grade a program, or a class of them (--programs DIR), against the \
                      reference: run it on generated games (or on the *.in files of a folder), \
                      each run sealed under a keeper that kills everything it starts, with time, \
                      output and memory limits, and compare its output byte for byte with the \
                      transcript the game itself makes. When the bytes differ, both transcripts \
                      are read as games: the same game shown otherwise is a presentation error \
                      (its cosmetic differences listed), a different one a wrong answer named by \
                      the rule it breaks (flip-wraps-edge, pass-missing, capture-wrong, ...). \
                      Verdicts: time limit, memory limit, output limit, runtime error, wrong \
                      answer, presentation error, accepted.\n\
                      Exit status: 0 when every case is accepted (with --programs: when every \
                      submission was graded), 1 when one is not, 2 when the program cannot be \
                      started, 130 when interrupted. Linux only."
    )]
    Judge(Judge),
    /// Play two Othello programs against each other through their consoles (for developers).
    #[command(
        subcommand,
        long_about = "Play two Othello programs against each other through their consoles, as \
                      two people at two keyboards would: each is a boardgames build (any version \
                      whose console answers ? with a hint, say the one before a change), run as \
                      PROGRAM othello --size N --hints --level L --seed S. The relay types the \
                      same random opening into both, then asks the player to move for a hint and \
                      types it into both; each opening is played twice, the programs swapping \
                      sides. Prints a line a game, then A's wins-draws-losses against B and the \
                      time each took to hint. Exit status 1, with one error line, when a program \
                      cannot be run, ends or stops answering, or suggests an illegal move; 2 \
                      when the board cannot take a pit. Unix-like systems only."
    )]
    Relay(Relay),
    /// Print the input of one random legal game, for testing other programs.
    #[command(
        subcommand,
        long_about = "Print the input tokens of one random legal game, one a line: pipe the same \
                      file into a student's program and into boardgames, and diff the outputs.\n\
                      The same seed and flags always give the same game."
    )]
    Generate(Generate),
    /// The judge's keeper of one run (started by the judge itself, never by hand).
    #[command(hide = true)]
    JudgeKeeper {
        /// The program's address-space limit, in MiB.
        #[arg(long, value_name = "M")]
        memory_mb: u64,
        /// The program and its arguments, after `--`.
        #[arg(last = true, required = true, value_name = "PROGRAM")]
        program: Vec<OsString>,
    },
}

/// The games the arena plays.
#[derive(Debug, Subcommand)]
pub enum Arena {
    /// Othello: each game opens with four random moves.
    #[command(
        after_help = "Example:\n  boardgames arena othello --levels greedy,1,5,10 --games 20"
    )]
    Othello {
        #[command(flatten)]
        side: SideArgs,
        #[command(flatten)]
        how: ArenaArgs,
    },
    /// Kalah: each game opens with two random sowings.
    #[command(
        after_help = "Example:\n  boardgames arena mancala --pits 6 --stones 4 --levels 1,3,5 --games 40"
    )]
    Mancala {
        #[command(flatten)]
        kalah: KalahArgs,
        #[command(flatten)]
        how: ArenaArgs,
    },
}

/// Flags of every arena.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The players, separated by commas: levels 1 to 10, and greedy (the move that flips the
    /// most discs or banks the most stones).
    #[arg(
        long,
        value_name = "LIST",
        allow_negative_numbers = true,
        value_delimiter = ',',
        default_value = "greedy,1,3,5,8,10",
        value_parser = parse_contender
    )]
    pub levels: Vec<Contender>,
    /// Games each pair plays: an even number, half of it openings played from both sides.
    #[arg(long, value_name = "G", allow_negative_numbers = true, default_value_t = 20, value_parser = parse_games)]
    pub games: usize,
    /// Seed of the openings and of the players' choices.
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    pub seed: u64,
    /// Games played at once [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

impl ArenaArgs {
    fn task(self, board: ArenaBoard) -> Task {
        Task::Arena(Contest {
            board,
            contenders: self.levels,
            openings: self.games / 2,
            seed: self.seed,
            threads: self.threads.map_or_else(cores, usize::from),
        })
    }
}

/// The machine's cores: the default number of games, runs or threads at once.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A player of the arena: a level or `greedy`.
fn parse_contender(text: &str) -> Result<Contender, String> {
    if text.eq_ignore_ascii_case("greedy") {
        return Ok(Contender::Greedy);
    }
    parse_in(text, within(LEVELS), "1 to 10 and greedy").map(Contender::Level)
}

/// An even number of games, 2 to 10000.
fn parse_games(text: &str) -> Result<usize, String> {
    parse_in(
        text,
        |g: usize| ((2..=10_000).contains(&g) && g.is_multiple_of(2)).then_some(g),
        "the even numbers 2 to 10000",
    )
}

/// The games the relay plays.
#[derive(Debug, Subcommand)]
pub enum Relay {
    /// Othello: each game opens with four random moves.
    #[command(
        after_help = "Example:\n  boardgames relay othello --size 6 --levels 10,10 --games 20 ./new ./old"
    )]
    Othello(RelayArgs),
}

/// Flags of `boardgames relay othello`.
#[derive(Debug, Args)]
pub struct RelayArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The levels of program A and of program B, 1 to 10.
    #[arg(long, value_name = "A,B", allow_negative_numbers = true, default_value = "10,10", value_parser = parse_level_pair)]
    pub levels: [u32; 2],
    /// Games: an even number, half of it openings played from both sides.
    #[arg(long, value_name = "G", allow_negative_numbers = true, default_value_t = 20, value_parser = parse_games)]
    pub games: usize,
    /// Seed of the openings and of the programs' seeds.
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    pub seed: u64,
    /// Seconds a program may take to ask for the next move.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// Program A: a boardgames build (a path, or a name looked up in PATH).
    pub a: OsString,
    /// Program B, the same.
    pub b: OsString,
}

impl RelayArgs {
    fn relaying(self) -> Relaying {
        Relaying {
            board: self.board.board(),
            levels: self.levels,
            openings: self.games / 2,
            seed: self.seed,
            timeout: Duration::from_secs(self.timeout),
            programs: [self.a, self.b],
        }
    }
}

/// Two levels, `A,B`.
fn parse_level_pair(text: &str) -> Result<[u32; 2], String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| "two levels are needed, as A,B".to_string())?;
    Ok([parse_level(a)?, parse_level(b)?])
}

/// The games the generator makes input for.
#[derive(Debug, Subcommand)]
pub enum Generate {
    /// Othello: a pit count, the pits, then a legal move at every turn that has one.
    #[command(
        long_about = "Othello: a pit count, the pits, then a legal move at every turn that has \
                      one.\n\
                      --errors adds the wrong entries the assignment specifies an answer to: pit \
                      counts above half the board (\"Too many pits!\"), pits on a centre cell, \
                      on a pit already placed or off the board (\"Invalid position!\"), moves \
                      onto a disc or a pit, moves that flip nothing and moves off the board \
                      (\"Invalid move!\"). Off-board addresses are well formed: I1 and X10 on \
                      8x8.\n\
                      --weird adds the entries the assignment leaves unspecified: AA1, A01, \
                      abc, A3.14, #a2, -1, 6.28, #$@ and bytes that are not text.",
        after_help = "Example:\n  boardgames generate othello --size 6 --seed 7 --errors"
    )]
    Othello {
        #[command(flatten)]
        side: SideArgs,
        #[command(flatten)]
        how: GenerateArgs,
    },
    /// Kalah: a non-empty pit at every turn.
    #[command(
        long_about = "Kalah: a non-empty pit at every turn.\n\
                      --errors adds the wrong entries the console contract specifies an answer \
                      to: pit numbers out of range (0, or above the pits up to 99), empty pits, \
                      and undos, each followed by the same move again.\n\
                      --weird adds answers that are no plain number (abc, +1, -1, 1.5, a number \
                      too large for an int, bytes that are not text), which a C++ program \
                      reading an int cannot take.",
        after_help = "Example:\n  boardgames generate mancala --pits 4 --stones 3 --seed 7"
    )]
    Mancala {
        #[command(flatten)]
        kalah: KalahArgs,
        #[command(flatten)]
        how: GenerateArgs,
    },
}

/// Flags of every generator.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Seed of the random choices: the same seed, the same game.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seed: u64,
    /// Also put in wrong entries the assignment specifies, each followed by the right one.
    #[arg(long)]
    pub errors: bool,
    /// Also put in entries whose answer the assignment leaves unspecified.
    #[arg(long)]
    pub weird: bool,
}

impl GenerateArgs {
    fn generation(&self) -> Generation {
        Generation {
            seed: self.seed,
            errors: self.errors,
            weird: self.weird,
        }
    }
}

/// An Othello start position: the side and the pits.
#[derive(Debug, Args)]
pub struct BoardArgs {
    #[command(flatten)]
    pub side: SideArgs,
    /// Pit cells, separated by commas.
    #[arg(
        long,
        value_name = "CELLS",
        allow_negative_numbers = true,
        value_delimiter = ','
    )]
    pub pits: Vec<Coord>,
}

impl BoardArgs {
    pub(crate) fn board(self) -> OthelloBoard {
        OthelloBoard {
            side: self.side.size,
            pits: self.pits,
        }
    }
}

/// Flags of `boardgames train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The board side: 8 or 6, the boards with patterns.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value = "8", value_parser = parse_side)]
    pub size: BoardSide,
    /// The seed the games and the fit follow.
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 1
    )]
    pub seed: u64,
    /// About how many solved positions to fit.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 400_000, value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub samples: u64,
    /// Passes of the fit over the positions.
    #[arg(long, value_name = "E", allow_negative_numbers = true, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Threads that solve positions (the positions do not depend on it).
    #[arg(long, value_name = "T", allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Where to write the weights.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    pub output: PathBuf,
    /// Keep the solved positions in FILE: read them from it if it exists, else write them.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    pub cache: Option<PathBuf>,
    /// Fit the size-generic evaluation (boards without patterns, and boards with pits) from
    /// games on 6x6, 8x8 and 10x10 boards with random pits, rather than a board's patterns.
    #[arg(long, conflicts_with_all = ["size", "epochs", "cache"])]
    pub features: bool,
    /// Fit the patterns' midgame phases, from games played on from random openings and solved
    /// once few cells are empty, rather than the endgame's, from solved positions.
    #[arg(long)]
    pub midgame: bool,
}

/// Flags of `boardgames perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The deepest ply to count: 1 to 60.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = parse_depth)]
    pub depth: u32,
    /// Threads to split the count across.
    #[arg(long, value_name = "T", allow_negative_numbers = true, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Remember counts in a table, keyed by the position seen through the board's symmetries.
    #[arg(long)]
    pub hash: bool,
    /// The table's size in MiB.
    #[arg(long, value_name = "MB", allow_negative_numbers = true, default_value_t = 256, requires = "hash", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub hash_mb: u32,
}

/// The Othello board side, shared by every command that takes one.
#[derive(Debug, Args)]
pub struct SideArgs {
    /// Board side: an even number from 4 to 26.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value = "8", value_parser = parse_side)]
    pub size: BoardSide,
}

/// Flags of `boardgames othello`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("opponent").args(["computer", "hints"]).multiple(true))]
pub struct OthelloArgs {
    #[command(flatten)]
    pub side: SideArgs,
    /// Let the computer play X, O, or both.
    #[arg(long, value_name = "X|O|both", allow_negative_numbers = true, value_parser = parse_othello_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of `boardgames mancala`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("opponent").args(["computer", "hints"]).multiple(true))]
pub struct MancalaArgs {
    #[command(flatten)]
    pub kalah: KalahArgs,
    /// Let the computer play Player 1, Player 2, or both.
    #[arg(long, value_name = "1|2|both", allow_negative_numbers = true, value_parser = parse_mancala_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of playing against the computer.
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// The computer's strength, 1 to 10 (needs --computer or --hints): level 1 looks one move
    /// ahead and sometimes plays at random, each level above looks further and plays the end
    /// perfectly from earlier on.
    #[arg(
        long,
        value_name = "L",
        allow_negative_numbers = true,
        default_value_t = 5,
        value_parser = parse_level,
        requires = "opponent"
    )]
    pub level: u32,
    /// Seed of the computer's choices among equally good moves (needs --computer or --hints).
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        default_value_t = 0,
        requires = "opponent"
    )]
    pub seed: u64,
    /// Answer ? at a prompt with a suggested move (on whenever the computer plays).
    #[arg(long)]
    pub hints: bool,
}

impl VersusArgs {
    /// The opponents of a game where the computer plays `computer` (by player index), if any.
    fn opponents(&self, computer: Option<[bool; 2]>) -> Opponents {
        Opponents {
            computer: computer.unwrap_or_default(),
            level: self.level,
            seed: self.seed,
            hints: self.hints,
        }
    }
}

/// A Kalah start position: pits per row and stones per pit.
#[derive(Debug, Args)]
pub struct KalahArgs {
    /// Pits in each player's row: 1 to 12.
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value = "6", value_parser = parse_pits)]
    pub pits: PitsPerRow,
    /// Stones in each pit at the start: 1 to 99.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = 4, value_parser = parse_stones)]
    pub stones: u8,
    /// When a last stone in an empty pit of the mover's row captures: 'standard' (the
    /// assignment's rule: only when the opposite pit holds stones) or 'empty' (always; the
    /// capturing stone goes to the store even when the opposite pit is empty).
    #[arg(long, value_name = "RULE", allow_negative_numbers = true, default_value = "standard", value_parser = parse_capture)]
    pub capture: Capture,
}

impl KalahArgs {
    pub(crate) fn board(&self) -> KalahBoard {
        KalahBoard {
            pits: self.pits,
            stones: self.stones,
            capture: self.capture,
        }
    }
}

/// Flags every game shares.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Write every token read back to the output, as a terminal would show it.
    #[arg(long)]
    pub echo: bool,
    /// Help a person play: mark the legal moves, show the last move, the counts, why a move
    /// is refused and the final score, in colour on a terminal (unless NO_COLOR is set).
    /// Without it the output is the course's text, byte for byte.
    #[arg(long)]
    pub friendly: bool,
}

impl ConsoleArgs {
    fn showing(&self) -> Showing {
        Showing {
            echo: self.echo,
            friendly: self.friendly,
            ..Showing::default()
        }
    }
}

/// A capture rule by name.
fn parse_capture(text: &str) -> Result<Capture, String> {
    match text {
        "standard" => Ok(Capture::Standard),
        "empty" => Ok(Capture::Empty),
        _ => Err("allowed values are standard and empty".to_string()),
    }
}

/// A decimal number that `allowed` turns into a value, or a message naming the allowed values.
fn parse_in<T: FromStr, U>(
    text: &str,
    allowed: impl Fn(T) -> Option<U>,
    values: &str,
) -> Result<U, String> {
    text.parse()
        .ok()
        .and_then(allowed)
        .ok_or_else(|| format!("allowed values are {values}"))
}

/// The number itself when `range` holds it.
fn within<T: PartialOrd>(range: RangeInclusive<T>) -> impl Fn(T) -> Option<T> {
    move |n| range.contains(&n).then_some(n)
}

fn parse_side(text: &str) -> Result<BoardSide, String> {
    parse_in(text, BoardSide::new, "the even numbers 4, 6, ..., 26")
}

fn parse_pits(text: &str) -> Result<PitsPerRow, String> {
    parse_in(text, PitsPerRow::new, "1 to 12")
}

fn parse_stones(text: &str) -> Result<u8, String> {
    parse_in(text, within(STONES), "1 to 99")
}

fn parse_depth(text: &str) -> Result<u32, String> {
    parse_in(text, within(1..=60), "1 to 60")
}

fn parse_level(text: &str) -> Result<u32, String> {
    parse_in(text, within(LEVELS), "1 to 10")
}

/// Which players the computer takes, by index, from their names in this game.
fn computer_players(text: &str, first: &str, second: &str) -> Result<[bool; 2], String> {
    match text {
        t if t.eq_ignore_ascii_case(first) => Ok([true, false]),
        t if t.eq_ignore_ascii_case(second) => Ok([false, true]),
        t if t.eq_ignore_ascii_case("both") => Ok([true, true]),
        _ => Err(format!("allowed values are {first}, {second} and both")),
    }
}

fn parse_othello_computer(text: &str) -> Result<[bool; 2], String> {
    computer_players(text, "X", "O")
}

fn parse_mancala_computer(text: &str) -> Result<[bool; 2], String> {
    computer_players(text, "1", "2")
}
