//! `boardgames judge` against small scripted "students" made in the test: the binary itself,
//! and wrappers that change a message, add trailing spaces, sleep, flood, abort or waver.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use assert_cmd::cargo::cargo_bin;

/// How long a test waits for processes to start or to go before it looks at them: long enough
/// for a loaded machine, since the tests assert what runs, never how fast.
const PATIENCE: Duration = Duration::from_secs(120);

/// A shell script `name` in `dir` with `body`; `BIN` stands for the boardgames binary.
fn student(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let bin = cargo_bin("boardgames");
    let script = format!(
        "#!/bin/sh\n{}\n",
        body.replace("BIN", &bin.to_string_lossy())
    );
    fs::write(&path, script).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs `boardgames judge ARGS -- PROGRAM`; returns the exit code and standard output.
fn judge(args: &[&str], program: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("boardgames")
        .unwrap()
        .arg("judge")
        .args(args)
        .arg("--")
        .args(program)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A folder holding the course's sample run 1 (a 4x4 game with a refused pit) as `run.in`.
fn sample_inputs(dir: &Path) -> PathBuf {
    let inputs = dir.join("inputs");
    fs::create_dir_all(&inputs).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/othello");
    fs::copy(golden.join("course-run-1.in"), inputs.join("run.in")).unwrap();
    inputs
}

#[test]
fn the_reference_itself_is_accepted_on_every_case() {
    let bin = cargo_bin("boardgames");
    let bin = bin.to_str().unwrap();
    let (code, out) = judge(
        &["othello", "--size", "6", "--cases", "40", "--errors"],
        &[bin, "othello", "--size", "6"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Summary: 40 cases: 40 accepted\n"), "{out}");
    let (code, out) = judge(
        &[
            "mancala", "--pits", "4", "--stones", "3", "--cases", "20", "--errors", "--weird",
        ],
        &[bin, "mancala", "--pits", "4", "--stones", "3"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Summary: 20 cases: 20 accepted\n"), "{out}");
}

#[test]
fn a_changed_message_is_a_wrong_answer_at_its_line_and_token_and_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = sample_inputs(dir.path());
    let wrong = student(
        dir.path(),
        "wrong",
        "BIN othello --size 4 | sed 's/Round 2:/Round two:/'",
    );
    let save = dir.path().join("saved");
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--inputs",
            inputs.to_str().unwrap(),
            "--save",
            save.to_str().unwrap(),
        ],
        &[wrong.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{out}");
    // Line 8 is `Player X's turn: Round 2:`, written after the first move: tokens 1 to 5 are
    // the pit count and the pits (`B2`, a centre cell, refused), token 6 the move.
    assert!(
        out.contains("case run: wrong answer (round-wrong) at line 8, column 24"),
        "{out}"
    );
    assert!(out.contains("after token 6 (`D2`), the 1st move"), "{out}");
    assert!(
        out.contains("expected: `Player X's turn: Round 2:`"),
        "{out}"
    );
    assert!(
        out.contains("actual:   `Player X's turn: Round two:`"),
        "{out}"
    );
    assert!(
        out.contains("rule round-wrong: the round number is off"),
        "{out}"
    );
    assert!(
        out.contains("1  wrong answer: round-wrong; shortest: run"),
        "{out}"
    );
    for ext in ["in", "expected", "actual", "cmd"] {
        assert!(
            save.join(format!("run.{ext}")).exists(),
            "run.{ext} not saved"
        );
    }
}

#[test]
fn trailing_spaces_are_a_presentation_error() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = sample_inputs(dir.path());
    let spaced = student(dir.path(), "spaced", "BIN othello --size 4 | sed 's/$/ /'");
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--inputs",
            inputs.to_str().unwrap(),
        ],
        &[spaced.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("case run: presentation error at line 1"),
        "{out}"
    );
}

/// The processes whose command line is exactly `words`.
fn processes(words: &[&str]) -> usize {
    let want: Vec<u8> = words
        .iter()
        .flat_map(|w| [w.as_bytes(), b"\0"].concat())
        .collect();
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| *cmdline == want)
        .count()
}

#[test]
fn a_sleeper_times_out_and_leaves_no_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    // A child in the background and one in the foreground: both must go.
    let sleeper = student(dir.path(), "sleeper", "sleep 3761 & sleep 3762");
    // That the judge returns at all shows it did not wait for the background sleeper's hour.
    let (code, out) = judge(
        &[
            "othello",
            "--cases",
            "2",
            "--threads",
            "2",
            "--timeout",
            "1",
        ],
        &[sleeper.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Summary: 2 cases: 2 time limit"), "{out}");
    assert_eq!(
        processes(&["sleep", "3761"]) + processes(&["sleep", "3762"]),
        0
    );
}

#[test]
fn floods_aborts_and_missing_programs_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = judge(
        &["othello", "--cases", "2", "--output-limit", "100000"],
        &["yes"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Summary: 2 cases: 2 output limit"), "{out}");

    let abort = student(dir.path(), "abort", "kill -ABRT $$");
    let (code, out) = judge(&["mancala", "--cases", "2"], &[abort.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("runtime error (killed by SIGABRT)"), "{out}");

    let exits = student(dir.path(), "exits", "BIN mancala; exit 3");
    let (_, out) = judge(&["mancala", "--cases", "1"], &[exits.to_str().unwrap()]);
    assert!(out.contains("runtime error (exit status 3)"), "{out}");

    let plain = dir.path().join("plain.txt");
    fs::write(&plain, "not a program").unwrap();
    for program in ["/no/such/program", plain.to_str().unwrap()] {
        Command::cargo_bin("boardgames")
            .unwrap()
            .args(["judge", "othello", "--", program])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::starts_with("error: cannot run"));
    }
}

#[test]
fn a_wavering_program_is_flaky_and_a_short_input_is_not_charged() {
    let dir = tempfile::tempdir().unwrap();
    let waver = student(dir.path(), "waver", "BIN othello; date +%N");
    let (code, out) = judge(
        &["othello", "--cases", "1", "--repeat", "3"],
        &[waver.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("(flaky)"), "{out}");

    let inputs = dir.path().join("short");
    fs::create_dir_all(&inputs).unwrap();
    fs::write(inputs.join("cut.in"), "0\nC4\n").unwrap();
    let bin = cargo_bin("boardgames");
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--inputs",
            inputs.to_str().unwrap(),
        ],
        &[bin.to_str().unwrap(), "othello", "--size", "4"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("case cut: unusable case"), "{out}");
}

#[test]
fn a_program_right_on_its_first_run_only_fails_in_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let ran = ran.to_str().unwrap();
    // Right the first time; then the same transcript with a word changed, or the same bytes
    // and a crash.
    let later_wrong = student(
        dir.path(),
        "later-wrong",
        &format!(
            "if [ -e {ran} ]; then BIN mancala | sed s/Player/player/; else touch {ran}; BIN mancala; fi"
        ),
    );
    let later_crash = student(
        dir.path(),
        "later-crash",
        &format!("BIN mancala; if [ -e {ran}2 ]; then exit 3; fi; touch {ran}2"),
    );
    // Each judging starts from a program that has not run yet.
    let fresh = || {
        let _ = fs::remove_file(ran);
        let _ = fs::remove_file(format!("{ran}2"));
    };
    for program in [&later_wrong, &later_crash] {
        let program = [program.to_str().unwrap()];
        fresh();
        let (code, out) = judge(&["mancala", "--cases", "1", "--repeat", "2"], &program);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.starts_with("case seed-") && out.contains(": flaky ("),
            "{out}"
        );
        assert!(out.contains("Summary: 1 cases: 1 flaky\n"), "{out}");

        // --fail-fast stops at the first case, flaky as it is.
        fresh();
        let (code, out) = judge(
            &[
                "mancala",
                "--cases",
                "3",
                "--repeat",
                "2",
                "--fail-fast",
                "--threads",
                "1",
            ],
            &program,
        );
        assert_eq!(code, 1, "{out}");
        let cases = out.lines().filter(|line| line.starts_with("case ")).count();
        assert_eq!(cases, 1, "{out}");

        for (format, failure) in [
            ("json", "\"verdict\": \"flaky\""),
            ("junit", "type=\"flaky\""),
            ("gradescope", "\"status\": \"failed\""),
        ] {
            fresh();
            let (code, out) = judge(
                &[
                    "mancala", "--cases", "1", "--repeat", "2", "--format", format,
                ],
                &program,
            );
            assert_eq!(code, 1, "{format}: {out}");
            assert!(out.contains(failure), "{format}: {out}");
        }
    }
}

#[test]
fn reports_come_as_json_junit_and_gradescope() {
    let bin = cargo_bin("boardgames");
    let program = [bin.to_str().unwrap(), "mancala", "--pits", "3"];
    let args = |format| ["mancala", "--pits", "3", "--cases", "3", "--format", format];
    let (code, out) = judge(&args("json"), &program);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["cases"].as_array().unwrap().len(), 3);
    assert_eq!(json["summary"]["verdicts"]["accepted"], 3);

    let (_, out) = judge(&args("junit"), &program);
    assert!(out.starts_with("<?xml"), "{out}");
    assert_eq!(out.matches("<testcase ").count(), 3, "{out}");

    // A crash is an error of the run in JUnit; a wrong output a failure.
    let dir = tempfile::tempdir().unwrap();
    let abort = student(dir.path(), "abort", "kill -ABRT $$");
    let (_, out) = judge(
        &["mancala", "--cases", "2", "--format", "junit"],
        &[abort.to_str().unwrap()],
    );
    assert_eq!(out.matches("<error ").count(), 2, "{out}");
    assert!(
        out.contains("classname=\"judge.mancala.pits-6.stones-4\""),
        "{out}"
    );

    let (_, out) = judge(&args("gradescope"), &program);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["score"], 3.0);
    for test in json["tests"].as_array().unwrap() {
        for key in ["name", "score", "max_score", "status", "output"] {
            assert!(test.get(key).is_some(), "{key} missing in {test}");
        }
    }
}

/// The judge started on `program` (two cases, a minute each), its report thrown away.
fn judging_in_background(program: &Path) -> std::process::Child {
    std::process::Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--cases", "2", "--timeout", "60", "--"])
        .arg(program)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn an_interrupted_judge_kills_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let sleeper = student(dir.path(), "sleeper", "sleep 3763 & sleep 3764");
    let mut judge = judging_in_background(&sleeper);
    // Wait until the students run, then interrupt the judge as Ctrl-C would.
    let started = Instant::now();
    while processes(&["sleep", "3764"]) == 0 && started.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        processes(&["sleep", "3764"]) > 0,
        "the students never started"
    );
    let pid = judge.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let status = judge.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(
        processes(&["sleep", "3763"]) + processes(&["sleep", "3764"]),
        0
    );
}

#[test]
fn a_setsid_escapee_is_killed_and_named() {
    let dir = tempfile::tempdir().unwrap();
    // A child in a session of its own has left the process group: the keeper still has it.
    let escapee = student(
        dir.path(),
        "escapee",
        "setsid sleep 3765 &\nexec BIN othello --size 4",
    );
    let (code, out) = judge(
        &["othello", "--size", "4", "--cases", "2", "--format", "json"],
        &[escapee.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for case in json["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "accepted");
        assert_eq!(case["left_behind"], 1, "{case}");
    }
    assert_eq!(processes(&["sleep", "3765"]), 0);
}

#[test]
fn a_judge_killed_by_sigkill_takes_its_programs_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let sleeper = student(dir.path(), "sleeper", "setsid sleep 3766 &\nsleep 3767");
    let mut judge = judging_in_background(&sleeper);
    let started = Instant::now();
    while processes(&["sleep", "3766"]) + processes(&["sleep", "3767"]) < 4
        && started.elapsed() < PATIENCE
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        processes(&["sleep", "3767"]) > 0,
        "the students never started"
    );
    judge.kill().unwrap();
    judge.wait().unwrap();
    // The keepers get their parent-death signal and clear up: wait for them, a while at most.
    let killed = Instant::now();
    while processes(&["sleep", "3766"]) + processes(&["sleep", "3767"]) > 0
        && killed.elapsed() < PATIENCE
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes(&["sleep", "3766"]) + processes(&["sleep", "3767"]),
        0
    );
}

#[test]
fn a_judging_with_no_cases_or_no_program_to_run_is_a_usage_error() {
    let empty = tempfile::tempdir().unwrap();
    let inputs = empty.path().to_str().unwrap();
    // (arguments, the program, what the one error line says): exit 2, nothing on stdout, so
    // that a mistyped folder or program never passes a CI job.
    let cases: &[(&[&str], &[&str], &str)] = &[
        (
            &["othello", "--inputs", inputs],
            &["/bin/cat"],
            "no cases: ",
        ),
        (
            &["othello", "--cases", "0"],
            &["/bin/cat"],
            "allowed values are 1 to",
        ),
        (
            &["othello", "--cases", "1"],
            &["./no-such-program"],
            "cannot run ./no-such-program",
        ),
    ];
    for &(args, program, says) in cases {
        Command::cargo_bin("boardgames")
            .unwrap()
            .arg("judge")
            .args(args)
            .arg("--")
            .args(program)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(says));
    }
}
