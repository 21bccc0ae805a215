//! Matches between players: the arena, where the computer's levels (and a greedy player) play
//! each other in-process (`arena.rs` the games and their records, `table.rs` the console's
//! table of results), and the relay, where two `boardgames` builds play each other through
//! their consoles (`relay.rs`; its openings random, every one of four moves, or listed in a
//! file, `openings.rs`). They sit above the console and the tools: the arena prints through
//! the console, the relay types the console's own prompts and runs its programs as the judge
//! runs a submission.

mod arena;
mod openings;
mod relay;
mod table;

use std::io::{BufRead, Write};

pub use arena::Contender;
pub use openings::Openings;
pub use relay::{Relaying, relay};

use crate::board::BoardSide;
use crate::driver::{self, KalahBoard, Showing, Stop};

/// The board of an arena.
#[derive(Clone, Copy, Debug)]
pub enum ArenaBoard {
    Othello(BoardSide),
    Mancala(KalahBoard),
}

/// A tournament of the computer's levels.
#[derive(Clone, Debug)]
pub struct Contest {
    /// Where the games are played.
    pub board: ArenaBoard,
    /// Who plays, in the table's order.
    pub contenders: Vec<Contender>,
    /// Openings each pair plays, each from both sides.
    pub openings: usize,
    /// The seed of the openings and choices.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// Plays `contest` and prints its table to `output`, each line shown at once when `live` (the
/// output is a terminal); the arena reads nothing from `input`.
pub fn arena<R: BufRead, W: Write>(
    contest: &Contest,
    live: bool,
    input: R,
    output: W,
) -> Result<(), Stop> {
    let showing = Showing {
        live,
        ..Showing::default()
    };
    driver::with_console(showing, input, output, |console| {
        table::arena(console, contest)
    })
}
