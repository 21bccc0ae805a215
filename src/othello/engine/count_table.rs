//! The table of perft counts: exact leaf counts of positions at a remaining depth, in a fixed
//! number of slots (sized in MiB, never growing), two to a bucket (one keeps the deepest count,
//! the other the newest), in shards behind locks so that threads can share it. A position is
//! stored whole, so a count is never taken for another position's; on 8x8 it is first turned
//! by whichever of the board's eight symmetries gives the smallest key, discs and pits alike,
//! since the rules look the same from every side.

use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use super::layout::{Layout, Position};
use crate::board::TableTooLarge;

/// One remembered count.
struct Slot<L: Layout> {
    me: L::Bits,
    opp: L::Bits,
    empty: L::Bits,
    /// Remaining depth; 0 marks an empty slot.
    depth: u32,
    count: u64,
}

impl<L: Layout> Clone for Slot<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Slot<L> {}

/// Shards of the table, each behind its own lock.
const SHARDS: usize = 64;

/// Perft counts of positions on the boards of layout `L`.
pub struct CountTable<L: Layout> {
    shards: Vec<Mutex<Vec<[Slot<L>; 2]>>>,
    /// Buckets per shard, less one (a power of two, less one).
    mask: usize,
}

/// FxHash's mixing, word by word: fast, and plenty for spreading positions over buckets.
#[derive(Default)]
pub struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The two players' discs of `pos` mixed into one word, for the search tables' slots (the
/// positions one table holds differ in their discs): its high bits are the best mixed.
#[inline]
pub fn mix_discs<L: Layout>(pos: &Position<L>) -> u64 {
    let mut hasher = Mix::default();
    pos.me.hash(&mut hasher);
    pos.opp.hash(&mut hasher);
    hasher.finish()
}

impl<L: Layout> CountTable<L> {
    /// A table in at most `megabytes` MiB (at least one bucket a shard), or the reason it
    /// cannot be had.
    pub fn new(megabytes: usize) -> Result<Self, TableTooLarge> {
        let too_large = TableTooLarge { megabytes };
        let bytes = megabytes.checked_mul(1 << 20).ok_or(too_large)?;
        let per_shard = bytes / SHARDS / std::mem::size_of::<[Slot<L>; 2]>();
        let buckets = if per_shard == 0 {
            1
        } else {
            1 << per_shard.ilog2()
        };
        let empty = Slot::<L> {
            me: L::ALL,
            opp: L::ALL,
            empty: L::ALL,
            depth: 0,
            count: 0,
        };
        // Ask for the whole table at once first: a size the machine cannot back fails here,
        // before any of it is touched, rather than shard by shard.
        let mut whole: Vec<u8> = Vec::new();
        whole.try_reserve_exact(bytes).map_err(|_| too_large)?;
        drop(whole);
        let mut shards = Vec::new();
        shards.try_reserve_exact(SHARDS).map_err(|_| too_large)?;
        for _ in 0..SHARDS {
            let mut shard = Vec::new();
            shard.try_reserve_exact(buckets).map_err(|_| too_large)?;
            shard.resize(buckets, [empty; 2]);
            shards.push(Mutex::new(shard));
        }
        Ok(CountTable {
            shards,
            mask: buckets - 1,
        })
    }

    /// Where `pos` at `depth` lives: its symmetric key, its shard and its bucket.
    fn place(&self, pos: &Position<L>, depth: u32) -> ([L::Bits; 3], usize, usize) {
        let key = L::canonical([pos.me, pos.opp, pos.empty]);
        let mut hasher = Mix::default();
        key.hash(&mut hasher);
        hasher.write_u64(u64::from(depth));
        let h = hasher.finish();
        // The top bits pick the shard, the low bits the bucket.
        (key, (h >> 58) as usize % SHARDS, h as usize & self.mask)
    }

    fn shard(&self, i: usize) -> std::sync::MutexGuard<'_, Vec<[Slot<L>; 2]>> {
        // A shard poisoned by a panicking thread still holds exact counts.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The count of `pos` at `depth`, if remembered.
    pub fn get(&self, pos: &Position<L>, depth: u32) -> Option<u64> {
        let ([me, opp, empty], shard, bucket) = self.place(pos, depth);
        let shard = self.shard(shard);
        shard[bucket]
            .iter()
            .find(|s| s.depth == depth && s.me == me && s.opp == opp && s.empty == empty)
            .map(|s| s.count)
    }

    /// Remembers the `count` of `pos` at `depth`.
    pub fn put(&self, pos: &Position<L>, depth: u32, count: u64) {
        let ([me, opp, empty], shard, bucket) = self.place(pos, depth);
        let slot = Slot {
            me,
            opp,
            empty,
            depth,
            count,
        };
        let mut shard = self.shard(shard);
        let pair = &mut shard[bucket];
        // The first slot keeps the deepest count (the most work saved), the second the newest.
        if depth >= pair[0].depth {
            pair[1] = pair[0];
            pair[0] = slot;
        } else {
            pair[1] = slot;
        }
    }
}
