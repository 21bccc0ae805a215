//! A submission's kinds of failure as the class table's rows keep them: each kind with its
//! board, its count and its shortest case, that case's scene (the boards before, expected and
//! actual), the text report's lines about it and its replay command. Kept in the rows (and
//! their JSON) so that the HTML page of a class, or of its merged shards, can show them.

use serde::{Deserialize, Serialize};

use super::{Reader, board_label, details, headline, kinds, replay, tokens};
use crate::judge::reading::diagnose::Scene;
use crate::judge::{Judged, Judging, Program};

/// One kind of failure of a submission at one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kind {
    /// The board, as `6x6` or `4x3`.
    pub board: String,
    /// The verdict and the rule broken (or the cosmetic kinds): "wrong answer: pass-missing".
    pub kind: String,
    /// Cases of this kind.
    pub count: usize,
    /// The shortest of them.
    pub case: String,
    /// Its input tokens.
    pub tokens: usize,
    /// Its verdict in full: "wrong answer (pass-missing) at line 217, column 1".
    pub headline: String,
    /// Its first game-level difference, where there is one.
    pub scene: Option<Scene>,
    /// The text report's lines about it.
    pub details: String,
    /// The command that replays it.
    pub replay: String,
}

/// The kinds of failure of `judged`, most frequent first, each with its shortest case.
pub fn shown_kinds(judging: &Judging, program: &Program, judged: &[Judged]) -> Vec<Kind> {
    kinds(judged)
        .into_iter()
        .map(|(kind, count, shortest)| Kind {
            board: board_label(judging.game),
            kind,
            count,
            case: shortest.case.name.clone(),
            tokens: tokens(shortest),
            headline: headline(shortest),
            scene: shortest.diagnosis.as_ref().and_then(|d| d.scene.clone()),
            details: details(judging, program, shortest, Reader::Grader),
            replay: replay(judging, program, shortest, Reader::Grader),
        })
        .collect()
}
