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

use super::super::{Seal, Sealing};

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

/// What a run is sealed with on Linux.
pub fn sealing(seal: Seal) -> Sealing {
    let mut applied = vec!["process tree killed at the end of each run (child subreaper)".into()];
    if let Some(mb) = seal.memory_mb {
        applied.push(format!("address space <= {mb} MiB a process (RLIMIT_AS)"));
    }
    Sealing {
        applied,
        missing: vec!["no limit on processes (RLIMIT_NPROC counts all of the user's)".into()],
    }
}

/// The live processes below `root`, read from `/proc`.
pub fn below(root: Pid) -> Vec<Pid> {
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
