//! The Othello computer player: iterative-deepening alpha-beta over the bitboard engine with a
//! mobility-and-corners evaluation, then the exact solver once few cells are empty. Searches
//! stop at a node budget, not a clock, so the same seed gives the same move on any machine, and
//! no move takes long on any board. No I/O here.

use super::bitboard::{Layout, Position, Side, fast_available};
use super::bits::Bits;
use super::game::Othello;
use super::solve::solve_position;
use crate::board::{Coord, LEVELS};
use crate::rng::Rng;

/// What the computer does at one level: how deep and how long it searches, from how many empty
/// cells it plays perfectly, and how often it plays a random move instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Strength {
    /// Plies of the deepest search; 0 plays the move that flips the most discs.
    depth: u32,
    /// Nodes the searches for one move may visit on boards up to 8x8 (a sixteenth on wider
    /// boards, whose nodes cost more).
    budget: u64,
    /// Empty cells from which the exact solver picks the move.
    solve_from: u32,
    /// One move in this many is a random legal one (0: never).
    random: usize,
    /// Score the search's horizon with the learned evaluation where the board has one.
    learned: bool,
}

impl Strength {
    /// The level-2 lookahead the training games were played with, kept as it was so that the
    /// shipped weights can be made again.
    pub(super) const TRAINING: Strength = Strength {
        depth: 2,
        budget: 1_500_000,
        solve_from: 10,
        random: 0,
        learned: false,
    };

    /// The strength of `level` (one of [`LEVELS`]; others are taken as the nearest). Level 1
    /// plays as a beginner does, the move that flips the most discs, and one move in four at
    /// random; level `L` above it searches `L` plies deep with twice the nodes of the level
    /// below (level 10: 1.5 million, about 0.1 s on 8x8) and plays perfectly from more empty
    /// cells (level 2: 4, level 10: 14).
    #[must_use]
    pub fn of(level: u32) -> Strength {
        let level = level.clamp(*LEVELS.start(), *LEVELS.end());
        Strength {
            depth: if level == 1 { 0 } else { level },
            budget: 1_500_000 >> (LEVELS.end() - level),
            solve_from: [0, 4, 6, 8, 9, 10, 11, 12, 13, 14][level as usize - 1],
            random: if level == 1 { 4 } else { 0 },
            learned: true,
        }
    }
}

/// A move for the player to move at `level` (see [`Strength::of`]), or `None` when the player
/// has none. Among equally good moves `rng` picks.
pub fn computer_move<const N: usize>(game: &Othello<N>, level: u32, rng: &mut Rng) -> Option<Coord>
where
    Side<N>: Layout,
{
    move_at(game, Strength::of(level), rng)
}

/// A move for the player to move, played with `strength`, or `None` when the player has none.
pub(super) fn move_at<const N: usize>(
    game: &Othello<N>,
    strength: Strength,
    rng: &mut Rng,
) -> Option<Coord>
where
    Side<N>: Layout,
{
    let pos = game.position();
    let mut moves: Vec<usize> = pos.moves().cells().collect();
    if moves.is_empty() {
        return None;
    }
    if strength.random > 0 && rng.below(strength.random) == 0 {
        return Some(Side::<N>::coord(moves[rng.below(moves.len())]));
    }
    if strength.depth == 0 {
        return greedy_move(game, rng);
    }
    // Shuffled once: the first of several equal moves wins, so the seed breaks ties.
    rng.shuffle(&mut moves);
    let budget = if N <= 8 {
        strength.budget
    } else {
        strength.budget / 16
    };
    // The learned patterns know no pits (they would read one as an empty cell): on a board
    // with pits the hand-set evaluation plays (measured on 8x8 with four edge pits, level 10:
    // the learned one lost 5-1-14 to it).
    let cells = pos.me.len() + pos.opp.len() + pos.empty.len();
    let learned = strength.learned && cells as usize == N * N;
    // A table of 16 MiB is plenty for 14 empty cells; without one, the lookahead plays.
    let solved = (pos.empty.len() <= strength.solve_from)
        .then(|| solve_position(pos, 16))
        .flatten();
    let best = match solved {
        Some(solution) => solution.best,
        None => deepen(
            pos,
            &mut moves,
            strength.depth,
            budget,
            learned,
            fast_available(),
        ),
    };
    best.or(moves.first().copied()).map(Side::<N>::coord)
}

/// The move that flips the most discs, the seed choosing among equals (a reference opponent
/// for measuring the levels), or `None` when the player to move has none.
pub fn greedy_move<const N: usize>(game: &Othello<N>, rng: &mut Rng) -> Option<Coord>
where
    Side<N>: Layout,
{
    let pos = game.position();
    let mut moves: Vec<usize> = pos.moves().cells().collect();
    rng.shuffle(&mut moves);
    let flips = |&at: &usize| pos.play_unchecked(at).opp.len();
    // After a move the mover's discs are the next position's `opp`; the first maximum wins.
    let best = moves
        .iter()
        .copied()
        .fold(None, |best: Option<usize>, at| match best {
            Some(b) if flips(&b) >= flips(&at) => Some(b),
            _ => Some(at),
        });
    best.map(Side::<N>::coord)
}

/// Iterative deepening over the root `moves`, best first after each finished depth; the move
/// of the deepest depth the node budget allowed. With `fast` (which the processor must
/// support: see `bitboard::fast_available`) the search runs its AVX2 copy, which visits the same nodes
/// in the same order and so finds the same move.
fn deepen<L: Layout>(
    pos: Position<L>,
    moves: &mut [usize],
    level: u32,
    budget: u64,
    learned: bool,
    fast: bool,
) -> Option<usize> {
    let mut search = Lookahead {
        nodes: 0,
        budget,
        fast,
        learned,
    };
    let mut best = None;
    for depth in 1..=level {
        let mut alpha = -WIN;
        let mut found = None;
        for (i, &at) in moves.iter().enumerate() {
            let Some(value) = search.value(pos.play_unchecked(at), depth - 1, -WIN, -alpha) else {
                return best;
            };
            let value = -value;
            if found.is_none() || value > alpha {
                alpha = value;
                found = Some(i);
            }
        }
        if let Some(i) = found {
            moves[..=i].rotate_right(1);
            best = Some(moves[0]);
        }
    }
    best
}

/// Worth of one disc of margin in a finished game: above any evaluation (at most about 8000).
const DISC_WIN: i32 = 100_000;
/// Beyond any score: 676 discs of margin are 67.6 million.
const WIN: i32 = 100_000_000;

/// A depth-limited Othello search that counts its nodes.
struct Lookahead {
    nodes: u64,
    budget: u64,
    /// Run the AVX2 copy of the search.
    fast: bool,
    /// Score the horizon with the learned evaluation where the board has one, rather than
    /// the hand-set one.
    learned: bool,
}

/// The value of `pos` for its player to move by a plain `depth`-ply search with the
/// evaluation (no budget): what the solver sorts its moves by far from the end.
pub(super) fn shallow_value<L: Layout>(pos: Position<L>, depth: u32, fast: bool) -> i32 {
    let mut search = Lookahead {
        nodes: 0,
        budget: u64::MAX,
        fast,
        learned: false,
    };
    search.value(pos, depth, -WIN, WIN).unwrap_or(0)
}

/// Defines a search of [`Lookahead`] with the given attributes, moves and play: the portable
/// one, and one built for the instructions of the fast engine paths.
macro_rules! lookahead_fn {
    ($(#[$attr:meta])* $name:ident, $moves:ident, $play:ident) => {
        /// The value for the player to move `depth` plies deep, or `None` once over budget.
        $(#[$attr])*
        fn $name<L: Layout>(
            &mut self,
            pos: Position<L>,
            depth: u32,
            mut alpha: i32,
            beta: i32,
        ) -> Option<i32> {
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            let moves = pos.$moves();
            if moves.is_empty() {
                let passed = pos.pass();
                if passed.$moves().is_empty() {
                    let margin = pos.me.len() as i32 - pos.opp.len() as i32;
                    return Some(margin * DISC_WIN);
                }
                return self.$name(passed, depth, -beta, -alpha).map(|v| -v);
            }
            if depth == 0 {
                let theirs = pos.pass().$moves();
                // The learned evaluation where asked for and the board has one (8x8, 6x6).
                let learned = if self.learned { L::learned(&pos, moves, theirs) } else { None };
                return Some(learned.unwrap_or_else(|| evaluate(&pos, moves, theirs)));
            }
            let mut best = -WIN;
            for at in moves.cells() {
                let value = -self.$name(pos.$play(at), depth - 1, -beta, -alpha)?;
                best = best.max(value);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
            Some(best)
        }
    };
}

impl Lookahead {
    lookahead_fn!(portable_value, moves, play_unchecked);

    #[cfg(target_arch = "x86_64")]
    lookahead_fn!(
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
        fast_value,
        moves_avx2,
        play_unchecked_avx2
    );

    /// The value for the player to move `depth` plies deep, or `None` once over budget.
    fn value<L: Layout>(
        &mut self,
        pos: Position<L>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        // Off x86-64 `fast` is never set.
        if self.fast {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `fast` is set only where `fast_available` found every feature.
            return unsafe { self.fast_value(pos, depth, alpha, beta) };
        }
        self.portable_value(pos, depth, alpha, beta)
    }
}

/// A position's worth to the player to move, whose moves are `moves` and the other player's
/// `theirs`: mobility, corners, then discs.
fn evaluate<L: Layout>(pos: &Position<L>, moves: L::Bits, theirs: L::Bits) -> i32 {
    let n = L::N;
    let corners = [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)]
        .map(|(col, row)| L::index(Coord::new(col, row, n).expect("a corner")));
    let held = |discs: L::Bits| corners.iter().filter(|&&c| discs.has(c)).count() as i32;
    let mobility = moves.len() as i32 - theirs.len() as i32;
    let discs = pos.me.len() as i32 - pos.opp.len() as i32;
    10 * mobility + 50 * (held(pos.me) - held(pos.opp)) + discs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Outcome, Player};
    use crate::othello::Cell;

    /// Plays the computer at `level` as Black against uniformly random moves; true when Black
    /// wins.
    fn othello_against_random(level: u32, seed: u64) -> bool {
        let mut rng = Rng::new(seed);
        let mut game = Othello::<8>::new();
        while game.outcome().is_none() {
            if game.pass().is_ok() {
                continue;
            }
            let at = if game.to_move() == Player::First {
                computer_move(&game, level, &mut rng).unwrap()
            } else {
                let moves: Vec<Coord> = game.legal_moves().collect();
                moves[rng.below(moves.len())]
            };
            game.play(at).unwrap();
        }
        game.outcome() == Some(Outcome::Won(Player::First))
    }

    #[test]
    fn a_computer_move_is_legal_and_the_seed_fixes_it() {
        let game = Othello::<8>::new();
        let pick = |seed| computer_move(&game, 3, &mut Rng::new(seed)).unwrap();
        assert!(game.legal_moves().any(|at| at == pick(1)));
        assert_eq!(pick(9), pick(9));
        // The four opening moves are equal: different seeds reach different ones.
        let picks: std::collections::HashSet<Coord> = (0..20).map(pick).collect();
        assert!(picks.len() > 1);
    }

    #[test]
    fn the_fast_search_finds_the_portable_searchs_moves() {
        if !fast_available() {
            return;
        }
        let mut rng = Rng::new(77);
        for _ in 0..20 {
            let mut game = Othello::<8>::new();
            for _ in 0..rng.below(30) {
                let moves: Vec<Coord> = game.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            let pos = game.position();
            let mut moves: Vec<usize> = pos.moves().cells().collect();
            if moves.is_empty() {
                continue;
            }
            let mut same = moves.clone();
            let portable = deepen(pos, &mut moves, 6, 1_500_000, true, false);
            let fast = deepen(pos, &mut same, 6, 1_500_000, true, true);
            assert_eq!((fast, same), (portable, moves));
        }
    }

    /// A game from rows of text (`X`, `O`, `.`, `#` for a pit), X to move.
    fn arranged<const N: usize>(rows: &[&str]) -> Othello<N>
    where
        Side<N>: Layout,
    {
        let cells: Vec<Cell> = rows
            .concat()
            .chars()
            .map(|c| match c {
                'X' => Cell::Disc(Player::First),
                'O' => Cell::Disc(Player::Second),
                '#' => Cell::Pit,
                _ => Cell::Empty,
            })
            .collect();
        Othello::arranged(&cells, Player::First).expect("N * N cells")
    }

    #[test]
    fn a_winning_corner_is_taken_and_an_endgame_is_played_perfectly() {
        // X must take A1 (closing the A file) now, or O takes it with the whole top edge; at
        // every level from 2 up, on the learned evaluation and, on a pitted board, the hand-set
        // one.
        let corner = Coord::new(0, 0, 8).unwrap();
        let rows = [
            ".XXXXXXO", "O.......", "O.......", "O..XO...", "O..OX...", "O.......", "X.......",
            "........",
        ];
        let pitted = [
            ".XXXXXXO", "O.......", "O.......", "O..XO...", "O..OX...", "O.......", "X.......",
            "......##",
        ];
        for board in [rows, pitted] {
            let game = arranged::<8>(&board);
            for level in [2, 3, 5, 8, 10] {
                let at = computer_move(&game, level, &mut Rng::new(7));
                assert_eq!(at, Some(corner), "level {level}, {board:?}");
            }
        }
        // From 14 empty cells level 10 plays a move the exact solver rates best.
        let mut rng = Rng::new(21);
        for _ in 0..5 {
            let mut game = Othello::<8>::new();
            while game.position().empty.len() > 14 || !game.has_legal_move() {
                if game.pass().is_ok() {
                    continue;
                }
                let moves: Vec<Coord> = game.legal_moves().collect();
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            let best = solve_position(game.position(), 16).unwrap().value;
            let at = computer_move(&game, 10, &mut rng).unwrap();
            let mut after = game.clone();
            after.play(at).unwrap();
            let value = solve_position(after.position(), 16).unwrap().value;
            let value = if after.to_move() == game.to_move() {
                value
            } else {
                -value
            };
            assert_eq!(value, best, "{at} from\n{game}");
        }
    }

    /// The strength figure of the issue (100 games take about two seconds in release).
    #[test]
    fn level_5_beats_a_random_player_98_times_in_100() {
        let wins = (0..100)
            .filter(|&seed| othello_against_random(5, seed))
            .count();
        assert!(wins >= 98, "{wins} of 100");
    }
}
