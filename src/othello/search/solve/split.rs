//! Several threads on one solve, by sharing out the moves of a node (young brothers wait): once
//! a node's first move has been searched without refuting it, a thread that sees another
//! waiting hands the node's other moves to a [`Split`], and every thread that joins it takes
//! the next of them until none is left or one refutes the node, which stops the others there
//! and in every split opened below it. A thread whose own moves are done waits for those who
//! still search its split, and meanwhile joins only splits opened below it, so that it returns
//! as soon as its node is answered. The threads share the solver's table; what a stopped
//! search found goes nowhere.

use std::ptr;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};

use super::Solver;
use crate::othello::engine::{Layout, Position};

/// Empty cells from which a node shares its moves out: below, a move's search takes too little
/// time to pay for the handing over.
const SPLIT: u32 = 12;

/// The threads of one search and the splits they may join.
pub(super) struct Pool<L: Layout> {
    open: Mutex<Open<L>>,
    /// Rung when a split opens, when a thread leaves one and when the search ends.
    wake: Condvar,
    /// Threads waiting for work: the idle ones and the owners of splits still searched.
    waiting: AtomicUsize,
}

/// The splits with moves left to join, and whether the search is over.
struct Open<L: Layout> {
    splits: Vec<Arc<Split<L>>>,
    over: bool,
}

/// A node whose moves left (after the first) are shared out among threads.
pub(super) struct Split<L: Layout> {
    /// The moves left, in the order they are taken: the cell and the position it leads to.
    moves: Vec<(usize, Position<L>)>,
    beta: i32,
    /// The node's empty cells.
    empties: u32,
    /// The search's selective root, if it is one ([`Solver::selective`]), which every thread
    /// that joins searches as.
    selective: Option<u32>,
    /// The split whose moves the thread that opened this one was searching, if any.
    parent: Option<Arc<Split<L>>>,
    progress: Mutex<Progress>,
    /// Set when a move refutes the node here or in a split above: every search below ends.
    stop: AtomicBool,
    /// The splits opened below this one, to be stopped with it.
    children: Mutex<Vec<Weak<Split<L>>>>,
}

/// How far a split's search has come.
struct Progress {
    /// The next move to take.
    next: usize,
    alpha: i32,
    /// The best value found and its move.
    best: (i32, Option<usize>),
    /// Threads searching its moves, its owner included.
    workers: usize,
}

/// `mutex`'s guard: a thread that panicked holding it leaves nothing half written, and its panic
/// reaches the joining thread anyway.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<L: Layout> Pool<L> {
    pub(super) fn new() -> Self {
        Pool {
            open: Mutex::new(Open {
                splits: Vec::new(),
                over: false,
            }),
            wake: Condvar::new(),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Waits as `solver`'s thread, joining the first split with moves left that `within`
    /// allows, until `done` says so (asked with the lock held, so that no wake is missed).
    fn wait(
        &self,
        solver: &mut Solver<'_, L>,
        within: impl Fn(&Split<L>) -> bool,
        done: impl Fn(&Open<L>) -> bool,
    ) {
        let mut open = lock(&self.open);
        self.waiting.fetch_add(1, SeqCst);
        while !done(&open) {
            let job = open
                .splits
                .iter()
                .find(|split| split.has_work() && within(split))
                .cloned();
            let Some(job) = job else {
                open = self.wake.wait(open).unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            lock(&job.progress).workers += 1;
            self.waiting.fetch_sub(1, SeqCst);
            drop(open);
            solver.work_in(self, &job);
            open = lock(&self.open);
            self.waiting.fetch_add(1, SeqCst);
        }
        self.waiting.fetch_sub(1, SeqCst);
    }
}

/// A thread's work in a split, which it leaves when this is dropped (also by a panic, so that
/// the split's owner never waits for a thread that is gone).
struct Joined<'s, L: Layout> {
    pool: &'s Pool<L>,
    split: &'s Split<L>,
}

impl<L: Layout> Drop for Joined<'_, L> {
    fn drop(&mut self) {
        let _open = lock(&self.pool.open);
        lock(&self.split.progress).workers -= 1;
        self.pool.wake.notify_all();
    }
}

/// Ends a pool's search when dropped (also by a panic, so that no helper waits for ever).
pub(super) struct Ending<'p, L: Layout>(pub(super) &'p Pool<L>);

impl<L: Layout> Drop for Ending<'_, L> {
    fn drop(&mut self) {
        lock(&self.0.open).over = true;
        self.0.wake.notify_all();
    }
}

impl<L: Layout> Split<L> {
    /// Whether a thread joining now would find a move to search.
    fn has_work(&self) -> bool {
        !self.is_stopped() && lock(&self.progress).next < self.moves.len()
    }

    /// The next move's index and the window's lower end, if any is left.
    fn take(&self) -> Option<(usize, i32)> {
        let mut progress = lock(&self.progress);
        if self.is_stopped() || progress.next >= self.moves.len() {
            return None;
        }
        progress.next += 1;
        Some((progress.next - 1, progress.alpha))
    }

    /// Records that move `at` is worth `value`; whether that refutes the node, in which case
    /// every search below it stops.
    fn record(&self, value: i32, at: usize) -> bool {
        let mut progress = lock(&self.progress);
        if value > progress.best.0 {
            progress.best = (value, Some(at));
            progress.alpha = progress.alpha.max(value);
        }
        let refuted = progress.alpha >= self.beta;
        drop(progress);
        if refuted {
            self.halt();
        }
        refuted
    }

    /// Stops every search of this split and of the splits below it.
    fn halt(&self) {
        self.stop.store(true, SeqCst);
        for child in lock(&self.children).iter() {
            if let Some(child) = child.upgrade() {
                child.halt();
            }
        }
    }

    /// Whether this split was opened below `other` (or is it).
    fn descends_from(&self, other: &Split<L>) -> bool {
        let mut at = Some(self);
        while let Some(split) = at {
            if ptr::eq(split, other) {
                return true;
            }
            at = split.parent.as_deref();
        }
        false
    }

    /// Whether its search was stopped.
    pub(super) fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

impl<L: Layout> Solver<'_, L> {
    /// Whether a node of `empties` empty cells, its first move searched, should share out its
    /// other moves: a thread is waiting for work.
    #[inline]
    pub(super) fn may_split(&self, empties: u32) -> bool {
        empties >= SPLIT
            && self
                .pool
                .as_ref()
                .is_some_and(|pool| pool.waiting.load(Relaxed) > 0)
    }

    /// The best of `moves` (in the order given) of a node of `empties` empty cells within
    /// (`alpha`, `beta`), fail soft, and its move, searched by this thread and any that join;
    /// `None` (and the solver given up) when a search above stopped this one.
    pub(super) fn split(
        &mut self,
        moves: Vec<(usize, Position<L>)>,
        alpha: i32,
        beta: i32,
        empties: u32,
        best: (i32, Option<usize>),
    ) -> Option<(i32, Option<usize>)> {
        let pool = Arc::clone(self.pool.as_ref()?);
        let split = Arc::new(Split {
            moves,
            beta,
            empties,
            selective: self.selective,
            parent: self.split.clone(),
            progress: Mutex::new(Progress {
                next: 0,
                alpha,
                best,
                workers: 1,
            }),
            stop: AtomicBool::new(false),
            children: Mutex::new(Vec::new()),
        });
        if let Some(parent) = &split.parent {
            lock(&parent.children).push(Arc::downgrade(&split));
            // Stopped before it knew of this one: stop it too.
            if parent.is_stopped() {
                split.halt();
            }
        }
        lock(&pool.open).splits.push(Arc::clone(&split));
        pool.wake.notify_all();
        self.work_in(&pool, &split);
        lock(&pool.open)
            .splits
            .retain(|other| !Arc::ptr_eq(other, &split));
        pool.wait(
            self,
            |job| job.descends_from(&split),
            |_| lock(&split.progress).workers == 0,
        );
        // Only a stop from above (or the count of nodes) makes the answer unknown.
        self.gave_up = self.must_stop();
        if let Some(parent) = &split.parent {
            lock(&parent.children).retain(|child| !ptr::eq(child.as_ptr(), Arc::as_ptr(&split)));
        }
        (!self.gave_up).then(|| lock(&split.progress).best)
    }

    /// Works on `split`, whose worker count already counts this thread, as its context and in
    /// its kind of search, and leaves it (also by a panic); the thread's own context after.
    fn work_in(&mut self, pool: &Pool<L>, split: &Arc<Split<L>>) {
        let joined = Joined { pool, split };
        let outer = self.split.replace(Arc::clone(split));
        let kind = std::mem::replace(&mut self.selective, split.selective);
        self.gave_up = false;
        self.work_on(split);
        self.split = outer;
        self.selective = kind;
        drop(joined);
    }

    /// Searches `split`'s moves, one after another as they are taken, until none is left, one
    /// refutes the node or the search is stopped.
    fn work_on(&mut self, split: &Split<L>) {
        let beta = split.beta;
        let empties = split.empties - 1;
        while let Some((k, alpha)) = split.take() {
            let (at, child) = split.moves[k];
            let value = self.later(child, alpha, beta, empties);
            if self.gave_up || split.record(value, at) {
                return;
            }
        }
    }

    /// A helper thread's life: joining any split with moves left until the search ends.
    pub(super) fn help(&mut self, pool: &Pool<L>) {
        pool.wait(self, |_| true, |open| open.over);
    }
}
