//! The exact Kalah solver: MTD(f) over null-window alpha-beta with a two-slot transposition
//! table, enhanced transposition cutoffs, the parity of the stones left, and a lazily filled
//! endgame table below it. It sows through the game's own ring ([`sow`]). Pure computation: no
//! I/O, no clocks.

use super::computer::{estimate, estimate_depth};
use super::endgame::Endgame;
use super::game::{Capture, Mancala, Rows, sow};
use crate::board::{Report, Solution, TableTooLarge, Tally};

/// The stack a solve runs on: a game of many stones runs thousands of sowings deep, at about a
/// kilobyte a sowing.
const STACK: usize = 64 << 20;

/// Solves a Kalah position with a table sized by its stones (what the computer player uses):
/// the final store margin for the player to move under perfect play (stores already filled
/// count too), and a best pit number to sow.
pub fn solve<const P: usize>(game: &Mancala<P>) -> Solution<usize> {
    let stones: u32 = game.rows().iter().flatten().map(|&n| u32::from(n)).sum();
    let buckets = 1 << (11 + stones / 3).clamp(11, 24);
    // Without the memory, the best the computer can do is no move of its own choosing.
    solve_with(game, buckets, Endgame::<P>::CAPACITY, None).unwrap_or(Solution {
        value: 0,
        best: None,
    })
}

/// Solves a Kalah position as [`solve`] does in about `megabytes` MiB (a quarter for the table
/// of endgame values, at most 150 million bytes, the rest for the transposition table),
/// reporting to `report` now and then; the error when the memory cannot be had.
pub fn solve_in<const P: usize>(
    game: &Mancala<P>,
    megabytes: usize,
    report: Option<Report<'_>>,
) -> Result<Solution<usize>, TableTooLarge> {
    let bytes = megabytes.saturating_mul(1 << 20);
    let endgame = (bytes as u64 / 4).min(Endgame::<P>::CAPACITY);
    let fit = (bytes - endgame as usize) / std::mem::size_of::<[Slot; 2]>();
    let buckets = if fit == 0 { 1 } else { 1 << fit.ilog2() };
    solve_with(game, buckets, endgame, report).map_err(|()| TableTooLarge { megabytes })
}

/// [`solve_in`] with `buckets` in the transposition table and at most `endgame` bytes of
/// endgame values.
fn solve_with<const P: usize>(
    game: &Mancala<P>,
    buckets: usize,
    endgame: u64,
    report: Option<Report<'_>>,
) -> Result<Solution<usize>, ()> {
    let mover = game.to_move();
    let rows = game.rows();
    let banked = game.score(mover) as i32 - game.score(mover.opponent()) as i32;
    if game.is_over() {
        return Ok(Solution {
            value: banked,
            best: None,
        });
    }
    let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
    let kalah = Kalah::<P>::new(buckets, endgame, stones, game.capture(), report)?;
    // Taken by whichever thread runs the search: one with room to recurse, or this one if
    // none can be started.
    let work = std::sync::Mutex::new(Some(kalah));
    let run = || {
        let mut kalah = work.lock().ok()?.take()?;
        Some(kalah.mtdf(&rows))
    };
    let found = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, run)
            .ok()
            .and_then(|thread| thread.join().ok().flatten())
    })
    .or_else(run)
    .ok_or(())?;
    let (future, best) = found;
    Ok(Solution {
        value: banked + future,
        best: best.map(|pit| pit + 1),
    })
}

/// Larger than any margin a game can reach (2 * 12 * 255 stones), and small enough for an
/// `i16`.
pub(super) const INFINITY: i32 = 10_000;

/// 1 when `value` cannot be the value of a position with `left` stones in its pits, else 0.
///
/// Every stone still in a pit ends in one store or the other, so the future margin of any
/// position has the parity of the stones left in its pits. A bound of the other parity can be
/// moved one further, which settles many null-window tests without a search.
fn parity(value: i32, left: i32) -> i32 {
    (value - left) & 1
}

/// One transposition-table slot: bounds on a position's value and the best pit found.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    lower: i16,
    upper: i16,
    best: u8,
    /// Stones in the pits (at most 255 counted): how much work the bounds stand for.
    left: u8,
}

/// The Kalah solver's memory: a fixed table of two-slot buckets (one keeps the position with the
/// most stones, the other the newest), and the exact values of the small positions met so far.
struct Kalah<'a, const P: usize> {
    table: Vec<[Slot; 2]>,
    endgame: Endgame<P>,
    /// How often each pit was best, weighted by the stones at stake: the tiebreak of ordering.
    history: [u64; P],
    capture: Capture,
    tally: Tally<'a>,
}

impl<'a, const P: usize> Kalah<'a, P> {
    /// A solver with `buckets` (a power of two) in its table and at most `endgame` bytes of
    /// endgame values, for a game of `stones` under the `capture` rule; `Err` when the memory
    /// cannot be had.
    fn new(
        buckets: usize,
        endgame: u64,
        stones: u32,
        capture: Capture,
        report: Option<Report<'a>>,
    ) -> Result<Self, ()> {
        let mut table = Vec::new();
        table.try_reserve_exact(buckets).map_err(|_| ())?;
        table.resize(buckets, [Slot::default(); 2]);
        Ok(Kalah {
            table,
            endgame: Endgame::new(stones, capture, endgame)?,
            history: [0; P],
            capture,
            tally: Tally::new(report),
        })
    }

    /// A 64-bit fingerprint of the rows; never 0, which marks an unused slot. Four pits at a
    /// time go into one word, so a 6-pit board costs three multiplications.
    fn key(rows: &Rows<P>) -> u64 {
        let mut h = 0x2545_F491_4F6C_DD1D_u64;
        for chunk in rows.as_flattened().chunks(4) {
            let word = chunk.iter().fold(0, |w, &n| (w << 16) | u64::from(n));
            h = (h ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h | 1
    }

    fn bucket(&self, key: u64) -> usize {
        (key >> 1) as usize & (self.table.len() - 1)
    }

    fn probe(&self, rows: &Rows<P>) -> Option<Slot> {
        self.probe_key(Self::key(rows))
    }

    fn probe_key(&self, key: u64) -> Option<Slot> {
        self.table[self.bucket(key)]
            .into_iter()
            .find(|slot| slot.key == key)
    }

    /// Keeps bounds on the position of fingerprint `key`, which has `left` stones in its pits.
    fn store(&mut self, key: u64, left: i32, (lower, upper): (i32, i32), best: usize) {
        let slot = Slot {
            key,
            // Values are bounded by the stones on the board (at most 2376): they fit an i16.
            lower: lower.clamp(-INFINITY, INFINITY) as i16,
            upper: upper.clamp(-INFINITY, INFINITY) as i16,
            best: best as u8,
            left: left.clamp(0, 255) as u8,
        };
        let i = self.bucket(key);
        let bucket = &mut self.table[i];
        if bucket[1].key == key {
            bucket[1] = slot;
        } else if bucket[0].key == key || slot.left >= bucket[0].left {
            if bucket[0].key != key {
                bucket[1] = bucket[0];
            }
            bucket[0] = slot;
        } else {
            bucket[1] = slot;
        }
    }

    /// MTD(f): narrows the value of `rows` with null-window searches until the bounds meet,
    /// starting from a shallow search's estimate. On Kalah (6,4) the estimate is 7, against 8,
    /// and two passes do what six passes from 0 did (53 s against 87 s).
    ///
    /// Returns the value and a best pit (0-based): the one that won the last pass that failed
    /// high, since the value is that pass's bound.
    fn mtdf(&mut self, rows: &Rows<P>) -> (i32, Option<usize>) {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut guess = estimate(rows, estimate_depth(P), -INFINITY, INFINITY, self.capture);
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
            self.tally.bounds = (lower, upper);
        }
        (guess, best)
    }

    /// The future margin of the player to move (fail-soft alpha-beta with table bounds).
    fn value(&mut self, rows: &Rows<P>, mut alpha: i32, mut beta: i32) -> i32 {
        self.tally.visit();
        let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
        if stones <= self.endgame.limit {
            return self.endgame.exact(rows, stones);
        }
        // No one can win or lose more than the stones still in play (at most 2376).
        let left = stones as i32;
        if left <= alpha {
            return left;
        }
        if -left >= beta {
            return -left;
        }
        let key = Self::key(rows);
        let remembered = self.probe_key(key);
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
        let mut children = [((0i32, 0u64), 0usize, 0i32, false, [[0u16; P]; 2]); P];
        let mut count = 0;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let sown = sow(rows, pit, self.capture);
            let gain = sown.gain();
            let next = if sown.again || sown.over {
                sown.rows
            } else {
                [sown.rows[1], sown.rows[0]]
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
            children[count] = (rank, pit, gain, sown.again || sown.over, next);
            count += 1;
        }
        let children = &mut children[..count];
        children.sort_unstable_by_key(|child| child.0);

        // Enhanced transposition cutoff: a child already known to be good enough ends the
        // search here without descending.
        for &(_, pit, gain, same_mover, ref next) in children.iter() {
            let known = if next.iter().flatten().all(|&n| n == 0) {
                Some((0, 0))
            } else if let Some(value) = self.endgame.value(next) {
                Some((value, value))
            } else {
                self.probe(next)
                    .map(|slot| (i32::from(slot.lower), i32::from(slot.upper)))
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
                self.store(key, left, (at_least, INFINITY), pit);
                return at_least;
            }
        }

        let mut best = (-INFINITY, children[0].1);
        for &(_, pit, gain, same_mover, ref next) in children.iter() {
            let value = if next.iter().flatten().all(|&n| n == 0) {
                gain
            } else if same_mover {
                gain + self.value(next, alpha - gain, beta - gain)
            } else {
                gain - self.value(next, gain - beta, gain - alpha)
            };
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
        self.store(key, left, (lower, upper), best.1);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Player;

    #[test]
    fn small_kalah_boards_solve_to_their_published_margins() {
        let cases = [
            (solve(&Mancala::<4>::new(3)), 6),
            (solve(&Mancala::<6>::new(1)), 2),
            (solve(&Mancala::<6>::new(2)), 6),
            (solve(&Mancala::<6>::new(3)), 2),
            (solve(&Mancala::<1>::new(1)), 0),
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
                let next = solve(&game).value;
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
        let solution = solve(&Mancala::<4>::new(3));
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
            let value = solve(&Mancala::<3>::new(stones)).value;
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
    fn both_capture_rules_solve_small_boards_as_brute_force_does() {
        fn check<const P: usize>(stones: u8) {
            for capture in [Capture::Standard, Capture::Empty] {
                let game = Mancala::<P>::with_capture(stones, capture);
                let want = brute_force(&game, &mut std::collections::HashMap::new());
                let found = solve_in(&game, 4, None).unwrap();
                assert_eq!(found.value, want, "({P},{stones}) {capture:?}");
                let mut after = game.clone();
                after.sow(found.best.unwrap()).unwrap();
                let next = brute_force(&after, &mut std::collections::HashMap::new());
                let reached = if after.to_move() == game.to_move() {
                    next
                } else {
                    -next
                };
                assert_eq!(reached, want, "({P},{stones}) {capture:?}: the best move");
            }
        }
        check::<2>(3);
        check::<3>(2);
        check::<3>(3);
        check::<4>(2);
    }
}
