//! The Kalah solver's endgame table: the exact values of positions with few stones left in the
//! pits, computed on first sight and kept for good. Pure computation, bounded in size.

use super::game::{Capture, Rows, sow};
use super::solve::INFINITY;

/// The exact values of positions with few stones left in the pits, computed on first sight and
/// kept for good: a retrograde database filled lazily. Positions are numbered densely by their
/// stone count and then by the combinatorial rank of how the stones lie in the `2 * P` pits.
pub(super) struct Endgame<const P: usize> {
    /// The most stones in the pits of a position kept here.
    pub limit: u32,
    /// `choose[n][k]`, for `n` up to `limit + 2 * P`.
    choose: Vec<Vec<u64>>,
    /// Value plus [`Endgame::BIAS`] by position number; 0 while not yet known.
    values: Vec<u8>,
    /// The capture rule the values are played under.
    capture: Capture,
}

impl<const P: usize> Endgame<P> {
    /// Positions the table may hold: 150 million bytes at the most.
    pub const CAPACITY: u64 = 150_000_000;
    /// Added to a value so that a stored value is never 0 (values lie within +-limit).
    const BIAS: i32 = 100;

    /// A table for positions of up to as many stones as fit `capacity` bytes (at most
    /// [`Self::CAPACITY`]), and fewer than the game has (a table holding the whole game would
    /// save nothing), under the `capture` rule; `Err` when the memory cannot be had.
    pub fn new(stones: u32, capture: Capture, capacity: u64) -> Result<Self, ()> {
        let pits = 2 * P;
        // Positions with at most k stones in `pits` pits: C(k + pits, pits).
        let choose = pascal(90 + pits + 1);
        let capacity = capacity.min(Self::CAPACITY);
        let fits = |k: u32| k < stones && choose[k as usize + pits][pits] <= capacity;
        // About a third of the game's stones: a larger table fills with positions that the
        // search above it would mostly have cut off (measured on Kalah (6,3) and (5,4)).
        let limit = (0..=stones / 3)
            .take_while(|&k| fits(k))
            .last()
            .unwrap_or(0);
        let size = usize::try_from(choose[limit as usize + pits][pits]).map_err(|_| ())?;
        let mut values = Vec::new();
        values.try_reserve_exact(size).map_err(|_| ())?;
        values.resize(size, 0);
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
            self.choose[left - 1 + pits][pits]
        };
        for (i, &n) in rows.iter().flatten().enumerate().take(pits - 1) {
            let after = pits - 1 - i;
            let n = usize::from(n);
            // Arrangements that put fewer stones in this pit, the earlier ones equal.
            index += self.choose[left + after][after] - self.choose[left - n + after][after];
            left -= n;
        }
        index as usize
    }

    /// The exact future margin of the player to move, if `rows` is small enough to keep here.
    pub fn value(&mut self, rows: &Rows<P>) -> Option<i32> {
        let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
        (stones <= self.limit).then(|| self.exact(rows, stones))
    }

    /// Plain minimax over the small positions, each computed once. Every sowing keeps or lowers
    /// the stones in the pits, and one that keeps them moves stones towards the mover's store,
    /// so the recursion never comes back to a position it is computing.
    pub fn exact(&mut self, rows: &Rows<P>, stones: u32) -> i32 {
        let index = self.index(rows, stones);
        if self.values[index] != 0 {
            return i32::from(self.values[index]) - Self::BIAS;
        }
        let mut best = -INFINITY;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let sown = sow(rows, pit, self.capture);
            let left = || {
                sown.rows
                    .iter()
                    .flatten()
                    .map(|&n| u32::from(n))
                    .sum::<u32>()
            };
            let gain = sown.gain();
            let value = if sown.over {
                gain
            } else if sown.again {
                gain + self.exact(&sown.rows, left())
            } else {
                gain - self.exact(&[sown.rows[1], sown.rows[0]], left())
            };
            best = best.max(value);
        }
        // |best| <= stones <= limit <= 90, so the biased value lies in 10..=190.
        self.values[index] = (best + Self::BIAS) as u8;
        best
    }
}

/// Pascal's triangle: `choose[n][k]` for `n` in `0..rows`, `k <= n` (0 beyond).
fn pascal(rows: usize) -> Vec<Vec<u64>> {
    let mut choose = vec![vec![0u64; rows + 1]; rows];
    for n in 0..rows {
        choose[n][0] = 1;
        for k in 1..=n {
            choose[n][k] = choose[n - 1][k - 1].saturating_add(choose[n - 1][k]);
        }
    }
    choose
}
