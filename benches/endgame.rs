//! The exact solver on the FFO endgame suite (`fforum-20-39.obf`, `fforum-40-59.obf`: the
//! public suite's positions with their values, in Edax's notation), scored by the tournament
//! rule as the suite is. Each position is solved by the release binary in a process of its own;
//! its value is asserted against the suite's, and its wall time, processor time (user + system,
//! which the machine's other work disturbs less) and nodes are printed, with each set's totals
//! and nodes a processor-second.
//!
//! `cargo bench --bench endgame` runs #20-#39 and #40-#49 on one thread, then #40-#49 on two;
//! `-- quick` only #20-#39 and #40-#44 on one; `-- long` adds #50-#59 on two threads (hours:
//! #54, #55, #57 and #58 take the most); `-- 6x6` adds 6x6 from the start on two threads.
//!
//! Every run also solves `random-14.obf` (1,000 positions of 14 empty cells, with the value
//! and a best move that this solver and Edax agree on) in one process, and asserts each value.
//!
//! With `EDAX=/path/to/edax` (Edax 4.4 or 4.6 built from its public source, run from its own
//! folder so that it finds `data/eval.dat`), each set of the run and the 1,000 positions are
//! also solved by Edax on one thread, alternating with ours set by set twice (A B A B), and the
//! median processor times, the node counts and their ratios are printed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
#[cfg(unix)]
use std::time::Duration;
use std::time::Instant;

/// One suite position: its number, the position text and the value of its best move.
struct Problem {
    number: usize,
    position: &'static str,
    value: i32,
}

/// The positions of an `.obf` file numbered from `first`.
fn problems(text: &'static str, first: usize) -> Vec<Problem> {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let (position, answers) = line.split_once(';').expect("a position, then answers");
            // The first answer is the best move's: "A2:+38".
            let value = answers
                .split(';')
                .next()
                .and_then(|a| a.split_once(':'))
                .and_then(|(_, v)| v.trim().parse::<i32>().ok())
                .expect("the suite gives the best move's value");
            Problem {
                number: first + i,
                position: position.trim(),
                value,
            }
        })
        .collect()
}

/// Runs `command` to its end; its output, wall seconds and processor seconds (user + system).
#[cfg(unix)]
fn measure(command: &mut Command) -> (Output, f64, f64) {
    use nix::sys::resource::{UsageWho, getrusage};
    // Processor time of the waited-for children so far.
    let children = || {
        let usage = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage of the children");
        let time = |t: nix::sys::time::TimeVal| {
            Duration::new(
                u64::try_from(t.tv_sec()).unwrap_or(0),
                u32::try_from(t.tv_usec()).unwrap_or(0) * 1000,
            )
        };
        time(usage.user_time()) + time(usage.system_time())
    };
    let cpu = children();
    let started = Instant::now();
    let out = command
        .stdin(Stdio::null())
        .output()
        .expect("the program runs");
    let wall = started.elapsed().as_secs_f64();
    (out, wall, (children() - cpu).as_secs_f64())
}

/// Runs `command` to its end; its output, wall seconds and processor seconds (user + kernel).
#[cfg(windows)]
fn measure(command: &mut Command) -> (Output, f64, f64) {
    use windows_sys::Win32::Foundation::{CloseHandle, FILETIME};
    use windows_sys::Win32::System::Threading::{
        GetProcessTimes, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    let started = Instant::now();
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    // A handle of the bench's own, still open once the child is waited for and dropped.
    // SAFETY: opens the child just started, by its id, to read its times.
    let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, child.id()) };
    let out = child.wait_with_output().expect("the program runs");
    let wall = started.elapsed().as_secs_f64();
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut ended, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the handle opened above, read once and closed.
    unsafe {
        GetProcessTimes(process, &mut created, &mut ended, &mut kernel, &mut user);
        CloseHandle(process);
    }
    // In units of 100 ns.
    let ticks = |t: FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
    (out, wall, (ticks(kernel) + ticks(user)) as f64 / 1e7)
}

/// A set's totals.
#[derive(Default)]
struct Totals {
    wall: f64,
    cpu: f64,
    nodes: u64,
}

/// Solves each of `set` on `threads` threads, checks its value and prints its figures.
fn ours(set: &[Problem], threads: usize) -> Totals {
    let mut totals = Totals::default();
    for problem in set {
        let (out, wall, cpu) = measure(Command::new(env!("CARGO_BIN_EXE_boardgames")).args([
            "solve",
            "othello",
            "--empties-to-winner",
            "--threads",
            &threads.to_string(),
            "--position",
            problem.position,
        ]));
        assert!(out.status.success(), "FFO #{} failed", problem.number);
        let text = String::from_utf8_lossy(&out.stdout);
        let value = printed_values(&text).next().flatten();
        let nodes = printed_nodes(&text)
            .next()
            .flatten()
            .expect("the solve prints its nodes");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("Best move: "))
            .unwrap_or("-");
        println!(
            "FFO #{:<2} {wall:>9.2} s {cpu:>9.2} cpu-s {nodes:>14} nodes {:>6.1} M/cpu-s  {:+} {best}",
            problem.number,
            nodes as f64 / cpu / 1e6,
            problem.value
        );
        assert_eq!(value, Some(problem.value), "FFO #{}", problem.number);
        totals.wall += wall;
        totals.cpu += cpu;
        totals.nodes += nodes;
    }
    totals
}

/// "FFO #40-#44" for a set of those positions.
fn label(set: &[Problem]) -> String {
    format!("FFO #{}-#{}", set[0].number, set[set.len() - 1].number)
}

fn print_totals(label: &str, threads: usize, t: &Totals) {
    println!(
        "{label} on {threads} thread(s): {:.1} s, {:.1} cpu-s, {} nodes, {:.1} M nodes a cpu-second",
        t.wall,
        t.cpu,
        t.nodes,
        t.nodes as f64 / t.cpu / 1e6
    );
}

/// Edax's solve of `set` on one thread: processor seconds and nodes.
fn edax(edax: &Path, set: &[Problem]) -> (f64, u64) {
    let file: PathBuf = std::env::temp_dir().join(format!("boardgames-ffo-{}.obf", set[0].number));
    let lines: String = set.iter().map(|p| format!("{};\n", p.position)).collect();
    std::fs::write(&file, lines).expect("a temporary file for Edax");
    let (cpu, nodes, _) = edax_file(edax, &file, &[]);
    (cpu, nodes)
}

/// Edax's solve of the positions of `file` on one thread, with `more` options: processor
/// seconds, nodes and the value it finds for each position, in order.
fn edax_file(edax: &Path, file: &Path, more: &[&str]) -> (f64, u64, Vec<i32>) {
    let folder = edax
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let (out, _, cpu) = measure(
        Command::new(edax)
            .args(["-solve"])
            .arg(file)
            .args(["-n", "1", "-l", "60", "-book-usage", "off", "-verbose", "1"])
            .args(more)
            .current_dir(folder),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // Its last line: "FILE: N nodes in 0:06.928 (cpu = ...)".
    let nodes = text
        .lines()
        .rev()
        .find_map(|l| l.split_once(": ").map(|(_, rest)| rest))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| {
            panic!(
                "Edax solved nothing (run from {}): {text}{}",
                folder.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
    // A line a position: "  1|   14   +12        0:00.003 ...": its number, then the depth
    // and the value.
    let values = text
        .lines()
        .filter_map(|l| l.split_once('|'))
        .filter(|(number, _)| number.trim().parse::<usize>().is_ok())
        .filter_map(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
        .collect();
    (cpu, nodes, values)
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Our one-thread solve of `set` against Edax's, alternately twice.
fn against_edax(path: &Path, label: &str, set: &[Problem]) {
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    let (mut my_nodes, mut their_nodes) = (0, 0);
    for _ in 0..2 {
        let t = ours(set, 1);
        mine.push(t.cpu);
        my_nodes = t.nodes;
        let (cpu, nodes) = edax(path, set);
        theirs.push(cpu);
        their_nodes = nodes;
    }
    let (a, b) = (median(&mut mine), median(&mut theirs));
    println!(
        "{label}, one thread: ours {a:.1} cpu-s {my_nodes} nodes ({:.1} M/s), Edax {b:.1} cpu-s \
         {their_nodes} nodes ({:.1} M/s); time ours/Edax {:.2}, nodes {:.2}",
        my_nodes as f64 / a / 1e6,
        their_nodes as f64 / b / 1e6,
        a / b,
        my_nodes as f64 / their_nodes as f64
    );
}

/// Our one-thread solve of the positions of `file`, one process: processor seconds, nodes and
/// each position's value, in order.
fn ours_file(file: &Path) -> (f64, u64, Vec<i32>) {
    let (out, _, cpu) = measure(
        Command::new(env!("CARGO_BIN_EXE_boardgames"))
            .args(["solve", "othello", "--empties-to-winner", "--threads", "1"])
            .arg("--position-file")
            .arg(file),
    );
    assert!(
        out.status.success(),
        "the solve of {} failed",
        file.display()
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let nodes = printed_nodes(&text).flatten().sum();
    let values = printed_values(&text).flatten().collect();
    (cpu, nodes, values)
}

/// The value of each position our solve printed ("Value for X under perfect play: +6"), in order;
/// `None` where it does not read as a number.
fn printed_values(text: &str) -> impl Iterator<Item = Option<i32>> + '_ {
    text.lines()
        .filter_map(|l| l.split_once("under perfect play: "))
        .map(|(_, v)| v.parse().ok())
}

/// The nodes of each search our solve printed ("Searched 50 nodes in 0.005 s"), in order; `None`
/// where they do not read as a number.
fn printed_nodes(text: &str) -> impl Iterator<Item = Option<u64>> + '_ {
    text.lines()
        .filter_map(|l| l.strip_prefix("Searched "))
        .map(|l| l.split(' ').next()?.parse().ok())
}

/// The same positions (`random-14.obf`: 1,000 of 14 empty cells, each reached by random legal
/// moves from the start), solved by us and, with `edax`, by Edax, alternately twice. Below 15
/// empty cells Edax's exact search orders moves by mobility and the like, not by its learned
/// weights (only its root's first shallow passes use them), so its tree here is nearly the one
/// its users get, and the two do the same work: the ratio of their times is the ratio of their
/// costs a position. Edax runs with a table of 2^18 entries: it clears its table for every
/// position, and its default 2^22 (100 MB) takes longer to clear than such a position to solve.
fn same_positions(edax: Option<&Path>) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/random-14.obf");
    let expected: Vec<i32> = problems(include_str!("random-14.obf"), 1)
        .iter()
        .map(|p| p.value)
        .collect();
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    let (mut my_nodes, mut their_nodes) = (0, 0);
    for _ in 0..if edax.is_some() { 2 } else { 1 } {
        let (cpu, nodes, values) = ours_file(&file);
        assert_eq!(values, expected, "each position's value");
        mine.push(cpu);
        my_nodes = nodes;
        if let Some(path) = edax {
            let (cpu, nodes, edax_values) = edax_file(path, &file, &["-h", "18"]);
            assert_eq!(edax_values, expected, "Edax's value of each position");
            theirs.push(cpu);
            their_nodes = nodes;
        }
    }
    let a = median(&mut mine);
    print!(
        "{} random positions of 14 empty cells, one thread: ours {a:.2} cpu-s {my_nodes} nodes \
         ({:.1} M/s)",
        expected.len(),
        my_nodes as f64 / a / 1e6
    );
    if edax.is_some() {
        let b = median(&mut theirs);
        print!(
            ", Edax {b:.2} cpu-s {their_nodes} nodes ({:.1} M/s); time ours/Edax {:.2}, nodes {:.2}",
            their_nodes as f64 / b / 1e6,
            a / b,
            my_nodes as f64 / their_nodes as f64
        );
    }
    println!();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let (quick, long, six) = (has("quick"), has("long"), has("6x6"));
    let first = problems(include_str!("fforum-20-39.obf"), 20);
    let second = problems(include_str!("fforum-40-59.obf"), 40);
    let (forties, fifties) = second.split_at(10);
    let forties = if quick { &forties[..5] } else { forties };

    let t = ours(&first, 1);
    print_totals(&label(&first), 1, &t);
    let t = ours(forties, 1);
    print_totals(&label(forties), 1, &t);
    if !quick {
        let t = ours(forties, 2);
        print_totals(&label(forties), 2, &t);
    }
    if long {
        let t = ours(fifties, 2);
        print_totals(&label(fifties), 2, &t);
    }
    if six {
        let (out, wall, cpu) = measure(Command::new(env!("CARGO_BIN_EXE_boardgames")).args([
            "solve",
            "othello",
            "--size",
            "6",
            "--threads",
            "2",
        ]));
        let text = String::from_utf8_lossy(&out.stdout);
        println!("6x6 from the start, 2 threads: {wall:.1} s, {cpu:.1} cpu-s");
        assert!(
            text.contains("perfect play: -4"),
            "6x6 is -4 under perfect play: {text}"
        );
    }
    let edax = std::env::var_os("EDAX");
    let edax = edax.as_deref().map(Path::new);
    same_positions(edax);
    if let Some(path) = edax {
        against_edax(path, &label(&first), &first);
        against_edax(path, &label(forties), forties);
    }
}
