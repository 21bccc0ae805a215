//! Running a program that is not trusted (a judged program; the relay's consoles start the
//! same way): sealed by the system's means (`system/`: a keeper on Unix, a Job Object on
//! Windows), with the case input on standard input (closed at its end), standard output
//! captured up to a limit, the tail of standard error kept (`pipes.rs`), a time limit and a
//! memory limit. On a timeout, too much output, or the judge being interrupted, the whole tree
//! is stopped; after every run whatever it left is killed. No process of a judged program
//! outlives its case. It uses nothing of the judge above it.

mod pipes;
pub mod runtime;
mod system;

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

pub use pipes::collect_tail;
use system::{Ended, Exit};
pub use system::{
    Keeping, Sandbox, SandboxMode, Seal, Sealed, Sealing, Stopper, executable, keep, program_name,
    shell,
};

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
            match system::runnable(name_path) {
                Some(path) => path,
                None if name_path.exists() => {
                    return Err(CannotRun(format!(
                        "cannot run {shown}: not an executable file"
                    )));
                }
                None => return Err(CannotRun(format!("cannot run {shown}: no such file"))),
            }
        } else {
            // Windows looks in the current folder before `PATH`, as its shell does.
            let here = system::CURRENT_FOLDER_FIRST.then(|| PathBuf::from("."));
            let dirs = std::env::var_os("PATH").unwrap_or_default();
            here.into_iter()
                .chain(std::env::split_paths(&dirs))
                .find_map(|dir| system::runnable(&dir.join(name)))
                .ok_or_else(|| CannotRun(format!("cannot run {shown}: not found in PATH")))?
        };
        Ok(Program { path, args })
    }

    /// The program at `path`, with no arguments.
    #[must_use]
    pub fn plain(path: PathBuf) -> Program {
        Program {
            path,
            args: Vec::new(),
        }
    }

    /// The program with `{NAME}` in its arguments made each of `values`' `(NAME, value)`.
    #[must_use]
    pub fn with_values(&self, values: &[(&str, String)]) -> Program {
        let args = self
            .args
            .iter()
            .map(|arg| {
                let text = arg.to_string_lossy();
                if !text.contains('{') {
                    return arg.clone();
                }
                let mut text = text.into_owned();
                for (name, value) in values {
                    text = text.replace(&format!("{{{name}}}"), value);
                }
                OsString::from(text)
            })
            .collect();
        Program {
            path: self.path.clone(),
            args,
        }
    }

    /// The command line, as a person would type it.
    pub fn command_line(&self) -> String {
        std::iter::once(self.path.as_os_str())
            .chain(self.args.iter().map(OsString::as_os_str))
            .map(|part| system::quote(&part.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `text` quoted for the system's shell where it needs to be.
pub fn shell_quote(text: &str) -> String {
    system::quote(text)
}

/// The script that replays case `name` from the folder it is in: `program` reading `NAME.in`
/// (`NAME.cmd`, for the system's shell).
pub fn replay_script(program: &Program, name: &str) -> String {
    system::replay_script(&program.command_line(), name)
}

/// How long a run may take, how much it may write and how much memory it may use, and the
/// sandbox it runs in.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall time per run.
    pub time: Duration,
    /// Bytes of standard output per run; `None` while the judge has not set it for a case.
    pub output: Option<usize>,
    /// Memory the processes of a run may use together, in MiB.
    pub memory_mb: u64,
    /// Address space each process may map, in MiB; `None` (the default): no such limit.
    pub address_space_mb: Option<u64>,
    /// The sandbox.
    pub sandbox: Sandbox,
}

impl Limits {
    /// The seal of a run within these limits.
    #[must_use]
    pub fn seal(&self) -> Seal {
        Seal {
            memory_mb: Some(self.memory_mb),
            address_space_mb: self.address_space_mb,
            sandbox: self.sandbox.clone(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal (Unix) or a fatal exception (Windows) ended it: its name, like `SIGABRT` or
    /// `STATUS_ACCESS_VIOLATION`.
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
    /// The most memory the run used, in KiB (see [`system::Ended`]).
    pub peak_kib: u64,
    /// Processes the program left running when it ended (all killed).
    pub left: usize,
    /// The limits it reached: `memory`, `processes`, `file`.
    pub hits: Vec<String>,
}

/// The runs in progress, each by the means to stop it, and whether the judge was interrupted.
#[derive(Clone, Debug, Default)]
pub struct Runs {
    running: Arc<Mutex<HashMap<u64, Stopper>>>,
    next: Arc<AtomicU64>,
    interrupted: Arc<AtomicBool>,
}

impl Runs {
    /// Stops every run in progress and refuses to start more: the judge is being interrupted.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        for stopper in self.lock().values() {
            stopper.stop();
        }
    }

    /// Whether [`Self::interrupt`] was called.
    pub fn is_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Stopper>> {
        // A poisoned set still holds the runs to stop.
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs `program` once on `input` within `limits`.
pub fn run(program: &Program, input: &[u8], limits: &Limits, runs: &Runs) -> io::Result<Run> {
    let started = Instant::now();
    let (mut sealed, id) = {
        // Registering the run and starting the program happen under the lock, so that an
        // interrupt either sees the run or stops the start.
        let mut running = runs.lock();
        if runs.is_interrupted() {
            return Ok(Run {
                ending: Ending::Interrupted,
                stdout: Vec::new(),
                stderr: Vec::new(),
                time: Duration::ZERO,
                peak_kib: 0,
                left: 0,
                hits: Vec::new(),
            });
        }
        let sealed = Sealed::start(&program.path, &program.args, &limits.seal())?;
        let id = runs.next.fetch_add(1, Ordering::SeqCst);
        running.insert(id, sealed.stopper());
        (sealed, id)
    };
    let stopper = sealed.stopper();

    let Some((mut stdin, stdout, stderr)) = sealed.pipes() else {
        unreachable!("all three streams are piped");
    };
    let input = input.to_vec();
    // A program that never reads must not block the judge: write from a thread of its own.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let overflow = Arc::new(AtomicBool::new(false));
    let out = pipes::collect(stdout, limits.output.unwrap_or(usize::MAX), {
        let overflow = Arc::clone(&overflow);
        let stopper = stopper.clone();
        move || {
            overflow.store(true, Ordering::SeqCst);
            stopper.stop();
        }
    });
    let err = pipes::collect_tail(stderr);

    let (done, exited) = mpsc::channel();
    let waiter = thread::spawn(move || {
        let waited = sealed.wait();
        let _ = done.send(());
        waited.map(|()| sealed)
    });
    let timed_out = exited.recv_timeout(limits.time).is_err();
    if timed_out {
        stopper.stop();
        // A tree that does not end at once is killed outright.
        if exited.recv_timeout(Duration::from_secs(2)).is_err() {
            stopper.kill();
        }
    }
    let sealed = crate::worker::joined(waiter.join())?;
    let time = started.elapsed();
    // Whatever the program left running goes with it.
    stopper.kill();
    runs.lock().remove(&id);

    // Processes that left the tree may hold the pipes open: wait a moment, no longer.
    let grace = Duration::from_millis(500);
    let stdout = out.finish(grace);
    let mut stderr = err.finish(grace);
    let Ended {
        exit,
        peak_kib,
        left,
        hits,
    } = sealed.ended(&mut stderr)?;
    let ending = if runs.is_interrupted() {
        Ending::Interrupted
    } else if timed_out {
        Ending::TimedOut
    } else if overflow.load(Ordering::SeqCst) {
        Ending::OutputLimit
    } else {
        match exit {
            Exit::Code(code) => Ending::Exited(code),
            Exit::Signal(name) => Ending::Signalled(name),
            Exit::Stopped => Ending::Signalled("stopped".into()),
        }
    };
    Ok(Run {
        ending,
        stdout,
        stderr,
        time,
        peak_kib,
        left,
        hits,
    })
}
