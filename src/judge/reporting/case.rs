//! One case's words in a report: its headline (the verdict, the rule or the crash, the limits
//! reached), the lines that explain it to a person (the difference, the crash, the program's
//! standard error where its output ends early or it failed, what the sandbox refused it and the
//! flag that allows it, the limits, the replay command). Every format takes them from here.

use std::fmt::Write as _;

use super::super::reading::compare::{Difference, token_before, visible};
use super::super::reading::refused::{self, Refusal};
use super::super::running::{Program, SandboxMode, shell_quote};
use super::super::{Cases, Judged, Judging, Verdict};
use super::{Reader, game_flags, verdict_name};

/// The shell command that replays a case against the program: for the grader with this
/// judge's own path and the program's; for a student with neither.
pub(super) fn replay(
    judging: &Judging,
    program: &Program,
    judged: &Judged,
    reader: Reader,
) -> String {
    let (judge, run) = match reader {
        Reader::Grader => (
            std::env::current_exe().map_or_else(
                |_| "boardgames".into(),
                |p| shell_quote(&p.to_string_lossy()),
            ),
            program.command_line(),
        ),
        Reader::Student => ("boardgames".to_string(), "./your-program".to_string()),
    };
    match (judged.case.seed, &judging.cases) {
        (Some(seed), Cases::Generated { errors, weird, .. }) => {
            let mut generate = format!(
                "{judge} generate {} --seed {seed}",
                game_flags(judging.game)
            );
            if *errors {
                generate.push_str(" --errors");
            }
            if *weird {
                generate.push_str(" --weird");
            }
            format!("{generate} | {run}")
        }
        (_, Cases::Inputs(dir)) => {
            let file = match reader {
                Reader::Grader => dir.join(format!("{}.in", judged.case.name)),
                Reader::Student => format!("{}.in", judged.case.name).into(),
            };
            format!("{run} < {}", shell_quote(&file.to_string_lossy()))
        }
        _ => run,
    }
}

/// The verdict with the rule broken and what places it: "wrong answer (flip-missing) at line
/// 40, column 1".
pub(super) fn headline(judged: &Judged) -> String {
    let verdict = &judged.verdict;
    let rule = judged
        .diagnosis
        .as_ref()
        .and_then(|d| d.rule)
        .map_or_else(String::new, |rule| format!(" ({rule})"));
    let line = match verdict {
        Verdict::Wrong(d) => {
            format!(
                "{}{rule} at line {}, column {}",
                verdict.name(),
                d.line,
                d.column
            )
        }
        Verdict::Presentation(d) => {
            format!("{} at line {}, column {}", verdict.name(), d.line, d.column)
        }
        // A crash a sanitizer names is the cause, whatever rule the output broke before it.
        Verdict::RuntimeError(how) => match &judged.crash {
            Some(crash) => format!("runtime error ({how}): {crash}"),
            None => format!("runtime error ({how}){rule}"),
        },
        _ => format!("{}{rule}", verdict_name(judged)),
    };
    let mut line = line;
    for hit in &judged.hits {
        let _ = write!(line, " ({} limit reached)", limit_name(hit));
    }
    if judged.outputs > 1 && *verdict != Verdict::Accepted {
        format!("{line} (flaky)")
    } else {
        line
    }
}

/// A sandbox limit's name in a report, from its word in the keeper's.
fn limit_name(hit: &str) -> &str {
    match hit {
        "processes" => "process",
        "file" => "file-size",
        "memory" => "memory",
        other => other,
    }
}

/// The lines that explain a failure to a person.
pub(super) fn details(
    judging: &Judging,
    program: &Program,
    judged: &Judged,
    reader: Reader,
) -> String {
    let mut out = String::new();
    let show = |line: &Option<Vec<u8>>| {
        line.as_deref().map_or_else(
            || "(nothing: the output ends here)".to_string(),
            |l| format!("`{}`", visible(l)),
        )
    };
    if let Some(crash) = &judged.crash {
        let _ = writeln!(out, "  crash:    {crash}");
    }
    if let Some(diagnosis) = &judged.diagnosis {
        for line in &diagnosis.detail {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(looped) = &diagnosis.looped {
            let _ = writeln!(out, "  loop: {looped}");
        }
        for cosmetic in &diagnosis.cosmetics {
            let _ = writeln!(out, "  {}: {}", cosmetic.rule, cosmetic.description);
        }
    }
    match &judged.verdict {
        Verdict::Wrong(d) | Verdict::Presentation(d) => {
            let Difference {
                line,
                column,
                offset,
                expected,
                actual,
            } = d;
            let after = token_before(&judged.case.expected.reads, *offset);
            let _ = writeln!(
                out,
                "  first differing byte: line {line}, column {column}, {after}"
            );
            let _ = writeln!(out, "    expected: {}", show(expected));
            let _ = writeln!(out, "    actual:   {}", show(actual));
            // An output that ends before the expected one: its standard error may say why.
            if actual.is_none() {
                stderr_tail(&mut out, judged);
            }
        }
        Verdict::RuntimeError(_)
        | Verdict::TimeLimit
        | Verdict::MemoryLimit
        | Verdict::OutputLimit => stderr_tail(&mut out, judged),
        Verdict::Unusable => {
            let _ = writeln!(out, "  the input ends before the game does");
        }
        Verdict::CompileError(output) => {
            for line in output.lines() {
                let _ = writeln!(out, "  build:    {}", visible(line.as_bytes()));
            }
        }
        Verdict::Accepted => {}
    }
    if judged.verdict == Verdict::MemoryLimit {
        let _ = writeln!(
            out,
            "  memory:   {} MiB at its peak, limit {} MiB",
            judged.peak_kib / 1024,
            judging.limits.memory_mb
        );
    }
    let sandbox = &judging.limits.sandbox;
    for hit in &judged.hits {
        let limit = match hit.as_str() {
            "processes" => format!("{} processes at once", sandbox.processes),
            "memory" => format!("{} MiB in use", judging.limits.memory_mb),
            "file" => format!("files of {} MiB", sandbox.file_mb),
            other => other.to_string(),
        };
        let _ = writeln!(
            out,
            "  limit:    it reached the {} limit, {limit}",
            limit_name(hit)
        );
    }
    if judged.left > 0 {
        let _ = writeln!(out, "  {}", left_behind(judged.left));
    }
    if let Some(refusal) = refused(judging, judged) {
        let _ = writeln!(out, "  refused:  {refusal}");
    }
    if judged.outputs > 1 {
        let _ = writeln!(
            out,
            "  flaky: {} different results (output or ending) in {} runs",
            judged.outputs, judging.repeat
        );
    }
    let _ = writeln!(
        out,
        "  replay:   {}",
        replay(judging, program, judged, reader)
    );
    out
}

/// The last lines of the run's standard error, if it wrote any.
fn stderr_tail(out: &mut String, judged: &Judged) {
    let stderr = String::from_utf8_lossy(&judged.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    for line in &lines[lines.len().saturating_sub(5)..] {
        let _ = writeln!(out, "  stderr:   {}", visible(line.as_bytes()));
    }
}

/// What the sandbox may have refused a failed run, by its standard error, and the flag that
/// allows it.
fn refused(judging: &Judging, judged: &Judged) -> Option<String> {
    if judging.limits.sandbox.mode == SandboxMode::Off || judged.verdict == Verdict::Accepted {
        return None;
    }
    let lift = "--sandbox off runs it with your rights";
    Some(match refused::read(&judged.stderr)? {
        Refusal::Path(path) => {
            let folder = std::path::Path::new(&path)
                .parent()
                .map_or_else(|| path.clone(), |p| p.display().to_string());
            format!(
                "{path} (a run reads the system's folders, its own and those of --read, and \
                 writes only its scratch folder): --read {} admits it to read; {lift}",
                shell_quote(&folder)
            )
        }
        Refusal::Network => format!("the network (a run has none); {lift}"),
        Refusal::Runtime => format!(
            "the runtime's own library (it lies outside what a run may read): --read its \
             folder (the runtime's prefix) admits it; {lift}"
        ),
    })
}

/// The note on processes a run left running.
pub(super) fn left_behind(count: usize) -> String {
    let s = if count == 1 { "" } else { "es" };
    format!("left {count} process{s} running when it ended, killed")
}
