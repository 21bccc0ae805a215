//! What a position is worth without searching it: the learned pattern evaluation of 8x8 and
//! 6x6 boards (its patterns and weights in `pattern.rs`, scored through the folded tables of
//! `folded.rs`) and the size-generic feature evaluation that knows pits
//! (`features.rs`), with their weights as data in `weights/`. Pure functions of an engine
//! position; it uses only `engine` below it. The weights are fitted by `training`, above the
//! search; the search chooses which weights it scores with.

pub mod features;
mod folded;
pub mod pattern;

pub use features::Weights;
pub use pattern::{Learned, Shared, learned, learned_child, learned_siblings};
