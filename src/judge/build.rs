//! `--build CMD`: a class's submissions as sources. Each submission (a folder of sources, or a
//! single source file) is copied into a fresh folder and CMD is run there by the system's shell,
//! sealed as the programs are (in the sandbox: no network, writes only in the copy), within
//! `--build-timeout`, with the board in its environment (`SIZE`, or `PITS` and `STONES`) and
//! `OUT`, the path where the program must appear. A build that fails or makes no program is a
//! compile error for every case, with the first 30 lines it wrote. Builds are cached by a
//! SHA-256 of the command, the board and every source file (its path and bytes), in
//! `--build-cache DIR` (default: the system's cache folder, `boardgames/builds`): grading again
//! after a fix rebuilds only what changed; deleting the folder clears it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;
use sha2::{Digest, Sha256};

use super::running::{self, Ending, Limits, Program, Runs, Sandbox};

/// How a class is built.
#[derive(Clone, Debug)]
pub struct Build {
    /// The command, for the system's shell.
    pub command: String,
    /// The longest a build may take.
    pub timeout: Duration,
    /// Where builds are kept.
    pub cache: PathBuf,
}

/// What a build gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Built {
    /// The program, in the cache.
    Program(PathBuf),
    /// No program: the build's first 30 lines, and how it ended.
    Failed(String),
}

/// Whether a build was made now or taken from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Made by this judging.
    Made,
    /// Found in the cache.
    Cached,
}

/// Lines of a failed build's output kept for the reports.
const SHOWN: usize = 30;

/// The default cache folder: `boardgames/builds` in the system's cache folder.
#[must_use]
pub fn default_cache() -> PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("boardgames")
        .join("builds")
}

/// Whether `path` is a source a submission may be alone: C and C++ files.
#[must_use]
pub fn is_source(path: &Path) -> bool {
    path.is_file()
        && path.extension().is_some_and(|extension| {
            ["cpp", "cc", "cxx", "c++", "c"]
                .iter()
                .any(|known| extension.eq_ignore_ascii_case(known))
        })
}

/// Builds `submission` (a folder or a source file) at the board `values` name, or takes the
/// build from the cache; `sandbox` is the judging's, run in the build's folder.
pub fn build(
    build: &Build,
    submission: &Path,
    values: &[(&str, String)],
    sandbox: &Sandbox,
    runs: &Runs,
) -> anyhow::Result<(Built, Source)> {
    let sources = sources(submission)?;
    let key = key(build, values, &sources);
    let kept = build.cache.join(&key);
    if program_path(&kept).is_file() {
        return Ok((Built::Program(program_path(&kept)), Source::Cached));
    }
    if let Ok(failed) = std::fs::read_to_string(kept.join(FAILED)) {
        return Ok((Built::Failed(failed), Source::Cached));
    }
    // A folder of this build's own: two submissions with the same sources (a key twice) may
    // be built at once, and two judgings may share the cache.
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let work = build.cache.join(format!(
        "{key}.building-{}-{}",
        std::process::id(),
        BUILDS.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&work);
    for (path, bytes) in &sources {
        let to = work.join(path);
        if let Some(folder) = to.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("making {}", folder.display()))?;
        }
        std::fs::write(&to, bytes).with_context(|| format!("writing {}", to.display()))?;
    }
    let out = work.join(format!("program{}", std::env::consts::EXE_SUFFIX));
    let mut variables: Vec<(String, String)> = values
        .iter()
        .map(|(name, value)| (name.to_uppercase(), value.clone()))
        .collect();
    variables.push(("OUT".to_string(), out.display().to_string()));
    let (shell, args) = running::shell(&build.command, &variables);
    let limits = Limits {
        time: build.timeout,
        output: Some(1 << 20),
        // A compiler takes more than a console program may.
        memory_mb: 4096,
        address_space_mb: None,
        sandbox: Sandbox {
            processes: sandbox.processes.max(64),
            cpu_seconds: build.timeout.as_secs().max(1),
            work: Some(work.clone()),
            ..sandbox.clone()
        },
    };
    let shell = Program { path: shell, args };
    let run = running::run(&shell, b"", &limits, runs);
    let built = match run {
        Ok(run) if run.ending == Ending::Exited(0) && out.is_file() => {
            std::fs::create_dir_all(&kept).with_context(|| format!("making {}", kept.display()))?;
            std::fs::rename(&out, program_path(&kept))
                .with_context(|| format!("keeping the build of {}", submission.display()))?;
            Built::Program(program_path(&kept))
        }
        Ok(run) => {
            // The scratch folder's path is the grader's: students read `.` instead.
            let text =
                String::from_utf8_lossy(&run.stdout).replace(&work.display().to_string(), ".");
            let mut shown: Vec<&str> = text.lines().take(SHOWN).collect();
            let ended = match &run.ending {
                Ending::Exited(0) => "the build made no program".to_string(),
                Ending::Exited(code) => format!("the build exited with status {code}"),
                Ending::TimedOut | Ending::Interrupted => {
                    format!("the build ran past {} s", build.timeout.as_secs_f64())
                }
                Ending::Signalled(signal) if signal == "SIGXCPU" => {
                    format!("the build ran past {} s", build.timeout.as_secs_f64())
                }
                Ending::Signalled(signal) => format!("the build was killed by {signal}"),
                Ending::OutputLimit => "the build wrote more than 1 MiB".to_string(),
            };
            shown.push(&ended);
            let failed = shown.join("\n") + "\n";
            // An interrupted build says nothing of the sources: it is not kept.
            if !runs.is_interrupted() {
                std::fs::create_dir_all(&kept)
                    .with_context(|| format!("making {}", kept.display()))?;
                std::fs::write(kept.join(FAILED), &failed)
                    .with_context(|| format!("writing {}", kept.display()))?;
            }
            Built::Failed(failed)
        }
        Err(err) => Built::Failed(format!("the build could not be started: {err}\n")),
    };
    let _ = std::fs::remove_dir_all(&work);
    Ok((built, Source::Made))
}

/// The file in a build's cache folder that keeps a failed build's output.
const FAILED: &str = "failed.txt";

/// Where the cache keeps a build's program.
fn program_path(kept: &Path) -> PathBuf {
    kept.join(format!("program{}", std::env::consts::EXE_SUFFIX))
}

/// A submission's files, each by its path within it (a single file by its name), in name
/// order.
fn sources(submission: &Path) -> anyhow::Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut found = Vec::new();
    if submission.is_file() {
        let name = submission.file_name().unwrap_or_default();
        let bytes = std::fs::read(submission)
            .with_context(|| format!("reading {}", submission.display()))?;
        found.push((PathBuf::from(name), bytes));
        return Ok(found);
    }
    let mut queue = vec![PathBuf::new()];
    while let Some(folder) = queue.pop() {
        let here = submission.join(&folder);
        let entries =
            std::fs::read_dir(&here).with_context(|| format!("reading {}", here.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", here.display()))?;
            let relative = folder.join(entry.file_name());
            if entry.path().is_dir() {
                queue.push(relative);
            } else {
                let bytes = std::fs::read(entry.path())
                    .with_context(|| format!("reading {}", entry.path().display()))?;
                found.push((relative, bytes));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The cache's key of a build: a SHA-256 of the command, the board and every file.
fn key(build: &Build, values: &[(&str, String)], sources: &[(PathBuf, Vec<u8>)]) -> String {
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    field(b"boardgames build 1");
    field(build.command.as_bytes());
    for (name, value) in values {
        field(name.as_bytes());
        field(value.as_bytes());
    }
    for (path, bytes) in sources {
        field(path.to_string_lossy().as_bytes());
        field(bytes);
    }
    hash.finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_s_key_changes_with_its_command_its_board_and_every_byte_of_its_sources() {
        let build = |command: &str| Build {
            command: command.to_string(),
            timeout: Duration::from_secs(60),
            cache: PathBuf::new(),
        };
        let sources = vec![(PathBuf::from("main.cpp"), b"int main(){}".to_vec())];
        let size = |n: &str| vec![("size", n.to_string())];
        let base = key(&build("g++ *.cpp"), &size("6"), &sources);
        assert_eq!(base, key(&build("g++ *.cpp"), &size("6"), &sources));
        assert_eq!(base.len(), 64);
        let mut other = sources.clone();
        other[0].1.push(b' ');
        let mut renamed = sources.clone();
        renamed[0].0 = PathBuf::from("other.cpp");
        for changed in [
            key(&build("g++ -O2 *.cpp"), &size("6"), &sources),
            key(&build("g++ *.cpp"), &size("8"), &sources),
            key(&build("g++ *.cpp"), &size("6"), &other),
            key(&build("g++ *.cpp"), &size("6"), &renamed),
        ] {
            assert_ne!(base, changed);
        }
    }
}
