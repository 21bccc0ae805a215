//! `--format html`: one self-contained page (its style and its one script inline, nothing
//! fetched) for a program or a class: the table (sortable by any column), then each
//! submission's kinds of failure by rule id with their counts, and for each kind its shortest
//! case: the token played, the board before (the played cell marked), the expected and the
//! actual board drawn as grids with the differing cells marked, the text report's lines and the
//! replay command. Drawn from the rows alone, so that a merge of shards draws the same page.

use std::fmt::Write as _;

use super::table::{COLUMNS, Row, percent};
use crate::judge::reading::diagnose::{Picture, Scene};
use crate::judge::running::Sealing;

/// The page of `rows` (best first), with the sealing the runs had and, for a class, what was
/// judged.
pub fn page(rows: &[Row], sealing: &Sealing, judging: Option<&serde_json::Value>) -> String {
    let boards: Vec<&str> = rows
        .iter()
        .find(|r| !r.boards.is_empty())
        .map(|r| r.boards.iter().map(|b| b.board.as_str()).collect())
        .unwrap_or_default();
    let mut out = String::from(HEAD);
    let title = match rows {
        [one] if judging.is_none() => format!("boardgames judge: {}", escape(&one.name)),
        _ => "boardgames judge: the class".to_string(),
    };
    let _ = write!(
        out,
        "<title>{title}</title>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    if let Some(judging) = judging {
        let _ = writeln!(out, "<p class=\"judged\">{}</p>", escape(&judged(judging)));
    }
    out.push_str("<table class=\"sortable\" id=\"class\">\n<thead><tr><th>submission</th>");
    out.push_str("<th>score</th>");
    for board in &boards {
        let _ = write!(out, "<th>{}</th>", escape(board));
    }
    for (_, short, _) in COLUMNS {
        let _ = write!(out, "<th>{short}</th>");
    }
    out.push_str("<th>rules</th><th>note</th></tr></thead>\n<tbody>\n");
    for row in rows {
        let _ = write!(
            out,
            "<tr><td data-value=\"{0}\"><a href=\"#{1}\">{0}</a></td>",
            escape(&row.name),
            anchor(&row.name)
        );
        let score = row.percent();
        let _ = write!(out, "<td data-value=\"{score}\">{score:.1}%</td>");
        for board in &boards {
            let (score, cases) = row
                .boards
                .iter()
                .find(|b| b.board == *board)
                .map_or((0.0, 0), |b| (b.score, b.cases));
            let p = percent(score, cases);
            let _ = write!(out, "<td data-value=\"{p}\">{p:.1}%</td>");
        }
        for (name, _, _) in COLUMNS {
            let n = row.verdicts.get(name).copied().unwrap_or(0);
            let _ = write!(out, "<td data-value=\"{n}\">{n}</td>");
        }
        let mut rules: Vec<_> = row.rules.iter().collect();
        rules.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        let rules: Vec<String> = rules.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let rules = escape(&rules.join(", "));
        let note = escape(&row.note);
        let _ = writeln!(
            out,
            "<td data-value=\"{rules}\">{rules}</td><td data-value=\"{note}\">{note}</td></tr>"
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let _ = writeln!(
        out,
        "<p class=\"sealing\">Sealing: {}</p>",
        escape(&sealing.to_string())
    );
    for row in rows {
        submission(row, &mut out);
    }
    out.push_str(SCRIPT);
    out.push_str("</body>\n</html>\n");
    out
}

/// A submission's section: its note, its build's output, its kinds of failure.
fn submission(row: &Row, out: &mut String) {
    let _ = writeln!(
        out,
        "<section class=\"submission\" id=\"{}\">\n<h2>{} <span class=\"score\">{:.1}%</span></h2>",
        anchor(&row.name),
        escape(&row.name),
        row.percent()
    );
    if !row.note.is_empty() {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&row.note));
    }
    if !row.build.is_empty() {
        let _ = writeln!(out, "<pre class=\"build\">{}</pre>", escape(&row.build));
    }
    if row.kinds.is_empty() {
        out.push_str("<p>No failures.</p>\n</section>\n");
        return;
    }
    out.push_str("<table class=\"kinds\">\n<tr><th>board</th><th>kind</th><th>cases</th>");
    out.push_str("<th>shortest</th></tr>\n");
    for kind in &row.kinds {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} ({} tokens)</td></tr>",
            escape(&kind.board),
            escape(&kind.kind),
            kind.count,
            escape(&kind.case),
            kind.tokens
        );
    }
    out.push_str("</table>\n");
    for kind in &row.kinds {
        let _ = writeln!(
            out,
            "<article class=\"kind\">\n<h3>{} {} <span class=\"count\">&times; {}</span></h3>\n\
             <p>{}: {}</p>",
            escape(&kind.board),
            escape(&kind.kind),
            kind.count,
            escape(&kind.case),
            escape(&kind.headline)
        );
        if let Some(scene) = &kind.scene {
            draw_scene(scene, out);
        }
        let _ = writeln!(
            out,
            "<p class=\"replay\">replay: <code>{}</code></p>\n<details><summary>the text \
             report</summary><pre>{}</pre></details>\n</article>",
            escape(&kind.replay),
            escape(&kind.details)
        );
    }
    out.push_str("</section>\n");
}

/// The token played and the three boards (or lines) side by side.
fn draw_scene(scene: &Scene, out: &mut String) {
    let _ = writeln!(out, "<p class=\"token\">{}</p>", escape(&scene.after));
    out.push_str("<div class=\"scene\">\n");
    let played = scene.token.as_deref().and_then(cell_of);
    if let Some(before) = &scene.before {
        figure("board before", before, None, played, out);
    }
    figure("expected", &scene.expected, Some(&scene.actual), None, out);
    figure("actual", &scene.actual, Some(&scene.expected), None, out);
    out.push_str("</div>\n");
}

/// One picture under its caption; cells that differ from `other` are marked, and the cell
/// `played` (row, column).
fn figure(
    caption: &str,
    picture: &Picture,
    other: Option<&Picture>,
    played: Option<(usize, usize)>,
    out: &mut String,
) {
    let _ = writeln!(
        out,
        "<figure class=\"{caption}\"><figcaption>{caption}</figcaption>"
    );
    match picture {
        Picture::Grid { side, cells } => {
            let theirs = match other {
                Some(Picture::Grid { side: s, cells }) if s == side => Some(cells.as_bytes()),
                _ => None,
            };
            out.push_str("<table class=\"grid\"><tr><th></th>");
            for c in 0..*side {
                let _ = write!(out, "<th>{}</th>", column_letter(c));
            }
            out.push_str("</tr>\n");
            for (r, line) in cells.as_bytes().chunks(*side).enumerate() {
                let _ = write!(out, "<tr><th>{}</th>", r + 1);
                for (c, &cell) in line.iter().enumerate() {
                    let mut class = match cell {
                        b'X' => "x",
                        b'O' => "o",
                        b'#' => "pit",
                        _ => "empty",
                    }
                    .to_string();
                    if theirs.is_some_and(|t| t.get(r * side + c) != Some(&cell)) {
                        class.push_str(" differs");
                    }
                    if played == Some((r, c)) {
                        class.push_str(" played");
                    }
                    let _ = write!(out, "<td class=\"{class}\">{}</td>", cell as char);
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</table>\n");
        }
        Picture::Kalah {
            top,
            bottom,
            stores,
        } => {
            let theirs = match other {
                Some(Picture::Kalah {
                    top,
                    bottom,
                    stores,
                }) => Some((top, bottom, stores)),
                _ => None,
            };
            // A pit, or a store two rows high; marked where the other board's differs.
            let cell = |n: u32, other: Option<u32>, store: bool| {
                let span = if store { " rowspan=\"2\"" } else { "" };
                let class = if other.is_some_and(|o| o != n) {
                    " class=\"differs\""
                } else {
                    ""
                };
                format!("<td{span}{class}>{n}</td>")
            };
            out.push_str("<table class=\"kalah\"><tr>");
            out.push_str(&cell(stores[0], theirs.map(|t| t.2[0]), true));
            for (i, &n) in top.iter().enumerate() {
                out.push_str(&cell(n, theirs.and_then(|t| t.0.get(i).copied()), false));
            }
            out.push_str(&cell(stores[1], theirs.map(|t| t.2[1]), true));
            out.push_str("</tr>\n<tr>");
            for (i, &n) in bottom.iter().enumerate() {
                out.push_str(&cell(n, theirs.and_then(|t| t.1.get(i).copied()), false));
            }
            out.push_str("</tr></table>\n");
        }
        Picture::Line { text } => {
            let _ = writeln!(out, "<pre class=\"line differs\">{}</pre>", escape(text));
        }
        Picture::Nothing => {
            out.push_str("<p class=\"line differs\">(nothing: the output ends here)</p>\n");
        }
    }
    out.push_str("</figure>\n");
}

/// The cell an Othello move names (`f4`: row 3, column 5, from 0), if the token is one.
fn cell_of(token: &str) -> Option<(usize, usize)> {
    let mut chars = token.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    let column = (letter as usize)
        .checked_sub('a' as usize)
        .filter(|&c| c < 26)?;
    let row: usize = chars.as_str().parse().ok()?;
    Some((row.checked_sub(1)?, column))
}

/// The letter of column `c`, from 0.
fn column_letter(c: usize) -> char {
    char::from(b'A' + (c % 26) as u8)
}

/// What a class judging judged, in words, from its JSON.
fn judged(judging: &serde_json::Value) -> String {
    let text = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let boards: Vec<String> = judging["boards"]
        .as_array()
        .map(|b| b.iter().map(text).collect())
        .unwrap_or_default();
    let cases = &judging["cases"];
    let cases = if cases["inputs"].is_string() {
        format!("the cases of {}", text(&cases["inputs"]))
    } else {
        let mut words = format!(
            "{} generated cases a board from seed {}",
            text(&cases["count"]),
            text(&cases["seed"])
        );
        for flag in ["errors", "weird"] {
            if cases[flag] == true {
                let _ = write!(words, ", with --{flag}");
            }
        }
        words
    };
    format!(
        "{} at {}; {cases}; boardgames {}",
        text(&judging["game"]),
        boards.join(", "),
        text(&judging["boardgames"])
    )
}

/// A submission's name as an anchor.
fn anchor(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("s-{safe}")
}

/// Text made safe inside HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's head: its style, inline.
const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
#class th, #class td, .kinds th, .kinds td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
#class th { cursor: pointer; background: #eee; }
#class th[aria-sort=ascending]::after { content: " \25B2"; }
#class th[aria-sort=descending]::after { content: " \25BC"; }
#class td { text-align: right; }
#class td:first-child, #class td:nth-last-child(-n+2) { text-align: left; }
.scene { display: flex; gap: 2em; flex-wrap: wrap; align-items: flex-start; }
figure { margin: 0; }
figcaption { font-weight: bold; margin-bottom: 0.3em; }
.grid td { width: 1.6em; height: 1.6em; text-align: center; border: 1px solid #555; font-weight: bold; }
.grid th { font-weight: normal; color: #666; padding: 0 0.3em; }
.grid td.empty { background: #2e7d32; color: #2e7d32; }
.grid td.x { background: #2e7d32; color: #111; }
.grid td.o { background: #2e7d32; color: #fff; }
.grid td.pit { background: #555; color: #555; }
.grid td.differs, .kalah td.differs { outline: 3px solid #e53935; outline-offset: -3px; }
.grid td.played { outline: 3px solid #fdd835; outline-offset: -3px; }
.kalah td { border: 1px solid #8d6e63; background: #d7ccc8; width: 2em; height: 2em; text-align: center; }
.line { background: #fdecea; padding: 0.3em; }
pre { background: #f5f5f5; padding: 0.5em; overflow-x: auto; }
.sealing, .judged { color: #555; }
</style>
"#;

/// The one script: the class table sorted by the column clicked, again to reverse it, or by
/// the column a link names (`#sort=score`).
const SCRIPT: &str = r#"<script>
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.querySelectorAll("th");
  heads.forEach(function (th, column) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute("aria-sort") !== "ascending";
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
        var n = parseFloat(x) - parseFloat(y);
        var c = isNaN(n) ? x.localeCompare(y) : n;
        return up ? c : -c;
      });
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  // A link may ask for an order: class.html#sort=score.
  var asked = /^#sort=(.+)$/.exec(location.hash);
  heads.forEach(function (th) {
    if (asked && th.textContent === decodeURIComponent(asked[1])) { th.click(); }
  });
});
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_name_cells_and_text_is_escaped() {
        assert_eq!(cell_of("f4"), Some((3, 5)));
        assert_eq!(cell_of("A10"), Some((9, 0)));
        for not in ["", "4", "f", "f0", "?"] {
            assert_eq!(cell_of(not), None, "{not}");
        }
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(anchor("ann b.c"), "s-ann-b-c");
    }
}
