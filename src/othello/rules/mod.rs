//! The game and its text: [`Othello`] with pits (setup, legal moves, playing, passing, the end
//! and its result), checked and played through the bit-set engine, and the board printout of
//! the course's `print_board`. It uses only `engine` below it; the search and the tools above
//! play through it.

mod display;
pub mod game;

pub use game::{Cell, MoveError, Othello, PitError};
