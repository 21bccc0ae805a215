//! A classmate for the judge's tests, the same on Linux, macOS and Windows: a program that runs
//! another (the reference, or the student example) and passes its output on changed line by
//! line as `sed` would, or misbehaves: sleeps, floods, aborts, exits with a code, leaves a
//! process running behind it (in the background, or detached from its group and session), or
//! changes only after its first run. It stands in for the shell scripts the tests once wrote.
//! Its arguments are its command line or, when a file named like it with `.args` for its
//! extension sits beside it, that file's lines: so a copy of it, with its `.args`, is a
//! submission of a class, which the judge runs without arguments.
//!
//! `classmate [STEP...] [-- PROGRAM ARGS...]`, the steps in this order:
//! - `--beat FILE`: only this, for ever: append a byte to FILE every 20 ms (a process to find);
//! - `--sleeper FILE`: start a copy of itself that beats FILE, and do not wait for it;
//!   `--detached` starts it in a session of its own (Unix), or detached and asking to break
//!   away from the judge's job (Windows);
//! - `--sleep SECONDS`, `--abort`, `--flood` (write lines for ever);
//! - run PROGRAM, its output changed by `--replace FROM TO`, `--rewrite-from FROM TO` (FROM and
//!   the rest of its line become TO), `--delete TEXT` (the lines that hold it) and `--append
//!   TEXT` (at each line's end); `--first-run FILE`: while FILE is missing, make it and pass
//!   the output on unchanged, with exit status 0;
//! - `--time` (print the clock's nanoseconds: a different output every run), `--exit CODE`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

/// What the command line asks for.
#[derive(Default)]
struct Steps {
    beat: Option<PathBuf>,
    sleeper: Option<PathBuf>,
    detached: bool,
    sleep: Option<f64>,
    abort: bool,
    flood: bool,
    edits: Vec<Edit>,
    first_run: Option<PathBuf>,
    time: bool,
    exit: Option<i32>,
    program: Vec<String>,
}

/// A change to each line of the program's output.
enum Edit {
    Replace(String, String),
    RewriteFrom(String, String),
    Delete(String),
    Append(String),
}

fn main() {
    let steps = steps(arguments());
    if let Some(file) = &steps.beat {
        beat(file);
    }
    if let Some(file) = &steps.sleeper {
        start_sleeper(file, steps.detached);
    }
    if let Some(seconds) = steps.sleep {
        std::thread::sleep(Duration::from_secs_f64(seconds));
    }
    if steps.abort {
        std::process::abort();
    }
    let mut out = std::io::stdout().lock();
    if steps.flood {
        while out.write_all(b"flood\n").is_ok() {}
        return;
    }
    // The first run (its file missing, made now) plays it straight.
    let first = steps.first_run.as_ref().is_some_and(|file| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(file)
            .is_ok()
    });
    if let Some((program, args)) = steps.program.split_first() {
        let mut child = Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the program starts");
        let edits = if first { &[][..] } else { &steps.edits[..] };
        pass_on(child.stdout.take().expect("piped"), edits, &mut out);
        let _ = child.wait();
    }
    if steps.time {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let _ = writeln!(out, "{nanos}");
    }
    let _ = out.flush();
    if let Some(code) = steps.exit.filter(|_| !first) {
        std::process::exit(code);
    }
}

/// Passes `pipe` on to `out` with `edits` made to each line, as it comes: a line not ended yet
/// (a prompt, flushed before the program reads) is passed on at once, and the edits apply to
/// the rest of its line when that comes.
fn pass_on(mut pipe: impl Read, edits: &[Edit], out: &mut impl Write) {
    let mut buffer = vec![0; 1 << 16];
    let mut pending: Vec<u8> = Vec::new();
    while let Ok(read) = pipe.read(&mut buffer) {
        if read == 0 {
            break;
        }
        pending.extend_from_slice(&buffer[..read]);
        let mut passed = Vec::new();
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let mut line = String::from_utf8_lossy(&line[..end]).into_owned();
            let mut kept = true;
            for edit in edits {
                match edit {
                    Edit::Replace(from, to) => line = line.replace(from, to),
                    Edit::RewriteFrom(from, to) => {
                        if let Some(at) = line.find(from.as_str()) {
                            line.replace_range(at.., to);
                        }
                    }
                    Edit::Delete(text) => kept &= !line.contains(text),
                    Edit::Append(text) => line.push_str(text),
                }
            }
            if kept {
                passed.extend_from_slice(line.as_bytes());
                passed.push(b'\n');
            }
        }
        passed.append(&mut pending);
        if out.write_all(&passed).and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

/// The command line's arguments, or those of the `.args` file beside this program.
fn arguments() -> Vec<String> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::read_to_string(exe.with_extension("args")).ok());
    match beside {
        Some(text) => text.lines().map(String::from).collect(),
        None => std::env::args().skip(1).collect(),
    }
}

/// The steps of `args`.
fn steps(args: Vec<String>) -> Steps {
    let mut steps = Steps::default();
    let mut args = args.into_iter();
    let value = |args: &mut std::vec::IntoIter<String>, flag: &str| {
        args.next()
            .unwrap_or_else(|| panic!("{flag} takes a value"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--beat" => steps.beat = Some(value(&mut args, "--beat").into()),
            "--sleeper" => steps.sleeper = Some(value(&mut args, "--sleeper").into()),
            "--detached" => steps.detached = true,
            "--sleep" => steps.sleep = value(&mut args, "--sleep").parse().ok(),
            "--abort" => steps.abort = true,
            "--flood" => steps.flood = true,
            "--replace" => {
                let from = value(&mut args, "--replace");
                steps
                    .edits
                    .push(Edit::Replace(from, value(&mut args, "--replace")));
            }
            "--rewrite-from" => {
                let from = value(&mut args, "--rewrite-from");
                steps
                    .edits
                    .push(Edit::RewriteFrom(from, value(&mut args, "--rewrite-from")));
            }
            "--delete" => steps.edits.push(Edit::Delete(value(&mut args, "--delete"))),
            "--append" => steps.edits.push(Edit::Append(value(&mut args, "--append"))),
            "--first-run" => steps.first_run = Some(value(&mut args, "--first-run").into()),
            "--time" => steps.time = true,
            "--exit" => steps.exit = value(&mut args, "--exit").parse().ok(),
            "--" => {
                steps.program = args.collect();
                break;
            }
            other => panic!("unknown step {other}"),
        }
    }
    steps
}

/// Appends a byte to `file` every 20 ms, for ever.
fn beat(file: &Path) -> ! {
    loop {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(file)
        {
            let _ = f.write_all(b".");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts a copy of this program that beats `file`, in the background, and leaves it running:
/// it is what the judge must find and kill.
#[allow(clippy::zombie_processes)] // never waited for, on purpose
fn start_sleeper(file: &Path, detached: bool) {
    let sleeper = || {
        let mut command = Command::new(std::env::current_exe().expect("this program's path"));
        command
            .arg("--beat")
            .arg(file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let mut command = sleeper();
    if detached {
        detach(&mut command);
    }
    // A Windows job refuses a child that asks to break away: then it starts inside.
    if command.spawn().is_err() {
        sleeper().spawn().expect("the sleeper starts");
    }
}

/// Starts the command in a session of its own, out of its parent's process group.
#[cfg(unix)]
fn detach(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid is async-signal-safe and allocates nothing.
    unsafe {
        command.pre_exec(|| {
            nix::unistd::setsid()
                .map(|_| ())
                .map_err(std::io::Error::from)
        });
    }
}

/// Starts the command detached from the console, in a process group of its own, asking to
/// break away from the job it would be in.
#[cfg(windows)]
fn detach(command: &mut Command) {
    use std::os::windows::process::CommandExt;
    use windows_sys::Win32::System::Threading::{
        CREATE_BREAKAWAY_FROM_JOB, CREATE_NEW_PROCESS_GROUP, DETACHED_PROCESS,
    };
    command.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | CREATE_BREAKAWAY_FROM_JOB);
}
