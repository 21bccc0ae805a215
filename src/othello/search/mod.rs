//! The computer's thinking: the budgeted midgame search (`midgame.rs`) with its table
//! (`midgame_table.rs`) and its selective cut (`probcut.rs`), the exact solver with its bounded
//! table and the stable-disc bound it cuts with (`solve.rs`, `solve_table.rs`, `stable.rs`), and
//! the computer player that picks between them by level (`computer.rs`). It uses `engine`,
//! `rules` and `evaluation` below it; only `training` and the crate above it use it.

pub mod appraise;
pub mod computer;
pub mod midgame;
mod midgame_table;
mod probcut;
pub mod solve;
mod solve_table;
mod stable;

pub use appraise::{Appraisal, move_values};
pub use computer::{Memory, computer_move, greedy_move};
pub use solve::{Analysis, Asked, Scoring, Solver};
