//! The console side of the games: it reads whitespace-separated tokens the way C++ `cin >>` does,
//! writes every byte of the transcript through one buffered writer, and holds every prompt and
//! message the user sees. It asks the game modules what is legal and never decides a rule itself.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::board::{Coord, Player, WithSide, with_side};
use crate::othello::{Cell, Othello, Outcome, PitError};

/// Every line and prompt of the Othello transcript, as the course's sample program prints them.
mod othello_text {
    pub const PIT_COUNT_PROMPT: &str = "Enter number of pits: ";
    pub const TOO_MANY_PITS: &str = "Too many pits!\n";
    pub const INVALID_NUMBER: &str = "Invalid number!\n";
    pub const INVALID_POSITION: &str = "Invalid position!\n";
    pub const INVALID_MOVE: &str = "Invalid move!\n";
    pub const GAME_OVER: &str = "Game over:\n";
    pub const DRAW: &str = "Draw game!\n";

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

    /// The token as a C++-style decimal integer (optional sign, then digits): `Some(n)` for a
    /// value that is not negative, saturated at `u64::MAX`; `None` for anything else.
    fn count(&self) -> Option<u64> {
        let text = self.text?;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let value = digits.bytes().fold(0u64, |n, d| {
            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        });
        (!negative || value == 0).then_some(value)
    }
}

/// Which game to play, with its settings.
#[derive(Clone, Copy, Debug)]
pub enum Setup {
    /// Othello with pits on a board of this side.
    Othello {
        /// Cells per row and column.
        side: usize,
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
    };
    let flushed = console.finish();
    played.and(flushed)
}

/// The Othello console flow, run at a board side known at compile time.
struct OthelloGame<'a, R, W: Write>(&'a mut Console<R, W>);

impl<R: BufRead, W: Write> WithSide for OthelloGame<'_, R, W> {
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
        Outcome::Draw => console.say(text::DRAW),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs Othello in-process on `input`, reading through a buffer of `capacity` bytes.
    fn othello(
        side: usize,
        input: &[u8],
        capacity: usize,
        echo: bool,
    ) -> (Vec<u8>, Result<(), Stop>) {
        let mut out = Vec::new();
        let reader = io::BufReader::with_capacity(capacity, input);
        let result = run(Setup::Othello { side }, reader, &mut out, echo);
        (out, result)
    }

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
        let cases: &[(&[u8], Option<u64>)] = &[
            (b"3", Some(3)),
            (b"+3", Some(3)),
            (b"007", Some(7)),
            (b"-0", Some(0)),
            (b"99999999999999999999999999", Some(u64::MAX)),
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
        let (out, result) = othello(4, &input, 16, true);
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
        let (want, _) = othello(4, &lf, 64, false);
        let (got, _) = othello(4, &crlf, 64, false);
        assert_eq!(got, want);
        assert!(!got.contains(&b'\r'));
    }

    #[test]
    fn input_ending_anywhere_stops_with_a_prefix_of_the_full_transcript() {
        let input = include_bytes!("../tests/golden/othello/course-run-1.in");
        let full = include_bytes!("../tests/golden/othello/course-run-1.out");
        // Cut only between tokens: a cut inside one leaves a different, shorter token.
        let cuts = (0..input.len()).filter(|&cut| cut == 0 || is_separator(input[cut - 1]));
        for cut in cuts {
            let (out, result) = othello(4, &input[..cut], 5, false);
            assert!(matches!(result, Err(Stop::InputEnded)), "cut at {cut}");
            assert!(
                full.starts_with(&out),
                "cut at {cut}: output is not a prefix"
            );
        }
        let (out, result) = othello(4, input, 5, false);
        assert!(result.is_ok());
        assert_eq!(out, full);
    }

    /// xorshift64: reproducible noise for the hostile-input test.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap()
        }
    }

    /// A stream mixing plausible answers with junk: bad numbers, bad addresses, invalid UTF-8,
    /// NUL, CR, tabs, and an end at a random point.
    fn hostile_input(rng: &mut Rng, side: usize) -> Vec<u8> {
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
            b"?",
            b"-",
            b"3.14",
        ];
        let separators: &[&[u8]] = &[b" ", b"\n", b"\r\n", b"\t", b"\r", b"\x0b"];
        let mut input = Vec::new();
        for _ in 0..rng.below(3000) {
            match rng.below(10) {
                0..=1 => input.extend_from_slice(junk[rng.below(junk.len())]),
                2 => input.extend_from_slice(rng.below(side * side / 2 + 3).to_string().as_bytes()),
                3 => input.push(u8::try_from(rng.below(256)).unwrap()),
                _ => {
                    let col = char::from(b'a' + u8::try_from(rng.below(side + 1)).unwrap());
                    input.extend_from_slice(format!("{col}{}", rng.below(side + 2)).as_bytes());
                }
            }
            input.extend_from_slice(separators[rng.below(separators.len())]);
        }
        input
    }

    #[test]
    fn hostile_input_ends_the_game_or_the_input_never_anything_else() {
        let mut rng = Rng(0xB0A4D);
        let mut finished = 0;
        for _ in 0..300 {
            let side = crate::board::SIDES[rng.below(4)];
            let input = hostile_input(&mut rng, side);
            let (out, result) = othello(side, &input, 1 + rng.below(64), rng.below(2) == 0);
            match result {
                Ok(()) => {
                    finished += 1;
                    assert!(out.ends_with(b"wins!\n") || out.ends_with(b"Draw game!\n"));
                }
                Err(Stop::InputEnded) => {}
                Err(other) => panic!("stopped by {other}"),
            }
        }
        assert!(finished > 10, "only {finished} hostile games finished");
    }
}
