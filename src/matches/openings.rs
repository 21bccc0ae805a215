//! Where a relay's openings come from: random moves drawn from the seed, every opening of that
//! many moves, or a file that lists them, one opening a line. Every opening measures two
//! programs with no draw of openings at all; a file makes a set that can be played again by
//! any build, or split between runs. Each listed opening is checked against the rules before a
//! console starts; a move that cannot be read or played names its line.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::board::Coord;
use crate::othello::{Layout, Othello, Side};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// This many openings of random moves, drawn from the relay's seed.
    Random(usize),
    /// Every opening of that many moves, each once.
    Every,
    /// The openings a file lists.
    Listed(PathBuf),
}

/// Every way the game can open with `plies` moves from `start` (fewer where it ends sooner), in
/// the order of the legal moves, the passes left out.
pub fn every_opening<const N: usize>(start: &Othello<N>, plies: usize) -> Vec<Vec<Coord>>
where
    Side<N>: Layout,
{
    fn walk<const N: usize>(
        mut game: Othello<N>,
        plies: usize,
        moves: &mut Vec<Coord>,
        out: &mut Vec<Vec<Coord>>,
    ) where
        Side<N>: Layout,
    {
        let _ = game.pass();
        if moves.len() == plies || game.outcome().is_some() {
            out.push(moves.clone());
            return;
        }
        for at in game.legal_moves() {
            let mut next = game.clone();
            if next.play(at).is_ok() {
                moves.push(at);
                walk(next, plies, moves, out);
                moves.pop();
            }
        }
    }
    let mut out = Vec::new();
    walk(start.clone(), plies, &mut Vec::new(), &mut out);
    out
}

/// The openings `path` lists, each checked from `start`: one a line, its moves named as this
/// program's console names them, with or without spaces between them (`D3 C5` or `d3c5`), the
/// passes left out. Blank lines are skipped.
///
/// # Errors
/// When the file cannot be read or holds no opening; when a move cannot be read, is not legal
/// where it falls, or the game is over once an opening is played.
pub fn read_openings<const N: usize>(
    path: &Path,
    start: &Othello<N>,
) -> anyhow::Result<Vec<Vec<Coord>>>
where
    Side<N>: Layout,
{
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let place = || format!("{} line {}", path.display(), number + 1);
        if line.trim().is_empty() {
            continue;
        }
        let mut game = start.clone();
        let mut moves = Vec::new();
        for word in words(line) {
            let at: Coord = word
                .parse()
                .with_context(|| format!("{}: {word}", place()))?;
            // Passes are left out: the rules say where they fall.
            let _ = game.pass();
            if game.play(at).is_err() {
                bail!("{}: {at} is not a legal move there", place());
            }
            moves.push(at);
        }
        if game.outcome().is_some() {
            bail!("{}: the game is over once the opening is played", place());
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        bail!("{} lists no opening", path.display());
    }
    Ok(openings)
}

/// A line's moves: a new move starts at each letter, so spaces between them are optional.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split_whitespace().flat_map(|mut rest| {
        std::iter::from_fn(move || {
            let first = rest.chars().next()?;
            let end = rest[first.len_utf8()..]
                .find(|c: char| c.is_ascii_alphabetic())
                .map_or(rest.len(), |at| at + first.len_utf8());
            let (word, after) = rest.split_at(end);
            rest = after;
            Some(word)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opening_is_each_path_of_the_game_tree_once() {
        // Perft's counts of the start without pits: 4, 12, 56 and 244 paths.
        let start = Othello::<8>::new();
        for (plies, paths) in [(0, 1), (1, 4), (2, 12), (3, 56), (4, 244)] {
            let all = every_opening(&start, plies);
            assert_eq!(all.len(), paths, "{plies} plies");
            let mut distinct: Vec<String> = all.iter().map(|moves| format!("{moves:?}")).collect();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), paths);
            assert!(all.iter().all(|moves| moves.len() == plies));
        }
    }

    #[test]
    fn a_line_s_moves_split_at_each_letter_with_or_without_spaces() {
        let cases: &[(&str, &[&str])] = &[
            ("D3 C5 F6", &["D3", "C5", "F6"]),
            ("d3c5f6", &["d3", "c5", "f6"]),
            ("  A10b3 Z26 ", &["A10", "b3", "Z26"]),
            ("3D", &["3", "D"]),
            ("", &[]),
            ("é3d4", &["é3", "d4"]),
        ];
        for &(line, expected) in cases {
            assert_eq!(words(line).collect::<Vec<_>>(), expected, "{line:?}");
        }
    }
}
