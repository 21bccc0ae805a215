//! `review mancala`: a played Kalah game read back with the engine's eye. The record (a
//! `--echo` transcript, or the pit numbers typed) is replayed through the rules, undos
//! included; then each sowing is valued against the best one (exact where the solver reaches,
//! the lookahead's estimate before) and the report says each player's losses, their worst
//! sowings and where the game turned, as a table, as JSON or as a page.

use std::fmt::Write as _;
use std::io::Write;

use super::page::{STYLE, chart, escape};
use super::{
    Format, Reviewing, Valued, losses_of, read_record, shown, text as table_text, turning_point,
};
use crate::board::{Outcome, Player, Value};
use crate::driver::record::{self, BadRecord, Entry, Kind, Sow};
use crate::driver::{Console, KalahBoard, Stop};
use crate::mancala::{Appraisal, Mancala, WithPits, appraise_line, with_pits};
use crate::progress::Progress;

/// Every line of the Kalah review that the Othello one does not share.
mod text {
    use crate::mancala::Capture;

    pub fn title(pits: usize, stones: u8, capture: Capture, exact_from: u32, level: u32) -> String {
        let rule = match capture {
            Capture::Standard => "",
            Capture::Empty => ", empty capture",
        };
        let total = 2 * pits as u32 * u32::from(stones);
        let values = if exact_from >= total {
            "Values exact throughout.".to_string()
        } else {
            format!(
                "Values exact from {exact_from} stones in the pits; before that, level {level}'s \
                 estimates (~)."
            )
        };
        format!("Review of a Kalah ({pits},{stones}{rule}) game.\n{values}\n")
    }

    pub fn player(number: usize) -> String {
        format!("Player {number}")
    }

    pub fn losses(number: usize, total: i32, worst: &str) -> String {
        format!("Player {number} lost {total} stones in all{worst}\n")
    }

    pub fn worst(number: usize, pit: usize, loss: i32) -> String {
        format!("move {number} (pit {pit}, {loss} lost)")
    }

    pub fn result(first: u32, second: u32) -> String {
        format!("Result: Player 1 {first}, Player 2 {second}.\n")
    }

    pub fn mistake(
        number: usize,
        player: usize,
        pits: [usize; 2],
        values: [&str; 2],
        loss: i32,
    ) -> String {
        let ([pit, best], [value, best_value]) = (pits, values);
        format!(
            "Move {number}: Player {player} sowed pit {pit} ({value}), the best was pit {best} \
             ({best_value}): {loss} lost"
        )
    }
}

/// Reads the record in `reviewing` (or standard input) and reviews it on `board`.
pub(in crate::tools) fn review_mancala<R: std::io::BufRead, W: Write>(
    console: &mut Console<R, W>,
    board: KalahBoard,
    reviewing: Reviewing<Appraisal>,
) -> Result<(), Stop> {
    let bytes = read_record(console, reviewing.source.as_ref())?;
    let entries = record::tokens(Kind::Kalah, &bytes).map_err(Stop::Record)?;
    with_pits(
        board.pits,
        ReviewKalah {
            console,
            board,
            entries,
            reviewing,
        },
    )
}

/// [`review_mancala`] once the pits per row are a type.
struct ReviewKalah<'a, R, W: Write> {
    console: &'a mut Console<R, W>,
    board: KalahBoard,
    entries: Vec<Entry>,
    reviewing: Reviewing<Appraisal>,
}

impl<R, W: Write> WithPits for ReviewKalah<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const P: usize>(self) -> Result<(), Stop> {
        let start = Mancala::<P>::with_capture(self.board.stones, self.board.capture);
        let (pits, end) = replay(&start, &self.entries).map_err(Stop::Record)?;
        let how = self.reviewing.how;
        let progress = Progress::new(pits.len(), "moves");
        let appraised = appraise_line(&start, &pits, how, &mut || progress.advance(1))?;
        progress.finish();
        let mut game = start.clone();
        let mut before = Vec::with_capacity(pits.len());
        let mut valued = Vec::with_capacity(pits.len());
        for (i, (&pit, appraised)) in pits.iter().zip(&appraised).enumerate() {
            valued.push(Valued {
                number: i + 1,
                player: game.to_move(),
                at: pit,
                value: appraised.value,
                best: appraised.best,
                best_value: appraised.best_value,
            });
            before.push(game.clone());
            game.sow(pit).expect("the replay took every sowing");
        }
        let report = Report {
            board: self.board,
            how,
            valued: &valued,
            before: &before,
            end: &end,
        };
        let written = match self.reviewing.format {
            Format::Text => report.table(),
            Format::Json => report.json(),
            Format::Html => report.page(),
        };
        self.console.say(written)
    }
}

/// For the fuzz target of the record reader (`fuzz/`): `bytes` read as a Kalah record and
/// replayed on Kalah (6,4) without valuing: the sowings, or why the record is no whole legal
/// game.
#[cfg(fuzzing)]
pub(crate) fn replayed_kalah(bytes: &[u8]) -> Result<usize, BadRecord> {
    let entries = record::tokens(Kind::Kalah, bytes)?;
    replay(&Mancala::<6>::new(4), &entries).map(|(pits, _)| pits.len())
}

/// Replays `entries` from `start` through the rules: the pits sown that stand (undone ones
/// taken back) and the final position, or what makes them no whole legal game. An undo takes
/// back one sowing, as the contract says; where the transcript names the player asked next,
/// it goes on back to that player's turn, as the console does against the computer.
fn replay<const P: usize>(
    start: &Mancala<P>,
    entries: &[Entry],
) -> Result<(Vec<usize>, Mancala<P>), BadRecord> {
    let mut game = start.clone();
    let mut pits = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let number = i + 1;
        let sow = record::sowing(&entry.token);
        if sow == Sow::Nothing {
            continue;
        }
        if game.is_over() {
            return Err(BadRecord::AfterEnd(number));
        }
        match sow {
            Sow::Undo => {
                game.undo().map_err(|_| BadRecord::Undo(number))?;
                pits.pop();
                let asked = entries[i + 1..].iter().find_map(|next| next.asked);
                if let Some(asked) = asked {
                    while digit(game.to_move()) != asked && game.undo().is_ok() {
                        pits.pop();
                    }
                }
            }
            Sow::Pit(pit) => {
                game.sow(pit)
                    .map_err(|why| BadRecord::Sowing(number, entry.token.clone(), Some(why)))?;
                pits.push(pit);
            }
            Sow::Junk | Sow::Nothing => {
                return Err(BadRecord::Sowing(number, entry.token.clone(), None));
            }
        }
    }
    if !game.is_over() {
        return Err(BadRecord::Unfinished(pits.len()));
    }
    Ok((pits, game))
}

/// A player's number as the console names them: `1` or `2`.
fn digit(player: Player) -> char {
    match player {
        Player::First => '1',
        Player::Second => '2',
    }
}

/// A player's number.
fn number(player: Player) -> usize {
    player.index() + 1
}

/// What a Kalah review reports.
struct Report<'a, const P: usize> {
    board: KalahBoard,
    how: Appraisal,
    valued: &'a [Valued<usize>],
    /// The position before each sowing.
    before: &'a [Mancala<P>],
    end: &'a Mancala<P>,
}

impl<const P: usize> Report<'_, P> {
    fn outcome(&self) -> Outcome {
        let (first, second) = (
            self.end.score(Player::First),
            self.end.score(Player::Second),
        );
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => Outcome::Won(Player::First),
            std::cmp::Ordering::Less => Outcome::Won(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The report as a table, at most 100 columns wide.
    fn table(&self) -> String {
        let how = self.how;
        let mut out = text::title(
            P,
            self.board.stones,
            self.board.capture,
            how.exact_from,
            how.level,
        );
        out.push_str(&table_text::header());
        for row in self.valued {
            out.push_str(&row.text_row(number(row.player)));
        }
        for player in [Player::First, Player::Second] {
            let (total, worst) = losses_of(self.valued, player);
            let worst: Vec<String> = worst
                .iter()
                .map(|row| text::worst(row.number, row.at, row.loss()))
                .collect();
            let worst = if worst.is_empty() {
                String::new()
            } else {
                format!("; worst: {}", worst.join(", "))
            };
            out.push_str(&text::losses(number(player), total, &worst));
        }
        let outcome = self.outcome();
        if let Some(at) = turning_point(self.valued, &outcome) {
            out.push_str(&table_text::turned(at, &result_text(&outcome)));
        }
        out.push_str(&text::result(
            self.end.score(Player::First),
            self.end.score(Player::Second),
        ));
        out
    }

    /// The report as one JSON object: a row a sowing, then the summary.
    fn json(&self) -> String {
        let value = |value: Value| {
            serde_json::json!({
                "stones": value.margin(),
                "exact": matches!(value, Value::Exact(_)),
            })
        };
        let turns: Vec<serde_json::Value> = self
            .valued
            .iter()
            .map(|row| {
                serde_json::json!({
                    "number": row.number,
                    "player": number(row.player),
                    "pit": row.at,
                    "value": value(row.value),
                    "best": row.best,
                    "best_value": value(row.best_value),
                    "loss": row.loss(),
                })
            })
            .collect();
        let player = |player: Player| {
            let (total, worst) = losses_of(self.valued, player);
            serde_json::json!({
                "loss": total,
                "worst": worst.iter().map(|row| row.number).collect::<Vec<_>>(),
            })
        };
        let report = serde_json::json!({
            "turns": turns,
            "summary": {
                "1": player(Player::First),
                "2": player(Player::Second),
                "turned_at": turning_point(self.valued, &self.outcome()),
                "result": {
                    "1": self.end.score(Player::First),
                    "2": self.end.score(Player::Second),
                },
            },
        });
        format!("{report}\n")
    }

    /// The report as one self-contained page: the chart, the board before each worst sowing
    /// with the pit sown and the best pit marked, then the table.
    fn page(&self) -> String {
        let title = text::title(
            P,
            self.board.stones,
            self.board.capture,
            self.how.exact_from,
            self.how.level,
        );
        let title = escape(
            title
                .lines()
                .next()
                .unwrap_or_default()
                .trim_end_matches('.'),
        );
        let mut out = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title>\
             <style>{STYLE}</style></head><body>\n<h1>{title}</h1>\n"
        );
        out.push_str("<h2>The value for Player 1, move by move</h2>\n");
        let (first, second) = (text::player(1), text::player(2));
        out.push_str(&chart(self.valued, [&first, &second, "stones"]));
        out.push_str("<h2>The worst moves</h2>\n");
        let mut worst: Vec<&Valued<usize>> = [Player::First, Player::Second]
            .into_iter()
            .flat_map(|player| losses_of(self.valued, player).1)
            .collect();
        worst.sort_by_key(|row| row.number);
        for row in worst {
            let values = [shown(row.value), shown(row.best_value)];
            let heading = text::mistake(
                row.number,
                number(row.player),
                [row.at, row.best],
                [&values[0], &values[1]],
                row.loss(),
            );
            let _ = writeln!(out, "<section class=\"mistake\"><h3>{heading}</h3>");
            out.push_str(&board(&self.before[row.number - 1], row.at, row.best));
            out.push_str("</section>\n");
        }
        out.push_str("<h2>Every move</h2>\n<pre>");
        out.push_str(&escape(&self.table()));
        out.push_str("</pre>\n</body></html>\n");
        out
    }
}

/// The board of `game` as the console draws it (Player 2's row above, from its pit P to 1,
/// their store on the left; Player 1's below, their store on the right), the mover's pit
/// `played` outlined red and `best` blue.
fn board<const P: usize>(game: &Mancala<P>, played: usize, best: usize) -> String {
    let mover = game.to_move();
    let cell = |player: Player, pit: usize| {
        let class = if player != mover {
            ""
        } else if pit == played {
            " class=\"played\""
        } else if pit == best {
            " class=\"best\""
        } else {
            ""
        };
        let stones = game.pit(player, pit).unwrap_or(0);
        format!(
            "<td{class} title=\"{} pit {pit}\">{stones}</td>",
            text::player(number(player))
        )
    };
    let mut out = String::from("<table class=\"board\">\n<tr>");
    let _ = write!(
        out,
        "<td class=\"pit\" rowspan=\"2\">{}</td>",
        game.score(Player::Second)
    );
    for pit in (1..=P).rev() {
        out.push_str(&cell(Player::Second, pit));
    }
    let _ = write!(
        out,
        "<td class=\"pit\" rowspan=\"2\">{}</td></tr>\n<tr>",
        game.score(Player::First)
    );
    for pit in 1..=P {
        out.push_str(&cell(Player::First, pit));
    }
    out.push_str("</tr>\n</table>\n");
    out
}

/// The result in words.
fn result_text(end: &Outcome) -> String {
    match end {
        Outcome::Won(player) => format!("{} wins", text::player(number(*player))),
        Outcome::Draw => "it is a draw".to_string(),
    }
}
