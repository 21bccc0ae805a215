//! The wide boards' move generation built for AVX2: a 16 by 16 window of the board in one
//! vector, one row to each 16-bit lane, so that a step along a row is a shift within the lanes
//! (nothing wraps: bits leave the lane) and a step across rows moves whole lanes. Boards of
//! side 10 to 14 fit the window whole; on larger boards (a row to each 32-bit lane of the
//! position) the window is cut around the discs wherever they and the cells next to them fit
//! in it, as they do for the first dozen plies; otherwise the portable generator runs.
//!
//! In each of the eight directions the runs of `opp` discs that start next to a disc of `me`
//! are found in four doubling steps (runs of up to 16 cells) rather than cell by cell, so that
//! no branch depends on the position.

use std::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_alignr_epi8, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_cvtepu16_epi32, _mm256_extract_epi64, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_packus_epi32, _mm256_permute2x128_si256, _mm256_permute4x64_epi64,
    _mm256_set_epi64x, _mm256_set1_epi32, _mm256_sll_epi32, _mm256_slli_epi16, _mm256_srl_epi32,
    _mm256_srli_epi16, _mm256_storeu_si256,
};

use super::bits::{Bits as _, Wide};
use super::layout::{Cut, Layout, Patch, Position};

/// Cells per side of the window.
const SIDE: usize = 16;

/// Every row of `x` moved `K` rows down (towards later lanes); rows pushed past the last lane
/// are lost.
#[inline]
#[target_feature(enable = "avx2")]
fn down<const K: usize>(x: __m256i) -> __m256i {
    // The low half moved into the high half, over a zero low half.
    let carried = _mm256_permute2x128_si256::<0x08>(x, x);
    match K {
        1 => _mm256_alignr_epi8::<14>(x, carried),
        2 => _mm256_alignr_epi8::<12>(x, carried),
        4 => _mm256_alignr_epi8::<8>(x, carried),
        _ => carried,
    }
}

/// Every row of `x` moved `K` rows up (towards earlier lanes).
#[inline]
#[target_feature(enable = "avx2")]
fn up<const K: usize>(x: __m256i) -> __m256i {
    // The high half moved into the low half, under a zero high half.
    let carried = _mm256_permute2x128_si256::<0x81>(x, x);
    match K {
        1 => _mm256_alignr_epi8::<2>(carried, x),
        2 => _mm256_alignr_epi8::<4>(carried, x),
        4 => _mm256_alignr_epi8::<8>(carried, x),
        _ => carried,
    }
}

/// Every cell of `x` moved `K` steps of (`DC` columns, `DR` rows), each -1, 0 or 1; `K` is 1,
/// 2, 4 or 8.
#[inline]
#[target_feature(enable = "avx2")]
fn step<const DC: i32, const DR: i32, const K: usize>(x: __m256i) -> __m256i {
    let x = match DR {
        1 => down::<K>(x),
        -1 => up::<K>(x),
        _ => x,
    };
    match (DC, K) {
        (1, 1) => _mm256_slli_epi16::<1>(x),
        (1, 2) => _mm256_slli_epi16::<2>(x),
        (1, 4) => _mm256_slli_epi16::<4>(x),
        (1, _) => _mm256_slli_epi16::<8>(x),
        (-1, 1) => _mm256_srli_epi16::<1>(x),
        (-1, 2) => _mm256_srli_epi16::<2>(x),
        (-1, 4) => _mm256_srli_epi16::<4>(x),
        (-1, _) => _mm256_srli_epi16::<8>(x),
        _ => x,
    }
}

/// The empty cells just past every run of `opp` discs that starts next to a disc of `me`,
/// going (`DC`, `DR`): runs found in doubling steps over runs of two, four and eight discs.
#[inline]
#[target_feature(enable = "avx2")]
fn line<const DC: i32, const DR: i32>(me: __m256i, opp: __m256i, empty: __m256i) -> __m256i {
    let (and, or) = (_mm256_and_si256, _mm256_or_si256);
    let mut run = and(opp, step::<DC, DR, 1>(me));
    run = or(run, and(opp, step::<DC, DR, 1>(run)));
    let twos = and(opp, step::<DC, DR, 1>(opp));
    run = or(run, and(twos, step::<DC, DR, 2>(run)));
    let fours = and(twos, step::<DC, DR, 2>(twos));
    run = or(run, and(fours, step::<DC, DR, 4>(run)));
    let eights = and(fours, step::<DC, DR, 4>(fours));
    run = or(run, and(eights, step::<DC, DR, 8>(run)));
    and(empty, step::<DC, DR, 1>(run))
}

/// The moves of `me` in a window: see [`super::layout::moves`].
#[inline]
#[target_feature(enable = "avx2")]
fn window_moves(me: __m256i, opp: __m256i, empty: __m256i) -> __m256i {
    let or = _mm256_or_si256;
    let rows = or(line::<0, 1>(me, opp, empty), line::<0, -1>(me, opp, empty));
    let columns = or(line::<1, 0>(me, opp, empty), line::<-1, 0>(me, opp, empty));
    let falling = or(line::<1, 1>(me, opp, empty), line::<-1, -1>(me, opp, empty));
    let rising = or(line::<1, -1>(me, opp, empty), line::<-1, 1>(me, opp, empty));
    or(or(rows, columns), or(falling, rising))
}

/// A set of a board of side 10 to 14 (rows 16 bits apart) as a window.
#[inline]
#[target_feature(enable = "avx2")]
fn load(x: Wide<4>) -> __m256i {
    // Bit patterns, not numbers: the casts only relabel the 64 bits.
    let [a, b, c, d] = x.0.map(|w| w as i64);
    _mm256_set_epi64x(d, c, b, a)
}

/// A window as a set of a board of side 10 to 14.
#[inline]
#[target_feature(enable = "avx2")]
fn store(x: __m256i) -> Wide<4> {
    Wide([
        _mm256_extract_epi64::<0>(x) as u64,
        _mm256_extract_epi64::<1>(x) as u64,
        _mm256_extract_epi64::<2>(x) as u64,
        _mm256_extract_epi64::<3>(x) as u64,
    ])
}

/// The moves on a board of side 10 to 14, rows 16 bits apart: the board is the window.
#[inline]
#[target_feature(enable = "avx2")]
pub fn moves_16(me: Wide<4>, opp: Wide<4>, empty: Wide<4>) -> Wide<4> {
    store(window_moves(load(me), load(opp), load(empty)))
}

/// Where a window lies on a board of side `N` from 16 to 26, rows 32 bits apart in `W` = `N /
/// 2 + 1` words (a spare row at the end, so that a window's sixteenth row can always be read).
#[derive(Clone, Copy)]
struct Window<const N: usize, const W: usize> {
    /// The board row of the window's first row.
    row: usize,
    /// The board column of the window's first column.
    col: u32,
}

impl<const N: usize, const W: usize> Window<N, W> {
    /// Cells per side of a cut window: one less than the vector's 16, for the spare column
    /// that lets the ray walk of [`Patch`] ignore its edges.
    const CUT: usize = SIDE - 1;

    /// The window around the discs of `discs`, centred, when they and the cells next to them
    /// fit in one; `None` when they do not, or there are no discs.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn around(discs: &Wide<W>) -> Option<Self> {
        const { assert!(N >= SIDE && W == N / 2 + 1) };
        let discs = &discs.0;
        let first = discs.iter().position(|&w| w != 0)?;
        let last = discs.iter().rposition(|&w| w != 0)?;
        // Each word holds two rows, the first in its low half.
        let top = 2 * first + usize::from(discs[first] as u32 == 0);
        let bottom = 2 * last + usize::from(discs[last] >> 32 != 0);
        let columns = discs[first..=last].iter().fold(0, |acc, &w| acc | w);
        let columns = (columns | columns >> 32) as u32;
        let (left, right) = (
            columns.trailing_zeros() as usize,
            31 - columns.leading_zeros() as usize,
        );
        // The discs with a cell to spare on every side must fit; what is left over is shared
        // out on both sides, so that the discs can spread the longest before a new cut.
        let (height, width) = (bottom - top + 1, right - left + 1);
        if height + 2 > Self::CUT || width + 2 > Self::CUT {
            return None;
        }
        Some(Window {
            row: top
                .saturating_sub((Self::CUT - height) / 2)
                .min(N - Self::CUT),
            col: left
                .saturating_sub((Self::CUT - width) / 2)
                .min(N - Self::CUT) as u32,
        })
    }

    /// The window's 16 by 16 cells of `x`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn cut(self, x: &Wide<W>) -> __m256i {
        // SAFETY: the window's 16 rows, `row..row + 16`, are 32-bit lanes of the `2 * W >= N +
        // 2` of the array, since `row <= N - 15`; unaligned loads allow any row.
        debug_assert!(
            self.row + 16 <= 2 * W,
            "rows {}.. of {} lanes",
            self.row,
            2 * W
        );
        let (a, b) = unsafe {
            let rows = x.0.as_ptr().cast::<u32>().add(self.row);
            (
                _mm256_loadu_si256(rows.cast()),
                _mm256_loadu_si256(rows.add(8).cast()),
            )
        };
        let col = _mm_cvtsi32_si128(self.col as i32);
        let low16 = _mm256_set1_epi32(0xFFFF);
        let a = _mm256_and_si256(_mm256_srl_epi32(a, col), low16);
        let b = _mm256_and_si256(_mm256_srl_epi32(b, col), low16);
        // The pack interleaves the halves of `a` and `b`; the permutation restores row order.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b))
    }

    /// The board set of the window's cells `x`: empty outside the window.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn paste(self, x: __m256i) -> Wide<W> {
        let mut set = Wide([0; W]);
        let col = _mm_cvtsi32_si128(self.col as i32);
        let first_rows = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
        let last_rows = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x));
        // SAFETY: as in `cut`, the stores write rows `row..row + 16` of the array.
        debug_assert!(
            self.row + 16 <= 2 * W,
            "rows {}.. of {} lanes",
            self.row,
            2 * W
        );
        unsafe {
            let rows = set.0.as_mut_ptr().cast::<u32>().add(self.row);
            _mm256_storeu_si256(rows.cast(), _mm256_sll_epi32(first_rows, col));
            _mm256_storeu_si256(rows.add(8).cast(), _mm256_sll_epi32(last_rows, col));
        }
        set
    }
}

/// The moves on a board of side `N` from 16 to 26: through a window around the discs where
/// they fit in one, else `None`.
#[inline]
#[target_feature(enable = "avx2")]
pub fn moves_32<const N: usize, const W: usize>(
    me: &Wide<W>,
    opp: &Wide<W>,
    empty: &Wide<W>,
) -> Option<Wide<W>> {
    let window = Window::<N, W>::around(&(*me | *opp))?;
    let found = window_moves(window.cut(me), window.cut(opp), window.cut(empty));
    Some(window.paste(found))
}

/// The window around the discs of `pos` on a board of side `N` from 16 to 26, where they fit
/// in one.
#[inline]
#[target_feature(enable = "avx2")]
pub fn cut_32<const N: usize, const W: usize, L: Layout<Bits = Wide<W>>>(
    pos: &Position<L>,
) -> Option<Cut<L>> {
    let window = Window::<N, W>::around(&(pos.me | pos.opp))?;
    let part = |x: &Wide<W>| store(window.cut(x)) & Patch::ALL;
    // The window's edge rows and columns that lie inside the board are not inner.
    let (row, col) = (window.row, window.col as usize);
    let last = Window::<N, W>::CUT - 1;
    let rows = usize::from(row > 0)..=last - usize::from(row + last < N - 1);
    let cols = usize::from(col > 0)..=last - usize::from(col + last < N - 1);
    let mut inner = Wide([0; 4]);
    for r in rows {
        for c in cols.clone() {
            inner.toggle(r * SIDE + c);
        }
    }
    Some(Cut {
        position: Position {
            me: part(&pos.me),
            opp: part(&pos.opp),
            empty: part(&pos.empty),
        },
        inner,
        cells: pos.me | pos.opp | pos.empty,
        row,
        col: window.col,
        paste: paste_32::<N, W, L>,
    })
}

/// [`Cut::paste`] on a board of side `N` from 16 to 26.
#[target_feature(enable = "avx2")]
fn paste_32<const N: usize, const W: usize, L: Layout<Bits = Wide<W>>>(
    cut: &Cut<L>,
    pos: &Position<Patch>,
) -> Position<L> {
    let window = Window::<N, W> {
        row: cut.row,
        col: cut.col,
    };
    let me = window.paste(load(pos.me));
    let opp = window.paste(load(pos.opp));
    Position {
        me,
        opp,
        empty: cut.cells & !(me | opp),
    }
}
