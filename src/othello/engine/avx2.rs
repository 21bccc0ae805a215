//! The one-word engine paths built for AVX2, and the run-time check that chooses them: move
//! generation and flips with the four lines through a cell (steps 1, N, N + 1 and N - 1) in the
//! four lanes of a vector, both directions of each line at once; and, for the exact solver on
//! processors that also have AVX-512 F, VL and CD, the flips with its count of leading zeros a
//! lane. The algorithm is the portable one's (`narrow.rs`); the tests hold them to the same
//! results at every one-word side.

/// Whether this processor has the instructions the fast engine paths are built for: popcnt,
/// BMI1, BMI2, LZCNT and AVX2 (x86-64-v3). Checked at run time, so that the binary still runs
/// on any x86-64.
pub fn fast_available() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("avx2")
}

use std::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64,
    _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_lzcnt_epi64, _mm256_or_si256,
    _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_slli_epi64,
    _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
};

use super::narrow::{Lines, Masks, Rays};

/// The lines through a cell of a one-word board, one to a lane (along a row, along a
/// column, the two diagonals): each line's step, twice the step, and the `opp` discs a run
/// along it may hold (never an edge disc on a row or a diagonal, so that no run wraps).
#[inline]
#[target_feature(enable = "avx2")]
fn lines<const N: usize>(opp: u64) -> (__m256i, __m256i, __m256i) {
    // Bit patterns, not numbers: the casts only relabel the 64 bits.
    let n = N as i64;
    let inner = (Masks::<N>::NOT_FIRST_COLUMN & Masks::<N>::NOT_LAST_COLUMN) as i64;
    let (o, edge_free) = (opp as i64, (opp as i64) & inner);
    let step = _mm256_set_epi64x(n - 1, n + 1, n, 1);
    let run = _mm256_set_epi64x(edge_free, edge_free, o, edge_free);
    (step, _mm256_add_epi64(step, step), run)
}

/// The runs of `run` discs that start next to a cell of `seed`, towards higher bits and
/// towards lower bits, in every lane: two single steps, then steps of two over pairs.
#[inline]
#[target_feature(enable = "avx2")]
fn runs<const N: usize>(
    seed: __m256i,
    (step, double, run): (__m256i, __m256i, __m256i),
) -> (__m256i, __m256i) {
    let (and, or) = (_mm256_and_si256, _mm256_or_si256);
    let mut higher = and(run, _mm256_sllv_epi64(seed, step));
    higher = or(higher, and(run, _mm256_sllv_epi64(higher, step)));
    let mut lower = and(run, _mm256_srlv_epi64(seed, step));
    lower = or(lower, and(run, _mm256_srlv_epi64(lower, step)));
    let pairs_higher = and(run, _mm256_sllv_epi64(run, step));
    let pairs_lower = and(run, _mm256_srlv_epi64(run, step));
    for _ in 0..(N - 4) / 2 {
        higher = or(higher, and(pairs_higher, _mm256_sllv_epi64(higher, double)));
        lower = or(lower, and(pairs_lower, _mm256_srlv_epi64(lower, double)));
    }
    (higher, lower)
}

/// The OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn fold(x: __m256i) -> u64 {
    let halves = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    let all = _mm_or_si128(halves, _mm_unpackhi_epi64(halves, halves));
    _mm_cvtsi128_si64(all) as u64
}

/// The cells of `me`'s moves; see [`super::layout::moves`].
#[inline]
#[target_feature(enable = "avx2")]
pub fn moves<const N: usize>(me: u64, opp: u64, empty: u64) -> u64 {
    let lines @ (step, _, _) = lines::<N>(opp);
    let (higher, lower) = runs::<N>(_mm256_set1_epi64x(me as i64), lines);
    let found = _mm256_or_si256(
        _mm256_sllv_epi64(higher, step),
        _mm256_srlv_epi64(lower, step),
    );
    fold(found) & empty
}

/// The discs `me` playing `at` turns over; see [`super::layout::flips`]. The portable
/// algorithm (`narrow::ray_flips`) with the four rays to higher bits in one vector and the four
/// to lower bits in another: along each ray the first cell that is not an `opp` disc, and the
/// cells before it flip when it holds a disc of `me`. Towards higher bits that cell is the
/// lowest set bit of the ray less `opp`; towards lower bits, where AVX2 has no count of leading
/// zeros, each blocking cell is spread down its line (steps of one, two and four cells, as far
/// as a ray reaches), and the first is the one spread cell whose neighbour up the line is not.
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips<const N: usize>(me: u64, opp: u64, at: usize) -> u64 {
    ray_flips!(N, me, opp, at, first_spread::<N>)
}

/// Whether this processor also has the AVX-512 instructions [`flips_lzcnt`] is built with
/// (AVX-512 F, VL and CD), besides those of [`fast_available`].
pub fn lzcnt_available() -> bool {
    fast_available()
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512cd")
}

/// [`flips`] with AVX-512's count of leading zeros a lane: towards lower bits, the first cell
/// of each ray that is not an `opp` disc is its highest set bit, found at once rather than
/// spread down the line.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
pub fn flips_lzcnt<const N: usize>(me: u64, opp: u64, at: usize) -> u64 {
    ray_flips!(N, me, opp, at, first_lzcnt)
}

/// The body of [`flips`] and [`flips_lzcnt`], given the function that finds in each ray to
/// lower bits (`down`) its first cell that is not an `opp` disc, and the cells at and below
/// it. A macro, so that each copy is built with its own function's instructions.
macro_rules! ray_flips {
    ($n:ident, $me:ident, $opp:ident, $at:ident, $first_lower:expr) => {{
        let rays = &Rays::<$n>::TABLE[$at];
        // SAFETY: each half of the row is four `u64`s, 32 bytes, read unaligned.
        debug_assert_eq!(rays.len(), 8, "a row of rays is eight words");
        let (up, down) = unsafe {
            (
                _mm256_loadu_si256(rays.as_ptr().cast()),
                _mm256_loadu_si256(rays[4..].as_ptr().cast()),
            )
        };
        let (and, andnot, or) = (_mm256_and_si256, _mm256_andnot_si256, _mm256_or_si256);
        let (me, opp) = (
            _mm256_set1_epi64x($me as i64),
            _mm256_set1_epi64x($opp as i64),
        );
        let zero = _mm256_setzero_si256();
        // All ones in a lane whose first cell holds no disc of `me`: nothing flips there.
        let open = |first: __m256i| _mm256_cmpeq_epi64(and(first, me), zero);

        let blockers = andnot(opp, up);
        let first = and(blockers, _mm256_sub_epi64(zero, blockers));
        let before = and(_mm256_add_epi64(first, _mm256_cmpeq_epi64(zero, zero)), up);
        let higher = andnot(open(first), before);

        // Towards lower bits, the cells before the first stop are those above it.
        let (first, at_or_below) = $first_lower(down, opp);
        let lower = andnot(open(first), andnot(at_or_below, down));
        fold(or(higher, lower))
    }};
}
use ray_flips;

/// The first cell of each ray to lower bits (`down`) that is not an `opp` disc, and the cells
/// at and below it, for [`flips`]: each blocking cell spread down its line (steps of one, two
/// and four cells, as far as a ray reaches), the first being the one spread cell whose
/// neighbour up the line is not.
#[inline]
#[target_feature(enable = "avx2")]
fn first_spread<const N: usize>(down: __m256i, opp: __m256i) -> (__m256i, __m256i) {
    let (and, andnot, or) = (_mm256_and_si256, _mm256_andnot_si256, _mm256_or_si256);
    // The rays to lower bits step by 1, N, N + 1 and N - 1 (west, north, north-west,
    // north-east), as `Rays` orders them.
    let n = N as i64;
    let step = _mm256_set_epi64x(n - 1, n + 1, n, 1);
    let mut spread = andnot(opp, down);
    spread = or(spread, _mm256_srlv_epi64(spread, step));
    spread = or(
        spread,
        _mm256_srlv_epi64(spread, _mm256_add_epi64(step, step)),
    );
    spread = or(
        spread,
        _mm256_srlv_epi64(spread, _mm256_slli_epi64::<2>(step)),
    );
    let first = and(down, andnot(_mm256_srlv_epi64(spread, step), spread));
    (first, spread)
}

/// The same cells for [`flips_lzcnt`]: each ray's highest set bit less `opp`, by its count of
/// leading zeros (a ray without one counts 64, and the shift leaves nothing), and every cell
/// from it down.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
fn first_lzcnt(down: __m256i, opp: __m256i) -> (__m256i, __m256i) {
    let blockers = _mm256_andnot_si256(opp, down);
    let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blockers));
    let below = _mm256_sub_epi64(first, _mm256_set1_epi64x(1));
    (first, _mm256_or_si256(first, below))
}

/// How many discs `me` turns over by playing `at`, the last empty cell of a board whose every
/// other cell holds a disc (so every cell not `me`'s is the other player's): along each of the
/// four lines through `at`, the line's discs of `me` gathered into one byte (`pext`), which a
/// table turns into the count. Equal to the count of [`flips`]'s discs there.
#[inline]
#[target_feature(enable = "bmi2")]
pub fn last_flips<const N: usize>(me: u64, at: usize) -> u32 {
    use std::arch::x86_64::_pext_u64;
    let mut count = 0;
    for &(line, place) in &Lines::<N>::TABLE[at] {
        // A line holds at most 8 cells, so its byte indexes the table.
        let mine = _pext_u64(me, line) as u8;
        count += u32::from(Lines::<N>::COUNT[usize::from(place)][usize::from(mine)]);
    }
    count
}
