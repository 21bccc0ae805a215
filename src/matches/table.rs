//! The arena at the console: runs the tournament on the chosen board (once its size is a type)
//! with a count of games on standard error when that is a terminal, then prints the table of
//! results. The games and their scoring are `arena.rs`'s.

use std::io::Write;

use super::arena::{Arena, MancalaArena, OTHELLO_OPENING, OthelloArena, Record, tournament};
use super::{ArenaBoard, Contest};
use crate::driver::{Console, KalahBoard, Stop};
use crate::mancala::{WithPits, with_pits};
use crate::othello::{Layout, Side, WithSide, with_side};
use crate::progress::Progress;

/// Random sowings that open a Kalah game.
const KALAH_OPENING: usize = 2;

/// The arena's report.
mod text {
    use crate::matches::arena::{Contender, Record};

    pub fn othello_title(side: usize) -> String {
        format!("Othello {side}x{side}")
    }

    pub fn kalah_title(pits: usize, stones: u8, empty_capture: bool) -> String {
        let rule = if empty_capture { ", empty capture" } else { "" };
        format!("Kalah ({pits},{stones}){rule}")
    }

    pub fn header(title: &str, openings: usize, opened_by: &str, seed: u64) -> String {
        format!(
            "{title}: {} games a pair ({openings} openings of {opened_by}, each played from both \
             sides), seed {seed}\nRow against column: wins-draws-losses and the row's mean \
             margin; the last column is the row's share of all its points.\n",
            2 * openings
        )
    }

    pub fn othello_opening() -> String {
        format!("{} random moves", super::OTHELLO_OPENING)
    }

    pub fn kalah_opening() -> String {
        format!("{} random sowings", super::KALAH_OPENING)
    }

    pub fn name(contender: Contender) -> String {
        match contender {
            Contender::Greedy => "greedy".to_string(),
            Contender::Level(level) => format!("level {level}"),
        }
    }

    pub const WIDTH: usize = 15;
    pub const SAME: &str = "-";
    pub const SCORE: &str = "score";

    pub fn record(record: &Record) -> String {
        format!(
            "{}-{}-{} {:+.1}",
            record.wins,
            record.draws,
            record.losses,
            record.mean_margin()
        )
    }

    pub fn share(score: f64) -> String {
        format!("{:.0}%", 100.0 * score)
    }
}

/// Plays `contest` and prints its table.
pub(super) fn arena<R, W: Write>(
    console: &mut Console<R, W>,
    contest: &Contest,
) -> Result<(), Stop> {
    let (title, opened_by, table) = match contest.board {
        ArenaBoard::Othello(side) => (
            text::othello_title(side.get()),
            text::othello_opening(),
            with_side(side, OthelloJob(contest))?,
        ),
        ArenaBoard::Mancala(board) => (
            text::kalah_title(
                board.pits.get(),
                board.stones,
                board.capture == crate::mancala::Capture::Empty,
            ),
            text::kalah_opening(),
            with_pits(board.pits, MancalaJob(contest, board))?,
        ),
    };
    console.say(text::header(
        &title,
        contest.openings,
        &opened_by,
        contest.seed,
    ))?;
    let names: Vec<String> = contest.contenders.iter().map(|&c| text::name(c)).collect();
    let first = names.iter().map(String::len).max().unwrap_or(0);
    let mut line = format!("{:first$}", "");
    for name in &names {
        line += &format!(" {name:>width$}", width = text::WIDTH);
    }
    line += &format!(" {:>6}\n", text::SCORE);
    console.say(line)?;
    for (i, row) in table.iter().enumerate() {
        let mut line = format!("{:first$}", names[i]);
        let mut total = Record::default();
        for (j, record) in row.iter().enumerate() {
            let cell = if i == j {
                text::SAME.to_string()
            } else {
                text::record(record)
            };
            line += &format!(" {cell:>width$}", width = text::WIDTH);
            total.wins += record.wins;
            total.draws += record.draws;
            total.losses += record.losses;
        }
        line += &format!(" {:>6}\n", text::share(total.score()));
        console.say(line)?;
    }
    Ok(())
}

/// Runs the tournament of `contest` on `arena`, counting games on standard error when it is a
/// terminal.
fn run(arena: &dyn Arena, contest: &Contest) -> Result<Vec<Vec<Record>>, Stop> {
    let n = contest.contenders.len();
    let games = n * n.saturating_sub(1) / 2 * contest.openings * 2;
    let bar = Progress::new(games, "games");
    let done = |ended: usize| bar.reach(ended);
    let table = tournament(
        arena,
        &contest.contenders,
        contest.openings,
        contest.seed,
        contest.threads,
        &done,
    );
    bar.finish();
    Ok(table?)
}

struct OthelloJob<'a>(&'a Contest);

impl WithSide for OthelloJob<'_> {
    type Output = Result<Vec<Vec<Record>>, Stop>;

    fn run<const N: usize>(self) -> Self::Output
    where
        Side<N>: Layout,
    {
        run(
            &OthelloArena::<N> {
                plies: OTHELLO_OPENING,
            },
            self.0,
        )
    }
}

struct MancalaJob<'a>(&'a Contest, KalahBoard);

impl WithPits for MancalaJob<'_> {
    type Output = Result<Vec<Vec<Record>>, Stop>;

    fn run<const P: usize>(self) -> Self::Output {
        let board = self.1;
        run(
            &MancalaArena::<P> {
                stones: board.stones,
                capture: board.capture,
                sowings: KALAH_OPENING,
            },
            self.0,
        )
    }
}
