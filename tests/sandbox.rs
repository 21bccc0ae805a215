//! The judge's sandbox on Linux, against `examples/hostile.rs`: each attack a stranger's
//! program might make on the grader is judged with the default `--sandbox auto`, and the test
//! looks at the grader's side (the file, the listener, the grader's process, what is left
//! running, the disk), never at what the program says. Where an attack is also run with
//! `--sandbox off`, that shows the test can fail. A layer this machine lacks (the report names
//! it) skips, with a line, only the assertions that need it.

#![cfg(target_os = "linux")]

mod common;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;

/// A class folder: the hostile program as a submission, and a classmate's folder beside it.
struct Class {
    dir: tempfile::TempDir,
    program: PathBuf,
}

impl Class {
    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        for folder in ["class/mallory", "class/bob", "home", "cwd", "tmp"] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        std::fs::write(dir.path().join("class/bob/main.cpp"), "secret of bob\n").unwrap();
        let program = dir.path().join("class/mallory/hostile");
        std::fs::copy(common::example("hostile"), &program).unwrap();
        Class { dir, program }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// The judge on one case of the program with `attack`, from the `cwd` folder with `home`
    /// as HOME and a marker in its environment: its exit code, report and the program's
    /// transcript.
    fn judge(&self, sandbox: &str, extra: &[&str], attack: &[&str]) -> Judged {
        let saved = self.dir.path().join(format!("saved-{}", attack.join("-")));
        let _ = std::fs::remove_dir_all(&saved);
        let out = Command::new(cargo_bin("boardgames"))
            .args(["judge", "othello", "--size", "4", "--cases", "1"])
            .args(["--sandbox", sandbox])
            .args(extra)
            .arg("--save")
            .arg(&saved)
            .arg("--")
            .arg(&self.program)
            .args(attack)
            .current_dir(self.path("cwd"))
            .env("HOME", self.path("home"))
            .env("TMPDIR", self.path("tmp"))
            .env("BOARDGAMES_TEST_MARKER", "marker-4f2a")
            .output()
            .unwrap();
        let mut transcript = String::new();
        for entry in std::fs::read_dir(&saved).into_iter().flatten().flatten() {
            if entry.path().extension().is_some_and(|e| e == "actual") {
                transcript.push_str(&std::fs::read_to_string(entry.path()).unwrap());
            }
        }
        Judged {
            code: out.status.code(),
            report: String::from_utf8_lossy(&out.stdout).into_owned(),
            transcript,
        }
    }

    /// Processes still running this class's copy of the program.
    fn running(&self) -> usize {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| {
                std::fs::read_link(e.path().join("exe")).is_ok_and(|exe| exe == self.program)
            })
            .count()
    }
}

/// What a judging gave.
struct Judged {
    code: Option<i32>,
    report: String,
    transcript: String,
}

impl Judged {
    /// Whether the judge ended normally with its report.
    fn reported(&self) -> bool {
        self.code == Some(1) && self.report.contains("Summary: 1 cases")
    }
}

/// The sandbox's layers as the judge reports them here.
fn sealing() -> String {
    let class = Class::new();
    let judged = class.judge("auto", &[], &["env"]);
    judged
        .report
        .lines()
        .find_map(|l| l.strip_prefix("Sealing: "))
        .unwrap_or_default()
        .to_string()
}

/// Whether the layer `words` applied here; if not, says so for `test`.
fn layer(sealing: &str, words: &str, test: &str) -> bool {
    let applied = sealing.split("; missing:").next().unwrap_or("");
    let has = applied.contains(words);
    if !has {
        eprintln!("{test}: skipped on this machine, which lacks {words}: {sealing}");
    }
    has
}

#[test]
fn files_outside_the_run_s_own_folder_are_neither_written_nor_read() {
    let class = Class::new();
    let shared = std::env::temp_dir().join(format!("boardgames-hostile-{}", std::process::id()));
    let targets = [
        class.path("home/pwned"),
        shared.clone(),
        class.path("cwd/pwned"),
        class.path("class/bob/pwned"),
    ];
    let mut attack = vec!["write"];
    attack.extend(targets.iter().map(|t| t.to_str().unwrap()));
    let sealing = sealing();
    if layer(&sealing, "files (Landlock", "files") {
        let judged = class.judge("auto", &[], &attack);
        assert!(judged.reported(), "{}", judged.report);
        for target in &targets {
            assert!(!target.exists(), "{} was written", target.display());
        }
        let bob = class.path("class/bob/main.cpp");
        let judged = class.judge("auto", &[], &["read", bob.to_str().unwrap()]);
        assert!(
            !judged.transcript.contains("secret of bob"),
            "{}",
            judged.transcript
        );
        let judged = class.judge("auto", &[], &["environ", "marker-4f2a"]);
        assert!(
            judged.transcript.contains("environ found 0"),
            "{}",
            judged.transcript
        );
    }
    // Without the sandbox the same program writes every one of them.
    let judged = class.judge("off", &[], &attack);
    assert!(judged.reported(), "{}", judged.report);
    for target in &targets {
        assert!(target.exists(), "{} was not written", target.display());
        let _ = std::fs::remove_file(target);
    }
}

#[test]
fn the_grader_s_listeners_hear_nothing() {
    use std::os::linux::net::SocketAddrExt;
    let class = Class::new();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let name = format!("boardgames-test-{}", std::process::id());
    let address = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let unix = std::os::unix::net::UnixListener::bind_addr(&address).unwrap();
    unix.set_nonblocking(true).unwrap();
    let heard = |sandbox: &str| {
        let tcp_port = tcp.local_addr().unwrap().port().to_string();
        let udp_port = udp.local_addr().unwrap().port().to_string();
        for attack in [["tcp", &tcp_port], ["udp", &udp_port], ["unix", &name]] {
            let judged = class.judge(sandbox, &[], &attack);
            assert!(judged.reported(), "{}", judged.report);
        }
        let mut buf = [0; 64];
        [
            tcp.accept().is_ok(),
            udp.recv(&mut buf).is_ok(),
            unix.accept().is_ok(),
        ]
    };
    // Internet sockets are refused wherever there is a seccomp filter; an abstract socket is
    // out of reach in a network namespace, or by Landlock's scope (ABI 6).
    let sealing = sealing();
    let abstract_held = sealing.contains("network (namespace") || sealing.contains("scoped");
    if !abstract_held {
        eprintln!("abstract sockets: not held on this machine: {sealing}");
    }
    let heard_sandboxed = heard("auto");
    assert_eq!(heard_sandboxed[..2], [false, false], "{sealing}");
    if abstract_held {
        assert!(!heard_sandboxed[2], "{sealing}");
    }
    assert_eq!(heard("off"), [true, true, true]);
}

#[test]
fn a_fork_bomb_meets_the_cap_threads_do_not_and_a_daemon_leaves_nothing_running() {
    let class = Class::new();
    let sealing = sealing();
    // The keeper counts processes and kills the run past the cap; the kernel caps tasks
    // (threads too) far above it, so that the bomb stops even between two counts.
    let judged = class.judge("auto", &["--processes", "16"], &["fork", "4000"]);
    assert!(judged.reported(), "{}", judged.report);
    assert!(
        judged.report.contains("process limit reached"),
        "{}",
        judged.report
    );
    assert!(
        !judged.transcript.contains("ok fork 4000"),
        "{}",
        judged.transcript
    );
    assert_eq!(class.running(), 0);
    if sealing.contains("tasks with threads") {
        let judged = class.judge("auto", &["--processes", "16"], &["fork", "100000"]);
        assert!(judged.reported(), "{}", judged.report);
        assert_eq!(class.running(), 0);
    }
    // A hundred threads are not a hundred processes.
    let judged = class.judge("auto", &["--processes", "4"], &["threads", "100"]);
    assert!(
        judged.transcript.contains("ok threads 100"),
        "{}",
        judged.transcript
    );
    assert!(
        !judged.report.contains("process limit"),
        "{}",
        judged.report
    );
    let judged = class.judge("auto", &[], &["daemonize"]);
    assert!(judged.reported(), "{}", judged.report);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(class.running(), 0, "a daemon outlived its case");
}

#[test]
fn the_grader_s_processes_are_out_of_reach() {
    let class = Class::new();
    // A process of the grader's: the program tries to kill it and to trace it. A signal out of
    // the run needs a PID namespace or Landlock's signal scope (ABI 6) to stop it; tracing is
    // refused by the system-call filter.
    let mut grader = Command::new("sleep").arg("300").spawn().unwrap();
    let pid = grader.id().to_string();
    let sealing = sealing();
    let mut attacks = vec![vec!["kill-parent"], vec!["ptrace", &pid]];
    if sealing.contains("pid namespace") || sealing.contains("signals scoped") {
        attacks.push(vec!["kill", &pid]);
    } else {
        eprintln!("kill: not held on this machine: {sealing}");
    }
    for attack in attacks {
        let judged = class.judge("auto", &[], &attack);
        assert!(judged.reported(), "{attack:?}: {}", judged.report);
        assert!(
            grader.try_wait().unwrap().is_none(),
            "{attack:?} killed the grader's process"
        );
    }
    // kill(-1): the program runs it only once it has proved it is in a fresh PID namespace.
    if layer(&sealing, "pid namespace", "kill-all") {
        let ns = std::fs::read_link("/proc/self/ns/pid").unwrap();
        let judged = class.judge("auto", &[], &["kill-all", ns.to_str().unwrap()]);
        assert!(judged.reported(), "{}", judged.report);
        assert!(
            !judged.transcript.contains("refused kill-all: not in"),
            "{}",
            judged.transcript
        );
        assert!(
            grader.try_wait().unwrap().is_none(),
            "kill(-1) reached the grader"
        );
    }
    // Without the sandbox, the program kills it.
    let judged = class.judge("off", &[], &["kill", &pid]);
    assert!(judged.reported(), "{}", judged.report);
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        grader.try_wait().unwrap().is_some(),
        "unsandboxed, the kill failed"
    );
}

#[test]
fn a_big_file_stops_at_the_limit_and_nothing_is_left_on_disk() {
    let class = Class::new();
    let judged = class.judge("auto", &["--file-mb", "8"], &["big", "2048"]);
    assert!(judged.reported(), "{}", judged.report);
    assert!(
        judged.transcript.contains("refused big after 8 MiB"),
        "{}",
        judged.transcript
    );
    assert!(
        judged.report.contains("file-size limit reached"),
        "{}",
        judged.report
    );
    assert!(!class.path("cwd/big.bin").exists());
    assert_eq!(
        scratch_left(class.path("tmp")),
        0,
        "a run's scratch folder was left"
    );
}

#[test]
fn a_run_has_the_devices_and_a_proc_of_its_own() {
    let class = Class::new();
    let sealing = sealing();
    let judged = class.judge("auto", &[], &["system"]);
    for device in ["null", "zero", "full", "random", "urandom"] {
        let line = format!("ok open /dev/{device}");
        assert!(judged.transcript.contains(&line), "{}", judged.transcript);
    }
    if layer(&sealing, "its own /proc", "a /proc of its own") {
        assert!(
            judged.transcript.contains("ok read /proc/self/status"),
            "{}",
            judged.transcript
        );
        // init and the program, and nothing of the grader's.
        let shown: usize = judged
            .transcript
            .split("processes shown ")
            .nth(1)
            .and_then(|rest| rest.trim().parse().ok())
            .unwrap();
        assert!((1..10).contains(&shown), "{}", judged.transcript);
    }
}

#[test]
fn memory_is_what_a_run_uses_not_what_it_maps() {
    let class = Class::new();
    // 64 GiB mapped and never touched, as a sanitizer's shadow: not a memory limit.
    let judged = class.judge("auto", &["--memory-mb", "256"], &["reserve", "64"]);
    assert!(
        judged.transcript.contains("ok reserve"),
        "{}\n{}",
        judged.transcript,
        judged.report
    );
    // 2 GiB touched: killed at the limit, with its peak.
    let judged = class.judge("auto", &["--memory-mb", "256"], &["hog", "2048"]);
    assert!(
        judged.report.contains("1 memory limit"),
        "{}",
        judged.report
    );
    let peak: u64 = judged
        .report
        .split("memory:   ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap();
    assert!((200..=512).contains(&peak), "{}", judged.report);
    assert!(
        !judged.transcript.contains("ok hog"),
        "{}",
        judged.transcript
    );
    // The address-space limit, asked for, refuses the mapping as before.
    let extra = ["--memory-mb", "256", "--address-space-mb", "1024"];
    let judged = class.judge("auto", &extra, &["reserve", "64"]);
    assert!(
        judged.transcript.contains("refused reserve"),
        "{}",
        judged.transcript
    );
}

/// The run scratch folders left in `tmp`, the temporary folder the judge was given.
fn scratch_left(tmp: PathBuf) -> usize {
    std::fs::read_dir(tmp).map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("boardgames-run-")
            })
            .count()
    })
}

#[test]
fn a_relay_s_consoles_leave_nothing_behind() {
    // The relay ends each console the orderly way, so that its keeper clears up.
    let class = Class::new();
    let build = cargo_bin("boardgames");
    let out = Command::new(&build)
        .args(["relay", "othello", "--size", "4", "--games", "2"])
        .args([&build, &build])
        .env("TMPDIR", class.path("tmp"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        scratch_left(class.path("tmp")),
        0,
        "a console's scratch folder was left"
    );
}

#[test]
fn a_run_sees_four_variables_three_descriptors_and_its_processor_time() {
    let class = Class::new();
    let judged = class.judge("auto", &[], &["env"]);
    let mut names: Vec<&str> = judged
        .transcript
        .lines()
        .filter_map(|l| l.strip_prefix("env ")?.split('=').next())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["HOME", "LANG", "PATH", "TMPDIR"],
        "{}",
        judged.transcript
    );
    let judged = class.judge("auto", &[], &["fds"]);
    assert!(
        judged.transcript.contains("fds []"),
        "{}",
        judged.transcript
    );
    // Spinning is a time limit, by the processor seconds as well as the wall clock.
    let judged = class.judge("auto", &["--timeout", "1"], &["spin"]);
    assert!(judged.report.contains("1 time limit"), "{}", judged.report);
}

#[test]
fn an_unprivileged_grader_gets_the_sandbox_too() {
    // Run as root here: the judge again as `nobody`, in folders nobody may use.
    if !nix::unistd::geteuid().is_root() {
        eprintln!(
            "an_unprivileged_grader_gets_the_sandbox_too: skipped, the tests do not run as root"
        );
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let class = Class::new();
    for folder in [
        "",
        "class",
        "class/mallory",
        "class/bob",
        "home",
        "cwd",
        "bin",
    ] {
        let path = class.path(folder);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    // The checkout may sit in a folder only its owner may enter (a clone in root's home, or
    // under `mktemp -d`): `nobody` runs a copy of the judge from the class's folder.
    let judge = class.path("bin/boardgames");
    std::fs::copy(cargo_bin("boardgames"), &judge).unwrap();
    let as_nobody = |attack: &[&str]| -> serde_json::Value {
        let mut child = Command::new(&judge)
            .args(["judge", "othello", "--size", "4", "--cases", "1"])
            .args(["--processes", "8", "--format", "json", "--"])
            .arg(&class.program)
            .args(attack)
            .current_dir(class.path("cwd"))
            .env("HOME", class.path("home"))
            .uid(65534)
            .gid(65534)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut report = String::new();
        let mut stdout = child.stdout.take().unwrap();
        stdout.read_to_string(&mut report).unwrap();
        assert_eq!(
            child.wait().unwrap().code(),
            Some(1),
            "{attack:?}: {report}"
        );
        serde_json::from_str(&report).unwrap()
    };
    let json = as_nobody(&["fork", "200"]);
    let applied = json["summary"]["sealing"]["applied"].to_string();
    assert!(applied.contains("Landlock"), "{applied}");
    assert!(
        json["cases"][0]["limits_reached"]
            .to_string()
            .contains("processes"),
        "{json}"
    );
    assert_eq!(class.running(), 0);
    // Files and the network, as for root.
    let targets = [class.path("home/pwned"), class.path("class/bob/pwned")];
    let mut attack = vec!["write"];
    attack.extend(targets.iter().map(|t| t.to_str().unwrap()));
    as_nobody(&attack);
    for target in &targets {
        assert!(!target.exists(), "{} was written", target.display());
    }
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    as_nobody(&["tcp", &tcp.local_addr().unwrap().port().to_string()]);
    assert!(tcp.accept().is_err(), "the listener heard the program");
}
