//! Shared vocabulary of both games: the two players, outcomes and solutions, cell coordinates
//! with their text form, the sizes each game supports and the computer's levels (each range
//! defined here once), and the one place where a size chosen at run time becomes a const
//! generic. Nothing here knows a game's rules, and nothing here does I/O.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// One of the two players.
///
/// `First` moves first: Black (`X`) in Othello, Player 1 in Mancala.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first: Black (`X`) in Othello, Player 1 in Mancala.
    First,
    /// Moves second: White (`O`) in Othello, Player 2 in Mancala.
    Second,
}

impl Player {
    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The other player.
    #[must_use]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player finished ahead.
    Won(Player),
    /// Neither did.
    Draw,
}

impl Outcome {
    /// The outcome of a game decided by comparing the two players' totals.
    #[must_use]
    pub fn by_count<T: Ord>(first: T, second: T) -> Outcome {
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => Outcome::Won(Player::First),
            std::cmp::Ordering::Less => Outcome::Won(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// The exact value of a position under perfect play, and a move that achieves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The final margin for the player to move: their discs (or stones) minus the other's.
    pub value: i32,
    /// A best move, or `None` when the player to move has none (a pass, or the end).
    pub best: Option<M>,
}

/// A move's value for the player who makes it: the final margin (discs, or stones) it leads
/// to, as a review shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Under perfect play from there on.
    Exact(i32),
    /// As a search estimates it.
    Estimate(i32),
}

impl Value {
    /// The margin, exact or not.
    #[must_use]
    pub fn margin(self) -> i32 {
        match self {
            Value::Exact(discs) | Value::Estimate(discs) => discs,
        }
    }
}

/// How far a solve has got, as the solvers report it now and then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far.
    pub nodes: u64,
    /// The value of the position being solved is at least this.
    pub lower: i32,
    /// And at most this.
    pub upper: i32,
}

/// Where a solver reports its progress.
pub type Report<'a> = &'a mut (dyn FnMut(&Progress) + Send);

/// A solver's count of the nodes it searched, reported now and then with the bounds known on
/// the value being solved.
pub struct Tally<'a> {
    nodes: u64,
    /// The value being solved is at least the first and at most the second.
    pub bounds: (i32, i32),
    report: Option<Report<'a>>,
}

impl<'a> Tally<'a> {
    /// Nodes between two reports.
    pub const EVERY: u64 = 1 << 20;

    /// A count from zero, with nothing known of the value, reporting to `report` if any.
    #[must_use]
    pub fn new(report: Option<Report<'a>>) -> Self {
        Tally {
            nodes: 0,
            bounds: (i32::MIN, i32::MAX),
            report,
        }
    }

    /// Counts a node, and reports every [`Self::EVERY`].
    #[inline]
    pub fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(Self::EVERY)
            && let Some(report) = self.report.as_mut()
        {
            report(&Progress {
                nodes: self.nodes,
                lower: self.bounds.0,
                upper: self.bounds.1,
            });
        }
    }

    /// Counts `nodes` searched elsewhere (by other threads), without a report.
    pub fn add(&mut self, nodes: u64) {
        self.nodes += nodes;
    }

    /// Nodes counted so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// A table (of a solver or of perft) could not be given the memory asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// The MiB asked for.
    pub megabytes: usize,
}

/// The computer's levels, weakest first.
pub const LEVELS: RangeInclusive<u32> = 1..=10;

/// The largest board side any game supports: columns run from `A` to `Z`.
pub const MAX_SIDE: usize = 26;

/// A cell address on a square board: column and row, both 0-based.
///
/// Its text form is one letter and a 1-based row number (`A1`, `h10`, `Z26`). Parsing accepts
/// either letter case and rejects everything else: a sign, a leading zero, a row outside
/// 1..=26, a second letter, trailing characters, non-ASCII bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    col: u8,
    row: u8,
}

impl Coord {
    /// The cell at 0-based `col` and `row`, or `None` when either is at least `side`.
    #[must_use]
    pub fn new(col: usize, row: usize, side: usize) -> Option<Coord> {
        if col >= side || row >= side || side > MAX_SIDE {
            return None;
        }
        Some(Coord {
            col: u8::try_from(col).ok()?,
            row: u8::try_from(row).ok()?,
        })
    }

    /// 0-based column (`A` is 0).
    #[must_use]
    pub fn col(self) -> usize {
        usize::from(self.col)
    }

    /// 0-based row (row `1` is 0).
    #[must_use]
    pub fn row(self) -> usize {
        usize::from(self.row)
    }

    /// Whether the cell lies on a board of `side` x `side`.
    #[must_use]
    pub fn is_on(self, side: usize) -> bool {
        self.col() < side && self.row() < side
    }
}

/// Why a cell address did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoordError {
    /// The text does not start with an ASCII letter.
    NoColumn,
    /// The row is missing, not plain digits, zero-padded, or outside 1..=26.
    BadRow,
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CoordError::NoColumn => "a cell address starts with a letter A-Z",
            CoordError::BadRow => "a cell address ends with a row number 1-26",
        })
    }
}

impl std::error::Error for CoordError {}

impl FromStr for Coord {
    type Err = CoordError;

    fn from_str(text: &str) -> Result<Coord, CoordError> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or(CoordError::NoColumn)?;
        if !letter.is_ascii_alphabetic() {
            return Err(CoordError::NoColumn);
        }
        let row = parse_row(digits).ok_or(CoordError::BadRow)?;
        let col = usize::from(letter.to_ascii_uppercase() - b'A');
        Coord::new(col, row - 1, MAX_SIDE).ok_or(CoordError::BadRow)
    }
}

/// A 1-based row number written as plain digits without a leading zero, in 1..=26.
fn parse_row(digits: &[u8]) -> Option<usize> {
    let plain = matches!(digits, [b'1'..=b'9', rest @ ..] if rest.len() < 2
        && rest.iter().all(u8::is_ascii_digit));
    if !plain {
        return None;
    }
    let row = digits
        .iter()
        .fold(0, |n, &d| n * 10 + usize::from(d - b'0'));
    (1..=MAX_SIDE).contains(&row).then_some(row)
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), self.row() + 1)
    }
}

/// The board sides Othello supports: even numbers from 4 to 26.
pub const SIDES: [usize; 12] = [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26];

/// The board sides whose learned patterns training can fit (`othello::learnable`); only these
/// are built with the training's code.
pub const LEARNABLE_SIDES: [usize; 2] = [6, 8];

/// The pits per row Kalah supports.
pub const PIT_COUNTS: RangeInclusive<usize> = 1..=12;

/// The stones per pit Kalah starts with: the board widens with the total, up to 2376.
pub const STONES: RangeInclusive<u8> = 1..=99;

/// An Othello board side from [`SIDES`]: the only sides [`dispatch!`] is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSide(usize);

impl BoardSide {
    /// `side` if Othello is played on it.
    #[must_use]
    pub fn new(side: usize) -> Option<BoardSide> {
        SIDES.contains(&side).then_some(BoardSide(side))
    }

    /// Cells per row and column.
    #[must_use]
    pub fn get(self) -> usize {
        self.0
    }
}

/// A Kalah row length from [`PIT_COUNTS`]: the only lengths [`dispatch!`] is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitsPerRow(usize);

impl PitsPerRow {
    /// `pits` if Kalah is played with that many pits a row.
    #[must_use]
    pub fn new(pits: usize) -> Option<PitsPerRow> {
        PIT_COUNTS.contains(&pits).then_some(PitsPerRow(pits))
    }

    /// Pits in each player's row.
    #[must_use]
    pub fn get(self) -> usize {
        self.0
    }
}

/// The sides the unit tests build every command for: one of each bit-set layout, and both
/// ends. The program and its integration tests have all of [`SIDES`]; building each command
/// for twelve sides and twelve row lengths a second time, for the unit tests, was a third of
/// a clean clone's first `cargo test`. Tests of the rules at every side use
/// `othello::with_any_side`.
#[cfg(test)]
pub const TESTED_SIDES: [usize; 6] = [4, 6, 8, 10, 16, 26];

/// The row lengths the unit tests build every command for (see [`TESTED_SIDES`]).
#[cfg(test)]
pub const TESTED_PIT_COUNTS: [usize; 6] = [1, 2, 3, 4, 6, 12];

/// Evaluates `$job.run::<N>()` with the const `N` equal to a [`BoardSide`] (`side: ...`) or a
/// [`PitsPerRow`] (`pits: ...`). This macro is the only place where a runtime size becomes a
/// type; each game names the trait its jobs implement (`othello::WithSide`,
/// `mancala::WithPits`). Its literal lists are [`SIDES`] and [`PIT_COUNTS`], which the size
/// types enforce and each game's tests check against; in the unit tests `side:` and `pits:`
/// cover [`TESTED_SIDES`] and [`TESTED_PIT_COUNTS`], and `any side:` and `any pits:` every
/// size, for the small jobs that test the rules at each; `learnable side:` covers
/// [`LEARNABLE_SIDES`], which its caller checks first.
macro_rules! dispatch {
    (side: $size:expr, $job:expr) => {{
        #[cfg(not(test))]
        let output = $crate::board::dispatch!(any side: $size, $job);
        #[cfg(test)]
        let output = $crate::board::dispatch!(@ $size, $job, 4 6 8 10 16 26);
        output
    }};
    (pits: $size:expr, $job:expr) => {{
        #[cfg(not(test))]
        let output = $crate::board::dispatch!(any pits: $size, $job);
        #[cfg(test)]
        let output = $crate::board::dispatch!(@ $size, $job, 1 2 3 4 6 12);
        output
    }};
    (any side: $size:expr, $job:expr) => {
        $crate::board::dispatch!(@ $size, $job, 4 6 8 10 12 14 16 18 20 22 24 26)
    };
    (learnable side: $size:expr, $job:expr) => {
        $crate::board::dispatch!(@ $size, $job, 6 8)
    };
    (any pits: $size:expr, $job:expr) => {
        $crate::board::dispatch!(@ $size, $job, 1 2 3 4 5 6 7 8 9 10 11 12)
    };
    (@ $size:expr, $job:expr, $($n:literal)*) => {
        match $size.get() {
            $($n => $job.run::<$n>(),)*
            // `BoardSide` and `PitsPerRow` hold only the listed sizes; the unit tests take the
            // tested ones.
            other => unreachable!("no board of size {other} in this build"),
        }
    };
}

pub(crate) use dispatch;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_reports_every_so_many_nodes_with_the_bounds_known() {
        let mut seen = Vec::new();
        let mut report = |p: &Progress| seen.push(*p);
        let nodes = {
            let mut tally = Tally::new(Some(&mut report));
            for _ in 0..Tally::EVERY {
                tally.visit();
            }
            tally.bounds = (-4, 2);
            for _ in 0..Tally::EVERY + 5 {
                tally.visit();
            }
            tally.nodes()
        };
        assert_eq!(nodes, 2 * Tally::EVERY + 5);
        let unknown = (i32::MIN, i32::MAX);
        let at = |n: u64, (lower, upper): (i32, i32)| Progress {
            nodes: n * Tally::EVERY,
            lower,
            upper,
        };
        assert_eq!(seen, [at(1, unknown), at(2, (-4, 2))]);
    }

    #[test]
    fn coordinates_parse_only_a_letter_and_a_plain_row() {
        let cases: &[(&str, Option<(usize, usize)>)] = &[
            ("A1", Some((0, 0))),
            ("a1", Some((0, 0))),
            ("h10", Some((7, 9))),
            ("Z26", Some((25, 25))),
            ("z9", Some((25, 8))),
            ("X10", Some((23, 9))),
            ("A27", None),
            ("A0", None),
            ("A01", None),
            ("AA1", None),
            ("1A", None),
            ("A-1", None),
            ("A+1", None),
            ("A100", None),
            ("A", None),
            ("", None),
            ("A1 ", None),
            (" A1", None),
            ("A3.14", None),
            ("#a2", None),
            ("é3", None),
            ("A١", None),
        ];
        for &(text, want) in cases {
            let got = text.parse::<Coord>().ok().map(|c| (c.col(), c.row()));
            assert_eq!(got, want, "parsing {text:?}");
        }
    }

    #[test]
    fn coordinates_print_as_they_parse() {
        for text in ["A1", "H8", "J10", "Z26", "B19"] {
            assert_eq!(text.parse::<Coord>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn size_types_hold_exactly_the_supported_sizes() {
        for size in 0..=30 {
            let side = BoardSide::new(size).map(BoardSide::get);
            assert_eq!(side, SIDES.contains(&size).then_some(size), "side {size}");
            let pits = PitsPerRow::new(size).map(PitsPerRow::get);
            assert_eq!(
                pits,
                PIT_COUNTS.contains(&size).then_some(size),
                "pits {size}"
            );
        }
        assert_eq!(BoardSide::new(usize::MAX), None);
    }

    #[test]
    fn outcomes_go_to_the_larger_count() {
        assert_eq!(Outcome::by_count(3, 2), Outcome::Won(Player::First));
        assert_eq!(Outcome::by_count(0, 1), Outcome::Won(Player::Second));
        assert_eq!(Outcome::by_count(5, 5), Outcome::Draw);
    }
}
