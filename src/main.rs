//! `boardgames`: parses the command line, hands standard input and output to the driver, and
//! turns the way a game stopped into an exit code and at most one line on standard error.

mod board;
mod cli;
mod driver;
mod generate;
mod mancala;
mod othello;
mod rng;

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;

use cli::Cli;
use driver::Stop;

fn main() -> ExitCode {
    let (task, echo) = Cli::parse().task();
    match driver::run(task, echo, io::stdin().lock(), io::stdout().lock()) {
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
