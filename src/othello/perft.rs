//! Perft: the number of move paths of an Othello position to a given depth, the standard check
//! of a move generator against published tables. Pure computation on the bitboard engine; the
//! driver times and prints.

use super::bitboard::{self, Layout, Position, Side};
use super::bits::Bits as _;
use super::game::Othello;

/// The number of leaves of the game tree of `game` at `depth` plies.
///
/// Aart Bik's convention, the one of the published tables: a pass is a ply, and a position where
/// neither player can move is one leaf whatever depth is left.
pub fn perft<const N: usize>(game: &Othello<N>, depth: u32) -> u64
where
    Side<N>: Layout,
{
    let pos = game.position();
    #[cfg(target_arch = "x86_64")]
    if bitboard::fast_available() {
        // SAFETY: `fast_available` has just checked every feature `leaves_fast` is built with.
        return unsafe { leaves_fast(pos, depth) };
    }
    leaves(pos, depth)
}

/// Defines a [`perft`] recursion with the given attributes: the portable one, and one built for
/// the instructions `fast` names.
macro_rules! leaves_fn {
    ($(#[$attr:meta])* $name:ident, $moves:ident) => {
        $(#[$attr])*
        fn $name<L: Layout>(pos: Position<L>, depth: u32) -> u64 {
            let moves = pos.$moves();
            if depth <= 1 {
                // At the last ply each move is a leaf; with none, the pass or the end is one.
                return if depth == 0 {
                    1
                } else {
                    u64::from(moves.len().max(1))
                };
            }
            if moves.is_empty() {
                let passed = pos.pass();
                return if passed.$moves().is_empty() {
                    1
                } else {
                    $name(passed, depth - 1)
                };
            }
            moves
                .cells()
                .map(|at| $name(pos.play_unchecked(at), depth - 1))
                .sum()
        }
    };
}

leaves_fn!(leaves, moves);

#[cfg(target_arch = "x86_64")]
leaves_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    leaves_fast,
    moves_avx2
);

#[cfg(test)]
mod tests {
    use super::super::perft_counts::{
        OPEN_BOARD, PITTED_6X6, PITTED_6X6_PITS, STANDARD_6X6, STANDARD_8X8,
    };
    use super::*;

    fn counts<const N: usize>(pits: &[&str], depths: usize) -> Vec<u64>
    where
        Side<N>: Layout,
    {
        let mut game = Othello::<N>::new();
        for pit in pits {
            game.add_pit(pit.parse().unwrap()).unwrap();
        }
        (1..=depths)
            .map(|d| perft(&game, u32::try_from(d).unwrap()))
            .collect()
    }

    #[test]
    fn perft_matches_the_published_8x8_table() {
        // Depths 11 and 12 run in the benchmark.
        assert_eq!(counts::<8>(&[], 10), STANDARD_8X8[..10]);
    }

    #[test]
    fn perft_matches_the_published_6x6_tables() {
        // Depth 11 runs in the benchmark.
        assert_eq!(counts::<6>(&[], 10), STANDARD_6X6[..10]);
        assert_eq!(counts::<6>(&PITTED_6X6_PITS, 10), PITTED_6X6);
    }

    /// Counts with random pits through the portable recursion and, where the processor has
    /// them, the fast one.
    struct BothPaths(u64);

    impl crate::othello::WithSide for BothPaths {
        type Output = ();
        fn run<const N: usize>(self)
        where
            Side<N>: Layout,
        {
            let mut rng = crate::rng::Rng::new(self.0);
            let mut game = Othello::<N>::new();
            for _ in 0..rng.below(N + 1) {
                let at = crate::board::Coord::new(rng.below(N), rng.below(N), N).unwrap();
                let _ = game.add_pit(at);
            }
            let depth = if N <= 8 { 7 } else { 5 };
            let portable = leaves(game.position(), depth);
            #[cfg(target_arch = "x86_64")]
            if bitboard::fast_available() {
                // SAFETY: the features were just detected.
                let fast = unsafe { leaves_fast(game.position(), depth) };
                assert_eq!(fast, portable, "side {N}, seed {}", self.0);
            }
            assert_eq!(perft(&game, depth), portable, "side {N}, seed {}", self.0);
        }
    }

    #[test]
    fn the_fast_and_the_portable_paths_count_alike_at_every_side() {
        for (seed, side) in crate::board::SIDES.into_iter().enumerate() {
            for round in 0..3 {
                let side = crate::board::BoardSide::new(side).unwrap();
                crate::othello::with_side(side, BothPaths(seed as u64 * 3 + round));
            }
        }
    }

    #[test]
    fn perft_is_the_same_on_every_side_whose_edges_it_cannot_reach() {
        // Every wide layout (2 to 11 words) must count exactly the same paths.
        let want = &OPEN_BOARD[..8];
        assert_eq!(counts::<12>(&[], 8), want);
        assert_eq!(counts::<16>(&[], 8), want);
        assert_eq!(counts::<20>(&[], 8), want);
        assert_eq!(counts::<26>(&[], 8), want);
    }
}
