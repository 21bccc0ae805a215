//! The Kalah computer player: perfect play from the exact solver when few stones are in play,
//! otherwise a deep lookahead (level 1 and the greedy reference: a plain one of a few sowings
//! that scores the store margin). Searches are bounded by positions or depth, never a clock, so
//! the same seed gives the same move on any machine. No I/O here.

use super::estimate::{INFINITY, estimate};
use super::game::{Mancala, sow};
use super::search::Lookahead;
use super::solve::solve;
use crate::board::{LEVELS, Player, TableTooLarge};
use crate::rng::Rng;

/// Stones times pits per row few enough that the exact solver finishes in well under a second:
/// (4,3), (4,4) and (6,2) are solved outright; (6,3), (5,4) and (12,1) are not.
const SOLVE_STONES_BY_PITS: u32 = 144;

/// Level 10 also solves from this many stones in the pits, where stones times pits is at most
/// [`SOLVE_STONES_BY_PITS_WIDE`]: on Kalah (6,4) these solves take about two seconds a game,
/// and level 10 against itself ends +12 (the value is +8), against +18 when it solves from 24
/// stones (stones times pits 144).
const SOLVE_STONES: u32 = 36;

/// See [`SOLVE_STONES`]: rows of more pits take far longer from 36 stones.
const SOLVE_STONES_BY_PITS_WIDE: u32 = 216;

/// Positions level 10's deep lookahead visits a move, on boards of at most [`FULL_STONES`]
/// stones: about 0.1 s.
const POSITIONS: u64 = 1 << 20;

/// Stones on a board whose moves get level 10's full [`POSITIONS`]; a larger board's longer
/// game gets proportionally fewer a move, so that a game takes about as long.
const FULL_STONES: u64 = 48;

/// Positions level 2's lookahead visits a move; each level above it up to 9 visits [`STEP`]
/// times as many (level 9: 34,992, a thirtieth of level 10's). Measured on Kalah (6,4), each
/// level against the one below, 40 games on each of seeds 1 to 3 (docs/performance.md): every pair
/// won more than half, level 2 against level 1 the closest (21 to 24 of 40). With four times
/// as many a level (level 9: 262,144), level 10 won only 20-2-18 against level 9; with a base
/// of 32, level 8 won 19-1-20 against level 7 on seed 2.
const LEVEL_2_POSITIONS: u64 = 16;

/// See [`LEVEL_2_POSITIONS`].
const STEP: u64 = 3;

/// A Kalah pit (1-based) for the player to move at `level` (one of [`LEVELS`]; others are
/// taken as the nearest), or `None` when the game is over. Level 1 looks two sowings ahead and
/// plays one move in three at random; each level above searches deeper (the deep lookahead
/// within 16 positions a move at level 2, three times as many each level up to 9, about a
/// million at level 10) and plays perfectly from more stones left (level 10: stones
/// times pits up to 144, or up to 216 with at most 36 stones; level 1: never). The error when
/// the solver's tables cannot be had: the computer never plays another move for want of
/// memory.
pub fn computer_move<const P: usize>(
    game: &Mancala<P>,
    level: u32,
    rng: &mut Rng,
) -> Result<Option<usize>, TableTooLarge> {
    if game.is_over() {
        return Ok(None);
    }
    let level = level.clamp(*LEVELS.start(), *LEVELS.end());
    if level == 1 && rng.below(3) == 0 {
        let pits: Vec<usize> = (1..=P).filter(|&n| game.rows()[0][n - 1] > 0).collect();
        return Ok(Some(pits[rng.below(pits.len())]));
    }
    let stones = game.stones() - game.score(Player::First) - game.score(Player::Second);
    let top = level == *LEVELS.end();
    let solves = stones * P as u32 <= SOLVE_STONES_BY_PITS * (level - 1) / (LEVELS.end() - 1)
        || top && stones <= SOLVE_STONES && stones * P as u32 <= SOLVE_STONES_BY_PITS_WIDE;
    if solves && let Some(best) = solve(game)?.best {
        return Ok(Some(best));
    }
    let mut order: Vec<usize> = (1..=P).collect();
    rng.shuffle(&mut order);
    if level == 1 {
        return Ok(lookahead(game, 2, &order));
    }
    let budget = budget(level, stones);
    let pits: Vec<usize> = order.iter().map(|pit| pit - 1).collect();
    let best = Lookahead::<P>::new(game.capture(), budget).best(&game.rows(), &pits);
    Ok(best.map(|pit| pit + 1))
}

/// The positions `level`'s deep lookahead (levels 2 to 10) visits a move with `stones` stones
/// in the pits.
pub(super) fn budget(level: u32, stones: u32) -> u64 {
    if level >= *LEVELS.end() {
        POSITIONS * FULL_STONES / u64::from(stones).max(FULL_STONES)
    } else {
        LEVEL_2_POSITIONS * STEP.pow(level.max(2) - 2)
    }
}

/// The pit (1-based) whose sowing banks the most stones now, the seed choosing among equals (a
/// reference opponent for measuring the levels), or `None` when the game is over.
pub fn greedy_move<const P: usize>(game: &Mancala<P>, rng: &mut Rng) -> Option<usize> {
    let mut order: Vec<usize> = (1..=P).collect();
    rng.shuffle(&mut order);
    lookahead(game, 1, &order)
}

/// A Kalah move for the player to move by a search `depth` sowings deep that scores what lies
/// past the horizon as even: the pit (1-based) with the best margin, the first of `order` among
/// equals, or `None` when the game is over.
fn lookahead<const P: usize>(game: &Mancala<P>, depth: u32, order: &[usize]) -> Option<usize> {
    let rows = game.rows();
    let mut best: Option<(i32, usize)> = None;
    for &pit in order
        .iter()
        .filter(|&&pit| (1..=P).contains(&pit) && rows[0][pit - 1] > 0)
    {
        let sown = sow(&rows, pit - 1, game.capture());
        let below = depth.saturating_sub(1);
        let gain = sown.gain();
        let value = if sown.over {
            gain
        } else if sown.again {
            gain + estimate(&sown.rows, below, -INFINITY, INFINITY, game.capture())
        } else {
            let turned = [sown.rows[1], sown.rows[0]];
            gain - estimate(&turned, below, -INFINITY, INFINITY, game.capture())
        };
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, pit));
        }
    }
    best.map(|(_, pit)| pit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mancala::Next;

    /// The computer moves first on a small board against random replies; the final margin.
    fn kalah_margin_against_random<const P: usize>(stones: u8, seed: u64) -> i32 {
        let mut rng = Rng::new(seed);
        let mut game = Mancala::<P>::new(stones);
        loop {
            let pit = if game.to_move() == Player::First {
                computer_move(&game, 10, &mut rng).unwrap().unwrap()
            } else {
                let pits: Vec<usize> = (1..=P)
                    .filter(|&n| game.pit(Player::Second, n) > Some(0))
                    .collect();
                pits[rng.below(pits.len())]
            };
            if let Next::GameOver { .. } = game.sow(pit).unwrap().next {
                return game.score(Player::First) as i32 - game.score(Player::Second) as i32;
            }
        }
    }

    #[test]
    #[ignore = "slow (about 8 s): CI runs it with --ignored"]
    fn level_10_against_itself_ends_kalah_6_4_near_its_solved_value() {
        // Kalah (6,4) is worth +8 to the first player under perfect play (the solver's figure;
        // Irving, Donkers and Uiterwijk's too); the old lookahead's games ended +20 to +24.
        let mut rng = Rng::new(0);
        let mut game = Mancala::<6>::new(4);
        while !game.is_over() {
            let pit = computer_move(&game, 10, &mut rng).unwrap().unwrap();
            game.sow(pit).unwrap();
        }
        let margin = game.score(Player::First) as i32 - game.score(Player::Second) as i32;
        assert!((margin - 8).abs() <= 4, "{margin}");
    }

    #[test]
    fn on_small_kalah_boards_the_first_player_computer_keeps_its_solved_margin() {
        for seed in 0..30 {
            let small = kalah_margin_against_random::<4>(3, seed);
            assert!(small >= 6, "(4,3) seed {seed}: {small}");
            let wide = kalah_margin_against_random::<6>(2, seed);
            assert!(wide >= 6, "(6,2) seed {seed}: {wide}");
        }
    }
}
