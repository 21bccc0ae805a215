//! Making the evaluations' weights again (`boardgames train`): labelled positions from games
//! and exact solves (`samples.rs`), kept in files that say what they were made for
//! (`cache.rs`), and the weights fitted to them (`fit.rs`). A tool over the
//! rest of `othello/`: it plays with the computer's search and labels with the solver, so it
//! sits above both; nothing in the engine, the rules, the evaluation or the search uses it.

mod cache;
mod fit;
mod samples;

pub use cache::{Labeller, SampleSet, Unfit, VERSION as CACHE_VERSION};
pub use fit::{PhaseFit, fit, fit_features, fit_midgame, learnable};
pub use samples::{feature_samples, midgame_samples, samples};
