//! The solver's search of the last few empty cells, in three copies made by one macro (the
//! portable one, one built for the fast engine paths and one also for AVX-512's flips, which
//! visit the same nodes): each empty cell tried in turn by the discs it would flip, without
//! generating moves, the last two and the last one by code of their own; and the small list
//! of those cells, packed in one word, that a node hands on to its children without copying.
//! Which cells, in what order and from how many is the solver's choice (`solve.rs`).

use super::{FEW, INFINITY, Solver};
use crate::othello::engine::{Bits, Layout, Position};

/// The last few empty cells of a position, in the order they are tried: up to [`FEW`] bit
/// indices of 16 bits each in one word, the first lowest, so that a node hands its children
/// the rest without copying a list.
#[derive(Clone, Copy)]
pub(super) struct Few {
    /// The cells' bit indices, [`Few::LANE`] bits each.
    pub(super) cells: u64,
    /// How many there are.
    pub(super) count: u32,
}

impl Few {
    /// Bits of a cell's index: the word holds [`FEW`] of them.
    pub(super) const LANE: u32 = {
        assert!(16 * FEW <= u64::BITS, "FEW cells of 16 bits fit one word");
        16
    };

    /// The `i`th cell.
    #[inline]
    pub(super) fn cell(self, i: u32) -> usize {
        usize::from((self.cells >> (Self::LANE * i)) as u16)
    }

    /// The cells as a set.
    #[inline]
    pub(super) fn cells_set<B: Bits>(self) -> B {
        (0..self.count).fold(B::EMPTY, |set, i| set | B::cell(self.cell(i)))
    }

    /// The same cells but the `i`th, in the same order.
    #[inline]
    pub(super) fn without(self, i: u32) -> Few {
        let below = (1 << (Self::LANE * i)) - 1;
        Few {
            cells: self.cells & below | (self.cells >> Self::LANE) & !below,
            count: self.count - 1,
        }
    }
}

/// Defines the search of the last few empty cells with the given attributes and engine
/// operations: the portable copy, and one built for the instructions of the fast engine paths.
macro_rules! few_fn {
    (
        $(#[$attr:meta])*
        $few:ident, $two:ident, $last:ident, $flipped:ident, $flips:ident, $last_flips:ident
    ) => {
        impl<L: Layout> Solver<'_, L> {
            /// The discs of `opp` that a disc of `me` placed on the empty cell `at` would flip:
            /// none, without looking, where no disc of `opp` lies next to `at`.
            $(#[$attr])*
            #[inline]
            fn $flipped(&self, me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
                if self.touches(at, opp) {
                    $flips::<L>(me, opp, at)
                } else {
                    L::Bits::EMPTY
                }
            }

            /// [`Self::search`] of a position (`me` to move against `opp`) with few empty
            /// cells, `few`, each tried in turn in their order, by the discs it would flip;
            /// the order ([`Self::near_order`]) is made once, where the few empty cells begin.
            /// A cell with no disc of the other player next to it is passed over without
            /// looking for flips; the last two cells have their own code.
            $(#[$attr])*
            pub(super) fn $few(&mut self, me: L::Bits, opp: L::Bits, alpha: i32, beta: i32, few: Few) -> i32 {
                self.tally.visit();
                match few.count {
                    1 => return self.$last(me, opp, few.cell(0)),
                    2 => return self.$two(me, opp, alpha, beta, few.cell(0), few.cell(1)),
                    _ => {}
                }
                // The stability cutoff at three empty cells too (see `NearTable`).
                if few.count == 3 {
                    let pos = Position { me, opp, empty: few.cells_set() };
                    if let Some(most) = Self::stability_cut(&pos, alpha) {
                        return most;
                    }
                }
                let mut alpha = alpha;
                let mut best = -INFINITY;
                for i in 0..few.count {
                    let at = few.cell(i);
                    let flipped = self.$flipped(me, opp, at);
                    if flipped.is_empty() {
                        continue;
                    }
                    let value = -self.$few(opp ^ flipped, me | flipped | L::Bits::cell(at), -beta, -alpha, few.without(i));
                    if raise(&mut best, &mut alpha, beta, value) {
                        return best;
                    }
                }
                if best > -INFINITY {
                    return best;
                }
                // No move: pass if the other player has one, else the game is over.
                let replies = (0..few.count).any(|i| {
                    let at = few.cell(i);
                    !self.$flipped(opp, me, at).is_empty()
                });
                if replies {
                    -self.$few(opp, me, -beta, -alpha, few)
                } else {
                    self.final_score(me, opp, few.count)
                }
            }

            /// [`Self::search`] of a position (`me` to move against `opp`) with two empty
            /// cells, `first` and `second`, tried in that order; each reply is a node of one
            /// empty cell, counted as such.
            $(#[$attr])*
            fn $two(&mut self, me: L::Bits, opp: L::Bits, alpha: i32, beta: i32, first: usize, second: usize) -> i32 {
                let mut best = -INFINITY;
                for (at, other) in [(first, second), (second, first)] {
                    let flipped = self.$flipped(me, opp, at);
                    if flipped.is_empty() {
                        continue;
                    }
                    self.tally.visit();
                    let value = -self.$last(opp ^ flipped, me | flipped | L::Bits::cell(at), other);
                    if value >= beta {
                        return value;
                    }
                    best = best.max(value);
                }
                if best > -INFINITY {
                    return best;
                }
                // No move here: the other player moves if it can, this player again after.
                for (at, other) in [(first, second), (second, first)] {
                    let flipped = self.$flipped(opp, me, at);
                    if flipped.is_empty() {
                        continue;
                    }
                    // The node of the pass, as the loop over cells counted it.
                    if best == -INFINITY {
                        self.tally.visit();
                        best = INFINITY;
                    }
                    self.tally.visit();
                    let value = self.$last(me ^ flipped, opp | flipped | L::Bits::cell(at), other);
                    if value <= alpha {
                        return value;
                    }
                    best = best.min(value);
                }
                if best == -INFINITY {
                    self.final_score(me, opp, 2)
                } else {
                    best
                }
            }

            /// The value of a position (`me` to move against `opp`) with one empty cell, `at`:
            /// whoever can plays it, or no one. Counted from the flips alone, since the board
            /// is full after it.
            $(#[$attr])*
            fn $last(&mut self, me: L::Bits, opp: L::Bits, at: usize) -> i32 {
                // Where every other cell holds a disc, the flips are counted, not made, and
                // the other player's discs are the rest.
                if (me | opp | L::Bits::cell(at)) == L::ALL
                    && let Some(mine) = $last_flips::<L>(me, at)
                {
                    let margin = 2 * me.len() as i32 + 1 - (L::N * L::N) as i32;
                    if mine > 0 {
                        return margin + 2 * mine as i32 + 1;
                    }
                    let theirs = $last_flips::<L>(opp, at).unwrap_or(0);
                    if theirs > 0 {
                        return margin - 2 * theirs as i32 - 1;
                    }
                    return self.final_score(me, opp, 1);
                }
                let margin = me.len() as i32 - opp.len() as i32;
                let flipped = self.$flipped(me, opp, at).len() as i32;
                if flipped > 0 {
                    return margin + 2 * flipped + 1;
                }
                // The other player plays it.
                let flipped = self.$flipped(opp, me, at).len() as i32;
                if flipped > 0 {
                    return margin - 2 * flipped - 1;
                }
                self.final_score(me, opp, 1)
            }
        }
    };
}

/// Takes a move's `value` into a search's `best` and `alpha`: whether it reaches `beta`, so
/// that the other moves need no search.
#[inline(always)]
pub(super) fn raise(best: &mut i32, alpha: &mut i32, beta: i32, value: i32) -> bool {
    if value > *best {
        *best = value;
        if value > *alpha {
            *alpha = value;
            return value >= beta;
        }
    }
    false
}

/// [`Layout::flips`] under the name the few-cells macro calls.
#[inline]
fn flips_portable<L: Layout>(me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
    L::flips(me, opp, at)
}

/// No count of the last move's flips in the portable copy: [`Layout::last_flips_bmi2`]'s
/// place there is taken by the flips themselves.
#[inline]
fn last_flips_portable<L: Layout>(_me: L::Bits, _at: usize) -> Option<u32> {
    None
}

/// [`Layout::last_flips_bmi2`] under the name the few-cells macro calls.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "bmi2")]
fn last_flips_fast<L: Layout>(me: L::Bits, at: usize) -> Option<u32> {
    // SAFETY: this function is only built for, and so only runs on, processors with BMI2.
    unsafe { L::last_flips_bmi2(me, at) }
}

/// [`Layout::flips_avx2`] under the name the few-cells macro calls.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn flips_fast<L: Layout>(me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
    // SAFETY: this function is only built for, and so only runs on, processors with AVX2.
    unsafe { L::flips_avx2(me, opp, at) }
}

/// [`Layout::flips_lzcnt`] under the name the few-cells macro calls.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
fn flips_lzcnt<L: Layout>(me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
    // SAFETY: this function is only built for, and so only runs on, processors with these
    // features.
    unsafe { L::flips_lzcnt(me, opp, at) }
}

few_fn!(
    few_portable,
    two_portable,
    last_portable,
    flipped_portable,
    flips_portable,
    last_flips_portable
);

#[cfg(target_arch = "x86_64")]
few_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    few_fast,
    two_fast,
    last_fast,
    flipped_fast,
    flips_fast,
    last_flips_fast
);

#[cfg(target_arch = "x86_64")]
few_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512vl,avx512cd")]
    few_lzcnt,
    two_lzcnt,
    last_lzcnt,
    flipped_lzcnt,
    flips_lzcnt,
    last_flips_fast
);
