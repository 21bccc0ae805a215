//! Othello with pits, in layers that each use only those below them: `engine` (bit sets, the
//! rules on them for every board side, perft), `rules` (the checked game and its text),
//! `evaluation` (what a position is worth, and the weights as data), `search` (the computer's
//! search, the exact solver, the computer player) and `training` (fitting the weights again,
//! with the search and the solver). Nothing here reads, writes or looks at a clock; from the
//! rest of the crate it uses only `board` (and `rng` for the computer's choices). Outside this
//! folder a cell is a [`Coord`](crate::board::Coord), never a bit index.

mod engine;
mod evaluation;
mod rules;
mod search;
mod training;

pub use engine::{CountTable, Counting, Layout, Side};
pub use evaluation::Weights;
pub use rules::{Cell, MoveError, Othello, PitError};
pub use search::{
    Analysis, Appraisal, Asked, Memory, Scoring, Solver, computer_move, greedy_move, move_values,
};
pub use training::{
    CACHE_VERSION, Labeller, PhaseFit, SampleSet, Unfit, feature_samples, fit, fit_features,
    fit_midgame, learnable, midgame_samples, samples,
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

/// The leaves of the game tree of `game` at `depth` plies, counted as `how` says: the engine's
/// perft from the game's position.
pub fn perft_with<const N: usize>(game: &Othello<N>, depth: u32, how: &Counting<'_, N>) -> u64
where
    Side<N>: Layout,
{
    engine::perft(game.position(), depth, how)
}

/// Runs `job` with `side` as a const generic.
pub fn with_side<J: WithSide>(side: BoardSide, job: J) -> J::Output {
    dispatch!(side: side, job)
}

/// Runs `job` with `side` as a const generic where `side` is one of
/// [`LEARNABLE_SIDES`](crate::board::LEARNABLE_SIDES), and is `None` on any other: training,
/// which only those sides can do, is built for them alone.
pub fn with_learnable_side<J: WithSide>(side: BoardSide, job: J) -> Option<J::Output> {
    crate::board::LEARNABLE_SIDES
        .contains(&side.get())
        .then(|| dispatch!(learnable side: side, job))
}

/// Runs `job` with `side` as a const generic, for any side also in the unit tests, whose
/// [`with_side`] covers only [`TESTED_SIDES`](crate::board::TESTED_SIDES).
#[cfg(test)]
pub fn with_any_side<J: WithSide>(side: BoardSide, job: J) -> J::Output {
    dispatch!(any side: side, job)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{LEARNABLE_SIDES, SIDES, TESTED_SIDES};

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
            assert_eq!(with_any_side(BoardSide::new(side).unwrap(), Size), side);
        }
        for side in TESTED_SIDES {
            assert_eq!(with_side(BoardSide::new(side).unwrap(), Size), side);
        }
        // Training is built for exactly the sides that have patterns to fit.
        for side in SIDES {
            let learnable = evaluation::pattern::for_side(side).is_some();
            assert_eq!(LEARNABLE_SIDES.contains(&side), learnable, "side {side}");
            let dispatched = with_learnable_side(BoardSide::new(side).unwrap(), Size);
            assert_eq!(dispatched, learnable.then_some(side), "side {side}");
        }
    }
}
