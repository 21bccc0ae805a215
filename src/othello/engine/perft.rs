//! Perft: the number of move paths of an engine position to a given depth, the standard check
//! of a move generator against published tables. Pure computation on the bit-set engine; the
//! game hands it its start position, and the console times and prints.

use super::bits::Bits as _;
use super::count_table::CountTable;
#[cfg(target_arch = "x86_64")]
use super::layout::{Cut, Patch};
use super::layout::{Layout, Position, Side};

/// How to count: on how many threads, and with which table, if any.
pub struct Counting<'a, const N: usize>
where
    Side<N>: Layout,
{
    /// Threads to split the tree across; 1 counts on the calling thread.
    pub threads: usize,
    /// Counts remembered between positions (and between calls).
    pub table: Option<&'a CountTable<Side<N>>>,
}

/// The number of leaves of the game tree of `start` at `depth` plies, counted as `how` says:
/// the same number whichever way.
///
/// Aart Bik's convention, the one of the published tables: a pass is a ply, and a position where
/// neither player can move is one leaf whatever depth is left.
pub fn perft<const N: usize>(start: Position<Side<N>>, depth: u32, how: &Counting<'_, N>) -> u64
where
    Side<N>: Layout,
{
    let plain = plain_counter::<Side<N>>();
    let count = |pos: Position<Side<N>>, depth: u32| match how.table {
        Some(table) => hashed(pos, depth, table, plain),
        None => plain(pos, depth),
    };
    if how.threads <= 1 {
        return count(start, depth);
    }
    // Enough subtrees that the threads stay busy to the end, few enough to list cheaply.
    let mut jobs = Vec::new();
    let mut settled = 0;
    let mut ply = 0;
    while jobs.len() < 16 * how.threads && ply < depth.saturating_sub(3) {
        ply += 1;
        jobs.clear();
        settled = 0;
        frontier(start, depth, ply, &mut jobs, &mut settled);
    }
    if jobs.is_empty() && settled == 0 {
        jobs.push((start, depth));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicU64::new(settled);
    std::thread::scope(|scope| {
        for _ in 0..how.threads {
            scope.spawn(|| {
                while let Some(&(pos, depth)) =
                    jobs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    let n = count(pos, depth);
                    total.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    total.into_inner()
}

/// Lists the subtrees `ply` plies below `pos` (with `depth` left at `pos`) as jobs, and counts
/// in `settled` the leaves met on the way (games that ended).
fn frontier<L: Layout>(
    pos: Position<L>,
    depth: u32,
    ply: u32,
    jobs: &mut Vec<(Position<L>, u32)>,
    settled: &mut u64,
) {
    if ply == 0 || depth <= 1 {
        jobs.push((pos, depth));
        return;
    }
    let moves = pos.moves();
    if moves.is_empty() {
        let passed = pos.pass();
        if passed.moves().is_empty() {
            *settled += 1;
        } else {
            frontier(passed, depth - 1, ply - 1, jobs, settled);
        }
        return;
    }
    for at in moves.cells() {
        frontier(pos.play_unchecked(at), depth - 1, ply - 1, jobs, settled);
    }
}

/// [`perft_with`] through `table`: counts of two plies or fewer are cheaper to make than to look up,
/// and go to `plain`.
fn hashed<L: Layout>(
    pos: Position<L>,
    depth: u32,
    table: &CountTable<L>,
    plain: fn(Position<L>, u32) -> u64,
) -> u64 {
    if depth <= 2 {
        return plain(pos, depth);
    }
    if let Some(count) = table.get(&pos, depth) {
        return count;
    }
    let moves = pos.moves();
    let count = if moves.is_empty() {
        let passed = pos.pass();
        if passed.moves().is_empty() {
            1
        } else {
            hashed(passed, depth - 1, table, plain)
        }
    } else {
        moves
            .cells()
            .map(|at| hashed(pos.play_unchecked(at), depth - 1, table, plain))
            .sum()
    };
    table.put(&pos, depth, count);
    count
}

/// The fastest plain recursion this processor runs.
fn plain_counter<L: Layout>() -> fn(Position<L>, u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if super::sides::Fast::detect().is_some() {
        return |pos, depth| {
            // SAFETY: chosen only where the token proves every feature it is built with.
            unsafe { leaves_fast(pos, depth) }
        };
    }
    leaves
}

/// Defines a [`perft_with`] recursion with the given attributes: the portable one, and one built for
/// the instructions `fast` names, which counts in a window (`in_window`) where the layout can cut one.
macro_rules! leaves_fn {
    ($(#[$attr:meta])* $name:ident, $moves:ident, $play:ident $(, $in_window:ident)?) => {
        $(#[$attr])*
        fn $name<L: Layout>(pos: Position<L>, depth: u32) -> u64 {
            $(
                // SAFETY: this recursion is built for, and so only runs on, processors with
                // AVX2.
                if let Some(cut) = unsafe { L::cut_avx2(&pos) } {
                    return $in_window(&cut.position, depth, &cut);
                }
            )?
            let moves = pos.$moves();
            if depth <= 1 {
                // At the last ply each move is a leaf; with none, the pass or the end is one.
                return if depth == 0 {
                    1
                } else {
                    u64::from(moves.len().max(1))
                };
            }
            if moves.is_empty() {
                let passed = pos.pass();
                return if passed.$moves().is_empty() {
                    1
                } else {
                    $name(passed, depth - 1)
                };
            }
            if depth == 2 {
                // The last two plies in one loop: each child's moves are its leaves.
                return moves
                    .cells()
                    .map(|at| u64::from(pos.$play(at).$moves().len().max(1)))
                    .sum();
            }
            moves
                .cells()
                .map(|at| $name(pos.$play(at), depth - 1))
                .sum()
        }
    };
}

leaves_fn!(leaves, moves, play_unchecked);

#[cfg(target_arch = "x86_64")]
leaves_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    leaves_fast,
    moves_avx2,
    play_unchecked_avx2,
    in_window
);

/// [`leaves_fast`] of a window's position `pos` cut from a wide board (`cut`): the window's
/// moves are the board's as long as no disc lands on an edge of the window inside the board;
/// a child with one goes back to the board, to be cut anew.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
fn in_window<L: Layout>(pos: &Position<Patch>, depth: u32, cut: &Cut<L>) -> u64 {
    let moves = pos.moves_avx2();
    if depth <= 1 {
        return if depth == 0 {
            1
        } else {
            u64::from(moves.len().max(1))
        };
    }
    if moves.is_empty() {
        let passed = pos.pass();
        return if passed.moves_avx2().is_empty() {
            1
        } else {
            in_window(&passed, depth - 1, cut)
        };
    }
    moves
        .cells()
        .map(|at| {
            let child = pos.play_unchecked_avx2(at);
            if cut.inner.has(at) {
                in_window(&child, depth - 1, cut)
            } else {
                // SAFETY: built for processors with AVX2, as this function is.
                leaves_fast(unsafe { cut.paste(&child) }, depth - 1)
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::perft_counts::{
        OPEN_BOARD, PITTED_6X6, PITTED_6X6_PITS, STANDARD_6X6, STANDARD_8X8,
    };
    use super::*;
    use crate::othello::Othello;
    use crate::othello::engine::Fast;

    /// Plain perft on one thread.
    fn perft<const N: usize>(game: &Othello<N>, depth: u32) -> u64
    where
        Side<N>: Layout,
    {
        let plain = Counting {
            threads: 1,
            table: None,
        };
        super::perft(game.position(), depth, &plain)
    }

    fn counts<const N: usize>(pits: &[&str], depths: usize) -> Vec<u64>
    where
        Side<N>: Layout,
    {
        let mut game = Othello::<N>::new();
        for pit in pits {
            game.add_pit(pit.parse().unwrap()).unwrap();
        }
        (1..=depths)
            .map(|d| perft(&game, u32::try_from(d).unwrap()))
            .collect()
    }

    #[test]
    fn perft_matches_the_published_8x8_table() {
        // Depths 11 and 12 run in the benchmark.
        assert_eq!(counts::<8>(&[], 10), STANDARD_8X8[..10]);
    }

    #[test]
    fn perft_matches_the_published_6x6_tables() {
        // Depth 11 runs in the benchmark.
        assert_eq!(counts::<6>(&[], 10), STANDARD_6X6[..10]);
        assert_eq!(counts::<6>(&PITTED_6X6_PITS, 10), PITTED_6X6);
    }

    /// Counts with random pits, from the start and from a position some random plies on,
    /// through the portable recursion and, where the processor has them, the fast one (which on
    /// wide boards counts in windows, cut anew as the discs spread towards and along the edges).
    struct BothPaths(u64, Option<Fast>);

    impl crate::othello::WithSide for BothPaths {
        type Output = ();
        fn run<const N: usize>(self)
        where
            Side<N>: Layout,
        {
            let fast = self.1;
            let mut rng = crate::rng::Rng::new(self.0);
            let mut game = Othello::<N>::new();
            for _ in 0..rng.below(N + 1) {
                let at = crate::board::Coord::new(rng.below(N), rng.below(N), N).unwrap();
                let _ = game.add_pit(at);
            }
            let depth = if N <= 8 { 7 } else { 5 };
            let portable = leaves(game.position(), depth);
            if fast.is_some() {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: the token proves the features.
                    let fast = unsafe { leaves_fast(game.position(), depth) };
                    assert_eq!(fast, portable, "side {N}, seed {}", self.0);
                }
            }
            assert_eq!(perft(&game, depth), portable, "side {N}, seed {}", self.0);
            let plies = rng.below(3 * N);
            for _ in 0..plies {
                if game.pass().is_ok() {
                    continue;
                }
                let moves: Vec<_> = game.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            let portable = leaves(game.position(), 4);
            if fast.is_some() {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: the token proves the features.
                    let fast = unsafe { leaves_fast(game.position(), 4) };
                    assert_eq!(fast, portable, "side {N}, seed {}, {plies} plies", self.0);
                }
            }
            assert_eq!(perft(&game, 4), portable, "side {N}, seed {}", self.0);
        }
    }

    #[test]
    fn the_fast_and_the_portable_paths_count_alike_at_every_side() {
        let fast = Fast::for_test("the_fast_and_the_portable_paths_count_alike_at_every_side");
        for (seed, side) in crate::board::SIDES.into_iter().enumerate() {
            for round in 0..6 {
                let side = crate::board::BoardSide::new(side).unwrap();
                crate::othello::with_any_side(side, BothPaths(seed as u64 * 3 + round, fast));
            }
        }
    }

    /// The counts to `depths` with `threads` and, if `hash_mb`, a table of that size.
    fn counted<const N: usize>(
        pits: &[&str],
        depths: usize,
        threads: usize,
        hash_mb: Option<usize>,
    ) -> Vec<u64>
    where
        Side<N>: Layout,
    {
        let mut game = Othello::<N>::new();
        for pit in pits {
            game.add_pit(pit.parse().unwrap()).unwrap();
        }
        let table = hash_mb.map(|mb| CountTable::new(mb).unwrap());
        let how = Counting {
            threads,
            table: table.as_ref(),
        };
        (1..=depths)
            .map(|d| super::perft(game.position(), u32::try_from(d).unwrap(), &how))
            .collect()
    }

    #[test]
    fn threads_and_tables_count_the_published_tables() {
        for (threads, hash_mb) in [(2, None), (1, Some(16)), (3, Some(16)), (2, Some(1))] {
            let mode = format!("{threads} threads, table {hash_mb:?}");
            assert_eq!(
                counted::<8>(&[], 10, threads, hash_mb),
                STANDARD_8X8[..10],
                "{mode}"
            );
            assert_eq!(
                counted::<6>(&[], 10, threads, hash_mb),
                STANDARD_6X6[..10],
                "{mode}"
            );
            let pitted = counted::<6>(&PITTED_6X6_PITS, 10, threads, hash_mb);
            assert_eq!(pitted, PITTED_6X6, "{mode}");
            assert_eq!(
                counted::<12>(&[], 7, threads, hash_mb),
                OPEN_BOARD[..7],
                "{mode}"
            );
        }
        // Pits that break the 8x8 board's symmetry: the table must count as plain perft does.
        let pits = ["A1", "B1", "H3"];
        assert_eq!(
            counted::<8>(&pits, 8, 2, Some(4)),
            counted::<8>(&pits, 8, 1, None)
        );
    }

    #[test]
    fn perft_is_the_same_on_every_side_whose_edges_it_cannot_reach() {
        // Every wide layout (2 to 11 words) must count exactly the same paths.
        let want = &OPEN_BOARD[..8];
        assert_eq!(counts::<12>(&[], 8), want);
        assert_eq!(counts::<16>(&[], 8), want);
        assert_eq!(counts::<20>(&[], 8), want);
        assert_eq!(counts::<26>(&[], 8), want);
    }
}
