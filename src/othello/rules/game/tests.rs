//! Tests of the Othello rules: moves drawn as board pictures, refused moves and pits, passes and
//! the end of the game, and random games at every side with the cells accounted for.

use super::*;
use crate::board::{BoardSide, SIDES};
use crate::othello::{WithSide, with_any_side};
use crate::rng::Rng;

/// A game from rows of `.`, `#`, `X` and `O` (spaces ignored), with `to_move` to play.
fn game<const N: usize>(picture: &str, to_move: Player) -> Othello<N>
where
    Side<N>: Layout,
{
    let rows: Vec<Vec<Cell>> = picture
        .lines()
        .map(|line| {
            line.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| match c {
                    '.' => Cell::Empty,
                    '#' => Cell::Pit,
                    'X' => Cell::Disc(Player::First),
                    'O' => Cell::Disc(Player::Second),
                    other => panic!("no cell is drawn as {other:?}"),
                })
                .collect()
        })
        .filter(|row: &Vec<Cell>| !row.is_empty())
        .collect();
    assert_eq!(rows.len(), N, "picture rows");
    let mut g = Othello::<N> {
        discs: [Bits::<N>::EMPTY; 2],
        pits: Bits::<N>::EMPTY,
        to_move,
        passes: 0,
    };
    for (row, cells) in rows.iter().enumerate() {
        assert_eq!(cells.len(), N, "picture row {row}");
        for (col, &cell) in cells.iter().enumerate() {
            let bit = Bits::<N>::cell(row * N + col);
            match cell {
                Cell::Empty => {}
                Cell::Pit => g.pits |= bit,
                Cell::Disc(player) => g.discs[player.index()] |= bit,
            }
        }
    }
    g
}

/// The board rows of a game as the picture helper draws them, one line each.
fn picture<const N: usize>(game: &Othello<N>) -> String
where
    Side<N>: Layout,
{
    game.rows()
        .map(|row| {
            let line: Vec<String> = row.map(|c| c.symbol().to_string()).collect();
            line.join(" ") + "\n"
        })
        .collect()
}

fn at(text: &str) -> Coord {
    text.parse().unwrap()
}

/// Plays `mv` on `before` and expects the picture `after` and the flip count `flipped`.
fn check<const N: usize>(before: &str, mover: Player, mv: &str, after: &str, flipped: usize)
where
    Side<N>: Layout,
{
    let mut g = game::<N>(before, mover);
    assert_eq!(g.play(at(mv)), Ok(flipped), "{mv} on\n{before}");
    let want = game::<N>(after, mover.opponent());
    assert_eq!(picture(&g), picture(&want), "{mv} on\n{before}");
    assert_eq!(g.to_move(), mover.opponent());
}

#[test]
fn a_move_flips_each_sandwiched_line_in_every_direction() {
    // X at the centre of a ring of O's closed by X's on all eight lines.
    let ring = "
        X . . X . . X
        . O . O . O .
        . . O O O . .
        X O O . O O X
        . . O O O . .
        . O . O . O .
        X . . X . . X";
    let all_flipped = "
        X . . X . . X
        . X . X . X .
        . . X X X . .
        X X X X X X X
        . . X X X . .
        . X . X . X .
        X . . X . . X";
    // Odd sides never reach the game, but the rules do not care; 8 keeps the picture honest.
    let pad = |p: &str| {
        let mut rows: Vec<String> = p
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{} .", l.trim()))
            .collect();
        rows.push(". . . . . . . .".into());
        rows.join("\n")
    };
    check::<8>(&pad(ring), Player::First, "D4", &pad(all_flipped), 16);
}

#[test]
fn single_lines_flip_at_edges_and_corners() {
    let cases: &[(&str, Player, &str, &str, usize)] = &[
        // East along row 1 from the corner.
        (
            ". O O X\n. . . .\n. . . .\n. . . .",
            Player::First,
            "A1",
            "X X X X\n. . . .\n. . . .\n. . . .",
            2,
        ),
        // West along the bottom edge into the corner.
        (
            ". . . .\n. . . .\n. . . .\nX O O .",
            Player::First,
            "D4",
            ". . . .\n. . . .\n. . . .\nX X X X",
            2,
        ),
        // North up column D from the corner.
        (
            ". . . X\n. . . O\n. . . O\n. . . .",
            Player::First,
            "D4",
            ". . . X\n. . . X\n. . . X\n. . . X",
            2,
        ),
        // South down column B from the top edge.
        (
            ". . . .\n. X . .\n. X . .\n. O . .",
            Player::Second,
            "B1",
            ". O . .\n. O . .\n. O . .\n. O . .",
            2,
        ),
        // North-east diagonal corner to corner.
        (
            ". . . O\n. . X .\n. X . .\n. . . .",
            Player::Second,
            "A4",
            ". . . O\n. . O .\n. O . .\nO . . .",
            2,
        ),
        // North-west diagonal corner to corner.
        (
            "O . . .\n. X . .\n. . X .\n. . . .",
            Player::Second,
            "D4",
            "O . . .\n. O . .\n. . O .\n. . . O",
            2,
        ),
        // South-east diagonal corner to corner.
        (
            ". . . .\n. X . .\n. . X .\n. . . O",
            Player::Second,
            "A1",
            "O . . .\n. O . .\n. . O .\n. . . O",
            2,
        ),
        // South-west diagonal corner to corner.
        (
            ". . . .\n. . O .\n. O . .\nX . . .",
            Player::First,
            "D1",
            ". . . X\n. . X .\n. X . .\nX . . .",
            2,
        ),
        // Two lines at once; the pit on the third line stops it.
        (
            ". X O .\nX # . .\nO . . .\n. . . O",
            Player::Second,
            "A1",
            "O O O .\nO # . .\nO . . .\n. . . O",
            2,
        ),
        // A line of one beside a longer one.
        (
            ". X O .\nX . . .\nX . . .\nO . . .",
            Player::Second,
            "A1",
            "O O O .\nO . . .\nO . . .\nO . . .",
            3,
        ),
    ];
    for &(before, mover, mv, after, flipped) in cases {
        check::<4>(before, mover, mv, after, flipped);
    }
}

#[test]
fn refused_moves_leave_the_game_untouched() {
    let board = "
        # . . .
        . X O .
        . O X .
        . . . .";
    let cases: &[(&str, MoveError)] = &[
        ("A1", MoveError::Occupied),
        ("B2", MoveError::Occupied),
        ("A4", MoveError::NoFlips),
        ("D1", MoveError::NoFlips),
        ("E1", MoveError::OffBoard),
        ("A26", MoveError::OffBoard),
    ];
    for &(mv, err) in cases {
        let mut g = game::<4>(board, Player::First);
        let before = g.clone();
        assert_eq!(g.play(at(mv)), Err(err), "{mv}");
        assert_eq!(g, before, "{mv} changed the game");
    }
    let mut g = game::<4>(board, Player::First);
    assert_eq!(g.pass(), Err(MoveError::MustMove));
    assert_eq!(g.to_move(), Player::First);
}

#[test]
fn a_sandwich_must_be_closed_by_the_movers_disc() {
    // O's run to the edge, or to a pit, or to an empty cell: none of them flips.
    for row in [". O O O", ". O O #", ". O . X"] {
        let board = format!("{row}\n. . . .\n. . . .\n. . . .");
        let g = game::<4>(&board, Player::First);
        assert_eq!(g.clone().play(at("A1")), Err(MoveError::NoFlips), "{row}");
    }
}

#[test]
fn two_passes_in_a_row_end_the_game() {
    let mut g = game::<4>(". # # .\n# X O #\n# O X #\n. # # .", Player::First);
    assert_eq!(g.outcome(), None);
    assert!(!g.has_legal_move());
    g.pass().unwrap();
    assert_eq!(g.outcome(), None);
    g.pass().unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.pass(), Err(MoveError::GameOver));
    assert_eq!(g.play(at("A1")), Err(MoveError::GameOver));
}

#[test]
fn a_move_between_passes_resets_the_count() {
    let mut g = game::<4>("O X . .\n# # # #\n# # # #\n# # # #", Player::First);
    g.pass().unwrap();
    g.play(at("C1")).unwrap();
    g.pass().unwrap();
    assert_eq!(g.outcome(), None, "X, move, X is not two passes in a row");
    g.pass().unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Won(Player::Second)));
    assert!(!g.is_full());
}

#[test]
fn filling_the_board_ends_the_game_at_once() {
    let mut g = game::<4>("X X X X\nX X X X\nX X X O\nX X O .", Player::First);
    g.play(at("D4")).unwrap();
    assert!(g.is_full());
    assert_eq!(g.outcome(), Some(Outcome::Won(Player::First)));
    assert_eq!(g.count(Cell::Disc(Player::First)), 16);
}

#[test]
fn pits_go_on_empty_cells_outside_the_centre_only() {
    let mut g = Othello::<6>::new();
    let cases: &[(&str, Result<(), PitError>)] = &[
        ("A1", Ok(())),
        ("A1", Err(PitError::AlreadyPit)),
        ("C3", Err(PitError::Centre)),
        ("D4", Err(PitError::Centre)),
        ("C4", Err(PitError::Centre)),
        ("D3", Err(PitError::Centre)),
        ("B2", Ok(())),
        ("X10", Err(PitError::OffBoard)),
        ("G1", Err(PitError::OffBoard)),
        ("F6", Ok(())),
    ];
    for &(pos, want) in cases {
        assert_eq!(g.add_pit(at(pos)), want, "{pos}");
    }
    assert_eq!(g.count(Cell::Pit), 3);
    g.play(at("D2")).unwrap();
    assert_eq!(g.add_pit(at("D2")), Err(PitError::Occupied));
}

#[test]
fn pit_counts_stop_at_half_the_board() {
    assert_eq!(Othello::<4>::check_pit_count(0), Ok(0));
    assert_eq!(Othello::<4>::check_pit_count(8), Ok(8));
    assert_eq!(Othello::<4>::check_pit_count(9), Err(PitError::TooMany));
    assert_eq!(Othello::<26>::check_pit_count(338), Ok(338));
    assert_eq!(
        Othello::<26>::check_pit_count(usize::MAX),
        Err(PitError::TooMany)
    );
}

/// Plays one random game with random pits and checks the cell accounting after every move.
struct RandomGame(u64);

impl WithSide for RandomGame {
    type Output = ();
    fn run<const N: usize>(self)
    where
        Side<N>: Layout,
    {
        let mut rng = Rng::new(self.0);
        let mut g = Othello::<N>::new();
        let pits = rng.below(Othello::<N>::MAX_PITS + 1);
        let mut placed = 0;
        while placed < pits {
            let c = Coord::new(rng.below(N), rng.below(N), N).unwrap();
            placed += usize::from(g.add_pit(c).is_ok());
        }
        let mut plies = 0;
        while g.outcome().is_none() {
            let moves: Vec<Coord> = g.legal_moves().collect();
            if moves.is_empty() {
                g.pass().unwrap();
            } else {
                let mover = g.to_move();
                let before = g.count(Cell::Disc(mover));
                let flipped = g.play(moves[rng.below(moves.len())]).unwrap();
                assert!(flipped > 0);
                assert_eq!(g.count(Cell::Disc(mover)), before + 1 + flipped);
            }
            let discs = g.count(Cell::Disc(Player::First)) + g.count(Cell::Disc(Player::Second));
            assert_eq!(discs + g.count(Cell::Empty) + g.count(Cell::Pit), N * N);
            assert_eq!(g.count(Cell::Pit), pits);
            plies += 1;
            assert!(plies <= 2 * N * N, "seed {} did not end", self.0);
        }
    }
}

#[test]
fn random_games_keep_every_cell_accounted_for_and_end() {
    let mut pick = Rng::new(0x5EED);
    for seed in 1..=200 {
        let side = BoardSide::new(SIDES[pick.below(SIDES.len())]).unwrap();
        with_any_side(side, RandomGame(seed));
    }
}
