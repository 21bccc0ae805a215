//! The console: it plays one game ([`Task`]) over standard input and output. The token reader
//! and the writer are in `console`; each game's texts and flow in `othello` and `mancala`. The
//! engine tools (`tools/`) and the arena (`matches/`) print through the same console
//! ([`with_console`]); the judge plays a game here in memory ([`transcript`]). The driver owns
//! every byte of a game's output, never decides a rule (it asks the games what is legal), and
//! uses nothing above the games and `board`.

mod console;
pub mod events;
mod mancala;
mod othello;
pub mod record;

#[cfg(test)]
pub(crate) mod tests;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use crate::board::{BoardSide, Coord, PitsPerRow, TableTooLarge};
use crate::mancala::{Capture, with_pits};
use crate::othello::{Labeller, PitError, SampleSet, Unfit, with_side};
pub use console::{Console, Question, Read, Showing, Streams};

/// A game to play at the console: one command line, checked.
#[derive(Clone, Debug)]
pub enum Task {
    /// Play Othello at the console.
    PlayOthello {
        /// The board side.
        side: BoardSide,
        /// The computer's part, if any.
        opponents: Opponents,
    },
    /// Play Kalah at the console.
    PlayMancala {
        /// The board.
        board: KalahBoard,
        /// The computer's part, if any.
        opponents: Opponents,
    },
}

/// A Kalah start position: pits per row and stones per pit.
#[derive(Clone, Copy, Debug)]
pub struct KalahBoard {
    /// Pits in each player's row.
    pub pits: PitsPerRow,
    /// Stones in each pit at the start.
    pub stones: u8,
    /// When a last stone in an empty pit captures.
    pub capture: Capture,
}

/// Who plays a console game besides the person at the keyboard.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opponents {
    /// Which players, by [`Player::index`], the computer moves for.
    pub computer: [bool; 2],
    /// How deep the computer looks: one of [`LEVELS`](crate::board::LEVELS).
    pub level: u32,
    /// Seed of the computer's choices among equal moves.
    pub seed: u64,
    /// Answer `?` at a person's prompt with a suggested move (always on against the computer).
    pub hints: bool,
}

impl Opponents {
    /// Whether `?` gets a hint: with `--hints`, against the computer, and on the friendly
    /// console (which is for people learning the game).
    fn hints(&self, showing: &Showing) -> bool {
        self.hints || self.computer.contains(&true) || showing.friendly
    }
}

/// The friendly console's words that are no move, in both games.
pub(super) mod friendly {
    /// Lists what can be typed.
    pub const HELP: &str = "help";
    /// Ends the game.
    pub const QUIT: &str = "quit";

    /// The line of a game ended by `quit`.
    pub fn quit(who: &str) -> String {
        format!("{who} quit. Game over.\n")
    }
}

/// Carries out `task` with `input` and `output`, shown as `showing` says. Everything written
/// before a stop stays written.
pub fn run(
    task: Task,
    showing: Showing,
    input: impl BufRead,
    output: impl Write,
) -> Result<(), Stop> {
    with_console(showing, input, output, |console| perform(task, console))
}

/// Runs `job` on a console over `input` and `output`, shown as `showing` says, and flushes it.
/// Everything written before a stop stays written.
///
/// The job sees the streams through one indirection ([`Streams`]), so that every game and
/// tool is built once for every board size, not once more for each pair of streams a caller
/// has (standard ones, memory, nothing): that halves the crate's optimized build.
pub fn with_console(
    showing: Showing,
    mut input: impl BufRead,
    mut output: impl Write,
    job: impl FnOnce(&mut Streams<'_>) -> Result<(), Stop>,
) -> Result<(), Stop> {
    let mut console: Streams<'_> = Console::new(&mut input, &mut output, showing);
    let done = job(&mut console);
    let flushed = console.close();
    done.and(flushed)
}

/// A game's transcript as the judge expects it: what the program writes and what it reads.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// Every byte written to standard output.
    pub output: Vec<u8>,
    /// Every token read, with where in `output` it was read.
    pub reads: Vec<Read>,
    /// Whether the game reached its end (rather than the end of the input).
    pub finished: bool,
}

/// The transcript of `task` on `input`, without echo.
pub fn transcript(task: Task, input: &[u8]) -> Transcript {
    let mut output = Vec::new();
    let mut input = input;
    let input: &mut dyn BufRead = &mut input;
    let mut console =
        Console::new(input, &mut output as &mut dyn Write, Showing::default()).keeping_reads();
    let done = perform(task, &mut console);
    // Writing to memory cannot fail.
    let _ = console.show();
    let reads = console.reads();
    drop(console);
    Transcript {
        output,
        reads,
        finished: done.is_ok(),
    }
}

/// Hands `task` to its job once its size is a type.
fn perform<R: BufRead, W: Write>(task: Task, console: &mut Console<R, W>) -> Result<(), Stop> {
    match task {
        Task::PlayOthello { side, opponents } => {
            with_side(side, othello::Game { console, opponents })
        }
        Task::PlayMancala { board, opponents } => with_pits(
            board.pits,
            mancala::Game {
                console,
                board,
                opponents,
            },
        ),
    }
}

/// The last line of a game that ended level, in both games.
const DRAW: &str = "Draw game!\n";

/// The answer that asks for a hint.
pub const HINT: &str = "?";

/// How the line that answers a hint request starts.
const HINT_LINE: &str = "Hint: ";

/// The line that answers a hint request.
fn hint(what: impl fmt::Display) -> String {
    format!("{HINT_LINE}{what}\n")
}

/// What a program that talks to the Othello console (the relay) waits for, types and reads.
pub mod othello_console {
    use super::othello::{disc, text};
    use crate::board::{Coord, Player};

    pub use super::HINT;
    pub use text::{PIT_COUNT_PROMPT, pit_prompt};

    /// The prompt for `player`'s move.
    #[must_use]
    pub fn turn_prompt(player: Player) -> String {
        text::turn_prompt(disc(player))
    }

    /// The move of the last hint in `output` (a hint follows the prompt on its line, since
    /// the answer `?` is not echoed), if there is one.
    #[must_use]
    pub fn last_hint(output: &str) -> Option<Coord> {
        let (_, hint) = output.rsplit_once(super::HINT_LINE)?;
        hint.lines().next()?.trim().parse().ok()
    }
}

/// Why a game stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// Standard input ended while the game still needed an answer.
    InputEnded,
    /// A pit given on the command line that the board cannot take.
    Pit(Coord, PitError),
    /// A table could not be given the memory asked for.
    Memory(usize),
    /// Reading or writing failed; a closed standard output shows up here as `BrokenPipe`.
    Io(io::Error),
    /// A file named on the command line could not be read.
    File(PathBuf, io::Error),
    /// A file of positions holds one that is not a position: the file and what is wrong.
    Position(PathBuf, String),
    /// `train` on a board side with no patterns to fit.
    Unlearnable(usize),
    /// A `train --cache` file that does not hold the positions this training asks for: the
    /// file, what is asked for (boxed: the error stays small), and why not.
    Cache(PathBuf, Box<SampleSet>, Unfit),
    /// A record to review that is not a whole legal game.
    Record(record::BadRecord),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::InputEnded => f.write_str("input ended before the game was over"),
            Stop::Pit(at, PitError::TooMany) => {
                write!(f, "pit {at}: more pits than half the board")
            }
            Stop::Pit(at, PitError::OffBoard) => write!(f, "pit {at} is off the board"),
            Stop::Pit(at, PitError::Centre) => write!(f, "pit {at} is a centre cell"),
            Stop::Pit(at, PitError::AlreadyPit | PitError::Occupied) => {
                write!(f, "pit {at} is given twice")
            }
            Stop::Memory(megabytes) => {
                write!(f, "cannot allocate {megabytes} MiB for the table")
            }
            Stop::Io(err) => write!(f, "{err}"),
            Stop::File(path, err) => write!(f, "{}: {err}", path.display()),
            Stop::Position(path, why) => write!(f, "{}: {why}", path.display()),
            Stop::Record(why) => write!(f, "{why}"),
            Stop::Unlearnable(side) => write!(
                f,
                "no learned evaluation for {side}x{side} boards (6x6 and 8x8 have one)"
            ),
            Stop::Cache(path, asked, unfit) => {
                write!(f, "{}: ", path.display())?;
                match unfit {
                    Unfit::NoHeader => f.write_str(
                        "not a file of solved positions from this train --cache (files from \
                         before their header are not read)",
                    )?,
                    Unfit::Version(version) => write!(
                        f,
                        "solved positions in format {version}, this train reads format {}",
                        crate::othello::CACHE_VERSION
                    )?,
                    Unfit::MadeFor(made) => {
                        write!(f, "{}, not {}", sample_set(made), sample_set(asked))?;
                    }
                }
                f.write_str(": give another --cache file, or remove this one to make it again")
            }
        }
    }
}

/// What a set of solved positions was made for, in words.
fn sample_set(set: &SampleSet) -> String {
    let phase = match (set.midgame, set.labeller) {
        (false, _) => "endgame".to_string(),
        (true, None) => "midgame".to_string(),
        (true, Some(Labeller { weights, share })) => {
            format!("blended (weights {weights:#018x}, search {share}%) midgame")
        }
    };
    format!(
        "{} {phase} positions of {}x{} from seed {}",
        set.samples, set.side, set.side, set.seed
    )
}

impl std::error::Error for Stop {}

impl From<TableTooLarge> for Stop {
    fn from(err: TableTooLarge) -> Stop {
        Stop::Memory(err.megabytes)
    }
}

impl From<io::Error> for Stop {
    fn from(err: io::Error) -> Stop {
        Stop::Io(err)
    }
}
