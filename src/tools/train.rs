//! `train`: fitting a learned Othello evaluation (8x8 or 6x6) at the console. It reports
//! progress on standard error when that is a terminal, writes the weights file and prints how
//! well the weights fit; the games, solves and fit are the engine's (`othello::train`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use crate::board::BoardSide;
use crate::driver::Console;
use crate::driver::Stop;
use crate::othello::{
    Labeller, Layout, SampleSet, Side, WithSide, feature_samples, fit, fit_features, fit_midgame,
    learnable, midgame_samples, samples, with_learnable_side,
};
use crate::progress::Progress;

/// What `train` is asked for.
#[derive(Clone, Debug)]
pub struct Training {
    /// The board side.
    pub side: BoardSide,
    /// The seed of the games and of the fit.
    pub seed: u64,
    /// About how many solved positions to fit.
    pub samples: usize,
    /// Passes of the fit.
    pub epochs: u32,
    /// Threads that solve positions.
    pub threads: usize,
    /// Where the weights go.
    pub output: PathBuf,
    /// A file of solved positions: read if it exists, else written once they are made.
    pub cache: Option<PathBuf>,
    /// Fit the size-generic evaluation rather than the patterns of `side`.
    pub features: bool,
    /// Fit the midgame phases of the patterns of `side` rather than the endgame's.
    pub midgame: bool,
    /// Label the midgame positions with a mean of their game's result and a search's margin
    /// on the shipped weights, weighted to give the search this many percent, rather than with
    /// the result alone.
    pub blend: Option<u8>,
}

/// The lines of `train`.
mod text {
    use crate::othello::{PhaseFit, Weights};

    /// What the bar says while positions are solved, then while the weights are fitted.
    pub const SOLVING: &str = "solving positions";
    pub const FITTING: &str = "fitting";

    pub fn fitting_phase(phase: usize) -> String {
        format!("fitting phase {phase}")
    }

    pub fn feature_report(
        samples: usize,
        seconds: f64,
        error: f64,
        weights: &Weights,
        bytes: usize,
    ) -> String {
        // A row a phase, in discs a unit of each feature.
        let rows: String = weights
            .in_discs()
            .iter()
            .enumerate()
            .map(|(phase, row)| {
                let row: Vec<String> = row.iter().map(|w| format!("{w:+.2}")).collect();
                format!("phase {phase}: {}\n", row.join(" "))
            })
            .collect();
        format!(
            "positions: {samples} (played and solved in {seconds:.0} s)\n\
             mean error: {error:.2} discs\n\
             weights (moves, frontier, anchors, beside anchors, discs, parity):\n\
             {rows}\
             weights: {bytes} bytes\n"
        )
    }

    pub fn midgame_report(samples: usize, seconds: f64, fits: &[PhaseFit], bytes: usize) -> String {
        let rows: String = fits
            .iter()
            .enumerate()
            .map(|(phase, fit)| {
                format!(
                    "phase {}: {} positions, mean error {:.2} discs fitted, {:.2} held out \
                     (the endgame's weights: {:.2})\n",
                    phase + 1,
                    fit.samples,
                    fit.fit.fitted,
                    fit.fit.held_out,
                    fit.endgame_held_out
                )
            })
            .collect();
        format!(
            "positions: {samples} (played and solved in {seconds:.0} s)\n\
             {rows}\
             weights: {bytes} bytes\n"
        )
    }

    pub fn report(
        samples: usize,
        seconds: f64,
        fitted: f64,
        held_out: f64,
        bytes: usize,
    ) -> String {
        format!(
            "positions: {samples} (solved in {seconds:.0} s)\n\
             mean error: {fitted:.2} discs on the fitted positions, {held_out:.2} on those held out\n\
             weights: {bytes} bytes\n"
        )
    }
}

/// Runs `training` and reports on `console`.
pub(super) fn train<R, W: Write>(
    console: &mut Console<R, W>,
    training: Training,
) -> Result<(), Stop> {
    if training.features {
        return train_features(console, &training);
    }
    let side = training.side.get();
    with_learnable_side(training.side, Train { console, training })
        .unwrap_or(Err(Stop::Unlearnable(side)))
}

/// The bar of `train`'s work on standard error (when it is a terminal): first the `wanted`
/// positions solved, then the passes of the fit.
fn bar(wanted: usize) -> Progress {
    let bar = Progress::new(wanted, "");
    bar.say(text::SOLVING.to_string());
    bar
}

/// [`train`] for the size-generic evaluation.
fn train_features<R, W: Write>(
    console: &mut Console<R, W>,
    training: &Training,
) -> Result<(), Stop> {
    let clock = Instant::now();
    let progress = bar(training.samples);
    let made = feature_samples(training.seed, training.samples, training.threads, &|made| {
        progress.reach(made)
    });
    let solved_in = clock.elapsed().as_secs_f64();
    progress.say(text::FITTING.to_string());
    let (weights, error) = fit_features(&made);
    progress.finish();
    let bytes = weights.to_bytes();
    std::fs::write(&training.output, &bytes)
        .map_err(|err| Stop::File(training.output.clone(), err))?;
    console.say(text::feature_report(
        made.len(),
        solved_in,
        error,
        &weights,
        bytes.len(),
    ))
}

/// [`train`] on a board of a size known at compile time.
struct Train<'a, R, W: Write> {
    console: &'a mut Console<R, W>,
    training: Training,
}

impl<R, W: Write> WithSide for Train<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let Train { console, training } = self;
        let patterns = learnable::<N>().ok_or(Stop::Unlearnable(N))?;
        let clock = Instant::now();
        let set = SampleSet {
            side: N,
            midgame: training.midgame,
            labeller: training.blend.map(|share| Labeller {
                weights: patterns.weights_fnv1a(),
                share,
            }),
            seed: training.seed,
            samples: training.samples,
        };
        let cached = match &training.cache {
            Some(path) if path.exists() => {
                let bytes = std::fs::read(path).map_err(|err| Stop::File(path.clone(), err))?;
                let made = set
                    .samples_in(&bytes)
                    .map_err(|unfit| Stop::Cache(path.clone(), Box::new(set), unfit))?;
                Some(made)
            }
            _ => None,
        };
        let made = match cached {
            Some(made) => made,
            None => {
                let bar = bar(training.samples);
                let progress = |made| bar.reach(made);
                let (seed, count, threads) = (training.seed, training.samples, training.threads);
                let made = if training.midgame {
                    midgame_samples::<N>(seed, count, threads, training.blend, &progress)
                } else {
                    samples::<N>(seed, count, threads, &progress)
                };
                if let Some(path) = &training.cache {
                    std::fs::write(path, set.to_file(&made))
                        .map_err(|err| Stop::File(path.clone(), err))?;
                }
                made
            }
        };
        let solved_in = clock.elapsed().as_secs_f64();
        let write = |weights: &[i16]| -> Result<usize, Stop> {
            let bytes: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(&training.output, &bytes)
                .map_err(|err| Stop::File(training.output.clone(), err))?;
            Ok(bytes.len())
        };
        let epochs = usize::try_from(training.epochs).unwrap_or(usize::MAX);
        let progress = Progress::new(epochs, "passes");
        progress.say(text::FITTING.to_string());
        let pass = |epoch: u32| progress.reach(usize::try_from(epoch).unwrap_or(usize::MAX));
        if training.midgame {
            let (weights, fits) = fit_midgame::<N>(
                patterns,
                &made,
                training.epochs,
                training.seed,
                &|phase, epoch| {
                    progress.say(text::fitting_phase(phase));
                    pass(epoch);
                },
            )
            .ok_or(Stop::Unlearnable(N))?;
            progress.finish();
            let bytes = write(&weights)?;
            return console.say(text::midgame_report(made.len(), solved_in, &fits, bytes));
        }
        let (weights, quality) = fit::<N>(patterns, &made, training.epochs, training.seed, &pass);
        progress.finish();
        let bytes = write(&weights)?;
        console.say(text::report(
            made.len(),
            solved_in,
            quality.fitted,
            quality.held_out,
            bytes,
        ))
    }
}
