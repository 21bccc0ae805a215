//! The solver's table of its nodes nearest the end that it still keeps in a table (from
//! [`SORTED`] to [`NEAR`] empty cells): a few thousand positions a count of empty cells, in
//! buckets of two, owned by one thread, so that it stays in the processor's cache where the
//! shared table (`solve_table.rs`) would miss it at nearly every node. A bucket keeps the
//! newest position and the one whose proof took the most nodes. The bounds mean what the
//! shared table's do; a position is stored whole, so they are never taken for another
//! position's. Pure computation.

use super::SORTED;
use crate::othello::engine::{Bits, Layout, Position, mix_discs};
use crate::othello::search::solve_table::Bounds;

/// Empty cells up to which positions go to the near table rather than the shared one.
/// Measured on one thread, both builds run at once on the machine's two processors, which were
/// swapped each round, with the stability cutoff at 3 and 4 empty cells (`few.rs`) that
/// makes up for the positions this table loses: FFO #40-#49 403.7 million nodes and #20-#39
/// 84.1 million, against 503.9 and 88.5 million with the shared table alone and no cutoff
/// below 5, in 0.94-0.99 of the processor time (eight rounds over #40-#49). The table alone,
/// up to 9: 0.92 of the time (four rounds; ten over #40-#44 0.95, the 1,000 random 14-empty
/// positions 0.92 and 0.97), but #20-#39 92.7 million nodes; up to 8 or 7, 90.9 and 90.2
/// million; with the cutoff at 4 empty cells alone, 89.9 million. The cutoffs alone took the
/// time of the shared table alone (docs/performance.md). Under `valgrind --tool=cachegrind`
/// with a 2 MiB last-level cache (this machine's second level a processor), FFO #41 misses
/// it 0.83 million times rather than 2.74 million.
pub(super) const NEAR: u32 = 9;

/// Bits of a slot's index within its count of empty cells: 4,096 slots of 32 bytes each on
/// 8x8, 128 KiB a count. (With 16,384 slots of one position each, FFO #20-#39 took 91.0
/// million nodes, 4,096 92.7; 4,096 in buckets of two, 91.8.)
const SLOT_BITS: u32 = 12;

/// One position's bounds, as the shared table keeps them, and the nodes their proof took.
#[derive(Clone, Copy)]
struct Slot<B> {
    me: B,
    opp: B,
    lower: i16,
    upper: i16,
    /// The best move's bit index, or [`NO_MOVE`].
    best: u16,
    kind: Kind,
    work: u32,
}

/// A slot's `best` for no move (bit indices lie below 26 * 32).
const NO_MOVE: u16 = u16::MAX;

/// What a slot holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Free,
    /// Bounds an exact search proved.
    Proven,
    /// Bounds a selective search found: likely, not proven.
    Likely,
}

/// Bounds on the values of positions of [`SORTED`] to [`NEAR`] empty cells, for one thread.
pub(super) struct NearTable<L: Layout> {
    slots: Vec<Slot<L::Bits>>,
}

impl<L: Layout> NearTable<L> {
    /// An empty table.
    pub(super) fn new() -> Self {
        let free = Slot {
            me: L::Bits::EMPTY,
            opp: L::Bits::EMPTY,
            lower: 0,
            upper: 0,
            best: NO_MOVE,
            kind: Kind::Free,
            work: 0,
        };
        NearTable {
            slots: vec![free; ((NEAR - SORTED + 1) as usize) << SLOT_BITS],
        }
    }

    /// Whether positions of `empties` empty cells go to this table rather than the shared one
    /// (those of fewer than [`SORTED`] go to none).
    #[inline]
    pub(super) fn holds(empties: u32) -> bool {
        empties <= NEAR
    }

    /// The first slot of the bucket of `pos`, a position of `empties` empty cells, which
    /// [`Self::holds`].
    #[inline]
    fn bucket(pos: &Position<L>, empties: u32) -> usize {
        // The high bits are the best mixed.
        let within = (mix_discs(pos) >> (u64::BITS - SLOT_BITS)) as usize & !1;
        ((empties - SORTED) as usize) << SLOT_BITS | within
    }

    /// Whether slot `i` holds `pos`.
    #[inline]
    fn has(&self, i: usize, pos: &Position<L>) -> bool {
        let slot = &self.slots[i];
        slot.kind != Kind::Free && slot.me == pos.me && slot.opp == pos.opp
    }

    /// What is known of `pos`, a position of `empties` empty cells, if anything.
    #[inline]
    pub(super) fn get(&self, pos: &Position<L>, empties: u32) -> Option<Bounds> {
        let first = Self::bucket(pos, empties);
        let i = (first..first + 2).find(|&i| self.has(i, pos))?;
        let slot = &self.slots[i];
        Some(Bounds {
            lower: i32::from(slot.lower),
            upper: i32::from(slot.upper),
            best: (slot.best != NO_MOVE).then_some(usize::from(slot.best)),
            selective: slot.kind == Kind::Likely,
        })
    }

    /// Remembers `bounds` of `pos`, a position of `empties` empty cells, whose proof took
    /// `work` nodes: in the bucket's first slot if its proof took at least as many as the
    /// first's (which then takes the second's place), else in the second.
    #[inline]
    pub(super) fn put(&mut self, pos: &Position<L>, empties: u32, bounds: Bounds, work: u64) {
        // Values lie within +-676 and bit indices below 26 * 32, so the conversions hold.
        let clamp = |value: i32| value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        let mut slot = Slot {
            me: pos.me,
            opp: pos.opp,
            lower: clamp(bounds.lower),
            upper: clamp(bounds.upper),
            best: bounds.best.map_or(NO_MOVE, |b| b as u16),
            kind: if bounds.selective {
                Kind::Likely
            } else {
                Kind::Proven
            },
            work: u32::try_from(work).unwrap_or(u32::MAX),
        };
        let first = Self::bucket(pos, empties);
        if self.has(first, pos) {
            slot.work = slot.work.max(self.slots[first].work);
            self.slots[first] = slot;
        } else if slot.work >= self.slots[first].work {
            if !self.has(first + 1, pos) {
                self.slots[first + 1] = self.slots[first];
            }
            self.slots[first] = slot;
        } else {
            self.slots[first + 1] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::engine::Side;

    /// A position of `empties` empty cells on 8x8, told apart by `k`.
    fn position(k: u64, empties: u32) -> Position<Side<8>> {
        let empty = (1u64 << empties) - 1;
        let me = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) << empties) & !empty;
        Position {
            me,
            opp: !(me | empty),
            empty,
        }
    }

    #[test]
    fn bounds_come_back_for_their_own_position_only() {
        let mut table = NearTable::<Side<8>>::new();
        let proven = Bounds {
            lower: -4,
            upper: 6,
            best: Some(17),
            selective: false,
        };
        let likely = Bounds {
            lower: 2,
            upper: 64,
            best: None,
            selective: true,
        };
        assert!(table.get(&position(1, SORTED), SORTED).is_none());
        table.put(&position(1, SORTED), SORTED, proven, 1 << 40);
        table.put(&position(2, NEAR), NEAR, likely, 5);
        assert_eq!(table.get(&position(1, SORTED), SORTED), Some(proven));
        assert_eq!(table.get(&position(2, NEAR), NEAR), Some(likely));
        // Many other positions: each found with its own bounds or not at all, never another's.
        for k in 3..20_000 {
            let bounds = Bounds {
                lower: (k % 50) as i32,
                ..proven
            };
            table.put(&position(k, SORTED + 1), SORTED + 1, bounds, k % 7);
        }
        for k in 3..20_000 {
            if let Some(found) = table.get(&position(k, SORTED + 1), SORTED + 1) {
                assert_eq!(found.lower, (k % 50) as i32, "position {k}");
            }
        }
        // Each count of empty cells has slots of its own.
        assert_eq!(table.get(&position(1, SORTED), SORTED), Some(proven));
        assert!(NearTable::<Side<8>>::holds(NEAR) && !NearTable::<Side<8>>::holds(NEAR + 1));
    }

    #[test]
    fn a_bucket_keeps_the_newest_and_the_costliest_position() {
        let mut table = NearTable::<Side<8>>::new();
        let bounds = |lower| Bounds {
            lower,
            upper: 64,
            best: None,
            selective: false,
        };
        // Positions of one bucket: the first, costly, outlives the cheaper ones after it.
        let bucket = NearTable::<Side<8>>::bucket(&position(1, SORTED), SORTED);
        let same: Vec<_> = (2..)
            .map(|k| position(k, SORTED))
            .filter(|pos| NearTable::<Side<8>>::bucket(pos, SORTED) == bucket)
            .take(3)
            .collect();
        table.put(&position(1, SORTED), SORTED, bounds(1), 1_000);
        for (k, pos) in same.iter().enumerate() {
            table.put(pos, SORTED, bounds(10 + k as i32), 10);
        }
        assert_eq!(table.get(&position(1, SORTED), SORTED), Some(bounds(1)));
        assert_eq!(table.get(&same[2], SORTED), Some(bounds(12)));
        assert_eq!(table.get(&same[0], SORTED), None);
        // A costlier one takes the first slot; the one it held moves to the second.
        table.put(&same[0], SORTED, bounds(20), 5_000);
        assert_eq!(table.get(&same[0], SORTED), Some(bounds(20)));
        assert_eq!(table.get(&position(1, SORTED), SORTED), Some(bounds(1)));
        assert_eq!(table.get(&same[2], SORTED), None);
    }
}
