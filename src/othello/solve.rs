//! The exact Othello solver: alpha-beta (negamax) over the bitboard engine with a transposition
//! table, returning the final disc difference under perfect play and a best move. Pure
//! computation: no I/O, no clocks.

use std::collections::HashMap;

use super::bitboard::{Layout, Position, Side};
use super::bits::Bits;
use super::game::Othello;
use crate::board::{Coord, Solution};

/// Solves `game`: the final disc difference for the player to move under perfect play (empty
/// cells go to no one), and a best move.
pub fn solve<const N: usize>(game: &Othello<N>) -> Solution<Coord>
where
    Side<N>: Layout,
{
    let Solution { value, best } = solve_position(game.position());
    Solution {
        value,
        best: best.map(Side::<N>::coord),
    }
}

/// [`solve`] on an engine position; the best move as a bit index.
pub(super) fn solve_position<L: Layout>(pos: Position<L>) -> Solution<usize> {
    let mut table = HashMap::new();
    let value = {
        #[cfg(target_arch = "x86_64")]
        if super::bitboard::fast_available() {
            // SAFETY: `fast_available` has just checked every feature `fast_value` is built with.
            unsafe { fast_value(pos, -INFINITY, INFINITY, &mut table) }
        } else {
            value(pos, -INFINITY, INFINITY, &mut table)
        }
        #[cfg(not(target_arch = "x86_64"))]
        value(pos, -INFINITY, INFINITY, &mut table)
    };
    let best = table
        .get(&(pos.me, pos.opp))
        .and_then(|e: &Entry<usize>| e.best);
    Solution { value, best }
}

/// Larger than any margin a board can reach (676 discs).
const INFINITY: i32 = 10_000;

/// What a transposition-table value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// One remembered search result.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    value: i32,
    bound: Bound,
    best: Option<M>,
}

impl<M> Entry<M> {
    /// The value if it settles a search of the window (`alpha`, `beta`).
    fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        match self.bound {
            Bound::Exact => Some(self.value),
            Bound::Lower if self.value >= beta => Some(self.value),
            Bound::Upper if self.value <= alpha => Some(self.value),
            _ => None,
        }
    }

    fn new(value: i32, alpha: i32, beta: i32, best: Option<M>) -> Self {
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Entry { value, bound, best }
    }
}

/// Defines the solver's search with the given attributes, moves and play: the portable one, and
/// one built for the instructions of the fast engine paths, which visits the same nodes.
macro_rules! value_fn {
    ($(#[$attr:meta])* $name:ident, $moves:ident, $play:ident) => {
        /// Alpha-beta (negamax) with a transposition table; moves are tried best-known first, then by
        /// how few replies they leave the opponent.
        $(#[$attr])*
        fn $name<L: Layout>(
            pos: Position<L>,
            mut alpha: i32,
            beta: i32,
            table: &mut HashMap<(L::Bits, L::Bits), Entry<usize>>,
        ) -> i32 {
            let moves = pos.$moves();
            if moves.is_empty() {
                let passed = pos.pass();
                if passed.$moves().is_empty() {
                    return pos.me.len() as i32 - pos.opp.len() as i32;
                }
                return -$name(passed, -beta, -alpha, table);
            }
            let key = (pos.me, pos.opp);
            let remembered = table.get(&key).copied();
            if let Some(value) = remembered.and_then(|e| e.cutoff(alpha, beta)) {
                return value;
            }
            let first = remembered.and_then(|e| e.best);
            let mut order: Vec<(u32, usize)> = moves
                .cells()
                .map(|at| {
                    let rank = if Some(at) == first {
                        0
                    } else {
                        1 + pos.$play(at).$moves().len()
                    };
                    (rank, at)
                })
                .collect();
            order.sort_unstable();

            let window = alpha;
            let mut best = (-INFINITY, None);
            for (_, at) in order {
                let value = -$name(pos.$play(at), -beta, -alpha, table);
                if value > best.0 {
                    best = (value, Some(at));
                }
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
            table.insert(key, Entry::new(best.0, window, beta, best.1));
            best.0
        }
    };
}

value_fn!(value, moves, play_unchecked);

#[cfg(target_arch = "x86_64")]
value_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fast_value,
    moves_avx2,
    play_unchecked_avx2
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_and_the_portable_search_solve_alike() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..20 {
            // 6x6 positions with about a dozen empty cells.
            let mut game = Othello::<6>::new();
            while game.count(crate::othello::Cell::Empty) > 12 && game.outcome().is_none() {
                let moves: Vec<Coord> = game.legal_moves().collect();
                match moves.len() {
                    0 => game.pass().unwrap(),
                    n => {
                        game.play(moves[rng.below(n)]).unwrap();
                    }
                }
            }
            let pos = game.position();
            let portable = value(pos, -INFINITY, INFINITY, &mut HashMap::new());
            #[cfg(target_arch = "x86_64")]
            if super::super::bitboard::fast_available() {
                // SAFETY: the features were just detected.
                let fast = unsafe { fast_value(pos, -INFINITY, INFINITY, &mut HashMap::new()) };
                assert_eq!(fast, portable);
            }
            assert_eq!(solve(&game).value, portable);
        }
    }

    #[test]
    fn the_4x4_board_is_a_white_win_by_8() {
        let solution = solve(&Othello::<4>::new());
        assert_eq!(solution.value, -8);
        let at = solution.best.unwrap();
        let mut game = Othello::<4>::new();
        assert!(game.play(at).is_ok(), "best move {at} is legal");
        // Every first move is symmetric on the empty 4x4 board, so each must also give -8.
        for first in Othello::<4>::new().legal_moves() {
            let mut g = Othello::<4>::new();
            g.play(first).unwrap();
            assert_eq!(-solve(&g).value, -8, "after {first}");
        }
    }
}
