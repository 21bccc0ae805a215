//! Tests of the console flow, run in-process over byte slices: long tokens, CRLF, input that
//! ends anywhere, hostile streams, hints and the computer's moves.

use std::io;

use super::console::is_separator;
use super::*;
use crate::mancala::Mancala;
use crate::othello::Othello;
use crate::rng::Rng;

/// Runs a game in-process on `input`, reading through a buffer of `capacity` bytes.
pub(crate) fn play(
    game: Game,
    input: &[u8],
    capacity: usize,
    echo: bool,
) -> (Vec<u8>, Result<(), Stop>) {
    let mut out = Vec::new();
    let input = io::BufReader::with_capacity(capacity, input);
    let showing = Showing {
        echo,
        ..Showing::default()
    };
    let result = run(game.task(Opponents::default()), showing, input, &mut out);
    (out, result)
}

/// A game to play in a test.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Game {
    Othello { side: usize },
    Mancala { pits: usize, stones: u8 },
}

impl Game {
    /// The task of playing this game with `opponents`.
    fn task(self, opponents: Opponents) -> Task {
        match self {
            Game::Othello { side } => Task::PlayOthello {
                side: BoardSide::new(side).unwrap(),
                opponents,
            },
            Game::Mancala { pits, stones } => Task::PlayMancala {
                board: KalahBoard {
                    pits: PitsPerRow::new(pits).unwrap(),
                    stones,
                    capture: crate::mancala::Capture::Standard,
                },
                opponents,
            },
        }
    }
}

const OTHELLO_4: Game = Game::Othello { side: 4 };

#[test]
fn a_long_token_is_read_whole_but_kept_short() {
    let mut input = vec![b'A'; 10_000];
    input.extend_from_slice(b" 0\n");
    let (out, result) = play(OTHELLO_4, &input, 16, true);
    assert!(matches!(result, Err(Stop::InputEnded)));
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(&format!("Enter number of pits: {}\n", "A".repeat(10_000))));
    assert!(text.contains("Invalid number!\nEnter number of pits: 0\nRound 1:\n"));
}

#[test]
fn crlf_input_plays_like_lf_input() {
    let lf = b"2\nA1\nB2\nA2\nC4\n".to_vec();
    let crlf: Vec<u8> = lf
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    let (want, _) = play(OTHELLO_4, &lf, 64, false);
    let (got, _) = play(OTHELLO_4, &crlf, 64, false);
    assert_eq!(got, want);
    assert!(!got.contains(&b'\r'));
}

#[test]
fn input_ending_anywhere_stops_with_a_prefix_of_the_full_transcript() {
    let cases: [(Game, &[u8], &[u8]); 2] = [
        (
            OTHELLO_4,
            include_bytes!("../../tests/golden/othello/course-run-1.in"),
            include_bytes!("../../tests/golden/othello/course-run-1.out"),
        ),
        (
            Game::Mancala { pits: 6, stones: 4 },
            include_bytes!("../../tests/golden/mancala/default-game.in"),
            include_bytes!("../../tests/golden/mancala/default-game.out"),
        ),
    ];
    for (setup, input, full) in cases {
        // Cut only between tokens: a cut inside one leaves a different, shorter token.
        let cuts = (0..input.len()).filter(|&cut| cut == 0 || is_separator(input[cut - 1]));
        for cut in cuts {
            let (out, result) = play(setup, &input[..cut], 5, false);
            assert!(
                matches!(result, Err(Stop::InputEnded)),
                "{setup:?} cut at {cut}"
            );
            assert!(
                full.starts_with(&out),
                "{setup:?} cut at {cut}: not a prefix"
            );
        }
        let (out, result) = play(setup, input, 5, false);
        assert!(result.is_ok());
        assert_eq!(out, full);
    }
}

/// A stream mixing plausible answers (from `answer`) with junk: bad numbers, bad
/// addresses, invalid UTF-8, NUL, CR, tabs, and an end at a random point.
fn hostile_input(rng: &mut Rng, answer: impl Fn(&mut Rng) -> String) -> Vec<u8> {
    let junk: &[&[u8]] = &[
        b"-1",
        b"+2",
        b"1e3",
        b"99999999999999999999999",
        b"A0",
        b"A01",
        b"AA1",
        b"1A",
        b"\xff\xfe",
        b"\x00",
        b"\xc3\xa93",
        b"#$@",
        b"u",
        b"U",
        b"?",
        b"-",
        b"3.14",
    ];
    let separators: &[&[u8]] = &[b" ", b"\n", b"\r\n", b"\t", b"\r", b"\x0b"];
    let mut input = Vec::new();
    for _ in 0..rng.below(3000) {
        match rng.below(10) {
            0..=1 => input.extend_from_slice(junk[rng.below(junk.len())]),
            2 => input.push(u8::try_from(rng.below(256)).unwrap()),
            _ => input.extend_from_slice(answer(rng).as_bytes()),
        }
        input.extend_from_slice(separators[rng.below(separators.len())]);
    }
    input
}

#[test]
fn hostile_input_ends_the_game_or_the_input_never_anything_else() {
    let mut rng = Rng::new(0xB0A4D);
    let mut finished = [0; 2];
    for round in 0..400 {
        let (setup, input) = if round % 2 == 0 {
            let side = crate::board::TESTED_SIDES[rng.below(4)];
            let input = hostile_input(&mut rng, |rng| match rng.below(4) {
                0 => rng.below(side * side / 2 + 3).to_string(),
                _ => {
                    let col = char::from(b'a' + u8::try_from(rng.below(side + 1)).unwrap());
                    format!("{col}{}", rng.below(side + 2))
                }
            });
            (Game::Othello { side }, input)
        } else {
            let pits = crate::board::TESTED_PIT_COUNTS[rng.below(6)];
            let stones = 1 + u8::try_from(rng.below(99)).unwrap();
            let input = hostile_input(&mut rng, |rng| (rng.below(pits + 2)).to_string());
            (Game::Mancala { pits, stones }, input)
        };
        let (out, result) = play(setup, &input, 1 + rng.below(64), rng.below(2) == 0);
        match result {
            Ok(()) => {
                finished[round % 2] += 1;
                assert!(out.ends_with(b"wins!\n") || out.ends_with(b"Draw game!\n"));
            }
            Err(Stop::InputEnded) => {}
            Err(other) => panic!("{setup:?} stopped by {other}"),
        }
    }
    assert!(
        finished.iter().all(|&n| n > 10),
        "too few hostile games finished: {finished:?}"
    );
}

/// Plays with `opponents` from `input`; returns the transcript.
fn versus(game: Game, opponents: Opponents, input: &[u8]) -> String {
    let mut out = Vec::new();
    // Input may run out: the transcript up to there is what the tests read.
    let _ = run(game.task(opponents), Showing::default(), input, &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn a_hint_names_a_legal_move_and_asks_again_only_when_hints_are_on() {
    let hints = Opponents {
        hints: true,
        level: 2,
        ..Opponents::default()
    };
    let text = versus(Game::Othello { side: 4 }, hints, b"0 ? ");
    let hint = text.split("Hint: ").nth(1).unwrap().lines().next().unwrap();
    let at: Coord = hint.parse().unwrap();
    assert!(Othello::<4>::new().legal_moves().any(|m| m == at), "{hint}");
    assert!(text.ends_with(&format!("Hint: {hint}\nPlayer X's turn: ")));
    // What the relay reads of it.
    assert_eq!(othello_console::last_hint(&text), Some(at));
    assert!(text.ends_with(&othello_console::turn_prompt(crate::board::Player::First)));
    let plain = versus(Game::Othello { side: 4 }, Opponents::default(), b"0 ? ");
    assert!(plain.contains("Player X's turn: Invalid move!\n") && !plain.contains("Hint"));
}

#[test]
fn the_computer_prints_its_move_after_the_prompt_and_undo_goes_back_to_the_person() {
    let computer_two = Opponents {
        computer: [false, true],
        level: 2,
        ..Opponents::default()
    };
    let text = versus(Game::Mancala { pits: 3, stones: 2 }, computer_two, b"1 u ");
    // Player 1 sows pit 1; the computer answers on the same prompt line as a person would.
    let reply = text
        .lines()
        .find(|l| l.starts_with("Player 2, choose a pit (1-3, u = undo): "));
    let pit = reply.unwrap().rsplit(' ').next().unwrap();
    assert!(["1", "2", "3"].contains(&pit), "{text}");
    // One u takes back the computer's sowing and the person's: the start, Player 1 to move.
    let after = text.split("Move undone.\n").nth(1).unwrap();
    let start = Mancala::<3>::new(2).to_string();
    assert!(after.starts_with(&start), "{after}");
    assert!(after.ends_with("Player 1, choose a pit (1-3, u = undo): "));
}

/// The transcript of `game` on `input` on a friendly console, in colour or not.
fn friendly(game: Game, input: &[u8], colour: bool) -> (String, Result<(), Stop>) {
    let mut out = Vec::new();
    let showing = Showing {
        friendly: true,
        colour,
        ..Showing::default()
    };
    let result = run(game.task(Opponents::default()), showing, input, &mut out);
    (String::from_utf8(out).unwrap(), result)
}

#[test]
fn the_friendly_console_says_its_limits_answers_help_and_hints_and_ends_on_quit() {
    let kalah = Game::Mancala { pits: 3, stones: 2 };
    // (game, input, lines the transcript must hold, in order)
    let cases: &[(Game, &[u8], &[&str])] = &[
        (
            OTHELLO_4,
            b"9 0 help ? quit",
            &[
                "Enter number of pits (0 to 8): Too many pits! At most 8, half the board.",
                "Player X's turn (a cell like D3, ? for a hint, help): Type a move as",
                "Player X's turn (a cell like D3, ? for a hint, help): Hint: ",
                "Player X quit. Game over.",
            ],
        ),
        (
            OTHELLO_4,
            b"1 B2 A1 C3 A1",
            &[
                "Invalid position! B2 is a centre cell.",
                "A1 is a pit: no one may play there.",
            ],
        ),
        (
            kalah,
            b"help ? quit",
            &[
                "Type the number of one of your pits",
                "Hint: ",
                "Player 1 quit. Game over.",
            ],
        ),
    ];
    for &(game, input, want) in cases {
        let (out, result) = friendly(game, input, false);
        let mut rest = out.as_str();
        for line in want {
            let at = rest
                .find(line)
                .unwrap_or_else(|| panic!("{line:?} missing in:\n{out}"));
            rest = &rest[at + line.len()..];
        }
        let quit = input.ends_with(b"quit");
        assert_eq!(result.is_ok(), quit, "{out}");
        assert!(!out.contains('\x1b'), "{out}");
    }
    // Only in colour are there escapes: both boards, each player's own colour.
    for game in [OTHELLO_4, kalah] {
        let (plain, _) = friendly(game, b"0 quit", false);
        let (coloured, _) = friendly(game, b"0 quit", true);
        assert!(
            !plain.contains('\x1b') && coloured.contains("\x1b["),
            "{coloured}"
        );
    }
}
