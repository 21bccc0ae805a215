//! Reading transcripts, as pure functions with no I/O and no processes: whether two are the
//! same bytes and where they first differ (`compare.rs`); a transcript read as the game it
//! shows (`events.rs`); the two read side by side, the difference named by the rule it breaks
//! or the cosmetic kinds it shows (`diagnose/`); those rules' ids (`rule.rs`); a crash that a
//! sanitizer or the C library reported on standard error (`crash.rs`), and what the system
//! refused the program (`refused.rs`). It uses the
//! games' own types and the console's transcript, nothing of the judge above it.

pub mod compare;
pub mod crash;
pub mod diagnose;
mod events;
pub mod refused;
pub mod rule;

use crate::board::BoardSide;
use crate::driver::KalahBoard;

/// The game the program plays.
#[derive(Clone, Copy, Debug)]
pub enum Game {
    /// Othello on a board of this side.
    Othello(BoardSide),
    /// Kalah on this board.
    Mancala(KalahBoard),
}
