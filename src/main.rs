//! `boardgames`: parses the command line, hands standard input and output to the driver, and
//! turns the way a game stopped into an exit code and at most one line on standard error.

mod bitboard;
mod board;
mod cli;
mod computer;
mod driver;
mod generate;
mod mancala;
mod othello;
mod rng;
mod search;

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, Generate, GenerateArgs, Solve, VersusArgs};
use driver::{Generation, MancalaJob, Opponents, OthelloJob, Stop, Task};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match driver::run(task(cli), io::stdin().lock(), io::stdout().lock()) {
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

fn opponents(computer: Option<[bool; 2]>, vs: &VersusArgs) -> Opponents {
    Opponents {
        computer: computer.unwrap_or_default(),
        level: vs.level,
        seed: vs.seed,
        hints: vs.hints,
    }
}

fn generation(how: &GenerateArgs) -> Generation {
    Generation {
        seed: how.seed,
        errors: how.errors,
    }
}

/// What the command line asks the driver to do.
fn task(cli: Cli) -> Task {
    match cli.command {
        Command::Othello(args) => Task::Othello {
            side: args.side.size,
            job: OthelloJob::Play {
                echo: args.console.echo,
                opponents: opponents(args.computer, &args.vs),
            },
        },
        Command::Mancala(args) => Task::Mancala {
            pits: args.kalah.pits,
            stones: args.kalah.stones,
            job: MancalaJob::Play {
                echo: args.console.echo,
                opponents: opponents(args.computer, &args.vs),
            },
        },
        Command::Perft(args) => Task::Othello {
            side: args.board.side.size,
            job: OthelloJob::Perft {
                pits: args.board.pits,
                depth: args.depth,
            },
        },
        Command::Solve(Solve::Othello(args)) => Task::Othello {
            side: args.side.size,
            job: OthelloJob::Solve { pits: args.pits },
        },
        Command::Solve(Solve::Mancala(args)) => Task::Mancala {
            pits: args.pits,
            stones: args.stones,
            job: MancalaJob::Solve,
        },
        Command::Generate(Generate::Othello { side, how }) => Task::Othello {
            side: side.size,
            job: OthelloJob::Generate(generation(&how)),
        },
        Command::Generate(Generate::Mancala { kalah, how }) => Task::Mancala {
            pits: kalah.pits,
            stones: kalah.stones,
            job: MancalaJob::Generate(generation(&how)),
        },
    }
}
