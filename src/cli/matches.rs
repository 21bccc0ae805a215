//! The flags of the matches: `boardgames arena` (the computer's levels against each other) and
//! `boardgames relay` (two programs through their consoles).

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::common::{
    BoardArgs, KalahArgs, SEED, SideArgs, cores, parse_in, parse_level, parse_seconds, parse_seed,
    parse_threads, usage_error, within,
};
use crate::board::LEVELS;
use crate::matches::{ArenaBoard, Contender, Contest, Openings, Relaying};

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
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = SEED, value_parser = parse_seed)]
    pub seed: u64,
    /// Games played at once [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl Arena {
    /// The tournament, or the usage error of one with fewer than two players.
    pub(super) fn contest(self) -> Result<Contest, clap::Error> {
        let (board, how) = match self {
            Arena::Othello { side, how } => (ArenaBoard::Othello(side.size), how),
            Arena::Mancala { kalah, how } => (ArenaBoard::Mancala(kalah.board()), how),
        };
        if how.levels.len() < 2 {
            return Err(usage_error("--levels needs two players or more, as 1,5"));
        }
        Ok(how.contest(board))
    }
}

impl ArenaArgs {
    fn contest(self, board: ArenaBoard) -> Contest {
        Contest {
            board,
            contenders: self.levels,
            openings: self.games / 2,
            seed: self.seed,
            threads: self.threads.unwrap_or_else(cores),
        }
    }
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
    #[arg(long, value_name = "G", allow_negative_numbers = true, default_value_t = 20, value_parser = parse_games, conflicts_with = "openings")]
    pub games: usize,
    /// Play the openings FILE lists rather than random ones, each from both sides: one a line,
    /// its moves as the console names them (`D3 C5 F6` or `d3c5f6`), passes left out.
    #[arg(long, value_name = "FILE", conflicts_with = "every_opening")]
    pub openings: Option<PathBuf>,
    /// Play every opening of four moves once from each side (on 8x8 without pits, 244 openings,
    /// 488 games) rather than random ones: a measure with no draw of openings.
    #[arg(long, conflicts_with = "games")]
    pub every_opening: bool,
    /// Seed of the openings and of the programs' seeds.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = SEED, value_parser = parse_seed)]
    pub seed: u64,
    /// Seconds a program may take to ask for the next move (decimals allowed).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, default_value_t = 60.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Print each game's record under its line (its pits, then its moves), as `boardgames
    /// review othello` reads it.
    #[arg(long)]
    pub moves: bool,
    /// Program A: a boardgames build (a path, or a name looked up in PATH).
    pub a: OsString,
    /// Program B, the same.
    pub b: OsString,
}

impl RelayArgs {
    pub(super) fn relaying(self) -> Relaying {
        Relaying {
            board: self.board.board(),
            levels: self.levels,
            openings: match (self.openings, self.every_opening) {
                (Some(path), _) => Openings::Listed(path),
                (None, true) => Openings::Every,
                (None, false) => Openings::Random(self.games / 2),
            },
            seed: self.seed,
            timeout: Duration::from_secs_f64(self.timeout),
            moves: self.moves,
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
