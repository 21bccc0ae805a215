//! Othello positions as text: one as the FFO suite writes it, and a file of them read line by
//! line with a cap on a line's length and on their number. Parsing only; solving them is
//! `solve.rs`'s.

use std::io::{self, BufRead, Read};

use crate::board::{BoardSide, Player};
use crate::othello::Cell;

/// An Othello position given as text: its board side, cells row by row and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionText {
    /// Cells per row and column.
    pub side: BoardSide,
    /// The cells, row by row.
    pub cells: Vec<Cell>,
    /// Whose turn it is.
    pub to_move: Player,
}

/// Reads a position as the FFO suite writes one: the cells row by row (`X` or `*` Black, `O`
/// White, `-` or `.` empty, `#` a pit), a space, the player to move (`X` or `O`), and anything
/// after a `;` ignored. The side is the square root of the cell count.
pub fn parse_position(text: &str) -> Result<PositionText, String> {
    let text = text.split(';').next().unwrap_or("");
    let mut words = text.split_whitespace();
    let board = words.next().ok_or("no cells")?;
    let mover = words.next().ok_or("no player to move after the cells")?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected '{extra}' after the player to move"));
    }
    let cells = board
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => Ok(Cell::Disc(Player::First)),
            'O' | 'o' => Ok(Cell::Disc(Player::Second)),
            '-' | '.' => Ok(Cell::Empty),
            '#' => Ok(Cell::Pit),
            other => Err(format!("'{other}' is no cell (X, O, -, #)")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let side = cells.len().isqrt();
    let side = BoardSide::new(side)
        .filter(|_| side * side == cells.len())
        .ok_or_else(|| {
            format!(
                "{} cells make no board: an even side from 4 to 26 squared",
                cells.len()
            )
        })?;
    let to_move = match mover {
        "X" | "x" | "*" => Player::First,
        "O" | "o" => Player::Second,
        other => return Err(format!("'{other}' is no player to move (X or O)")),
    };
    Ok(PositionText {
        side,
        cells,
        to_move,
    })
}

/// The longest line of a file of positions: a 26x26 board, its player and a long comment.
pub(super) const LINE_LIMIT: usize = 4096;
/// The most positions one file may give.
pub(super) const POSITION_LIMIT: usize = 100_000;

/// Why a file of positions could not be read.
#[derive(Debug)]
pub(crate) enum Unread {
    /// Reading failed.
    Io(io::Error),
    /// The line of this number is longer than [`LINE_LIMIT`].
    TooLong(usize),
    /// The line of this number is not UTF-8.
    NotText(usize),
    /// The line of this number is no position, for this reason.
    Line(usize, String),
    /// More than [`POSITION_LIMIT`] positions.
    TooMany,
}

/// Every position of `input`, one a line (blank lines and lines starting with `%` or `# `
/// skipped), read line by line with no line longer than [`LINE_LIMIT`]: all of them are read
/// before any is solved, so that a bad one stops nothing midway.
pub(crate) fn read_positions(mut input: impl BufRead) -> Result<Vec<PositionText>, Unread> {
    let mut positions = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut input)
            .take(LINE_LIMIT as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(Unread::Io)?;
        if read == 0 {
            break;
        }
        if line.len() > LINE_LIMIT {
            return Err(Unread::TooLong(number));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| Unread::NotText(number))?
            .trim();
        if text.is_empty() || text.starts_with('%') || text.starts_with("# ") {
            continue;
        }
        if positions.len() == POSITION_LIMIT {
            return Err(Unread::TooMany);
        }
        positions.push(parse_position(text).map_err(|why| Unread::Line(number, why))?);
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_as_the_ffo_suite_writes_them() {
        let ffo = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let p = parse_position(ffo).unwrap();
        assert_eq!(p.side.get(), 8);
        assert_eq!(p.to_move, Player::First);
        assert_eq!(p.cells[0], Cell::Disc(Player::Second));
        assert_eq!(p.cells[7], Cell::Disc(Player::First));
        assert_eq!(p.cells[1], Cell::Empty);
        let pitted = parse_position("#--------XO--OX- o").unwrap();
        assert_eq!((pitted.side.get(), pitted.to_move), (4, Player::Second));
        assert_eq!(pitted.cells[0], Cell::Pit);
        for (bad, why) in [
            ("", "no cells"),
            ("----------------", "no player"),
            ("---------------- Z", "no player to move"),
            ("--------------- X", "make no board"),
            (
                "--------------------------------------------------------------------------------- X",
                "make no board",
            ),
            ("---------------? X", "no cell"),
            ("---------------- X O", "unexpected"),
        ] {
            let err = parse_position(bad).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }
}
