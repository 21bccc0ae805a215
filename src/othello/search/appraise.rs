//! What the review of a finished game asks of the engine: the value of every legal move of a
//! position, for the player who would make it, in discs: exact once few cells are empty (the
//! solver), the estimate of a level's search before that. Pure computation, no I/O.

use super::computer::{Strength, plan};
use super::midgame::{Search, WIN, discs_of};
use super::solve::{Asked, Scoring, Solver};
use crate::board::{Coord, TableTooLarge, Value};
use crate::othello::engine::{Bits, Layout, Side};
use crate::othello::rules::Othello;

/// How moves are valued: exactly from `exact_from` empty cells, by `level`'s search before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appraisal {
    /// Empty cells from which values are exact.
    pub exact_from: u32,
    /// The computer's level whose search estimates the rest.
    pub level: u32,
    /// Threads for the exact solves.
    pub threads: usize,
    /// The solver's table, in MiB.
    pub hash_mb: usize,
}

/// The nodes the estimates of one position may take, in node budgets of the level's search
/// for a move: each move is searched to the same depth, with a full window.
const ESTIMATE_BUDGETS: u64 = 4;

/// The value of every legal move of `game`'s player to move, best first (among equals, in
/// board order); empty when the player must pass or the game is over. The error when the
/// tables cannot be had.
pub fn move_values<const N: usize>(
    game: &Othello<N>,
    how: Appraisal,
) -> Result<Vec<(Coord, Value)>, TableTooLarge>
where
    Side<N>: Layout,
{
    let pos = game.position();
    let empties = pos.empty.len();
    let mut values = if empties <= how.exact_from {
        let mut solver = Solver::<Side<N>>::new(how.hash_mb, empties, Scoring::Discs)?
            .threads(how.threads)
            .growing();
        let asked = Asked {
            line: false,
            moves: true,
        };
        let analysis = solver.analyse(game, asked);
        analysis
            .moves
            .into_iter()
            .map(|(at, value)| (at, Value::Exact(value)))
            .collect()
    } else {
        estimates(game, how.level)?
    };
    values.sort_by_key(|&(at, value)| (-value.margin(), at.row(), at.col()));
    Ok(values)
}

/// Every legal move's value by `level`'s search: all moves one ply deeper at a time, while the
/// whole depth fits [`ESTIMATE_BUDGETS`] of the level's budget.
fn estimates<const N: usize>(
    game: &Othello<N>,
    level: u32,
) -> Result<Vec<(Coord, Value)>, TableTooLarge>
where
    Side<N>: Layout,
{
    let pos = game.position();
    let moves: Vec<usize> = pos.moves().cells().collect();
    let mut plan = plan::<N>(&pos, Strength::of(level));
    // Level 1 has no search of its own: it is given level 2's.
    let depth = plan.depth.max(2);
    plan.limits.budget = plan.limits.budget.saturating_mul(ESTIMATE_BUDGETS);
    let mut search = Search::<Side<N>>::new(plan.limits, pos.me | pos.opp | pos.empty)?;
    let mut found: Vec<i32> = Vec::new();
    'deeper: for ply in 1..=depth {
        let mut values = Vec::with_capacity(moves.len());
        for &at in &moves {
            let Some(value) = search.value(pos.play_unchecked(at), ply - 1, -WIN, WIN) else {
                break 'deeper;
            };
            values.push(-value);
        }
        found = values;
    }
    // Even depth 1 fits any budget: it scores each move's position once.
    Ok(moves
        .iter()
        .zip(found)
        .map(|(&at, value)| (Side::<N>::coord(at), Value::Estimate(discs_of(value))))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A game of `moves` random moves from the start, passes played as they come.
    fn random_game<const N: usize>(seed: u64, moves: usize) -> Othello<N>
    where
        Side<N>: Layout,
    {
        let mut game = Othello::<N>::new();
        let mut rng = Rng::new(seed);
        for _ in 0..moves {
            let legal: Vec<Coord> = game.legal_moves().collect();
            if legal.is_empty() {
                if game.pass().is_err() {
                    break;
                }
                continue;
            }
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
        game
    }

    #[test]
    fn exact_values_are_the_solvers_and_estimates_rank_the_same_moves() {
        let how = Appraisal {
            exact_from: 64,
            level: 10,
            threads: 1,
            hash_mb: 16,
        };
        for seed in 1..=4 {
            let game = random_game::<6>(seed, 18);
            let exact = move_values(&game, how).unwrap();
            assert!(!exact.is_empty(), "seed {seed}");
            // The best move's value is the position's.
            let mut solver = Solver::<Side<6>>::new(16, 32, Scoring::Discs).unwrap();
            let whole = solver.analyse(&game, Asked::default());
            assert_eq!(
                exact[0].1,
                Value::Exact(whole.solution.value),
                "seed {seed}"
            );
            // Each move's value is the solved value of where it leads, for its mover.
            for &(at, value) in &exact {
                let mut after = game.clone();
                after.play(at).unwrap();
                let mut solver = Solver::<Side<6>>::new(16, 32, Scoring::Discs).unwrap();
                let next = solver.analyse(&after, Asked::default()).solution.value;
                let mover_moves_again = after.to_move() == game.to_move();
                let want = if mover_moves_again { next } else { -next };
                assert_eq!(value, Value::Exact(want), "seed {seed}, {at}");
            }
            // Estimated, the same moves in some order, within a few discs of the truth at the
            // top.
            let estimated = move_values(
                &game,
                Appraisal {
                    exact_from: 0,
                    ..how
                },
            )
            .unwrap();
            assert_eq!(estimated.len(), exact.len(), "seed {seed}");
            assert!(
                estimated
                    .iter()
                    .all(|(_, v)| matches!(v, Value::Estimate(_)))
            );
            let truth = |at: Coord| exact.iter().find(|(c, _)| *c == at).unwrap().1.margin();
            let top = truth(estimated[0].0);
            assert!(
                top >= exact[0].1.margin() - 8,
                "seed {seed}: the estimate's best loses {} discs",
                exact[0].1.margin() - top
            );
        }
    }
}
