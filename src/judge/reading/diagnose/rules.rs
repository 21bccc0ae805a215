//! Which rule the first game-level difference breaks: the context of the difference (the
//! events before it, the token read, the boards) and, for an Othello move, the actual board
//! checked against the board before it: which discs flipped, which were due, and which a line
//! that runs off an edge would flip. Also the lines that show the difference to a person.

use std::fmt::Write as _;

use super::super::Game;
use super::super::compare::token_before;
use super::super::events::{Event, Item};
use super::super::rule::Rule;
use super::shown;
use crate::board::Coord;
use crate::driver::Transcript;

/// Where the first game-level difference is, and what leads to it.
pub(super) struct Context<'a> {
    pub game: Game,
    pub expected: &'a Transcript,
    /// The expected events before it (equal to the actual ones).
    pub before: &'a [&'a Item<'a>],
    /// The expected event there, if the expected transcript goes on.
    pub want: Option<&'a Item<'a>>,
    /// The actual event there, if the actual output goes on.
    pub got: Option<&'a Item<'a>>,
    /// The expected events from there on.
    pub ahead: &'a [&'a Item<'a>],
    /// The actual events from there on.
    pub after: &'a [&'a Item<'a>],
}

impl Context<'_> {
    /// Where in the expected transcript the difference is.
    pub(super) fn offset(&self) -> usize {
        self.want
            .map_or(self.expected.output.len(), |item| item.offset())
    }

    /// The token read last before the difference, if any.
    pub(super) fn token(&self) -> Option<&[u8]> {
        let offset = self.offset();
        self.expected
            .reads
            .iter()
            .rev()
            .find(|read| read.at <= offset)
            .map(|read| &read.token[..])
    }

    /// The last expected event before the difference that `pick` takes.
    fn last<T>(&self, pick: impl Fn(&Event) -> Option<T>) -> Option<T> {
        self.before.iter().rev().find_map(|item| pick(&item.event))
    }

    /// The last Othello board before the difference: its side and cells.
    fn last_grid(&self) -> Option<(usize, &[u8])> {
        self.before.iter().rev().find_map(|item| match &item.event {
            Event::Grid { side, cells } => Some((*side, &cells[..])),
            _ => None,
        })
    }

    fn seen(&self, pick: impl Fn(&Event) -> bool) -> bool {
        self.before.iter().any(|item| pick(&item.event))
    }

    /// The rule the actual transcript breaks.
    pub fn rule(&self) -> Rule {
        let want = self.want.map(|i| &i.event);
        let got = self.got.map(|i| &i.event);
        match self.game {
            Game::Othello(_) => self.othello_rule(want, got),
            Game::Mancala(_) => self.kalah_rule(want, got),
        }
    }

    fn othello_rule(&self, want: Option<&Event>, got: Option<&Event>) -> Rule {
        use Event as E;
        let setup = |e: Option<&Event>| {
            matches!(
                e,
                Some(
                    E::PitCountPrompt
                        | E::TooManyPits
                        | E::InvalidNumber
                        | E::PitPrompt(_)
                        | E::InvalidPosition
                )
            )
        };
        let result = |e: Option<&Event>| matches!(e, Some(E::Wins(_) | E::Draw));
        let over = self.seen(|e| *e == E::GameOver);
        let playing = self.seen(|e| matches!(e, E::Round(_)));
        match (want, got) {
            // An output that stops before the game does: before it began, or in the middle.
            (Some(w), None) if !playing && !result(Some(w)) => Rule::OutputWrong,
            (Some(w), None) if !over && !result(Some(w)) && *w != E::GameOver => {
                Rule::GameEndsEarly
            }
            _ if setup(want) || setup(got) => Rule::PitSetup,
            (Some(E::InvalidMove), _) => {
                // A move accepted that only a wrapping line makes legal is the wrap's fault.
                let board = self.after.iter().find_map(|i| match &i.event {
                    E::Grid { cells, .. } => Some(cells),
                    _ => None,
                });
                match board.map(|cells| self.flips(None, cells)) {
                    Some(Rule::FlipWrapsEdge) => Rule::FlipWrapsEdge,
                    _ => Rule::IllegalMoveAccepted,
                }
            }
            (_, Some(E::InvalidMove)) => Rule::LegalMoveRefused,
            (Some(E::Pass(_)), _) => Rule::PassMissing,
            (_, Some(E::Pass(_))) => Rule::PassWrong,
            (Some(E::GameOver), _) => {
                // The final board, shown after `Game over:`, says why the game ended.
                let full = self.ahead.iter().find_map(|i| match &i.event {
                    E::Grid { cells, .. } => Some(!cells.contains(&b'.')),
                    _ => None,
                });
                if full == Some(true) {
                    Rule::FullBoardContinues
                } else {
                    Rule::PassesContinue
                }
            }
            (_, Some(E::GameOver)) => Rule::GameEndsEarly,
            _ if over || result(want) || result(got) => Rule::WrongResult,
            (Some(E::Grid { cells: w, .. }), Some(E::Grid { cells: g, .. })) => {
                if self.seen(|e| matches!(e, E::Round(_))) {
                    self.flips(Some(w), g)
                } else {
                    Rule::PitSetup
                }
            }
            (Some(E::Round(_)), Some(E::Round(_))) => Rule::RoundWrong,
            (Some(E::Turn(_)), Some(E::Turn(_))) => Rule::TurnWrong,
            _ => Rule::OutputWrong,
        }
    }

    /// A move of `player` on the last board that only a line wrapping round the edges makes
    /// legal, if there is one.
    fn wrapping_move(&self, player: u8) -> Option<Coord> {
        let (side, cells) = self.last_grid()?;
        let at = (0..cells.len()).find(|&at| {
            cells[at] == b'.' && !wrapping_closure(cells, side, at, player).is_empty()
        })?;
        Coord::new(at % side, at / side, side)
    }

    /// The rule an actual board after a move breaks: `want` is the expected board, if the move
    /// was legal.
    fn flips(&self, want: Option<&[u8]>, got: &[u8]) -> Rule {
        let before = self.last_grid();
        let mover = self.last(|e| match e {
            Event::Turn(p) => Some(*p as u8),
            _ => None,
        });
        let cell = self
            .token()
            .and_then(|t| std::str::from_utf8(t).ok()?.parse::<Coord>().ok());
        let (Some((side, before)), Some(mover), Some(cell)) = (before, mover, cell) else {
            return Rule::BoardWrong;
        };
        if got.len() != before.len() || !cell.is_on(side) {
            return Rule::BoardWrong;
        }
        let at = cell.row() * side + cell.col();
        let flipped = |board: &[u8]| -> Vec<usize> {
            (0..board.len())
                .filter(|&c| {
                    c != at && before[c] != mover && before[c] != b'.' && before[c] != b'#'
                })
                .filter(|&c| board[c] == mover)
                .collect()
        };
        let others = (0..got.len()).any(|c| {
            c != at
                && got[c] != before[c]
                && !(got[c] == mover && before[c] != b'.' && before[c] != b'#')
        });
        if got[at] != mover || others {
            return Rule::BoardWrong;
        }
        let done = flipped(got);
        let due = want.map(flipped).unwrap_or_default();
        let extra: Vec<usize> = done.iter().copied().filter(|c| !due.contains(c)).collect();
        if !extra.is_empty() {
            // The rays of a move are disjoint until they wrap: a disc flipped on a wrapped line,
            // or by a line that a wrapped flip closed (a program that flips while it walks),
            // is the wrap's doing.
            let reach = wrapping_closure(before, side, at, mover);
            if extra.iter().all(|c| reach.contains(c)) {
                Rule::FlipWrapsEdge
            } else {
                Rule::FlipExtra
            }
        } else if due.iter().any(|c| !done.contains(c)) {
            Rule::FlipMissing
        } else {
            Rule::BoardWrong
        }
    }

    fn kalah_rule(&self, want: Option<&Event>, got: Option<&Event>) -> Rule {
        use Event as E;
        let refusal = |e: Option<&Event>| matches!(e, Some(E::InvalidPit | E::EmptyPit(_)));
        let undo = |e: Option<&Event>| matches!(e, Some(E::NothingToUndo | E::Undone));
        let is = |e: Option<&Event>, pick: fn(&Event) -> bool| e.is_some_and(pick);
        let undone = self.token().is_some_and(|t| t.eq_ignore_ascii_case(b"u"));
        let over = self.seen(|e| *e == E::GameOver);
        let result = |e: &Event| matches!(e, E::Wins(_) | E::Draw | E::Score(..));
        match (want, got) {
            _ if undo(want) || undo(got) || undone && !over => Rule::UndoWrong,
            _ if refusal(want) && !refusal(got) => Rule::PitAccepted,
            _ if refusal(got) && !refusal(want) => Rule::PitRefused,
            _ if is(want, |e| matches!(e, E::Captures(..)))
                || is(got, |e| matches!(e, E::Captures(..))) =>
            {
                Rule::CaptureWrong
            }
            _ if is(want, |e| matches!(e, E::Collects(..)))
                || is(got, |e| matches!(e, E::Collects(..))) =>
            {
                Rule::SweepWrong
            }
            _ if is(want, |e| matches!(e, E::MovesAgain(_)))
                || is(got, |e| matches!(e, E::MovesAgain(_))) =>
            {
                Rule::ExtraTurnWrong
            }
            (Some(E::Turn(_)), Some(E::Turn(_))) => Rule::ExtraTurnWrong,
            (Some(E::GameOver), _) => Rule::SweepWrong,
            (_, Some(E::GameOver)) => Rule::GameEndsEarly,
            _ if is(want, result) || is(got, result) => Rule::WrongResult,
            (Some(E::Kalah { .. }), Some(E::Kalah { .. })) if over => Rule::SweepWrong,
            (Some(E::Kalah { .. }), Some(E::Kalah { .. })) => {
                if self.seen(|e| matches!(e, E::Turn(_))) {
                    Rule::SowWrong
                } else {
                    Rule::BoardWrong
                }
            }
            _ => Rule::OutputWrong,
        }
    }

    /// The lines that show the difference: the rule, the token, and the boards or lines.
    pub fn detail(&self, rule: Rule) -> Vec<String> {
        let mut lines = vec![format!("rule {}: {}", rule.id(), rule.meaning())];
        lines.push(token_before(&self.expected.reads, self.offset()));
        // A program that never passes and one whose lines wrap both ask for a move here.
        let asked = matches!(self.got.map(|i| &i.event), Some(Event::Turn(_)));
        if let (Rule::PassMissing, Some(Event::Pass(p))) = (rule, self.want.map(|i| &i.event))
            && asked
            && let Some(cell) = self.wrapping_move(*p as u8)
        {
            lines.push(format!(
                "note: only a line that wraps round the board's edge gives Player {p} a move \
                 (at {cell}); if the program flips such lines, this is flip-wraps-edge"
            ));
        }
        let board_of = |item: Option<&Item>| -> Option<Vec<String>> {
            let item = item?;
            matches!(item.event, Event::Grid { .. } | Event::Kalah { .. }).then(|| {
                item.pieces
                    .iter()
                    .map(|p| String::from_utf8_lossy(p.text).trim_end().to_string())
                    .collect()
            })
        };
        let before = self
            .before
            .iter()
            .rev()
            .find_map(|item| board_of(Some(item)));
        let line = |item: Option<&Item>| {
            item.map_or_else(
                || "(nothing: the output ends here)".to_string(),
                |item| format!("`{}`", shown(item)),
            )
        };
        match (board_of(self.want), board_of(self.got)) {
            (Some(want), Some(got)) => {
                let before = before.unwrap_or_default();
                let columns = [
                    ("board before", before),
                    ("expected", want),
                    ("actual", got),
                ];
                side_by_side(&columns, &mut lines);
            }
            _ => {
                // The position the difference arose in, then the two lines.
                if let Some(before) = before.filter(|_| !matches!(rule, Rule::PitSetup)) {
                    lines.push("board before:".to_string());
                    lines.extend(before.into_iter().map(|l| format!("  {l}")));
                }
                lines.push(format!("expected: {}", line(self.want)));
                lines.push(format!("actual:   {}", line(self.got)));
            }
        }
        lines
    }
}

/// Boards in columns under their titles.
fn side_by_side(columns: &[(&str, Vec<String>)], out: &mut Vec<String>) {
    let width = |c: &(&str, Vec<String>)| {
        c.1.iter()
            .map(|l| l.chars().count())
            .chain([c.0.len() + 1])
            .max()
            .unwrap_or(0)
            + 3
    };
    let widths: Vec<usize> = columns.iter().map(width).collect();
    let rows = columns.iter().map(|c| c.1.len()).max().unwrap_or(0);
    let mut line = String::new();
    for (c, w) in columns.iter().zip(&widths) {
        let _ = write!(line, "{:<w$}", format!("{}:", c.0));
    }
    out.push(line.trim_end().to_string());
    for r in 0..rows {
        let mut line = String::new();
        for (c, w) in columns.iter().zip(&widths) {
            let _ = write!(line, "{:<w$}", c.1.get(r).map_or("", String::as_str));
        }
        out.push(line.trim_end().to_string());
    }
}

/// How a program's lines run off one edge and on at the other.
#[derive(Clone, Copy)]
enum Walk {
    /// One index step a cell, bounded by the array only.
    Flat,
    /// Rows and columns taken modulo the side.
    Torus,
}

/// The discs a move at `at` flips when its wrapping lines are walked again and again on the
/// board as it is being flipped, as a program that flips while it walks does (each way of
/// wrapping on its own).
pub(super) fn wrapping_closure(board: &[u8], side: usize, at: usize, mover: u8) -> Vec<usize> {
    let mut flipped = Vec::new();
    for walk in [Walk::Flat, Walk::Torus] {
        let mut board = board.to_vec();
        board[at] = mover;
        loop {
            let new: Vec<usize> = walked(&board, side, at, mover, walk)
                .into_iter()
                .filter(|&c| board[c] != mover)
                .collect();
            if new.is_empty() {
                break;
            }
            for c in new {
                board[c] = mover;
                flipped.push(c);
            }
        }
    }
    flipped
}

/// The discs a move at `at` flips when its lines wrap round the edges, either way.
#[cfg(test)]
pub(super) fn wrapping_flips(board: &[u8], side: usize, at: usize, mover: u8) -> Vec<usize> {
    let mut flips = walked(board, side, at, mover, Walk::Flat);
    flips.extend(walked(board, side, at, mover, Walk::Torus));
    flips
}

/// The discs a move at `at` flips when its lines are walked `walk`'s way.
fn walked(board: &[u8], side: usize, at: usize, mover: u8, walk: Walk) -> Vec<usize> {
    let n = isize::try_from(side).unwrap_or(isize::MAX);
    let cells = isize::try_from(board.len()).unwrap_or(isize::MAX);
    let opponent = |c: usize| board[c] != mover && matches!(board[c], b'X' | b'O');
    let mut flips = Vec::new();
    let start = isize::try_from(at).unwrap_or(0);
    for (dr, dc) in [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ] {
        let (mut r, mut col) = (start / n, start % n);
        let mut run = Vec::new();
        for _ in 0..cells {
            let c = match walk {
                Walk::Flat => {
                    let c = r * n + col + dr * n + dc;
                    if !(0..cells).contains(&c) {
                        break;
                    }
                    (r, col) = (c / n, c % n);
                    c.unsigned_abs()
                }
                Walk::Torus => {
                    r = (r + dr).rem_euclid(n);
                    col = (col + dc).rem_euclid(n);
                    (r * n + col).unsigned_abs()
                }
            };
            if c == at {
                break;
            }
            if opponent(c) {
                run.push(c);
            } else {
                if !run.is_empty() && board[c] == mover {
                    flips.extend(run);
                }
                break;
            }
        }
    }
    flips
}
