//! Which bit set and which engine paths each board side takes: `Side<N>: Layout` for every
//! supported side (one `u64` with the one-word paths of `narrow.rs` and `avx2.rs` up to 8x8;
//! `Wide<W>` above, with the whole-board flood of [`wide_moves`] and the AVX2 window of
//! `window.rs`), the window board [`Patch`]'s own, and the run-time check that picks the fast
//! paths. The rules themselves are `layout.rs`'s.

use super::bits::{Bits, Wide, board_u64};
#[cfg(target_arch = "x86_64")]
use super::layout::{Cut, Patch};
use super::layout::{Direction, Layout, Position, Side};
use super::narrow::{canonical_8x8, narrow_moves, ray_flips};
#[cfg(target_arch = "x86_64")]
use super::{avx2, window};

/// Proof that this processor runs the fast engine paths (`avx2.rs`: popcnt, BMI1, BMI2, LZCNT
/// and AVX2): only [`Fast::detect`] makes one, so safe code reaches those paths only through a
/// value of it (a search's `Option<Fast>`), never on a processor without them. It also says
/// whether the processor has AVX-512's count of leading zeros a lane, which the exact solver's
/// own copy of its search is built with ([`Layout::flips_lzcnt`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fast {
    #[cfg(target_arch = "x86_64")]
    lzcnt: bool,
}

impl Fast {
    /// The proof, where the processor has every feature the fast paths are built with; never
    /// off x86-64.
    #[must_use]
    pub fn detect() -> Option<Fast> {
        #[cfg(target_arch = "x86_64")]
        return avx2::fast_available().then(|| Fast {
            lzcnt: avx2::lzcnt_available(),
        });
        #[cfg(not(target_arch = "x86_64"))]
        None
    }

    /// Whether the processor also has AVX-512 F, VL and CD, which [`Layout::flips_lzcnt`] is
    /// built with.
    #[cfg(target_arch = "x86_64")]
    #[must_use]
    pub fn lzcnt(self) -> bool {
        self.lzcnt
    }

    /// [`Self::detect`] for a test of the fast paths, which says on standard error that it
    /// skips them where the processor has none (CI's machine has them).
    #[cfg(test)]
    pub fn for_test(test: &str) -> Option<Fast> {
        let fast = Fast::detect();
        if fast.is_none() {
            eprintln!("{test}: the fast paths skipped, this processor lacks AVX2");
        }
        fast
    }
}

macro_rules! layouts {
    ($(
        $n:literal => $bits:ty, $board:path, stride = $stride:literal
        $(, moves = $moves:path)? $(, avx2 = $avx2:ident)?
        $(, avx2_moves = $avx2_moves:path)? $(, window = $words:literal)?
        $(, flips = $flips:path)?
        $(, canonical = $canonical:path)?;
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
                #[target_feature(enable = "bmi2")]
                unsafe fn last_flips_bmi2(me: $bits, at: usize) -> Option<u32> {
                    Some($avx2::last_flips::<$n>(me, at))
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

                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
                unsafe fn flips_lzcnt(me: $bits, opp: $bits, at: usize) -> $bits {
                    $avx2::flips_lzcnt::<$n>(me, opp, at)
                }

                #[cfg(target_arch = "x86_64")]
                #[inline]
                #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
                unsafe fn play_lzcnt(pos: &Position<Self>, at: usize) -> Position<Self> {
                    // SAFETY: the caller runs on a processor with these features, as this
                    // function's own contract requires.
                    let flipped = unsafe { Self::flips_lzcnt(pos.me, pos.opp, at) };
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
                unsafe fn cut_avx2(pos: &Position<Self>) -> Option<Cut<Self>> {
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
        }
    )*};
}

layouts! {
    4 => u64, board_u64, stride = 4, moves = narrow_moves::<4>, avx2 = avx2,
        flips = ray_flips::<4>;
    6 => u64, board_u64, stride = 6, moves = narrow_moves::<6>, avx2 = avx2,
        flips = ray_flips::<6>;
    8 => u64, board_u64, stride = 8, moves = narrow_moves::<8>, avx2 = avx2,
        flips = ray_flips::<8>, canonical = canonical_8x8;
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

#[cfg(test)]
mod tests {
    use super::super::layout::{Position, flips, moves, neighbours, rays, step};
    use super::*;
    use crate::board::Coord;
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
        // Each cell's neighbours are its steps in the eight directions (and so, since both
        // are unions over the cells, any set's are).
        for &i in &all {
            let x = L::Bits::cell(i);
            let steps = Direction::ALL
                .iter()
                .fold(L::Bits::EMPTY, |near, &dir| near | step::<L>(x, dir));
            assert_eq!(neighbours::<L>(x), steps, "cell {i} at side {n}");
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

    /// The moves of `pos`, after checking the layout's move generator and flips against the
    /// plain ray walks and, with `fast`, the AVX2 ones, and both against each other: a cell is
    /// a move exactly when playing it flips something.
    fn generators_agree<L: Layout>(pos: &Position<L>, fast: Option<Fast>) -> L::Bits {
        let n = L::N;
        let moves = L::moves(pos.me, pos.opp, pos.empty);
        #[cfg(target_arch = "x86_64")]
        let fast_lzcnt = fast.is_some_and(Fast::lzcnt);
        assert_eq!(
            moves,
            rays::moves::<L>(pos.me, pos.opp, pos.empty),
            "side {n}"
        );
        if fast.is_some() {
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: the token proves the processor has AVX2.
                let fast = unsafe { L::moves_avx2(pos.me, pos.opp, pos.empty) };
                assert_eq!(fast, moves, "side {n}");
            }
        }
        for i in pos.empty.cells() {
            let flipped = L::flips(pos.me, pos.opp, i);
            assert_eq!(
                flipped,
                rays::flips::<L>(pos.me, pos.opp, i),
                "side {n} cell {i}"
            );
            assert_eq!(!flipped.is_empty(), moves.has(i), "side {n} cell {i}");
            if fast.is_some() {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: the token proves the processor has AVX2.
                    let fast = unsafe { L::flips_avx2(pos.me, pos.opp, i) };
                    assert_eq!(fast, flipped, "side {n} cell {i}");
                    if fast_lzcnt {
                        // SAFETY: the token proves the processor has AVX-512 F, VL and CD.
                        let lzcnt = unsafe { L::flips_lzcnt(pos.me, pos.opp, i) };
                        assert_eq!(lzcnt, flipped, "side {n} cell {i}, AVX-512");
                    }
                }
            }
        }
        moves
    }

    /// Plays random games, and at every position checks the generators with
    /// [`generators_agree`] and playing a move by the layout's own way against turning its
    /// flips.
    fn engines_agree<L: Layout>(seed: u64, fast: Option<Fast>) {
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
                let moves = generators_agree(&pos, fast);
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
        let fast = Fast::for_test("fast_engines_agree_with_the_ray_walks_at_every_side");
        engines_agree::<Side<4>>(1, fast);
        engines_agree::<Side<6>>(2, fast);
        engines_agree::<Side<8>>(3, fast);
        engines_agree::<Side<10>>(4, fast);
        engines_agree::<Side<12>>(5, fast);
        engines_agree::<Side<14>>(6, fast);
        engines_agree::<Side<16>>(7, fast);
        engines_agree::<Side<18>>(8, fast);
        engines_agree::<Side<20>>(9, fast);
        engines_agree::<Side<22>>(10, fast);
        engines_agree::<Side<24>>(11, fast);
        engines_agree::<Side<26>>(12, fast);
    }

    /// A position of `L` from one of four states a cell (the mover's, the other's, empty, a
    /// pit): arbitrary, reachable in a game or not.
    fn arbitrary<L: Layout>(states: &[u8]) -> Position<L> {
        let mut pos = Position::<L> {
            me: L::Bits::EMPTY,
            opp: L::Bits::EMPTY,
            empty: L::Bits::EMPTY,
        };
        for (i, state) in L::ALL.cells().zip(states) {
            match state % 4 {
                0 => pos.me |= L::Bits::cell(i),
                1 => pos.opp |= L::Bits::cell(i),
                2 => pos.empty |= L::Bits::cell(i),
                _ => {}
            }
        }
        pos
    }

    /// On an arbitrary position with pits: the layout's moves and flips, the fast ones and the
    /// ray walks agree, and a move adds one disc and turns the flipped ones, pits untouched.
    fn agree_anywhere<L: Layout>(states: &[u8], fast: Option<Fast>) {
        let pos = arbitrary::<L>(states);
        for at in generators_agree(&pos, fast).cells() {
            let flipped = L::flips(pos.me, pos.opp, at);
            let next = pos.play_with(flipped, at);
            // The other player moves next: its discs are the mover's, plus `at`, plus flips.
            assert_eq!(next.opp, pos.me | flipped | L::Bits::cell(at), "cell {at}");
            assert_eq!(next.me, pos.opp & !flipped, "cell {at}");
            assert_eq!(next.empty, pos.empty & !L::Bits::cell(at), "cell {at}");
        }
    }

    /// On a board whose every cell but one (`at`) holds a disc, the count of the last move's
    /// flips is that of the flips, for either player, where the layout counts them.
    #[cfg(target_arch = "x86_64")]
    fn last_flips_agree<L: Layout>(discs: &[bool], at: usize, fast: Option<Fast>) {
        let Some(_) = fast else { return };
        let at = L::ALL.cells().nth(at % (L::N * L::N)).expect("a cell");
        let mut me = L::Bits::EMPTY;
        for (i, &mine) in L::ALL.cells().zip(discs) {
            if mine && i != at {
                me |= L::Bits::cell(i);
            }
        }
        let opp = L::ALL & !me & !L::Bits::cell(at);
        for (me, opp) in [(me, opp), (opp, me)] {
            // SAFETY: `fast` proves the processor has BMI2.
            if let Some(count) = unsafe { L::last_flips_bmi2(me, at) } {
                assert_eq!(count, flips::<L>(me, opp, at).len(), "cell {at}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    proptest::proptest! {
        #[test]
        fn the_last_moves_flips_are_counted_as_made(
            discs in proptest::collection::vec(proptest::bool::ANY, 64),
            at in 0usize..64,
        ) {
            let fast = Fast::detect();
            last_flips_agree::<Side<4>>(&discs, at, fast);
            last_flips_agree::<Side<6>>(&discs, at, fast);
            last_flips_agree::<Side<8>>(&discs, at, fast);
        }
    }

    proptest::proptest! {
        #[test]
        fn engines_agree_on_arbitrary_positions_with_pits(
            states in proptest::collection::vec(0u8..4, 26 * 26),
        ) {
            let fast = Fast::detect();
            agree_anywhere::<Side<4>>(&states, fast);
            agree_anywhere::<Side<6>>(&states, fast);
            agree_anywhere::<Side<8>>(&states, fast);
            agree_anywhere::<Side<10>>(&states, fast);
            agree_anywhere::<Side<16>>(&states, fast);
            agree_anywhere::<Side<26>>(&states, fast);
        }
    }
}
