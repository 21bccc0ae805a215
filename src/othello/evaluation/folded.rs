//! The learned evaluation's weights folded for scoring: one table per set of pattern cells,
//! holding for every configuration of those cells the sum of the weights of all the pattern
//! images that cover exactly them, so that a position is scored by one lookup a table; and the
//! children of one position scored from what they share with it (only the tables a move
//! changes are looked up again). Which patterns and weights is `pattern.rs`'s; this file only
//! scores with them. Pure computation.

/// Weights after the patterns': a constant, the mobility of the player to move and of the other
/// player, each scaled by [`MOBILITY`].
pub(super) const SCALARS: usize = 3;

/// The mobility features are move counts divided by this, so that their weights are of the
/// same size as the patterns'.
pub(super) const MOBILITY: f32 = 8.0;

/// One image of a pattern: its cells (bit indices) in the pattern's order, and where its
/// pattern's weights begin.
pub(super) struct Image {
    /// The cells' bit indices.
    pub(super) cells: Vec<u8>,
    /// Where the pattern's weights begin in the weight vector.
    pub(super) offset: usize,
}

/// A pattern's cells as a set, with the weights of every configuration of them, summed over
/// all images that cover exactly those cells: one lookup stands for them all.
struct Table {
    /// The cells, lowest bit first: configurations are numbered in that order.
    mask: u64,
    /// Weight by configuration, in 1/SCALE disc (16 bits halve the tables' share of the
    /// cache; a fold of eight weights of at most 4095 fits).
    weights: Vec<i16>,
}

/// The evaluation: its weights folded into one table per set of pattern cells.
pub struct Evaluation {
    tables: Vec<Table>,
    /// By cell (bit index), the tables whose cells include it, one bit a table.
    by_cell: [u64; 64],
    /// The constant and the two mobility weights, per move (not scaled down).
    scalars: [i32; SCALARS],
    /// Ternary value of each binary number of up to 10 bits: the digits of a pattern index.
    ternary: [u32; 1024],
    /// Whether the processor has BMI2, whose `pext` gathers a pattern's bits at once.
    #[cfg(target_arch = "x86_64")]
    bmi2: bool,
}

impl Evaluation {
    /// The evaluation of a board whose pattern images are `images` with `weights` (in
    /// 1/SCALE disc: each image's pattern's weights from its offset, then the scalars').
    #[must_use]
    pub(super) fn new(images: &[Image], weights: &[i16]) -> Evaluation {
        let mut ternary = [0u32; 1024];
        for (bits, value) in ternary.iter_mut().enumerate() {
            *value = (0..10)
                .rev()
                .fold(0, |acc, bit| acc * 3 + ((bits >> bit) & 1) as u32);
        }
        let mut tables: Vec<Table> = Vec::new();
        for image in images {
            let mask = image.cells.iter().fold(0u64, |m, &c| m | 1 << c);
            let at = match tables.iter().position(|t| t.mask == mask) {
                Some(at) => at,
                None => {
                    tables.push(Table {
                        mask,
                        weights: vec![0; 3usize.pow(image.cells.len() as u32)],
                    });
                    tables.len() - 1
                }
            };
            // The configurations of the set are counted in base 3, its lowest cell the lowest
            // digit; the image's index follows along, each cell's digit worth its power of 3
            // in the image's order.
            let mut worth = vec![0usize; image.cells.len()];
            for (i, &cell) in image.cells.iter().enumerate() {
                worth[(mask & ((1 << cell) - 1)).count_ones() as usize] = 3usize.pow(i as u32);
            }
            let mut digits = vec![0u8; worth.len()];
            let mut index = 0;
            let table = &mut tables[at];
            for weight in table.weights.iter_mut() {
                *weight = weight.saturating_add(weights[image.offset + index]);
                // The next configuration: digits at 2 roll over to 0, the next one goes up.
                for (digit, &worth) in digits.iter_mut().zip(&worth) {
                    if *digit < 2 {
                        *digit += 1;
                        index += worth;
                        break;
                    }
                    *digit = 0;
                    index -= 2 * worth;
                }
            }
        }
        assert!(tables.len() <= 64, "a set of tables fits one word");
        let mut by_cell = [0u64; 64];
        for (t, table) in tables.iter().enumerate() {
            let mut cells = table.mask;
            while cells != 0 {
                by_cell[cells.trailing_zeros() as usize] |= 1 << t;
                cells &= cells - 1;
            }
        }
        let n = weights.len();
        let scalars = [
            i32::from(weights[n - 3]),
            i32::from(weights[n - 2]),
            i32::from(weights[n - 1]),
        ];
        Evaluation {
            tables,
            by_cell,
            scalars,
            ternary,
            #[cfg(target_arch = "x86_64")]
            bmi2: std::arch::is_x86_feature_detected!("bmi2"),
        }
    }

    /// The position (`me` to move against `opp`, with `mobility` moves each) worth, in
    /// 1/SCALE disc of final margin for the player to move.
    #[must_use]
    pub fn value(&self, me: u64, opp: u64, mobility: (u32, u32)) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is set only where the processor has BMI2.
            return unsafe { self.value_bmi2(me, opp, mobility) };
        }
        self.sum(me, opp, mobility, gather)
    }

    /// [`Self::value`] with BMI2's `pext` doing the gathering.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn value_bmi2(&self, me: u64, opp: u64, mobility: (u32, u32)) -> i32 {
        self.sum(me, opp, mobility, |x, mask| {
            std::arch::x86_64::_pext_u64(x, mask) as usize
        })
    }

    /// [`Self::value`], with `gather` packing the bits of a word under a mask.
    #[inline(always)]
    fn sum(
        &self,
        me: u64,
        opp: u64,
        mobility: (u32, u32),
        gather: impl Fn(u64, u64) -> usize,
    ) -> i32 {
        let patterns: i32 = self
            .tables
            .iter()
            .map(|table| self.weight(table, me, opp, &gather))
            .sum();
        patterns + self.rest(mobility)
    }

    /// The weight of `table` for the position of `me` to move against `opp`.
    #[inline(always)]
    fn weight(&self, table: &Table, me: u64, opp: u64, gather: &impl Fn(u64, u64) -> usize) -> i32 {
        // A mask has at most 10 cells, so the gathered bits index `ternary` as they are.
        let index =
            self.ternary[gather(me, table.mask)] + 2 * self.ternary[gather(opp, table.mask)];
        i32::from(table.weights[index as usize])
    }

    /// The constant and the mobility weights' part of a value.
    #[inline(always)]
    fn rest(&self, mobility: (u32, u32)) -> i32 {
        // The mobility weights are per MOBILITY moves.
        let moves = (self.scalars[1] * mobility.0 as i32 + self.scalars[2] * mobility.1 as i32)
            / MOBILITY as i32;
        self.scalars[0] + moves
    }

    /// How many tables a position is scored with: one lookup each.
    #[cfg(test)]
    pub(super) fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// What the children of a position (`me` to move against `opp`) share: each table's
    /// weight where a move leaves the table's cells as they are, that is, for the position
    /// with the other player to move.
    #[must_use]
    pub fn siblings(&self, me: u64, opp: u64) -> Siblings {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is set only where the processor has BMI2.
            return unsafe { self.siblings_bmi2(me, opp) };
        }
        self.shared(me, opp, gather)
    }

    /// [`Self::siblings`] with BMI2's `pext` doing the gathering.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn siblings_bmi2(&self, me: u64, opp: u64) -> Siblings {
        self.shared(me, opp, |x, mask| {
            std::arch::x86_64::_pext_u64(x, mask) as usize
        })
    }

    /// [`Self::siblings`], with `gather` packing the bits of a word under a mask.
    #[inline(always)]
    fn shared(&self, me: u64, opp: u64, gather: impl Fn(u64, u64) -> usize) -> Siblings {
        let mut siblings = Siblings {
            weights: [0; 64],
            sum: 0,
        };
        for (t, table) in self.tables.iter().enumerate() {
            let weight = self.weight(table, opp, me, &gather);
            siblings.weights[t] = weight;
            siblings.sum += weight;
        }
        siblings
    }

    /// [`Self::value`] of a child (`me` to move against `opp`, with `mobility` moves each) of
    /// the position whose [`Self::siblings`] are `siblings`, where the move changed the cells
    /// `changed` (the cell played and the discs it flipped): the same value, with only the
    /// tables over those cells looked up.
    #[must_use]
    pub fn child_value(
        &self,
        siblings: &Siblings,
        (me, opp): (u64, u64),
        changed: u64,
        mobility: (u32, u32),
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is set only where the processor has BMI2.
            return unsafe { self.child_value_bmi2(siblings, (me, opp), changed, mobility) };
        }
        self.changed(siblings, (me, opp), changed, mobility, gather)
    }

    /// [`Self::child_value`] with BMI2's `pext` doing the gathering.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn child_value_bmi2(
        &self,
        siblings: &Siblings,
        discs: (u64, u64),
        changed: u64,
        mobility: (u32, u32),
    ) -> i32 {
        self.changed(siblings, discs, changed, mobility, |x, mask| {
            std::arch::x86_64::_pext_u64(x, mask) as usize
        })
    }

    /// [`Self::child_value`], with `gather` packing the bits of a word under a mask.
    #[inline(always)]
    fn changed(
        &self,
        siblings: &Siblings,
        (me, opp): (u64, u64),
        changed: u64,
        mobility: (u32, u32),
        gather: impl Fn(u64, u64) -> usize,
    ) -> i32 {
        let mut touched = 0;
        let mut cells = changed;
        while cells != 0 {
            touched |= self.by_cell[cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        let mut patterns = siblings.sum;
        while touched != 0 {
            let t = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            patterns += self.weight(&self.tables[t], me, opp, &gather) - siblings.weights[t];
        }
        patterns + self.rest(mobility)
    }
}

/// What the children of one position share in their evaluation ([`Evaluation::siblings`]).
pub struct Siblings {
    /// Each table's weight where a move leaves its cells as they are.
    weights: [i32; 64],
    /// Their sum.
    sum: i32,
}

/// The bits of `x` under `mask`, packed into the low bits in order (what BMI2's `pext` does).
#[inline]
fn gather(x: u64, mask: u64) -> usize {
    let mut packed = 0;
    let mut bit = 1;
    let mut mask = mask;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            packed |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    packed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_portable_gather_packs_the_masked_bits_in_order() {
        let mut rng = Rng::new(11);
        for _ in 0..1000 {
            let (x, mask) = (rng.next(), rng.next() & rng.next());
            let want = (0..64)
                .filter(|&bit| mask >> bit & 1 == 1)
                .enumerate()
                .fold(0, |packed, (place, bit)| {
                    packed | ((x >> bit & 1) as usize) << place
                });
            assert_eq!(gather(x, mask), want, "{x:#x} under {mask:#x}");
        }
    }
}
