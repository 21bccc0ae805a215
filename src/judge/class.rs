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

use super::build::{self, Build, Built, Source, is_source};
use super::reporting::{self, Format, Row, table};
use super::running::{Runs, executable, program_name};
use super::{
    Board, Judged, Judging, Outcome, Program, Verdict, each_at_once, judge_program, listing,
};
use crate::progress::Progress;

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

/// A submission: its name and what it is, or why there is nothing to run.
struct Submission {
    name: String,
    program: Result<What, String>,
}

/// What a submission is.
enum What {
    /// A program to run.
    Program(Program),
    /// Sources to build first (`--build`): a folder, or one file.
    Sources(PathBuf),
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

/// The class's submissions in this shard: executables and folders that hold one; or, to build,
/// folders and source files. Other files are not submissions.
fn submissions(class: &Class, building: bool) -> anyhow::Result<Vec<Submission>> {
    let all: Vec<PathBuf> = entries(&class.dir)?
        .into_iter()
        .filter(|p| {
            p.is_dir()
                || if building {
                    is_source(p)
                } else {
                    executable(p)
                }
        })
        .collect();
    anyhow::ensure!(
        !all.is_empty(),
        "no programs in {}: a submission is {}",
        class.dir.display(),
        if building {
            "a folder of sources, or a source file"
        } else {
            "an executable, or a folder that holds one"
        }
    );
    let shard = class.shard;
    let mut taken = Vec::new();
    for (i, path) in all.into_iter().enumerate() {
        if i % shard.count != shard.index - 1 {
            continue;
        }
        let file_name = path.file_name().unwrap_or_default().to_string_lossy();
        let name = match path.file_stem() {
            _ if path.is_dir() => file_name.into_owned(),
            Some(stem) if building => stem.to_string_lossy().into_owned(),
            _ => program_name(&file_name).to_string(),
        };
        let program = if building {
            Ok(What::Sources(path))
        } else if path.is_dir() {
            let inside: Vec<PathBuf> = entries(&path)?
                .into_iter()
                .filter(|p| executable(p))
                .collect();
            match &inside[..] {
                [one] => Ok(What::Program(Program::plain(one.clone()))),
                [] => Err("no executable in its folder".to_string()),
                many => Err(format!("{} executables in its folder", many.len())),
            }
        } else {
            Ok(What::Program(Program::plain(path)))
        };
        taken.push(Submission { name, program });
    }
    Ok(taken)
}

/// Judges every submission of the class at every board, on the board's cases, and renders
/// the class table (a column per board where there are several).
pub fn grade(
    judging: &Judging,
    class: &Class,
    boards: &[Board],
    runs: &Runs,
) -> anyhow::Result<(Vec<u8>, Outcome)> {
    anyhow::ensure!(
        judging.save.is_some() || !matches!(judging.format, Format::Junit | Format::Gradescope),
        "--format junit and gradescope are written per submission with --programs: add --save DIR"
    );
    let submissions = submissions(class, judging.build.is_some())?;
    let builds = match &judging.build {
        Some(how) => build_all(how, &submissions, boards, judging, runs)?,
        None => Vec::new(),
    };
    let cases: usize = boards.iter().map(|b| b.cases.len()).sum();
    let progress = Progress::new(submissions.len() * cases, "cases");
    let mut rows = Vec::new();
    let mut unrunnable = false;
    for (index, submission) in submissions.iter().enumerate() {
        if runs.is_interrupted() {
            break;
        }
        progress.say(format!(
            "submission {}/{}: {}",
            index + 1,
            submissions.len(),
            submission.name
        ));
        let what = match &submission.program {
            Ok(what) => what,
            Err(why) => {
                unrunnable = true;
                progress.advance(cases);
                let mut row = Row::of(&submission.name, &[], judging.pe_credit);
                row.note = format!("cannot run: {why}");
                rows.push(row);
                continue;
            }
        };
        let mut parts = Vec::new();
        for (at, board) in boards.iter().enumerate() {
            let built = builds.get(index).and_then(|b| b.get(at));
            let (program, judged) = match program_at(what, built, board) {
                Ok(program) => {
                    let judged =
                        judge_program(&board.judging, &program, &board.cases, runs, &progress)?;
                    (program, judged)
                }
                Err((sources, output)) => {
                    progress.advance(board.cases.len());
                    let judged = board
                        .cases
                        .iter()
                        .map(|case| {
                            Judged::unrun(case.clone(), Verdict::CompileError(output.clone()))
                        })
                        .collect();
                    (sources, judged)
                }
            };
            if let Some(dir) = &judging.save {
                let dir = board.folder(&dir.join(&submission.name), boards.len());
                save_all(&dir, &board.judging, &program, &judged)?;
            }
            let mut row = Row::of(&submission.name, &judged, judging.pe_credit);
            if let Some(Verdict::CompileError(output)) = judged.first().map(|j| &j.verdict) {
                row.note = format!("compile error: {}", output.lines().next().unwrap_or(""));
                row.build = output.clone();
            } else {
                row.kinds = reporting::shown_kinds(&board.judging, &program, &judged);
            }
            parts.push((reporting::board_label(board.judging.game), row));
        }
        rows.push(match <[_; 1]>::try_from(parts) {
            Ok([(_, row)]) => row,
            Err(parts) => Row::of_boards(&submission.name, parts),
        });
    }
    progress.finish();
    reporting::sort(&mut rows);
    let outcome = if runs.is_interrupted() {
        Outcome::Interrupted
    } else if unrunnable {
        Outcome::SomeFailed
    } else {
        Outcome::AllAccepted
    };
    let what = judged_what(judging, class);
    let table = table(
        &rows,
        judging.format,
        reporting::sealing(judging),
        Some(&what),
    )?;
    Ok((table, outcome))
}

/// Every submission's build at every board (`[submission][board]`), `jobs` at once, each
/// from the cache where it is there; says on stderr how many were made and where the cache is.
fn build_all(
    how: &Build,
    submissions: &[Submission],
    boards: &[Board],
    judging: &Judging,
    runs: &Runs,
) -> anyhow::Result<Vec<Vec<Built>>> {
    let work: Vec<(usize, usize, &Path)> = submissions
        .iter()
        .enumerate()
        .filter_map(|(s, submission)| match &submission.program {
            Ok(What::Sources(path)) => Some((s, path.as_path())),
            _ => None,
        })
        .flat_map(|(s, path)| (0..boards.len()).map(move |b| (s, b, path)))
        .collect();
    let progress = Progress::new(work.len(), "builds");
    let made = each_at_once(judging.jobs, &work, |&(s, b, path)| {
        progress.say(submissions[s].name.clone());
        let values = boards[b].values();
        let built = build::build(how, path, &values, &judging.limits.sandbox, runs);
        progress.advance(1);
        built
    })?;
    progress.finish();
    let fresh = made
        .iter()
        .filter(|(_, from)| *from == Source::Made)
        .count();
    eprintln!(
        "builds: {fresh} made, {} from the cache ({}; delete it to clear it)",
        made.len() - fresh,
        how.cache.display()
    );
    let mut builds: Vec<Vec<Built>> = submissions.iter().map(|_| Vec::new()).collect();
    for ((s, _, _), (built, _)) in work.iter().zip(made) {
        builds[*s].push(built);
    }
    Ok(builds)
}

/// What a class judging judged, for its JSON report: the version of boardgames, the game and
/// its boards, the cases, and the shard, so that the shards of one judging can be merged and
/// those of others refused (`merge.rs`).
pub fn judged_what(judging: &Judging, class: &Class) -> serde_json::Value {
    let (game, capture) = match judging.game {
        crate::judge::Game::Othello(_) => ("othello", None),
        crate::judge::Game::Mancala(board) => ("mancala", Some(format!("{:?}", board.capture))),
    };
    let boards: Vec<String> = judging
        .games
        .iter()
        .map(|&g| reporting::board_label(g))
        .collect();
    let cases = match &judging.cases {
        crate::judge::Cases::Generated {
            count,
            seed,
            errors,
            weird,
        } => serde_json::json!({
            "count": count, "seed": seed.to_string(), "errors": errors, "weird": weird,
        }),
        crate::judge::Cases::Inputs(dir) => {
            serde_json::json!({ "inputs": dir.display().to_string() })
        }
    };
    serde_json::json!({
        "boardgames": env!("CARGO_PKG_VERSION"),
        "game": game,
        "capture": capture,
        "boards": boards,
        "cases": cases,
        // What else makes a verdict or a score: shards judged otherwise are not one class.
        "limits": {
            "timeout": judging.limits.time.as_secs_f64(),
            "memory_mb": judging.limits.memory_mb,
            "output_limit": judging.limits.output,
            "processes": judging.limits.sandbox.processes,
            "file_mb": judging.limits.sandbox.file_mb,
            "sandbox": format!("{:?}", judging.limits.sandbox.mode).to_lowercase(),
        },
        "repeat": judging.repeat,
        "pe_credit": judging.pe_credit,
        "accept_crlf": judging.accept_crlf,
        "build": judging.build.as_ref().map(|b| &b.command),
        "shard": format!("{}/{}", class.shard.index, class.shard.count),
    })
}

/// The program a submission is at `board`: its arguments made the board's, or its build;
/// `Err` (its sources, the build's output) when the build failed.
fn program_at(
    what: &What,
    built: Option<&Built>,
    board: &Board,
) -> Result<Program, (Program, String)> {
    match (what, built) {
        (What::Program(program), _) => Ok(program.with_values(&board.values())),
        (What::Sources(_), Some(Built::Program(path))) => Ok(Program::plain(path.clone())),
        (What::Sources(sources), Some(Built::Failed(output))) => {
            Err((Program::plain(sources.clone()), output.clone()))
        }
        (What::Sources(sources), None) => Err((
            Program::plain(sources.clone()),
            "no build command".to_string(),
        )),
    }
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
        (Format::Html, "report.html"),
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
