//! The one-word engine paths built for AVX2, and the run-time check that chooses them: move
//! generation and flips with the four lines through a cell (steps 1, N, N + 1 and N - 1) in the
//! four lanes of a vector, both directions of each line at once. The algorithm is the portable
//! one's (`narrow.rs`); the tests hold the two to the same results at every one-word side.

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
    _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64,
};

use super::narrow::Masks;

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

/// The discs `me` playing `at` turns over; see [`super::layout::flips`]. Each run of `opp` discs
/// from `at` counts when the cell past it holds a disc of `me`.
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips<const N: usize>(me: u64, opp: u64, at: usize) -> u64 {
    let lines @ (step, _, _) = lines::<N>(opp);
    let (higher, lower) = runs::<N>(_mm256_set1_epi64x(1 << at), lines);
    let me = _mm256_set1_epi64x(me as i64);
    let zero = _mm256_setzero_si256();
    // All ones in a lane whose cells past the run hold no disc of `me`: the run stays.
    let open = |past: __m256i| _mm256_cmpeq_epi64(_mm256_and_si256(past, me), zero);
    let higher = _mm256_andnot_si256(open(_mm256_sllv_epi64(higher, step)), higher);
    let lower = _mm256_andnot_si256(open(_mm256_srlv_epi64(lower, step)), lower);
    fold(_mm256_or_si256(higher, lower))
}
