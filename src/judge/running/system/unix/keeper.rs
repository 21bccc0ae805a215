//! The keeper of one sealed run (`boardgames judge-keeper`, hidden): a small process between
//! the judge and the program. It holds the program's tree (`tree`: on Linux as a child
//! subreaper, on macOS by watching it), starts the program under its limits, goes when the
//! judge goes (even when the judge is SIGKILLed) and, asked to stop by SIGTERM or when the
//! program ends, kills everything below it before it goes. Its last act is one line on standard
//! error (after the program's own, which ended first) that says how the program ended, its peak
//! memory and how many processes it left behind; `unix/mod.rs` reads that line back.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::{PipeReader, PipeWriter};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitCode};

use nix::errno::Errno;
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{ForkResult, Pid, fork, getpid, getppid};

use super::super::{Keeping, SandboxMode};
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
    /// The sandbox's limits the run reached.
    pub hits: Vec<String>,
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
            hits: fields
                .get("hit")
                .map(|h| {
                    h.split(',')
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// Runs the program sealed, as the module says; the exit code is 0 unless the keeper itself
/// could not be set up. With `--probe`, only prints what the sandbox comes to here, a line a
/// layer (`applied\t...`, `missing\t...`), and runs nothing.
pub fn keep(keeping: &Keeping) -> ExitCode {
    let parent = getppid();
    // Blocked before anything else, so that every thread and process the keeper starts leaves
    // the two signals to the wait below.
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGTERM);
    signals.add(Signal::SIGCHLD);
    if signals.thread_block().is_err() {
        return ExitCode::FAILURE;
    }
    let bytes = keeping.memory_mb.map(|mb| mb.saturating_mul(1 << 20));
    let space = keeping
        .address_space_mb
        .map(|mb| mb.saturating_mul(1 << 20));
    // The judge may have gone before the keeper was tied to it.
    if !tree::arm(parent, bytes) || getppid() != parent {
        return ExitCode::FAILURE;
    }
    let Some((path, args)) = keeping.program.split_first() else {
        return ExitCode::FAILURE;
    };
    // Made as the judge's user, before any namespace.
    let sandboxed = keeping.sandbox.mode != SandboxMode::Off;
    let mut guard = tree::Guard::new(bytes, sandboxed.then_some(keeping.sandbox.processes));
    if keeping.hold {
        // Says what a run's sandbox comes to, then holds the namespaces the runs join until
        // the judge ends (or ends it).
        let sandbox = tree::held(&keeping.sandbox, Path::new(path), space, &guard);
        probe(sandbox.as_ref(), &guard, keeping);
        if let Some(sandbox) = &sandbox {
            sandbox.clean();
        }
        guard.remove();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "holding").and_then(|()| out.flush());
        drop(out);
        while signals.wait() != Ok(Signal::SIGTERM) {}
        return ExitCode::SUCCESS;
    }
    let mut sandbox = tree::sandbox(&keeping.sandbox, Path::new(path), space, &guard);
    let clean = |sandbox: &Option<tree::Sandboxed>, guard: &tree::Guard| {
        if let Some(sandbox) = sandbox {
            sandbox.clean();
        }
        guard.remove();
    };
    if keeping.probe {
        probe(sandbox.as_ref(), &guard, keeping);
        clean(&sandbox, &guard);
        return ExitCode::SUCCESS;
    }
    let work = keeping.sandbox.work.clone();
    let started = start(sandbox.as_mut(), &guard, path, args, space, work);
    let (program, inner) = match started {
        Ok(started) => started,
        Err(why) => {
            clean(&sandbox, &guard);
            return report(&format!("cannot start: {why}"), 0, 0, &[]);
        }
    };
    // The run's tree is below the namespace's first process, or below the keeper.
    let watching = guard.watch(if inner.is_some() { program } else { getpid() });
    let ended = loop {
        let look = watching.then(|| guard.next_look());
        if tree::wait(&signals, look) == Some(Signal::SIGTERM) {
            let _ = kill_below();
            let peak = guard.peak_kib();
            clean(&sandbox, &guard);
            return report("stopped", peak, 0, &[]);
        }
        if let Some(ended) = reap(program) {
            break ended;
        }
        if watching {
            guard.look();
        }
    };
    let left = kill_below();
    // The run's first process, when it had a namespace, tells how the program itself ended.
    let (ended, left) = inner.map_or((ended, left), told);
    let mut hits = guard.hits();
    hits.extend(
        sandbox
            .as_ref()
            .map(tree::Sandboxed::hits)
            .unwrap_or_default(),
    );
    let peak = guard.peak_kib();
    clean(&sandbox, &guard);
    report(&ended, peak, left, &hits)
}

/// Prints what the sandbox and the memory limit come to, for the judge's probe.
fn probe(sandbox: Option<&tree::Sandboxed>, guard: &tree::Guard, keeping: &Keeping) {
    let mut out = std::io::stdout().lock();
    if let Some(memory) = guard.sealing(keeping.memory_mb) {
        let _ = writeln!(out, "applied\t{memory}");
    }
    match sandbox {
        Some(sandbox) => {
            let sealing = sandbox.sealing();
            for layer in &sealing.applied {
                let _ = writeln!(out, "applied\t{layer}");
            }
            for layer in &sealing.missing {
                let _ = writeln!(out, "missing\t{layer}");
            }
        }
        None if keeping.sandbox.mode == SandboxMode::Off => {
            let _ = writeln!(
                out,
                "missing\tsandbox (off: the program runs with the grader's rights)"
            );
        }
        None => {}
    }
}

/// Starts the program: plainly, in the sandbox, or, where the sandbox has namespaces, under
/// the namespace's first process (`init`, a fork of the keeper), which starts the program,
/// reaps what it leaves and tells the keeper how it ended. What the keeper waits for, and
/// `init`'s pipe.
/// The program is born in the run's control groups.
fn start(
    sandbox: Option<&mut tree::Sandboxed>,
    guard: &tree::Guard,
    path: &OsString,
    args: &[OsString],
    space: Option<u64>,
    work: Option<std::path::PathBuf>,
) -> Result<(Pid, Option<PipeReader>), String> {
    let joiner = guard.joiner();
    let Some(sandbox) = sandbox else {
        let mut command = Command::new(path);
        command.args(args);
        if let Some(work) = &work {
            command.current_dir(work);
        }
        // SAFETY: the closure makes only async-signal-safe system calls (`tree::before_exec`'s,
        // the groups' open and write, sigprocmask) and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                tree::before_exec(space)?;
                joiner.join();
                SigSet::all().thread_unblock()?;
                Ok(())
            });
        }
        return spawned(&mut command).map(|pid| (pid, None));
    };
    if let Some(why) = sandbox.refusal() {
        return Err(why);
    }
    let command = |sandbox: &mut tree::Sandboxed| {
        let mut command = sandbox.command(path, args, joiner.clone());
        // SAFETY: sigprocmask only, after the sandbox's own steps.
        unsafe {
            command.pre_exec(|| Ok(SigSet::all().thread_unblock()?));
        }
        command
    };
    if !sandbox.is_namespaced() {
        return spawned(&mut command(sandbox)).map(|pid| (pid, None));
    }
    let (read, write) = std::io::pipe().map_err(|e| format!("a pipe: {e}"))?;
    // SAFETY: the keeper has one thread, so the child may do what a process may.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => {
            drop(read);
            // The run's own /proc is mounted before the program's command takes the rules.
            sandbox.enter_run();
            init(&mut command(sandbox), write)
        }
        Ok(ForkResult::Parent { child }) => Ok((child, Some(read))),
        Err(err) => Err(format!("the namespace's first process: {}", err.desc())),
    }
}

/// `command` spawned; its pid.
fn spawned(command: &mut Command) -> Result<Pid, String> {
    let child = command.spawn().map_err(|e| e.to_string())?;
    Ok(Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX)))
}

/// The namespace's first process: starts the program, waits for it (reaping every orphan of
/// the namespace on the way), counts what it left, tells the keeper, and ends, which ends
/// every process of the namespace.
fn init(command: &mut Command, pipe: PipeWriter) -> ! {
    let (ended, left) = match spawned(command) {
        Err(why) => (format!("cannot start: {why}"), 0),
        Ok(program) => loop {
            match waitpid(None, None) {
                Ok(WaitStatus::Exited(pid, code)) if pid == program => {
                    break (format!("exit {code}"), left_below_self());
                }
                Ok(WaitStatus::Signaled(pid, signal, _)) if pid == program => {
                    break (format!("signal {signal}"), left_below_self());
                }
                Ok(_) => {}
                Err(_) => break ("exit -1".to_string(), 0),
            }
        },
    };
    tell(pipe, &ended, left);
    // SAFETY: ends this forked process at once, running nothing of the keeper's.
    unsafe { nix::libc::_exit(0) }
}

/// The descendants of this process still alive, read from `/proc` (whose numbers are those of
/// the namespace outside, where it was mounted): what a run left running when its program
/// ended.
fn left_below_self() -> usize {
    let me: Option<i32> = std::fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str()?.parse().ok());
    me.map_or(0, |me| tree::below(Pid::from_raw(me)).len())
}

/// What `init` tells the keeper through `pipe`: how the program ended and what it left.
fn tell(mut pipe: PipeWriter, ended: &str, left: usize) {
    let _ = writeln!(pipe, "ended={ended}\tleft={left}");
}

/// How the program ended and what it left, as `init` told it through `pipe`; the keeper's own
/// view when `init` said nothing (it was killed).
fn told(mut pipe: PipeReader) -> (String, usize) {
    let mut text = String::new();
    let _ = pipe.read_to_string(&mut text);
    let mut fields: HashMap<&str, &str> = HashMap::new();
    for field in text.trim_end().split('\t') {
        if let Some((key, value)) = field.split_once('=') {
            fields.insert(key, value);
        }
    }
    let ended = fields
        .get("ended")
        .map_or("signal SIGKILL", |e| e)
        .to_string();
    let left = fields.get("left").and_then(|l| l.parse().ok()).unwrap_or(0);
    (ended, left)
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
fn report(ended: &str, peak_kib: u64, left: usize, hits: &[&str]) -> ExitCode {
    let hit = hits.join(",");
    let mut line = MARK.to_vec();
    line.extend_from_slice(
        format!("ended={ended}\tpeak_kib={peak_kib}\tleft={left}\thit={hit}\n").as_bytes(),
    );
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
                left: 1,
                hits: Vec::new(),
            })
        );
        let mut plain = b"no report".to_vec();
        assert_eq!(Report::take(&mut plain), None);
        assert_eq!(plain, b"no report");
    }
}
