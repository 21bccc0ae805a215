//! What the threads of an exact Kalah solve share: the two-slot transposition table (slots
//! written so that one torn by two threads at once reads as no slot), the endgame table below
//! it, the node count and the progress report. The transposition table may start small and
//! grow, between searches, up to a size fixed at the start. Both tables take their memory zeroed
//! from the system (`crate::zeroed`: huge pages, backed only where touched); pure computation.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::endgame::Endgame;
use super::estimate::INFINITY;
use super::game::Capture;
use crate::board::{Progress, Report};
use crate::zeroed::{Zeroed, prefetch};

/// One transposition-table slot: bounds on a position's value and the best pit found.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Slot {
    key: u64,
    pub(super) lower: i16,
    pub(super) upper: i16,
    pub(super) best: u8,
    /// How much work the bounds stand for: the bits of the count of nodes searched for them
    /// (the stones left in the pits, kept here before, made a Kalah (6,4) review 15% slower).
    work: u8,
}

impl Slot {
    /// Everything but the key, in one word.
    fn data(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
    }

    /// The slot of `key` holding `data`.
    fn from_data(key: u64, data: u64) -> Slot {
        Slot {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
        }
    }
}

/// Two slots as the threads share them: each as its key xor its data, then its data, so that a
/// slot torn by two threads writing at once reads as no slot at all.
pub(super) type Bucket = [AtomicU64; 4];

/// What the threads of a solve share: the transposition table (one slot of each bucket keeps
/// the position that took the most work, the other the newest), the exact values of the small
/// positions met so far, and the progress report.
pub(super) struct Shared<'a, const P: usize> {
    table: Zeroed<Bucket>,
    /// The most buckets the table may grow to.
    most: usize,
    /// Slots holding a position, as the searches have reported them (see [`Self::filled`]).
    held: AtomicU64,
    /// Whether the table is three quarters full and may grow: the searches stop for it.
    crowded: AtomicBool,
    pub(super) endgame: Endgame<P>,
    pub(super) capture: Capture,
    /// Nodes searched, counted in batches.
    nodes: AtomicU64,
    /// Where progress goes, and the bounds on the value known so far.
    progress: Mutex<(Option<Report<'a>>, (i32, i32))>,
}

impl<'a, const P: usize> Shared<'a, P> {
    /// Tables of `buckets` (a power of two), which may grow to `most`, and at most `endgame`
    /// bytes of endgame values, for a game of `stones` under the `capture` rule; `Err` when
    /// the memory cannot be had.
    pub(super) fn new(
        (buckets, most): (usize, usize),
        endgame: u64,
        stones: u32,
        capture: Capture,
        report: Option<Report<'a>>,
    ) -> Result<Self, ()> {
        Ok(Shared {
            table: Self::empty_table(buckets)?,
            most: most.max(buckets),
            held: AtomicU64::new(0),
            crowded: AtomicBool::new(false),
            endgame: Endgame::new(stones, capture, endgame)?,
            capture,
            nodes: AtomicU64::new(0),
            progress: Mutex::new((report, (-INFINITY, INFINITY))),
        })
    }

    fn empty_table(buckets: usize) -> Result<Zeroed<Bucket>, ()> {
        Zeroed::new(buckets).ok_or(())
    }

    /// Counts `slots` newly holding a position; past three quarters of the slots, a table that
    /// may grow asks the searches to stop (see [`Self::is_crowded`]).
    pub(super) fn filled(&self, slots: u64) {
        let held = self.held.fetch_add(slots, Relaxed) + slots;
        if self.table.len() < self.most && held >= self.table.len() as u64 * 3 / 2 {
            self.crowded.store(true, Relaxed);
        }
    }

    /// How many newly filled slots a search counts before it tells [`Self::filled`]: a
    /// sixteenth of the table, at most 4096, so that the count is seldom shared and still
    /// timely.
    pub(super) fn batch(&self) -> u64 {
        (self.table.len() as u64 / 16).clamp(1, 1 << 12)
    }

    /// Whether the table should grow before the searches go on.
    pub(super) fn is_crowded(&self) -> bool {
        self.crowded.load(Relaxed)
    }

    /// Makes the table four times larger (at most [`Self::most`]), keeping what it holds; when
    /// the memory cannot be had it stays as it is and grows no more, which costs only speed.
    pub(super) fn grow(&mut self) {
        self.crowded.store(false, Relaxed);
        let buckets = self.table.len().saturating_mul(4).min(self.most);
        let Ok(table) = Self::empty_table(buckets) else {
            self.most = self.table.len();
            return;
        };
        let old = std::mem::replace(&mut self.table, table);
        let mut held = 0;
        for bucket in old.iter() {
            // The second slot first, so that the first keeps its place when both share one.
            for i in [1, 0] {
                let slot = Self::slot(bucket, i);
                if slot.key != 0 {
                    held += u64::from(self.keep(slot));
                }
            }
        }
        self.held.store(held, Relaxed);
    }

    /// Adds `nodes` to the count and reports it.
    pub(super) fn count(&self, nodes: u64) {
        let total = self.nodes.fetch_add(nodes, Relaxed) + nodes;
        if let Ok(mut progress) = self.progress.lock() {
            let (report, (lower, upper)) = &mut *progress;
            if let Some(report) = report {
                report(&Progress {
                    nodes: total,
                    lower: *lower,
                    upper: *upper,
                });
            }
        }
    }

    /// Narrows the bounds known on the value, as a test settles one (the progress report shows
    /// it at once, not after the round, which on Kalah (6,5) is many minutes later).
    pub(super) fn narrow(&self, lower: i32, upper: i32) {
        if let Ok(mut progress) = self.progress.lock() {
            let (known_lower, known_upper) = progress.1;
            progress.1 = (known_lower.max(lower), known_upper.min(upper));
        }
    }

    /// Records the bounds known on the value.
    pub(super) fn set_bounds(&self, lower: i32, upper: i32) {
        if let Ok(mut progress) = self.progress.lock() {
            progress.1 = (lower, upper);
        }
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.table[(key >> 1) as usize & (self.table.len() - 1)]
    }

    /// Starts loading the bucket of `key` into the cache, for a [`Self::probe_key`] soon
    /// after.
    pub(super) fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    pub(super) fn probe_key(&self, key: u64) -> Option<Slot> {
        let bucket = self.bucket(key);
        (0..2)
            .map(|i| Self::slot(bucket, i))
            .find(|slot| slot.key == key)
    }

    /// The slot `i` of `bucket`, torn or empty ones with key 0.
    fn slot(bucket: &Bucket, i: usize) -> Slot {
        let data = bucket[2 * i + 1].load(Relaxed);
        let key = bucket[2 * i].load(Relaxed) ^ data;
        // A torn slot's key is noise; a key's low bit is always set.
        Slot::from_data(if key & 1 == 1 { key } else { 0 }, data)
    }

    fn put(bucket: &Bucket, i: usize, slot: Slot) {
        let data = slot.data();
        bucket[2 * i].store(slot.key ^ data, Relaxed);
        bucket[2 * i + 1].store(data, Relaxed);
    }

    /// Keeps bounds on the position of fingerprint `key`, found by searching `nodes` nodes;
    /// whether a slot that held no position holds one now.
    pub(super) fn store(
        &self,
        key: u64,
        nodes: u64,
        (lower, upper): (i32, i32),
        best: usize,
    ) -> bool {
        self.keep(Slot {
            key,
            // Values are bounded by the stones on the board (at most 2376): they fit an i16.
            lower: lower.clamp(-INFINITY, INFINITY) as i16,
            upper: upper.clamp(-INFINITY, INFINITY) as i16,
            best: best as u8,
            work: (u64::BITS - nodes.leading_zeros()) as u8,
        })
    }

    /// Puts `slot` in its bucket: over its own key, else in the first slot if it stands for at
    /// least as much work (the first moving to the second), else in the second.
    fn keep(&self, mut slot: Slot) -> bool {
        let key = slot.key;
        let bucket = self.bucket(key);
        let (first, second) = (Self::slot(bucket, 0), Self::slot(bucket, 1));
        // Bounds another search proved meanwhile (another thread's, or an earlier solve's
        // over the same tables) still hold: keep both.
        if let Some(held) = [first, second].into_iter().find(|held| held.key == key) {
            let (lower, upper) = (slot.lower.max(held.lower), slot.upper.min(held.upper));
            if lower <= upper {
                (slot.lower, slot.upper) = (lower, upper);
            }
        }
        if second.key == key {
            Self::put(bucket, 1, slot);
            false
        } else if first.key == key || slot.work >= first.work {
            if first.key != key {
                Self::put(bucket, 1, first);
            }
            Self::put(bucket, 0, slot);
            first.key != key && second.key == 0
        } else {
            Self::put(bucket, 1, slot);
            second.key == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slot_that_took_more_work_outlives_newer_ones_that_took_less() {
        // One bucket: every key meets in it. Keys have their low bit set.
        let shared = Shared::<6>::new((1, 1), 0, 48, Capture::Standard, None).unwrap();
        let (costly, cheap, newest) = (0x11, 0x21, 0x31);
        assert!(shared.store(costly, 1 << 20, (2, 8), 3));
        assert!(shared.store(cheap, 10, (-4, 4), 1));
        // A third position takes the newer slot; the costly one stays.
        assert!(!shared.store(newest, 100, (0, 0), 2));
        assert_eq!(shared.probe_key(cheap).map(|s| s.key), None);
        let kept = shared.probe_key(costly).expect("the costly slot is kept");
        assert_eq!((kept.lower, kept.upper, kept.best), (2, 8, 3));
        assert!(shared.probe_key(newest).is_some());
        // Costlier still: it takes the first slot, and the costly one moves to the second.
        assert!(!shared.store(0x41, 1 << 30, (-2, -2), 0));
        assert!(shared.probe_key(0x41).is_some() && shared.probe_key(costly).is_some());
        assert_eq!(shared.probe_key(newest).map(|s| s.key), None);
        // The same position again: its bounds narrow, its place kept.
        assert!(!shared.store(costly, 1, (4, 10), 5));
        let narrowed = shared.probe_key(costly).unwrap();
        assert_eq!((narrowed.lower, narrowed.upper), (4, 8));
    }
}
