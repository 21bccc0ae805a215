//! The console side of the games: it reads whitespace-separated tokens the way C++ `cin >>` does,
//! writes every byte of the transcript through one buffered writer, and holds every prompt and
//! message the user sees. It asks the game modules what is legal and never decides a rule itself.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::Instant;

use crate::bitboard::{Layout, Side};
use crate::board::{Coord, Outcome, Player, WithPits, WithSide, with_pits, with_side};
use crate::mancala::{Mancala, MoveError, Next};
use crate::othello::{Cell, Othello, PitError};
use crate::rng::Rng;
use crate::{computer, generate, search};

/// The last line of a game that ended level, in both games.
const DRAW: &str = "Draw game!\n";

/// Every line and prompt of the Othello transcript, as the course's sample program prints them.
mod othello_text {
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

/// The reports of the engine tools: perft and the solvers.
mod engine_text {
    pub const PERFT_HEADER: &str = "depth            leaves     seconds\n";

    pub fn perft_row(depth: u32, leaves: u64, seconds: f64) -> String {
        format!("{depth:>5} {leaves:>17} {seconds:>11.3}\n")
    }

    pub fn perft_rate(leaves: u64, seconds: f64) -> String {
        // Whole leaves per second; a run too fast to time reports its leaves.
        let rate = if seconds > 0.0 {
            leaves as f64 / seconds
        } else {
            leaves as f64
        };
        format!("leaves per second: {rate:.0}\n")
    }

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
}

/// Every line and prompt of the Mancala transcript, as the console contract defines them.
mod mancala_text {
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

    /// The answers that ask for an undo.
    pub const UNDO: [&str; 2] = ["u", "U"];
}

/// Why a game stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// Standard input ended while the game still needed an answer.
    InputEnded,
    /// The game has no board of this size.
    Unsupported(usize),
    /// A pit given on the command line that the board cannot take.
    Pit(Coord, PitError),
    /// Reading or writing failed; a closed standard output shows up here as `BrokenPipe`.
    Io(io::Error),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::InputEnded => f.write_str("input ended before the game was over"),
            Stop::Unsupported(size) => write!(f, "no board of size {size}"),
            Stop::Pit(at, PitError::TooMany) => {
                write!(f, "pit {at}: more pits than half the board")
            }
            Stop::Pit(at, PitError::OffBoard) => write!(f, "pit {at} is off the board"),
            Stop::Pit(at, PitError::Centre) => write!(f, "pit {at} is a centre cell"),
            Stop::Pit(at, PitError::AlreadyPit | PitError::Occupied) => {
                write!(f, "pit {at} is given twice")
            }
            Stop::Io(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for Stop {}

impl From<io::Error> for Stop {
    fn from(err: io::Error) -> Stop {
        Stop::Io(err)
    }
}

/// The longest token kept in full; longer ones are read to their end but are malformed anyway.
const TOKEN_LIMIT: usize = 64;

/// C++ `isspace` in the "C" locale: what separates tokens for `cin >>`.
fn is_separator(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Token input and buffered output for one game.
pub struct Console<R, W: Write> {
    input: R,
    output: io::BufWriter<W>,
    echo: bool,
    token: Vec<u8>,
    overlong: bool,
}

impl<R, W: Write> Console<R, W> {
    /// A console over `input` and `output`; with `echo`, every token read is written back with a
    /// line break, as a terminal would have shown it.
    pub fn new(input: R, output: W, echo: bool) -> Self {
        Console {
            input,
            output: io::BufWriter::new(output),
            echo,
            token: Vec::with_capacity(TOKEN_LIMIT),
            overlong: false,
        }
    }

    /// Writes `text` to the transcript.
    fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        write!(self.output, "{text}")?;
        Ok(())
    }

    /// Flushes whatever is still buffered.
    fn finish(&mut self) -> Result<(), Stop> {
        self.output.flush()?;
        Ok(())
    }
}

impl<R: BufRead, W: Write> Console<R, W> {
    /// Writes `prompt`, shows it, and reads the answer: the next whitespace-separated token.
    fn ask(&mut self, prompt: impl fmt::Display) -> Result<Answer<'_>, Stop> {
        self.say(prompt)?;
        self.output.flush()?;
        self.read_token()?;
        Ok(Answer {
            text: (!self.overlong)
                .then(|| std::str::from_utf8(&self.token).ok())
                .flatten(),
        })
    }

    /// Reads one token like `cin >>`: skips separators, then takes bytes up to the next one.
    fn read_token(&mut self) -> Result<(), Stop> {
        self.token.clear();
        self.overlong = false;
        let mut started = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err.into()),
            };
            if buf.is_empty() {
                break;
            }
            let skip = if started {
                0
            } else {
                buf.iter().take_while(|&&b| is_separator(b)).count()
            };
            let rest = &buf[skip..];
            let len = rest.iter().take_while(|&&b| !is_separator(b)).count();
            started |= len > 0;
            let room = TOKEN_LIMIT - self.token.len();
            self.token.extend_from_slice(&rest[..len.min(room)]);
            self.overlong |= len > room;
            if self.echo {
                self.output.write_all(&rest[..len])?;
            }
            let ended = len < rest.len();
            self.input.consume(skip + len);
            if started && ended {
                break;
            }
        }
        if !started {
            return Err(Stop::InputEnded);
        }
        if self.echo {
            self.output.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// One token as read: its text, or `None` when it is not UTF-8 or too long to mean anything.
struct Answer<'a> {
    text: Option<&'a str>,
}

impl Answer<'_> {
    /// The token as a cell address.
    fn coord(&self) -> Option<Coord> {
        self.text?.parse().ok()
    }

    /// Whether the token is exactly `word`.
    fn is(&self, word: &str) -> bool {
        self.text == Some(word)
    }

    /// The token as plain decimal digits, saturated at `usize::MAX`.
    fn number(&self) -> Option<usize> {
        digits_value(self.text?)
    }

    /// The token as a C++-style decimal integer (optional sign, then digits): `Some(n)` for a
    /// value that is not negative, saturated at `usize::MAX`; `None` for anything else.
    fn count(&self) -> Option<usize> {
        let text = self.text?;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let value = digits_value(digits)?;
        (!negative || value == 0).then_some(value)
    }
}

/// The value of a non-empty run of ASCII digits, saturated at `usize::MAX`.
fn digits_value(digits: &str) -> Option<usize> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0, |n: usize, d| {
        n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
    }))
}

/// What the program was asked to do.
#[derive(Clone, Debug)]
pub enum Task {
    /// Something on an Othello board of this side.
    Othello {
        /// Cells per row and column.
        side: usize,
        /// What to do there.
        job: OthelloJob,
    },
    /// Something on a Kalah board with these pits per row and stones per pit.
    Mancala {
        /// Pits in each player's row.
        pits: usize,
        /// Stones in each pit at the start.
        stones: u32,
        /// What to do there.
        job: MancalaJob,
    },
}

/// Who plays a console game besides the person at the keyboard.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opponents {
    /// Which players, by [`Player::index`], the computer moves for.
    pub computer: [bool; 2],
    /// How deep the computer looks, 1 to [`computer::MAX_LEVEL`].
    pub level: u32,
    /// Seed of the computer's choices among equal moves.
    pub seed: u64,
    /// Answer `?` at a person's prompt with a suggested move (always on against the computer).
    pub hints: bool,
}

impl Opponents {
    fn hints(&self) -> bool {
        self.hints || self.computer.contains(&true)
    }
}

/// The things to do on an Othello board.
#[derive(Clone, Debug)]
pub enum OthelloJob {
    /// Play a game at the console, echoing input if asked.
    Play {
        /// Write every token read back to the output.
        echo: bool,
        /// The computer's part, if any.
        opponents: Opponents,
    },
    /// Count move paths from the start with these pits, to each depth up to `depth`.
    Perft {
        /// Pit cells.
        pits: Vec<Coord>,
        /// The deepest ply.
        depth: u32,
    },
    /// Solve the start with these pits.
    Solve {
        /// Pit cells.
        pits: Vec<Coord>,
    },
    /// Print the input of one random game.
    Generate(Generation),
}

/// How to make a random game's input.
#[derive(Clone, Copy, Debug)]
pub struct Generation {
    /// The same seed gives the same game.
    pub seed: u64,
    /// Mix in wrong entries, each followed by the right one.
    pub errors: bool,
}

/// The things to do on a Kalah board.
#[derive(Clone, Copy, Debug)]
pub enum MancalaJob {
    /// Play a game at the console, echoing input if asked.
    Play {
        /// Write every token read back to the output.
        echo: bool,
        /// The computer's part, if any.
        opponents: Opponents,
    },
    /// Solve the start.
    Solve,
    /// Print the input of one random game.
    Generate(Generation),
}

impl Task {
    fn echo(&self) -> bool {
        matches!(
            self,
            Task::Othello {
                job: OthelloJob::Play { echo: true, .. },
                ..
            } | Task::Mancala {
                job: MancalaJob::Play { echo: true, .. },
                ..
            }
        )
    }
}

/// Carries out `task` with `input` and `output`. Everything written before a stop stays written.
pub fn run<R: BufRead, W: Write>(task: Task, input: R, output: W) -> Result<(), Stop> {
    let mut console = Console::new(input, output, task.echo());
    let done = match task {
        Task::Othello { side, job } => {
            with_side(side, OthelloRun(&mut console, job)).unwrap_or(Err(Stop::Unsupported(side)))
        }
        Task::Mancala { pits, stones, job } => {
            with_pits(pits, MancalaRun(&mut console, stones, job))
                .unwrap_or(Err(Stop::Unsupported(pits)))
        }
    };
    let flushed = console.finish();
    done.and(flushed)
}

/// An Othello job, run at a board side known at compile time.
struct OthelloRun<'a, R, W: Write>(&'a mut Console<R, W>, OthelloJob);

impl<R: BufRead, W: Write> WithSide for OthelloRun<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let OthelloRun(console, job) = self;
        match job {
            OthelloJob::Play { opponents, .. } => {
                play_othello(Othello::<N>::new(), opponents, console)
            }
            OthelloJob::Perft { pits, depth } => {
                run_perft(&othello_start::<N>(&pits)?, depth, console)
            }
            OthelloJob::Solve { pits } => run_solve_othello(&othello_start::<N>(&pits)?, console),
            OthelloJob::Generate(how) => {
                print_tokens(generate::othello::<N>(how.seed, how.errors), console)
            }
        }
    }
}

/// A Kalah job, run at a row length known at compile time.
struct MancalaRun<'a, R, W: Write>(&'a mut Console<R, W>, u32, MancalaJob);

impl<R: BufRead, W: Write> WithPits for MancalaRun<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        let MancalaRun(console, stones, job) = self;
        match job {
            MancalaJob::Play { opponents, .. } => {
                play_mancala(Mancala::<P>::new(stones), opponents, console)
            }
            MancalaJob::Solve => run_solve_mancala(&Mancala::<P>::new(stones), console),
            MancalaJob::Generate(how) => print_tokens(
                generate::mancala::<P>(stones, how.seed, how.errors),
                console,
            ),
        }
    }
}

/// Prints generated input, one token a line.
fn print_tokens<R, W: Write>(tokens: Vec<String>, console: &mut Console<R, W>) -> Result<(), Stop> {
    for token in tokens {
        console.say(format_args!("{token}\n"))?;
    }
    Ok(())
}

/// The answer that asks for a hint.
const HINT: &str = "?";

/// The line that answers a hint request.
fn hint(what: impl fmt::Display) -> String {
    format!("Hint: {what}\n")
}

/// Takes back the last sowing; against the computer, back to before the person's last sowing,
/// so that the person is to move again. Refused (and nothing undone) when there is none.
fn undo_to_person<const P: usize>(
    game: &mut Mancala<P>,
    opponents: &Opponents,
) -> Result<(), MoveError> {
    let mut back = game.clone();
    loop {
        back.undo()?;
        if !opponents.computer[back.to_move().index()] {
            *game = back;
            return Ok(());
        }
    }
}

/// The Othello start position with `pits`, or the first pit it cannot take.
fn othello_start<const N: usize>(pits: &[Coord]) -> Result<Othello<N>, Stop>
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    if let Some(&at) = pits.get(Othello::<N>::MAX_PITS) {
        return Err(Stop::Pit(at, PitError::TooMany));
    }
    for &at in pits {
        game.add_pit(at).map_err(|err| Stop::Pit(at, err))?;
    }
    Ok(game)
}

/// Prints, for each depth from 1 to `depth`, the leaf count of `game`'s tree and its time, then
/// the overall rate.
fn run_perft<const N: usize, R, W: Write>(
    game: &Othello<N>,
    depth: u32,
    console: &mut Console<R, W>,
) -> Result<(), Stop>
where
    Side<N>: Layout,
{
    use engine_text as text;

    console.say(text::PERFT_HEADER)?;
    let (mut leaves, mut seconds) = (0, 0.0);
    for d in 1..=depth {
        let clock = Instant::now();
        let count = search::perft(game.position(), d);
        let took = clock.elapsed().as_secs_f64();
        console.say(text::perft_row(d, count, took))?;
        console.output.flush()?;
        leaves += count;
        seconds += took;
    }
    console.say(text::perft_rate(leaves, seconds))
}

/// Prints the perfect-play value of `game` for Black and a best first move.
fn run_solve_othello<const N: usize, R, W: Write>(
    game: &Othello<N>,
    console: &mut Console<R, W>,
) -> Result<(), Stop>
where
    Side<N>: Layout,
{
    use engine_text as text;

    let solution = search::solve_othello(game.position());
    console.say(text::othello_value(solution.value))?;
    match solution.best.and_then(|i| Coord::new(i % N, i / N, N)) {
        Some(at) => console.say(text::best_move(at)),
        None => console.say(text::NO_MOVE),
    }
}

/// Prints the perfect-play margin of `game` for Player 1 and a best first pit.
fn run_solve_mancala<const P: usize, R, W: Write>(
    game: &Mancala<P>,
    console: &mut Console<R, W>,
) -> Result<(), Stop> {
    use engine_text as text;

    let solution = search::solve_mancala(game);
    console.say(text::mancala_value(solution.value))?;
    // The start always has a move: every pit holds stones.
    if let Some(pit) = solution.best {
        console.say(text::best_pit(pit))?;
    }
    Ok(())
}

fn disc(player: Player) -> char {
    Cell::Disc(player).symbol()
}

fn play_othello<const N: usize, R: BufRead, W: Write>(
    mut game: Othello<N>,
    opponents: Opponents,
    console: &mut Console<R, W>,
) -> Result<(), Stop>
where
    Side<N>: Layout,
{
    use othello_text as text;

    let pits = loop {
        let answer = console.ask(text::PIT_COUNT_PROMPT)?;
        match answer.count().map(Othello::<N>::check_pit_count) {
            None => console.say(text::INVALID_NUMBER)?,
            Some(Err(_)) => console.say(text::TOO_MANY_PITS)?,
            Some(Ok(pits)) => break pits,
        }
    };
    for k in 1..=pits {
        loop {
            let answer = console.ask(text::pit_prompt(k))?;
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
            let at = computer::othello_move(&game, opponents.level, &mut rng);
            // The player has a legal move, so the computer names one.
            if let Some(at) = at.filter(|&at| game.play(at).is_ok()) {
                console.say(format_args!("{}{at}\n", text::turn_prompt(mover)))?;
            }
        } else {
            loop {
                let answer = console.ask(text::turn_prompt(mover))?;
                if opponents.hints() && answer.is(HINT) {
                    if let Some(at) = computer::othello_move(&game, opponents.level, &mut rng) {
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

fn play_mancala<const P: usize, R: BufRead, W: Write>(
    mut game: Mancala<P>,
    opponents: Opponents,
    console: &mut Console<R, W>,
) -> Result<(), Stop> {
    use mancala_text as text;

    let mut rng = Rng::new(opponents.seed);
    let outcome = loop {
        console.say(&game)?;
        let mover = game.to_move();
        let sowing = loop {
            if opponents.computer[mover.index()] {
                let pit = computer::mancala_move(&game, opponents.level, &mut rng);
                // The game is not over, so the computer names a pit with stones.
                if let Some(sowing) = pit.and_then(|pit| Some((pit, game.sow(pit).ok()?))) {
                    console.say(format_args!("{}{}\n", text::prompt(mover, P), sowing.0))?;
                    break Some(sowing.1);
                }
            }
            let answer = console.ask(text::prompt(mover, P))?;
            if opponents.hints() && answer.is(HINT) {
                if let Some(pit) = computer::mancala_move(&game, opponents.level, &mut rng) {
                    console.say(hint(pit))?;
                }
                continue;
            }
            if text::UNDO.iter().any(|&word| answer.is(word)) {
                match undo_to_person(&mut game, &opponents) {
                    Ok(()) => break None,
                    Err(_) => console.say(text::NOTHING_TO_UNDO)?,
                }
                continue;
            }
            let Some(pit) = answer.number() else {
                console.say(text::invalid_pit(P))?;
                continue;
            };
            match game.sow(pit) {
                Ok(sowing) => break Some(sowing),
                Err(MoveError::EmptyPit) => console.say(text::empty_pit(pit))?,
                // No pit of that number (the game is not over while this loop runs).
                Err(_) => console.say(text::invalid_pit(P))?,
            }
        };
        let Some(sowing) = sowing else {
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
    console.say(&game)?;
    let (first, second) = (game.score(Player::First), game.score(Player::Second));
    console.say(text::scores(first, second))?;
    match outcome {
        Outcome::Won(player) => console.say(text::wins(player)),
        Outcome::Draw => console.say(DRAW),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Coord;

    /// Runs a game in-process on `input`, reading through a buffer of `capacity` bytes.
    fn play(game: Game, input: &[u8], capacity: usize, echo: bool) -> (Vec<u8>, Result<(), Stop>) {
        let task = match game {
            Game::Othello { side } => Task::Othello {
                side,
                job: OthelloJob::Play {
                    echo,
                    opponents: Opponents::default(),
                },
            },
            Game::Mancala { pits, stones } => Task::Mancala {
                pits,
                stones,
                job: MancalaJob::Play {
                    echo,
                    opponents: Opponents::default(),
                },
            },
        };
        let mut out = Vec::new();
        let result = run(
            task,
            io::BufReader::with_capacity(capacity, input),
            &mut out,
        );
        (out, result)
    }

    /// A game to play in a test.
    #[derive(Clone, Copy, Debug)]
    enum Game {
        Othello { side: usize },
        Mancala { pits: usize, stones: u32 },
    }

    const OTHELLO_4: Game = Game::Othello { side: 4 };

    fn tokens(input: &[u8], capacity: usize) -> Vec<Vec<u8>> {
        let mut console = Console::new(
            io::BufReader::with_capacity(capacity, input),
            Vec::new(),
            false,
        );
        let mut seen = Vec::new();
        while console.read_token().is_ok() {
            seen.push(console.token.clone());
        }
        seen
    }

    #[test]
    fn tokens_split_like_cin_whatever_the_buffer_size() {
        let input = b"  3\r\nA1 b2\tC3\x0b\x0cd4\n\n\xff\xfeZ\x00 +1";
        let want: Vec<Vec<u8>> = [
            &b"3"[..],
            b"A1",
            b"b2",
            b"C3",
            b"d4",
            b"\xff\xfeZ\x00",
            b"+1",
        ]
        .iter()
        .map(|t| t.to_vec())
        .collect();
        for capacity in [1, 2, 3, 7, 8192] {
            assert_eq!(tokens(input, capacity), want, "buffer of {capacity}");
        }
        assert!(tokens(b" \r\n\t ", 4).is_empty());
    }

    #[test]
    fn counts_read_like_cin_integers_but_refuse_negatives() {
        let cases: &[(&[u8], Option<usize>)] = &[
            (b"3", Some(3)),
            (b"+3", Some(3)),
            (b"007", Some(7)),
            (b"-0", Some(0)),
            (b"99999999999999999999999999", Some(usize::MAX)),
            (b"-1", None),
            (b"-", None),
            (b"+", None),
            (b"3.5", None),
            (b"3abc", None),
            (b"abc", None),
            (b"0x10", None),
            (b"\xff3", None),
        ];
        for &(token, want) in cases {
            let text = std::str::from_utf8(token).ok();
            assert_eq!(Answer { text }.count(), want, "{token:?}");
        }
    }

    #[test]
    fn a_long_token_is_read_whole_but_kept_short() {
        let mut input = vec![b'A'; 10_000];
        input.extend_from_slice(b" 0\n");
        let (out, result) = play(OTHELLO_4, &input, 16, true);
        assert!(matches!(result, Err(Stop::InputEnded)));
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(&format!("Enter number of pits: {}\n", "A".repeat(10_000))));
        assert!(text.contains("Invalid number!\nEnter number of pits: 0\nRound 1:\n"));
    }

    #[test]
    fn crlf_input_plays_like_lf_input() {
        let lf = b"2\nA1\nB2\nA2\nC4\n".to_vec();
        let crlf: Vec<u8> = lf
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        let (want, _) = play(OTHELLO_4, &lf, 64, false);
        let (got, _) = play(OTHELLO_4, &crlf, 64, false);
        assert_eq!(got, want);
        assert!(!got.contains(&b'\r'));
    }

    #[test]
    fn input_ending_anywhere_stops_with_a_prefix_of_the_full_transcript() {
        let cases: [(Game, &[u8], &[u8]); 2] = [
            (
                OTHELLO_4,
                include_bytes!("../tests/golden/othello/course-run-1.in"),
                include_bytes!("../tests/golden/othello/course-run-1.out"),
            ),
            (
                Game::Mancala { pits: 6, stones: 4 },
                include_bytes!("../tests/golden/mancala/default-game.in"),
                include_bytes!("../tests/golden/mancala/default-game.out"),
            ),
        ];
        for (setup, input, full) in cases {
            // Cut only between tokens: a cut inside one leaves a different, shorter token.
            let cuts = (0..input.len()).filter(|&cut| cut == 0 || is_separator(input[cut - 1]));
            for cut in cuts {
                let (out, result) = play(setup, &input[..cut], 5, false);
                assert!(
                    matches!(result, Err(Stop::InputEnded)),
                    "{setup:?} cut at {cut}"
                );
                assert!(
                    full.starts_with(&out),
                    "{setup:?} cut at {cut}: not a prefix"
                );
            }
            let (out, result) = play(setup, input, 5, false);
            assert!(result.is_ok());
            assert_eq!(out, full);
        }
    }

    /// A stream mixing plausible answers (from `answer`) with junk: bad numbers, bad
    /// addresses, invalid UTF-8, NUL, CR, tabs, and an end at a random point.
    fn hostile_input(rng: &mut Rng, answer: impl Fn(&mut Rng) -> String) -> Vec<u8> {
        let junk: &[&[u8]] = &[
            b"-1",
            b"+2",
            b"1e3",
            b"99999999999999999999999",
            b"A0",
            b"A01",
            b"AA1",
            b"1A",
            b"\xff\xfe",
            b"\x00",
            b"\xc3\xa93",
            b"#$@",
            b"u",
            b"U",
            b"?",
            b"-",
            b"3.14",
        ];
        let separators: &[&[u8]] = &[b" ", b"\n", b"\r\n", b"\t", b"\r", b"\x0b"];
        let mut input = Vec::new();
        for _ in 0..rng.below(3000) {
            match rng.below(10) {
                0..=1 => input.extend_from_slice(junk[rng.below(junk.len())]),
                2 => input.push(u8::try_from(rng.below(256)).unwrap()),
                _ => input.extend_from_slice(answer(rng).as_bytes()),
            }
            input.extend_from_slice(separators[rng.below(separators.len())]);
        }
        input
    }

    #[test]
    fn hostile_input_ends_the_game_or_the_input_never_anything_else() {
        let mut rng = Rng::new(0xB0A4D);
        let mut finished = [0; 2];
        for round in 0..400 {
            let (setup, input) = if round % 2 == 0 {
                let side = crate::board::SIDES[rng.below(4)];
                let input = hostile_input(&mut rng, |rng| match rng.below(4) {
                    0 => rng.below(side * side / 2 + 3).to_string(),
                    _ => {
                        let col = char::from(b'a' + u8::try_from(rng.below(side + 1)).unwrap());
                        format!("{col}{}", rng.below(side + 2))
                    }
                });
                (Game::Othello { side }, input)
            } else {
                let pits = 1 + rng.below(12);
                let stones = 1 + u32::try_from(rng.below(99)).unwrap();
                let input = hostile_input(&mut rng, |rng| (rng.below(pits + 2)).to_string());
                (Game::Mancala { pits, stones }, input)
            };
            let (out, result) = play(setup, &input, 1 + rng.below(64), rng.below(2) == 0);
            match result {
                Ok(()) => {
                    finished[round % 2] += 1;
                    assert!(out.ends_with(b"wins!\n") || out.ends_with(b"Draw game!\n"));
                }
                Err(Stop::InputEnded) => {}
                Err(other) => panic!("{setup:?} stopped by {other}"),
            }
        }
        assert!(
            finished.iter().all(|&n| n > 10),
            "too few hostile games finished: {finished:?}"
        );
    }

    #[test]
    fn generated_games_replay_to_their_end_at_every_size() {
        use crate::board::{PIT_COUNTS, SIDES};
        let mut complained = [0; 2];
        for seed in 0..100 {
            for errors in [false, true] {
                let side = SIDES[usize::try_from(seed).unwrap() % SIDES.len()];
                let job = OthelloJob::Generate(Generation { seed, errors });
                let othello = check_generated(Task::Othello { side, job }, Game::Othello { side });
                let pits = 1 + usize::try_from(seed).unwrap() % PIT_COUNTS.end();
                let stones = 1 + u32::try_from(seed % 7).unwrap();
                let job = MancalaJob::Generate(Generation { seed, errors });
                let task = Task::Mancala { pits, stones, job };
                let mancala = check_generated(task, Game::Mancala { pits, stones });
                if errors {
                    complained[0] += usize::from(othello);
                    complained[1] += usize::from(mancala);
                } else {
                    assert!(
                        !othello && !mancala,
                        "seed {seed}: a wrong entry without --errors"
                    );
                }
            }
        }
        // Wrong entries are random, so a short game may have none; most have some.
        assert!(
            complained.iter().all(|&n| n > 60),
            "{complained:?} of 100 games"
        );
    }

    /// Generates input with `task`, plays it as `game`, expects the game's end, and tells
    /// whether the game complained about a wrong entry on the way.
    fn check_generated(task: Task, game: Game) -> bool {
        let mut tokens = Vec::new();
        run(task.clone(), io::empty(), &mut tokens).unwrap();
        let (out, result) = play(game, &tokens, 64, false);
        assert!(result.is_ok(), "{task:?} did not reach the end");
        let text = String::from_utf8(out).unwrap();
        let complaints = [
            "Invalid",
            "Too many",
            "is empty!",
            "Nothing to undo!",
            "Move undone.",
        ];
        complaints.iter().any(|c| text.contains(c))
    }

    #[test]
    fn a_seed_fixes_the_game_and_errors_show_up() {
        let make = |seed, errors| {
            let mut out = Vec::new();
            let job = OthelloJob::Generate(Generation { seed, errors });
            run(Task::Othello { side: 8, job }, io::empty(), &mut out).unwrap();
            out
        };
        assert_eq!(make(5, true), make(5, true));
        assert_ne!(make(5, false), make(6, false));
        let (out, _) = play(Game::Othello { side: 8 }, &make(5, true), 64, false);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Invalid move!\n"), "no wrong move in seed 5");
    }

    /// Plays with `opponents` from `input`; returns the transcript.
    fn versus(game: Game, opponents: Opponents, input: &[u8]) -> String {
        let task = match game {
            Game::Othello { side } => Task::Othello {
                side,
                job: OthelloJob::Play {
                    echo: false,
                    opponents,
                },
            },
            Game::Mancala { pits, stones } => Task::Mancala {
                pits,
                stones,
                job: MancalaJob::Play {
                    echo: false,
                    opponents,
                },
            },
        };
        let mut out = Vec::new();
        // Input may run out: the transcript up to there is what the tests read.
        let _ = run(task, input, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_hint_names_a_legal_move_and_asks_again_only_when_hints_are_on() {
        let hints = Opponents {
            hints: true,
            level: 2,
            ..Opponents::default()
        };
        let text = versus(Game::Othello { side: 4 }, hints, b"0 ? ");
        let hint = text.split("Hint: ").nth(1).unwrap().lines().next().unwrap();
        let at: Coord = hint.parse().unwrap();
        assert!(Othello::<4>::new().legal_moves().any(|m| m == at), "{hint}");
        assert!(text.ends_with(&format!("Hint: {hint}\nPlayer X's turn: ")));
        let plain = versus(Game::Othello { side: 4 }, Opponents::default(), b"0 ? ");
        assert!(plain.contains("Player X's turn: Invalid move!\n") && !plain.contains("Hint"));
    }

    #[test]
    fn the_computer_prints_its_move_after_the_prompt_and_undo_goes_back_to_the_person() {
        let computer_two = Opponents {
            computer: [false, true],
            level: 2,
            ..Opponents::default()
        };
        let text = versus(Game::Mancala { pits: 3, stones: 2 }, computer_two, b"1 u ");
        // Player 1 sows pit 1; the computer answers on the same prompt line as a person would.
        let reply = text
            .lines()
            .find(|l| l.starts_with("Player 2, choose a pit (1-3, u = undo): "));
        let pit = reply.unwrap().rsplit(' ').next().unwrap();
        assert!(["1", "2", "3"].contains(&pit), "{text}");
        // One u takes back the computer's sowing and the person's: the start, Player 1 to move.
        let after = text.split("Move undone.\n").nth(1).unwrap();
        let start = Mancala::<3>::new(2).to_string();
        assert!(after.starts_with(&start), "{after}");
        assert!(after.ends_with("Player 1, choose a pit (1-3, u = undo): "));
    }
}
