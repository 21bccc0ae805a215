//! The reports CI services and Gradescope read: JUnit XML (a testcase per case, with its
//! class name and time; a crash, a time or memory limit as an error, other failures as a
//! failure) and Gradescope's `results.json` (points spread over the cases, a presentation error
//! worth the PE credit, the tests' visibility, and text for students without the grader's
//! paths).

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::json;

use super::{
    Part, Reader, board_label, credit, details, failed, game_flags, headline, sealing, verdict_name,
};
use crate::judge::{Judged, Judging, Program, Verdict};

/// The JUnit report: a suite per board, a testcase per case, named by case and classed by the
/// game and its board.
pub(super) fn junit(parts: &[Part]) -> anyhow::Result<String> {
    let mut report = Report::new("boardgames judge");
    for part in parts {
        report.add_test_suite(suite(part.judging, part.program, part.judged));
    }
    Ok(report.to_string()?)
}

/// One board's suite.
fn suite(judging: &Judging, program: &Program, judged: &[Judged]) -> TestSuite {
    let flags = game_flags(judging.game);
    let mut suite = TestSuite::new(format!("boardgames judge {flags}"));
    suite.add_property(("sealing", sealing(judging).to_string().as_str()));
    // Jenkins groups testcases by class name: the game and its board, as dotted words.
    let class = format!("judge.{}", flags.replace(" --", ".").replace(' ', "-"));
    for j in judged {
        let status = if failed(j) {
            // A crash or a limit is an error of the run; anything else a failure of the output.
            let kind = match j.verdict {
                Verdict::RuntimeError(_)
                | Verdict::TimeLimit
                | Verdict::MemoryLimit
                | Verdict::CompileError(_) => NonSuccessKind::Error,
                _ => NonSuccessKind::Failure,
            };
            let mut status = TestCaseStatus::non_success(kind);
            status.set_message(headline(j));
            status.set_type(verdict_name(j));
            status.set_description(details(judging, program, j, Reader::Grader));
            status
        } else if j.verdict == Verdict::Unusable {
            let mut status = TestCaseStatus::skipped();
            status.set_message("the input ends before the game does");
            status
        } else {
            TestCaseStatus::success()
        };
        let mut case = TestCase::new(j.case.name.as_str(), status);
        case.set_classname(class.as_str());
        case.set_time(j.time);
        suite.add_test_case(case);
    }
    suite
}

/// Gradescope's `results.json`: `--points` spread evenly over the charged cases of every board
/// (one a case by default), a presentation error worth `--pe-credit` of its case, and text for
/// students; with several boards, each test's name starts with its board.
pub(super) fn gradescope(parts: &[Part]) -> serde_json::Value {
    let judging = parts[0].judging;
    let charged: Vec<(&Part, &Judged)> = parts
        .iter()
        .flat_map(|part| part.judged.iter().map(move |j| (part, j)))
        .filter(|(_, j)| j.verdict != Verdict::Unusable)
        .collect();
    let each = judging
        .points
        .map_or(1.0, |total| total / charged.len().max(1) as f64);
    let mut score = 0.0;
    let tests: Vec<_> = charged
        .iter()
        .map(|&(part, j)| {
            let earned = each * credit(j, judging.pe_credit);
            score += earned;
            let output = format!(
                "{}\n{}",
                headline(j),
                details(part.judging, part.program, j, Reader::Student)
            );
            let name = if parts.len() > 1 {
                format!("{} {}", board_label(part.judging.game), j.case.name)
            } else {
                j.case.name.clone()
            };
            let mut test = json!({
                "name": name,
                "score": earned,
                "max_score": each,
                "status": if failed(j) { "failed" } else { "passed" },
                "output": output,
            });
            if let Some(visibility) = judging.visibility {
                test["visibility"] = json!(visibility.word());
            }
            test
        })
        .collect();
    let time: f64 = charged.iter().map(|(_, j)| j.time.as_secs_f64()).sum();
    let output = format!("Each run was sealed: {}.", sealing(judging));
    let mut report = json!({
        "score": score, "execution_time": time, "output": output, "tests": tests,
    });
    if let Some(visibility) = judging.visibility {
        report["visibility"] = json!(visibility.word());
    }
    report
}
