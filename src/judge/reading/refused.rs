//! What a run's standard error says the system refused it, read so that a report can name the
//! flag that allows it: a path (`Permission denied`, `Operation not permitted`: the sandbox's
//! files), the network (`Network is unreachable`: its empty namespace), or a runtime that could
//! not read its own library (Python's `No module named 'encodings'`). A pure function of the
//! bytes: no I/O, and no judgement of whether the sandbox was the cause.

/// What a run was refused, as its standard error says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A file or folder, as the message names it.
    Path(String),
    /// The network.
    Network,
    /// The runtime's own library: the interpreter started, but could not read its files.
    Runtime,
}

/// The first refusal `stderr` names, if any.
#[must_use]
pub fn read(stderr: &[u8]) -> Option<Refusal> {
    let text = String::from_utf8_lossy(stderr);
    text.lines().find_map(|line| {
        if line.contains("No module named 'encodings'") {
            return Some(Refusal::Runtime);
        }
        if line.contains("Network is unreachable")
            || line.contains("socket: Operation not permitted")
        {
            return Some(Refusal::Network);
        }
        let cut = ["Permission denied", "Operation not permitted"]
            .iter()
            .find_map(|words| line.find(words))?;
        // A shell's `SCRIPT: LINE: COMMAND: Permission denied` names the command refused, a
        // path or a name looked up in PATH (which says too little to name a folder).
        let parts: Vec<&str> = line[..cut].split(": ").collect();
        if let [_, number, command, ..] = parts[..]
            && number.trim().parse::<u32>().is_ok()
        {
            let command = command.trim();
            return command
                .starts_with('/')
                .then(|| Refusal::Path(command.to_string()));
        }
        // Else the path nearest before the words: `cannot open '/x/y' for reading: Permission
        // denied`.
        line[..cut].split_whitespace().rev().find_map(|token| {
            let path = token.trim_matches(|c: char| "'\"`:,;()[]".contains(c));
            (path.starts_with('/') && path.len() > 1).then(|| Refusal::Path(path.to_string()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_read_from_the_messages_programs_print() {
        let path = |p: &str| Some(Refusal::Path(p.into()));
        let cases = [
            (
                "tail: cannot open '/dev/zero' for reading: Permission denied\n",
                path("/dev/zero"),
            ),
            ("/home/g/run.sh: 3: boardgames: Permission denied\n", None),
            (
                "/bin/sh: 1: /home/g/prog: Permission denied\n",
                path("/home/g/prog"),
            ),
            (
                "python3: can't open file '/home/g/a.py': [Errno 13] Permission denied\n",
                path("/home/g/a.py"),
            ),
            (
                "ModuleNotFoundError: No module named 'encodings'\n",
                Some(Refusal::Runtime),
            ),
            ("connect: Network is unreachable\n", Some(Refusal::Network)),
            ("error: Permission denied\n", None),
            ("Segmentation fault\n", None),
        ];
        for (stderr, expected) in cases {
            assert_eq!(read(stderr.as_bytes()), expected, "{stderr}");
        }
    }
}
