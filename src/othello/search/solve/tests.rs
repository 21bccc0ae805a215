use super::*;
use crate::othello::Cell;
use crate::othello::evaluation::learned;
use crate::rng::Rng;

/// Everything an analysis can give: the line and every move's value.
const EVERYTHING: Asked = Asked {
    line: true,
    moves: true,
};

/// Solves `game` with a table of 64 MiB and the course's scoring: the final disc difference
/// for the player to move under perfect play, and a best move.
///
/// # Panics
/// If the machine cannot spare 64 MiB.
fn solve<const N: usize>(game: &Othello<N>) -> Solution<Coord>
where
    Side<N>: Layout,
{
    let mut solver = Solver::new(64, 64, Scoring::Discs).expect("64 MiB for the solver's table");
    solver.analyse(game, Asked::default()).solution
}

/// The value of `game` for the player to move by plain minimax over the game's own rules, with
/// no pruning, no table and none of the engine's shortcuts: the solver's independent check.
fn brute_force<const N: usize>(game: &Othello<N>, scoring: Scoring) -> i32
where
    Side<N>: Layout,
{
    if game.outcome().is_some() {
        let me = game.to_move();
        let discs =
            game.count(Cell::Disc(me)) as i32 - game.count(Cell::Disc(me.opponent())) as i32;
        return match scoring {
            Scoring::Discs => discs,
            Scoring::EmptiesToWinner => discs + discs.signum() * game.count(Cell::Empty) as i32,
        };
    }
    let moves: Vec<Coord> = game.legal_moves().collect();
    if moves.is_empty() {
        let mut passed = game.clone();
        passed.pass().unwrap();
        return -brute_force(&passed, scoring);
    }
    moves
        .into_iter()
        .map(|at| {
            let mut next = game.clone();
            next.play(at).unwrap();
            -brute_force(&next, scoring)
        })
        .max()
        .unwrap()
}

/// A random position of side `N` with at most `empties` empty cells (fewer if the game ended
/// early), from a start with a few random pits.
fn random_position<const N: usize>(rng: &mut Rng, empties: usize) -> Othello<N>
where
    Side<N>: Layout,
{
    let mut game = Othello::<N>::new();
    for _ in 0..rng.below(3) {
        let at = Coord::new(rng.below(N), rng.below(N), N).unwrap();
        let _ = game.add_pit(at);
    }
    while game.count(Cell::Empty) > empties && game.outcome().is_none() {
        let moves: Vec<Coord> = game.legal_moves().collect();
        match moves.len() {
            0 => game.pass().unwrap(),
            n => {
                game.play(moves[rng.below(n)]).unwrap();
            }
        }
    }
    game
}

/// Checks the solver against brute force on random positions of side `N`: the value, that
/// the best move reaches it, every move's value, and the principal variation's end.
fn agrees_with_brute_force<const N: usize>(seed: u64, empties: usize)
where
    Side<N>: Layout,
{
    let mut rng = Rng::new(seed);
    for round in 0..12 {
        let game = random_position::<N>(&mut rng, empties);
        for scoring in [Scoring::Discs, Scoring::EmptiesToWinner] {
            let want = brute_force(&game, scoring);
            let mut solver = Solver::new(1, 64, scoring).unwrap();
            let found = solver.analyse(&game, EVERYTHING);
            let context = format!("side {N}, seed {seed}, round {round}, {scoring:?}");
            assert_eq!(found.solution.value, want, "{context}");
            // Every move's value, and the best move among the best.
            for &(at, value) in &found.moves {
                let mut next = game.clone();
                next.play(at).unwrap();
                assert_eq!(value, -brute_force(&next, scoring), "{context}, move {at}");
            }
            if let Some(best) = found.solution.best {
                assert_eq!(found.moves.first().map(|m| m.1), Some(want), "{context}");
                assert!(found.moves.contains(&(best, want)), "{context}");
            }
            // Playing the line out ends the game with the value.
            let mut end = game.clone();
            for step in &found.line {
                match step {
                    Some(at) => end.play(*at).map(|_| ()),
                    None => end.pass(),
                }
                .unwrap();
            }
            if !game.is_full() {
                assert!(
                    end.outcome().is_some() || !end.has_legal_move(),
                    "{context}: the line stops early"
                );
            }
        }
    }
}

#[test]
fn the_solver_agrees_with_brute_force_on_small_endgames() {
    agrees_with_brute_force::<4>(1, 12);
    agrees_with_brute_force::<6>(2, 9);
    agrees_with_brute_force::<8>(3, 9);
    agrees_with_brute_force::<10>(4, 8);
}

#[test]
fn the_fast_and_the_portable_search_solve_alike() {
    let mut rng = Rng::new(5);
    for _ in 0..20 {
        let game = random_position::<6>(&mut rng, 14);
        let pos = game.position();
        let mut portable = Solver::new(4, 64, Scoring::Discs).unwrap();
        portable.fast = None;
        let want = portable.exact(pos, 0);
        let mut fast = Solver::new(4, 64, Scoring::Discs).unwrap();
        assert_eq!(fast.exact(pos, 0), want);
        assert_eq!(solve(&game).value, want);
    }
}

#[test]
fn the_learned_searches_are_plain_minimax_whatever_order_they_try_moves_in() {
    // Minimax over the learned evaluation with no pruning and no moves tried out of turn.
    fn minimax(pos: Position<Side<8>>, depth: u32) -> i32 {
        let (moves, theirs) = (pos.moves(), pos.pass().moves());
        if moves.is_empty() && theirs.is_empty() {
            return 64 * (pos.me.len() as i32 - pos.opp.len() as i32);
        }
        if depth == 0 {
            return learned(&pos, moves, theirs, SOLVER_WEIGHTS).expect("8x8's evaluation");
        }
        if moves.is_empty() {
            return -minimax(pos.pass(), depth);
        }
        let values = moves
            .cells()
            .map(|at| -minimax(pos.play_unchecked(at), depth - 1));
        values.max().expect("a move")
    }
    let mut rng = Rng::new(17);
    let fast = Solver::<Side<8>>::new(1, 64, Scoring::Discs).unwrap();
    let mut portable = Solver::<Side<8>>::new(1, 64, Scoring::Discs).unwrap();
    portable.fast = None;
    for round in 0..30 {
        let mut game = Othello::<8>::new();
        for _ in 0..8 + rng.below(44) {
            let moves: Vec<Coord> = game.legal_moves().collect();
            match moves.len() {
                0 if game.outcome().is_some() => break,
                0 => game.pass().unwrap(),
                n => game.play(moves[rng.below(n)]).map(|_| ()).unwrap(),
            }
        }
        let pos = game.position();
        for depth in 0..=3 {
            let want = Some(minimax(pos, depth));
            assert_eq!(
                fast.learned_value(pos, depth),
                want,
                "round {round}, depth {depth}"
            );
            assert_eq!(
                portable.learned_value(pos, depth),
                want,
                "round {round}, depth {depth}"
            );
        }
    }
}

#[test]
fn any_number_of_threads_gives_the_same_analysis() {
    // Past PARALLEL empty cells, so that the helpers search too (and nodes share their moves
    // out among threads, which changes the count), on a board with the learned evaluation (8x8)
    // and one without (10x10), with the value of every move and a line.
    fn check<const N: usize>(seed: u64, empties: usize)
    where
        Side<N>: Layout,
    {
        let mut rng = Rng::new(seed);
        let mut shared = false;
        for _ in 0..3 {
            let game = random_position::<N>(&mut rng, empties);
            let analyses: Vec<(Analysis, u64)> = [1, 2, 3]
                .into_iter()
                .map(|threads| {
                    let mut solver = Solver::new(16, 64, Scoring::EmptiesToWinner)
                        .unwrap()
                        .threads(threads);
                    (solver.analyse(&game, EVERYTHING), solver.nodes())
                })
                .collect();
            for (analysis, nodes) in &analyses[1..] {
                assert_eq!(analysis, &analyses[0].0, "{game:?}");
                shared |= *nodes != analyses[0].1;
            }
        }
        assert!(shared, "the helpers searched");
    }
    check::<8>(21, 17);
    check::<10>(22, 15);
}

#[test]
fn a_selective_search_first_changes_no_result() {
    // Positions of 18 empty cells, with the selective search run from 14 (so that it cuts
    // below its root) or not at all, on both boards with a learned evaluation.
    fn check<const N: usize>(seed: u64)
    where
        Side<N>: Layout,
    {
        let mut rng = Rng::new(seed);
        for _ in 0..4 {
            let game = random_position::<N>(&mut rng, 18);
            let [(exact, plain), (after, selective)] = [u32::MAX, 14].map(|from| {
                let mut solver = Solver::new(16, 64, Scoring::EmptiesToWinner).unwrap();
                solver.selective_from = from;
                (solver.analyse(&game, EVERYTHING), solver.nodes())
            });
            assert_eq!(after, exact, "{game:?}");
            assert_ne!(selective, plain, "the selective search ran: {game:?}");
        }
    }
    check::<8>(41);
    check::<6>(42);
}

#[test]
fn a_table_that_grows_from_one_bucket_or_more_threads_give_the_same_analysis() {
    let mut rng = Rng::new(31);
    for _ in 0..3 {
        let game = random_position::<8>(&mut rng, 16);
        let want = Solver::new(16, 64, Scoring::EmptiesToWinner)
            .unwrap()
            .analyse(&game, EVERYTHING);
        for threads in [1, 2] {
            let mut solver = Solver::new(16, 64, Scoring::EmptiesToWinner).unwrap();
            solver.own_table().start_small(1);
            let mut solver = solver.threads(threads);
            assert_eq!(solver.analyse(&game, EVERYTHING), want, "{game:?}");
            assert!(solver.table.used() >= 1 << 8, "it grew");
        }
        // The best move, sought in the learned evaluation's order at 16 empty cells, is one of
        // the best.
        let best = want.solution.best.expect("a move");
        assert!(
            want.moves.contains(&(best, want.solution.value)),
            "{game:?}"
        );
        for threads in [1, 2] {
            let mut solver = Solver::new(16, 64, Scoring::EmptiesToWinner)
                .unwrap()
                .threads(threads);
            assert_eq!(
                solver.analyse(&game, Asked::default()).solution,
                want.solution
            );
        }
    }
}

#[test]
fn the_outcome_is_the_values_sign_a_move_that_keeps_it_and_a_short_solve_gives_up() {
    let mut rng = Rng::new(6);
    let mut gave_up = 0;
    for round in 0..20 {
        let game = random_position::<6>(&mut rng, 14);
        let pos = game.position();
        let value = solve(&game).value;
        let outcome = solve_position(pos, Question::Outcome, 4, u64::MAX)
            .unwrap()
            .unwrap();
        assert_eq!(outcome.value, value.signum(), "round {round}");
        match outcome.best {
            Some(at) => {
                let after = pos.play_unchecked(at);
                let mut solver = Solver::new(4, 64, Scoring::Discs).unwrap();
                let kept = -solver.exact(after, 0);
                assert_eq!(kept.signum(), value.signum(), "round {round}, move {at}");
            }
            None => assert!(value < 0 || pos.moves().is_empty(), "round {round}"),
        }
        // Ten nodes are too few for most of these: the solve then gives up rather than
        // answer wrongly.
        for question in [Question::Value, Question::Outcome] {
            match solve_position(pos, question, 4, 10).unwrap() {
                Some(short) => {
                    let full = solve_position(pos, question, 4, u64::MAX).unwrap().unwrap();
                    assert_eq!(short, full, "round {round}, {question:?}");
                }
                None => gave_up += 1,
            }
        }
    }
    assert!(gave_up > 20, "only {gave_up} short solves gave up");
}

#[test]
fn the_4x4_board_is_a_white_win_by_8() {
    let solution = solve(&Othello::<4>::new());
    assert_eq!(solution.value, -8);
    let at = solution.best.unwrap();
    let mut game = Othello::<4>::new();
    assert!(game.play(at).is_ok(), "best move {at} is legal");
    // Every first move is symmetric on the empty 4x4 board, so each must also give -8.
    let mut solver = Solver::new(4, 64, Scoring::Discs).unwrap();
    let all = solver.analyse(
        &Othello::<4>::new(),
        Asked {
            line: false,
            moves: true,
        },
    );
    assert_eq!(all.moves.len(), 4);
    assert!(all.moves.iter().all(|&(_, value)| value == -8));
}

#[test]
fn pitted_4x4_boards_match_brute_force_from_the_start() {
    for pits in [&["A1"][..], &["A1", "D4"], &["B1", "C4", "A3"]] {
        let mut game = Othello::<4>::new();
        for pit in pits {
            game.add_pit(pit.parse().unwrap()).unwrap();
        }
        assert_eq!(
            solve(&game).value,
            brute_force(&game, Scoring::Discs),
            "pits {pits:?}"
        );
    }
}
