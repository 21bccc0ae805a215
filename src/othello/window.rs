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
    __m128i, __m256i, _mm_cvtsi32_si128, _mm256_alignr_epi8, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_cvtepu16_epi32, _mm256_extract_epi64, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_packus_epi32, _mm256_permute2x128_si256,
    _mm256_permute4x64_epi64, _mm256_set_epi64x, _mm256_set1_epi32, _mm256_sll_epi32,
    _mm256_slli_epi16, _mm256_srl_epi32, _mm256_srli_epi16, _mm256_storeu_si256,
};

use super::bits::Wide;

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

/// The moves of `me` in a window: see [`super::bitboard::moves`].
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
/// 2` words.
#[derive(Clone, Copy)]
pub struct Window<const N: usize, const W: usize> {
    /// The board row of the window's first row.
    row: usize,
    /// The board column of the window's first column, as a shift count.
    col: __m128i,
}

impl<const N: usize, const W: usize> Window<N, W> {
    /// The window around the discs of `discs`, when they and the cells next to them fit in
    /// one; `None` when they do not, or there are no discs.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn around(discs: &Wide<W>) -> Option<Self> {
        const { assert!(N >= SIDE && 2 * W == N) };
        let discs = &discs.0;
        let first = discs.iter().position(|&w| w != 0)?;
        let last = discs.iter().rposition(|&w| w != 0)?;
        // Each word holds two rows, the first in its low half.
        let top = 2 * first + usize::from(discs[first] as u32 == 0);
        let bottom = 2 * last + usize::from(discs[last] >> 32 != 0);
        let columns = discs[first..=last].iter().fold(0, |acc, &w| acc | w);
        let columns = (columns | columns >> 32) as u32;
        let (left, right) = (columns.trailing_zeros(), 31 - columns.leading_zeros());
        // The discs with a cell to spare on every side must fit.
        if bottom - top + 3 > SIDE || (right - left) as usize + 3 > SIDE {
            return None;
        }
        Some(Window {
            row: top.saturating_sub(1).min(N - SIDE),
            col: _mm_cvtsi32_si128(left.saturating_sub(1).min((N - SIDE) as u32) as i32),
        })
    }

    /// The window's cells of `x`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn cut(self, x: &Wide<W>) -> __m256i {
        // SAFETY: the window's 16 rows, `row..row + 16`, are 32-bit lanes of the `N` rows of
        // the array, since `row <= N - 16`; unaligned loads allow any row.
        let (a, b) = unsafe {
            let rows = x.0.as_ptr().cast::<u32>().add(self.row);
            (
                _mm256_loadu_si256(rows.cast()),
                _mm256_loadu_si256(rows.add(8).cast()),
            )
        };
        let low16 = _mm256_set1_epi32(0xFFFF);
        let a = _mm256_and_si256(_mm256_srl_epi32(a, self.col), low16);
        let b = _mm256_and_si256(_mm256_srl_epi32(b, self.col), low16);
        // The pack interleaves the halves of `a` and `b`; the permutation restores row order.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b))
    }

    /// The board set of the window's cells `x`: empty outside the window.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn paste(self, x: __m256i) -> Wide<W> {
        let mut set = Wide([0; W]);
        let first_rows = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
        let last_rows = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x));
        // SAFETY: as in `cut`, the stores write rows `row..row + 16` of the array.
        unsafe {
            let rows = set.0.as_mut_ptr().cast::<u32>().add(self.row);
            _mm256_storeu_si256(rows.cast(), _mm256_sll_epi32(first_rows, self.col));
            _mm256_storeu_si256(rows.add(8).cast(), _mm256_sll_epi32(last_rows, self.col));
        }
        set
    }

    /// The moves of `me`: see [`super::bitboard::moves`].
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn moves(self, me: &Wide<W>, opp: &Wide<W>, empty: &Wide<W>) -> Wide<W> {
        self.paste(window_moves(self.cut(me), self.cut(opp), self.cut(empty)))
    }
}
