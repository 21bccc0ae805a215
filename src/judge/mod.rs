//! `boardgames judge`: grades a program against the reference. Each case is an input (a
//! generated game, or a file); the expected transcript comes from the game itself, in-process;
//! the program runs sealed (`running/`: its whole tree held and killed, by the system's means)
//! under time, output and memory limits; the two outputs are compared; and the verdicts are
//! reported as text, JSON, JUnit XML or a Gradescope `results.json`. The judge's own failures
//! (a program that cannot be started, a folder that cannot be read) are `anyhow` errors. By
//! concern, as `othello/` is: `running/` (a program, sealed: process, keeper, system), `reading/`
//! (transcripts: events, compare, diagnose, rules) and `reporting/` (text, JSON, CI formats,
//! the class table), with the cases here and the class (`class.rs`) on top; `running/` and
//! `reading/` use nothing of the judge above them.

mod build;
mod cases;
mod class;
mod merge;
mod reading;
mod reporting;
mod running;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;

pub use build::{Build, default_cache};
pub use class::{Class, Shard};
pub use merge::merge;
pub use reading::Game;
pub use reporting::{Format, Visibility};
pub use running::{
    CannotRun, Keeping, Limits, Program, Sandbox, SandboxMode, Seal, Sealed, Sealing, collect_tail,
    keep,
};

use crate::driver::Transcript;
use crate::progress::Progress;
#[cfg(fuzzing)]
pub(crate) use cases::diagnose_generated;
use cases::{inputs, listing, make_case};
use reading::compare::{self, Difference, compare};
use reading::diagnose::{Diagnosis, diagnose};
use running::{Ending, Runs};

/// Where the cases come from.
#[derive(Clone, Debug)]
pub enum Cases {
    /// `count` generated games, case `i` from a seed derived from `seed` and `i`.
    Generated {
        /// How many.
        count: usize,
        /// The seed they derive from.
        seed: u64,
        /// Wrong entries the assignment specifies.
        errors: bool,
        /// Entries it leaves unspecified.
        weird: bool,
    },
    /// Every `*.in` file of a folder.
    Inputs(PathBuf),
}

/// Everything a judging needs.
#[derive(Clone, Debug)]
pub struct Judging {
    /// The game this pass judges: one of `games`.
    pub game: Game,
    /// Every board the judging is at, each on cases of its own.
    pub games: Vec<Game>,
    /// The cases.
    pub cases: Cases,
    /// Limits per run.
    pub limits: Limits,
    /// Runs at once.
    pub jobs: usize,
    /// Runs per case.
    pub repeat: usize,
    /// Stop at the first case not accepted.
    pub fail_fast: bool,
    /// The report's form.
    pub format: Format,
    /// Where to save the cases not accepted.
    pub save: Option<PathBuf>,
    /// Gradescope's points: the whole judging's, spread over the cases (default: one a case).
    pub points: Option<f64>,
    /// Gradescope's visibility of the tests to students.
    pub visibility: Option<Visibility>,
    /// The share of a case's points a presentation error earns.
    pub pe_credit: f64,
    /// Read `\r\n` line ends in the output as `\n`.
    pub accept_crlf: bool,
    /// The program and its arguments (none when a class is judged).
    pub program: Vec<OsString>,
    /// A class of programs to judge instead of one.
    pub class: Option<Class>,
    /// How the runs are sealed here, as the judge found it before the first run (empty until
    /// then).
    pub sealing: Sealing,
    /// With a class: how its submissions, sources, are built.
    pub build: Option<Build>,
}

/// One case: its input and the transcript the game makes of it.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its name: the input file's stem, or `seed-S`.
    pub name: String,
    /// The seed it was generated from, if it was.
    pub seed: Option<u64>,
    /// The input.
    pub input: Vec<u8>,
    /// The expected transcript, with the tokens read.
    pub expected: Transcript,
}

/// What a case came to, most serious first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The input does not reach the end of the game: not charged to the program.
    Unusable,
    /// The submission's build failed or made no program: the build's first 30 lines.
    CompileError(String),
    /// Ran past the time limit.
    TimeLimit,
    /// Failed after using memory near the limit, or for want of memory.
    MemoryLimit,
    /// Wrote past the output limit.
    OutputLimit,
    /// Exited with a status other than 0, or was ended by a signal.
    RuntimeError(String),
    /// A different game: a rule broken.
    Wrong(Difference),
    /// The same game, shown otherwise: spacing, line breaks, letter case, wording.
    Presentation(Difference),
    /// The same bytes.
    Accepted,
}

impl Verdict {
    /// The verdict's name in reports.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Unusable => "unusable case",
            Verdict::CompileError(_) => "compile error",
            Verdict::TimeLimit => "time limit",
            Verdict::MemoryLimit => "memory limit",
            Verdict::OutputLimit => "output limit",
            Verdict::RuntimeError(_) => "runtime error",
            Verdict::Wrong(_) => "wrong answer",
            Verdict::Presentation(_) => "presentation error",
            Verdict::Accepted => "accepted",
        }
    }
}

/// A judged case.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The case.
    pub case: Case,
    /// Its verdict (from the first run).
    pub verdict: Verdict,
    /// The program's output of the first run.
    pub actual: Vec<u8>,
    /// The end of its standard error.
    pub stderr: Vec<u8>,
    /// The first run's wall time.
    pub time: Duration,
    /// How many different results (output and ending) the runs gave (1 unless the program is
    /// flaky).
    pub outputs: usize,
    /// What the output shows when read as a game, for every case not accepted.
    pub diagnosis: Option<Diagnosis>,
    /// The crash a sanitizer or the C library reported, for a case not accepted.
    pub crash: Option<reading::crash::Crash>,
    /// The first run's largest resident memory, in KiB.
    pub peak_kib: u64,
    /// Processes the first run left running when it ended (all killed).
    pub left: usize,
    /// The sandbox's limits the first run reached: `processes`, `file`.
    pub hits: Vec<String>,
}

impl Judged {
    /// A case that was never run, with its verdict: an input that ends too soon, or a
    /// submission that could not be built.
    #[must_use]
    pub fn unrun(case: Case, verdict: Verdict) -> Judged {
        Judged {
            case,
            verdict,
            actual: Vec::new(),
            stderr: Vec::new(),
            time: Duration::ZERO,
            outputs: 0,
            diagnosis: None,
            crash: None,
            peak_kib: 0,
            left: 0,
            hits: Vec::new(),
        }
    }
}

/// How a judging ended, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every case the program was charged with was accepted.
    AllAccepted,
    /// Some case was not.
    SomeFailed,
    /// The judge was interrupted.
    Interrupted,
}

/// Judges the program, or the class; returns the report to print and how it went.
pub fn judge(judging: &Judging) -> anyhow::Result<(Vec<u8>, Outcome)> {
    let mut judging = judging.clone();
    // The program, found once (a class's submissions are found as they are graded), and the
    // runtime it needs admitted before the sandbox is probed.
    let program = match judging.class {
        Some(_) => None,
        None => {
            let (name, args) = judging
                .program
                .split_first()
                .context("no program to judge")?;
            Some(Program::find(name, args.to_vec())?)
        }
    };
    if let Some(program) = &program {
        admit_runtime(&mut judging, program);
    }
    // What the sandbox comes to here, found once; a strict one that lacks a layer runs nothing.
    // The holder keeps what every run shares (Linux: its namespaces) until the judging ends.
    let (sealing, holder) = Sealing::probe(&judging.limits.seal());
    if judging.limits.sandbox.mode == SandboxMode::Strict && !sealing.missing.is_empty() {
        return Err(CannotRun(format!(
            "--sandbox strict: this system lacks {}",
            sealing.missing.join("; ")
        ))
        .into());
    }
    let mut judging = Judging { sealing, ..judging };
    judging.limits.sandbox.holder = holder.pid();
    let judging = &judging;
    let runs = Runs::default();
    let on_interrupt = runs.clone();
    // Only the first judging of a process installs the handler; there is only one.
    let _ = ctrlc::set_handler(move || on_interrupt.interrupt());
    // Every board with its cases, the same for every program judged.
    let boards = judging
        .games
        .iter()
        .map(|&game| {
            let judging = Judging {
                game,
                ..judging.clone()
            };
            let cases = inputs(&judging)?
                .iter()
                .map(|input| make_case(game, input))
                .collect();
            Ok(Board { judging, cases })
        })
        .collect::<anyhow::Result<Vec<Board>>>()?;
    if let Some(class) = &judging.class {
        return class::grade(judging, class, &boards, &runs);
    }
    let program = program.context("no program to judge")?;
    let progress = Progress::new(boards.iter().map(|b| b.cases.len()).sum(), "cases");
    let mut parts = Vec::new();
    for board in &boards {
        let program = program.with_values(&board.values());
        let judged = judge_program(&board.judging, &program, &board.cases, &runs, &progress)?;
        if let Some(dir) = &judging.save {
            reporting::save(&board.folder(dir, boards.len()), &program, &judged)?;
        }
        parts.push((program, judged));
        if runs.is_interrupted() {
            break;
        }
    }
    progress.finish();
    let outcome = if runs.is_interrupted() {
        Outcome::Interrupted
    } else if parts
        .iter()
        .flat_map(|(_, j)| j)
        .all(|j| !reporting::failed(j))
    {
        Outcome::AllAccepted
    } else {
        Outcome::SomeFailed
    };
    let parts: Vec<reporting::Part> = boards
        .iter()
        .zip(&parts)
        .map(|(board, (program, judged))| reporting::Part {
            judging: &board.judging,
            program,
            judged,
        })
        .collect();
    let text = reporting::render_parts(&parts)?;
    Ok((text, outcome))
}

/// One board of a judging, and its cases.
pub struct Board {
    /// The judging at this board (`game` is the board).
    pub judging: Judging,
    /// Its cases.
    pub cases: Vec<Case>,
}

impl Board {
    /// The board's numbers, by the names `{size}`, `{pits}` and `{stones}` (and a build's `SIZE`,
    /// `PITS`, `STONES`) give them.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        match self.judging.game {
            Game::Othello(side) => vec![("size", side.get().to_string())],
            Game::Mancala(board) => vec![
                ("pits", board.pits.get().to_string()),
                ("stones", board.stones.to_string()),
            ],
        }
    }

    /// Where its saved cases go under `dir`: `dir` itself when there is one board, a folder of
    /// its own (`6x6`) when there are several.
    pub fn folder(&self, dir: &std::path::Path, boards: usize) -> PathBuf {
        if boards > 1 {
            dir.join(reporting::board_label(self.judging.game))
        } else {
            dir.to_path_buf()
        }
    }
}

/// Runs `program` on every case, `judging.jobs` at once, a step of `progress` each; the cases
/// judged, in order (fewer when the judging stopped early).
fn judge_program(
    judging: &Judging,
    program: &Program,
    cases: &[Case],
    runs: &Runs,
    progress: &Progress,
) -> anyhow::Result<Vec<Judged>> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Vec<Mutex<Option<Judged>>> = cases.iter().map(|_| Mutex::new(None)).collect();
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..judging.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::SeqCst) || runs.is_interrupted() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(i) else { break };
                    let judged = judge_case(case.clone(), program, judging, runs);
                    progress.advance(1);
                    match judged {
                        // A run cut short by an interrupt says nothing of the program.
                        Ok(_) if runs.is_interrupted() => break,
                        Ok(judged) => {
                            if reporting::failed(&judged) && judging.fail_fast {
                                stop.store(true, Ordering::SeqCst);
                            }
                            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(judged);
                        }
                        Err(err) => {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(err);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
            });
        }
    });
    if let Some(err) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(err).with_context(|| format!("running {}", program.command_line()));
    }
    Ok(results
        .into_iter()
        .filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect())
}

/// `work` done by `f`, `jobs` items at once; the results in order, or the first error.
fn each_at_once<T: Sync, R: Send>(
    jobs: usize,
    work: &[T],
    f: impl Fn(&T) -> anyhow::Result<R> + Sync,
) -> anyhow::Result<Vec<R>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<anyhow::Result<R>>>> =
        work.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, work.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = work.get(i) else { break };
                    let result = f(item);
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Admits for reading the runtime the judged program needs that lies outside what every
/// sandboxed run reads (a Python, Node or Java installed under a home folder), as `--read`
/// would, and says so on standard error: without it the runtime could not start, and that
/// would be the judge's verdict, not the program's.
fn admit_runtime(judging: &mut Judging, program: &Program) {
    if judging.limits.sandbox.mode == SandboxMode::Off {
        return;
    }
    for prefix in running::runtime::prefixes(program) {
        let read = &mut judging.limits.sandbox.read;
        if !read.iter().any(|folder| prefix.starts_with(folder)) {
            eprintln!(
                "judge: the program's runtime is in {}, outside the system's folders: \
                 admitted for reading (as --read would)",
                prefix.display()
            );
            read.push(prefix);
        }
    }
}

/// Runs the program on `case` as many times as asked and gives the verdict.
fn judge_case(
    case: Case,
    program: &Program,
    judging: &Judging,
    runs: &Runs,
) -> std::io::Result<Judged> {
    if !case.expected.finished {
        return Ok(Judged::unrun(case, Verdict::Unusable));
    }
    // Past four times the expected transcript a program is not playing the game any more.
    let limits = Limits {
        output: Some(
            judging
                .limits
                .output
                .unwrap_or(4 * case.expected.output.len() + (64 << 10)),
        ),
        ..judging.limits.clone()
    };
    let first = running::run(program, &case.input, &limits, runs)?;
    // Runs told apart by a fingerprint of what they wrote and how they ended (a later run that
    // writes the same bytes but crashes or runs out of time is not the same run): a run's
    // output is not kept.
    let fingerprint = |run: &running::Run| {
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&run.stdout, &mut hasher);
        std::hash::Hash::hash(&run.ending, &mut hasher);
        std::hash::Hasher::finish(&hasher)
    };
    let mut outputs = vec![fingerprint(&first)];
    for _ in 1..judging.repeat.max(1) {
        let again = running::run(program, &case.input, &limits, runs)?;
        let seen = fingerprint(&again);
        if !outputs.contains(&seen) {
            outputs.push(seen);
        }
    }
    // With --accept-crlf, the output as the reference would end its lines.
    let output = if judging.accept_crlf {
        compare::lf_line_ends(&first.stdout)
    } else {
        std::borrow::Cow::Borrowed(&first.stdout[..])
    };
    let verdict = match &first.ending {
        // An interrupted run is dropped by the caller; as a verdict it is one that ran too long.
        Ending::TimedOut | Ending::Interrupted => Verdict::TimeLimit,
        // The sandbox's processor-time limit.
        Ending::Signalled(signal) if signal == "SIGXCPU" => Verdict::TimeLimit,
        _ if out_of_memory(&first, &judging.limits) => Verdict::MemoryLimit,
        Ending::OutputLimit => Verdict::OutputLimit,
        Ending::Signalled(signal) => Verdict::RuntimeError(format!("killed by {signal}")),
        Ending::Exited(code) if *code != 0 => Verdict::RuntimeError(format!("exit status {code}")),
        Ending::Exited(_) => match compare(&case.expected.output, &output) {
            None => Verdict::Accepted,
            Some(d) => Verdict::Wrong(d),
        },
    };
    // The second layer: the output read as a game, for every run that is not the same bytes.
    let cut = !matches!(verdict, Verdict::Wrong(_) | Verdict::Accepted);
    let diagnosis = (verdict != Verdict::Accepted)
        .then(|| diagnose(judging.game, &case.expected, &output, cut));
    let verdict = match verdict {
        Verdict::Wrong(d) if diagnosis.as_ref().is_some_and(|d| d.rule.is_none()) => {
            Verdict::Presentation(d)
        }
        other => other,
    };
    // Memory stays bounded over many cases: an accepted case keeps no transcript (nothing
    // reads it again), and a flood keeps only the head of what it wrote.
    let (mut case, mut actual) = (case, first.stdout);
    if verdict == Verdict::Accepted && outputs.len() == 1 {
        case.expected.output = Vec::new();
        actual = Vec::new();
    } else if verdict == Verdict::OutputLimit {
        actual.truncate(KEPT_FLOOD);
        actual.shrink_to_fit();
    }
    let crash = (verdict != Verdict::Accepted)
        .then(|| reading::crash::read(&first.stderr))
        .flatten();
    Ok(Judged {
        case,
        verdict,
        actual,
        stderr: first.stderr,
        time: first.time,
        outputs: outputs.len(),
        crash,
        diagnosis,
        peak_kib: first.peak_kib,
        left: first.left,
        hits: first.hits,
    })
}

/// Whether a failed run failed for want of memory: it was killed at the limit, or it came
/// within half of the limit, or said that an allocation failed (C++'s `bad_alloc`, Rust's,
/// C's, Java's and Python's messages).
fn out_of_memory(run: &running::Run, limits: &Limits) -> bool {
    if run.hits.iter().any(|hit| hit == "memory") {
        return true;
    }
    let failed = match run.ending {
        Ending::Exited(code) => code != 0,
        Ending::Signalled(_) => true,
        _ => false,
    };
    let near = run.peak_kib.saturating_mul(2) >= limits.memory_mb.saturating_mul(1024);
    let said = [
        "bad_alloc",
        "memory allocation of",
        "out of memory",
        "Cannot allocate memory",
        "OutOfMemoryError",
        "MemoryError",
    ]
    .iter()
    .any(|words| {
        run.stderr
            .windows(words.len())
            .any(|w| w == words.as_bytes())
    });
    failed && (near || said)
}

/// Bytes kept of the output of a run that wrote past the limit.
const KEPT_FLOOD: usize = 64 << 10;
