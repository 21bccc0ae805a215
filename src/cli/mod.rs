//! The command line: one subcommand per game and per engine tool, each with its flags and their
//! allowed values, turned into what runs it in one place ([`Cli::invocation`]). Each command
//! family's flags are a file of their own (`play.rs` the games, `tools.rs` perft, train and
//! generate, `solve.rs`, `matches.rs` the arena and the relay, `judge.rs`), over the board flags
//! and value parsers they share (`common.rs`). It only describes and validates arguments;
//! running them is the console's, the tools', the matches' and the judge's job.

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::driver::{Showing, Task};
use std::path::PathBuf;

use crate::judge::{Format, Judging, Keeping, Sandbox, SandboxMode};
use crate::matches::{Contest, Relaying};
use crate::tools::Tool;

mod common;
mod judge;
mod matches;
mod play;
mod review;
mod solve;
mod tools;

use judge::Judge;
use matches::{Arena, Relay};
use play::{MancalaArgs, OthelloArgs};
use review::Review;
use solve::Solve;
use tools::{Generate, PerftArgs, TrainArgs};

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
    /// A game at the console, and how the console shows it (the command line sets `echo` and
    /// `friendly`; whether the output is a terminal is for the caller to add).
    Play(Task, Showing),
    /// An engine tool.
    Tool(Tool),
    /// A tournament of the computer's levels.
    Arena(Contest),
    /// A judging.
    Judge(Box<Judging>),
    /// The class table from the JSON reports of its shards, in a form.
    Merge(Vec<PathBuf>, Format),
    /// A relay between two programs.
    Relay(Box<Relaying>),
    /// The keeper of one judged run.
    Keep(Keeping),
}

impl Cli {
    /// The command line of this process, parsed; help, `--version` and usage errors end the
    /// process here, as clap does.
    #[must_use]
    pub fn from_args() -> Self {
        use clap::{CommandFactory, FromArgMatches};
        let matches = named_boardgames(Cli::command()).get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|err| err.exit())
    }

    /// What the command line asks for, or the usage error of flags that do not go together.
    pub fn invocation(self) -> Result<Invocation, clap::Error> {
        Ok(match self.command {
            Command::Othello(args) => {
                let (task, showing) = args.task()?;
                Invocation::Play(task, showing)
            }
            Command::Mancala(args) => {
                let (task, showing) = args.task()?;
                Invocation::Play(task, showing)
            }
            Command::Perft(args) => Invocation::Tool(args.tool()),
            Command::Train(args) => Invocation::Tool(args.tool()),
            Command::Solve(solve) => Invocation::Tool(solve.tool()),
            Command::Generate(generate) => Invocation::Tool(generate.tool()),
            Command::Review(review) => Invocation::Tool(review.tool()),
            Command::Arena(arena) => Invocation::Arena(arena.contest()?),
            Command::Relay(Relay::Othello(args)) => Invocation::Relay(Box::new(args.relaying())),
            Command::Judge(judge) => judge.invocation(),
            Command::JudgeKeeper {
                memory_mb,
                address_space_mb,
                sandbox,
                processes,
                file_mb,
                cpu_seconds,
                read,
                probe,
                hold,
                join,
                work,
                program,
            } => Invocation::Keep(Keeping {
                memory_mb,
                address_space_mb,
                sandbox: Sandbox {
                    mode: sandbox,
                    processes,
                    file_mb,
                    cpu_seconds,
                    read,
                    holder: join,
                    work,
                },
                probe,
                hold,
                program,
            }),
        })
    }
}

/// `command` with every subcommand, however deep, named `boardgames` in `--version` (clap
/// would print `boardgames-othello`).
fn named_boardgames(command: clap::Command) -> clap::Command {
    command
        .display_name("boardgames")
        .mut_subcommands(named_boardgames)
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
                      --progress).",
        after_help = "Examples:\n  boardgames solve othello --size 6 --pv\n  \
                      boardgames solve mancala --pits 4 --stones 3 --all-moves"
    )]
    Solve(Solve),
    /// Review a played game: each move's value against the best move's, the mistakes, where
    /// the game turned.
    #[command(
        subcommand,
        long_about = "Review a played game: replay its record (a transcript made with --echo, \
                      the input it was played from, or a list of moves) through the rules, then \
                      value every move against the best one, in discs (Othello) or stones \
                      (Kalah) of final margin for the player who made it: exact from \
                      --exact-from empty cells or stones in the pits, the search's estimate (~) \
                      before. Prints each player's total loss, their worst moves and the move \
                      after which the result could no longer change.",
        after_help = "Examples:\n  boardgames othello --echo < game.in > game.txt\n  \
                      boardgames review othello game.txt\n  \
                      echo 3 6 2 4 | boardgames review mancala --pits 3 --stones 2"
    )]
    Review(Review),
    /// Play the computer's levels against each other and print how often each wins.
    #[command(
        subcommand,
        long_about = "Play the computer's levels (and a greedy player) against each other and \
                      print a table of wins, draws and losses: every pair plays the same \
                      openings of random moves, each contender taking both sides of each. The \
                      same seed and flags give the same table on any machine.",
        after_help = "Examples:\n  boardgames arena othello --levels greedy,1,5,10 --games 20\n  \
                      boardgames arena mancala --pits 6 --stones 4 --levels 1,3,5 --games 40"
    )]
    Arena(Arena),
    /// Grade a program against the reference: run it on many games and compare transcripts.
    #[command(
        subcommand,
        long_about = "Grade a program, or a class of them (--programs DIR), against the \
                      reference: run it on generated games (or on the *.in files of a folder), \
                      each run sealed (a keeper on Linux and macOS, a Job Object on Windows) so \
                      that everything it starts is killed with it, with time, output and memory \
                      limits, and on Linux sandboxed (--sandbox: its own files only, no network, \
                      its own processes, a system-call filter), and compare its output byte for byte with the \
                      transcript the game itself makes. When the bytes differ, both transcripts \
                      are read as games: the same game shown otherwise is a presentation error \
                      (its cosmetic differences listed), a different one a wrong answer named by \
                      the rule it breaks (flip-wraps-edge, pass-missing, capture-wrong, ...). \
                      Verdicts: time limit, memory limit, output limit, runtime error, wrong \
                      answer, presentation error, accepted.\n\
                      Exit status: 0 when every case is accepted (with --programs: when every \
                      submission was graded), 1 when one is not, 2 when the program cannot be \
                      started or there are no cases, 130 when interrupted. The report's last \
                      line says how each run was sealed on this system.",
        after_help = "Examples:\n  boardgames judge othello --size 6 --cases 200 --errors -- ./othello\n  \
                      boardgames judge mancala --inputs cases/ --format junit -- ./kalah\n  \
                      boardgames judge othello --programs submissions/ --format csv"
    )]
    Judge(Box<Judge>),
    /// Play two Othello programs against each other through their consoles (for developers).
    #[command(
        subcommand,
        long_about = "Play two Othello programs against each other through their consoles, as \
                      two people at two keyboards would: each is a boardgames build (any version \
                      whose console answers ? with a hint, say the one before a change), run as \
                      PROGRAM othello --size N --hints --level L --seed S. The relay types the \
                      same random opening into both, then asks the player to move for a hint and \
                      types it into both; each opening is played twice, the programs swapping \
                      sides. Prints a line a game (with --moves, its record under it, for review \
                      othello), then A's wins-draws-losses against B and the time each took to \
                      hint. Exit status 1, with one error line, when a program ends or stops \
                      answering, or suggests an illegal move; 2 when the board cannot take a pit \
                      or a program cannot be run.",
        after_help = "Example:\n  boardgames relay othello --size 6 --levels 10,10 --games 20 ./new ./old"
    )]
    Relay(Relay),
    /// Print the input of one random legal game, for testing other programs.
    #[command(
        subcommand,
        long_about = "Print the input tokens of one random legal game, one a line: pipe the same \
                      file into a student's program and into boardgames, and diff the outputs.\n\
                      The same seed and flags always give the same game.",
        after_help = "Examples:\n  boardgames generate othello --size 6 --seed 7 --errors > case.in\n  \
                      boardgames generate mancala --pits 4 --stones 3 --seed 7"
    )]
    Generate(Generate),
    /// The judge's keeper of one run (started by the judge itself, never by hand).
    #[command(hide = true)]
    JudgeKeeper {
        /// The memory the run's processes may use together, in MiB (none when absent).
        #[arg(long, value_name = "M")]
        memory_mb: Option<u64>,
        /// Each process's address-space limit, in MiB (none when absent).
        #[arg(long, value_name = "M")]
        address_space_mb: Option<u64>,
        /// The sandbox's mode.
        #[arg(long, value_enum, default_value_t = SandboxMode::Off)]
        sandbox: SandboxMode,
        /// The sandbox's cap on processes.
        #[arg(long, default_value_t = 32)]
        processes: u32,
        /// The sandbox's file-size limit, in MiB.
        #[arg(long, default_value_t = 64)]
        file_mb: u64,
        /// The sandbox's processor-time limit, in seconds.
        #[arg(long, default_value_t = u64::MAX)]
        cpu_seconds: u64,
        /// Folders the program may read besides its own.
        #[arg(long)]
        read: Vec<std::path::PathBuf>,
        /// Only print what the sandbox comes to, running nothing.
        #[arg(long)]
        probe: bool,
        /// Hold the namespaces the judge's runs join, until the judge ends.
        #[arg(long)]
        hold: bool,
        /// Join the namespaces this holder holds.
        #[arg(long, value_name = "PID")]
        join: Option<u32>,
        /// The run's working folder, kept after it.
        #[arg(long, value_name = "DIR")]
        work: Option<std::path::PathBuf>,
        /// The program and its arguments, after `--`.
        #[arg(last = true, required = true, value_name = "PROGRAM")]
        program: Vec<OsString>,
    },
}
