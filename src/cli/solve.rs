//! The flags of `boardgames solve`: which game, from where, with how much memory, and what to
//! report.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::common::{
    BoardArgs, HASH_MB, KalahArgs, SOLVE_OTHELLO_HASH_MB, cores, parse_hash_mb, parse_threads,
};
use crate::othello::{Asked, Scoring};
use crate::tools::{OthelloPositions, PositionText, SolveOptions, Tool, parse_position};

/// The games the solver takes.
#[derive(Debug, Subcommand)]
pub enum Solve {
    /// Othello: the final disc difference under perfect play and a best move.
    #[command(
        long_about = "Othello: the final disc difference under perfect play and a best move, \
                      from the start of a game (Black minus White) or from given positions \
                      (for the player to move).\n\n\
                      Small boards and endgames finish: 4x4 at once, 6x6 from the start in \
                      minutes, 8x8 positions with 20 to 24 empty cells in seconds. 8x8 from \
                      the start will not finish (it is unsolved), nor will larger boards.",
        after_help = "Examples:\n  boardgames solve othello --size 6 --pv\n  \
                      boardgames solve othello --position-file fforum-40-59.obf --empties-to-winner\n  \
                      boardgames solve othello --position '#--------XO--OX- O' --all-moves"
    )]
    Othello(SolveOthelloArgs),
    /// Kalah: the first player's final store margin and a best first move.
    #[command(
        long_about = "Kalah: the first player's final store margin under perfect play and a \
                      best first move (the first, in pit order, that reaches the value). \
                      Measured on two threads of a 2-core machine: Kalah (4,3) at once, (6,3) \
                      in about a second, (12,1) in about 7 s, (6,4) (48 stones) in about 22 \
                      s; (10,2) takes minutes, and (6,5) and larger far longer.",
        after_help = "Examples:\n  boardgames solve mancala --pits 4 --stones 3 --all-moves\n  \
                      boardgames solve mancala --pits 6 --stones 4 --capture empty"
    )]
    Mancala(SolveMancalaArgs),
}

/// Flags of `boardgames solve mancala`.
#[derive(Debug, Args)]
pub struct SolveMancalaArgs {
    #[command(flatten)]
    kalah: KalahArgs,
    /// Also print Player 1's margin after each first move.
    #[arg(long)]
    all_moves: bool,
    /// Threads to solve on (the pits of each round of null-window tests are dealt out to them,
    /// over shared tables); the answer is the same [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    memory: SolveMemory,
}

/// Flags of `boardgames solve othello`.
#[derive(Debug, Args)]
pub struct SolveOthelloArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Solve this position instead of a start: the cells row by row (X, O, - for empty, # for
    /// a pit; the side is the square root of their count), a space, the player to move (X or
    /// O); anything after a ';' is ignored, as in the FFO suite's .obf files. A position that
    /// starts with '-' is taken as it is: --position '--XO... X'.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true, value_parser = parse_position,
          conflicts_with_all = ["size", "pits", "position_file"])]
    position: Option<PositionText>,
    /// Solve every position of FILE ('-' for standard input), one a line as --position takes
    /// them (blank lines and lines starting with '%' or '# ' are skipped).
    #[arg(long, value_name = "FILE", allow_negative_numbers = true, conflicts_with_all = ["size", "pits"])]
    position_file: Option<PathBuf>,
    /// Also print the exact value of every legal move.
    #[arg(long)]
    all_moves: bool,
    /// Also print a principal variation: perfect moves for both sides to the end.
    #[arg(long)]
    pv: bool,
    /// Score a finished game by the tournament rule, empty cells to the winner (as the FFO
    /// suite and Edax do), rather than by the discs alone.
    #[arg(long)]
    empties_to_winner: bool,
    /// Threads to solve each position on, sharing its table; positions of 14 or more empty
    /// cells use them all. The results are the same on any number; only the time and the
    /// nodes differ [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    memory: SolveMemory,
}

/// The solver's memory and progress.
#[derive(Debug, Args)]
struct SolveMemory {
    /// The most MiB the transposition table may take: it starts small and grows as the search
    /// fills it, up to that (and no larger than the position can fill); the solve never uses
    /// much more. A size the machine cannot back is an error [default: 64 for Othello, whose
    /// search is faster in a small table, 512 for Kalah].
    #[arg(long, value_name = "MB", allow_negative_numbers = true, value_parser = parse_hash_mb)]
    hash_mb: Option<u32>,
    /// Show progress on standard error even when it is not a terminal.
    #[arg(long)]
    progress: bool,
}

impl Solve {
    /// The task the flags ask for.
    pub(super) fn tool(self) -> Tool {
        match self {
            Solve::Othello(args) => {
                let how = SolveOptions {
                    hash_mb: args.memory.hash_mb.unwrap_or(SOLVE_OTHELLO_HASH_MB) as usize,
                    progress: args.memory.progress,
                    asked: Asked {
                        line: args.pv,
                        moves: args.all_moves,
                    },
                    scoring: if args.empties_to_winner {
                        Scoring::EmptiesToWinner
                    } else {
                        Scoring::Discs
                    },
                    threads: args.threads.unwrap_or_else(cores),
                };
                let positions = match (args.position, args.position_file) {
                    (Some(position), _) => OthelloPositions::Given(position),
                    (None, Some(path)) => OthelloPositions::File(path),
                    (None, None) => OthelloPositions::Start(args.board.board()),
                };
                Tool::SolveOthello { positions, how }
            }
            Solve::Mancala(args) => Tool::SolveMancala {
                board: args.kalah.board(),
                how: SolveOptions {
                    hash_mb: args.memory.hash_mb.unwrap_or(HASH_MB) as usize,
                    progress: args.memory.progress,
                    asked: Asked {
                        line: false,
                        moves: args.all_moves,
                    },
                    scoring: Scoring::Discs,
                    threads: args.threads.unwrap_or_else(cores).min(2),
                },
            },
        }
    }
}
