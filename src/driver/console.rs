//! The console's two halves: a reader that splits standard input into tokens the way C++
//! `cin >>` does (byte-safe, any buffer size, overlong tokens read whole but kept short), and one
//! buffered writer for every byte of the transcript. It knows no game and no message.

use std::fmt;
use std::io::{self, BufRead, Write};

use super::Stop;
use crate::board::Coord;

/// The longest token kept in full; longer ones are read to their end but are malformed anyway.
const TOKEN_LIMIT: usize = 64;

/// C++ `isspace` in the "C" locale: what separates tokens for `cin >>`.
pub(super) fn is_separator(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// What a prompt asks for, so that a read token can be named ("the 9th move").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// How many pits (Othello).
    PitCount,
    /// Where pit `k` goes (Othello), counted from 1.
    Pit(usize),
    /// A move: a cell in Othello, a pit (or an undo) in Kalah.
    Move,
}

/// One token the console read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// Bytes of transcript written before the token was read.
    pub at: usize,
    /// The token as read, cut at 64 bytes.
    pub token: Vec<u8>,
    /// What it answered.
    pub question: Question,
}

/// A writer that counts the bytes passing through it and keeps the last.
struct Counted<W> {
    inner: W,
    written: usize,
    last: Option<u8>,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// How the console shows a game, besides the transcript's bytes, which these never change.
#[derive(Clone, Copy, Debug, Default)]
pub struct Showing {
    /// Write every token read back with a line break, as a terminal would have shown it.
    pub echo: bool,
    /// The output is a person's terminal: show every line as it is written (not only before a
    /// read), and end an open prompt line when the input ends.
    pub live: bool,
    /// Add what helps a person play: legal moves, the last move, counts, reasons, the score.
    pub friendly: bool,
    /// Colour the friendly additions (a terminal that takes colour, and `NO_COLOR` unset).
    pub colour: bool,
}

/// The console games and tools run on: any input and output behind one indirection each.
pub type Streams<'a> = Console<&'a mut dyn BufRead, &'a mut dyn Write>;

/// Token input and buffered output for one game.
pub struct Console<R, W: Write> {
    input: R,
    output: io::BufWriter<Counted<W>>,
    /// How the games on it are shown.
    pub(super) showing: Showing,
    token: Vec<u8>,
    overlong: bool,
    /// Every token read, when asked to keep them.
    reads: Option<Vec<Read>>,
}

impl<R, W: Write> Console<R, W> {
    /// A console over `input` and `output`, shown as `showing` says.
    pub(super) fn new(input: R, output: W, showing: Showing) -> Self {
        Console {
            input,
            output: io::BufWriter::new(Counted {
                inner: output,
                written: 0,
                last: None,
            }),
            showing,
            token: Vec::with_capacity(TOKEN_LIMIT),
            overlong: false,
            reads: None,
        }
    }

    /// The same console, keeping every token it reads (see [`Self::reads`]).
    pub(super) fn keeping_reads(mut self) -> Self {
        self.reads = Some(Vec::new());
        self
    }

    /// The tokens read so far, if the console keeps them.
    pub(super) fn reads(&mut self) -> Vec<Read> {
        self.reads.take().unwrap_or_default()
    }

    /// The input itself, for a tool that reads it otherwise than by tokens (a file of
    /// positions given as `-`).
    pub fn input(&mut self) -> &mut R {
        &mut self.input
    }

    /// Bytes of transcript written so far, buffered or not.
    fn written(&self) -> usize {
        self.output.get_ref().written + self.output.buffer().len()
    }

    /// Writes `text` to the transcript: at once on a live console, else when the buffer fills
    /// or before the next read.
    pub fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        write!(self.output, "{text}")?;
        self.show_if_live()
    }

    /// Writes `bytes`, which need not be text, to the transcript, as [`Self::say`] does.
    pub fn say_bytes(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.output.write_all(bytes)?;
        self.show_if_live()
    }

    fn show_if_live(&mut self) -> Result<(), Stop> {
        if self.showing.live {
            self.show()?;
        }
        Ok(())
    }

    /// Flushes everything and, on a live console whose last line is still open (a prompt
    /// whose answer never came), ends that line, so that what follows starts on its own.
    pub(super) fn close(&mut self) -> Result<(), Stop> {
        self.show()?;
        if self.showing.live && self.output.get_ref().last.is_some_and(|last| last != b'\n') {
            self.output.write_all(b"\n")?;
            self.show()?;
        }
        Ok(())
    }

    /// Flushes whatever is still buffered, so that it is seen now.
    pub fn show(&mut self) -> Result<(), Stop> {
        self.output.flush()?;
        Ok(())
    }
}

impl<R: BufRead, W: Write> Console<R, W> {
    /// Writes `prompt`, shows it, and reads the answer to `question`: the next
    /// whitespace-separated token.
    pub(super) fn ask(
        &mut self,
        question: Question,
        prompt: impl fmt::Display,
    ) -> Result<Answer<'_>, Stop> {
        self.say(prompt)?;
        self.show()?;
        let at = self.written();
        self.read_token()?;
        if let Some(reads) = &mut self.reads {
            let token = self.token.clone();
            reads.push(Read {
                at,
                token,
                question,
            });
        }
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
            if self.showing.echo {
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
        if self.showing.echo {
            self.output.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// One token as read: its text, or `None` when it is not UTF-8 or too long to mean anything.
pub(super) struct Answer<'a> {
    text: Option<&'a str>,
}

impl Answer<'_> {
    /// The token, when it is short UTF-8 text.
    pub(super) fn text(&self) -> Option<&str> {
        self.text
    }

    /// The token as a cell address.
    pub(super) fn coord(&self) -> Option<Coord> {
        self.text?.parse().ok()
    }

    /// Whether the token is exactly `word`.
    pub(super) fn is(&self, word: &str) -> bool {
        self.text == Some(word)
    }

    /// The token as plain decimal digits, saturated at `usize::MAX`.
    pub(super) fn number(&self) -> Option<usize> {
        digits_value(self.text?)
    }

    /// The token as a C++-style decimal integer (optional sign, then digits): `Some(n)` for a
    /// value that is not negative, saturated at `usize::MAX`; `None` for anything else.
    pub(super) fn count(&self) -> Option<usize> {
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
pub(super) fn digits_value(digits: &str) -> Option<usize> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0, |n: usize, d| {
        n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: &[u8], capacity: usize) -> Vec<Vec<u8>> {
        let mut console = Console::new(
            io::BufReader::with_capacity(capacity, input),
            Vec::new(),
            Showing::default(),
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
    fn a_live_console_shows_each_line_at_once_and_ends_an_unanswered_prompt() {
        // (live, what has reached the output after a line, after the input ended and the
        // console closed)
        let cases: [(bool, &[u8], &[u8]); 2] = [
            (false, b"", b"Round 1:\nTurn: "),
            (true, b"Round 1:\n", b"Round 1:\nTurn: \n"),
        ];
        for (live, after_line, after_close) in cases {
            let showing = Showing {
                live,
                ..Showing::default()
            };
            let mut console = Console::new(io::empty(), Vec::new(), showing);
            console.say("Round 1:\n").unwrap();
            assert_eq!(console.output.get_ref().inner, after_line, "live {live}");
            let asked = console.ask(Question::Move, "Turn: ");
            assert!(matches!(asked, Err(Stop::InputEnded)), "live {live}");
            console.close().unwrap();
            assert_eq!(console.output.get_ref().inner, after_close, "live {live}");
        }
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
}
