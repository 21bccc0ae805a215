//! The bit-set engine: sets of cells (`bits.rs`), the rules on them for any board side
//! (`layout.rs`: directions, moves, flips, the engine's `Position`), the bit set and fast paths
//! each side takes (`sides.rs`, with the one-word paths of `narrow.rs` and `avx2.rs` and the
//! AVX2 window of `window.rs`), and perft with its bounded table of counts. It knows nothing
//! of turns, passes, text, evaluation or search, and uses nothing of the crate but `board`'s
//! `Coord`; everything else in `othello/` is built on it.

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod bits;
pub mod count_table;
pub mod layout;
mod narrow;
pub mod perft;
// Data for the tests here and for the benchmark, which includes the file by path.
#[cfg(test)]
mod perft_counts;
pub mod sides;
#[cfg(target_arch = "x86_64")]
mod window;

pub use bits::Bits;
pub use count_table::{CountTable, mix_discs};
pub use layout::{Direction, Layout, Position, Side, neighbours, step};
pub use perft::{Counting, perft};
pub use sides::Fast;
