//! Every position of a played game solved, for its review: in order, over one set of tables,
//! so that each solve reuses what the ones before it proved. Pure computation.

use super::round::round;
use super::{START, Test, banked, memory, on_big_stack, solve_over};
use crate::board::{Solution, TableTooLarge};
use crate::mancala::game::Mancala;
use crate::mancala::table::Shared;

/// Solves every position of a game played from `start` by sowing `pits` (1-based, each a legal
/// sowing) as [`super::solve_in`] does in `megabytes` MiB on `threads` threads: the solutions
/// of the start and of the position after each sowing. They are solved in order over one set
/// of tables, each solve reusing what the ones before it proved: on Kalah (6,4) the start's
/// tests leave most positions of a well played game known. The best pit is the one played
/// when that reaches the value, else the first in pit order that does. `solved()` hears of
/// each position solved. The error when the memory cannot be had.
///
/// # Panics
/// When a sowing is not legal.
pub fn solve_line<const P: usize>(
    start: &Mancala<P>,
    pits: &[usize],
    megabytes: usize,
    threads: usize,
    solved: &mut dyn FnMut(),
) -> Result<Vec<Solution<usize>>, TableTooLarge> {
    let mut line = vec![start.clone()];
    for &pit in pits {
        let mut next = line[line.len() - 1].clone();
        next.sow(pit).expect("a line of legal sowings");
        line.push(next);
    }
    let stones: u32 = start.rows().iter().flatten().map(|&n| u32::from(n)).sum();
    let (buckets, endgame) = memory::<P>(megabytes, stones);
    let mut shared = Shared::new(
        (buckets.min(START), buckets),
        endgame,
        stones,
        start.capture(),
        None,
    )
    .map_err(|()| TableTooLarge { megabytes })?;
    let mut found = Vec::with_capacity(line.len());
    for game in &line {
        found.push(solve_over(&mut shared, game, threads));
        solved();
    }
    for (i, game) in line.iter().enumerate().take(pits.len()) {
        let after = found[i + 1].value;
        let played = if line[i + 1].to_move() == game.to_move() {
            after
        } else {
            -after
        };
        let solution = &mut found[i];
        if played == solution.value {
            solution.best = Some(pits[i]);
        } else if solution.best.is_none() {
            // The tables held the value before a test reached it: the first pit that does.
            let rows = game.rows();
            let future = solution.value - banked(game);
            let mut histories = vec![[0; P]; threads.max(1)];
            loop {
                let test = on_big_stack(|| round(&shared, &mut histories, &rows, &[future]));
                if shared.is_crowded() {
                    // The test stopped for room: it runs again on the larger table.
                    shared.grow();
                    continue;
                }
                if let [Test::Reached(pit)] = test[..] {
                    solution.best = Some(pit + 1);
                }
                break;
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mancala::{Capture, solve_in};
    use crate::rng::Rng;

    #[test]
    fn every_position_of_a_line_has_its_own_solve_s_value_and_a_best_pit_reaching_it() {
        fn check<const P: usize>(stones: u8, capture: Capture, seed: u64) {
            let start = Mancala::<P>::with_capture(stones, capture);
            let mut rng = Rng::new(seed);
            let (mut game, mut pits) = (start.clone(), Vec::new());
            while !game.is_over() {
                let sowable: Vec<usize> = (1..=P).filter(|&n| game.rows()[0][n - 1] > 0).collect();
                let pit = sowable[rng.below(sowable.len())];
                game.sow(pit).unwrap();
                pits.push(pit);
            }
            for threads in [1, 2] {
                let mut heard = 0;
                let line = solve_line(&start, &pits, 8, threads, &mut || heard += 1).unwrap();
                assert_eq!((line.len(), heard), (pits.len() + 1, pits.len() + 1));
                let mut game = start.clone();
                for (i, found) in line.iter().enumerate() {
                    let case = format!("({P},{stones}) {capture:?} seed {seed}, position {i}");
                    let alone = solve_in(&game, 8, 1, None).unwrap();
                    assert_eq!(found.value, alone.value, "{case}");
                    let Some(&pit) = pits.get(i) else {
                        assert_eq!(found.best, None, "{case}: the game is over");
                        break;
                    };
                    // The best pit reaches the value: the played one when it does, else the
                    // first in pit order, as the solve alone finds it.
                    let reaches = |pit: usize| {
                        let mut after = game.clone();
                        after.sow(pit).unwrap();
                        let next = solve_in(&after, 8, 1, None).unwrap().value;
                        let value = if after.to_move() == game.to_move() {
                            next
                        } else {
                            -next
                        };
                        value == found.value
                    };
                    let best = found.best.expect("a position not over has a best pit");
                    if reaches(pit) {
                        assert_eq!(best, pit, "{case}");
                    } else {
                        assert_eq!(Some(best), alone.best, "{case}");
                    }
                    game.sow(pit).unwrap();
                }
            }
        }
        for seed in 1..=3 {
            check::<4>(3, Capture::Standard, seed);
            check::<3>(4, Capture::Empty, seed);
            check::<6>(2, Capture::Standard, seed);
        }
    }
}
