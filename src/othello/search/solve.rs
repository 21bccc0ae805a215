//! The exact Othello solver: the final disc difference of a position under perfect play, a best
//! move, the value of every move and a principal variation. MTD(f) at the root, a series of
//! null-window tests, over principal-variation search with a bounded transposition table
//! ([`SolveTable`]); moves are tried the table's best first, then fastest first (the fewest
//! replies left to the opponent, corners before other cells) or, far from the end, by the
//! learned evaluation on 8x8 and 6x6 (of the move's position, then of a shallow search, which
//! also gives MTD(f) its first guess; elsewhere a shallow search with the hand-set one), odd
//! regions first near the end, and the last few empty cells are played without
//! generating moves; stable discs cut off searches that cannot reach their bound. Far from
//! the end, a selective search (which takes the learned evaluation's confident verdicts for
//! results) first finds a likely value, which the exact search starts from. For the
//! computer player it also answers only whether a position is won, drawn or lost (one
//! null-window test around a draw), and gives up after a count of nodes. Pure computation: the
//! progress it reports goes to a callback, and it never looks at a clock.

use std::sync::Arc;

use super::solve_table::{Bounds, SolveTable};
use super::stable::stable;
use crate::board::{Coord, Report, Solution, TableTooLarge, Tally};
use crate::othello::engine::Bits;
use crate::othello::engine::{Fast, Layout, Position, Side};
use crate::othello::evaluation::Learned;
use crate::othello::rules::Othello;
use crate::worker;
use few::Few;
use near::NearTable;
use split::{Ending, Pool, Split};

/// Larger than any margin a board can reach (676 discs).
const INFINITY: i32 = 10_000;

/// Empty cells at and below which positions are solved by trying each empty cell in turn.
const FEW: u32 = 4;

/// Empty cells from which positions go to a table (to the near one up to [`near::NEAR`]) and
/// moves are sorted fastest first.
const SORTED: u32 = 7;

/// Empty cells from which moves are sorted by a shallow search with the hand-set evaluation,
/// on boards without a learned one.
const SHALLOW: u32 = 16;

/// The plies of that search.
const SHALLOW_DEPTH: u32 = 3;

/// How the learned evaluation sorts the moves of a position with `empties` empty cells on a
/// board of side `side` (where the board has that evaluation), or `None` where moves are
/// sorted otherwise: the plies of the search with it, and what each reply left to the other
/// player adds to a move's rank (in 1/64 disc), since the fewer replies, the likelier a cut.
/// On 8x8, two plies from 18 empty cells and the evaluation of the move's position itself from
/// 11 to 17, first at one disc a reply (measured on one thread, nodes: FFO #40-#44 240.7
/// million with one ply from 16 and no replies term, 211.6 with half a disc a reply, 193.2 with
/// a disc, 207.6 with two; with a disc, one ply from 14 173.8, from 13 167.8, from 12 163.0 but
/// slower; checked on #20-#39, 209 million to 151, and #45, 746 to 543. No ply at all from 11
/// to 17 instead of one from 13: #40-#44 131.2 to 130.4 million, #20-#39 133.2 to 123.4, #45
/// 421 to 441, at a sixth of the ordering's cost; from 10 or 12, 128.9 and 129.8; from 9,
/// 132.3; with two plies from 16 or 17, 123.4 and 126.2 but slower). On 6x6 the same from 16
/// and 11 (a position of 28 empty cells: 59 s without, 31 s with two plies from 18, 28 s from
/// 16; one ply at 16 and 17, or from 14, no better; then four positions of 26 empty cells: 466
/// million nodes with two plies from 16 and no replies term, 255 million with the evaluation
/// alone from 11 and a disc a reply, paired time 0.65; from 10, or two plies from 17 or 18, no
/// better). Since the fastest-first rank below 11 weighs as Edax's does, a reply weighs four
/// discs where the evaluation alone ranks, and two where two plies do (on 8x8): FFO #40-#44
/// 85.0 million nodes to 71.7, #20-#39 98.8 to 90.3, #40-#49 733.9 to 625.8 in 0.84 of the time
/// (two pairs); 6x6 on two threads 37.4 s to 34.8. (With two plies at one disc, two, three,
/// four, five, six or eight discs where the evaluation alone ranks gave #40-#44 79.2, 76.3,
/// 75.9, 76.7, 78.6 and 81.8 million; with four there, two plies at one and a half, two and a
/// half or three discs, 75.5, 72.1 and 72.0.) Then, with MTD(f)'s bounds even
/// ([`Solver::exact`]), three plies from 21 empty cells on 8x8 and two from 17 at two and a half
/// discs a reply: FFO #40-#49 (measured with the best move taken from the table, which takes
/// no nodes) 594.3 million nodes to 528.6, #45 253.7 to 217.8; with the best move as shipped
/// ([`Solver::best_move`]) 545.4 million, #20-#39 90.3 million. (Three plies from 22 and two
/// from 18 at two discs: 559.9 million; three from 21, 554.7; and two from 17, 532.5; from 16,
/// 518.5 but slower; three from 20, 533.0; three plies at one and a half discs a reply from
/// 21, 565.9, at one or three from 22, 576.9 and 599.9; two plies from 18 at two and a half
/// discs, 552.9; four plies from 22, 635.4 million. A window around the node's for the ranking
/// searches, as Egaroucid's (16 discs below, 6 above), 730 million.) Since the ranking
/// searches try killers first, three plies from 23 rather than 21: FFO #40-#49 388.1 million
/// nodes to 389.2, #20-#39 81.9 to 73.3, in 0.936-0.980 of the time (seven pairs, median
/// 0.963); from 22, 389.6 million in 0.94-1.04 (median 0.99); from 24, 409.4 million; two
/// plies from 16, 375.6 million in 1.04-1.10, from 18, 410.1 million.
fn learned_order(side: usize, empties: u32) -> Option<(u32, i32)> {
    match side {
        8 if empties >= 23 => Some((3, 128)),
        8 if empties >= 17 => Some((2, 160)),
        6 if empties >= 16 => Some((2, 64)),
        8 | 6 if empties >= 11 => Some((0, 256)),
        _ => None,
    }
}

/// The learned weights the solver's searches score with: the endgame's, at every phase, which
/// its ordering was tuned with (with each phase's own weights FFO #40 to #44 took 241 million
/// nodes, against 237 million).
const SOLVER_WEIGHTS: Learned = Learned::Endgame;

/// The plies of the search that gives MTD(f) its first guess.
const GUESS_DEPTH: u32 = 6;

/// Beyond any learned evaluation or final margin in its units (1/64 disc).
const INFINITY_EVAL: i32 = 1 << 24;

/// Empty cells from which a solve first finds the value by a selective search, which the
/// exact search then starts from: its guess, and the best moves it leaves in the table (FFO
/// #40-#49: 1,042 million nodes without, 767 million with, both passes counted; #20-#39 124
/// to 108 million; four 6x6 positions of 26 empty cells 110 to 89 million. From 14 instead,
/// sixty random positions of 16 empty cells took 9% more nodes; of 18, 4.5% fewer).
const SELECTIVE: u32 = 20;

/// How far outside the window (in 1/64 disc) the learned evaluation must put a position of
/// `empties` empty cells for a selective search to take it as outside: 13 discs at 14 empty
/// cells and half a disc more for each more, as the evaluation's error grows with them (its
/// one-ply value misses the exact one by 7.3 discs (standard deviation) on random 8x8
/// positions of 12 empty cells, 10.2 at 20). FFO #40-#49 and #20-#39, nodes: 14 discs at any
/// count 765 and 113 million; 12 discs 812 and 103; 16 discs 789 and 108; 12 discs at 14 and a
/// disc more for each more, 837 and 109. A second selective search, with a wider margin,
/// before the exact one saved nothing.
fn probable_margin(empties: u32) -> i32 {
    832 + 32 * (empties as i32 - 14)
}

/// Empty cells from which the table is asked about every child before any is searched. Since
/// the children's buckets are prefetched, asking is cheap: from 8 rather than 12, FFO #45 and
/// #49 visit 5-6% fewer nodes and take about 3% less time.
const ETC: u32 = 8;

/// Empty cells below which (from [`ETC`]) the transposition cutoff is tried only once the
/// first move has been searched and has not cut the node off: most of these nodes are cut off
/// by their first move, and the children's table buckets, fetched when the children were made,
/// have arrived by then (FFO #40-#49, paired: 0.91 and 0.93 of the processor time, 709 -> 728
/// million nodes; #20-#39 97.8 -> 100.1 million, 0.88 of the time; at 8 cells only, 712.7
/// million, from 8 to 10, 732.0 million). At 8 cells only since the thirteenth session: FFO
/// #40-#49 389.2 -> 383.0 million nodes, #20-#39 73.3 -> 72.5, 0.90-1.01 of the time (nine
/// pairs, median 0.97); below 11, 391.0 million, 0.97 and 1.00.
const LATE_ETC: u32 = 9;

// The children of a node that asks the table about them go to a table too: the near one holds
// none below [`SORTED`] empty cells.
const _: () = assert!(ETC > SORTED && LATE_ETC >= ETC);

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// The disc difference; empty cells (left when neither player can move) count for no one.
    /// The course's rule.
    #[default]
    Discs,
    /// The tournament rule, as in the FFO suite and Edax: empty cells go to the winner.
    EmptiesToWinner,
}

/// A solve's results for one position, in cells of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The value for the player to move, and a move that reaches it.
    pub solution: Solution<Coord>,
    /// A principal variation: perfect moves for both sides to the end, `None` for a pass.
    pub line: Vec<Option<Coord>>,
    /// The exact value of every legal move, best first.
    pub moves: Vec<(Coord, i32)>,
}

/// What to find besides the value and a best move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// A principal variation.
    pub line: bool,
    /// The value of every legal move.
    pub moves: bool,
}

/// A move being sorted: its rank (lower first), its cell and the position it leads to.
type Ranked<L> = (i32, usize, Position<L>);

/// The solver: its table, its counters and where it reports.
pub struct Solver<'a, L: Layout> {
    table: Arc<SolveTable<L>>,
    /// This thread's table of the positions nearest the end that go to one.
    near: NearTable<L>,
    scoring: Scoring,
    tally: Tally<'a>,
    /// The proof that the processor runs the AVX2 copy of the search, which is then run.
    fast: Option<Fast>,
    /// Move lists, one per count of empty cells, so that a node sorts without allocating.
    lists: Vec<Vec<Ranked<L>>>,
    /// The board's four quadrants, for the parity of the regions of empty cells.
    quadrants: [L::Bits; 4],
    corners: L::Bits,
    /// The cells diagonally next to the corners, where a move often gives the corner away.
    x_cells: L::Bits,
    /// The cells next to each cell, by bit index.
    neighbours: Vec<L::Bits>,
    /// Nodes after which the solve gives up (`u64::MAX`: never).
    limit: u64,
    /// Whether it has: every value since is meaningless, and none went to the table.
    gave_up: bool,
    /// Threads that search beside this one, from [`PARALLEL`] empty cells on (`split.rs`).
    helpers: usize,
    /// While threads search together, the splits they may join.
    pool: Option<Arc<Pool<L>>>,
    /// The split whose move this thread is searching, if any: when it stops, so does this.
    split: Option<Arc<Split<L>>>,
    /// In a selective search, the empty cells of its root: below it, a position the learned
    /// evaluation puts far outside the window is taken to be outside ([`probable_margin`]),
    /// and the table marks what is learnt as likely, not proven. `None` in an exact search.
    selective: Option<u32>,
    /// Empty cells from which a solve runs a selective search first.
    selective_from: u32,
    /// Whether a solve's best move is sought in the learned evaluation's order
    /// ([`Self::best_move`]); the computer player's by the fewest-replies rule alone.
    ranked_best: bool,
    /// In the exact search of a solve whose best move is then sought in the learned order, the
    /// empty cells of its root, whose moves go in that order too ([`Self::best_move`]).
    ordered_root: Option<u32>,
}

/// Empty cells from which a position is solved with the helper threads: below, a solve takes
/// too little time for threads to pay for their start.
const PARALLEL: u32 = 14;

/// Buckets a growing table starts with.
const START_BUCKETS: usize = 1 << 16;

/// Empty cells from which a node checks whether the table should grow.
const GROW: u32 = 10;

impl<'a, L: Layout> Solver<'a, L> {
    /// A solver of positions of at most `empties` empty cells with a table of at most
    /// `megabytes` MiB (no larger than such positions can fill), or the reason it cannot have
    /// one.
    pub fn new(megabytes: usize, empties: u32, scoring: Scoring) -> Result<Self, TableTooLarge> {
        let n = L::N;
        let cell = |col: usize, row: usize| {
            L::Bits::cell(L::index(
                Coord::new(col, row, n).expect("a cell of the board"),
            ))
        };
        let mut quadrants = [L::Bits::EMPTY; 4];
        for row in 0..n {
            for col in 0..n {
                quadrants[usize::from(row >= n / 2) * 2 + usize::from(col >= n / 2)] |=
                    cell(col, row);
            }
        }
        let corners = cell(0, 0) | cell(n - 1, 0) | cell(0, n - 1) | cell(n - 1, n - 1);
        let x_cells = cell(1, 1) | cell(n - 2, 1) | cell(1, n - 2) | cell(n - 2, n - 2);
        Ok(Solver {
            table: Arc::new(SolveTable::new(megabytes, empties)?),
            near: NearTable::new(),
            scoring,
            tally: Tally::new(None),
            fast: Fast::detect(),
            lists: Vec::new(),
            quadrants,
            corners,
            x_cells,
            neighbours: (0..n * L::STRIDE)
                .map(|i| crate::othello::engine::neighbours::<L>(L::Bits::cell(i)))
                .collect(),
            limit: u64::MAX,
            gave_up: false,
            helpers: 0,
            pool: None,
            split: None,
            selective: None,
            selective_from: SELECTIVE,
            ranked_best: true,
            ordered_root: None,
        })
    }

    /// The same solver, searching on `threads` threads that share its table (at least one).
    /// The results are the same on any number of threads; only the nodes and time differ.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.helpers = threads.max(1) - 1;
        if self.helpers > 0 {
            self.own_table().share();
        }
        self
    }

    /// The table, not yet shared with any helper (the builders run before the solve).
    fn own_table(&mut self) -> &mut SolveTable<L> {
        Arc::get_mut(&mut self.table).expect("helpers share the table only while they search")
    }

    /// A solver for a helper thread: the same table, settings and pool, its own counters.
    fn helper(&self) -> Solver<'static, L> {
        Solver {
            table: Arc::clone(&self.table),
            near: NearTable::new(),
            scoring: self.scoring,
            tally: Tally::new(None),
            fast: self.fast,
            lists: Vec::new(),
            quadrants: self.quadrants,
            corners: self.corners,
            x_cells: self.x_cells,
            neighbours: self.neighbours.clone(),
            limit: u64::MAX,
            gave_up: false,
            helpers: 0,
            pool: self.pool.clone(),
            split: None,
            selective: self.selective,
            selective_from: self.selective_from,
            ranked_best: self.ranked_best,
            ordered_root: None,
        }
    }

    /// The same solver with a table that starts small (4 MiB on 8x8) and grows as it fills, up
    /// to its size: a small search then touches little memory. The computer player's solves
    /// keep a fixed table, so that its node counts, and so its moves, never depend on growth.
    #[must_use]
    pub fn growing(mut self) -> Self {
        self.own_table().start_small(START_BUCKETS);
        self
    }

    /// What the tables know of `pos`, a position of `empties` empty cells, if anything.
    #[inline]
    fn known(&self, pos: &Position<L>, empties: u32) -> Option<Bounds> {
        if NearTable::<L>::holds(empties) {
            self.near.get(pos, empties)
        } else {
            self.table.get(pos)
        }
    }

    /// Remembers `bounds` of `pos`, a position of `empties` empty cells whose proof took
    /// `work` nodes, in the table it goes to.
    #[inline]
    fn remember(&mut self, pos: &Position<L>, empties: u32, bounds: Bounds, work: u64) {
        if NearTable::<L>::holds(empties) {
            self.near.put(pos, empties, bounds, work);
        } else {
            self.table.put(pos, empties, bounds);
        }
    }

    /// The stability cutoff: the other player keeps at least its stable discs, so the player
    /// to move in `pos` ends with at most the rest; that margin where it cannot beat `alpha`,
    /// and no search can. Tried wherever the other player has discs enough for it to cut.
    /// (Only where `alpha` was also at least twice the empty cells, as Edax does, FFO #40-#49
    /// took 545.4 million nodes and #20-#39 90.3; tried at every such node of 5 or more empty
    /// cells, 503.9 and 88.5 million in the same processor time, paired; where `alpha` was at
    /// least the empty cells, 512.5 and 90.1; the nodes of 5 and 6 empty cells saved most.
    /// Tried at 3 and 4 empty cells too, with [`NearTable`]: see [`near::NEAR`].)
    #[inline]
    fn stability_cut(pos: &Position<L>, alpha: i32) -> Option<i32> {
        let cells = (pos.me | pos.opp | pos.empty).len() as i32;
        if cells - 2 * pos.opp.len() as i32 > alpha {
            return None;
        }
        let most = cells - 2 * stable(pos, pos.opp).len() as i32;
        (most <= alpha).then_some(most)
    }

    /// Grows the table where it is crowded (while other threads search on).
    #[inline]
    fn grow_table(&self) {
        if self.table.is_crowded() {
            self.table.grow();
        }
    }

    /// Whether the search may take `known`'s bounds as they are: a selective search's are
    /// likely, not proven, so an exact search takes only its move.
    #[inline]
    fn trusts(&self, known: &Bounds) -> bool {
        !known.selective || self.selective.is_some()
    }

    /// Whether the search must end now: past its count of nodes, or the split this thread
    /// searches in is answered.
    #[inline]
    fn must_stop(&self) -> bool {
        self.tally.nodes() > self.limit
            || self.split.as_ref().is_some_and(|split| split.is_stopped())
    }

    /// [`Self::search`] of `pos` from the root of a test.
    fn probe(&mut self, pos: Position<L>, alpha: i32, beta: i32) -> i32 {
        self.search(pos, alpha, beta, pos.empty.len())
    }

    /// What `work` returns, done by this solver with its helper threads, if any, for a position
    /// of `empties` empty cells (from [`PARALLEL`]): they wait for nodes to share their moves
    /// out (`split.rs`) until the work is done, all filling the one table.
    fn together<T>(&mut self, empties: u32, work: impl FnOnce(&mut Self) -> T) -> T {
        if self.helpers == 0 || empties < PARALLEL {
            return work(self);
        }
        let pool = Arc::new(Pool::new());
        self.pool = Some(Arc::clone(&pool));
        let (found, nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..=self.helpers)
                .map(|_| {
                    let mut solver = self.helper();
                    let pool = Arc::clone(&pool);
                    worker::spawn(scope, move || {
                        solver.help(&pool);
                        solver.nodes()
                    })
                })
                .collect();
            let ending = Ending(&pool);
            let found = work(self);
            drop(ending);
            let nodes: u64 = helpers
                .into_iter()
                .map(|helper| worker::joined(helper.join()))
                .sum();
            (found, nodes)
        });
        self.pool = None;
        self.tally.add(nodes);
        found
    }

    /// The same solver, calling `report` every million nodes or so.
    #[must_use]
    pub fn reporting(mut self, report: Report<'a>) -> Self {
        self.tally = Tally::new(Some(report));
        self
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.tally.nodes()
    }

    /// The score of a finished game for the player to move.
    fn score(&self, pos: &Position<L>) -> i32 {
        self.final_score(pos.me, pos.opp, pos.empty.len())
    }

    /// [`Self::score`] of a position of `me` against `opp` with `empties` empty cells.
    #[inline]
    fn final_score(&self, me: L::Bits, opp: L::Bits, empties: u32) -> i32 {
        let discs = me.len() as i32 - opp.len() as i32;
        match self.scoring {
            Scoring::Discs => discs,
            Scoring::EmptiesToWinner => discs + discs.signum() * empties as i32,
        }
    }

    /// The cells of the quadrants of the board that hold an odd number of `empty` cells: there
    /// the player to move is likelier to have the last move.
    #[inline]
    fn odd_quadrants(&self, empty: L::Bits) -> L::Bits {
        self.quadrants
            .into_iter()
            .filter(|&q| (empty & q).len() % 2 == 1)
            .fold(L::Bits::EMPTY, |acc, q| acc | q)
    }

    /// `cells` of a position with `empty` cells in the order the last few empty cells are
    /// tried in: those in quadrants with an odd number of empty cells first; in each part
    /// corners first and the cells diagonally next to them last (FFO #40-#49: 741.5 million
    /// nodes to 709.3, with parity alone; the cells next to the corners along the edges put
    /// last too, #40-#44 84.6 million to 85.7).
    #[inline]
    fn near_order(&self, cells: L::Bits, empty: L::Bits) -> [L::Bits; 6] {
        let odd = self.odd_quadrants(empty);
        let (corners, x_cells) = (self.corners, self.x_cells);
        let plain = !(corners | x_cells);
        let (odd, even) = (cells & odd, cells & !odd);
        [
            odd & corners,
            odd & plain,
            odd & x_cells,
            even & corners,
            even & plain,
            even & x_cells,
        ]
    }

    /// The empty cells of `pos` (at most [`FEW`]), in [`Self::near_order`].
    #[inline]
    fn few_cells(&self, pos: &Position<L>) -> Few {
        let mut few = Few { cells: 0, count: 0 };
        let order = self.near_order(pos.empty, pos.empty);
        for at in order.into_iter().flat_map(|part| part.cells()) {
            few.cells |= (at as u64) << (Few::LANE * few.count);
            few.count += 1;
        }
        few
    }

    /// Whether a disc of `discs` lies next to cell `at`: a move there can flip only then.
    #[inline]
    fn touches(&self, at: usize, discs: L::Bits) -> bool {
        !(self.neighbours[at] & discs).is_empty()
    }

    /// The list of moves for a node with `empties` empty cells, taken out of the solver.
    fn take_list(&mut self, empties: u32) -> Vec<Ranked<L>> {
        let i = empties as usize;
        if self.lists.len() <= i {
            self.lists.resize_with(i + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[i]);
        list.clear();
        list
    }

    /// Puts a list taken with [`Self::take_list`] back.
    fn give_list(&mut self, empties: u32, list: Vec<Ranked<L>>) {
        self.lists[empties as usize] = list;
    }

    /// The exact value of `pos` for the player to move: MTD(f), null-window tests that close
    /// in on it from `guess`, so that the bounds known so far narrow as it runs (and are
    /// reported); the table carries what each test learnt to the next. Where every final
    /// value is even ([`Self::values_are_even`]), each bound is rounded to an even value, so that no test
    /// asks what the one before answered (FFO #49's selective search took five tests, 33.7
    /// million nodes, where four do).
    fn exact(&mut self, pos: Position<L>, guess: i32) -> i32 {
        let even_only = self.values_are_even(&pos);
        // A bound rounded to the nearest even value on the side it allows.
        let even = |value: i32, up: bool| match value.rem_euclid(2) {
            1 if even_only && up => value + 1,
            1 if even_only => value - 1,
            _ => value,
        };
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut guess = guess;
        while lower < upper && !self.gave_up {
            let beta = if guess == lower { guess + 1 } else { guess };
            let value = self.probe(pos, beta - 1, beta);
            if value < beta {
                upper = even(value, false);
                guess = upper;
            } else {
                lower = even(value, true);
                guess = lower;
            }
            // A selective search's bounds are not the value's.
            if self.selective.is_none() {
                self.tally.bounds = (lower, upper);
            }
        }
        lower
    }

    /// Whether every final value of games from `pos` is even: under the tournament rule, on a
    /// board of an even number of cells, the discs and empty cells a player ends with are the
    /// board less the other's discs, so a margin other than a draw has the parity of the board.
    fn values_are_even(&self, pos: &Position<L>) -> bool {
        let cells = (pos.me | pos.opp | pos.empty).len();
        self.scoring == Scoring::EmptiesToWinner && cells.is_multiple_of(2)
    }

    /// The value of `pos` for its player to move, in 1/64 disc, by a `depth`-ply search with
    /// the learned evaluation, through the fastest copy; `None` where the board has none.
    fn learned_value(&self, pos: Position<L>, depth: u32) -> Option<i32> {
        let moves = pos.moves();
        let (low, high) = (-INFINITY_EVAL, INFINITY_EVAL);
        let killers = &mut nodes::Killers::default();
        #[cfg(target_arch = "x86_64")]
        if self.fast.is_some() {
            // SAFETY: the token proves the processor has every feature it is built with.
            return unsafe { Self::learned_fast(pos, moves, depth, low, high, killers) };
        }
        Self::learned_portable(pos, moves, depth, low, high, killers)
    }

    /// The value of `pos` and a best move; from the solver's `selective_from` empty cells,
    /// where the board has a learned evaluation, found after a selective search.
    fn solve_position(&mut self, pos: Position<L>) -> Solution<usize> {
        if pos.moves().is_empty() && pos.pass().moves().is_empty() {
            return Solution {
                value: self.score(&pos),
                best: None,
            };
        }
        // MTD(f) closes in faster from a good guess: a shallow search's, where the board has
        // a learned evaluation, rounded to an even margin; far from the end, then a selective
        // search's from there.
        let mut guess = self
            .learned_value(pos, GUESS_DEPTH)
            .map_or(0, |value| 2 * (value as f32 / 128.0).round() as i32);
        let empties = pos.empty.len();
        if empties >= self.selective_from && learned_order(L::N, empties).is_some() {
            self.selective = Some(empties);
            guess = self.exact(pos, guess);
            self.selective = None;
        }
        self.ordered_root = self.ranked_best.then_some(empties);
        let value = self.exact(pos, guess);
        self.ordered_root = None;
        let best = if pos.moves().is_empty() {
            None
        } else {
            self.best_move(pos, value)
        };
        Solution { value, best }
    }

    /// Whether `pos` is won, drawn or lost for the player to move (a value of 1, 0 or -1) and,
    /// unless lost, a move that keeps that: one null-window test around a draw, several times
    /// cheaper than the exact value.
    fn solve_outcome(&mut self, pos: Position<L>) -> Solution<usize> {
        let value = self.probe(pos, -1, 1).signum();
        let best = if value < 0 || pos.moves().is_empty() {
            None
        } else {
            self.best_move(pos, value)
        };
        Solution { value, best }
    }
}

impl<const N: usize> Solver<'_, Side<N>>
where
    Side<N>: Layout,
{
    /// Solves `game` from its position: the value for the player to move, a best move and, as
    /// `asked`, a principal variation and the value of every move.
    pub fn analyse(&mut self, game: &Othello<N>, asked: Asked) -> Analysis {
        let pos = game.position();
        self.together(pos.empty.len(), |solver| solver.analyse_alone(pos, asked))
    }

    /// [`Self::analyse`] on the threads at work now.
    fn analyse_alone(&mut self, pos: Position<Side<N>>, asked: Asked) -> Analysis {
        let coord = Side::<N>::coord;
        let found = self.solve_position(pos);
        let line = if asked.line {
            self.line_of(pos, found.value)
                .into_iter()
                .map(|at| at.map(coord))
                .collect()
        } else {
            Vec::new()
        };
        let mut moves = Vec::new();
        if asked.moves {
            for at in pos.moves().cells() {
                let child = pos.play_unchecked(at);
                moves.push((coord(at), -self.exact(child, -found.value)));
            }
            // Best first; among equals, in board order.
            moves.sort_by_key(|&(_, value)| -value);
        }
        Analysis {
            solution: Solution {
                value: found.value,
                best: found.best.map(coord),
            },
            line,
            moves,
        }
    }
}

/// What the computer player asks the solver of an engine position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::othello) enum Question {
    /// The exact value and a best move.
    Value,
    /// Won, drawn or lost (1, 0, -1) and, unless lost, a move that keeps it so.
    Outcome,
}

/// The answer to `question` about an engine position (moves as bit indices), with a table of
/// `megabytes` MiB and the course's scoring, giving up after about `limit` nodes; `None` when
/// the solve gave up, the error when the table cannot be had.
pub(in crate::othello) fn solve_position<L: Layout>(
    pos: Position<L>,
    question: Question,
    megabytes: usize,
    limit: u64,
) -> Result<Option<Solution<usize>>, TableTooLarge> {
    let mut solver = Solver::<L>::new(megabytes, pos.empty.len(), Scoring::Discs)?;
    solver.limit = limit;
    // The computer's solves within a budget of nodes stay exact searches alone.
    solver.selective_from = u32::MAX;
    // And its moves, so its seeded games, stay the fewest-replies rule's.
    solver.ranked_best = false;
    let solution = match question {
        Question::Value => solver.solve_position(pos),
        Question::Outcome => solver.solve_outcome(pos),
    };
    Ok((!solver.gave_up).then_some(solution))
}

mod best;
mod few;
mod near;
mod nodes;
mod split;

#[cfg(test)]
mod tests;
