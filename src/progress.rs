//! A long command's progress on standard error while it is a terminal, in one style for every
//! command: a bar over a count of steps (the judge's builds and cases, arena's games, train's
//! positions and passes) or, where the end is not known, a spinner with the time so far
//! (perft's depth being counted). indicatif draws it, and draws nothing where stderr is a file
//! or a pipe, so that logs and tests see none of it. Standard output is never touched.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar, or a spinner, on standard error; cleared when finished or dropped.
pub struct Progress(ProgressBar);

impl Progress {
    /// A bar over `len` steps, each one `unit` (`cases`, `builds`, `games`).
    #[must_use]
    pub fn new(len: usize, unit: &str) -> Progress {
        let bar = ProgressBar::new(len as u64);
        let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  {{eta}} left");
        bar.set_style(style(&template).progress_chars("=> "));
        Progress(bar)
    }

    /// A spinner that says `what` and the time since it began, turning on its own while the
    /// caller works.
    #[must_use]
    pub fn spinner(what: String) -> Progress {
        let bar = ProgressBar::new_spinner();
        bar.set_style(style("{spinner} {msg}  {elapsed}"));
        bar.set_message(what);
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(bar)
    }

    /// `n` more steps done.
    pub fn advance(&self, n: usize) {
        self.0.inc(n as u64);
    }

    /// `done` steps done in all.
    pub fn reach(&self, done: usize) {
        self.0.set_position(done as u64);
    }

    /// What is being done now: `submission 3/40: ann`.
    pub fn say(&self, what: String) {
        self.0.set_message(what);
    }

    /// Runs `f` with the bar lifted from the terminal, so that what it prints is not mixed
    /// with the bar's line.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.0.suspend(f)
    }

    /// Done: cleared from the terminal.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// The style of `template`, which is ours and valid; were it not, the default would do.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}
