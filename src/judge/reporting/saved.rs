//! The files a judging leaves of each case it did not accept, for a person to look into and
//! replay: the input, the expected and the actual transcript, and a script for the system's
//! shell that replays the case.

use std::path::Path;

use anyhow::Context;

use super::failed;
use crate::judge::Judged;
use crate::judge::running::{Program, replay_script};

/// Saves, for every case not accepted, `NAME.in`, `NAME.expected`, `NAME.actual` and
/// `NAME.cmd`, a shell script that replays it from the folder it is in.
pub fn save(dir: &Path, program: &Program, judged: &[Judged]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // The program by an absolute path, so that the script runs from any folder.
    let program = Program {
        path: std::path::absolute(&program.path).unwrap_or_else(|_| program.path.clone()),
        args: program.args.clone(),
    };
    for j in judged.iter().filter(|j| failed(j)) {
        let path = |ext: &str| dir.join(format!("{}.{ext}", j.case.name));
        let input = path("in");
        let command = replay_script(&program, &j.case.name);
        for (file, bytes) in [
            (input.clone(), &j.case.input[..]),
            (path("expected"), &j.case.expected.output[..]),
            (path("actual"), &j.actual[..]),
            (path("cmd"), command.as_bytes()),
        ] {
            std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
        }
    }
    Ok(())
}
