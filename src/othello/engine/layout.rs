//! The rules of Othello on bit sets, for any board: the [`Layout`] a side picks (its bit set,
//! masks and engine paths), the eight directions and a step along them, the engine's
//! [`Position`], and the generic ray walks every layout can fall back on. A board of side `N`
//! keeps one bit per cell, cell `row * N + col` (rows `STRIDE` bits apart on wide boards); the
//! layout also turns a bit index into a [`Coord`] and back (the only place that does). Which
//! side gets which bit set and which fast paths is `sides.rs`; nothing here knows about turns,
//! passes, text or evaluation.

use super::bits::Bits;
#[cfg(target_arch = "x86_64")]
use super::bits::Wide;
use crate::board::Coord;

/// The eight compass directions a line of discs can run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards row 1.
    North,
    /// Towards row 1 and the last column.
    NorthEast,
    /// Towards the last column.
    East,
    /// Towards the last row and the last column.
    SouthEast,
    /// Towards the last row.
    South,
    /// Towards the last row and column `A`.
    SouthWest,
    /// Towards column `A`.
    West,
    /// Towards row 1 and column `A`.
    NorthWest,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The (column, row) change of one step.
    #[must_use]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Direction::North => (0, -1),
            Direction::NorthEast => (1, -1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, 1),
            Direction::South => (0, 1),
            Direction::SouthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, -1),
        }
    }
}

/// A board side as a type, for choosing its bit set.
pub struct Side<const N: usize>;

/// The bit set and the masks of one board side.
pub trait Layout {
    /// Cells per row and column.
    const N: usize;
    /// Bits from a row's first cell to the next row's: `N` on boards of one word; on larger
    /// boards each row has a 16-bit (sides 10 to 16) or 32-bit lane (18 to 26) of its own, so
    /// that a vector register holds rows as lanes and no step wraps from one row to the next.
    const STRIDE: usize;
    /// The bit set wide enough for `N * N` cells.
    type Bits: Bits;
    /// Every cell of the board.
    const ALL: Self::Bits;
    /// Every cell but those of the first column.
    const NOT_FIRST_COLUMN: Self::Bits;
    /// Every cell but those of the last column.
    const NOT_LAST_COLUMN: Self::Bits;

    /// The bit index of `at`, a cell of this board: `row * STRIDE + col`.
    #[must_use]
    fn index(at: Coord) -> usize {
        at.row() * Self::STRIDE + at.col()
    }

    /// The cell of bit index `i`, which must be one of [`Self::ALL`].
    ///
    /// # Panics
    /// When `i` is not a cell of the board.
    #[must_use]
    fn coord(i: usize) -> Coord {
        Coord::new(i % Self::STRIDE, i / Self::STRIDE, Self::N).expect("a bit index of the board")
    }

    /// The cells where `me` may play: see [`moves`].
    #[inline]
    fn moves(me: Self::Bits, opp: Self::Bits, empty: Self::Bits) -> Self::Bits
    where
        Self: Sized,
    {
        rays::moves::<Self>(me, opp, empty)
    }

    /// The sets of a position (`[me, opp, empty]`) seen through whichever symmetry of the board
    /// gives the smallest value, where the layout knows its symmetries (8x8); as they are
    /// otherwise. Counts and values are the same through every symmetry.
    #[inline]
    fn canonical(sets: [Self::Bits; 3]) -> [Self::Bits; 3] {
        sets
    }

    /// [`Self::moves`] built for AVX2, where a layout has such a path.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn moves_avx2(me: Self::Bits, opp: Self::Bits, empty: Self::Bits) -> Self::Bits
    where
        Self: Sized,
    {
        Self::moves(me, opp, empty)
    }

    /// `pos` after its player to move plays `at`, a legal move: see
    /// [`Position::play_unchecked`]. By default each ray from `at` is walked cell by cell and
    /// the discs it flips are turned one at a time, which on a board of many words costs far
    /// less than whole-board sets.
    #[inline]
    fn play(pos: &Position<Self>, at: usize) -> Position<Self>
    where
        Self: Sized,
    {
        rays::play(pos, at)
    }

    /// [`Self::flips`] built for AVX2, where a layout has such a path.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn flips_avx2(me: Self::Bits, opp: Self::Bits, at: usize) -> Self::Bits
    where
        Self: Sized,
    {
        Self::flips(me, opp, at)
    }

    /// [`Self::flips`] built for AVX-512's count of leading zeros a lane, where a layout has
    /// such a path (boards in one word); elsewhere its AVX2 path.
    ///
    /// # Safety
    /// The processor must support AVX2 and AVX-512 F, VL and CD.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn flips_lzcnt(me: Self::Bits, opp: Self::Bits, at: usize) -> Self::Bits
    where
        Self: Sized,
    {
        // SAFETY: the caller's processor has AVX2, as this function's contract requires.
        unsafe { Self::flips_avx2(me, opp, at) }
    }

    /// [`Self::play`] built for AVX-512's count of leading zeros a lane, where a layout has
    /// such a path; elsewhere its AVX2 path.
    ///
    /// # Safety
    /// The processor must support AVX2 and AVX-512 F, VL and CD.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn play_lzcnt(pos: &Position<Self>, at: usize) -> Position<Self>
    where
        Self: Sized,
    {
        // SAFETY: the caller's processor has AVX2, as this function's contract requires.
        unsafe { Self::play_avx2(pos, at) }
    }

    /// [`Self::play`] built for AVX2, where a layout has such a path.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn play_avx2(pos: &Position<Self>, at: usize) -> Position<Self>
    where
        Self: Sized,
    {
        Self::play(pos, at)
    }

    /// How many discs `me` turns over by playing `at`, the last empty cell of a board whose
    /// every other cell holds a disc, built for BMI2, where a layout has such a path (boards in
    /// one word); `None` where it has not.
    ///
    /// # Safety
    /// The processor must support BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn last_flips_bmi2(me: Self::Bits, at: usize) -> Option<u32>
    where
        Self: Sized,
    {
        let _ = (me, at);
        None
    }

    /// A window of this board's position `pos`, where the layout has windows (boards of side
    /// 16 to 26) and the discs fit in one: see [`Cut`].
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn cut_avx2(pos: &Position<Self>) -> Option<Cut<Self>>
    where
        Self: Sized,
    {
        let _ = pos;
        None
    }

    /// The discs that `me` playing `at` turns over: see [`flips`].
    #[inline]
    fn flips(me: Self::Bits, opp: Self::Bits, at: usize) -> Self::Bits
    where
        Self: Sized,
    {
        rays::flips::<Self>(me, opp, at)
    }
}

/// The board of a window cut from a wide board: 15 by 15 cells, rows 16 bits apart (see
/// [`Cut`]). Its edges stand for the board's only where they are the board's; the cut
/// is left before a disc lands on any other.
#[cfg(target_arch = "x86_64")]
pub struct Patch;

/// A window of 15 by 15 cells cut from a wide board's position around its discs, for as long
/// as the discs stay clear of the window's edges that are not the board's: a position on the
/// [`Patch`] board that plays like the board's, at the price of a small board.
#[cfg(target_arch = "x86_64")]
pub struct Cut<L: Layout> {
    /// The window's cells of the position.
    pub position: Position<Patch>,
    /// The window's cells where a disc may be played with the window's position still true to
    /// the board's: all but the window's edges that lie inside the board.
    pub inner: Wide<4>,
    /// The board's cells that are not pits.
    pub(super) cells: L::Bits,
    /// The board row and column of the window's first cell.
    pub(super) row: usize,
    pub(super) col: u32,
    /// Turns a position of the window back into one of the board.
    pub(super) paste: unsafe fn(&Cut<L>, &Position<Patch>) -> Position<L>,
}

#[cfg(target_arch = "x86_64")]
impl<L: Layout> Cut<L> {
    /// The board's position whose window is `pos`, one of the same board as this cut's (no
    /// disc outside the window).
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[inline]
    pub unsafe fn paste(&self, pos: &Position<Patch>) -> Position<L> {
        // SAFETY: passed on from the caller.
        unsafe { (self.paste)(self, pos) }
    }
}

/// Every cell of `x` moved one step towards `dir`, dropping what leaves the board.
#[inline(always)]
pub fn step<L: Layout>(x: L::Bits, dir: Direction) -> L::Bits {
    let (dc, dr) = dir.delta();
    // A stride is at most 32, so a step is at most 33 cells and fits every conversion below.
    let shift = dr * L::STRIDE as isize + dc;
    let moved = if shift > 0 {
        x.up(shift.unsigned_abs() as u32)
    } else {
        x.down(shift.unsigned_abs() as u32)
    };
    // A step along a row wraps the last column onto the next row's first, and the other way.
    match dc {
        1 => moved & L::NOT_FIRST_COLUMN,
        -1 => moved & L::NOT_LAST_COLUMN,
        _ => moved & L::ALL,
    }
}

/// The cells next to a cell of `x`, in any of the eight directions (and maybe some of `x`).
#[inline]
pub fn neighbours<L: Layout>(x: L::Bits) -> L::Bits {
    // The cells beside `x` in its row, then those and `x` a row up and a row down: the eight
    // steps in four (the move orderer's potential mobility spent a third of its time on them).
    let beside = step::<L>(x, Direction::East) | step::<L>(x, Direction::West);
    let row = x | beside;
    beside | step::<L>(row, Direction::North) | step::<L>(row, Direction::South)
}

/// The cells where `me` may play: empty (`empty`) cells from which a straight line of one or
/// more `opp` discs runs to a disc of `me`.
#[inline]
pub fn moves<L: Layout>(me: L::Bits, opp: L::Bits, empty: L::Bits) -> L::Bits {
    L::moves(me, opp, empty)
}

/// Generic versions of the engine's operations, for any [`Layout`].
pub(super) mod rays {
    use super::{Bits, Direction, Layout, Position, step};

    /// [`super::moves`] by flooding each direction until the run of `opp` discs ends.
    #[inline]
    pub fn moves<L: Layout>(me: L::Bits, opp: L::Bits, empty: L::Bits) -> L::Bits {
        let mut found = L::Bits::EMPTY;
        for dir in Direction::ALL {
            let mut run = step::<L>(me, dir) & opp;
            while !run.is_empty() {
                let next = step::<L>(run, dir);
                found |= next & empty;
                run = next & opp;
            }
        }
        found
    }

    /// [`Layout::play`] on boards with a spare column at the end of every row (`STRIDE >
    /// N`): each direction from `at` walked while it meets `opp` discs, and where a disc of
    /// `me` closes the run, its discs turned one by one. A step off a row's end lands in the
    /// spare column, where no disc ever is, and a step off the first or last row leaves the
    /// board's bits, so no walk needs to know where the edges are.
    #[inline]
    pub fn play<L: Layout>(pos: &Position<L>, at: usize) -> Position<L> {
        const { assert!(L::STRIDE > L::N) };
        let end = L::N * L::STRIDE;
        let mut next: Position<L> = Position {
            me: pos.opp,
            opp: pos.me,
            empty: pos.empty,
        };
        next.opp.toggle(at);
        next.empty.toggle(at);
        let mut walk = |step: isize| {
            let mut i = at.wrapping_add_signed(step);
            while i < end && pos.opp.has(i) {
                i = i.wrapping_add_signed(step);
            }
            if i < end && pos.me.has(i) {
                let mut j = at.wrapping_add_signed(step);
                while j != i {
                    next.me.toggle(j);
                    next.opp.toggle(j);
                    j = j.wrapping_add_signed(step);
                }
            }
        };
        // The eight directions, written out so that each walk has its own code.
        let stride = L::STRIDE as isize;
        walk(1);
        walk(-1);
        walk(stride);
        walk(-stride);
        walk(stride + 1);
        walk(-stride - 1);
        walk(stride - 1);
        walk(-stride + 1);
        next
    }

    /// [`super::flips`] by walking each direction from `at`, cell by cell, while it meets
    /// `opp` discs: on a wide board a few bit tests cost far less than whole-board shifts.
    #[inline]
    pub fn flips<L: Layout>(me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
        let mut flipped = L::Bits::EMPTY;
        let (col, row) = (at % L::STRIDE, at / L::STRIDE);
        for dir in Direction::ALL {
            let (dc, dr) = dir.delta();
            let next = |(c, r): (usize, usize)| {
                let c = c.checked_add_signed(dc).filter(|&c| c < L::N)?;
                let r = r.checked_add_signed(dr).filter(|&r| r < L::N)?;
                Some((c, r))
            };
            let mut line = L::Bits::EMPTY;
            let mut cell = next((col, row));
            while let Some((c, r)) = cell.filter(|&(c, r)| opp.has(r * L::STRIDE + c)) {
                line |= L::Bits::cell(r * L::STRIDE + c);
                cell = next((c, r));
            }
            if cell.is_some_and(|(c, r)| me.has(r * L::STRIDE + c)) {
                flipped |= line;
            }
        }
        flipped
    }
}

/// The `opp` discs that `me` playing on the empty cell `at` turns over: every line of `opp`
/// discs from `at` closed by a disc of `me`. Empty when the move is illegal.
#[inline]
pub fn flips<L: Layout>(me: L::Bits, opp: L::Bits, at: usize) -> L::Bits {
    L::flips(me, opp, at)
}

/// A position as the engine sees it: the discs of the player to move, of the other player,
/// and the empty cells (pits are in none of the three).
pub struct Position<L: Layout> {
    /// Discs of the player to move.
    pub me: L::Bits,
    /// Discs of the other player.
    pub opp: L::Bits,
    /// Cells free for a disc.
    pub empty: L::Bits,
}

impl<L: Layout> Clone for Position<L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Position<L> {}

impl<L: Layout> Position<L> {
    /// The cells the player to move may play.
    #[inline]
    pub fn moves(&self) -> L::Bits {
        moves::<L>(self.me, self.opp, self.empty)
    }

    /// [`Self::moves`], built for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn moves_avx2(&self) -> L::Bits {
        // SAFETY: this function is only built for, and so only runs on, processors with AVX2.
        unsafe { L::moves_avx2(self.me, self.opp, self.empty) }
    }

    /// The position after the player to move plays `at`; the other player is then to move.
    /// Unlike the checked `Othello::play`, nothing is verified: `at` must be one of
    /// [`Self::moves`], or the result is no position of the game.
    ///
    /// # Panics
    /// In debug builds, when `at` is not a legal move.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, at: usize) -> Self {
        debug_assert!(self.moves().has(at), "{at} is not a legal move");
        L::play(self, at)
    }

    /// The position after the player to move places a disc on `at` and turns `flipped`.
    #[inline]
    #[must_use]
    pub fn play_with(&self, flipped: L::Bits, at: usize) -> Self {
        let placed = L::Bits::cell(at);
        Position {
            me: self.opp ^ flipped,
            opp: self.me | flipped | placed,
            empty: self.empty ^ placed,
        }
    }

    /// [`Self::play_unchecked`], built for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[must_use]
    #[target_feature(enable = "avx2")]
    pub fn play_unchecked_avx2(&self, at: usize) -> Self {
        debug_assert!(self.moves().has(at), "{at} is not a legal move");
        // SAFETY: this function is only built for, and so only runs on, processors with AVX2.
        unsafe { L::play_avx2(self, at) }
    }

    /// [`Self::play_unchecked`], built for AVX-512's count of leading zeros a lane.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[must_use]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    pub fn play_unchecked_lzcnt(&self, at: usize) -> Self {
        debug_assert!(self.moves().has(at), "{at} is not a legal move");
        // SAFETY: this function is only built for, and so only runs on, processors with these
        // features.
        unsafe { L::play_lzcnt(self, at) }
    }

    /// The same board with the other player to move.
    #[inline]
    #[must_use]
    pub fn pass(&self) -> Self {
        Position {
            me: self.opp,
            opp: self.me,
            empty: self.empty,
        }
    }
}
