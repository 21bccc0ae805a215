//! Othello at the console: every prompt and line of the course's sample program, and the flow of
//! a game (pit count, pits, rounds, passes, the computer's moves and hints, the result). The
//! rules are the game's: this file only asks and reports.

use std::io::{BufRead, Write};

use super::console::{Console, Question};
use super::{DRAW, HINT, Opponents, Stop, hint};
use crate::board::{Outcome, Player};
use crate::othello::{Cell, Layout, Othello, PitError, Side, WithSide, computer_move};
use crate::rng::Rng;

/// Every line and prompt of the Othello transcript, as the course's sample program prints them.
mod text {
    pub const PIT_COUNT_PROMPT: &str = "Enter number of pits: ";
    pub const TOO_MANY_PITS: &str = "Too many pits!\n";
    pub const INVALID_NUMBER: &str = "Invalid number!\n";
    pub const INVALID_POSITION: &str = "Invalid position!\n";
    pub const INVALID_MOVE: &str = "Invalid move!\n";
    pub const GAME_OVER: &str = "Game over:\n";

    pub fn pit_prompt(k: usize) -> String {
        format!("Enter position for pit {k}: ")
    }

    pub fn round(r: usize) -> String {
        format!("Round {r}:\n")
    }

    pub fn turn_prompt(disc: char) -> String {
        format!("Player {disc}'s turn: ")
    }

    pub fn pass(disc: char) -> String {
        format!("Player {disc} has no valid moves! Pass!\n")
    }

    pub fn wins(disc: char) -> String {
        format!("Player {disc} wins!\n")
    }
}

/// A game of Othello to play at the console, once the board side is a type.
pub(super) struct Game<'a, R, W: Write> {
    /// Where the game is played.
    pub console: &'a mut Console<R, W>,
    /// The computer's part, if any.
    pub opponents: Opponents,
}

impl<R: BufRead, W: Write> WithSide for Game<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        play(Othello::<N>::new(), self.opponents, self.console)
    }
}

/// The character of `player`'s discs: `X` or `O`.
fn disc(player: Player) -> char {
    Cell::Disc(player).symbol()
}

/// Plays one game at the console: the pits, then rounds until the game is over.
fn play<const N: usize, R: BufRead, W: Write>(
    mut game: Othello<N>,
    opponents: Opponents,
    console: &mut Console<R, W>,
) -> Result<(), Stop>
where
    Side<N>: Layout,
{
    let pits = loop {
        let answer = console.ask(Question::PitCount, text::PIT_COUNT_PROMPT)?;
        match answer.count().map(Othello::<N>::check_pit_count) {
            None => console.say(text::INVALID_NUMBER)?,
            Some(Err(_)) => console.say(text::TOO_MANY_PITS)?,
            Some(Ok(pits)) => break pits,
        }
    };
    for k in 1..=pits {
        loop {
            let answer = console.ask(Question::Pit(k), text::pit_prompt(k))?;
            let placed = answer.coord().ok_or(PitError::OffBoard);
            if placed.and_then(|at| game.add_pit(at)).is_ok() {
                break;
            }
            console.say(text::INVALID_POSITION)?;
        }
    }

    let mut rng = Rng::new(opponents.seed);
    let mut round = 1;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        console.say(text::round(round))?;
        console.say(&game)?;
        let mover = disc(game.to_move());
        let by_computer = opponents.computer[game.to_move().index()];
        // Passing is allowed exactly when the player to move has no legal move.
        if game.pass().is_ok() {
            console.say(text::pass(mover))?;
        } else if by_computer {
            let at = computer_move(&game, opponents.level, &mut rng);
            // The player has a legal move, so the computer names one.
            if let Some(at) = at.filter(|&at| game.play(at).is_ok()) {
                console.say(format_args!("{}{at}\n", text::turn_prompt(mover)))?;
            }
        } else {
            loop {
                let answer = console.ask(Question::Move, text::turn_prompt(mover))?;
                if opponents.hints() && answer.is(HINT) {
                    if let Some(at) = computer_move(&game, opponents.level, &mut rng) {
                        console.say(hint(at))?;
                    }
                    continue;
                }
                let played = answer.coord().map(|at| game.play(at));
                if matches!(played, Some(Ok(_))) {
                    break;
                }
                console.say(text::INVALID_MOVE)?;
            }
        }
        round += 1;
    };

    console.say(text::GAME_OVER)?;
    console.say(&game)?;
    match outcome {
        Outcome::Won(player) => console.say(text::wins(disc(player))),
        Outcome::Draw => console.say(DRAW),
    }
}
