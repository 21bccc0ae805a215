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
    let row = |player: Player| -> [u16; P] {
        std::array::from_fn(|i| {
            let stones = game.pit(player, i + 1).unwrap_or(0);
            // Conservation bounds a pit by the game's stones, at most 2 * 12 * 99.
            u16::try_from(stones).unwrap_or(u16::MAX)
        })
    };
    let rows = [row(mover), row(mover.opponent())];
    let banked = game.score(mover) as i32 - game.score(mover.opponent()) as i32;
    if game.is_over() {
        return Solution {
            value: banked,
            best: None,
        };
    }
    let stones: u32 = rows.iter().flatten().map(|&n| u32::from(n)).sum();
    let mut kalah = Kalah::<P>::new((12 + stones / 3).clamp(12, 24));
    let future = kalah.mtdf(&rows);
    let best = kalah.probe(&rows).map(|slot| usize::from(slot.best) + 1);
    Solution {
        value: banked + future,
        best,
    }
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

/// One transposition-table slot: bounds on a position's value and the best pit found.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    lower: i16,
    upper: i16,
    best: u8,
}

/// The Kalah solver's memory: a fixed table of slots, replaced freely.
struct Kalah<const P: usize> {
    table: Vec<Slot>,
}

impl<const P: usize> Kalah<P> {
    fn new(bits: u32) -> Self {
        Kalah {
            table: vec![Slot::default(); 1 << bits],
        }
    }

    /// A 64-bit fingerprint of the rows; never 0, which marks an unused slot.
    fn key(rows: &Rows<P>) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15_u64;
        for &n in rows.iter().flatten() {
            h = (h ^ u64::from(n))
                .wrapping_mul(0x0100_0000_01B3)
                .rotate_left(23);
        }
        h | 1
    }

    fn probe(&self, rows: &Rows<P>) -> Option<Slot> {
        let key = Self::key(rows);
        let slot = self.table[(key >> 1) as usize & (self.table.len() - 1)];
        (slot.key == key).then_some(slot)
    }

    fn store(&mut self, rows: &Rows<P>, lower: i32, upper: i32, best: usize) {
        let key = Self::key(rows);
        let len = self.table.len();
        // Values are bounded by the stones on the board (at most 2376), so they fit an i16.
        self.table[(key >> 1) as usize & (len - 1)] = Slot {
            key,
            lower: lower.clamp(-INFINITY, INFINITY) as i16,
            upper: upper.clamp(-INFINITY, INFINITY) as i16,
            best: best as u8,
        };
    }

    /// MTD(f): narrows the value of `rows` with null-window searches until the bounds meet.
    fn mtdf(&mut self, rows: &Rows<P>) -> i32 {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut guess = 0;
        while lower < upper {
            let beta = guess.max(lower + 1);
            guess = self.value(rows, beta - 1, beta);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        guess
    }

    /// The future margin of the player to move (fail-soft alpha-beta with table bounds).
    fn value(&mut self, rows: &Rows<P>, mut alpha: i32, mut beta: i32) -> i32 {
        let remembered = self.probe(rows);
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

        // Order: the remembered best, then sowings that end in the store, then the rest from
        // the pit nearest the store.
        let mut order = [(0u8, 0usize); P];
        let mut count = 0;
        for pit in (0..P).rev() {
            let n = usize::from(rows[0][pit]);
            if n == 0 {
                continue;
            }
            let rank = if Some(pit) == first {
                0
            } else if n % (2 * P + 1) == P - pit {
                1
            } else {
                2
            };
            order[count] = (rank, pit);
            count += 1;
        }
        let order = &mut order[..count];
        order.sort_by_key(|&(rank, _)| rank);

        let mut best = (-INFINITY, order[0].1);
        for &(_, pit) in order.iter() {
            let sown = sow(rows, pit);
            let value = if sown.over {
                sown.gain
            } else if sown.again {
                sown.gain + self.value(&sown.rows, alpha - sown.gain, beta - sown.gain)
            } else {
                let turned = [sown.rows[1], sown.rows[0]];
                sown.gain - self.value(&turned, sown.gain - beta, sown.gain - alpha)
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
        if best.0 <= window_alpha {
            upper = best.0;
        } else if best.0 >= window_beta {
            lower = best.0;
        } else {
            (lower, upper) = (best.0, best.0);
        }
        self.store(rows, lower, upper, best.1);
        best.0
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
        let want = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
        assert_eq!(counts::<8>(&[], want.len()), want);
    }

    #[test]
    fn perft_matches_the_published_6x6_tables() {
        let open = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912];
        assert_eq!(counts::<6>(&[], open.len()), open);
        let pits = ["A1", "A2", "B1", "B2", "B5", "E5", "E2"];
        let pitted = [4, 8, 20, 58, 232, 920, 3994, 18286, 83702, 397498];
        assert_eq!(counts::<6>(&pits, pitted.len()), pitted);
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
        ];
        for (solution, want) in cases {
            assert_eq!(solution.value, want);
        }
    }
}
