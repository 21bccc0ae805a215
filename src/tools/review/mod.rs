//! `review othello`: a played game read back with the engine's eye. The record (a `--echo`
//! transcript, a game's input, or a list of moves) is replayed through the rules, which judge
//! every move; then each move is valued against the best one (exact near the end, the
//! search's estimate before) and the report says each player's losses, their worst moves and
//! where the game turned, as a table, as JSON or as a page (`page.rs`).

mod kalah;
mod page;

#[cfg(fuzzing)]
pub(crate) use kalah::replayed_kalah;
pub(super) use kalah::review_mancala;

use std::io::Write;
use std::path::PathBuf;

use crate::board::{Coord, Outcome, Player, TableTooLarge, Value};
use crate::driver::record::{self, BadRecord, Kind};
use crate::driver::{Console, Stop};
use crate::othello::{Appraisal, Cell, Layout, Othello, Side, WithSide, move_values};
use crate::progress::Progress;
use crate::worker;

/// What `review` reads and how it values the moves (`A`: the game's appraisal).
#[derive(Clone, Debug)]
pub struct Reviewing<A> {
    /// The record's file, or standard input.
    pub source: Option<PathBuf>,
    /// From where values are exact, the search's level before, threads and table.
    pub how: A,
    /// How the review is written.
    pub format: Format,
}

/// How a review is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table, a line a move, then the summary.
    Text,
    /// One JSON object: a row a turn, then the summary.
    Json,
    /// One self-contained page: the chart, the worst moves' boards, the table.
    Html,
}

/// Every line of the review's report.
mod text {
    /// A row of the table: the move's number, its player, the move, its value, the best
    /// move (when another), its value, the loss.
    pub fn row(cells: [&str; 7]) -> String {
        let [number, player, played, value, best, best_value, loss] = cells;
        format!(
            "{number:>4}  {player:<6}  {played:<6} {value:>6}  {best:<6} {best_value:>6}  {loss:>5}\n"
        )
    }

    pub fn header() -> String {
        row(["move", "player", "played", "value", "best", "value", "loss"])
    }

    pub fn title(side: usize, exact_from: u32, level: u32) -> String {
        format!(
            "Review of an Othello {side}x{side} game: values exact from {exact_from} empty cells, \
             before that level {level}'s estimates (~)\n"
        )
    }

    pub fn pass(player: char) -> String {
        format!("      {player:<6}  pass\n")
    }

    pub fn losses(player: char, total: i32, worst: &str) -> String {
        format!("{player} lost {total} discs in all{worst}\n")
    }

    pub fn turned(number: usize, result: &str) -> String {
        format!("The game turned at move {number}: from then on, {result}.\n")
    }

    pub fn result(x: usize, o: usize) -> String {
        format!("Result: X {x}, O {o}.\n")
    }
}

/// Reads the record in `reviewing` (or standard input) and reviews it on a board of `side`.
pub(super) fn review_othello<R: std::io::BufRead, W: Write>(
    console: &mut Console<R, W>,
    side: crate::board::BoardSide,
    reviewing: Reviewing<Appraisal>,
) -> Result<(), Stop> {
    let bytes = read_record(console, reviewing.source.as_ref())?;
    let tokens = typed(record::tokens(Kind::Othello, &bytes).map_err(Stop::Record)?);
    crate::othello::with_side(
        side,
        ReviewOthello {
            console,
            tokens,
            reviewing,
        },
    )
}

/// The bytes of the record in `source`, or of standard input.
fn read_record<R: std::io::BufRead, W: Write>(
    console: &mut Console<R, W>,
    source: Option<&PathBuf>,
) -> Result<Vec<u8>, Stop> {
    match source {
        Some(path) => std::fs::read(path).map_err(|err| Stop::File(path.clone(), err)),
        None => {
            let mut bytes = Vec::new();
            console.input().read_to_end(&mut bytes)?;
            Ok(bytes)
        }
    }
}

/// The tokens of a record's entries.
fn typed(entries: Vec<record::Entry>) -> Vec<String> {
    entries.into_iter().map(|entry| entry.token).collect()
}

/// [`review_othello`] once the side is a type.
struct ReviewOthello<'a, R, W: Write> {
    console: &'a mut Console<R, W>,
    tokens: Vec<String>,
    reviewing: Reviewing<Appraisal>,
}

/// One turn of the game as played.
enum Turn<const N: usize>
where
    Side<N>: Layout,
{
    /// Move `number` (passes apart), played at `at` from `before`.
    Move {
        number: usize,
        before: Othello<N>,
        at: Coord,
    },
    /// A player with no move passed.
    Pass(Player),
}

/// A move (`M`: a cell, a pit) valued: who played it, its value and the best move's, for the
/// mover.
#[derive(Clone, Debug)]
struct Valued<M> {
    number: usize,
    player: Player,
    at: M,
    value: Value,
    best: M,
    best_value: Value,
}

impl<M: std::fmt::Display> Valued<M> {
    /// The move's line of the text table, its player shown as `player`; the best move only
    /// where the played one lost something.
    fn text_row(&self, player: impl std::fmt::Display) -> String {
        let best = if self.loss() == 0 {
            String::new()
        } else {
            self.best.to_string()
        };
        text::row([
            &self.number.to_string(),
            &player.to_string(),
            &self.at.to_string(),
            &shown(self.value),
            &best,
            &shown(self.best_value),
            &self.loss().to_string(),
        ])
    }
}

impl<M> Valued<M> {
    fn loss(&self) -> i32 {
        self.best_value.margin() - self.value.margin()
    }

    /// The move's value for the first player (X): the final margin it leads to.
    fn for_first(&self) -> i32 {
        match self.player {
            Player::First => self.value.margin(),
            Player::Second => -self.value.margin(),
        }
    }
}

impl<R, W: Write> WithSide for ReviewOthello<'_, R, W> {
    type Output = Result<(), Stop>;

    fn run<const N: usize>(self) -> Result<(), Stop>
    where
        Side<N>: Layout,
    {
        let (turns, end) = replay::<N>(&self.tokens).map_err(Stop::Record)?;
        let how = self.reviewing.how;
        let played: Vec<(&Othello<N>, Coord)> = turns
            .iter()
            .filter_map(|turn| match turn {
                Turn::Move { before, at, .. } => Some((before, *at)),
                Turn::Pass(_) => None,
            })
            .collect();
        let progress = Progress::new(played.len(), "moves");
        let mut values = value_all(&played, how, &progress)?.into_iter();
        let mut rows: Vec<Option<Valued<Coord>>> = Vec::new();
        for turn in &turns {
            let Turn::Move { number, before, at } = turn else {
                rows.push(None);
                continue;
            };
            let values = values
                .next()
                .expect("every move played has its values, in order");
            let played = values.iter().find(|(cell, _)| cell == at);
            let (Some(&(best, best_value)), Some(&(_, value))) = (values.first(), played) else {
                unreachable!("a move the rules took is among the legal moves valued");
            };
            let row = Valued {
                number: *number,
                player: before.to_move(),
                at: *at,
                value,
                best,
                best_value,
            };
            rows.push(Some(row));
        }
        let valued: Vec<Valued<Coord>> = rows.iter().flatten().cloned().collect();
        progress.finish();
        let report = match self.reviewing.format {
            Format::Text => table::<N>(&turns, &rows, &valued, &end, how),
            Format::Json => json::<N>(&turns, &rows, &valued, &end),
            Format::Html => page::page::<N>(&turns, &rows, &valued, &end, how),
        };
        self.console.say(report)
    }
}

/// A position's number among the moves played, and its moves' values.
type Dealt = (usize, Vec<(Coord, Value)>);

/// For the fuzz target of the record reader (`fuzz/`): `bytes` read as an Othello record and
/// replayed through the rules on a board of `side`, without valuing: the turns, or why the
/// record is no whole legal game.
#[cfg(fuzzing)]
pub(crate) fn replayed(side: crate::board::BoardSide, bytes: &[u8]) -> Result<usize, BadRecord> {
    /// [`replayed`] once the side is a type.
    struct Replay(Vec<String>);
    impl WithSide for Replay {
        type Output = Result<usize, BadRecord>;
        fn run<const N: usize>(self) -> Result<usize, BadRecord>
        where
            Side<N>: Layout,
        {
            replay::<N>(&self.0).map(|(turns, _)| turns.len())
        }
    }
    let tokens = typed(record::tokens(Kind::Othello, bytes)?);
    crate::othello::with_side(side, Replay(tokens))
}

/// The values of every legal move before each move `played`, in order, on `how.threads`
/// threads: the positions are dealt out in turn, each valued on one thread (a review's exact
/// solves are short; its estimates, most of its time, search on one thread each).
fn value_all<const N: usize>(
    played: &[(&Othello<N>, Coord)],
    how: Appraisal,
    progress: &Progress,
) -> Result<Vec<Vec<(Coord, Value)>>, TableTooLarge>
where
    Side<N>: Layout,
{
    let threads = how.threads.clamp(1, played.len().max(1));
    let one = Appraisal { threads: 1, ..how };
    let dealt: Vec<Result<Vec<Dealt>, TableTooLarge>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                worker::spawn(scope, move || {
                    (first..played.len())
                        .step_by(threads)
                        .map(|i| {
                            let values = move_values(played[i].0, one)?;
                            progress.advance(1);
                            Ok((i, values))
                        })
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| worker::joined(w.join()))
            .collect()
    });
    let mut all: Vec<Dealt> = Vec::new();
    for part in dealt {
        all.extend(part?);
    }
    all.sort_by_key(|&(i, _)| i);
    Ok(all.into_iter().map(|(_, values)| values).collect())
}

/// Replays `tokens` (an optional pit count and its pits, then moves) through the rules: the
/// turns as played and the final position, or what makes them no whole legal game.
fn replay<const N: usize>(tokens: &[String]) -> Result<(Vec<Turn<N>>, Othello<N>), BadRecord>
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    let mut rest = tokens;
    if record::starts_with_pit_count(tokens) {
        let count = tokens[0]
            .parse::<usize>()
            .ok()
            .and_then(|count| Othello::<N>::check_pit_count(count).ok())
            .ok_or_else(|| BadRecord::PitCount(tokens[0].clone()))?;
        for k in 1..=count {
            let token = tokens.get(k).ok_or(BadRecord::Unfinished(0))?;
            let at = record::cell(token).ok_or_else(|| BadRecord::Pit(k, token.clone(), None))?;
            game.add_pit(at)
                .map_err(|why| BadRecord::Pit(k, token.clone(), Some(why)))?;
        }
        rest = &tokens[count + 1..];
    }
    let mut turns = Vec::new();
    let mut number = 0;
    // A hint or the help asked for (a game played with `--hints` or `--friendly`) is no move.
    for token in rest.iter().filter(|token| !record::asks(token)) {
        pass_while_stuck(&mut game, &mut turns);
        number += 1;
        if game.outcome().is_some() {
            return Err(BadRecord::AfterEnd(number));
        }
        let at = record::cell(token).ok_or_else(|| BadRecord::Move(number, token.clone(), None))?;
        let before = game.clone();
        game.play(at)
            .map_err(|why| BadRecord::Move(number, token.clone(), Some(why)))?;
        turns.push(Turn::Move { number, before, at });
    }
    pass_while_stuck(&mut game, &mut turns);
    if game.outcome().is_none() {
        return Err(BadRecord::Unfinished(number));
    }
    Ok((turns, game))
}

/// Passes for every player to move who has no move, as the console does, until one has a
/// move or the game is over.
fn pass_while_stuck<const N: usize>(game: &mut Othello<N>, turns: &mut Vec<Turn<N>>)
where
    Side<N>: Layout,
{
    while game.outcome().is_none() && !game.has_legal_move() {
        let player = game.to_move();
        // The player has no legal move and the game goes on: a pass is allowed.
        if game.pass().is_err() {
            break;
        }
        turns.push(Turn::Pass(player));
    }
}

/// `game`'s position as `solve othello --position` reads one: the cells row by row, a space,
/// the player to move.
fn position_text<const N: usize>(game: &Othello<N>) -> String
where
    Side<N>: Layout,
{
    let cells: String = (0..N * N)
        .filter_map(|i| Coord::new(i % N, i / N, N))
        .map(|at| game.cell(at).symbol())
        .collect();
    format!("{cells} {}", letter(game.to_move()))
}

/// A player's letter.
fn letter(player: Player) -> char {
    Cell::Disc(player).symbol()
}

/// A value as the table shows it: signed discs, `~` before an estimate.
fn shown(value: Value) -> String {
    match value {
        Value::Exact(discs) => format!("{discs:+}"),
        Value::Estimate(discs) => format!("~{discs:+}"),
    }
}

/// The move after which the result could no longer change: the first from which every
/// move's value, for X, agrees with the final result, or `None` when only the last did.
fn turning_point<M>(valued: &[Valued<M>], end: &Outcome) -> Option<usize> {
    let agrees = |margin: i32| match end {
        Outcome::Won(Player::First) => margin > 0,
        Outcome::Won(Player::Second) => margin < 0,
        Outcome::Draw => margin == 0,
    };
    let from = valued
        .iter()
        .rposition(|row| !agrees(row.for_first()))
        .map_or(0, |i| i + 1);
    valued.get(from).map(|row| row.number)
}

/// The result in words.
fn result_text(end: &Outcome) -> String {
    match end {
        Outcome::Won(player) => format!("{} wins", letter(*player)),
        Outcome::Draw => "it is a draw".to_string(),
    }
}

/// `player`'s total loss and their three worst moves.
fn losses_of<M>(valued: &[Valued<M>], player: Player) -> (i32, Vec<&Valued<M>>) {
    let mut theirs: Vec<&Valued<M>> = valued.iter().filter(|row| row.player == player).collect();
    let total = theirs.iter().map(|row| row.loss()).sum();
    theirs.sort_by_key(|row| (-row.loss(), row.number));
    theirs.retain(|row| row.loss() > 0);
    theirs.truncate(3);
    (total, theirs)
}

/// The report as a table, at most 100 columns wide.
fn table<const N: usize>(
    turns: &[Turn<N>],
    rows: &[Option<Valued<Coord>>],
    valued: &[Valued<Coord>],
    end: &Othello<N>,
    how: Appraisal,
) -> String
where
    Side<N>: Layout,
{
    let mut out = text::title(N, how.exact_from, how.level);
    out.push_str(&text::header());
    for (turn, row) in turns.iter().zip(rows) {
        match (turn, row) {
            (Turn::Pass(player), _) => out.push_str(&text::pass(letter(*player))),
            (_, Some(row)) => out.push_str(&row.text_row(letter(row.player))),
            _ => {}
        }
    }
    out.push_str(&summary(valued, end));
    out
}

/// The summary lines: each player's losses and worst moves, where the game turned, the result.
fn summary<const N: usize>(valued: &[Valued<Coord>], end: &Othello<N>) -> String
where
    Side<N>: Layout,
{
    let mut out = String::new();
    for player in [Player::First, Player::Second] {
        let (total, worst) = losses_of(valued, player);
        let worst: Vec<String> = worst
            .iter()
            .map(|row| format!("move {} ({}, {} lost)", row.number, row.at, row.loss()))
            .collect();
        let worst = if worst.is_empty() {
            String::new()
        } else {
            format!("; worst: {}", worst.join(", "))
        };
        out.push_str(&text::losses(letter(player), total, &worst));
    }
    let outcome = end.outcome().unwrap_or(Outcome::Draw);
    if let Some(number) = turning_point(valued, &outcome) {
        out.push_str(&text::turned(number, &result_text(&outcome)));
    }
    out.push_str(&text::result(
        end.count(Cell::Disc(Player::First)),
        end.count(Cell::Disc(Player::Second)),
    ));
    out
}

/// The report as one JSON object: a row a turn, then the summary.
fn json<const N: usize>(
    turns: &[Turn<N>],
    rows: &[Option<Valued<Coord>>],
    valued: &[Valued<Coord>],
    end: &Othello<N>,
) -> String
where
    Side<N>: Layout,
{
    let value = |value: Value| {
        serde_json::json!({
            "discs": value.margin(),
            "exact": matches!(value, Value::Exact(_)),
        })
    };
    let turns: Vec<serde_json::Value> = turns
        .iter()
        .zip(rows)
        .map(|(turn, row)| match (turn, row) {
            (Turn::Pass(player), _) => serde_json::json!({
                "player": letter(*player).to_string(),
                "pass": true,
            }),
            (Turn::Move { before, .. }, Some(row)) => serde_json::json!({
                "number": row.number,
                "position": position_text(before),
                "player": letter(row.player).to_string(),
                "move": row.at.to_string(),
                "value": value(row.value),
                "best": row.best.to_string(),
                "best_value": value(row.best_value),
                "loss": row.loss(),
            }),
            (Turn::Move { .. }, None) => serde_json::Value::Null,
        })
        .collect();
    let outcome = end.outcome().unwrap_or(Outcome::Draw);
    let player = |player: Player| {
        let (total, worst) = losses_of(valued, player);
        serde_json::json!({
            "loss": total,
            "worst": worst.iter().map(|row| row.number).collect::<Vec<_>>(),
        })
    };
    let report = serde_json::json!({
        "turns": turns,
        "summary": {
            "X": player(Player::First),
            "O": player(Player::Second),
            "turned_at": turning_point(valued, &outcome),
            "result": {
                "X": end.count(Cell::Disc(Player::First)),
                "O": end.count(Cell::Disc(Player::Second)),
            },
        },
    });
    format!("{report}\n")
}
