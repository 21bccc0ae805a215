//! macOS: how the keeper holds a run's tree where there is no subreaper and no parent-death
//! signal. A watcher thread looks every 20 ms. When the keeper's parent is no longer the judge,
//! it stops the keeper as the judge would (SIGTERM). It lists the processes below the keeper
//! (libproc: the children of each, from the keeper down) and remembers each with its start
//! time, so that one that left by `setsid()` and then lost its parent is still found at the end
//! if it was seen once; what leaves the tree and loses its parent between two looks is not. And
//! since macOS does not enforce `RLIMIT_AS` (it refuses small values), the watcher kills a
//! process whose resident memory passes the limit, and keeps the largest it saw.

use std::collections::{BTreeMap, HashSet};
use std::ffi::c_int;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use nix::sys::resource::{UsageWho, getrusage};
use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, getpid, getppid};

use super::super::{Sandbox, Seal, Sealing};

/// A process that leaves the tree is not given back to the keeper.
pub const HOLDS_ORPHANS: bool = false;

/// How often the watcher looks.
const LOOK: Duration = Duration::from_millis(20);

/// What the watcher has seen.
struct Seen {
    /// Every process seen below the keeper, with its start time (seconds, microseconds).
    below: BTreeMap<i32, (u64, u64)>,
    /// The largest resident memory seen of one process, in KiB.
    peak_kib: u64,
}

/// The keeper's one run, as the watcher saw it.
static SEEN: Mutex<Seen> = Mutex::new(Seen {
    below: BTreeMap::new(),
    peak_kib: 0,
});

fn seen() -> MutexGuard<'static, Seen> {
    // A poisoned record still holds the processes to kill.
    SEEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the watcher, which ties the keeper to the judge, `parent`, and holds each process
/// below it to `memory_bytes`; whether it started.
pub fn arm(parent: Pid, memory_bytes: Option<u64>) -> bool {
    std::thread::Builder::new()
        .spawn(move || watch(parent, memory_bytes))
        .is_ok()
}

/// The watcher's loop, as the module says.
fn watch(parent: Pid, memory_bytes: Option<u64>) {
    let me = getpid();
    loop {
        if getppid() != parent {
            let _ = kill(me, Signal::SIGTERM);
            return;
        }
        for pid in children_below(me) {
            let Some(start) = started(pid) else { continue };
            let resident = resident_bytes(pid);
            if memory_bytes.is_some_and(|limit| resident > limit) {
                let _ = kill(pid, Signal::SIGKILL);
            }
            let mut seen = seen();
            seen.below.insert(pid.as_raw(), start);
            seen.peak_kib = seen.peak_kib.max(resident / 1024);
        }
        std::thread::sleep(LOOK);
    }
}

/// In the program's process between fork and exec: nothing to set (the watcher limits memory,
/// and macOS refuses a small `RLIMIT_AS`).
#[allow(clippy::unnecessary_wraps)] // the same interface as Linux's, which can fail
pub fn before_exec(_address_space: Option<u64>) -> nix::Result<()> {
    Ok(())
}

/// What puts a process in a run's control groups: macOS has none.
#[derive(Clone, Debug, Default)]
pub struct Joiner;

impl Joiner {
    /// Nothing to join.
    pub fn join(&self) {}
}

/// What holds a run's memory on macOS: the watcher thread (`arm`), which holds each process to
/// the limit; there is no control group and no count of processes.
pub struct Guard;

impl Guard {
    pub fn new(_memory: Option<u64>, _processes: Option<u32>) -> Guard {
        Guard
    }
    /// The watcher's line is in [`sealing`].
    pub fn sealing(&self, _memory_mb: Option<u64>) -> Option<String> {
        None
    }
    pub fn joiner(&self) -> Joiner {
        Joiner
    }
    /// The watcher thread watches already.
    pub fn watch(&mut self, _root: Pid) -> bool {
        false
    }
    pub fn look(&mut self) {}
    pub fn next_look(&self) -> std::time::Duration {
        LOOK
    }
    pub fn hits(&self) -> Vec<&'static str> {
        Vec::new()
    }
    pub fn peak_kib(&self) -> u64 {
        peak_kib()
    }
    pub fn remove(&self) {}
}

/// Waits for one of `signals` (macOS has no `sigtimedwait`, and the keeper never watches here).
pub fn wait(signals: &nix::sys::signal::SigSet, _look: Option<Duration>) -> Option<Signal> {
    signals.wait().ok()
}

/// The largest resident memory of a process of the run, in KiB.
fn peak_kib() -> u64 {
    // macOS counts `ru_maxrss` in bytes.
    let waited = getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0, |usage| {
        u64::try_from(usage.max_rss()).unwrap_or(0) / 1024
    });
    waited.max(seen().peak_kib)
}

/// The live processes below `root`: those below it now, and those seen below it before that
/// are still the same processes, wherever their parents went.
pub fn below(root: Pid) -> Vec<Pid> {
    let mut found = children_below(root);
    for (&pid, &start) in &seen().below {
        let pid = Pid::from_raw(pid);
        if !found.contains(&pid) && started(pid) == Some(start) {
            found.push(pid);
        }
    }
    found
}

/// The processes whose parent chain leads to `root`, from libproc.
fn children_below(root: Pid) -> Vec<Pid> {
    let mut found = Vec::new();
    let mut known: HashSet<libc::pid_t> = HashSet::new();
    let mut queue = vec![root.as_raw()];
    let mut buffer: Vec<libc::pid_t> = vec![0; 4096];
    let size = c_int::try_from(std::mem::size_of_val(&buffer[..])).unwrap_or(c_int::MAX);
    while let Some(pid) = queue.pop() {
        buffer.fill(0);
        // SAFETY: the buffer holds `size` bytes of pids; libproc writes at most that.
        let count = unsafe { libc::proc_listchildpids(pid, buffer.as_mut_ptr().cast(), size) };
        let count = usize::try_from(count).unwrap_or(0).min(buffer.len());
        for &child in &buffer[..count] {
            if child > 0 && known.insert(child) {
                found.push(Pid::from_raw(child));
                queue.push(child);
            }
        }
    }
    found
}

/// When `pid` started (seconds, microseconds), if it is alive.
fn started(pid: Pid) -> Option<(u64, u64)> {
    pid_info::<libc::proc_bsdinfo>(pid, libc::PROC_PIDTBSDINFO)
        .map(|info| (info.pbi_start_tvsec, info.pbi_start_tvusec))
}

/// The resident memory of `pid`, in bytes (0 when it cannot be read).
fn resident_bytes(pid: Pid) -> u64 {
    pid_info::<libc::proc_taskinfo>(pid, libc::PROC_PIDTASKINFO)
        .map_or(0, |info| info.pti_resident_size)
}

/// libproc's `flavor` of information on `pid`, a C struct `T`, if it could be read whole.
fn pid_info<T>(pid: Pid, flavor: c_int) -> Option<T> {
    // SAFETY: the two flavors read here are plain C data, for which zero bytes are a value.
    let mut info: T = unsafe { std::mem::zeroed() };
    let size = c_int::try_from(std::mem::size_of::<T>()).ok()?;
    // SAFETY: `info` holds `size` bytes; libproc writes at most that.
    let written =
        unsafe { libc::proc_pidinfo(pid.as_raw(), flavor, 0, (&raw mut info).cast(), size) };
    (written == size).then_some(info)
}

/// macOS has no sandbox the judge can set up unprivileged (Landlock, namespaces and seccomp are
/// Linux's): a sandbox that is never made.
pub enum Sandboxed {}

impl Sandboxed {
    pub fn sealing(&self) -> &Sealing {
        match *self {}
    }
    pub fn refusal(&self) -> Option<String> {
        match *self {}
    }
    pub fn is_namespaced(&self) -> bool {
        match *self {}
    }
    pub fn command(
        &mut self,
        _path: &std::ffi::OsString,
        _args: &[std::ffi::OsString],
        _joiner: Joiner,
    ) -> std::process::Command {
        match *self {}
    }
    pub fn enter_run(&mut self) {
        match *self {}
    }
    pub fn hits(&self) -> Vec<&'static str> {
        match *self {}
    }
    pub fn clean(&self) {
        match *self {}
    }
}

/// Every run may read everything here: there is no sandbox of files.
pub fn read_by_every_run(_path: &std::path::Path) -> bool {
    true
}

/// No sandbox is ever made here, nor namespaces held.
pub fn held(
    _sandbox: &Sandbox,
    _program: &std::path::Path,
    _address_space: Option<u64>,
    _guard: &Guard,
) -> Option<Sandboxed> {
    None
}

/// No sandbox is ever made here.
pub fn sandbox(
    _sandbox: &Sandbox,
    _program: &std::path::Path,
    _address_space: Option<u64>,
    _guard: &Guard,
) -> Option<Sandboxed> {
    None
}

/// What a run is sealed with on macOS.
pub fn sealing(seal: &Seal) -> Sealing {
    let mut applied = vec![
        "process group and every process seen below the program killed at the end of each run \
         (listed every 20 ms: macOS has no subreaper)"
            .to_string(),
    ];
    if let Some(mb) = seal.memory_mb {
        applied.push(format!(
            "resident memory <= {mb} MiB a process (watched every 20 ms: macOS has no \
             control groups)"
        ));
    }
    let mut missing = vec!["no limit on processes (RLIMIT_NPROC counts all of the user's)".into()];
    if seal.sandbox.mode != super::super::SandboxMode::Off {
        missing.push(
            "sandbox (files, network, namespaces and system calls: Landlock, namespaces and \
             seccomp are Linux's, and macOS's own sandbox needs its tooling)"
                .into(),
        );
    }
    Sealing { applied, missing }
}
