//! Othello with pits as pure game logic: the board, its setup (centre discs, then pits), the
//! legal-move test, playing and passing, and the end of the game and its result, all played
//! through the bit-set engine. It never reads input or writes output; every operation that can
//! fail is checked and leaves the game untouched when it does.

use crate::board::{Coord, MAX_SIDE, Outcome, Player};
use crate::othello::engine::Bits as _;
use crate::othello::engine::{self, Layout, Position, Side};

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
        const { assert!(N.is_multiple_of(2) && N >= 4 && N <= MAX_SIDE) };
        let (a, b) = (N / 2 - 1, N / 2);
        let cell = |col, row| {
            Bits::<N>::cell(Side::<N>::index(
                Coord::new(col, row, N).expect("a centre cell"),
            ))
        };
        Othello {
            discs: [cell(a, a) | cell(b, b), cell(b, a) | cell(a, b)],
            pits: Bits::<N>::EMPTY,
            to_move: Player::First,
            passes: 0,
        }
    }

    /// A game from any arrangement of `cells` (row by row, `N * N` of them), `to_move` to play:
    /// positions from elsewhere, such as an endgame suite. `None` when the count is wrong.
    #[must_use]
    pub fn arranged(cells: &[Cell], to_move: Player) -> Option<Self> {
        if cells.len() != N * N {
            return None;
        }
        let mut game = Othello {
            discs: [Bits::<N>::EMPTY; 2],
            pits: Bits::<N>::EMPTY,
            to_move,
            passes: 0,
        };
        for (i, &cell) in cells.iter().enumerate() {
            let at = Bits::<N>::cell(Side::<N>::index(Coord::new(i % N, i / N, N)?));
            match cell {
                Cell::Empty => {}
                Cell::Pit => game.pits |= at,
                Cell::Disc(player) => game.discs[player.index()] |= at,
            }
        }
        Some(game)
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
                self.pits |= Bits::<N>::cell(Side::<N>::index(at));
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
        let i = Side::<N>::index(at);
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
    pub(in crate::othello) fn position(&self) -> Position<Side<N>> {
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
        self.legal().cells().map(Side::<N>::coord)
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
        let i = Side::<N>::index(at);
        let flipped = engine::layout::flips::<Side<N>>(me, opp, i);
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
}

#[cfg(test)]
mod tests;
