//! A long judging's progress on stderr while it is a terminal: the builds, then the cases, with
//! the submission being judged and the time left. indicatif draws it, and draws nothing where
//! stderr is a file or a pipe, so that logs and tests see none of it.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over a count of steps (builds or cases).
pub struct Progress(ProgressBar);

impl Progress {
    /// A bar over `len` steps, each one `unit` (`cases`, `builds`).
    #[must_use]
    pub fn new(len: usize, unit: &str) -> Progress {
        let bar = ProgressBar::new(len as u64);
        let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  {{eta}} left");
        // The template is ours and valid; were it not, the default bar would do.
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        Progress(bar)
    }

    /// `n` more steps done.
    pub fn advance(&self, n: usize) {
        self.0.inc(n as u64);
    }

    /// What is being done now: `submission 3/40: ann`.
    pub fn say(&self, what: String) {
        self.0.set_message(what);
    }

    /// Done: the bar is cleared from the terminal.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
