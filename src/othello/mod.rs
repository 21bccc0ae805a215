//! Othello with pits: the rules ([`Othello`]), the board text, the bitboard engine they play
//! through, perft, the exact solver and the computer player. Nothing here reads, writes or
//! looks at a clock; from the rest of the crate it uses only `board` (and `rng` for the
//! computer's choices). Outside this folder a cell is a [`Coord`](crate::board::Coord), never a
//! bit index.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod bitboard;
mod bits;
mod computer;
mod count_table;
mod display;
mod features;
mod game;
mod narrow;
mod pattern;
mod perft;
mod search;
// Data for the tests here and for the benchmark, which includes the file by path.
#[cfg(test)]
mod perft_counts;
mod solve;
mod solve_table;
mod stable;
mod train;
#[cfg(target_arch = "x86_64")]
mod window;

pub use bitboard::{Layout, Side};
pub use computer::{computer_move, greedy_move};
pub use count_table::CountTable;
pub use features::Weights;
pub use game::{Cell, MoveError, Othello, PitError};
pub use perft::{Counting, perft_with};
pub use solve::{Analysis, Asked, Scoring, Solver};
pub use train::{
    PhaseFit, Sample, feature_samples, fit, fit_features, fit_midgame, learnable, midgame_samples,
    samples,
};

use crate::board::{BoardSide, dispatch};

/// A computation that needs the board side as a const generic: the caller's half of
/// [`with_side`].
pub trait WithSide {
    /// What the computation returns.
    type Output;
    /// Runs the computation on a board of `N` x `N`.
    fn run<const N: usize>(self) -> Self::Output
    where
        Side<N>: Layout;
}

/// Runs `job` with `side` as a const generic.
pub fn with_side<J: WithSide>(side: BoardSide, job: J) -> J::Output {
    dispatch!(side: side, job)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SIDES;

    #[test]
    fn every_side_dispatches_to_its_own_type() {
        struct Size;
        impl WithSide for Size {
            type Output = usize;
            fn run<const N: usize>(self) -> usize
            where
                Side<N>: Layout,
            {
                assert_eq!(<Side<N> as Layout>::N, N);
                N
            }
        }
        for side in SIDES {
            assert_eq!(with_side(BoardSide::new(side).unwrap(), Size), side);
        }
    }
}
