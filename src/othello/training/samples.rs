//! The positions the evaluations are fitted to: games of varied play from a seed, labelled by
//! exact solves (every move of a solved position gives one more labelled position); for the
//! size-generic evaluation, games on boards of several sides with random pits, every position
//! labelled with the game's solved margin. Everything follows from the seed, so the shipped
//! weights can be made again; the work is split into chunks of their own seeds, so that it does
//! not depend on the threads. Pure computation: progress goes to a callback.

use crate::board::{Coord, Player};
use crate::othello::engine::Bits;
use crate::othello::engine::{Fast, Layout, Position, Side};
use crate::othello::evaluation::features::{self, Features};
use crate::othello::evaluation::pattern::{self, Patterns};
use crate::othello::rules::Othello;
use crate::othello::search::computer::{Memory, Strength, move_at};
use crate::othello::search::midgame::learned_margin;
use crate::othello::search::solve::{Asked, Question, Scoring, Solver, solve_position};
use crate::rng::Rng;
use crate::worker;

/// A labelled position: the discs of the player to move and of the other player, and the final
/// disc margin for the player to move under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub me: u64,
    pub opp: u64,
    pub value: i8,
}

impl Sample {
    /// The sample as 17 bytes: the two sets little-endian, then the value.
    #[must_use]
    pub fn to_bytes(self) -> [u8; 17] {
        let mut out = [0; 17];
        out[..8].copy_from_slice(&self.me.to_le_bytes());
        out[8..16].copy_from_slice(&self.opp.to_le_bytes());
        out[16] = self.value as u8;
        out
    }

    /// The samples of `bytes` written by [`Self::to_bytes`] (a partial last one is ignored).
    #[must_use]
    pub fn read_all(bytes: &[u8]) -> Vec<Sample> {
        bytes
            .chunks_exact(17)
            .map(|b| Sample {
                me: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                opp: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
                value: b[16] as i8,
            })
            .collect()
    }
}

/// Plies of the search whose margin a blended midgame label averages with the game's result.
/// Six rather than four (measured with the first generation's weights labelling the same 1.2
/// million positions, against Egaroucid Light level 10 over seeds 1 to 6): 66-6-48 rather than
/// 64-7-49, the mean margin -0.6 discs rather than -1.5, at 0.71 of Light's time a move rather
/// than 0.73; the labels cost more (21 minutes rather than 9 on two threads).
const BLEND_DEPTH: u32 = 6;

/// Chunks the sample generation is split into, each from a seed of its own, so that the samples
/// do not depend on how many threads make them.
const CHUNKS: u64 = 16;

/// Empty cells of the positions that are solved on a board of side `side` (their moves give
/// positions one fewer): on 6x6 from fewer and up to more, since solving there is cheap, so
/// that the fit sees nearer where the solver asks (16 empty cells and up).
fn solved(side: usize) -> std::ops::RangeInclusive<usize> {
    if side == 8 { 12..=16 } else { 10..=17 }
}

/// About `count` labelled positions from `seed`, made on `threads` threads; `done` is told the
/// number made so far, now and then.
pub fn samples<const N: usize>(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Sample>
where
    Side<N>: Layout,
{
    chunked(
        seed,
        count,
        threads,
        done,
        || {
            Solver::<Side<N>>::new(64, u32::MAX, Scoring::Discs)
                .expect("64 MiB for a training solver")
        },
        |solver, rng, samples| solve_one(rng, solver, samples),
    )
}

/// About `count` items made on `threads` threads in [`CHUNKS`] chunks, each from a seed of its
/// own drawn from `seed` (so the items do not depend on the thread count): each chunk makes a
/// state with `state` and calls `one` until it has its share; `done` is told the number made so
/// far after each call.
fn chunked<T: Send, S>(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
    state: impl Fn() -> S + Sync,
    one: impl Fn(&mut S, &mut Rng, &mut Vec<T>) + Sync,
) -> Vec<T> {
    let per_chunk = count.div_ceil(CHUNKS as usize);
    let made = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicU64::new(0);
    let mut chunks: Vec<(u64, Vec<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                worker::spawn(scope, || {
                    let mut out = Vec::new();
                    loop {
                        let chunk = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if chunk >= CHUNKS {
                            return out;
                        }
                        let mut rng = Rng::new(seed.wrapping_mul(CHUNKS).wrapping_add(chunk + 1));
                        let mut items = Vec::with_capacity(per_chunk + 128);
                        let mut state = state();
                        while items.len() < per_chunk {
                            let before = items.len();
                            one(&mut state, &mut rng, &mut items);
                            let total = made.fetch_add(
                                items.len() - before,
                                std::sync::atomic::Ordering::Relaxed,
                            );
                            done(total + items.len() - before);
                        }
                        items.truncate(per_chunk);
                        out.push((chunk, items));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|thread| worker::joined(thread.join()))
            .collect()
    });
    chunks.sort_by_key(|&(chunk, _)| chunk);
    chunks.into_iter().flat_map(|(_, items)| items).collect()
}

/// Plays one of `moves` (the legal moves of `game`): a random one when `random`, else the one
/// `strength` picks. False when the game refused it.
fn play_varied<const N: usize>(
    game: &mut Othello<N>,
    moves: &[Coord],
    random: bool,
    strength: Strength,
    rng: &mut Rng,
) -> bool
where
    Side<N>: Layout,
{
    let at = if random {
        moves[rng.below(moves.len())]
    } else {
        // Without the search's memory the game is given up rather than played otherwise. The
        // training strengths search without selectivity, so nothing is kept between moves.
        match move_at(game, strength, &mut Memory::default(), rng) {
            Ok(at) => at.unwrap_or(moves[0]),
            Err(_) => return false,
        }
    };
    game.play(at).is_ok()
}

/// Plays one game of varied moves (random ones at first, then a weak computer's with some
/// random ones mixed in) to a position with empty cells in [`solved`], solves it and every
/// move, and adds them as samples.
fn solve_one<const N: usize>(
    rng: &mut Rng,
    solver: &mut Solver<'_, Side<N>>,
    samples: &mut Vec<Sample>,
) where
    Side<N>: Layout,
{
    let range = solved(N);
    let target = range.start() + rng.below(range.end() - range.start() + 1);
    let mut game = Othello::<N>::new();
    let mut ply = 0;
    while game.position().empty.len() as usize > target {
        let moves: Vec<_> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                return;
            }
            continue;
        }
        let random = ply < 6 || rng.below(4) == 0;
        if !play_varied(&mut game, &moves, random, Strength::TRAINING, rng) {
            return;
        }
        ply += 1;
    }
    if !game.has_legal_move() {
        return;
    }
    let analysis = solver.analyse(
        &game,
        Asked {
            line: false,
            moves: true,
        },
    );
    let pos = game.position();
    samples.push(sample(word(pos.me), word(pos.opp), analysis.solution.value));
    for (at, value) in analysis.moves {
        let mut child = game.clone();
        if child.play(at).is_ok() {
            let pos = child.position();
            samples.push(sample(word(pos.me), word(pos.opp), -value));
        }
    }
}

/// About `count` positions of the midgame phases of the `N` x `N` board, labelled, from
/// `seed`, made on `threads` threads (the positions do not depend on how many); `done` is told
/// the number made so far, now and then. Each game opens with two to eight random moves, then
/// the midgame's training player ([`Strength::MIDGAME_TRAINING`]) plays both sides until
/// the endgame phase of the patterns is reached, where the position is solved; each position
/// of the game after the random moves is labelled with that margin for its own player to move,
/// or when `blend` gives a share (1 to 100 percent), with a mean (rounded down) of that margin
/// and what a 6-ply search on the build's own learned weights expects ([`BLEND_DEPTH`]),
/// weighted to give the search that share: a label less noisy than one game's result, from
/// weights fitted to such results.
pub fn midgame_samples<const N: usize>(
    seed: u64,
    count: usize,
    threads: usize,
    blend: Option<u8>,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<Sample>
where
    Side<N>: Layout,
{
    let Some(patterns) = pattern::for_side(N) else {
        return Vec::new();
    };
    chunked(
        seed,
        count,
        threads,
        done,
        || {
            Solver::<Side<N>>::new(16, u32::MAX, Scoring::Discs)
                .expect("16 MiB for a training solver")
        },
        |solver, rng, samples| midgame_game(patterns, blend, rng, solver, samples),
    )
}

/// One game of [`midgame_samples`], its positions added to `samples`.
fn midgame_game<const N: usize>(
    patterns: &Patterns,
    blend: Option<u8>,
    rng: &mut Rng,
    solver: &mut Solver<'_, Side<N>>,
    samples: &mut Vec<Sample>,
) where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    let random = 2 + rng.below(7);
    // Each position after the random moves, its player to move, and its search's margin.
    let mut seen: Vec<(u64, u64, Player, Option<i32>)> = Vec::new();
    let fast = Fast::detect();
    let mut ply = 0;
    while patterns.phase(game.position().empty.len()) > 0 {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                break;
            }
            continue;
        }
        if ply >= random {
            let pos = game.position();
            let searched = blend.map(|_| learned_margin(pos, BLEND_DEPTH, fast));
            seen.push((word(pos.me), word(pos.opp), game.to_move(), searched));
        }
        if !play_varied(
            &mut game,
            &moves,
            ply < random,
            Strength::MIDGAME_TRAINING,
            rng,
        ) {
            return;
        }
        ply += 1;
    }
    let solved = solver.analyse(
        &game,
        Asked {
            line: false,
            moves: false,
        },
    );
    let value = solved.solution.value;
    samples.extend(seen.into_iter().map(|(me, opp, player, searched)| {
        let result = if player == game.to_move() {
            value
        } else {
            -value
        };
        let label = searched
            .zip(blend)
            .map_or(result, |(searched, share)| blended(result, searched, share));
        sample(me, opp, label)
    }));
}

/// The label of a position whose game ended `result` and whose search expects `searched`,
/// the search's share `share` percent: their weighted mean, rounded down.
fn blended(result: i32, searched: i32, share: u8) -> i32 {
    let share = i32::from(share);
    (result * (100 - share) + searched * share).div_euclid(100)
}

fn sample(me: u64, opp: u64, value: i32) -> Sample {
    Sample {
        me,
        opp,
        value: value.clamp(-64, 64) as i8,
    }
}

/// The moves each player has in a sample.
pub(super) fn mobility<L: Layout>(sample: &Sample) -> (u32, u32) {
    let Position { me, opp, empty } = position::<L>(sample);
    (
        L::moves(me, opp, empty).len(),
        L::moves(opp, me, empty).len(),
    )
}

/// The position of a sample, its player to move first (every cell not a disc is empty).
fn position<L: Layout>(sample: &Sample) -> Position<L> {
    let bits = |word: u64| {
        word.cells()
            .fold(L::Bits::EMPTY, |set, i| set | L::Bits::cell(i))
    };
    let (me, opp) = (bits(sample.me), bits(sample.opp));
    Position {
        me,
        opp,
        empty: L::ALL & !(me | opp),
    }
}

/// A set of cells of a board with at most 64 as one word, cell `i` at bit `i`.
fn word<B: Bits>(set: B) -> u64 {
    set.cells().fold(0, |word, i| word | 1 << i)
}

/// A position of a game described by its features
/// ([`crate::othello::evaluation::features`]), labelled with the final disc margin for its
/// player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSample {
    pub(super) features: Features,
    pub(super) value: i32,
}

/// About `count` positions for fitting the size-generic evaluation, from `seed`, made on
/// `threads` threads (the positions do not depend on how many); `done` is told the number made
/// so far, now and then. The games are played on 6x6, 8x8 and 10x10 boards in turn, each with
/// up to a tenth of its cells as random pits: four random moves, then the training lookahead
/// with one move in four at random, until few cells are empty; that position is solved, and
/// every position of the game is labelled with the solved margin (for its own player to move),
/// the solved one too.
pub fn feature_samples(
    seed: u64,
    count: usize,
    threads: usize,
    done: &(dyn Fn(usize) + Sync),
) -> Vec<FeatureSample> {
    // The state is the chunk's count of games, which picks the board.
    chunked(
        seed,
        count,
        threads,
        done,
        || 0u64,
        |game, rng, samples| {
            match *game % 3 {
                0 => feature_game::<6>(rng, samples),
                1 => feature_game::<8>(rng, samples),
                _ => feature_game::<10>(rng, samples),
            }
            *game += 1;
        },
    )
}

/// One game of [`feature_samples`] on an `N` x `N` board, its positions added to `samples`.
fn feature_game<const N: usize>(rng: &mut Rng, samples: &mut Vec<FeatureSample>)
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    for _ in 0..rng.below(N * N / 10 + 1) {
        // A cell that cannot be a pit (the centre, a pit already) is skipped.
        let at = Coord::new(rng.below(N), rng.below(N), N).expect("a cell of the board");
        let _ = game.add_pit(at);
    }
    let start = game.position();
    let anchors = features::anchors::<Side<N>>(start.me | start.opp | start.empty);
    let solve_at = if N <= 6 { 14 } else { 12 };
    let mut seen: Vec<(Features, Player)> = Vec::new();
    let mut ply = 0;
    while game.position().empty.len() > solve_at {
        let moves: Vec<Coord> = game.legal_moves().collect();
        if moves.is_empty() {
            if game.pass().is_err() {
                break;
            }
            continue;
        }
        let pos = game.position();
        seen.push((
            features::features(&pos, pos.moves(), pos.pass().moves(), anchors),
            game.to_move(),
        ));
        if !play_varied(&mut game, &moves, ply < 4, Strength::TRAINING, rng) {
            return;
        }
        ply += 1;
    }
    let pos = game.position();
    // A table of 16 MiB is plenty for 14 empty cells.
    let Ok(Some(solution)) = solve_position(pos, Question::Value, 16, u64::MAX) else {
        return;
    };
    seen.push((
        features::features(&pos, pos.moves(), pos.pass().moves(), anchors),
        game.to_move(),
    ));
    samples.extend(seen.into_iter().map(|(features, player)| FeatureSample {
        features,
        value: if player == game.to_move() {
            solution.value
        } else {
            -solution.value
        },
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blended_midgame_labels_weigh_the_result_and_the_search_by_the_share() {
        // The same games either way (the search that labels draws nothing from the seed); the
        // blend only relabels them, most of them differently, and the search alone (a share of
        // 100) most of them differently again.
        let plain = midgame_samples::<6>(5, 300, 1, None, &|_| {});
        let mean = midgame_samples::<6>(5, 300, 1, Some(50), &|_| {});
        let search = midgame_samples::<6>(5, 300, 1, Some(100), &|_| {});
        assert_eq!(plain.len(), mean.len());
        assert_eq!(plain.len(), search.len());
        let (mut relabelled, mut apart) = (0, 0);
        for ((result, mean), search) in plain.iter().zip(&mean).zip(&search) {
            assert_eq!((result.me, result.opp), (mean.me, mean.opp));
            assert_eq!((result.me, result.opp), (search.me, search.opp));
            let pos = position::<Side<6>>(result);
            let searched = learned_margin(pos, BLEND_DEPTH, Fast::detect());
            let want = (i32::from(result.value) + searched).div_euclid(2);
            assert_eq!(i32::from(mean.value), want, "{result:?}");
            assert_eq!(i32::from(search.value), searched, "{result:?}");
            relabelled += usize::from(mean.value != result.value);
            apart += usize::from(search.value != mean.value);
        }
        assert!(
            relabelled * 2 > plain.len() && apart * 2 > plain.len(),
            "{relabelled} and {apart} of {}",
            plain.len()
        );
    }

    #[test]
    fn a_blended_label_is_the_weighted_mean_rounded_down() {
        for (result, searched, share, label) in [
            (10, 20, 50, 15),
            (10, 21, 50, 15),
            (-10, -21, 50, -16),
            (10, 20, 100, 20),
            (-7, 30, 100, 30),
            (10, 20, 25, 12),
            (-10, 20, 75, 12),
            (-10, 21, 75, 13),
        ] {
            assert_eq!(
                blended(result, searched, share),
                label,
                "{result} {searched} {share}"
            );
        }
    }
}
