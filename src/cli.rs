//! The command line: one subcommand per game and per engine tool, each with its flags and their
//! allowed values, turned into the driver's [`Task`] in one place ([`Cli::task`]). It only
//! describes and validates arguments; running them is the driver's job.

use std::ops::RangeInclusive;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand};

use crate::board::{BoardSide, Coord, LEVELS, PitsPerRow, STONES};
use crate::driver::{KalahBoard, Opponents, OthelloBoard, Task};
use crate::generate::Generation;

/// Console ports of two classic C++ course assignments: Othello with pits and Kalah.
#[derive(Debug, Parser)]
#[command(name = "boardgames", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// What the command line asks for: the task, and whether to echo every token read.
    #[must_use]
    pub fn task(self) -> (Task, bool) {
        match self.command {
            Command::Othello(args) => {
                let opponents = args.vs.opponents(args.computer);
                let side = args.side.size;
                (Task::PlayOthello { side, opponents }, args.console.echo)
            }
            Command::Mancala(args) => {
                let opponents = args.vs.opponents(args.computer);
                let board = args.kalah.board();
                (Task::PlayMancala { board, opponents }, args.console.echo)
            }
            Command::Perft(args) => {
                let board = args.board.board();
                (
                    Task::Perft {
                        board,
                        depth: args.depth,
                    },
                    false,
                )
            }
            Command::Solve(Solve::Othello(args)) => (Task::SolveOthello(args.board()), false),
            Command::Solve(Solve::Mancala(args)) => (Task::SolveMancala(args.board()), false),
            Command::Generate(Generate::Othello { side, how }) => {
                let side = side.size;
                (
                    Task::GenerateOthello {
                        side,
                        how: how.generation(),
                    },
                    false,
                )
            }
            Command::Generate(Generate::Mancala { kalah, how }) => {
                let board = kalah.board();
                (
                    Task::GenerateMancala {
                        board,
                        how: how.generation(),
                    },
                    false,
                )
            }
        }
    }
}

/// The games on offer, and the engine's tools.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Othello (Reversi) for two players at one console, with pits.
    #[command(
        long_about = "Othello (Reversi) for two players at one console, as the course's sample \
                      program plays it.\nPits set up before the game are cells no one may play.",
        after_help = "Examples:\n  boardgames othello --size 6 --echo < moves.txt\n  \
                      boardgames othello --computer O --level 6"
    )]
    Othello(OthelloArgs),
    /// Kalah (Mancala) for two players at one console, with undo.
    #[command(
        long_about = "Kalah (Mancala) for two players at one console: sow stones anticlockwise, \
                      fill your store.\nAnswer a prompt with a pit number, or u to take back \
                      the last move.",
        after_help = "Examples:\n  boardgames mancala --pits 4 --stones 3 --echo < moves.txt\n  \
                      boardgames mancala --computer 2 --level 4"
    )]
    Mancala(MancalaArgs),
    /// Count the move paths of an Othello start position to each depth (perft).
    #[command(
        long_about = "Count the move paths of an Othello start position to each depth (perft).\n\
                      A pass is a ply; a position where neither player can move is one leaf.",
        after_help = "Example:\n  boardgames perft --size 6 --pits A1,A2,B1 --depth 8"
    )]
    Perft(PerftArgs),
    /// Solve a game from its start under perfect play.
    #[command(
        subcommand,
        long_about = "Solve a game from its start under perfect play, by exhaustive search.\n\
                      4x4 Othello and Kalah of up to about 48 stones finish in under a minute; \
                      larger boards run for as long as the search takes."
    )]
    Solve(Solve),
    /// Print the input of one random legal game, for testing other programs.
    #[command(
        subcommand,
        long_about = "Print the input tokens of one random legal game, one a line: pipe the same \
                      file into a student's program and into boardgames, and diff the outputs.\n\
                      The same seed and flags always give the same game."
    )]
    Generate(Generate),
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
    #[arg(long, value_name = "S")]
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

/// The games the solver takes.
#[derive(Debug, Subcommand)]
pub enum Solve {
    /// Othello: the final disc difference (Black minus White) and a best first move.
    #[command(after_help = "Example:\n  boardgames solve othello --size 4")]
    Othello(BoardArgs),
    /// Kalah: the first player's final store margin and a best first move.
    #[command(after_help = "Example:\n  boardgames solve mancala --pits 4 --stones 3")]
    Mancala(KalahArgs),
}

/// An Othello start position: the side and the pits.
#[derive(Debug, Args)]
pub struct BoardArgs {
    #[command(flatten)]
    pub side: SideArgs,
    /// Pit cells, separated by commas.
    #[arg(long, value_name = "CELLS", value_delimiter = ',')]
    pub pits: Vec<Coord>,
}

impl BoardArgs {
    fn board(self) -> OthelloBoard {
        OthelloBoard {
            side: self.side.size,
            pits: self.pits,
        }
    }
}

/// Flags of `boardgames perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The deepest ply to count: 1 to 60.
    #[arg(long, value_name = "D", value_parser = parse_depth)]
    pub depth: u32,
}

/// The Othello board side, shared by every command that takes one.
#[derive(Debug, Args)]
pub struct SideArgs {
    /// Board side: an even number from 4 to 26.
    #[arg(long, value_name = "N", default_value = "8", value_parser = parse_side)]
    pub size: BoardSide,
}

/// Flags of `boardgames othello`.
#[derive(Debug, Args)]
pub struct OthelloArgs {
    #[command(flatten)]
    pub side: SideArgs,
    /// Let the computer play X, O, or both.
    #[arg(long, value_name = "X|O|both", value_parser = parse_othello_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of `boardgames mancala`.
#[derive(Debug, Args)]
pub struct MancalaArgs {
    #[command(flatten)]
    pub kalah: KalahArgs,
    /// Let the computer play Player 1, Player 2, or both.
    #[arg(long, value_name = "1|2|both", value_parser = parse_mancala_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of playing against the computer.
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// How far the computer looks ahead: 1 to 10.
    #[arg(long, value_name = "L", default_value_t = 5, value_parser = parse_level)]
    pub level: u32,
    /// Seed of the computer's choices among equally good moves.
    #[arg(long, value_name = "S", default_value_t = 0)]
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
    #[arg(long, value_name = "P", default_value = "6", value_parser = parse_pits)]
    pub pits: PitsPerRow,
    /// Stones in each pit at the start: 1 to 99.
    #[arg(long, value_name = "S", default_value_t = 4, value_parser = parse_stones)]
    pub stones: u8,
}

impl KalahArgs {
    fn board(&self) -> KalahBoard {
        KalahBoard {
            pits: self.pits,
            stones: self.stones,
        }
    }
}

/// Flags every game shares.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Write every token read back to the output, as a terminal would show it.
    #[arg(long)]
    pub echo: bool,
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
