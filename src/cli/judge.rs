//! The flags of `boardgames judge`: the game, where the cases come from, the limits of a run,
//! the report's form and grading options, and one program or a class of them.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use super::Invocation;
use super::common::{
    SEED, cores, parse_capture, parse_in, parse_pits, parse_seconds, parse_seed, parse_side,
    parse_stones, parse_threads, within,
};
use crate::board::{BoardSide, PitsPerRow};
use crate::driver::KalahBoard;
use crate::judge::{
    Build, Cases, Class, Format, Game as JudgedGame, Judging, Limits, Sandbox, SandboxMode,
    Sealing, Shard, Visibility, default_cache,
};
use crate::mancala::Capture;

/// The games the judge grades.
#[derive(Debug, Subcommand)]
pub enum Judge {
    /// Othello: the program plays the course's console game.
    #[command(
        after_help = "Examples:\n  boardgames judge othello --size 6 --cases 200 --errors -- ./othello\n  \
                      boardgames judge othello --size 4,6,8 -- ./othello --size {size}"
    )]
    Othello {
        /// Board sides, separated by commas: every program is judged at each, on the same
        /// cases of each; `{size}` in the program's arguments is the side.
        #[arg(long, value_name = "N,...", allow_negative_numbers = true, value_delimiter = ',', default_value = "8", value_parser = parse_side)]
        size: Vec<BoardSide>,
        #[command(flatten)]
        how: JudgeArgs,
    },
    /// Kalah: the program plays the console contract's game.
    #[command(after_help = "Example:\n  boardgames judge mancala --pits 4 --stones 3 -- ./kalah")]
    Mancala {
        /// Pits in each player's row, separated by commas (every one with every --stones);
        /// `{pits}` in the program's arguments is the number.
        #[arg(long, value_name = "P,...", allow_negative_numbers = true, value_delimiter = ',', default_value = "6", value_parser = parse_pits)]
        pits: Vec<PitsPerRow>,
        /// Stones in each pit at the start, separated by commas; `{stones}` in the program's
        /// arguments is the number.
        #[arg(long, value_name = "S,...", allow_negative_numbers = true, value_delimiter = ',', default_value = "4", value_parser = parse_stones)]
        stones: Vec<u8>,
        /// When a last stone in an empty pit of the mover's row captures: 'standard' or
        /// 'empty' (see `boardgames mancala --help`).
        #[arg(long, value_name = "RULE", allow_negative_numbers = true, default_value = "standard", value_parser = parse_capture)]
        capture: Capture,
        #[command(flatten)]
        how: JudgeArgs,
    },
    /// Put a class's table back together from the JSON reports of its shards.
    #[command(
        long_about = "Put a class's table back together from the JSON reports of its shards \
                      (judge ... --programs DIR --shard K/N --format json), as the class judged in \
                      one run would print it. Shards of different judgings (another version of \
                      boardgames, other boards, cases, limits, grading options or build) are \
                      refused, naming what differs, as are a shard or a submission given twice \
                      and missing shards. Exit status 0 when merged, 2 when refused.",
        after_help = "Example:\n  boardgames judge merge shard-*.json --format csv > grades.csv"
    )]
    Merge {
        /// The shards' JSON reports.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The table's form.
        #[arg(long, value_enum, default_value = "text")]
        format: TableFormat,
    },
}

/// The forms of a merged class table.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TableFormat {
    /// The table, best first, with the sealing the runs had.
    Text,
    /// A row per submission, for a gradebook.
    Csv,
    /// The rows, with what was judged.
    Json,
    /// One self-contained page: the table, and each failure's shortest case drawn as boards.
    Html,
}

impl Judge {
    /// What the command line asks for: a judging at every board it names, or a merge.
    pub(super) fn invocation(self) -> Invocation {
        let format = |f: TableFormat| match f {
            TableFormat::Text => Format::Text,
            TableFormat::Csv => Format::Csv,
            TableFormat::Json => Format::Json,
            TableFormat::Html => Format::Html,
        };
        let judging = match self {
            Judge::Merge { files, format: f } => return Invocation::Merge(files, format(f)),
            Judge::Othello { size, how } => {
                how.judging(size.into_iter().map(JudgedGame::Othello).collect())
            }
            Judge::Mancala {
                pits,
                stones,
                capture,
                how,
            } => {
                let games = pits
                    .iter()
                    .flat_map(|&pits| {
                        stones.iter().map(move |&stones| {
                            JudgedGame::Mancala(KalahBoard {
                                pits,
                                stones,
                                capture,
                            })
                        })
                    })
                    .collect();
                how.judging(games)
            }
        };
        Invocation::Judge(Box::new(judging))
    }
}

/// Flags of every judging.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Generated games to judge.
    #[arg(
        long,
        value_name = "K",
        allow_negative_numbers = true,
        default_value_t = 100,
        value_parser = |t: &str| parse_in(t, within(1usize..=1_000_000), "1 to 1000000")
    )]
    pub cases: usize,
    /// Seed the cases derive from; each case's own seed is in the report.
    #[arg(long, value_name = "S", allow_negative_numbers = true, default_value_t = SEED, value_parser = parse_seed)]
    pub seed: u64,
    /// Put in wrong entries the assignment specifies, as generate --errors does.
    #[arg(long)]
    pub errors: bool,
    /// Put in entries the assignment leaves unspecified, as generate --weird does.
    #[arg(long)]
    pub weird: bool,
    /// Judge every *.in file of this folder instead of generated games.
    #[arg(long, value_name = "DIR", allow_negative_numbers = true, conflicts_with_all = ["cases", "seed", "errors", "weird"])]
    pub inputs: Option<PathBuf>,
    /// Seconds a run may take.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, default_value_t = 5.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Bytes of output a run may write [default: four times the expected transcript, plus 64
    /// KiB, so that a program caught in a loop is stopped soon].
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = |t: &str| parse_in(t, within(1usize..=1 << 40), "1 to 1099511627776"))]
    pub output_limit: Option<usize>,
    /// MiB of memory the processes of a run may use together (resident and swapped, not what
    /// they reserve: a sanitizer, a JVM or Go's runtime maps far more than it uses); a run
    /// killed at it, or that fails near it, is a memory limit.
    #[arg(long, value_name = "M", allow_negative_numbers = true, default_value_t = 1024, value_parser = |t: &str| parse_in(t, within(16u64..=1 << 20), "16 to 1048576 (MiB)"))]
    pub memory_mb: u64,
    /// MiB of address space each process of a run may map (RLIMIT_AS; Unix) [default: no
    /// such limit].
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = |t: &str| parse_in(t, within(16u64..=1 << 30), "16 to 1073741824 (MiB)"))]
    pub address_space_mb: Option<u64>,
    /// The sandbox each run is in: auto (every layer this system allows, the report naming the
    /// rest), strict (every layer, or refuse to start, naming the one missing), off (the
    /// program runs with your rights). On Linux: files (Landlock: read the system's files and
    /// its own folder, write only a fresh scratch folder), no network, a PID namespace and a
    /// cap on processes, resource limits, a seccomp filter, a clean environment.
    #[arg(long, value_enum, default_value_t = SandboxMode::Auto)]
    pub sandbox: SandboxMode,
    /// The most processes a run may have at once; threads do not count (each process may have
    /// 128 tasks).
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 32, value_parser = |t: &str| parse_in(t, within(1u32..=65_536), "1 to 65536"))]
    pub processes: u32,
    /// MiB a run may write to a file; a write past it fails, as the program sees it.
    #[arg(long, value_name = "M", allow_negative_numbers = true, default_value_t = 64, value_parser = |t: &str| parse_in(t, within(1u64..=1 << 20), "1 to 1048576 (MiB)"))]
    pub file_mb: u64,
    /// A folder the program may read besides the system's files and its own folder (again
    /// for more).
    #[arg(long, value_name = "DIR", allow_negative_numbers = true)]
    pub read: Vec<PathBuf>,
    /// Runs at once [default: the machine's cores].
    #[arg(long, alias = "jobs", value_name = "T", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Runs of each case; a program whose output or ending changes between runs is flaky, a
    /// failure like any other.
    #[arg(long, value_name = "R", allow_negative_numbers = true, default_value_t = 1, value_parser = |t: &str| parse_in(t, within(1u16..=100), "1 to 100"))]
    pub repeat: u16,
    /// Stop at the first case that is not accepted.
    #[arg(long)]
    pub fail_fast: bool,
    /// The report's form.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Save every case not accepted here: NAME.in, NAME.expected, NAME.actual, NAME.cmd (with
    /// --programs, a folder per submission, with its report in every format).
    #[arg(long, value_name = "DIR", allow_negative_numbers = true)]
    pub save: Option<PathBuf>,
    /// Gradescope: the points of the whole judging, spread evenly over the cases [default: one
    /// a case].
    #[arg(long, value_name = "TOTAL", allow_negative_numbers = true, value_parser = parse_points)]
    pub points: Option<f64>,
    /// Gradescope: when students see the tests.
    #[arg(long, value_enum)]
    pub visibility: Option<Visibility>,
    /// Read a program's `\r\n` line ends (a Visual C++ program's, on Windows) as the reference's
    /// `\n`: a transcript that differs only in them is accepted, not a presentation error.
    #[arg(long)]
    pub accept_crlf: bool,
    /// The share of a case's points a presentation error earns, from 0 to 1.
    #[arg(long, value_name = "F", allow_negative_numbers = true, default_value_t = 0.0, value_parser = parse_share)]
    pub pe_credit: f64,
    /// Judge every submission in this folder (each an executable, or a folder with one) on the
    /// same cases, and print a class table.
    #[arg(long, value_name = "DIR", allow_negative_numbers = true, conflicts_with_all = ["program", "fail_fast"])]
    pub programs: Option<PathBuf>,
    /// With --programs: each submission is sources (a folder, or one .cpp/.c file), built by
    /// this command, run by the system's shell in a copy of them (sandboxed), with the board
    /// in SIZE (or PITS and STONES) and OUT the path the program must be written to. A build
    /// that fails is a compile error on every case. Builds are cached (see --build-cache).
    #[arg(
        long,
        value_name = "CMD",
        requires = "programs",
        allow_hyphen_values = true
    )]
    pub build: Option<String>,
    /// Seconds a build may take.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, default_value_t = 60.0, value_parser = parse_seconds)]
    pub build_timeout: f64,
    /// Where builds are kept, by a hash of the command, the board and the sources: grading
    /// again rebuilds only what changed; delete the folder to clear it [default: the system's
    /// cache folder, boardgames/builds].
    #[arg(long, value_name = "DIR", allow_negative_numbers = true)]
    pub build_cache: Option<PathBuf>,
    /// With --programs: take every N-th submission from the K-th, for a CI job matrix.
    #[arg(
        long,
        value_name = "K/N",
        requires = "programs",
        conflicts_with = "program"
    )]
    pub shard: Option<Shard>,
    /// The program to judge and its arguments, after `--`.
    #[arg(
        last = true,
        required_unless_present = "programs",
        value_name = "PROGRAM"
    )]
    pub program: Vec<OsString>,
}

impl JudgeArgs {
    pub(super) fn judging(self, games: Vec<JudgedGame>) -> Judging {
        let cases = match self.inputs {
            Some(dir) => Cases::Inputs(dir),
            None => Cases::Generated {
                count: self.cases,
                seed: self.seed,
                errors: self.errors,
                weird: self.weird,
            },
        };
        Judging {
            game: games[0],
            games,
            cases,
            limits: Limits {
                time: Duration::from_secs_f64(self.timeout),
                output: self.output_limit,
                memory_mb: self.memory_mb,
                address_space_mb: self.address_space_mb,
                sandbox: Sandbox {
                    mode: self.sandbox,
                    processes: self.processes,
                    file_mb: self.file_mb,
                    // Processor time as well as wall time: a program spinning on a loaded
                    // machine is still a time limit.
                    cpu_seconds: self.timeout.ceil() as u64,
                    read: self.read,
                    holder: None,
                    work: None,
                },
            },
            jobs: self.threads.unwrap_or_else(cores),
            repeat: usize::from(self.repeat),
            fail_fast: self.fail_fast,
            format: self.format,
            save: self.save,
            points: self.points,
            visibility: self.visibility,
            pe_credit: self.pe_credit,
            accept_crlf: self.accept_crlf,
            program: self.program,
            class: self.programs.map(|dir| Class {
                dir,
                shard: self.shard.unwrap_or_default(),
            }),
            sealing: Sealing::default(),
            build: self.build.map(|command| Build {
                command,
                timeout: Duration::from_secs_f64(self.build_timeout),
                cache: self.build_cache.unwrap_or_else(default_cache),
            }),
        }
    }
}

/// Gradescope points: more than 0, at most a million.
fn parse_points(text: &str) -> Result<f64, String> {
    parse_in(
        text,
        |p: f64| (p > 0.0 && p <= 1e6).then_some(p),
        "more than 0, at most 1000000",
    )
}

/// A share: from 0 to 1.
fn parse_share(text: &str) -> Result<f64, String> {
    parse_in(
        text,
        |f: f64| (0.0..=1.0).contains(&f).then_some(f),
        "from 0 to 1",
    )
}
