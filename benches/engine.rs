//! The engine's speed figures: runs the release binary on the workloads the project tracks and
//! prints each one's wall time and result. Times are reported, never asserted; results are
//! checked against the known values (the perft tables the unit tests use too) where the tests
//! stop short of them.
//!
//! `cargo bench` runs everything; `cargo bench -- quick` leaves out the longest runs. With
//! `EDAX=/path/to/edax` (Edax 4.6 built from its public source, run from its own folder so
//! that it finds `data/eval.dat`), 8x8 perft to depths 11 and 12 also runs through Edax's
//! plain `perft` command, and depths 1-13 through its hashed `count games 13` against ours with
//! `--hash`, pair by pair, and the medians and ratio are printed.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

#[allow(dead_code, reason = "the unit tests use the pitted table")]
#[path = "../src/othello/engine/perft_counts.rs"]
mod perft_counts;

use perft_counts::{OPEN_BOARD, STANDARD_6X6, STANDARD_8X8};

/// What a workload's output must show.
enum Expect {
    /// A line containing this text.
    Line(&'static str),
    /// The perft row of this depth with this count, from a table of known counts.
    Perft(u32, &'static [u64]),
}

impl Expect {
    /// Whether `line` is the line looked for.
    fn matches(&self, line: &str) -> bool {
        match *self {
            Expect::Line(text) => line.contains(text),
            Expect::Perft(depth, table) => {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let want = [depth.to_string(), table[depth as usize - 1].to_string()];
                fields.len() == 3 && fields[..2] == want
            }
        }
    }
}

/// One tracked workload: arguments, standard input, and what its output must show.
struct Workload {
    name: &'static str,
    args: &'static [&'static str],
    input: &'static [u8],
    expect: Expect,
    long: bool,
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "perft 8x8, depths 1-11",
        args: &["perft", "--depth", "11"],
        input: b"",
        expect: Expect::Perft(11, &STANDARD_8X8),
        long: false,
    },
    Workload {
        name: "perft 8x8, depths 1-12",
        args: &["perft", "--depth", "12"],
        input: b"",
        expect: Expect::Perft(12, &STANDARD_8X8),
        long: true,
    },
    Workload {
        name: "perft 8x8 --hash, 1-13",
        args: &["perft", "--depth", "13", "--hash"],
        input: b"",
        expect: Expect::Perft(13, &STANDARD_8X8),
        long: true,
    },
    Workload {
        name: "perft 8x8 --hash -T2, 1-14",
        args: &["perft", "--depth", "14", "--hash", "--threads", "2"],
        input: b"",
        expect: Expect::Perft(14, &STANDARD_8X8),
        long: true,
    },
    Workload {
        name: "perft 6x6, depths 1-11",
        args: &["perft", "--size", "6", "--depth", "11"],
        input: b"",
        expect: Expect::Perft(11, &STANDARD_6X6),
        long: false,
    },
    Workload {
        name: "perft 26x26, depths 1-7",
        args: &["perft", "--size", "26", "--depth", "7"],
        input: b"",
        expect: Expect::Perft(7, &OPEN_BOARD),
        long: false,
    },
    Workload {
        name: "perft 26x26, depths 1-10",
        args: &["perft", "--size", "26", "--depth", "10"],
        input: b"",
        expect: Expect::Perft(10, &OPEN_BOARD),
        long: false,
    },
    Workload {
        name: "replay a random 26x26 game",
        args: &["othello", "--size", "26"],
        input: include_bytes!("random-game-26.in"),
        expect: Expect::Line("Player X wins!"),
        long: false,
    },
    Workload {
        name: "solve othello 4x4",
        args: &["solve", "othello", "--size", "4"],
        input: b"",
        expect: Expect::Line("perfect play: -8"),
        long: false,
    },
    Workload {
        name: "solve mancala (5,4)",
        args: &["solve", "mancala", "--pits", "5", "--stones", "4"],
        input: b"",
        expect: Expect::Line("perfect play: +10"),
        long: false,
    },
    Workload {
        name: "solve mancala (6,4)",
        args: &["solve", "mancala", "--pits", "6", "--stones", "4"],
        input: b"",
        expect: Expect::Line("perfect play: +8"),
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
        let found = out.lines().find(|line| work.expect.matches(line));
        let result = found.map_or("WRONG", |_| "as expected");
        wrong += usize::from(found.is_none());
        let last = out.lines().last().unwrap_or("");
        println!("{:<28} {seconds:>9.3}  {result}; {last}", work.name);
    }
    assert_eq!(wrong, 0, "results differ from the expected values");

    // The cost of a leaf on the widest board against 8x8, at equal depth.
    let rate = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_boardgames"))
            .args(args)
            .output()
            .expect("the boardgames binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find_map(|line| line.strip_prefix("leaves per second: "))
            .and_then(|rate| rate.trim().parse::<f64>().ok())
            .expect("perft prints its rate")
    };
    // Five pairs in turn, since the machine's speed drifts; the median of each and of the ratios.
    let (mut narrow, mut wide, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        narrow.push(rate(&["perft", "--depth", "10"]));
        wide.push(rate(&["perft", "--size", "26", "--depth", "10"]));
        ratios.push(narrow[narrow.len() - 1] / wide[wide.len() - 1]);
    }
    println!(
        "per leaf at depth 10: 8x8 {:.0} M/s, 26x26 {:.0} M/s, 26x26 costs {:.1}x (median of 5 pairs)",
        median(&mut narrow) / 1e6,
        median(&mut wide) / 1e6,
        median(&mut ratios)
    );

    computer_moves(quick);

    if let Some(edax) = std::env::var_os("EDAX") {
        let edax = std::path::Path::new(&edax);
        for depth in [11, 12].into_iter().filter(|&d| !(quick && d == 12)) {
            let depth = depth.to_string();
            let label = format!("perft 8x8 depth {depth}");
            against_edax(
                edax,
                &label,
                &["perft", "--depth", &depth],
                &format!("perft {depth}"),
            );
        }
        if !quick {
            against_edax(
                edax,
                "depths 1-13 with a table (count games)",
                &["perft", "--depth", "13", "--hash"],
                "count games 13",
            );
        }
    }
}

/// The computer's time a move at level 10: whole games against itself (`--computer both`),
/// three seeds on 8x8 and 6x6, one on 26x26 (left out by `quick`, about six minutes), as the
/// wall time over the moves played.
fn computer_moves(quick: bool) {
    let boards: &[(&str, &[u64])] = if quick {
        &[("6", &[1, 2, 3]), ("8", &[1, 2, 3])]
    } else {
        &[("6", &[1, 2, 3]), ("8", &[1, 2, 3]), ("26", &[1])]
    };
    for &(side, seeds) in boards {
        let (mut seconds, mut moves) = (0.0, 0);
        for seed in seeds {
            let started = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_boardgames"))
                .args([
                    "othello",
                    "--size",
                    side,
                    "--computer",
                    "both",
                    "--level",
                    "10",
                ])
                .args(["--seed", &seed.to_string()])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    // No pits.
                    child
                        .stdin
                        .take()
                        .expect("stdin is piped")
                        .write_all(b"0\n")?;
                    child.wait_with_output()
                })
                .expect("the boardgames binary runs");
            seconds += started.elapsed().as_secs_f64();
            assert!(
                out.status.success(),
                "a computer game on {side}x{side} failed"
            );
            // Each move is shown after its prompt: "Player X's turn: C4".
            moves += String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|line| line.contains("'s turn: ") && !line.ends_with("turn: "))
                .count();
        }
        println!(
            "computer level 10, {side}x{side}: {:.1} ms a move ({moves} moves, {} games)",
            1000.0 * seconds / moves.max(1) as f64,
            seeds.len()
        );
    }
}

/// The middle value of `v`.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Ours with `args` and Edax fed the command `theirs`, three pairs in turn; the medians and
/// their ratio.
fn against_edax(edax: &std::path::Path, label: &str, args: &[&str], theirs: &str) {
    let folder = edax.parent().expect("Edax lives in a folder");
    let time = |command: &mut Command| {
        let started = Instant::now();
        let status = command.status().expect("the program runs");
        assert!(status.success(), "{command:?} failed");
        started.elapsed().as_secs_f64()
    };
    let (mut ours, mut edax_times) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        ours.push(time(
            Command::new(env!("CARGO_BIN_EXE_boardgames"))
                .args(args)
                .stdout(Stdio::null()),
        ));
        edax_times.push(time(
            Command::new("sh")
                .arg("-c")
                .arg(format!("printf '{theirs}\\n' | {} -n 1", edax.display()))
                .current_dir(folder)
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        ));
    }
    let (a, b) = (median(&mut ours), median(&mut edax_times));
    println!(
        "{label}: ours {a:.3} s, Edax {b:.3} s, ours/Edax {:.2}",
        a / b
    );
}
