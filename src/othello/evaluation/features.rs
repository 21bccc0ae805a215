//! The size-generic evaluation: a few features that every board has, pits or none (mobility,
//! frontier, anchors and the cells beside them, discs, parity), weighted by the game's phase.
//! A pit is neither an empty cell nor a disc: it ends lines as the edge does, so a cell with a
//! pit or the edge beside it along every line is an anchor, whose disc can never be flipped (a
//! board's corners, and the cells that pits make into corners). The weights are fitted to
//! positions of games on boards of several sides with random pits, labelled by exact solves
//! (`training/samples.rs`), and ship as data (`features.bin`, see the README for
//! their provenance). Pure computation.

use std::sync::LazyLock;

use crate::othello::engine::Bits;
use crate::othello::engine::{Direction, Layout, Position, neighbours, step};

/// Features a position is described by.
pub(in crate::othello) const FEATURES: usize = 6;

/// Phases of the game, by the share of the board's cells that hold discs; each has weights of
/// its own.
pub(in crate::othello) const PHASES: usize = 4;

/// The features of a position, for the player to move: each is the mover's count less the
/// other player's (or, for parity, +1 when the empty cells are odd in number, so that the mover
/// would play last, and -1 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::othello) struct Features {
    /// The phase, 0 to `PHASES - 1`.
    pub phase: usize,
    /// Moves; empty cells beside the other's discs (where moves may come); discs on anchors;
    /// discs beside an empty anchor (which give it away); discs; parity.
    pub values: [i32; FEATURES],
}

/// The four lines through a cell, each as its two directions.
const AXES: [(Direction, Direction); 4] = [
    (Direction::North, Direction::South),
    (Direction::East, Direction::West),
    (Direction::NorthEast, Direction::SouthWest),
    (Direction::SouthEast, Direction::NorthWest),
];

/// The anchors of a board whose cells (all but its pits) are `cells`: those with a pit or the
/// edge beside them along every line. They stay the same all game, so a search finds them once.
pub(in crate::othello) fn anchors<L: Layout>(cells: L::Bits) -> L::Bits {
    // A cell is flanked along a line when a cell of the board lies on both sides of it.
    AXES.iter().fold(cells, |anchors, &(ahead, back)| {
        anchors & !(step::<L>(cells, ahead) & step::<L>(cells, back))
    })
}

/// The features of `pos`, whose player to move has `moves` and the other player `theirs`, on a
/// board with `anchors` (see [`anchors`]).
pub(in crate::othello) fn features<L: Layout>(
    pos: &Position<L>,
    moves: L::Bits,
    theirs: L::Bits,
    anchors: L::Bits,
) -> Features {
    let (me, opp, empty) = (pos.me, pos.opp, pos.empty);
    let cells = me | opp | empty;
    let beside = neighbours::<L>(anchors & empty) & !anchors;
    let diff = |set: L::Bits| (me & set).len() as i32 - (opp & set).len() as i32;
    let discs = (me | opp).len() as usize;
    let phase = (discs * PHASES / cells.len().max(1) as usize).min(PHASES - 1);
    Features {
        phase,
        values: [
            moves.len() as i32 - theirs.len() as i32,
            (neighbours::<L>(opp) & empty).len() as i32
                - (neighbours::<L>(me) & empty).len() as i32,
            diff(anchors),
            diff(beside),
            me.len() as i32 - opp.len() as i32,
            if empty.len() % 2 == 1 { 1 } else { -1 },
        ],
    }
}

/// The shipped weights, by phase and feature, in 1/64 disc a unit of the feature.
static SHIPPED: LazyLock<Option<Weights>> =
    LazyLock::new(|| Weights::from_bytes(include_bytes!("weights/features.bin")));

/// Weights of the features by phase, in 1/64 disc a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [[i16; FEATURES]; PHASES]);

impl Weights {
    /// The weights in discs a unit of each feature, phase by phase.
    #[must_use]
    pub fn in_discs(&self) -> [[f64; FEATURES]; PHASES] {
        self.0
            .map(|row| row.map(|w| f64::from(w) / f64::from(super::pattern::SCALE)))
    }

    /// The weights of a file of `PHASES x FEATURES` little-endian `i16`, phase by phase;
    /// `None` for a file of another length.
    pub(in crate::othello) fn from_bytes(bytes: &[u8]) -> Option<Weights> {
        if bytes.len() != 2 * FEATURES * PHASES {
            return None;
        }
        let mut weights = [[0; FEATURES]; PHASES];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            weights[i / FEATURES][i % FEATURES] = i16::from_le_bytes([pair[0], pair[1]]);
        }
        Some(Weights(weights))
    }

    /// The file [`Self::from_bytes`] reads.
    #[must_use]
    pub fn to_bytes(self) -> Vec<u8> {
        self.0
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    /// The worth of `features` to the player to move, in 1/64 disc.
    pub(in crate::othello) fn value(&self, features: &Features) -> i32 {
        self.0[features.phase]
            .iter()
            .zip(features.values)
            .map(|(&w, x)| i32::from(w) * x)
            .sum()
    }
}

/// The worth of `pos` to its player to move (whose moves are `moves`, the other player's
/// `theirs`) on a board with `anchors`, by the shipped weights, in 1/64 disc; `None` in a build
/// without them.
#[inline]
pub(in crate::othello) fn value<L: Layout>(
    pos: &Position<L>,
    moves: L::Bits,
    theirs: L::Bits,
    anchors: L::Bits,
) -> Option<i32> {
    SHIPPED
        .as_ref()
        .map(|weights| weights.value(&features(pos, moves, theirs, anchors)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Player;
    use crate::othello::Cell;
    use crate::othello::engine::Side;
    use crate::othello::evaluation::pattern::{fnv1a, symmetric};
    use crate::othello::rules::Othello;
    use crate::rng::Rng;

    /// The anchors of a game's board.
    fn anchors_of<const N: usize>(game: &Othello<N>) -> <Side<N> as Layout>::Bits
    where
        Side<N>: Layout,
    {
        let pos = game.position();
        anchors::<Side<N>>(pos.me | pos.opp | pos.empty)
    }

    /// Cell names of a set.
    fn names<const N: usize>(set: <Side<N> as Layout>::Bits) -> Vec<String>
    where
        Side<N>: Layout,
    {
        set.cells()
            .map(|i| Side::<N>::coord(i).to_string())
            .collect()
    }

    #[test]
    fn anchors_are_the_corners_and_the_cells_that_pits_make_corners() {
        let mut game = Othello::<8>::new();
        assert_eq!(names::<8>(anchors_of(&game)), ["A1", "H1", "A8", "H8"]);
        // A pit on the top edge ends it as the board's edge does: C1 and E1 can never be
        // flipped along it, nor along any other line.
        game.add_pit("D1".parse().unwrap()).unwrap();
        assert_eq!(
            names::<8>(anchors_of(&game)),
            ["A1", "C1", "E1", "H1", "A8", "H8"]
        );
        let mut wide = Othello::<10>::new();
        wide.add_pit("A2".parse().unwrap()).unwrap();
        // A pit beside a corner leaves it a corner and makes the next cell of the edge one.
        assert_eq!(
            names::<10>(anchors_of(&wide)),
            ["A1", "J1", "A3", "A10", "J10"]
        );
    }

    /// A random arrangement of discs and pits on an `N` x `N` board, X to move, with every
    /// one of its eight images.
    fn images<const N: usize>(rng: &mut Rng) -> Vec<Othello<N>>
    where
        Side<N>: Layout,
    {
        let cells: Vec<Cell> = (0..N * N)
            .map(|_| match rng.below(9) {
                0..=2 => Cell::Disc(Player::First),
                3..=5 => Cell::Disc(Player::Second),
                6 => Cell::Pit,
                _ => Cell::Empty,
            })
            .collect();
        (0..8)
            .map(|symmetry| {
                let mut image = vec![Cell::Empty; N * N];
                for (i, &cell) in cells.iter().enumerate() {
                    // Sides up to 26 fit a byte.
                    let (c, r) = symmetric(symmetry, N as u8, ((i % N) as u8, (i / N) as u8));
                    let (c, r) = (usize::from(c), usize::from(r));
                    image[r * N + c] = cell;
                }
                Othello::arranged(&image, Player::First).expect("N * N cells")
            })
            .collect()
    }

    #[test]
    fn a_position_and_its_mirror_images_score_alike_pits_included() {
        fn check<const N: usize>(seed: u64)
        where
            Side<N>: Layout,
        {
            let mut rng = Rng::new(seed);
            for _ in 0..50 {
                let scores: Vec<Option<i32>> = images::<N>(&mut rng)
                    .iter()
                    .map(|game| {
                        let pos = game.position();
                        value(&pos, pos.moves(), pos.pass().moves(), anchors_of(game))
                    })
                    .collect();
                assert!(scores[0].is_some(), "the shipped weights load");
                assert!(scores.iter().all(|&s| s == scores[0]), "{scores:?}");
            }
        }
        check::<6>(1);
        check::<8>(2);
        check::<10>(3);
    }

    #[test]
    fn the_shipped_weights_are_the_recorded_ones() {
        // FNV-1a of features.bin; the README says how it was made. A new fit changes both.
        let file = include_bytes!("weights/features.bin");
        assert_eq!(file.len(), 2 * FEATURES * PHASES);
        assert_eq!(fnv1a(&[file]), 0xdc7f_6296_62b9_ac75);
    }
}
