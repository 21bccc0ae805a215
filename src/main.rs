//! `boardgames`: parses the command line, hands standard input and output to the driver, and
//! turns the way a game stopped into an exit code and at most one line on standard error.

mod board;
mod cli;
mod driver;
mod mancala;
mod othello;
#[cfg(test)]
mod testkit;

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Game};
use driver::{Setup, Stop};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever closed our standard output has stopped listening: end quietly.
        Err(Stop::Io(err)) if err.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(stop) => {
            eprintln!("error: {stop}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), Stop> {
    let (setup, echo) = match &cli.game {
        Game::Othello(args) => (Setup::Othello { side: args.size }, args.console.echo),
        Game::Mancala(args) => (
            Setup::Mancala {
                pits: args.pits,
                stones: args.stones,
            },
            args.console.echo,
        ),
    };
    driver::run(setup, io::stdin().lock(), io::stdout().lock(), echo)
}
