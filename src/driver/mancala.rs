//! Kalah at the console: every prompt and line of the console contract, and the flow of a game
//! (board, prompt, sowing, capture, extra move, sweep, result), with undo that against the
//! computer goes back to the person's last move. The rules are the game's: this file only asks
//! and reports.

use std::io::{BufRead, Write};

use super::console::{Console, Question};
use super::{DRAW, HINT, KalahBoard, Opponents, Stop, friendly, hint};
use crate::board::{Outcome, Player};
use crate::mancala::{Mancala, MoveError, Next, WithPits, computer_move};
use crate::rng::Rng;

/// Every line and prompt of the Mancala transcript, as the console contract defines them.
mod text {
    pub const NOTHING_TO_UNDO: &str = "Nothing to undo!\n";
    pub const MOVE_UNDONE: &str = "Move undone.\n";
    pub const GAME_OVER: &str = "Game over!\n";

    /// "Player 1", "Player 2".
    fn player(player: crate::board::Player) -> String {
        format!("Player {}", player.index() + 1)
    }

    /// "1 stone", "2 stones".
    fn stones(n: u32) -> String {
        if n == 1 {
            "1 stone".to_string()
        } else {
            format!("{n} stones")
        }
    }

    pub fn prompt(mover: crate::board::Player, pits: usize) -> String {
        format!("{}, choose a pit (1-{pits}, u = undo): ", player(mover))
    }

    pub fn invalid_pit(pits: usize) -> String {
        format!("Invalid pit! Enter a number from 1 to {pits}.\n")
    }

    pub fn empty_pit(pit: usize) -> String {
        format!("Pit {pit} is empty! Choose another pit.\n")
    }

    pub fn captures(mover: crate::board::Player, n: u32) -> String {
        format!("{} captures {}!\n", player(mover), stones(n))
    }

    pub fn moves_again(mover: crate::board::Player) -> String {
        format!("{} moves again!\n", player(mover))
    }

    pub fn collects(owner: crate::board::Player, n: u32) -> String {
        format!("{} collects the remaining {}.\n", player(owner), stones(n))
    }

    pub fn scores(first: u32, second: u32) -> String {
        format!("Player 1: {first}, Player 2: {second}\n")
    }

    pub fn wins(winner: crate::board::Player) -> String {
        format!("{} wins!\n", player(winner))
    }

    /// The friendly console's additions (`--friendly`), never part of the contract's text.
    pub mod friendly {
        /// What `help` prints.
        pub const HELP: &str = "Type the number of one of your pits that holds stones: its \
                                stones are sown one by one anticlockwise. u takes back the last \
                                move, ? suggests one, quit ends the game.\n";

        pub fn prompt(mover: crate::board::Player, pits: usize) -> String {
            format!(
                "{}, choose a pit (1-{pits}, u = undo, ? for a hint, help): ",
                super::player(mover)
            )
        }

        pub fn quitter(mover: crate::board::Player) -> String {
            super::player(mover)
        }

        pub fn last_move(mover: crate::board::Player, pit: usize) -> String {
            format!("Last move: {} sowed pit {pit}.\n", super::player(mover))
        }

        /// The command that reviews the game just played: its board and the pits sown.
        pub fn review(board: &crate::driver::KalahBoard, sown: &[usize]) -> String {
            let sown: Vec<String> = sown.iter().map(ToString::to_string).collect();
            let rule = match board.capture {
                crate::mancala::Capture::Standard => "",
                crate::mancala::Capture::Empty => " --capture empty",
            };
            format!(
                "To see where this game was won and lost: echo {} | boardgames review mancala \
                 --pits {} --stones {}{rule}\n",
                sown.join(" "),
                board.pits.get(),
                board.stones,
            )
        }

        pub fn sowable(mover: crate::board::Player, pits: &[usize]) -> String {
            let list: Vec<String> = pits.iter().map(ToString::to_string).collect();
            format!(
                "{} can sow pits {}.\n",
                super::player(mover),
                list.join(" ")
            )
        }
    }
}

/// The answers that ask for an undo.
pub(super) const UNDO: [&str; 2] = ["u", "U"];

/// A game of Kalah to play at the console, once the pits per row are a type.
pub(super) struct Game<'a, R, W: Write> {
    /// Where the game is played.
    pub console: &'a mut Console<R, W>,
    /// Stones in each pit at the start.
    pub board: KalahBoard,
    /// The computer's part, if any.
    pub opponents: Opponents,
}

impl<R: BufRead, W: Write> WithPits for Game<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        let game = Mancala::<P>::with_capture(self.board.stones, self.board.capture);
        play(game, &self.board, self.opponents, self.console)
    }
}

/// Takes back the last sowing; against the computer, back to before the person's last sowing,
/// so that the person is to move again: the sowings taken back. Refused (and nothing undone)
/// when there is none.
fn undo_to_person<const P: usize>(
    game: &mut Mancala<P>,
    opponents: &Opponents,
) -> Result<usize, MoveError> {
    let mut back = game.clone();
    let mut undone = 0;
    loop {
        back.undo()?;
        undone += 1;
        if !opponents.computer[back.to_move().index()] {
            *game = back;
            return Ok(undone);
        }
    }
}

/// Why the computer always has a pit to name where the console asks it for one: the game is
/// not over, so the player to move has a pit with stones.
const HAS_A_PIT: &str = "the computer names a pit while the game is not over";

/// Plays one game at the console: board, prompt, sowing, until a row is empty.
fn play<const P: usize, R: BufRead, W: Write>(
    mut game: Mancala<P>,
    kalah: &KalahBoard,
    opponents: Opponents,
    console: &mut Console<R, W>,
) -> Result<(), Stop> {
    let mut rng = Rng::new(opponents.seed);
    // Who sowed which pit last (for the friendly console); undo forgets it.
    let mut last = None;
    // The pits sown that stand, for the friendly console's review line.
    let mut sown = Vec::new();
    let outcome = loop {
        console.say(board(&game, console.showing.colour))?;
        let mover = game.to_move();
        if console.showing.friendly {
            if let Some((player, pit)) = last {
                console.say(text::friendly::last_move(player, pit))?;
            }
            if !opponents.computer[mover.index()] {
                let pits: Vec<usize> = (1..=P).filter(|&n| game.pit(mover, n) > Some(0)).collect();
                console.say(text::friendly::sowable(mover, &pits))?;
            }
        }
        let sowing = loop {
            if opponents.computer[mover.index()] {
                let pit = computer_move(&game, opponents.level, &mut rng)?.expect(HAS_A_PIT);
                let sowing = game
                    .sow(pit)
                    .expect("the computer names a pit of the board with stones in it");
                console.say(format_args!("{}{pit}\n", text::prompt(mover, P)))?;
                last = Some((mover, pit));
                sown.push(pit);
                break Some(sowing);
            }
            let friendly = console.showing.friendly;
            let prompt = if friendly {
                text::friendly::prompt(mover, P)
            } else {
                text::prompt(mover, P)
            };
            let hints = opponents.hints(&console.showing);
            let answer = console.ask(Question::Move, prompt)?;
            if friendly && answer.is(friendly::HELP) {
                console.say(text::friendly::HELP)?;
                continue;
            }
            if friendly && answer.is(friendly::QUIT) {
                return console.say(friendly::quit(&text::friendly::quitter(mover)));
            }
            if hints && answer.is(HINT) {
                let pit = computer_move(&game, opponents.level, &mut rng)?.expect(HAS_A_PIT);
                console.say(hint(pit))?;
                continue;
            }
            if UNDO.iter().any(|&word| answer.is(word)) {
                match undo_to_person(&mut game, &opponents) {
                    Ok(undone) => {
                        sown.truncate(sown.len().saturating_sub(undone));
                        break None;
                    }
                    Err(_) => console.say(text::NOTHING_TO_UNDO)?,
                }
                continue;
            }
            let Some(pit) = answer.number() else {
                console.say(text::invalid_pit(P))?;
                continue;
            };
            match game.sow(pit) {
                Ok(sowing) => {
                    last = Some((mover, pit));
                    sown.push(pit);
                    break Some(sowing);
                }
                Err(MoveError::EmptyPit) => console.say(text::empty_pit(pit))?,
                // No pit of that number (the game is not over while this loop runs).
                Err(_) => console.say(text::invalid_pit(P))?,
            }
        };
        let Some(sowing) = sowing else {
            last = None;
            console.say(text::MOVE_UNDONE)?;
            continue;
        };
        if let Some(taken) = sowing.captured {
            console.say(text::captures(mover, taken))?;
        }
        match sowing.next {
            Next::TurnPasses => {}
            Next::MoveAgain => console.say(text::moves_again(mover))?,
            Next::GameOver { swept, outcome } => {
                if let Some((owner, stones)) = swept {
                    console.say(text::collects(owner, stones))?;
                }
                break outcome;
            }
        }
    };

    console.say(text::GAME_OVER)?;
    console.say(board(&game, console.showing.colour))?;
    let (first, second) = (game.score(Player::First), game.score(Player::Second));
    console.say(text::scores(first, second))?;
    match outcome {
        Outcome::Won(player) => console.say(text::wins(player))?,
        Outcome::Draw => console.say(DRAW)?,
    }
    if console.showing.friendly {
        console.say(text::friendly::review(kalah, &sown))?;
    }
    Ok(())
}

/// The board as the contract draws it; with `colour` (the friendly console on a terminal),
/// each player's row of pits in that player's colour, as the Othello board colours the discs.
fn board<const P: usize>(game: &Mancala<P>, colour: bool) -> String {
    use anstyle::{AnsiColor, Style};
    let drawn = game.to_string();
    if !colour {
        return drawn;
    }
    // The pit rows are the third line (Player 2) and the fifth (Player 1).
    let styles = [
        (2, Style::new().fg_color(Some(AnsiColor::Cyan.into()))),
        (4, Style::new().bold()),
    ];
    let mut out = String::with_capacity(drawn.len() + 32);
    for (i, line) in drawn.split_inclusive('\n').enumerate() {
        match styles.iter().find(|(at, _)| *at == i) {
            Some((_, style)) => {
                let text = line.trim_end_matches('\n');
                out += &format!("{style}{text}{style:#}\n");
            }
            None => out.push_str(line),
        }
    }
    out
}
