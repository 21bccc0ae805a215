//! The exact solver's transposition table: bounds on the values of positions (proven, or
//! marked as a selective search's, likely), in two-slot
//! buckets (one slot keeps the position with the most empty cells, the most work saved; the
//! other the newest) within a size in MiB, either all used from the start or used from a small
//! part that grows in place as it fills. A position is stored whole, so bounds are never taken
//! for another position's. The threads of one solve share it: a bucket is a
//! cache line (or a few) of atomic words under a version count, which a writer takes (to an odd
//! count) only when no other thread writes there, never waiting, and a reader reads without
//! writing, dropping what changed while it read: no read mixes two writes, and threads reading
//! one bucket never contend. Its memory comes zeroed from the system (`crate::zeroed`), backed
//! only where it is used, so a small search pays for the pages it touches, not for the table's
//! size; a growing table leaves its memory to the next of its size (the next position of a
//! file).

use std::marker::PhantomData;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::fence;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

use crate::board::TableTooLarge;
use crate::othello::engine::{Bits, mix_discs};
use crate::othello::engine::{Layout, Position};
use crate::zeroed::{Line, Zeroed};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The move that was best, or that refuted the window, as a bit index.
    pub best: Option<usize>,
    /// Whether a selective search found them (one that took the learned evaluation's
    /// confident predictions for results): likely, not proven.
    pub selective: bool,
}

/// A value alone on its cache lines (two, as the processor may fetch lines in pairs).
#[repr(align(128))]
struct Padded<T>(T);

/// Bounds on the values of positions of the boards of layout `L`.
pub struct SolveTable<L: Layout> {
    lines: Zeroed<Line>,
    /// Buckets in use, less one (a power of two, less one); grows while threads search.
    mask: AtomicUsize,
    /// Set while a thread grows the table.
    growing: AtomicBool,
    /// The most buckets it may grow to.
    most: usize,
    /// Slots that hold a position, counted while the table may grow; on a line of its own, so
    /// that threads counting do not evict the fields every lookup reads.
    filled: Padded<AtomicUsize>,
    /// Whether threads share the table, so that each bucket is locked while it is used.
    shared: bool,
    /// Whether it started small and grows: then it leaves its memory, once used, to the next
    /// table of its size (the next position of a file), which zeroes only the buckets used.
    grows: bool,
    layout: PhantomData<fn() -> L>,
}

/// A slot's record besides its position: the bounds, the best move and the empty cells, in
/// one word, 0 for a free slot.
#[derive(Clone, Copy)]
struct Record {
    lower: i16,
    upper: i16,
    /// The best move's bit index ([`Record::NO_MOVE`] for none), and [`Record::SELECTIVE`]
    /// where a selective search found the bounds.
    best: u16,
    /// Empty cells of the position, plus one: 0 marks a free slot.
    empties: u16,
}

impl Record {
    /// The bit of `best` that marks bounds found by a selective search.
    const SELECTIVE: u16 = 1 << 15;

    /// `best` for no move (bit indices lie below 26 * 32).
    const NO_MOVE: u16 = Self::SELECTIVE - 1;

    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.empties) << 48
    }

    fn unpack(word: u64) -> Self {
        // Each field is 16 bits of the word, put there by `pack`.
        Record {
            lower: word as u16 as i16,
            upper: (word >> 16) as u16 as i16,
            best: (word >> 32) as u16,
            empties: (word >> 48) as u16,
        }
    }
}

impl<L: Layout> SolveTable<L> {
    /// Words of a slot: the two sets of discs, then the record.
    const SLOT: usize = 2 * L::Bits::WORDS + 1;

    /// Cache lines of a bucket: its lock word and two slots.
    const LINES: usize = (1 + 2 * Self::SLOT).div_ceil(8);

    /// A table in at most `megabytes` MiB (at least one bucket), and no larger than positions of
    /// at most `empties` empty cells can fill, or the reason it cannot be had.
    pub fn new(megabytes: usize, empties: u32) -> Result<Self, TableTooLarge> {
        let too_large = TableTooLarge { megabytes };
        let bytes = megabytes.checked_mul(1 << 20).ok_or(too_large)?;
        let fit = bytes / (64 * Self::LINES);
        let count = if fit == 0 { 1 } else { 1 << fit.ilog2() };
        // The positions a solve of `empties` empty cells meets are at most 3^empties (each of
        // those cells empty, Black or White): two a bucket.
        let reachable = 3usize
            .checked_pow(empties)
            .map_or(usize::MAX, |n| n.div_ceil(2));
        let count = count.min(reachable.checked_next_power_of_two().unwrap_or(count));
        let lines = count.checked_mul(Self::LINES).ok_or(too_large)?;
        Ok(SolveTable {
            lines: Zeroed::new(lines).ok_or(too_large)?,
            mask: AtomicUsize::new(count - 1),
            growing: AtomicBool::new(false),
            most: count,
            filled: Padded(AtomicUsize::new(0)),
            shared: false,
            grows: false,
            layout: PhantomData,
        })
    }

    /// Uses at first only the table's first `buckets` buckets (a power of two) and
    /// growing, through [`Self::grow`], over the rest as it fills: the memory is mapped at once
    /// but backed only where it is used, so a small search touches little of it.
    pub fn start_small(&mut self, buckets: usize) {
        *self.mask.get_mut() = buckets.clamp(1, self.most) - 1;
        self.grows = true;
    }

    /// Whether the table should grow: three quarters of its slots hold positions, and it may.
    #[inline]
    pub fn is_crowded(&self) -> bool {
        let buckets = self.mask.load(Relaxed) + 1;
        buckets < self.most && 4 * self.filled.0.load(Relaxed) > 3 * 2 * buckets
    }

    /// Four times the buckets (at most its full size), keeping what it holds, in place: a
    /// position of bucket `b` of `c` goes to bucket `b + k * c` for some `k`, a bucket that only
    /// bucket `b` sends to, so each bucket is emptied and its positions stored again in turn.
    /// Other threads go on searching meanwhile: one that looks with the old size may miss a
    /// position or store one where the new size will not look, which costs a search, never a
    /// wrong bound (a position is stored whole). Only one thread grows the table at a time.
    pub fn grow(&self) {
        if self.growing.swap(true, Acquire) {
            return;
        }
        if !self.is_crowded() {
            self.growing.store(false, Release);
            return;
        }
        let count = self.mask.load(Relaxed) + 1;
        self.mask.store((count * 4).min(self.most) - 1, Relaxed);
        self.filled.0.store(0, Relaxed);
        for bucket in 0..count {
            // A bucket in use elsewhere keeps its positions where they are.
            if !self.lock(bucket) {
                continue;
            }
            let mut held = [None; 2];
            for (slot, held) in held.iter_mut().enumerate() {
                let record = self.record(bucket, slot);
                if record.empties == 0 {
                    continue;
                }
                let (me, opp) = self.key(bucket, slot);
                // Only the discs matter to the table (its hash and its keys).
                let pos = Position::<L> {
                    me,
                    opp,
                    empty: L::Bits::EMPTY,
                };
                *held = Some((pos, record));
                self.word(bucket, 1 + slot * Self::SLOT + 2 * L::Bits::WORDS)
                    .store(0, Relaxed);
            }
            self.unlock(bucket);
            // The second slot first, so that the first keeps its place where both meet again.
            for (pos, record) in held.into_iter().rev().flatten() {
                self.put_record(&pos, record);
            }
        }
        self.growing.store(false, Release);
    }

    /// Buckets that may hold a position: those in use (a store never reaches beyond them, as
    /// the table only grows).
    pub fn used(&self) -> usize {
        self.mask.load(Relaxed) + 1
    }

    /// Makes the table safe to share between threads (each bucket locked while used).
    pub fn share(&mut self) {
        self.shared = true;
    }

    fn bucket(&self, pos: &Position<L>) -> usize {
        // The high bits are the best mixed.
        (mix_discs(pos) >> 20) as usize & self.mask.load(Relaxed)
    }

    /// Word `i` of bucket `bucket`: the lock, then the slots.
    #[inline]
    fn word(&self, bucket: usize, i: usize) -> &AtomicU64 {
        &self.lines[bucket * Self::LINES + i / 8].0[i % 8]
    }

    /// Takes `bucket` to write it if no other thread is writing it (always, in a table not
    /// shared): its version, even while it is free, goes to the odd number after.
    #[inline]
    fn lock(&self, bucket: usize) -> bool {
        if !self.shared {
            return true;
        }
        let version = self.word(bucket, 0);
        let free = version.load(Relaxed);
        let taken = free.is_multiple_of(2)
            && version
                .compare_exchange(free, free + 1, Acquire, Relaxed)
                .is_ok();
        // A reader that sees any word written after this sees the odd version too.
        fence(Release);
        taken
    }

    /// Ends the writing of `bucket` that [`Self::lock`] began: its version, even again, tells
    /// readers that it changed.
    #[inline]
    fn unlock(&self, bucket: usize) {
        if self.shared {
            let version = self.word(bucket, 0);
            version.store(version.load(Relaxed) + 1, Release);
        }
    }

    /// The version of `bucket` before a read without the lock, `None` while another thread
    /// writes it (in a table not shared, no thread takes a bucket: its version stays 0).
    #[inline]
    fn read_version(&self, bucket: usize) -> Option<u64> {
        let version = self.word(bucket, 0).load(Acquire);
        version.is_multiple_of(2).then_some(version)
    }

    /// Whether `bucket` kept `version` while it was read: else what was read may mix two
    /// writes, and is dropped.
    #[inline]
    fn read_held(&self, bucket: usize, version: u64) -> bool {
        fence(Acquire);
        self.word(bucket, 0).load(Relaxed) == version
    }

    /// The discs of the position in slot `slot` of `bucket` (the caller holds the lock).
    #[inline]
    fn key(&self, bucket: usize, slot: usize) -> (L::Bits, L::Bits) {
        let base = 1 + slot * Self::SLOT;
        let (mut me, mut opp) = (L::Bits::EMPTY, L::Bits::EMPTY);
        for i in 0..L::Bits::WORDS {
            me.set_word(i, self.word(bucket, base + i).load(Relaxed));
            opp.set_word(
                i,
                self.word(bucket, base + L::Bits::WORDS + i).load(Relaxed),
            );
        }
        (me, opp)
    }

    /// Whether slot `slot` of `bucket` holds `pos` (the caller holds the lock).
    #[inline]
    fn holds(&self, bucket: usize, slot: usize, pos: &Position<L>) -> bool {
        self.key(bucket, slot) == (pos.me, pos.opp)
    }

    #[inline]
    fn record(&self, bucket: usize, slot: usize) -> Record {
        Record::unpack(
            self.word(bucket, 1 + slot * Self::SLOT + 2 * L::Bits::WORDS)
                .load(Relaxed),
        )
    }

    /// Starts loading the bucket of `pos` into the cache, for a [`Self::get`] soon after (a
    /// hint: elsewhere than on x86-64 it does nothing but find the bucket).
    #[inline]
    pub fn prefetch(&self, pos: &Position<L>) {
        crate::zeroed::prefetch(&self.lines[self.bucket(pos) * Self::LINES]);
    }

    /// What is known of `pos`, if anything (nothing while another thread writes its bucket):
    /// read without taking the bucket, so that threads reading one bucket never contend.
    #[inline]
    pub fn get(&self, pos: &Position<L>) -> Option<Bounds> {
        let bucket = self.bucket(pos);
        let version = self.read_version(bucket)?;
        let found = (0..2)
            .map(|slot| self.record(bucket, slot))
            .enumerate()
            .find(|&(slot, record)| record.empties != 0 && self.holds(bucket, slot, pos))
            .map(|(_, record)| Bounds {
                lower: i32::from(record.lower),
                upper: i32::from(record.upper),
                best: (record.best & Record::NO_MOVE != Record::NO_MOVE)
                    .then_some(usize::from(record.best & Record::NO_MOVE)),
                selective: record.best & Record::SELECTIVE != 0,
            });
        found.filter(|_| self.read_held(bucket, version))
    }

    /// Remembers `bounds` of `pos`, a position with `empties` empty cells (unless another
    /// thread is using its bucket).
    #[inline]
    pub fn put(&self, pos: &Position<L>, empties: u32, bounds: Bounds) {
        // Values lie within +-676 and bit indices below 26 * 32, so the conversions hold.
        let record = Record {
            lower: bounds
                .lower
                .clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            upper: bounds
                .upper
                .clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            best: bounds.best.map_or(Record::NO_MOVE, |b| b as u16)
                | if bounds.selective {
                    Record::SELECTIVE
                } else {
                    0
                },
            empties: empties as u16 + 1,
        };
        self.put_record(pos, record);
    }

    fn put_record(&self, pos: &Position<L>, record: Record) {
        let bucket = self.bucket(pos);
        if !self.lock(bucket) {
            return;
        }
        let first = self.record(bucket, 0);
        let second = self.record(bucket, 1);
        // A slot is only ever filled once the first is (the first is never emptied), so a
        // free first slot means a free bucket.
        if first.empties != 0 && self.holds(bucket, 0, pos) {
            self.write(bucket, 0, pos, record);
        } else {
            if record.empties >= first.empties {
                if first.empties != 0 {
                    self.copy_first_to_second(bucket);
                }
                self.write(bucket, 0, pos, record);
            } else {
                self.write(bucket, 1, pos, record);
            }
            // One more slot holds a position where either was free (counted only while the
            // table may grow: the count is for nothing else).
            if (first.empties == 0 || second.empties == 0) && self.used() < self.most {
                self.filled.0.fetch_add(1, Relaxed);
            }
        }
        self.unlock(bucket);
    }

    fn write(&self, bucket: usize, slot: usize, pos: &Position<L>, record: Record) {
        let base = 1 + slot * Self::SLOT;
        for i in 0..L::Bits::WORDS {
            self.word(bucket, base + i).store(pos.me.word(i), Relaxed);
            self.word(bucket, base + L::Bits::WORDS + i)
                .store(pos.opp.word(i), Relaxed);
        }
        self.word(bucket, base + 2 * L::Bits::WORDS)
            .store(record.pack(), Relaxed);
    }

    fn copy_first_to_second(&self, bucket: usize) {
        for i in 0..Self::SLOT {
            let word = self.word(bucket, 1 + i).load(Relaxed);
            self.word(bucket, 1 + Self::SLOT + i).store(word, Relaxed);
        }
    }
}

impl<L: Layout> Drop for SolveTable<L> {
    fn drop(&mut self) {
        // A growing table's memory past its buckets in use was never written.
        if self.grows {
            let used = self.used() * Self::LINES;
            self.lines.keep_when_dropped(used);
        }
    }
}

#[cfg(test)]
mod tests;
