//! The engine paths of boards that fit one `u64` (4x4 to 8x8): move generation by rotations,
//! branch-free flips from per-cell ray masks, the lines through each cell that count the last
//! move's flips, and the 8x8 board's symmetries. Portable code; `avx2.rs` has the vector
//! versions of the first two and the count.

use super::bits::board_u64;

/// The masks of a one-word board of side `N`, as [`Layout`](super::layout::Layout) has them.
pub(super) struct Masks<const N: usize>;

impl<const N: usize> Masks<N> {
    /// Every cell of the board.
    pub const ALL: u64 = board_u64(N, N, usize::MAX);
    /// Every cell but those of the first column.
    pub const NOT_FIRST_COLUMN: u64 = board_u64(N, N, 0);
    /// Every cell but those of the last column.
    pub const NOT_LAST_COLUMN: u64 = board_u64(N, N, N - 1);
}

/// The eight directions on a one-word board as (left rotation, the cells a disc may land on
/// when rotated so). Rotations rather than shifts keep both directions of a line one operation;
/// each mask drops what wraps around a row's end or around the word.
#[inline(always)]
fn narrow_directions<const N: usize>() -> [(u32, u64); 8] {
    let n = N as u32;
    let (first, last) = (Masks::<N>::NOT_FIRST_COLUMN, Masks::<N>::NOT_LAST_COLUMN);
    // (shift, mask moving up, mask moving down) for each line through a cell.
    let lines = [
        (1, first, last),
        (n, Masks::<N>::ALL, Masks::<N>::ALL),
        (n + 1, first, last),
        (n - 1, last, first),
    ];
    let mut directions = [(0, 0); 8];
    for (i, (k, up, down)) in lines.into_iter().enumerate() {
        // Moving up by k, bits land at k or above; moving down, below 64 - k.
        directions[2 * i] = (k, up & (u64::MAX << k));
        directions[2 * i + 1] = (64 - k, down & (u64::MAX >> k));
    }
    directions
}

/// The cells of the run of `opp` discs that starts next to a cell of `seed` in one direction
/// (rotation `r`, landing mask `mask`). Two single steps, then steps of two over pairs of `opp`
/// discs, cover every run a one-word board has room for (at most `N - 2`) without a branch.
#[inline(always)]
fn narrow_run<const N: usize>(seed: u64, opp: u64, (r, mask): (u32, u64)) -> u64 {
    let opp = opp & mask;
    let mut run = seed.rotate_left(r) & opp;
    run |= run.rotate_left(r) & opp;
    let pairs = opp & opp.rotate_left(r);
    for _ in 0..(N - 4) / 2 {
        run |= run.rotate_left(2 * r) & pairs;
    }
    run
}

/// [`moves`](super::layout::moves) for boards in one word: the cells just past every run of `opp` discs that starts
/// next to `me`, in all eight directions.
#[inline]
pub(super) fn narrow_moves<const N: usize>(me: u64, opp: u64, empty: u64) -> u64 {
    let mut found = 0;
    for dir @ (r, mask) in narrow_directions::<N>() {
        found |= narrow_run::<N>(me, opp, dir).rotate_left(r) & mask;
    }
    found & empty
}

/// The 8x8 board's eight symmetries applied to `sets`, the smallest result: the rows
/// reversed, the columns reversed, and the board turned about its diagonal, in every
/// combination.
#[inline]
pub(super) fn canonical_8x8(sets: [u64; 3]) -> [u64; 3] {
    let rows = |x: u64| x.swap_bytes();
    let columns = |x: u64| x.reverse_bits().swap_bytes();
    let diagonal = |mut x: u64| {
        // Three delta swaps: 4x4 blocks, then 2x2, then single cells across the diagonal.
        let mut t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
        x ^ t ^ (t >> 7)
    };
    let turn = |x: u64, way: usize| {
        let x = if way & 1 == 0 { x } else { rows(x) };
        let x = if way & 2 == 0 { x } else { columns(x) };
        if way & 4 == 0 { x } else { diagonal(x) }
    };
    (1..8).fold(sets, |best, way| best.min(sets.map(|x| turn(x, way))))
}

/// The rays of a one-word board of side `N`: for every cell, the cells beyond it in each
/// direction, the four that step to higher bits first (east, south, south-east, south-west),
/// then the four that step to lower bits (west, north, north-west, north-east).
pub(super) struct Rays<const N: usize>;

impl<const N: usize> Rays<N> {
    pub(super) const TABLE: [[u64; 8]; 64] = {
        let steps: [(isize, isize); 8] = [
            (1, 0),
            (0, 1),
            (1, 1),
            (-1, 1),
            (-1, 0),
            (0, -1),
            (-1, -1),
            (1, -1),
        ];
        let mut table = [[0; 8]; 64];
        let mut i = 0;
        while i < N * N {
            let mut d = 0;
            while d < 8 {
                let (dc, dr) = steps[d];
                let (mut c, mut r) = ((i % N) as isize + dc, (i / N) as isize + dr);
                while c >= 0 && r >= 0 && c < N as isize && r < N as isize {
                    table[i][d] |= 1 << (r as usize * N + c as usize);
                    c += dc;
                    r += dr;
                }
                d += 1;
            }
            i += 1;
        }
        table
    };
}

/// The four lines of a one-word board of side `N` through each cell (its row, its column and
/// its two diagonals, each with the cell), and the cell's place along each, counted from the
/// line's lowest bit: what counts the discs a move flips from the line's cells alone (with
/// BMI2, so only on x86-64).
#[cfg(target_arch = "x86_64")]
pub(super) struct Lines<const N: usize>;

#[cfg(target_arch = "x86_64")]
impl<const N: usize> Lines<N> {
    pub(super) const TABLE: [[(u64, u8); 4]; 64] = {
        let rays = Rays::<N>::TABLE;
        let mut table = [[(0, 0); 4]; 64];
        let mut i = 0;
        while i < N * N {
            let mut d = 0;
            while d < 4 {
                // A ray to higher bits and the opposite one to lower bits (`Rays`' order).
                let line = rays[i][d] | rays[i][d + 4] | 1 << i;
                table[i][d] = (line, rays[i][d + 4].count_ones() as u8);
                d += 1;
            }
            i += 1;
        }
        table
    };

    /// The discs flipped along one line by a move at place `at` of it, where the line's cells
    /// with a set bit in `mine` (bit k for the line's k-th cell) hold the mover's discs and
    /// every other cell but `at` the other player's: the cells between `at` and the mover's
    /// nearest disc on each side, where it has one.
    pub(super) const COUNT: [[u8; 256]; 8] = {
        let mut table = [[0; 256]; 8];
        let mut at = 0;
        while at < 8 {
            let mut mine = 0;
            while mine < 256 {
                let (mut count, mut k) = (0, at + 1);
                while k < 8 && mine & (1 << k) == 0 {
                    k += 1;
                }
                if k < 8 {
                    count += k - at - 1;
                }
                let mut k = at;
                while k > 0 && mine & (1 << (k - 1)) == 0 {
                    k -= 1;
                }
                if k > 0 {
                    count += at - k;
                }
                table[at][mine] = count as u8;
                mine += 1;
            }
            at += 1;
        }
        table
    };
}

/// [`flips`](super::layout::flips) for boards in one word, branch-free: along each ray from `at`, the first cell that
/// is not an `opp` disc is the lowest (rays to higher bits) or highest (to lower bits) set bit
/// of the ray less `opp`; the cells before it flip when it holds a disc of `me`.
#[inline]
pub(super) fn ray_flips<const N: usize>(me: u64, opp: u64, at: usize) -> u64 {
    let rays = &Rays::<N>::TABLE[at];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let blockers = ray & !opp;
        let first = blockers & blockers.wrapping_neg();
        let closed = 0u64.wrapping_sub(u64::from(first & me != 0));
        flipped |= first.wrapping_sub(1) & ray & closed;
    }
    for &ray in &rays[4..] {
        // Bit 0 stands in when nothing blocks: then `first` is off the ray or not `me`'s.
        let blockers = (ray & !opp) | 1;
        let first = (1u64 << 63) >> blockers.leading_zeros();
        let closed = 0u64.wrapping_sub(u64::from(first & ray & me != 0));
        flipped |= ray & (first.wrapping_neg() << 1) & closed;
    }
    flipped
}
