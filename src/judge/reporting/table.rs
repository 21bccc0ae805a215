//! The class table: a row per submission (its score, at each board when there are several, its
//! verdicts, its failures counted by rule id), as text with the sealing the runs had, CSV for a
//! gradebook, or JSON, which also says what was judged so that shards can be merged
//! (`merge.rs`) and reads back into rows. Rendering only: judging the class is `class.rs`'s.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::json;

use super::{Format, Kind, credit, failed, pretty, sealing_json, verdict_name};
use crate::judge::reading::rule::Rule;
use crate::judge::running::Sealing;
use crate::judge::{Judged, Verdict};

/// A row of the class table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The submission.
    pub name: String,
    /// Points earned, a case's worth 1 (a presentation error the PE credit).
    pub score: f64,
    /// Cases charged.
    pub cases: usize,
    /// Cases by verdict name.
    pub verdicts: BTreeMap<String, usize>,
    /// Failed cases by the rules they break (a presentation error once for each of its kinds).
    pub rules: BTreeMap<Rule, usize>,
    /// Why the submission could not be judged, or what else a grader should know.
    pub note: String,
    /// Its score at each board, where the judging had several.
    pub boards: Vec<BoardScore>,
    /// What its build wrote, where it failed (the first 30 lines).
    pub build: String,
    /// Its kinds of failure at each board, each with its shortest case.
    pub kinds: Vec<Kind>,
}

/// A submission's score at one board.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardScore {
    /// The board, as `6x6` or `4x3` (pits by stones).
    pub board: String,
    /// Points earned there.
    pub score: f64,
    /// Cases charged there.
    pub cases: usize,
}

impl Row {
    /// The row of a submission judged at one board.
    pub fn of(name: &str, judged: &[Judged], pe_credit: f64) -> Row {
        let charged: Vec<&Judged> = judged
            .iter()
            .filter(|j| j.verdict != Verdict::Unusable)
            .collect();
        let mut row = Row {
            name: name.to_string(),
            // From +0: an empty sum of floats is -0.
            score: charged
                .iter()
                .fold(0.0, |sum, j| sum + credit(j, pe_credit)),
            cases: charged.len(),
            ..Row::default()
        };
        for j in &charged {
            *row.verdicts.entry(verdict_name(j).to_string()).or_default() += 1;
            let Some(d) = j.diagnosis.as_ref().filter(|_| failed(j)) else {
                continue;
            };
            let mut rules: Vec<Rule> = d.cosmetics.iter().map(|c| c.rule).collect();
            rules.extend(d.rule);
            rules.sort_unstable();
            rules.dedup();
            for rule in rules {
                *row.rules.entry(rule).or_default() += 1;
            }
        }
        let left: usize = judged.iter().map(|j| j.left).sum();
        if left > 0 {
            row.note = format!("left {left} processes running");
        }
        row
    }

    /// The rows of one submission at several boards, each labelled, as one: the sums, and
    /// each board's score.
    pub fn of_boards(name: &str, rows: Vec<(String, Row)>) -> Row {
        let mut total = Row {
            name: name.to_string(),
            ..Row::default()
        };
        let mut notes: Vec<String> = Vec::new();
        for (board, row) in rows {
            total.score += row.score;
            total.cases += row.cases;
            for (verdict, n) in row.verdicts {
                *total.verdicts.entry(verdict).or_default() += n;
            }
            for (rule, n) in row.rules {
                *total.rules.entry(rule).or_default() += n;
            }
            if !row.note.is_empty() && !notes.contains(&row.note) {
                notes.push(row.note);
            }
            if !row.build.is_empty() && !total.build.contains(&row.build) {
                total.build.push_str(&row.build);
            }
            total.kinds.extend(row.kinds);
            total.boards.push(BoardScore {
                board,
                score: row.score,
                cases: row.cases,
            });
        }
        total.note = notes.join("; ");
        total
    }

    fn count(&self, verdict: &str) -> usize {
        self.verdicts.get(verdict).copied().unwrap_or(0)
    }

    /// The score as a percentage of the cases.
    pub fn percent(&self) -> f64 {
        percent(self.score, self.cases)
    }

    /// The row as JSON.
    pub fn json(&self) -> serde_json::Value {
        let rules: BTreeMap<&str, usize> = self.rules.iter().map(|(r, n)| (r.id(), *n)).collect();
        let boards: Vec<_> = self
            .boards
            .iter()
            .map(|b| json!({"board": b.board, "score": b.score, "cases": b.cases}))
            .collect();
        json!({
            "submission": self.name, "score": self.score, "cases": self.cases,
            "boards": boards, "verdicts": self.verdicts, "rules": rules, "note": self.note,
            "build": self.build,
            "kinds": self.kinds,
        })
    }

    /// A row read back from its JSON; `None` when it is not one.
    pub fn from_json(value: &serde_json::Value) -> Option<Row> {
        let count = |v: &serde_json::Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
        let mut rules = BTreeMap::new();
        for (id, n) in value["rules"].as_object()? {
            let rule = Rule::ALL.into_iter().find(|r| r.id() == id)?;
            rules.insert(rule, count(n)?);
        }
        let mut verdicts = BTreeMap::new();
        for (verdict, n) in value["verdicts"].as_object()? {
            verdicts.insert(verdict.clone(), count(n)?);
        }
        let mut boards = Vec::new();
        for board in value["boards"].as_array()? {
            boards.push(BoardScore {
                board: board["board"].as_str()?.to_string(),
                score: board["score"].as_f64()?,
                cases: count(&board["cases"])?,
            });
        }
        Some(Row {
            name: value["submission"].as_str()?.to_string(),
            score: value["score"].as_f64()?,
            cases: count(&value["cases"])?,
            verdicts,
            rules,
            note: value["note"].as_str()?.to_string(),
            boards,
            build: value["build"].as_str()?.to_string(),
            kinds: serde_json::from_value(value["kinds"].clone()).ok()?,
        })
    }
}

/// `score` as a percentage of `cases`.
pub(super) fn percent(score: f64, cases: usize) -> f64 {
    if cases == 0 {
        0.0
    } else {
        100.0 * score / cases as f64
    }
}

/// The verdict columns of the table: name, short heading, CSV heading.
pub(super) const COLUMNS: [(&str, &str, &str); 8] = [
    ("accepted", "AC", "accepted"),
    ("presentation error", "PE", "presentation-error"),
    ("wrong answer", "WA", "wrong-answer"),
    ("time limit", "TLE", "time-limit"),
    ("memory limit", "MLE", "memory-limit"),
    ("output limit", "OLE", "output-limit"),
    ("runtime error", "RE", "runtime-error"),
    ("compile error", "CE", "compile-error"),
];

/// Sorts rows best first, by name where they tie.
pub fn sort(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        b.percent()
            .total_cmp(&a.percent())
            .then_with(|| a.name.cmp(&b.name))
    });
}

/// The class table as text, CSV or JSON (JUnit and Gradescope are per submission, under
/// `--save`; the page is `html.rs`'s); the text and JSON say how each run was sealed, and the
/// JSON what was judged (`judging`), when that is given.
pub fn table(
    rows: &[Row],
    format: Format,
    sealing: &Sealing,
    judging: Option<&serde_json::Value>,
) -> anyhow::Result<Vec<u8>> {
    let boards: Vec<&str> = rows
        .iter()
        .find(|r| !r.boards.is_empty())
        .map(|r| r.boards.iter().map(|b| b.board.as_str()).collect())
        .unwrap_or_default();
    let at = |row: &Row, board: &str| {
        row.boards
            .iter()
            .find(|b| b.board == board)
            .map_or((0.0, 0), |b| (b.score, b.cases))
    };
    let mut out = String::new();
    match format {
        Format::Csv => {
            let mut heading = vec!["submission".to_string(), "score".into(), "cases".into()];
            heading.extend(boards.iter().map(|b| format!("score-{b}")));
            heading.extend(COLUMNS.iter().map(|c| c.2.to_string()));
            heading.extend(Rule::ALL.iter().map(|r| r.id().to_string()));
            heading.push("note".into());
            let _ = writeln!(out, "{}", heading.join(","));
            for row in rows {
                let mut cells = vec![csv(&row.name), format!("{:.2}", row.score)];
                cells.push(row.cases.to_string());
                cells.extend(boards.iter().map(|b| format!("{:.2}", at(row, b).0)));
                cells.extend(COLUMNS.iter().map(|c| row.count(c.0).to_string()));
                cells.extend(
                    Rule::ALL
                        .iter()
                        .map(|r| row.rules.get(r).copied().unwrap_or(0).to_string()),
                );
                cells.push(csv(&row.note));
                let _ = writeln!(out, "{}", cells.join(","));
            }
        }
        Format::Json => {
            let rows: Vec<_> = rows.iter().map(Row::json).collect();
            let mut report = json!({});
            if let Some(judging) = judging {
                report["judging"] = judging.clone();
            }
            report["submissions"] = json!(rows);
            report["sealing"] = sealing_json(sealing);
            return pretty(&report);
        }
        _ => {
            let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(10);
            let _ = write!(out, "{:<width$}  {:>6}", "submission", "score");
            for board in &boards {
                let _ = write!(out, " {board:>6}");
            }
            for (_, short, _) in COLUMNS {
                let _ = write!(out, " {short:>4}");
            }
            let _ = writeln!(out, "  rules");
            for row in rows {
                let mut line = format!("{:<width$}  {:>5.1}%", row.name, row.percent());
                for board in &boards {
                    let (score, cases) = at(row, board);
                    let _ = write!(line, " {:>5.1}%", percent(score, cases));
                }
                for (name, _, _) in COLUMNS {
                    let _ = write!(line, " {:>4}", row.count(name));
                }
                let mut rules: Vec<(&Rule, &usize)> = row.rules.iter().collect();
                rules.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
                let mut notes: Vec<String> =
                    rules.iter().map(|(r, n)| format!("{r} {n}")).collect();
                if !row.note.is_empty() {
                    notes.push(row.note.clone());
                }
                let _ = write!(line, "  {}", notes.join(", "));
                let _ = writeln!(out, "{}", line.trim_end());
            }
            let _ = writeln!(out, "\nSealing: {sealing}");
        }
    }
    Ok(out.into_bytes())
}

/// A CSV field, quoted where it must be.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_where_they_must_be() {
        assert_eq!(csv("plain"), "plain");
        assert_eq!(csv("a,\"b\""), "\"a,\"\"b\"\"\"");
    }

    #[test]
    fn a_row_reads_back_from_its_json() {
        let one = Row {
            name: "ann".into(),
            score: 3.5,
            cases: 5,
            verdicts: BTreeMap::from([("accepted".into(), 3), ("wrong answer".into(), 2)]),
            rules: BTreeMap::from([(Rule::PassMissing, 2)]),
            note: "left 1 processes running".into(),
            boards: Vec::new(),
            build: "main.cpp:9:1: error: '::main' must return 'int'\n".into(),
            kinds: Vec::new(),
        };
        let both = Row::of_boards(
            "ann",
            vec![("4x4".into(), one.clone()), ("6x6".into(), one)],
        );
        assert_eq!(both.cases, 10);
        assert_eq!(both.boards.len(), 2);
        assert_eq!(Row::from_json(&both.json()), Some(both));
    }
}
