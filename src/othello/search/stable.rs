//! Stable discs: discs that no sequence of moves can ever flip. However a game goes on, the
//! other player ends with none of them, which bounds the best final margin a player can still
//! reach; the solver stops searching where even that bound falls short of what it needs.

use crate::othello::engine::Bits;
use crate::othello::engine::{Direction, Layout, Position, step};

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
/// rule, grown from none.
pub(in crate::othello) fn stable<L: Layout>(pos: &Position<L>, discs: L::Bits) -> L::Bits {
    let occupied = pos.me | pos.opp;
    let pits = L::ALL & !(occupied | pos.empty);
    // Per line, the discs whose run holds no empty cell: those an empty cell's flood along the
    // line through discs never reaches.
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
    let mut stable = L::Bits::EMPTY;
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
