//! Judging a whole class: every submission in a folder (an executable, or a folder that holds
//! one) on the same cases, one after another, each with the judge's jobs; then a table with a
//! row per submission (its score, its verdicts, its failures counted by rule id), best first,
//! as text, CSV for a gradebook, or JSON. `--shard K/N` takes every N-th submission from the
//! K-th, so that N jobs of a CI matrix grade the class once between them. With `--save`, each
//! submission gets a folder of its own with its failed cases and its report in every format.
//! The table itself is drawn by `reporting/table.rs`.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context;

use super::reporting::{self, Format, Row, table};
use super::running::{Runs, executable, program_name};
use super::{Case, Judged, Judging, Outcome, Program, judge_program, listing};

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
        let file_name = path.file_name().unwrap_or_default().to_string_lossy();
        let name = if path.is_dir() {
            file_name.into_owned()
        } else {
            program_name(&file_name).to_string()
        };
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

/// Judges every submission of the class on `cases` and renders the class table.
pub fn grade(
    judging: &Judging,
    class: &Class,
    cases: &[Case],
    runs: &Runs,
) -> anyhow::Result<(Vec<u8>, Outcome)> {
    anyhow::ensure!(
        judging.save.is_some() || !matches!(judging.format, Format::Junit | Format::Gradescope),
        "--format junit and gradescope are written per submission with --programs: add --save DIR"
    );
    let mut rows = Vec::new();
    let mut unrunnable = false;
    for submission in submissions(class)? {
        if runs.is_interrupted() {
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
        let judged = judge_program(judging, &program, cases, runs)?;
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
    let outcome = if runs.is_interrupted() {
        Outcome::Interrupted
    } else if unrunnable {
        Outcome::SomeFailed
    } else {
        Outcome::AllAccepted
    };
    Ok((
        table(&rows, judging.format, reporting::sealing(judging))?,
        outcome,
    ))
}

/// Saves a submission's failed cases and its report in every format.
fn save_all(
    dir: &Path,
    judging: &Judging,
    program: &Program,
    judged: &[Judged],
) -> anyhow::Result<()> {
    reporting::save(dir, program, judged)?;
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
        let bytes = reporting::render(&one, program, judged)?;
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
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
    }
}
