//! Matches between the computer's levels (and a greedy reference player): every pair plays the
//! same openings, each contender taking both sides of each, so that a level's results measure
//! the level rather than the luck of the first move. Everything follows from a seed; the
//! results do not depend on how many threads play the games. Pure computation: the driver
//! prints the table.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use crate::board::{Coord, Player, TableTooLarge};
use crate::mancala::{self, Mancala};
use crate::othello::{self, Layout, Othello, Side};
use crate::rng::Rng;
use crate::worker;

/// Random moves that open an Othello game (in the arena, and in the relay between programs).
pub const OTHELLO_OPENING: usize = 4;

/// One player of the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The move that flips the most discs (Othello) or banks the most stones (Kalah).
    Greedy,
    /// The computer at this level.
    Level(u32),
}

/// How the games of one ordered pair went, from the row contender's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The sum of the final margins (discs or stones) for the row contender.
    pub margin: i64,
}

impl Record {
    /// The row contender's share of the points, a draw counting half.
    #[must_use]
    pub fn score(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        if games == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games)
    }

    /// The mean final margin for the row contender (0 before any game).
    #[must_use]
    pub fn mean_margin(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        self.margin as f64 / f64::from(games.max(1))
    }

    /// Counts a game that ended with `margin` for the row contender.
    pub fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.margin += i64::from(margin);
    }
}

/// A game the arena can play: an opening, then moves by two contenders.
pub trait Arena: Sync {
    /// The final margin for the first player of a game opened from `opening` and played on
    /// by `players` (first, second), whose choices follow `rng`.
    fn play(
        &self,
        opening: &mut Rng,
        players: [Contender; 2],
        rng: &mut Rng,
    ) -> Result<i32, TableTooLarge>;
}

/// Othello on an `N` x `N` board, opened with `plies` random moves.
pub struct OthelloArena<const N: usize> {
    pub plies: usize,
}

impl<const N: usize> Arena for OthelloArena<N>
where
    Side<N>: Layout,
{
    fn play(
        &self,
        opening: &mut Rng,
        players: [Contender; 2],
        rng: &mut Rng,
    ) -> Result<i32, TableTooLarge> {
        let mut game = Othello::<N>::new();
        othello_opening(&mut game, self.plies, opening);
        let mut memories: [othello::Memory<N>; 2] = Default::default();
        while game.outcome().is_none() {
            if game.pass().is_ok() {
                continue;
            }
            let side = game.to_move().index();
            let at = match players[side] {
                Contender::Greedy => othello::greedy_move(&game, rng),
                Contender::Level(level) => {
                    othello::computer_move(&game, level, &mut memories[side], rng)?
                }
            };
            // A player with a legal move always names one.
            if at.is_none_or(|at| game.play(at).is_err()) {
                break;
            }
        }
        let discs = |player| game.count(othello::Cell::Disc(player)) as i32;
        Ok(discs(Player::First) - discs(Player::Second))
    }
}

/// Plays `plies` random moves on `game` (passing where a player has none; fewer when the game
/// ends sooner), `rng` picking each; the moves.
pub fn othello_opening<const N: usize>(
    game: &mut Othello<N>,
    plies: usize,
    rng: &mut Rng,
) -> Vec<Coord>
where
    Side<N>: Layout,
{
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        if game.pass().is_ok() {
            continue;
        }
        let legal: Vec<Coord> = game.legal_moves().collect();
        let at = legal[rng.below(legal.len())];
        if game.play(at).is_err() {
            break;
        }
        moves.push(at);
    }
    moves
}

/// Kalah with `P` pits a row, opened with `sowings` random sowings.
pub struct MancalaArena<const P: usize> {
    pub stones: u8,
    pub capture: mancala::Capture,
    pub sowings: usize,
}

impl<const P: usize> Arena for MancalaArena<P> {
    fn play(
        &self,
        opening: &mut Rng,
        players: [Contender; 2],
        rng: &mut Rng,
    ) -> Result<i32, TableTooLarge> {
        let mut game = Mancala::<P>::with_capture(self.stones, self.capture);
        let mut sowings = 0;
        while !game.is_over() {
            let pit = if sowings < self.sowings {
                let pits: Vec<usize> = (1..=P)
                    .filter(|&n| game.pit(game.to_move(), n) > Some(0))
                    .collect();
                Some(pits[opening.below(pits.len())])
            } else {
                match players[game.to_move().index()] {
                    Contender::Greedy => mancala::greedy_move(&game, rng),
                    Contender::Level(level) => mancala::computer_move(&game, level, rng)?,
                }
            };
            if pit.is_none_or(|pit| game.sow(pit).is_err()) {
                break;
            }
            sowings += 1;
        }
        Ok(game.score(Player::First) as i32 - game.score(Player::Second) as i32)
    }
}

/// Plays every pair of `contenders`: `openings` openings from `seed`, each played twice with
/// the sides swapped, on `threads` threads. The record of row `i` against column `j` (the
/// diagonal stays empty); `done` is told how many games have ended, now and then. The error
/// when a player's tables cannot be had: no game is scored that a player lost for want of
/// memory.
pub fn tournament(
    arena: &dyn Arena,
    contenders: &[Contender],
    openings: usize,
    seed: u64,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Vec<Record>>, TableTooLarge> {
    let n = contenders.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    // Game k of pair p: opening k / 2, the pair's first contender moving first when k is even.
    let games = pairs.len() * openings * 2;
    let next = AtomicUsize::new(0);
    let ended = AtomicUsize::new(0);
    let margins: Vec<(usize, Result<i32, TableTooLarge>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                worker::spawn(scope, || {
                    let mut out = Vec::new();
                    loop {
                        let game = next.fetch_add(1, Relaxed);
                        if game >= games {
                            return out;
                        }
                        let (pair, k) = (game / (openings * 2), game % (openings * 2));
                        let (i, j) = pairs[pair];
                        let mut opening = Rng::new(seed.wrapping_add(1 + (k / 2) as u64));
                        let mut rng = Rng::new(
                            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                                .wrapping_add(game as u64),
                        );
                        let (first, second) = if k % 2 == 0 { (i, j) } else { (j, i) };
                        let margin = arena.play(
                            &mut opening,
                            [contenders[first], contenders[second]],
                            &mut rng,
                        );
                        let failed = margin.is_err();
                        // The margin for the pair's first contender.
                        out.push((game, margin.map(|m| if k % 2 == 0 { m } else { -m })));
                        if failed {
                            // The games left are not started.
                            next.store(games, Relaxed);
                            return out;
                        }
                        done(ended.fetch_add(1, Relaxed) + 1);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|thread| worker::joined(thread.join()))
            .collect()
    });
    let mut table = vec![vec![Record::default(); n]; n];
    for (game, margin) in margins {
        let margin = margin?;
        let (i, j) = pairs[game / (openings * 2)];
        table[i][j].add(margin);
        table[j][i].add(-margin);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_plays_each_opening_from_both_sides_whatever_the_threads() {
        let arena = OthelloArena::<4> { plies: 2 };
        let contenders = [Contender::Greedy, Contender::Level(1), Contender::Level(3)];
        let one = tournament(&arena, &contenders, 3, 7, 1, &|_| {}).unwrap();
        let two = tournament(&arena, &contenders, 3, 7, 2, &|_| {}).unwrap();
        assert_eq!(one, two);
        for (i, row) in one.iter().enumerate() {
            for (j, record) in row.iter().enumerate() {
                let games = record.wins + record.draws + record.losses;
                assert_eq!(games, if i == j { 0 } else { 6 }, "{i} against {j}");
                let mirror = one[j][i];
                assert_eq!(
                    (record.wins, record.draws, record.margin),
                    (mirror.losses, mirror.draws, -mirror.margin)
                );
            }
        }
    }

    #[test]
    fn the_top_level_beats_the_greedy_player_at_kalah() {
        let arena = MancalaArena::<4> {
            stones: 3,
            capture: mancala::Capture::Standard,
            sowings: 2,
        };
        let table = tournament(
            &arena,
            &[Contender::Level(10), Contender::Greedy],
            4,
            1,
            2,
            &|_| {},
        )
        .unwrap();
        assert!(table[0][1].score() > 0.5, "{:?}", table[0][1]);
    }

    #[test]
    fn each_kalah_level_two_above_another_wins_most_games() {
        // Each Kalah level's lookahead visits three times the positions of the one below; over
        // 10 openings of (6,4) from both sides, two levels up wins at least 13 of the 20 games
        // (measured: 16, 15 and 16; level 5 against 7 won 2).
        let arena = MancalaArena::<6> {
            stones: 4,
            capture: mancala::Capture::Standard,
            sowings: 2,
        };
        for levels in [[2, 4], [4, 6], [5, 7]] {
            let table =
                tournament(&arena, &levels.map(Contender::Level), 10, 1, 2, &|_| {}).unwrap();
            let wins = table[1][0].wins;
            assert!(
                wins >= 13,
                "level {} against {}: {wins} of 20",
                levels[1],
                levels[0]
            );
        }
    }
}
