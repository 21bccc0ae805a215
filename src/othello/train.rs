//! Fitting the learned evaluation ([`super::pattern`]): positions from games of varied play,
//! labelled by exact solves (every move of a solved position gives one more labelled position),
//! and pattern weights fitted to them by least squares. Everything follows from a seed, so the
//! shipped weights can be made again. Pure computation: progress goes to a callback.

use super::bitboard::{Layout, Side};
use super::bits::Bits;
use super::computer::{Strength, move_at};
use super::features::{self, FEATURES, Features, PHASES, Weights};
use super::game::Othello;
use super::pattern::{self, Patterns, SCALE};
use super::solve::{Asked, Question, Scoring, Solver, solve_position};
use crate::board::{Coord, Player};
use crate::rng::Rng;

/// A labelled position: the discs of the player to move and of the other player, and the final
/// disc margin for the player to move under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub me: u64,
    pub opp: u64,
    pub value: i8,
}

impl Sample {
    /// The sample as 17 bytes: the two sets little-endian, then the value.
    #[must_use]
    pub fn to_bytes(self) -> [u8; 17] {
        let mut out = [0; 17];
        out[..8].copy_from_slice(&self.me.to_le_bytes());
        out[8..16].copy_from_slice(&self.opp.to_le_bytes());
        out[16] = self.value as u8;
        out
    }

    /// The samples of `bytes` written by [`Self::to_bytes`] (a partial last one is ignored).
    #[must_use]
    pub fn read_all(bytes: &[u8]) -> Vec<Sample> {
        bytes
            .chunks_exact(17)
            .map(|b| Sample {
                me: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                opp: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
                value: b[16] as i8,
            })
            .collect()
    }
}

/// Chunks the sample generation is split into, each from a seed of its own, so that the samples
/// do not depend on how many threads make them.
const CHUNKS: u64 = 16;

/// Empty cells of the positions that are solved on a board of side `side` (their moves give
/// positions one fewer): on 6x6 from fewer and up to more, since solving there is cheap, so
/// that the fit sees nearer where the solver asks (16 empty cells and up).
fn solved(side: usize) -> std::ops::RangeInclusive<usize> {
    if side == 8 { 12..=16 } else { 10..=17 }
}

/// About `count` labelled positions from `seed`, made on `threads` threads; `done` is told the
/// number made so far, now and then.
pub fn samples<const N: usize>(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Sample>
where
    Side<N>: Layout,
{
    chunked(
        seed,
        count,
        threads,
        done,
        || Solver::<Side<N>>::new(64, Scoring::Discs).expect("64 MiB for a training solver"),
        |solver, rng, samples| solve_one(rng, solver, samples),
    )
}

/// About `count` items made on `threads` threads in [`CHUNKS`] chunks, each from a seed of its
/// own drawn from `seed` (so the items do not depend on the thread count): each chunk makes a
/// state with `state` and calls `one` until it has its share; `done` is told the number made so
/// far after each call.
fn chunked<T: Send, S>(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
    state: impl Fn() -> S + Sync,
    one: impl Fn(&mut S, &mut Rng, &mut Vec<T>) + Sync,
) -> Vec<T> {
    let per_chunk = count.div_ceil(CHUNKS as usize);
    let made = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicU64::new(0);
    let mut chunks: Vec<(u64, Vec<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let chunk = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if chunk >= CHUNKS {
                            return out;
                        }
                        let mut rng = Rng::new(seed.wrapping_mul(CHUNKS).wrapping_add(chunk + 1));
                        let mut items = Vec::with_capacity(per_chunk + 128);
                        let mut state = state();
                        while items.len() < per_chunk {
                            let before = items.len();
                            one(&mut state, &mut rng, &mut items);
                            let total = made.fetch_add(
                                items.len() - before,
                                std::sync::atomic::Ordering::Relaxed,
                            );
                            done(total + items.len() - before);
                        }
                        items.truncate(per_chunk);
                        out.push((chunk, items));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_default())
            .collect()
    });
    chunks.sort_by_key(|&(chunk, _)| chunk);
    chunks.into_iter().flat_map(|(_, items)| items).collect()
}

/// Plays one of `moves` (the legal moves of `game`): a random one when `random`, else the one
/// `strength` picks. False when the game refused it.
fn play_varied<const N: usize>(
    game: &mut Othello<N>,
    moves: &[Coord],
    random: bool,
    strength: Strength,
    rng: &mut Rng,
) -> bool
where
    Side<N>: Layout,
{
    let at = if random {
        moves[rng.below(moves.len())]
    } else {
        move_at(game, strength, rng).unwrap_or(moves[0])
    };
    game.play(at).is_ok()
}

/// Plays one game of varied moves (random ones at first, then a weak computer's with some
/// random ones mixed in) to a position with empty cells in [`solved`], solves it and every
/// move, and adds them as samples.
fn solve_one<const N: usize>(
    rng: &mut Rng,
    solver: &mut Solver<'_, Side<N>>,
    samples: &mut Vec<Sample>,
) where
    Side<N>: Layout,
{
    let range = solved(N);
    let target = range.start() + rng.below(range.end() - range.start() + 1);
    let mut game = Othello::<N>::new();
    let mut ply = 0;
    while game.position().empty.len() as usize > target {
        let moves: Vec<_> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                return;
            }
            continue;
        }
        let random = ply < 6 || rng.below(4) == 0;
        if !play_varied(&mut game, &moves, random, Strength::TRAINING, rng) {
            return;
        }
        ply += 1;
    }
    if !game.has_legal_move() {
        return;
    }
    let analysis = solver.analyse(
        &game,
        Asked {
            line: false,
            moves: true,
        },
    );
    let pos = game.position();
    samples.push(sample(word(pos.me), word(pos.opp), analysis.solution.value));
    for (at, value) in analysis.moves {
        let mut child = game.clone();
        if child.play(at).is_ok() {
            let pos = child.position();
            samples.push(sample(word(pos.me), word(pos.opp), -value));
        }
    }
}

/// About `count` positions of the midgame phases of the `N` x `N` board, labelled, from
/// `seed`, made on `threads` threads (the positions do not depend on how many); `done` is told
/// the number made so far, now and then. Each game opens with two to eight random moves, then
/// the midgame's training player ([`Strength::MIDGAME_TRAINING`]) plays both sides until
/// the endgame phase of the patterns is reached, where the position is solved; each position
/// of the game after the random moves is labelled with that margin for its own player to move.
pub fn midgame_samples<const N: usize>(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Sample>
where
    Side<N>: Layout,
{
    let Some(patterns) = pattern::for_side(N) else {
        return Vec::new();
    };
    chunked(
        seed,
        count,
        threads,
        done,
        || Solver::<Side<N>>::new(16, Scoring::Discs).expect("16 MiB for a training solver"),
        |solver, rng, samples| midgame_game(patterns, rng, solver, samples),
    )
}

/// One game of [`midgame_samples`], its positions added to `samples`.
fn midgame_game<const N: usize>(
    patterns: &Patterns,
    rng: &mut Rng,
    solver: &mut Solver<'_, Side<N>>,
    samples: &mut Vec<Sample>,
) where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    let random = 2 + rng.below(7);
    let mut seen: Vec<(u64, u64, Player)> = Vec::new();
    let mut ply = 0;
    while patterns.phase(game.position().empty.len()) > 0 {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                break;
            }
            continue;
        }
        if ply >= random {
            let pos = game.position();
            seen.push((word(pos.me), word(pos.opp), game.to_move()));
        }
        if !play_varied(
            &mut game,
            &moves,
            ply < random,
            Strength::MIDGAME_TRAINING,
            rng,
        ) {
            return;
        }
        ply += 1;
    }
    let solved = solver.analyse(
        &game,
        Asked {
            line: false,
            moves: false,
        },
    );
    let value = solved.solution.value;
    samples.extend(seen.into_iter().map(|(me, opp, player)| {
        sample(
            me,
            opp,
            if player == game.to_move() {
                value
            } else {
                -value
            },
        )
    }));
}

fn sample(me: u64, opp: u64, value: i32) -> Sample {
    Sample {
        me,
        opp,
        value: value.clamp(-64, 64) as i8,
    }
}

/// The moves each player has in a sample.
fn mobility<L: Layout>(sample: &Sample) -> (u32, u32) {
    let bits = |word: u64| {
        word.cells()
            .fold(L::Bits::EMPTY, |set, i| set | L::Bits::cell(i))
    };
    let (me, opp) = (bits(sample.me), bits(sample.opp));
    let empty = L::ALL & !(me | opp);
    (
        L::moves(me, opp, empty).len(),
        L::moves(opp, me, empty).len(),
    )
}

/// A set of cells of a board with at most 64 as one word, cell `i` at bit `i`.
fn word<B: Bits>(set: B) -> u64 {
    set.cells().fold(0, |word, i| word | 1 << i)
}

/// The patterns of the `N` x `N` board, where it has a learned evaluation (6x6, 8x8).
#[must_use]
pub fn learnable<const N: usize>() -> Option<&'static Patterns> {
    pattern::for_side(N)
}

/// How well a fit went: the mean absolute error in discs on the samples fitted and on those
/// held out.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    pub fitted: f64,
    pub held_out: f64,
}

/// Weights (in 1/[`SCALE`] disc) fitted to `samples` by stochastic gradient descent on the
/// squared error, `epochs` passes in an order fixed by `seed`; one sample in ten is held out to
/// measure the fit. `epoch` is told each pass's number.
pub fn fit<const N: usize>(
    patterns: &Patterns,
    samples: &[Sample],
    epochs: u32,
    seed: u64,
    epoch: &dyn Fn(u32),
) -> (Vec<i16>, Fit)
where
    Side<N>: Layout,
{
    let start = vec![0; patterns.weight_count()];
    fit_from::<N>(patterns, samples, &start, epochs, seed, epoch)
}

/// [`fit`] from the weights `start` rather than from none.
fn fit_from<const N: usize>(
    patterns: &Patterns,
    samples: &[Sample],
    start: &[i16],
    epochs: u32,
    seed: u64,
    epoch: &dyn Fn(u32),
) -> (Vec<i16>, Fit)
where
    Side<N>: Layout,
{
    let mut weights: Vec<f32> = start.iter().map(|&w| f32::from(w) / SCALE).collect();
    let n = weights.len();
    let (mut train, held) = held_out(samples);
    let mut rng = Rng::new(seed);
    let mut indices = Vec::new();
    for pass in 0..epochs {
        epoch(pass + 1);
        rng.shuffle(&mut train);
        // A step that shrinks as the fit settles; each sample touches about 90 weights.
        let rate = 0.002 / (1.0 + pass as f32 / 4.0);
        for s in &train {
            let (predicted, scalars) = predict::<N>(patterns, &weights, s, &mut indices);
            let error = f32::from(s.value) - predicted;
            for &i in &indices {
                weights[i] += rate * error;
            }
            for (w, x) in weights[n - scalars.len()..].iter_mut().zip(scalars) {
                *w += rate * error * x;
            }
        }
    }
    let fit = Fit {
        fitted: mean_error::<N>(patterns, &weights, &train),
        held_out: mean_error::<N>(patterns, &weights, &held),
    };
    let stored = weights
        .iter()
        .map(|w| {
            (w * SCALE)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        })
        .collect();
    (stored, fit)
}

/// `samples` split into those fitted and those held out (one in ten).
fn held_out(samples: &[Sample]) -> (Vec<&Sample>, Vec<&Sample>) {
    let (train, held): (Vec<_>, Vec<_>) =
        samples.iter().enumerate().partition(|(i, _)| i % 10 != 9);
    (
        train.into_iter().map(|(_, s)| s).collect(),
        held.into_iter().map(|(_, s)| s).collect(),
    )
}

/// The value `weights` (in discs) give sample `s`, and its scalar features; `indices` is left
/// holding the weights its patterns look up.
fn predict<const N: usize>(
    patterns: &Patterns,
    weights: &[f32],
    s: &Sample,
    indices: &mut Vec<usize>,
) -> (f32, [f32; 3])
where
    Side<N>: Layout,
{
    let (features, scalars) = patterns.features(s.me, s.opp, mobility::<Side<N>>(s));
    indices.clear();
    indices.extend(features);
    let looked_up: f32 = indices.iter().map(|&i| weights[i]).sum();
    let n = weights.len();
    let scalar: f32 = scalars
        .iter()
        .zip(&weights[n - scalars.len()..])
        .map(|(x, w)| x * w)
        .sum();
    (looked_up + scalar, scalars)
}

/// The mean absolute error of `weights` (in discs) on `set`, in discs.
fn mean_error<const N: usize>(patterns: &Patterns, weights: &[f32], set: &[&Sample]) -> f64
where
    Side<N>: Layout,
{
    let mut indices = Vec::new();
    let total: f64 = set
        .iter()
        .map(|s| {
            let predicted = predict::<N>(patterns, weights, s, &mut indices).0;
            f64::from((f32::from(s.value) - predicted).abs())
        })
        .sum();
    total / set.len().max(1) as f64
}

/// How the fit of one midgame phase went: its positions, the fit, and the mean error in discs
/// of the endgame's weights on the positions held out (what the phase scored before it had
/// weights of its own).
#[derive(Clone, Copy, Debug)]
pub struct PhaseFit {
    pub samples: usize,
    pub fit: Fit,
    pub endgame_held_out: f64,
}

/// The midgame phases' weights (in 1/[`SCALE`] disc, a phase after another from the latest, as
/// the midgame's weights file lays them out), each fitted by [`fit`] to the samples of its
/// phase, starting from the weights of the phase after it (for the first, the endgame's); and
/// how each fit went. `epoch` is told the phase (from 1) and each pass. `None` in a build
/// without the endgame's weights.
pub fn fit_midgame<const N: usize>(
    patterns: &Patterns,
    samples: &[Sample],
    epochs: u32,
    seed: u64,
    epoch: &dyn Fn(usize, u32),
) -> Option<(Vec<i16>, Vec<PhaseFit>)>
where
    Side<N>: Layout,
{
    let cells = (N * N) as u32;
    let endgame = patterns.endgame_weights()?;
    let endgame_in_discs: Vec<f32> = endgame.iter().map(|&w| f32::from(w) / SCALE).collect();
    let mut start = endgame;
    let mut weights = Vec::new();
    let mut fits = Vec::new();
    for phase in 1..patterns.phases() {
        let of_phase: Vec<Sample> = samples
            .iter()
            .filter(|s| patterns.phase(cells - (s.me | s.opp).count_ones()) == phase)
            .copied()
            .collect();
        let (fitted, fit) = fit_from::<N>(patterns, &of_phase, &start, epochs, seed, &|pass| {
            epoch(phase, pass);
        });
        fits.push(PhaseFit {
            samples: of_phase.len(),
            fit,
            endgame_held_out: mean_error::<N>(patterns, &endgame_in_discs, &held_out(&of_phase).1),
        });
        weights.extend_from_slice(&fitted);
        start = fitted;
    }
    Some((weights, fits))
}

/// A position of a game described by its features ([`super::features`]), labelled with the
/// final disc margin for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSample {
    features: Features,
    value: i32,
}

/// About `count` positions for fitting the size-generic evaluation, from `seed`, made on
/// `threads` threads (the positions do not depend on how many); `done` is told the number made
/// so far, now and then. The games are played on 6x6, 8x8 and 10x10 boards in turn, each with
/// up to a tenth of its cells as random pits: four random moves, then the training lookahead
/// with one move in four at random, until few cells are empty; that position is solved, and
/// every position of the game is labelled with the solved margin (for its own player to move),
/// the solved one too.
pub fn feature_samples(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<FeatureSample> {
    // The state is the chunk's count of games, which picks the board.
    chunked(
        seed,
        count,
        threads,
        done,
        || 0u64,
        |game, rng, samples| {
            match *game % 3 {
                0 => feature_game::<6>(rng, samples),
                1 => feature_game::<8>(rng, samples),
                _ => feature_game::<10>(rng, samples),
            }
            *game += 1;
        },
    )
}

/// One game of [`feature_samples`] on an `N` x `N` board, its positions added to `samples`.
fn feature_game<const N: usize>(rng: &mut Rng, samples: &mut Vec<FeatureSample>)
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    for _ in 0..rng.below(N * N / 10 + 1) {
        // A cell that cannot be a pit (the centre, a pit already) is skipped.
        let at = Coord::new(rng.below(N), rng.below(N), N).expect("a cell of the board");
        let _ = game.add_pit(at);
    }
    let start = game.position();
    let anchors = features::anchors::<Side<N>>(start.me | start.opp | start.empty);
    let solve_at = if N <= 6 { 14 } else { 12 };
    let mut seen: Vec<(Features, Player)> = Vec::new();
    let mut ply = 0;
    while game.position().empty.len() > solve_at {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                break;
            }
            continue;
        }
        let pos = game.position();
        seen.push((
            features::features(&pos, pos.moves(), pos.pass().moves(), anchors),
            game.to_move(),
        ));
        if !play_varied(&mut game, &moves, ply < 4, Strength::TRAINING, rng) {
            return;
        }
        ply += 1;
    }
    let pos = game.position();
    // A table of 16 MiB is plenty for 14 empty cells.
    let Some(solution) = solve_position(pos, Question::Value, 16, u64::MAX) else {
        return;
    };
    seen.push((
        features::features(&pos, pos.moves(), pos.pass().moves(), anchors),
        game.to_move(),
    ));
    samples.extend(seen.into_iter().map(|(features, player)| FeatureSample {
        features,
        value: if player == game.to_move() {
            solution.value
        } else {
            -solution.value
        },
    }));
}

/// Weights of the size-generic evaluation fitted to `samples` by least squares, phase by
/// phase (with a light ridge, so that a phase with few samples keeps small weights), and the
/// mean absolute error of the fit in discs.
#[must_use]
pub fn fit_features(samples: &[FeatureSample]) -> (Weights, f64) {
    const RIDGE: f64 = 1.0;
    let mut weights = [[0i16; FEATURES]; PHASES];
    for (phase, row) in weights.iter_mut().enumerate() {
        // The normal equations, A'A w = A'y, with the ridge on the diagonal.
        let mut a = [[0f64; FEATURES + 1]; FEATURES];
        for s in samples.iter().filter(|s| s.features.phase == phase) {
            let x = s.features.values.map(f64::from);
            for i in 0..FEATURES {
                for j in 0..FEATURES {
                    a[i][j] += x[i] * x[j];
                }
                a[i][FEATURES] += x[i] * f64::from(s.value);
            }
        }
        for (i, line) in a.iter_mut().enumerate() {
            line[i] += RIDGE;
        }
        let w = solve_linear(a);
        for (stored, w) in row.iter_mut().zip(w) {
            *stored = (w * f64::from(SCALE))
                .round()
                .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        }
    }
    let weights = Weights(weights);
    let error: f64 = samples
        .iter()
        .map(|s| {
            (f64::from(weights.value(&s.features)) / f64::from(SCALE) - f64::from(s.value)).abs()
        })
        .sum();
    (weights, error / samples.len().max(1) as f64)
}

/// The solution of the linear system of `FEATURES` equations whose augmented matrix is `a`
/// (positive definite, by the ridge), by Gaussian elimination with partial pivoting.
fn solve_linear(mut a: [[f64; FEATURES + 1]; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let lead = a[col][col];
        if lead == 0.0 {
            continue;
        }
        let pivot_row = a[col];
        for (row, line) in a.iter_mut().enumerate() {
            if row != col {
                let factor = line[col] / lead;
                for (x, p) in line[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= factor * p;
                }
            }
        }
    }
    std::array::from_fn(|i| {
        if a[i][i] == 0.0 {
            0.0
        } else {
            a[i][FEATURES] / a[i][i]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midgame_fit_scores_its_phases_better_than_the_endgame_weights() {
        // 6x6 games from seed 3: every position is of a midgame phase, labelled with a margin
        // a game can end with, and on the positions held out each phase's own weights err less
        // than the endgame's did.
        let patterns = learnable::<6>().expect("6x6 patterns");
        let made = midgame_samples::<6>(3, 6000, 2, &|_| {});
        assert!(made.len() >= 6000);
        for s in &made {
            let empties = 36 - (s.me | s.opp).count_ones();
            assert!(patterns.phase(empties) > 0, "{empties} empty cells");
            assert!(s.value.abs() <= 36);
        }
        let (weights, fits) = fit_midgame::<6>(patterns, &made, 4, 3, &|_, _| {}).unwrap();
        assert_eq!(
            weights.len(),
            patterns.weight_count() * (patterns.phases() - 1)
        );
        for (phase, fit) in fits.iter().enumerate() {
            assert!(
                fit.samples > 1000,
                "phase {}: {} positions",
                phase + 1,
                fit.samples
            );
            assert!(
                fit.fit.held_out < fit.endgame_held_out,
                "phase {}: {fit:?}",
                phase + 1
            );
        }
    }

    #[test]
    fn the_feature_fit_finds_the_weights_that_made_the_labels() {
        // Labels made from known weights (2 discs a move, 5 an anchor, in phase 1; 1 a disc in
        // phase 3) come back from the fit, to within the ridge's pull.
        let mut rng = Rng::new(4);
        let samples: Vec<FeatureSample> = (0..4000)
            .map(|i| {
                let phase = if i % 2 == 0 { 1 } else { 3 };
                let values = std::array::from_fn(|_| rng.below(21) as i32 - 10);
                let value = if phase == 1 {
                    2 * values[0] + 5 * values[2]
                } else {
                    values[4]
                };
                FeatureSample {
                    features: Features { phase, values },
                    value,
                }
            })
            .collect();
        let (weights, error) = fit_features(&samples);
        assert!(error < 0.05, "mean error {error}");
        let disc = SCALE as i16;
        assert_eq!(weights.0[1], [2 * disc, 0, 5 * disc, 0, 0, 0]);
        assert_eq!(weights.0[3], [0, 0, 0, 0, disc, 0]);
        // No samples of a phase: no weights.
        assert_eq!(weights.0[0], [0; FEATURES]);
    }
}
