//! A judging at several boards (`--size 4,6,8`): each board's report put together in one, in
//! every form. With one board, the report is that board's, as it always was.

use serde_json::json;

use super::{
    Format, Row, ci, json as report_json, pretty, program_row, render, sealing, sealing_json,
    table, text,
};
use crate::judge::{Game, Judged, Judging, Program};

/// One board's part of a judging: the judging there, the program as run there, its cases.
pub struct Part<'a> {
    /// The judging at this board.
    pub judging: &'a Judging,
    /// The program, its arguments made for this board.
    pub program: &'a Program,
    /// The cases judged.
    pub judged: &'a [Judged],
}

/// A board as reports name it: `6x6` for Othello, `4x3` (pits by stones) for Kalah.
#[must_use]
pub fn board_label(game: Game) -> String {
    match game {
        Game::Othello(side) => format!("{0}x{0}", side.get()),
        Game::Mancala(board) => format!("{}x{}", board.pits.get(), board.stones),
    }
}

/// The report of every part in the asked form.
pub fn render_parts(parts: &[Part]) -> anyhow::Result<Vec<u8>> {
    let [first, ..] = parts else {
        return Ok(Vec::new());
    };
    if parts.len() == 1 {
        return render(first.judging, first.program, first.judged);
    }
    let judging = first.judging;
    Ok(match judging.format {
        Format::Text => {
            let mut out = String::new();
            for part in parts {
                out.push_str(&format!("== {} ==\n", board_label(part.judging.game)));
                out.push_str(&text(part.judging, part.program, part.judged));
                out.push('\n');
            }
            out.into_bytes()
        }
        Format::Json => {
            let boards: Vec<_> = parts
                .iter()
                .map(|part| {
                    let cases: Vec<_> = part
                        .judged
                        .iter()
                        .map(|j| report_json::case(part.judging, j))
                        .collect();
                    json!({
                        "board": board_label(part.judging.game),
                        "cases": cases,
                        "summary": report_json::summary(part.judged),
                    })
                })
                .collect();
            pretty(&json!({ "boards": boards, "sealing": sealing_json(sealing(judging)) }))?
        }
        Format::Junit => ci::junit(parts)?.into_bytes(),
        Format::Gradescope => pretty(&ci::gradescope(parts))?,
        Format::Csv | Format::Html => {
            let rows: Vec<(String, Row)> = parts
                .iter()
                .map(|p| {
                    let row = program_row(p.judging, p.program, p.judged);
                    (board_label(p.judging.game), row)
                })
                .collect();
            let name = rows[0].1.name.clone();
            let row = Row::of_boards(&name, rows);
            table(&[row], judging.format, sealing(judging), None)?
        }
    })
}
