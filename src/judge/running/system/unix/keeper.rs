//! The keeper of one sealed run (`boardgames judge-keeper`, hidden): a small process between
//! the judge and the program. It holds the program's tree (`tree`: on Linux as a child
//! subreaper, on macOS by watching it), starts the program under its limits, goes when the
//! judge goes (even when the judge is SIGKILLed) and, asked to stop by SIGTERM or when the
//! program ends, kills everything below it before it goes. Its last act is one line on standard
//! error (after the program's own, which ended first) that says how the program ended, its peak
//! memory and how many processes it left behind; `unix/mod.rs` reads that line back.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

use nix::errno::Errno;
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid, getppid};

use super::super::Keeping;
use super::tree;

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
    // Blocked before anything else, so that every thread the keeper starts leaves the two
    // signals to the wait below.
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGTERM);
    signals.add(Signal::SIGCHLD);
    if signals.thread_block().is_err() {
        return ExitCode::FAILURE;
    }
    let bytes = keeping.memory_mb.map(|mb| mb.saturating_mul(1 << 20));
    // The judge may have gone before the keeper was tied to it.
    if !tree::arm(parent, bytes) || getppid() != parent {
        return ExitCode::FAILURE;
    }
    let Some((path, args)) = keeping.program.split_first() else {
        return ExitCode::FAILURE;
    };
    let mut command = Command::new(path);
    command.args(args);
    // SAFETY: the closure makes only async-signal-safe system calls (`tree::before_exec`'s,
    // sigprocmask) and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            tree::before_exec(bytes)?;
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
    let peak_kib = tree::peak_kib();
    let mut line = MARK.to_vec();
    line.extend_from_slice(format!("ended={ended}\tpeak_kib={peak_kib}\tleft={left}\n").as_bytes());
    let _ = std::io::stderr().write_all(&line);
    ExitCode::SUCCESS
}

/// Kills every process below the keeper, again until none is left (a process may fork while
/// it is being killed), and reaps them; how many were alive at first.
fn kill_below() -> usize {
    // Where the keeper holds every orphan below it, everything below has a child of it among
    // its ancestors: with no child left, there is nothing to look for.
    if tree::HOLDS_ORPHANS && waitpid(None, Some(WaitPidFlag::WNOHANG)) == Err(Errno::ECHILD) {
        return 0;
    }
    let me = getpid();
    let mut killed: HashSet<Pid> = HashSet::new();
    let mut first = None;
    for _ in 0..1000 {
        let below = tree::below(me);
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
    // Everything killed that is the keeper's to reap (on Linux, all of it) comes to it in the
    // end: wait for the last of it.
    while waitpid(None, None).is_ok() {}
    first.unwrap_or(0)
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
