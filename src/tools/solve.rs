//! The solvers at the console: `solve othello` from a start, a position given as text or a file
//! of them (one a line, as the FFO suite's `.obf` files have them), and `solve mancala`; their
//! values, best moves, every move's value, principal variations, and progress on standard error.
//! The searching is the games'; the text, the clock and the files are here.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::positions::{LINE_LIMIT, POSITION_LIMIT, PositionText, Unread, read_positions};
use crate::board::{Coord, Player, Progress};
use crate::driver::Console;
use crate::driver::{KalahBoard, Stop};
use crate::mancala::{self, Mancala, WithPits};
use crate::othello::{
    Analysis, Asked, Cell, Layout, Othello, Scoring, Side, Solver, WithSide, with_side,
};
use crate::progress::Progress as Bar;

/// The solvers' reports.
mod text {
    use std::fmt::Write as _;

    use crate::board::Coord;

    pub fn othello_value(value: i32) -> String {
        format!("Black minus White under perfect play: {value:+}\n")
    }

    pub fn mancala_value(value: i32) -> String {
        format!("Player 1 minus Player 2 under perfect play: {value:+}\n")
    }

    pub fn best_move(what: impl std::fmt::Display) -> String {
        format!("Best first move: {what}\n")
    }

    pub const NO_MOVE: &str = "Best first move: none (Black has to pass)\n";

    pub fn best_pit(pit: usize) -> String {
        best_move(format_args!("pit {pit}"))
    }

    /// Player 1's margin after each first move.
    pub fn every_pit(values: &[(usize, i32)]) -> String {
        let mut line = "Every first move:".to_string();
        for (pit, value) in values {
            let _ = write!(line, " pit {pit} {value:+}");
        }
        line.push('\n');
        line
    }

    pub fn position_heading(number: usize, mover: char, empties: usize) -> String {
        format!("Position {number}: {mover} to move, {empties} empty\n")
    }

    pub fn position_value(mover: char, value: i32) -> String {
        format!("Value for {mover} under perfect play: {value:+}\n")
    }

    pub fn position_best(best: Option<Coord>, over: bool) -> String {
        match (best, over) {
            (Some(at), _) => format!("Best move: {at}\n"),
            (None, false) => "Best move: pass\n".to_string(),
            (None, true) => "Best move: none (the game is over)\n".to_string(),
        }
    }

    pub fn every_move(moves: &[(Coord, i32)]) -> String {
        let mut line = "Every move:".to_string();
        for (at, value) in moves {
            let _ = write!(line, " {at} {value:+}");
        }
        line.push('\n');
        line
    }

    pub fn line(moves: &[Option<Coord>]) -> String {
        let mut line = "Principal variation:".to_string();
        for step in moves {
            match step {
                Some(at) => {
                    let _ = write!(line, " {at}");
                }
                None => line.push_str(" pass"),
            }
        }
        line.push('\n');
        line
    }

    pub fn searched(nodes: u64, seconds: f64) -> String {
        format!("Searched {nodes} nodes in {seconds:.3} s\n")
    }

    /// The progress line on standard error.
    pub fn progress(seconds: f64, nodes: u64, lower: i32, upper: i32) -> String {
        let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
        let bound = |v: i32| {
            if v.unsigned_abs() >= 10_000 {
                "?".to_string()
            } else {
                format!("{v:+}")
            }
        };
        format!(
            "solving: {seconds:.0} s, {nodes} nodes, {rate:.1} M nodes/s, value in [{}, {}]",
            bound(lower),
            bound(upper)
        )
    }

    pub fn bad_position(line: usize, why: &str) -> String {
        format!("line {line}: {why}")
    }

    /// How errors name the input of `--position-file -`.
    pub const STANDARD_INPUT: &str = "standard input";

    pub fn line_too_long() -> String {
        format!(
            "longer than {} bytes, which no position is",
            super::LINE_LIMIT
        )
    }

    pub fn not_text() -> String {
        "not text (bytes that are not UTF-8)".to_string()
    }

    pub fn too_many_positions() -> String {
        format!("more than {} positions", super::POSITION_LIMIT)
    }
}

/// Where `solve othello` finds its positions.
#[derive(Clone, Debug)]
pub enum OthelloPositions {
    /// The start of a game on this board.
    Start(super::OthelloBoard),
    /// One position.
    Given(PositionText),
    /// A file of positions, one a line; blank lines and lines starting with `%` or `#` are
    /// skipped.
    File(PathBuf),
}

/// How the solvers work and what they report.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// The transposition table's size in MiB.
    pub hash_mb: usize,
    /// Show progress on standard error even when it is not a terminal.
    pub progress: bool,
    /// What to find besides the value and a best move.
    pub asked: Asked,
    /// How a finished Othello game is scored.
    pub scoring: Scoring,
    /// Threads to solve on: Kalah's two tests at once, or all on each Othello position.
    pub threads: usize,
}

/// A solve's progress on standard error, a few times a second once it has run half a second:
/// on a terminal as a spinner of its own, or as the message of the bar of a file of positions;
/// elsewhere, as lines, when `--progress` forces it.
struct Ticker<'a> {
    lines: bool,
    terminal: bool,
    file: Option<&'a Bar>,
    own: Option<Bar>,
    started: Instant,
    shown: Option<Instant>,
}

impl<'a> Ticker<'a> {
    fn new(forced: bool, file: Option<&'a Bar>) -> Self {
        let terminal = std::io::stderr().is_terminal();
        Ticker {
            lines: forced && !terminal,
            terminal,
            file,
            own: None,
            started: Instant::now(),
            shown: None,
        }
    }

    fn tick(&mut self, progress: &Progress) {
        let due = self
            .shown
            .is_none_or(|at| at.elapsed() >= Duration::from_millis(250));
        let wanted = self.terminal || self.lines;
        if !wanted || !due || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        self.shown = Some(Instant::now());
        let line = text::progress(
            self.started.elapsed().as_secs_f64(),
            progress.nodes,
            progress.lower,
            progress.upper,
        );
        match (self.file, self.terminal) {
            (Some(bar), true) => bar.say(line),
            (None, true) => self
                .own
                .get_or_insert_with(|| Bar::spinner(String::new()))
                .say(line),
            (_, false) => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Some(own) = &self.own {
            own.finish();
        }
    }
}

/// Solves one Othello game with the options, showing progress; the analysis, nodes and seconds.
fn analyse<const N: usize>(
    game: &Othello<N>,
    how: &SolveOptions,
    file: Option<&Bar>,
) -> Result<(Analysis, u64, f64), Stop>
where
    Side<N>: Layout,
{
    let mut ticker = Ticker::new(how.progress, file);
    let mut report = |progress: &Progress| ticker.tick(progress);
    let started = Instant::now();
    let empties = u32::try_from(game.count(Cell::Empty)).unwrap_or(u32::MAX);
    let mut solver = Solver::<Side<N>>::new(how.hash_mb, empties, how.scoring)
        .map_err(|e| Stop::Memory(e.megabytes))?
        .growing()
        .threads(how.threads)
        .reporting(&mut report);
    let analysis = solver.analyse(game, how.asked);
    let nodes = solver.nodes();
    drop(solver);
    ticker.finish();
    Ok((analysis, nodes, started.elapsed().as_secs_f64()))
}

/// The lines of `--all-moves` and `--pv`, as asked.
fn extras(analysis: &Analysis, asked: Asked) -> String {
    let mut out = String::new();
    if asked.moves {
        out.push_str(&text::every_move(&analysis.moves));
    }
    if asked.line {
        out.push_str(&text::line(&analysis.line));
    }
    out
}

/// `solve othello` from a start: the value for Black and a best first move.
struct SolveStart<'a, R, W: Write> {
    console: &'a mut Console<R, W>,
    pits: Vec<Coord>,
    how: SolveOptions,
}

impl<R, W: Write> WithSide for SolveStart<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let game = super::othello_start::<N>(&self.pits)?;
        let (analysis, _, _) = analyse(&game, &self.how, None)?;
        self.console
            .say(text::othello_value(analysis.solution.value))?;
        match analysis.solution.best {
            Some(at) => self.console.say(text::best_move(at))?,
            None => self.console.say(text::NO_MOVE)?,
        }
        self.console.say(extras(&analysis, self.how.asked))
    }
}

/// `solve othello --position`: one given position, numbered `number`, solved into the lines
/// that report it.
struct Given<'a> {
    position: &'a PositionText,
    number: usize,
    how: SolveOptions,
    /// The bar of the file of positions, shown on a terminal.
    file: Option<&'a Bar>,
}

impl WithSide for Given<'_> {
    type Output = Result<String, Stop>;

    fn run<const N: usize>(self) -> Result<String, Stop>
    where
        Side<N>: Layout,
    {
        let p = self.position;
        let game = Othello::<N>::arranged(&p.cells, p.to_move)
            .expect("the cell count is the side's square");
        let mover = if p.to_move == Player::First { 'X' } else { 'O' };
        let empties = game.count(Cell::Empty);
        let (analysis, nodes, seconds) = analyse(&game, &self.how, self.file)?;
        let over = !game.has_legal_move() && {
            let mut passed = game.clone();
            passed.pass().is_ok() && !passed.has_legal_move()
        };
        let mut out = text::position_heading(self.number, mover, empties);
        out.push_str(&text::position_value(mover, analysis.solution.value));
        out.push_str(&text::position_best(analysis.solution.best, over));
        out.push_str(&extras(&analysis, self.how.asked));
        out.push_str(&text::searched(nodes, seconds));
        Ok(out)
    }
}

/// Solves `positions` one after another, each on `how.threads` threads sharing the whole
/// table, and prints each one's report as soon as it is solved; the first error stops the rest.
fn solve_many<R, W: Write>(
    console: &mut Console<R, W>,
    positions: &[PositionText],
    how: SolveOptions,
) -> Result<(), Stop> {
    // A file of positions is a bar over them; its report lines go out with the bar lifted.
    let file = (positions.len() > 1).then(|| Bar::new(positions.len(), "positions"));
    for (i, position) in positions.iter().enumerate() {
        let job = Given {
            position,
            number: i + 1,
            how,
            file: file.as_ref(),
        };
        let report = with_side(position.side, job)?;
        let shown = match &file {
            Some(bar) => bar.suspend(|| console.say(report).and_then(|()| console.show())),
            None => console.say(report).and_then(|()| console.show()),
        };
        shown?;
        if let Some(bar) = &file {
            bar.advance(1);
        }
    }
    if let Some(bar) = &file {
        bar.finish();
    }
    Ok(())
}

/// `solve othello`: from a start, one position or a file of them.
pub(super) fn solve_othello<R: BufRead, W: Write>(
    console: &mut Console<R, W>,
    positions: OthelloPositions,
    how: SolveOptions,
) -> Result<(), Stop> {
    match positions {
        OthelloPositions::Start(board) => with_side(
            board.side,
            SolveStart {
                console,
                pits: board.pits,
                how,
            },
        ),
        OthelloPositions::Given(position) => solve_many(console, &[position], how),
        OthelloPositions::File(path) => {
            let stdin = path.as_os_str() == "-";
            let path = if stdin {
                PathBuf::from(text::STANDARD_INPUT)
            } else {
                path
            };
            let bad = |why: String| Stop::Position(path.clone(), why);
            let positions = if stdin {
                read_positions(console.input())
            } else {
                let file =
                    std::fs::File::open(&path).map_err(|err| Stop::File(path.clone(), err))?;
                read_positions(io::BufReader::new(file))
            }
            .map_err(|err| match err {
                Unread::Io(err) => Stop::File(path.clone(), err),
                Unread::TooLong(line) => bad(text::bad_position(line, &text::line_too_long())),
                Unread::NotText(line) => bad(text::bad_position(line, &text::not_text())),
                Unread::Line(line, why) => bad(text::bad_position(line, &why)),
                Unread::TooMany => bad(text::too_many_positions()),
            })?;
            solve_many(console, &positions, how)
        }
    }
}

/// `solve mancala`: the perfect-play margin of a Kalah start for Player 1, a best first pit,
/// and, if asked, the margin after each first move.
pub(super) struct SolveMancala<'a, R, W: Write> {
    /// Where the value goes.
    pub console: &'a mut Console<R, W>,
    /// The start.
    pub board: KalahBoard,
    /// Table, progress, and what to find.
    pub how: SolveOptions,
}

impl<R, W: Write> WithPits for SolveMancala<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        let start = Mancala::<P>::with_capture(self.board.stones, self.board.capture);
        // The margin for Player 1 of `game` and a best pit of its player to move.
        let solve = |game: &Mancala<P>| {
            let mut ticker = Ticker::new(self.how.progress, None);
            let mut report = |progress: &Progress| ticker.tick(progress);
            let solution =
                mancala::solve_in(game, self.how.hash_mb, self.how.threads, Some(&mut report))
                    .map_err(|e| Stop::Memory(e.megabytes));
            ticker.finish();
            solution.map(|s| {
                let sign = if game.to_move() == Player::First {
                    1
                } else {
                    -1
                };
                (sign * s.value, s.best)
            })
        };
        let (value, best) = solve(&start)?;
        let mut out = text::mancala_value(value);
        // The start always has a move: every pit holds stones.
        if let Some(pit) = best {
            out.push_str(&text::best_pit(pit));
        }
        if self.how.asked.moves {
            let mut values = Vec::new();
            for pit in 1..=P {
                let mut game = start.clone();
                game.sow(pit).expect("every pit holds stones at the start");
                values.push((pit, solve(&game)?.0));
            }
            out.push_str(&text::every_pit(&values));
        }
        self.console.say(out)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    #[test]
    fn the_progress_line_shows_bounds_once_known() {
        let line = text::progress(2.0, 4_000_000, -10_000, 10_000);
        assert_eq!(
            line,
            "solving: 2 s, 4000000 nodes, 2.0 M nodes/s, value in [?, ?]"
        );
        assert!(text::progress(1.0, 1, -4, 2).ends_with("[-4, +2]"));
        let mut out = String::new();
        let _ = write!(out, "{}", text::line(&[None]));
        assert_eq!(out, "Principal variation: pass\n");
    }
}
