//! Running a judged program, Linux only: under its keeper (`keeper.rs`, the judge's own binary
//! in a process group of its own), with the case input on standard input (closed at its end),
//! standard output captured up to a limit, the tail of standard error kept, a time limit and an
//! address-space limit. On a timeout, too much output, or the judge being interrupted, the
//! keeper is told to stop and kills everything below it, `setsid()` escapees included; the
//! group is killed after it as a backstop. No process of a judged program outlives the case.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

use super::keeper::Report;
use crate::worker;

/// A program named on the command line that cannot be run (no such file, not executable, not
/// in `PATH`): a mistake in the arguments, exit 2 in every command that runs programs.
#[derive(Debug)]
pub struct CannotRun(pub String);

impl std::fmt::Display for CannotRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CannotRun {}

/// The program under judgement and its arguments.
#[derive(Clone, Debug)]
pub struct Program {
    /// Where the program is.
    pub path: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl Program {
    /// The program `name` (a path, or a name looked up in `PATH`) with `args`, if it exists and
    /// may be executed.
    pub fn find(name: &OsString, args: Vec<OsString>) -> Result<Program, CannotRun> {
        let name_path = Path::new(name);
        let shown = name_path.display();
        let path = if name_path.components().count() > 1 {
            if !name_path.exists() {
                return Err(CannotRun(format!("cannot run {shown}: no such file")));
            }
            if !executable(name_path) {
                return Err(CannotRun(format!(
                    "cannot run {shown}: not an executable file"
                )));
            }
            name_path.to_path_buf()
        } else {
            let dirs = std::env::var_os("PATH").unwrap_or_default();
            std::env::split_paths(&dirs)
                .map(|dir| dir.join(name))
                .find(|path| executable(path))
                .ok_or_else(|| CannotRun(format!("cannot run {shown}: not found in PATH")))?
        };
        Ok(Program { path, args })
    }

    /// The command line, as a person would type it.
    pub fn command_line(&self) -> String {
        std::iter::once(self.path.as_os_str())
            .chain(self.args.iter().map(OsString::as_os_str))
            .map(|part| shell_quote(&part.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Whether `path` is a file that may be executed.
pub fn executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `text` quoted for a POSIX shell where it needs to be.
pub fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// How long a run may take, how much it may write and how much memory it may map.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time per run.
    pub time: Duration,
    /// Bytes of standard output per run; `None` while the judge has not set it for a case.
    pub output: Option<usize>,
    /// Address space per process of a run, in MiB.
    pub memory_mb: u64,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it; the signal's name, like `SIGABRT`.
    Signalled(String),
    /// It ran past the time limit and was killed.
    TimedOut,
    /// It wrote more than the output limit and was killed.
    OutputLimit,
    /// The judge was interrupted while it ran.
    Interrupted,
}

/// What one run of the program did.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended.
    pub ending: Ending,
    /// Its standard output, up to the limit.
    pub stdout: Vec<u8>,
    /// The last bytes of its standard error.
    pub stderr: Vec<u8>,
    /// Wall time.
    pub time: Duration,
    /// The largest resident memory of a process of the run, in KiB.
    pub peak_kib: u64,
    /// Processes the program left running when it ended (all killed).
    pub left: usize,
}

/// The standard error kept of a run: its last 4 KiB.
const STDERR_TAIL: usize = 4096;

/// The process groups of the runs in progress, and whether the judge was interrupted.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    running: Arc<Mutex<HashSet<i32>>>,
    interrupted: Arc<AtomicBool>,
}

impl Groups {
    /// Stops every running case and refuses to start more: the judge is being interrupted.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        for &group in self.lock().iter() {
            stop_keeper(group);
        }
    }

    /// Whether [`Self::interrupt`] was called.
    pub fn is_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<i32>> {
        // A poisoned set still holds the groups to kill.
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Sends SIGKILL to every process of `group`; a group already gone is fine.
pub fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}

/// Tells the keeper of a run (the leader of its group) to kill everything below it and end.
fn stop_keeper(group: i32) {
    let _ = kill(Pid::from_raw(group), Signal::SIGTERM);
}

/// Runs `program` once on `input` within `limits`.
pub fn run(program: &Program, input: &[u8], limits: Limits, groups: &Groups) -> io::Result<Run> {
    let started = Instant::now();
    let mut child = {
        // Registering the group and starting the program happen under the lock, so that an
        // interrupt either sees the group or stops the start.
        let mut running = groups.lock();
        if groups.is_interrupted() {
            return Ok(Run {
                ending: Ending::Interrupted,
                stdout: Vec::new(),
                stderr: Vec::new(),
                time: Duration::ZERO,
                peak_kib: 0,
                left: 0,
            });
        }
        let child = Command::new(std::env::current_exe()?)
            .arg("judge-keeper")
            .arg("--memory-mb")
            .arg(limits.memory_mb.to_string())
            .arg("--")
            .arg(&program.path)
            .args(&program.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        running.insert(group_of(&child));
        child
    };
    let group = group_of(&child);

    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        unreachable!("all three streams are piped");
    };
    let input = input.to_vec();
    // A program that never reads must not block the judge: write from a thread of its own.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let overflow = Arc::new(AtomicBool::new(false));
    let out = collect(stdout, limits.output.unwrap_or(usize::MAX), {
        let overflow = Arc::clone(&overflow);
        move || {
            overflow.store(true, Ordering::SeqCst);
            stop_keeper(group);
        }
    });
    let err = collect_tail(stderr);

    let (done, exited) = mpsc::channel();
    let waiter = thread::spawn(move || {
        let status = child.wait();
        let _ = done.send(());
        status
    });
    let timed_out = exited.recv_timeout(limits.time).is_err();
    if timed_out {
        stop_keeper(group);
        // A keeper that does not end at once is killed with its group.
        if exited.recv_timeout(Duration::from_secs(2)).is_err() {
            kill_group(group);
        }
    }
    let status = worker::joined(waiter.join())?;
    let time = started.elapsed();
    // Whatever the program left running goes with it.
    kill_group(group);
    groups.lock().remove(&group);

    // Processes that left the group may hold the pipes open: wait a moment, no longer.
    let grace = Duration::from_millis(500);
    let stdout = out.finish(grace);
    let mut stderr = err.finish(grace);
    let report = Report::take(&mut stderr);
    if let Some(why) = report
        .as_ref()
        .and_then(|r| r.ended.strip_prefix("cannot start: "))
    {
        return Err(io::Error::other(why.to_string()));
    }
    let ending = if groups.is_interrupted() {
        Ending::Interrupted
    } else if timed_out {
        Ending::TimedOut
    } else if overflow.load(Ordering::SeqCst) {
        Ending::OutputLimit
    } else if let Some(ended) = report.as_ref().map(|r| r.ended.as_str()) {
        match ended.split_once(' ') {
            Some(("exit", code)) => Ending::Exited(code.parse().unwrap_or(-1)),
            Some(("signal", name)) => Ending::Signalled(name.to_string()),
            _ => Ending::Signalled(ended.to_string()),
        }
    } else if let Some(signal) = status.signal() {
        // The keeper itself was ended before it could report.
        Ending::Signalled(
            Signal::try_from(signal).map_or_else(|_| format!("signal {signal}"), |s| s.to_string()),
        )
    } else {
        Ending::Exited(status.code().unwrap_or(-1))
    };
    Ok(Run {
        ending,
        stdout,
        stderr,
        time,
        peak_kib: report.as_ref().map_or(0, |r| r.peak_kib),
        left: report.map_or(0, |r| r.left),
    })
}

/// The process group of a child started with `process_group(0)`: its own pid.
pub fn group_of(child: &std::process::Child) -> i32 {
    // Pids fit an i32 on every Unix.
    i32::try_from(child.id()).unwrap_or(i32::MAX)
}

/// Bytes being read from a pipe by a thread of their own.
struct Collecting {
    bytes: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Collecting {
    /// What was read, once the pipe closed or `grace` passed.
    fn finish(self, grace: Duration) -> Vec<u8> {
        let _ = self.done.recv_timeout(grace);
        std::mem::take(&mut *self.bytes.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Reads `pipe` to its end, keeping at most `limit` bytes; past that calls `over` once and
/// stops reading.
fn collect(
    mut pipe: impl Read + Send + 'static,
    limit: usize,
    over: impl FnOnce() + Send + 'static,
) -> Collecting {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let (done, finished) = mpsc::channel();
    let kept = Arc::clone(&bytes);
    thread::spawn(move || {
        let mut buf = [0; 1 << 16];
        let mut over = Some(over);
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            let room = limit - kept.len();
            kept.extend_from_slice(&buf[..n.min(room)]);
            if n > room {
                drop(kept);
                if let Some(over) = over.take() {
                    over();
                }
                break;
            }
        }
        let _ = done.send(());
    });
    Collecting {
        bytes,
        done: finished,
    }
}

/// Reads `pipe` to its end, keeping its last [`STDERR_TAIL`] bytes.
fn collect_tail(mut pipe: impl Read + Send + 'static) -> Collecting {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let (done, finished) = mpsc::channel();
    let kept = Arc::clone(&bytes);
    thread::spawn(move || {
        let mut buf = [0; 1 << 12];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            kept.extend_from_slice(&buf[..n]);
            let excess = kept.len().saturating_sub(STDERR_TAIL);
            kept.drain(..excess);
        }
        let _ = done.send(());
    });
    Collecting {
        bytes,
        done: finished,
    }
}
