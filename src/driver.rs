//! The console side of the games: it reads whitespace-separated tokens the way C++ `cin >>` does,
//! writes every byte of the transcript through one buffered writer, and holds every prompt and
//! message the user sees. It asks the game modules what is legal and never decides a rule itself.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::board::{Coord, Outcome, Player, WithSize, with_pits, with_side};
use crate::mancala::{Mancala, MoveError, Next};
use crate::othello::{Cell, Othello, PitError};

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
    /// Reading or writing failed; a closed standard output shows up here as `BrokenPipe`.
    Io(io::Error),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::InputEnded => f.write_str("input ended before the game was over"),
            Stop::Unsupported(size) => write!(f, "no board of size {size}"),
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

impl<R: BufRead, W: Write> Console<R, W> {
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

    /// Flushes whatever is still buffered.
    fn finish(&mut self) -> Result<(), Stop> {
        self.output.flush()?;
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

/// Which game to play, with its settings.
#[derive(Clone, Copy, Debug)]
pub enum Setup {
    /// Othello with pits on a board of this side.
    Othello {
        /// Cells per row and column.
        side: usize,
    },
    /// Kalah with these pits per row and stones per pit.
    Mancala {
        /// Pits in each player's row.
        pits: usize,
        /// Stones in each pit at the start.
        stones: u32,
    },
}

/// Plays one game from `input` to `output`. Everything written before a stop stays written.
pub fn run<R: BufRead, W: Write>(
    setup: Setup,
    input: R,
    output: W,
    echo: bool,
) -> Result<(), Stop> {
    let mut console = Console::new(input, output, echo);
    let played = match setup {
        Setup::Othello { side } => {
            with_side(side, OthelloGame(&mut console)).unwrap_or(Err(Stop::Unsupported(side)))
        }
        Setup::Mancala { pits, stones } => with_pits(pits, MancalaGame(&mut console, stones))
            .unwrap_or(Err(Stop::Unsupported(pits))),
    };
    let flushed = console.finish();
    played.and(flushed)
}

/// The Othello console flow, run at a board side known at compile time.
struct OthelloGame<'a, R, W: Write>(&'a mut Console<R, W>);

impl<R: BufRead, W: Write> WithSize for OthelloGame<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop> {
        play_othello(Othello::<N>::new(), self.0)
    }
}

fn disc(player: Player) -> char {
    Cell::Disc(player).symbol()
}

fn play_othello<const N: usize, R: BufRead, W: Write>(
    mut game: Othello<N>,
    console: &mut Console<R, W>,
) -> Result<(), Stop> {
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

    let mut round = 1;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        console.say(text::round(round))?;
        console.say(&game)?;
        let mover = disc(game.to_move());
        // Passing is allowed exactly when the player to move has no legal move.
        if game.pass().is_ok() {
            console.say(text::pass(mover))?;
        } else {
            loop {
                let answer = console.ask(text::turn_prompt(mover))?;
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

/// The Mancala console flow, run at a pit count known at compile time.
struct MancalaGame<'a, R, W: Write>(&'a mut Console<R, W>, u32);

impl<R: BufRead, W: Write> WithSize for MancalaGame<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        play_mancala(Mancala::<P>::new(self.1), self.0)
    }
}

fn play_mancala<const P: usize, R: BufRead, W: Write>(
    mut game: Mancala<P>,
    console: &mut Console<R, W>,
) -> Result<(), Stop> {
    use mancala_text as text;

    let outcome = loop {
        console.say(&game)?;
        let mover = game.to_move();
        let sowing = loop {
            let answer = console.ask(text::prompt(mover, P))?;
            if text::UNDO.iter().any(|&word| answer.is(word)) {
                match game.undo() {
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
    use crate::testkit::Rng;

    /// Runs a game in-process on `input`, reading through a buffer of `capacity` bytes.
    fn play(
        setup: Setup,
        input: &[u8],
        capacity: usize,
        echo: bool,
    ) -> (Vec<u8>, Result<(), Stop>) {
        let mut out = Vec::new();
        let reader = io::BufReader::with_capacity(capacity, input);
        let result = run(setup, reader, &mut out, echo);
        (out, result)
    }

    const OTHELLO_4: Setup = Setup::Othello { side: 4 };

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
        let cases: [(Setup, &[u8], &[u8]); 2] = [
            (
                OTHELLO_4,
                include_bytes!("../tests/golden/othello/course-run-1.in"),
                include_bytes!("../tests/golden/othello/course-run-1.out"),
            ),
            (
                Setup::Mancala { pits: 6, stones: 4 },
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
                (Setup::Othello { side }, input)
            } else {
                let pits = 1 + rng.below(12);
                let stones = 1 + u32::try_from(rng.below(99)).unwrap();
                let input = hostile_input(&mut rng, |rng| (rng.below(pits + 2)).to_string());
                (Setup::Mancala { pits, stones }, input)
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
}
