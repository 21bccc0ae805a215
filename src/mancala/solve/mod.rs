//! The exact Kalah solver: null-window tests over alpha-beta with a two-slot transposition
//! table, enhanced transposition cutoffs, the parity of the stones left, and a lazily filled
//! endgame table below it; each node starts loading its children's table entries before it
//! reads any, so that the waits for memory (two thirds of the time) overlap. It sows through
//! the game's own ring ([`sow`]). A command-line solve runs two tests a round, their pits
//! dealt out to its threads over shared tables (`round.rs`); the computer player's solve is
//! MTD(f) on one thread. Pure computation: no I/O, no clocks.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use super::endgame::Endgame;
use super::estimate::{INFINITY, estimate, estimate_depth};
use super::game::{Mancala, Rows, fingerprint, sow};
use super::table::{Bucket, Shared, Slot};
use crate::board::{Report, Solution, TableTooLarge, Tally};
use crate::worker;
pub use line::solve_line;
use round::round;

mod line;
mod round;

/// The stack a solve runs on: a game of many stones runs thousands of sowings deep, at about a
/// kilobyte a sowing.
const STACK: usize = 64 << 20;

/// The buckets a command-line solve's transposition table starts with (2 MiB); it grows
/// fourfold whenever three quarters full, up to the size the memory allows. Kalah (4,3) fills
/// 2 MiB and solves in 0.04 s, where zeroing the 256 MiB its stones could fill took 0.2 s.
const START: usize = 1 << 16;

/// Solves a Kalah position with a table sized by its stones (what the computer player uses):
/// the final store margin for the player to move under perfect play (stores already filled
/// count too), and a best pit number to sow; the error when the memory cannot be had (at most
/// 32 MiB of transposition table: the computer solves only what finishes in well under a
/// second, which fills no more).
pub fn solve<const P: usize>(game: &Mancala<P>) -> Result<Solution<usize>, TableTooLarge> {
    let stones: u32 = game.rows().iter().flatten().map(|&n| u32::from(n)).sum();
    let buckets = (1 << (11 + stones / 3).clamp(11, 20)).min(buckets_for::<P>(stones));
    let megabytes = (buckets * std::mem::size_of::<Bucket>()).div_ceil(1 << 20);
    solve_with(game, (buckets, buckets), Endgame::<P>::CAPACITY, None, None)
        .map_err(|()| TableTooLarge { megabytes })
}

/// Solves a Kalah position as [`solve`] does in at most about `megabytes` MiB (a quarter for
/// the table of endgame values, at most 150 million bytes, the rest for the transposition
/// table, neither larger than the position's stones can fill; that table starts at 2 MiB and
/// grows as it fills), on `threads` threads (two are used at the most), reporting to `report`
/// now and then; the error when the memory cannot be had. The best pit is the first, in pit
/// order, that reaches the value, whatever the threads and the table.
pub fn solve_in<const P: usize>(
    game: &Mancala<P>,
    megabytes: usize,
    threads: usize,
    report: Option<Report<'_>>,
) -> Result<Solution<usize>, TableTooLarge> {
    let stones: u32 = game.rows().iter().flatten().map(|&n| u32::from(n)).sum();
    let (buckets, endgame) = memory::<P>(megabytes, stones);
    solve_with(
        game,
        (buckets.min(START), buckets),
        endgame,
        report,
        Some(threads),
    )
    .map_err(|()| TableTooLarge { megabytes })
}

/// `megabytes` MiB split between the transposition table and the endgame table for a game of
/// `stones` stones in the pits (see [`solve_in`]): the most buckets of the one, and the bytes
/// of the other.
fn memory<const P: usize>(megabytes: usize, stones: u32) -> (usize, u64) {
    let bytes = megabytes.saturating_mul(1 << 20);
    let endgame = (bytes as u64 / 4).min(Endgame::<P>::CAPACITY);
    let fit = (bytes - endgame as usize) / std::mem::size_of::<Bucket>();
    let buckets = if fit == 0 { 1 } else { 1 << fit.ilog2() };
    (buckets.min(buckets_for::<P>(stones)), endgame)
}

/// Buckets enough for every position of `stones` stones or fewer in the pits (two slots a
/// bucket), a power of two: a table larger than that would stay empty.
fn buckets_for<const P: usize>(stones: u32) -> usize {
    // Ways to put at most `stones` stones in 2P pits: C(stones + 2P, 2P), saturating.
    let pits = 2 * P as u64;
    let mut ways: u64 = 1;
    for i in 1..=pits {
        ways = ways.saturating_mul(u64::from(stones) + i) / i;
        if ways > 1 << 40 {
            break;
        }
    }
    let wanted = usize::try_from(ways.div_ceil(2))
        .unwrap_or(usize::MAX)
        .min(1 << 40);
    wanted.next_power_of_two()
}

/// [`solve_in`] with a transposition table of `(start, most)` buckets, and at most `endgame`
/// bytes of endgame values: by null-window tests on `threads` threads, or with `None` by the
/// computer player's MTD(f), whose table is `most` from the start and never grows (its moves
/// must not depend on a growth).
fn solve_with<const P: usize>(
    game: &Mancala<P>,
    (start, most): (usize, usize),
    endgame: u64,
    report: Option<Report<'_>>,
    threads: Option<usize>,
) -> Result<Solution<usize>, ()> {
    if game.is_over() {
        return Ok(over(game));
    }
    let rows = game.rows();
    let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
    let capture = game.capture();
    let buckets = if threads.is_some() {
        (start, most)
    } else {
        (most, most)
    };
    let mut shared = Shared::new(buckets, endgame, stones, capture, report)?;
    let Some(threads) = threads else {
        let guess = estimate(&rows, estimate_depth(P), -INFINITY, INFINITY, capture);
        let (future, best) = on_big_stack(|| Kalah::new(&shared, &NEVER).mtdf(&rows, guess));
        return Ok(Solution {
            value: banked(game) + future,
            best: best.map(|pit| pit + 1),
        });
    };
    Ok(solve_over(&mut shared, game, threads))
}

/// The store margin of the player to move in `game` so far.
fn banked<const P: usize>(game: &Mancala<P>) -> i32 {
    let mover = game.to_move();
    game.score(mover) as i32 - game.score(mover.opponent()) as i32
}

/// The solution of a game that is over: its margin, and no pit.
fn over<const P: usize>(game: &Mancala<P>) -> Solution<usize> {
    Solution {
        value: banked(game),
        best: None,
    }
}

/// The solution of `game` by null-window tests on `threads` threads over `shared`'s tables,
/// from the bounds they hold on it already; its best pit is `None` when they held the value
/// before any test reached it.
fn solve_over<const P: usize>(
    shared: &mut Shared<'_, P>,
    game: &Mancala<P>,
    threads: usize,
) -> Solution<usize> {
    if game.is_over() {
        return over(game);
    }
    let rows = game.rows();
    let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
    let guess = estimate(
        &rows,
        estimate_depth(P),
        -INFINITY,
        INFINITY,
        game.capture(),
    );
    let known = shared
        .probe_key(fingerprint(&rows))
        .map_or(Known::NOTHING, |slot| Known {
            lower: i32::from(slot.lower),
            best: None,
            upper: i32::from(slot.upper),
        });
    let (future, best) = on_big_stack(|| tests(shared, &rows, stones, guess, threads, known));
    Solution {
        value: banked(game) + future,
        best: best.map(|pit| pit + 1),
    }
}

/// A stop signal that is never given.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Runs `work` on a thread with a [`STACK`]-byte stack, or on this one when none can be
/// started; a panic in it goes on in this thread.
fn on_big_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let work = Mutex::new(Some(work));
    // Whichever thread runs it takes it; a poisoned lock still holds it.
    let run = || {
        let work = work.lock().unwrap_or_else(PoisonError::into_inner).take();
        work.map(|work| work())
    };
    std::thread::scope(|scope| match worker::spawn_with_stack(scope, STACK, run) {
        Ok(thread) => worker::joined(thread.join()),
        Err(_) => run(),
    })
    .expect("the work is taken once, by the one thread that runs it")
}

/// 1 when `value` cannot be the value of a position with `left` stones in its pits, else 0.
///
/// Every stone still in a pit ends in one store or the other, so the future margin of any
/// position has the parity of the stones left in its pits. A bound of the other parity can be
/// moved one further, which settles many null-window tests without a search.
fn parity(value: i32, left: i32) -> i32 {
    (value - left) & 1
}

/// What a null-window test at the root found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// The margin is reached by sowing this pit (0-based), the first in pit order that does.
    Reached(usize),
    /// No pit reaches the margin.
    Short,
    /// Stopped: the other test's outcome settled this one.
    Stopped,
}

impl Test {
    /// The bounds this outcome of the test of margin `beta` puts on the value: at least `beta`
    /// when reached, else at most the margin of its parity below it (see [`parity`]).
    fn bounds(self, beta: i32) -> (i32, i32) {
        match self {
            Test::Reached(_) => (beta, INFINITY),
            Test::Short => (-INFINITY, beta - 2),
            Test::Stopped => (-INFINITY, INFINITY),
        }
    }
}

/// The exact value of `rows` (with `stones` in its pits) and the first pit, in pit order, that
/// reaches it, by null-window tests from `guess`, on `workers` threads (see [`round`]), from
/// what is `known`. Margins have the parity of the stones (see [`parity`]), so each round
/// tests a margin and the next one up: either the value lies between them, or both move up
/// or down. On Kalah (6,4) one round is needed (+8 reached, +10 not).
fn tests<const P: usize>(
    shared: &mut Shared<'_, P>,
    rows: &Rows<P>,
    stones: u32,
    guess: i32,
    workers: usize,
    known: Known,
) -> (i32, Option<usize>) {
    let left = stones as i32;
    // Bounds of the value's parity: one below any value, and the most there is.
    let (mut lower, mut upper) = (
        (known.lower + parity(known.lower, left)).max(-left - 2),
        (known.upper - parity(known.upper, left)).min(left),
    );
    let mut best = known.best;
    let mut centre = guess + parity(guess, left);
    let mut histories = vec![[0; P]; workers.max(1)];
    while lower < upper {
        let low = if upper - lower == 2 {
            upper
        } else {
            centre.clamp(lower + 2, upper - 2)
        };
        let betas = if low < upper {
            vec![low, low + 2]
        } else {
            vec![low]
        };
        let outcomes = round(shared, &mut histories, rows, &betas);
        for (&beta, outcome) in betas.iter().zip(outcomes) {
            let (at_least, at_most) = outcome.bounds(beta);
            if let Test::Reached(pit) = outcome
                && at_least > lower
            {
                (lower, best) = (at_least, Some(pit));
            }
            upper = upper.min(at_most);
        }
        if shared.is_crowded() {
            // The tests that stopped for room run again, on the larger table.
            shared.grow();
            continue;
        }
        centre = if lower >= low { lower + 2 } else { upper - 2 };
        let known = |v: i32, end: i32| {
            if v.abs() >= end {
                v.signum() * INFINITY
            } else {
                v
            }
        };
        shared.set_bounds(known(lower, left + 1), known(upper, left));
    }
    (lower, best)
}

/// What is known of a position's future margin before its tests: at least `lower`, reached by
/// sowing `best` (0-based) when that is known, and at most `upper`.
#[derive(Clone, Copy, Debug)]
struct Known {
    lower: i32,
    best: Option<usize>,
    upper: i32,
}

impl Known {
    const NOTHING: Known = Known {
        lower: -INFINITY,
        best: None,
        upper: INFINITY,
    };
}

/// Where a child position's value may be known.
#[derive(Clone, Copy, Debug)]
enum Look {
    /// Nowhere: no stones are left, and nothing more is won.
    Empty,
    /// In the endgame table, kept here.
    Endgame(usize),
    /// In the transposition table, under this fingerprint.
    Table(u64),
}

/// One thread's search: the shared tables, its own move-ordering history and node count, and
/// the signal that its test is no longer needed.
struct Kalah<'s, 'a, const P: usize> {
    shared: &'s Shared<'a, P>,
    stop: &'s AtomicBool,
    /// How often each pit was best, weighted by the stones at stake: the tiebreak of ordering.
    history: [u64; P],
    nodes: u64,
    /// Slots this search filled that the shared count has not heard of yet.
    filled: u64,
}

impl<'s, 'a, const P: usize> Kalah<'s, 'a, P> {
    fn new(shared: &'s Shared<'a, P>, stop: &'s AtomicBool) -> Self {
        Kalah::with_history(shared, stop, &[0; P])
    }

    /// A search that orders moves by an earlier one's `history`.
    fn with_history(shared: &'s Shared<'a, P>, stop: &'s AtomicBool, history: &[u64; P]) -> Self {
        Kalah {
            shared,
            stop,
            history: *history,
            nodes: 0,
            filled: 0,
        }
    }

    /// Keeps bounds on the position of fingerprint `key`, found in `nodes` nodes (see
    /// [`Shared::store`]), telling the table how full it is now and then.
    fn store(&mut self, key: u64, nodes: u64, bounds: (i32, i32), best: usize) {
        if self.shared.store(key, nodes, bounds, best) {
            self.filled += 1;
            if self.filled >= self.shared.batch() {
                self.shared.filled(self.filled);
                self.filled = 0;
            }
        }
    }

    fn probe(&self, rows: &Rows<P>) -> Option<Slot> {
        self.shared.probe_key(fingerprint(rows))
    }

    /// Counts a node, handing the count to the shared one now and then.
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(Tally::EVERY) {
            self.shared.count(Tally::EVERY);
        }
    }

    /// Whether to stop: the other test settled this one, or the table asks for room.
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.shared.is_crowded()
    }

    /// MTD(f): narrows the value of `rows` with null-window searches until the bounds meet,
    /// starting from `guess`, a shallow search's estimate. On Kalah (6,4) the estimate is 7,
    /// against 8, and two passes do what six passes from 0 did (53 s against 87 s).
    ///
    /// Returns the value and a best pit (0-based): the one that won the last pass that failed
    /// high, since the value is that pass's bound.
    fn mtdf(&mut self, rows: &Rows<P>, guess: i32) -> (i32, Option<usize>) {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut guess = guess;
        let mut best = None;
        while lower < upper {
            let beta = guess.max(lower + 1);
            guess = self.value(rows, beta - 1, beta);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
                best = self.probe(rows).map(|slot| usize::from(slot.best));
            }
            self.shared.set_bounds(lower, upper);
        }
        (guess, best)
    }

    /// The value, within (`alpha`, `beta`), of a move that gained `gain` and left `next` to
    /// the same mover or to the other player.
    fn child(&mut self, gain: i32, same_mover: bool, next: &Rows<P>, alpha: i32, beta: i32) -> i32 {
        if next.iter().flatten().all(|&n| n == 0) {
            gain
        } else if same_mover {
            gain + self.value(next, alpha - gain, beta - gain)
        } else {
            gain - self.value(next, gain - beta, gain - alpha)
        }
    }

    /// The future margin of the player to move (fail-soft alpha-beta with table bounds); 0,
    /// with nothing stored, once told to stop.
    fn value(&mut self, rows: &Rows<P>, mut alpha: i32, mut beta: i32) -> i32 {
        self.visit();
        let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
        let shared = self.shared;
        let endgame = &shared.endgame;
        if stones <= endgame.limit {
            return endgame.exact(rows, stones);
        }
        // No one can win or lose more than the stones still in play (at most 2376).
        let left = stones as i32;
        if left <= alpha {
            return left;
        }
        if -left >= beta {
            return -left;
        }
        let key = fingerprint(rows);
        let nodes_before = self.nodes;
        let remembered = self.shared.probe_key(key);
        let mut first = None;
        if let Some(slot) = remembered {
            let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            first = Some(usize::from(slot.best));
        }
        let (window_alpha, window_beta) = (alpha, beta);

        // Every sowing, with the position it leaves from the next mover's side.
        // Where each is known is found, and starts loading, first: the loads overlap.
        let mut children = [(
            (0i32, 0u64),
            0usize,
            0i32,
            false,
            [[0u16; P]; 2],
            Look::Empty,
        ); P];
        let mut count = 0;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let sown = sow(rows, pit, self.shared.capture);
            let gain = sown.gain();
            let (same_mover, next) = sown.after();
            let stones: u32 = next.iter().flatten().map(|&n| u32::from(n)).sum();
            let look = if stones == 0 {
                Look::Empty
            } else if stones <= endgame.limit {
                Look::Endgame(endgame.locate(&next, stones))
            } else {
                let key = fingerprint(&next);
                shared.prefetch(key);
                Look::Table(key)
            };
            // Try first: the remembered best, then extra moves from the pit nearest the store
            // (it leaves the others' counts alone), then what banks the most.
            let rank = if first == Some(pit) {
                (i32::MIN, 0)
            } else if sown.again {
                (-1000 - pit as i32, 0)
            } else {
                (-gain, u64::MAX - self.history[pit])
            };
            children[count] = (rank, pit, gain, same_mover, next, look);
            count += 1;
        }
        let children = &mut children[..count];
        children.sort_unstable_by_key(|child| child.0);

        // Enhanced transposition cutoff: a child already known to be good enough ends the
        // search here without descending.
        for &(_, pit, gain, same_mover, ref next, look) in children.iter() {
            let known = match look {
                Look::Empty => Some((0, 0)),
                Look::Endgame(at) => {
                    let value = endgame.exact_at(next, at);
                    Some((value, value))
                }
                Look::Table(key) => shared
                    .probe_key(key)
                    .map(|slot| (i32::from(slot.lower), i32::from(slot.upper))),
            };
            let Some((lower, upper)) = known else {
                continue;
            };
            let at_least = if same_mover {
                gain + lower
            } else {
                gain - upper
            };
            if at_least >= beta {
                let at_least = at_least + parity(at_least, left);
                self.store(key, 1, (at_least, INFINITY), pit);
                return at_least;
            }
        }

        let mut best = (-INFINITY, children[0].1);
        for &(_, pit, gain, same_mover, ref next, _) in children.iter() {
            let value = self.child(gain, same_mover, next, alpha, beta);
            if self.stopped() {
                return 0;
            }
            if value > best.0 {
                best = (value, pit);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }

        let (mut lower, mut upper) = remembered.map_or((-INFINITY, INFINITY), |s| {
            (i32::from(s.lower), i32::from(s.upper))
        });
        // A bound of the wrong parity tightens by one (see `parity`).
        let value = if best.0 <= window_alpha {
            upper = best.0 - parity(best.0, left);
            upper
        } else if best.0 >= window_beta {
            lower = best.0 + parity(best.0, left);
            lower
        } else {
            (lower, upper) = (best.0, best.0);
            best.0
        };
        if best.0 > window_alpha {
            self.history[best.1] += (left * left) as u64;
        }
        self.store(key, self.nodes - nodes_before, (lower, upper), best.1);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Player, Progress};
    use crate::mancala::Capture;

    #[test]
    fn small_kalah_boards_solve_to_their_published_margins() {
        let cases = [
            (solve(&Mancala::<4>::new(3)).unwrap(), 6),
            (solve(&Mancala::<6>::new(1)).unwrap(), 2),
            (solve(&Mancala::<6>::new(2)).unwrap(), 6),
            (solve(&Mancala::<6>::new(3)).unwrap(), 2),
            (solve(&Mancala::<1>::new(1)).unwrap(), 0),
        ];
        for (solution, want) in cases {
            assert_eq!(solution.value, want);
        }
    }

    /// The value after each first move, from the side of the player who made it.
    fn after_each_first_move<const P: usize>(stones: u8) -> Vec<(usize, i32)> {
        (1..=P)
            .map(|pit| {
                let mut game = Mancala::<P>::new(stones);
                game.sow(pit).unwrap();
                let next = solve(&game).unwrap().value;
                let value = if game.to_move() == Player::First {
                    next
                } else {
                    -next
                };
                (pit, value)
            })
            .collect()
    }

    #[test]
    fn the_best_kalah_move_reaches_the_value_and_no_move_beats_it() {
        let solution = solve(&Mancala::<4>::new(3)).unwrap();
        let after = after_each_first_move::<4>(3);
        let best = solution.best.unwrap();
        assert_eq!(after[best - 1], (best, solution.value), "{after:?}");
        assert!(after.iter().all(|&(_, v)| v <= solution.value), "{after:?}");
        assert!(
            after.iter().any(|&(_, v)| v < solution.value),
            "a board where every move is best"
        );
    }

    #[test]
    fn kalah_margins_have_the_parity_of_the_stones_in_play() {
        // Every stone ends in a store, so margin and stone count agree in parity.
        for stones in 1..=4 {
            let value = solve(&Mancala::<3>::new(stones)).unwrap().value;
            assert_eq!(
                parity(value, 6 * i32::from(stones)),
                0,
                "(3,{stones}): {value}"
            );
        }
    }

    /// The margin for the player to move by plain minimax over the game's own rules
    /// (remembering positions, since Kalah games transpose a lot), with none of the solver's
    /// bounds, tables or parity: the solver's independent check.
    fn brute_force<const P: usize>(
        game: &Mancala<P>,
        seen: &mut std::collections::HashMap<(Rows<P>, i64), i32>,
    ) -> i32 {
        let me = game.to_move();
        let banked = i64::from(game.score(me)) - i64::from(game.score(me.opponent()));
        if game.is_over() {
            return banked as i32;
        }
        let key = (game.rows(), banked);
        if let Some(&value) = seen.get(&key) {
            return value;
        }
        let best = (1..=P)
            .filter_map(|pit| {
                let mut next = game.clone();
                next.sow(pit).ok()?;
                let value = brute_force(&next, seen);
                Some(if next.to_move() == me { value } else { -value })
            })
            .max()
            .expect("a game not over has a move");
        seen.insert(key, best);
        best
    }

    #[test]
    fn each_test_narrows_the_reported_bounds_as_it_settles_on_any_number_of_workers() {
        // Kalah (4,3) is worth +6 to the player to move: +6 is reached, +8 is not.
        let rows = Mancala::<4>::new(3).rows();
        let mut seen = Vec::new();
        let mut report = |progress: &Progress| seen.push((progress.lower, progress.upper));
        let shared = Shared::new(
            (1 << 10, 1 << 10),
            1 << 16,
            24,
            Capture::Standard,
            Some(&mut report),
        )
        .unwrap();
        for workers in [1, 2] {
            let mut histories = vec![[0; 4]; workers];
            assert_eq!(round(&shared, &mut histories, &rows, &[8]), [Test::Short]);
            shared.count(0);
            let reached = round(&shared, &mut histories, &rows, &[6]);
            assert!(matches!(reached[..], [Test::Reached(_)]), "{reached:?}");
            shared.count(0);
            // A result weaker than what is known leaves the bounds as they are.
            round(&shared, &mut histories, &rows, &[4]);
            shared.count(0);
        }
        drop(shared);
        assert_eq!(
            seen,
            [(-INFINITY, 6), (6, 6), (6, 6), (6, 6), (6, 6), (6, 6)]
        );
    }

    #[test]
    fn both_capture_rules_solve_small_boards_as_brute_force_does() {
        fn check<const P: usize>(stones: u8) {
            for capture in [Capture::Standard, Capture::Empty] {
                let game = Mancala::<P>::with_capture(stones, capture);
                let want = brute_force(&game, &mut std::collections::HashMap::new());
                // The margin after each first move, from the first mover's side.
                let after: Vec<i32> = (1..=P)
                    .map(|pit| {
                        let mut after = game.clone();
                        after.sow(pit).unwrap();
                        let next = brute_force(&after, &mut std::collections::HashMap::new());
                        if after.to_move() == game.to_move() {
                            next
                        } else {
                            -next
                        }
                    })
                    .collect();
                let first_best = after.iter().position(|&v| v == want).map(|i| i + 1);
                // Also from a table of one bucket, which grows many times on the way.
                let growing = |threads| {
                    solve_with(&game, (1, 1 << 10), 1 << 16, None, Some(threads)).unwrap()
                };
                for threads in [1, 2] {
                    for (found, table) in [
                        (solve_in(&game, 4, threads, None).unwrap(), "4 MiB"),
                        (growing(threads), "growing"),
                    ] {
                        let case = format!("({P},{stones}) {capture:?} {threads} {table}");
                        assert_eq!(found.value, want, "{case}");
                        assert_eq!(
                            found.best, first_best,
                            "{case}: the first best pit, {after:?}"
                        );
                    }
                }
            }
        }
        check::<2>(3);
        check::<3>(2);
        check::<3>(3);
        check::<4>(2);
    }
}
