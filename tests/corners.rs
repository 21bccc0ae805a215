//! Every subcommand at the corners of every range: 1 and 12 pits, 1 and 99 stones, sides 4 and
//! 26, with and without pits, the lowest and highest levels, and the values just outside. Each
//! run must end with exit 0, 1 or 2 and no panic, a failure saying so in one `error:` line; a
//! run that is long work by nature (a 26x26 solve) must have succeeded or still be working, not
//! dead, after a moment.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How a corner run must end.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    /// Exits with this code.
    Code(i32),
    /// Exits with 1 and a report on standard output: the judge's verdict that a program is
    /// not accepted, which is no failure of the judge's own.
    Verdict,
    /// Long work: exits with 0 within [`MOMENT`] or is still working then, with no error.
    Long,
}

/// How long a long run is watched before it is stopped.
const MOMENT: Duration = Duration::from_millis(1500);
/// How long a run that must finish may take (an optimized test build, a loaded machine).
const DEADLINE: Duration = Duration::from_secs(120);

fn spawn(args: &[String], input: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardgames"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // The program may exit before reading: a closed pipe here is not the test's concern.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child
}

/// Runs `args` on `input` and checks it ends as `end` says.
fn check(args: &[String], input: &str, end: End) {
    let shown = args.join(" ");
    let mut child = spawn(args, input);
    let started = Instant::now();
    let limit = if end == End::Long { MOMENT } else { DEADLINE };
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{shown}: panicked:\n{stderr}");
    let errors = stderr.lines().filter(|l| l.starts_with("error:")).count();
    match (end, status.and_then(|s| s.code())) {
        (End::Long, None) => assert_eq!(errors, 0, "{shown}: {stderr}"),
        (End::Long, Some(code)) => assert_eq!(code, 0, "{shown}: {stderr}"),
        (_, None) => panic!("{shown}: did not finish within {DEADLINE:?}"),
        (End::Code(want), Some(code)) => assert_eq!(code, want, "{shown}: {stderr}"),
        (End::Verdict, Some(code)) => assert_eq!(code, 1, "{shown}: {stderr}"),
    }
    if let Some(code) = status.and_then(|s| s.code())
        && code != 0
        && end != End::Verdict
    {
        assert_eq!(
            errors, 1,
            "{shown}: exit {code} with {errors} error lines:\n{stderr}"
        );
    }
}

/// A program the judge never accepts, on every system: this binary without a command, which
/// prints its usage and exits 2.
const UNACCEPTED: &str = env!("CARGO_BIN_EXE_boardgames");

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
fn every_kalah_command_at_every_corner_ends_without_a_panic() {
    let mut cases: Vec<(String, End)> = Vec::new();
    for (pits, stones) in [(1, 1), (1, 99), (12, 1), (12, 99), (2, 70), (4, 3)] {
        let board = format!("--pits {pits} --stones {stones}");
        let huge = pits * stones > 48;
        cases.extend([
            (format!("mancala {board}"), End::Code(1)),
            (
                format!("mancala {board} --computer both --level 1"),
                End::Code(0),
            ),
            (
                format!("generate mancala {board} --seed 3 --errors --weird"),
                End::Code(0),
            ),
            (
                format!("judge mancala {board} --cases 1 -- {UNACCEPTED}"),
                End::Verdict,
            ),
            (
                format!("arena mancala {board} --levels greedy,1 --games 2"),
                End::Code(0),
            ),
            (
                format!("solve mancala {board} --threads 1"),
                if huge || pits == 12 {
                    End::Long
                } else {
                    End::Code(0)
                },
            ),
            (
                format!("mancala {board} --computer both --level 10"),
                if pits * stones >= 99 {
                    End::Long
                } else {
                    End::Code(0)
                },
            ),
        ]);
    }
    for (flag, value) in [
        ("pits", "0"),
        ("pits", "13"),
        ("stones", "0"),
        ("stones", "100"),
    ] {
        for command in [
            "mancala",
            "solve mancala",
            "generate mancala --seed 1",
            "arena mancala",
        ] {
            cases.push((format!("{command} --{flag} {value}"), End::Code(2)));
        }
    }
    for (args, end) in cases {
        check(&words(&args), "", end);
    }
}

#[test]
fn every_othello_command_at_every_corner_ends_without_a_panic() {
    let program = Path::new(env!("CARGO_BIN_EXE_boardgames"))
        .display()
        .to_string();
    let mut cases: Vec<(String, End)> = Vec::new();
    for side in [4, 26] {
        for pits in ["", "--pits A1", "--pits B2"] {
            let small = side == 4;
            let board = format!("--size {side} {pits}");
            let centre = pits.contains("B2") && small;
            let made = |end: End| if centre { End::Code(2) } else { end };
            cases.extend([
                (format!("perft {board} --depth 3"), made(End::Code(0))),
                (
                    format!("perft {board} --depth 2 --hash --hash-mb 1 --threads 3"),
                    made(End::Code(0)),
                ),
                (
                    format!("solve othello {board}"),
                    made(if small { End::Code(0) } else { End::Long }),
                ),
            ]);
        }
        cases.extend([
            (format!("othello --size {side}"), End::Code(1)),
            (
                format!("othello --size {side} --computer both --level 1"),
                End::Code(0),
            ),
            (
                format!("othello --size {side} --computer both --level 10"),
                if side == 4 { End::Code(0) } else { End::Long },
            ),
            (
                format!("generate othello --size {side} --seed 1 --errors --weird"),
                End::Code(0),
            ),
            (
                format!("judge othello --size {side} --cases 1 -- {UNACCEPTED}"),
                End::Verdict,
            ),
            (
                format!("arena othello --size {side} --levels greedy,1 --games 2"),
                End::Code(0),
            ),
            (
                format!("relay othello --size {side} --games 2 --levels 1,1 {program} {program}"),
                if side == 4 { End::Code(0) } else { End::Long },
            ),
        ]);
    }
    for (flag, value) in [
        ("size", "2"),
        ("size", "28"),
        ("level", "0"),
        ("level", "11"),
    ] {
        cases.push((
            format!("othello --computer X --{flag} {value}"),
            End::Code(2),
        ));
    }
    for flag in [
        "--depth 0",
        "--depth 61",
        "--threads 0",
        "--hash --hash-mb 0",
    ] {
        cases.push((format!("perft --size 4 {flag}"), End::Code(2)));
    }
    cases.push(("solve othello --hash-mb 0".to_string(), End::Code(2)));
    for (args, end) in cases {
        // The game answers "0" to the pit count, then reads moves until its input ends.
        check(&words(&args), "0\n", end);
    }
}
