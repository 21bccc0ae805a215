//! Sets of board cells, one bit each: the `Bits` operations the engine needs, on one `u64`
//! (boards up to 8x8) and on `Wide<W>`, a fixed array of words for larger boards. They know
//! nothing of Othello: no directions, no moves.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board cells, one bit each.
pub trait Bits:
    Copy
    + Send
    + Sync
    + Eq
    + Hash
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only cell `i`.
    fn cell(i: usize) -> Self;

    /// Every cell moved `k` places up (towards higher indices), `0 < k < 64`; bits pushed past
    /// the top are lost.
    #[must_use]
    fn up(self, k: u32) -> Self;

    /// Every cell moved `k` places down, `0 < k < 64`; bits pushed below cell 0 are lost.
    #[must_use]
    fn down(self, k: u32) -> Self;

    /// How many cells are in the set.
    fn len(self) -> u32;

    /// Whether the set is empty.
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// Whether cell `i` is in the set.
    fn has(self, i: usize) -> bool {
        !(self & Self::cell(i)).is_empty()
    }

    /// Adds cell `i` if absent, removes it if present.
    #[inline]
    fn toggle(&mut self, i: usize) {
        *self ^= Self::cell(i);
    }

    /// The lowest cell of a non-empty set, or `None`.
    fn first(self) -> Option<usize>;

    /// The set without its lowest cell.
    #[must_use]
    fn without_first(self) -> Self;

    /// The cells of the set, lowest first.
    fn cells(self) -> impl Iterator<Item = usize>;

    /// The set's first 64 cells, cell `i` at bit `i`: the whole set on boards up to 8x8.
    fn first_word(self) -> u64;

    /// The words the set is stored in.
    const WORDS: usize;

    /// Word `i` of the set (`i < WORDS`): cells `64 * i` to `64 * i + 63`.
    fn word(self, i: usize) -> u64;

    /// Sets word `i` of the set (`i < WORDS`) to `word`.
    fn set_word(&mut self, i: usize, word: u64);
}

/// The cells of a one-word set in increasing order.
pub struct Cells(u64);

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.first()?;
        self.0 = self.0.without_first();
        Some(i)
    }
}

impl Bits for u64 {
    const EMPTY: u64 = 0;

    fn cell(i: usize) -> u64 {
        1 << i
    }

    fn up(self, k: u32) -> u64 {
        self << k
    }

    fn down(self, k: u32) -> u64 {
        self >> k
    }

    fn len(self) -> u32 {
        self.count_ones()
    }

    fn first(self) -> Option<usize> {
        (self != 0).then(|| self.trailing_zeros() as usize)
    }

    fn without_first(self) -> u64 {
        self & self.wrapping_sub(1)
    }

    #[inline]
    fn cells(self) -> impl Iterator<Item = usize> {
        Cells(self)
    }

    #[inline]
    fn first_word(self) -> u64 {
        self
    }

    const WORDS: usize = 1;

    #[inline]
    fn word(self, _: usize) -> u64 {
        self
    }

    #[inline]
    fn set_word(&mut self, _: usize, word: u64) {
        *self = word;
    }
}

/// A set of up to `64 * W` cells: word 0 holds cells 0..64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> Wide<W> {
    /// The cells of an `n` by `n` board whose rows start `stride` bits apart (cell `row *
    /// stride + col`), but for column `skip` (`usize::MAX` skips none). Usable in constants,
    /// where the board masks are built.
    pub(super) const fn board(n: usize, stride: usize, skip: usize) -> Self {
        let mut words = [0; W];
        let mut i = 0;
        while i < n * stride {
            if i % stride < n && i % stride != skip {
                words[i / 64] |= 1 << (i % 64);
            }
            i += 1;
        }
        Wide(words)
    }
}

/// [`Wide::board`] for a single word.
pub(super) const fn board_u64(n: usize, stride: usize, skip: usize) -> u64 {
    Wide::<1>::board(n, stride, skip).0[0]
}

/// The word-by-word operators of `Wide`.
macro_rules! wide_ops {
    ($($op:ident $method:ident $op_assign:ident $method_assign:ident;)*) => {$(
        impl<const W: usize> $op for Wide<W> {
            type Output = Self;
            #[inline]
            fn $method(self, other: Self) -> Self {
                Wide(std::array::from_fn(|i| $op::$method(self.0[i], other.0[i])))
            }
        }

        impl<const W: usize> $op_assign for Wide<W> {
            #[inline]
            fn $method_assign(&mut self, other: Self) {
                *self = $op::$method(*self, other);
            }
        }
    )*};
}

wide_ops! {
    BitAnd bitand BitAndAssign bitand_assign;
    BitOr bitor BitOrAssign bitor_assign;
    BitXor bitxor BitXorAssign bitxor_assign;
}

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const W: usize> Bits for Wide<W> {
    const EMPTY: Self = Wide([0; W]);

    fn cell(i: usize) -> Self {
        let mut words = [0; W];
        words[i / 64] = 1 << (i % 64);
        Wide(words)
    }

    #[inline]
    fn up(self, k: u32) -> Self {
        Wide(std::array::from_fn(|i| {
            let carry = if i == 0 { 0 } else { self.0[i - 1] >> (64 - k) };
            (self.0[i] << k) | carry
        }))
    }

    #[inline]
    fn down(self, k: u32) -> Self {
        Wide(std::array::from_fn(|i| {
            let carry = if i + 1 == W {
                0
            } else {
                self.0[i + 1] << (64 - k)
            };
            (self.0[i] >> k) | carry
        }))
    }

    fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn toggle(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }

    fn has(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    fn is_empty(self) -> bool {
        // An OR of the words, where `==` on the array would call memcmp.
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    fn first(self) -> Option<usize> {
        let (i, w) = self.0.iter().enumerate().find(|(_, w)| **w != 0)?;
        Some(i * 64 + w.trailing_zeros() as usize)
    }

    fn without_first(self) -> Self {
        let mut words = self.0;
        if let Some(w) = words.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        Wide(words)
    }

    #[inline]
    fn cells(self) -> impl Iterator<Item = usize> {
        // Word by word, rather than searching for the first word again for every cell.
        (0..W).flat_map(move |i| Cells(self.0[i]).map(move |bit| i * 64 + bit))
    }

    #[inline]
    fn first_word(self) -> u64 {
        self.0[0]
    }

    const WORDS: usize = W;

    #[inline]
    fn word(self, i: usize) -> u64 {
        self.0[i]
    }

    #[inline]
    fn set_word(&mut self, i: usize, word: u64) {
        self.0[i] = word;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_carry_across_words() {
        let x = Wide::<3>::cell(63);
        assert_eq!(x.up(1), Wide::<3>::cell(64));
        assert_eq!(x.up(27).first(), Some(90));
        assert_eq!(Wide::<3>::cell(130).down(27).first(), Some(103));
        assert_eq!(Wide::<3>::cell(191).up(1), Wide::<3>::EMPTY);
        assert_eq!(Wide::<3>::cell(0).down(1), Wide::<3>::EMPTY);
        let s = Wide::<3>::cell(5) | Wide::<3>::cell(70) | Wide::<3>::cell(150);
        assert_eq!(s.cells().collect::<Vec<_>>(), [5, 70, 150]);
        assert_eq!(s.len(), 3);
    }
}
