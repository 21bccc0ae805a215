//! Linux: the namespaces a sandboxed run is put in, made by its keeper: a user and a network
//! namespace (the judge's holder's, made once, or the run's own), PID and IPC namespaces of the
//! run's own, and, in the run's first process, a mount namespace with a `/proc` of the run's
//! PID namespace. Making them is all it does; `sandbox.rs` decides when.

use nix::sched::{CloneFlags, setns, unshare};
use nix::unistd::{getegid, geteuid};

/// Mounts a procfs of this process's PID namespace on `/proc`, in a mount namespace of its own.
/// That namespace is made in a user namespace other than the system's, always (the holder's or
/// the run's), so it is "less privileged" (mount_namespaces(7)): its shared mounts become
/// slaves, and nothing mounted in it reaches the system's, with no private remount needed.
pub fn mount_proc() -> nix::Result<()> {
    use nix::mount::{MsFlags, mount};
    unshare(CloneFlags::CLONE_NEWNS)?;
    let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    mount(Some("proc"), "/proc", Some("proc"), flags, None::<&str>)
}

/// Puts the keeper in user, network, PID and IPC namespaces of its own.
pub fn enter_namespaces() -> Result<(), String> {
    hold()?;
    unshare(CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWIPC)
        .map_err(|e| format!("refused: {}", e.desc()))
}

/// Puts this process in a user and a network namespace of its own: the holder's, or a
/// run's own.
pub fn hold() -> Result<(), String> {
    let ids = (geteuid(), getegid());
    unshare(CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNET)
        .map_err(|e| format!("refused: {}", e.desc()))?;
    map_ids(ids)
}

/// Puts the keeper in the holder's network namespace (joining the holder's user namespace
/// first, which the same user may, being its owner), then in PID and IPC namespaces of its
/// own: nothing of one run reaches the next. With `own_user`, in a user namespace of its own
/// too, so that a cap on tasks by `RLIMIT_NPROC` counts the run's own only (a pids control
/// group needs none, and a run spares making one).
pub fn join_namespaces(holder: i32, own_user: bool) -> Result<(), String> {
    let ids = (geteuid(), getegid());
    for (name, flag) in [
        ("user", CloneFlags::CLONE_NEWUSER),
        ("net", CloneFlags::CLONE_NEWNET),
    ] {
        let file = std::fs::File::open(format!("/proc/{holder}/ns/{name}"))
            .map_err(|e| format!("the holder's {name} namespace: {e}"))?;
        setns(file, flag).map_err(|e| format!("joining the holder's {name}: {}", e.desc()))?;
    }
    let user = if own_user {
        CloneFlags::CLONE_NEWUSER
    } else {
        CloneFlags::empty()
    };
    unshare(user | CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWIPC)
        .map_err(|e| format!("refused: {}", e.desc()))?;
    if own_user { map_ids(ids) } else { Ok(()) }
}

/// Maps this process's user and group, in the user namespace it has just made, to
/// themselves.
fn map_ids((uid, gid): (nix::unistd::Uid, nix::unistd::Gid)) -> Result<(), String> {
    let write =
        |file: &str, text: String| std::fs::write(file, text).map_err(|e| format!("{file}: {e}"));
    write("/proc/self/setgroups", "deny".into())?;
    write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
    write("/proc/self/gid_map", format!("{gid} {gid} 1"))
}
