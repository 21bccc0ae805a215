//! The Kalah estimate: the store margin of a lookahead a few sowings deep, what lies past the
//! horizon scored as even. The computer player's lookahead scores with it and the exact solver
//! takes it as its first guess; it sits below both, using only the game's ring. Pure
//! computation, bounded by depth.

use super::game::{Capture, Rows, sow};

/// Larger than any margin a game can reach (2 * 12 * 255 stones), and small enough for an
/// `i16`.
pub(super) const INFINITY: i32 = 10_000;

/// How many sowings deep [`estimate`] looks: about two million positions whatever the width.
pub(super) fn estimate_depth(pits: usize) -> u32 {
    // With good ordering alpha-beta visits about pits^(depth / 2) positions.
    let per_ply = (pits.max(2) as f64).ln() / 2.0;
    ((2e6f64).ln() / per_ply).clamp(1.0, 30.0) as u32
}

/// The margin for the player to move of a search `depth` sowings deep under the `capture` rule,
/// scoring what lies past the horizon as even: a cheap guess at the exact value, and the
/// solver's first guess.
pub(super) fn estimate<const P: usize>(
    rows: &Rows<P>,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    capture: Capture,
) -> i32 {
    if depth == 0 {
        return 0;
    }
    let mut best = -INFINITY;
    for pit in (0..P).rev().filter(|&pit| rows[0][pit] > 0) {
        let sown = sow(rows, pit, capture);
        let (gain, depth) = (sown.gain(), depth - 1);
        let value = if sown.over {
            gain
        } else if sown.again {
            gain + estimate(&sown.rows, depth, alpha - gain, beta - gain, capture)
        } else {
            let turned = [sown.rows[1], sown.rows[0]];
            gain - estimate(&turned, depth, gain - beta, gain - alpha, capture)
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}
