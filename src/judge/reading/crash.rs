//! A crash read from a run's standard error: the report of AddressSanitizer,
//! UndefinedBehaviorSanitizer or LeakSanitizer (what `-fsanitize=address,undefined` prints), or
//! the C library's own words on a corrupted heap or stack, as the kind of error
//! (`heap-buffer-overflow`, `signed-integer-overflow`, `stack-smashing`, ...) and the first
//! frame in the submission's own sources (function, file, line), not the sanitizer's or the
//! system's. A pure function of the bytes: no I/O.

use std::fmt;

/// The crash a run's standard error reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    /// What reported it: `AddressSanitizer`, `UndefinedBehaviorSanitizer`, `LeakSanitizer` or
    /// `the C library`.
    pub tool: &'static str,
    /// The error's kind, in the sanitizer's words: `stack-buffer-overflow`.
    pub kind: String,
    /// Where in the submission's own sources, when the report says.
    pub frame: Option<Frame>,
}

/// A place in the submission's sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The function, when the report names it.
    pub function: Option<String>,
    /// The source file, as the report gives it.
    pub file: String,
    /// The line.
    pub line: u32,
}

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.tool, self.kind)?;
        if let Some(frame) = &self.frame {
            if let Some(function) = &frame.function {
                write!(f, " in {function}")?;
            }
            let file = frame.file.rsplit('/').next().unwrap_or(&frame.file);
            write!(f, " at {file}:{}", frame.line)?;
        }
        Ok(())
    }
}

/// The C library's messages on a broken heap or stack, each with its kind.
const LIBC: [(&str, &str); 6] = [
    ("*** stack smashing detected ***", "stack-smashing"),
    ("double free or corruption", "double-free"),
    ("free(): invalid pointer", "invalid-free"),
    ("munmap_chunk(): invalid pointer", "invalid-free"),
    ("malloc(): ", "heap-corruption"),
    ("corrupted size vs. prev_size", "heap-corruption"),
];

/// The crash `stderr` reports, if it holds a sanitizer's or the C library's report.
#[must_use]
pub fn read(stderr: &[u8]) -> Option<Crash> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    for (at, line) in lines.iter().enumerate() {
        for tool in ["AddressSanitizer", "LeakSanitizer"] {
            let Some(rest) = line.split_once(&format!("ERROR: {tool}: ")).map(|(_, r)| r) else {
                continue;
            };
            let kind = match rest.split_whitespace().next() {
                Some("detected") => "memory-leak".to_string(),
                Some("SEGV") => "segmentation-fault".to_string(),
                Some(word) => word.trim_end_matches(':').to_string(),
                None => "error".to_string(),
            };
            let frame = lines[at + 1..].iter().find_map(|l| own_frame(l));
            return Some(Crash { tool, kind, frame });
        }
        if let Some((place, message)) = line.split_once(": runtime error: ") {
            return Some(Crash {
                tool: "UndefinedBehaviorSanitizer",
                kind: undefined_kind(message),
                frame: location(place).map(|(file, line)| Frame {
                    function: None,
                    file,
                    line,
                }),
            });
        }
    }
    let kind = LIBC
        .iter()
        .find(|(words, _)| lines.iter().any(|l| l.contains(words)))?
        .1;
    Some(Crash {
        tool: "the C library",
        kind: kind.to_string(),
        frame: None,
    })
}

/// A sanitizer's stack frame (`#0 0x4f3a in CheckValid(int) /home/a/othello.cpp:242:9`), if
/// it is in the submission's sources rather than the sanitizer's, the compiler's or the C
/// library's.
fn own_frame(line: &str) -> Option<Frame> {
    let line = line.trim_start();
    line.strip_prefix('#')?;
    let (_, rest) = line.split_once(" in ")?;
    let (function, place) = rest.rsplit_once(' ')?;
    let (file, line) = location(place)?;
    let system = ["libsanitizer", "sysdeps", "/include/c++/", "compiler-rt"]
        .iter()
        .any(|part| file.contains(part))
        || file.starts_with("/usr/");
    (!system).then(|| Frame {
        function: Some(function.to_string()),
        file,
        line,
    })
}

/// `file:line` or `file:line:column` as the file and the line.
fn location(place: &str) -> Option<(String, u32)> {
    let mut parts = place.rsplitn(3, ':');
    let (last, middle, first) = (parts.next()?, parts.next()?, parts.next());
    match (first, middle.parse::<u32>(), last.parse::<u32>()) {
        (Some(file), Ok(line), Ok(_)) if !file.is_empty() => Some((file.to_string(), line)),
        (_, Err(_), Ok(line)) if !middle.is_empty() => Some((middle.to_string(), line)),
        _ => None,
    }
}

/// UndefinedBehaviorSanitizer's message as a kind: its leading words, numbers and types left
/// out (`signed integer overflow: ...` is `signed-integer-overflow`).
fn undefined_kind(message: &str) -> String {
    let known = [
        ("signed integer overflow", "signed-integer-overflow"),
        ("out of bounds for type", "index-out-of-bounds"),
        ("shift exponent", "shift-out-of-bounds"),
        ("left shift of", "shift-out-of-bounds"),
        ("division by zero", "division-by-zero"),
        ("null pointer", "null-pointer"),
        ("misaligned address", "misaligned-access"),
        ("negation of", "signed-integer-overflow"),
    ];
    if let Some((_, kind)) = known.iter().find(|(words, _)| message.contains(words)) {
        return (*kind).to_string();
    }
    let words: Vec<&str> = message
        .split(':')
        .next()
        .unwrap_or(message)
        .split_whitespace()
        .filter(|w| w.chars().all(char::is_alphabetic))
        .take(4)
        .collect();
    if words.is_empty() {
        "undefined-behavior".to_string()
    } else {
        words.join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_read_as_their_kind_and_the_submission_s_own_line() {
        let cases: [(&str, Option<&str>); 7] = [
            (
                "=================================================================\n\
                 ==2==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ff at pc 0x5 \
                 bp 0x7 sp 0x7\nWRITE of size 4 at 0x7ff thread T0\n    \
                 #0 0x55 in CheckValid(int, int) /home/s/othello.cpp:242:19\n    \
                 #1 0x56 in main /home/s/main.cpp:10:5\n",
                Some(
                    "AddressSanitizer stack-buffer-overflow in CheckValid(int, int) at othello.cpp:242",
                ),
            ),
            (
                "==9==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6\n    \
                 #0 0x7f in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/x.inc:827\n    \
                 #1 0x55 in Board::flip(int) board.cpp:88:7\n",
                Some("AddressSanitizer heap-buffer-overflow in Board::flip(int) at board.cpp:88"),
            ),
            (
                "==3==ERROR: LeakSanitizer: detected memory leaks\n\nDirect leak of 40 byte(s)\n    \
                 #0 0x7f in operator new[](unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:98\n    \
                 #1 0x55 in make() /w/pits.cpp:12:20\n    #2 0x7f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n",
                Some("LeakSanitizer memory-leak in make() at pits.cpp:12"),
            ),
            (
                "othello.cpp:57:12: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n",
                Some("UndefinedBehaviorSanitizer signed-integer-overflow at othello.cpp:57"),
            ),
            (
                "/w/a.cpp:9:5: runtime error: index 8 out of bounds for type 'int [8]'\n",
                Some("UndefinedBehaviorSanitizer index-out-of-bounds at a.cpp:9"),
            ),
            (
                "*** stack smashing detected ***: terminated\n",
                Some("the C library stack-smashing"),
            ),
            ("Enter number of pits: oops\nSegmentation fault\n", None),
        ];
        for (stderr, expected) in cases {
            let crash = read(stderr.as_bytes()).map(|c| c.to_string());
            assert_eq!(crash.as_deref(), expected, "{stderr}");
        }
    }
}
