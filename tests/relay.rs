//! `boardgames relay`: two builds (here the same one) played against each other through their
//! consoles, and the ways a program can fail a relay.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn boardgames() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("boardgames")
}

fn this_build() -> PathBuf {
    assert_cmd::cargo::cargo_bin("boardgames")
}

/// The relay's standard output for `args` followed by A and B (this build, both).
fn relay(args: &[&str]) -> String {
    let build = this_build();
    let output = boardgames()
        .args(["relay", "othello"])
        .args(args)
        .args([&build, &build])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// One game line: its opening, who played X, and the discs of A and B.
fn game(line: &str) -> (String, String, usize, usize) {
    let (_, rest) = line.split_once(" (").unwrap();
    let (opening, rest) = rest.split_once("), ").unwrap();
    let (first, discs) = rest.split_once(" is X: A ").unwrap();
    let (a, b) = discs.split_once(", B ").unwrap();
    (
        opening.to_string(),
        first.to_string(),
        a.parse().unwrap(),
        b.parse().unwrap(),
    )
}

#[test]
fn each_opening_is_played_from_both_sides_and_the_summary_counts_the_games() {
    // (flags, cells of the board less its pits, games)
    let cases: &[(&[&str], usize, usize)] = &[
        (&["--size", "6", "--levels", "8,1", "--games", "4"], 36, 4),
        (&["--size", "4", "--pits", "A1", "--games", "2"], 15, 2),
    ];
    for &(flags, cells, games) in cases {
        let out = relay(flags);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains(&format!("{games} games")), "{out}");
        assert!(
            lines[1].starts_with("A: ") && lines[2].starts_with("B: "),
            "{out}"
        );
        let played: Vec<_> = lines[3..3 + games].iter().map(|l| game(l)).collect();
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for (i, (opening, first, a, b)) in played.iter().enumerate() {
            assert_eq!(opening, &played[i - i % 2].0, "{out}");
            assert_eq!(first, ["A", "B"][i % 2], "{out}");
            assert_eq!(opening.split(' ').count(), 4, "{out}");
            assert!(a + b <= cells, "{out}");
            match a.cmp(b) {
                std::cmp::Ordering::Greater => wins += 1,
                std::cmp::Ordering::Equal => draws += 1,
                std::cmp::Ordering::Less => losses += 1,
            }
        }
        let summary = format!("A against B: {wins}-{draws}-{losses}, ");
        assert!(lines[3 + games].starts_with(&summary), "{out}");
        assert!(lines[4 + games].starts_with("A's hints: "), "{out}");
        assert!(lines[5 + games].starts_with("B's hints: "), "{out}");
        // The same seed plays the same games (the hint times differ).
        assert_eq!(
            relay(flags).lines().take(3 + games).collect::<Vec<_>>(),
            &lines[..3 + games]
        );
    }
    // Level 8 against level 1 on 6x6 wins each game.
    let out = relay(&["--size", "6", "--levels", "8,1", "--games", "4"]);
    assert!(out.contains("A against B: 4-0-0"), "{out}");
}

#[test]
fn with_moves_each_game_is_followed_by_a_record_that_review_replays_to_its_result() {
    // (flags, the record's first tokens: the pit count and pits where the board has pits)
    let cases: &[(&[&str], &str)] = &[
        (
            &["--size", "4", "--pits", "A1", "--games", "2", "--moves"],
            "1 A1 ",
        ),
        (
            &["--size", "6", "--levels", "3,2", "--games", "2", "--moves"],
            "",
        ),
    ];
    for &(flags, pits) in cases {
        let out = relay(flags);
        let lines: Vec<&str> = out.lines().collect();
        for pair in lines[3..7].chunks(2) {
            let (_, first, a, b) = game(pair[0]);
            let record = pair[1].strip_prefix("  ").unwrap();
            assert!(record.starts_with(pits), "{out}");
            let (x, o) = if first == "A" { (a, b) } else { (b, a) };
            let size = flags[1];
            boardgames()
                .args(["review", "othello", "--size", size, "--exact-from", "8"])
                .write_stdin(record)
                .assert()
                .success()
                .stdout(predicate::str::ends_with(format!(
                    "Result: X {x}, O {o}.\n"
                )));
        }
        assert!(lines[7].starts_with("A against B: "), "{out}");
    }
}

#[test]
fn a_program_that_fails_the_relay_is_one_error_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    // Copies of the classmate that ignore the relay's arguments: one that ends at once, one
    // that says nothing for 30 s, and this build's console answering every hint with A1,
    // which is never legal after the opening.
    let quits = common::classmate_named(dir.path(), "quits", &[]);
    let silent = common::classmate_named(dir.path(), "silent", &["--sleep", "30"]);
    // This build copied beside the corner, whose sandbox lets it run what is in its folder.
    let build = dir.path().join(this_build().file_name().unwrap());
    std::fs::copy(this_build(), &build).unwrap();
    let corner = common::classmate_named(
        dir.path(),
        "corner",
        &[
            "--rewrite-from",
            "Hint: ",
            "Hint: A1",
            "--",
            build.to_str().unwrap(),
            "othello",
            "--hints",
        ],
    );
    // (program A, the relay's timeout, exit code, what the error line says): a program that
    // cannot be run at all is a mistake in the arguments, exit 2 as in the judge. Only the
    // silent program waits out its timeout; the others have a long one, so that a loaded
    // machine that is slow to start them does not turn their error into a timeout.
    let cases: &[(&Path, &str, i32, &str)] = &[
        (&quits, "30", 1, "ended before the game was over"),
        (
            Path::new("./no-such-program"),
            "30",
            2,
            "cannot run ./no-such-program",
        ),
        (&silent, "0.5", 1, "did not ask for a move within 0.5 s"),
        (&corner, "30", 1, "suggested A1, which is not a legal move"),
    ];
    for &(program, timeout, code, message) in cases {
        boardgames()
            .args(["relay", "othello", "--games", "2", "--timeout", timeout])
            .arg(program)
            .arg(this_build())
            // Against a hang, not a measure of speed.
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .code(code)
            .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(message)))
            .stderr(predicate::function(|err: &str| err.lines().count() == 1));
    }
    // A pit the board cannot take is a usage error, as in every other command.
    boardgames()
        .args(["relay", "othello", "--pits", "D4"])
        .args([this_build(), this_build()])
        .assert()
        .code(2)
        .stdout("")
        .stderr("error: pit D4 is a centre cell\n");
}

#[test]
fn listed_openings_are_played_in_order_from_both_sides_and_a_bad_list_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let list = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // Spaces between the moves are optional and blank lines are skipped.
    let good = list("good.txt", "C5 B5\n\nd2e2\n");
    let out = relay(&[
        "--size",
        "6",
        "--levels",
        "2,1",
        "--openings",
        good.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = out.lines().collect();
    let header = format!("4 games (2 openings from {}, each", good.display());
    assert!(lines[0].contains(&header), "{out}");
    let played: Vec<_> = lines[3..7].iter().map(|l| game(l)).collect();
    for (i, opening) in ["C5 B5", "C5 B5", "D2 E2", "D2 E2"].iter().enumerate() {
        assert_eq!(
            (&*played[i].0, &*played[i].1),
            (*opening, ["A", "B"][i % 2])
        );
    }
    assert!(lines[7].starts_with("A against B: "), "{out}");
    // (the file's text, what the one error line says)
    let cases: &[(&str, &str)] = &[
        (
            "C5\nC5 A1\n",
            "bad.txt line 2: A1 is not a legal move there",
        ),
        (
            "C5\n\nC5 9\n",
            "bad.txt line 3: 9: a cell address starts with a letter",
        ),
        ("\n \n", "bad.txt lists no opening"),
    ];
    for &(text, message) in cases {
        let bad = list("bad.txt", text);
        boardgames()
            .args(["relay", "othello", "--size", "6", "--openings"])
            .arg(&bad)
            .args([this_build(), this_build()])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(message)))
            .stderr(predicate::function(|err: &str| err.lines().count() == 1));
    }
    let missing = dir.path().join("missing.txt");
    boardgames()
        .args(["relay", "othello", "--openings"])
        .arg(&missing)
        .args([this_build(), this_build()])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(format!(
            "error: cannot read {}",
            missing.display()
        )));
    // A list, every opening and a number of random games exclude each other.
    for other in [&["--games", "4"][..], &["--every-opening"]] {
        boardgames()
            .args(["relay", "othello", "--openings"])
            .arg(&good)
            .args(other)
            .args([this_build(), this_build()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("cannot be used with"));
    }
}

#[test]
fn every_opening_plays_each_way_the_game_opens_once_from_each_side() {
    // 4x4 opens in 128 ways over four moves (the unit test checks 8x8's 244 against perft).
    let out = relay(&["--size", "4", "--levels", "1,1", "--every-opening"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("256 games (all 128 openings of 4 moves, each"),
        "{out}"
    );
    let played: Vec<_> = lines[3..259].iter().map(|l| game(l)).collect();
    let mut openings: Vec<&str> = played.iter().map(|g| g.0.as_str()).collect();
    for (i, (opening, first, _, _)) in played.iter().enumerate() {
        assert_eq!(
            (opening, first.as_str()),
            (&played[i - i % 2].0, ["A", "B"][i % 2])
        );
    }
    openings.sort_unstable();
    openings.dedup();
    assert_eq!(openings.len(), 128, "{out}");
    assert!(lines[259].starts_with("A against B: "), "{out}");
}
