//! ProbCut (Buro's selective cut) for the midgame search: a shallow search predicts a deep one's
//! value within an error measured beforehand, so when the shallow value lands more than that
//! error outside the window, the deep search is skipped and the node fails as the shallow one
//! says. The deep search then reaches some plies further in the same nodes, at the price of a
//! rare wrong cut. Only where the error was measured: the learned 8x8 evaluation. Pure
//! computation.

/// The standard deviation of a `depth`-ply search's value less that of its shallow search
/// ([`shallow_depth`]), in tenths of a disc, by `depth` (0 to 2: no cut). First measured for a
/// shallow search a quarter as deep, on 8x8 with the learned evaluation over 307 positions of 25
/// to 56 empty cells from 30 level-4 games after six random moves (discs): 3.5 to 4.6 at depth
/// 3, 4.9 to 6.4 at 4, 4.6 to 5.4 at 5, 5.2 to 6.7 at 6, 5.2 to 5.6 at 7, 4.3 to 4.5 at 8, 3.5
/// to 4.2 at 9, 4.9 to 5.3 at 10, the larger mostly on the later positions; deeper ones taken
/// as alike (5 at odd depths, 5.5 at even ones). Then, for the shallow search half as deep, both
/// errors were measured on the same 300 positions of 25 to 54 empty cells (games of six random
/// moves played on by 2-ply searches, one move in ten at random; full-width searches, each
/// deepened a ply at a time): quarter 4.0, 3.6, 4.6, 4.3, 3.9, 3.6, 4.2 discs and half 2.6,
/// 2.1, 3.4, 3.0, 2.8, 2.8, 3.2 at depths 4 to 10, about 0.72 of the quarter's. So these are
/// the first ones times 0.72, rounded down.
const SIGMA: [i32; 15] = [0, 0, 0, 28, 43, 36, 46, 39, 32, 28, 36, 36, 39, 36, 39];

/// The mean of a `depth`-ply search's value less that of its shallow search, in tenths of a
/// disc, by `depth`, measured on the same 300 positions (depths 4 to 10: 1.0, -0.1, 1.7, -0.2,
/// 1.2, -0.4, 1.4 discs; at 3 the shallow search is the quarter one's, and taken as none; deeper
/// ones as depth 10 at even depths and depth 9 at odd ones): the deeper search sees more for the
/// player to move when both end on the other player's move.
const BIAS: [i32; 11] = [0, 0, 0, 0, 10, -1, 17, -2, 12, -4, 14];

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
/// evaluation favours the player to move), about half as deep (3: 1, 4: 2, 5: 3, 6: 2, 8: 4, 9:
/// 5, 12: 6, 13: 7, 14: 6), as Edax and Egaroucid's full engine choose. A quarter as deep, as
/// before (8: 2, 13: 3, 14: 2), predicts the deep value less well, so that its cuts need wider
/// margins; with the half, and the shallow searches cutting too, level 10 won as many relay games
/// against Light in less time (see docs/performance.md).
pub(super) fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
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

/// What a `depth`-ply search is expected to add to its shallow search's value ([`BIAS`]), in
/// units of which `disc` make a disc.
pub(super) fn bias(depth: u32, disc: i32) -> i32 {
    let last = if depth.is_multiple_of(2) {
        BIAS.len() - 1
    } else {
        BIAS.len() - 2
    };
    BIAS.get(depth as usize).unwrap_or(&BIAS[last]) * disc / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_search_keeps_the_parity_and_goes_about_half_as_deep() {
        // The evaluation favours the player to move, so a shallow search of the other parity
        // would be off by that favour; the expected gain is read for the same parity as well.
        for depth in 3..=60 {
            let shallow = shallow_depth(depth);
            assert_eq!(shallow % 2, depth % 2, "depth {depth}");
            assert!(
                shallow < depth && 2 * shallow + 4 > depth,
                "depth {depth}: {shallow}"
            );
            let far = if depth.is_multiple_of(2) { 10 } else { 9 };
            if depth > 10 {
                assert_eq!(bias(depth, 10), bias(far, 10), "depth {depth}");
            }
        }
        assert_eq!([4, 8, 9, 12, 13, 14].map(shallow_depth), [2, 4, 5, 6, 7, 6]);
    }
}
