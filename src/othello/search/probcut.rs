//! ProbCut (Buro's selective cut) for the midgame search: a shallow search predicts a deep one's
//! value within an error measured beforehand, so when the shallow value lands more than that
//! error outside the window, the deep search is skipped and the node fails as the shallow one
//! says. The deep search then reaches some plies further in the same nodes, at the price of a
//! rare wrong cut. Only where the error was measured: the learned 8x8 evaluation. Pure
//! computation.

/// The standard deviation of a `depth`-ply search's value less that of its shallow search
/// ([`shallow_depth`]), in tenths of a disc, by `depth` (0 to 2: no cut). Measured on 8x8 with
/// the learned evaluation over 307 positions of 25 to 56 empty cells from 30 level-4 games after
/// six random moves, depths 3 to 10 (discs): 3.5 to 4.6 at depth 3, 4.9 to 6.4 at 4, 4.6 to
/// 5.4 at 5, 5.2 to 6.7 at 6, 5.2 to 5.6 at 7, 4.3 to 4.5 at 8, 3.5 to 4.2 at 9, 4.9 to 5.3
/// at 10, the larger mostly on the later positions. Deeper ones (full searches of 11 plies and
/// more on 300 positions take hours) are taken as alike: 5 at odd depths, 5.5 at even ones.
const SIGMA: [i32; 15] = [0, 0, 0, 40, 60, 50, 65, 55, 45, 40, 50, 50, 55, 50, 55];

/// Empty cells up to which the error is larger, and by how much (tenths of a disc): there deep
/// searches see final margins that the evaluation does not foresee (measured: 5.2 to 8.9 discs
/// at depths 3 to 10 over 107 positions of 15 to 24 empty cells).
const LATE: (u32, i32) = (24, 20);

/// How many standard deviations of the error, in hundredths, a cut needs. Measured against
/// Egaroucid Light level 10 (60 relay games, seeds 1 to 3, level 10's 13 plies after the
/// opening): one and a half won 33-2-25 at 0.9 times Light's processor time a move, one and a
/// quarter 27-1-32 at 0.6 times; one, cutting from the start, won 7 of 20 on seed 1.
const WIDTH: i32 = 150;

/// The depth of the shallow search that stands for a `depth`-ply one: of the same parity (the
/// evaluation favours the player to move), a quarter as deep, rounded down to that parity (3:
/// 1, 4: 0, 8: 2, 9: 3, 12: 2, 13: 3).
pub(super) fn shallow_depth(depth: u32) -> u32 {
    ((depth >> 2) & !1) ^ (depth & 1)
}

/// How far outside the window a shallow value must land for a `depth`-ply search with
/// `empties` empty cells to be cut, in units of which `disc` make a disc: [`WIDTH`] standard
/// deviations of the shallow search's error. `None` below depth 3, where the shallow search
/// would cost about as much as the deep one.
pub(super) fn margin(depth: u32, empties: u32, disc: i32) -> Option<i32> {
    let sigma = *SIGMA.get(depth as usize).unwrap_or(&SIGMA[SIGMA.len() - 1]);
    if sigma == 0 {
        return None;
    }
    let late = if empties <= LATE.0 { LATE.1 } else { 0 };
    // Tenths of a disc times hundredths of a deviation.
    Some((sigma + late) * WIDTH * disc / 1000)
}
