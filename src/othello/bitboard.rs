//! The rules of Othello on bit sets: move generation and flips by whole-board shifts, and the
//! engine's `Position`. A board of side `N` keeps one bit per cell, cell `row * N + col`, in the
//! bit set `Side<N>: Layout` picks for the side (one `u64` up to 8x8, `Wide<W>` above); the
//! layout also turns a bit index into a [`Coord`] and back (the only place that does). Nothing
//! here knows about turns, passes or text.

use super::bits::{Bits, Wide, board_u64};
use super::narrow::{canonical_8x8, narrow_moves, ray_flips};
use super::pattern::Learned;
#[cfg(target_arch = "x86_64")]
use super::{avx2, window};
use crate::board::Coord;

/// Whether this processor runs the fast engine paths (`avx2.rs`): false off x86-64.
pub fn fast_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx2::fast_available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

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
    pub fn delta(self) -> (isize, isize) {
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

    /// A window of this board's position `pos`, where the layout has windows (boards of side
    /// 16 to 26) and the discs fit in one: see [`window::Cut`].
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    unsafe fn cut_avx2(pos: &Position<Self>) -> Option<window::Cut<Self>>
    where
        Self: Sized,
    {
        let _ = pos;
        None
    }

    /// The learned evaluation of `pos` for its player to move, whose moves are `moves` and the
    /// other player's `theirs`, by `learned`, in 1/64 disc of final margin, where the layout
    /// has one (8x8, 6x6) and its weights were built in.
    #[inline]
    fn learned(
        pos: &Position<Self>,
        moves: Self::Bits,
        theirs: Self::Bits,
        learned: Learned,
    ) -> Option<i32>
    where
        Self: Sized,
    {
        let _ = (pos, moves, theirs, learned);
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

macro_rules! layouts {
    ($(
        $n:literal => $bits:ty, $board:path, stride = $stride:literal
        $(, moves = $moves:path)? $(, avx2 = $avx2:ident)?
        $(, avx2_moves = $avx2_moves:path)? $(, window = $words:literal)?
        $(, flips = $flips:path)?
        $(, canonical = $canonical:path)? $(, learned = $learned:path)?;
    )*) => {$(
        impl Layout for Side<$n> {
            const N: usize = $n;
            const STRIDE: usize = $stride;
            type Bits = $bits;
            const ALL: $bits = $board($n, $stride, usize::MAX);
            const NOT_FIRST_COLUMN: $bits = $board($n, $stride, 0);
            const NOT_LAST_COLUMN: $bits = $board($n, $stride, $n - 1);
            $(
                #[inline]
                fn moves(me: $bits, opp: $bits, empty: $bits) -> $bits {
                    $moves(me, opp, empty)
                }
            )?
            $(
                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn moves_avx2(me: $bits, opp: $bits, empty: $bits) -> $bits {
                    $avx2::moves::<$n>(me, opp, empty)
                }

                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn flips_avx2(me: $bits, opp: $bits, at: usize) -> $bits {
                    $avx2::flips::<$n>(me, opp, at)
                }

                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn play_avx2(pos: &Position<Self>, at: usize) -> Position<Self> {
                    // SAFETY: the caller runs on a processor with AVX2, as this function's own
                    // contract requires.
                    let flipped = unsafe { Self::flips_avx2(pos.me, pos.opp, at) };
                    pos.play_with(flipped, at)
                }
            )?
            $(
                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn moves_avx2(me: $bits, opp: $bits, empty: $bits) -> $bits {
                    $avx2_moves(me, opp, empty)
                }
            )?
            $(
                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn moves_avx2(me: $bits, opp: $bits, empty: $bits) -> $bits {
                    window::moves_32::<$n, $words>(&me, &opp, &empty)
                        .unwrap_or_else(|| wide_moves::<$words, Self>(me, opp, empty))
                }

                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2")]
                unsafe fn cut_avx2(pos: &Position<Self>) -> Option<window::Cut<Self>> {
                    window::cut_32::<$n, $words, Self>(pos)
                }
            )?
            $(
                #[inline]
                fn flips(me: $bits, opp: $bits, at: usize) -> $bits {
                    $flips(me, opp, at)
                }

                #[inline]
                fn play(pos: &Position<Self>, at: usize) -> Position<Self> {
                    pos.play_with(Self::flips(pos.me, pos.opp, at), at)
                }
            )?
            $(
                #[inline]
                fn canonical(sets: [$bits; 3]) -> [$bits; 3] {
                    $canonical(sets)
                }
            )?
            $(
                #[inline]
                fn learned(
                    pos: &Position<Self>,
                    moves: $bits,
                    theirs: $bits,
                    learned: Learned,
                ) -> Option<i32> {
                    $learned(pos.me, pos.opp, (moves.count_ones(), theirs.count_ones()), learned)
                }
            )?
        }
    )*};
}

layouts! {
    4 => u64, board_u64, stride = 4, moves = narrow_moves::<4>, avx2 = avx2,
        flips = ray_flips::<4>;
    6 => u64, board_u64, stride = 6, moves = narrow_moves::<6>, avx2 = avx2,
        flips = ray_flips::<6>, learned = super::pattern::learned_6;
    8 => u64, board_u64, stride = 8, moves = narrow_moves::<8>, avx2 = avx2,
        flips = ray_flips::<8>, canonical = canonical_8x8, learned = super::pattern::learned_8;
    10 => Wide<4>, Wide::<4>::board, stride = 16, moves = wide_moves::<4, Self>,
        avx2_moves = window::moves_16;
    12 => Wide<4>, Wide::<4>::board, stride = 16, moves = wide_moves::<4, Self>,
        avx2_moves = window::moves_16;
    14 => Wide<4>, Wide::<4>::board, stride = 16, moves = wide_moves::<4, Self>,
        avx2_moves = window::moves_16;
    16 => Wide<9>, Wide::<9>::board, stride = 32, moves = wide_moves::<9, Self>,
        window = 9;
    18 => Wide<10>, Wide::<10>::board, stride = 32, moves = wide_moves::<10, Self>,
        window = 10;
    20 => Wide<11>, Wide::<11>::board, stride = 32, moves = wide_moves::<11, Self>,
        window = 11;
    22 => Wide<12>, Wide::<12>::board, stride = 32, moves = wide_moves::<12, Self>,
        window = 12;
    24 => Wide<13>, Wide::<13>::board, stride = 32, moves = wide_moves::<13, Self>,
        window = 13;
    26 => Wide<14>, Wide::<14>::board, stride = 32, moves = wide_moves::<14, Self>,
        window = 14;
}

/// The board of a window cut from a wide board: 15 by 15 cells, rows 16 bits apart (see
/// [`window::Cut`]). Its edges stand for the board's only where they are the board's; the cut
/// is left before a disc lands on any other.
#[cfg(target_arch = "x86_64")]
pub struct Patch;

#[cfg(target_arch = "x86_64")]
impl Layout for Patch {
    const N: usize = 15;
    const STRIDE: usize = 16;
    type Bits = Wide<4>;
    const ALL: Wide<4> = Wide::<4>::board(15, 16, usize::MAX);
    const NOT_FIRST_COLUMN: Wide<4> = Wide::<4>::board(15, 16, 0);
    const NOT_LAST_COLUMN: Wide<4> = Wide::<4>::board(15, 16, 14);

    #[inline]
    fn moves(me: Wide<4>, opp: Wide<4>, empty: Wide<4>) -> Wide<4> {
        wide_moves::<4, Self>(me, opp, empty)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn moves_avx2(me: Wide<4>, opp: Wide<4>, empty: Wide<4>) -> Wide<4> {
        window::moves_16(me, opp, empty)
    }
}

/// Every cell of `x` moved one step towards `dir`, dropping what leaves the board.
#[inline(always)]
pub(super) fn step<L: Layout>(x: L::Bits, dir: Direction) -> L::Bits {
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
    Direction::ALL
        .iter()
        .fold(L::Bits::EMPTY, |near, &dir| near | step::<L>(x, dir))
}

/// [`moves`] for boards of several words: each direction flooded while its run goes on, over
/// only the words from just before the first disc to just after the last, since no move lies
/// further than a row and a column from a disc. Early in a game that is a few words of many.
#[inline]
#[expect(
    clippy::needless_range_loop,
    reason = "a word's step reads its neighbours, so the loops go by index"
)]
fn wide_moves<const W: usize, L: Layout<Bits = Wide<W>>>(
    me: Wide<W>,
    opp: Wide<W>,
    empty: Wide<W>,
) -> Wide<W> {
    let discs = (me | opp).0;
    let Some(first) = discs.iter().position(|&w| w != 0) else {
        return Wide::EMPTY;
    };
    let last = discs.iter().rposition(|&w| w != 0).unwrap_or(first);
    // A step is at most STRIDE + 1 <= 33 cells, so it reaches at most one word further.
    let (lo, hi) = (first.saturating_sub(1), (last + 1).min(W - 1));
    let mut found = [0u64; W];
    for dir in Direction::ALL {
        let (dc, dr) = dir.delta();
        let shift = dr * L::STRIDE as isize + dc;
        let k = shift.unsigned_abs() as u32;
        let keep = match dc {
            1 => L::NOT_FIRST_COLUMN.0,
            -1 => L::NOT_LAST_COLUMN.0,
            _ => L::ALL.0,
        };
        // One step of every cell of `x` in the window; words outside it are zero.
        let step = |x: &[u64; W], i: usize| {
            let moved = if shift > 0 {
                (x[i] << k) | if i > lo { x[i - 1] >> (64 - k) } else { 0 }
            } else {
                (x[i] >> k) | if i < hi { x[i + 1] << (64 - k) } else { 0 }
            };
            moved & keep[i]
        };
        let mut run = [0u64; W];
        let mut any = 0;
        for i in lo..=hi {
            run[i] = step(&me.0, i) & opp.0[i];
            any |= run[i];
        }
        while any != 0 {
            let mut next = [0u64; W];
            any = 0;
            for i in lo..=hi {
                let moved = step(&run, i);
                found[i] |= moved & empty.0[i];
                next[i] = moved & opp.0[i];
                any |= next[i];
            }
            run = next;
        }
    }
    Wide(found)
}

/// The cells where `me` may play: empty (`empty`) cells from which a straight line of one or
/// more `opp` discs runs to a disc of `me`.
#[inline]
pub fn moves<L: Layout>(me: L::Bits, opp: L::Bits, empty: L::Bits) -> L::Bits {
    L::moves(me, opp, empty)
}

/// Generic versions of the engine's operations, for any [`Layout`].
mod rays {
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
    pub(super) fn play_with(&self, flipped: L::Bits, at: usize) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The bit index of (column, row).
    fn at<L: Layout>(col: usize, row: usize) -> usize {
        L::index(Coord::new(col, row, L::N).unwrap())
    }

    /// The set of the given (column, row) cells.
    fn set<L: Layout>(cells: &[(usize, usize)]) -> L::Bits {
        cells.iter().fold(L::Bits::EMPTY, |s, &(c, r)| {
            s | L::Bits::cell(at::<L>(c, r))
        })
    }

    fn wide_and_narrow_agree<L: Layout>() {
        let n = L::N;
        assert_eq!(L::ALL.len() as usize, n * n);
        assert_eq!(L::NOT_FIRST_COLUMN.len() as usize, n * n - n);
        assert!(!L::NOT_FIRST_COLUMN.has(at::<L>(0, 1)));
        assert!(L::NOT_LAST_COLUMN.has(at::<L>(0, 1)));
        assert!(!L::NOT_LAST_COLUMN.has(at::<L>(n - 1, 1)));
        // Every cell of the board, row by row, and no bit besides.
        let all: Vec<usize> = L::ALL.cells().collect();
        let cells: Vec<usize> = (0..n * n).map(|i| at::<L>(i % n, i / n)).collect();
        assert_eq!(all, cells);
        for &i in &all {
            assert_eq!(L::index(L::coord(i)), i);
        }
        // A disc in each corner steps off the board in the directions that leave it.
        for corner in [
            at::<L>(0, 0),
            at::<L>(n - 1, 0),
            at::<L>(0, n - 1),
            at::<L>(n - 1, n - 1),
        ] {
            let x = L::Bits::cell(corner);
            let stays = Direction::ALL
                .iter()
                .filter(|&&dir| !step::<L>(x, dir).is_empty())
                .count();
            assert_eq!(stays, 3, "corner {corner} at side {n}");
        }
        // Centre-ish moves: the opening position has exactly four moves at every side.
        let (a, b) = (n / 2 - 1, n / 2);
        let me = set::<L>(&[(a, a), (b, b)]);
        let opp = set::<L>(&[(b, a), (a, b)]);
        let empty = L::ALL & !(me | opp);
        let m = moves::<L>(me, opp, empty);
        assert_eq!(m.len(), 4, "side {n}");
        for at in m.cells() {
            assert_eq!(flips::<L>(me, opp, at).len(), 1);
        }
    }

    #[test]
    fn every_layout_has_consistent_masks_and_the_opening_moves() {
        wide_and_narrow_agree::<Side<4>>();
        wide_and_narrow_agree::<Side<6>>();
        wide_and_narrow_agree::<Side<8>>();
        wide_and_narrow_agree::<Side<10>>();
        wide_and_narrow_agree::<Side<12>>();
        wide_and_narrow_agree::<Side<14>>();
        wide_and_narrow_agree::<Side<16>>();
        wide_and_narrow_agree::<Side<18>>();
        wide_and_narrow_agree::<Side<20>>();
        wide_and_narrow_agree::<Side<22>>();
        wide_and_narrow_agree::<Side<24>>();
        wide_and_narrow_agree::<Side<26>>();
    }

    /// Plays random games, and at every position checks the layout's move generator and flips
    /// against the plain ray walks, and both against each other: a cell is a move exactly when
    /// playing it flips something.
    fn engines_agree<L: Layout>(seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..4 {
            let (a, b) = (L::N / 2 - 1, L::N / 2);
            let n = L::N;
            let mut pos = Position::<L> {
                me: set::<L>(&[(a, a), (b, b)]),
                opp: set::<L>(&[(b, a), (a, b)]),
                empty: L::ALL,
            };
            // A few random pits, away from the centre.
            for _ in 0..rng.below(n) {
                let i = at::<L>(rng.below(n), rng.below(n));
                if !(pos.me | pos.opp).has(i) {
                    pos.empty &= !L::Bits::cell(i);
                }
            }
            pos.empty &= !(pos.me | pos.opp);
            let mut passes = 0;
            while passes < 2 {
                let moves = L::moves(pos.me, pos.opp, pos.empty);
                assert_eq!(
                    moves,
                    rays::moves::<L>(pos.me, pos.opp, pos.empty),
                    "side {n}"
                );
                #[cfg(target_arch = "x86_64")]
                if fast_available() {
                    // SAFETY: AVX2 was just detected.
                    let fast = unsafe { L::moves_avx2(pos.me, pos.opp, pos.empty) };
                    assert_eq!(fast, moves, "side {n}");
                }
                for i in pos.empty.cells() {
                    let flipped = L::flips(pos.me, pos.opp, i);
                    assert_eq!(
                        flipped,
                        rays::flips::<L>(pos.me, pos.opp, i),
                        "side {n} cell {i}"
                    );
                    assert_eq!(!flipped.is_empty(), moves.has(i), "side {n} cell {i}");
                    #[cfg(target_arch = "x86_64")]
                    if fast_available() {
                        // SAFETY: AVX2 was just detected.
                        let fast = unsafe { L::flips_avx2(pos.me, pos.opp, i) };
                        assert_eq!(fast, flipped, "side {n} cell {i}");
                    }
                }
                for at in moves.cells() {
                    // Playing by the layout's own way and by turning the flipped set agree.
                    let walked = pos.play_unchecked(at);
                    let turned = pos.play_with(L::flips(pos.me, pos.opp, at), at);
                    assert_eq!(
                        (walked.me, walked.opp, walked.empty),
                        (turned.me, turned.opp, turned.empty),
                        "side {n} move {at}"
                    );
                }
                let choices: Vec<usize> = moves.cells().collect();
                if choices.is_empty() {
                    passes += 1;
                    pos = pos.pass();
                } else {
                    passes = 0;
                    pos = pos.play_unchecked(choices[rng.below(choices.len())]);
                }
            }
        }
    }

    #[test]
    fn the_8x8_symmetries_take_every_cell_of_an_orbit_to_the_same_key() {
        // Orbits under the eight symmetries, smallest cell first: the corners; B1 and its
        // images (G1, A2, H2, A7, H7, B8, G8); C1 and its images; and the centre.
        let orbits: [&[u32]; 4] = [
            &[0, 7, 56, 63],
            &[1, 6, 8, 15, 48, 55, 57, 62],
            &[2, 5, 16, 23, 40, 47, 58, 61],
            &[27, 28, 35, 36],
        ];
        for orbit in orbits {
            for &cell in orbit {
                let key = canonical_8x8([1 << cell, 0, 0]);
                assert_eq!(key, [1 << orbit[0], 0, 0], "cell {cell}");
            }
        }
        // Discs, opponents and pits turn together.
        assert_eq!(
            canonical_8x8([1 << 63, 1 << 62, 1 << 55]),
            [1, 1 << 1, 1 << 8]
        );
    }

    #[test]
    fn fast_engines_agree_with_the_ray_walks_at_every_side() {
        engines_agree::<Side<4>>(1);
        engines_agree::<Side<6>>(2);
        engines_agree::<Side<8>>(3);
        engines_agree::<Side<10>>(4);
        engines_agree::<Side<12>>(5);
        engines_agree::<Side<14>>(6);
        engines_agree::<Side<16>>(7);
        engines_agree::<Side<18>>(8);
        engines_agree::<Side<20>>(9);
        engines_agree::<Side<22>>(10);
        engines_agree::<Side<24>>(11);
        engines_agree::<Side<26>>(12);
    }
}
