//! The computer's midgame search's transposition table (`midgame.rs`): a fixed number of
//! slots, sized to the search's node budget, each holding the newest position that hashed to
//! it with bounds on its value, the depth they were searched to and the best move. No I/O.

use crate::board::TableTooLarge;
use crate::othello::engine::{Layout, Position, mix_discs};

/// The most memory one move's transposition table takes.
const TABLE_BYTES: usize = 8 << 20;

/// One remembered position: bounds on its value from a search `depth` plies deep, and the
/// move that was best or refuted the window.
pub(super) struct Entry<L: Layout> {
    pub(super) me: L::Bits,
    pub(super) opp: L::Bits,
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// The move's bit index; `u16::MAX` for none.
    pub(super) best: u16,
    /// Plies of the search; 0 marks a free entry.
    pub(super) depth: u8,
}

impl<L: Layout> Clone for Entry<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Entry<L> {}

/// A transposition table of a fixed size, one entry a slot, the newest kept.
pub(super) struct Table<L: Layout> {
    entries: Vec<Entry<L>>,
}

impl<L: Layout> Table<L> {
    /// A table for a search of `budget` nodes: about a quarter as many entries, at most
    /// [`TABLE_BYTES`]; the error when the memory cannot be had (a search without it would
    /// play other moves).
    pub(super) fn for_budget(budget: u64) -> Result<Self, TableTooLarge> {
        let size = std::mem::size_of::<Entry<L>>();
        let wanted = usize::try_from(budget / 4).unwrap_or(usize::MAX);
        let count = wanted.clamp(1, TABLE_BYTES / size);
        let count = 1 << count.ilog2();
        let free = Entry::<L> {
            me: L::ALL,
            opp: L::ALL,
            lower: 0,
            upper: 0,
            best: u16::MAX,
            depth: 0,
        };
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(count)
            .map_err(|_| TableTooLarge {
                megabytes: (count * size).div_ceil(1 << 20),
            })?;
        entries.resize(count, free);
        Ok(Table { entries })
    }

    /// No table: nothing is remembered.
    pub(super) fn none() -> Self {
        Table {
            entries: Vec::new(),
        }
    }

    fn slot(&self, pos: &Position<L>) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        // The high bits are the best mixed; the length is a power of two.
        Some((mix_discs(pos) >> 20) as usize & (self.entries.len() - 1))
    }

    pub(super) fn get(&self, pos: &Position<L>) -> Option<&Entry<L>> {
        let entry = &self.entries[self.slot(pos)?];
        (entry.depth != 0 && entry.me == pos.me && entry.opp == pos.opp).then_some(entry)
    }

    pub(super) fn put(&mut self, pos: &Position<L>, entry: Entry<L>) {
        if let Some(i) = self.slot(pos) {
            self.entries[i] = entry;
        }
    }
}
