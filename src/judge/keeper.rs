//! The keeper of one judged run (`boardgames judge-keeper`, hidden): a small process between
//! the judge and the program that seals the run. It is a child subreaper, so every process the
//! program starts stays below it even after `setsid()`; it starts the program under an
//! address-space limit with a parent-death signal; it dies with the judge (its own parent-death
//! signal, even when the judge is SIGKILLed) and, asked to stop by SIGTERM or when the program
//! ends, kills everything below it before it goes. Its last act is one line on standard error
//! (after the program's own, which ended first) that says how the program ended, its peak
//! memory and how many processes it left behind; `process.rs` reads that line back.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

use nix::errno::Errno;
use nix::sys::prctl;
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid, getppid};

/// What the keeper is asked to run.
#[derive(Clone, Debug)]
pub struct Keeping {
    /// The address-space limit of the program, in MiB.
    pub memory_mb: u64,
    /// The program and its arguments.
    pub program: Vec<OsString>,
}

/// The start of the keeper's report line.
pub const MARK: &[u8] = b"\x01boardgames-keeper:";

/// What the keeper's report line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `exit N`, `signal NAME`, `stopped` (asked to stop) or `cannot start: ...`.
    pub ended: String,
    /// The largest resident memory of the program or a process below it, in KiB.
    pub peak_kib: u64,
    /// Processes still running below the keeper when the program ended, all killed.
    pub left: usize,
}

impl Report {
    /// Splits a run's standard error into the program's part and the keeper's report.
    pub fn take(stderr: &mut Vec<u8>) -> Option<Report> {
        let at = stderr.windows(MARK.len()).rposition(|w| w == MARK)?;
        let line = String::from_utf8_lossy(&stderr[at + MARK.len()..]).into_owned();
        stderr.truncate(at);
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for field in line.trim_end().split('\t') {
            if let Some((key, value)) = field.split_once('=') {
                fields.insert(key, value);
            }
        }
        Some(Report {
            ended: fields.get("ended")?.to_string(),
            peak_kib: fields.get("peak_kib")?.parse().ok()?,
            left: fields.get("left")?.parse().ok()?,
        })
    }
}

/// Runs the program sealed, as the module says; the exit code is 0 unless the keeper itself
/// could not be set up.
pub fn keep(keeping: &Keeping) -> ExitCode {
    let parent = getppid();
    let sealed =
        prctl::set_child_subreaper(true).and_then(|()| prctl::set_pdeathsig(Signal::SIGTERM));
    // The judge may have gone before the parent-death signal was armed.
    if sealed.is_err() || getppid() != parent {
        return ExitCode::FAILURE;
    }
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGTERM);
    signals.add(Signal::SIGCHLD);
    if signals.thread_block().is_err() {
        return ExitCode::FAILURE;
    }
    let Some((path, args)) = keeping.program.split_first() else {
        return ExitCode::FAILURE;
    };
    let bytes = keeping.memory_mb.saturating_mul(1 << 20);
    let mut command = Command::new(path);
    command.args(args);
    // SAFETY: the closure makes only async-signal-safe system calls (setrlimit, prctl,
    // sigprocmask) and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
            prctl::set_pdeathsig(Signal::SIGKILL)?;
            SigSet::all().thread_unblock()?;
            Ok(())
        });
    }
    let child = match command.spawn() {
        Ok(child) => child,
        Err(err) => return report(&format!("cannot start: {err}"), 0),
    };
    let program = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let ended = loop {
        if signals.wait() == Ok(Signal::SIGTERM) {
            let _ = kill_below();
            return report("stopped", 0);
        }
        if let Some(ended) = reap(program) {
            break ended;
        }
    };
    let left = kill_below();
    report(&ended, left)
}

/// Reaps every child that has ended; how the program ended, if it has.
fn reap(program: Pid) -> Option<String> {
    let mut ended = None;
    loop {
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::Exited(pid, code)) if pid == program => {
                ended = Some(format!("exit {code}"));
            }
            Ok(WaitStatus::Signaled(pid, signal, _)) if pid == program => {
                ended = Some(format!("signal {signal}"));
            }
            Ok(WaitStatus::StillAlive) | Err(_) => return ended,
            Ok(_) => {}
        }
    }
}

/// Writes the report line and ends the keeper.
fn report(ended: &str, left: usize) -> ExitCode {
    let peak_kib = getrusage(UsageWho::RUSAGE_CHILDREN)
        .map_or(0, |usage| u64::try_from(usage.max_rss()).unwrap_or(0));
    let mut line = MARK.to_vec();
    line.extend_from_slice(format!("ended={ended}\tpeak_kib={peak_kib}\tleft={left}\n").as_bytes());
    let _ = std::io::stderr().write_all(&line);
    ExitCode::SUCCESS
}

/// Kills every process below the keeper, again until none is left (a process may fork while
/// it is being killed), and reaps them; how many were alive at first.
fn kill_below() -> usize {
    // Everything below a subreaper has a child of it among its ancestors: with no child left,
    // there is nothing to look for.
    if waitpid(None, Some(WaitPidFlag::WNOHANG)) == Err(Errno::ECHILD) {
        return 0;
    }
    let me = getpid();
    let mut killed: HashSet<Pid> = HashSet::new();
    let mut first = None;
    for _ in 0..1000 {
        let below = descendants(me);
        first.get_or_insert(below.len());
        if below.is_empty() {
            break;
        }
        for &pid in &below {
            let _ = kill(pid, Signal::SIGKILL);
            killed.insert(pid);
        }
        let _ = reap(me);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // Everything killed comes to the subreaper in the end: wait for the last of it.
    while waitpid(None, None).is_ok() {}
    first.unwrap_or(0)
}

/// The live processes below `root`, read from `/proc`.
fn descendants(root: Pid) -> Vec<Pid> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_line_is_taken_from_the_end_of_standard_error() {
        let mut stderr = b"oops\nstill going".to_vec();
        stderr.extend_from_slice(MARK);
        stderr.extend_from_slice(b"ended=signal SIGABRT\tpeak_kib=2048\tleft=1\n");
        let report = Report::take(&mut stderr);
        assert_eq!(stderr, b"oops\nstill going");
        assert_eq!(
            report,
            Some(Report {
                ended: "signal SIGABRT".into(),
                peak_kib: 2048,
                left: 1
            })
        );
        let mut plain = b"no report".to_vec();
        assert_eq!(Report::take(&mut plain), None);
        assert_eq!(plain, b"no report");
    }
}
