//! `judge --programs DIR --build CMD`: a class of C++ sources in the assignment's styles
//! (`tests/sources/`: the 2020 single file with `const int N`, the 2022 three files with
//! `reversi.h`, one with `void main()`, one that loops, one correct) built and judged at three
//! sizes in one command, against the same programs built by hand and judged a size at a time.
//! They need g++ and a POSIX shell (the README's recipe is `sed` and `g++`): where either is
//! missing, each test says so in one line and checks nothing.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// The README's recipe for both editions: the side set in whichever file holds it, then every
/// C++ file compiled into `$OUT`. `-i.orig` is the form GNU and BSD sed both read.
const RECIPE: &str = r#"sed -i.orig "s/const int N = [0-9]*;/const int N = $SIZE;/" *.h *.cpp 2>/dev/null; g++ -O2 -o "$OUT" *.cpp"#;

const SIZES: [usize; 3] = [4, 6, 8];

/// Why these tests cannot run here, if they cannot.
fn missing() -> Option<&'static str> {
    if cfg!(windows) {
        return Some("the recipe is for a POSIX shell, and Windows runs cmd");
    }
    let gxx = Command::new("g++").arg("--version").output();
    (!gxx.is_ok_and(|out| out.status.success())).then_some("no g++ on this machine")
}

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("sources")
}

/// `boardgames judge othello --cases 20 ARGS`: exit code, standard output and error.
fn judge(args: &[&str]) -> (i32, String, String) {
    common::outcome(
        cargo_bin_cmd!("boardgames")
            .args(["judge", "othello", "--cases", "20"])
            .args(args)
            .output()
            .unwrap(),
    )
}

/// The class's rows by submission, from a JSON class report.
fn rows(json: &str) -> BTreeMap<String, Value> {
    let report: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["submission"].as_str().unwrap().to_string(), row.clone()))
        .collect()
}

/// `submission` built by hand at `side` into `dir`, as a teaching assistant would: the
/// constant rewritten in a copy, then g++.
fn build_by_hand(submission: &Path, side: usize, dir: &Path) -> PathBuf {
    let name = submission.file_stem().unwrap().to_str().unwrap();
    let copy = dir.join(format!("{name}-src-{side}"));
    std::fs::create_dir_all(&copy).unwrap();
    let files: Vec<PathBuf> = if submission.is_dir() {
        std::fs::read_dir(submission)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    } else {
        vec![submission.to_path_buf()]
    };
    let mut units = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let text = text.replace("const int N = 8;", &format!("const int N = {side};"));
        let to = copy.join(file.file_name().unwrap());
        std::fs::write(&to, text).unwrap();
        if to.extension().is_some_and(|e| e == "cpp") {
            units.push(to);
        }
    }
    let program = dir.join(format!("{side}")).join(name);
    std::fs::create_dir_all(program.parent().unwrap()).unwrap();
    let status = Command::new("g++")
        .arg("-O2")
        .arg("-o")
        .arg(&program)
        .args(&units)
        .status()
        .unwrap();
    assert!(status.success(), "g++ builds {name} at {side}");
    program
}

/// Adds the counts of `from` (a JSON object of counts) into `into`.
fn add_counts(into: &mut BTreeMap<String, u64>, from: &Value) {
    for (key, n) in from.as_object().unwrap() {
        *into.entry(key.clone()).or_default() += n.as_u64().unwrap();
    }
}

#[test]
fn a_class_of_sources_is_built_and_judged_at_three_sizes_as_by_hand() {
    if let Some(why) = missing() {
        println!("not run: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let class = sources();
    let args = [
        "--size",
        "4,6,8",
        "--programs",
        class.to_str().unwrap(),
        "--build",
        RECIPE,
        "--build-cache",
        cache.to_str().unwrap(),
        "--format",
        "json",
    ];
    let (code, json, stderr) = judge(&args);
    // A compile error is a verdict like the others: the class was judged.
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("builds: 12 made, 0 from the cache"),
        "{stderr}"
    );
    let built = rows(&json);
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        ["ana", "bea", "cole", "dana"]
    );

    // cole's `void main()`: a compile error on each of its 60 cases, with g++'s words.
    let cole = &built["cole"];
    assert_eq!(cole["verdicts"]["compile error"], 60, "{cole}");
    assert_eq!(cole["score"], 0.0);
    let note = cole["note"].as_str().unwrap();
    assert!(
        note.contains("compile error") && note.contains("main"),
        "{note}"
    );
    assert!(note.contains("must return 'int'"), "{note}");

    // The others: at each size, the score, verdicts and rule ids of the program built by hand.
    let hand = dir.path().join("by-hand");
    for name in ["ana", "bea", "dana"] {
        let submission = ["cpp", ""]
            .iter()
            .map(|e| class.join(name).with_extension(e))
            .find(|p| p.exists())
            .unwrap();
        let row = &built[name];
        let (mut verdicts, mut rules) = (BTreeMap::new(), BTreeMap::new());
        for (i, side) in SIZES.into_iter().enumerate() {
            let program = build_by_hand(&submission, side, &hand);
            let folder = program.parent().unwrap().to_str().unwrap().to_string();
            let size = side.to_string();
            let (_, json, _) = judge(&["--size", &size, "--programs", &folder, "--format", "json"]);
            let alone = &rows(&json)[name];
            let board = &row["boards"][i];
            assert_eq!(board["board"], format!("{side}x{side}"), "{row}");
            assert_eq!(
                board["score"], alone["score"],
                "{name} at {side}: {row} {alone}"
            );
            assert_eq!(board["cases"], 20);
            add_counts(&mut verdicts, &alone["verdicts"]);
            add_counts(&mut rules, &alone["rules"]);
        }
        let counts = |v: &Value| {
            let mut c = BTreeMap::new();
            add_counts(&mut c, v);
            c
        };
        assert_eq!(counts(&row["verdicts"]), verdicts, "{name}");
        assert_eq!(counts(&row["rules"]), rules, "{name}");
    }
    // What each program is: correct, caught passing wrongly, looping.
    assert_eq!(built["bea"]["score"], 60.0);
    let rule = |name: &str, id: &str| built[name]["rules"][id].as_u64().unwrap_or(0);
    assert!(rule("ana", "pass-missing") > 0, "{}", built["ana"]);
    assert!(rule("dana", "passes-continue") > 0, "{}", built["dana"]);
    assert!(built["dana"]["verdicts"]["output limit"].as_u64() > Some(0));

    // Again, nothing changed: nothing is rebuilt, and the report is the same.
    let (_, again, stderr) = judge(&args);
    assert!(
        stderr.contains("builds: 0 made, 12 from the cache"),
        "{stderr}"
    );
    assert_eq!(rows(&again), built);
}

#[test]
fn a_build_sees_its_board_and_its_output_and_writes_nowhere_else() {
    if let Some(why) = missing() {
        println!("not run: {why}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(sources().join("ana.cpp"), class.join("ana.cpp")).unwrap();
    let outside = dir.path().join("outside.txt");
    // The build tries to write beside the class, then fails: a compile error that shows
    // what it saw, and the source folder left as it was.
    let command = format!(
        "echo \"side $SIZE\"; echo x > {}; test -n \"$OUT\" && exit 3",
        outside.display()
    );
    let (code, table, _) = judge(&[
        "--size",
        "6",
        "--programs",
        class.to_str().unwrap(),
        "--build",
        &command,
        "--build-cache",
        dir.path().join("cache").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{table}");
    let row = table.lines().find(|l| l.starts_with("ana")).unwrap();
    assert!(row.contains("compile error: side 6"), "{table}");
    // Where the sandbox holds files (Linux with Landlock), nothing was written outside.
    let sealing = table.lines().find(|l| l.starts_with("Sealing: ")).unwrap();
    if sealing.contains("files (Landlock") {
        assert!(!outside.exists(), "the build wrote outside its copy");
    } else {
        println!("not checked: this system's sandbox does not hold files ({sealing})");
    }
    let left: Vec<_> = std::fs::read_dir(&class).unwrap().collect();
    assert_eq!(left.len(), 1, "the submission's folder is untouched");
}
