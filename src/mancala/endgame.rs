//! The Kalah solver's endgame table: the exact values of positions with few stones left in the
//! pits, computed on first sight and kept for good. Pure computation, bounded in size.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::estimate::INFINITY;
use super::game::{Capture, Rows, sow};
use crate::zeroed::{Zeroed, prefetch};

/// The exact values of positions with few stones left in the pits, computed on first sight and
/// kept for good: a retrograde database filled lazily. Positions are numbered densely by their
/// stone count and then by the combinatorial rank of how the stones lie in the `2 * P` pits.
pub(super) struct Endgame<const P: usize> {
    /// The most stones in the pits of a position kept here.
    pub limit: u32,
    /// Binomial coefficients `C(n, k)` for `k` up to `2 * P`.
    choose: Pascal,
    /// Value plus [`Endgame::BIAS`] by position number; 0 while not yet known. Threads may
    /// compute a value at the same time: they store the same number.
    values: Zeroed<AtomicU8>,
    /// The capture rule the values are played under.
    capture: Capture,
}

impl<const P: usize> Endgame<P> {
    /// Positions the table may hold: 150 million bytes at the most.
    pub const CAPACITY: u64 = 150_000_000;
    /// Added to a value so that a stored value is never 0 (values lie within +-limit).
    const BIAS: i32 = 100;
    /// The largest limit: a value of at most this many stones, biased, fits a byte.
    const MOST: u32 = 90;

    /// A table for positions of up to as many stones as fit `capacity` bytes (at most
    /// [`Self::CAPACITY`]), and fewer than the game has (a table holding the whole game would
    /// save nothing), under the `capture` rule; `Err` when the memory cannot be had.
    pub fn new(stones: u32, capture: Capture, capacity: u64) -> Result<Self, ()> {
        let pits = 2 * P;
        // Positions with at most k stones in `pits` pits: C(k + pits, pits).
        let choose = Pascal::new(Self::MOST as usize + pits + 1, pits);
        let capacity = capacity.min(Self::CAPACITY);
        let fits = |k: u32| k < stones && choose.get(k as usize + pits, pits) <= capacity;
        // About a third of the game's stones: a larger table fills with positions that the
        // search above it would mostly have cut off (measured on Kalah (6,3) and (5,4)).
        let limit = (0..=(stones / 3).min(Self::MOST))
            .take_while(|&k| fits(k))
            .last()
            .unwrap_or(0);
        let size = usize::try_from(choose.get(limit as usize + pits, pits)).map_err(|_| ())?;
        let values = Zeroed::new(size).ok_or(())?;
        Ok(Endgame {
            limit,
            choose,
            values,
            capture,
        })
    }

    /// The position number of `rows`, which hold `stones` <= `limit` stones.
    fn index(&self, rows: &Rows<P>, stones: u32) -> usize {
        let pits = 2 * P;
        let mut left = stones as usize;
        // Positions with fewer stones come first.
        let mut index = if left == 0 {
            0
        } else {
            self.choose.get(left - 1 + pits, pits)
        };
        for (i, &n) in rows.iter().flatten().enumerate().take(pits - 1) {
            let after = pits - 1 - i;
            let n = usize::from(n);
            // Arrangements that put fewer stones in this pit, the earlier ones equal.
            index +=
                self.choose.get(left + after, after) - self.choose.get(left - n + after, after);
            left -= n;
        }
        index as usize
    }

    /// Where `rows` (holding `stones` <= `limit` stones) is kept, its value starting to load
    /// into the cache for an [`Self::exact_at`] soon after.
    pub fn locate(&self, rows: &Rows<P>, stones: u32) -> usize {
        let index = self.index(rows, stones);
        prefetch(&self.values[index]);
        index
    }

    /// The exact future margin of the player to move in `rows`, which hold `stones` <=
    /// `limit` stones.
    pub fn exact(&self, rows: &Rows<P>, stones: u32) -> i32 {
        self.exact_at(rows, self.index(rows, stones))
    }

    /// [`Self::exact`] of `rows`, kept at `index`. Plain minimax over the small positions,
    /// each computed once. Every sowing keeps or lowers the stones in the pits, and one that
    /// keeps them moves stones towards the mover's store, so the recursion never comes back to
    /// a position it is computing.
    pub fn exact_at(&self, rows: &Rows<P>, index: usize) -> i32 {
        let known = self.values[index].load(Relaxed);
        if known != 0 {
            return i32::from(known) - Self::BIAS;
        }
        // Every sowing's position, from its next mover's side, located first so that their
        // values load at the same time.
        let mut children = [(0i32, false, [[0u16; P]; 2], None); P];
        let mut count = 0;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let sown = sow(rows, pit, self.capture);
            let (same_mover, next) = sown.after();
            let left: u32 = next.iter().flatten().map(|&n| u32::from(n)).sum();
            // A sowing that ends the game has no position after it to value.
            let at = (!sown.over).then(|| self.locate(&next, left));
            children[count] = (sown.gain(), same_mover, next, at);
            count += 1;
        }
        let mut best = -INFINITY;
        for &(gain, same_mover, ref next, at) in &children[..count] {
            let value = match at {
                None => gain,
                Some(at) if same_mover => gain + self.exact_at(next, at),
                Some(at) => gain - self.exact_at(next, at),
            };
            best = best.max(value);
        }
        // |best| <= stones <= limit <= 90, so the biased value lies in 10..=190.
        self.values[index].store((best + Self::BIAS) as u8, Relaxed);
        best
    }
}

/// Pascal's triangle cut to its first columns, in one flat array (a lookup is one load from a
/// table of a few kilobytes: the endgame table's numbering makes two for each pit).
struct Pascal {
    /// Columns kept: `k` in `0..columns`.
    columns: usize,
    /// `C(n, k)` at `n * columns + k` (saturated; 0 for `k > n`).
    values: Vec<u64>,
}

impl Pascal {
    /// `C(n, k)` for `n` in `0..rows` and `k <= most`.
    fn new(rows: usize, most: usize) -> Self {
        let columns = most + 1;
        let mut values = vec![0u64; rows * columns];
        for n in 0..rows {
            values[n * columns] = 1;
            for k in 1..=n.min(most) {
                values[n * columns + k] =
                    values[(n - 1) * columns + k - 1].saturating_add(values[(n - 1) * columns + k]);
            }
        }
        Pascal { columns, values }
    }

    /// `C(n, k)`.
    #[inline]
    fn get(&self, n: usize, k: usize) -> u64 {
        self.values[n * self.columns + k]
    }
}
