//! The Kalah board as text: the two rows, the stores on either side, and the pit numbers, as the
//! console contract draws them after every move. It formats only; the driver decides when a
//! board is written.

use std::fmt;

use super::game::Mancala;
use crate::board::Player;

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
        assert_eq!(Mancala::<6>::new(4).to_string(), &six[1..]);
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
}
