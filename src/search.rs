//! Exhaustive searches over the game engines: perft, which counts the move paths of an Othello
//! position to a given depth, and exact solvers for both games. Pure computation: no I/O, no
//! clocks; the driver times and prints.

use std::collections::HashMap;

use crate::bitboard::{Bits, Layout, Position};
use crate::board::Player;
use crate::mancala::Mancala;

/// The number of leaves of the game tree of `pos` at `depth` plies.
///
/// Aart Bik's convention, the one of the published tables: a pass is a ply, and a position where
/// neither player can move is one leaf whatever depth is left.
pub fn perft<L: Layout>(pos: Position<L>, depth: u32) -> u64 {
    let moves = pos.moves();
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
        return if passed.moves().is_empty() {
            1
        } else {
            perft(passed, depth - 1)
        };
    }
    moves.cells().map(|at| perft(pos.play(at), depth - 1)).sum()
}

/// The exact value of a position under perfect play, and a move that achieves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The final margin for the player to move: their discs (or stones) minus the other's.
    pub value: i32,
    /// A best move, or `None` when the player to move has none (a pass, or the end).
    pub best: Option<M>,
}

/// What a transposition-table value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// One remembered search result.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    value: i32,
    bound: Bound,
    best: Option<M>,
}

impl<M> Entry<M> {
    /// The value if it settles a search of the window (`alpha`, `beta`).
    fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        match self.bound {
            Bound::Exact => Some(self.value),
            Bound::Lower if self.value >= beta => Some(self.value),
            Bound::Upper if self.value <= alpha => Some(self.value),
            _ => None,
        }
    }

    fn new(value: i32, alpha: i32, beta: i32, best: Option<M>) -> Self {
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Entry { value, bound, best }
    }
}

/// Solves an Othello position: the final disc difference for the player to move under perfect
/// play (empty cells go to no one), and a best move.
pub fn solve_othello<L: Layout>(pos: Position<L>) -> Solution<usize> {
    let mut table = HashMap::new();
    let value = othello_value(pos, -INFINITY, INFINITY, &mut table);
    let best = table
        .get(&(pos.me, pos.opp))
        .and_then(|e: &Entry<usize>| e.best);
    Solution { value, best }
}

/// Larger than any margin either game can reach (Othello: 676 discs; Kalah: 2376 stones), and
/// small enough for an `i16`.
const INFINITY: i32 = 10_000;

/// Alpha-beta (negamax) with a transposition table; moves are tried best-known first, then by
/// how few replies they leave the opponent.
fn othello_value<L: Layout>(
    pos: Position<L>,
    mut alpha: i32,
    beta: i32,
    table: &mut HashMap<(L::Bits, L::Bits), Entry<usize>>,
) -> i32 {
    let moves = pos.moves();
    if moves.is_empty() {
        let passed = pos.pass();
        if passed.moves().is_empty() {
            return pos.me.len() as i32 - pos.opp.len() as i32;
        }
        return -othello_value(passed, -beta, -alpha, table);
    }
    let key = (pos.me, pos.opp);
    let remembered = table.get(&key).copied();
    if let Some(value) = remembered.and_then(|e| e.cutoff(alpha, beta)) {
        return value;
    }
    let first = remembered.and_then(|e| e.best);
    let mut order: Vec<(u32, usize)> = moves
        .cells()
        .map(|at| {
            let rank = if Some(at) == first {
                0
            } else {
                1 + pos.play(at).moves().len()
            };
            (rank, at)
        })
        .collect();
    order.sort_unstable();

    let window = alpha;
    let mut best = (-INFINITY, None);
    for (_, at) in order {
        let value = -othello_value(pos.play(at), -beta, -alpha, table);
        if value > best.0 {
            best = (value, Some(at));
        }
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    table.insert(key, Entry::new(best.0, window, beta, best.1));
    best.0
}

/// Solves a Kalah position: the final store margin for the player to move under perfect play
/// (stores already filled count too), and a best pit to sow.
pub fn solve_mancala<const P: usize>(game: &Mancala<P>) -> Solution<usize> {
    let mover = game.to_move();
    let rows = rows_of(game);
    let banked = game.score(mover) as i32 - game.score(mover.opponent()) as i32;
    if game.is_over() {
        return Solution {
            value: banked,
            best: None,
        };
    }
    let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
    let solve = move || {
        let mut kalah = Kalah::<P>::new((11 + stones / 3).clamp(11, 24), stones);
        let (future, best) = kalah.mtdf(&rows);
        Solution {
            value: banked + future,
            best: best.map(|pit| pit + 1),
        }
    };
    // A game of many stones can run thousands of sowings deep: give the search room to recurse.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, solve)
            .ok()
            .and_then(|thread| thread.join().ok())
    })
    .unwrap_or_else(solve)
}

/// The pits of `game` as the solver sees them, from the side of the player to move.
fn rows_of<const P: usize>(game: &Mancala<P>) -> Rows<P> {
    let row = |player: Player| -> [u16; P] {
        std::array::from_fn(|i| {
            let stones = game.pit(player, i + 1).unwrap_or(0);
            // Conservation bounds a pit by the game's stones, at most 2 * 12 * 99.
            u16::try_from(stones).unwrap_or(u16::MAX)
        })
    };
    let mover = game.to_move();
    [row(mover), row(mover.opponent())]
}

/// Both rows of a Kalah board from the side of the player to move: `[mover, other]`, each with
/// pit 1 (the player's leftmost) first.
type Rows<const P: usize> = [[u16; P]; 2];

/// What one sowing did, from the side of the player who sowed.
struct Sown<const P: usize> {
    /// The rows afterwards, still from the sower's side.
    rows: Rows<P>,
    /// Stones the sower banked, less what the other player banked by the final sweep.
    gain: i32,
    /// The last stone fell in the sower's store.
    again: bool,
    /// A row is empty: the game is over and swept.
    over: bool,
}

/// Sows the mover's pit `pit` (0-based, holding stones) by the rules of [`Mancala::sow`], on the
/// ring of the mover's pits, the mover's store and the other player's pits.
fn sow<const P: usize>(rows: &Rows<P>, pit: usize) -> Sown<P> {
    let ring = 2 * P + 1;
    let mut rows = *rows;
    let stones = usize::from(std::mem::take(&mut rows[0][pit]));
    // Whole laps put the same number in every hole of the ring.
    let (laps, rest) = (stones / ring, stones % ring);
    let laps16 = u16::try_from(laps).unwrap_or(u16::MAX);
    for n in rows.iter_mut().flatten() {
        *n += laps16;
    }
    let mut gain = laps as i32;
    // Hole h of the ring: 0..P the mover's pits, P the store, P+1.. the other's pits.
    let hole = |h: usize| h % ring;
    for step in 1..=rest {
        match hole(pit + step) {
            h if h < P => rows[0][h] += 1,
            h if h == P => gain += 1,
            h => rows[1][h - P - 1] += 1,
        }
    }
    let last = hole(pit + stones);
    let again = last == P;
    if last < P && rows[0][last] == 1 && rows[1][P - 1 - last] > 0 {
        gain += i32::from(std::mem::take(&mut rows[1][P - 1 - last])) + 1;
        rows[0][last] = 0;
    }
    let sums = rows.map(|row| row.iter().map(|&n| i32::from(n)).sum::<i32>());
    let over = sums[0] == 0 || sums[1] == 0;
    if over {
        gain += sums[0] - sums[1];
        rows = [[0; P]; 2];
    }
    Sown {
        rows,
        gain,
        again,
        over,
    }
}

/// The exact values of positions with few stones left in the pits, computed on first sight and
/// kept for good: a retrograde database filled lazily. Positions are numbered densely by their
/// stone count and then by the combinatorial rank of how the stones lie in the `2 * P` pits.
struct Endgame<const P: usize> {
    /// The most stones in the pits of a position kept here.
    limit: u32,
    /// `choose[n][k]`, for `n` up to `limit + 2 * P`.
    choose: Vec<Vec<u64>>,
    /// Value plus [`Endgame::BIAS`] by position number; 0 while not yet known.
    values: Vec<u8>,
}

impl<const P: usize> Endgame<P> {
    /// Positions the table may hold: 150 million bytes at the most.
    const CAPACITY: u64 = 150_000_000;
    /// Added to a value so that a stored value is never 0 (values lie within +-limit).
    const BIAS: i32 = 100;

    /// A table for positions of up to as many stones as fit [`Self::CAPACITY`], and fewer than
    /// the game has (a table holding the whole game would save nothing).
    fn new(stones: u32) -> Self {
        let pits = 2 * P;
        // Positions with at most k stones in `pits` pits: C(k + pits, pits).
        let choose = pascal(90 + pits + 1);
        let fits = |k: u32| k < stones && choose[k as usize + pits][pits] <= Self::CAPACITY;
        // About a third of the game's stones: a larger table fills with positions that the
        // search above it would mostly have cut off (measured on Kalah (6,3) and (5,4)).
        let limit = (0..=stones / 3)
            .take_while(|&k| fits(k))
            .last()
            .unwrap_or(0);
        let size = choose[limit as usize + pits][pits];
        Endgame {
            limit,
            choose,
            values: vec![0; usize::try_from(size).unwrap_or(0)],
        }
    }

    /// The position number of `rows`, which hold `stones` <= `limit` stones.
    fn index(&self, rows: &Rows<P>, stones: u32) -> usize {
        let pits = 2 * P;
        let mut left = stones as usize;
        // Positions with fewer stones come first.
        let mut index = if left == 0 {
            0
        } else {
            self.choose[left - 1 + pits][pits]
        };
        for (i, &n) in rows.iter().flatten().enumerate().take(pits - 1) {
            let after = pits - 1 - i;
            let n = usize::from(n);
            // Arrangements that put fewer stones in this pit, the earlier ones equal.
            index += self.choose[left + after][after] - self.choose[left - n + after][after];
            left -= n;
        }
        index as usize
    }

    /// The exact future margin of the player to move, if `rows` is small enough to keep here.
    fn value(&mut self, rows: &Rows<P>) -> Option<i32> {
        let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
        (stones <= self.limit).then(|| self.exact(rows, stones))
    }

    /// Plain minimax over the small positions, each computed once. Every sowing keeps or lowers
    /// the stones in the pits, and one that keeps them moves stones towards the mover's store,
    /// so the recursion never comes back to a position it is computing.
    fn exact(&mut self, rows: &Rows<P>, stones: u32) -> i32 {
        let index = self.index(rows, stones);
        if self.values[index] != 0 {
            return i32::from(self.values[index]) - Self::BIAS;
        }
        let mut best = -INFINITY;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let sown = sow(rows, pit);
            let left = || {
                sown.rows
                    .iter()
                    .flatten()
                    .map(|&n| u32::from(n))
                    .sum::<u32>()
            };
            let value = if sown.over {
                sown.gain
            } else if sown.again {
                sown.gain + self.exact(&sown.rows, left())
            } else {
                sown.gain - self.exact(&[sown.rows[1], sown.rows[0]], left())
            };
            best = best.max(value);
        }
        // |best| <= stones <= limit <= 90, so the biased value lies in 10..=190.
        self.values[index] = (best + Self::BIAS) as u8;
        best
    }
}

/// Pascal's triangle: `choose[n][k]` for `n` in `0..rows`, `k <= n` (0 beyond).
fn pascal(rows: usize) -> Vec<Vec<u64>> {
    let mut choose = vec![vec![0u64; rows + 1]; rows];
    for n in 0..rows {
        choose[n][0] = 1;
        for k in 1..=n {
            choose[n][k] = choose[n - 1][k - 1].saturating_add(choose[n - 1][k]);
        }
    }
    choose
}

/// A Kalah move for the player to move by a search `depth` sowings deep that scores what lies
/// past the horizon as even: the pit (1-based) with the best margin, the first of `order` among
/// equals, or `None` when the game is over.
pub fn mancala_lookahead<const P: usize>(
    game: &Mancala<P>,
    depth: u32,
    order: &[usize],
) -> Option<usize> {
    let rows = rows_of(game);
    let mut best: Option<(i32, usize)> = None;
    for &pit in order
        .iter()
        .filter(|&&pit| (1..=P).contains(&pit) && rows[0][pit - 1] > 0)
    {
        let sown = sow(&rows, pit - 1);
        let below = depth.saturating_sub(1);
        let value = if sown.over {
            sown.gain
        } else if sown.again {
            sown.gain + estimate(&sown.rows, below, -INFINITY, INFINITY)
        } else {
            let turned = [sown.rows[1], sown.rows[0]];
            sown.gain - estimate(&turned, below, -INFINITY, INFINITY)
        };
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, pit));
        }
    }
    best.map(|(_, pit)| pit)
}

/// How deep [`mancala_lookahead`] may look below each root move and stay well under a second.
pub fn lookahead_depth(pits: usize) -> u32 {
    estimate_depth(pits) - 3
}

/// How many sowings deep [`estimate`] looks: about two million positions whatever the width.
fn estimate_depth(pits: usize) -> u32 {
    // With good ordering alpha-beta visits about pits^(depth / 2) positions.
    let per_ply = (pits.max(2) as f64).ln() / 2.0;
    ((2e6f64).ln() / per_ply).clamp(1.0, 30.0) as u32
}

/// The margin for the player to move of a search `depth` sowings deep, scoring what lies past
/// the horizon as even: a cheap guess at the exact value.
fn estimate<const P: usize>(rows: &Rows<P>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return 0;
    }
    let mut best = -INFINITY;
    for pit in (0..P).rev().filter(|&pit| rows[0][pit] > 0) {
        let sown = sow(rows, pit);
        let (gain, depth) = (sown.gain, depth - 1);
        let value = if sown.over {
            gain
        } else if sown.again {
            gain + estimate(&sown.rows, depth, alpha - gain, beta - gain)
        } else {
            let turned = [sown.rows[1], sown.rows[0]];
            gain - estimate(&turned, depth, gain - beta, gain - alpha)
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

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
struct Kalah<const P: usize> {
    table: Vec<[Slot; 2]>,
    endgame: Endgame<P>,
    /// How often each pit was best, weighted by the stones at stake: the tiebreak of ordering.
    history: [u64; P],
}

impl<const P: usize> Kalah<P> {
    fn new(bits: u32, stones: u32) -> Self {
        Kalah {
            table: vec![[Slot::default(); 2]; 1 << bits],
            endgame: Endgame::new(stones),
            history: [0; P],
        }
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
        let mut guess = estimate(rows, estimate_depth(P), -INFINITY, INFINITY);
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
        }
        (guess, best)
    }

    /// The future margin of the player to move (fail-soft alpha-beta with table bounds).
    fn value(&mut self, rows: &Rows<P>, mut alpha: i32, mut beta: i32) -> i32 {
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
            let sown = sow(rows, pit);
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
                (-sown.gain, u64::MAX - self.history[pit])
            };
            children[count] = (rank, pit, sown.gain, sown.again || sown.over, next);
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
    use crate::bitboard::Side;
    use crate::othello::Othello;

    fn counts<const N: usize>(pits: &[&str], depths: usize) -> Vec<u64>
    where
        Side<N>: Layout,
    {
        let mut game = Othello::<N>::new();
        for pit in pits {
            game.add_pit(pit.parse().unwrap()).unwrap();
        }
        (1..=depths)
            .map(|d| perft(game.position(), u32::try_from(d).unwrap()))
            .collect()
    }

    #[test]
    fn perft_matches_the_published_8x8_table() {
        // Depths 11 and 12 (212258800, 1939886636) run in the benchmark.
        let want = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];
        assert_eq!(counts::<8>(&[], want.len()), want);
    }

    #[test]
    fn perft_matches_the_published_6x6_tables() {
        // Depth 11 (108820292) runs in the benchmark.
        let open = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792];
        assert_eq!(counts::<6>(&[], open.len()), open);
        let pits = ["A1", "A2", "B1", "B2", "B5", "E5", "E2"];
        let pitted = [4, 8, 20, 58, 232, 920, 3994, 18286, 83702, 397498];
        assert_eq!(counts::<6>(&pits, pitted.len()), pitted);
    }

    #[test]
    fn perft_is_the_same_on_every_side_whose_edges_it_cannot_reach() {
        // Every disc touches the one it flips, so the opening spreads slowly: within 8 plies no
        // edge of a 12x12 board or larger is in reach, and every wide layout (2 to 11 words)
        // must count exactly the same paths.
        let want = [4, 12, 56, 244, 1396, 8200, 55180, 392268];
        assert_eq!(counts::<12>(&[], 8), want);
        assert_eq!(counts::<16>(&[], 8), want);
        assert_eq!(counts::<20>(&[], 8), want);
        assert_eq!(counts::<26>(&[], 8), want);
    }

    #[test]
    fn the_4x4_board_is_a_white_win_by_8() {
        let solution = solve_othello(Othello::<4>::new().position());
        assert_eq!(solution.value, -8);
        let best = solution.best.unwrap();
        let mut game = Othello::<4>::new();
        let at = crate::board::Coord::new(best % 4, best / 4, 4).unwrap();
        assert!(game.play(at).is_ok(), "best move {at} is legal");
        // Every first move is symmetric on the empty 4x4 board, so each must also give -8.
        for first in Othello::<4>::new().legal_moves() {
            let mut g = Othello::<4>::new();
            g.play(first).unwrap();
            assert_eq!(-solve_othello(g.position()).value, -8, "after {first}");
        }
    }

    #[test]
    fn small_kalah_boards_solve_to_their_published_margins() {
        let cases = [
            (solve_mancala(&Mancala::<4>::new(3)), 6),
            (solve_mancala(&Mancala::<6>::new(1)), 2),
            (solve_mancala(&Mancala::<6>::new(2)), 6),
            (solve_mancala(&Mancala::<6>::new(3)), 2),
            (solve_mancala(&Mancala::<1>::new(1)), 0),
        ];
        for (solution, want) in cases {
            assert_eq!(solution.value, want);
        }
    }

    /// The value after each first move, from the side of the player who made it.
    fn after_each_first_move<const P: usize>(stones: u32) -> Vec<(usize, i32)> {
        (1..=P)
            .map(|pit| {
                let mut game = Mancala::<P>::new(stones);
                game.sow(pit).unwrap();
                let next = solve_mancala(&game).value;
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
        let solution = solve_mancala(&Mancala::<4>::new(3));
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
            let value = solve_mancala(&Mancala::<3>::new(stones)).value;
            assert_eq!(parity(value, 6 * stones as i32), 0, "(3,{stones}): {value}");
        }
    }
}
