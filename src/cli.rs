//! The command line: one subcommand per game and per engine tool, each with its flags and their
//! allowed values. It only describes and validates arguments; running them is the driver's job.

use std::ops::RangeInclusive;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand};

use crate::board::{Coord, PIT_COUNTS, SIDES};

/// Console ports of two classic C++ course assignments: Othello with pits and Kalah.
#[derive(Debug, Parser)]
#[command(name = "boardgames", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
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
    #[command(after_help = "Example:\n  boardgames generate othello --size 6 --seed 7 --errors")]
    Othello {
        #[command(flatten)]
        side: SideArgs,
        #[command(flatten)]
        how: GenerateArgs,
    },
    /// Kalah: a non-empty pit at every turn.
    #[command(after_help = "Example:\n  boardgames generate mancala --pits 4 --stones 3 --seed 7")]
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
    /// Also put in wrong entries (malformed, illegal, undos), each followed by the right one.
    #[arg(long)]
    pub errors: bool,
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
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = parse_side)]
    pub size: usize,
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

/// A Kalah start position: pits per row and stones per pit.
#[derive(Debug, Args)]
pub struct KalahArgs {
    /// Pits in each player's row: 1 to 12.
    #[arg(long, value_name = "P", default_value_t = 6, value_parser = parse_pits)]
    pub pits: usize,
    /// Stones in each pit at the start: 1 to 99.
    #[arg(long, value_name = "S", default_value_t = 4, value_parser = parse_stones)]
    pub stones: u32,
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

fn parse_depth(text: &str) -> Result<u32, String> {
    parse_in(text, |depth| (1..=60).contains(depth), "1 to 60")
}

fn parse_level(text: &str) -> Result<u32, String> {
    parse_in(text, |level| (1..=10).contains(level), "1 to 10")
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
