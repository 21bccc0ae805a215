//! Kalah (Mancala) as pure game logic: two rows of `PITS` pits and two stores, sowing along the
//! ring of holes that skips the opponent's store, captures, the end-of-game sweep, multi-level
//! undo, and the board text of the console contract. It never reads input or writes output;
//! a refused move or undo leaves the game exactly as it was.

use std::fmt;

use crate::board::{Outcome, Player};

/// One hole of the board: a pit (numbered 1..=PITS from its owner's left) or a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hole {
    /// A pit: owner and 0-based index (pit number minus one).
    Pit(Player, usize),
    /// A player's store.
    Store(Player),
}

/// A position on the sowing ring of one mover: the 2 * PITS + 2 holes in anticlockwise order,
/// less the opponent's store, which the mover never sows into. The counterpart of the
/// assignment's Stage 2 circular list; sowing walks it and nothing else re-derives the order.
#[derive(Clone, Copy, Debug)]
struct Cursor<const PITS: usize> {
    hole: Hole,
    mover: Player,
}

impl<const PITS: usize> Cursor<PITS> {
    /// Moves to the next hole the mover sows into.
    fn next(&mut self) -> Hole {
        self.hole = match self.hole {
            Hole::Pit(owner, i) if i + 1 < PITS => Hole::Pit(owner, i + 1),
            Hole::Pit(owner, _) if owner == self.mover => Hole::Store(owner),
            Hole::Pit(owner, _) | Hole::Store(owner) => Hole::Pit(owner.opponent(), 0),
        };
        self.hole
    }
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
    pits: [[u32; PITS]; 2],
    stores: [u32; 2],
    to_move: Player,
}

/// A game of Kalah with `PITS` pits per row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mancala<const PITS: usize> {
    now: Position<PITS>,
    /// The positions before each move, oldest first.
    history: Vec<Position<PITS>>,
}

impl Default for Mancala<6> {
    /// The assignment's default: 6 pits a row, 4 stones in each.
    fn default() -> Self {
        Self::new(4)
    }
}

impl<const PITS: usize> Mancala<PITS> {
    /// A new game with `stones` in every pit, empty stores, Player 1 to move.
    #[must_use]
    pub fn new(stones: u32) -> Self {
        const { assert!(PITS >= 1 && PITS <= 12) };
        Mancala {
            now: Position {
                pits: [[stones; PITS]; 2],
                stores: [0; 2],
                to_move: Player::First,
            },
            history: Vec::new(),
        }
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
        self.now.pits[player.index()].get(i).copied()
    }

    /// Every stone on the board, pits and stores.
    #[must_use]
    pub fn stones(&self) -> u32 {
        self.now
            .stores
            .iter()
            .chain(self.now.pits.iter().flatten())
            .sum()
    }

    fn row_is_empty(&self, player: Player) -> bool {
        self.now.pits[player.index()].iter().all(|&n| n == 0)
    }

    /// Whether either row is empty, which ends the game.
    #[must_use]
    pub fn is_over(&self) -> bool {
        Player::BOTH.into_iter().any(|p| self.row_is_empty(p))
    }

    fn hole(&mut self, hole: Hole) -> &mut u32 {
        match hole {
            Hole::Pit(owner, i) => &mut self.now.pits[owner.index()][i],
            Hole::Store(owner) => &mut self.now.stores[owner.index()],
        }
    }

    /// The player to move takes every stone from their pit `number` (1..=PITS) and sows them
    /// anticlockwise, then captures, sweeps or hands the turn over as the rules say.
    pub fn sow(&mut self, number: usize) -> Result<Sowing, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mover = self.now.to_move;
        let start = number
            .checked_sub(1)
            .filter(|&i| i < PITS)
            .ok_or(MoveError::NoSuchPit)?;
        let stones = std::mem::take(&mut self.now.pits[mover.index()][start]);
        if stones == 0 {
            return Err(MoveError::EmptyPit);
        }
        let mut before = self.now;
        before.pits[mover.index()][start] = stones;
        self.history.push(before);

        let mut cursor = Cursor::<PITS> {
            hole: Hole::Pit(mover, start),
            mover,
        };
        let mut last = cursor.hole;
        for _ in 0..stones {
            last = cursor.next();
            *self.hole(last) += 1;
        }

        let mut captured = None;
        if let Hole::Pit(owner, i) = last {
            let opposite = Hole::Pit(mover.opponent(), PITS - 1 - i);
            if owner == mover && *self.hole(last) == 1 && *self.hole(opposite) > 0 {
                let taken = std::mem::take(self.hole(opposite));
                *self.hole(last) = 0;
                self.now.stores[mover.index()] += taken + 1;
                captured = Some(taken);
            }
        }

        let next = if self.is_over() {
            let swept = self.sweep();
            Next::GameOver {
                swept,
                outcome: Outcome::by_count(self.score(Player::First), self.score(Player::Second)),
            }
        } else if last == Hole::Store(mover) {
            Next::MoveAgain
        } else {
            self.now.to_move = mover.opponent();
            Next::TurnPasses
        };
        Ok(Sowing { captured, next })
    }

    /// Moves each player's remaining pit stones into their own store; returns who had any.
    fn sweep(&mut self) -> Option<(Player, u32)> {
        let mut swept = None;
        for player in Player::BOTH {
            let row = &mut self.now.pits[player.index()];
            let left: u32 = row.iter().sum();
            *row = [0; PITS];
            self.now.stores[player.index()] += left;
            if left > 0 {
                swept = Some((player, left));
            }
        }
        swept
    }

    /// Takes back the last move (one sowing): board and player to move as they were before it.
    pub fn undo(&mut self) -> Result<(), MoveError> {
        self.now = self.history.pop().ok_or(MoveError::NothingToUndo)?;
        Ok(())
    }
}

/// The board of the console contract: Player 2's pits P..1 on top, Player 1's pits 1..P below,
/// Player 2's store on the left and Player 1's on the right, every count right-aligned in the
/// width of the total stone count (at least 2).
impl<const PITS: usize> fmt::Display for Mancala<PITS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.stones().to_string().len().max(2);
        let margin = " ".repeat(w + 4);
        let rule = format!("+{}", format!("{}+", "-".repeat(w + 2)).repeat(PITS));
        let top: Vec<usize> = (1..=PITS).rev().collect();
        let bottom: Vec<usize> = (1..=PITS).collect();
        let row = |player: Player, numbers: &[usize]| {
            let cells: String = numbers
                .iter()
                .filter_map(|&n| self.pit(player, n))
                .map(|stones| format!(" {stones:>w$} |"))
                .collect();
            format!("{margin}|{cells}")
        };
        let labels = |numbers: &[usize], who: &str| {
            let cells: String = numbers.iter().map(|n| format!(" {n:>w$}  ")).collect();
            format!("{margin} {cells}").trim_end().to_string() + "   " + who
        };
        let (second, first) = (self.score(Player::Second), self.score(Player::First));
        writeln!(f, "{}", labels(&top, "Player 2"))?;
        writeln!(f, "{margin}{rule}")?;
        writeln!(f, "{}", row(Player::Second, &top))?;
        writeln!(f, "{second:>width$}  {rule}  {first}", width = w + 2)?;
        writeln!(f, "{}", row(Player::First, &bottom))?;
        writeln!(f, "{margin}{rule}")?;
        writeln!(f, "{}", labels(&bottom, "Player 1"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{PIT_COUNTS, WithPits, with_pits};
    use crate::rng::Rng;

    /// A game from the board as drawn: Player 2's row left to right (pits P..1), Player 1's row
    /// left to right (pits 1..P), then the stores of Player 2 and Player 1.
    fn game<const P: usize>(
        top: [u32; P],
        bottom: [u32; P],
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
            history: Vec::new(),
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
        let mut g = Mancala::<6>::default();
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

    #[test]
    fn the_board_text_widens_with_the_stone_count() {
        let six = "
         6    5    4    3    2    1   Player 2
      +----+----+----+----+----+----+
      |  4 |  4 |  4 |  4 |  4 |  4 |
   0  +----+----+----+----+----+----+  0
      |  4 |  4 |  4 |  4 |  4 |  4 |
      +----+----+----+----+----+----+
         1    2    3    4    5    6   Player 1
";
        assert_eq!(Mancala::<6>::default().to_string(), &six[1..]);
        let one = "
         1   Player 2
      +----+
      |  1 |
   0  +----+  0
      |  1 |
      +----+
         1   Player 1
";
        assert_eq!(Mancala::<1>::new(1).to_string(), &one[1..]);
        // 2 * 12 * 99 = 2376 stones: four digits.
        let wide = Mancala::<12>::new(99).to_string();
        let lines: Vec<&str> = wide.lines().collect();
        assert_eq!(&lines[0][..21], "            12     11");
        assert_eq!(&lines[2][..16], "        |   99 |");
        assert!(lines[3].starts_with("     0  +------+"));
        assert!(lines[3].ends_with("+------+  0"));
        assert!(lines[6].ends_with("    11     12   Player 1"));
        assert!(lines.iter().all(|l| !l.ends_with(' ')));
    }

    /// Random games with random undos, checking conservation and the undo history throughout.
    struct RandomGames(u64);

    impl WithPits for RandomGames {
        type Output = ();
        fn run<const P: usize>(self) {
            let mut rng = Rng::new(self.0);
            for _ in 0..20 {
                let stones = 1 + u32::try_from(rng.below(12)).unwrap();
                let total = 2 * u32::try_from(P).unwrap() * stones;
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
            with_pits(pits, RandomGames(pits as u64 * 7919)).unwrap();
        }
    }

    /// Replays a golden transcript's input through the library (valid pits only, as those games
    /// have) and returns the final scores.
    fn replay<const P: usize>(stones: u32, input: &str) -> (u32, u32) {
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
}
