//! One round of the exact solve's null-window tests at the root, its work dealt out as jobs:
//! a job is one test's one pit (whether sowing it reaches the test's margin), taken by
//! whichever worker is free. A test that fails is the slow kind, every pit refuted, and its
//! pits are split among the workers instead of one worker refuting them all while another
//! waits. A job that the others' results made needless is stopped. The outcome of each test
//! is what one worker alone trying the pits in order would find.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use super::{Kalah, STACK, Test};
use crate::mancala::game::{Rows, sow};
use crate::mancala::table::Shared;
use crate::worker;

/// What the workers of a round share: how far each job has come, and which each runs.
struct Jobs {
    /// For each test, each pit's result: `None` while not known, else whether it reaches.
    reached: Vec<Vec<Option<bool>>>,
    /// For each test, whether each pit's job was taken.
    taken: Vec<Vec<bool>>,
    /// The job (test, pit) each worker runs.
    running: Vec<Option<(usize, usize)>>,
}

impl Jobs {
    /// What test `t` found so far: reached by a pit when every pit before it failed, short
    /// when every pit failed, else `None`.
    fn outcome(&self, t: usize, pits: &[usize]) -> Option<Test> {
        for (k, reached) in self.reached[t].iter().enumerate() {
            match reached {
                Some(true) => return Some(Test::Reached(pits[k])),
                Some(false) => {}
                None => return None,
            }
        }
        Some(Test::Short)
    }

    /// Whether job (`t`, `k`) can still change an outcome the round needs. Of two tests (the
    /// margins rising), the lower one is needless once the higher one is reached by a pit,
    /// and the higher one once the lower is short.
    fn needed(&self, (t, k): (usize, usize), pits: &[usize]) -> bool {
        let settled = self.outcome(t, pits).is_some();
        let found_before = self.reached[t][..k].contains(&Some(true));
        let other = match t {
            0 => self.reached.get(1).is_some_and(|r| r.contains(&Some(true))),
            _ => self.outcome(0, pits) == Some(Test::Short),
        };
        !settled && !found_before && !other
    }
}

/// Runs the tests of one round, one a margin of `betas` (one or two, rising), with a worker
/// for each history in `histories` (each kept from round to round: it orders that worker's
/// moves), the first on this thread: each test's outcome, `Test::Stopped` when the other's
/// made it needless or the table asked for room.
pub(super) fn round<const P: usize>(
    shared: &Shared<'_, P>,
    histories: &mut [[u64; P]],
    rows: &Rows<P>,
    betas: &[i32],
) -> Vec<Test> {
    let pits: Vec<usize> = (0..P).filter(|&pit| rows[0][pit] > 0).collect();
    let jobs = Mutex::new(Jobs {
        reached: vec![vec![None; pits.len()]; betas.len()],
        taken: vec![vec![false; pits.len()]; betas.len()],
        running: vec![None; histories.len()],
    });
    let stops: Vec<AtomicBool> = histories.iter().map(|_| AtomicBool::new(false)).collect();
    let run = |w: usize, history: &mut [u64; P]| {
        let mut search = Kalah::with_history(shared, &stops[w], history);
        work(&mut search, w, &jobs, &stops, rows, (betas, &pits));
        *history = search.history;
    };
    let run = &run;
    std::thread::scope(|scope| {
        let (first, others) = histories.split_first_mut().expect("a round has a worker");
        let helpers: Vec<_> = others
            .iter_mut()
            .enumerate()
            .filter_map(|(i, history)| {
                worker::spawn_with_stack(scope, STACK, move || run(i + 1, history)).ok()
            })
            .collect();
        run(0, first);
        for helper in helpers {
            worker::joined(helper.join());
        }
    });
    let jobs = jobs.into_inner().unwrap_or_else(PoisonError::into_inner);
    (0..betas.len())
        .map(|t| jobs.outcome(t, &pits).unwrap_or(Test::Stopped))
        .collect()
}

/// Worker `w`'s part of a round: takes the first job still needed, in order (the lower
/// margin's pits first), runs it, and tells the others' needless jobs to stop, until no job is
/// left or the table asks for room.
fn work<const P: usize>(
    search: &mut Kalah<'_, '_, P>,
    w: usize,
    jobs: &Mutex<Jobs>,
    stops: &[AtomicBool],
    rows: &Rows<P>,
    (betas, pits): (&[i32], &[usize]),
) {
    let lock = || jobs.lock().unwrap_or_else(PoisonError::into_inner);
    while !search.shared.is_crowded() {
        let job = {
            let mut jobs = lock();
            let next = (0..betas.len())
                .flat_map(|t| (0..pits.len()).map(move |k| (t, k)))
                .find(|&(t, k)| !jobs.taken[t][k] && jobs.needed((t, k), pits));
            let Some((t, k)) = next else {
                return;
            };
            jobs.taken[t][k] = true;
            jobs.running[w] = Some((t, k));
            stops[w].store(false, Relaxed);
            (t, k)
        };
        let (t, k) = job;
        let beta = betas[t];
        let sown = sow(rows, pits[k], search.shared.capture);
        let (same_mover, next) = sown.after();
        let value = search.child(sown.gain(), same_mover, &next, beta - 1, beta);
        let stopped = search.stopped();
        let mut jobs = lock();
        jobs.running[w] = None;
        if stopped {
            continue;
        }
        jobs.reached[t][k] = Some(value >= beta);
        if let Some(outcome) = jobs.outcome(t, pits) {
            let (at_least, at_most) = outcome.bounds(beta);
            search.shared.narrow(at_least, at_most);
        }
        for (other, running) in jobs.running.iter().enumerate() {
            if let Some(job) = *running
                && !jobs.needed(job, pits)
            {
                stops[other].store(true, Relaxed);
            }
        }
    }
}
