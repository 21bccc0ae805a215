//! Unix: a sealed run is the judge's own binary as its keeper (`judge-keeper`, `keeper.rs`), in
//! a process group of its own, which starts the program below it under its limits, kills the
//! whole tree when the program ends or when asked to stop (SIGTERM), and reports on standard
//! error how the program ended. How the keeper finds and limits the tree is `linux.rs`'s or
//! `macos.rs`'s. Commands are written for a POSIX shell.

#[cfg(target_os = "linux")]
mod cgroup;
mod keeper;
#[cfg(target_os = "linux")]
mod namespaces;
#[cfg(target_os = "linux")]
mod sandbox;
#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod tree;
#[cfg(target_os = "macos")]
#[path = "macos.rs"]
mod tree;

use std::ffi::OsString;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

use keeper::Report;
pub use keeper::keep;

use super::{Ended, Exit, Seal, Sealing};

/// A program started under its keeper.
pub struct Sealed {
    keeper: Child,
    status: Option<ExitStatus>,
}

/// Ends a sealed run's tree from another thread: the keeper leads its process group.
#[derive(Clone, Debug)]
pub struct Stopper {
    group: Pid,
}

impl Stopper {
    /// Asks the keeper to kill everything below it and end.
    pub fn stop(&self) {
        let _ = kill(self.group, Signal::SIGTERM);
    }

    /// Kills the keeper's whole process group at once: the backstop.
    pub fn kill(&self) {
        let _ = killpg(self.group, Signal::SIGKILL);
    }
}

impl Sealed {
    /// Starts `path` with `args` sealed by `seal`, its three streams piped.
    pub fn start(path: &Path, args: &[OsString], seal: &Seal) -> io::Result<Sealed> {
        // Absolute: the program runs in a folder of its own when sandboxed.
        let keeper = keeper(seal)?
            .arg("--")
            .arg(std::path::absolute(path)?)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        Ok(Sealed {
            keeper,
            status: None,
        })
    }

    /// The program's standard input, output and error, the first time they are asked for.
    pub fn pipes(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        let keeper = &mut self.keeper;
        Some((
            keeper.stdin.take()?,
            keeper.stdout.take()?,
            keeper.stderr.take()?,
        ))
    }

    /// What ends the run's tree from another thread.
    pub fn stopper(&self) -> Stopper {
        // Pids fit an i32 on every Unix.
        let group = i32::try_from(self.keeper.id()).unwrap_or(i32::MAX);
        Stopper {
            group: Pid::from_raw(group),
        }
    }

    /// Waits until the program has ended and its keeper has cleared the tree.
    pub fn wait(&mut self) -> io::Result<()> {
        self.status = Some(self.keeper.wait()?);
        Ok(())
    }

    /// Ends the run the orderly way, so that the keeper clears up after it (the tree, the
    /// sandbox's folder and control group), and waits for it: two seconds at most, then it is
    /// killed outright.
    pub fn close(&mut self) {
        let stopper = self.stopper();
        stopper.stop();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.keeper.try_wait() {
                self.status = Some(status);
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        stopper.kill();
        let _ = self.wait();
    }

    /// How the run ended, read from the keeper's report at the end of `stderr` (which is taken
    /// off it); an error when the program could not be started at all.
    pub fn ended(self, stderr: &mut Vec<u8>) -> io::Result<Ended> {
        let Some(report) = Report::take(stderr) else {
            // The keeper itself was ended before it could report.
            let status = self.status.unwrap_or_else(|| ExitStatus::from_raw(0));
            let exit = match status.signal() {
                Some(signal) => Exit::Signal(
                    Signal::try_from(signal)
                        .map_or_else(|_| format!("signal {signal}"), |s| s.to_string()),
                ),
                None => Exit::Code(status.code().unwrap_or(-1)),
            };
            return Ok(Ended {
                exit,
                peak_kib: 0,
                left: 0,
                hits: Vec::new(),
            });
        };
        if let Some(why) = report.ended.strip_prefix("cannot start: ") {
            return Err(io::Error::other(why.to_string()));
        }
        let exit = match report.ended.split_once(' ') {
            Some(("exit", code)) => Exit::Code(code.parse().unwrap_or(-1)),
            Some(("signal", name)) => Exit::Signal(name.to_string()),
            _ if report.ended == "stopped" => Exit::Stopped,
            _ => Exit::Signal(report.ended.clone()),
        };
        Ok(Ended {
            exit,
            peak_kib: report.peak_kib,
            left: report.left,
            hits: report.hits,
        })
    }
}

/// A bare program name is looked for in `PATH` only, as a POSIX shell does.
pub const CURRENT_FOLDER_FIRST: bool = false;

/// What a program's name may leave out: nothing.
pub const IMPLIED_EXTENSION: Option<&str> = None;

/// Whether every sandboxed run may read `path` (on Linux, the system's shared folders; where
/// there is no sandbox of files, everything).
pub fn read_by_every_run(path: &Path) -> bool {
    tree::read_by_every_run(path)
}

/// Whether `path` is a file that may be executed.
pub fn executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `text` quoted for a POSIX shell where it needs to be.
pub fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `command` for the system's shell, with `variables` set and its standard error joined to
/// its standard output: the program and its arguments.
pub fn shell(command: &str, variables: &[(String, String)]) -> (std::path::PathBuf, Vec<OsString>) {
    let mut script = String::from("exec 2>&1\n");
    for (name, value) in variables {
        script.push_str(&format!("export {name}={}\n", quote(value)));
    }
    script.push_str(command);
    ("/bin/sh".into(), vec!["-c".into(), script.into()])
}

/// The shell script `NAME.cmd` that replays case `name` from the folder it is in: `run` (the
/// program's command line) with `NAME.in` on its standard input.
pub fn replay_script(run: &str, name: &str) -> String {
    format!(
        "#!/bin/sh\n# Replays case {name}: its output against {name}.expected.\n\
         cd \"$(dirname \"$0\")\" || exit 2\n{run} < {}\n",
        quote(&format!("{name}.in"))
    )
}

/// The keeper's command for `seal`, up to the program.
fn keeper(seal: &Seal) -> io::Result<Command> {
    let mut command = Command::new(std::env::current_exe()?);
    command.arg("judge-keeper");
    if let Some(mb) = seal.memory_mb {
        command.arg("--memory-mb").arg(mb.to_string());
    }
    if let Some(mb) = seal.address_space_mb {
        command.arg("--address-space-mb").arg(mb.to_string());
    }
    let sandbox = &seal.sandbox;
    command
        .args(["--sandbox", sandbox.mode.word()])
        .args(["--processes", &sandbox.processes.to_string()])
        .args(["--file-mb", &sandbox.file_mb.to_string()])
        .args(["--cpu-seconds", &sandbox.cpu_seconds.to_string()]);
    for folder in &sandbox.read {
        command.arg("--read").arg(folder);
    }
    if let Some(holder) = sandbox.holder {
        command.args(["--join", &holder.to_string()]);
    }
    if let Some(work) = &sandbox.work {
        command.arg("--work").arg(work);
    }
    Ok(command)
}

/// The keeper that holds the judge's namespaces (`--hold`), killed when this is dropped.
#[derive(Debug, Default)]
pub struct Holder {
    keeper: Option<Child>,
}

impl Holder {
    /// Its pid, while it holds.
    pub fn pid(&self) -> Option<u32> {
        self.keeper.as_ref().map(Child::id)
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            let _ = keeper.kill();
            let _ = keeper.wait();
        }
    }
}

/// What `seal` comes to here: the tree's sealing, and the sandbox as a keeper that sets it up
/// and runs nothing finds it; that keeper then holds the namespaces the runs join
/// (`--hold`) until the holder is dropped.
pub fn sealing(seal: &Seal) -> (Sealing, Holder) {
    let mut sealing = tree::sealing(seal);
    let started = keeper(seal).and_then(|mut command| {
        command
            .args(["--probe", "--hold", "--"])
            .arg(std::env::current_exe()?)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
    });
    let mut holder = Holder::default();
    match started {
        Ok(mut keeper) => {
            let stdout = keeper.stdout.take().map(std::io::BufReader::new);
            for line in stdout.into_iter().flat_map(std::io::BufRead::lines) {
                let Ok(line) = line else { break };
                match line.split_once('\t') {
                    Some(("applied", what)) => sealing.applied.push(what.to_string()),
                    Some(("missing", what)) => sealing.missing.push(what.to_string()),
                    _ if line == "holding" => break,
                    _ => {}
                }
            }
            holder.keeper = Some(keeper);
        }
        Err(err) => sealing
            .missing
            .push(format!("sandbox (its probe failed: {err})")),
    }
    (sealing, holder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_quoted_for_a_posix_shell() {
        assert_eq!(quote("./student"), "./student");
        assert_eq!(quote("two words"), "'two words'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        let script = replay_script("./student othello", "seed-1");
        assert!(script.starts_with("#!/bin/sh\n"), "{script}");
        assert!(
            script.ends_with("./student othello < seed-1.in\n"),
            "{script}"
        );
    }
}
