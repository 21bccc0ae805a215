//! Othello at the console: every prompt and line of the course's sample program, and the flow of
//! a game (pit count, pits, rounds, passes, the computer's moves and hints, the result). The
//! rules are the game's: this file only asks and reports.

use std::io::{BufRead, Write};

use super::console::{Console, Question};
use super::{DRAW, HINT, Opponents, Stop, friendly, hint};
use crate::board::{Coord, Outcome, Player};
use crate::othello::{Cell, Layout, Memory, Othello, PitError, Side, WithSide, computer_move};
use crate::rng::Rng;

/// Every line and prompt of the Othello transcript, as the course's sample program prints them.
pub(super) mod text {
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

    /// The friendly console's additions (`--friendly`), never part of the course's text.
    pub mod friendly {
        use crate::board::Coord;
        use crate::othello::MoveError;

        /// Marks a legal move of the player to move on the friendly board.
        pub const LEGAL: char = '*';

        /// What `help` prints.
        pub const HELP: &str = "Type a move as a column letter and a row number, like D3: it must \
                                close a line of the other colour. The legal moves are marked * on \
                                the board. ? suggests a move; quit ends the game.\n";

        pub fn pit_count_prompt(most: usize) -> String {
            format!("Enter number of pits (0 to {most}): ")
        }

        pub fn too_many_pits(most: usize) -> String {
            format!("Too many pits! At most {most}, half the board.\n")
        }

        pub fn turn_prompt(disc: char) -> String {
            format!("Player {disc}'s turn (a cell like D3, ? for a hint, help): ")
        }

        pub fn invalid_pit(at: Option<Coord>, why: Option<crate::othello::PitError>) -> String {
            use crate::othello::PitError;
            let reason = match (at, why) {
                (Some(at), Some(PitError::Centre)) => format!("{at} is a centre cell."),
                (Some(at), Some(PitError::AlreadyPit)) => format!("{at} is a pit already."),
                (Some(at), Some(PitError::OffBoard)) => format!("{at} is off the board."),
                (Some(at), Some(_)) => format!("{at} cannot hold a pit."),
                _ => "Type a column letter and a row number, like A1.".to_string(),
            };
            format!("Invalid position! {reason}\n")
        }

        pub fn counts(x: usize, o: usize) -> String {
            format!("Discs: X {x}, O {o}.")
        }

        pub fn last_move(disc: char, at: Coord, flipped: usize) -> String {
            let s = if flipped == 1 { "" } else { "s" };
            format!(" Last move: {disc} {at}, {flipped} disc{s} flipped.")
        }

        pub fn legal_moves(disc: char, moves: &[Coord]) -> String {
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            format!(
                "Player {disc} can play ({LEGAL} on the board): {}\n",
                list.join(" ")
            )
        }

        /// Why a typed move was refused.
        pub fn refused(
            token: Option<&str>,
            reason: Option<(Coord, MoveError)>,
            pit: bool,
        ) -> String {
            match (reason, token) {
                (Some((at, MoveError::OffBoard)), _) => format!("{at} is off the board."),
                (Some((at, MoveError::Occupied)), _) if pit => {
                    format!("{at} is a pit: no one may play there.")
                }
                (Some((at, MoveError::Occupied)), _) => format!("{at} is taken."),
                (Some((at, MoveError::NoFlips)), _) => {
                    format!("{at} flips no discs: a move must close a line of the other colour.")
                }
                (Some(_), _) => "no move can be played now.".to_string(),
                // Quoted with escapes, so that no control character reaches the terminal.
                (None, Some(token)) => format!(
                    "{token:?} is not a cell: type a column letter and a row number, like D3."
                ),
                (None, None) => {
                    "That is not a cell: type a column letter and a row number, like D3."
                        .to_string()
                }
            }
        }

        /// The command that reviews the game just played: its pit count, pits and moves.
        pub fn review(side: usize, pits: usize, typed: &[Coord]) -> String {
            let typed: Vec<String> = typed.iter().map(ToString::to_string).collect();
            format!(
                "To see where this game was won and lost: echo {pits} {} | boardgames review \
                 othello --size {side}\n",
                typed.join(" ")
            )
        }

        pub fn final_score(x: usize, o: usize) -> String {
            format!("Final score: X {x}, O {o}.\n")
        }
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
pub(super) fn disc(player: Player) -> char {
    Cell::Disc(player).symbol()
}

/// Why the computer always has a move to name where the console asks it for one: the
/// player to move has one (a player without one passes before the computer is asked).
const HAS_A_MOVE: &str = "the computer names a move where the player to move has one";

/// Plays one game at the console: the pits, then rounds until the game is over.
fn play<const N: usize, R: BufRead, W: Write>(
    mut game: Othello<N>,
    opponents: Opponents,
    console: &mut Console<R, W>,
) -> Result<(), Stop>
where
    Side<N>: Layout,
{
    let friendly = console.showing.friendly;
    let most = N * N / 2;
    let pits = loop {
        let prompt = if friendly {
            text::friendly::pit_count_prompt(most)
        } else {
            text::PIT_COUNT_PROMPT.to_string()
        };
        let answer = console.ask(Question::PitCount, prompt)?;
        match answer.count().map(Othello::<N>::check_pit_count) {
            None => console.say(text::INVALID_NUMBER)?,
            Some(Err(_)) if friendly => console.say(text::friendly::too_many_pits(most))?,
            Some(Err(_)) => console.say(text::TOO_MANY_PITS)?,
            Some(Ok(pits)) => break pits,
        }
    };
    // The pits and moves as played, for the friendly console's review line.
    let mut typed: Vec<Coord> = Vec::new();
    for k in 1..=pits {
        loop {
            let answer = console.ask(Question::Pit(k), text::pit_prompt(k))?;
            let at = answer.coord();
            match at.ok_or(PitError::OffBoard).and_then(|at| game.add_pit(at)) {
                Ok(()) => {
                    typed.extend(at);
                    break;
                }
                Err(why) if friendly => {
                    console.say(text::friendly::invalid_pit(at, at.map(|_| why)))?;
                }
                Err(_) => console.say(text::INVALID_POSITION)?,
            }
        }
    }

    let mut rng = Rng::new(opponents.seed);
    // What the computer keeps of each side's searches, for its moves or its hints.
    let mut memories: [Memory<N>; 2] = Default::default();
    let mut round = 1;
    // The last move, who made it and how many discs it flipped (for the friendly console).
    let mut last: Option<(Player, Coord, usize)> = None;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        console.say(text::round(round))?;
        if console.showing.friendly {
            let board = friendly_board(&game, last, console.showing.colour);
            console.say(board)?;
        } else {
            console.say(&game)?;
        }
        let mover = disc(game.to_move());
        let by_computer = opponents.computer[game.to_move().index()];
        // Passing is allowed exactly when the player to move has no legal move.
        if game.pass().is_ok() {
            console.say(text::pass(mover))?;
        } else if by_computer {
            let memory = &mut memories[game.to_move().index()];
            let at = computer_move(&game, opponents.level, memory, &mut rng)?.expect(HAS_A_MOVE);
            let flipped = game.play(at).expect("the computer names a legal move");
            console.say(format_args!("{}{at}\n", text::turn_prompt(mover)))?;
            last = Some((game.to_move().opponent(), at, flipped));
            typed.push(at);
        } else {
            let player = game.to_move();
            if friendly {
                let moves: Vec<Coord> = game.legal_moves().collect();
                console.say(text::friendly::legal_moves(mover, &moves))?;
            }
            loop {
                let prompt = if friendly {
                    text::friendly::turn_prompt(mover)
                } else {
                    text::turn_prompt(mover)
                };
                let hints = opponents.hints(&console.showing);
                let answer = console.ask(Question::Move, prompt)?;
                if friendly && answer.is(friendly::HELP) {
                    console.say(text::friendly::HELP)?;
                    continue;
                }
                if friendly && answer.is(friendly::QUIT) {
                    return console.say(friendly::quit(&format!("Player {mover}")));
                }
                if hints && answer.is(HINT) {
                    let memory = &mut memories[player.index()];
                    let at =
                        computer_move(&game, opponents.level, memory, &mut rng)?.expect(HAS_A_MOVE);
                    console.say(hint(at))?;
                    continue;
                }
                let played = answer.coord().map(|at| (at, game.play(at)));
                match played {
                    Some((at, Ok(flipped))) => {
                        last = Some((player, at, flipped));
                        typed.push(at);
                        break;
                    }
                    refused if friendly => {
                        let reason = refused.and_then(|(at, played)| Some((at, played.err()?)));
                        let pit = reason.is_some_and(|(at, _)| game.cell(at) == Cell::Pit);
                        let why = text::friendly::refused(answer.text(), reason, pit);
                        let line = text::INVALID_MOVE.replace('\n', &format!(" {why}\n"));
                        console.say(line)?;
                    }
                    _ => console.say(text::INVALID_MOVE)?,
                }
            }
        }
        round += 1;
    };

    console.say(text::GAME_OVER)?;
    if console.showing.friendly {
        let board = friendly_board(&game, last, console.showing.colour);
        console.say(board)?;
    } else {
        console.say(&game)?;
    }
    match outcome {
        Outcome::Won(player) => console.say(text::wins(disc(player)))?,
        Outcome::Draw => console.say(DRAW)?,
    }
    if console.showing.friendly {
        let count = |player| game.count(Cell::Disc(player));
        let (x, o) = (count(Player::First), count(Player::Second));
        console.say(text::friendly::final_score(x, o))?;
        console.say(text::friendly::review(N, pits, &typed))?;
    }
    Ok(())
}

/// The board as the friendly console shows it: the course's layout, with the legal moves of
/// the player to move marked, then a line of disc counts and the last move. With `colour`,
/// the discs are coloured and the last move stands out.
fn friendly_board<const N: usize>(
    game: &Othello<N>,
    last: Option<(Player, Coord, usize)>,
    colour: bool,
) -> String
where
    Side<N>: Layout,
{
    use anstyle::{AnsiColor, Style};
    let legal: Vec<Coord> = game.legal_moves().collect();
    let style = |cell: Cell, at: Coord| {
        let base = match cell {
            _ if legal.contains(&at) => Style::new().fg_color(Some(AnsiColor::Green.into())),
            Cell::Disc(Player::First) => Style::new().bold(),
            Cell::Disc(Player::Second) => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
            _ => Style::new().dimmed(),
        };
        if last.is_some_and(|(_, moved, _)| moved == at) {
            base.fg_color(Some(AnsiColor::Yellow.into()))
                .bold()
                .underline()
        } else {
            base
        }
    };
    let mut out = String::from("  ");
    for letter in (b'A'..).take(N) {
        out.push(' ');
        out.push(char::from(letter));
    }
    out.push('\n');
    for row in 0..N {
        out += &format!("{:>2} ", row + 1);
        for col in 0..N {
            let Some(at) = Coord::new(col, row, N) else {
                continue;
            };
            let cell = game.cell(at);
            let symbol = if legal.contains(&at) {
                text::friendly::LEGAL
            } else {
                cell.symbol()
            };
            if colour {
                let style = style(cell, at);
                out += &format!("{style}{symbol}{style:#} ");
            } else {
                out.push(symbol);
                out.push(' ');
            }
        }
        out.push('\n');
    }
    let count = |player| game.count(Cell::Disc(player));
    out += &text::friendly::counts(count(Player::First), count(Player::Second));
    if let Some((player, at, flipped)) = last {
        out += &text::friendly::last_move(disc(player), at, flipped);
    }
    out.push('\n');
    out
}
