//! Reading transcripts, as pure functions with no I/O and no processes: whether two are the
//! same bytes and where they first differ (`compare.rs`); a transcript read as the game it
//! shows (`driver/events.rs`, which the review reads records with too); the two read side by side, the difference named by the rule it breaks
//! or the cosmetic kinds it shows (`diagnose/`); those rules' ids (`rule.rs`); a crash that a
//! sanitizer or the C library reported on standard error (`crash.rs`), and what the system
//! refused the program (`refused.rs`). It uses the
//! games' own types and the console's transcript, nothing of the judge above it.

pub mod compare;
pub mod crash;
pub mod diagnose;
pub mod refused;
pub mod rule;

pub use crate::driver::events::Game;
// The console's transcripts as games, read where the review reads them too.
pub(in crate::judge) use crate::driver::events;
