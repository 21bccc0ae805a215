//! `boardgames`: parses the command line, hands standard input and output to the console, a
//! tool, a match or the judge, and turns the way it stopped into an exit code and at most one
//! line on standard error.

mod board;
mod cli;
mod driver;
mod judge;
mod mancala;
mod matches;
mod othello;
mod progress;
mod rng;
mod tools;
mod worker;
mod zeroed;

use std::io::{self, ErrorKind, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use cli::{Cli, Invocation};
use driver::{Showing, Stop, Task};
use judge::{Judging, Outcome};

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(report_panic));
    let invocation = Cli::from_args()
        .invocation()
        .unwrap_or_else(|err| err.exit());
    let code = run(invocation);
    // A panic in a thread that nobody joins (one that only feeds a pipe) ends the program as
    // one that reached this thread would.
    if PANICKED.load(Ordering::SeqCst) {
        return ExitCode::from(INTERNAL_ERROR);
    }
    code
}

/// The exit code of an internal error: a panic, in any thread (the code Rust gives a panic
/// that ends `main`).
const INTERNAL_ERROR: u8 = 101;

/// Whether some thread has panicked.
static PANICKED: AtomicBool = AtomicBool::new(false);

/// The panic hook: the first panic, in whatever thread, is one `error:` line on standard error,
/// with its message and where it happened; the panic then ends the program with exit code
/// [`INTERNAL_ERROR`], carried to `main` by the thread that joins its thread.
fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    if PANICKED.swap(true, Ordering::SeqCst) {
        return;
    }
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    let place = info
        .location()
        .map_or_else(String::new, |at| format!(" at {}:{}", at.file(), at.line()));
    // One line, however many the message has.
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    eprintln!("error: internal error (a bug in boardgames): {message}{place}");
}

/// Runs what the command line asks; the exit code says how it stopped.
fn run(invocation: Invocation) -> ExitCode {
    match invocation {
        Invocation::Play(task, showing) => play(task, showing),
        Invocation::Tool(tool) => {
            let stdout = io::stdout();
            let live = stdout.is_terminal();
            finish(tools::run(tool, live, io::stdin().lock(), stdout.lock()))
        }
        Invocation::Arena(contest) => {
            let stdout = io::stdout();
            let live = stdout.is_terminal();
            finish(matches::arena(
                &contest,
                live,
                io::stdin().lock(),
                stdout.lock(),
            ))
        }
        Invocation::Judge(judging) => grade(&judging),
        Invocation::Merge(files, format) => merge(&files, format),
        Invocation::Relay(relaying) => pass_on(&relaying),
        Invocation::Keep(keeping) => judge::keep(&keeping),
    }
}

/// Plays a console game, live when standard output is a terminal (and in colour where it takes
/// colour, if the console is friendly); the exit code says how it stopped.
fn play(task: Task, showing: Showing) -> ExitCode {
    let stdout = io::stdout();
    let showing = Showing {
        live: stdout.is_terminal(),
        colour: showing.friendly
            && anstream::AutoStream::choice(&stdout) != anstream::ColorChoice::Never,
        ..showing
    };
    end_on_interrupt(showing);
    finish(driver::run(
        task,
        showing,
        io::stdin().lock(),
        stdout.lock(),
    ))
}

/// The exit code of a game ended by Ctrl-C (or by the terminal closing), as of an interrupted
/// judge.
const INTERRUPTED: u8 = 130;

/// Makes Ctrl-C end a game cleanly on every system: the console's colours restored, an open
/// prompt line ended (on a terminal), one `error:` line and exit 130. Standard output stays
/// the game's (its lock is held while the game reads), so this writes to standard error.
fn end_on_interrupt(showing: Showing) {
    // Only one handler a process: a game is the only work of its process.
    let _ = ctrlc::set_handler(move || {
        // anstream turns the reset into console calls where the console takes no escapes.
        let mut stderr = anstream::stderr();
        if showing.colour {
            let _ = write!(stderr, "{}", anstyle::Reset.render());
        }
        let open_line = if showing.live { "\n" } else { "" };
        let _ = writeln!(stderr, "{open_line}error: interrupted");
        let _ = stderr.flush();
        std::process::exit(i32::from(INTERRUPTED));
    });
}

/// The exit code of a console game, tool or arena that stopped as `stopped` says, after its one
/// error line, if any.
fn finish(stopped: Result<(), Stop>) -> ExitCode {
    match stopped {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever closed our standard output has stopped listening: end quietly.
        Err(Stop::Io(err)) if err.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(stop) => {
            eprintln!("error: {stop}");
            match stop {
                // A pit the board cannot take is a mistake in the arguments.
                Stop::Pit(..) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

/// Runs a judging and prints its report: exit 0 when every case is accepted, 1 when one is not,
/// 2 when the judging could not be carried out, 130 when interrupted.
fn grade(judging: &Judging) -> ExitCode {
    match judge::judge(judging) {
        Ok((report, outcome)) => {
            let mut stdout = io::stdout().lock();
            let written = stdout.write_all(&report).and_then(|()| stdout.flush());
            if let Err(err) = written
                && err.kind() != ErrorKind::BrokenPipe
            {
                eprintln!("error: {err}");
                return ExitCode::from(2);
            }
            match outcome {
                Outcome::AllAccepted => ExitCode::SUCCESS,
                Outcome::SomeFailed => ExitCode::FAILURE,
                Outcome::Interrupted => {
                    eprintln!("error: interrupted: the report covers only the cases judged before");
                    ExitCode::from(INTERRUPTED)
                }
            }
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Merges the shards' reports into the class table: exit 0 when merged, 2 (one error line)
/// when refused or unreadable.
fn merge(files: &[std::path::PathBuf], format: judge::Format) -> ExitCode {
    let table = match judge::merge(files, format) {
        Ok(table) => table,
        Err(err) => {
            eprintln!("error: {err:#}");
            return ExitCode::from(2);
        }
    };
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&table).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != ErrorKind::BrokenPipe => {
            eprintln!("error: {err}");
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// Runs a relay, each game's line written as it ends: exit 0 when every game was played, 1
/// (with one error line) when a program failed it, 2 when the board cannot take the pits or a
/// program cannot be run at all.
fn pass_on(relaying: &matches::Relaying) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match matches::relay(relaying, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err)
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|err| err.kind() == ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            let usage = matches!(err.downcast_ref::<Stop>(), Some(Stop::Pit(..)))
                || err.downcast_ref::<judge::CannotRun>().is_some();
            if usage {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
