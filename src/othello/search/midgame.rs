//! The computer's midgame search: iterative deepening with principal-variation search, a small
//! transposition table whose best move is tried first, children ordered by their evaluation,
//! optionally ProbCut (`probcut.rs`), and a node budget instead of a clock, so that the same
//! seed gives the same move on any machine. The horizon is scored by the learned pattern
//! evaluation where the board has one, else by the fitted size-generic features (or, for the
//! solver's ordering, a hand-set mix of mobility, corners and discs). No I/O here.

use super::midgame_table::{Entry, Table};
use super::probcut;
use crate::board::{Coord, TableTooLarge};
use crate::othello::engine::Bits;
use crate::othello::engine::{Fast, Layout, Position};
use crate::othello::evaluation::features;
use crate::othello::evaluation::pattern::{self, Learned};
use crate::rng::Rng;

/// Worth of one disc of margin in a finished game: above any evaluation (the learned one is
/// within +-64 x 64, the hand-set one within a few thousand x 64 on 26x26).
const DISC_WIN: i32 = 1_000_000;
/// Beyond any score: 676 discs of margin are 676 million.
pub(in crate::othello) const WIN: i32 = 1_000_000_000;

/// One disc of final margin, in the evaluation's units (64ths of a disc): the unit the learned
/// weights are stored in.
pub(in crate::othello) const DISC: i32 = pattern::SCALE as i32;

/// Plies from which a node orders its moves by their children's evaluation (below, by the
/// other player's replies).
const ORDER_BY_VALUE: u32 = 3;

/// What a search may spend and how it scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::othello) struct Limits {
    /// Nodes the search may visit.
    pub budget: u64,
    /// How the horizon is scored.
    pub evaluation: Evaluation,
    /// Run the AVX2 copy of the search, on the proof that the processor has it; it visits the
    /// same nodes and finds the same values.
    pub fast: Option<Fast>,
    /// Cut nodes below the root's children by [`probcut`] (for the learned 8x8 evaluation,
    /// whose errors it was measured with).
    pub probcut: bool,
}

/// How a search scores the positions at its horizon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::othello) enum Evaluation {
    /// The hand-set mix of mobility, corners and discs (the solver's move ordering, and the
    /// training games, were made with it).
    HandSet,
    /// The size-generic fitted features ([`crate::othello::evaluation::features`]), which know pits.
    Features,
    /// The learned patterns where the board has them (8x8, 6x6), with the weights `Learned`
    /// names (each phase's own, or the endgame's at every phase: what the midgame's training
    /// games are played with, kept so that its weights can be made again); else the features.
    Patterns(Learned),
}

/// A budgeted search over positions of layout `L`.
pub(in crate::othello) struct Search<L: Layout> {
    limits: Limits,
    nodes: u64,
    table: Table<L>,
    /// Move lists by ply, kept to spare an allocation a node.
    lists: Vec<Vec<(i32, usize, Position<L>)>>,
    /// The board's anchors, for the size-generic evaluation: found once, since pits stay put.
    anchors: L::Bits,
}

/// The root's answer for one finished depth: the best move and the moves within the margin of
/// it (the best among them).
struct Finished {
    best: usize,
    close: Vec<usize>,
}

/// The root's answer for a depth the budget ran out in: the move that had proved better at that
/// depth than the depth before's best (searched first), if one had.
#[derive(Clone, Copy)]
struct Stopped {
    better: Option<usize>,
}

impl<L: Layout> Search<L> {
    /// A search within `limits` of positions on a board whose cells (all but its pits) are
    /// `cells`, with a transposition table sized to its budget, or the error when the table
    /// cannot be had.
    pub(in crate::othello) fn new(limits: Limits, cells: L::Bits) -> Result<Self, TableTooLarge> {
        Ok(Self::resumed(
            limits,
            cells,
            Table::for_budget(limits.budget)?,
        ))
    }

    /// [`Self::new`] with `table`, that of an earlier search of the same game: it starts from
    /// what that search found.
    pub(super) fn resumed(limits: Limits, cells: L::Bits, table: Table<L>) -> Self {
        Search {
            limits,
            nodes: 0,
            table,
            lists: Vec::new(),
            anchors: features::anchors::<L>(cells),
        }
    }

    /// The search's table, for a later search of the same game to resume from.
    pub(super) fn into_table(self) -> Table<L> {
        self.table
    }

    /// Iterative deepening over the root `moves` up to `depth` plies, best first after each
    /// finished depth. The move is the deepest finished depth's best, or, with `margin` above
    /// zero, one that `rng` picks among the moves whose values are within `margin` of it; but
    /// a move that proved better than that best in the depth the budget ran out in is played
    /// (a deeper search's word over a shallower one's). `None` when not even depth 1 fits the
    /// budget.
    pub(in crate::othello) fn best_move(
        &mut self,
        pos: Position<L>,
        moves: &mut [usize],
        depth: u32,
        margin: i32,
        rng: &mut Rng,
    ) -> Option<usize> {
        let mut finished = None;
        for depth in 1..=depth {
            let done = match self.root(pos, moves, depth, margin) {
                Ok(done) => done,
                Err(Stopped { better }) => {
                    if let Some(best) = better {
                        finished = Some(Finished {
                            best,
                            close: Vec::new(),
                        });
                    }
                    break;
                }
            };
            let i = moves.iter().position(|&at| at == done.best).unwrap_or(0);
            moves[..=i].rotate_right(1);
            finished = Some(done);
        }
        let done = finished?;
        Some(match done.close.len() {
            0 | 1 => done.best,
            n => done.close[rng.below(n)],
        })
    }

    /// One depth at the root: the first move with a full window; each other one first tested
    /// against the best value less `margin` (is it close?), then against the best (is it
    /// better?), and searched exactly only when better. When the budget runs out, what had
    /// proved better than the first move.
    fn root(
        &mut self,
        pos: Position<L>,
        moves: &[usize],
        depth: u32,
        margin: i32,
    ) -> Result<Finished, Stopped> {
        let (&first, rest) = moves.split_first().ok_or(Stopped { better: None })?;
        let mut best = -self
            .value(pos.play_unchecked(first), depth - 1, -WIN, WIN)
            .ok_or(Stopped { better: None })?;
        let mut best_at = first;
        // Moves with a lower bound on their value.
        let mut close: Vec<(usize, i32)> = Vec::new();
        for &at in rest {
            let child = pos.play_unchecked(at);
            let stopped = Stopped {
                better: (best_at != first).then_some(best_at),
            };
            // A lower bound on the move's value.
            let mut lower = -WIN;
            if margin > 0 {
                let floor = best - margin;
                lower = -self
                    .value(child, depth - 1, -floor, -floor + 1)
                    .ok_or(stopped)?;
                if lower < floor {
                    continue;
                }
            }
            if lower <= best {
                let test = -self
                    .value(child, depth - 1, -best - 1, -best)
                    .ok_or(stopped)?;
                if test <= best {
                    close.push((at, lower));
                    continue;
                }
                lower = test;
            }
            // `at` has proved better than the best so far.
            let value = -self
                .value(child, depth - 1, -WIN, -best)
                .ok_or(Stopped { better: Some(at) })?;
            if value > best {
                close.push((best_at, best));
                best = value;
                best_at = at;
            } else {
                close.push((at, lower));
            }
        }
        let mut close: Vec<usize> = close
            .into_iter()
            .filter(|&(_, value)| margin > 0 && value >= best - margin)
            .map(|(at, _)| at)
            .collect();
        if !close.is_empty() {
            close.insert(0, best_at);
        }
        Ok(Finished {
            best: best_at,
            close,
        })
    }

    /// The value for the player to move `depth` plies deep, or `None` once over budget.
    pub(in crate::othello) fn value(
        &mut self,
        pos: Position<L>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        // Off x86-64 there is no token.
        if self.limits.fast.is_some() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the token proves the processor has every feature it is built with.
            return unsafe { self.fast_value(pos, depth, alpha, beta, 0) };
        }
        self.portable_value(pos, depth, alpha, beta, 0)
    }

    /// A position's worth to the player to move, whose moves are `moves` and the other
    /// player's `theirs`, in 64ths of a disc (see [`DISC`]).
    #[inline]
    fn evaluate(&self, pos: &Position<L>, moves: L::Bits, theirs: L::Bits) -> i32 {
        let fitted = match self.limits.evaluation {
            Evaluation::HandSet => None,
            Evaluation::Features => features::value(pos, moves, theirs, self.anchors),
            Evaluation::Patterns(learned) => pattern::learned(pos, moves, theirs, learned)
                .or_else(|| features::value(pos, moves, theirs, self.anchors)),
        };
        fitted.unwrap_or_else(|| DISC * hand_set(pos, moves, theirs))
    }

    /// What the children of `pos` share in the learned evaluation, where the search scores
    /// with it and the board has it: their values then cost only the tables a move changes.
    #[inline]
    fn siblings(&self, pos: &Position<L>) -> Option<pattern::Shared> {
        match self.limits.evaluation {
            Evaluation::Patterns(learned) => pattern::learned_siblings(pos, learned),
            Evaluation::HandSet | Evaluation::Features => None,
        }
    }

    /// [`Self::evaluate`] of `child`, a child of the position of mover's discs `me` whose
    /// children share `shared` ([`Self::siblings`]): from that where there is one.
    #[inline]
    fn scored(
        &self,
        shared: Option<&pattern::Shared>,
        me: L::Bits,
        child: &Position<L>,
        moves: L::Bits,
        theirs: L::Bits,
    ) -> i32 {
        match shared {
            Some(shared) => pattern::learned_child(shared, me, child, moves, theirs),
            None => self.evaluate(child, moves, theirs),
        }
    }

    /// Counts a node; `None` once the budget is spent.
    #[inline]
    fn visit(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.limits.budget).then_some(())
    }

    /// The margin, shallow depth and expected gain of a ProbCut at a node `depth` plies from
    /// the horizon and `ply` from the root, or `None` where none is tried: at the root's
    /// children, or without [`Limits::probcut`]. The shallow search may cut in turn, as Edax's
    /// does (level 10 against Light: as many wins in 0.9 of the time as with it cutting nothing).
    #[inline]
    fn probcut_at(&self, pos: &Position<L>, depth: u32, ply: usize) -> Option<(i32, u32, i32)> {
        if !self.limits.probcut || ply == 0 {
            return None;
        }
        let margin = probcut::margin(depth, pos.empty.len(), DISC)?;
        Some((
            margin,
            probcut::shallow_depth(depth),
            probcut::bias(depth, DISC),
        ))
    }

    /// Remembers `pos`, searched `depth` deep with the window `(alpha, beta)`: `best` is the
    /// value found and the move that found it, a bound or exact as it falls in the window.
    fn remember(&mut self, pos: &Position<L>, depth: u32, window: (i32, i32), best: (i32, usize)) {
        let (alpha, beta) = window;
        let (value, at) = best;
        self.table.put(
            pos,
            Entry {
                me: pos.me,
                opp: pos.opp,
                lower: if value > alpha { value } else { -WIN },
                upper: if value < beta { value } else { WIN },
                // Bit indices lie below 26 * 32.
                best: at as u16,
                depth: depth.min(255) as u8,
            },
        );
    }
}

/// Defines the search's node: the portable one, and one built for the instructions of the
/// fast engine paths.
macro_rules! node_fn {
    ($(#[$attr:meta])* $name:ident, $moves:ident, $play:ident) => {
        /// The value for the player to move `depth` plies deep, or `None` once over budget;
        /// `ply` is the distance from the root.
        $(#[$attr])*
        fn $name(
            &mut self,
            pos: Position<L>,
            depth: u32,
            mut alpha: i32,
            beta: i32,
            ply: usize,
        ) -> Option<i32> {
            self.visit()?;
            let moves = pos.$moves();
            if moves.is_empty() {
                let passed = pos.pass();
                if passed.$moves().is_empty() {
                    let margin = pos.me.len() as i32 - pos.opp.len() as i32;
                    return Some(margin * DISC_WIN);
                }
                return self.$name(passed, depth, -beta, -alpha, ply).map(|v| -v);
            }
            if depth == 0 {
                return Some(self.evaluate(&pos, moves, pos.pass().$moves()));
            }
            if depth == 1 {
                // The children are scored, not searched: no table (a probe costs more than it
                // saves this near the horizon) and no order; by the learned evaluation, from
                // what they share with this position.
                let shared = self.siblings(&pos);
                let mut best = -WIN;
                for at in moves.cells() {
                    let child = pos.$play(at);
                    let replies = child.$moves();
                    // What a node at the horizon does, but for a pass, with the moves at hand.
                    let value = if replies.is_empty() {
                        -self.$name(child, 0, -beta, -alpha, ply + 1)?
                    } else {
                        self.visit()?;
                        let theirs = child.pass().$moves();
                        -self.scored(shared.as_ref(), pos.me, &child, replies, theirs)
                    };
                    best = best.max(value);
                    alpha = alpha.max(value);
                    if alpha >= beta {
                        break;
                    }
                }
                return Some(best);
            }
            let mut hint = None;
            if let Some(known) = self.table.get(&pos) {
                if u32::from(known.depth) >= depth {
                    if known.lower >= beta || known.lower == known.upper {
                        return Some(known.lower);
                    }
                    if known.upper <= alpha {
                        return Some(known.upper);
                    }
                }
                hint = (known.best != u16::MAX).then_some(usize::from(known.best));
            }
            // After the table's probe, so that a node the table answers costs no shallow
            // search (level 10's self-play on 8x8, seeds 1 to 7: 76 to 82 ms a move, against
            // 90 to 92 with the cut first).
            if let Some((margin, shallow, bias)) = self.probcut_at(&pos, depth, ply) {
                // Fail high when the shallow search, plus what the deep one is expected to add,
                // is above the window by the margin, low when below it; the evaluation of the
                // position says which to try.
                let guess = self.evaluate(&pos, moves, pos.pass().$moves());
                let cut = if guess >= beta && beta < DISC_WIN / 2 {
                    Some((beta + margin - bias, true))
                } else if guess <= alpha && alpha > -DISC_WIN / 2 {
                    Some((alpha - margin - bias, false))
                } else {
                    None
                };
                if let Some((bound, high)) = cut {
                    let (low, up) = if high { (bound - 1, bound) } else { (bound, bound + 1) };
                    let value = self.$name(pos, shallow, low, up, ply)?;
                    if high && value >= bound {
                        return Some(beta);
                    }
                    if !high && value <= bound {
                        return Some(alpha);
                    }
                }
            }
            if self.lists.len() <= ply {
                self.lists.push(Vec::new());
            }
            let mut list = std::mem::take(&mut self.lists[ply]);
            list.clear();
            let shared = if depth >= ORDER_BY_VALUE { self.siblings(&pos) } else { None };
            for at in moves.cells() {
                let child = pos.$play(at);
                let score = if Some(at) == hint {
                    i32::MAX
                } else if depth >= ORDER_BY_VALUE {
                    // The child's worth to us, as far as its evaluation tells.
                    let (replies, theirs) = (child.$moves(), child.pass().$moves());
                    -self.scored(shared.as_ref(), pos.me, &child, replies, theirs)
                } else {
                    // Fewest replies first.
                    -(child.$moves().len() as i32)
                };
                list.push((score, at, child));
            }
            // Each child looked at to order the moves costs about what a node does.
            self.nodes += list.len() as u64;
            list.sort_unstable_by(|a, b| b.0.cmp(&a.0));
            let window = (alpha, beta);
            let mut best = (-WIN, list[0].1);
            for (i, &(_, at, child)) in list.iter().enumerate() {
                let value = if i == 0 {
                    -self.$name(child, depth - 1, -beta, -alpha, ply + 1)?
                } else {
                    let test = -self.$name(child, depth - 1, -alpha - 1, -alpha, ply + 1)?;
                    if test > alpha && test < beta {
                        -self.$name(child, depth - 1, -beta, -test, ply + 1)?
                    } else {
                        test
                    }
                };
                if value > best.0 {
                    best = (value, at);
                }
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
            self.lists[ply] = list;
            self.remember(&pos, depth, window, best);
            Some(best.0)
        }
    };
}

impl<L: Layout> Search<L> {
    node_fn!(portable_value, moves, play_unchecked);

    #[cfg(target_arch = "x86_64")]
    node_fn!(
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
        fast_value,
        moves_avx2,
        play_unchecked_avx2
    );
}

/// The value of `pos` for its player to move by a plain `depth`-ply search with the hand-set
/// evaluation, no table and no budget: what the solver sorts its moves by far from the end.
pub(in crate::othello) fn shallow_value<L: Layout>(
    pos: Position<L>,
    depth: u32,
    fast: Option<Fast>,
) -> i32 {
    plain_value(pos, depth, Evaluation::HandSet, fast)
}

/// A search's value as a final disc margin: a finished game's exactly, an evaluation's
/// rounded to the nearest disc.
pub(in crate::othello) fn discs_of(value: i32) -> i32 {
    if value.abs() >= DISC_WIN {
        value / DISC_WIN
    } else {
        (value + DISC / 2).div_euclid(DISC)
    }
}

/// The final disc margin that a plain `depth`-ply search scoring its horizon with the learned
/// weights of each phase expects for the player to move in `pos` (no table, no budget;
/// rounded toward zero): half of a blended training label.
pub(in crate::othello) fn learned_margin<L: Layout>(
    pos: Position<L>,
    depth: u32,
    fast: Option<Fast>,
) -> i32 {
    let value = plain_value(pos, depth, Evaluation::Patterns(Learned::Phased), fast);
    if value.abs() >= DISC_WIN {
        value / DISC_WIN
    } else {
        value / DISC
    }
}

/// The value of `pos` for its player to move by a plain `depth`-ply search scoring its horizon
/// with `evaluation`, no table and no budget.
fn plain_value<L: Layout>(
    pos: Position<L>,
    depth: u32,
    evaluation: Evaluation,
    fast: Option<Fast>,
) -> i32 {
    let mut search = Search {
        limits: Limits {
            budget: u64::MAX,
            evaluation,
            fast,
            probcut: false,
        },
        nodes: 0,
        table: Table::none(),
        lists: Vec::new(),
        // The learned patterns need none; nor does the hand-set evaluation.
        anchors: L::Bits::EMPTY,
    };
    search.value(pos, depth, -WIN, WIN).unwrap_or(0)
}

/// The hand-set evaluation, in discs: 10 a move of mobility, 50 a corner, 1 a disc.
fn hand_set<L: Layout>(pos: &Position<L>, moves: L::Bits, theirs: L::Bits) -> i32 {
    let n = L::N;
    let corners = [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)]
        .map(|(col, row)| L::index(Coord::new(col, row, n).expect("a corner")));
    let held = |discs: L::Bits| corners.iter().filter(|&&c| discs.has(c)).count() as i32;
    let mobility = moves.len() as i32 - theirs.len() as i32;
    let discs = pos.me.len() as i32 - pos.opp.len() as i32;
    10 * mobility + 50 * (held(pos.me) - held(pos.opp)) + discs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::engine::{Fast, Side};
    use crate::othello::rules::Othello;

    /// Positions of random games on a board of side `N`, up to 40 moves in.
    fn positions<const N: usize>(count: usize, seed: u64) -> Vec<Position<Side<N>>>
    where
        Side<N>: Layout,
    {
        let mut rng = Rng::new(seed);
        (0..count)
            .filter_map(|_| {
                let mut game = Othello::<N>::new();
                for _ in 0..rng.below(40) {
                    let moves: Vec<Coord> = game.legal_moves().collect();
                    if moves.is_empty() {
                        break;
                    }
                    game.play(moves[rng.below(moves.len())]).ok()?;
                }
                let pos = game.position();
                (!pos.moves().is_empty()).then_some(pos)
            })
            .collect()
    }

    /// The move, value and node count of a `depth`-ply search of `pos` within `limits`.
    fn searched<L: Layout>(pos: Position<L>, limits: Limits, depth: u32) -> (usize, i32, u64) {
        let mut moves: Vec<usize> = pos.moves().cells().collect();
        let cells = pos.me | pos.opp | pos.empty;
        let mut search = Search::new(limits, cells).unwrap();
        let best = search.best_move(pos, &mut moves, depth, 0, &mut Rng::new(1));
        let value = Search::<L>::new(limits, cells)
            .unwrap()
            .value(pos, depth, -WIN, WIN);
        (
            best.expect("depth 1 fits"),
            value.expect("within budget"),
            search.nodes,
        )
    }

    #[test]
    fn the_fast_search_visits_the_portable_searchs_nodes() {
        let Some(token) = Fast::for_test("the_fast_search_visits_the_portable_searchs_nodes")
        else {
            return;
        };
        for (pos, probcut) in positions::<8>(20, 77)
            .into_iter()
            .zip([false, true].repeat(10))
        {
            let limits = Limits {
                budget: 1_500_000,
                evaluation: Evaluation::Patterns(Learned::Phased),
                fast: None,
                probcut,
            };
            let fast = Limits {
                fast: Some(token),
                ..limits
            };
            assert_eq!(searched(pos, fast, 6), searched(pos, limits, 6));
        }
    }

    #[test]
    fn probcut_visits_far_fewer_nodes_and_stays_near_the_full_value() {
        // On 8x8 positions of random games with more than 24 empty cells, a ProbCut search of 8
        // plies visits under two fifths of the full search's nodes, its values stay near the
        // full ones, and it mostly picks the same move.
        let limits = Limits {
            budget: u64::MAX,
            evaluation: Evaluation::Patterns(Learned::Phased),
            fast: Fast::detect(),
            probcut: false,
        };
        let cut = Limits {
            probcut: true,
            ..limits
        };
        let (mut full_nodes, mut cut_nodes, mut off, mut same) = (0, 0, 0, 0);
        let positions: Vec<_> = positions::<8>(40, 9)
            .into_iter()
            .filter(|pos| pos.empty.len() > 24)
            .take(16)
            .collect();
        for &pos in &positions {
            let (full_at, full, nodes) = searched(pos, limits, 8);
            full_nodes += nodes;
            let (cut_at, value, nodes) = searched(pos, cut, 8);
            cut_nodes += nodes;
            off += (value - full).abs();
            same += usize::from(cut_at == full_at);
        }
        let mean_off = f64::from(off) / f64::from(DISC) / positions.len() as f64;
        // Measured: 555,603 nodes of 1,998,036, 0.36 discs off, the same move in 16 (with a
        // shallow search a quarter as deep that cut nothing itself: 608,119, 0.57, 15).
        assert_eq!(positions.len(), 16);
        assert!(
            cut_nodes * 5 < full_nodes * 2,
            "{cut_nodes} of {full_nodes} nodes"
        );
        assert!(mean_off < 2.5, "{mean_off:.2} discs off on average");
        assert!(same >= 10, "the same move in {same} of 16");
    }

    /// The value of `pos` by a plain minimax of `depth` plies, each position at the horizon
    /// scored from scratch by `search`'s evaluation.
    fn minimax<L: Layout>(search: &Search<L>, pos: Position<L>, depth: u32) -> i32 {
        let moves = pos.moves();
        if moves.is_empty() {
            let passed = pos.pass();
            if passed.moves().is_empty() {
                return (pos.me.len() as i32 - pos.opp.len() as i32) * DISC_WIN;
            }
            return -minimax(search, passed, depth);
        }
        if depth == 0 {
            return search.evaluate(&pos, moves, pos.pass().moves());
        }
        moves
            .cells()
            .map(|at| -minimax(search, pos.play_unchecked(at), depth - 1))
            .max()
            .expect("a move")
    }

    #[test]
    fn the_search_finds_the_minimax_value_and_a_move_that_has_it() {
        // With the table, the order, the null windows and the children scored from what they
        // share, the value is still the minimax one, and the chosen move is worth it; on 6x6
        // and 10x10 as well as 8x8, by the hand-set evaluation and by the learned one.
        fn check<L: Layout>(positions: Vec<Position<L>>, evaluation: Evaluation) {
            let limits = Limits {
                budget: u64::MAX,
                evaluation,
                fast: Fast::detect(),
                probcut: false,
            };
            for pos in positions {
                let plain = Search::new(limits, pos.me | pos.opp | pos.empty).unwrap();
                let (at, value, _) = searched(pos, limits, 4);
                assert_eq!(value, minimax(&plain, pos, 4));
                assert_eq!(-minimax(&plain, pos.play_unchecked(at), 3), value);
            }
        }
        check(positions::<6>(15, 3), Evaluation::HandSet);
        check(positions::<8>(15, 4), Evaluation::HandSet);
        check(positions::<10>(5, 5), Evaluation::HandSet);
        let learned = Evaluation::Patterns(Learned::Phased);
        check(positions::<6>(15, 6), learned);
        check(positions::<8>(15, 7), learned);
    }

    #[test]
    fn a_search_resumed_two_plies_on_keeps_the_value_in_fewer_nodes() {
        // Each side of a game keeps its table from one move to its next (computer.rs's
        // `Memory`). Two plies on, along the line the earlier search expected, a search that
        // starts from that table visits fewer nodes than a new one: the depths the earlier one
        // reached come from its table. Without ProbCut it finds a move of the new search's
        // value; with it (level 10's search) it saves the more.
        for (probcut, depth) in [(false, 6), (true, 8)] {
            let limits = Limits {
                budget: u64::MAX,
                evaluation: Evaluation::Patterns(Learned::Phased),
                fast: Fast::detect(),
                probcut,
            };
            let (mut fresh_nodes, mut resumed_nodes, mut checked) = (0, 0, 0);
            for pos in positions::<8>(40, 21)
                .into_iter()
                .filter(|pos| pos.empty.len() > 20)
                .take(12)
            {
                let cells = pos.me | pos.opp | pos.empty;
                let mut earlier = Search::new(limits, cells).unwrap();
                let mut moves: Vec<usize> = pos.moves().cells().collect();
                let at = earlier.best_move(pos, &mut moves, depth, 0, &mut Rng::new(1));
                let reply = pos.play_unchecked(at.expect("a move"));
                // The answer the earlier search expected, as the opponent mostly plays.
                let expected = earlier
                    .table
                    .get(&reply)
                    .map(|known| usize::from(known.best));
                let Some(answer) = expected.filter(|&answer| reply.moves().has(answer)) else {
                    continue;
                };
                let later = reply.play_unchecked(answer);
                if later.moves().is_empty() {
                    continue;
                }
                let (_, value, nodes) = searched(later, limits, depth);
                fresh_nodes += nodes;
                let mut resumed = Search::resumed(limits, cells, earlier.into_table());
                let mut moves: Vec<usize> = later.moves().cells().collect();
                let at = resumed.best_move(later, &mut moves, depth, 0, &mut Rng::new(1));
                resumed_nodes += resumed.nodes;
                if !probcut {
                    let child = later.play_unchecked(at.expect("a move"));
                    let mut plain = Search::new(limits, cells).unwrap();
                    let found = plain.value(child, depth - 1, -WIN, WIN);
                    assert_eq!(-found.expect("within budget"), value);
                }
                checked += 1;
            }
            // Measured: 185,980 nodes against 197,327 in 8 positions without ProbCut; 753,982
            // against 864,647 in 12 with it.
            assert!(checked >= 8, "{checked} positions");
            assert!(
                resumed_nodes < fresh_nodes,
                "ProbCut {probcut}: {resumed_nodes} nodes resumed, {fresh_nodes} new"
            );
        }
    }

    #[test]
    fn a_depth_cut_short_names_only_a_move_that_proved_better_than_the_first() {
        // The budget runs out at points spread over a depth: what the root then names, if
        // anything, is a move whose value at that depth is above the first move's (searched
        // first, the depth before's best). Measured: 39 of the cut-short depths name one.
        let limits = Limits {
            budget: u64::MAX,
            evaluation: Evaluation::Patterns(Learned::Phased),
            fast: Fast::detect(),
            probcut: false,
        };
        let depth = 5;
        let mut named = 0;
        for pos in positions::<8>(30, 33)
            .into_iter()
            .filter(|pos| pos.empty.len() > 20)
            .take(8)
        {
            let cells = pos.me | pos.opp | pos.empty;
            let full = |at: usize| {
                let value = Search::new(limits, cells).unwrap().value(
                    pos.play_unchecked(at),
                    depth - 1,
                    -WIN,
                    WIN,
                );
                -value.expect("within budget")
            };
            let mut moves: Vec<usize> = pos.moves().cells().collect();
            let mut search = Search::new(limits, cells).unwrap();
            search.best_move(pos, &mut moves, depth - 1, 0, &mut Rng::new(1));
            let first = full(moves[0]);
            let mut whole = Search::new(limits, cells).unwrap();
            let total = whole.root(pos, &moves, depth, 0).ok().map(|_| whole.nodes);
            let total = total.expect("within budget");
            for budget in (1..total).step_by((total / 40).max(1) as usize) {
                let mut cut = Search::new(Limits { budget, ..limits }, cells).unwrap();
                let Err(Stopped { better }) = cut.root(pos, &moves, depth, 0) else {
                    panic!("{budget} of {total} nodes finished the depth");
                };
                if let Some(at) = better {
                    assert_ne!(at, moves[0]);
                    assert!(full(at) > first, "{at} is not better than {}", moves[0]);
                    named += 1;
                }
            }
        }
        assert!(named > 0, "no depth cut short had a better move");
    }
}
