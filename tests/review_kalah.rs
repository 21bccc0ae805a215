//! `boardgames review mancala`, as a player runs it: a game read from its transcript (refused
//! entries and undos in it) and from its pit numbers alike, values exact where the solver
//! reaches and agreeing with it, broken records refused with one `error:` line, and the page
//! drawn in a browser.

mod common;

use assert_cmd::Command;
use serde_json::Value;

fn boardgames() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("boardgames")
}

/// What `boardgames ARGS` prints for `input`, which must succeed.
fn run(args: &[&str], input: &[u8]) -> String {
    let output = boardgames().args(args).write_stdin(input).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The JSON review of `record` on Kalah (4,3).
fn review(record: &str) -> Value {
    let args = [
        "review", "mancala", "--pits", "4", "--stones", "3", "--format", "json",
    ];
    serde_json::from_str(&run(&args, record.as_bytes())).unwrap()
}

/// The pits sown, as a review read them.
fn sown(json: &Value) -> Vec<u64> {
    let turns = json["turns"].as_array().unwrap();
    turns
        .iter()
        .map(|turn| turn["pit"].as_u64().unwrap())
        .collect()
}

/// The final score line of a transcript.
fn score(transcript: &str) -> &str {
    transcript
        .lines()
        .rfind(|l| l.starts_with("Player 1: "))
        .unwrap()
}

#[test]
fn a_kalah_game_reads_the_same_from_its_transcript_with_undos_and_its_pit_numbers() {
    for seed in ["1", "3", "4"] {
        // An input with refused entries and undos, each followed by the same move again.
        let generate = [
            "generate", "mancala", "--pits", "4", "--stones", "3", "--errors",
        ];
        let input = run(&[&generate[..], &["--seed", seed]].concat(), b"");
        let play = ["mancala", "--pits", "4", "--stones", "3", "--echo"];
        let transcript = run(&play, input.as_bytes());
        assert!(
            transcript.contains("Move undone."),
            "seed {seed}: the case needs an undo"
        );
        let from_transcript = review(&transcript);
        let pits: Vec<String> = sown(&from_transcript).iter().map(u64::to_string).collect();
        assert_eq!(from_transcript, review(&pits.join(" ")), "seed {seed}");
        // The pits that stand replay to the transcript's end.
        let replayed = run(&play[..5], pits.join("\n").as_bytes());
        assert_eq!(score(&replayed), score(&transcript), "seed {seed}");
    }
    // Against the computer an undo goes back to the person's turn: the transcript says whose.
    let mut input = String::from("3 1 u\n");
    input.push_str(&"1 2 3 4 5 6\n".repeat(60));
    let play = ["mancala", "--computer", "2", "--level", "2", "--echo"];
    let transcript = run(&play, input.as_bytes());
    assert!(
        transcript.contains("Move undone."),
        "the case needs an undo"
    );
    let args = [
        "review",
        "mancala",
        "--exact-from",
        "24",
        "--format",
        "json",
    ];
    let json: Value = serde_json::from_str(&run(&args, transcript.as_bytes())).unwrap();
    let pits: Vec<String> = sown(&json).iter().map(u64::to_string).collect();
    let replayed = run(&["mancala"], pits.join("\n").as_bytes());
    assert_eq!(score(&replayed), score(&transcript));
}

#[test]
fn exact_values_agree_with_the_solver_and_a_weak_player_loses_more() {
    let solved = run(&["solve", "mancala", "--pits", "4", "--stones", "3"], b"");
    let value: i64 = solved
        .lines()
        .find_map(|line| line.strip_prefix("Player 1 minus Player 2 under perfect play: "))
        .unwrap()
        .parse()
        .unwrap();
    let mut losses = Vec::new();
    for level in ["1", "10"] {
        let mut total = 0;
        for seed in ["1", "2", "3"] {
            let play = [
                "mancala",
                "--pits",
                "4",
                "--stones",
                "3",
                "--computer",
                "both",
            ];
            let transcript = run(
                &[&play[..], &["--level", level, "--seed", seed, "--echo"]].concat(),
                b"",
            );
            let json = review(&transcript);
            let turns = json["turns"].as_array().unwrap();
            // Kalah (4,3) is exact throughout by default; the start is worth the solve's value.
            assert!(
                turns
                    .iter()
                    .all(|t| t["value"]["exact"] == true && t["best_value"]["exact"] == true)
            );
            assert_eq!(
                turns[0]["best_value"]["stones"].as_i64(),
                Some(value),
                "level {level} seed {seed}"
            );
            // Each move's value is the value of the position after it: the next move's best
            // value, for the same player or the other.
            for pair in turns.windows(2) {
                let next = pair[1]["best_value"]["stones"].as_i64().unwrap();
                let same = pair[0]["player"] == pair[1]["player"];
                let want = if same { next } else { -next };
                assert_eq!(
                    pair[0]["value"]["stones"].as_i64(),
                    Some(want),
                    "level {level} seed {seed}"
                );
            }
            let summary = &json["summary"];
            total +=
                summary["1"]["loss"].as_i64().unwrap() + summary["2"]["loss"].as_i64().unwrap();
        }
        losses.push(total);
    }
    let (weak, strong) = (losses[0], losses[1]);
    assert!(
        weak > strong && weak > 0,
        "level 1 lost {weak} stones, level 10 {strong}"
    );
}

#[test]
fn a_kalah_record_that_is_no_whole_legal_game_is_one_error_line() {
    let othello = "Player X's turn: D3\n";
    let cases: &[(&[&str], &[u8], &str)] = &[
        (&[], b"0", "move 1 (\"0\") is no pit of this board"),
        (&[], b"7", "move 1 (\"7\") is no pit of this board"),
        (&[], b"abc", "move 1 (\"abc\") is not a pit number"),
        (&[], b"-1", "move 1 (\"-1\") is not a pit number"),
        (&[], b"u", "move 1 undoes a move, but there is none"),
        (
            &["--pits", "1", "--stones", "1"],
            b"1 1",
            "move 2 comes after the end",
        ),
        (
            &["--pits", "2", "--stones", "1"],
            b"1 1 1",
            "move 3 (\"1\") sows an empty pit",
        ),
        (
            &[],
            b"3 6",
            "the game is not over after its last move (move 2)",
        ),
        (
            &[],
            othello.as_bytes(),
            "this is an Othello record, not a Kalah one",
        ),
        (&[], b"\xff\xfe\x00", "is not a pit number"),
        (&[], b"", "no moves to review"),
    ];
    for (flags, input, message) in cases {
        let output = boardgames()
            .args(["review", "mancala"])
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
        assert_eq!(output.status.code(), Some(1), "{what}: {stderr}");
        assert!(stderr.contains(message), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.starts_with("error: "), "{what}: {stderr}");
    }
}

#[test]
fn a_friendly_kalah_game_ends_with_the_review_command_of_that_game() {
    let play = [
        "mancala",
        "--pits",
        "4",
        "--stones",
        "3",
        "--computer",
        "2",
        "--friendly",
    ];
    let game = run(&play, "1 2 3 u 4 ".repeat(30).as_bytes());
    let line = game.lines().last().unwrap();
    let (_, command) = line.split_once(": echo ").unwrap();
    let (pits, review) = command.split_once(" | boardgames ").unwrap();
    assert_eq!(review, "review mancala --pits 4 --stones 3");
    let reviewed = run(&review.split(' ').collect::<Vec<_>>(), pits.as_bytes());
    let (first, second) = score(&game)
        .trim_start_matches("Player 1: ")
        .split_once(", Player 2: ")
        .unwrap();
    assert!(
        reviewed.ends_with(&format!("Result: Player 1 {first}, Player 2 {second}.\n")),
        "{reviewed}"
    );
}

#[test]
fn the_kalah_review_page_draws_the_chart_and_the_worst_moves_boards() {
    let play = [
        "mancala",
        "--pits",
        "4",
        "--stones",
        "3",
        "--computer",
        "both",
        "--level",
        "3",
    ];
    let transcript = run(&[&play[..], &["--seed", "2", "--echo"]].concat(), b"");
    let args = [
        "review", "mancala", "--pits", "4", "--stones", "3", "--format", "html",
    ];
    let page = run(&args, transcript.as_bytes());
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
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-kalah-page.png");
    let count = common::screenshot_counts(&browser, &url, &shot);
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
    assert!(green > 2000 && red > 100 && blue > 100 && purple > 300);
}
