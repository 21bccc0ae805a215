//! The command line: one subcommand per game, each with its flags and their allowed values.
//! It only describes and validates arguments; playing is the driver's job.

use clap::{Args, Parser, Subcommand};

use crate::board::SIDES;

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
}

/// Flags of `boardgames othello`.
#[derive(Debug, Args)]
pub struct OthelloArgs {
    /// Board side: an even number from 4 to 26.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = parse_side)]
    pub size: usize,
    /// Write every token read back to the output, as a terminal would show it.
    #[arg(long)]
    pub echo: bool,
}

fn parse_side(text: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|side| SIDES.contains(side))
        .ok_or_else(|| "allowed values are the even numbers 4, 6, ..., 26".to_string())
}
