//! Kalah (Mancala), in files that each use only those listed before them: the rules
//! (`game.rs`: [`Mancala`] and the sowing ring) and the board text (`display.rs`); the
//! lookahead estimate (`estimate.rs`); the exact solver's tables (`endgame.rs`, `table.rs`)
//! and the solver over them (`solve/`); the deep lookahead (`search.rs`); and the computer
//! player (`computer.rs`), which uses the estimate, the solver and the deep lookahead; and
//! the review's values (`appraise.rs`), from the solver and the computer's lookahead. Nothing
//! here reads, writes or looks at a clock; from the rest of the crate it uses only `board`
//! (and `rng` for the computer's choices). Outside this folder a move is a pit number, 1 to
//! `P`.

mod appraise;
mod computer;
mod display;
mod endgame;
mod estimate;
mod game;
mod search;
mod solve;
mod table;

pub use appraise::{Appraisal, EXACT_STONES_BY_PITS, appraise_line};
pub use computer::{computer_move, greedy_move};
pub use game::{Capture, Mancala, MoveError, Next};
pub use solve::solve_in;

use crate::board::{PitsPerRow, dispatch};

/// A computation that needs the pits per row as a const generic: the caller's half of
/// [`with_pits`].
pub trait WithPits {
    /// What the computation returns.
    type Output;
    /// Runs the computation with `P` pits per row.
    fn run<const P: usize>(self) -> Self::Output;
}

/// Runs `job` with `pits` as a const generic.
pub fn with_pits<J: WithPits>(pits: PitsPerRow, job: J) -> J::Output {
    dispatch!(pits: pits, job)
}

/// Runs `job` with `pits` as a const generic, for any row length also in the unit tests,
/// whose [`with_pits`] covers only [`TESTED_PIT_COUNTS`](crate::board::TESTED_PIT_COUNTS).
#[cfg(test)]
pub fn with_any_pits<J: WithPits>(pits: PitsPerRow, job: J) -> J::Output {
    dispatch!(any pits: pits, job)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{PIT_COUNTS, TESTED_PIT_COUNTS};

    #[test]
    fn every_row_length_dispatches_to_its_own_type() {
        struct Size;
        impl WithPits for Size {
            type Output = usize;
            fn run<const P: usize>(self) -> usize {
                P
            }
        }
        for pits in PIT_COUNTS {
            assert_eq!(with_any_pits(PitsPerRow::new(pits).unwrap(), Size), pits);
        }
        for pits in TESTED_PIT_COUNTS {
            assert_eq!(with_pits(PitsPerRow::new(pits).unwrap(), Size), pits);
        }
    }
}
