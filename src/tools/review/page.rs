//! The review as one self-contained page (`--format html`), as the judge's is: its style
//! inline and nothing fetched; a chart of the game's value for X move by move (inline SVG),
//! the board before each of the worst moves with the cell played and the best cell marked,
//! then the table and the summary as text.

use std::fmt::Write as _;

use super::{Turn, Valued, letter, losses_of, shown, table};
use crate::board::{Coord, Player};
use crate::othello::{Appraisal, Cell, Layout, Othello, Side};

/// The page's style (the Kalah page's too): the board's green, the played cell's red, the best cell's blue, and the
/// chart's purple line (the colours the page test counts).
pub(super) const STYLE: &str = "body{font-family:sans-serif;margin:2em}\
table.board{border-collapse:collapse;margin:.5em 0}\
table.board td{width:28px;height:28px;background:#2e7d32;border:1px solid #1b5e20;\
text-align:center;padding:0}\
table.board td.pit{background:#4e342e}\
table.board td.played{outline:4px solid #e53935;outline-offset:-4px}\
table.board td.best{outline:4px solid #1e88e5;outline-offset:-4px}\
.disc{display:inline-block;width:22px;height:22px;border-radius:50%}\
.x{background:#111}.o{background:#f5f5f5}\
pre{background:#f4f4f4;padding:1em}";

/// The page of a review.
pub(super) fn page<const N: usize>(
    turns: &[Turn<N>],
    rows: &[Option<Valued<Coord>>],
    valued: &[Valued<Coord>],
    end: &Othello<N>,
    how: Appraisal,
) -> String
where
    Side<N>: Layout,
{
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Review of an Othello \
         {N}x{N} game</title><style>{STYLE}</style></head><body>\n<h1>Review of an Othello \
         {N}x{N} game</h1>\n"
    );
    out.push_str("<h2>The value for X, move by move</h2>\n");
    out.push_str(&chart(valued, ["X", "O", "discs"]));
    out.push_str("<h2>The worst moves</h2>\n");
    let mut worst: Vec<&Valued<Coord>> = [Player::First, Player::Second]
        .into_iter()
        .flat_map(|player| losses_of(valued, player).1)
        .collect();
    worst.sort_by_key(|row| row.number);
    for row in worst {
        let before = turns.iter().find_map(|turn| match turn {
            Turn::Move { number, before, .. } if *number == row.number => Some(before),
            _ => None,
        });
        let Some(before) = before else { continue };
        let _ = writeln!(
            out,
            "<section class=\"mistake\"><h3>Move {}: {} played {} ({}), the best was {} ({}): \
             {} lost</h3>",
            row.number,
            letter(row.player),
            row.at,
            shown(row.value),
            row.best,
            shown(row.best_value),
            row.loss()
        );
        out.push_str(&board(before, row.at, row.best));
        out.push_str("</section>\n");
    }
    out.push_str("<h2>Every move</h2>\n<pre>");
    out.push_str(&escape(&table(turns, rows, valued, end, how)));
    out.push_str("</pre>\n");
    out.push_str("</body></html>\n");
    out
}

/// The board `game` shows, the cell `played` outlined red and `best` blue.
fn board<const N: usize>(game: &Othello<N>, played: Coord, best: Coord) -> String
where
    Side<N>: Layout,
{
    let mut out = String::from("<table class=\"board\">\n");
    for row in 0..N {
        out.push_str("<tr>");
        for col in 0..N {
            let Some(at) = Coord::new(col, row, N) else {
                continue;
            };
            let mut classes = Vec::new();
            if at == played {
                classes.push("played");
            } else if at == best {
                classes.push("best");
            }
            let inside = match game.cell(at) {
                Cell::Disc(Player::First) => "<span class=\"disc x\"></span>",
                Cell::Disc(Player::Second) => "<span class=\"disc o\"></span>",
                Cell::Pit => {
                    classes.push("pit");
                    ""
                }
                Cell::Empty => "",
            };
            let _ = write!(
                out,
                "<td class=\"{}\" title=\"{at}\">{inside}</td>",
                classes.join(" ")
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// The value of each move for the first player as a line over the game, zero in the middle;
/// `said` names the players (X and O) and the unit (discs) below it.
pub(super) fn chart<M>(valued: &[Valued<M>], said: [&str; 3]) -> String {
    let [first, second, unit] = said;
    let (width, height) = (640.0_f64, 240.0_f64);
    let most = valued
        .iter()
        .map(|row| row.for_first().abs())
        .max()
        .unwrap_or(0)
        .max(1);
    let step = width / (valued.len().max(2) - 1) as f64;
    let points: Vec<String> = valued
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let y =
                height / 2.0 - f64::from(row.for_first()) / f64::from(most) * (height / 2.0 - 10.0);
            format!("{:.1},{:.1}", i as f64 * step, y)
        })
        .collect();
    format!(
        "<svg width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\"><rect width=\"{width}\" height=\"{height}\" \
         fill=\"#fafafa\"/><line x1=\"0\" y1=\"{mid}\" x2=\"{width}\" y2=\"{mid}\" \
         stroke=\"#9e9e9e\"/><polyline fill=\"none\" stroke=\"#6a1b9a\" stroke-width=\"4\" \
         points=\"{}\"/></svg>\n<p>Above the line {first} is ahead, below it {second}; the most \
         is {most} {unit}.</p>\n",
        points.join(" "),
        mid = height / 2.0,
    )
}

/// `text` safe inside HTML.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
