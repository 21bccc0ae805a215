//! `perft` at the console: the leaf count of an Othello start's tree and its time at each
//! depth, the overall rate, and how long a depth has been counting on standard error when that
//! is a terminal. The counting is the engine's.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use super::{PerftCounting, othello_start};
use crate::board::Coord;
use crate::driver::{Console, Stop};
use crate::othello::{CountTable, Counting, Layout, Side, WithSide, perft_with};

/// perft's report.
mod text {
    pub const PERFT_HEADER: &str = "depth            leaves     seconds\n";

    /// The progress line on standard error while a depth is counted: rewritten in place.
    pub fn perft_progress(depth: u32, seconds: u64) -> String {
        format!("\rcounting depth {depth}: {seconds} s")
    }

    /// Clears the progress line.
    pub const CLEAR_PROGRESS: &str = "\r\x1b[K";

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

/// Runs `count`; when standard error is a terminal and the count takes more than a second,
/// shows on it how long depth `depth` has been counting, once a second, and clears the line
/// at the end. Standard output is untouched.
fn with_progress(depth: u32, count: impl FnOnce() -> u64) -> u64 {
    if !std::io::stderr().is_terminal() {
        return count();
    }
    let done = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let started = Instant::now();
            let (lock, wake) = &done;
            let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
            let mut shown = false;
            while !*finished {
                let second = std::time::Duration::from_secs(1);
                finished = wake
                    .wait_timeout(finished, second)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if !*finished {
                    eprint!(
                        "{}",
                        text::perft_progress(depth, started.elapsed().as_secs())
                    );
                    shown = true;
                }
            }
            if shown {
                eprint!("{}", text::CLEAR_PROGRESS);
            }
        });
        let leaves = count();
        *done.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        done.1.notify_one();
        leaves
    })
}
