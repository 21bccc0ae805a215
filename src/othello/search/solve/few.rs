//! The last few empty cells of a position as the solver tries them: a small list packed in one
//! word, which a node hands on to its children without copying. Which cells and in what order
//! is the solver's choice (`solve.rs`); this only holds them.

use super::FEW;

/// The last few empty cells of a position, in the order they are tried: up to [`FEW`] bit
/// indices of 16 bits each in one word, the first lowest, so that a node hands its children
/// the rest without copying a list.
#[derive(Clone, Copy)]
pub(super) struct Few {
    /// The cells' bit indices, [`Few::LANE`] bits each.
    pub(super) cells: u64,
    /// How many there are.
    pub(super) count: u32,
}

impl Few {
    /// Bits of a cell's index: the word holds [`FEW`] of them.
    pub(super) const LANE: u32 = {
        assert!(16 * FEW <= u64::BITS, "FEW cells of 16 bits fit one word");
        16
    };

    /// The `i`th cell.
    #[inline]
    pub(super) fn cell(self, i: u32) -> usize {
        usize::from((self.cells >> (Self::LANE * i)) as u16)
    }

    /// The same cells but the `i`th, in the same order.
    #[inline]
    pub(super) fn without(self, i: u32) -> Few {
        let below = (1 << (Self::LANE * i)) - 1;
        Few {
            cells: self.cells & below | (self.cells >> Self::LANE) & !below,
            count: self.count - 1,
        }
    }
}
