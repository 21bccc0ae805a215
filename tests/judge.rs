//! `boardgames judge` against small "students" made of the classmate example (the same on every
//! system): the binary itself, and wrappers that change a message, add trailing spaces, sleep,
//! leave processes behind, flood, abort or waver.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use assert_cmd::cargo::cargo_bin;
use common::{PATIENCE, beating, classmate, wait_for_beats};

/// How a program that aborts is ended, in the system's words.
#[cfg(unix)]
const ABORTED: &str = "SIGABRT";
/// How a program that aborts is ended, in the system's words: Rust aborts by a fail-fast.
#[cfg(windows)]
const ABORTED: &str = "STATUS_STACK_BUFFER_OVERRUN";

/// The boardgames binary, as a program's command line begins.
fn bin() -> String {
    cargo_bin("boardgames").to_string_lossy().into_owned()
}

/// The classmate with `steps` around `boardgames ARGS`.
fn around(steps: &[&str], args: &[&str]) -> Vec<String> {
    let bin = bin();
    let mut line = steps.to_vec();
    line.push("--");
    line.push(&bin);
    line.extend_from_slice(args);
    classmate(&line)
}

/// Runs `boardgames judge ARGS -- PROGRAM`; returns the exit code and standard output. The
/// binary's folder is readable (`--read`): the classmate runs the reference from there.
fn judge(args: &[&str], program: &[String]) -> (i32, String) {
    let out = assert_cmd::cargo::cargo_bin_cmd!("boardgames")
        .arg("judge")
        .args(args)
        .arg("--read")
        .arg(cargo_bin("boardgames").parent().unwrap())
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

/// `boardgames ARGS` as a program's command line.
fn reference(args: &[&str]) -> Vec<String> {
    std::iter::once(bin())
        .chain(args.iter().map(|a| a.to_string()))
        .collect()
}

#[test]
fn the_reference_itself_is_accepted_on_every_case() {
    let (code, out) = judge(
        &["othello", "--size", "6", "--cases", "40", "--errors"],
        &reference(&["othello", "--size", "6"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Summary: 40 cases: 40 accepted\n"), "{out}");
    let (code, out) = judge(
        &[
            "mancala", "--pits", "4", "--stones", "3", "--cases", "20", "--errors", "--weird",
        ],
        &reference(&["mancala", "--pits", "4", "--stones", "3"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Summary: 20 cases: 20 accepted\n"), "{out}");
}

#[test]
fn a_changed_message_is_a_wrong_answer_at_its_line_and_token_and_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = sample_inputs(dir.path());
    let wrong = around(
        &["--replace", "Round 2:", "Round two:"],
        &["othello", "--size", "4"],
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
        &wrong,
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
    let spaced = around(&["--append", " "], &["othello", "--size", "4"]);
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--inputs",
            inputs.to_str().unwrap(),
        ],
        &spaced,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("case run: presentation error at line 1"),
        "{out}"
    );
}

#[test]
fn a_sleeper_times_out_and_leaves_no_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    // A child in the background and the program itself asleep: both must go.
    let beats = dir.path().join("beats");
    let sleeper = classmate(&["--sleeper", beats.to_str().unwrap(), "--sleep", "3600"]);
    // That the judge returns at all shows it did not wait for the background sleeper's hour.
    // Without the sandbox, so that the sleeper may beat a file of the test's (tests/sandbox.rs
    // holds the same, sandboxed, on Linux).
    let (code, out) = judge(
        &[
            "othello",
            "--cases",
            "2",
            "--threads",
            "2",
            "--timeout",
            "1",
            "--sandbox",
            "off",
        ],
        &sleeper,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Summary: 2 cases: 2 time limit"), "{out}");
    assert!(
        wait_for_beats(&beats, 1),
        "the sleepers never started: {out}"
    );
    assert!(!beating(&beats), "a sleeper outlived its case");
}

#[test]
fn floods_aborts_and_missing_programs_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = judge(
        &["othello", "--cases", "2", "--output-limit", "100000"],
        &classmate(&["--flood"]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Summary: 2 cases: 2 output limit"), "{out}");

    let (code, out) = judge(&["mancala", "--cases", "2"], &classmate(&["--abort"]));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("runtime error (killed by {ABORTED})")),
        "{out}"
    );

    let exits = around(&["--exit", "3"], &["mancala"]);
    let (_, out) = judge(&["mancala", "--cases", "1"], &exits);
    assert!(out.contains("runtime error (exit status 3)"), "{out}");

    let plain = dir.path().join("plain.txt");
    fs::write(&plain, "not a program").unwrap();
    let missing = dir.path().join("no-such-program");
    for program in [missing.to_str().unwrap(), plain.to_str().unwrap()] {
        assert_cmd::cargo::cargo_bin_cmd!("boardgames")
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
    let waver = around(&["--time"], &["othello"]);
    let (code, out) = judge(&["othello", "--cases", "1", "--repeat", "3"], &waver);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("(flaky)"), "{out}");

    let inputs = dir.path().join("short");
    fs::create_dir_all(&inputs).unwrap();
    fs::write(inputs.join("cut.in"), "0\nC4\n").unwrap();
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--inputs",
            inputs.to_str().unwrap(),
        ],
        &reference(&["othello", "--size", "4"]),
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
    let ran_again = format!("{ran}2");
    let later_wrong = around(
        &["--first-run", ran, "--replace", "Player", "player"],
        &["mancala"],
    );
    let later_crash = around(&["--first-run", &ran_again, "--exit", "3"], &["mancala"]);
    // Each judging starts from a program that has not run yet.
    let fresh = || {
        let _ = fs::remove_file(ran);
        let _ = fs::remove_file(&ran_again);
    };
    // Each run in a sandbox has a fresh folder and nothing outside it to write: these programs
    // remember their first run in a file of the test's, so they run unsandboxed.
    for program in [&later_wrong, &later_crash] {
        fresh();
        let (code, out) = judge(
            &[
                "mancala",
                "--cases",
                "1",
                "--repeat",
                "2",
                "--sandbox",
                "off",
            ],
            program,
        );
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
                "--sandbox",
                "off",
            ],
            program,
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
                    "mancala",
                    "--cases",
                    "1",
                    "--repeat",
                    "2",
                    "--format",
                    format,
                    "--sandbox",
                    "off",
                ],
                program,
            );
            assert_eq!(code, 1, "{format}: {out}");
            assert!(out.contains(failure), "{format}: {out}");
        }
    }
}

#[test]
fn reports_come_as_json_junit_and_gradescope() {
    let program = reference(&["mancala", "--pits", "3"]);
    let args = |format| ["mancala", "--pits", "3", "--cases", "3", "--format", format];
    let (code, out) = judge(&args("json"), &program);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["cases"].as_array().unwrap().len(), 3);
    assert_eq!(json["summary"]["verdicts"]["accepted"], 3);
    // Every report says how the runs were sealed on this system.
    let applied = json["summary"]["sealing"]["applied"].as_array().unwrap();
    assert!(
        applied.iter().any(|a| a.as_str().unwrap().contains("tree")),
        "{applied:?}"
    );
    let (_, text) = judge(&args("text"), &program);
    assert!(
        text.lines().last().unwrap().starts_with("Sealing: "),
        "{text}"
    );

    let (_, out) = judge(&args("junit"), &program);
    assert!(out.starts_with("<?xml"), "{out}");
    assert_eq!(out.matches("<testcase ").count(), 3, "{out}");
    assert!(out.contains("<property name=\"sealing\" value=\""), "{out}");

    // A crash is an error of the run in JUnit; a wrong output a failure.
    let (_, out) = judge(
        &["mancala", "--cases", "2", "--format", "junit"],
        &classmate(&["--abort"]),
    );
    assert_eq!(out.matches("<error ").count(), 2, "{out}");
    assert!(
        out.contains("classname=\"judge.mancala.pits-6.stones-4\""),
        "{out}"
    );

    let (_, out) = judge(&args("gradescope"), &program);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["score"], 3.0);
    let output = json["output"].as_str().unwrap();
    assert!(output.starts_with("Each run was sealed: "), "{output}");
    for test in json["tests"].as_array().unwrap() {
        for key in ["name", "score", "max_score", "status", "output"] {
            assert!(test.get(key).is_some(), "{key} missing in {test}");
        }
    }
}

/// The judge started on `program` (two cases, a minute each, unsandboxed so that its
/// sleepers may beat a file of the test's), its report thrown away.
fn judging_in_background(program: &[String]) -> std::process::Child {
    std::process::Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--cases", "2", "--timeout", "60"])
        .args(["--sandbox", "off", "--"])
        .args(program)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Interrupting the judge as Ctrl-C would is a signal here: Unix only. On Windows, where a
/// console's Ctrl-C reaches the judged programs as well, the judge's interrupt ends their jobs
/// the way `a_judge_killed_outright_takes_its_programs_with_it` shows a judge's end does.
#[cfg(unix)]
#[test]
fn an_interrupted_judge_kills_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let beats = dir.path().join("beats");
    let sleeper = classmate(&["--sleeper", beats.to_str().unwrap(), "--sleep", "3600"]);
    let mut judge = judging_in_background(&sleeper);
    // Wait until the students run, then interrupt the judge as Ctrl-C would.
    assert!(wait_for_beats(&beats, 2), "the students never started");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(judge.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = judge.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(!beating(&beats), "a student outlived the interrupted judge");
}

#[test]
fn a_detached_grandchild_is_killed_and_named() {
    let dir = tempfile::tempdir().unwrap();
    // A child in a session of its own has left the process group (Unix), or asks to break away
    // from the job (Windows): the keeper, or the job, still has it.
    let beats = dir.path().join("beats");
    let escapee = around(
        &["--sleeper", beats.to_str().unwrap(), "--detached"],
        &["othello", "--size", "4"],
    );
    let (code, out) = judge(
        &[
            "othello",
            "--size",
            "4",
            "--cases",
            "2",
            "--format",
            "json",
            "--sandbox",
            "off",
        ],
        &escapee,
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for case in json["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "accepted");
        assert_eq!(case["left_behind"], 1, "{case}");
    }
    assert!(!beating(&beats), "a detached grandchild outlived its case");
}

#[test]
fn a_judge_killed_outright_takes_its_programs_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let beats = dir.path().join("beats");
    let sleeper = classmate(&[
        "--sleeper",
        beats.to_str().unwrap(),
        "--detached",
        "--sleep",
        "3600",
    ]);
    let mut judge = judging_in_background(&sleeper);
    assert!(wait_for_beats(&beats, 4), "the students never started");
    // SIGKILL on Unix, TerminateProcess on Windows: the judge gets no say in it.
    judge.kill().unwrap();
    judge.wait().unwrap();
    // The keepers get their parent-death signal (Unix) and the jobs close with the judge's
    // handles (Windows): wait for the tree to go, a while at most.
    let killed = Instant::now();
    while beating(&beats) {
        assert!(killed.elapsed() < PATIENCE, "a student outlived the judge");
    }
}

#[test]
fn a_judging_with_no_cases_or_no_program_to_run_is_a_usage_error() {
    let empty = tempfile::tempdir().unwrap();
    let inputs = empty.path().to_str().unwrap();
    // (arguments, the program, what the one error line says): exit 2, nothing on stdout, so
    // that a mistyped folder or program never passes a CI job.
    let bin = bin();
    let cases: &[(&[&str], &[&str], &str)] = &[
        (&["othello", "--inputs", inputs], &[&bin], "no cases: "),
        (
            &["othello", "--cases", "0"],
            &[&bin],
            "allowed values are 1 to",
        ),
        (
            &["othello", "--cases", "1"],
            &["./no-such-program"],
            "cannot run ./no-such-program",
        ),
    ];
    for &(args, program, says) in cases {
        assert_cmd::cargo::cargo_bin_cmd!("boardgames")
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
