//! The engine's speed figures: runs the release binary on the workloads the project tracks and
//! prints each one's wall time. Nothing is asserted; targets are read off the table.
//!
//! `cargo bench` runs everything; `cargo bench -- quick` skips the long Kalah (6,4) solve.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs the binary with `args` and `input` on stdin; returns the seconds taken and its last line.
fn run(args: &[&str], input: &[u8]) -> (f64, String) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardgames"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the boardgames binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("the game reads its input");
    let out = child.wait_with_output().expect("the binary finishes");
    let seconds = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "boardgames {args:?} failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("").trim().to_string();
    (seconds, last)
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let replay = include_bytes!("random-game-26.in");
    let mut cases: Vec<(&str, Vec<&str>, &[u8])> = vec![
        (
            "perft 8x8, depths 1-11",
            vec!["perft", "--depth", "11"],
            b"",
        ),
        (
            "perft 26x26, depths 1-7",
            vec!["perft", "--size", "26", "--depth", "7"],
            b"",
        ),
        (
            "replay a random 26x26 game",
            vec!["othello", "--size", "26"],
            replay,
        ),
        (
            "solve othello 4x4",
            vec!["solve", "othello", "--size", "4"],
            b"",
        ),
        (
            "solve mancala (5,4)",
            vec!["solve", "mancala", "--pits", "5", "--stones", "4"],
            b"",
        ),
    ];
    if !quick {
        cases.push((
            "solve mancala (6,4)",
            vec!["solve", "mancala", "--pits", "6", "--stones", "4"],
            b"",
        ));
    }
    println!("{:<30} {:>9}  last line", "workload", "seconds");
    for (name, args, input) in cases {
        let (seconds, last) = run(&args, input);
        println!("{name:<30} {seconds:>9.3}  {last}");
    }
}
