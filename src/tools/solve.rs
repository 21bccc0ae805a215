//! The solvers at the console: `solve othello` from a start, a position given as text or a file
//! of them (one a line, as the FFO suite's `.obf` files have them), and `solve mancala`; their
//! values, best moves, every move's value, principal variations, and progress on standard error.
//! The searching is the games'; the text, the clock and the files are here.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::board::{BoardSide, Coord, Player, Progress};
use crate::driver::Console;
use crate::driver::{KalahBoard, Stop};
use crate::mancala::{self, Mancala, WithPits};
use crate::othello::{
    Analysis, Asked, Cell, Layout, Othello, Scoring, Side, Solver, WithSide, with_side,
};

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

    /// Clears the progress line of a terminal.
    pub const CLEAR_PROGRESS: &str = "\r\x1b[K";

    pub fn bad_position(line: usize, why: &str) -> String {
        format!("line {line}: {why}")
    }

    /// How errors name the input of `--position-file -`.
    pub const STANDARD_INPUT: &str = "standard input";

    pub fn line_too_long(limit: usize) -> String {
        format!("longer than {limit} bytes, which no position is")
    }

    pub fn not_text() -> String {
        "not text (bytes that are not UTF-8)".to_string()
    }

    pub fn too_many_positions() -> String {
        format!("more than {} positions", super::POSITION_LIMIT)
    }
}

/// An Othello position given as text: its board side, cells row by row and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionText {
    /// Cells per row and column.
    pub side: BoardSide,
    /// The cells, row by row.
    pub cells: Vec<Cell>,
    /// Whose turn it is.
    pub to_move: Player,
}

/// Reads a position as the FFO suite writes one: the cells row by row (`X` or `*` Black, `O`
/// White, `-` or `.` empty, `#` a pit), a space, the player to move (`X` or `O`), and anything
/// after a `;` ignored. The side is the square root of the cell count.
pub fn parse_position(text: &str) -> Result<PositionText, String> {
    let text = text.split(';').next().unwrap_or("");
    let mut words = text.split_whitespace();
    let board = words.next().ok_or("no cells")?;
    let mover = words.next().ok_or("no player to move after the cells")?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected '{extra}' after the player to move"));
    }
    let cells = board
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => Ok(Cell::Disc(Player::First)),
            'O' | 'o' => Ok(Cell::Disc(Player::Second)),
            '-' | '.' => Ok(Cell::Empty),
            '#' => Ok(Cell::Pit),
            other => Err(format!("'{other}' is no cell (X, O, -, #)")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let side = cells.len().isqrt();
    let side = BoardSide::new(side)
        .filter(|_| side * side == cells.len())
        .ok_or_else(|| {
            format!(
                "{} cells make no board: an even side from 4 to 26 squared",
                cells.len()
            )
        })?;
    let to_move = match mover {
        "X" | "x" | "*" => Player::First,
        "O" | "o" => Player::Second,
        other => return Err(format!("'{other}' is no player to move (X or O)")),
    };
    Ok(PositionText {
        side,
        cells,
        to_move,
    })
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
    /// Threads to solve on (Kalah; Othello's solver runs on one).
    pub threads: usize,
}

/// Prints progress on standard error when it is a terminal or `forced`, at most a few times a
/// second; on a terminal the line is rewritten in place and cleared by [`Self::finish`].
struct Ticker {
    show: bool,
    terminal: bool,
    started: Instant,
    shown: Option<Instant>,
}

impl Ticker {
    fn new(forced: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        Ticker {
            show: forced || terminal,
            terminal,
            started: Instant::now(),
            shown: None,
        }
    }

    fn tick(&mut self, progress: &Progress) {
        let due = self
            .shown
            .is_none_or(|at| at.elapsed() >= Duration::from_millis(250));
        if !self.show || !due || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        self.shown = Some(Instant::now());
        let line = text::progress(
            self.started.elapsed().as_secs_f64(),
            progress.nodes,
            progress.lower,
            progress.upper,
        );
        if self.terminal {
            eprint!("\r{line}");
        } else {
            eprintln!("{line}");
        }
    }

    fn finish(&self) {
        if self.terminal && self.shown.is_some() {
            eprint!("{}", text::CLEAR_PROGRESS);
        }
    }
}

/// Solves one Othello game with the options, showing progress; the analysis, nodes and seconds.
fn analyse<const N: usize>(
    game: &Othello<N>,
    how: &SolveOptions,
) -> Result<(Analysis, u64, f64), Stop>
where
    Side<N>: Layout,
{
    let mut ticker = Ticker::new(how.progress);
    let mut report = |progress: &Progress| ticker.tick(progress);
    let started = Instant::now();
    let empties = u32::try_from(game.count(Cell::Empty)).unwrap_or(u32::MAX);
    let mut solver = Solver::<Side<N>>::new(how.hash_mb, empties, how.scoring)
        .map_err(|e| Stop::Memory(e.megabytes))?
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
        let (analysis, _, _) = analyse(&game, &self.how)?;
        self.console
            .say(text::othello_value(analysis.solution.value))?;
        match analysis.solution.best {
            Some(at) => self.console.say(text::best_move(at))?,
            None => self.console.say(text::NO_MOVE)?,
        }
        self.console.say(extras(&analysis, self.how.asked))
    }
}

/// `solve othello --position`: one given position, numbered `number`.
struct SolveGiven<'a, R, W: Write> {
    console: &'a mut Console<R, W>,
    position: &'a PositionText,
    number: usize,
    how: SolveOptions,
}

impl<R, W: Write> WithSide for SolveGiven<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let p = self.position;
        let game = Othello::<N>::arranged(&p.cells, p.to_move)
            .expect("the cell count is the side's square");
        let mover = if p.to_move == Player::First { 'X' } else { 'O' };
        let empties = game.count(Cell::Empty);
        let (analysis, nodes, seconds) = analyse(&game, &self.how)?;
        let over = !game.has_legal_move() && {
            let mut passed = game.clone();
            passed.pass().is_ok() && !passed.has_legal_move()
        };
        let mut out = text::position_heading(self.number, mover, empties);
        out.push_str(&text::position_value(mover, analysis.solution.value));
        out.push_str(&text::position_best(analysis.solution.best, over));
        out.push_str(&extras(&analysis, self.how.asked));
        out.push_str(&text::searched(nodes, seconds));
        self.console.say(out)?;
        self.console.show()
    }
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
        OthelloPositions::Given(position) => {
            let number = 1;
            let side = position.side;
            let job = SolveGiven {
                console,
                position: &position,
                number,
                how,
            };
            with_side(side, job)
        }
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
                Unread::Line(line, why) => bad(text::bad_position(line, &why)),
                Unread::TooMany => bad(text::too_many_positions()),
            })?;
            for (i, position) in positions.iter().enumerate() {
                let job = SolveGiven {
                    console: &mut *console,
                    position,
                    number: i + 1,
                    how,
                };
                with_side(position.side, job)?;
            }
            Ok(())
        }
    }
}

/// The longest line of a file of positions: a 26x26 board, its player and a long comment.
const LINE_LIMIT: usize = 4096;
/// The most positions one file may give.
const POSITION_LIMIT: usize = 100_000;

/// Why a file of positions could not be read.
#[derive(Debug)]
enum Unread {
    /// Reading failed.
    Io(io::Error),
    /// The line of this number is no position, for this reason.
    Line(usize, String),
    /// More than [`POSITION_LIMIT`] positions.
    TooMany,
}

/// Every position of `input`, one a line (blank lines and lines starting with `%` or `# `
/// skipped), read line by line with no line longer than [`LINE_LIMIT`]: all of them are read
/// before any is solved, so that a bad one stops nothing midway.
fn read_positions(mut input: impl BufRead) -> Result<Vec<PositionText>, Unread> {
    let mut positions = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut input)
            .take(LINE_LIMIT as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(Unread::Io)?;
        if read == 0 {
            break;
        }
        if line.len() > LINE_LIMIT {
            return Err(Unread::Line(number, text::line_too_long(LINE_LIMIT)));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| Unread::Line(number, text::not_text()))?
            .trim();
        if text.is_empty() || text.starts_with('%') || text.starts_with("# ") {
            continue;
        }
        if positions.len() == POSITION_LIMIT {
            return Err(Unread::TooMany);
        }
        positions.push(parse_position(text).map_err(|why| Unread::Line(number, why))?);
    }
    Ok(positions)
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
            let mut ticker = Ticker::new(self.how.progress);
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
    fn positions_read_as_the_ffo_suite_writes_them() {
        let ffo = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let p = parse_position(ffo).unwrap();
        assert_eq!(p.side.get(), 8);
        assert_eq!(p.to_move, Player::First);
        assert_eq!(p.cells[0], Cell::Disc(Player::Second));
        assert_eq!(p.cells[7], Cell::Disc(Player::First));
        assert_eq!(p.cells[1], Cell::Empty);
        let pitted = parse_position("#--------XO--OX- o").unwrap();
        assert_eq!((pitted.side.get(), pitted.to_move), (4, Player::Second));
        assert_eq!(pitted.cells[0], Cell::Pit);
        for (bad, why) in [
            ("", "no cells"),
            ("----------------", "no player"),
            ("---------------- Z", "no player to move"),
            ("--------------- X", "make no board"),
            (
                "--------------------------------------------------------------------------------- X",
                "make no board",
            ),
            ("---------------? X", "no cell"),
            ("---------------- X O", "unexpected"),
        ] {
            let err = parse_position(bad).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }

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
