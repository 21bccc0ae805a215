//! The solver's search itself, in three copies made by one macro, which visit the same nodes:
//! the portable one, one built for the instructions of the fast engine paths and one also for
//! AVX-512's count of leading zeros a lane, which its flips use (`flips_lzcnt`). Principal-
//! variation search over the table with enhanced transposition cutoffs, the stability cutoff,
//! moves sorted as `solve.rs` decides (by the learned evaluation, far from the end, each child
//! scored from what it shares with its siblings), down to the last few empty cells, which
//! `few.rs` searches; a node whose first move did not refute it shares its other moves out
//! when another thread waits (`split.rs`). The policy (when to sort, what the table keeps,
//! what is asked) is `solve.rs`'s.

use super::few::raise;
use super::{
    ETC, FEW, GROW, INFINITY, INFINITY_EVAL, LATE_ETC, NearTable, Ranked, SHALLOW, SHALLOW_DEPTH,
    SOLVER_WEIGHTS, SORTED, Solver, learned_order, probable_margin,
};
use crate::othello::engine::{Bits, Layout, Position, neighbours};
use crate::othello::evaluation::{Shared, learned, learned_child, learned_siblings};
use crate::othello::search::solve_table::Bounds;

/// Defines the solver's search with the given attributes and engine operations: the portable
/// copy, and one built for the instructions of the fast engine paths, which visits the same
/// nodes.
macro_rules! search_fn {
    (
        $(#[$attr:meta])*
        $search:ident, $later:ident, $rank:ident, $leaf:ident, $near:ident, $few:ident,
        $learned:ident, $moves:ident, $play:ident
    ) => {
        impl<L: Layout> Solver<'_, L> {
            /// The value of `pos` (with `empties` empty cells) within (`alpha`, `beta`), fail
            /// soft: a value at or below `alpha` is an upper bound, one at or above `beta` a
            /// lower bound.
            $(#[$attr])*
            pub(super) fn $search(&mut self, pos: Position<L>, alpha: i32, beta: i32, empties: u32) -> i32 {
                if empties <= FEW {
                    if empties == FEW
                        && let Some(most) = Self::stability_cut(&pos, alpha)
                    {
                        self.tally.visit();
                        return most;
                    }
                    return self.$few(pos.me, pos.opp, alpha, beta, self.few_cells(&pos));
                }
                self.tally.visit();
                if self.must_stop() {
                    self.gave_up = true;
                    return alpha;
                }
                if empties >= GROW {
                    self.grow_table();
                }
                if let Some(most) = Self::stability_cut(&pos, alpha) {
                    return most;
                }
                let moves = pos.$moves();
                if moves.is_empty() {
                    let passed = pos.pass();
                    if passed.$moves().is_empty() {
                        return self.score(&pos);
                    }
                    return -self.$search(passed, -beta, -alpha, empties);
                }
                if empties < SORTED {
                    return self.$near(pos, moves, alpha, beta, empties);
                }
                let (mut alpha, mut beta) = (alpha, beta);
                let mut first = None;
                // At the root of a solve's exact search, the moves go in the order its best move
                // is sought in, not the table's move first nor a child the table knows to cut:
                // the test that proves the value then proves, in that order, that the moves
                // before the best fall short, which the table keeps for the search of the best
                // move ([`Self::best_move`]).
                let root = self.ordered_root == Some(empties);
                if let Some(known) = self.known(&pos, empties) {
                    first = if root { None } else { known.best };
                    if self.trusts(&known) {
                        if known.lower >= beta {
                            return known.lower;
                        }
                        if known.upper <= alpha || known.lower == known.upper {
                            return known.upper;
                        }
                        alpha = alpha.max(known.lower);
                        beta = beta.min(known.upper);
                    }
                }
                let window = (alpha, beta);
                let start = self.tally.nodes();
                let mut list = self.take_list(empties);
                // In a selective search below its root, the best of the moves by the learned
                // evaluation (in 1/64 disc): a search one ply deeper than the ranking's.
                let probable = self.selective.is_some_and(|root| empties < root);
                let mut shallow = -INFINITY_EVAL;
                // Where the table knows a best move and its node is not cut by the learned
                // evaluation, that move is searched before the others are ranked: it usually
                // cuts the node off, and then they never are (the same ranks, the same nodes).
                let lazy = first.is_some() && !probable;
                // Every child made first, its shared table bucket (which the transposition
                // cutoff below and its own search read first) on its way into the cache before
                // any is ranked: ranking one child is too short to hide a miss behind (FFO
                // #40-#49, the same nodes, 0.94 of the time, paired).
                let shared = !NearTable::<L>::holds(empties - 1);
                for at in moves.cells() {
                    let child = pos.$play(at);
                    if shared {
                        self.table.prefetch(&child);
                    }
                    let rank = if lazy && Some(at) == first { i32::MIN } else { 0 };
                    list.push((rank, at, child));
                }
                // A lone move needs no rank either.
                if !lazy && (list.len() > 1 || probable) {
                    shallow = self.$rank(&pos, &mut list, first, empties);
                }
                // Probable cut: where the learned evaluation puts the position far enough
                // outside the window, a selective search takes it to be outside.
                if probable && shallow > -INFINITY_EVAL {
                    let margin = probable_margin(empties);
                    if shallow >= 64 * beta + margin || shallow <= 64 * alpha - margin {
                        self.give_list(empties, list);
                        return if shallow > 64 * beta { beta } else { alpha };
                    }
                }
                // Enhanced transposition cutoff: a child the table already knows to be bad
                // enough for the other player settles this node without a search. One that
                // only a selective search found bad enough is likely to: in an exact search it
                // is tried next after the table's move (FFO #40-#49 767 -> 749 million nodes,
                // #20-#39 107.6 -> 106.4). Below [`LATE_ETC`] empty cells, only once the first
                // move has been searched without cutting the node off.
                let mut cut_pending = !root && (ETC..LATE_ETC).contains(&empties);
                if empties >= ETC && !cut_pending && !root {
                    match self.transposition_cut(&list, beta, empties - 1) {
                        Err((value, _)) => {
                            self.give_list(empties, list);
                            return value;
                        }
                        Ok(likely) => promote(&mut list, likely),
                    }
                }
                let mut best = (-INFINITY, None);
                let mut next = 0;
                while next < list.len() {
                    if cut_pending && next == 1 {
                        cut_pending = false;
                        match self.transposition_cut(&list[1..], beta, empties - 1) {
                            Err((value, at)) => {
                                best = (value, Some(at));
                                break;
                            }
                            Ok(likely) => promote(&mut list[1..], likely),
                        }
                    }
                    if lazy && next == 1 {
                        self.$rank(&pos, &mut list[1..], first, empties);
                    }
                    if next > 0 && self.may_split(empties) {
                        // Another thread waits: the moves left, in their rank's order, shared
                        // out with it.
                        list[next..].sort_by_key(|&(rank, _, _)| rank);
                        let moves = list[next..].iter().map(|&(_, at, child)| (at, child)).collect();
                        match self.split(moves, alpha, beta, empties, best) {
                            Some(found) => best = found,
                            None => {
                                self.give_list(empties, list);
                                return alpha;
                            }
                        }
                        break;
                    }
                    // The best ranked of the moves left, picked when its turn comes: most nodes
                    // cut off after a move or two, so sorting them all would be wasted.
                    if let Some(pick) = (next..list.len()).min_by_key(|&j| list[j].0) {
                        list.swap(next, pick);
                    }
                    let (_, at, child) = list[next];
                    let value = if next == 0 {
                        -self.$search(child, -beta, -alpha, empties - 1)
                    } else {
                        self.$later(child, alpha, beta, empties - 1)
                    };
                    next += 1;
                    if self.gave_up {
                        // Nothing learnt here is true: leave the table as it was.
                        self.give_list(empties, list);
                        return alpha;
                    }
                    if value > best.0 {
                        best = (value, Some(at));
                        if value > alpha {
                            alpha = value;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                self.give_list(empties, list);
                let (low, high) = window;
                let value = best.0;
                self.remember(
                    &pos,
                    empties,
                    Bounds {
                        lower: if value > low { value } else { -INFINITY },
                        upper: if value < high { value } else { INFINITY },
                        best: best.1,
                        selective: self.selective.is_some(),
                    },
                    self.tally.nodes() - start,
                );
                value
            }

            /// Ranks `list`, moves of `pos` (with `empties` empty cells), lower first: the table's
            /// move `first` before all, far from the end by the learned evaluation, else fastest
            /// first. A move already ranked before all others (the table's, or one that only a
            /// selective search found to cut: [`promote`]) keeps its place. Returns the best of the
            /// moves for the player to move by the learned evaluation (in 1/64 disc), where it
            /// scored them.
            $(#[$attr])*
            #[inline]
            fn $rank(
                &self,
                pos: &Position<L>,
                list: &mut [Ranked<L>],
                first: Option<usize>,
                empties: u32,
            ) -> i32 {
                let order = learned_order(L::N, empties);
                let mut shallow = -INFINITY_EVAL;
                let odd = self.odd_quadrants(pos.empty);
                // Where the children are scored by the learned evaluation itself, each from
                // what they share with this position: the same values, fewer lookups.
                let siblings = order
                    .filter(|&(depth, _)| depth == 0)
                    .and_then(|_| learned_siblings(pos, SOLVER_WEIGHTS));
                // The children's searches share their refutations.
                let mut killers = Killers::default();
                for (rank, at, child) in list.iter_mut() {
                    if *rank <= i32::MIN + 1 {
                        continue;
                    }
                    let (at, child) = (*at, *child);
                    // The table's move reaches here only in a probable cut, which needs its
                    // evaluation too (elsewhere it is searched before the others are ranked).
                    let known = Some(at) == first;
                    let learned = order.and_then(|(depth, reply)| {
                        let replies = child.$moves();
                        let value = match &siblings {
                            Some(shared) => Self::$leaf(shared, pos.me, child, replies),
                            None => {
                                let (low, high) = (-INFINITY_EVAL, INFINITY_EVAL);
                                let killers = &mut killers;
                                Self::$learned(child, replies, depth, low, high, killers)?
                            }
                        };
                        shallow = shallow.max(-value);
                        Some(value + reply * replies.len() as i32)
                    });
                    let value = if known {
                        i32::MIN
                    } else if let Some(rank) = learned {
                        // Far from the end, what a search with the learned evaluation thinks of
                        // the move, for the other player, and the other player's replies: lower
                        // first.
                        rank
                    } else if empties >= SHALLOW {
                        // Where the board has no learned evaluation, a search with the
                        // computer's hand-set one.
                        crate::othello::search::midgame::shallow_value(child, SHALLOW_DEPTH, self.fast)
                    } else {
                        // Fastest first: the fewest replies, a move into a corner first among
                        // near equals (worth two replies, FFO #40-#44 took 167.8 million nodes,
                        // half a reply 131.2, four 232.6; #20-#39 151.0 at two, 133.2 at half;
                        // now an eighth, below).
                        let replies = child.$moves();
                        // Potential mobility: empty cells next to the mover's discs, where
                        // the other player may soon play.
                        let open = neighbours::<L>(child.opp) & child.empty;
                        // Corner stability: the mover's corners and its edge cells next to
                        // them, which no move can take back.
                        let held = child.opp & self.corners;
                        let anchored = held.len()
                            + (neighbours::<L>(held) & child.opp & !self.x_cells).len();
                        // Later among equals, a move in a quadrant with an even number of empty
                        // cells, where the other player is likelier to have the last move. The
                        // weights, in 1/64 reply, near those Edax gives the same features (a corner
                        // reply counts twice; potential mobility, parity and corner stability only
                        // part near ties): FFO #40-#49 747.8 million nodes to 733.9, #40-#44 86.6
                        // to 85.0, #20-#39 100.1 to 98.8, 0.992 of the time (three pairs). Before,
                        // a corner reply and parity weighed a quarter of a reply, potential
                        // mobility an eighth, the corner move a half, and stability nothing (parity
                        // at a quarter had taken #40-#49 from 749.1 million nodes to 741.5).
                        64 * replies.len() as i32
                            + 64 * (replies & self.corners).len() as i32
                            + 2 * open.len() as i32
                            - 8 * i32::from(self.corners.has(at))
                            + 4 * i32::from(!odd.has(at))
                            - 4 * anchored as i32
                    };
                    *rank = value;
                }
                shallow
            }

            /// The value for its parent of `child` (with `empties` empty cells), a move after
            /// the first within (`alpha`, `beta`), fail soft: a null-window test whether it beats
            /// `alpha`, searched again with the window only where its value lands inside.
            $(#[$attr])*
            #[inline]
            pub(super) fn $later(&mut self, child: Position<L>, alpha: i32, beta: i32, empties: u32) -> i32 {
                let probe = -self.$search(child, -alpha - 1, -alpha, empties);
                if probe > alpha && probe < beta {
                    -self.$search(child, -beta, -probe, empties)
                } else {
                    probe
                }
            }

            /// [`Self::learned`] with no plies left of `child`, whose player to move has
            /// `replies`, a child of a position where `me` was to move, from what the children
            /// of that position share (`shared`): the same value.
            $(#[$attr])*
            fn $leaf(shared: &Shared, me: L::Bits, child: Position<L>, replies: L::Bits) -> i32 {
                let theirs = child.pass().$moves();
                if replies.is_empty() && theirs.is_empty() {
                    return 64 * (child.me.len() as i32 - child.opp.len() as i32);
                }
                learned_child(shared, me, &child, replies, theirs)
            }

            /// The value of `pos`, whose player to move has `moves`, for that player, in 1/64
            /// disc, by a `depth`-ply alpha-beta search with the learned evaluation within
            /// (`alpha`, `beta`); `None` where the board has none. Each node tries first the move
            /// that was best at the last node of as many plies left (`killers`): within a full
            /// window the value is the same in any order, and siblings' best replies are often
            /// the same cell, which then cuts the others off.
            $(#[$attr])*
            pub(super) fn $learned(
                pos: Position<L>,
                moves: L::Bits,
                depth: u32,
                alpha: i32,
                beta: i32,
                killers: &mut Killers,
            ) -> Option<i32> {
                let passed = pos.pass();
                if moves.is_empty() {
                    let theirs = passed.$moves();
                    if theirs.is_empty() {
                        return Some(64 * (pos.me.len() as i32 - pos.opp.len() as i32));
                    }
                    if depth == 0 {
                        return learned(&pos, moves, theirs, SOLVER_WEIGHTS);
                    }
                    let value = Self::$learned(passed, theirs, depth, -beta, -alpha, killers)?;
                    return Some(-value);
                }
                if depth == 0 {
                    return learned(&pos, moves, passed.$moves(), SOLVER_WEIGHTS);
                }
                let mut shared = None;
                let mut alpha = alpha;
                let mut best = -INFINITY_EVAL;
                let slot = (depth as usize).min(killers.len() - 1);
                let killer = killers[slot].filter(|&at| moves.has(at));
                let mut best_at = None;
                let rest = moves.cells().filter(|&at| Some(at) != killer);
                for at in killer.into_iter().chain(rest) {
                    // One ply from the end, what the children share, unless the killer is
                    // tried first: it usually cuts the node off, and one child costs less
                    // scored whole.
                    if depth == 1 && shared.is_none() && (best_at.is_some() || killer.is_none()) {
                        shared = learned_siblings(&pos, SOLVER_WEIGHTS);
                    }
                    let child = pos.$play(at);
                    let replies = child.$moves();
                    let value = -match &shared {
                        Some(shared) => Self::$leaf(shared, pos.me, child, replies),
                        None => Self::$learned(child, replies, depth - 1, -beta, -alpha, killers)?,
                    };
                    if value > best {
                        best_at = Some(at);
                    }
                    if raise(&mut best, &mut alpha, beta, value) {
                        break;
                    }
                }
                killers[slot] = best_at;
                Some(best)
            }

            /// [`Self::search`] of a position with more than [`FEW`] but fewer than [`SORTED`]
            /// empty cells and some `moves`: plain alpha-beta, moves in [`Self::near_order`],
            /// each child made only when its turn comes (most nodes this near the end cut off on
            /// their first move).
            $(#[$attr])*
            fn $near(
                &mut self,
                pos: Position<L>,
                moves: L::Bits,
                alpha: i32,
                beta: i32,
                empties: u32,
            ) -> i32 {
                let order = self.near_order(moves, pos.empty);
                let mut alpha = alpha;
                let mut best = -INFINITY;
                for at in order.into_iter().flat_map(|part| part.cells()) {
                    let value = -self.$search(pos.$play(at), -beta, -alpha, empties - 1);
                    if raise(&mut best, &mut alpha, beta, value) {
                        break;
                    }
                }
                best
            }
        }
    };
}

/// By plies left (the last slot for all deeper), the move best at the last node of a learned
/// search with as many, which the next such node tries first.
pub(super) type Killers = [Option<usize>; 8];

impl<L: Layout> Solver<'_, L> {
    /// The value of `pos` within (`alpha`, `beta`), through the fastest copy of the search:
    /// where the processor has AVX-512's count of leading zeros a lane, the copy built with it
    /// (FFO #40-#49 in 0.94-1.03 of the AVX2 copy's processor time, median 0.976 over twelve
    /// pairs, the same nodes).
    pub(super) fn search(&mut self, pos: Position<L>, alpha: i32, beta: i32, empties: u32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(fast) = self.fast {
            // SAFETY: the token proves the processor has every feature each copy is built with.
            return unsafe {
                if fast.lzcnt() {
                    self.search_lzcnt(pos, alpha, beta, empties)
                } else {
                    self.search_fast(pos, alpha, beta, empties)
                }
            };
        }
        self.search_portable(pos, alpha, beta, empties)
    }

    /// [`Self::search`] of a move after a node's first: `later_lzcnt`, `later_fast` or
    /// `later_portable`.
    pub(super) fn later(&mut self, child: Position<L>, alpha: i32, beta: i32, empties: u32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(fast) = self.fast {
            // SAFETY: the token proves the processor has every feature each copy is built with.
            return unsafe {
                if fast.lzcnt() {
                    self.later_lzcnt(child, alpha, beta, empties)
                } else {
                    self.later_fast(child, alpha, beta, empties)
                }
            };
        }
        self.later_portable(child, alpha, beta, empties)
    }

    /// The enhanced transposition cutoff over the moves of `list`, children of `empties` empty
    /// cells: `Err` with the value and the move where the tables prove a child bad enough for
    /// the other player (worth `beta` or more here); else the index of the first child that
    /// only a selective search found so.
    fn transposition_cut(
        &self,
        list: &[Ranked<L>],
        beta: i32,
        empties: u32,
    ) -> Result<Option<usize>, (i32, usize)> {
        let mut likely = None;
        for (k, &(_, at, child)) in list.iter().enumerate() {
            let Some(known) = self.known(&child, empties) else {
                continue;
            };
            if -known.upper >= beta {
                if self.trusts(&known) {
                    return Err((-known.upper, at));
                }
                likely = likely.or(Some(k));
            }
        }
        Ok(likely)
    }
}

/// Moves the `likely` one of `list`'s moves (an index), which only a selective search found to
/// refute its node, to just after the table's move in the ranking.
fn promote<L: Layout>(list: &mut [Ranked<L>], likely: Option<usize>) {
    if let Some(k) = likely {
        list[k].0 = list[k].0.min(i32::MIN + 1);
    }
}

search_fn!(
    search_portable,
    later_portable,
    rank_portable,
    leaf_portable,
    near_portable,
    few_portable,
    learned_portable,
    moves,
    play_unchecked
);

#[cfg(target_arch = "x86_64")]
search_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    search_fast,
    later_fast,
    rank_fast,
    leaf_fast,
    near_fast,
    few_fast,
    learned_fast,
    moves_avx2,
    play_unchecked_avx2
);

#[cfg(target_arch = "x86_64")]
search_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512vl,avx512cd")]
    search_lzcnt,
    later_lzcnt,
    rank_lzcnt,
    leaf_lzcnt,
    near_lzcnt,
    few_lzcnt,
    learned_lzcnt,
    moves_avx2,
    play_unchecked_lzcnt
);
