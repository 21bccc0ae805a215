//! A hostile program for the sandbox's tests (Linux): each mode is one attack on the grader
//! that a program judged by `boardgames judge` might make, and prints one line a try, `ok ...`
//! when the attack went through and `refused ...` with the error when it did not. The tests
//! look at the grader's side (the file, the listener, the judge, the processes) rather than
//! trust these lines.
//!
//! `hostile MODE [ARGS]`:
//! - `write PATH...`: create each file; `read PATH`: print the file;
//! - `environ MARKER`: look through every process's environment in `/proc` for MARKER;
//! - `tcp PORT`, `udp PORT`: send to 127.0.0.1; `unix NAME`: connect to an abstract socket;
//! - `fork N`: fork N children that sleep; `threads N`: start N threads that sleep a moment;
//!   `daemonize`: leave a session of its own, and sleep;
//! - `kill-parent`: SIGKILL its parent; `kill PID`: SIGKILL a process of the grader's;
//!   `ptrace PID`: attach to it;
//! - `big MB`: write MB MiB to `big.bin` in its working folder;
//! - `hog MB`: use MB MiB of memory, a MiB at a time; `reserve GB`: map GB GiB without
//!   touching it, as a sanitizer's shadow or a JVM's heap does;
//! - `kill-all NS`: `kill(-1, SIGKILL)`, only after proving that it is in a fresh PID
//!   namespace (its pid is tiny, and its namespace is not NS, the caller's
//!   `/proc/self/ns/pid`): never anywhere else;
//! - `system`: open the devices every judge gives and `/proc/self/status`, and count the
//!   processes `/proc` shows;
//! - `spin`: use the processor for ever; `env`: print its environment; `fds`: its open
//!   descriptors above 2.

#[cfg(target_os = "linux")]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((mode, rest)) = args.split_first() else {
        eprintln!("hostile MODE [ARGS]");
        std::process::exit(2);
    };
    linux::attack(mode, rest);
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("hostile: the attacks are Linux's");
    std::process::exit(2);
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io::Write;
    use std::time::Duration;

    use nix::sys::signal::{Signal, kill};
    use nix::unistd::{ForkResult, Pid, fork, getpid, getppid, setsid};

    /// Prints how a try went.
    fn said<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) {
        match result {
            Ok(_) => println!("ok {what}"),
            Err(err) => println!("refused {what}: {err}"),
        }
    }

    pub fn attack(mode: &str, args: &[String]) {
        let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
        match mode {
            "write" => {
                for path in args {
                    said(&format!("write {path}"), std::fs::write(path, b"hostile\n"));
                }
            }
            "read" => match std::fs::read_to_string(arg(0)) {
                Ok(text) => print!("ok read {}\n{text}", arg(0)),
                Err(err) => println!("refused read {}: {err}", arg(0)),
            },
            "environ" => environ(&arg(0)),
            "tcp" => said(
                "tcp",
                std::net::TcpStream::connect(("127.0.0.1", port(&arg(0))))
                    .and_then(|mut s| s.write_all(b"hostile\n")),
            ),
            "udp" => said(
                "udp",
                std::net::UdpSocket::bind("127.0.0.1:0")
                    .and_then(|s| s.send_to(b"hostile\n", ("127.0.0.1", port(&arg(0))))),
            ),
            "unix" => said("unix", abstract_socket(&arg(0))),
            "fork" => forks(arg(0).parse().unwrap_or(0)),
            "threads" => threads(arg(0).parse().unwrap_or(0)),
            "daemonize" => daemonize(),
            "kill-parent" => said("kill-parent", kill(getppid(), Signal::SIGKILL)),
            "kill" => said("kill", kill(pid(&arg(0)), Signal::SIGKILL)),
            "ptrace" => {
                let target = pid(&arg(0));
                let attached = nix::sys::ptrace::attach(target);
                said("ptrace", attached);
                if attached.is_ok() {
                    std::thread::sleep(Duration::from_millis(50));
                    let _ = nix::sys::ptrace::detach(target, None);
                }
            }
            "big" => big(arg(0).parse().unwrap_or(0)),
            "hog" => {
                let mut held: Vec<Vec<u8>> = Vec::new();
                for _ in 0..arg(0).parse::<usize>().unwrap_or(0) {
                    held.push(vec![1; 1 << 20]);
                }
                println!("ok hog {}", held.len());
            }
            "reserve" => {
                let gib: usize = arg(0).parse().unwrap_or(0);
                let bytes =
                    std::num::NonZeroUsize::new(gib << 30).unwrap_or(std::num::NonZeroUsize::MIN);
                use nix::sys::mman::{MapFlags, ProtFlags, mmap_anonymous};
                let flags = MapFlags::MAP_PRIVATE | MapFlags::MAP_NORESERVE;
                // SAFETY: a fresh anonymous mapping, never read or written.
                let mapped = unsafe { mmap_anonymous(None, bytes, ProtFlags::PROT_READ, flags) };
                said("reserve", mapped.map(|_| ()));
            }
            "kill-all" => kill_all(&arg(0)),
            "system" => {
                for device in ["null", "zero", "full", "random", "urandom"] {
                    let path = format!("/dev/{device}");
                    said(&format!("open {path}"), std::fs::File::open(&path));
                }
                said("read /proc/self/status", std::fs::read("/proc/self/status"));
                let shown = std::fs::read_dir("/proc").map(|entries| {
                    entries
                        .flatten()
                        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
                        .count()
                });
                println!("processes shown {}", shown.unwrap_or(0));
            }
            "spin" => loop {
                std::hint::spin_loop();
            },
            "env" => {
                for (key, value) in std::env::vars_os() {
                    println!("env {}={}", key.to_string_lossy(), value.to_string_lossy());
                }
            }
            "fds" => {
                let open: Vec<i32> = (3..1024)
                    .filter(|&fd| {
                        // SAFETY: F_GETFD only asks whether the descriptor is open.
                        let flags = unsafe { nix::libc::fcntl(fd, nix::libc::F_GETFD) };
                        flags != -1
                    })
                    .collect();
                println!("fds {open:?}");
            }
            other => println!("refused {other}: no such mode"),
        }
    }

    fn port(text: &str) -> u16 {
        text.parse().unwrap_or(1)
    }

    /// Looks through every process's environment for `marker`.
    fn environ(marker: &str) {
        let mut found = 0;
        let mut refused = 0;
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            if !entry
                .file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
            {
                continue;
            }
            match std::fs::read(entry.path().join("environ")) {
                Ok(bytes) if bytes.windows(marker.len()).any(|w| w == marker.as_bytes()) => {
                    found += 1;
                }
                Ok(_) => {}
                Err(_) => refused += 1,
            }
        }
        println!("environ found {found}, refused {refused}");
    }

    fn abstract_socket(name: &str) -> nix::Result<()> {
        use nix::sys::socket::{AddressFamily, SockFlag, SockType, UnixAddr, connect, socket};
        use std::os::fd::AsRawFd;
        let fd = socket(
            AddressFamily::Unix,
            SockType::Stream,
            SockFlag::empty(),
            None,
        )?;
        connect(fd.as_raw_fd(), &UnixAddr::new_abstract(name.as_bytes())?)?;
        nix::unistd::write(&fd, b"hostile\n").map(|_| ())
    }

    /// Forks `count` children that sleep a minute; says how many it got.
    fn forks(count: usize) {
        let mut made = 0;
        let mut last = None;
        for _ in 0..count {
            // SAFETY: the child only sleeps and exits.
            match unsafe { fork() } {
                Ok(ForkResult::Child) => {
                    std::thread::sleep(Duration::from_secs(60));
                    std::process::exit(0);
                }
                Ok(ForkResult::Parent { .. }) => made += 1,
                Err(err) => last = Some(err),
            }
        }
        match last {
            None => println!("ok fork {made}"),
            Some(err) => println!("refused fork after {made}: {err}"),
        }
    }

    /// Starts `count` threads that sleep a moment together, and waits for them.
    fn threads(count: usize) {
        let started: Result<Vec<_>, _> = (0..count)
            .map(|_| {
                std::thread::Builder::new().spawn(|| std::thread::sleep(Duration::from_millis(300)))
            })
            .collect();
        match started {
            Ok(threads) => {
                for thread in threads {
                    let _ = thread.join();
                }
                println!("ok threads {count}");
            }
            Err(err) => println!("refused threads: {err}"),
        }
    }

    /// Leaves a session of its own, twice forked, and sleeps there for ever.
    fn daemonize() {
        // SAFETY: the children call only what a single thread may.
        if let Ok(ForkResult::Child) = unsafe { fork() } {
            let _ = setsid();
            // SAFETY: as above.
            if let Ok(ForkResult::Child) = unsafe { fork() } {
                loop {
                    std::thread::sleep(Duration::from_secs(60));
                }
            }
            std::process::exit(0);
        }
        println!("ok daemonize");
    }

    fn pid(text: &str) -> Pid {
        Pid::from_raw(text.parse().unwrap_or(0))
    }

    /// Writes `mib` MiB to `big.bin`, as far as it may.
    fn big(mib: usize) {
        let chunk = vec![b'x'; 1 << 20];
        let mut file = match std::fs::File::create("big.bin") {
            Ok(file) => file,
            Err(err) => return println!("refused big: {err}"),
        };
        for written in 0..mib {
            if let Err(err) = file.write_all(&chunk) {
                return println!("refused big after {written} MiB: {err}");
            }
        }
        println!("ok big {mib} MiB");
    }

    /// `kill(-1, SIGKILL)`, only inside a fresh PID namespace: its own pid is tiny, and is not
    /// the pid `/proc` (mounted for the namespace outside) gives it.
    fn kill_all(callers: &str) {
        let me = getpid().as_raw();
        let own = std::fs::read_link("/proc/self/ns/pid");
        let fresh = me < 10
            && !callers.is_empty()
            && own.is_ok_and(|own| own.to_str().is_some_and(|own| own != callers));
        if !fresh {
            println!("refused kill-all: not in a fresh pid namespace, so never");
            return;
        }
        said("kill-all", kill(Pid::from_raw(-1), Signal::SIGKILL));
    }
}
