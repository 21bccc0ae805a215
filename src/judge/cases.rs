//! The cases of a judging: their inputs (generated from a seed, or the `*.in` files of a
//! folder), each played by the game itself to make the expected transcript.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{Case, Cases, Game, Judging};
use crate::driver::{self, Opponents, Task};
use crate::tools::{self, Generation, Tool};

/// A case's input before the game has made its transcript.
pub(super) enum Input {
    /// Generated so.
    Seed(Generation),
    /// Read from a file.
    File(String, Vec<u8>),
}

/// The inputs of the cases, in order.
pub(super) fn inputs(judging: &Judging) -> anyhow::Result<Vec<Input>> {
    match &judging.cases {
        &Cases::Generated {
            count,
            seed,
            errors,
            weird,
        } => Ok((0..count)
            .map(|i| {
                Input::Seed(Generation {
                    seed: case_seed(seed, i),
                    errors,
                    weird,
                })
            })
            .collect()),
        Cases::Inputs(dir) => {
            let mut files = listing(dir, "cases")?;
            files.retain(|path| path.extension().is_some_and(|e| e == "in"));
            if files.is_empty() {
                bail!("no cases: {} holds no *.in file", dir.display());
            }
            files
                .into_iter()
                .map(|path| {
                    let bytes = std::fs::read(&path)
                        .with_context(|| format!("reading {}", path.display()))?;
                    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                    Ok(Input::File(stem.into_owned(), bytes))
                })
                .collect()
        }
    }
}

/// The paths in the folder `dir`, sorted by name; `what` names the folder in an error.
pub(super) fn listing(dir: &Path, what: &str) -> anyhow::Result<Vec<PathBuf>> {
    let reading = || format!("reading {what} from {}", dir.display());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(reading)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .with_context(reading)?;
    paths.sort();
    Ok(paths)
}

/// The seed of case `i` of a judging from `seed`: a splitmix64 step, so that neighbouring
/// cases and neighbouring judgings share no games.
pub(super) fn case_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i as u64 + 1);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The case of `input`: generated if need be, and played by the game itself.
pub(super) fn make_case(game: Game, input: &Input) -> Case {
    let (name, seed, bytes) = match input {
        &Input::Seed(how) => {
            let generate = match game {
                Game::Othello(side) => Tool::GenerateOthello { side, how },
                Game::Mancala(board) => Tool::GenerateMancala { board, how },
            };
            let mut bytes = Vec::new();
            // Writing to memory cannot fail, and a generator reads nothing.
            let _ = tools::run(generate, false, std::io::empty(), &mut bytes);
            (format!("seed-{}", how.seed), Some(how.seed), bytes)
        }
        Input::File(name, bytes) => (name.clone(), None, bytes.clone()),
    };
    let play = match game {
        Game::Othello(side) => Task::PlayOthello {
            side,
            opponents: Opponents::default(),
        },
        Game::Mancala(board) => Task::PlayMancala {
            board,
            opponents: Opponents::default(),
        },
    };
    let expected = driver::transcript(play, &bytes);
    Case {
        name,
        seed,
        input: bytes,
        expected,
    }
}

/// For the fuzz target of the transcript reader (`fuzz/`): `actual`, a run's output (`cut`
/// short or not), read against the expected transcript of the generated case of `seed`.
#[cfg(fuzzing)]
pub(crate) fn diagnose_generated(
    game: Game,
    seed: u64,
    actual: &[u8],
    cut: bool,
) -> super::Diagnosis {
    let how = Generation {
        seed,
        errors: true,
        weird: true,
    };
    super::reading::diagnose::diagnose(
        game,
        &make_case(game, &Input::Seed(how)).expected,
        actual,
        cut,
    )
}
