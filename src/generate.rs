//! Test cases for graders: the input tokens of one complete random legal game, the same for the
//! same seed, optionally with wrong entries mixed in (each followed by the right one), so that
//! one file can be piped into a student's program and into `boardgames` and the outputs diffed.
//! It asks the game modules what is legal; it never prints (the driver does).

use crate::board::Coord;
use crate::mancala::Mancala;
use crate::othello::{Layout, Othello, Side};
use crate::rng::Rng;

/// How to make a random game's input.
#[derive(Clone, Copy, Debug)]
pub struct Generation {
    /// The same seed gives the same game.
    pub seed: u64,
    /// Mix in wrong entries, each followed by the right one.
    pub errors: bool,
}

/// Tokens no Othello prompt accepts, whatever the board.
const BAD_OTHELLO: [&str; 8] = ["abc", "A0", "A01", "AA1", "1A", "#a2", "3.14", "-1"];

/// Tokens no Kalah prompt accepts as a pit, whatever the board.
const BAD_PITS: [&str; 6] = ["0", "abc", "+1", "-1", "1.5", "99999999999999999999"];

/// A cell address in either letter case, as a person might type it.
fn typed(at: Coord, rng: &mut Rng) -> String {
    let text = at.to_string();
    if rng.below(4) == 0 {
        text.to_lowercase()
    } else {
        text
    }
}

/// A random cell of an `N` x `N` board.
fn any_cell<const N: usize>(rng: &mut Rng) -> Coord {
    // Both are below N, which is a supported side.
    Coord::new(rng.below(N), rng.below(N), N).expect("a cell of the board")
}

/// The input of one random Othello game on an `N` x `N` board: a pit count, the pits, then a
/// legal move at every turn that has one (passes need no input).
pub fn othello<const N: usize>(how: Generation) -> Vec<String>
where
    Side<N>: Layout,
{
    let Generation { seed, errors } = how;
    let mut rng = Rng::new(seed);
    let mut game = Othello::<N>::new();
    let mut tokens = Vec::new();
    let wrong = |rng: &mut Rng| errors && rng.below(4) == 0;

    let pits = rng.below(Othello::<N>::MAX_PITS / 2 + 1);
    while wrong(&mut rng) {
        let too_many = (Othello::<N>::MAX_PITS + 1 + rng.below(9)).to_string();
        let bad = BAD_OTHELLO[rng.below(BAD_OTHELLO.len())].to_string();
        tokens.push(if rng.below(2) == 0 { too_many } else { bad });
    }
    tokens.push(pits.to_string());
    let mut placed = 0;
    while placed < pits {
        let at = any_cell::<N>(&mut rng);
        if game.clone().add_pit(at).is_err() {
            // A centre cell or a pit again: a wrong entry for free.
            if wrong(&mut rng) {
                tokens.push(typed(at, &mut rng));
            }
            continue;
        }
        if wrong(&mut rng) {
            tokens.push(BAD_OTHELLO[rng.below(BAD_OTHELLO.len())].to_string());
        }
        game.add_pit(at).expect("checked on a copy");
        tokens.push(typed(at, &mut rng));
        placed += 1;
    }

    while game.outcome().is_none() {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            game.pass().expect("no legal move, so the pass is allowed");
            continue;
        }
        if wrong(&mut rng) {
            let at = any_cell::<N>(&mut rng);
            let bad = if game.clone().play(at).is_err() {
                typed(at, &mut rng)
            } else {
                BAD_OTHELLO[rng.below(BAD_OTHELLO.len())].to_string()
            };
            tokens.push(bad);
        }
        let at = moves[rng.below(moves.len())];
        game.play(at).expect("a legal move");
        tokens.push(typed(at, &mut rng));
    }
    tokens
}

/// The input of one random Kalah game with `P` pits of `stones`: a non-empty pit at every turn;
/// with `errors`, also bad pit numbers, empty pits, and undos each followed by the move again.
pub fn mancala<const P: usize>(stones: u8, how: Generation) -> Vec<String> {
    let Generation { seed, errors } = how;
    let mut rng = Rng::new(seed);
    let mut game = Mancala::<P>::new(stones);
    let mut tokens = Vec::new();
    let mut last = None;
    let wrong = |rng: &mut Rng| errors && rng.below(5) == 0;
    while !game.is_over() {
        let mover = game.to_move();
        let pits: Vec<usize> = (1..=P).filter(|&n| game.pit(mover, n) > Some(0)).collect();
        let empty: Vec<usize> = (1..=P).filter(|&n| game.pit(mover, n) == Some(0)).collect();
        if wrong(&mut rng) {
            tokens.push(BAD_PITS[rng.below(BAD_PITS.len())].to_string());
        }
        if wrong(&mut rng) && !empty.is_empty() {
            tokens.push(empty[rng.below(empty.len())].to_string());
        }
        if wrong(&mut rng) {
            // Take the last move back and make it again: the game goes on unchanged.
            tokens.push(if rng.below(2) == 0 { "u" } else { "U" }.to_string());
            if let Some(pit) = last {
                game.undo().expect("a move to undo");
                game.sow(pit).expect("the move was legal a moment ago");
                tokens.push(pit.to_string());
                continue;
            }
        }
        let pit = pits[rng.below(pits.len())];
        game.sow(pit)
            .expect("a non-empty pit of the player to move");
        tokens.push(pit.to_string());
        last = Some(pit);
    }
    tokens
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::board::{BoardSide, PIT_COUNTS, PitsPerRow, SIDES};
    use crate::driver::tests::{Game, play};
    use crate::driver::{KalahBoard, Task, run};

    #[test]
    fn generated_games_replay_to_their_end_at_every_size() {
        let mut complained = [0; 2];
        for seed in 0..100 {
            for errors in [false, true] {
                let how = Generation { seed, errors };
                let side = SIDES[usize::try_from(seed).unwrap() % SIDES.len()];
                let task = Task::GenerateOthello {
                    side: BoardSide::new(side).unwrap(),
                    how,
                };
                let othello = check_generated(task, Game::Othello { side });
                let pits = 1 + usize::try_from(seed).unwrap() % PIT_COUNTS.end();
                let stones = 1 + u8::try_from(seed % 7).unwrap();
                let board = KalahBoard {
                    pits: PitsPerRow::new(pits).unwrap(),
                    stones,
                };
                let task = Task::GenerateMancala { board, how };
                let mancala = check_generated(task, Game::Mancala { pits, stones });
                if errors {
                    complained[0] += usize::from(othello);
                    complained[1] += usize::from(mancala);
                } else {
                    assert!(
                        !othello && !mancala,
                        "seed {seed}: a wrong entry without --errors"
                    );
                }
            }
        }
        // Wrong entries are random, so a short game may have none; most have some.
        assert!(
            complained.iter().all(|&n| n > 60),
            "{complained:?} of 100 games"
        );
    }

    /// Generates input with `task`, plays it as `game`, expects the game's end, and tells
    /// whether the game complained about a wrong entry on the way.
    fn check_generated(task: Task, game: Game) -> bool {
        let mut tokens = Vec::new();
        run(task.clone(), false, io::empty(), &mut tokens).unwrap();
        let (out, result) = play(game, &tokens, 64, false);
        assert!(result.is_ok(), "{task:?} did not reach the end");
        let text = String::from_utf8(out).unwrap();
        let complaints = [
            "Invalid",
            "Too many",
            "is empty!",
            "Nothing to undo!",
            "Move undone.",
        ];
        complaints.iter().any(|c| text.contains(c))
    }

    #[test]
    fn a_seed_fixes_the_game_and_errors_show_up() {
        let make = |seed, errors| {
            let mut out = Vec::new();
            let task = Task::GenerateOthello {
                side: BoardSide::new(8).unwrap(),
                how: Generation { seed, errors },
            };
            run(task, false, io::empty(), &mut out).unwrap();
            out
        };
        assert_eq!(make(5, true), make(5, true));
        assert_ne!(make(5, false), make(6, false));
        let (out, _) = play(Game::Othello { side: 8 }, &make(5, true), 64, false);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Invalid move!\n"), "no wrong move in seed 5");
    }
}
