//! A class judged as one (`judge --programs DIR`): the table, its shards and their merge, the
//! saved reports of each submission and the HTML page, opened in a real browser where one is
//! installed. The submissions are copies of the classmate example running the student
//! (`examples/student.rs`) with slips switched on, so that the class runs on every system.

mod common;

use std::path::PathBuf;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// The student program, built by `cargo test` beside the tests.
fn student() -> PathBuf {
    common::example("student")
}

/// A class folder: submissions that run the student with their slips (copies of the classmate
/// example with their arguments beside them, so that they run on every system), one folder
/// submission, one folder without a program, and a file that is no submission.
fn class(dir: &std::path::Path) -> std::path::PathBuf {
    let class = dir.join("class");
    let student = student();
    let submission = |dir: std::path::PathBuf, name: &str, slips: &[&str]| {
        std::fs::create_dir_all(&dir).unwrap();
        let mut steps = vec!["--", student.to_str().unwrap(), "othello", "--size", "6"];
        steps.extend_from_slice(slips);
        common::classmate_named(&dir, name, &steps);
    };
    submission(class.clone(), "alice", &[]);
    submission(class.clone(), "bob", &["flip-wraps-edge", "whitespace"]);
    submission(class.clone(), "carol", &["prompt-wording"]);
    submission(class.clone(), "dave", &["pass-missing"]);
    submission(class.join("erin"), "run", &["full-board-continues"]);
    std::fs::create_dir_all(class.join("frank")).unwrap();
    std::fs::write(class.join("frank").join("notes.txt"), "no program").unwrap();
    std::fs::write(class.join("grades.txt"), "not a submission").unwrap();
    class
}

/// `boardgames judge othello --size 6 ARGS`: exit code and standard output.
fn judge_class(args: &[&str]) -> (i32, String) {
    // The submissions run the student from its own folder, which they may read.
    let out = Command::new(cargo_bin("boardgames"))
        .args(["judge", "othello", "--size", "6", "--cases", "30"])
        .arg("--read")
        .arg(student().parent().unwrap())
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_class_is_judged_into_one_table_and_shards_cover_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let class = class.to_str().unwrap();
    let (code, table) = judge_class(&["--programs", class]);
    // A submission that cannot be run is a row of its own and exit 1; the others are graded.
    assert_eq!(code, 1, "{table}");
    // The rows, between the heading and the blank line before the sealing.
    let names: Vec<&str> = table
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(table.contains("\n\nSealing: "), "{table}");
    assert_eq!(names.len(), 6, "{table}");
    assert_eq!(names[0], "alice", "best first: {table}");
    assert_eq!(*names.last().unwrap(), "frank", "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    assert!(row("alice").contains("100.0%"), "{table}");
    assert!(row("bob").contains("flip-wraps-edge"), "{table}");
    assert!(row("bob").contains("whitespace"), "{table}");
    assert!(row("carol").contains("  0.0%") && row("carol").contains("prompt-wording 30"));
    assert!(row("erin").contains("full-board-continues"), "{table}");
    assert!(row("frank").contains("cannot run: no executable in its folder"));

    let (_, csv) = judge_class(&["--programs", class, "--format", "csv"]);
    let heading: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(heading[..4], ["submission", "score", "cases", "accepted"]);
    assert!(heading.contains(&"flip-wraps-edge") && heading.last() == Some(&"note"));
    let mut seen: Vec<String> = Vec::new();
    for shard in ["1/2", "2/2"] {
        let (_, part) = judge_class(&["--programs", class, "--format", "csv", "--shard", shard]);
        for line in part.lines().skip(1) {
            assert_eq!(line.split(',').count(), heading.len(), "{line}");
            seen.push(line.split(',').next().unwrap().to_string());
        }
    }
    seen.sort();
    assert_eq!(seen, ["alice", "bob", "carol", "dave", "erin", "frank"]);
}

/// `boardgames judge merge FILES --format FORMAT`: exit code, standard output and error.
fn merge(files: &[std::path::PathBuf], format: &str) -> (i32, String, String) {
    common::outcome(
        Command::new(cargo_bin("boardgames"))
            .args(["judge", "merge", "--format", format])
            .args(files)
            .output()
            .unwrap(),
    )
}

#[test]
fn shards_merge_into_the_table_of_one_run_and_others_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let class = class.to_str().unwrap();
    let shard = |k: usize, extra: &[&str]| {
        let mut args = vec!["--programs", class, "--format", "json"];
        let which = format!("{k}/3");
        args.extend(["--shard", &which]);
        args.extend_from_slice(extra);
        let path = dir.path().join(format!("shard-{k}{}.json", extra.join("")));
        std::fs::write(&path, judge_class(&args).1).unwrap();
        path
    };
    let shards: Vec<_> = (1..=3).map(|k| shard(k, &[])).collect();
    for format in ["text", "csv", "json", "html"] {
        let (_, whole) = judge_class(&["--programs", class, "--format", format]);
        let (code, merged, stderr) = merge(&shards, format);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(merged, whole, "{format}");
    }

    // A missing shard, a shard twice, another judging, another version: each named.
    let refused = |files: &[std::path::PathBuf]| {
        let (code, out, stderr) = merge(files, "text");
        assert_eq!((code, out.as_str()), (2, ""), "{stderr}");
        stderr
    };
    let some = [shards[0].clone(), shards[2].clone()];
    assert_eq!(refused(&some), "error: 1 of 3 missing: 2/3\n");
    let twice = [shards[0].clone(), shards[0].clone(), shards[1].clone()];
    assert!(refused(&twice).starts_with("error: shard 1/3 twice: "));
    let other = [
        shards[0].clone(),
        shard(2, &["--seed", "7"]),
        shards[2].clone(),
    ];
    let said = refused(&other);
    assert!(said.contains("cases.seed is \"7\" in 2/3"), "{said}");
    assert!(said.contains("but \"1\" in 1/3"), "{said}");
    let older = dir.path().join("older.json");
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    let version = format!("\"boardgames\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version), "{text}");
    std::fs::write(&older, text.replace(&version, "\"boardgames\": \"0.0.1\"")).unwrap();
    let said = refused(&[shards[0].clone(), older, shards[2].clone()]);
    assert!(said.contains("boardgames is \"0.0.1\""), "{said}");
    // A submission in two shards: a class that changed between the jobs.
    let moved = dir.path().join("moved.json");
    let one: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shards[0]).unwrap()).unwrap();
    let mut two: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shards[1]).unwrap()).unwrap();
    two["submissions"]
        .as_array_mut()
        .unwrap()
        .push(one["submissions"][0].clone());
    std::fs::write(&moved, two.to_string()).unwrap();
    let said = refused(&[shards[0].clone(), moved, shards[2].clone()]);
    assert!(said.starts_with("error: submission "), "{said}");
    assert!(said.contains(" twice: in 1/3 "), "{said}");
}

#[test]
fn a_class_saves_each_submission_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let save = dir.path().join("saved");
    let (_, _) = judge_class(&[
        "--programs",
        class.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
        "--points",
        "60",
        "--visibility",
        "after-due-date",
        "--pe-credit",
        "0.5",
    ]);
    for file in [
        "report.txt",
        "report.json",
        "junit.xml",
        "results.json",
        "report.html",
    ] {
        assert!(save.join("bob").join(file).exists(), "bob/{file}");
    }
    // Gradescope: the points spread over the cases, a presentation error at half credit,
    // and no path of the grader's machine in what students read.
    let results = std::fs::read_to_string(save.join("carol").join("results.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(results["score"], 30.0);
    assert_eq!(results["visibility"], "after_due_date");
    for test in results["tests"].as_array().unwrap() {
        assert_eq!(test["max_score"], 2.0);
        let output = test["output"].as_str().unwrap();
        assert!(!output.contains(dir.path().to_str().unwrap()), "{output}");
    }
    // JSON seeds are strings; JUnit testcases have a class name; the saved command replays
    // the case from the folder it is in, whatever the folder the grader stands in.
    let json = std::fs::read_to_string(save.join("bob").join("report.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json["cases"][0]["seed"].is_string(), "{}", json["cases"][0]);
    let junit = std::fs::read_to_string(save.join("bob").join("junit.xml")).unwrap();
    assert!(
        junit.contains("classname=\"judge.othello.size-6\""),
        "{junit}"
    );
    let cmd = std::fs::read_dir(save.join("carol"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cmd"))
        .unwrap();
    let replayed = replay(&cmd)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(
        replayed.stdout,
        std::fs::read(cmd.with_extension("actual")).unwrap()
    );
}

/// The command that runs a saved replay script: `sh` on Unix, `cmd` on Windows.
fn replay(script: &std::path::Path) -> Command {
    #[cfg(unix)]
    let mut command = Command::new("sh");
    #[cfg(windows)]
    let mut command = {
        let mut command = Command::new("cmd");
        command.arg("/c");
        command
    };
    command.arg(script);
    command
}

/// The submissions in the class table's rows, in the order the page has them.
fn table_order(page: &str) -> Vec<String> {
    let body = &page[page.find("<tbody>").unwrap()..page.find("</tbody>").unwrap()];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let link = &row[row.find("<a href=").unwrap()..];
            let name = &link[link.find("\">").unwrap() + 2..];
            name[..name.find('<').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn the_class_page_is_one_file_that_a_browser_draws_with_its_boards() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let (_, page) = judge_class(&["--programs", class.to_str().unwrap(), "--format", "html"]);
    // Self-contained: nothing fetched from anywhere.
    for outside in ["http:", "https:", "<link", " src=", "@import"] {
        assert!(!page.contains(outside), "{outside}");
    }
    let order = table_order(&page);
    assert_eq!(order.len(), 6, "{order:?}");
    assert_eq!(order[0], "alice", "best first");
    // bob's flip-wraps-edge: the three boards of its shortest case, the differing cells marked,
    // the played cell on the board before, the token and the replay command.
    let bob = &page[page
        .find("<section class=\"submission\" id=\"s-bob\">")
        .unwrap()..];
    let bob = &bob[..bob.find("</section>").unwrap()];
    assert!(bob.contains("flip-wraps-edge"), "{bob}");
    let article = &bob[bob.find("flip-wraps-edge <span").unwrap()..];
    for part in [
        "board before",
        "expected",
        "actual",
        " differs\"",
        " played\"",
        "replay: ",
    ] {
        assert!(article.contains(part), "{part}: {article}");
    }
    assert!(article.contains("after token "), "{article}");

    let Some(browser) = common::browser() else {
        println!("not opened in a browser: no Chromium or Chrome here (set BOARDGAMES_BROWSER)");
        return;
    };
    let file = dir.path().join("class.html");
    std::fs::write(&file, &page).unwrap();
    let path = std::path::absolute(&file).unwrap();
    let url = common::file_url(&path);
    // The script ran: the table sorted by the column the link names.
    let sorted = table_order(&common::headless(
        &browser,
        &format!("{url}#sort=submission"),
        "--dump-dom",
    ));
    let mut by_name = order.clone();
    by_name.sort();
    assert_ne!(
        order, by_name,
        "the test needs an order other than the names'"
    );
    assert_eq!(sorted, by_name);
    // Drawn: the boards' green, the differing cells' red, the played cell's yellow.
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("class-page.png");
    let count = common::screenshot_counts(&browser, &url, &shot);
    let (green, red, yellow) = (
        count([0x2e, 0x7d, 0x32]),
        count([0xe5, 0x39, 0x35]),
        count([0xfd, 0xd8, 0x35]),
    );
    println!(
        "screenshot {}: {green} board, {red} differing, {yellow} played pixels",
        shot.display()
    );
    assert!(green > 5000 && red > 200 && yellow > 50);
}
