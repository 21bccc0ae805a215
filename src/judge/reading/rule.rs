//! The rules a judged program can break, each with a fixed id that every report uses (text,
//! JSON, JUnit, Gradescope, the class table), and the cosmetic kinds of difference that make a
//! presentation error rather than a wrong answer. Names only: deciding which rule a
//! transcript breaks is `diagnose/`'s work.

use std::fmt;

/// A rule of the game (or of the console contract) that a transcript breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    // Othello.
    /// A pit count or a pit cell wrongly accepted or refused.
    PitSetup,
    /// A move that flips nothing, or lands off the board or on a taken cell, was played.
    IllegalMoveAccepted,
    /// A legal move was refused.
    LegalMoveRefused,
    /// Discs flipped along a line that runs off one edge and on at the other.
    FlipWrapsEdge,
    /// A bracketed disc was left unflipped.
    FlipMissing,
    /// A disc that no line brackets was flipped.
    FlipExtra,
    /// A player with no legal move was asked to move.
    PassMissing,
    /// A player who had a legal move passed.
    PassWrong,
    /// The game went on with a full board.
    FullBoardContinues,
    /// The game went on after two passes in a row.
    PassesContinue,
    /// The game ended while a move was still possible.
    GameEndsEarly,
    /// The round number is off.
    RoundWrong,
    /// The wrong player was asked to move.
    TurnWrong,
    // Kalah.
    /// A pit that may be sown was refused.
    PitRefused,
    /// An empty pit or a number out of range was sown.
    PitAccepted,
    /// Stones sown into the wrong holes (or the opponent's store).
    SowWrong,
    /// A capture made, missed or counted wrong.
    CaptureWrong,
    /// An extra move given or withheld.
    ExtraTurnWrong,
    /// The stones left in the rows at the end not moved to their owners' stores.
    SweepWrong,
    /// Undo restored the wrong position or player, or refused wrongly.
    UndoWrong,
    // Both.
    /// The winner or draw message wrong, missing or more than one.
    WrongResult,
    /// Any other difference in a board.
    BoardWrong,
    /// A line of the transcript that none of the above explains.
    OutputWrong,
    /// Nothing of the game at all: the program wrote nothing on standard output.
    NoOutput,
    // Cosmetic: presentation errors.
    /// Spaces, tabs, blank lines or line breaks.
    Whitespace,
    /// Lines ended by `\r\n` (as a Visual C++ program writes them) where the reference has `\n`.
    CrlfLineEndings,
    /// No line break after the last line.
    FinalNewline,
    /// Upper case for lower case or the reverse.
    LetterCase,
    /// A prompt or message worded otherwise.
    PromptWording,
}

impl Rule {
    /// Every rule, in report order.
    pub const ALL: [Rule; 29] = [
        Rule::PitSetup,
        Rule::IllegalMoveAccepted,
        Rule::LegalMoveRefused,
        Rule::FlipWrapsEdge,
        Rule::FlipMissing,
        Rule::FlipExtra,
        Rule::PassMissing,
        Rule::PassWrong,
        Rule::FullBoardContinues,
        Rule::PassesContinue,
        Rule::GameEndsEarly,
        Rule::RoundWrong,
        Rule::TurnWrong,
        Rule::PitRefused,
        Rule::PitAccepted,
        Rule::SowWrong,
        Rule::CaptureWrong,
        Rule::ExtraTurnWrong,
        Rule::SweepWrong,
        Rule::UndoWrong,
        Rule::WrongResult,
        Rule::BoardWrong,
        Rule::OutputWrong,
        Rule::NoOutput,
        Rule::Whitespace,
        Rule::CrlfLineEndings,
        Rule::FinalNewline,
        Rule::LetterCase,
        Rule::PromptWording,
    ];

    /// The fixed id reports use.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Rule::PitSetup => "pit-setup",
            Rule::IllegalMoveAccepted => "illegal-move-accepted",
            Rule::LegalMoveRefused => "legal-move-refused",
            Rule::FlipWrapsEdge => "flip-wraps-edge",
            Rule::FlipMissing => "flip-missing",
            Rule::FlipExtra => "flip-extra",
            Rule::PassMissing => "pass-missing",
            Rule::PassWrong => "pass-wrong",
            Rule::FullBoardContinues => "full-board-continues",
            Rule::PassesContinue => "passes-continue",
            Rule::GameEndsEarly => "game-ends-early",
            Rule::RoundWrong => "round-wrong",
            Rule::TurnWrong => "turn-wrong",
            Rule::PitRefused => "pit-refused",
            Rule::PitAccepted => "pit-accepted",
            Rule::SowWrong => "sow-wrong",
            Rule::CaptureWrong => "capture-wrong",
            Rule::ExtraTurnWrong => "extra-turn-wrong",
            Rule::SweepWrong => "sweep-wrong",
            Rule::UndoWrong => "undo-wrong",
            Rule::WrongResult => "wrong-result",
            Rule::BoardWrong => "board-wrong",
            Rule::OutputWrong => "output-wrong",
            Rule::NoOutput => "no-output",
            Rule::Whitespace => "whitespace",
            Rule::CrlfLineEndings => "crlf-line-endings",
            Rule::FinalNewline => "final-newline",
            Rule::LetterCase => "letter-case",
            Rule::PromptWording => "prompt-wording",
        }
    }

    /// What breaking it means, in plain words.
    #[must_use]
    pub fn meaning(self) -> &'static str {
        match self {
            Rule::PitSetup => "a pit count or a pit cell wrongly accepted or refused",
            Rule::IllegalMoveAccepted => "an illegal move was played instead of refused",
            Rule::LegalMoveRefused => "a legal move was refused",
            Rule::FlipWrapsEdge => {
                "discs flipped along a line that runs off one edge of the board and on at the other"
            }
            Rule::FlipMissing => "a disc bracketed by the move was not flipped",
            Rule::FlipExtra => "a disc that the move does not bracket was flipped",
            Rule::PassMissing => "a player with no legal move was asked to move instead of passing",
            Rule::PassWrong => "a player who had a legal move passed",
            Rule::FullBoardContinues => "the game went on with a full board",
            Rule::PassesContinue => "the game went on after two passes in a row",
            Rule::GameEndsEarly => "the game ended while it was not over",
            Rule::RoundWrong => "the round number is off",
            Rule::TurnWrong => "the wrong player was asked to move",
            Rule::PitRefused => "a pit that may be sown was refused",
            Rule::PitAccepted => "an empty pit or a number out of range was accepted",
            Rule::SowWrong => "stones were sown into the wrong holes",
            Rule::CaptureWrong => "a capture was made, missed or counted wrong",
            Rule::ExtraTurnWrong => "an extra move was given or withheld",
            Rule::SweepWrong => {
                "the game did not end when a row emptied, or the stones left did not go to their \
                 owners' stores"
            }
            Rule::UndoWrong => "undo restored the wrong position or player, or refused wrongly",
            Rule::WrongResult => "the result (winner or draw) is wrong, missing or repeated",
            Rule::BoardWrong => "a board differs in a way no other rule explains",
            Rule::OutputWrong => "a line differs that no rule of the game explains",
            Rule::NoOutput => {
                "the program wrote nothing on standard output (its standard error may say why)"
            }
            Rule::Whitespace => "spaces, blank lines or line breaks differ",
            Rule::CrlfLineEndings => {
                "lines end in CRLF, as Visual C++ programs write them, where the reference's end in LF"
            }
            Rule::FinalNewline => "the last line has no line break",
            Rule::LetterCase => "upper and lower case differ",
            Rule::PromptWording => "a prompt or message is worded differently",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_its_own_id_and_a_meaning() {
        let mut ids: Vec<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Rule::ALL.len());
        // The graders' guide lists every rule with its meaning.
        let readme = include_str!("../../../docs/grading.md");
        for rule in Rule::ALL {
            let row = format!("| `{}` | {} |", rule.id(), rule.meaning());
            assert!(readme.contains(&row), "docs/grading.md lacks {row}");
            assert!(
                rule.id()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-')
            );
        }
    }
}
