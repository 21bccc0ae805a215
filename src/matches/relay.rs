//! `boardgames relay`: plays two Othello programs against each other through their consoles,
//! as two people at two keyboards would. Each program is a `boardgames` build (any version whose
//! console answers `?` with a hint), run as `PROGRAM othello --size N --hints --level L --seed S`
//! in a process group of its own; the relay answers the pit prompts, types the opening's random
//! moves into both consoles, then asks the player to move for a hint and types that move into
//! both. It keeps the game itself, so a program that suggests an illegal move, ends early or
//! stops answering is an error. Each opening is played twice, the programs swapping sides. It
//! is how two builds of the computer player (say, before and after a change) are measured
//! against each other. Each console starts sealed as the judge's programs do (with no memory
//! limit), and its whole tree is killed when the relay is done with it; the relay's failures are
//! `anyhow` errors.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::process::ChildStdin;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::arena::{OTHELLO_OPENING, Record, othello_opening};
use super::openings::{Openings, every_opening, read_openings};
use crate::board::{Coord, Player};
use crate::driver::othello_console;
use crate::judge::{Program, Sandbox, SandboxMode, Seal, Sealed, collect_tail};
use crate::othello::{Cell, Layout, Othello, Side, WithSide, with_side};
use crate::progress::Progress;
use crate::rng::Rng;
use crate::tools::{OthelloBoard, othello_start};

/// The most a console may write between two prompts.
const OUTPUT_LIMIT: usize = 1 << 20;

/// Everything a relay needs.
#[derive(Clone, Debug)]
pub struct Relaying {
    /// The board and its pits.
    pub board: OthelloBoard,
    /// The level each program plays at, the first program's first.
    pub levels: [u32; 2],
    /// The openings, each played from both sides.
    pub openings: Openings,
    /// Seed of the openings and of the programs' `--seed`s.
    pub seed: u64,
    /// How long a program may take to answer.
    pub timeout: Duration,
    /// Whether each game's record (its pits, then its moves) is printed under its line.
    pub moves: bool,
    /// The two programs.
    pub programs: [OsString; 2],
}

/// The relay's report.
mod text {
    use std::time::Duration;

    use crate::board::Coord;
    use crate::matches::arena::{OTHELLO_OPENING, Record};
    use crate::matches::openings::Openings;

    pub const NAMES: [&str; 2] = ["A", "B"];

    /// The first line: the games and where their `count` openings came from.
    pub fn header(side: usize, count: usize, openings: &Openings, seed: u64) -> String {
        let games = 2 * count;
        let plural = if count == 1 { "" } else { "s" };
        let source = match openings {
            Openings::Random(_) => {
                format!("{count} opening{plural} of {OTHELLO_OPENING} random moves")
            }
            Openings::Every => format!("all {count} opening{plural} of {OTHELLO_OPENING} moves"),
            Openings::Listed(path) => format!("{count} opening{plural} from {}", path.display()),
        };
        format!(
            "Othello {side}x{side}: {games} games ({source}, each played from both sides), seed \
             {seed}\n"
        )
    }

    pub fn program(name: &str, command: &str, level: u32) -> String {
        format!("{name}: {command}, level {level}\n")
    }

    pub fn game(number: usize, opening: &[Coord], first: &str, discs: [usize; 2]) -> String {
        let moves: Vec<String> = opening.iter().map(ToString::to_string).collect();
        format!(
            "game {number} ({}), {first} is X: A {}, B {}\n",
            moves.join(" "),
            discs[0],
            discs[1]
        )
    }

    /// A game's record, indented under its line, as `review othello` reads it: the pit count
    /// and the pits first on a board with pits, then the moves, the opening's included and
    /// passes left out (the rules say where they fall).
    pub fn moves(pits: &[Coord], played: &[Coord]) -> String {
        let mut tokens: Vec<String> = Vec::new();
        if !pits.is_empty() {
            tokens.push(pits.len().to_string());
        }
        tokens.extend(pits.iter().chain(played).map(ToString::to_string));
        format!("  {}\n", tokens.join(" "))
    }

    /// The running score, in the progress bar on a terminal.
    pub fn running(record: &Record) -> String {
        format!(
            "A against B: {}-{}-{}",
            record.wins, record.draws, record.losses
        )
    }

    pub fn summary(record: &Record) -> String {
        format!(
            "A against B: {}-{}-{}, mean margin {:+.1}\n",
            record.wins,
            record.draws,
            record.losses,
            record.mean_margin()
        )
    }

    pub fn hints(name: &str, times: &[Duration]) -> String {
        let total: Duration = times.iter().sum();
        let mean = total.as_secs_f64() * 1000.0 / times.len().max(1) as f64;
        let longest = times.iter().max().copied().unwrap_or_default();
        format!(
            "{name}'s hints: {} moves, {mean:.1} ms on average, the longest {} ms\n",
            times.len(),
            longest.as_millis()
        )
    }
}

/// Plays the relay, writing a line to `out` as each game ends and a summary at the end.
///
/// # Errors
/// When a program cannot be run, ends or stops answering before a game is over, or suggests a
/// move that is not legal; or when `out` cannot be written.
pub fn relay(relaying: &Relaying, out: &mut dyn Write) -> anyhow::Result<()> {
    let programs = [
        Program::find(&relaying.programs[0], Vec::new())?,
        Program::find(&relaying.programs[1], Vec::new())?,
    ];
    with_side(
        relaying.board.side,
        Match {
            relaying,
            programs: &programs,
            out,
        },
    )
}

/// The relay on a board whose side is a type.
struct Match<'a> {
    relaying: &'a Relaying,
    programs: &'a [Program; 2],
    out: &'a mut dyn Write,
}

impl WithSide for Match<'_> {
    type Output = anyhow::Result<()>;

    fn run<const N: usize>(self) -> anyhow::Result<()>
    where
        Side<N>: Layout,
    {
        let Match {
            relaying,
            programs,
            out,
        } = self;
        let start = othello_start::<N>(&relaying.board.pits)?;
        let mut rng = Rng::new(relaying.seed);
        let listing = |list: Vec<Vec<Coord>>| {
            let count = list.len();
            (Some(list), count)
        };
        let (listed, count) = match &relaying.openings {
            Openings::Random(count) => (None, *count),
            Openings::Every => listing(every_opening(&start, OTHELLO_OPENING)),
            Openings::Listed(path) => listing(read_openings(path, &start)?),
        };
        let games = 2 * count;
        let header = text::header(N, count, &relaying.openings, relaying.seed);
        out.write_all(header.as_bytes())?;
        for (i, program) in programs.iter().enumerate() {
            let line = text::program(text::NAMES[i], &program.command_line(), relaying.levels[i]);
            out.write_all(line.as_bytes())?;
        }
        out.flush()?;
        let mut record = Record::default();
        let mut times: [Vec<Duration>; 2] = Default::default();
        let mut moves = Vec::new();
        let bar = Progress::new(games, "games");
        for game in 0..games {
            // Game 2k opens with a new opening, program A playing X; game 2k + 1 replays it
            // with the sides swapped.
            let a_first = game % 2 == 0;
            if a_first {
                moves = match &listed {
                    Some(list) => list[game / 2].clone(),
                    None => othello_opening(&mut start.clone(), OTHELLO_OPENING, &mut rng),
                };
            }
            let seeds = [rng.next(), rng.next()];
            let start_console = |i: usize| {
                let level = relaying.levels[i];
                Console::start(&programs[i], N, level, seeds[i], relaying.timeout)
            };
            let mut consoles = [start_console(0)?, start_console(1)?];
            for console in &mut consoles {
                console.pits(&relaying.board.pits)?;
            }
            let (discs, played) = play(&start, &moves, a_first, &mut consoles, &mut times)?;
            record.add(discs[0] as i32 - discs[1] as i32);
            let first = text::NAMES[usize::from(!a_first)];
            let mut line = text::game(game + 1, &moves, first, discs);
            if relaying.moves {
                line.push_str(&text::moves(&relaying.board.pits, &played));
            }
            bar.suspend(|| out.write_all(line.as_bytes()).and_then(|()| out.flush()))?;
            bar.say(text::running(&record));
            bar.advance(1);
        }
        bar.finish();
        out.write_all(text::summary(&record).as_bytes())?;
        for (name, times) in text::NAMES.iter().zip(&times) {
            out.write_all(text::hints(name, times).as_bytes())?;
        }
        out.flush()?;
        Ok(())
    }
}

/// Plays one game from `start` through the two `consoles` (program A's first): the `opening`
/// moves, then each mover's hint; program A plays X when `a_first`. Adds each hint's time to
/// its program's `times`; the discs of A and of B at the end, and the moves played.
fn play<const N: usize>(
    start: &Othello<N>,
    opening: &[Coord],
    a_first: bool,
    consoles: &mut [Console; 2],
    times: &mut [Vec<Duration>; 2],
) -> anyhow::Result<([usize; 2], Vec<Coord>)>
where
    Side<N>: Layout,
{
    let program_of = |player: Player| usize::from((player == Player::First) != a_first);
    let mut game = start.clone();
    let mut played = Vec::new();
    while game.outcome().is_none() {
        // The consoles pass by themselves.
        if game.pass().is_ok() {
            continue;
        }
        let prompt = othello_console::turn_prompt(game.to_move());
        let at = match opening.get(played.len()) {
            Some(&at) => at,
            None => {
                let mover = program_of(game.to_move());
                let asked = Instant::now();
                let at = consoles[mover].hint(&prompt)?;
                times[mover].push(asked.elapsed());
                at
            }
        };
        if game.play(at).is_err() {
            let name = &consoles[program_of(game.to_move())].name;
            bail!("{name} suggested {at}, which is not a legal move");
        }
        for console in consoles.iter_mut() {
            console.answer(&prompt, &at.to_string())?;
        }
        played.push(at);
    }
    let discs = |player| game.count(Cell::Disc(player));
    let (x, o) = (discs(Player::First), discs(Player::Second));
    Ok((if a_first { [x, o] } else { [o, x] }, played))
}

/// A running console: the program, its standard input, and what it has written that the
/// relay has not yet consumed.
struct Console {
    /// The command line, for messages.
    name: String,
    sealed: Sealed,
    input: ChildStdin,
    /// Chunks of its standard output, read by a thread of their own.
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    timeout: Duration,
}

impl Console {
    /// Starts `program`'s Othello console on a board of `side` with hints at `level`.
    fn start(
        program: &Program,
        side: usize,
        level: u32,
        seed: u64,
        timeout: Duration,
    ) -> anyhow::Result<Console> {
        let (side, level, seed) = (side.to_string(), level.to_string(), seed.to_string());
        let args = [
            "othello", "--size", &side, "--hints", "--level", &level, "--seed", &seed,
        ];
        let program = Program {
            path: program.path.clone(),
            args: args.map(OsString::from).to_vec(),
        };
        let name = program.command_line();
        let mut sealed = Sealed::start(&program.path, &program.args, &console_seal())
            .with_context(|| format!("cannot run {name}"))?;
        let Some((input, mut stdout, stderr)) = sealed.pipes() else {
            unreachable!("all three streams are piped");
        };
        // Read, so that a console that writes to it never blocks; its words are not used.
        let _ = collect_tail(stderr);
        let (chunks, output) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = [0; 1 << 14];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if chunks.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        });
        Ok(Console {
            name,
            sealed,
            input,
            output,
            pending: Vec::new(),
            timeout,
        })
    }

    /// Waits for `prompt`, then types `line`.
    fn answer(&mut self, prompt: &str, line: &str) -> anyhow::Result<()> {
        self.wait_for(prompt)?;
        let typed = self
            .input
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.input.flush());
        typed.with_context(|| format!("{} ended before the game was over", self.name))
    }

    /// Answers the pit prompts with `pits`.
    fn pits(&mut self, pits: &[Coord]) -> anyhow::Result<()> {
        self.answer(othello_console::PIT_COUNT_PROMPT, &pits.len().to_string())?;
        for (k, at) in pits.iter().enumerate() {
            self.answer(&othello_console::pit_prompt(k + 1), &at.to_string())?;
        }
        Ok(())
    }

    /// Asks for a hint at `prompt` and reads it; the console is left at the prompt.
    fn hint(&mut self, prompt: &str) -> anyhow::Result<Coord> {
        self.answer(prompt, othello_console::HINT)?;
        let said = self.wait_for(prompt)?;
        self.pending = prompt.as_bytes().to_vec();
        othello_console::last_hint(&said)
            .with_context(|| format!("{} answered `?` with no hint", self.name))
    }

    /// Reads until the output ends with `prompt`; what came before it.
    fn wait_for(&mut self, prompt: &str) -> anyhow::Result<String> {
        let deadline = Instant::now() + self.timeout;
        while !self.pending.ends_with(prompt.as_bytes()) {
            if self.pending.len() > OUTPUT_LIMIT {
                bail!(
                    "{} wrote more than {OUTPUT_LIMIT} bytes without asking for a move",
                    self.name
                );
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.pending.extend_from_slice(&chunk),
                Err(RecvTimeoutError::Timeout) => bail!(
                    "{} did not ask for a move within {} s",
                    self.name,
                    self.timeout.as_secs_f64()
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("{} ended before the game was over", self.name)
                }
            }
        }
        let said = self.pending.len() - prompt.len();
        let text = String::from_utf8_lossy(&self.pending[..said]).into_owned();
        self.pending.clear();
        Ok(text)
    }
}

/// How a console runs: sandboxed as the judge's programs are, without their memory and
/// processor-time limits (a strong level searches long and with large tables), and with room
/// for its threads.
fn console_seal() -> Seal {
    Seal {
        memory_mb: None,
        address_space_mb: None,
        sandbox: Sandbox {
            mode: SandboxMode::Auto,
            processes: 512,
            file_mb: 64,
            cpu_seconds: u64::MAX,
            read: Vec::new(),
            holder: None,
            work: None,
        },
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.sealed.close();
    }
}
