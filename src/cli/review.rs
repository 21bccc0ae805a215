//! The flags of `boardgames review`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::common::{
    HASH_MB, KalahArgs, SideArgs, cores, parse_hash_mb, parse_in, parse_level, parse_threads,
    within,
};
use crate::mancala::{Appraisal as KalahAppraisal, EXACT_STONES_BY_PITS};
use crate::othello::Appraisal;
use crate::tools::{ReviewFormat as Written, Reviewing, Tool};

/// The empty cells from which a review's values are exact by default: on 8x8, every move of a
/// position of 20 empty cells is solved in about 0.2 s (of 18, 0.05 s; of 22, 2.2 s; of 24,
/// 9.5 s: measured on positions of a level-10 game), and a whole game of level 10 against
/// itself is reviewed in 9 to 11 s on two threads.
const EXACT_FROM: u32 = 20;

/// The game of `boardgames review`.
#[derive(Debug, Subcommand)]
pub enum Review {
    /// Review a played Othello game.
    Othello(ReviewOthelloArgs),
    /// Review a played Kalah game.
    Mancala(ReviewMancalaArgs),
}

/// How the review is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReviewFormat {
    /// A table, a line a move, then the summary.
    Text,
    /// One JSON object: a row a turn, then the summary.
    Json,
    /// One self-contained page: a chart of the value, the worst moves' boards, the table.
    Html,
}

/// Flags of `boardgames review othello`.
#[derive(Debug, Args)]
pub struct ReviewOthelloArgs {
    /// The game: a transcript made with --echo, the input a game was played from, or a list of
    /// moves like `d3 c5 f6` [default: standard input].
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub side: SideArgs,
    /// Values are exact from this many empty cells; before, the search's estimates.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = EXACT_FROM, value_parser = |t: &str| parse_in(t, within(0u32..=676), "0 to 676"))]
    pub exact_from: u32,
    /// The computer's level whose search estimates the values before that.
    #[arg(long, value_name = "L", allow_negative_numbers = true, default_value_t = 10, value_parser = parse_level)]
    pub level: u32,
    /// Threads for the exact solves [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// The solver's table in MiB.
    #[arg(long, value_name = "MB", allow_negative_numbers = true, default_value_t = HASH_MB, value_parser = parse_hash_mb)]
    pub hash_mb: u32,
    /// How the review is written.
    #[arg(long, value_enum, default_value_t = ReviewFormat::Text)]
    pub format: ReviewFormat,
}

/// Flags of `boardgames review mancala`.
#[derive(Debug, Args)]
pub struct ReviewMancalaArgs {
    /// The game: a transcript made with --echo, or the pit numbers typed (u for an undo)
    /// [default: standard input].
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub kalah: KalahArgs,
    /// Values are exact from this many stones in the pits; before, the lookahead's estimates
    /// [default: 288 divided by the pits in a row, 48 for six: Kalah (6,4) exact throughout,
    /// in about 23 s on two threads for a well played game, minutes for a beginner's].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = |t: &str| parse_in(t, within(0u32..=2376), "0 to 2376"))]
    pub exact_from: Option<u32>,
    /// The computer's level whose lookahead estimates the values before that.
    #[arg(long, value_name = "L", allow_negative_numbers = true, default_value_t = 10, value_parser = parse_level)]
    pub level: u32,
    /// Threads for the exact solves [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// The solver's tables in MiB.
    #[arg(long, value_name = "MB", allow_negative_numbers = true, default_value_t = HASH_MB, value_parser = parse_hash_mb)]
    pub hash_mb: u32,
    /// How the review is written.
    #[arg(long, value_enum, default_value_t = ReviewFormat::Text)]
    pub format: ReviewFormat,
}

impl ReviewFormat {
    fn written(self) -> Written {
        match self {
            ReviewFormat::Text => Written::Text,
            ReviewFormat::Json => Written::Json,
            ReviewFormat::Html => Written::Html,
        }
    }
}

impl Review {
    /// The review.
    pub(super) fn tool(self) -> Tool {
        match self {
            Review::Othello(args) => Tool::ReviewOthello {
                side: args.side.size,
                reviewing: Reviewing {
                    source: args.file,
                    how: Appraisal {
                        exact_from: args.exact_from,
                        level: args.level,
                        threads: args.threads.unwrap_or_else(cores),
                        hash_mb: usize::try_from(args.hash_mb).unwrap_or(usize::MAX),
                    },
                    format: args.format.written(),
                },
            },
            Review::Mancala(args) => {
                let board = args.kalah.board();
                let pits = u32::try_from(board.pits.get()).unwrap_or(u32::MAX);
                Tool::ReviewMancala {
                    board,
                    reviewing: Reviewing {
                        source: args.file,
                        how: KalahAppraisal {
                            exact_from: args
                                .exact_from
                                .unwrap_or(EXACT_STONES_BY_PITS / pits.max(1)),
                            level: args.level,
                            threads: args.threads.unwrap_or_else(cores),
                            hash_mb: usize::try_from(args.hash_mb).unwrap_or(usize::MAX),
                        },
                        format: args.format.written(),
                    },
                }
            }
        }
    }
}
