//! Known perft counts, the one copy of them: the unit tests check the shallow depths and the
//! benchmark (`benches/engine.rs`, which includes this file by path) the deep ones. Plain data,
//! with no imports, so that it compiles in either place.

/// 8x8 from the start, depths 1 to 14: Aart Bik's published table.
pub const STANDARD_8X8: [u64; 14] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571284,
    212258800,
    1939886636,
    18429641748,
    184042084512,
];

/// 6x6 from the start, depths 1 to 11: the published table.
pub const STANDARD_6X6: [u64; 11] = [
    4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792, 108820292,
];

/// The pits of [`PITTED_6X6`].
pub const PITTED_6X6_PITS: [&str; 7] = ["A1", "A2", "B1", "B2", "B5", "E5", "E2"];

/// 6x6 with the pits [`PITTED_6X6_PITS`], depths 1 to 10: the published table.
pub const PITTED_6X6: [u64; 10] = [4, 8, 20, 58, 232, 920, 3994, 18286, 83702, 397498];

/// Sides 12 to 26 from the start, depths 1 to 10. No table is published: every disc touches the
/// one it flips, so the opening spreads slowly and within ten plies no edge of a 12x12 board or
/// larger is in reach. Every side from 12 up counts these paths (measured on 12 and 26 to
/// depth 10; the tests check four sides to depth 8).
pub const OPEN_BOARD: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55180, 392268, 3046196, 25179208];
