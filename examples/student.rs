//! A student's program for the judge's tests: both games of the assignment written the plain
//! way a student would (a flat board, a loop per direction), independent of the crate, with
//! one slip or more switched on by name. `cargo test` builds it; `tests/judge_rules.rs` judges
//! it with each slip and requires the judge to name the rule broken.
//!
//! `student othello [--size N] [SLIP...]`, `student mancala [--pits P] [--stones S] [SLIP...]`.
//! Without slips it plays exactly as the console contract says.

use std::io::{self, BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |flag: &str, default: usize| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1)?.parse().ok())
            .unwrap_or(default)
    };
    let slips: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect();
    let has = |slip: &str| slips.iter().any(|s| s == slip);
    let mut io = Io {
        crlf: has("crlf"),
        tokens: Vec::new(),
        stdin: io::stdin().lock(),
        out: io::BufWriter::new(io::stdout().lock()),
    };
    if has("memory-hog") {
        // Leaks a mebibyte at a time, each page touched, until an allocation fails.
        let mut kept: Vec<Vec<u8>> = Vec::new();
        loop {
            kept.push(vec![1; 1 << 20]);
        }
    }
    match args.first().map(String::as_str) {
        Some("mancala") => kalah(&mut io, number("--pits", 6), number("--stones", 4), &has),
        _ => othello(&mut io, number("--size", 8), &has),
    }
    if !has("no-final-newline") {
        io.say("\n");
    }
    io.out.flush().ok();
}

/// Reads tokens like `cin >>` and writes through one buffer (its line ends `\r\n` with the
/// `crlf` slip, as a Visual C++ program in text mode writes them).
struct Io<R, W: Write> {
    crlf: bool,
    tokens: Vec<String>,
    stdin: R,
    out: W,
}

impl<R: BufRead, W: Write> Io<R, W> {
    fn say(&mut self, text: &str) {
        let text = if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text.to_string()
        };
        if self.out.write_all(text.as_bytes()).is_err() {
            std::process::exit(0);
        }
    }

    /// The next token; at the end of input an empty one, as a failed `cin` gives (a slip
    /// that loops on it loops for ever, as such programs do).
    fn token(&mut self) -> String {
        self.out.flush().ok();
        while self.tokens.is_empty() {
            let mut line = String::new();
            match self.stdin.read_line(&mut line) {
                Ok(0) | Err(_) => return String::new(),
                Ok(_) => self.tokens = line.split_whitespace().rev().map(String::from).collect(),
            }
        }
        self.tokens.pop().unwrap_or_default()
    }
}

const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The cells a move flips, by the rules or by the slips that bend them.
fn flips(board: &[u8], n: usize, at: usize, me: u8, has: &dyn Fn(&str) -> bool) -> Vec<usize> {
    let other = if me == b'X' { b'O' } else { b'X' };
    let mut all = Vec::new();
    let (r0, c0) = ((at / n) as isize, (at % n) as isize);
    let size = n as isize;
    for (i, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
        if has("flip-missing") && dr != 0 && dc != 0 {
            continue;
        }
        let mut run = Vec::new();
        if has("flip-wraps-edge") {
            // One index step a cell, as on a flat array: rows run on into the next.
            let step = dr * size + dc;
            let mut c = at as isize + step;
            while (0..size * size).contains(&c) && board[c as usize] == other {
                run.push(c as usize);
                c += step;
            }
            if (0..size * size).contains(&c) && board[c as usize] == me && !run.is_empty() {
                all.extend(run);
            }
            continue;
        }
        let (mut r, mut c) = (r0 + dr, c0 + dc);
        while (0..size).contains(&r)
            && (0..size).contains(&c)
            && board[(r * size + c) as usize] == other
        {
            run.push((r * size + c) as usize);
            r += dr;
            c += dc;
        }
        let closed = (0..size).contains(&r)
            && (0..size).contains(&c)
            && board[(r * size + c) as usize] == me;
        // The slip: a run to the right flips even when nothing closes it.
        let unclosed = has("flip-extra-flips") && i == 4;
        if (closed || unclosed) && !run.is_empty() {
            all.extend(run);
        }
    }
    all
}

fn legal(board: &[u8], n: usize, at: usize, me: u8, has: &dyn Fn(&str) -> bool) -> bool {
    if board[at] != b'.' {
        return false;
    }
    if has("legal-move-refused") && at.is_multiple_of(n) {
        return false;
    }
    // The extra flips bend the flipping only, not which moves are legal.
    let ruled = |slip: &str| slip != "flip-extra-flips" && has(slip);
    !flips(board, n, at, me, &ruled).is_empty()
}

/// The Othello board as the course's `print_board` writes it.
fn grid(board: &[u8], n: usize, has: &dyn Fn(&str) -> bool) -> String {
    let letters: String = (0..n)
        .map(|c| format!("{:>2}", char::from(b'A' + c as u8)))
        .collect();
    let tail = if has("whitespace") { " " } else { "" };
    let mut text = format!("  {letters}{tail}\n");
    for r in 0..n {
        let cells: String = board[r * n..(r + 1) * n]
            .iter()
            .map(|&c| format!("{} ", char::from(c)))
            .collect();
        text.push_str(&format!("{:>2} {cells}\n", r + 1));
    }
    text
}

/// The result line: who has more wins, or a draw.
fn result<T: Ord>(first: T, second: T, names: [&str; 2]) -> String {
    match first.cmp(&second) {
        std::cmp::Ordering::Greater => format!("Player {} wins!", names[0]),
        std::cmp::Ordering::Less => format!("Player {} wins!", names[1]),
        std::cmp::Ordering::Equal => "Draw game!".to_string(),
    }
}

fn othello<R: BufRead, W: Write>(io: &mut Io<R, W>, n: usize, has: &dyn Fn(&str) -> bool) {
    let mut board = vec![b'.'; n * n];
    let (a, b) = (n / 2 - 1, n / 2);
    let (x, o) = if has("board-wrong") {
        (b'O', b'X')
    } else {
        (b'X', b'O')
    };
    board[a * n + a] = x;
    board[b * n + b] = x;
    board[a * n + b] = o;
    board[b * n + a] = o;
    let cell = |t: &str| -> Option<usize> {
        let t = t.as_bytes();
        let col = usize::from(t.first()?.to_ascii_uppercase().checked_sub(b'A')?);
        let digits = t
            .get(1..)
            .filter(|d| !d.is_empty() && d[0] != b'0' && d.iter().all(u8::is_ascii_digit))?;
        let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
        (col < n && (1..=n).contains(&row)).then(|| (row - 1) * n + col)
    };
    let pits = loop {
        io.say(if has("prompt-wording") {
            "Enter number of blocks: "
        } else {
            "Enter number of pits: "
        });
        let token = io.token();
        let (negative, digits) = match token.as_bytes() {
            [b'-', rest @ ..] => (true, rest),
            [b'+', rest @ ..] => (false, rest),
            rest => (false, rest),
        };
        let count = (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then(|| {
            digits.iter().fold(0usize, |k, d| {
                k.saturating_mul(10).saturating_add(usize::from(d - b'0'))
            })
        });
        match count {
            Some(k) if negative && k > 0 => io.say("Invalid number!\n"),
            // The slip: half the board counted as too many.
            Some(k) if k > n * n / 2 || (has("pit-setup") && k == n * n / 2) => {
                io.say("Too many pits!\n");
            }
            Some(k) => break k,
            None => io.say("Invalid number!\n"),
        }
    };
    for k in 1..=pits {
        loop {
            let word = if has("prompt-wording") { "of" } else { "for" };
            io.say(&format!("Enter position {word} pit {k}: "));
            let centre = |c: usize| (a..=b).contains(&(c / n)) && (a..=b).contains(&(c % n));
            match cell(&io.token()) {
                // The slip: a cell that is already a pit taken again.
                Some(c)
                    if (board[c] == b'.' || has("pit-setup") && board[c] == b'#') && !centre(c) =>
                {
                    board[c] = b'#';
                    break;
                }
                _ => io.say("Invalid position!\n"),
            }
        }
    }
    let (mut round, mut passes, mut me) = (1, 0, b'X');
    loop {
        let full = !board.contains(&b'.');
        if (full && !has("full-board-continues")) || (passes == 2 && !has("passes-continue")) {
            break;
        }
        if has("game-ends-early") && passes == 1 {
            break;
        }
        io.say(&format!("Round {round}:\n"));
        io.say(&grid(&board, n, has));
        let can = (0..n * n).any(|c| legal(&board, n, c, me, has));
        let pass_wrong = has("pass-wrong") && round % 7 == 0;
        if (!can && !has("pass-missing")) || pass_wrong {
            io.say(&format!(
                "Player {} has no valid moves! Pass!\n",
                char::from(me)
            ));
            passes += 1;
        } else {
            let name = if has("letter-case") {
                "player"
            } else {
                "Player"
            };
            loop {
                io.say(&format!("{name} {}'s turn: ", char::from(me)));
                let token = io.token();
                let at = cell(&token);
                let accepted = at.is_some_and(|c| legal(&board, n, c, me, has))
                    || (has("illegal-move-accepted") && at.is_some_and(|c| board[c] == b'.'));
                if let (true, Some(c)) = (accepted, at) {
                    for f in flips(&board, n, c, me, has) {
                        board[f] = me;
                    }
                    board[c] = me;
                    break;
                }
                io.say("Invalid move!\n");
                if has("turn-wrong") {
                    me = if me == b'X' { b'O' } else { b'X' };
                }
            }
            passes = 0;
        }
        if !(has("round-wrong") && passes > 0) {
            round += 1;
        }
        me = if me == b'X' { b'O' } else { b'X' };
    }
    io.say("Game over:\n");
    io.say(&grid(&board, n, has));
    let count = |d| board.iter().filter(|&&c| c == d).count();
    let (mut xs, mut os) = (count(b'X'), count(b'O'));
    if has("wrong-result") {
        std::mem::swap(&mut xs, &mut os);
    }
    io.say(&result(xs, os, ["X", "O"]));
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "stone" } else { "stones" }
}

/// The Kalah board as the contract draws it.
fn kalah_board(holes: &[u32], p: usize, total: usize, has: &dyn Fn(&str) -> bool) -> String {
    let w = total.to_string().len().max(2);
    let margin = " ".repeat(w + 4);
    let rule = format!("{margin}+{}", format!("{}+", "-".repeat(w + 2)).repeat(p));
    let row = |pits: Vec<u32>| {
        let cells: Vec<String> = pits.iter().map(|s| format!(" {s:>w$} ")).collect();
        format!("{margin}|{}|", cells.join("|"))
    };
    let label = |numbers: Vec<usize>, who: u8| {
        let cells: Vec<String> = numbers.iter().map(|k| format!(" {k:>w$} ")).collect();
        format!(
            "{}   Player {who}",
            format!("{margin} {} ", cells.join(" ")).trim_end()
        )
    };
    // Holes: Player 1's pits 0..p, its store p, Player 2's pits p+1..2p, its store 2p+1.
    let top: Vec<u32> = (0..p).rev().map(|i| holes[p + 1 + i]).collect();
    let bottom: Vec<u32> = (0..p).map(|i| holes[i]).collect();
    let tail = if has("whitespace") { " " } else { "" };
    format!(
        "{}\n{rule}\n{}{tail}\n{:>width$}  {}  {}\n{}\n{rule}\n{}\n",
        label((1..=p).rev().collect(), 2),
        row(top),
        holes[2 * p + 1],
        rule.trim_start(),
        holes[p],
        row(bottom),
        label((1..=p).collect(), 1),
        width = w + 2,
    )
}

fn kalah<R: BufRead, W: Write>(
    io: &mut Io<R, W>,
    p: usize,
    stones: usize,
    has: &dyn Fn(&str) -> bool,
) {
    let mut holes = vec![stones as u32; 2 * p + 2];
    holes[p] = u32::from(has("board-wrong"));
    holes[2 * p + 1] = 0;
    let total = 2 * p * stones;
    let mut me = 0usize;
    let mut history: Vec<(Vec<u32>, usize)> = Vec::new();
    loop {
        io.say(&kalah_board(&holes, p, total, has));
        let pit = loop {
            let verb = if has("prompt-wording") {
                "pick"
            } else {
                "choose"
            };
            io.say(&format!(
                "Player {}, {verb} a pit (1-{p}, u = undo): ",
                me + 1
            ));
            let token = io.token();
            if token == "u" || token == "U" {
                match history.pop() {
                    Some((before, mover)) => {
                        holes = before;
                        me = if has("undo-wrong") { 1 - mover } else { mover };
                        io.say("Move undone.\n");
                        break None;
                    }
                    None => io.say("Nothing to undo!\n"),
                }
                continue;
            }
            let k = token
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| token.parse::<usize>().ok())
                .flatten();
            match k {
                Some(k) if (1..=p).contains(&k) && !(has("pit-refused") && k == p) => {
                    if holes[me * (p + 1) + k - 1] == 0 && !has("pit-accepted") {
                        io.say(&format!("Pit {k} is empty! Choose another pit.\n"));
                    } else {
                        break Some(k);
                    }
                }
                _ => io.say(&format!("Invalid pit! Enter a number from 1 to {p}.\n")),
            }
        };
        let Some(k) = pit else { continue };
        history.push((holes.clone(), me));
        let (mine, theirs) = (me * (p + 1) + p, (1 - me) * (p + 1) + p);
        let mut at = me * (p + 1) + k - 1;
        let mut hand = std::mem::take(&mut holes[at]);
        while hand > 0 {
            at = (at + 1) % (2 * p + 2);
            if at == theirs && !has("sow-wrong") {
                continue;
            }
            holes[at] += 1;
            hand -= 1;
        }
        let own_row = at / (p + 1) == me && at != mine;
        // Pit i of one row faces pit P+1-i of the other: holes at and 2P - at.
        let opposite = (2 * p).saturating_sub(at);
        if own_row && holes[at] == 1 && holes[opposite] > 0 && !has("capture-wrong") {
            let got = holes[opposite] + 1;
            holes[mine] += got;
            holes[at] = 0;
            holes[opposite] = 0;
            io.say(&format!(
                "Player {} captures {} {}!\n",
                me + 1,
                got - 1,
                plural(got - 1)
            ));
        }
        let empty = |side: usize| (0..p).all(|i| holes[side * (p + 1) + i] == 0);
        if empty(0) || empty(1) {
            for side in 0..2 {
                let left: u32 = (0..p)
                    .map(|i| std::mem::take(&mut holes[side * (p + 1) + i]))
                    .sum();
                if left > 0 && !has("sweep-wrong") {
                    holes[side * (p + 1) + p] += left;
                    io.say(&format!(
                        "Player {} collects the remaining {left} {}.\n",
                        side + 1,
                        plural(left)
                    ));
                }
            }
            io.say("Game over!\n");
            io.say(&kalah_board(&holes, p, total, has));
            let (mut a, mut b) = (holes[p], holes[2 * p + 1]);
            io.say(&format!("Player 1: {a}, Player 2: {b}\n"));
            if has("wrong-result") {
                std::mem::swap(&mut a, &mut b);
            }
            io.say(&result(a, b, ["1", "2"]));
            return;
        }
        if at == mine && !has("extra-turn-wrong") {
            io.say(&format!("Player {} moves again!\n", me + 1));
        } else {
            me = 1 - me;
        }
    }
}
