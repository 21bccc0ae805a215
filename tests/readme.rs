//! The examples of README.md, docs/grading.md and src/README.md, run (and the commands that
//! remake docs/performance.md's figures, which take minutes to hours, checked to be ones the
//! program accepts): in every
//! ```` ```console ```` block, a line starting with `$ ` is a shell command (pipes and all,
//! with the built `boardgames` first on the `PATH`), an optional `? CODE` line after it its exit
//! code (0 when absent), and the lines up to the next command what it prints, standard error
//! included. Where a figure varies from run to run or machine to machine, `[..]` stands for the
//! rest of a line's part and `...` on a line of its own for any lines (snapbox's elisions, the
//! ones trycmd uses; trycmd itself cannot pipe input into a command, which most of these
//! examples do).
//!
//! Unix only: the examples are POSIX shell command lines (`printf ... |`) run by `sh`, which
//! Windows lacks; what they show is tested on Windows by the golden, judge and relay tests.

#![cfg(unix)]

use std::path::Path;
use std::process::Command;

/// One example: the command, its exit code and what it prints.
struct Example {
    line: usize,
    command: String,
    code: i32,
    output: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (number, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.push(Example {
                line: number + 1,
                command: command.to_string(),
                code: 0,
                output: String::new(),
            });
        } else if let Some(example) = found.last_mut() {
            match line.strip_prefix("? ") {
                Some(code) if example.output.is_empty() => {
                    example.code = code.parse().expect("an exit code after `? `");
                }
                _ => {
                    example.output.push_str(line);
                    example.output.push('\n');
                }
            }
        }
    }
    found
}

#[test]
fn the_readme_examples_print_what_the_readme_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    // The README, the graders' guide and the developers' page they link to.
    let pages = [
        ("README.md", 4),
        ("docs/grading.md", 3),
        ("src/README.md", 4),
    ];
    for (page, least) in pages {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let examples = examples(&text);
        assert!(
            examples.len() >= least,
            "{page}: only {} examples",
            examples.len()
        );
        found.extend(examples.into_iter().map(|example| (page, example)));
    }
    let binary = Path::new(env!("CARGO_BIN_EXE_boardgames"));
    let bin_dir = binary.parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for (page, example) in found {
        let run = Command::new("sh")
            .arg("-c")
            .arg(format!("{} 2>&1", example.command))
            .current_dir(root)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let what = format!("{page} line {}: `{}`", example.line, example.command);
        assert_eq!(run.status.code(), Some(example.code), "{what}");
        let printed = String::from_utf8_lossy(&run.stdout).into_owned();
        if let Err(err) = snapbox::Assert::new().try_eq(
            Some(&what),
            printed.into(),
            example.output.clone().into(),
        ) {
            panic!("{what}:\n{err}");
        }
    }
}

/// The `boardgames` commands of docs/performance.md: the lines of its plain code blocks and
/// its inline code that start with the program's name.
fn performance_commands(page: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_block = false;
    for line in page.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        } else if in_block {
            found.extend(line.strip_prefix("boardgames ").map(str::to_string));
        } else {
            let spans = line.split('`').skip(1).step_by(2);
            found.extend(
                spans.filter_map(|span| span.strip_prefix("boardgames ").map(str::to_string)),
            );
        }
    }
    found
}

#[test]
fn the_performance_page_commands_are_ones_the_program_accepts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/performance.md")).unwrap();
    let commands = performance_commands(&page);
    assert!(commands.len() >= 10, "only {} commands", commands.len());
    for command in commands {
        // Flags and their values are checked as they are parsed, before `--help` is reached;
        // the help then ends the run at once.
        let run = Command::new(env!("CARGO_BIN_EXE_boardgames"))
            .args(command.split_whitespace())
            .arg("--help")
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "docs/performance.md: `boardgames {command}`: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
}
