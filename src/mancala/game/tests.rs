//! Tests of the Kalah rules: sowings drawn as boards, laps, captures, the sweep, refused moves,
//! undo, random games at every width, and the perfect-play goldens replayed through the game.

use super::*;
use crate::board::{PIT_COUNTS, PitsPerRow};
use crate::mancala::{WithPits, with_any_pits};
use crate::rng::Rng;

/// A game from the board as drawn: Player 2's row left to right (pits P..1), Player 1's row
/// left to right (pits 1..P), then the stores of Player 2 and Player 1.
fn game<const P: usize>(
    top: [u16; P],
    bottom: [u16; P],
    stores: [u32; 2],
    to_move: Player,
) -> Mancala<P> {
    let mut second = top;
    second.reverse();
    Mancala {
        now: Position {
            pits: [bottom, second],
            stores: [stores[1], stores[0]],
            to_move,
        },
        capture: Capture::Standard,
        history: Vec::new(),
    }
}

/// [`game`] under the empty-capture rule.
fn empty_rule<const P: usize>(game: Mancala<P>) -> Mancala<P> {
    Mancala {
        capture: Capture::Empty,
        ..game
    }
}

/// Sows `pit` on `before` for its player to move and expects the board `after` and the
/// report `want`.
fn check<const P: usize>(before: Mancala<P>, pit: usize, after: &Mancala<P>, want: Sowing) {
    let mut g = before;
    let sowing = g.sow(pit).unwrap();
    assert_eq!(sowing, want, "pit {pit}");
    assert_eq!(g.now, after.now, "pit {pit}:\n{g}want\n{after}");
}

const PASS: Sowing = Sowing {
    captured: None,
    next: Next::TurnPasses,
};

#[test]
fn sowing_follows_the_ring() {
    use Player::{First as P1, Second as P2};
    // Into the own store: move again.
    check(
        game([4; 6], [4, 4, 4, 4, 4, 4], [0, 0], P1),
        3,
        &game([4; 6], [4, 4, 0, 5, 5, 5], [0, 1], P1),
        Sowing {
            captured: None,
            next: Next::MoveAgain,
        },
    );
    // Past the own store onto the other row.
    check(
        game([4; 6], [4, 4, 4, 4, 4, 4], [0, 0], P1),
        6,
        &game([4, 4, 4, 5, 5, 5], [4, 4, 4, 4, 4, 0], [0, 1], P2),
        PASS,
    );
    // Player 2 sows 14 from pit 2 leftwards along the top, into the store on the left,
    // rightwards along the bottom, past Player 1's store without a stone, and on into pits
    // 1 to 3 again.
    check(
        game([0, 0, 0, 0, 14, 0], [1, 0, 0, 0, 0, 0], [0, 0], P2),
        2,
        &game([1, 1, 1, 2, 1, 1], [2, 1, 1, 1, 1, 1], [1, 0], P1),
        PASS,
    );
    // Player 1 skips Player 2's store: 9 stones from pit 6 go store, six top pits, then
    // pits 1 and 2 of the own row.
    check(
        game([0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 9], [0, 0], P1),
        6,
        &game([1, 1, 1, 1, 1, 2], [1, 2, 0, 0, 0, 0], [0, 1], P2),
        PASS,
    );
}

#[test]
fn a_lap_of_thirteen_sows_into_the_starting_pit_and_may_capture_from_it() {
    use Player::{First as P1, Second as P2};
    // 13 stones from pit 1 go round the whole ring of 13 holes and end in pit 1 itself,
    // which was emptied, so the lap captures the opposite pit (Player 2's pit 6, 4 + 1).
    check(
        game([4; 6], [13, 0, 0, 0, 0, 0], [0, 0], P1),
        1,
        &game([0, 5, 5, 5, 5, 5], [0, 1, 1, 1, 1, 1], [0, 7], P2),
        Sowing {
            captured: Some(5),
            next: Next::TurnPasses,
        },
    );
    // 20 stones: one lap and 7 more, ending on the top row.
    check(
        game([1; 6], [0, 20, 0, 0, 0, 1], [0, 0], P1),
        2,
        &game([2, 2, 2, 2, 3, 3], [1, 1, 2, 2, 2, 3], [0, 2], P2),
        PASS,
    );
}

#[test]
fn captures_take_the_opposite_pit_only_when_it_has_stones() {
    use Player::{First as P1, Second as P2};
    // Player 1's pit 4 is empty; pit 2 with 2 stones ends there. Opposite is Player 2's
    // pit 3 (fourth from the left on top) with 7 stones.
    check(
        game([1, 1, 1, 7, 1, 1], [1, 2, 1, 0, 1, 1], [0, 0], P1),
        2,
        &game([1, 1, 1, 0, 1, 1], [1, 0, 2, 0, 1, 1], [0, 8], P2),
        Sowing {
            captured: Some(7),
            next: Next::TurnPasses,
        },
    );
    // The same with the opposite pit empty: the stone stays, nothing is captured.
    check(
        game([1, 1, 1, 0, 1, 1], [1, 2, 1, 0, 1, 1], [0, 0], P1),
        2,
        &game([1, 1, 1, 0, 1, 1], [1, 0, 2, 1, 1, 1], [0, 0], P2),
        PASS,
    );
    // Under the empty-capture rule the last stone goes to the store all the same.
    check(
        empty_rule(game([1, 1, 1, 0, 1, 1], [1, 2, 1, 0, 1, 1], [0, 0], P1)),
        2,
        &game([1, 1, 1, 0, 1, 1], [1, 0, 2, 0, 1, 1], [0, 1], P2),
        Sowing {
            captured: Some(0),
            next: Next::TurnPasses,
        },
    );
    // Ending in an empty pit of the opponent's row captures nothing.
    check(
        game([0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 3], [0, 0], P1),
        6,
        &game([0, 1, 1, 1, 2, 2], [1, 1, 1, 1, 1, 0], [0, 1], P2),
        PASS,
    );
    // Player 2 captures from Player 1's row: pit 1 (top right) with 1 stone ends in pit 2,
    // opposite Player 1's pit 5.
    check(
        game([1, 1, 1, 1, 0, 1], [1, 1, 1, 1, 6, 1], [0, 0], P2),
        1,
        &game([1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 1], [7, 0], P1),
        Sowing {
            captured: Some(6),
            next: Next::TurnPasses,
        },
    );
}

#[test]
fn an_empty_row_ends_the_game_and_the_other_player_sweeps() {
    use Player::{First as P1, Second as P2};
    // Player 1 empties their own row: Player 2 sweeps 10.
    check(
        game([1, 2, 3, 4, 0, 0], [0, 0, 0, 0, 0, 1], [5, 5], P1),
        6,
        &game([0; 6], [0; 6], [15, 6], P1),
        Sowing {
            captured: None,
            next: Next::GameOver {
                swept: Some((P2, 10)),
                outcome: Outcome::Won(P2),
            },
        },
    );
    // Player 2 sows their last stone into their store, which ends the game rather than
    // giving a move: Player 1 sweeps 3.
    check(
        game([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3], [4, 4], P2),
        6,
        &game([0; 6], [0; 6], [5, 7], P2),
        Sowing {
            captured: None,
            next: Next::GameOver {
                swept: Some((P1, 3)),
                outcome: Outcome::Won(P1),
            },
        },
    );
    // A capture that empties both rows leaves nothing to sweep.
    check(
        game([0, 2, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [3, 3], P1),
        1,
        &game([0; 6], [0; 6], [3, 6], P1),
        Sowing {
            captured: Some(2),
            next: Next::GameOver {
                swept: None,
                outcome: Outcome::Won(P1),
            },
        },
    );
}

#[test]
fn refused_moves_leave_the_game_untouched() {
    let start = game(
        [4, 0, 4, 4, 4, 4],
        [4, 0, 4, 4, 4, 4],
        [0, 0],
        Player::First,
    );
    for (pit, err) in [
        (0, MoveError::NoSuchPit),
        (7, MoveError::NoSuchPit),
        (usize::MAX, MoveError::NoSuchPit),
        (2, MoveError::EmptyPit),
    ] {
        let mut g = start.clone();
        assert_eq!(g.sow(pit), Err(err), "pit {pit}");
        assert_eq!(g, start);
    }
    let mut g = start.clone();
    assert_eq!(g.undo(), Err(MoveError::NothingToUndo));
    assert_eq!(g, start);
    let mut over = game([0; 6], [1, 0, 0, 0, 0, 0], [20, 3], Player::First);
    assert_eq!(over.sow(1), Err(MoveError::GameOver));
}

#[test]
fn undo_walks_back_an_extra_move_chain_one_sowing_at_a_time() {
    let mut g = Mancala::<6>::new(4);
    let start = g.clone();
    assert_eq!(g.sow(3).unwrap().next, Next::MoveAgain);
    let after_first = g.clone();
    assert_eq!(g.sow(6).unwrap().next, Next::TurnPasses);
    assert_eq!(g.to_move(), Player::Second);
    g.undo().unwrap();
    assert_eq!(g.now, after_first.now);
    assert_eq!(g.to_move(), Player::First);
    g.undo().unwrap();
    assert_eq!(g, start);
    assert_eq!(g.undo(), Err(MoveError::NothingToUndo));
}

/// Random games with random undos, checking conservation and the undo history throughout.
struct RandomGames(u64);

impl WithPits for RandomGames {
    type Output = ();
    fn run<const P: usize>(self) {
        let mut rng = Rng::new(self.0);
        for _ in 0..20 {
            let stones = 1 + u8::try_from(rng.below(12)).unwrap();
            let total = 2 * u32::try_from(P).unwrap() * u32::from(stones);
            let mut g = Mancala::<P>::new(stones);
            let mut seen = vec![g.clone()];
            let mut moves = 0;
            while !g.is_over() {
                if rng.below(6) == 0 && seen.len() > 1 {
                    g.undo().unwrap();
                    seen.pop();
                    assert_eq!(
                        g.now,
                        seen.last().unwrap().now,
                        "undo restores the position"
                    );
                } else {
                    let pit = 1 + rng.below(P);
                    match g.sow(pit) {
                        Ok(_) => seen.push(g.clone()),
                        Err(err) => assert_eq!(err, MoveError::EmptyPit),
                    }
                }
                assert_eq!(g.stones(), total);
                moves += 1;
                assert!(moves < 100_000, "P = {P}, seed {} did not end", self.0);
            }
            assert_eq!(g.score(Player::First) + g.score(Player::Second), total);
            while g.undo().is_ok() {
                assert_eq!(g.stones(), total);
            }
            assert_eq!(g, Mancala::new(stones));
        }
    }
}

#[test]
fn random_games_at_every_width_conserve_stones_and_end() {
    for pits in PIT_COUNTS {
        with_any_pits(
            PitsPerRow::new(pits).unwrap(),
            RandomGames(pits as u64 * 7919),
        );
    }
}

/// Replays a golden transcript's input through the library (valid pits only, as those games
/// have) and returns the final scores.
fn replay<const P: usize>(stones: u8, input: &str) -> (u32, u32) {
    let mut g = Mancala::<P>::new(stones);
    for token in input.split_whitespace() {
        g.sow(token.parse().unwrap()).unwrap();
    }
    assert!(g.is_over());
    (g.score(Player::First), g.score(Player::Second))
}

/// The `Player 1: a, Player 2: b` line of a transcript.
fn final_scores(transcript: &str) -> (u32, u32) {
    let line = transcript
        .lines()
        .find_map(|l| l.strip_prefix("Player 1: "))
        .unwrap();
    let (a, b) = line.split_once(", Player 2: ").unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

#[test]
fn perfect_play_goldens_replay_to_their_scores() {
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/mancala/");
    let read = |name: &str| std::fs::read_to_string(format!("{golden}{name}")).unwrap();
    let cases = [
        (
            "perfect-play-4x3",
            replay::<4>(3, &read("perfect-play-4x3.in")),
        ),
        (
            "perfect-play-6x1",
            replay::<6>(1, &read("perfect-play-6x1.in")),
        ),
        (
            "perfect-play-6x2",
            replay::<6>(2, &read("perfect-play-6x2.in")),
        ),
    ];
    for (name, scores) in cases {
        assert_eq!(
            scores,
            final_scores(&read(&format!("{name}.out"))),
            "{name}"
        );
    }
}

/// On an arbitrary board of `P` pits a row (`pits`: both rows, `stores`, whose move): each pit
/// either sows, conserving the stones, and undoes back to the board, or is refused and leaves
/// the game exactly as it was; under either capture rule.
fn sows_anywhere<const P: usize>(pits: &[u16], stores: [u32; 2], first: bool) {
    let row = |k: usize| -> [u16; P] { std::array::from_fn(|i| pits[k * P + i]) };
    let to_move = if first { Player::First } else { Player::Second };
    for board in [
        game::<P>(row(0), row(1), stores, to_move),
        empty_rule(game::<P>(row(0), row(1), stores, to_move)),
    ] {
        for pit in 0..=P + 1 {
            let mut sown = board.clone();
            match sown.sow(pit) {
                Ok(_) => {
                    assert_eq!(sown.stones(), board.stones(), "pit {pit} of\n{board}");
                    sown.undo().unwrap();
                    assert_eq!(sown, board, "pit {pit}");
                }
                Err(_) => assert_eq!(sown, board, "pit {pit}"),
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn any_board_sows_conserving_stones_and_undoes_exactly(
        pits in proptest::collection::vec(0u16..40, 2 * 6),
        stores in proptest::array::uniform2(0u32..100),
        first: bool,
    ) {
        sows_anywhere::<1>(&pits, stores, first);
        sows_anywhere::<3>(&pits, stores, first);
        sows_anywhere::<6>(&pits, stores, first);
    }
}
