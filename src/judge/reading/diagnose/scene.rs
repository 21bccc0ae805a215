//! The first game-level difference as data for a page to draw (`--format html`): the board
//! before it, the expected and the actual board (or line), and the token played. The text report
//! draws the same difference as lines (`rules.rs`'s `detail`); drawing is the reports' concern.
//! Serializable, so that a class's JSON report carries it and a merge can draw it again.

use serde::{Deserialize, Serialize};

use super::super::compare::{token_before, visible};
use super::super::events::{Event, Item};
use super::rules::Context;
use super::shown;

/// What a transcript shows at one point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shows", rename_all = "lowercase")]
pub enum Picture {
    /// An Othello board: `side` columns, its cells row by row (`.`, `X`, `O`, `#`).
    Grid {
        /// Columns.
        side: usize,
        /// Cells, upper case.
        cells: String,
    },
    /// A Kalah board: the top row and the bottom row left to right, Player 2's store and
    /// Player 1's.
    Kalah {
        /// The top row.
        top: Vec<u32>,
        /// The bottom row.
        bottom: Vec<u32>,
        /// Player 2's store, then Player 1's.
        stores: [u32; 2],
    },
    /// A line that is no board.
    Line {
        /// The line, as the text report shows it.
        text: String,
    },
    /// Nothing: the output ends there.
    Nothing,
}

/// The first game-level difference of a case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scene {
    /// The token read last before it, if any (`f4`).
    pub token: Option<String>,
    /// Where it is, in words: "after token 32 (`f4`), the 26th move".
    pub after: String,
    /// The last board both transcripts showed before it.
    pub before: Option<Picture>,
    /// What the reference shows there.
    pub expected: Picture,
    /// What the program shows there.
    pub actual: Picture,
}

impl Context<'_> {
    /// The difference as a scene.
    pub fn scene(&self) -> Scene {
        Scene {
            token: self.token().map(visible),
            after: token_before(&self.expected.reads, self.offset()),
            before: self
                .before
                .iter()
                .rev()
                .find(|item| matches!(item.event, Event::Grid { .. } | Event::Kalah { .. }))
                .map(|item| picture(Some(item))),
            expected: picture(self.want),
            actual: picture(self.got),
        }
    }
}

/// What `item` shows.
fn picture(item: Option<&Item>) -> Picture {
    let Some(item) = item else {
        return Picture::Nothing;
    };
    match &item.event {
        Event::Grid { side, cells } => Picture::Grid {
            side: *side,
            cells: String::from_utf8_lossy(cells).into_owned(),
        },
        Event::Kalah {
            top,
            bottom,
            stores,
        } => Picture::Kalah {
            top: top.clone(),
            bottom: bottom.clone(),
            stores: *stores,
        },
        _ => Picture::Line { text: shown(item) },
    }
}
