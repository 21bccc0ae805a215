//! The learned evaluation of 8x8 and 6x6 positions: the final disc margin a position is worth
//! to its player to move, estimated as a sum of weights looked up by the contents of edge,
//! corner, line and diagonal patterns (each in all eight of its images under the board's
//! symmetries, so that a position and its mirror images score alike), plus weights on each
//! player's mobility. Each phase of the game (a range of empty cells) has weights of its own:
//! the endgame's are fitted to solved positions, the earlier phases' to the solved results of
//! games played on from them (`training/`). They ship with the crate as data
//! (`weights.bin`, `midgame.bin` and their 6x6 twins; see the README for their provenance).
//! Pits count as empty cells in the patterns. Pure computation.

use std::sync::{LazyLock, OnceLock};

use super::folded::{Evaluation, Image, MOBILITY, SCALARS, Siblings};
use crate::othello::engine::{Bits, Layout, Position};

/// A pattern's cells in its base placement, as (column, row).
type Shape = &'static [(u8, u8)];

/// A corner's 3x3 square, a pattern of every board.
const CORNER_3X3: Shape = &[
    (0, 0),
    (1, 0),
    (2, 0),
    (0, 1),
    (1, 1),
    (2, 1),
    (0, 2),
    (1, 2),
    (2, 2),
];

/// The 8x8 patterns, in the order their weights are stored.
const SHAPES_8: [Shape; 12] = [
    // An edge with the two cells diagonal from its corners.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (1, 1),
        (6, 1),
    ],
    // A corner's 5x2 block.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
    ],
    // An edge.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
    ],
    // A corner's 3x3 square.
    CORNER_3X3,
    // The second, third and fourth lines from an edge.
    &[
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 1),
    ],
    &[
        (0, 2),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (6, 2),
        (7, 2),
    ],
    &[
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
        (4, 3),
        (5, 3),
        (6, 3),
        (7, 3),
    ],
    // Diagonals of 8 to 4 cells.
    &[
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
    ],
    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    &[(0, 4), (1, 5), (2, 6), (3, 7)],
];

/// The 6x6 patterns, in the order their weights are stored: as on 8x8, cut to the board.
const SHAPES_6: [Shape; 10] = [
    // An edge with the two cells diagonal from its corners.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (1, 1),
        (4, 1),
    ],
    // A corner's 4x2 block.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
    ],
    // An edge.
    &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)],
    // A corner's 3x3 square.
    CORNER_3X3,
    // The second and third lines from an edge.
    &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)],
    &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2)],
    // Diagonals of 6 to 3 cells.
    &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
    &[(0, 2), (1, 3), (2, 4), (3, 5)],
    &[(0, 3), (1, 4), (2, 5)],
];

/// A board the evaluation knows: its side, its patterns, its phases, its shipped weights, and
/// what is derived from them once.
pub struct Patterns {
    side: u8,
    shapes: &'static [Shape],
    /// The endgame's weights, fitted to solved positions by `boardgames train`.
    file: &'static [u8],
    /// The fewest empty cells of each earlier phase, the latest phase first: a position of
    /// `midgame[0]` empty cells or more is in a midgame phase.
    midgame: &'static [u32],
    /// The midgame phases' weights, in that order, fitted by `boardgames train --midgame`.
    midgame_file: &'static [u8],
    images: LazyLock<Vec<Image>>,
    shipped: LazyLock<Option<Phased>>,
}

/// The 8x8 board's patterns and weights: the endgame up to 16 empty cells (where the weights
/// were fitted), then phases of eight cells, the first twenty moves one phase.
pub(in crate::othello) static EIGHT: Patterns = Patterns {
    side: 8,
    shapes: &SHAPES_8,
    file: include_bytes!("weights/weights.bin"),
    midgame: &[17, 25, 33, 41],
    midgame_file: include_bytes!("weights/midgame.bin"),
    images: LazyLock::new(|| EIGHT.make_images()),
    shipped: LazyLock::new(|| EIGHT.load()),
};

/// The 6x6 board's patterns and weights: the endgame up to 17 empty cells, then two phases.
pub(in crate::othello) static SIX: Patterns = Patterns {
    side: 6,
    shapes: &SHAPES_6,
    file: include_bytes!("weights/weights6.bin"),
    midgame: &[18, 25],
    midgame_file: include_bytes!("weights/midgame6.bin"),
    images: LazyLock::new(|| SIX.make_images()),
    shipped: LazyLock::new(|| SIX.load()),
};

/// Which weights score a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learned {
    /// Those of its phase.
    Phased,
    /// The endgame's, at every phase (what the midgame's training games are played with).
    Endgame,
}

/// The stored weights are in units of 1/`SCALE` disc.
pub(in crate::othello) const SCALE: f32 = 64.0;

/// The eight symmetries of a square board of side `side`, on (column, row).
pub(in crate::othello) fn symmetric(symmetry: usize, side: u8, (c, r): (u8, u8)) -> (u8, u8) {
    let last = side - 1;
    match symmetry {
        0 => (c, r),
        1 => (last - c, r),
        2 => (c, last - r),
        3 => (last - c, last - r),
        4 => (r, c),
        5 => (last - r, c),
        6 => (r, last - c),
        _ => (last - r, last - c),
    }
}

impl Patterns {
    /// Where each pattern's weights begin in the weight vector, and the vector's length.
    fn offsets(&self) -> (Vec<usize>, usize) {
        let mut offsets = Vec::new();
        let mut next = 0;
        for shape in self.shapes {
            offsets.push(next);
            next += 3usize.pow(shape.len() as u32);
        }
        (offsets, next + SCALARS)
    }

    /// The FNV-1a hash of the shipped weights, the endgame's file then the midgame's: what a
    /// search on [`Learned::Phased`] scores with, and so what a blended training label depends on.
    #[must_use]
    pub fn weights_fnv1a(&self) -> u64 {
        fnv1a(&[self.file, self.midgame_file])
    }

    /// The evaluation of this board with `weights` (in 1/SCALE disc, as
    /// [`Patterns::weight_count`] lays them out).
    ///
    /// # Panics
    /// When `weights` is not of that length.
    pub(in crate::othello) fn evaluation(&self, weights: &[i16]) -> Evaluation {
        assert_eq!(
            weights.len(),
            self.weight_count(),
            "a weight vector of the right length"
        );
        Evaluation::new(&self.images, weights)
    }

    /// The number of weights.
    pub(in crate::othello) fn weight_count(&self) -> usize {
        self.offsets().1
    }

    /// Every image of every pattern, for fitting: eight per pattern, some the same cells in
    /// another order. A cell's bit is its row times the side plus its column.
    fn make_images(&self) -> Vec<Image> {
        let (offsets, _) = self.offsets();
        let mut images = Vec::new();
        for (shape, offset) in self.shapes.iter().zip(offsets) {
            for symmetry in 0..8 {
                let cells = shape
                    .iter()
                    .map(|&cell| {
                        let (c, r) = symmetric(symmetry, self.side, cell);
                        r * self.side + c
                    })
                    .collect();
                images.push(Image { cells, offset });
            }
        }
        images
    }

    /// The features of a position, for fitting: the index in the weight vector of every
    /// image's weight (one per image, repeats allowed), and the values of the scalar features,
    /// whose weights come after the patterns'.
    pub(in crate::othello) fn features(
        &self,
        me: u64,
        opp: u64,
        mobility: (u32, u32),
    ) -> (impl Iterator<Item = usize>, [f32; SCALARS]) {
        let indices = self.images.iter().map(move |image| {
            image.offset
                + image
                    .cells
                    .iter()
                    .rev()
                    .fold(0, |index, &cell| index * 3 + state(me, opp, cell))
        });
        let scalars = [
            1.0,
            mobility.0 as f32 / MOBILITY,
            mobility.1 as f32 / MOBILITY,
        ];
        (indices, scalars)
    }

    /// The phase of a position with `empties` empty cells: 0 the endgame, then the midgame
    /// phases from the latest.
    pub(in crate::othello) fn phase(&self, empties: u32) -> usize {
        self.midgame.iter().filter(|&&from| empties >= from).count()
    }

    /// The number of phases, the endgame's included.
    pub(in crate::othello) fn phases(&self) -> usize {
        1 + self.midgame.len()
    }

    /// The endgame's shipped weights (in 1/[`SCALE`] disc, as [`Self::weight_count`] lays them
    /// out), if the build has them.
    pub(in crate::othello) fn endgame_weights(&self) -> Option<Vec<i16>> {
        (self.file.len() == 2 * self.weight_count()).then(|| read_weights(self.file))
    }

    /// The shipped weights read from the files: little-endian `i16`, as
    /// [`Self::weight_count`] lays them out, a phase after another. `None` if the endgame's
    /// file does not hold one phase's (a build without weights); if the midgame's does not
    /// hold all of its phases, the endgame's weights serve every phase.
    /// Each phase's tables are built when it first scores a position (a solve uses only the
    /// endgame's: 5 times less work at start, about 50 ms on 8x8).
    fn load(&'static self) -> Option<Phased> {
        let count = self.weight_count();
        let mut weights = vec![self.endgame_weights()?];
        if self.midgame_file.len() == 2 * count * self.midgame.len() {
            let midgame = read_weights(self.midgame_file);
            weights.extend(midgame.chunks_exact(count).map(<[i16]>::to_vec));
        }
        let cells = u32::from(self.side) * u32::from(self.side);
        let by_empties = (0..=cells)
            .map(|empties| self.phase(empties).min(weights.len() - 1) as u8)
            .collect();
        Some(Phased {
            patterns: self,
            phases: weights.iter().map(|_| OnceLock::new()).collect(),
            weights,
            by_empties,
        })
    }

    /// The shipped evaluation, if the build has its weights.
    pub(in crate::othello) fn shipped(&self) -> Option<&Phased> {
        self.shipped.as_ref()
    }
}

/// The evaluation of every phase, and which one scores a position of so many empty cells.
pub struct Phased {
    patterns: &'static Patterns,
    /// The weights of each phase: the endgame's first, then the midgame phases' from the
    /// latest.
    weights: Vec<Vec<i16>>,
    /// Each phase's evaluation, in that order, built from its weights when first asked for.
    phases: Vec<OnceLock<Evaluation>>,
    /// The phase by count of empty cells.
    by_empties: Vec<u8>,
}

impl Phased {
    /// The evaluation that scores a position of `empties` empty cells, by `learned`.
    #[inline]
    pub(in crate::othello) fn at(&self, empties: u32, learned: Learned) -> &Evaluation {
        let phase = match learned {
            Learned::Phased => usize::from(self.by_empties[empties as usize]),
            Learned::Endgame => 0,
        };
        self.evaluation(phase)
    }

    /// The evaluation of phase `phase` (0 the endgame's), built on first use.
    fn evaluation(&self, phase: usize) -> &Evaluation {
        self.phases[phase].get_or_init(|| self.patterns.evaluation(&self.weights[phase]))
    }
}

/// The weights of a file: little-endian `i16` (a last odd byte is ignored).
fn read_weights(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// The state of a cell for a pattern index: 0 empty (or a pit), 1 the mover's, 2 the other's.
fn state(me: u64, opp: u64, cell: u8) -> usize {
    ((me >> cell) & 1) as usize + 2 * ((opp >> cell) & 1) as usize
}

/// The patterns of a board of side `side`, where it has a learned evaluation.
pub(in crate::othello) fn for_side(side: usize) -> Option<&'static Patterns> {
    [&EIGHT, &SIX]
        .into_iter()
        .find(|patterns| usize::from(patterns.side) == side)
}

/// The FNV-1a hashes of the weight files (the endgame's, the midgame's), as recorded when they
/// were fitted.
#[cfg(test)]
const WEIGHTS_FNV1A: [(&Patterns, u64, u64); 2] = [
    (&EIGHT, 0x75d3_c3a1_d1f3_5612, 0x466c_82c2_3559_0e4d),
    (&SIX, 0x5e87_47db_6a8d_72dd, 0x3d7e_6a4f_7668_074e),
];

/// The FNV-1a hash of `parts` one after another, by which the weight files are recorded.
pub(in crate::othello) fn fnv1a(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|part| part.iter())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// The learned evaluation of `pos` for its player to move, whose moves are `moves` and the
/// other player's `theirs`, by `learned`, in 1/[`SCALE`] disc of final margin, where the board
/// has one (8x8, 6x6) and its weights were built in. The side is a constant of the layout, so
/// the choice costs nothing at run time.
#[inline]
pub fn learned<L: Layout>(
    pos: &Position<L>,
    moves: L::Bits,
    theirs: L::Bits,
    learned: Learned,
) -> Option<i32> {
    let empties = (L::N * L::N) as u32 - (pos.me | pos.opp).len();
    learned_evaluation::<L>(empties, learned).map(|evaluation| {
        let mobility = (moves.len(), theirs.len());
        evaluation.value(pos.me.first_word(), pos.opp.first_word(), mobility)
    })
}

/// The shipped evaluation that [`learned`] scores positions of layout `L` with `empties`
/// empty cells (pits counted as empty) by, where the board has one and the build its weights.
#[inline]
pub fn learned_evaluation<L: Layout>(
    empties: u32,
    learned: Learned,
) -> Option<&'static Evaluation> {
    let patterns = match L::N {
        8 => &EIGHT,
        6 => &SIX,
        _ => return None,
    };
    patterns.shipped().map(|phased| phased.at(empties, learned))
}

/// The learned evaluation that scores the children of a position, and what they share in it
/// ([`Evaluation::siblings`]).
pub type Shared = (&'static Evaluation, Siblings);

/// [`Shared`] for the children of `pos` by `learned`, where the board has a learned evaluation
/// and the build its weights (8x8 and 6x6, one-word boards): the evaluation [`learned`] scores
/// them by.
#[inline]
pub fn learned_siblings<L: Layout>(pos: &Position<L>, learned: Learned) -> Option<Shared> {
    let empties = (L::N * L::N) as u32 - (pos.me | pos.opp).len() - 1;
    let evaluation = learned_evaluation::<L>(empties, learned)?;
    Some((
        evaluation,
        evaluation.siblings(pos.me.first_word(), pos.opp.first_word()),
    ))
}

/// [`learned`] of `child` (whose player to move has `moves`, the other `theirs`), a child of
/// the position of mover's discs `me` whose [`learned_siblings`] are `shared`: the same value,
/// with only the pattern tables over the cells the move changed looked up again.
#[inline]
pub fn learned_child<L: Layout>(
    (evaluation, siblings): &Shared,
    me: L::Bits,
    child: &Position<L>,
    moves: L::Bits,
    theirs: L::Bits,
) -> i32 {
    // The cell played and the discs it flipped.
    let changed = (child.opp & !me).first_word();
    let discs = (child.me.first_word(), child.opp.first_word());
    evaluation.child_value(siblings, discs, changed, (moves.len(), theirs.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::engine::Bits;
    use crate::rng::Rng;

    /// `bits` of a board of side `side` seen through `symmetry`.
    fn image(bits: u64, side: u8, symmetry: usize) -> u64 {
        bits.cells().fold(0, |out, cell| {
            let (c, r) = symmetric(symmetry, side, (cell as u8 % side, cell as u8 / side));
            out | 1 << (r * side + c)
        })
    }

    /// Random positions of about `discs` discs a side on a board of side `side`, some cells
    /// left as pits.
    fn positions(side: u8, count: usize, seed: u64) -> Vec<(u64, u64)> {
        let mut rng = Rng::new(seed);
        (0..count)
            .map(|_| {
                let (mut me, mut opp) = (0u64, 0u64);
                for cell in 0..side * side {
                    match rng.below(5) {
                        0 | 1 => me |= 1 << cell,
                        2 | 3 => opp |= 1 << cell,
                        _ => {}
                    }
                }
                (me, opp)
            })
            .collect()
    }

    #[test]
    fn the_folded_tables_score_as_the_sum_over_every_image() {
        // The README's counts of lookups.
        for (patterns, tables) in [(&EIGHT, 50), (&SIX, 42)] {
            let mut rng = Rng::new(5);
            let weights: Vec<i16> = (0..patterns.weight_count())
                .map(|_| rng.below(2001) as i16 - 1000)
                .collect();
            let evaluation = patterns.evaluation(&weights);
            assert_eq!(evaluation.table_count(), tables);
            for (me, opp) in positions(patterns.side, 200, 9) {
                let mobility = (rng.below(20) as u32, rng.below(20) as u32);
                let (indices, scalars) = patterns.features(me, opp, mobility);
                let sum: i32 = indices.map(|i| i32::from(weights[i])).sum();
                let n = weights.len();
                let scalar = f32::from(weights[n - 3]) * scalars[0]
                    + f32::from(weights[n - 2]) * scalars[1]
                    + f32::from(weights[n - 1]) * scalars[2];
                let want = sum + scalar as i32;
                // The folded mobility term rounds once, the sum above per term.
                let got = evaluation.value(me, opp, mobility);
                assert!((got - want).abs() <= 1, "{got} against {want}");
            }
        }
    }

    #[test]
    fn a_child_scores_from_its_siblings_as_from_scratch() {
        // Children as a move makes them: a cell played, some of the other player's discs
        // flipped (any, since the evaluation does not check that they could flip), the other
        // player to move.
        for patterns in [&EIGHT, &SIX] {
            let mut rng = Rng::new(21);
            let weights: Vec<i16> = (0..patterns.weight_count())
                .map(|_| rng.below(2001) as i16 - 1000)
                .collect();
            let evaluation = patterns.evaluation(&weights);
            for (me, opp) in positions(patterns.side, 300, 17) {
                let siblings = evaluation.siblings(me, opp);
                let empty: Vec<usize> = (0..usize::from(patterns.side).pow(2))
                    .filter(|&cell| (me | opp) >> cell & 1 == 0)
                    .collect();
                if empty.is_empty() {
                    continue;
                }
                for _ in 0..4 {
                    let at = 1u64 << empty[rng.below(empty.len())];
                    let flipped = opp & rng.next() & rng.next();
                    let child = (opp ^ flipped, me | flipped | at);
                    let mobility = (rng.below(20) as u32, rng.below(20) as u32);
                    let want = evaluation.value(child.0, child.1, mobility);
                    let got = evaluation.child_value(&siblings, child, flipped | at, mobility);
                    assert_eq!(got, want, "{me:#x} {opp:#x} playing {at:#x}");
                }
            }
        }
    }

    #[test]
    fn a_position_and_its_mirror_images_score_alike() {
        for patterns in [&EIGHT, &SIX] {
            let phased = patterns.shipped().expect("the shipped weights");
            let cells = u32::from(patterns.side).pow(2);
            for (empties, evaluation) in (0..=cells).map(|e| (e, phased.at(e, Learned::Phased))) {
                for (me, opp) in positions(patterns.side, 20, u64::from(empties)) {
                    let mobility = (7, 4);
                    let value = evaluation.value(me, opp, mobility);
                    for symmetry in 0..8 {
                        let side = patterns.side;
                        let (me, opp) = (image(me, side, symmetry), image(opp, side, symmetry));
                        assert_eq!(evaluation.value(me, opp, mobility), value);
                    }
                }
            }
        }
    }

    #[test]
    fn each_phase_has_weights_of_its_own() {
        // The phases by empty cells: 8x8's endgame ends at 16, 6x6's at 17; the shipped
        // evaluation has one for each, and they differ.
        for (patterns, counts) in [
            (
                &EIGHT,
                [
                    (16, 0),
                    (17, 1),
                    (24, 1),
                    (25, 2),
                    (40, 3),
                    (41, 4),
                    (60, 4),
                ],
            ),
            (
                &SIX,
                [(0, 0), (17, 0), (18, 1), (24, 1), (25, 2), (28, 2), (32, 2)],
            ),
        ] {
            for (empties, phase) in counts {
                assert_eq!(patterns.phase(empties), phase, "{empties} empty cells");
            }
            let phased = patterns.shipped().expect("the shipped weights");
            assert_eq!(phased.phases.len(), patterns.phases());
            let (me, opp) = positions(patterns.side, 1, 1)[0];
            let values: std::collections::HashSet<i32> = (0..patterns.phases())
                .map(|phase| phased.evaluation(phase).value(me, opp, (5, 5)))
                .collect();
            assert_eq!(
                values.len(),
                patterns.phases(),
                "{}x{}",
                patterns.side,
                patterns.side
            );
        }
    }

    #[test]
    fn the_shipped_weights_are_the_recorded_ones() {
        // FNV-1a of each weights file; README says how they were made. A new fit changes both.
        for (patterns, endgame, midgame) in WEIGHTS_FNV1A {
            let count = patterns.weight_count();
            assert_eq!(patterns.file.len(), 2 * count);
            assert_eq!(
                patterns.midgame_file.len(),
                2 * count * patterns.midgame.len()
            );
            let side = patterns.side;
            assert_eq!(fnv1a(&[patterns.file]), endgame, "{side}x{side}");
            assert_eq!(
                fnv1a(&[patterns.midgame_file]),
                midgame,
                "{side}x{side} midgame"
            );
        }
    }
}
