//! The flags of the engine tools `perft`, `train` and `generate` (`solve` has `solve.rs`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::common::{
    BoardArgs, HASH_MB, KalahArgs, SEED, SideArgs, cores, parse_depth, parse_hash_mb, parse_in,
    parse_seed, parse_side, parse_threads, within,
};
use crate::board::BoardSide;
use crate::tools::{Generation, PerftCounting, Tool, Training};

impl TrainArgs {
    /// The fit.
    pub(super) fn tool(self) -> Tool {
        Tool::TrainOthello(Training {
            side: self.size,
            seed: self.seed,
            samples: usize::try_from(self.samples).unwrap_or(usize::MAX),
            epochs: self.epochs,
            threads: self.threads.unwrap_or_else(cores),
            output: self.output,
            cache: self.cache,
            features: self.features,
            midgame: self.midgame,
            blend: self.blend,
        })
    }
}

/// Flags of `boardgames perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The deepest ply to count: 1 to 60.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = parse_depth)]
    pub depth: u32,
    /// Threads to split the count across [default: the machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Remember counts in a table, keyed by the position seen through the board's symmetries.
    #[arg(long)]
    pub hash: bool,
    /// The table's size in MiB.
    #[arg(long, value_name = "MB", allow_negative_numbers = true, default_value_t = HASH_MB, requires = "hash", value_parser = parse_hash_mb)]
    pub hash_mb: u32,
}

/// Flags of `boardgames train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The board side: 8 or 6, the boards with patterns.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value = "8", value_parser = parse_side)]
    pub size: BoardSide,
    /// The seed the games and the fit follow.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = SEED, value_parser = parse_seed)]
    pub seed: u64,
    /// About how many solved positions to fit.
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 400_000, value_parser = |t: &str| parse_in(t, within(100u64..=100_000_000), "100 to 100000000"))]
    pub samples: u64,
    /// Passes of the fit over the positions.
    #[arg(long, value_name = "E", allow_negative_numbers = true, default_value_t = 20, value_parser = |t: &str| parse_in(t, within(1u32..=1000), "1 to 1000"))]
    pub epochs: u32,
    /// Threads that solve positions (the positions do not depend on it) [default: the
    /// machine's cores].
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Where to write the weights.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    pub output: PathBuf,
    /// Keep the solved positions in FILE: read them from it if it exists (an error if they were
    /// made for another side, phase, seed or count, or blended by other weights or shares),
    /// else write them.
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
    /// With --midgame: label each position with a mean of its game's solved result and what a
    /// 6-ply search on the build's own weights expects, weighted to give the search PERCENT of
    /// it (1 to 100; 50 when not given), rather than with the result alone.
    #[arg(long, value_name = "PERCENT", allow_negative_numbers = true, num_args = 0..=1, default_missing_value = "50", requires = "midgame", value_parser = |t: &str| parse_in(t, within(1u8..=100), "1 to 100"))]
    pub blend: Option<u8>,
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

impl Generate {
    /// The generator's job.
    pub(super) fn tool(self) -> Tool {
        match self {
            Generate::Othello { side, how } => Tool::GenerateOthello {
                side: side.size,
                how: how.generation(),
            },
            Generate::Mancala { kalah, how } => Tool::GenerateMancala {
                board: kalah.board(),
                how: how.generation(),
            },
        }
    }
}

/// Flags of every generator.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Seed of the random choices: the same seed, the same game.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = SEED, value_parser = parse_seed)]
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

impl PerftArgs {
    /// The count.
    pub(super) fn tool(self) -> Tool {
        Tool::Perft {
            board: self.board.board(),
            depth: self.depth,
            counting: PerftCounting {
                threads: self.threads.unwrap_or_else(cores),
                hash_mb: self.hash.then_some(self.hash_mb as usize),
            },
        }
    }
}
