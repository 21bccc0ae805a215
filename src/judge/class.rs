//! Judging a whole class: every submission in a folder (an executable, or a folder that holds
//! one) on the same cases, one after another, each with the judge's jobs; then a table with a
//! row per submission (its score, its verdicts, its failures counted by rule id), best first,
//! as text, CSV for a gradebook, or JSON. `--shard K/N` takes every N-th submission from the
//! K-th, so that N jobs of a CI matrix grade the class once between them. With `--save`, each
//! submission gets a folder of its own with its failed cases and its report in every format.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context;
use serde_json::json;

use super::process::{Groups, executable};
use super::report::{self, Format, failed};
use super::rule::Rule;
use super::{Case, Judged, Judging, Outcome, Program, Verdict, judge_program, listing};

/// A class to judge.
#[derive(Clone, Debug)]
pub struct Class {
    /// The folder of submissions.
    pub dir: PathBuf,
    /// Which of them this judging takes.
    pub shard: Shard,
}

/// Every `count`-th submission from the `index`-th (from 1), in name order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || format!("`{text}` is not K/N with 1 <= K <= N, like 2/4");
        let (k, n) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count): (usize, usize) = (
            k.parse().map_err(|_| wrong())?,
            n.parse().map_err(|_| wrong())?,
        );
        if index == 0 || index > count {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

/// A submission: its name and its program, or why there is none to run.
struct Submission {
    name: String,
    program: Result<Program, String>,
}

/// The entries of a folder, sorted by name, hidden ones left out.
fn entries(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut paths = listing(dir, "submissions")?;
    paths.retain(|p| {
        !p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    });
    Ok(paths)
}

/// The class's submissions in this shard: executables and folders; other files are not
/// submissions.
fn submissions(class: &Class) -> anyhow::Result<Vec<Submission>> {
    let all: Vec<PathBuf> = entries(&class.dir)?
        .into_iter()
        .filter(|p| p.is_dir() || executable(p))
        .collect();
    anyhow::ensure!(
        !all.is_empty(),
        "no programs in {}: a submission is an executable, or a folder that holds one",
        class.dir.display()
    );
    let shard = class.shard;
    let mut taken = Vec::new();
    for (i, path) in all.into_iter().enumerate() {
        if i % shard.count != shard.index - 1 {
            continue;
        }
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let program = if path.is_dir() {
            let inside: Vec<PathBuf> = entries(&path)?
                .into_iter()
                .filter(|p| executable(p))
                .collect();
            match &inside[..] {
                [one] => Ok(one.clone()),
                [] => Err("no executable in its folder".to_string()),
                many => Err(format!("{} executables in its folder", many.len())),
            }
        } else {
            Ok(path)
        };
        taken.push(Submission {
            name,
            program: program.map(|path| Program {
                path,
                args: Vec::new(),
            }),
        });
    }
    Ok(taken)
}

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
                .fold(0.0, |sum, j| sum + report::credit(j, pe_credit)),
            cases: charged.len(),
            verdicts: BTreeMap::new(),
            rules: BTreeMap::new(),
            note: String::new(),
        };
        for j in &charged {
            *row.verdicts.entry(report::verdict_name(j)).or_default() += 1;
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
    fn percent(&self) -> f64 {
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

/// Judges every submission of the class on `cases` and renders the class table.
pub fn grade(
    judging: &Judging,
    class: &Class,
    cases: &[Case],
    groups: &Groups,
) -> anyhow::Result<(Vec<u8>, Outcome)> {
    anyhow::ensure!(
        judging.save.is_some() || !matches!(judging.format, Format::Junit | Format::Gradescope),
        "--format junit and gradescope are written per submission with --programs: add --save DIR"
    );
    let mut rows = Vec::new();
    let mut unrunnable = false;
    for submission in submissions(class)? {
        if groups.is_interrupted() {
            break;
        }
        let program = match submission.program {
            Ok(program) => program,
            Err(why) => {
                unrunnable = true;
                let mut row = Row::of(&submission.name, &[], judging.pe_credit);
                row.note = format!("cannot run: {why}");
                rows.push(row);
                continue;
            }
        };
        let judged = judge_program(judging, &program, cases, groups)?;
        if let Some(dir) = &judging.save {
            save_all(&dir.join(&submission.name), judging, &program, &judged)?;
        }
        rows.push(Row::of(&submission.name, &judged, judging.pe_credit));
    }
    rows.sort_by(|a, b| {
        b.percent()
            .total_cmp(&a.percent())
            .then_with(|| a.name.cmp(&b.name))
    });
    let outcome = if groups.is_interrupted() {
        Outcome::Interrupted
    } else if unrunnable {
        Outcome::SomeFailed
    } else {
        Outcome::AllAccepted
    };
    Ok((table(&rows, judging.format)?, outcome))
}

/// Saves a submission's failed cases and its report in every format.
fn save_all(
    dir: &Path,
    judging: &Judging,
    program: &Program,
    judged: &[Judged],
) -> anyhow::Result<()> {
    report::save(dir, program, judged)?;
    for (format, file) in [
        (Format::Text, "report.txt"),
        (Format::Json, "report.json"),
        (Format::Junit, "junit.xml"),
        (Format::Gradescope, "results.json"),
    ] {
        let one = Judging {
            format,
            ..judging.clone()
        };
        let path = dir.join(file);
        let bytes = report::render(&one, program, judged)?;
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The class table in the asked form: text, CSV or JSON (JUnit and Gradescope are per
/// submission, under `--save`).
pub fn table(rows: &[Row], format: Format) -> anyhow::Result<Vec<u8>> {
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
            return report::pretty(&json!({ "submissions": rows }));
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
    fn shards_are_k_of_n() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!("1/1".parse(), Ok(Shard::default()));
        for bad in ["0/2", "3/2", "1", "a/b", "1/0", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(csv("plain"), "plain");
        assert_eq!(csv("a,\"b\""), "\"a,\"\"b\"\"\"");
    }
}
