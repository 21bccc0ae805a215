//! Kalah (Mancala) as pure game logic: two rows of `PITS` pits and two stores, the sowing ring
//! that skips the opponent's store, captures, the end-of-game sweep and multi-level undo. The
//! ring lives here once, in [`sow`], which the console game and the solver both play through.
//! It never reads input or writes output; a refused move or undo leaves the game exactly as it
//! was.

use crate::board::{Outcome, PIT_COUNTS, Player};

/// When a last stone in an empty pit of the mover's row captures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Capture {
    /// Only when the opposite pit holds stones: the assignment's rule, the default.
    #[default]
    Standard,
    /// Always: the capturing stone goes to the store even when the opposite pit is empty (the
    /// rule of the published solutions of Irving, Donkers and Uiterwijk).
    Empty,
}

/// Both rows of a board from the side of the player to move: `[mover, other]`, each with pit 1
/// (the player's leftmost) first. No pit ever holds more than the game's stones, at most
/// 2 * 12 * 255.
pub(super) type Rows<const P: usize> = [[u16; P]; 2];

/// What one sowing did, from the side of the player who sowed.
pub(super) struct Sown<const P: usize> {
    /// The rows afterwards, still from the sower's side; all empty once the game is over.
    pub rows: Rows<P>,
    /// Stones the sowing and its capture put in the sower's store.
    pub banked: u32,
    /// Stones taken from the opposite pit by a capture (the capturing stone not counted).
    pub captured: Option<u32>,
    /// Stones each player (`[sower, other]`) swept from their row into their store at the end.
    pub swept: [u32; 2],
    /// The last stone fell in the sower's store.
    pub again: bool,
    /// A row is empty: the game is over and swept.
    pub over: bool,
}

impl<const P: usize> Sown<P> {
    /// What the sowing and the sweep gained the sower over the other player.
    #[inline]
    pub fn gain(&self) -> i32 {
        // Each term is at most the game's stones (2 * 12 * 255): the casts cannot wrap.
        self.banked as i32 + self.swept[0] as i32 - self.swept[1] as i32
    }

    /// Whether the sower moves next (another move, or the game is over), and the rows from
    /// the side of whoever does.
    #[inline]
    pub fn after(&self) -> (bool, Rows<P>) {
        if self.again || self.over {
            (true, self.rows)
        } else {
            (false, [self.rows[1], self.rows[0]])
        }
    }
}

/// Sows the mover's pit `pit` (0-based) and applies the capture (by the `capture` rule) and the
/// end-of-game sweep.
///
/// The ring is the assignment's Stage 2 circular list as a hole number `h` counted from the
/// mover's pit 1: `0..P` the mover's pits, `P` the mover's store, `P + 1..=2 * P` the other
/// player's pits from their pit 1; the other player's store is not on it, so sowing skips it.
/// Nothing else in the crate knows the order of the holes.
///
/// # Panics
/// When `pit` is not below `P`. The pit should hold stones: sowing an empty pit is no move.
#[inline]
pub(super) fn sow<const P: usize>(rows: &Rows<P>, pit: usize, capture: Capture) -> Sown<P> {
    let ring = 2 * P + 1;
    let mut rows = *rows;
    let stones = usize::from(std::mem::take(&mut rows[0][pit]));
    // Whole laps put the same number in every hole of the ring.
    let (laps, rest) = (stones / ring, stones % ring);
    let laps16 = u16::try_from(laps).unwrap_or(u16::MAX);
    for n in rows.iter_mut().flatten() {
        *n += laps16;
    }
    let mut banked = laps as u32;
    let hole = |h: usize| h % ring;
    for step in 1..=rest {
        match hole(pit + step) {
            h if h < P => rows[0][h] += 1,
            h if h == P => banked += 1,
            h => rows[1][h - P - 1] += 1,
        }
    }
    let last = hole(pit + stones);
    let mut captured = None;
    if last < P && rows[0][last] == 1 && (rows[1][P - 1 - last] > 0 || capture == Capture::Empty) {
        let taken = u32::from(std::mem::take(&mut rows[1][P - 1 - last]));
        banked += taken + 1;
        rows[0][last] = 0;
        captured = Some(taken);
    }
    let sums = side_stones(&rows);
    let over = sums[0] == 0 || sums[1] == 0;
    let swept = if over {
        rows = [[0; P]; 2];
        sums
    } else {
        [0; 2]
    };
    Sown {
        rows,
        banked,
        captured,
        swept,
        again: ends_in_store::<P>(pit, stones),
        over,
    }
}

/// The stones in the pits of each side of `rows`, the mover's first.
#[inline]
pub(super) fn side_stones<const P: usize>(rows: &Rows<P>) -> [u32; 2] {
    rows.map(|row| row.iter().map(|&n| u32::from(n)).sum::<u32>())
}

/// Whether sowing `stones` stones from the mover's pit `pit` (0-based) puts the last one in
/// the mover's store, which earns another move (see [`sow`] for the ring).
#[inline]
pub(super) fn ends_in_store<const P: usize>(pit: usize, stones: usize) -> bool {
    (pit + stones) % (2 * P + 1) == P
}

/// A 64-bit fingerprint of `rows` for the searches' transposition tables; never 0, which
/// marks an unused slot. Four pits at a time go into one word, so a 6-pit board costs three
/// multiplications.
#[inline]
pub(super) fn fingerprint<const P: usize>(rows: &Rows<P>) -> u64 {
    let mut h = 0x2545_F491_4F6C_DD1D_u64;
    for chunk in rows.as_flattened().chunks(4) {
        let word = chunk.iter().fold(0, |w, &n| (w << 16) | u64::from(n));
        h = (h ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h | 1
}

/// Why a move or an undo was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The pit number is not in 1..=PITS.
    NoSuchPit,
    /// The chosen pit holds no stones.
    EmptyPit,
    /// The game has ended.
    GameOver,
    /// Undo at the start of the game.
    NothingToUndo,
}

/// What a move did, for the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// Stones taken from the opposite pit by a capture (the capturing stone not counted).
    pub captured: Option<u32>,
    /// What happens next.
    pub next: Next,
}

/// Where the game goes after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The last stone fell in the mover's store: the mover moves again.
    MoveAgain,
    /// The other player moves.
    TurnPasses,
    /// A row is empty: the game is over. The player who still had stones in their row, if any,
    /// swept them into their store.
    GameOver {
        /// Who swept, and how many stones.
        swept: Option<(Player, u32)>,
        /// Who won, by stones in store.
        outcome: Outcome,
    },
}

/// Everything undo needs to restore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position<const PITS: usize> {
    /// Each player's row, by [`Player::index`].
    pits: [[u16; PITS]; 2],
    stores: [u32; 2],
    to_move: Player,
}

/// A game of Kalah with `PITS` pits per row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mancala<const PITS: usize> {
    now: Position<PITS>,
    capture: Capture,
    /// The positions before each move, oldest first.
    history: Vec<Position<PITS>>,
}

impl<const PITS: usize> Mancala<PITS> {
    /// A new game with `stones` in every pit, empty stores, Player 1 to move, the standard
    /// capture rule.
    #[must_use]
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the program always says which rule; the tests use the default"
        )
    )]
    pub fn new(stones: u8) -> Self {
        Self::with_capture(stones, Capture::Standard)
    }

    /// [`Self::new`] with the `capture` rule.
    #[must_use]
    pub fn with_capture(stones: u8, capture: Capture) -> Self {
        const { assert!(PITS >= *PIT_COUNTS.start() && PITS <= *PIT_COUNTS.end()) };
        Mancala {
            capture,
            now: Position {
                pits: [[u16::from(stones); PITS]; 2],
                stores: [0; 2],
                to_move: Player::First,
            },
            history: Vec::new(),
        }
    }

    /// The game's capture rule.
    #[must_use]
    pub fn capture(&self) -> Capture {
        self.capture
    }

    /// The player whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.now.to_move
    }

    /// Stones in `player`'s store.
    #[must_use]
    pub fn score(&self, player: Player) -> u32 {
        self.now.stores[player.index()]
    }

    /// Stones in `player`'s pit `number` (1..=PITS, from the player's own left), or `None` for a
    /// number out of range.
    #[must_use]
    pub fn pit(&self, player: Player, number: usize) -> Option<u32> {
        let i = number.checked_sub(1)?;
        self.now.pits[player.index()].get(i).copied().map(u32::from)
    }

    /// Every stone on the board, pits and stores.
    #[must_use]
    pub fn stones(&self) -> u32 {
        let pits: u32 = self.now.pits.iter().flatten().map(|&n| u32::from(n)).sum();
        pits + self.now.stores.iter().sum::<u32>()
    }

    /// Whether either row is empty, which ends the game.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.now.pits.iter().any(|row| row.iter().all(|&n| n == 0))
    }

    /// Both rows from the side of the player to move, as [`sow`] takes them.
    pub(super) fn rows(&self) -> Rows<PITS> {
        let mover = self.now.to_move;
        [
            self.now.pits[mover.index()],
            self.now.pits[mover.opponent().index()],
        ]
    }

    /// The player to move takes every stone from their pit `number` (1..=PITS) and sows them
    /// anticlockwise, then captures, sweeps or hands the turn over as the rules say.
    pub fn sow(&mut self, number: usize) -> Result<Sowing, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let pit = number
            .checked_sub(1)
            .filter(|&i| i < PITS)
            .ok_or(MoveError::NoSuchPit)?;
        let rows = self.rows();
        if rows[0][pit] == 0 {
            return Err(MoveError::EmptyPit);
        }
        self.history.push(self.now);

        let sown = sow(&rows, pit, self.capture);
        let mover = self.now.to_move;
        let sides = [mover, mover.opponent()];
        for (side, (row, swept)) in sides.iter().zip(sown.rows.into_iter().zip(sown.swept)) {
            self.now.pits[side.index()] = row;
            self.now.stores[side.index()] += swept;
        }
        self.now.stores[mover.index()] += sown.banked;

        let next = if sown.over {
            let swept = sides
                .into_iter()
                .zip(sown.swept)
                .find(|&(_, stones)| stones > 0);
            Next::GameOver {
                swept,
                outcome: Outcome::by_count(self.score(Player::First), self.score(Player::Second)),
            }
        } else if sown.again {
            Next::MoveAgain
        } else {
            self.now.to_move = mover.opponent();
            Next::TurnPasses
        };
        Ok(Sowing {
            captured: sown.captured,
            next,
        })
    }

    /// Takes back the last move (one sowing): board and player to move as they were before it.
    pub fn undo(&mut self) -> Result<(), MoveError> {
        self.now = self.history.pop().ok_or(MoveError::NothingToUndo)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
