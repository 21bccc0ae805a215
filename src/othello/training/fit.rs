//! Fitting the learned evaluations' weights to labelled positions: the pattern weights of a
//! board by stochastic gradient descent on the squared error (the endgame's, then each midgame
//! phase from the one after it), and the size-generic features' weights by least squares. Pure
//! computation, the same weights from the same samples and seed; progress goes to a callback.

use super::samples::{FeatureSample, Sample, mobility};
use crate::othello::engine::{Layout, Side};
use crate::othello::evaluation::features::{FEATURES, PHASES, Weights};
use crate::othello::evaluation::pattern::{self, Patterns, SCALE};
use crate::rng::Rng;

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
    use super::super::samples::midgame_samples;
    use super::*;
    use crate::othello::evaluation::features::Features;

    #[test]
    #[ignore = "slow (about 11 s): CI runs it with --ignored"]
    fn the_midgame_fit_scores_its_phases_better_than_the_endgame_weights() {
        // 6x6 games from seed 3: every position is of a midgame phase, labelled with a margin
        // a game can end with, and on the positions held out each phase's own weights err less
        // than the endgame's did.
        let patterns = learnable::<6>().expect("6x6 patterns");
        let made = midgame_samples::<6>(3, 6000, 2, None, &|_| {});
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
