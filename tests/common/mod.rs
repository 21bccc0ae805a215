//! What the integration tests share: the example programs `cargo test` builds beside them (the
//! student, and the classmate that stands in for shell scripts on every system), and a way to
//! tell whether a process a test started is still running, the same on every system.

// Each test file uses its own share of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a test waits for processes to start or to go before it looks at them: long enough
/// for a loaded machine, since the tests assert what runs, never how fast.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The example program `name`, built by `cargo test` beside the tests.
pub fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let profile = deps.parent().and_then(|d| d.parent()).unwrap();
    let path = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is built by cargo test", path.display());
    path
}

/// The classmate example with `steps`, as a command line.
pub fn classmate(steps: &[&str]) -> Vec<String> {
    let mut line = vec![example("classmate").to_string_lossy().into_owned()];
    line.extend(steps.iter().map(|s| s.to_string()));
    line
}

/// A copy of the classmate in `dir` named `name` that takes `steps` whatever it is run with
/// (from `name.args` beside it): a program, or a class's submission, that needs no arguments.
pub fn classmate_named(dir: &Path, name: &str, steps: &[&str]) -> PathBuf {
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(example("classmate"), &path).unwrap();
    std::fs::write(dir.join(format!("{name}.args")), steps.join("\n")).unwrap();
    path
}

/// Whether a classmate still beats `file` (a byte every 20 ms): it grows within a second,
/// a moment after the look starts (a process being killed may write once more).
pub fn beating(file: &Path) -> bool {
    let size = || std::fs::metadata(file).map_or(0, |m| m.len());
    std::thread::sleep(Duration::from_millis(200));
    let before = size();
    std::thread::sleep(Duration::from_secs(1));
    size() != before
}

/// Waits, [`PATIENCE`] at most, until `file` has had `beats` beats.
pub fn wait_for_beats(file: &Path, beats: u64) -> bool {
    let started = Instant::now();
    while std::fs::metadata(file).map_or(0, |m| m.len()) < beats {
        if started.elapsed() > PATIENCE {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// A finished command's exit code (-1 when a signal ended it), standard output and standard
/// error, as text.
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// A browser that runs headless here: `BOARDGAMES_BROWSER`, else Chromium or Chrome by their
/// usual names and places.
pub fn browser() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BOARDGAMES_BROWSER") {
        return Some(path.into());
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let on_path = names.into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    on_path.map(PathBuf::from).or_else(|| {
        [
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            r"C:\Program Files\Google\Chrome\Application\chrome.exe",
        ]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
    })
}

/// `browser` headless on `url` with `what` (`--dump-dom`, `--screenshot=PATH`): its output.
pub fn headless(browser: &std::path::Path, url: &str, what: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        // As root (CI containers) Chromium runs only without its own sandbox.
        .arg("--no-sandbox")
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(["--window-size=1280,4000", what, url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `file:` URL of the file at the absolute `path`, on every system.
pub fn file_url(path: &Path) -> String {
    format!(
        "file:///{}",
        path.display()
            .to_string()
            .replace('\\', "/")
            .trim_start_matches('/')
    )
}

/// A screenshot of `url` by `browser`, saved at `shot`: a counter of its pixels of a colour.
pub fn screenshot_counts(browser: &Path, url: &str, shot: &Path) -> impl Fn([u8; 3]) -> usize {
    headless(browser, url, &format!("--screenshot={}", shot.display()));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let step = info.color_type.samples();
    pixels.truncate(info.buffer_size());
    move |rgb: [u8; 3]| pixels.chunks(step).filter(|p| p[..3] == rgb).count()
}
