//! Reading a transcript as a game: bytes become pieces (a line, or a prompt that shares its line
//! with what follows), pieces become events (a prompt, a message, a whole board), tolerant of
//! what a person calls presentation: spacing, letter case, wording ("block" for "pit"),
//! punctuation. The same reader reads the expected and the actual transcript, so that two
//! transcripts that differ only in presentation give equal events; and the answers a transcript
//! made with `--echo` shows after its prompts, which the review replays. It sits with the
//! console whose transcripts it reads, below the judge and the tools that read them. Pure
//! functions, no I/O.

use super::KalahBoard;
use crate::board::BoardSide;

/// The game a transcript is of.
#[derive(Clone, Copy, Debug)]
pub enum Game {
    /// Othello on a board of this side.
    Othello(BoardSide),
    /// Kalah on this board.
    Mancala(KalahBoard),
}

/// A piece of a transcript: a line, or the part of a line up to the end of a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    /// Its bytes, without `\r` and `\n`.
    pub text: &'a [u8],
    /// Where it starts in the transcript.
    pub offset: usize,
    /// Whether a line break follows it.
    pub newline: bool,
    /// Whether that line break is `\r\n`.
    pub crlf: bool,
}

/// Something that happened in a game, as a transcript shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Othello: the pit count is asked for.
    PitCountPrompt,
    /// Othello: too many pits.
    TooManyPits,
    /// Othello: the pit count is not a number.
    InvalidNumber,
    /// Othello: pit `k` is asked for.
    PitPrompt(usize),
    /// Othello: the pit cell is refused.
    InvalidPosition,
    /// Othello: a round begins.
    Round(usize),
    /// Othello: a board of `side` columns, its cells row by row (`.`, `X`, `O`, `#`).
    Grid {
        /// Columns.
        side: usize,
        /// Cells, upper case.
        cells: Vec<u8>,
    },
    /// A player (`X`/`O`, `1`/`2`) is asked to move.
    Turn(char),
    /// Othello: a player passes.
    Pass(char),
    /// Othello: the move is refused.
    InvalidMove,
    /// The game is over.
    GameOver,
    /// A player wins.
    Wins(char),
    /// A draw.
    Draw,
    /// Kalah: a board, Player 2's pits from its pit P to 1, Player 1's from 1 to P, and the
    /// stores of Player 2 and Player 1.
    Kalah {
        /// The top row, left to right.
        top: Vec<u32>,
        /// The bottom row, left to right.
        bottom: Vec<u32>,
        /// Player 2's store, then Player 1's.
        stores: [u32; 2],
    },
    /// Kalah: nothing to undo.
    NothingToUndo,
    /// Kalah: a move undone.
    Undone,
    /// Kalah: the pit number is refused.
    InvalidPit,
    /// Kalah: pit `k` is empty.
    EmptyPit(usize),
    /// Kalah: a player captures `n` stones.
    Captures(char, u32),
    /// Kalah: a player moves again.
    MovesAgain(char),
    /// Kalah: a player collects `n` stones at the end.
    Collects(char, u32),
    /// Kalah: the score line.
    Score(u32, u32),
    /// An empty line.
    Blank,
    /// A line no rule of the reader knows, by its words.
    Other(String),
}

/// An event and the pieces that show it.
#[derive(Clone, Debug)]
pub struct Item<'a> {
    /// What it is.
    pub event: Event,
    /// Its pieces (one, or the lines of a board).
    pub pieces: Vec<Piece<'a>>,
}

impl Item<'_> {
    /// Where it starts in its transcript.
    pub fn offset(&self) -> usize {
        self.pieces.first().map_or(0, |p| p.offset)
    }
}

/// The transcript cut into pieces.
pub fn pieces(game: Game, text: &[u8]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let start = offset;
        offset += line.len();
        let newline = line.ends_with(b"\n");
        let mut body = line.strip_suffix(b"\n").unwrap_or(line);
        let crlf = newline && body.ends_with(b"\r");
        if crlf {
            body = &body[..body.len() - 1];
        }
        let mut at = 0;
        // A prompt ends at `:` and one space; what follows on the line is a piece of its own.
        while let Some(end) = prompt_end(game, &body[at..]) {
            out.push(Piece {
                text: &body[at..at + end],
                offset: start + at,
                newline: false,
                crlf: false,
            });
            at += end;
        }
        out.push(Piece {
            text: &body[at..],
            offset: start + at,
            newline,
            crlf,
        });
    }
    // A transcript that ends with its line break has no piece after it.
    if out.last().is_some_and(|p| p.text.is_empty() && !p.newline) {
        out.pop();
    }
    out
}

/// The end of a prompt at the start of `text` that more text follows on the same line.
fn prompt_end(game: Game, text: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(colon) = text[from..].iter().position(|&b| b == b':') {
        let colon = from + colon;
        let rest = &text[colon + 1..];
        let end = colon + 1 + usize::from(rest.first() == Some(&b' '));
        if text[end..].iter().any(|b| !b.is_ascii_whitespace()) && is_prompt(game, &text[..end]) {
            return Some(end);
        }
        from = colon + 1;
    }
    None
}

/// What follows each of the game's prompts on its line, in order, but for the answers the
/// console refused (the next line says so, and the prompt comes again): in a transcript made
/// with `--echo`, the tokens the game took; in one made without, whatever the program wrote
/// next (or nothing, when the prompt ends its line).
#[must_use]
pub fn answers(game: Game, text: &[u8]) -> Vec<String> {
    prompted(game, text)
        .into_iter()
        .map(|(answer, _)| answer)
        .collect()
}

/// [`answers`], each with the player its prompt names (`X`/`O`, `1`/`2`), if it names one.
#[must_use]
pub fn prompted(game: Game, text: &[u8]) -> Vec<(String, Option<char>)> {
    let pieces = pieces(game, text);
    let mut found = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        // A refusal that reads like a prompt ("Pit 3 is empty! Choose another pit.") is none.
        if !is_prompt(game, piece.text) || is_refusal(&classify(game, piece.text)) {
            continue;
        }
        // A prompt that shares its line is a piece of its own, and what follows is the next.
        let after = match pieces.get(i + 1) {
            Some(next) if !piece.newline => next.text,
            _ => &[],
        };
        let refused = pieces
            .get(i + 2)
            .is_some_and(|next| is_refusal(&classify(game, next.text)));
        if !refused {
            let words = Words::of(piece.text);
            let asked = match game {
                Game::Othello(_) => words.disc(),
                Game::Mancala(_) => words.player(),
            };
            found.push((String::from_utf8_lossy(after).trim().to_string(), asked));
        }
    }
    found
}

/// Whether `event` is the console refusing an answer.
fn is_refusal(event: &Event) -> bool {
    matches!(
        event,
        Event::TooManyPits
            | Event::InvalidNumber
            | Event::InvalidPosition
            | Event::InvalidMove
            | Event::InvalidPit
            | Event::EmptyPit(_)
            | Event::NothingToUndo
    )
}

/// Whether `text` reads as one of the game's prompts.
fn is_prompt(game: Game, text: &[u8]) -> bool {
    let w = Words::of(text);
    match game {
        Game::Othello(_) => {
            w.has("turn")
                || (w.has("pit") && (w.has("enter") || w.has("position") || w.has("number")))
        }
        Game::Mancala(_) => w.has("choose") || w.has("undo") && w.has("pit"),
    }
}

/// A piece's words: lower case, split at anything not a letter or digit, "block" read as "pit".
struct Words(Vec<String>);

impl Words {
    fn of(text: &[u8]) -> Words {
        let text = String::from_utf8_lossy(text).to_lowercase();
        let words = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| match w {
                "block" => "pit".to_string(),
                "blocks" | "pits" => "pit".to_string(),
                w => w.to_string(),
            })
            .collect();
        Words(words)
    }

    fn has(&self, word: &str) -> bool {
        self.0.iter().any(|w| w == word)
    }

    fn any(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.has(w))
    }

    /// The numbers among the words, in order.
    fn numbers(&self) -> Vec<u64> {
        self.0.iter().filter_map(|w| w.parse().ok()).collect()
    }

    /// The first number, if it fits.
    fn number(&self) -> Option<usize> {
        self.numbers()
            .first()
            .and_then(|&n| usize::try_from(n).ok())
    }

    /// The Othello player named: a word `x` or `o`.
    fn disc(&self) -> Option<char> {
        self.0.iter().find_map(|w| match w.as_str() {
            "x" => Some('X'),
            "o" => Some('O'),
            _ => None,
        })
    }

    /// The Kalah player named: the number after the word `player`.
    fn player(&self) -> Option<char> {
        let at = self.0.iter().position(|w| w == "player")?;
        match self.0.get(at + 1)?.as_str() {
            "1" => Some('1'),
            "2" => Some('2'),
            _ => None,
        }
    }

    fn joined(&self) -> String {
        self.0.join(" ")
    }
}

/// The transcript read as events.
pub fn events(game: Game, text: &[u8]) -> Vec<Item<'_>> {
    let pieces = pieces(game, text);
    let mut items = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        // A board is the run of board lines that starts here.
        let run = pieces[i..]
            .iter()
            .take_while(|p| is_board_line(game, p.text))
            .count();
        if run > 0 {
            let block = &pieces[i..i + run];
            let event = match game {
                Game::Othello(_) => grid(block),
                Game::Mancala(_) => kalah(block),
            };
            let event = event.unwrap_or_else(|| Event::Other(Words::of(block[0].text).joined()));
            items.push(Item {
                event,
                pieces: block.to_vec(),
            });
            i += run;
            continue;
        }
        let piece = pieces[i].clone();
        items.push(Item {
            event: classify(game, piece.text),
            pieces: vec![piece],
        });
        i += 1;
    }
    items
}

/// Whether a line belongs to a board: a column header or a row (Othello), a label, rule or row
/// (Kalah).
fn is_board_line(game: Game, text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return false;
    }
    match game {
        Game::Othello(_) => header(&words).is_some() || row(&words).is_some(),
        Game::Mancala(_) => {
            let frame = |c: char| c.is_ascii_digit() || " +-|".contains(c);
            let label = words.iter().all(|w| w.parse::<u32>().is_ok())
                || (words.len() >= 3
                    && words[..words.len() - 2]
                        .iter()
                        .all(|w| w.parse::<u32>().is_ok())
                    && words[words.len() - 2].eq_ignore_ascii_case("player"));
            (text.contains('+') || text.contains('|')) && text.chars().all(frame)
                || label && words.len() >= 2
        }
    }
}

/// The columns of an Othello column header (`A B C D`, or `ABCD`).
fn header(words: &[&str]) -> Option<usize> {
    let letters: Vec<u8> = words.iter().flat_map(|w| w.bytes()).collect();
    let ok = letters.len() >= 4
        && letters
            .iter()
            .enumerate()
            .all(|(i, &b)| b.to_ascii_uppercase() == b'A' + u8::try_from(i).unwrap_or(u8::MAX));
    ok.then_some(letters.len())
}

/// An Othello board row: its number and its cells.
fn row(words: &[&str]) -> Option<(usize, Vec<u8>)> {
    let (number, cells) = words.split_first()?;
    let number: usize = number.parse().ok()?;
    let cells: Vec<u8> = cells.iter().flat_map(|w| w.bytes()).collect();
    let ok = !cells.is_empty()
        && cells
            .iter()
            .all(|b| matches!(b.to_ascii_uppercase(), b'.' | b'X' | b'O' | b'#'));
    ok.then(|| (number, cells.to_ascii_uppercase()))
}

/// An Othello board from its lines: a header and one row per column.
fn grid(block: &[Piece]) -> Option<Event> {
    let lines: Vec<String> = block
        .iter()
        .map(|p| String::from_utf8_lossy(p.text).into_owned())
        .collect();
    let words: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let (first, rows) = words.split_first()?;
    let side = header(first)?;
    if rows.len() != side {
        return None;
    }
    let mut cells = Vec::with_capacity(side * side);
    for (i, words) in rows.iter().enumerate() {
        let (number, row) = row(words)?;
        if number != i + 1 || row.len() != side {
            return None;
        }
        cells.extend(row);
    }
    Some(Event::Grid { side, cells })
}

/// A Kalah board from its lines: two rows of pits and the line of the stores between them.
fn kalah(block: &[Piece]) -> Option<Event> {
    let mut rows = Vec::new();
    let mut stores = None;
    for piece in block {
        let text = String::from_utf8_lossy(piece.text);
        if text.contains('|') {
            let pits: Option<Vec<u32>> = text
                .split('|')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().ok())
                .collect();
            rows.push(pits?);
        } else if text.contains('+') {
            let numbers: Vec<u32> = text
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|s| s.parse().ok())
                .collect();
            if let [two, one] = numbers[..] {
                stores = Some([two, one]);
            }
        }
    }
    let [top, bottom] = <[Vec<u32>; 2]>::try_from(rows).ok()?;
    (top.len() == bottom.len()).then_some(Event::Kalah {
        top,
        bottom,
        stores: stores?,
    })
}

/// The event of a piece that is not part of a board.
fn classify(game: Game, text: &[u8]) -> Event {
    let w = Words::of(text);
    if w.0.is_empty() {
        return Event::Blank;
    }
    let over = w.has("game") && w.any(&["over", "ended", "end"]);
    let draw = w.any(&["draw", "tie"]);
    let wins = w.any(&["wins", "win", "won", "winner"]);
    let invalid = w.any(&["invalid", "illegal", "wrong"]);
    match game {
        Game::Othello(_) => {
            let disc = w.disc();
            if w.has("too") && w.has("many") {
                Event::TooManyPits
            } else if invalid && w.has("number") {
                Event::InvalidNumber
            } else if invalid && w.any(&["position", "cell", "pit"]) {
                Event::InvalidPosition
            } else if invalid && w.has("move") {
                Event::InvalidMove
            } else if over {
                Event::GameOver
            } else if draw {
                Event::Draw
            } else if let (true, Some(p)) = (wins, disc) {
                Event::Wins(p)
            } else if w.has("round") {
                // A round whose number does not read as one is round 0: a wrong number.
                Event::Round(w.number().unwrap_or(0))
            } else if let (true, Some(p)) = (w.any(&["pass", "passes"]), disc) {
                Event::Pass(p)
            } else if let (true, Some(p)) = (w.has("turn"), disc) {
                Event::Turn(p)
            } else if let (true, Some(k)) = (w.has("pit"), w.number()) {
                Event::PitPrompt(k)
            } else if w.has("pit") && w.any(&["number", "how", "many"]) {
                Event::PitCountPrompt
            } else {
                Event::Other(w.joined())
            }
        }
        Game::Mancala(_) => {
            let player = w.player();
            let numbers = w.numbers();
            let last = numbers
                .last()
                .and_then(|&n| u32::try_from(n).ok())
                .unwrap_or(0);
            if w.has("nothing") && w.has("undo") {
                Event::NothingToUndo
            } else if let (true, Some(p)) =
                (w.has("choose") || w.has("undo") && w.has("pit"), player)
            {
                Event::Turn(p)
            } else if w.has("undone") || w.has("undo") {
                Event::Undone
            } else if invalid {
                Event::InvalidPit
            } else if let (true, Some(k)) = (w.has("empty"), w.number()) {
                Event::EmptyPit(k)
            } else if let (true, Some(p)) = (w.any(&["captures", "capture", "captured"]), player) {
                Event::Captures(p, last)
            } else if let (true, Some(p)) = (w.has("again"), player) {
                Event::MovesAgain(p)
            } else if let (true, Some(p)) = (w.any(&["collects", "collect", "remaining"]), player) {
                Event::Collects(p, last)
            } else if over {
                Event::GameOver
            } else if draw {
                Event::Draw
            } else if let (true, Some(p)) = (wins, player) {
                Event::Wins(p)
            } else if let [1, a, 2, b] = numbers[..] {
                Event::Score(
                    u32::try_from(a).unwrap_or(u32::MAX),
                    u32::try_from(b).unwrap_or(u32::MAX),
                )
            } else {
                Event::Other(w.joined())
            }
        }
    }
}
