//! What the review of a finished Kalah game asks of the engine: for each sowing of the game,
//! its value and the best sowing's, for the player who sowed, in stones of final margin:
//! exact (the solver, over one set of tables for the whole game) once few enough stones are
//! left in the pits, before that the estimate of a level's deep lookahead. Pure computation.

use super::computer::budget;
use super::game::Mancala;
use super::search::Lookahead;
use super::solve::solve_line;
use crate::board::{Player, TableTooLarge, Value};

/// How sowings are valued: exactly from `exact_from` stones in the pits, by `level`'s deep
/// lookahead before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appraisal {
    /// Stones in the pits from which values are exact.
    pub exact_from: u32,
    /// The computer's level whose lookahead estimates the rest.
    pub level: u32,
    /// Threads for the exact solves.
    pub threads: usize,
    /// The solver's tables, in MiB.
    pub hash_mb: usize,
}

/// The stones times pits a row of the largest board solved exactly throughout by default:
/// Kalah (6,4), whose every position a review solves in about 23 s on two threads when the
/// game was well played (a beginner's mistakes each cost most of a solve of their own).
pub const EXACT_STONES_BY_PITS: u32 = 288;

/// The positions an estimate of one position's sowings may visit, in budgets of the level's
/// lookahead for a move: each sowing is searched to the same depth with a full window.
const ESTIMATE_BUDGETS: u64 = 4;

/// One sowing of a game valued, for the player who sowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appraised {
    /// The sowing's value.
    pub value: Value,
    /// A best pit (1-based): the one sown when it is best, else the first in pit order.
    pub best: usize,
    /// The best pit's value.
    pub best_value: Value,
}

/// Values every sowing of the game played from `start` by sowing `pits` (1-based, each a
/// legal sowing), in order; `valued()` hears of each position valued. The error when the
/// solver's tables cannot be had.
///
/// # Panics
/// When a sowing is not legal.
pub fn appraise_line<const P: usize>(
    start: &Mancala<P>,
    pits: &[usize],
    how: Appraisal,
    valued: &mut dyn FnMut(),
) -> Result<Vec<Appraised>, TableTooLarge> {
    let mut line = vec![start.clone()];
    for &pit in pits {
        let mut next = line[line.len() - 1].clone();
        next.sow(pit).expect("a line of legal sowings");
        line.push(next);
    }
    let in_pits =
        |game: &Mancala<P>| game.stones() - game.score(Player::First) - game.score(Player::Second);
    // Stones only leave the pits: once exact, every later position is too.
    let first_exact = line
        .iter()
        .position(|game| in_pits(game) <= how.exact_from)
        .unwrap_or(line.len());
    let mut found = Vec::with_capacity(pits.len());
    for (i, game) in line.iter().enumerate().take(first_exact.min(pits.len())) {
        found.push(estimated(game, pits[i], how.level, in_pits(game)));
        valued();
    }
    if first_exact < pits.len() {
        let solved = solve_line(
            &line[first_exact],
            &pits[first_exact..],
            how.hash_mb,
            how.threads,
            &mut || {},
        )?;
        for (k, pair) in solved.windows(2).enumerate() {
            let i = first_exact + k;
            let (before, after) = (&pair[0], &pair[1]);
            let value = if line[i + 1].to_move() == line[i].to_move() {
                after.value
            } else {
                -after.value
            };
            found.push(Appraised {
                value: Value::Exact(value),
                best: before.best.unwrap_or(pits[i]),
                best_value: Value::Exact(before.value),
            });
            valued();
        }
    }
    Ok(found)
}

/// Sowing `played` in `game` valued by `level`'s deep lookahead, with every other sowing, for
/// the player to move: the banked margin plus the lookahead's estimate of the rest.
fn estimated<const P: usize>(
    game: &Mancala<P>,
    played: usize,
    level: u32,
    in_pits: u32,
) -> Appraised {
    let rows = game.rows();
    let mover = game.to_move();
    let banked = game.score(mover) as i32 - game.score(mover.opponent()) as i32;
    let pits: Vec<usize> = (0..P).filter(|&pit| rows[0][pit] > 0).collect();
    let budget = budget(level, in_pits).saturating_mul(ESTIMATE_BUDGETS);
    let values = Lookahead::<P>::new(game.capture(), budget).values(&rows, &pits);
    let of = |pit: usize| {
        let at = pits.iter().position(|&p| p == pit - 1);
        banked + at.map_or(0, |at| values[at])
    };
    let best_value = values.iter().copied().max().map_or(banked, |v| banked + v);
    let best = if of(played) == best_value {
        played
    } else {
        // The first in pit order among equals.
        pits.iter()
            .zip(&values)
            .find(|&(_, &v)| banked + v == best_value)
            .map_or(played, |(&pit, _)| pit + 1)
    };
    Appraised {
        value: Value::Estimate(of(played)),
        best,
        best_value: Value::Estimate(best_value),
    }
}
