//! The flags of the games, `boardgames othello` and `boardgames mancala`: the board, the
//! computer's part (who it plays, its level and seed, hints) and how the console shows the game.

use clap::Args;

use super::common::{KalahArgs, SEED, SideArgs, parse_level, parse_seed, usage_error};
use crate::driver::{Opponents, Showing, Task};

/// The computer's level when none is given.
const LEVEL: u32 = 5;

/// Flags of `boardgames othello`.
#[derive(Debug, Args)]
pub struct OthelloArgs {
    #[command(flatten)]
    pub side: SideArgs,
    /// Let the computer play X, O, or both.
    #[arg(long, value_name = "X|O|both", allow_negative_numbers = true, value_parser = parse_othello_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

/// Flags of `boardgames mancala`.
#[derive(Debug, Args)]
pub struct MancalaArgs {
    #[command(flatten)]
    pub kalah: KalahArgs,
    /// Let the computer play Player 1, Player 2, or both.
    #[arg(long, value_name = "1|2|both", allow_negative_numbers = true, value_parser = parse_mancala_computer)]
    pub computer: Option<[bool; 2]>,
    #[command(flatten)]
    pub vs: VersusArgs,
    #[command(flatten)]
    pub console: ConsoleArgs,
}

impl OthelloArgs {
    /// The game, and how the console shows it.
    pub(super) fn task(self) -> Result<(Task, Showing), clap::Error> {
        let opponents = self.vs.opponents(self.computer)?;
        let side = self.side.size;
        Ok((
            Task::PlayOthello { side, opponents },
            self.console.showing(),
        ))
    }
}

impl MancalaArgs {
    /// The game, and how the console shows it.
    pub(super) fn task(self) -> Result<(Task, Showing), clap::Error> {
        let opponents = self.vs.opponents(self.computer)?;
        let board = self.kalah.board();
        Ok((
            Task::PlayMancala { board, opponents },
            self.console.showing(),
        ))
    }
}

/// Flags of playing against the computer.
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// The computer's strength, 1 to 10 (needs --computer or --hints): level 1 plays as a
    /// beginner (Othello: the move that flips the most discs; Kalah: two sowings ahead) and
    /// sometimes at random, each level above looks further and plays the end perfectly from
    /// earlier on [default: 5].
    #[arg(long, value_name = "L", allow_negative_numbers = true, value_parser = parse_level)]
    pub level: Option<u32>,
    /// Seed of the computer's choices among equally good moves (needs --computer or --hints)
    /// [default: 1].
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Answer ? at a prompt with a suggested move (on whenever the computer plays).
    #[arg(long)]
    pub hints: bool,
}

impl VersusArgs {
    /// The opponents of a game where the computer plays `computer` (by player index), if any;
    /// the usage error when a level or seed is given with no computer to take it.
    fn opponents(&self, computer: Option<[bool; 2]>) -> Result<Opponents, clap::Error> {
        if computer.is_none() && !self.hints && (self.level.is_some() || self.seed.is_some()) {
            return Err(usage_error(
                "--level and --seed are for the computer: add --computer or --hints",
            ));
        }
        Ok(Opponents {
            computer: computer.unwrap_or_default(),
            level: self.level.unwrap_or(LEVEL),
            seed: self.seed.unwrap_or(SEED),
            hints: self.hints,
        })
    }
}

/// Flags every game shares.
#[derive(Debug, Args)]
pub struct ConsoleArgs {
    /// Write every token read back to the output, as a terminal would show it.
    #[arg(long)]
    pub echo: bool,
    /// Help a person play: prompts that say what can be typed (? for a hint, help, quit),
    /// limits and reasons in the error lines, the legal moves, the last move, the counts and
    /// the final score, in colour on a terminal (unless NO_COLOR is set). Without it the
    /// output is the course's text, byte for byte.
    #[arg(long)]
    pub friendly: bool,
}

impl ConsoleArgs {
    fn showing(&self) -> Showing {
        Showing {
            echo: self.echo,
            friendly: self.friendly,
            ..Showing::default()
        }
    }
}

/// Which players the computer takes, by index, from their names in this game.
fn computer_players(text: &str, first: &str, second: &str) -> Result<[bool; 2], String> {
    match text {
        t if t.eq_ignore_ascii_case(first) => Ok([true, false]),
        t if t.eq_ignore_ascii_case(second) => Ok([false, true]),
        t if t.eq_ignore_ascii_case("both") => Ok([true, true]),
        _ => Err(format!("allowed values are {first}, {second} and both")),
    }
}

fn parse_othello_computer(text: &str) -> Result<[bool; 2], String> {
    computer_players(text, "X", "O")
}

fn parse_mancala_computer(text: &str) -> Result<[bool; 2], String> {
    computer_players(text, "1", "2")
}
