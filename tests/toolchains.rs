//! The judge with its default sandbox and limits on what courses write their programs in: a
//! correct program and a memory hog in each of C++ (`-O2`, and with
//! `-fsanitize=address,undefined`), C, Python 3, Java, Node.js, Go, a shell script calling tools
//! in `/usr/bin`, and a Python virtual environment under a home folder. Each correct program
//! must be accepted (the C++ one is a real correct submission, `tests/sources/bea`, the others
//! small players that hand the game to this binary and relay its console, as a student's
//! wrapper does), each hog must be a memory limit with its peak, and Java must start under
//! the defaults. A toolchain that is not installed skips with one line naming it.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use serde_json::Value;

/// A language: what it needs installed, how its two programs are built and run.
struct Toolchain {
    name: &'static str,
    /// Commands that must be installed.
    needs: &'static [&'static str],
    /// The file name of its sources.
    file: &'static str,
    /// The correct program's source.
    player: &'static str,
    /// The hog's source.
    hog: &'static str,
    /// The build, by `sh -c` in the program's folder: `$SRC` the source, `$OUT` the program.
    build: Option<&'static str>,
    /// The command that runs a built program: `{OUT}` the program, `{DIR}` its folder.
    run: &'static [&'static str],
    /// The game the correct program plays, as the judge's arguments.
    game: &'static [&'static str],
}

const C_PLAYER: &str = r#"#include <spawn.h>
#include <sys/wait.h>
extern char **environ;
int main(int argc, char **argv) {
    char *args[] = {argv[1], "mancala", 0};
    pid_t pid;
    int status;
    if (argc < 2 || posix_spawn(&pid, argv[1], 0, 0, args, environ) != 0) return 127;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
"#;

const C_HOG: &str = r#"#include <stdlib.h>
#include <string.h>
int main(void) {
    for (;;) {
        char *p = malloc(1 << 20);
        if (!p) return 3;
        memset(p, 1, 1 << 20);
    }
}
"#;

const CPP_HOG: &str = r#"#include <cstring>
#include <vector>
int main() {
    std::vector<char *> held;
    for (;;) {
        char *p = new char[1 << 20];
        std::memset(p, 1, 1 << 20);
        held.push_back(p);
    }
}
"#;

const PYTHON_PLAYER: &str = "import subprocess, sys\n\
    sys.exit(subprocess.run([sys.argv[1], 'mancala']).returncode)\n";

const PYTHON_HOG: &str = "held = []\nwhile True:\n    held.append(b'x' * (1 << 20))\n";

const JAVA_PLAYER: &str = r#"public class Main {
    public static void main(String[] args) throws Exception {
        Process game = new ProcessBuilder(args[0], "mancala").inheritIO().start();
        System.exit(game.waitFor());
    }
}
"#;

const JAVA_HOG: &str = r#"import java.util.ArrayList;
import java.util.Arrays;
public class Main {
    public static void main(String[] args) {
        ArrayList<byte[]> held = new ArrayList<>();
        for (;;) {
            byte[] block = new byte[1 << 20];
            Arrays.fill(block, (byte) 1);
            held.add(block);
        }
    }
}
"#;

const NODE_PLAYER: &str = "const game = require('child_process')\n\
    .spawnSync(process.argv[2], ['mancala'], { stdio: 'inherit' });\n\
    process.exit(game.status === null ? 1 : game.status);\n";

const NODE_HOG: &str = "const held = [];\nfor (;;) held.push(Buffer.alloc(1 << 20, 1));\n";

const GO_PLAYER: &str = r#"package main

import (
	"os"
	"os/exec"
)

func main() {
	game := exec.Command(os.Args[1], "mancala")
	game.Stdin, game.Stdout, game.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := game.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			os.Exit(exit.ExitCode())
		}
		os.Exit(1)
	}
}
"#;

const GO_HOG: &str = r#"package main

func main() {
	var held [][]byte
	for {
		block := make([]byte, 1<<20)
		for i := range block {
			block[i] = 1
		}
		held = append(held, block)
	}
}
"#;

const SHELL_PLAYER: &str = "#!/bin/sh\ncat | \"$1\" mancala | cat\n";

const SHELL_HOG: &str = "#!/bin/sh\ntail /dev/zero\n";

/// The C++ recipe for the correct submission: its side set, then compiled.
const BEA: &str = r#"sed -i.orig "s/const int N = [0-9]*;/const int N = 4;/" *.h *.cpp"#;

const TOOLCHAINS: [Toolchain; 8] = [
    Toolchain {
        name: "C++ -O2",
        needs: &["g++"],
        file: "hog.cpp",
        player: "",
        hog: CPP_HOG,
        build: Some(r#"g++ -O2 -o "$OUT" *.cpp"#),
        run: &["{OUT}"],
        game: &["othello", "--size", "4"],
    },
    Toolchain {
        name: "C++ -fsanitize=address,undefined",
        needs: &["g++"],
        file: "hog.cpp",
        player: "",
        hog: CPP_HOG,
        build: Some(r#"g++ -g -O1 -fsanitize=address,undefined -o "$OUT" *.cpp"#),
        run: &["{OUT}"],
        game: &["othello", "--size", "4"],
    },
    Toolchain {
        name: "C",
        needs: &["gcc"],
        file: "main.c",
        player: C_PLAYER,
        hog: C_HOG,
        build: Some(r#"gcc -O2 -o "$OUT" "$SRC""#),
        run: &["{OUT}", "{BOARDGAMES}"],
        game: &["mancala"],
    },
    Toolchain {
        name: "Python 3",
        needs: &["python3"],
        file: "main.py",
        player: PYTHON_PLAYER,
        hog: PYTHON_HOG,
        build: None,
        run: &["python3", "{SRC}", "{BOARDGAMES}"],
        game: &["mancala"],
    },
    Toolchain {
        name: "Java",
        needs: &["java", "javac"],
        file: "Main.java",
        player: JAVA_PLAYER,
        hog: JAVA_HOG,
        build: Some(r#"javac -d . "$SRC" && touch "$OUT""#),
        run: &["java", "-cp", "{DIR}", "Main", "{BOARDGAMES}"],
        game: &["mancala"],
    },
    Toolchain {
        name: "Node.js",
        needs: &["node"],
        file: "main.js",
        player: NODE_PLAYER,
        hog: NODE_HOG,
        build: None,
        run: &["node", "{SRC}", "{BOARDGAMES}"],
        game: &["mancala"],
    },
    Toolchain {
        name: "Go",
        needs: &["go"],
        file: "main.go",
        player: GO_PLAYER,
        hog: GO_HOG,
        build: Some(r#"go build -o "$OUT" "$SRC""#),
        run: &["{OUT}", "{BOARDGAMES}"],
        game: &["mancala"],
    },
    Toolchain {
        name: "a shell script",
        needs: &["sh", "cat", "tail"],
        file: "main.sh",
        player: SHELL_PLAYER,
        hog: SHELL_HOG,
        build: Some(r#"chmod +x "$SRC" && cp "$SRC" "$OUT""#),
        run: &["{OUT}", "{BOARDGAMES}"],
        game: &["mancala"],
    },
];

/// Whether `command` is installed.
fn installed(command: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {command}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The judge's JSON report and standard error on `program`, with `extra` flags.
fn judge(game: &[&str], extra: &[&str], read: &[&Path], program: &[String]) -> (Value, String) {
    let boardgames = cargo_bin("boardgames");
    let mut command = Command::new(&boardgames);
    command
        .arg("judge")
        .args(game)
        .args(["--cases", "3", "--format", "json"])
        .args(extra)
        .arg("--read")
        .arg(boardgames.parent().unwrap());
    for folder in read {
        command.arg("--read").arg(folder);
    }
    let out = command.arg("--").args(program).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{program:?}: no report: {stderr}"));
    (json, stderr)
}

/// `source` built (or kept) in a folder of its own: the command line that runs it.
fn program(toolchain: &Toolchain, dir: &Path, source: &str) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    let src = dir.join(toolchain.file);
    std::fs::write(&src, source).unwrap();
    let out = dir.join("program");
    if let Some(build) = toolchain.build {
        let built = Command::new("sh")
            .args(["-c", build])
            .current_dir(dir)
            .env("SRC", &src)
            .env("OUT", &out)
            .env("GOCACHE", dir.join("go-cache"))
            .output()
            .unwrap();
        assert!(built.status.success(), "{}: {built:?}", toolchain.name);
    }
    let fill = |arg: &&str| {
        arg.replace("{OUT}", &out.to_string_lossy())
            .replace("{SRC}", &src.to_string_lossy())
            .replace("{DIR}", &dir.to_string_lossy())
            .replace("{BOARDGAMES}", &cargo_bin("boardgames").to_string_lossy())
    };
    toolchain.run.iter().map(fill).collect()
}

/// The correct C++ submission, built at 4x4 as `build` says.
fn bea(toolchain: &Toolchain, dir: &Path) -> Vec<String> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sources/bea");
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(sources).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let script = format!("{BEA} && {}", toolchain.build.unwrap());
    let out = dir.join("program");
    let built = Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir)
        .env("OUT", &out)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}: {built:?}", toolchain.name);
    vec![out.to_string_lossy().into_owned()]
}

/// The verdict counts of a report.
fn verdicts(json: &Value) -> String {
    json["summary"]["verdicts"].to_string()
}

#[test]
fn every_toolchain_s_correct_program_is_accepted_and_its_hog_is_a_memory_limit() {
    let root = tempfile::tempdir().unwrap();
    for (i, toolchain) in TOOLCHAINS.iter().enumerate() {
        if let Some(missing) = toolchain.needs.iter().find(|c| !installed(c)) {
            println!("{}: skipped, {missing} is not installed", toolchain.name);
            continue;
        }
        let dir = root.path().join(format!("{i}"));
        let player = if toolchain.player.is_empty() {
            bea(toolchain, &dir.join("player"))
        } else {
            program(toolchain, &dir.join("player"), toolchain.player)
        };
        // The defaults: 1024 MiB, 32 processes, the sandbox.
        let read = [dir.join("player")];
        let read: Vec<&Path> = read.iter().map(PathBuf::as_path).collect();
        let (json, stderr) = judge(toolchain.game, &[], &read, &player);
        assert_eq!(
            verdicts(&json),
            r#"{"accepted":3}"#,
            "{}: {json}\n{stderr}",
            toolchain.name
        );
        let hog = program(toolchain, &dir.join("hog"), toolchain.hog);
        let read = [dir.join("hog")];
        let read: Vec<&Path> = read.iter().map(PathBuf::as_path).collect();
        let (json, stderr) = judge(&["mancala"], &["--memory-mb", "256"], &read, &hog);
        assert_eq!(
            verdicts(&json),
            r#"{"memory limit":3}"#,
            "{}: {json}\n{stderr}",
            toolchain.name
        );
        for case in json["cases"].as_array().unwrap() {
            let peak = case["peak_kib"].as_u64().unwrap();
            assert!(peak >= 128 << 10, "{}: peak {peak} KiB", toolchain.name);
        }
        println!("{}: accepted, and its hog a memory limit", toolchain.name);
    }
}

#[test]
fn a_python_installed_under_a_home_folder_is_admitted_and_runs() {
    if !installed("python3") {
        println!("a Python under a home folder: skipped, python3 is not installed");
        return;
    }
    // A virtual environment in a home folder the sandbox does not let runs read.
    let home = tempfile::tempdir().unwrap();
    let venv = home.path().join(".venvs/course");
    let made = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let player = home.path().join("player.py");
    let shebang = format!("#!{}\n", venv.join("bin/python").display());
    std::fs::write(&player, shebang.clone() + PYTHON_PLAYER).unwrap();
    let hog = home.path().join("hog.py");
    std::fs::write(&hog, shebang + PYTHON_HOG).unwrap();
    for script in [&player, &hog] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let boardgames = cargo_bin("boardgames").to_string_lossy().into_owned();
    let run = |script: &Path| vec![script.to_string_lossy().into_owned(), boardgames.clone()];
    let (json, stderr) = judge(&["mancala"], &[], &[], &run(&player));
    assert_eq!(verdicts(&json), r#"{"accepted":3}"#, "{json}\n{stderr}");
    assert!(
        stderr.contains(&format!("runtime is in {}", venv.display())),
        "{stderr}"
    );
    let (json, stderr) = judge(&["mancala"], &["--memory-mb", "256"], &[], &run(&hog));
    assert_eq!(verdicts(&json), r#"{"memory limit":3}"#, "{json}\n{stderr}");
}
