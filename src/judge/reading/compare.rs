//! The judge's first layer, as pure functions: whether two transcripts are the same bytes; where
//! the first difference is, shown with its invisible characters made
//! visible; which input token was read last before it; and the kind a failure belongs to, so
//! that many failures fall into a few groups. No I/O and no processes here.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::driver::{Question, Read};

/// The first place where two transcripts differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Line number, from 1.
    pub line: usize,
    /// Byte column within the line, from 1.
    pub column: usize,
    /// Bytes of the expected transcript before the difference.
    pub offset: usize,
    /// The expected line, or `None` past the end of the expected transcript.
    pub expected: Option<Vec<u8>>,
    /// The actual line, or `None` past the end of the actual output.
    pub actual: Option<Vec<u8>>,
}

/// Where `actual` output first differs from the `expected` transcript, if it does.
#[must_use]
pub fn compare(expected: &[u8], actual: &[u8]) -> Option<Difference> {
    (expected != actual).then(|| first_difference(expected, actual))
}

/// `output` with every `\r\n` line end made `\n`, as the reference ends its lines.
#[must_use]
pub fn lf_line_ends(output: &[u8]) -> Cow<'_, [u8]> {
    if !output.windows(2).any(|pair| pair == b"\r\n") {
        return Cow::Borrowed(output);
    }
    let mut lf = Vec::with_capacity(output.len());
    let mut bytes = output.iter().peekable();
    while let Some(&byte) = bytes.next() {
        if !(byte == b'\r' && bytes.peek() == Some(&&b'\n')) {
            lf.push(byte);
        }
    }
    Cow::Owned(lf)
}

/// The first differing line of two unequal transcripts, and the column within it.
fn first_difference(expected: &[u8], actual: &[u8]) -> Difference {
    // Lines with their `\n`, so that a missing last newline is a difference within the line.
    let mut want = expected.split_inclusive(|&b| b == b'\n');
    let mut got = actual.split_inclusive(|&b| b == b'\n');
    let (mut line, mut offset) = (1, 0);
    loop {
        let (w, g) = (want.next(), got.next());
        if w != g || w.is_none() {
            let common = match (w, g) {
                (Some(w), Some(g)) => w.iter().zip(g).take_while(|(a, b)| a == b).count(),
                _ => 0,
            };
            let bare = |l: &[u8]| l.strip_suffix(b"\n").unwrap_or(l).to_vec();
            return Difference {
                line,
                column: common + 1,
                offset: offset + common,
                expected: w.map(bare),
                actual: g.map(bare),
            };
        }
        offset += w.map_or(0, <[u8]>::len);
        line += 1;
    }
}

/// A line with its invisible characters shown: `\r`, `\t`, other control bytes and bytes that
/// are not UTF-8 as escapes, spaces at the end as `·`.
#[must_use]
pub fn visible(line: &[u8]) -> String {
    let trailing = line.len() - line.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    let (body, spaces) = line.split_at(line.len() - trailing);
    let mut out = String::new();
    for chunk in body.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out.extend(spaces.iter().map(|_| '·'));
    out
}

/// The input token read last before `offset` bytes of the expected transcript, named for a
/// person: "token 17 (`D3`), the 9th move".
#[must_use]
pub fn token_before(reads: &[Read], offset: usize) -> String {
    let read = reads.iter().rposition(|read| read.at <= offset);
    let Some(index) = read else {
        return "before any input was read".to_string();
    };
    let read = &reads[index];
    let what = match read.question {
        Question::PitCount => "the pit count".to_string(),
        Question::Pit(k) => format!("the position of pit {k}"),
        Question::Move => {
            let moves = reads[..=index]
                .iter()
                .filter(|r| r.question == Question::Move)
                .count();
            format!("the {} move", ordinal(moves))
        }
    };
    format!(
        "after token {} (`{}`), {what}",
        index + 1,
        visible(&read.token)
    )
}

/// 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st, ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The kind of a difference: the expected line with cell names (`D3`) made `@` and other
/// numbers `#`, so that `Round 13:` and `Round 21:` fall together.
#[must_use]
pub fn kind(expected: Option<&[u8]>) -> String {
    let Some(line) = expected else {
        return "the end of the output".to_string();
    };
    let text = String::from_utf8_lossy(line);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_word = i == 0 || !chars[i - 1].is_ascii_alphanumeric();
        let digits = chars[i + 1..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .count();
        let ends_word = chars
            .get(i + 1 + digits)
            .is_none_or(|c| !c.is_ascii_alphanumeric());
        if c.is_ascii_alphabetic() && starts_word && digits > 0 && ends_word {
            out.push('@');
            i += 1 + digits;
        } else if c.is_ascii_digit() {
            out.push('#');
            i += chars[i..].iter().take_while(|d| d.is_ascii_digit()).count();
        } else {
            out.push(c);
            i += 1;
        }
    }
    visible(out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_placed_by_line_and_column() {
        let want = b"Round 1:\n 1 . X \nGame over:\n";
        /// Actual output, and the line and column of its first difference.
        type Case<'a> = (&'a [u8], Option<(usize, usize)>);
        let cases: &[Case] = &[
            (b"Round 1:\n 1 . X \nGame over:\n", None),
            (b"Round 1:\n 1 . X\nGame over:\n", Some((2, 7))),
            (b"Round 1:\r\n 1 . X \r\nGame over:\r\n", Some((1, 9))),
            (b"Round 1:\n 1 . X \nGame over:", Some((3, 11))),
            (b"Round 1:\n 1 . X \nGame over:\n\n", Some((4, 1))),
            (b"Round 1:\n 1 . O \nGame over:\n", Some((2, 6))),
            (b"Round 1:\n 1 . X \n", Some((3, 1))),
            (b"", Some((1, 1))),
        ];
        for &(actual, at) in cases {
            let got = compare(want, actual);
            assert_eq!(got.map(|d| (d.line, d.column)), at, "{actual:?}");
        }
        // The offset points into the expected transcript, for finding the token read before.
        let d = compare(want, b"Round 1:\n 1 . O \n").expect("a difference");
        assert_eq!(d.offset, 9 + 5);
        assert_eq!(d.expected.as_deref(), Some(&b" 1 . X "[..]));
        assert_eq!(d.actual.as_deref(), Some(&b" 1 . O "[..]));
        let d = compare(b"a\n", b"a\nb\n").expect("a difference");
        assert_eq!((d.expected, d.actual.as_deref()), (None, Some(&b"b"[..])));
    }

    #[test]
    fn invisible_characters_are_shown() {
        let cases: &[(&[u8], &str)] = &[
            (b"Round 1:", "Round 1:"),
            (b" 1 . X ", " 1 . X·"),
            (b"Game over:\r", "Game over:\\r"),
            (b"a\tb  ", "a\\tb··"),
            (b"\xff\xfeZ", "\\xff\\xfeZ"),
            (b"nul\x00", "nul\\u{0}"),
            (b"back\\slash", "back\\\\slash"),
        ];
        for &(line, want) in cases {
            assert_eq!(visible(line), want);
        }
    }

    #[test]
    fn kinds_abstract_numbers_and_cell_names() {
        let cases: &[(&str, &str)] = &[
            ("Round 13:", "Round #:"),
            ("Round 21:", "Round #:"),
            ("Player X's turn: D3", "Player X's turn: @"),
            ("Hint: h10", "Hint: @"),
            ("Enter position for pit 12: ", "Enter position for pit #:·"),
            ("Player 1: 24, Player 2: 24", "Player #: #, Player #: #"),
            ("AA1 and X", "AA# and X"),
        ];
        for &(line, want) in cases {
            assert_eq!(kind(Some(line.as_bytes())), want, "{line}");
        }
        assert_eq!(kind(None), "the end of the output");
    }

    #[test]
    fn the_token_before_a_difference_is_named() {
        let read = |at, token: &str, question| Read {
            at,
            token: token.as_bytes().to_vec(),
            question,
        };
        let reads = [
            read(22, "1", Question::PitCount),
            read(50, "a1", Question::Pit(1)),
            read(100, "D3", Question::Move),
            read(200, "C4", Question::Move),
        ];
        assert_eq!(token_before(&reads, 10), "before any input was read");
        assert_eq!(
            token_before(&reads, 22),
            "after token 1 (`1`), the pit count"
        );
        assert_eq!(
            token_before(&reads, 70),
            "after token 2 (`a1`), the position of pit 1"
        );
        assert_eq!(
            token_before(&reads, 150),
            "after token 3 (`D3`), the 1st move"
        );
        assert_eq!(
            token_before(&reads, 999),
            "after token 4 (`C4`), the 2nd move"
        );
        let names: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            names,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }
}
