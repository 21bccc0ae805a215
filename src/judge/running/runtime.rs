//! The runtime a program needs besides itself, found before judging as the shell would run it:
//! the program's own path and, for a script, its `#!` interpreter (through `PATH` for
//! `#!/usr/bin/env NAME`), each as named and with its links resolved. Where one lies outside
//! the folders every run may read (a Python from pyenv, conda, a virtual environment, nvm's
//! Node, sdkman's Java, all under a home folder), its prefix is what the sandbox must admit:
//! the folder above its `bin/` (or `shims/`), never a home folder itself.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Program;

/// The folders to admit for reading so that `program`'s runtime can start sandboxed: the
/// prefixes of its interpreter and of the program itself that lie outside what every run reads.
#[must_use]
pub fn prefixes(program: &Program) -> Vec<PathBuf> {
    let mut named = vec![program.path.clone()];
    named.extend(interpreter(&program.path));
    // The program's own folder, which every run reads already, as named and resolved.
    let own: Vec<PathBuf> = std::path::absolute(&program.path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .into_iter()
        .flat_map(|folder| [std::fs::canonicalize(&folder).ok(), Some(folder)])
        .flatten()
        .collect();
    let home = dirs::home_dir();
    let mut found: Vec<PathBuf> = Vec::new();
    for path in named {
        // Absolute, as the folders it is compared with are.
        let path = std::path::absolute(&path).unwrap_or(path);
        let resolved = std::fs::canonicalize(&path).ok();
        for path in std::iter::once(path).chain(resolved) {
            if super::system::read_by_every_run(&path) {
                continue;
            }
            let Some(prefix) = prefix(&path) else {
                continue;
            };
            // Its own folder is readable already; a home folder (or what holds one) never is.
            let too_wide = home
                .as_deref()
                .is_some_and(|home| home.starts_with(&prefix))
                || prefix.parent().is_none();
            if !own.contains(&prefix) && !too_wide && !found.contains(&prefix) {
                found.push(prefix);
            }
        }
    }
    found
}

/// The folder a runtime is installed in: above its `bin/` or `shims/`, else the file's own.
fn prefix(path: &Path) -> Option<PathBuf> {
    let folder = path.parent()?;
    let name = folder.file_name()?.to_str()?;
    if matches!(name, "bin" | "shims" | "Scripts") {
        folder.parent().map(Path::to_path_buf)
    } else {
        Some(folder.to_path_buf())
    }
}

/// A script's interpreter, from its `#!` line: the program named there, or the one `env`
/// finds in `PATH`.
fn interpreter(path: &Path) -> Option<PathBuf> {
    let mut head = [0; 256];
    let read = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..read].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = PathBuf::from(words.next()?);
    if first.file_name().is_some_and(|n| n == "env") {
        let name = words.find(|w| !w.starts_with('-'))?;
        let dirs = std::env::var_os("PATH")?;
        return std::env::split_paths(&dirs)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file());
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runtime_s_prefix_is_the_folder_above_its_bin() {
        let cases = [
            (
                "/home/g/.pyenv/versions/3.12.1/bin/python3.12",
                "/home/g/.pyenv/versions/3.12.1",
            ),
            ("/home/g/.pyenv/shims/python3", "/home/g/.pyenv"),
            ("/home/g/venv/bin/python", "/home/g/venv"),
            ("/home/g/tools/player", "/home/g/tools"),
        ];
        for (path, expected) in cases {
            assert_eq!(
                prefix(Path::new(path)),
                Some(PathBuf::from(expected)),
                "{path}"
            );
        }
    }

    #[test]
    fn a_script_named_by_a_relative_path_needs_nothing_beyond_its_folder() {
        // A temporary folder that shares a root with the working folder, so that `..` reaches
        // it: the system's where it does, else one in the working folder (on Windows the two
        // may be on different drives, which no relative path joins).
        let here = std::env::current_dir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let dir = if here.ancestors().any(|a| dir.path().starts_with(a)) {
            dir
        } else {
            tempfile::tempdir_in(&here).unwrap()
        };
        let script = dir.path().join("player");
        std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
        let common = here.ancestors().find(|a| script.starts_with(a)).unwrap();
        let ups = here.components().count() - common.components().count();
        let mut relative: PathBuf = std::iter::repeat_n("..", ups).collect();
        relative.push(script.strip_prefix(common).unwrap());
        assert_eq!(prefixes(&Program::plain(relative)), Vec::<PathBuf>::new());
    }

    #[test]
    fn a_script_s_interpreter_is_read_from_its_first_line() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("player");
        std::fs::write(&script, "#!/opt/py/bin/python3 -u\nprint(1)\n").unwrap();
        assert_eq!(
            interpreter(&script),
            Some(PathBuf::from("/opt/py/bin/python3"))
        );
        std::fs::write(&script, "print(1)\n").unwrap();
        assert_eq!(interpreter(&script), None);
    }
}
