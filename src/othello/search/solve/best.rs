//! The moves of a solved position: a best move (the first, in a fixed order of the position's
//! own, that reaches the value, so that it is the same on any number of threads) and a
//! principal variation, each found by null-window tests over the solver's table. The value
//! itself is `solve.rs`'s.

use super::{Solver, learned_order};
use crate::othello::engine::{Bits, Layout, Position};

impl<L: Layout> Solver<'_, L> {
    /// A move of `pos` that reaches `value`, its exact value: of those that do, the first in
    /// the order the solver ranks a node's moves in far from the end (where the board has a
    /// learned evaluation and [`Self::ranked_best`] is set: the likeliest first, so that the
    /// first test usually succeeds, on lines the table holds), else the one that leaves the
    /// opponent the fewest replies; then the first in board order. Either order is the
    /// position's alone, so the move is the same on any number of threads and any table. (By
    /// fewest replies, the moves before the best cost a proof each that they fall short: FFO
    /// #40-#49 spent 45 of its 574 million nodes so, #47 17 of 52; in this order 545.4 million.
    /// The move that proved the value, read from the table, would cost none, 528.6 million in
    /// all, but which of several best moves that is depends on the threads and the table.) The
    /// computer player keeps the fewest-replies rule, which its seeded games depend on. The
    /// root of the exact search tries its moves in this same order (`ordered_root`), so the
    /// test that proved the value has already proved the moves before the best short, and the
    /// table answers these tests again: FFO #40-#49's best moves took 20.2 million of its 401.4
    /// million nodes, and now take 22 thousand of 388.1 million (#20-#39 83.9 to 81.9 million).
    pub(super) fn best_move(&mut self, pos: Position<L>, value: i32) -> Option<usize> {
        let ranking = learned_order(L::N, pos.empty.len()).filter(|_| self.ranked_best);
        let mut order: Vec<(i32, usize, Position<L>)> = pos
            .moves()
            .cells()
            .map(|at| {
                let child = pos.play_unchecked(at);
                let replies = child.moves().len() as i32;
                // The child's value for the other player and its replies, as a node ranks
                // its moves.
                let rank = ranking
                    .and_then(|(depth, reply)| {
                        let value = self.learned_value(child, depth)?;
                        Some(value + reply * replies)
                    })
                    .unwrap_or(replies);
                (rank, at, child)
            })
            .collect();
        order.sort_unstable_by_key(|&(rank, at, _)| (rank, at));
        for (_, at, child) in order {
            // The move reaches `value` when the child is worth at most `-value` to the other
            // player.
            let reaches = -self.probe(child, -value, -value + 1) >= value;
            if self.gave_up {
                return None;
            }
            if reaches {
                return Some(at);
            }
        }
        None
    }

    /// A principal variation of `pos`, whose value is `value`: bit indices, `None` for a pass.
    pub(super) fn line_of(&mut self, mut pos: Position<L>, mut value: i32) -> Vec<Option<usize>> {
        let mut line = Vec::new();
        loop {
            if pos.moves().is_empty() {
                let passed = pos.pass();
                if passed.moves().is_empty() {
                    return line;
                }
                line.push(None);
                pos = passed;
            } else {
                let Some(at) = self.best_move(pos, value) else {
                    return line;
                };
                line.push(Some(at));
                pos = pos.play_unchecked(at);
            }
            value = -value;
        }
    }
}
