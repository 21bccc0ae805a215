//! The engine tools at the console: `perft`, `solve`, `train`, `generate` and `review`, each a
//! [`Tool`] run over the console's reader and writer. Each file holds one tool's report (its
//! text, its clock, its progress on standard error) and hands the work to the games once the
//! board size is a type; the counting, solving, fitting and generating are the games' and the
//! generator's. Tools sit above the console (`driver`), which they print through; the judge
//! and the matches above them use the generator and the start positions.

mod generate;
mod perft;
mod positions;
mod review;
mod solve;
mod train;

use std::io::{BufRead, Write};

pub use generate::Generation;
pub use positions::{PositionText, parse_position};
pub use review::{Format as ReviewFormat, Reviewing};
// For the fuzz targets of the position and record readers (`fuzz/`).
#[cfg(fuzzing)]
pub(crate) use positions::read_positions;
#[cfg(fuzzing)]
pub(crate) use review::{replayed, replayed_kalah};
pub use solve::{OthelloPositions, SolveOptions};
pub use train::Training;

use crate::board::{BoardSide, Coord};
use crate::driver::{self, Console, KalahBoard, Showing, Stop};
use crate::mancala::with_pits;
use crate::othello::{Layout, Othello, PitError, Side, with_side};

/// An engine tool the command line asked for, checked.
#[derive(Clone, Debug)]
pub enum Tool {
    /// Count move paths from an Othello start, to each depth up to `depth`.
    Perft {
        /// The start.
        board: OthelloBoard,
        /// The deepest ply.
        depth: u32,
        /// Threads and table.
        counting: PerftCounting,
    },
    /// Solve an Othello start or given positions.
    SolveOthello {
        /// Where the positions come from.
        positions: OthelloPositions,
        /// Table, progress, and what to find.
        how: SolveOptions,
    },
    /// Solve a Kalah start.
    SolveMancala {
        /// The start.
        board: KalahBoard,
        /// Table, progress, and what to find.
        how: SolveOptions,
    },
    /// Fit the learned Othello evaluation and write its weights.
    TrainOthello(Training),
    /// Print the input of one random Othello game.
    GenerateOthello {
        /// The board side.
        side: BoardSide,
        /// The seed and whether to mix in wrong entries.
        how: Generation,
    },
    /// Review a played Othello game: every move against the best.
    ReviewOthello {
        /// The board side.
        side: BoardSide,
        /// The record and how its moves are valued.
        reviewing: Reviewing<crate::othello::Appraisal>,
    },
    /// Review a played Kalah game: every sowing against the best.
    ReviewMancala {
        /// The board.
        board: KalahBoard,
        /// The record and how its sowings are valued.
        reviewing: Reviewing<crate::mancala::Appraisal>,
    },
    /// Print the input of one random Kalah game.
    GenerateMancala {
        /// The board.
        board: KalahBoard,
        /// The seed and whether to mix in wrong entries.
        how: Generation,
    },
}

/// An Othello start position for the engine tools: the side and the pits.
#[derive(Clone, Debug)]
pub struct OthelloBoard {
    /// Cells per row and column.
    pub side: BoardSide,
    /// Pit cells, not yet checked against the board.
    pub pits: Vec<Coord>,
}

/// How perft counts: the same numbers, sooner.
#[derive(Clone, Copy, Debug)]
pub struct PerftCounting {
    /// Threads to split the tree across.
    pub threads: usize,
    /// The size of the table of counts in MiB, if one is used.
    pub hash_mb: Option<usize>,
}

/// Carries out `tool` with `input` and `output`, each line shown at once when `live` (the
/// output is a terminal). Everything written before a stop stays written.
pub fn run<R: BufRead, W: Write>(tool: Tool, live: bool, input: R, output: W) -> Result<(), Stop> {
    let showing = Showing {
        live,
        ..Showing::default()
    };
    driver::with_console(showing, input, output, |console| perform(tool, console))
}

/// Hands `tool` to its job once its size is a type.
fn perform<R: BufRead, W: Write>(tool: Tool, console: &mut Console<R, W>) -> Result<(), Stop> {
    match tool {
        Tool::Perft {
            board,
            depth,
            counting,
        } => {
            let pits = board.pits;
            let perft = perft::Perft {
                console,
                pits,
                depth,
                counting,
            };
            with_side(board.side, perft)
        }
        Tool::SolveOthello { positions, how } => solve::solve_othello(console, positions, how),
        Tool::SolveMancala { board, how } => with_pits(
            board.pits,
            solve::SolveMancala {
                console,
                board,
                how,
            },
        ),
        Tool::TrainOthello(training) => train::train(console, training),
        Tool::ReviewOthello { side, reviewing } => review::review_othello(console, side, reviewing),
        Tool::ReviewMancala { board, reviewing } => {
            review::review_mancala(console, board, reviewing)
        }
        Tool::GenerateOthello { side, how } => {
            with_side(side, generate::GenerateOthello { console, how })
        }
        Tool::GenerateMancala { board, how } => with_pits(
            board.pits,
            generate::GenerateMancala {
                console,
                board,
                how,
            },
        ),
    }
}

/// The Othello start position with `pits`, or the first pit it cannot take.
pub fn othello_start<const N: usize>(pits: &[Coord]) -> Result<Othello<N>, Stop>
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    if let Some(&at) = pits.get(Othello::<N>::MAX_PITS) {
        return Err(Stop::Pit(at, PitError::TooMany));
    }
    for &at in pits {
        game.add_pit(at).map_err(|err| Stop::Pit(at, err))?;
    }
    Ok(game)
}
