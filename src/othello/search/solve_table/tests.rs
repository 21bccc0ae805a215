//! Tests of the solver's table where threads share it: what a read may see while others write.

use super::{Bounds, SolveTable};
use crate::othello::engine::{Bits, Layout, Position, Side};

type Eight = Side<8>;

/// Position `k` of a family whose members all fall in one bucket of a one-bucket table, each
/// disc set a different word, so that a read mixing two writes shows.
fn position(k: u64) -> Position<Eight> {
    let mut me = <Eight as Layout>::Bits::EMPTY;
    let mut opp = <Eight as Layout>::Bits::EMPTY;
    me.set_word(0, 0x0101_0101_0101_0101u64.wrapping_mul(k + 1));
    opp.set_word(0, !me.word(0) & 0x00ff_ff00_00ff_ff00 ^ k << 40);
    Position {
        me,
        opp,
        empty: <Eight as Layout>::Bits::EMPTY,
    }
}

/// Bounds that name position `k`: a read that finds them for another position mixed writes.
fn bounds(k: u64) -> Bounds {
    Bounds {
        lower: k as i32,
        upper: k as i32 + 1,
        best: Some(k as usize),
        selective: false,
    }
}

#[test]
fn threads_sharing_a_bucket_read_each_position_as_it_was_written() {
    const FAMILY: u64 = 8;
    const ROUNDS: u64 = 1_000_000;
    let mut table = SolveTable::<Eight>::new(0, 20).expect("a one-bucket table");
    table.share();
    let table = &table;
    let found = std::thread::scope(|scope| {
        for writer in 0..2 {
            scope.spawn(move || {
                for i in 0..ROUNDS {
                    let k = (2 * i + writer) % FAMILY;
                    // Empty cells alternate so that both slots keep being replaced.
                    table.put(&position(k), 10 + (i % 2) as u32, bounds(k));
                }
            });
        }
        let readers: Vec<_> = (0..2)
            .map(|reader| {
                scope.spawn(move || {
                    let mut found = 0;
                    for i in 0..ROUNDS {
                        let k = (i + reader) % FAMILY;
                        if let Some(known) = table.get(&position(k)) {
                            assert_eq!(known, bounds(k), "position {k} read with another's bounds");
                            found += 1;
                        }
                    }
                    found
                })
            })
            .collect();
        readers
            .into_iter()
            .map(|r| r.join().expect("a reader"))
            .sum::<u64>()
    });
    // The readers did meet the writers' positions.
    assert!(found > 0);
}
