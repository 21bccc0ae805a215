//! The class table: a row per submission (its score, its verdicts, its failures counted by
//! rule id), as text with the sealing the runs had, CSV for a gradebook, or JSON. Rendering
//! only: judging the class is `class.rs`'s work.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::json;

use super::{Format, credit, failed, pretty, sealing_json, verdict_name};
use crate::judge::reading::rule::Rule;
use crate::judge::running::Sealing;
use crate::judge::{Judged, Verdict};

/// A row of the class table.
#[derive(Clone, Debug)]
pub struct Row {
    /// The submission.
    pub name: String,
    /// Points earned, a case's worth 1 (a presentation error the PE credit).
    pub score: f64,
    /// Cases charged.
    pub cases: usize,
    /// Cases by verdict name.
    pub verdicts: BTreeMap<&'static str, usize>,
    /// Failed cases by the rules they break (a presentation error once for each of its kinds).
    pub rules: BTreeMap<Rule, usize>,
    /// Why the submission could not be judged, or what else a grader should know.
    pub note: String,
}

impl Row {
    /// The row of a judged submission.
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
            verdicts: BTreeMap::new(),
            rules: BTreeMap::new(),
            note: String::new(),
        };
        for j in &charged {
            *row.verdicts.entry(verdict_name(j)).or_default() += 1;
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

    fn count(&self, verdict: &str) -> usize {
        self.verdicts.get(verdict).copied().unwrap_or(0)
    }

    /// The score as a percentage of the cases.
    pub fn percent(&self) -> f64 {
        if self.cases == 0 {
            0.0
        } else {
            100.0 * self.score / self.cases as f64
        }
    }
}

/// The verdict columns of the table: name, short heading, CSV heading.
const COLUMNS: [(&str, &str, &str); 7] = [
    ("accepted", "AC", "accepted"),
    ("presentation error", "PE", "presentation-error"),
    ("wrong answer", "WA", "wrong-answer"),
    ("time limit", "TLE", "time-limit"),
    ("memory limit", "MLE", "memory-limit"),
    ("output limit", "OLE", "output-limit"),
    ("runtime error", "RE", "runtime-error"),
];

/// The class table in the asked form: text, CSV or JSON (JUnit and Gradescope are per
/// submission, under `--save`); the text and JSON say how each run was sealed.
pub fn table(rows: &[Row], format: Format, sealing: &Sealing) -> anyhow::Result<Vec<u8>> {
    let mut out = String::new();
    match format {
        Format::Csv => {
            let mut heading = vec!["submission", "score", "cases"];
            heading.extend(COLUMNS.iter().map(|c| c.2));
            heading.extend(Rule::ALL.iter().map(|r| r.id()));
            heading.push("note");
            let _ = writeln!(out, "{}", heading.join(","));
            for row in rows {
                let mut cells = vec![csv(&row.name), format!("{:.2}", row.score)];
                cells.push(row.cases.to_string());
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
            let rows: Vec<_> = rows
                .iter()
                .map(|row| {
                    let rules: BTreeMap<&str, usize> =
                        row.rules.iter().map(|(r, n)| (r.id(), *n)).collect();
                    json!({
                        "submission": row.name, "score": row.score, "cases": row.cases,
                        "verdicts": row.verdicts, "rules": rules, "note": row.note,
                    })
                })
                .collect();
            return pretty(&json!({
                "submissions": rows,
                "sealing": sealing_json(sealing),
            }));
        }
        _ => {
            let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(10);
            let _ = write!(out, "{:<width$}  {:>6}", "submission", "score");
            for (_, short, _) in COLUMNS {
                let _ = write!(out, " {short:>4}");
            }
            let _ = writeln!(out, "  rules");
            for row in rows {
                let mut line = format!("{:<width$}  {:>5.1}%", row.name, row.percent());
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
}
