//! The crate's own modules, built by path as this library (the crate is a binary, so that the
//! fuzz targets cannot depend on it), and the entry point of each fuzz target: the readers of
//! untrusted bytes. Built with `--cfg fuzzing`, which shows the few items the entry points
//! call and the crate keeps private otherwise.

#![allow(dead_code, unused_imports)]

#[path = "../../src/board.rs"]
mod board;
#[path = "../../src/cli/mod.rs"]
mod cli;
#[path = "../../src/driver/mod.rs"]
mod driver;
#[path = "../../src/judge/mod.rs"]
mod judge;
#[path = "../../src/mancala/mod.rs"]
mod mancala;
#[path = "../../src/matches/mod.rs"]
mod matches;
#[path = "../../src/othello/mod.rs"]
mod othello;
#[path = "../../src/progress.rs"]
mod progress;
#[path = "../../src/rng.rs"]
mod rng;
#[path = "../../src/tools/mod.rs"]
mod tools;
#[path = "../../src/worker.rs"]
mod worker;
#[path = "../../src/zeroed/mod.rs"]
mod zeroed;

use othello::{Layout, Othello, Side, WithSide};

/// The console on arbitrary bytes: the first byte picks the game and its board, the rest is
/// standard input, read by the token reader and played by the game's console flow. Nothing may
/// panic: the game ends or the input does.
pub fn console(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let choice = usize::from(pick >> 1);
    let task = if pick & 1 == 0 {
        let side = board::SIDES[choice % board::SIDES.len()];
        driver::Task::PlayOthello {
            side: board::BoardSide::new(side).expect("a listed side"),
            opponents: driver::Opponents::default(),
        }
    } else {
        driver::Task::PlayMancala {
            board: driver::KalahBoard {
                pits: board::PitsPerRow::new(1 + choice % 8).expect("1 to 8 pits"),
                stones: 1 + (pick >> 4),
                capture: mancala::Capture::default(),
            },
            opponents: driver::Opponents::default(),
        }
    };
    let transcript = driver::transcript(task, input);
    // Every token read is some of the input's bytes.
    assert!(transcript.reads.len() <= input.len());
}

/// The position reader on arbitrary bytes: a file of positions (`--position-file`), and the
/// same bytes as one `--position`. Each position read is set up on its board and every legal
/// move played. Nothing may panic; a bad position is an error.
pub fn positions(data: &[u8]) {
    if let Ok(positions) = tools::read_positions(data) {
        for position in positions.iter().take(8) {
            othello::with_side(position.side, Arranged(position));
        }
    }
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(position) = tools::parse_position(text)
    {
        othello::with_side(position.side, Arranged(&position));
    }
}

/// A position read, set up on its board and played one move deep.
struct Arranged<'a>(&'a tools::PositionText);

impl WithSide for Arranged<'_> {
    type Output = ();

    fn run<const N: usize>(self)
    where
        Side<N>: Layout,
    {
        let game = Othello::<N>::arranged(&self.0.cells, self.0.to_move)
            .expect("a position read has its side's cell count");
        for at in game.legal_moves() {
            let mut next = game.clone();
            next.play(at).expect("a legal move plays");
        }
    }
}

/// The judge's transcript reader on arbitrary bytes: a program's output read as a game against
/// the expected transcript of a generated case (the first byte picks the game, the board and
/// whether the run was cut short; the second the case's seed). Nothing may panic.
pub fn transcript(data: &[u8]) {
    let [pick, seed, actual @ ..] = data else {
        return;
    };
    let game = if pick & 1 == 0 {
        let side = [4, 6, 8][usize::from(pick >> 1) % 3];
        judge::Game::Othello(board::BoardSide::new(side).expect("a listed side"))
    } else {
        judge::Game::Mancala(driver::KalahBoard {
            pits: board::PitsPerRow::new(1 + usize::from(pick >> 1) % 6).expect("1 to 6 pits"),
            stones: 1 + (pick >> 5),
            capture: mancala::Capture::default(),
        })
    };
    let _ = judge::diagnose_generated(game, u64::from(*seed), actual, pick & 0x80 != 0);
}

/// The review's record reader on arbitrary bytes: the first byte picks the board, the rest is
/// read as a record (a transcript, a game's input or a move list) and replayed through the
/// rules. Nothing may panic: the record is a whole legal game or an error.
pub fn record(data: &[u8]) {
    let Some((&pick, record)) = data.split_first() else {
        return;
    };
    let side = board::SIDES[usize::from(pick) % board::SIDES.len()];
    let side = board::BoardSide::new(side).expect("a listed side");
    if let Ok(turns) = tools::replayed(side, record) {
        // A whole game has a turn for every token but the pits, and passes besides.
        assert!(turns > 0);
    }
    // The same bytes as a Kalah (6,4) record: a whole game has a sowing at least.
    if let Ok(sowings) = tools::replayed_kalah(record) {
        assert!(sowings > 0);
    }
}
