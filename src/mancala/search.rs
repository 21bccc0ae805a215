//! The Kalah computer's deep lookahead: iterative deepening alpha-beta over the game's ring
//! ([`sow`]) with a transposition table of a fixed size, bounded by a count of positions, never
//! a clock, so the same seed gives the same move on any machine. A sowing that ends in the
//! mover's store costs no depth. Past the horizon a position is worth a quarter of a stone for
//! each stone more on the mover's side; a subtree that reaches no horizon is exact and kept as
//! such, so a search that sees every game's end stops deepening. Pure computation, no I/O.

use super::game::{Capture, Rows, ends_in_store, fingerprint, side_stones, sow};

/// Units of a stone the search counts in.
const SCALE: i32 = 4;

/// What a stone on a player's side is worth past the horizon, in [`SCALE`] units: a quarter.
/// Measured on Kalah (6,4) at a million positions a move, against a 300,000-position player
/// without it (`arena`, 40 games on each of two seeds): a quarter +4.2 and +4.0 stones a game,
/// none +3.3 and +3.2, a half +2.9 and +3.4.
const SIDE: i32 = 1;

/// Larger than any scaled margin (4 * 2 * 12 * 255), within an `i16`.
const INFINITY: i32 = 30_000;

/// The most slots in the transposition table (a power of two): 6 MiB.
const SLOTS: usize = 1 << 18;

/// The depth of a slot whose bounds are exact: deeper than any search.
const EXACT: u8 = u8::MAX;

/// What the table keeps of a position.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    lower: i16,
    upper: i16,
    /// Sowings the bounds looked below the position, [`EXACT`] when no horizon was reached.
    depth: u8,
    /// The best pit found (0-based).
    best: u8,
}

/// A deep lookahead's state: its table, its move-ordering history and what it may still visit.
pub(super) struct Lookahead<const P: usize> {
    table: Vec<Slot>,
    capture: Capture,
    /// How often each pit was best, weighted by the depth below: the tiebreak of ordering.
    history: [u32; P],
    nodes: u64,
    budget: u64,
}

impl<const P: usize> Lookahead<P> {
    /// A search under the `capture` rule that visits at most about `budget` positions.
    pub fn new(capture: Capture, budget: u64) -> Self {
        let slots = usize::try_from(budget)
            .unwrap_or(usize::MAX)
            .next_power_of_two()
            .min(SLOTS);
        Lookahead {
            table: vec![Slot::default(); slots],
            capture,
            history: [0; P],
            nodes: 0,
            budget,
        }
    }

    /// The best pit (0-based) for the player to move in `rows`, by passes one sowing deeper
    /// each: the last pass that finished within the budget decides, or the first that saw
    /// every game's end. The root's pits are tried in `order` (0-based), the first among equals
    /// winning, with the best so far moved to the front. `None` when no pit holds stones.
    pub fn best(&mut self, rows: &Rows<P>, order: &[usize]) -> Option<usize> {
        let mut pits: Vec<usize> = order.iter().copied().filter(|&p| rows[0][p] > 0).collect();
        let mut best = pits.first().copied();
        for depth in 1..u32::from(EXACT) {
            let Some((pit, exact)) = self.root(rows, &pits, depth) else {
                break;
            };
            best = Some(pit);
            if exact {
                break;
            }
            let at = pits.iter().position(|&p| p == pit).unwrap_or(0);
            pits[..=at].rotate_right(1);
        }
        best
    }

    /// The value of sowing each of `pits` (0-based) in `rows`, for the sower, in stones: by
    /// passes one sowing deeper each, every pit with a full window, the last pass that
    /// finished within the budget deciding (the first always finishes), or the first that saw
    /// every game's end. Past the horizon the value counts the stones on each side as the
    /// search does, rounded to whole stones.
    pub fn values(&mut self, rows: &Rows<P>, pits: &[usize]) -> Vec<i32> {
        let budget = self.budget;
        let mut found = Vec::new();
        for depth in 1..u32::from(EXACT) {
            // The first pass is never cut short: a value is always found.
            self.budget = if depth == 1 { u64::MAX } else { budget };
            let mut exact = true;
            let mut values = Vec::with_capacity(pits.len());
            for &pit in pits {
                let (value, known) = self.child(rows, pit, depth - 1, -INFINITY, INFINITY);
                exact &= known;
                values.push(value);
            }
            if self.nodes > budget && depth > 1 {
                break;
            }
            found = values;
            if exact || self.nodes > budget {
                break;
            }
        }
        self.budget = budget;
        found
            .into_iter()
            .map(|value| (value + SCALE / 2).div_euclid(SCALE))
            .collect()
    }

    /// One pass at the root: the best pit and whether its value is exact, or `None` when the
    /// budget ran out first.
    fn root(&mut self, rows: &Rows<P>, pits: &[usize], depth: u32) -> Option<(usize, bool)> {
        let mut best: Option<(i32, usize)> = None;
        let mut exact = true;
        for &pit in pits {
            let alpha = best.map_or(-INFINITY, |(value, _)| value);
            let (value, known) = self.child(rows, pit, depth - 1, alpha, INFINITY);
            if self.nodes > self.budget {
                return None;
            }
            exact &= known;
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, pit));
            }
        }
        best.map(|(_, pit)| (pit, exact))
    }

    /// The value for the sower of sowing `pit` in `rows` and looking `depth` sowings below
    /// (more when it ends in the store), within (`alpha`, `beta`), and whether it is exact.
    fn child(
        &mut self,
        rows: &Rows<P>,
        pit: usize,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        let sown = sow(rows, pit, self.capture);
        let gain = sown.gain() * SCALE;
        let (same_mover, next) = sown.after();
        if sown.over {
            (gain, true)
        } else if same_mover {
            let (value, exact) = self.value(&next, depth + 1, alpha - gain, beta - gain);
            (gain + value, exact)
        } else {
            let (value, exact) = self.value(&next, depth, gain - beta, gain - alpha);
            (gain - value, exact)
        }
    }

    /// The margin for the player to move in `rows` of a search `depth` sowings deep
    /// (fail-soft within `alpha`, `beta`), and whether it reached no horizon.
    fn value(&mut self, rows: &Rows<P>, depth: u32, mut alpha: i32, mut beta: i32) -> (i32, bool) {
        self.nodes += 1;
        if depth == 0 || self.nodes > self.budget {
            let [mine, theirs] = side_stones(rows);
            // Each side holds at most the game's stones (2 * 12 * 255): the casts cannot wrap.
            return (SIDE * (mine as i32 - theirs as i32), false);
        }
        let key = fingerprint(rows);
        // The table's length is a power of two: the low bits index it.
        let index = (key as usize) & (self.table.len() - 1);
        let slot = self.table[index];
        let mut first = None;
        if slot.key == key {
            if slot.depth == EXACT || u32::from(slot.depth) >= depth {
                let exact = slot.depth == EXACT;
                let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
                if lower >= beta || lower == upper {
                    return (lower, exact);
                }
                if upper <= alpha {
                    return (upper, exact);
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            first = Some(usize::from(slot.best));
        }
        let window = (alpha, beta);
        // Try first: the remembered best, then sowings that end in the store (nearest it
        // first), then by history.
        let mut order = [(0i64, 0usize); P];
        let mut count = 0;
        for pit in (0..P).filter(|&pit| rows[0][pit] > 0) {
            let rank = if first == Some(pit) {
                i64::MIN
            } else if ends_in_store::<P>(pit, usize::from(rows[0][pit])) {
                -(1 << 40) - pit as i64
            } else {
                -i64::from(self.history[pit])
            };
            order[count] = (rank, pit);
            count += 1;
        }
        let order = &mut order[..count];
        order.sort_unstable();
        let mut best = (-INFINITY, order[0].1);
        let mut exact = true;
        for &(_, pit) in order.iter() {
            let (value, known) = self.child(rows, pit, depth - 1, alpha, beta);
            if self.nodes > self.budget {
                // The pass is abandoned: nothing below is worth keeping or visiting.
                return (0, false);
            }
            exact &= known;
            if value > best.0 {
                best = (value, pit);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let value = best.0;
        if value > window.0 {
            self.history[best.1] = self.history[best.1].saturating_add(depth * depth);
        }
        if slot.key != key || u32::from(slot.depth) <= depth || exact {
            let (lower, upper) = if value <= window.0 {
                (-INFINITY, value)
            } else if value >= window.1 {
                (value, INFINITY)
            } else {
                (value, value)
            };
            // Margins are at most 4 * 2 * 12 * 255 and depths below 255: the casts keep them.
            self.table[index] = Slot {
                key,
                lower: lower as i16,
                upper: upper as i16,
                depth: if exact { EXACT } else { depth.min(254) as u8 },
                best: best.1 as u8,
            };
        }
        (value, exact)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mancala::game::Mancala;
    use crate::mancala::solve::solve;
    use crate::rng::Rng;

    /// The solved margin, for the player who sowed, of sowing `pit` (1-based) in `game`.
    fn solved_after<const P: usize>(game: &Mancala<P>, pit: usize) -> i32 {
        let mut after = game.clone();
        after.sow(pit).unwrap();
        let value = solve(&after).unwrap().value;
        if after.to_move() == game.to_move() {
            value
        } else {
            -value
        }
    }

    /// Games of `stones` a pit after 0 to 5 random sowings: the deep lookahead, given room to
    /// see every end, plays a move worth the solved value, and within a small budget stays
    /// within it.
    fn plays_solved_moves<const P: usize>(stones: u8) {
        let mut rng = Rng::new(7);
        for case in 0..12 {
            let mut game = Mancala::<P>::new(stones);
            for _ in 0..case % 6 {
                let pits: Vec<usize> = (1..=P)
                    .filter(|&n| game.pit(game.to_move(), n) > Some(0))
                    .collect();
                if game.is_over() {
                    break;
                }
                game.sow(pits[rng.below(pits.len())]).unwrap();
            }
            if game.is_over() {
                continue;
            }
            let want = solve(&game).unwrap().value;
            let order: Vec<usize> = (0..P).collect();
            let mut search = Lookahead::<P>::new(game.capture(), 50_000_000);
            let pit = search.best(&game.rows(), &order).unwrap();
            assert_eq!(
                solved_after(&game, pit + 1),
                want,
                "({P},{stones}) case {case}"
            );
            let mut small = Lookahead::<P>::new(game.capture(), 1_000);
            assert!(small.best(&game.rows(), &order).is_some());
            assert!(small.nodes <= 1_001, "{} positions for 1,000", small.nodes);
        }
    }

    #[test]
    fn a_search_that_sees_every_end_plays_a_move_of_the_solved_value() {
        plays_solved_moves::<3>(2);
        plays_solved_moves::<4>(2);
        plays_solved_moves::<2>(4);
    }

    #[test]
    fn the_same_position_and_order_give_the_same_move() {
        // No clock and no state left from an earlier search.
        let game = Mancala::<6>::new(4);
        let order = [3, 1, 4, 0, 5, 2];
        let moves: Vec<_> = (0..2)
            .map(|_| Lookahead::<6>::new(game.capture(), 20_000).best(&game.rows(), &order))
            .collect();
        assert_eq!(moves[0], moves[1]);
    }
}
