//! Linux: how the keeper holds a run's tree. It is a child subreaper, so every process the
//! program starts stays below it even after `setsid()`, and comes to it to be reaped; it dies
//! with the judge by a parent-death signal (even when the judge is SIGKILLed), and the program
//! dies with it by one of its own. The run's memory is what its processes use together: a
//! memory control group's limit where the judge can make one (`cgroup.rs`), else the keeper's
//! watch over the tree, which also counts its processes (threads apart); an address-space
//! limit (`RLIMIT_AS`) only when asked for. The tree is read from `/proc`.

use std::collections::HashMap;

use nix::sys::prctl;
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::super::{Sandbox, SandboxMode, Seal, Sealing};
use super::cgroup::Groups;
pub use super::cgroup::Joiner;
pub use super::sandbox::Prepared as Sandboxed;
use super::sandbox::{Namespaces, prepare};

/// How often the keeper looks at the tree, where it watches.
pub const LOOK: std::time::Duration = std::time::Duration::from_millis(10);

/// How often it looks once the tree uses more than half its memory limit: a program that
/// allocates a GiB a second passes the limit by a MiB or two, not ten.
const LOOK_NEAR: std::time::Duration = std::time::Duration::from_millis(1);

/// Tasks (processes and their threads) the kernel lets a run have for each process it may
/// have: a JVM or a Go program on a many-core machine starts a thread a core.
const TASKS_A_PROCESS: u32 = 128;

/// The kernel's cap on the tasks of a run of at most `processes` processes.
pub fn tasks(processes: u32) -> u32 {
    processes.saturating_mul(TASKS_A_PROCESS)
}

/// What holds a run's memory and processes: its control groups, and the keeper's watch over
/// its tree for what no group holds.
pub struct Guard {
    groups: Groups,
    /// The memory limit in bytes, where no group holds it.
    watched_memory: Option<u64>,
    /// The cap on processes (threads apart), which only a watch counts.
    processes: Option<u32>,
    /// The process below which the run's tree is, once it runs.
    root: Option<Pid>,
    /// The most memory seen in use by the tree at once, in bytes.
    peak: u64,
    /// The memory the last look saw in use, in bytes.
    last: u64,
    /// The limit the watch killed the run at.
    hit: Option<&'static str>,
}

impl Guard {
    /// The guard of a run of at most `memory` bytes and, sandboxed, `processes` processes.
    pub fn new(memory: Option<u64>, processes: Option<u32>) -> Guard {
        let groups = Groups::make(memory, processes.map(tasks));
        let watched_memory = memory.filter(|_| groups.memory_kind().is_none());
        Guard {
            groups,
            watched_memory,
            processes,
            root: None,
            peak: 0,
            last: 0,
            hit: None,
        }
    }

    /// Whether the kernel caps the run's tasks by a pids group.
    pub fn caps_tasks(&self) -> bool {
        self.groups.caps_tasks()
    }

    /// What holds the memory, for the report's sealing line.
    pub fn sealing(&self, memory_mb: Option<u64>) -> Option<String> {
        let mb = memory_mb?;
        Some(match self.groups.memory_kind() {
            Some(kind) => {
                format!("memory <= {mb} MiB used by the run's processes together ({kind})")
            }
            None => format!(
                "memory <= {mb} MiB used by the run's processes together (watched every {} ms: \
                 no memory control group can be made here)",
                LOOK.as_millis()
            ),
        })
    }

    /// What puts a process in the run's groups between fork and exec.
    pub fn joiner(&self) -> Joiner {
        self.groups.joiner()
    }

    /// Starts watching the tree below `root`; whether there is anything to watch.
    pub fn watch(&mut self, root: Pid) -> bool {
        self.root = Some(root);
        self.watched_memory.is_some() || self.processes.is_some()
    }

    /// How long until the next look: sooner once the tree is near its memory limit.
    pub fn next_look(&self) -> std::time::Duration {
        let near = self
            .watched_memory
            .is_some_and(|limit| self.last.saturating_mul(2) > limit);
        if near { LOOK_NEAR } else { LOOK }
    }

    /// One look at the tree: kills all of it when it is past a limit.
    pub fn look(&mut self) {
        let Some(root) = self.root.filter(|_| self.hit.is_none()) else {
            return;
        };
        let below = below(root);
        let used: u64 = below.iter().map(|&pid| used_bytes(pid)).sum();
        self.peak = self.peak.max(used);
        self.last = used;
        let too_many = self
            .processes
            .is_some_and(|cap| below.len() > usize::try_from(cap).unwrap_or(usize::MAX));
        let too_much = self.watched_memory.is_some_and(|limit| used > limit);
        self.hit = match (too_much, too_many) {
            (true, _) => Some("memory"),
            (false, true) => Some("processes"),
            (false, false) => return,
        };
        for pid in below {
            let _ = kill(pid, Signal::SIGKILL);
        }
    }

    /// The limits the run reached.
    pub fn hits(&self) -> Vec<&'static str> {
        let mut hits = self.groups.hits();
        hits.extend(self.hit.filter(|hit| !hits.contains(hit)));
        hits
    }

    /// The most memory the run used, in KiB: its group's peak, or the most the watch saw
    /// (and never less than the largest process the keeper waited for).
    pub fn peak_kib(&self) -> u64 {
        let waited = getrusage(UsageWho::RUSAGE_CHILDREN)
            .map_or(0, |usage| u64::try_from(usage.max_rss()).unwrap_or(0));
        self.groups
            .peak_kib()
            .unwrap_or_else(|| waited.max(self.peak / 1024))
    }

    /// Removes the run's groups, once nothing of it is left.
    pub fn remove(&self) {
        self.groups.remove();
    }
}

/// Waits for one of `signals`; `look`, that long at most.
pub fn wait(
    signals: &nix::sys::signal::SigSet,
    look: Option<std::time::Duration>,
) -> Option<Signal> {
    let Some(look) = look else {
        return signals.wait().ok();
    };
    let timeout = nix::libc::timespec {
        tv_sec: 0,
        tv_nsec: i64::try_from(look.as_nanos()).unwrap_or(i64::MAX),
    };
    // SAFETY: a signal set and a timespec that live through the call; no info is asked for.
    let signal =
        unsafe { nix::libc::sigtimedwait(signals.as_ref(), std::ptr::null_mut(), &timeout) };
    Signal::try_from(signal).ok()
}

/// What a process uses of memory, resident and swapped, in bytes (0 once it is gone).
fn used_bytes(pid: Pid) -> u64 {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return 0;
    };
    let kib = |key: &str| -> u64 {
        status
            .lines()
            .find_map(|line| {
                line.strip_prefix(key)?
                    .trim()
                    .strip_suffix("kB")?
                    .trim()
                    .parse()
                    .ok()
            })
            .unwrap_or(0)
    };
    (kib("VmRSS:") + kib("VmSwap:")).saturating_mul(1024)
}

/// Every process that leaves the tree comes back to the keeper as an orphan.
pub const HOLDS_ORPHANS: bool = true;

/// Ties the keeper to the judge, `parent`, and makes it the tree's subreaper; whether it could.
pub fn arm(_parent: Pid, _memory_bytes: Option<u64>) -> bool {
    prctl::set_child_subreaper(true)
        .and_then(|()| prctl::set_pdeathsig(Signal::SIGTERM))
        .is_ok()
}

/// In the program's process between fork and exec, async-signal-safe: its address-space limit,
/// where one was asked for, and its own parent-death signal.
pub fn before_exec(address_space: Option<u64>) -> nix::Result<()> {
    if let Some(bytes) = address_space {
        setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
    }
    prctl::set_pdeathsig(Signal::SIGKILL)
}

/// Whether every sandboxed run may read `path`: it is in the system's shared folders.
pub fn read_by_every_run(path: &std::path::Path) -> bool {
    super::sandbox::SHARED
        .iter()
        .any(|shared| path.starts_with(shared))
}

/// What a run is sealed with on Linux besides the sandbox and its memory, which the keeper's
/// probe finds.
pub fn sealing(seal: &Seal) -> Sealing {
    let mut applied = vec!["process tree killed at the end of each run (child subreaper)".into()];
    if let Some(mb) = seal.address_space_mb {
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
    address_space: Option<u64>,
    guard: &Guard,
) -> Option<Sandboxed> {
    prepared(sandbox, program, address_space, guard, || {
        sandbox
            .holder
            .and_then(|pid| i32::try_from(pid).ok())
            .map_or(Namespaces::Fresh, Namespaces::Join)
    })
}

/// The holder's sandbox: it makes the user and network namespaces the runs will join, and
/// says what a run's sandbox comes to.
pub fn held(
    sandbox: &Sandbox,
    program: &std::path::Path,
    address_space: Option<u64>,
    guard: &Guard,
) -> Option<Sandboxed> {
    prepared(sandbox, program, address_space, guard, || {
        Namespaces::Held(super::namespaces::hold().is_ok())
    })
}

/// The sandbox prepared in the `namespaces` asked for then, unless it is off.
fn prepared(
    sandbox: &Sandbox,
    program: &std::path::Path,
    address_space: Option<u64>,
    guard: &Guard,
    namespaces: impl FnOnce() -> Namespaces,
) -> Option<Sandboxed> {
    (sandbox.mode != SandboxMode::Off).then(|| {
        let caps = guard.caps_tasks();
        prepare(sandbox, program, address_space, namespaces(), caps)
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
