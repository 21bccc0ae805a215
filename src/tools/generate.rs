//! Test cases for graders: the input tokens of one complete random legal game, the same for the
//! same seed, optionally with wrong entries mixed in (each followed by the right one), so that
//! one file can be piped into a student's program and into `boardgames` and the outputs diffed.
//! Wrong entries come in two kinds: those the assignments specify an answer to (`errors`), and
//! the tokens the Othello assignment leaves unspecified (`weird`), which a correct student's
//! program may answer any way it likes. It asks the game modules what is legal; the tokens are
//! made by pure functions (which the judge uses too), and printed one a line through the
//! console by the `generate` jobs at the end of this file.

use std::io::Write;

use crate::board::{Coord, MAX_SIDE};
use crate::driver::{Console, KalahBoard, Stop};
use crate::mancala::{Capture, Mancala, WithPits};
use crate::othello::{Cell, Layout, Othello, Side, WithSide};
use crate::rng::Rng;

/// How to make a random game's input.
#[derive(Clone, Copy, Debug, Default)]
pub struct Generation {
    /// The same seed gives the same game.
    pub seed: u64,
    /// Mix in wrong entries the assignments specify, each followed by the right one.
    pub errors: bool,
    /// Mix in tokens whose answer the assignment leaves unspecified.
    pub weird: bool,
}

/// One input token, as bytes: a weird one need not be UTF-8.
pub type Token = Vec<u8>;

/// The tokens the Othello assignment names as unspecified, for cells and for the pit count,
/// and bytes that are no text at all.
const WEIRD: [&[u8]; 10] = [
    b"AA1",
    b"A01",
    b"abc",
    b"A3.14",
    b"#a2",
    b"-1",
    b"6.28",
    b"#$@",
    b"\xff\xfe",
    b"A\x001",
];

/// Kalah answers that are no plain pit number: unspecified for a C++ `cin >> int` program.
const WEIRD_PITS: [&[u8]; 7] = [
    b"abc",
    b"+1",
    b"-1",
    b"1.5",
    b"99999999999999999999",
    b"#$@",
    b"\xff",
];

/// A token from text.
fn token(text: impl ToString) -> Token {
    text.to_string().into_bytes()
}

/// A cell address in either letter case, as a person might type it.
fn typed(at: Coord, rng: &mut Rng) -> Token {
    let text = at.to_string();
    token(if rng.below(4) == 0 {
        text.to_lowercase()
    } else {
        text
    })
}

/// A random cell of an `N` x `N` board.
fn any_cell<const N: usize>(rng: &mut Rng) -> Coord {
    // Both are below N, which is a supported side.
    Coord::new(rng.below(N), rng.below(N), N).expect("a cell of the board")
}

/// A well-formed address off an `N` x `N` board (a letter and a row of 1 to 26, like `I1` or
/// `X10` on 8x8), or `None` on the largest board, where every such address is on it.
fn off_board<const N: usize>(rng: &mut Rng) -> Option<Coord> {
    if N == MAX_SIDE {
        return None;
    }
    let beyond = |rng: &mut Rng| N + rng.below(MAX_SIDE - N);
    let (col, row) = match rng.below(3) {
        0 => (beyond(rng), rng.below(N)),
        1 => (rng.below(N), beyond(rng)),
        _ => (beyond(rng), beyond(rng)),
    };
    Coord::new(col, row, MAX_SIDE)
}

/// One of `items`, or `None` when there are none.
fn pick<T: Copy>(items: &[T], rng: &mut Rng) -> Option<T> {
    (!items.is_empty()).then(|| items[rng.below(items.len())])
}

/// The input of one random Othello game on an `N` x `N` board: a pit count, the pits, then a
/// legal move at every turn that has one (passes need no input). Wrong entries, when asked
/// for: pit counts above half the board (often exactly one above), pits on a centre cell, on a
/// pit already placed or off the board; moves onto a disc or a pit, moves that flip nothing,
/// and moves off the board.
pub fn othello<const N: usize>(how: Generation) -> Vec<Token>
where
    Side<N>: Layout,
{
    let mut rng = Rng::new(how.seed);
    let mut game = Othello::<N>::new();
    let mut tokens = Vec::new();
    // Wrong entries before an answer: none, one, or a few, each kind as asked.
    let wrong = |rng: &mut Rng| (how.errors || how.weird) && rng.below(4) == 0;
    let weird = |rng: &mut Rng| {
        let errors_too = how.errors && rng.below(2) == 0;
        (how.weird && !errors_too).then(|| WEIRD[rng.below(WEIRD.len())].to_vec())
    };
    let max = Othello::<N>::MAX_PITS;

    // Half the board is the most pits allowed: with errors, sometimes exactly that many.
    let pits = if how.errors && rng.below(8) == 0 {
        max
    } else {
        rng.below(max / 2 + 1)
    };
    while wrong(&mut rng) {
        let too_many = max + 1 + [0, 0, rng.below(N * N)][rng.below(3)];
        tokens.push(weird(&mut rng).unwrap_or_else(|| token(too_many)));
    }
    tokens.push(token(pits));

    let mut placed = Vec::new();
    while placed.len() < pits {
        let at = any_cell::<N>(&mut rng);
        if game.clone().add_pit(at).is_err() {
            continue;
        }
        while wrong(&mut rng) {
            let centre = Coord::new(N / 2 - rng.below(2), N / 2 - rng.below(2), N);
            let bad = match rng.below(3) {
                0 => pick(&placed, &mut rng),
                1 => off_board::<N>(&mut rng),
                _ => centre,
            };
            if let Some(entry) = weird(&mut rng).or_else(|| Some(typed(bad?, &mut rng))) {
                tokens.push(entry);
            }
        }
        game.add_pit(at).expect("checked on a copy");
        placed.push(at);
        tokens.push(typed(at, &mut rng));
    }

    while game.outcome().is_none() {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            game.pass().expect("no legal move, so the pass is allowed");
            continue;
        }
        while wrong(&mut rng) {
            let cells: Vec<Coord> = (0..N * N)
                .filter_map(|i| Coord::new(i % N, i / N, N))
                .collect();
            let taken: Vec<Coord> = cells
                .iter()
                .copied()
                .filter(|&at| game.cell(at) != Cell::Empty)
                .collect();
            let flipless: Vec<Coord> = cells
                .iter()
                .copied()
                .filter(|&at| game.cell(at) == Cell::Empty && !moves.contains(&at))
                .collect();
            let bad = match rng.below(3) {
                0 => pick(&taken, &mut rng),
                1 => pick(&flipless, &mut rng),
                _ => off_board::<N>(&mut rng),
            };
            if let Some(entry) = weird(&mut rng).or_else(|| Some(typed(bad?, &mut rng))) {
                tokens.push(entry);
            }
        }
        let at = moves[rng.below(moves.len())];
        game.play(at).expect("a legal move");
        tokens.push(typed(at, &mut rng));
    }
    tokens
}

/// The input of one random Kalah game with `P` pits of `stones`: a non-empty pit at every turn.
/// Wrong entries, when asked for: pit numbers out of range (0, or above `P` up to 99), empty
/// pits, and undos (each followed by the move again, so the game goes on unchanged); weird
/// ones are answers that are no plain number.
pub fn mancala<const P: usize>(stones: u8, capture: Capture, how: Generation) -> Vec<Token> {
    let mut rng = Rng::new(how.seed);
    let mut game = Mancala::<P>::with_capture(stones, capture);
    let mut tokens = Vec::new();
    let mut last = None;
    let wrong = |rng: &mut Rng| rng.below(5) == 0;
    while !game.is_over() {
        let mover = game.to_move();
        let pits: Vec<usize> = (1..=P).filter(|&n| game.pit(mover, n) > Some(0)).collect();
        let empty: Vec<usize> = (1..=P).filter(|&n| game.pit(mover, n) == Some(0)).collect();
        if how.weird && wrong(&mut rng) {
            tokens.push(WEIRD_PITS[rng.below(WEIRD_PITS.len())].to_vec());
        }
        if how.errors && wrong(&mut rng) {
            let out_of_range = if rng.below(3) == 0 {
                0
            } else {
                P + 1 + rng.below(99 - P)
            };
            tokens.push(token(out_of_range));
        }
        if how.errors
            && wrong(&mut rng)
            && let Some(pit) = pick(&empty, &mut rng)
        {
            tokens.push(token(pit));
        }
        if how.errors && wrong(&mut rng) {
            // Take the last move back and make it again: the game goes on unchanged.
            tokens.push(token(if rng.below(2) == 0 { "u" } else { "U" }));
            if let Some(pit) = last {
                game.undo().expect("a move to undo");
                game.sow(pit).expect("the move was legal a moment ago");
                tokens.push(token(pit));
                continue;
            }
        }
        let pit = pits[rng.below(pits.len())];
        game.sow(pit)
            .expect("a non-empty pit of the player to move");
        tokens.push(token(pit));
        last = Some(pit);
    }
    tokens
}

/// `generate othello`: one random game's input.
pub struct GenerateOthello<'a, R, W: Write> {
    /// Where the tokens go.
    pub console: &'a mut Console<R, W>,
    /// The seed and whether to mix in wrong entries.
    pub how: Generation,
}

impl<R, W: Write> WithSide for GenerateOthello<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        print_tokens(othello::<N>(self.how), self.console)
    }
}

/// `generate mancala`: one random game's input.
pub struct GenerateMancala<'a, R, W: Write> {
    /// Where the tokens go.
    pub console: &'a mut Console<R, W>,
    /// The board.
    pub board: KalahBoard,
    /// The seed and whether to mix in wrong entries.
    pub how: Generation,
}

impl<R, W: Write> WithPits for GenerateMancala<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        let tokens = mancala::<P>(self.board.stones, self.board.capture, self.how);
        print_tokens(tokens, self.console)
    }
}

/// Prints generated input, one token a line.
fn print_tokens<R, W: Write>(tokens: Vec<Token>, console: &mut Console<R, W>) -> Result<(), Stop> {
    for mut token in tokens {
        token.push(b'\n');
        console.say_bytes(&token)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::board::{BoardSide, PitsPerRow, TESTED_PIT_COUNTS, TESTED_SIDES};
    use crate::driver::KalahBoard;
    use crate::driver::tests::{Game, play};
    use crate::tools::{Tool, run};

    /// The kinds of generated input.
    const KINDS: [Generation; 4] = [
        Generation {
            seed: 0,
            errors: false,
            weird: false,
        },
        Generation {
            seed: 0,
            errors: true,
            weird: false,
        },
        Generation {
            seed: 0,
            errors: false,
            weird: true,
        },
        Generation {
            seed: 0,
            errors: true,
            weird: true,
        },
    ];

    /// Generates input for `task`, plays it as `game`, expects the game's end, and returns the
    /// tokens and the transcript.
    fn replay(task: Tool, game: Game) -> (Vec<u8>, String) {
        let mut tokens = Vec::new();
        run(task.clone(), false, io::empty(), &mut tokens).unwrap();
        let (out, result) = play(game, &tokens, 64, false);
        assert!(result.is_ok(), "{task:?} did not reach the end");
        (tokens, String::from_utf8(out).unwrap())
    }

    /// Whether every token is a plain number or a well-formed cell address, the only entries
    /// whose answers the assignments specify.
    fn all_specified(tokens: &[u8]) -> bool {
        tokens
            .split(|&b| b == b'\n')
            .filter(|t| !t.is_empty())
            .all(|t| {
                let number = t.iter().all(u8::is_ascii_digit);
                let cell = t[0].is_ascii_alphabetic()
                    && matches!(&t[1..], [b'1'..=b'9'] | [b'1'..=b'9', b'0'..=b'9']);
                number || cell || t == b"u" || t == b"U"
            })
    }

    #[test]
    fn generated_games_replay_to_their_end_with_the_wrong_entries_asked_for() {
        // How many games, of each kind, complained with each message.
        let mut seen = std::collections::HashMap::new();
        for seed in 0..100 {
            for kind in KINDS {
                let how = Generation { seed, ..kind };
                let side = TESTED_SIDES[usize::try_from(seed).unwrap() % TESTED_SIDES.len()];
                let task = Tool::GenerateOthello {
                    side: BoardSide::new(side).unwrap(),
                    how,
                };
                let (othello_in, othello) = replay(task, Game::Othello { side });
                let pits =
                    TESTED_PIT_COUNTS[usize::try_from(seed).unwrap() % TESTED_PIT_COUNTS.len()];
                let stones = 1 + u8::try_from(seed % 7).unwrap();
                let board = KalahBoard {
                    pits: PitsPerRow::new(pits).unwrap(),
                    stones,
                    capture: Capture::Standard,
                };
                let task = Tool::GenerateMancala { board, how };
                let (mancala_in, mancala) = replay(task, Game::Mancala { pits, stones });
                let messages = [
                    "Too many pits!",
                    "Invalid position!",
                    "Invalid move!",
                    "Invalid number!",
                    "Invalid pit!",
                    "is empty!",
                    "Move undone.",
                ];
                for message in messages {
                    let count = usize::from(othello.contains(message) || mancala.contains(message));
                    *seen.entry((kind.errors, kind.weird, message)).or_insert(0) += count;
                }
                if !kind.weird {
                    assert!(
                        all_specified(&othello_in),
                        "seed {seed}: an unspecified entry"
                    );
                    assert!(
                        all_specified(&mancala_in),
                        "seed {seed}: an unspecified entry"
                    );
                }
            }
        }
        let count = |errors, weird, message| seen[&(errors, weird, message)];
        for message in [
            "Too many pits!",
            "Invalid position!",
            "Invalid move!",
            "is empty!",
        ] {
            assert_eq!(count(false, false, message), 0, "{message} without errors");
            assert!(count(true, false, message) > 20, "{message}: {seen:?}");
        }
        // Only weird entries make a pit count or a pit number unreadable.
        assert_eq!(count(true, false, "Invalid number!"), 0);
        assert!(count(false, true, "Invalid number!") > 10, "{seen:?}");
        assert!(count(true, false, "Move undone.") > 50, "{seen:?}");
    }

    #[test]
    fn error_inputs_name_one_past_half_the_board_and_off_board_cells() {
        let mut tokens = Vec::new();
        for seed in 0..200 {
            let how = Generation {
                seed,
                errors: true,
                weird: false,
            };
            tokens.extend(othello::<8>(how));
        }
        assert!(
            tokens.iter().any(|t| t == b"33"),
            "N*N/2 + 1 never asked for"
        );
        assert!(tokens.iter().any(|t| t == b"32"), "N*N/2 pits never placed");
        let off_board = |t: &Token| {
            let at: Option<Coord> = std::str::from_utf8(t).ok().and_then(|t| t.parse().ok());
            at.is_some_and(|at| !at.is_on(8))
        };
        assert!(tokens.iter().any(off_board), "no off-board address");
    }

    #[test]
    fn a_seed_fixes_the_game_and_errors_show_up() {
        let make = |seed, errors| {
            let mut out = Vec::new();
            let task = Tool::GenerateOthello {
                side: BoardSide::new(8).unwrap(),
                how: Generation {
                    seed,
                    errors,
                    weird: false,
                },
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
