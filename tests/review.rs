//! `boardgames review`, as a player runs it: one game read in every form a player has, broken
//! records refused with one `error:` line, and reviews that tell a weak player from a strong
//! one.

mod common;

use assert_cmd::Command;

fn boardgames() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("boardgames")
}

/// What `boardgames ARGS` prints for `input`, which must succeed.
fn run(args: &[&str], input: &[u8]) -> String {
    let output = boardgames().args(args).write_stdin(input).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The input of a 6x6 game of `level` against itself, and its `--echo` transcript.
fn game(level: &str, seed: &str) -> (String, String) {
    let play = [
        "othello",
        "--size",
        "6",
        "--computer",
        "both",
        "--level",
        level,
    ];
    let transcript = run(&[&play[..], &["--seed", seed, "--echo"]].concat(), b"0\n");
    // The moves as typed, from the transcript's prompts.
    let moves: Vec<&str> = transcript
        .lines()
        .filter_map(|line| line.split_once("'s turn: ").map(|(_, at)| at))
        .collect();
    (format!("0\n{}\n", moves.join("\n")), transcript)
}

#[test]
fn a_game_reads_the_same_from_its_transcript_its_input_and_its_move_list() {
    let (input, transcript) = game("10", "3");
    let list = input.strip_prefix("0\n").unwrap().replace('\n', " ");
    let review = ["review", "othello", "--size", "6", "--format", "json"];
    let from_input = run(&review, input.as_bytes());
    assert_eq!(run(&review, transcript.as_bytes()), from_input);
    assert_eq!(run(&review, list.as_bytes()), from_input);
    let json: serde_json::Value = serde_json::from_str(&from_input).unwrap();
    let turns = json["turns"].as_array().unwrap();
    let moves = turns
        .iter()
        .filter(|turn| turn.get("move").is_some())
        .count();
    assert_eq!(moves, list.split_whitespace().count());
    // From 20 empty cells on, every value is exact; before, an estimate.
    for turn in turns.iter().filter(|turn| turn.get("move").is_some()) {
        let number = turn["number"].as_u64().unwrap();
        let exact = turn["value"]["exact"].as_bool().unwrap();
        assert_eq!(exact, number > 12, "move {number}: 32 cells less 12 moves");
        assert!(turn["loss"].as_i64().unwrap() >= 0, "move {number}");
        if !exact {
            continue;
        }
        // Exact values are the solver's, move by move.
        let position = turn["position"].as_str().unwrap();
        let solved = run(
            &["solve", "othello", "--position", position, "--all-moves"],
            b"",
        );
        let every: Vec<&str> = solved
            .lines()
            .find_map(|line| line.strip_prefix("Every move: "))
            .unwrap()
            .split_whitespace()
            .collect();
        let value_of = |cell: &str| -> i64 {
            let i = every.iter().position(|&word| word == cell).unwrap();
            every[i + 1].parse().unwrap()
        };
        let played = turn["move"].as_str().unwrap();
        assert_eq!(turn["value"]["discs"].as_i64().unwrap(), value_of(played));
        let best = turn["best"].as_str().unwrap();
        assert_eq!(
            turn["best_value"]["discs"].as_i64().unwrap(),
            value_of(best)
        );
    }
}

#[test]
fn a_game_played_with_hints_reads_as_the_game_without_them() {
    // The same game with a hint asked for before each move, as input and as transcript.
    let (input, _) = game("10", "3");
    let mut lines = input.lines();
    let mut hinted = format!("{}\n", lines.next().unwrap());
    for at in lines {
        hinted.push_str(&format!("?\n{at}\n"));
    }
    let transcript = run(
        &["othello", "--size", "6", "--hints", "--echo"],
        hinted.as_bytes(),
    );
    assert!(transcript.contains("Hint: "), "{transcript}");
    let review = ["review", "othello", "--size", "6", "--format", "json"];
    let plain = run(&review, input.as_bytes());
    assert_eq!(run(&review, hinted.as_bytes()), plain);
    assert_eq!(run(&review, transcript.as_bytes()), plain);
}

#[test]
fn a_weak_player_loses_more_than_a_strong_one_on_the_same_openings() {
    let loss = |level: &str| -> i64 {
        (1..=3)
            .map(|seed| {
                let (input, _) = game(level, &seed.to_string());
                let review = ["review", "othello", "--size", "6", "--format", "json"];
                let json: serde_json::Value =
                    serde_json::from_str(&run(&review, input.as_bytes())).unwrap();
                json["summary"]["X"]["loss"].as_i64().unwrap()
                    + json["summary"]["O"]["loss"].as_i64().unwrap()
            })
            .sum()
    };
    let (weak, strong) = (loss("1"), loss("10"));
    assert!(
        weak > 2 * strong,
        "level 1 lost {weak} discs, level 10 {strong}"
    );
}

#[test]
fn a_record_that_is_no_whole_legal_game_is_one_error_line() {
    let kalah = "Player 1, choose a pit (1-6, u = undo): 3\n";
    let cases: &[(&[&str], &[u8], &str)] = &[
        (&[], b"D3", "move 1 (\"D3\") flips no discs"),
        (&[], b"D6 D6", "move 2 (\"D6\") is on a disc or a pit"),
        (&[], b"D6 C4 Z9", "move 3 (\"Z9\") is off the board"),
        (&[], b"D6 C4 zz", "move 3 (\"zz\") is not a cell"),
        (&[], b"D6 C4 D 3", "move 3 (\"D\") is not a cell"),
        (
            &[],
            b"D6 C4 F3",
            "the game is not over after its last move (move 3)",
        ),
        (&[], b"", "no moves to review"),
        (&[], b" \r\n\t", "no moves to review"),
        (&[], b"40 A1", "\"40\" is not a pit count this board takes"),
        (&[], b"2 A1", "the record ends before the game's first move"),
        (&[], b"1 D4 D6", "pit 1 (\"D4\") is a centre cell"),
        (&[], b"2 A1 A1", "pit 2 (\"A1\") is already a pit"),
        (&[], b"1 A9", "pit 1 (\"A9\") is off the board"),
        (&[], b"1 ??", "pit 1 (\"??\") is not a cell"),
        (
            &[],
            kalah.as_bytes(),
            "this is a Kalah record, not an Othello one",
        ),
        (
            &[],
            b"Enter number of pits: Round 1:\n",
            "the transcript shows no answers",
        ),
        (&[], b"\xff\xfe\x00\x01", "move 1 ("),
        (
            &["--size", "4"],
            b"A3 C4 D2 A2 B4 A4 D3 D4 C1 B1 A1 D1 A4",
            "move 13 comes after",
        ),
        (
            &["--size", "4"],
            b"A3 C4 D2",
            "the game is not over after its last move (move 3)",
        ),
        (&["--size", "5"], b"A1", "invalid value '5'"),
    ];
    for (flags, input, message) in cases {
        let output = boardgames()
            .args(["review", "othello"])
            .args(*flags)
            .write_stdin(*input)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let what = format!("{:?} {flags:?}", String::from_utf8_lossy(input));
        assert!(
            output.stdout.is_empty(),
            "{what}: printed {:?}",
            output.stdout
        );
        assert!(stderr.contains(message), "{what}: {stderr}");
        if flags.len() == 2 && flags[1] == "5" {
            assert_eq!(output.status.code(), Some(2), "{what}: a usage error");
            continue;
        }
        assert_eq!(output.status.code(), Some(1), "{what}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.starts_with("error: "), "{what}: {stderr}");
    }
}

#[test]
fn a_friendly_game_ends_with_the_review_command_of_that_game() {
    let play = ["othello", "--size", "6", "--computer", "both", "--friendly"];
    let game = run(&play, b"2 A1 F6\n");
    let line = game.lines().last().unwrap();
    let (_, command) = line.split_once(": echo ").unwrap();
    let (tokens, review) = command.split_once(" | boardgames ").unwrap();
    assert!(tokens.starts_with("2 A1 F6 "), "{line}");
    assert_eq!(review, "review othello --size 6");
    let reviewed = run(&review.split(' ').collect::<Vec<_>>(), tokens.as_bytes());
    assert!(reviewed.ends_with(&format!("Result: X {}.\n", {
        let score = game
            .lines()
            .find_map(|l| l.strip_prefix("Final score: X "))
            .unwrap();
        score.trim_end_matches('.').to_string()
    })));
    // Without --friendly the course's bytes end the game, and nothing after them.
    let plain = run(&play[..5], b"2 A1 F6\n");
    assert!(!plain.contains("boardgames review"));
}

#[test]
fn the_review_page_draws_the_chart_and_the_worst_moves_boards() {
    let (input, _) = game("7", "2");
    let page = run(
        &["review", "othello", "--size", "6", "--format", "html"],
        input.as_bytes(),
    );
    // Self-contained: nothing fetched from anywhere.
    for outside in ["http:", "https:", "<link", " src=", "<script"] {
        assert!(!page.contains(outside), "{outside}");
    }
    let mistakes = page.matches("<section class=\"mistake\">").count();
    assert!((1..=6).contains(&mistakes), "{mistakes} boards");
    assert_eq!(page.matches("<polyline").count(), 1);
    assert_eq!(page.matches("class=\"played\"").count(), mistakes);
    assert_eq!(page.matches("class=\"best\"").count(), mistakes);
    let Some(browser) = common::browser() else {
        println!("not opened in a browser: no Chromium or Chrome here (set BOARDGAMES_BROWSER)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("review.html");
    std::fs::write(&file, &page).unwrap();
    let url = common::file_url(&std::path::absolute(&file).unwrap());
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-page.png");
    let count = common::screenshot_counts(&browser, &url, &shot);
    // The boards' green, the played cells' red, the best cells' blue, the chart's purple.
    let (green, red, blue, purple) = (
        count([0x2e, 0x7d, 0x32]),
        count([0xe5, 0x39, 0x35]),
        count([0x1e, 0x88, 0xe5]),
        count([0x6a, 0x1b, 0x9a]),
    );
    println!(
        "screenshot {}: {green} board, {red} played, {blue} best, {purple} chart pixels",
        shot.display()
    );
    assert!(green > 5000 && red > 100 && blue > 100 && purple > 300);
}

#[test]
fn a_transcript_with_refused_entries_reads_as_the_game_the_console_played() {
    // A game input with wrong entries, each followed by the right one, and its transcript.
    let generate = [
        "generate", "othello", "--size", "6", "--seed", "1", "--errors",
    ];
    let input = run(&generate, b"");
    let transcript = run(&["othello", "--size", "6", "--echo"], input.as_bytes());
    assert!(
        transcript.contains("Invalid move!"),
        "the case needs a refused move"
    );
    let review = ["review", "othello", "--size", "6", "--format", "json"];
    let json: serde_json::Value =
        serde_json::from_str(&run(&review, transcript.as_bytes())).unwrap();
    let played =
        transcript.matches("'s turn: ").count() - transcript.matches("Invalid move!").count();
    let moves = json["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|turn| turn.get("move").is_some())
        .count();
    assert_eq!(moves, played);
}
