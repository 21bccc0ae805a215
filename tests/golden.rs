//! Replays every transcript under `tests/golden/` (any game, any depth of folders) against the
//! built binary: standard output must match `STEM.out` byte for byte, and the exit code must be
//! `STEM.code` (0 when absent).

use std::fs;
use std::path::{Path, PathBuf};

fn cases(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            cases(&path, found);
        } else if path.extension().is_some_and(|e| e == "args") {
            found.push(path.with_extension(""));
        }
    }
}

fn with_ext(stem: &Path, ext: &str) -> PathBuf {
    let mut name = stem.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

#[test]
fn golden_transcripts_match_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut stems = Vec::new();
    cases(&root, &mut stems);
    stems.sort();
    assert!(stems.len() >= 8, "only {} golden cases found", stems.len());

    let mut failures = Vec::new();
    for stem in &stems {
        let args = fs::read_to_string(with_ext(stem, "args")).unwrap();
        assert!(
            !args.contains(['"', '\'', '\\']),
            "{}: quoted args",
            stem.display()
        );
        let input = fs::read(with_ext(stem, "in")).unwrap();
        let want = fs::read(with_ext(stem, "out")).unwrap();
        let want_code = fs::read_to_string(with_ext(stem, "code"))
            .map_or(0, |code| code.trim().parse().unwrap());

        let run = assert_cmd::cargo::cargo_bin_cmd!("boardgames")
            .args(args.split_whitespace())
            .write_stdin(input)
            .output()
            .unwrap();
        let name = stem.strip_prefix(&root).unwrap().display();
        if run.stdout != want {
            let line = run
                .stdout
                .split(|&b| b == b'\n')
                .zip(want.split(|&b| b == b'\n'))
                .position(|(got, want)| got != want)
                .map_or("the end".to_string(), |i| format!("line {}", i + 1));
            failures.push(format!("{name}: stdout differs at {line}"));
        }
        if run.status.code() != Some(want_code) {
            failures.push(format!(
                "{name}: exit {:?}, want {want_code}",
                run.status.code()
            ));
        }
        if String::from_utf8_lossy(&run.stderr).contains("panicked") {
            failures.push(format!("{name}: panicked"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        stems.len(),
        failures.join("\n")
    );
}
