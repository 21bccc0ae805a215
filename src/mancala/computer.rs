//! The Kalah computer player: perfect play from the exact solver when few stones are in play,
//! otherwise a lookahead of a few sowings that scores the store margin. Searches are bounded by
//! depth, not a clock, so the same seed gives the same move on any machine. No I/O here.

use super::estimate::{INFINITY, estimate, estimate_depth};
use super::game::{Mancala, sow};
use super::solve::solve;
use crate::board::{LEVELS, Player, TableTooLarge};
use crate::rng::Rng;

/// Stones times pits per row few enough that the exact solver finishes in well under a second:
/// (4,3), (4,4) and (6,2) are solved outright; (6,3), (5,4) and (12,1) are not.
const SOLVE_STONES_BY_PITS: u32 = 144;

/// A Kalah pit (1-based) for the player to move at `level` (one of [`LEVELS`]; others are
/// taken as the nearest), or `None` when the game is over. Level 1 looks two sowings ahead and
/// plays one move in three at random; each level above looks further (level `L`: `L + 1`
/// sowings, within what stays quick on the board) and plays perfectly from more stones left
/// (level 10: stones times pits up to 144; level 1: never). The error when the solver's tables
/// cannot be had: the computer never plays another move for want of memory.
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
    let solve_below = SOLVE_STONES_BY_PITS * (level - 1) / (LEVELS.end() - 1);
    if stones * P as u32 <= solve_below
        && let Some(best) = solve(game)?.best
    {
        return Ok(Some(best));
    }
    let mut order: Vec<usize> = (1..=P).collect();
    rng.shuffle(&mut order);
    // Each root move gets a search of its own, so the depth stays where one stays quick.
    let depth = (level + 1).min(lookahead_depth(P));
    Ok(lookahead(game, depth, &order))
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

/// How deep [`mancala_lookahead`] may look below each root move and stay well under a second.
fn lookahead_depth(pits: usize) -> u32 {
    estimate_depth(pits) - 3
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
    fn on_small_kalah_boards_the_first_player_computer_keeps_its_solved_margin() {
        for seed in 0..30 {
            let small = kalah_margin_against_random::<4>(3, seed);
            assert!(small >= 6, "(4,3) seed {seed}: {small}");
            let wide = kalah_margin_against_random::<6>(2, seed);
            assert!(wide >= 6, "(6,2) seed {seed}: {wide}");
        }
    }
}
