//! Tests of the solver's table where threads share it: what a read may see while others write.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

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
    let writing = AtomicUsize::new(2);
    let writing = &writing;
    std::thread::scope(|scope| {
        for writer in 0..2 {
            scope.spawn(move || {
                for i in 0..ROUNDS {
                    let k = (2 * i + writer) % FAMILY;
                    // Empty cells alternate so that both slots keep being replaced.
                    table.put(&position(k), 10 + (i % 2) as u32, bounds(k));
                }
                writing.fetch_sub(1, Relaxed);
            });
        }
        for reader in 0..2 {
            // Reading for as long as any writer writes, however the threads are scheduled.
            scope.spawn(move || {
                let mut i = reader;
                while writing.load(Relaxed) > 0 || i < ROUNDS {
                    let k = i % FAMILY;
                    if let Some(known) = table.get(&position(k)) {
                        assert_eq!(known, bounds(k), "position {k} read with another's bounds");
                    }
                    i += 1;
                }
            });
        }
    });
    // Once the writers are done, the bucket holds two of the family, each read back whole.
    let held: Vec<_> = (0..FAMILY)
        .filter_map(|k| table.get(&position(k)).map(|known| (k, known)))
        .collect();
    assert_eq!(held.len(), 2);
    assert!(held.iter().all(|&(k, known)| known == bounds(k)));
}
