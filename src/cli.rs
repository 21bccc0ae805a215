//! The command line: one subcommand per game, each with its flags and their allowed values.
//! It only describes and validates arguments; playing is the driver's job.

use std::ops::RangeInclusive;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand};

use crate::board::{PIT_COUNTS, SIDES};

/// Console ports of two classic C++ course assignments: Othello with pits and Kalah.
#[derive(Debug, Parser)]
#[command(name = "boardgames", version)]
pub struct Cli {
    /// The game to play.
    #[command(subcommand)]
    pub game: Game,
}

/// The games on offer.
#[derive(Debug, Subcommand)]
pub enum Game {
    /// Othello (Reversi) for two players at one console, with pits.
    #[command(
        long_about = "Othello (Reversi) for two players at one console, as the course's sample \
                      program plays it.\nPits set up before the game are cells no one may play.",
        after_help = "Example:\n  boardgames othello --size 6 --echo < moves.txt"
    )]
    Othello(OthelloArgs),
    /// Kalah (Mancala) for two players at one console, with undo.
    #[command(
        long_about = "Kalah (Mancala) for two players at one console: sow stones anticlockwise, \
                      fill your store.\nAnswer a prompt with a pit number, or u to take back \
                      the last move.",
        after_help = "Example:\n  boardgames mancala --pits 4 --stones 3 --echo < moves.txt"
    )]
    Mancala(MancalaArgs),
}

/// Flags of `boardgames othello`.
#[derive(Debug, Args)]
pub struct OthelloArgs {
    /// Board side: an even number from 4 to 26.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = parse_side)]
    pub size: usize,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of `boardgames mancala`.
#[derive(Debug, Args)]
pub struct MancalaArgs {
    /// Pits in each player's row: 1 to 12.
    #[arg(long, value_name = "P", default_value_t = 6, value_parser = parse_pits)]
    pub pits: usize,
    /// Stones in each pit at the start: 1 to 99.
    #[arg(long, value_name = "S", default_value_t = 4, value_parser = parse_stones)]
    pub stones: u32,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags every game shares.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Write every token read back to the output, as a terminal would show it.
    #[arg(long)]
    pub echo: bool,
}

/// Stones per pit the console can show: the board widens with the total, up to 2376.
const STONES: RangeInclusive<u32> = 1..=99;

/// A decimal number that `allowed` accepts, or a message naming the allowed values.
fn parse_in<T: FromStr>(
    text: &str,
    allowed: impl Fn(&T) -> bool,
    values: &str,
) -> Result<T, String> {
    text.parse()
        .ok()
        .filter(allowed)
        .ok_or_else(|| format!("allowed values are {values}"))
}

fn parse_side(text: &str) -> Result<usize, String> {
    parse_in(
        text,
        |side| SIDES.contains(side),
        "the even numbers 4, 6, ..., 26",
    )
}

fn parse_pits(text: &str) -> Result<usize, String> {
    parse_in(text, |pits| PIT_COUNTS.contains(pits), "1 to 12")
}

fn parse_stones(text: &str) -> Result<u32, String> {
    parse_in(text, |stones| STONES.contains(stones), "1 to 99")
}
