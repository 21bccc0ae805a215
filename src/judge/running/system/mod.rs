//! What differs by operating system in running a program the judge does not trust (a judged
//! program, a relayed console), behind one interface: how it is started sealed, how its whole
//! process tree is ended, which limits hold, how its ending is read back, what a path must be
//! to be run, and how a command is written for the system's shell. A file per system:
//! `unix/` (a keeper process, the hidden `judge-keeper` command, between the judge and the
//! program; `unix/linux.rs` and `unix/macos.rs` say how the keeper finds and limits the tree)
//! and `windows.rs` (a Job Object). Callers see no `cfg`. This module never decides a verdict.

#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
use windows as imp;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

pub use imp::{
    CURRENT_FOLDER_FIRST, Holder, Sealed, Stopper, executable, keep, quote, read_by_every_run,
    replay_script, shell,
};

/// How a program file is named in a class table: its file name, less the extension this system
/// lets a command leave out (`alice.exe` is `alice` on Windows).
pub fn program_name(file_name: &str) -> &str {
    imp::IMPLIED_EXTENSION
        .and_then(|extension| {
            let cut = file_name.len().checked_sub(extension.len())?;
            let (stem, tail) = (file_name.get(..cut)?, file_name.get(cut..)?);
            tail.eq_ignore_ascii_case(extension).then_some(stem)
        })
        .unwrap_or(file_name)
}

/// `path`, or `path` with the extension this system lets a command leave out (Windows's
/// `.exe`), if that is a program this system can run.
pub fn runnable(path: &Path) -> Option<PathBuf> {
    let implied = imp::IMPLIED_EXTENSION.map(|extension| {
        let mut named = path.as_os_str().to_owned();
        named.push(extension);
        PathBuf::from(named)
    });
    std::iter::once(path.to_path_buf())
        .chain(implied)
        .find(|path| executable(path))
}

/// What a sealed run may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seal {
    /// The memory the run's processes may use together, in MiB; `None`: no limit.
    pub memory_mb: Option<u64>,
    /// The address space each process may map, in MiB; `None`: no limit (the default: a
    /// sanitizer, a JVM or Go's runtime reserves far more than it uses).
    pub address_space_mb: Option<u64>,
    /// The sandbox the run is in.
    pub sandbox: Sandbox,
}

/// How hard the sandbox holds, and what it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Whether it is applied, and whether a layer the system lacks stops the judge.
    pub mode: SandboxMode,
    /// The most processes a run may have at once, threads apart (which have a cap of their
    /// own, a generous one).
    pub processes: u32,
    /// The largest file a run may write, in MiB.
    pub file_mb: u64,
    /// The processor seconds a process may take.
    pub cpu_seconds: u64,
    /// Folders a run may read besides the system's shared files and its own folder.
    pub read: Vec<PathBuf>,
    /// The judge's holder of namespaces that every run joins (Linux), once it is running.
    pub holder: Option<u32>,
    /// The run's working folder, which it may write and which is kept after it (a build's
    /// copy of the sources); a fresh scratch folder, removed after, when `None`.
    pub work: Option<PathBuf>,
}

/// How the sandbox is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SandboxMode {
    /// Every layer the system allows; the report names those it could not apply.
    Auto,
    /// Every layer, or the judge refuses to start (exit 2), naming the one missing.
    Strict,
    /// None: the program runs with the grader's rights, as the report says.
    Off,
}

impl SandboxMode {
    /// Its word on the command line.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            SandboxMode::Auto => "auto",
            SandboxMode::Strict => "strict",
            SandboxMode::Off => "off",
        }
    }
}

/// What the keeper (`judge-keeper`, Unix) is asked to run.
#[derive(Clone, Debug)]
pub struct Keeping {
    /// The memory the program's processes may use together, in MiB; `None`: no limit.
    pub memory_mb: Option<u64>,
    /// The address space each process may map, in MiB; `None`: no limit.
    pub address_space_mb: Option<u64>,
    /// The sandbox to put it in.
    pub sandbox: Sandbox,
    /// Only say what the sandbox would come to here, and run nothing.
    pub probe: bool,
    /// Hold namespaces for the judge's runs to join (after saying what the sandbox comes to),
    /// until the judge ends.
    pub hold: bool,
    /// The program and its arguments.
    pub program: Vec<OsString>,
}

/// How a sealed program ended, as its seal saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// It was ended by a signal (Unix) or a fatal exception (Windows): its name, like
    /// `SIGABRT` or `STATUS_ACCESS_VIOLATION`.
    Signal(String),
    /// It was stopped (asked by the judge) before it ended.
    Stopped,
}

/// A sealed run once it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// How the program ended.
    pub exit: Exit,
    /// The most memory the run used, in KiB (0 where the system does not say): its processes
    /// together where a control group or the keeper's watch counts them, else its largest.
    pub peak_kib: u64,
    /// Processes still running when the program ended, all killed since.
    pub left: usize,
    /// The limits the run reached: `memory`, `processes`, `file`.
    pub hits: Vec<String>,
}

/// What sealing applies on this system, for the reports: each protection in force, and each
/// one missing with its reason. A system that lacks one says so; it never pretends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sealing {
    /// The protections in force, in words.
    pub applied: Vec<String>,
    /// The protections missing, each with why.
    pub missing: Vec<String>,
}

impl Sealing {
    /// What `seal` comes to on this system, found by trying it (on Unix, a keeper that sets
    /// every layer up and runs nothing), and what holds what the runs share for as long as it
    /// lives (on Linux, their user and network namespaces, made once).
    #[must_use]
    pub fn probe(seal: &Seal) -> (Sealing, Holder) {
        imp::sealing(seal)
    }
}

impl fmt::Display for Sealing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.applied.join(", "))?;
        if !self.missing.is_empty() {
            write!(f, "; missing: {}", self.missing.join(", "))?;
        }
        Ok(())
    }
}
