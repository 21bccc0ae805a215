//! The engine's speed figures: runs the release binary on the workloads the project tracks and
//! prints each one's wall time and result. Times are reported, never asserted; results are
//! checked against the published values (or, for 26x26 perft, the count every side from 12 up
//! gives) where the tests stop short of them.
//!
//! `cargo bench` runs everything; `cargo bench -- quick` leaves out the two longest runs.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One tracked workload: arguments, standard input, and the line its output must contain.
struct Workload {
    name: &'static str,
    args: &'static [&'static str],
    input: &'static [u8],
    expect: &'static str,
    long: bool,
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "perft 8x8, depths 1-11",
        args: &["perft", "--depth", "11"],
        input: b"",
        expect: "   11         212258800 ",
        long: false,
    },
    Workload {
        name: "perft 8x8, depths 1-12",
        args: &["perft", "--depth", "12"],
        input: b"",
        expect: "   12        1939886636 ",
        long: true,
    },
    Workload {
        name: "perft 6x6, depths 1-11",
        args: &["perft", "--size", "6", "--depth", "11"],
        input: b"",
        expect: "   11         108820292 ",
        long: false,
    },
    Workload {
        name: "perft 26x26, depths 1-7",
        args: &["perft", "--size", "26", "--depth", "7"],
        input: b"",
        // No table is published; every side from 12 up gives this count, edges out of reach.
        expect: "    7             55180 ",
        long: false,
    },
    Workload {
        name: "perft 26x26, depths 1-10",
        args: &["perft", "--size", "26", "--depth", "10"],
        input: b"",
        expect: "   10          25179208 ",
        long: false,
    },
    Workload {
        name: "replay a random 26x26 game",
        args: &["othello", "--size", "26"],
        input: include_bytes!("random-game-26.in"),
        expect: "Player X wins!",
        long: false,
    },
    Workload {
        name: "solve othello 4x4",
        args: &["solve", "othello", "--size", "4"],
        input: b"",
        expect: "perfect play: -8",
        long: false,
    },
    Workload {
        name: "solve mancala (5,4)",
        args: &["solve", "mancala", "--pits", "5", "--stones", "4"],
        input: b"",
        expect: "perfect play: +10",
        long: false,
    },
    Workload {
        name: "solve mancala (6,4)",
        args: &["solve", "mancala", "--pits", "6", "--stones", "4"],
        input: b"",
        expect: "perfect play: +8",
        long: true,
    },
];

/// Runs the binary on `work`; returns the seconds taken and its standard output.
fn run(work: &Workload) -> (f64, String) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardgames"))
        .args(work.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the boardgames binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(work.input)
        .expect("the binary reads its input");
    let out = child.wait_with_output().expect("the binary finishes");
    let seconds = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "boardgames {:?} failed", work.args);
    (seconds, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("{:<28} {:>9}  result", "workload", "seconds");
    let mut wrong = 0;
    for work in WORKLOADS.iter().filter(|w| !(quick && w.long)) {
        let (seconds, out) = run(work);
        let found = out.lines().find(|line| line.contains(work.expect));
        let result = found.map_or("WRONG", |_| "as expected");
        wrong += usize::from(found.is_none());
        let last = out.lines().last().unwrap_or("");
        println!("{:<28} {seconds:>9.3}  {result}; {last}", work.name);
    }
    assert_eq!(wrong, 0, "results differ from the expected values");
}
