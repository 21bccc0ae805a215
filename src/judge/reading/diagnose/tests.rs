use super::rules::wrapping_flips;
use super::*;
use crate::board::BoardSide;
use crate::driver::{Opponents, Task, transcript};
use crate::judge::reading::events::pieces;

/// Othello on 4x4, the course run's board.
fn othello() -> Game {
    Game::Othello(BoardSide::new(4).expect("4 is a board side"))
}

/// The course's sample run 1 (a 4x4 game with a refused pit), as the game plays it.
fn course_run() -> Transcript {
    let input = include_bytes!("../../../../tests/golden/othello/course-run-1.in");
    let play = Task::PlayOthello {
        side: BoardSide::new(4).expect("4 is a board side"),
        opponents: Opponents::default(),
    };
    transcript(play, input)
}

#[test]
fn a_prompt_that_shares_its_line_is_a_piece_of_its_own() {
    let text = b"Enter number of pits: Enter position for pit 1: Invalid position!\r\nRound 1:\n";
    let got: Vec<(&[u8], bool, bool)> = pieces(othello(), text)
        .iter()
        .map(|p| (p.text, p.newline, p.crlf))
        .collect();
    let want: [(&[u8], bool, bool); 4] = [
        (b"Enter number of pits: ", false, false),
        (b"Enter position for pit 1: ", false, false),
        (b"Invalid position!", true, true),
        (b"Round 1:", true, false),
    ];
    assert_eq!(got, want);
}

#[test]
fn cosmetic_slips_are_a_presentation_error_named_once_per_kind() {
    let expected = course_run();
    let text = String::from_utf8(expected.output.clone()).unwrap();
    let cases: &[(&str, &[&str])] = &[
        (
            &text.replace("   A B C D\n", "   A B C D \n"),
            &["whitespace"],
        ),
        (
            &text.replace("position for pit", "position of block"),
            &["prompt-wording"],
        ),
        (
            &text.replace("Player X's turn", "player x's turn"),
            &["letter-case"],
        ),
        (text.trim_end(), &["final-newline"]),
        (&text.replace('\n', "\r\n"), &["crlf-line-endings"]),
        (
            &text.replace('\n', "\r\n").replace(" 1 ", "  1 "),
            &["crlf-line-endings", "whitespace"],
        ),
        (&text.replace("Round", "\nRound"), &["whitespace"]),
        (
            &text
                .replace("Invalid position!", "Wrong position.")
                .replace(" 1 ", "  1 "),
            &["prompt-wording", "whitespace"],
        ),
    ];
    for (actual, rules) in cases {
        let found = diagnose(othello(), &expected, actual.as_bytes(), false);
        assert_eq!(found.rule, None, "{actual}");
        let mut ids: Vec<&str> = found.cosmetics.iter().map(|c| c.rule.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut want = rules.to_vec();
        want.sort_unstable();
        assert_eq!(ids, want, "{:?}", found.cosmetics);
    }
    // One prompt slip is one kind, however many pits it touches.
    let slip = text.replace("position for pit", "position of pit");
    let found = diagnose(othello(), &expected, slip.as_bytes(), false);
    assert_eq!(found.cosmetics.len(), 1, "{:?}", found.cosmetics);
    assert_eq!(
        found.cosmetics[0].description,
        "prompt wording: `Enter position of pit 1:` for `Enter position for pit 1:`"
    );
}

#[test]
fn game_level_differences_are_named_by_rule() {
    let expected = course_run();
    let text = String::from_utf8(expected.output.clone()).unwrap();
    let round_2 = text.find("Round 2:").unwrap();
    let cases: Vec<(String, bool, Rule)> = vec![
        // The first move (B2... D3 flips C3) shown without its flip.
        (
            format!(
                "{}{}",
                &text[..round_2],
                text[round_2..].replacen(" 2 . X X X ", " 2 . X O X ", 1)
            ),
            false,
            Rule::FlipMissing,
        ),
        (
            text.replacen("Invalid position!\n", "", 1),
            false,
            Rule::PitSetup,
        ),
        (
            text.replace("Round 3:", "Round 4:"),
            false,
            Rule::RoundWrong,
        ),
        (
            text.replace("Player O wins!", "Player X wins!")
                .replace("Player X wins!\n", "Draw game!\n"),
            false,
            Rule::WrongResult,
        ),
        // An output that ends early: in the middle of the game, or before it began.
        (text[..round_2].to_string(), false, Rule::GameEndsEarly),
        (String::new(), false, Rule::NoOutput),
        (" \n".to_string(), true, Rule::NoOutput),
        // A run cut short is read up to where it stopped.
        (text[..round_2].to_string(), true, Rule::Whitespace),
    ];
    for (actual, cut, rule) in cases {
        let found = diagnose(othello(), &expected, actual.as_bytes(), cut);
        if rule == Rule::Whitespace {
            assert_eq!(found.rule, None);
            assert!(
                found.detail[0].starts_with("the output stops after token"),
                "{found:?}"
            );
        } else {
            assert_eq!(found.rule, Some(rule), "{found:?}");
            assert!(found.detail[0].starts_with(&format!("rule {}", rule.id())));
        }
    }
}

#[test]
fn an_output_that_repeats_itself_is_named_as_a_loop() {
    let expected = course_run();
    let text = String::from_utf8(expected.output.clone()).unwrap();
    let round_2 = text.find("Round 2:").unwrap();
    let mut actual = text[..round_2].to_string();
    for _ in 0..50 {
        actual.push_str("Invalid move!\nPlayer O's turn: ");
    }
    actual.push_str("Inval");
    let found = diagnose(othello(), &expected, actual.as_bytes(), true);
    assert_eq!(found.rule, Some(Rule::LegalMoveRefused));
    let looped = found.looped.expect("a loop");
    assert!(
        looped.ends_with("printed `Invalid move! Player O's turn:` 50 times")
            || looped.ends_with("printed `Player O's turn: Invalid move!` 49 times"),
        "{looped}"
    );
}

#[test]
fn lines_that_run_off_an_edge_flip_what_a_flat_or_round_board_brackets() {
    // (board, move, mover, the cells the wrapping walks flip)
    let cases: &[(&str, usize, u8, &[usize])] = &[
        // D1 by X: the flat walk right runs from D1 on to A2 (O) and B2 (X).
        ("...OX...........", 3, b'X', &[]),
        ("....OX..........", 3, b'X', &[4]),
        // A2 by X: the torus walk left runs from A2 to D2 (O) then C2 (X).
        ("......XO........", 4, b'X', &[7]),
        // A legal line is no wrap.
        (".OX.............", 0, b'X', &[1]),
    ];
    for &(board, at, mover, want) in cases {
        let mut got = wrapping_flips(board.as_bytes(), 4, at, mover);
        got.sort_unstable();
        got.dedup();
        assert_eq!(got, want, "{board} {at}");
    }
}

#[test]
fn discs_flipped_in_place_after_a_wrapped_line_are_the_wrap_s_doing() {
    // O plays A4: the flat walk up-left wraps from A4 to D2 (X) and C1 (O); once B3 is
    // flipped, the walk left from A4 closes at B3 and flips D3 and C3 as a program that flips
    // while it walks does.
    let before = b"OOOO.XXX#XXX.XOX";
    let mut got = super::rules::wrapping_closure(before, 4, 12, b'O');
    got.sort_unstable();
    got.dedup();
    for cell in [7, 10, 11] {
        assert!(got.contains(&cell), "{cell} in {got:?}");
    }
}

#[test]
fn any_bytes_a_program_writes_are_read_without_a_panic() {
    // The course run and a Kalah game, cut, spliced, repeated and sprinkled with bytes of every
    // kind: each is read against the true transcript, cut short or not.
    let othello_expected = course_run();
    let kalah = Game::Mancala(crate::driver::KalahBoard {
        pits: crate::board::PitsPerRow::new(3).expect("3 pits"),
        stones: 2,
        capture: crate::mancala::Capture::Standard,
    });
    let Game::Mancala(board) = kalah else {
        unreachable!("a Kalah game")
    };
    let kalah_expected = transcript(
        Task::PlayMancala {
            board,
            opponents: Opponents::default(),
        },
        b"1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 u 1 2 3",
    );
    let mut rng = crate::rng::Rng::new(7);
    let noise: &[u8] = b" \n\r\t:|+-#.XOxo0123456789ABCDEFPlayer pit wins Round\xff\x00";
    for (game, expected) in [(othello(), &othello_expected), (kalah, &kalah_expected)] {
        let text = &expected.output;
        for _ in 0..400 {
            let mut bytes = Vec::new();
            for _ in 0..rng.below(6) + 1 {
                let a = rng.below(text.len() + 1);
                let b = a + rng.below(text.len() + 1 - a);
                for _ in 0..rng.below(3) + 1 {
                    bytes.extend_from_slice(&text[a..b]);
                }
                for _ in 0..rng.below(20) {
                    bytes.push(noise[rng.below(noise.len())]);
                }
            }
            let cut = rng.below(2) == 0;
            let found = diagnose(game, expected, &bytes, cut);
            // Every output that differs is explained: by a rule, a cosmetic kind, or where a
            // run cut short stopped.
            let explained = found.rule.is_some()
                || !found.cosmetics.is_empty()
                || (cut && !found.detail.is_empty());
            assert!(
                bytes == *text || explained,
                "{:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}
