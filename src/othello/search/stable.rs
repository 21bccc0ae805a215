//! Stable discs: discs that no sequence of moves can ever flip. However a game goes on, the
//! other player ends with none of them, which bounds the best final margin a player can still
//! reach; the solver stops searching where even that bound falls short of what it needs.

use crate::othello::engine::Bits;
use crate::othello::engine::{Direction, Layout, Position, step};

mod edge;

/// The four lines a disc can be flipped along, each as its two directions.
const AXES: [(Direction, Direction); 4] = [
    (Direction::North, Direction::South),
    (Direction::East, Direction::West),
    (Direction::NorthEast, Direction::SouthWest),
    (Direction::SouthEast, Direction::NorthWest),
];

/// The discs of `discs` (one player's discs in `pos`) that can never be flipped. A disc is
/// safe along a line when its run of discs along it (up to the edges and pits) holds no empty
/// cell, since no move can ever be made there, or when its neighbour on either side is the edge,
/// a pit or a stable disc of its own player, since a flip would have to turn that neighbour
/// too; a disc safe along all four lines is stable. Found as the largest set that keeps to that
/// rule, grown from none (on boards of one word without pits, from the edge runs of the
/// corners, which it would find a disc a round; on 8x8, from every disc of an edge that no
/// sequence of moves along it flips, which is more, `edge.rs`).
pub(in crate::othello) fn stable<L: Layout>(pos: &Position<L>, discs: L::Bits) -> L::Bits {
    let occupied = pos.me | pos.opp;
    let pits = L::ALL & !(occupied | pos.empty);
    let word = |word| {
        let mut bits = L::Bits::EMPTY;
        bits.set_word(0, word);
        bits
    };
    if L::Bits::WORDS == 1 && L::STRIDE == L::N && pits.is_empty() {
        let (occupied, discs) = (occupied.first_word(), discs.first_word());
        // From the edge runs of the corners (on 8x8, from what the edges hold, `edge.rs`).
        let (full, stable) = match L::N {
            4 => (full_lines_of::<4>(occupied), corner_runs::<4>(discs)),
            6 => (full_lines_of::<6>(occupied), corner_runs::<6>(discs)),
            8 => return word(edge::stable(occupied, discs)),
            _ => return settle::<L>(word(discs), pits, &full_lines(pos), L::Bits::EMPTY),
        };
        return settle::<L>(word(discs), pits, &full.map(word), word(stable));
    }
    settle::<L>(discs, pits, &full_lines(pos), L::Bits::EMPTY)
}

/// The stable discs of `discs`, the board's `pits` apart, given the discs `full` along each
/// axis of [`AXES`] and some of them already found `stable`: the rule of [`stable`] applied
/// until it adds none.
fn settle<L: Layout>(
    discs: L::Bits,
    pits: L::Bits,
    full: &[L::Bits; 4],
    stable: L::Bits,
) -> L::Bits {
    let mut stable = stable;
    loop {
        // Cells that do not hold a neighbour in place.
        let loose = L::ALL & !(pits | stable);
        let mut grown = discs;
        for (&full, &(ahead, back)) in full.iter().zip(&AXES) {
            // A cell's neighbour ahead is loose when the cell is a step back from a loose one.
            let held_ahead = !step::<L>(loose, back);
            let held_back = !step::<L>(loose, ahead);
            grown &= full | held_ahead | held_back;
        }
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// Per axis of [`AXES`], the discs of `pos` whose run along it holds no empty cell: those an
/// empty cell's flood along the line through discs never reaches.
fn full_lines<L: Layout>(pos: &Position<L>) -> [L::Bits; 4] {
    let occupied = pos.me | pos.opp;
    let mut full = [L::Bits::EMPTY; 4];
    for (full, &(ahead, back)) in full.iter_mut().zip(&AXES) {
        let mut open = pos.empty;
        loop {
            let next = open | ((step::<L>(open, ahead) | step::<L>(open, back)) & occupied);
            if next == open {
                break;
            }
            open = next;
        }
        *full = occupied & !open;
    }
    full
}

/// The (column, row) step of each direction of each axis of [`AXES`].
const fn delta(axis: usize, side: usize) -> (isize, isize) {
    let (ahead, back) = AXES[axis];
    if side == 0 {
        ahead.delta()
    } else {
        back.delta()
    }
}

/// For a one-word board of side `n` (cell `row * n + col`), per axis of [`AXES`], per direction
/// of it and for 1, 2 and 4 steps: the cells from which that many steps leave the board.
const fn leaving(n: usize) -> [[[u64; 3]; 2]; 4] {
    let mut masks = [[[0; 3]; 2]; 4];
    let mut axis = 0;
    while axis < 4 {
        let mut side = 0;
        while side < 2 {
            let (dc, dr) = delta(axis, side);
            let mut power = 0;
            while power < 3 {
                let steps = 1 << power;
                let mut cell = 0;
                while cell < n * n {
                    let col = (cell % n) as isize + dc * steps;
                    let row = (cell / n) as isize + dr * steps;
                    if col < 0 || row < 0 || col >= n as isize || row >= n as isize {
                        masks[axis][side][power] |= 1 << cell;
                    }
                    cell += 1;
                }
                power += 1;
            }
            side += 1;
        }
        axis += 1;
    }
    masks
}

/// On a one-word board of side `n`: its first and last rows, and its first and last columns.
const fn edges(n: usize) -> (u64, u64) {
    let line = (1u64 << n) - 1;
    let mut columns = 0;
    let mut row = 0;
    while row < n {
        columns |= (1 | 1 << (n - 1)) << (row * n);
        row += 1;
    }
    (line | line << (n * (n - 1)), columns)
}

/// The discs of `discs`, on a one-word board of side `N` (cell `row * N + col`) without pits,
/// that lie on an edge in an unbroken run of them from a corner: stable by the rule of
/// [`stable`] (each holds the next in place along the edge, and the edge holds it across).
fn corner_runs<const N: usize>(discs: u64) -> u64 {
    let (rows, columns) = const { edges(N) };
    let corners = rows & columns;
    // Doubling steps from the corners along the edge cells that hold discs, `step` a cell
    // (negative: the other way).
    let fill = |edge: u64, step: isize| {
        let (mut run, mut along) = (discs & corners, discs & edge);
        for power in 0..3 {
            let shift = step.unsigned_abs() << power;
            let moved = |x: u64| if step > 0 { x << shift } else { x >> shift };
            run |= along & moved(run);
            along &= moved(along);
        }
        run
    };
    fill(rows, 1) | fill(rows, -1) | fill(columns, N as isize) | fill(columns, -(N as isize))
}

/// [`full_lines`] of a one-word board of side `N` without pits: a cell is full toward a
/// direction when it and the cells 1, then 2, then 4 steps on that way are occupied (or off the
/// board), which covers the at most 7 cells up to the edge; full along an axis when full both
/// ways.
fn full_lines_of<const N: usize>(occupied: u64) -> [u64; 4] {
    let mut full = [0; 4];
    // On 8x8 a column is a cell and its turns by whole rows, a row a byte: both fold at once.
    if N == 8 {
        let mut column = occupied;
        column &= column.rotate_left(8);
        column &= column.rotate_left(16);
        column &= column.rotate_left(32);
        let mut row = occupied;
        row &= row >> 4;
        row &= row >> 2;
        row &= row >> 1;
        full[0] = column;
        full[1] = (row & 0x0101_0101_0101_0101) * 0xff;
    }
    // Spelt out, not looped over, so that every shift and mask is a constant (a loop over
    // the axes left them to be worked out at each call: twice the instructions on 8x8).
    let along = |axis| toward::<N>(occupied, axis, 0) & toward::<N>(occupied, axis, 1);
    if N == 8 {
        full[2] = along(2);
        full[3] = along(3);
    } else {
        full = [along(0), along(1), along(2), along(3)];
    }
    full
}

/// The cells of a one-word board of side `N` without pits whose `occupied` cells hold discs
/// all the way to the edge along one direction (`side` of axis `axis` of [`AXES`]): a cell and
/// the cells 1, then 2, then 4 steps on that way occupied or off the board.
#[inline(always)]
fn toward<const N: usize>(occupied: u64, axis: usize, side: usize) -> u64 {
    let leaving = const { leaving(N) };
    let (dc, dr) = delta(axis, side);
    let step = dr * N as isize + dc;
    let mut toward = occupied;
    for (power, &leaving) in leaving[axis][side].iter().enumerate() {
        // Cell `i` takes what cell `i + shift` holds.
        let shift = step << power;
        let ahead = if shift > 0 {
            toward >> shift
        } else {
            toward << -shift
        };
        toward &= leaving | ahead;
    }
    toward
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::engine::Side;

    /// A position of Side<N> from rows of `X` (the player to move), `O`, `-` and `#`.
    fn position<const N: usize>(rows: &[&str]) -> Position<Side<N>>
    where
        Side<N>: Layout,
    {
        let mut pos = Position::<Side<N>> {
            me: <Side<N> as Layout>::Bits::EMPTY,
            opp: <Side<N> as Layout>::Bits::EMPTY,
            empty: <Side<N> as Layout>::Bits::EMPTY,
        };
        for (row, text) in rows.iter().enumerate() {
            for (col, c) in text.chars().enumerate() {
                let at = <Side<N> as Layout>::Bits::cell(row * <Side<N> as Layout>::STRIDE + col);
                match c {
                    'X' => pos.me |= at,
                    'O' => pos.opp |= at,
                    '-' => pos.empty |= at,
                    _ => {}
                }
            }
        }
        pos
    }

    /// The cells of a set, as the rows of `position` draw them: `S` stable, `.` not.
    fn drawn<const N: usize>(set: <Side<N> as Layout>::Bits) -> Vec<String>
    where
        Side<N>: Layout,
    {
        (0..N)
            .map(|row| {
                (0..N)
                    .map(|col| {
                        if set.has(row * <Side<N> as Layout>::STRIDE + col) {
                            'S'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// A random position of side `N` without pits, a cell in `1 / empty_odds` empty and the
    /// rest shared evenly.
    fn random_board<const N: usize>(
        rng: &mut crate::rng::Rng,
        empty_odds: usize,
    ) -> Position<Side<N>>
    where
        Side<N>: Layout<Bits = u64>,
    {
        let mut pos = position::<N>(&[]);
        for at in 0..N * N {
            let cell = 1u64 << at;
            match rng.below(2 * empty_odds) {
                0 | 1 => pos.empty |= cell,
                k if k % 2 == 0 => pos.me |= cell,
                _ => pos.opp |= cell,
            }
        }
        pos
    }

    /// The stable discs of `pos.me` by the rule of [`stable`] grown from none, the flood's
    /// full lines under it.
    fn grown_from_none<const N: usize>(pos: &Position<Side<N>>) -> u64
    where
        Side<N>: Layout<Bits = u64>,
    {
        settle::<Side<N>>(pos.me, 0, &full_lines(pos), 0)
    }

    /// Random positions of side `N` without pits, a cell in `1 / empty_odds` empty: their
    /// full lines by the one-word doubling and by the flood agree.
    fn full_lines_agree<const N: usize>(empty_odds: usize)
    where
        Side<N>: Layout<Bits = u64>,
    {
        let mut rng = crate::rng::Rng::new(N as u64);
        for _ in 0..2000 {
            let pos = random_board::<N>(&mut rng, empty_odds);
            assert_eq!(
                full_lines_of::<N>(pos.me | pos.opp),
                full_lines(&pos),
                "me {:#x} opp {:#x}",
                pos.me,
                pos.opp
            );
        }
    }

    /// Random positions of side `N` without pits, a cell in `1 / empty_odds` empty: the stable
    /// discs found from the corners' edge runs (4x4, 6x6) are those the rule finds grown from
    /// none; on 8x8, found from what the edges hold, at least those.
    fn stable_discs_keep_the_rule<const N: usize>(empty_odds: usize)
    where
        Side<N>: Layout<Bits = u64>,
    {
        let mut rng = crate::rng::Rng::new(N as u64 + 100);
        for _ in 0..2000 {
            let pos = random_board::<N>(&mut rng, empty_odds);
            let grown = grown_from_none(&pos);
            assert_eq!(corner_runs::<N>(pos.me) & !grown, 0, "me {:#x}", pos.me);
            let found = stable(&pos, pos.me);
            let (me, opp) = (pos.me, pos.opp);
            if N == 8 {
                assert_eq!(grown & !found, 0, "me {me:#x} opp {opp:#x}");
            } else {
                assert_eq!(found, grown, "me {me:#x} opp {opp:#x}");
            }
        }
    }

    #[test]
    fn stable_discs_from_corner_runs_are_those_grown_from_none() {
        for empty_odds in [2, 8, 32] {
            stable_discs_keep_the_rule::<4>(empty_odds);
            stable_discs_keep_the_rule::<6>(empty_odds);
            stable_discs_keep_the_rule::<8>(empty_odds);
        }
    }

    #[test]
    fn full_lines_by_doubling_are_those_of_the_flood() {
        for empty_odds in [2, 8, 32] {
            full_lines_agree::<4>(empty_odds);
            full_lines_agree::<6>(empty_odds);
            full_lines_agree::<8>(empty_odds);
        }
    }

    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut rng = crate::rng::Rng::new(808);
        // Discs that 8x8's edge table finds and the rule grown from none does not.
        let mut beyond = 0;
        for _ in 0..1500 {
            let start = random_board::<8>(&mut rng, 3);
            let held = stable(&start, start.me);
            beyond += (held & !grown_from_none(&start)).count_ones();
            for _ in 0..4 {
                // The game played out at random; `mine`: whether `pos.me` is `start.me`'s player.
                let (mut pos, mut mine) = (start, true);
                loop {
                    let mut moves = pos.moves();
                    if moves == 0 {
                        pos = pos.pass();
                        mine = !mine;
                        moves = pos.moves();
                        if moves == 0 {
                            break;
                        }
                    }
                    let cells: Vec<usize> = moves.cells().collect();
                    pos = pos.play_unchecked(cells[rng.below(cells.len())]);
                    mine = !mine;
                    let discs = if mine { pos.me } else { pos.opp };
                    assert_eq!(held & !discs, 0, "me {:#x} opp {:#x}", start.me, start.opp);
                }
            }
        }
        assert!(
            beyond > 0,
            "the edge table finds no more than the corner runs"
        );
    }

    #[test]
    fn stable_discs_are_corners_their_edges_full_lines_and_what_pits_shelter() {
        // X holds a corner with an edge run and a disc beside a pit; O a full row.
        let pos = position::<6>(&[
            "XXX-O-", //
            "X-----", //
            "------", //
            "OOOOOO", //
            "--#X--", //
            "------", //
        ]);
        assert_eq!(
            drawn::<6>(stable(&pos, pos.me)),
            ["SSS...", "S.....", "......", "......", "......", "......"],
        );
        // The full row is safe along itself only: a column or a diagonal through each of its
        // discs still holds empty cells.
        assert_eq!(drawn::<6>(stable(&pos, pos.opp)), ["......"; 6]);
        // A full board: every disc.
        let full = position::<4>(&["XOXO", "OXOX", "XXXX", "OOOO"]);
        assert_eq!(
            drawn::<4>(stable(&full, full.me)),
            ["S.S.", ".S.S", "SSSS", "...."]
        );
        // C2 has a pit beside it along its row, its column and one diagonal, not the other.
        let open = position::<4>(&["----", "-#X-", "-##-", "----"]);
        assert_eq!(drawn::<4>(stable(&open, open.me)), ["...."; 4]);
        let sheltered = position::<4>(&["----", "-#X-", "-###", "----"]);
        assert_eq!(
            drawn::<4>(stable(&sheltered, sheltered.me)),
            ["....", "..S.", "....", "...."]
        );
    }
}
