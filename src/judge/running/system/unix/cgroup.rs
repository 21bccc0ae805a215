//! Linux: the control groups a run is born in, made by the keeper as the judge's user before
//! any namespace: a memory group, whose limit is on what the run's processes use together
//! (resident plus swap, never the address space they reserve), and a pids group, the kernel's
//! cap on the run's tasks. Each is made where the judge may make one: below the keeper's own
//! group in cgroup v1's hierarchy of that controller, or in v2 where the controller is enabled
//! for the keeper's group (as root, or in a group delegated to the user). What it cannot make
//! is absent, and the caller says so. It reads back the peak, the kernel's OOM kills and the
//! cap's refusals, and removes the groups once the run is over.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::libc;

/// A controller's group made for one run.
struct Group {
    /// Its folder.
    dir: PathBuf,
    /// Whether it is cgroup v2's (whose files are named otherwise).
    v2: bool,
}

/// Puts a process in a run's groups: each group's `cgroup.procs`, ready before the fork.
#[derive(Clone, Debug, Default)]
pub struct Joiner(Vec<CString>);

impl Joiner {
    /// Puts the calling process in every group, and so everything it starts. Async-signal-safe
    /// (open, write and close only), for a child between fork and exec.
    pub fn join(&self) {
        for procs in &self.0 {
            // SAFETY: a path made before the fork; the calls read only the two buffers.
            unsafe {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd >= 0 {
                    libc::write(fd, b"0".as_ptr().cast(), 1);
                    libc::close(fd);
                }
            }
        }
    }
}

/// The run's control groups.
#[derive(Default)]
pub struct Groups {
    /// The memory group, limited to the run's memory.
    memory: Option<Group>,
    /// The pids group, capped at the run's tasks.
    pids: Option<Group>,
    /// Each group's `cgroup.procs`, ready for an async-signal-safe join.
    procs: Vec<CString>,
}

impl Groups {
    /// A memory group limited to `memory` bytes and a pids group capped at `tasks`, each where
    /// the judge may make it (one group for both in cgroup v2).
    pub fn make(memory: Option<u64>, tasks: Option<u32>) -> Groups {
        let name = format!("boardgames-{}", std::process::id());
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let mut groups = Groups::default();
        if let Some(bytes) = memory {
            groups.memory = make_group(&own, "memory", &name, |group| {
                let limit = bytes.to_string();
                if group.v2 {
                    write(group, "memory.max", &limit)?;
                    // Swap counts as use: none, so that use is what is resident.
                    let _ = write(group, "memory.swap.max", "0");
                } else {
                    write(group, "memory.limit_in_bytes", &limit)?;
                    let _ = write(group, "memory.memsw.limit_in_bytes", &limit);
                }
                Ok(())
            });
        }
        if let Some(tasks) = tasks {
            let shared = groups
                .memory
                .as_ref()
                .filter(|g| g.v2)
                .map(|g| g.dir.clone());
            groups.pids = match shared {
                // A process is in one v2 group: the memory group caps tasks too, or none does.
                Some(dir) => {
                    let group = Group { dir, v2: true };
                    write(&group, "pids.max", &tasks.to_string())
                        .is_ok()
                        .then_some(group)
                }
                None => make_group(&own, "pids", &name, |group| {
                    write(group, "pids.max", &tasks.to_string())
                }),
            };
        }
        let mut dirs: Vec<&Path> = [&groups.memory, &groups.pids]
            .into_iter()
            .flatten()
            .map(|g| g.dir.as_path())
            .collect();
        dirs.dedup();
        groups.procs = dirs
            .iter()
            .filter_map(|dir| CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()).ok())
            .collect();
        groups
    }

    /// The memory group's kind, when there is one: `memory cgroup v1` or `v2`.
    pub fn memory_kind(&self) -> Option<&'static str> {
        self.memory.as_ref().map(|g| {
            if g.v2 {
                "memory cgroup v2"
            } else {
                "memory cgroup v1"
            }
        })
    }

    /// Whether the kernel caps the run's tasks by a pids group.
    pub fn caps_tasks(&self) -> bool {
        self.pids.is_some()
    }

    /// What puts a process in every group, for a child between fork and exec.
    pub fn joiner(&self) -> Joiner {
        Joiner(self.procs.clone())
    }

    /// The limits the run reached, read before [`Self::remove`]: `memory` when the kernel
    /// killed a process of it for want of memory, `processes` when it refused a task.
    pub fn hits(&self) -> Vec<&'static str> {
        let mut hits = Vec::new();
        if let Some(group) = &self.memory {
            let file = if group.v2 {
                "memory.events"
            } else {
                "memory.oom_control"
            };
            if counter(group, file, "oom_kill").is_some_and(|n| n > 0) {
                hits.push("memory");
            }
        }
        if let Some(group) = &self.pids
            && counter(group, "pids.events", "max").is_some_and(|n| n > 0)
        {
            hits.push("processes");
        }
        hits
    }

    /// The most memory the run's processes used together, in KiB, where the group keeps it.
    pub fn peak_kib(&self) -> Option<u64> {
        let group = self.memory.as_ref()?;
        let files: &[&str] = if group.v2 {
            &["memory.peak"]
        } else {
            &[
                "memory.memsw.max_usage_in_bytes",
                "memory.max_usage_in_bytes",
            ]
        };
        files.iter().find_map(|file| {
            let text = std::fs::read_to_string(group.dir.join(file)).ok()?;
            text.trim().parse::<u64>().ok().map(|bytes| bytes / 1024)
        })
    }

    /// Removes the groups, once nothing of the run is left in them.
    pub fn remove(&self) {
        for group in [&self.pids, &self.memory].into_iter().flatten() {
            // A group whose last process is still being torn down is busy a moment.
            for _ in 0..100 {
                match std::fs::remove_dir(&group.dir) {
                    Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    _ => break,
                }
            }
        }
    }
}

/// A group `name` of `controller`, set up by `limit`: below the keeper's own group in v1's
/// hierarchy of that controller, else in v2's; `None` where neither can be made and limited.
fn make_group(
    own: &str,
    controller: &str,
    name: &str,
    limit: impl Fn(&Group) -> std::io::Result<()>,
) -> Option<Group> {
    let v1 = own.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        controllers
            .split(',')
            .any(|c| c == controller)
            .then(|| (Path::new("/sys/fs/cgroup").join(controller), path))
    });
    // v2's own hierarchy at the usual place (on a hybrid system a tmpfs holds v1's there).
    let v2 = own
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(|path| (PathBuf::from("/sys/fs/cgroup"), path));
    [(v1, false), (v2, true)]
        .into_iter()
        .filter_map(|(place, v2)| Some((place?, v2)))
        .filter(|((mount, _), _)| mount.join("cgroup.procs").exists())
        .find_map(|((mount, path), v2)| {
            let dir = mount.join(path.trim_start_matches('/')).join(name);
            std::fs::create_dir(&dir).ok()?;
            let group = Group { dir, v2 };
            match limit(&group) {
                Ok(()) => Some(group),
                Err(_) => {
                    let _ = std::fs::remove_dir(&group.dir);
                    None
                }
            }
        })
}

/// Writes `value` to the group's `file`, which the controller must have made (a file that is
/// not there is an error, never created).
fn write(group: &Group, file: &str, value: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .write(true)
        .open(group.dir.join(file))?
        .write_all(value.as_bytes())
}

/// The number after `key` in the group's `file` of `key value` lines.
fn counter(group: &Group, file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(group.dir.join(file)).ok()?;
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}
