//! A played game's record read back as the tokens that were typed: from a console transcript
//! made with `--echo` (each token follows its prompt on the prompt's line, read by the judge's
//! transcript reader, `events.rs`), or from a game's
//! input or a plain list of moves (whitespace-separated tokens). What the tokens mean is the
//! rules' to say, move by move; what can be wrong with a record, and its words, are here.
//! Pure functions of the bytes, no I/O.

use std::fmt;

use super::KalahBoard;
use super::console::is_separator;
use super::events::{self, Game};
use crate::board::{BoardSide, Coord, PitsPerRow};
use crate::mancala::{Capture, MoveError as SowError};
use crate::othello::{MoveError, PitError};

/// Which game a record is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Othello: a pit count, its pits, then cells.
    Othello,
    /// Kalah: pit numbers and undos.
    Kalah,
}

impl Kind {
    /// The game as the transcript reader knows it; its prompts do not depend on the board, so
    /// any board of the game does.
    fn game(self) -> Game {
        match self {
            Kind::Othello => Game::Othello(BoardSide::new(8).expect("8 is a side")),
            Kind::Kalah => Game::Mancala(KalahBoard {
                pits: PitsPerRow::new(6).expect("6 is a pit count"),
                stones: 4,
                capture: Capture::default(),
            }),
        }
    }

    fn other(self) -> Kind {
        match self {
            Kind::Othello => Kind::Kalah,
            Kind::Kalah => Kind::Othello,
        }
    }
}

/// Why a record is not a whole legal game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadRecord {
    /// A transcript of the other game.
    OtherGame(Kind),
    /// A transcript whose prompts have no answers after them: made without `--echo`.
    NotEchoed,
    /// Nothing to read.
    Empty,
    /// The first token of an Othello game's input is not a pit count the board takes.
    PitCount(String),
    /// Pit `k`'s token is not a cell the board takes as a pit.
    Pit(usize, String, Option<PitError>),
    /// Move `number` (counted from 1, passes apart) is no cell, or one the rules refuse.
    Move(usize, String, Option<MoveError>),
    /// Kalah: entry `number` is no pit number, or a sowing the rules refuse.
    Sowing(usize, String, Option<SowError>),
    /// Kalah: entry `number` asks for an undo with no move to undo.
    Undo(usize),
    /// Move `number` comes after the game's end.
    AfterEnd(usize),
    /// The record stops before the game's end, after this many moves.
    Unfinished(usize),
}

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRecord::OtherGame(Kind::Othello) => {
                f.write_str("this is an Othello record, not a Kalah one")
            }
            BadRecord::OtherGame(Kind::Kalah) => {
                f.write_str("this is a Kalah record, not an Othello one")
            }
            BadRecord::NotEchoed => f.write_str(
                "the transcript shows no answers to its prompts: play the game with --echo to \
                 record them",
            ),
            BadRecord::Empty => f.write_str("no moves to review"),
            BadRecord::PitCount(token) => {
                write!(f, "{token:?} is not a pit count this board takes")
            }
            BadRecord::Pit(k, token, why) => {
                write!(f, "pit {k} ({token:?}) ")?;
                f.write_str(match why {
                    None => "is not a cell",
                    Some(PitError::OffBoard) => "is off the board",
                    Some(PitError::Centre) => "is a centre cell",
                    Some(PitError::AlreadyPit | PitError::Occupied) => "is already a pit",
                    Some(PitError::TooMany) => "is one pit too many",
                })
            }
            BadRecord::Move(n, token, why) => {
                write!(f, "move {n} ({token:?}) ")?;
                f.write_str(match why {
                    None => "is not a cell",
                    Some(MoveError::OffBoard) => "is off the board",
                    Some(MoveError::Occupied) => "is on a disc or a pit",
                    Some(MoveError::NoFlips) => "flips no discs",
                    Some(_) => "cannot be played now",
                })
            }
            BadRecord::Sowing(n, token, why) => {
                write!(f, "move {n} ({token:?}) ")?;
                f.write_str(match why {
                    None => "is not a pit number",
                    Some(SowError::EmptyPit) => "sows an empty pit",
                    Some(SowError::NoSuchPit) => "is no pit of this board",
                    Some(_) => "cannot be played now",
                })
            }
            BadRecord::Undo(n) => write!(f, "move {n} undoes a move, but there is none"),
            BadRecord::AfterEnd(n) => write!(f, "move {n} comes after the end of the game"),
            BadRecord::Unfinished(0) => f.write_str(
                "the record ends before the game's first move: a review needs a whole game",
            ),
            BadRecord::Unfinished(n) => write!(
                f,
                "the game is not over after its last move (move {n}): a review needs a whole game"
            ),
        }
    }
}

/// A token typed in a game, and the player whose prompt it answered, when a transcript says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What was typed.
    pub token: String,
    /// The player the prompt named (`X`/`O`, `1`/`2`).
    pub asked: Option<char>,
}

/// The tokens typed in the game that `bytes` records, in order.
///
/// # Errors
/// A transcript of the other game, or one made without `--echo`.
pub fn tokens(kind: Kind, bytes: &[u8]) -> Result<Vec<Entry>, BadRecord> {
    let answers = events::prompted(kind.game(), bytes);
    let found: Vec<Entry> = if !answers.is_empty() {
        // A token never holds a space: what does is the next output, on the prompt's line
        // because nothing was echoed.
        if answers
            .iter()
            .any(|(answer, _)| answer.is_empty() || answer.contains(char::is_whitespace))
        {
            return Err(BadRecord::NotEchoed);
        }
        answers
            .into_iter()
            .map(|(token, asked)| Entry { token, asked })
            .collect()
    } else if !events::answers(kind.other().game(), bytes).is_empty() {
        return Err(BadRecord::OtherGame(kind.other()));
    } else {
        bytes
            .split(|&b| is_separator(b))
            .filter(|token| !token.is_empty())
            .map(|token| Entry {
                token: String::from_utf8_lossy(token).into_owned(),
                asked: None,
            })
            .collect()
    };
    if found.is_empty() {
        return Err(BadRecord::Empty);
    }
    Ok(found)
}

/// Whether an Othello record's first token starts a game's input (a pit count) rather than a
/// list of moves.
#[must_use]
pub fn starts_with_pit_count(tokens: &[String]) -> bool {
    tokens
        .first()
        .is_some_and(|token| token.bytes().all(|b| b.is_ascii_digit()))
}

/// What a Kalah entry asks for, as the console reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sow {
    /// Sow this pit (a number, plain digits, not yet checked against the board).
    Pit(usize),
    /// Take back the last sowing.
    Undo,
    /// No move: a hint or the help asked for.
    Nothing,
    /// Not a word the console takes.
    Junk,
}

/// Whether an entry asks the console for a hint or for its help rather than making a move:
/// in either game the console plays nothing for it.
#[must_use]
pub fn asks(token: &str) -> bool {
    token == super::HINT || token == super::friendly::HELP
}

/// A Kalah entry as the console reads it.
#[must_use]
pub fn sowing(token: &str) -> Sow {
    if super::mancala::UNDO.contains(&token) {
        Sow::Undo
    } else if asks(token) {
        Sow::Nothing
    } else {
        super::console::digits_value(token).map_or(Sow::Junk, Sow::Pit)
    }
}

/// A cell token as the console reads it.
#[must_use]
pub fn cell(token: &str) -> Option<Coord> {
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_as_the_tokens_typed() {
        let echoed = "Enter number of pits: 1\nEnter position for pit 1: A1\nRound 1:\n  board\n\
                      Player X's turn: d2\nInvalid move!\nPlayer X's turn: D2\n";
        let kalah = "   board\nPlayer 1, choose a pit (1-3, u = undo): 3\nPlayer 1, choose a pit \
                     (1-3, u = undo, ? for a hint, help): u\n";
        // The game, the record, and its tokens or why it has none.
        type Case<'a> = (Kind, &'a [u8], Result<&'a [&'a str], BadRecord>);
        let cases: &[Case<'_>] = &[
            (Kind::Othello, b"d3 c5\r\nf6", Ok(&["d3", "c5", "f6"])),
            (Kind::Othello, b"1\nA1\nD3\n", Ok(&["1", "A1", "D3"])),
            // What the console refused is left out, as the console left it out.
            (Kind::Othello, echoed.as_bytes(), Ok(&["1", "A1", "D2"])),
            (Kind::Kalah, kalah.as_bytes(), Ok(&["3", "u"])),
            (Kind::Kalah, b"3 6 u 6", Ok(&["3", "6", "u", "6"])),
            (
                Kind::Othello,
                kalah.as_bytes(),
                Err(BadRecord::OtherGame(Kind::Kalah)),
            ),
            (
                Kind::Kalah,
                echoed.as_bytes(),
                Err(BadRecord::OtherGame(Kind::Othello)),
            ),
            (
                Kind::Othello,
                b"Enter number of pits: Round 1:\n",
                Err(BadRecord::NotEchoed),
            ),
            (Kind::Othello, b" \n\t", Err(BadRecord::Empty)),
            (
                Kind::Othello,
                b"\xff\xfe D3",
                Ok(&["\u{fffd}\u{fffd}", "D3"]),
            ),
        ];
        for (kind, bytes, want) in cases {
            let got = tokens(*kind, bytes)
                .map(|entries| entries.into_iter().map(|e| e.token).collect::<Vec<_>>());
            let want = want
                .clone()
                .map(|tokens| tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>());
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(bytes));
        }
    }
}
