//! Stable discs on an 8x8 board without pits, the solver's board: the discs of the four edges
//! that no sequence of moves along their edge can flip, looked up in a table of every edge's
//! contents (made once, on first use), then those discs, and those whose four lines are full,
//! holding their neighbours in place a round at a time. It finds every disc the rule of
//! [`super::stable`] finds and more on the edges, where a disc out of a corner's reach is
//! often safe; it never reads or writes anything but the table.

use std::sync::LazyLock;

use super::{edges as board_edges, full_lines_of};

/// Per edge, a bit a cell along it: at `mine << 8 | theirs`, the discs of `mine` that no
/// sequence of moves on the edge flips, whoever makes them.
static EDGE: LazyLock<Box<[u8; 1 << 16]>> = LazyLock::new(edge_table);

/// The cells of the first column (`row * 8 + col`).
const COLUMN: u64 = 0x0101_0101_0101_0101;

/// The cells of neither the first nor the last row or column.
const INNER: u64 = {
    let (rows, columns) = board_edges(8);
    !(rows | columns)
};

/// The stable discs of `discs` on an 8x8 board without pits (cell `row * 8 + col`) whose
/// `occupied` cells are given: the edges' from [`EDGE`]; then, a round at a time, each inner
/// disc that along each of its four lines has its line full or a stable disc next to it.
pub(super) fn stable(occupied: u64, discs: u64) -> u64 {
    let [vertical, horizontal, rising, falling] = full_lines_of::<8>(occupied);
    let inner = discs & INNER;
    let mut stable =
        edges(discs, occupied & !discs) | inner & vertical & horizontal & rising & falling;
    if stable == 0 {
        return 0;
    }
    loop {
        // Inner cells only: a step of one cell stays within their row.
        let held = (stable >> 8 | stable << 8 | vertical)
            & (stable >> 1 | stable << 1 | horizontal)
            & (stable >> 7 | stable << 7 | rising)
            & (stable >> 9 | stable << 9 | falling);
        let grown = stable | inner & held;
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The discs of `mine` on the four edges that no sequence of moves on their edge flips,
/// against the discs of `theirs`.
fn edges(mine: u64, theirs: u64) -> u64 {
    let table = &**EDGE;
    // Each argument is one edge's byte.
    let safe = |mine: u64, theirs: u64| u64::from(table[slot(mine as u8, theirs as u8)]);
    let top = safe(mine & 0xff, theirs & 0xff);
    let bottom = safe(mine >> 56, theirs >> 56) << 56;
    let left = unpack(safe(pack(mine), pack(theirs)));
    let right = unpack(safe(pack(mine >> 7), pack(theirs >> 7))) << 7;
    top | bottom | left | right
}

/// Where [`EDGE`] keeps an edge's entry for the discs `mine` against `theirs`.
fn slot(mine: u8, theirs: u8) -> usize {
    usize::from(mine) << 8 | usize::from(theirs)
}

/// The first column of `bits` as a byte, row `r` at bit `r`. Each row's bit lands on its own
/// bit of the top byte, and no two partial products meet, so nothing carries.
fn pack(bits: u64) -> u64 {
    (bits & COLUMN).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// A byte as the first column, bit `r` to row `r`: [`pack`] undone. Rows 0 to 6 by one product
/// (with row 7's bit, two partial products would meet and carry into row 1), row 7 by a shift.
fn unpack(byte: u64) -> u64 {
    (byte & 0x7f).wrapping_mul(0x0002_0408_1020_4081) & COLUMN | (byte >> 7) << 56
}

/// [`EDGE`] made: an edge's cells that keep their disc whatever follows are its occupied cells
/// that keep it after every move on it (either player's, on any empty cell, flipping along
/// the edge) and, after that move, whatever follows; so edges are taken fullest first.
fn edge_table() -> Box<[u8; 1 << 16]> {
    let mut table = Box::new([0u8; 1 << 16]);
    // The cells that keep their disc, whoever holds them: both players' safe discs.
    let kept = |table: &[u8], a: u8, b: u8| table[slot(a, b)] | table[slot(b, a)];
    for empties in 0..=8 {
        for mine in 0..=u8::MAX {
            for theirs in (0..=u8::MAX).filter(|&theirs| mine & theirs == 0) {
                let occupied = mine | theirs;
                if occupied.count_zeros() != empties {
                    continue;
                }
                let mut safe = occupied;
                for at in (0..8).filter(|&at| occupied & 1 << at == 0) {
                    for (mover, other) in [(mine, theirs), (theirs, mine)] {
                        let flipped = edge_flips(mover, other, at);
                        let after = kept(&table[..], mover | 1 << at | flipped, other & !flipped);
                        safe &= after & !flipped;
                    }
                }
                table[slot(mine, theirs)] = safe & mine;
            }
        }
    }
    table
}

/// The discs of `other` that a disc of `mover` placed on the empty cell `at` of an edge flips
/// along it.
fn edge_flips(mover: u8, other: u8, at: u32) -> u8 {
    let mut flipped = 0;
    for step in [-1i32, 1] {
        let mut run = 0;
        let mut cell = at as i32 + step;
        while (0..8).contains(&cell) && other & 1 << cell != 0 {
            run |= 1 << cell;
            cell += step;
        }
        if (0..8).contains(&cell) && mover & 1 << cell != 0 {
            flipped |= run;
        }
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edge from a picture of `X`, `O` and `-`, the first cell lowest: (X's discs, O's).
    fn edge(picture: &str) -> (u8, u8) {
        picture
            .bytes()
            .enumerate()
            .fold((0, 0), |(x, o), (i, c)| match c {
                b'X' => (x | 1 << i, o),
                b'O' => (x, o | 1 << i),
                _ => (x, o),
            })
    }

    #[test]
    fn edge_discs_are_safe_only_where_no_move_on_the_edge_reaches_them() {
        // (edge, X's safe discs, O's), pictured as the edge is.
        let cases = [
            // A run from a corner, and a full edge.
            ("XXX-O---", "XXX-----", "--------"),
            ("XOXOXOXO", "X-X-X-X-", "-O-O-O-O"),
            // Bracketed by X at both ends, with no empty cell next to them: O's safe, though
            // no corner holds them, since O takes the last cell if X's end ever flips.
            ("XOOOOOX-", "X-------", "-OOOOO--"),
            // An empty corner: a disc there can bracket anything.
            ("-OOOOOO-", "--------", "--------"),
            ("-XXXXXXO", "--------", "-------O"),
        ];
        for (picture, x_safe, o_safe) in cases {
            let (x, o) = edge(picture);
            assert_eq!(EDGE[slot(x, o)], edge(x_safe).0, "X on {picture}");
            assert_eq!(EDGE[slot(o, x)], edge(o_safe).1, "O on {picture}");
        }
    }

    #[test]
    fn columns_pack_into_a_byte_and_back() {
        for byte in 0..=255u64 {
            let column = unpack(byte);
            assert_eq!(column & !COLUMN, 0, "{byte:#x}");
            assert_eq!(column.count_ones(), byte.count_ones(), "{byte:#x}");
            assert_eq!(pack(column | !COLUMN), byte, "{byte:#x}");
            for row in 0..8 {
                assert_eq!(
                    column >> (8 * row) & 1,
                    byte >> row & 1,
                    "{byte:#x} row {row}"
                );
            }
        }
    }
}
