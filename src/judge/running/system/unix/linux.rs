//! Linux: how the keeper holds a run's tree. It is a child subreaper, so every process the
//! program starts stays below it even after `setsid()`, and comes to it to be reaped; it dies
//! with the judge by a parent-death signal (even when the judge is SIGKILLed), and the program
//! dies with it by one of its own; each process's address space is limited by `RLIMIT_AS`; the
//! tree is read from `/proc`.

use std::collections::HashMap;

use nix::sys::prctl;
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::Signal;
use nix::unistd::Pid;

use super::super::{Sandbox, SandboxMode, Seal, Sealing};
pub use super::sandbox::Prepared as Sandboxed;
use super::sandbox::{Namespaces, prepare};

/// Every process that leaves the tree comes back to the keeper as an orphan.
pub const HOLDS_ORPHANS: bool = true;

/// Ties the keeper to the judge, `parent`, and makes it the tree's subreaper; whether it could.
pub fn arm(_parent: Pid, _memory_bytes: Option<u64>) -> bool {
    prctl::set_child_subreaper(true)
        .and_then(|()| prctl::set_pdeathsig(Signal::SIGTERM))
        .is_ok()
}

/// In the program's process between fork and exec, async-signal-safe: its address-space limit
/// and its own parent-death signal.
pub fn before_exec(memory_bytes: Option<u64>) -> nix::Result<()> {
    if let Some(bytes) = memory_bytes {
        setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
    }
    prctl::set_pdeathsig(Signal::SIGKILL)
}

/// The largest resident memory of a process the keeper waited for, in KiB.
pub fn peak_kib() -> u64 {
    // Linux counts `ru_maxrss` in KiB.
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .map_or(0, |usage| u64::try_from(usage.max_rss()).unwrap_or(0))
}

/// What a run is sealed with on Linux besides the sandbox, which the keeper's probe finds.
pub fn sealing(seal: &Seal) -> Sealing {
    let mut applied = vec!["process tree killed at the end of each run (child subreaper)".into()];
    if let Some(mb) = seal.memory_mb {
        applied.push(format!("address space <= {mb} MiB a process (RLIMIT_AS)"));
    }
    Sealing {
        applied,
        missing: Vec::new(),
    }
}

/// The sandbox made ready for a run, unless it is off: in the judge's holder's user and
/// network namespaces where there is one.
pub fn sandbox(
    sandbox: &Sandbox,
    program: &std::path::Path,
    memory: Option<u64>,
) -> Option<Sandboxed> {
    let namespaces = sandbox
        .holder
        .and_then(|pid| i32::try_from(pid).ok())
        .map_or(Namespaces::Fresh, Namespaces::Join);
    (sandbox.mode != SandboxMode::Off).then(|| prepare(sandbox, program, memory, namespaces))
}

/// The holder's sandbox: it makes the user and network namespaces the runs will join, and
/// says what a run's sandbox comes to.
pub fn held(
    sandbox: &Sandbox,
    program: &std::path::Path,
    memory: Option<u64>,
) -> Option<Sandboxed> {
    (sandbox.mode != SandboxMode::Off).then(|| {
        let held = super::sandbox::hold().is_ok();
        prepare(sandbox, program, memory, Namespaces::Held(held))
    })
}

/// The live processes below `root`, read from `/proc`.
pub fn below(root: Pid) -> Vec<Pid> {
    below_by_children(root).unwrap_or_else(|| below_by_scan(root))
}

/// The live processes below `root`, from each thread's list of its children (a handful of
/// reads for a run's few processes); `None` where the kernel keeps no such lists.
fn below_by_children(root: Pid) -> Option<Vec<Pid>> {
    let children = |pid: i32| -> Option<Vec<i32>> {
        let mut found = Vec::new();
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .ok()?
            .flatten()
        {
            let list = std::fs::read_to_string(task.path().join("children")).ok()?;
            found.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
        Some(found)
    };
    let mut found = Vec::new();
    let mut queue = children(root.as_raw())?;
    while let Some(pid) = queue.pop() {
        if state(pid).is_some_and(|s| s != "Z") {
            found.push(Pid::from_raw(pid));
        }
        queue.extend(children(pid).unwrap_or_default());
    }
    Some(found)
}

/// A process's state letter, from `/proc/PID/stat`.
fn state(pid: i32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (name) state ppid ...`: the name may hold spaces and parentheses.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().next().map(String::from)
}

/// The live processes below `root`, from a scan of every process's parent in `/proc`.
fn below_by_scan(root: Pid) -> Vec<Pid> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (name) state ppid ...`: the name may hold spaces and parentheses.
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let (Some(state), Some(ppid)) = (fields.next(), fields.next()) else {
            continue;
        };
        if state != "Z"
            && let Ok(ppid) = ppid.parse()
        {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut queue = vec![root.as_raw()];
    while let Some(pid) = queue.pop() {
        for &child in children.get(&pid).map_or(&[][..], Vec::as_slice) {
            found.push(Pid::from_raw(child));
            queue.push(child);
        }
    }
    found
}
