//! The judge's speed: 1,000 generated 8x8 Othello cases judged against the binary itself with
//! the default jobs, sandboxed (`--sandbox auto`) and not (`off`), paired A B A B, with the
//! median ratio; the same cases (the same seeds) by a shell loop of `generate`, `timeout`, the
//! program and `cmp`, the hand-written way the judge replaces; then a class of 20 programs (the
//! binary, and copies of the classmate example around it that slip in presentation or in a rule)
//! on 100 cases each, as `--programs` grades it, sandboxed and not, paired, and its table.
//! Asserts only that every case is accepted and the class graded.
//!
//! `cargo bench --bench judge`; `cargo bench --bench judge -- quick` uses 200 cases and 20.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let cases = if quick { 200 } else { 1000 };
    let bin = env!("CARGO_BIN_EXE_boardgames");

    let judge = |sandbox: &str| {
        let started = Instant::now();
        let judged = Command::new(bin)
            .args(["judge", "othello", "--cases", &cases.to_string()])
            .args([
                "--format",
                "json",
                "--sandbox",
                sandbox,
                "--",
                bin,
                "othello",
            ])
            .output()
            .expect("the judge runs");
        assert!(
            judged.status.success(),
            "the judge did not accept every case"
        );
        (started.elapsed().as_secs_f64(), judged.stdout)
    };
    let (auto, off) = paired(|| judge("auto").0, || judge("off").0);
    println!("{cases} cases of 8x8 Othello, the binary judged against itself");
    for (name, times) in [("judge, sandboxed", &auto), ("judge, --sandbox off", &off)] {
        let seconds = median(times);
        println!(
            "{name:<22} {seconds:>7.3} s  {:>6.0} cases/s  ({times:.3?})",
            f64::from(cases) / seconds
        );
    }
    println!(
        "sandboxed / off: {:.2} (median of the pairs' ratios)",
        ratio(&auto, &off)
    );

    let (_, report) = judge("auto");
    let report = String::from_utf8_lossy(&report);
    let seeds: Vec<&str> = report
        .lines()
        .filter_map(|line| line.trim().strip_prefix("\"seed\": "))
        .map(|seed| seed.trim_end_matches(',').trim_matches('"'))
        .collect();
    assert_eq!(
        seeds.len(),
        cases as usize,
        "one seed per case in the report"
    );
    shell_loop(bin, &seeds, median(&auto));

    class(bin, quick);
}

/// Runs `a` and `b` in turn, A B A B A B; their times.
fn paired(a: impl Fn() -> f64, b: impl Fn() -> f64) -> (Vec<f64>, Vec<f64>) {
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        first.push(a());
        second.push(b());
    }
    (first, second)
}

fn median(times: &[f64]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The median of the pairs' ratios, `a[i] / b[i]`.
fn ratio(a: &[f64], b: &[f64]) -> f64 {
    let ratios: Vec<f64> = a.iter().zip(b).map(|(a, b)| a / b).collect();
    median(&ratios)
}

/// The same cases by a shell loop, where there is bash.
fn shell_loop(bin: &str, seeds: &[&str], judge_seconds: f64) {
    let script = format!(
        r#"set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
for seed in {seeds}; do
  "{bin}" generate othello --seed "$seed" > "$dir/in"
  timeout 5 "{bin}" othello < "$dir/in" > "$dir/expected" || true
  timeout 5 "{bin}" othello < "$dir/in" > "$dir/actual" || true
  cmp -s "$dir/expected" "$dir/actual" || failed=$((failed + 1))
done
test "$failed" -eq 0"#,
        seeds = seeds.join(" ")
    );
    let started = Instant::now();
    let Ok(looped) = Command::new("bash").args(["-c", &script]).status() else {
        println!("shell loop: skipped, no bash here");
        return;
    };
    let loop_seconds = started.elapsed().as_secs_f64();
    assert!(looped.success(), "the shell loop did not accept every case");
    println!(
        "shell loop:            {loop_seconds:>7.3} s  {:>6.0} cases/s",
        seeds.len() as f64 / loop_seconds
    );
    println!(
        "the sandboxed judge is {:.1}x faster",
        loop_seconds / judge_seconds
    );
}

/// Times `judge othello --programs` on a class of 20 programs around the binary, copies of the
/// classmate example (the same on every system) with their steps beside them, sandboxed and
/// not: a fifth play as the reference does, the others slip in presentation or in the game's
/// text. The binary's folder is readable (`--read`), since the classmates run it.
fn class(bin: &str, quick: bool) {
    let slips: [&[&str]; 5] = [
        &[],
        &["--replace", "   A B C D E F G H", "   A B C D E F G H "],
        &["--replace", "position for pit", "position of pit"],
        &["--delete", "has no valid moves"],
        &["--replace", "Player O wins!", "Player X wins!"],
    ];
    let classmate = classmate();
    let dir = std::env::temp_dir().join(format!("judge-bench-class-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for i in 0..20 {
        let name = format!("student-{i:02}");
        let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        std::fs::copy(&classmate, &path).expect("a copy of the classmate");
        let mut steps: Vec<&str> = slips[i % slips.len()].to_vec();
        steps.extend(["--", bin, "othello"]);
        std::fs::write(dir.join(format!("{name}.args")), steps.join("\n")).expect("its steps");
    }
    let cases = if quick { "20" } else { "100" };
    let folder = Path::new(bin).parent().expect("the binary's folder");
    let grade = |sandbox: &str| {
        let started = Instant::now();
        let graded = Command::new(bin)
            .args(["judge", "othello", "--cases", cases, "--sandbox", sandbox])
            .arg("--read")
            .arg(folder)
            .arg("--programs")
            .arg(&dir)
            .output()
            .expect("the judge runs");
        assert!(graded.status.success(), "the class was not graded");
        (started.elapsed().as_secs_f64(), graded.stdout)
    };
    let (auto, off) = paired(|| grade("auto").0, || grade("off").0);
    let (_, table) = grade("auto");
    let _ = std::fs::remove_dir_all(&dir);
    println!("\nclass: 20 programs x {cases} cases of 8x8 Othello");
    println!(
        "sandboxed {:.1} s, --sandbox off {:.1} s ({auto:.2?}, {off:.2?})",
        median(&auto),
        median(&off)
    );
    println!(
        "sandboxed / off: {:.2} (median of the pairs' ratios)",
        ratio(&auto, &off)
    );
    print!("{}", String::from_utf8_lossy(&table));
}

/// The classmate example, built in release by cargo (a bench does not build examples).
fn classmate() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--example", "classmate"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the classmate example did not build");
    let bin = Path::new(env!("CARGO_BIN_EXE_boardgames"));
    let examples = bin.parent().expect("the profile's folder").join("examples");
    examples.join(format!("classmate{}", std::env::consts::EXE_SUFFIX))
}
