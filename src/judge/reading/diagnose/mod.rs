//! The second layer of a case: when the bytes differ, both transcripts are read as games
//! (`events.rs`) and walked side by side. Events that match but are shown otherwise are
//! cosmetic differences, listed once per kind; the first event that does not match is the
//! game-level difference, named by the rule the actual transcript breaks, found by checking its
//! board against the one before and the move played. A run cut short (time, output, crash) is
//! read up to where it stopped, and an output that repeats itself is named as a loop. Pure
//! functions, no I/O.

mod rules;
mod scene;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use super::Game;
use super::compare::{kind, lf_line_ends, token_before, visible};
use super::events::{Event, Item, Piece, events};
use super::rule::Rule;
use crate::driver::Transcript;
use rules::Context;
pub use scene::{Picture, Scene};

/// What the second layer found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// The rule behind the first game-level difference, if there is one.
    pub rule: Option<Rule>,
    /// The cosmetic differences before it, once per kind: the rule, the kind's key (numbers
    /// abstracted) and a description of its first instance.
    pub cosmetics: Vec<Cosmetic>,
    /// Lines that show the first game-level difference to a person.
    pub detail: Vec<String>,
    /// The output's repeating tail, if it loops.
    pub looped: Option<String>,
    /// The first game-level difference, for a page to draw.
    pub scene: Option<Scene>,
}

/// One cosmetic kind of difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cosmetic {
    /// `whitespace`, `crlf-line-endings`, `final-newline`, `letter-case` or `prompt-wording`.
    pub rule: Rule,
    /// Its description with numbers and cells abstracted: what groups cases.
    pub key: String,
    /// Its first instance, in plain words.
    pub description: String,
}

impl Diagnosis {
    /// The words a kind of failure is known by: the rule id, or the cosmetic kinds.
    #[must_use]
    pub fn kind(&self) -> String {
        if let Some(rule) = self.rule {
            return rule.id().to_string();
        }
        let mut keys: Vec<&str> = self.cosmetics.iter().map(|c| c.key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.join("; ")
    }
}

/// Reads `actual` against the `expected` transcript; `cut` says the run was stopped before it
/// ended (time, output, a crash), so that its end is not a difference of its own.
#[must_use]
pub fn diagnose(game: Game, expected: &Transcript, actual: &[u8], cut: bool) -> Diagnosis {
    // Twice the expected transcript holds the first difference of any output that plays the
    // game; past that an output is read for its loop only.
    let head = &actual[..actual.len().min(2 * expected.output.len() + HEAD)];
    let full = actual;
    let mut cosmetics = Cosmetics::default();
    // The reference's own bytes but for `\r\n` line ends: that one kind, never a rule.
    if !cut && *lf_line_ends(actual) == *expected.output {
        cosmetics.add_crlf();
        return Diagnosis {
            cosmetics: cosmetics.0.into_values().collect(),
            ..Diagnosis::default()
        };
    }
    // Nothing of the game at all is its own kind, never a rule of the game.
    if full.iter().all(u8::is_ascii_whitespace) && !expected.output.is_empty() {
        return Diagnosis {
            rule: Some(Rule::NoOutput),
            detail: vec![format!(
                "rule {}: {}",
                Rule::NoOutput.id(),
                Rule::NoOutput.meaning()
            )],
            ..Diagnosis::default()
        };
    }
    let (actual, cut) = (head, cut || head.len() < full.len());
    let want: Vec<Item> = events(game, &expected.output);
    let got: Vec<Item> = events(game, actual);
    let blanks = |items: &[Item]| items.iter().filter(|i| i.event == Event::Blank).count();
    if blanks(&got) != blanks(&want) {
        cosmetics.add(Rule::Whitespace, "blank lines".into(), "blank lines".into());
    }
    let want: Vec<&Item> = want.iter().filter(|i| i.event != Event::Blank).collect();
    let got: Vec<&Item> = got.iter().filter(|i| i.event != Event::Blank).collect();
    let mut diagnosis = Diagnosis::default();
    let mut at = 0;
    while at < want.len().max(got.len()) {
        match (want.get(at), got.get(at)) {
            (Some(w), Some(g)) if w.event == g.event => {
                let last = at + 1 == want.len() && at + 1 == got.len();
                compare_pieces(w, g, last, &mut cosmetics);
            }
            (_, None) if cut => break,
            (w, g) => {
                let context = Context {
                    game,
                    expected,
                    before: &want[..at],
                    want: w.copied(),
                    got: g.copied(),
                    ahead: &want[at.min(want.len())..],
                    after: &got[at..],
                };
                let rule = context.rule();
                diagnosis.detail = context.detail(rule);
                diagnosis.scene = Some(context.scene());
                diagnosis.rule = Some(rule);
                break;
            }
        }
        at += 1;
    }
    if cut {
        diagnosis.looped = looping(game, full).map(|(unit, times, offset)| {
            // The event due where the loop began: the first the program never reached.
            let reached = got.iter().take_while(|i| i.offset() < offset).count();
            match want.get(reached) {
                Some(item) if reached <= at => format!(
                    "after `{}` was due, the program printed `{unit}` {times} times",
                    shown(item)
                ),
                _ => format!("then the program printed `{unit}` {times} times"),
            }
        });
        if diagnosis.rule.is_none() {
            let offset = want.get(at).map_or(expected.output.len(), |i| i.offset());
            diagnosis.detail.push(format!(
                "the output stops {}",
                token_before(&expected.reads, offset)
            ));
        }
    }
    diagnosis.cosmetics = cosmetics.0.into_values().collect();
    diagnosis
}

/// Cosmetic differences by key, the first instance of each.
#[derive(Default)]
struct Cosmetics(BTreeMap<String, Cosmetic>);

impl Cosmetics {
    fn add(&mut self, rule: Rule, key: String, description: String) {
        self.0.entry(key.clone()).or_insert(Cosmetic {
            rule,
            key,
            description,
        });
    }

    /// Lines ended by `\r\n` where the reference ends them by `\n`.
    fn add_crlf(&mut self) {
        let text = "CRLF line endings".to_string();
        self.add(Rule::CrlfLineEndings, text.clone(), text);
    }
}

/// What a piece of an event is, for a person.
fn name(event: &Event, index: usize) -> &'static str {
    match event {
        Event::Grid { .. } if index == 0 => "the column header",
        Event::Grid { .. } => "a board row",
        Event::Kalah { .. } => "the board",
        Event::PitCountPrompt => "the pit-count prompt",
        Event::PitPrompt(_) => "the pit prompt",
        Event::Turn(_) => "the turn prompt",
        Event::Round(_) => "the round line",
        Event::Pass(_) => "the pass line",
        Event::GameOver => "the game-over line",
        Event::Wins(_) | Event::Draw => "the result line",
        Event::Score(..) => "the score line",
        _ => "a message",
    }
}

/// The cosmetic differences between the pieces of two equal events.
fn compare_pieces(want: &Item, got: &Item, last: bool, found: &mut Cosmetics) {
    let prompt = matches!(
        want.event,
        Event::PitCountPrompt | Event::PitPrompt(_) | Event::Turn(_)
    );
    let pairs: Vec<(&Piece, &Piece)> = if want.pieces.len() == got.pieces.len() {
        want.pieces.iter().zip(&got.pieces).collect()
    } else {
        found.add(
            Rule::Whitespace,
            "lines of the board".into(),
            format!("{} drawn on other lines", name(&want.event, 0)),
        );
        Vec::new()
    };
    let count = pairs.len();
    for (index, (w, g)) in pairs.into_iter().enumerate() {
        let what = name(&want.event, index);
        if g.crlf && !w.crlf {
            found.add_crlf();
        }
        if w.newline && !g.newline {
            if last && index + 1 == count {
                let text = "no line break at the end".to_string();
                found.add(Rule::FinalNewline, text.clone(), text);
            } else {
                let text = format!("no line break after {what}");
                found.add(Rule::Whitespace, text.clone(), text);
            }
        } else if g.newline && !w.newline {
            let text = format!("a line break after {what}");
            found.add(Rule::Whitespace, text.clone(), text);
        }
        if w.text == g.text {
            continue;
        }
        let squeeze = |t: &[u8]| -> Vec<u8> {
            t.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect()
        };
        let (ws, gs) = (squeeze(w.text), squeeze(g.text));
        if ws == gs {
            let trimmed = |t: &'_ [u8]| t.trim_ascii_end().len();
            let text = if w.text.trim_ascii_end() == g.text.trim_ascii_end() {
                if trimmed(g.text) < g.text.len() && g.text.len() > w.text.len() {
                    format!("trailing space after {what}")
                } else {
                    format!("no trailing space after {what}")
                }
            } else if w.text.trim_ascii_start() == g.text.trim_ascii_start() {
                format!("leading spaces before {what}")
            } else {
                format!("spacing inside {what}")
            };
            found.add(Rule::Whitespace, text.clone(), text);
        } else if ws.eq_ignore_ascii_case(&gs) {
            found.add(
                Rule::LetterCase,
                format!("letter case in {what}"),
                format!(
                    "letter case in {what}: `{}` for `{}`",
                    visible(g.text.trim_ascii()),
                    visible(w.text.trim_ascii())
                ),
            );
        } else {
            let sort = if prompt { "prompt" } else { "message" };
            let description = format!(
                "{sort} wording: `{}` for `{}`",
                visible(g.text.trim_ascii()),
                visible(w.text.trim_ascii())
            );
            found.add(
                Rule::PromptWording,
                kind(Some(description.as_bytes())),
                description,
            );
        }
    }
}

/// An item as a person reads it: its first piece, or a board's name.
pub(super) fn shown(item: &Item) -> String {
    match item.event {
        Event::Grid { .. } | Event::Kalah { .. } => "the board".to_string(),
        _ => visible(item.pieces[0].text.trim_ascii_end()),
    }
}

/// Bytes of actual output read as a game beyond twice the expected transcript.
const HEAD: usize = 64 << 10;

/// The repeating tail of an output: the unit, how many times, and where the repeats begin.
/// The unit is found in the last [`HEAD`] bytes; its repeats are counted through the whole
/// output as bytes.
fn looping(game: Game, actual: &[u8]) -> Option<(String, usize, usize)> {
    let base = actual.len().saturating_sub(HEAD);
    let tail = &actual[base..];
    let mut pieces = super::events::pieces(game, tail);
    // The tail starts, and an output cut at a limit ends, in the middle of a piece.
    if base > 0 && !pieces.is_empty() {
        pieces.remove(0);
    }
    if pieces.last().is_some_and(|p| !p.newline) {
        pieces.pop();
    }
    let texts: Vec<&[u8]> = pieces.iter().map(|p| p.text.trim_ascii()).collect();
    let mut best: Option<(usize, usize)> = None;
    for period in 1..=8.min(texts.len()) {
        let end = texts.len();
        let mut times = 1;
        while end >= (times + 1) * period
            && texts[end - (times + 1) * period..end - times * period] == texts[end - period..end]
        {
            times += 1;
        }
        let better = best.is_none_or(|(p, t)| times * period > t * p);
        if times >= 10 && better {
            best = Some((period, times));
        }
    }
    let (period, times) = best?;
    // The loop's first unit: as early as the pieces before it still repeat.
    let mut first = texts.len() - period * times;
    while first > 0 && texts[first - 1] == texts[first - 1 + period] {
        first -= 1;
    }
    let unit_pieces = &pieces[first..first + period];
    // The unit as bytes, and its copies counted through the whole output.
    let start = base + unit_pieces[0].offset;
    let unit = &actual[start..base + pieces[first + period].offset];
    let (mut begin, mut end) = (start, start);
    while begin >= unit.len() && &actual[begin - unit.len()..begin] == unit {
        begin -= unit.len();
    }
    while actual.len() - end >= unit.len() && &actual[end..end + unit.len()] == unit {
        end += unit.len();
    }
    let times = (end - begin) / unit.len().max(1);
    // Where the tail began mid-loop, the loop may begin with a later piece of the unit: turn
    // the unit so that it starts where the loop did.
    let mut turn = 0;
    for (k, piece) in unit_pieces.iter().enumerate().skip(1) {
        let suffix = &unit[piece.offset - unit_pieces[0].offset..];
        if begin >= suffix.len() && &actual[begin - suffix.len()..begin] == suffix {
            turn = k;
            begin -= suffix.len();
            break;
        }
    }
    let unit_text: Vec<String> = (turn..period)
        .chain(0..turn)
        .map(|i| visible(texts[first + i]))
        .collect();
    Some((unit_text.join(" "), times, begin))
}
