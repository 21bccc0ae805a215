//! What several commands share: the board flags (an Othello side and its pits, a Kalah board),
//! the value parsers that name the allowed values in their errors, and the machine's cores as
//! the default of every `--threads`.

use std::ops::RangeInclusive;
use std::str::FromStr;

use clap::Args;

use crate::board::{BoardSide, Coord, LEVELS, PitsPerRow, STONES};
use crate::driver::KalahBoard;
use crate::mancala::Capture;
use crate::tools::OthelloBoard;

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

/// The Othello board side, shared by every command that takes one.
#[derive(Debug, Args)]
pub struct SideArgs {
    /// Board side: an even number from 4 to 26.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value = "8", value_parser = parse_side)]
    pub size: BoardSide,
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

/// A capture rule by name.
pub(super) fn parse_capture(text: &str) -> Result<Capture, String> {
    match text {
        "standard" => Ok(Capture::Standard),
        "empty" => Ok(Capture::Empty),
        _ => Err("allowed values are standard and empty".to_string()),
    }
}

/// A decimal number that `allowed` turns into a value, or a message naming the allowed values.
pub(super) fn parse_in<T: FromStr, U>(
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
pub(super) fn within<T: PartialOrd>(range: RangeInclusive<T>) -> impl Fn(T) -> Option<T> {
    move |n| range.contains(&n).then_some(n)
}

pub(super) fn parse_side(text: &str) -> Result<BoardSide, String> {
    parse_in(text, BoardSide::new, "the even numbers 4, 6, ..., 26")
}

pub(super) fn parse_pits(text: &str) -> Result<PitsPerRow, String> {
    parse_in(text, PitsPerRow::new, "1 to 12")
}

pub(super) fn parse_stones(text: &str) -> Result<u8, String> {
    parse_in(text, within(STONES), "1 to 99")
}

pub(super) fn parse_depth(text: &str) -> Result<u32, String> {
    parse_in(text, within(1..=60), "1 to 60")
}

pub(super) fn parse_level(text: &str) -> Result<u32, String> {
    parse_in(text, within(LEVELS), "1 to 10")
}

/// The seed of every command that takes one when none is given.
pub(super) const SEED: u64 = 1;

/// The ceiling of a table's size in MiB when none is given (a table is sized to its work
/// below it).
pub(super) const HASH_MB: u32 = 512;

/// The Othello solver's ceiling when none is given: its table fills whatever it may, and past
/// this size it costs more in memory traffic than it saves in nodes (FFO #40-#49 on one
/// thread, one process: 64 MiB 747.8 million nodes in 31.4 processor-seconds, 128 MiB 737.6
/// million in 32.8 s, 512 MiB 728.2 million in 37.8-38.2 s; 6x6 from the start on two
/// threads, 37.7 s against 40.7 s).
pub(super) const SOLVE_OTHELLO_HASH_MB: u32 = 64;

pub(super) fn parse_seed(text: &str) -> Result<u64, String> {
    parse_in(text, Some, "the whole numbers 0 to 18446744073709551615")
}

pub(super) fn parse_threads(text: &str) -> Result<usize, String> {
    parse_in(text, within(1..=256), "1 to 256")
}

pub(super) fn parse_hash_mb(text: &str) -> Result<u32, String> {
    parse_in(text, within(1..=1 << 20), "1 to 1048576 (MiB)")
}

/// A positive number of seconds, at most a day, as a decimal (0.5, 2, 60).
pub(super) fn parse_seconds(text: &str) -> Result<f64, String> {
    parse_in(
        text,
        |s: f64| (s > 0.0 && s <= 86_400.0).then_some(s),
        "more than 0, at most 86400 (seconds, decimals allowed)",
    )
}

/// A usage error (exit 2) that flags alone cannot state, with the usage line.
pub(super) fn usage_error(message: &str) -> clap::Error {
    use clap::CommandFactory;
    super::Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message)
}

/// The machine's cores: the default number of games, runs or threads at once.
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
