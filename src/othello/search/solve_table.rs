//! The exact solver's transposition table: bounds on the values of positions, in a fixed number
//! of two-slot buckets sized in MiB (one slot keeps the position with the most empty cells, the
//! most work saved; the other the newest), never growing. A position is stored whole, so bounds
//! are never taken for another position's.

use std::hash::{Hash, Hasher};

use crate::board::TableTooLarge;
use crate::othello::engine::Mix;
use crate::othello::engine::{Layout, Position};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The move that was best, or that refuted the window, as a bit index.
    pub best: Option<usize>,
}

/// One remembered position.
struct Slot<L: Layout> {
    me: L::Bits,
    opp: L::Bits,
    lower: i16,
    upper: i16,
    /// The best move's bit index; `u16::MAX` for none.
    best: u16,
    /// Empty cells of the position, plus one: 0 marks a free slot.
    empties: u16,
}

impl<L: Layout> Clone for Slot<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Slot<L> {}

/// Bounds on the values of positions of the boards of layout `L`.
pub struct SolveTable<L: Layout> {
    buckets: Vec<[Slot<L>; 2]>,
    /// Buckets, less one (a power of two, less one).
    mask: usize,
}

impl<L: Layout> SolveTable<L> {
    /// A table in at most `megabytes` MiB (at least one bucket), and no larger than positions of
    /// at most `empties` empty cells can fill, or the reason it cannot be had.
    pub fn new(megabytes: usize, empties: u32) -> Result<Self, TableTooLarge> {
        let too_large = TableTooLarge { megabytes };
        let bytes = megabytes.checked_mul(1 << 20).ok_or(too_large)?;
        let fit = bytes / std::mem::size_of::<[Slot<L>; 2]>();
        let count = if fit == 0 { 1 } else { 1 << fit.ilog2() };
        // The positions a solve of `empties` empty cells meets are at most 3^empties (each of
        // those cells empty, Black or White): two a bucket.
        let reachable = 3usize
            .checked_pow(empties)
            .map_or(usize::MAX, |n| n.div_ceil(2));
        let count = count.min(reachable.checked_next_power_of_two().unwrap_or(count));
        let free = Slot::<L> {
            me: L::ALL,
            opp: L::ALL,
            lower: 0,
            upper: 0,
            best: u16::MAX,
            empties: 0,
        };
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| too_large)?;
        buckets.resize(count, [free; 2]);
        Ok(SolveTable {
            buckets,
            mask: count - 1,
        })
    }

    fn bucket(&self, pos: &Position<L>) -> usize {
        let mut hasher = Mix::default();
        pos.me.hash(&mut hasher);
        pos.opp.hash(&mut hasher);
        // The high bits are the best mixed.
        (hasher.finish() >> 20) as usize & self.mask
    }

    /// Starts loading the bucket of `pos` into the cache, for a [`Self::get`] soon after (a
    /// hint: elsewhere than on x86-64 it does nothing but find the bucket).
    #[inline]
    pub fn prefetch(&self, pos: &Position<L>) {
        let bucket = &self.buckets[self.bucket(pos)];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: SSE, all a prefetch needs, is part of every x86-64 processor, and a
            // prefetch reads nothing the program can see.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(bucket).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// What is known of `pos`, if anything.
    #[inline]
    pub fn get(&self, pos: &Position<L>) -> Option<Bounds> {
        let slot = self.buckets[self.bucket(pos)]
            .iter()
            .find(|s| s.empties != 0 && s.me == pos.me && s.opp == pos.opp)?;
        Some(Bounds {
            lower: i32::from(slot.lower),
            upper: i32::from(slot.upper),
            best: (slot.best != u16::MAX).then_some(usize::from(slot.best)),
        })
    }

    /// Remembers `bounds` of `pos`, a position with `empties` empty cells.
    #[inline]
    pub fn put(&mut self, pos: &Position<L>, empties: u32, bounds: Bounds) {
        // Values lie within +-676 and bit indices below 26 * 32, so the conversions hold.
        let slot = Slot {
            me: pos.me,
            opp: pos.opp,
            lower: bounds
                .lower
                .clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            upper: bounds
                .upper
                .clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            best: bounds.best.map_or(u16::MAX, |b| b as u16),
            empties: empties as u16 + 1,
        };
        let i = self.bucket(pos);
        let pair = &mut self.buckets[i];
        if pair[0].me == slot.me && pair[0].opp == slot.opp {
            pair[0] = slot;
        } else if slot.empties >= pair[0].empties {
            pair[1] = pair[0];
            pair[0] = slot;
        } else {
            pair[1] = slot;
        }
    }
}
