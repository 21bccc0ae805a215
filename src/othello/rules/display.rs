//! The Othello board as text: the character of each cell and the board printout of the course's
//! `print_board`, which every transcript repeats after each move. It formats only; the driver
//! decides when a board is written.

use std::fmt;

use super::game::{Cell, Othello};
use crate::board::{Coord, Player};
use crate::othello::engine::{Layout, Side};

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

impl<const N: usize> Othello<N>
where
    Side<N>: Layout,
{
    /// The rows of the board, top first, each as its cells from column `A`.
    pub(in crate::othello) fn rows(
        &self,
    ) -> impl Iterator<Item = impl Iterator<Item = Cell> + '_> + '_ {
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
}
