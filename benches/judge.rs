//! The judge's speed, against the hand-written way it replaces: 1,000 generated 8x8 Othello
//! cases judged against the binary itself with the default jobs, then the same cases (the same
//! seeds) by a shell loop of `generate`, `timeout`, the program and `cmp`. Prints both times,
//! the cases per second and the ratio; asserts only that both ways accept every case. Then a
//! class of 20 programs (the binary, and copies that slip in presentation or in a rule) on 100
//! cases each, as `--programs` grades it: its time, and its table.
//!
//! `cargo bench --bench judge`; `cargo bench --bench judge -- quick` uses 200 cases.

use std::process::Command;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let cases = if quick { 200 } else { 1000 };
    let bin = env!("CARGO_BIN_EXE_boardgames");

    let started = Instant::now();
    let judged = Command::new(bin)
        .args([
            "judge",
            "othello",
            "--cases",
            &cases.to_string(),
            "--format",
            "json",
        ])
        .args(["--", bin, "othello"])
        .output()
        .expect("the judge runs");
    let judge_seconds = started.elapsed().as_secs_f64();
    assert!(
        judged.status.success(),
        "the judge did not accept every case"
    );
    let report = String::from_utf8_lossy(&judged.stdout);
    let seeds: Vec<&str> = report
        .lines()
        .filter_map(|line| line.trim().strip_prefix("\"seed\": "))
        .map(|seed| seed.trim_end_matches(',').trim_matches('"'))
        .collect();
    assert_eq!(seeds.len(), cases, "one seed per case in the report");

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
    let looped = Command::new("bash").args(["-c", &script]).status();
    let loop_seconds = started.elapsed().as_secs_f64();

    println!("{cases} cases of 8x8 Othello, the binary judged against itself");
    println!(
        "judge:      {judge_seconds:>7.3} s  {:>6.0} cases/s",
        cases as f64 / judge_seconds
    );
    let Ok(looped) = looped else {
        println!("shell loop: skipped, no bash here");
        class(bin, quick);
        return;
    };
    assert!(looped.success(), "the shell loop did not accept every case");
    println!(
        "shell loop: {loop_seconds:>7.3} s  {:>6.0} cases/s",
        cases as f64 / loop_seconds
    );
    println!("judge is {:.1}x faster", loop_seconds / judge_seconds);

    class(bin, quick);
}

/// Times `judge othello --programs` on a class of 20 programs around the binary, copies of the
/// classmate example (the same on every system) with their steps beside them: a fifth play as
/// the reference does, the others slip in presentation or in the game's text.
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
    let started = Instant::now();
    let graded = Command::new(bin)
        .args(["judge", "othello", "--cases", cases, "--programs"])
        .arg(&dir)
        .output()
        .expect("the judge runs");
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(graded.status.success(), "the class was not graded");
    println!("\nclass: 20 programs x {cases} cases of 8x8 Othello: {seconds:.1} s");
    print!("{}", String::from_utf8_lossy(&graded.stdout));
}

/// The classmate example, built in release by cargo (a bench does not build examples).
fn classmate() -> std::path::PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--example", "classmate"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the classmate example did not build");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_boardgames"));
    let examples = bin.parent().expect("the profile's folder").join("examples");
    examples.join(format!("classmate{}", std::env::consts::EXE_SUFFIX))
}
