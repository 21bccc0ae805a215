//! `perft` at the console: the leaf count of an Othello start's tree and its time at each
//! depth, the overall rate, and how long a depth has been counting on standard error when that
//! is a terminal. The counting is the engine's.

use std::io::Write;
use std::time::Instant;

use super::{PerftCounting, othello_start};
use crate::board::Coord;
use crate::driver::{Console, Stop};
use crate::othello::{CountTable, Counting, Layout, Side, WithSide, perft_with};
use crate::progress::Progress;

/// perft's report.
mod text {
    pub const PERFT_HEADER: &str = "depth            leaves     seconds\n";

    /// What the spinner on standard error says while a depth is counted.
    pub fn perft_progress(depth: u32) -> String {
        format!("counting depth {depth}")
    }

    pub fn perft_row(depth: u32, leaves: u64, seconds: f64) -> String {
        format!("{depth:>5} {leaves:>17} {seconds:>11.3}\n")
    }

    pub fn perft_rate(leaves: u64, seconds: f64) -> String {
        // Whole leaves per second; a run too fast to time reports its leaves.
        let rate = if seconds > 0.0 {
            leaves as f64 / seconds
        } else {
            leaves as f64
        };
        format!("leaves per second: {rate:.0}\n")
    }
}

/// `perft`: for each depth from 1 to `depth`, the leaf count of an Othello start's tree and its
/// time, then the overall rate.
pub(super) struct Perft<'a, R, W: Write> {
    /// Where the table goes.
    pub console: &'a mut Console<R, W>,
    /// Pit cells of the start.
    pub pits: Vec<Coord>,
    /// The deepest ply.
    pub depth: u32,
    /// Threads and table.
    pub counting: PerftCounting,
}

impl<R, W: Write> WithSide for Perft<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let game = othello_start::<N>(&self.pits)?;
        let table = match self.counting.hash_mb {
            Some(mb) => Some(CountTable::new(mb).map_err(|e| Stop::Memory(e.megabytes))?),
            None => None,
        };
        let how = Counting {
            threads: self.counting.threads,
            table: table.as_ref(),
        };
        let console = self.console;
        console.say(text::PERFT_HEADER)?;
        let (mut leaves, mut seconds) = (0, 0.0);
        for d in 1..=self.depth {
            let clock = Instant::now();
            let count = with_progress(d, || perft_with(&game, d, &how));
            let took = clock.elapsed().as_secs_f64();
            console.say(text::perft_row(d, count, took))?;
            console.show()?;
            leaves += count;
            seconds += took;
        }
        console.say(text::perft_rate(leaves, seconds))
    }
}

/// Runs `count`, with a spinner on standard error (when it is a terminal) that says which depth
/// is being counted and for how long. Standard output is untouched.
fn with_progress(depth: u32, count: impl FnOnce() -> u64) -> u64 {
    let spinner = Progress::spinner(text::perft_progress(depth));
    let leaves = count();
    spinner.finish();
    leaves
}
