//! The judge's reports: a line per case, the details of each failure and a summary with the
//! failures grouped into kinds (text); one object per case and a summary (JSON); the class
//! table's row (CSV); JUnit XML and Gradescope's `results.json` (`ci.rs`); the class table
//! (`table.rs`) with each row's kinds of failure (`kinds.rs`); the page that draws them
//! (`html.rs`); several boards' parts as one (`parts.rs`); and the saved files of the failed
//! cases (`saved.rs`). Reports are built as
//! bytes; `main.rs` writes them. It uses the judge's cases and verdicts (`judge/mod.rs`),
//! `reading/`'s differences and rule ids and `running/`'s programs and sealing; only the
//! judge and the class use it.

mod case;
mod ci;
mod html;
mod json;
mod kinds;
mod parts;
mod saved;
mod table;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use clap::ValueEnum;
use serde_json::json;

use case::{details, headline, left_behind, replay};
pub use json::{pretty, sealing_json};
pub use kinds::{Kind, shown_kinds};
pub use parts::{Part, board_label, render_parts};
pub use saved::save;
pub use table::{Row, sort};

use super::reading::compare::kind;
use super::running::{Program, Sealing, program_name};
use super::{Game, Judged, Judging, Verdict};
use crate::mancala::Capture;

/// The forms of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A line per case, the failures in detail, and a summary with the kinds of failure.
    Text,
    /// One object per case and a summary.
    Json,
    /// JUnit XML, one testcase per case, as CI services read it.
    Junit,
    /// Gradescope's results.json: a test per case (see --points, --visibility, --pe-credit).
    Gradescope,
    /// The class table as CSV, a row per program, for a gradebook.
    Csv,
    /// One self-contained page: the table, and each failure's shortest case drawn as boards.
    Html,
}

/// Gradescope's visibility of the tests to students.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Visibility {
    /// Shown at once.
    Visible,
    /// Never shown.
    Hidden,
    /// Shown after the due date.
    AfterDueDate,
    /// Shown once the grades are published.
    AfterPublished,
}

impl Visibility {
    /// Gradescope's word for it.
    fn word(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }
}

/// Who reads a report: the grader (paths of this machine) or the student (none of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    Grader,
    Student,
}

/// The report of `judged` in the asked form.
pub fn render(judging: &Judging, program: &Program, judged: &[Judged]) -> anyhow::Result<Vec<u8>> {
    Ok(match judging.format {
        Format::Text => text(judging, program, judged).into_bytes(),
        Format::Json => {
            let cases: Vec<_> = judged.iter().map(|j| json::case(judging, j)).collect();
            let mut summary = json::summary(judged);
            summary["sealing"] = sealing_json(sealing(judging));
            pretty(&json!({ "cases": cases, "summary": summary }))?
        }
        Format::Junit => ci::junit(&[Part {
            judging,
            program,
            judged,
        }])?
        .into_bytes(),
        Format::Gradescope => pretty(&ci::gradescope(&[Part {
            judging,
            program,
            judged,
        }]))?,
        Format::Csv | Format::Html => table(
            &[program_row(judging, program, judged)],
            judging.format,
            sealing(judging),
            None,
        )?,
    })
}

/// The class table's row of a program judged at one board, named as the table names it, with
/// its kinds of failure.
pub fn program_row(judging: &Judging, program: &Program, judged: &[Judged]) -> Row {
    let name = program
        .path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let mut row = Row::of(program_name(&name), judged, judging.pe_credit);
    row.kinds = shown_kinds(judging, program, judged);
    row
}

/// The class table in the asked form: the page for HTML, else the table's text, CSV or JSON.
pub fn table(
    rows: &[Row],
    format: Format,
    sealing: &Sealing,
    judging: Option<&serde_json::Value>,
) -> anyhow::Result<Vec<u8>> {
    match format {
        Format::Html => Ok(html::page(rows, sealing, judging).into_bytes()),
        _ => table::table(rows, format, sealing, judging),
    }
}

/// How each run of `judging` is sealed on this system.
pub fn sealing(judging: &Judging) -> &Sealing {
    &judging.sealing
}

/// What a case earns: 1 accepted, the PE credit for a presentation error, else 0.
pub fn credit(judged: &Judged, pe_credit: f64) -> f64 {
    match judged.verdict {
        _ if judged.outputs > 1 => 0.0,
        Verdict::Accepted => 1.0,
        Verdict::Presentation(_) => pe_credit,
        _ => 0.0,
    }
}

/// The number of input tokens of a case: how long it is.
fn tokens(judged: &Judged) -> usize {
    judged
        .case
        .input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .count()
}

/// The game's flags on the command line.
fn game_flags(game: Game) -> String {
    match game {
        Game::Othello(side) => format!("othello --size {}", side.get()),
        Game::Mancala(board) => {
            let rule = match board.capture {
                Capture::Standard => "",
                Capture::Empty => " --capture empty",
            };
            format!(
                "mancala --pits {} --stones {}{rule}",
                board.pits.get(),
                board.stones
            )
        }
    }
}

/// The verdict's name, or "flaky" for a program whose first run was accepted but whose runs
/// differ: it fails as surely as one that is wrong every time.
pub fn verdict_name(judged: &Judged) -> &'static str {
    if judged.outputs > 1 && judged.verdict == Verdict::Accepted {
        "flaky"
    } else {
        judged.verdict.name()
    }
}

/// Whether the case counts against the program.
pub fn failed(judged: &Judged) -> bool {
    !matches!(judged.verdict, Verdict::Accepted | Verdict::Unusable) || judged.outputs > 1
}

/// A group of failures: the verdict and the rule broken (or the cosmetic kinds), numbers and
/// players abstracted, so that one slip is one kind however many pits or rounds it touches.
fn kind_of(judged: &Judged) -> String {
    let diagnosed = judged
        .diagnosis
        .as_ref()
        .map(|d| (d.kind(), d.looped.is_some()))
        .filter(|(kind, _)| !kind.is_empty());
    // A crash a sanitizer names is the kind, whatever the output showed before it.
    if let (Verdict::RuntimeError(_), Some(crash)) = (&judged.verdict, &judged.crash) {
        return format!("runtime error: {crash}");
    }
    let verdict = match &judged.verdict {
        Verdict::RuntimeError(how) => format!("runtime error ({})", kind(Some(how.as_bytes()))),
        _ => verdict_name(judged).to_string(),
    };
    match diagnosed {
        Some((kind, true)) => format!("{verdict}: {kind}, then a loop"),
        Some((kind, false)) => format!("{verdict}: {kind}"),
        None if judged
            .diagnosis
            .as_ref()
            .is_some_and(|d| d.looped.is_some()) =>
        {
            format!("{verdict}: a loop")
        }
        None => verdict,
    }
}

/// The failures by kind, each with its count and its shortest case, most frequent first.
fn kinds(judged: &[Judged]) -> Vec<(String, usize, &Judged)> {
    let mut groups: BTreeMap<String, (usize, &Judged)> = BTreeMap::new();
    for j in judged.iter().filter(|j| failed(j)) {
        let entry = groups.entry(kind_of(j)).or_insert((0, j));
        entry.0 += 1;
        if tokens(j) < tokens(entry.1) {
            entry.1 = j;
        }
    }
    let mut kinds: Vec<_> = groups.into_iter().map(|(k, (n, j))| (k, n, j)).collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    kinds
}

/// How many cases got each verdict, in the order of precedence.
fn counts(judged: &[Judged]) -> Vec<(&'static str, usize)> {
    let order = [
        "accepted",
        "flaky",
        "presentation error",
        "wrong answer",
        "runtime error",
        "output limit",
        "memory limit",
        "time limit",
        "unusable case",
        "compile error",
    ];
    order
        .into_iter()
        .map(|name| {
            (
                name,
                judged.iter().filter(|j| verdict_name(j) == name).count(),
            )
        })
        .filter(|&(_, n)| n > 0)
        .collect()
}

fn text(judging: &Judging, program: &Program, judged: &[Judged]) -> String {
    let mut out = String::new();
    for j in judged {
        let left = if j.left > 0 {
            format!(" ({})", left_behind(j.left))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "case {}: {}{left} ({:.3} s)",
            j.case.name,
            headline(j),
            j.time.as_secs_f64()
        );
    }
    for j in judged
        .iter()
        .filter(|j| failed(j) || j.verdict == Verdict::Unusable)
    {
        let _ = writeln!(out, "\n{}: {}", j.case.name, headline(j));
        out.push_str(&details(judging, program, j, Reader::Grader));
    }
    let counted: Vec<String> = counts(judged)
        .into_iter()
        .map(|(name, n)| match name.strip_suffix(" case") {
            Some(kind) if n != 1 => format!("{n} {kind} cases"),
            _ => format!("{n} {name}"),
        })
        .collect();
    let left: usize = judged.iter().map(|j| j.left).sum();
    let left = if left > 0 {
        format!("; {} processes left running, killed", left)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "\nSummary: {} cases: {}{left}",
        judged.len(),
        counted.join(", ")
    );
    let kinds = kinds(judged);
    if !kinds.is_empty() {
        let _ = writeln!(out, "Kinds of failure:");
    }
    for (kind, count, shortest) in kinds {
        let line = format!(
            "{count:>5}  {kind}; shortest: {} ({} tokens)",
            shortest.case.name,
            tokens(shortest)
        );
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "Sealing: {}", sealing(judging));
    out
}
