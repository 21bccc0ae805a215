//! The program as a person or a script meets it: flags, usage errors, the end of input, a closed
//! output pipe, and random hostile byte streams.

use std::io::Write;
use std::process::Stdio;

use assert_cmd::Command;
use predicates::prelude::*;

fn boardgames() -> Command {
    Command::cargo_bin("boardgames").unwrap()
}

#[test]
fn flag_values_outside_their_ranges_are_usage_errors() {
    let cases: &[(&str, &str, &[&str], &str)] = &[
        (
            "othello",
            "--size",
            &[
                "2",
                "3",
                "5",
                "25",
                "28",
                "-4",
                "abc",
                "",
                "99999999999999999999",
            ],
            "4, 6, ..., 26",
        ),
        (
            "mancala",
            "--pits",
            &["0", "13", "-1", "x", "", "99999999999999999999"],
            "1 to 12",
        ),
        (
            "mancala",
            "--stones",
            &["0", "100", "-1", "4.5", ""],
            "1 to 99",
        ),
    ];
    for &(game, flag, values, allowed) in cases {
        for value in values {
            boardgames()
                .args([game, &format!("{flag}={value}")])
                .write_stdin("1\n")
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains(allowed));
        }
    }
    let edges: &[&[&str]] = &[
        &["othello", "--size", "4"],
        &["othello", "--size", "26"],
        &["mancala", "--pits", "1", "--stones", "99"],
        &["mancala", "--pits", "12", "--stones", "1"],
    ];
    for args in edges {
        boardgames().args(*args).write_stdin("").assert().code(1);
    }
}

#[test]
fn help_describes_each_game_with_an_example_and_version_answers() {
    for (game, what, example) in [
        (
            "othello",
            "Othello (Reversi)",
            "boardgames othello --size 6",
        ),
        (
            "mancala",
            "Kalah (Mancala)",
            "boardgames mancala --pits 4 --stones 3",
        ),
    ] {
        boardgames()
            .args([game, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(what))
            .stdout(predicate::str::contains(example))
            .stdout(predicate::str::contains("--echo"));
    }
    boardgames()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("boardgames "));
    boardgames().assert().code(2).stdout("");
}

#[test]
fn input_that_ends_early_is_one_error_line_and_exit_1() {
    boardgames()
        .args(["othello", "--size", "4"])
        .write_stdin("1\nA1\nD2\n")
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with("Player O's turn: "))
        .stderr("error: input ended before the game was over\n");
    boardgames()
        .arg("othello")
        .write_stdin("")
        .assert()
        .code(1)
        .stdout("Enter number of pits: ");
    boardgames()
        .args(["mancala", "--pits", "2", "--stones", "1"])
        .write_stdin("1 u U \n")
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            "Nothing to undo!\nPlayer 1, choose a pit (1-2, u = undo): ",
        ))
        .stderr("error: input ended before the game was over\n");
}

#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    for args in [["othello", "--size", "26"], ["mancala", "--pits", "12"]] {
        closed_output_pipe(&args);
    }
}

fn closed_output_pipe(args: &[&str]) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("boardgames"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // Endless wrong answers would loop forever if the program ignored its dead output.
    let junk = b"x ".repeat(1 << 16);
    for _ in 0..64 {
        if stdin.write_all(&junk).is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{args:?}: {:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn random_byte_streams_end_with_exit_0_or_1_and_no_panic() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..40 {
        let len = usize::try_from(next() % 4096).unwrap();
        let input: Vec<u8> = (0..len)
            .map(|_| match next() % 8 {
                // Mostly digits, letters and separators, so that some games get far.
                0 => b' ',
                1 => b'\n',
                2 => b'0' + u8::try_from(next() % 10).unwrap(),
                3 => b'a' + u8::try_from(next() % 8).unwrap(),
                _ => u8::try_from(next() % 256).unwrap(),
            })
            .collect();
        let args = [
            ["othello", "--size", "4"],
            ["othello", "--size", "26"],
            ["mancala", "--pits", "1"],
            ["mancala", "--pits", "12"],
        ][round % 4];
        let out = boardgames().args(args).write_stdin(input).output().unwrap();
        let code = out.status.code();
        assert!(matches!(code, Some(0 | 1)), "round {round}: exit {code:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "round {round}: {stderr}");
        assert!(stderr.lines().count() <= 1, "round {round}: {stderr}");
    }
}
