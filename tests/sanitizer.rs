//! A 2020-style submission whose line walk reads past the board (`tests/sanitized/eda.cpp`),
//! built by the judge with AddressSanitizer as a course would (`-g -fsanitize=address`) and
//! judged with the default limits: it runs (the judge limits what a run uses, not the address
//! space ASan reserves), and every failing case names the sanitizer's kind and the student's
//! line, in the text and the HTML reports. It needs g++ with ASan's runtime and a POSIX shell;
//! where either is missing, the test says so in one line and checks nothing.

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin_cmd;

/// The recipe: the side set in the source, then compiled with the sanitizer.
const RECIPE: &str = r#"sed -i.orig "s/const int N = [0-9]*;/const int N = $SIZE;/" *.cpp; g++ -g -fsanitize=address -o "$OUT" *.cpp"#;

/// What the test names the crash by.
const NAMED: &str =
    "AddressSanitizer global-buffer-overflow in line(char, int, int, int, int) at eda.cpp:28";

/// Why the test cannot run here, if it cannot: g++ must link a sanitized program.
fn missing(dir: &Path) -> Option<&'static str> {
    if cfg!(windows) {
        return Some("the recipe is for a POSIX shell, and Windows runs cmd");
    }
    let probe = dir.join("probe.cpp");
    std::fs::write(&probe, "int main() { return 0; }\n").unwrap();
    let linked = Command::new("g++")
        .args(["-fsanitize=address", "-o"])
        .arg(dir.join("probe"))
        .arg(&probe)
        .output();
    (!linked.is_ok_and(|out| out.status.success()))
        .then_some("no g++ with AddressSanitizer's runtime on this machine")
}

#[test]
fn a_sanitized_build_runs_and_each_case_names_the_error_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    if let Some(why) = missing(dir.path()) {
        println!("not run: {why}");
        return;
    }
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("eda")).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sanitized/eda.cpp");
    std::fs::copy(source, class.join("eda/eda.cpp")).unwrap();
    let saved = dir.path().join("saved");
    let out = cargo_bin_cmd!("boardgames")
        .args([
            "judge",
            "othello",
            "--size",
            "6",
            "--cases",
            "20",
            "--programs",
        ])
        .arg(&class)
        .args(["--build", RECIPE, "--build-cache"])
        .arg(dir.path().join("cache"))
        .arg("--save")
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(saved.join("eda/report.txt")).unwrap();
    let failed = text.lines().filter(|l| l.starts_with("case ")).count();
    assert_eq!(failed, 20, "{text}");
    for line in text.lines().filter(|l| l.starts_with("case ")) {
        assert!(line.contains(NAMED), "{line}");
    }
    // The game's context stays beside it.
    assert!(text.contains("the output stops after token"), "{text}");
    let html = std::fs::read_to_string(saved.join("eda/report.html")).unwrap();
    assert!(html.contains(NAMED), "{html}");
}
