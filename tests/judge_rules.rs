//! The judge names the rule a program breaks. The student is `examples/student.rs`, a plain
//! program of both games that `cargo test` builds; each slip it can make is switched on by
//! name, and the judge's default run (100 generated cases; with `--errors` where the slip needs
//! a wrong entry to show) must name it by its rule id, a cosmetic slip as a presentation error
//! and never a wrong answer, and a cosmetic slip beside a logic one by the logic rule.

mod common;

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// The student program, built by `cargo test` beside the tests.
fn student() -> PathBuf {
    common::example("student")
}

/// The judge's text report on the student with `slips`.
fn judge(game: &[&str], errors: bool, slips: &[&str]) -> (i32, String) {
    let game_name = game[0];
    let mut command = Command::new(cargo_bin("boardgames"));
    command
        .arg("judge")
        .args(game)
        .args(["--output-limit", "65536"]);
    if errors {
        command.arg("--errors");
    }
    let out = command
        .arg("--")
        .arg(student())
        .arg(game_name)
        .args(&game[1..])
        .args(slips)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

/// The summary's kinds of failure.
fn kinds(report: &str) -> &str {
    report.split("Kinds of failure:").nth(1).unwrap_or("")
}

#[test]
fn the_student_without_slips_is_accepted() {
    for (game, errors) in [
        (&["othello", "--size", "6"][..], true),
        (&["mancala", "--pits", "4", "--stones", "3"][..], true),
    ] {
        let (code, report) = judge(game, errors, &[]);
        assert_eq!(code, 0, "{report}");
        assert!(report.contains("100 accepted\n"), "{report}");
    }
}

#[test]
fn every_logic_slip_is_named_by_its_rule() {
    let othello = ["othello", "--size", "6"];
    let four = ["othello", "--size", "4"];
    let kalah = ["mancala", "--pits", "4", "--stones", "3"];
    // (game, --errors, slips, the rule id the kinds must name)
    let cases: &[(&[&str], bool, &[&str], &str)] = &[
        (&othello, true, &["pit-setup"], "pit-setup"),
        (
            &othello,
            true,
            &["illegal-move-accepted"],
            "illegal-move-accepted",
        ),
        (
            &othello,
            false,
            &["legal-move-refused"],
            "legal-move-refused",
        ),
        (&othello, false, &["flip-wraps-edge"], "flip-wraps-edge"),
        (&othello, false, &["flip-missing"], "flip-missing"),
        (&othello, false, &["flip-extra-flips"], "flip-extra"),
        (&othello, false, &["pass-missing"], "pass-missing"),
        (&othello, false, &["pass-wrong"], "pass-wrong"),
        (
            &four,
            false,
            &["full-board-continues"],
            "full-board-continues",
        ),
        (&othello, false, &["passes-continue"], "passes-continue"),
        (&othello, false, &["game-ends-early"], "game-ends-early"),
        (&othello, false, &["wrong-result"], "wrong-result"),
        (&othello, false, &["round-wrong"], "round-wrong"),
        (&othello, true, &["turn-wrong"], "turn-wrong"),
        (&othello, false, &["board-wrong"], "board-wrong"),
        (&kalah, false, &["pit-refused"], "pit-refused"),
        (&kalah, true, &["pit-accepted"], "pit-accepted"),
        (&kalah, false, &["sow-wrong"], "sow-wrong"),
        (&kalah, false, &["capture-wrong"], "capture-wrong"),
        (&kalah, false, &["extra-turn-wrong"], "extra-turn-wrong"),
        (&kalah, false, &["sweep-wrong"], "sweep-wrong"),
        (&kalah, true, &["undo-wrong"], "undo-wrong"),
        (&kalah, false, &["wrong-result"], "wrong-result"),
        (&kalah, false, &["board-wrong"], "board-wrong"),
        // A cosmetic slip beside a logic one: the logic rule is what the case reports.
        (
            &othello,
            false,
            &["whitespace", "flip-wraps-edge"],
            "flip-wraps-edge",
        ),
        (
            &kalah,
            false,
            &["prompt-wording", "capture-wrong"],
            "capture-wrong",
        ),
    ];
    for &(game, errors, slips, rule) in cases {
        let (code, report) = judge(game, errors, slips);
        assert_eq!(code, 1, "{slips:?}: {report}");
        let kinds = kinds(&report);
        assert!(
            kinds.contains(&format!(": {rule};")) || kinds.contains(&format!(": {rule},")),
            "{slips:?} should be named {rule}:\n{kinds}"
        );
        // A case that shows the logic slip is never graded on its cosmetic one.
        assert!(
            !kinds
                .lines()
                .any(|l| l.contains("presentation error") && l.contains(rule)),
            "{slips:?}: {kinds}"
        );
    }
}

#[test]
fn a_cosmetic_slip_is_a_presentation_error_and_never_a_wrong_answer() {
    let othello = ["othello", "--size", "8"];
    let kalah = ["mancala", "--pits", "6", "--stones", "4"];
    // (game, slip, the rule id, words of its description)
    let cases: &[(&[&str], &str, &str, &str)] = &[
        (
            &othello,
            "whitespace",
            "whitespace",
            "trailing space after the column header",
        ),
        (
            &othello,
            "prompt-wording",
            "prompt-wording",
            "`Enter number of blocks:` for",
        ),
        (
            &othello,
            "letter-case",
            "letter-case",
            "letter case in the turn prompt",
        ),
        (
            &othello,
            "no-final-newline",
            "final-newline",
            "no line break at the end",
        ),
        (
            &kalah,
            "whitespace",
            "whitespace",
            "trailing space after the board",
        ),
        (
            &kalah,
            "prompt-wording",
            "prompt-wording",
            "`Player #, pick a pit",
        ),
        (
            &kalah,
            "no-final-newline",
            "final-newline",
            "no line break at the end",
        ),
        (&othello, "crlf", "crlf-line-endings", "CRLF line endings"),
        (&kalah, "crlf", "crlf-line-endings", "CRLF line endings"),
    ];
    for &(game, slip, rule, words) in cases {
        let (code, report) = judge(game, false, &[slip]);
        assert_eq!(code, 1, "{slip}: {report}");
        assert!(
            report.contains(": 100 presentation error\n"),
            "{slip}: {report}"
        );
        assert!(!report.contains("wrong answer"), "{slip}");
        assert!(report.contains(&format!("  {rule}: ")), "{slip}: {report}");
        assert!(kinds(&report).contains(words), "{slip}: {}", kinds(&report));
    }
}

#[test]
fn accept_crlf_reads_crlf_line_ends_as_the_reference_s() {
    // A Visual C++ program's line ends, on every case of both games (wrong entries too).
    for game in [
        &["othello", "--size", "6"][..],
        &["mancala", "--pits", "4"][..],
    ] {
        let out = Command::new(cargo_bin("boardgames"))
            .arg("judge")
            .args(game)
            .args(["--errors", "--accept-crlf", "--"])
            .arg(student())
            .args(game)
            .arg("crlf")
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{report}");
        assert!(report.contains(": 100 accepted\n"), "{report}");
    }
    // Beside a logic slip, the logic slip is still found.
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--size", "6", "--accept-crlf", "--"])
        .arg(student())
        .args(["othello", "--size", "6", "crlf", "flip-wraps-edge"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(kinds(&report).contains(": flip-wraps-edge"), "{report}");
    assert!(!kinds(&report).contains("CRLF"), "{report}");
}

#[test]
fn a_loop_is_named_with_what_was_due() {
    let (_, report) = judge(&["othello", "--size", "6"], false, &["pass-missing"]);
    assert!(
        report.contains(
            "loop: after `Player X has no valid moves! Pass!` was due, the program printed \
             `Player X's turn: Invalid move!`"
        ) || report.contains(
            "loop: after `Player O has no valid moves! Pass!` was due, the program printed \
             `Player O's turn: Invalid move!`"
        ),
        "{report}"
    );
}

#[test]
fn a_memory_hog_is_a_memory_limit_with_its_peak() {
    // Where the system cannot hold a run to its memory (Wine does not enforce a Job Object's
    // limit), the report says so, and the hog is not run: it would take the machine's memory.
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--cases", "1", "--memory-mb", "64"])
        .args(["--format", "json", "--"])
        .arg(student())
        .arg("othello")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let missing = json["summary"]["sealing"]["missing"].as_array().unwrap();
    if let Some(why) = missing
        .iter()
        .find(|m| m.as_str().unwrap().contains("memory"))
    {
        eprintln!("a_memory_hog_is_a_memory_limit_with_its_peak: skipped, {why}");
        return;
    }
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--cases", "2", "--memory-mb", "64"])
        .args(["--format", "json", "--"])
        .arg(student())
        .args(["othello", "memory-hog"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for case in json["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "memory limit", "{case}");
        let peak = case["peak_kib"].as_u64().unwrap();
        assert!((32 << 10..=64 << 10).contains(&peak), "{case}");
    }
}

/// A class folder: submissions that run the student with their slips (copies of the classmate
/// example with their arguments beside them, so that they run on every system), one folder
/// submission, one folder without a program, and a file that is no submission.
fn class(dir: &std::path::Path) -> std::path::PathBuf {
    let class = dir.join("class");
    let student = student();
    let submission = |dir: std::path::PathBuf, name: &str, slips: &[&str]| {
        std::fs::create_dir_all(&dir).unwrap();
        let mut steps = vec!["--", student.to_str().unwrap(), "othello", "--size", "6"];
        steps.extend_from_slice(slips);
        common::classmate_named(&dir, name, &steps);
    };
    submission(class.clone(), "alice", &[]);
    submission(class.clone(), "bob", &["flip-wraps-edge", "whitespace"]);
    submission(class.clone(), "carol", &["prompt-wording"]);
    submission(class.clone(), "dave", &["pass-missing"]);
    submission(class.join("erin"), "run", &["full-board-continues"]);
    std::fs::create_dir_all(class.join("frank")).unwrap();
    std::fs::write(class.join("frank").join("notes.txt"), "no program").unwrap();
    std::fs::write(class.join("grades.txt"), "not a submission").unwrap();
    class
}

/// `boardgames judge othello --size 6 ARGS`: exit code and standard output.
fn judge_class(args: &[&str]) -> (i32, String) {
    // The submissions run the student from its own folder, which they may read.
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--size", "6", "--cases", "30"])
        .arg("--read")
        .arg(student().parent().unwrap())
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_class_is_judged_into_one_table_and_shards_cover_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let class = class.to_str().unwrap();
    let (code, table) = judge_class(&["--programs", class]);
    // A submission that cannot be run is a row of its own and exit 1; the others are graded.
    assert_eq!(code, 1, "{table}");
    // The rows, between the heading and the blank line before the sealing.
    let names: Vec<&str> = table
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(table.contains("\n\nSealing: "), "{table}");
    assert_eq!(names.len(), 6, "{table}");
    assert_eq!(names[0], "alice", "best first: {table}");
    assert_eq!(*names.last().unwrap(), "frank", "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    assert!(row("alice").contains("100.0%"), "{table}");
    assert!(row("bob").contains("flip-wraps-edge"), "{table}");
    assert!(row("bob").contains("whitespace"), "{table}");
    assert!(row("carol").contains("  0.0%") && row("carol").contains("prompt-wording 30"));
    assert!(row("erin").contains("full-board-continues"), "{table}");
    assert!(row("frank").contains("cannot run: no executable in its folder"));

    let (_, csv) = judge_class(&["--programs", class, "--format", "csv"]);
    let heading: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(heading[..4], ["submission", "score", "cases", "accepted"]);
    assert!(heading.contains(&"flip-wraps-edge") && heading.last() == Some(&"note"));
    let mut seen: Vec<String> = Vec::new();
    for shard in ["1/2", "2/2"] {
        let (_, part) = judge_class(&["--programs", class, "--format", "csv", "--shard", shard]);
        for line in part.lines().skip(1) {
            assert_eq!(line.split(',').count(), heading.len(), "{line}");
            seen.push(line.split(',').next().unwrap().to_string());
        }
    }
    seen.sort();
    assert_eq!(seen, ["alice", "bob", "carol", "dave", "erin", "frank"]);
}

/// `boardgames judge merge FILES --format FORMAT`: exit code, standard output and error.
fn merge(files: &[std::path::PathBuf], format: &str) -> (i32, String, String) {
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "merge", "--format", format])
        .args(files)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn shards_merge_into_the_table_of_one_run_and_others_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let class = class.to_str().unwrap();
    let shard = |k: usize, extra: &[&str]| {
        let mut args = vec!["--programs", class, "--format", "json"];
        let which = format!("{k}/3");
        args.extend(["--shard", &which]);
        args.extend_from_slice(extra);
        let path = dir.path().join(format!("shard-{k}{}.json", extra.join("")));
        std::fs::write(&path, judge_class(&args).1).unwrap();
        path
    };
    let shards: Vec<_> = (1..=3).map(|k| shard(k, &[])).collect();
    for format in ["text", "csv", "json"] {
        let (_, whole) = judge_class(&["--programs", class, "--format", format]);
        let (code, merged, stderr) = merge(&shards, format);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(merged, whole, "{format}");
    }

    // A missing shard, a shard twice, another judging, another version: each named.
    let refused = |files: &[std::path::PathBuf]| {
        let (code, out, stderr) = merge(files, "text");
        assert_eq!((code, out.as_str()), (2, ""), "{stderr}");
        stderr
    };
    let some = [shards[0].clone(), shards[2].clone()];
    assert_eq!(refused(&some), "error: 1 of 3 missing: 2/3\n");
    let twice = [shards[0].clone(), shards[0].clone(), shards[1].clone()];
    assert!(refused(&twice).starts_with("error: shard 1/3 twice: "));
    let other = [
        shards[0].clone(),
        shard(2, &["--seed", "7"]),
        shards[2].clone(),
    ];
    let said = refused(&other);
    assert!(said.contains("cases.seed is \"7\" in 2/3"), "{said}");
    assert!(said.contains("but \"1\" in 1/3"), "{said}");
    let older = dir.path().join("older.json");
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    let version = format!("\"boardgames\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version), "{text}");
    std::fs::write(&older, text.replace(&version, "\"boardgames\": \"0.0.1\"")).unwrap();
    let said = refused(&[shards[0].clone(), older, shards[2].clone()]);
    assert!(said.contains("boardgames is \"0.0.1\""), "{said}");
    // A submission in two shards: a class that changed between the jobs.
    let moved = dir.path().join("moved.json");
    let one: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shards[0]).unwrap()).unwrap();
    let mut two: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shards[1]).unwrap()).unwrap();
    two["submissions"]
        .as_array_mut()
        .unwrap()
        .push(one["submissions"][0].clone());
    std::fs::write(&moved, two.to_string()).unwrap();
    let said = refused(&[shards[0].clone(), moved, shards[2].clone()]);
    assert!(said.starts_with("error: submission "), "{said}");
    assert!(said.contains(" twice: in 1/3 "), "{said}");
}

#[test]
fn a_class_saves_each_submission_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let save = dir.path().join("saved");
    let (_, _) = judge_class(&[
        "--programs",
        class.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
        "--points",
        "60",
        "--visibility",
        "after-due-date",
        "--pe-credit",
        "0.5",
    ]);
    for file in ["report.txt", "report.json", "junit.xml", "results.json"] {
        assert!(save.join("bob").join(file).exists(), "bob/{file}");
    }
    // Gradescope: the points spread over the cases, a presentation error at half credit,
    // and no path of the grader's machine in what students read.
    let results = std::fs::read_to_string(save.join("carol").join("results.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(results["score"], 30.0);
    assert_eq!(results["visibility"], "after_due_date");
    for test in results["tests"].as_array().unwrap() {
        assert_eq!(test["max_score"], 2.0);
        let output = test["output"].as_str().unwrap();
        assert!(!output.contains(dir.path().to_str().unwrap()), "{output}");
    }
    // JSON seeds are strings; JUnit testcases have a class name; the saved command replays
    // the case from the folder it is in, whatever the folder the grader stands in.
    let json = std::fs::read_to_string(save.join("bob").join("report.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json["cases"][0]["seed"].is_string(), "{}", json["cases"][0]);
    let junit = std::fs::read_to_string(save.join("bob").join("junit.xml")).unwrap();
    assert!(
        junit.contains("classname=\"judge.othello.size-6\""),
        "{junit}"
    );
    let cmd = std::fs::read_dir(save.join("carol"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cmd"))
        .unwrap();
    let replayed = replay(&cmd)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(
        replayed.stdout,
        std::fs::read(cmd.with_extension("actual")).unwrap()
    );
}

/// The command that runs a saved replay script: `sh` on Unix, `cmd` on Windows.
fn replay(script: &std::path::Path) -> Command {
    #[cfg(unix)]
    let mut command = Command::new("sh");
    #[cfg(windows)]
    let mut command = {
        let mut command = Command::new("cmd");
        command.arg("/c");
        command
    };
    command.arg(script);
    command
}
