//! Othello with pits as pure game logic: the board, its setup (centre discs, then pits), the
//! legal-move test, playing and passing, the end of the game and its result, and the board text
//! that the course's `print_board` writes. It never reads input or writes output; every
//! operation that can fail is checked and leaves the game untouched when it does.

use std::fmt;

use crate::bitboard::{self, Bits as _, Layout, Position, Side};
use crate::board::{Coord, Outcome, Player};

/// What occupies one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Free for a disc.
    Empty,
    /// Unusable for the whole game.
    Pit,
    /// A disc of this colour.
    Disc(Player),
}

impl Cell {
    /// The character the course's board printout uses for the cell.
    #[must_use]
    pub fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Pit => '#',
            Cell::Disc(Player::First) => 'X',
            Cell::Disc(Player::Second) => 'O',
        }
    }
}

/// Why a pit count or a pit position was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PitError {
    /// More pits than half the board.
    TooMany,
    /// The address lies outside the board.
    OffBoard,
    /// One of the four centre cells, which hold the starting discs.
    Centre,
    /// The cell is a pit already.
    AlreadyPit,
    /// A disc has been played there.
    Occupied,
}

/// Why a move or a pass was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The address lies outside the board.
    OffBoard,
    /// The cell holds a disc or a pit.
    Occupied,
    /// A disc there would sandwich no opposing disc.
    NoFlips,
    /// A pass while a legal move exists.
    MustMove,
    /// The game has ended.
    GameOver,
}

/// The bit set of an `N` x `N` board.
type Bits<const N: usize> = <Side<N> as Layout>::Bits;

/// A game of Othello with pits on an `N` x `N` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello<const N: usize>
where
    Side<N>: Layout,
{
    /// The discs of each player, by [`Player::index`].
    discs: [Bits<N>; 2],
    pits: Bits<N>,
    to_move: Player,
    /// Passes in a row; two end the game.
    passes: u8,
}

impl<const N: usize> Default for Othello<N>
where
    Side<N>: Layout,
{
    fn default() -> Self {
        Self::new()
    }
}

/// The bit index of a cell.
fn index<const N: usize>(at: Coord) -> usize {
    at.row() * N + at.col()
}

impl<const N: usize> Othello<N>
where
    Side<N>: Layout,
{
    /// The most pits a board may have: half its cells.
    pub const MAX_PITS: usize = N * N / 2;

    /// A new game: the four centre discs (`X` on the diagonal from the top-left centre cell), no
    /// pits, Black (`X`) to move.
    #[must_use]
    pub fn new() -> Self {
        const { assert!(N.is_multiple_of(2) && N >= 4 && N <= crate::board::MAX_SIDE) };
        let (a, b) = (N / 2 - 1, N / 2);
        let cell = |col, row| Bits::<N>::cell(row * N + col);
        Othello {
            discs: [cell(a, a) | cell(b, b), cell(b, a) | cell(a, b)],
            pits: Bits::<N>::EMPTY,
            to_move: Player::First,
            passes: 0,
        }
    }

    /// Accepts a number of pits to place, or refuses one above [`Self::MAX_PITS`].
    pub fn check_pit_count(count: usize) -> Result<usize, PitError> {
        if count <= Self::MAX_PITS {
            Ok(count)
        } else {
            Err(PitError::TooMany)
        }
    }

    /// Turns an empty cell outside the centre into a pit.
    pub fn add_pit(&mut self, at: Coord) -> Result<(), PitError> {
        if !at.is_on(N) {
            return Err(PitError::OffBoard);
        }
        if Self::is_centre(at) {
            return Err(PitError::Centre);
        }
        match self.cell(at) {
            Cell::Empty => {
                self.pits |= Bits::<N>::cell(index::<N>(at));
                Ok(())
            }
            Cell::Pit => Err(PitError::AlreadyPit),
            Cell::Disc(_) => Err(PitError::Occupied),
        }
    }

    fn is_centre(at: Coord) -> bool {
        let centre = N / 2 - 1..=N / 2;
        centre.contains(&at.col()) && centre.contains(&at.row())
    }

    /// What occupies `at`; a cell off the board reads as a pit, since no one may play there.
    #[must_use]
    pub fn cell(&self, at: Coord) -> Cell {
        let i = index::<N>(at);
        if !at.is_on(N) || self.pits.has(i) {
            Cell::Pit
        } else if self.discs[0].has(i) {
            Cell::Disc(Player::First)
        } else if self.discs[1].has(i) {
            Cell::Disc(Player::Second)
        } else {
            Cell::Empty
        }
    }

    /// The player whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The discs of the player to move and of the other player.
    fn sides(&self) -> (Bits<N>, Bits<N>) {
        let me = self.to_move.index();
        (self.discs[me], self.discs[1 - me])
    }

    fn empty(&self) -> Bits<N> {
        <Side<N> as Layout>::ALL & !(self.discs[0] | self.discs[1] | self.pits)
    }

    /// The board as the engine sees it, from the side of the player to move.
    #[must_use]
    pub fn position(&self) -> Position<Side<N>> {
        let (me, opp) = self.sides();
        Position {
            me,
            opp,
            empty: self.empty(),
        }
    }

    /// The cells the player to move may play.
    fn legal(&self) -> Bits<N> {
        self.position().moves()
    }

    /// Every cell the player to move may play, row by row.
    pub fn legal_moves(&self) -> impl Iterator<Item = Coord> + use<N> {
        self.legal()
            .cells()
            .filter_map(|i| Coord::new(i % N, i / N, N))
    }

    /// Whether the player to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        !self.legal().is_empty()
    }

    /// Places a disc for the player to move, flips every sandwiched line and hands the turn
    /// over. Returns how many discs flipped.
    pub fn play(&mut self, at: Coord) -> Result<usize, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !at.is_on(N) {
            return Err(MoveError::OffBoard);
        }
        if self.cell(at) != Cell::Empty {
            return Err(MoveError::Occupied);
        }
        let (me, opp) = self.sides();
        let i = index::<N>(at);
        let flipped = bitboard::flips::<Side<N>>(me, opp, i);
        if flipped.is_empty() {
            return Err(MoveError::NoFlips);
        }
        let mover = self.to_move.index();
        self.discs[mover] |= flipped | Bits::<N>::cell(i);
        self.discs[1 - mover] ^= flipped;
        self.to_move = self.to_move.opponent();
        self.passes = 0;
        Ok(flipped.len() as usize)
    }

    /// Hands the turn over without a move, which is allowed only when there is no legal move.
    pub fn pass(&mut self) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if self.has_legal_move() {
            return Err(MoveError::MustMove);
        }
        self.to_move = self.to_move.opponent();
        self.passes += 1;
        Ok(())
    }

    /// Whether no cell is empty.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.empty().is_empty()
    }

    /// How many cells hold `cell`.
    #[must_use]
    pub fn count(&self, cell: Cell) -> usize {
        let set = match cell {
            Cell::Empty => self.empty(),
            Cell::Pit => self.pits,
            Cell::Disc(player) => self.discs[player.index()],
        };
        set.len() as usize
    }

    /// `None` while the game goes on; it is over once the board is full or both players passed
    /// in a row, and then decided by disc count.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.passes < 2 && !self.is_full() {
            return None;
        }
        Some(Outcome::by_count(
            self.count(Cell::Disc(Player::First)),
            self.count(Cell::Disc(Player::Second)),
        ))
    }

    /// The rows of the board, top first, each as its cells from column `A`.
    fn rows(&self) -> impl Iterator<Item = impl Iterator<Item = Cell> + '_> + '_ {
        (0..N).map(move |row| {
            (0..N).filter_map(move |col| Coord::new(col, row, N).map(|at| self.cell(at)))
        })
    }
}

/// The board as the course's `print_board` writes it: a header of column letters, then each row
/// number right-aligned in width 2 followed by every cell and a space.
impl<const N: usize> fmt::Display for Othello<N>
where
    Side<N>: Layout,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("  ")?;
        for letter in (b'A'..).take(N) {
            write!(f, " {}", char::from(letter))?;
        }
        f.write_str("\n")?;
        // A row at a time: one write per line keeps a 26x26 replay's megabyte of boards cheap.
        let mut line = String::with_capacity(4 + 2 * N);
        for (row, cells) in self.rows().enumerate() {
            line.clear();
            let number = row + 1;
            line.push(if number < 10 {
                ' '
            } else {
                char::from(b'0' + (number / 10) as u8)
            });
            line.push(char::from(b'0' + (number % 10) as u8));
            line.push(' ');
            for cell in cells {
                line.push(cell.symbol());
                line.push(' ');
            }
            line.push('\n');
            f.write_str(&line)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{SIDES, WithSide, with_side};
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

    #[test]
    fn board_text_right_aligns_row_numbers() {
        let four = "   A B C D\n 1 . . . . \n 2 . X O . \n 3 . O X . \n 4 . . . . \n";
        assert_eq!(Othello::<4>::new().to_string(), four);

        let ten = Othello::<10>::new().to_string();
        let lines: Vec<&str> = ten.lines().collect();
        assert_eq!(lines[0], "   A B C D E F G H I J");
        assert_eq!(lines[5], " 5 . . . . X O . . . . ");
        assert_eq!(lines[10], "10 . . . . . . . . . . ");

        let big = Othello::<26>::new().to_string();
        let lines: Vec<&str> = big.lines().collect();
        assert_eq!(lines.len(), 27);
        assert!(lines[0].ends_with(" Y Z"));
        assert!(lines[9].starts_with(" 9 . "));
        assert!(lines[26].starts_with("26 . "));
        assert_eq!(lines[13].len(), 3 + 2 * 26);
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
                let discs =
                    g.count(Cell::Disc(Player::First)) + g.count(Cell::Disc(Player::Second));
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
            let side = SIDES[pick.below(SIDES.len())];
            with_side(side, RandomGame(seed)).unwrap();
        }
    }
}
