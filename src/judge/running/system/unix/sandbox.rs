//! Linux: the sandbox the keeper puts a program in, in layers, each applied where the kernel
//! allows it, none needing root or set-up:
//! - files: Landlock; the program reads the system's shared files and its own folder, and
//!   writes only in a fresh scratch folder (its working folder, `HOME` and `TMPDIR`), removed
//!   when the run ends;
//! - network: a network namespace of its own (in a user namespace), with nothing in it; and
//!   always a seccomp refusal of internet and packet sockets, and Landlock's scopes, which keep
//!   abstract unix sockets and signals within the run;
//! - processes: a PID namespace of its own, whose first process (`init`, a fork of the keeper)
//!   starts the program, so that nothing outside is in reach of `kill` and nothing inside
//!   outlives the run; the keeper counts its processes (`linux.rs`), and the kernel caps its
//!   tasks, threads included, generously (a pids control group where one can be made; else
//!   `RLIMIT_NPROC`, which counts per user namespace for a user other than root);
//! - resources: file size (a write past it fails), no core files, CPU seconds, descriptors;
//! - system calls: `no_new_privs` and a seccomp filter that refuses, with `EPERM`, what a
//!   console program never needs;
//! - environment: only `PATH` (the grader's), `LANG=C`, `HOME` and `TMPDIR`; no descriptor
//!   beyond 0, 1 and 2;
//! - a program's own system: the devices every judge gives (`/dev/null`, `/dev/zero`,
//!   `/dev/full`, `/dev/random`, `/dev/urandom`) and, in a PID namespace, a `/proc` of its
//!   own, mounted by the namespace's first process in a mount namespace of its own, which
//!   shows the run's processes and nothing of the grader's (and with it `/dev/fd` and
//!   `/dev/stdin`); without one, `/proc` stays out of reach.
//!
//! Everything is prepared in the keeper before the program's process is forked, so that what
//! runs between fork and exec is system calls only.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::namespaces::{enter_namespaces, join_namespaces, mount_proc};
use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};
use nix::libc;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{SigHandler, Signal, signal};
use nix::unistd::geteuid;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::super::{Sandbox, SandboxMode, Sealing};

/// Descriptors a sandboxed program may have open.
const DESCRIPTORS: u64 = 64;

/// The folders of the system's shared files, which every program may read and run.
pub const SHARED: [&str; 8] = [
    "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc", "/opt",
];

/// The devices every program may read and write.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// The layers made ready for one run, and what they came to.
pub struct Prepared {
    /// The run's scratch folder: its working folder, `HOME` and `TMPDIR`.
    scratch: PathBuf,
    /// Whether the keeper is in a user, PID and network namespace of its own, so that its
    /// next child is the first process of the new PID namespace.
    namespaced: bool,
    /// The Landlock ruleset, to be enforced on the program.
    landlock: Option<RulesetCreated>,
    /// The seccomp filters, to be installed on the program.
    seccomp: Vec<BpfProgram>,
    /// `RLIMIT_NPROC` for the program, where it is the cap on processes.
    nproc: Option<u64>,
    /// The limits of the run.
    sandbox: Sandbox,
    /// The program's address-space limit, in bytes, where one was asked for.
    address_space: Option<u64>,
    /// What applied, and what did not with why.
    sealing: Sealing,
}

/// Where a run's user and network namespaces come from.
#[derive(Clone, Copy, Debug)]
pub enum Namespaces {
    /// Made for this run.
    Fresh,
    /// Those of the judge's holder, this pid (made once for a whole judging: a run pays
    /// for a PID and an IPC namespace only).
    Join(i32),
    /// The holder's own, which it is already in; whether it could make them.
    Held(bool),
}

/// Makes every layer ready, in the keeper: what could not be had is in `sealing.missing`.
/// `tasks_capped`: whether a pids control group caps the run's tasks.
pub fn prepare(
    sandbox: &Sandbox,
    program: &Path,
    address_space: Option<u64>,
    namespaces: Namespaces,
    tasks_capped: bool,
) -> Prepared {
    let mut applied = Vec::new();
    let mut missing = Vec::new();
    let scratch = sandbox.work.clone().unwrap_or_else(scratch_folder);
    let entered = match namespaces {
        Namespaces::Held(true) => Ok(()),
        Namespaces::Held(false) => Err("refused".to_string()),
        Namespaces::Join(holder) => {
            join_namespaces(holder, !tasks_capped).or_else(|_| enter_namespaces())
        }
        Namespaces::Fresh => enter_namespaces(),
    };
    let namespaced = match entered {
        Ok(()) => true,
        Err(why) => {
            missing.push(format!("namespaces ({why})"));
            false
        }
    };
    let abi = landlock_abi();
    let mut folders: Vec<PathBuf> = vec![program.parent().unwrap_or(Path::new("/")).into()];
    folders.extend(sandbox.read.iter().cloned());
    let landlock = (abi > 0)
        .then(|| landlock_ruleset(&folders, &scratch))
        .and_then(Result::ok);
    match (&landlock, abi) {
        (Some(_), _) => applied.push(format!("files (Landlock {abi})")),
        (None, 0) => missing.push("files (this kernel has no Landlock)".to_string()),
        (None, _) => missing.push("files (the Landlock ruleset could not be made)".to_string()),
    }
    let seccomp = seccomp_filters(landlock.is_some());
    let filtered = !seccomp.is_empty();
    let mut network = Vec::new();
    if namespaced {
        network.push("namespace");
    }
    if filtered {
        network.push("no internet sockets");
    }
    if landlock.is_some() && abi >= 6 {
        network.push("abstract sockets scoped");
    }
    if network.is_empty() {
        missing.push("network".to_string());
    } else {
        applied.push(format!("network ({})", network.join(", ")));
    }
    let root = geteuid().is_root();
    let tasks = super::tree::tasks(sandbox.processes);
    let nproc = (namespaced && !root && !tasks_capped).then(|| u64::from(tasks) + 2);
    let cap = match (tasks_capped, nproc) {
        (true, _) => Some(format!("{tasks} tasks with threads (pids cgroup)")),
        (false, Some(_)) => Some(format!("{tasks} tasks with threads (RLIMIT_NPROC)")),
        (false, None) => None,
    };
    let mut processes = Vec::new();
    if namespaced {
        processes.push("pid namespace".to_string());
    }
    if landlock.is_some() && abi >= 6 {
        processes.push("signals scoped".to_string());
    }
    processes.push(format!(
        "{} processes, threads apart (counted every {} ms)",
        sandbox.processes,
        super::tree::LOOK.as_millis()
    ));
    processes.extend(cap.clone());
    if processes.is_empty() {
        missing.push("processes".to_string());
    } else {
        applied.push(format!("processes ({})", processes.join(", ")));
    }
    if cap.is_none() {
        missing.push(if root {
            "the kernel's cap on tasks (as root RLIMIT_NPROC does not hold, and no pids cgroup could be made)".to_string()
        } else {
            "the kernel's cap on tasks (no user namespace, and RLIMIT_NPROC would count all of the user's)".to_string()
        });
    }
    if filtered {
        applied.push("system calls (seccomp)".to_string());
    } else {
        missing.push("system calls (no seccomp filter)".to_string());
    }
    if landlock.is_some() && namespaced {
        applied.push("its own /proc (of its PID namespace) and devices".to_string());
    } else if landlock.is_some() {
        missing.push("a /proc of its own (no PID namespace: /proc is out of reach)".to_string());
    }
    applied.push(format!(
        "files <= {} MiB, CPU {} s, {DESCRIPTORS} descriptors, no core files, a clean environment",
        sandbox.file_mb, sandbox.cpu_seconds
    ));
    Prepared {
        scratch,
        namespaced,
        landlock,
        seccomp,
        nproc,
        sandbox: sandbox.clone(),
        address_space,
        sealing: Sealing { applied, missing },
    }
}

impl Prepared {
    /// What applied, and what did not with why.
    pub fn sealing(&self) -> &Sealing {
        &self.sealing
    }

    /// Whether the keeper entered namespaces of its own: its next child is the first process
    /// of the run's PID namespace.
    pub fn is_namespaced(&self) -> bool {
        self.namespaced
    }

    /// Why a strict sandbox may not run: a layer missing.
    pub fn refusal(&self) -> Option<String> {
        (self.sandbox.mode == SandboxMode::Strict && !self.sealing.missing.is_empty()).then(|| {
            format!(
                "--sandbox strict: missing {}",
                self.sealing.missing.join(", ")
            )
        })
    }

    /// The program's command, with every layer set to be applied between fork and exec.
    /// `joiner` puts it in the run's control groups, before Landlock closes their files.
    pub fn command(
        &mut self,
        path: &OsString,
        args: &[OsString],
        joiner: super::tree::Joiner,
    ) -> Command {
        let mut command = Command::new(path);
        command
            .args(args)
            .env_clear()
            // The grader's PATH: the folders in it that the program may use are Landlock's to
            // say.
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
            )
            .env("LANG", "C")
            .env("HOME", &self.scratch)
            .env("TMPDIR", &self.scratch)
            .current_dir(&self.scratch);
        let limits = Limits {
            address_space: self.address_space,
            file: self.sandbox.file_mb.saturating_mul(1 << 20),
            cpu: self.sandbox.cpu_seconds,
            nproc: self.nproc,
        };
        let mut landlock = self.landlock.take();
        let seccomp = std::mem::take(&mut self.seccomp);
        // SAFETY: between fork and exec only system calls are made: the rlimits, a signal
        // disposition, prctl, close_range, the groups' open and write, Landlock's and
        // seccomp's; everything they need was made before the fork.
        unsafe {
            command.pre_exec(move || {
                limits.set()?;
                joiner.join();
                if let Some(ruleset) = landlock.take() {
                    ruleset.restrict_self().map_err(std::io::Error::other)?;
                }
                for filter in &seccomp {
                    seccompiler::apply_filter(filter).map_err(std::io::Error::other)?;
                }
                Ok(())
            });
        }
        command
    }

    /// Which of its limits the run hit, as `file`, read before [`Self::clean`].
    pub fn hits(&self) -> Vec<&'static str> {
        let mut hits = Vec::new();
        let limit = self.sandbox.file_mb.saturating_mul(1 << 20);
        if largest_file(&self.scratch) >= limit {
            hits.push("file");
        }
        hits
    }

    /// Removes the scratch folder, once nothing of the run is left.
    pub fn clean(&self) {
        if self.sandbox.work.is_none() {
            let _ = std::fs::remove_dir_all(&self.scratch);
        }
    }

    /// In the namespace's first process: dies with the keeper, and mounts the run's own
    /// `/proc`, which the program may then read (where the mount fails, it may not).
    pub fn enter_run(&mut self) {
        let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
        if mount_proc().is_err() {
            return;
        }
        let read = AccessFs::from_read(ABI::V6);
        self.landlock = self
            .landlock
            .take()
            .and_then(|rules| rules.add_rules(path_beneath_rules(["/proc"], read)).ok());
    }
}

/// The resource limits of the program, set between fork and exec.
#[derive(Clone, Copy)]
struct Limits {
    address_space: Option<u64>,
    file: u64,
    cpu: u64,
    nproc: Option<u64>,
}

impl Limits {
    fn set(self) -> std::io::Result<()> {
        if let Some(bytes) = self.address_space {
            setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
        }
        setrlimit(Resource::RLIMIT_FSIZE, self.file, self.file)?;
        setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
        setrlimit(Resource::RLIMIT_CPU, self.cpu, self.cpu.saturating_add(1))?;
        setrlimit(Resource::RLIMIT_NOFILE, DESCRIPTORS, DESCRIPTORS)?;
        if let Some(n) = self.nproc {
            setrlimit(Resource::RLIMIT_NPROC, n, n)?;
        }
        // A write past the file limit fails with EFBIG, as the program sees it, rather than
        // killing it.
        // SAFETY: ignoring a signal installs no handler.
        unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) }?;
        nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
        // Every descriptor above standard error is closed at exec (what the standard library
        // opens is already; this catches any other). SAFETY: it only sets close-on-exec flags.
        unsafe {
            libc::syscall(
                libc::SYS_close_range,
                3_u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            )
        };
        Ok(())
    }
}

/// A fresh scratch folder, private to the user.
fn scratch_folder() -> PathBuf {
    let template = std::env::temp_dir().join("boardgames-run-XXXXXX");
    nix::unistd::mkdtemp(&template).unwrap_or(template)
}

/// The kernel's Landlock ABI, 0 without Landlock.
fn landlock_abi() -> i64 {
    // SAFETY: asks for the ABI version only; no pointer is read.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0_usize,
            1_u32,
        )
    };
    version.max(0)
}

/// The Landlock ruleset: the shared files and `folders` to read and run, the scratch folder
/// for everything, `/dev/null`; TCP refused; abstract sockets and signals kept in the run.
fn landlock_ruleset(
    folders: &[PathBuf],
    scratch: &Path,
) -> Result<RulesetCreated, landlock::RulesetError> {
    let abi = ABI::V6;
    let read = AccessFs::from_read(abi);
    let readable: Vec<PathBuf> = SHARED
        .iter()
        .map(PathBuf::from)
        .chain(folders.iter().cloned())
        .filter(|p| p.exists())
        .collect();
    landlock::Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?
        .scope(Scope::AbstractUnixSocket | Scope::Signal)?
        .create()?
        .add_rules(path_beneath_rules(&readable, read))?
        .add_rules(path_beneath_rules(DEVICES, AccessFs::from_all(abi)))?
        .add_rules(path_beneath_rules([scratch], AccessFs::from_all(abi)))
}

/// The seccomp filters: what a console program never needs refused with EPERM, internet and
/// packet sockets refused, a clone into new namespaces refused, and `clone3` (whose flags a
/// filter cannot read) answered ENOSYS, so that the C library falls back to `clone`.
///
/// `ptrace` is refused only without Landlock: with it, a run may trace only processes of its
/// own Landlock domain (neither the grader's nor its unsandboxed first process), and
/// LeakSanitizer, on in every AddressSanitizer build, traces the program's own threads at exit.
fn seccomp_filters(landlocked: bool) -> Vec<BpfProgram> {
    let Ok(arch) = TargetArch::try_from(std::env::consts::ARCH) else {
        return Vec::new();
    };
    let ptrace = (!landlocked).then_some(libc::SYS_ptrace);
    let refused: &[i64] = &[
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_userfaultfd,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_quotactl,
    ];
    let argument = |index: u8, op: SeccompCmpOp, value: u64| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value)
            .and_then(|c| SeccompRule::new(vec![c]))
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = refused
        .iter()
        .copied()
        .chain(ptrace)
        .map(|call| (call, Vec::new()))
        .collect();
    let families = [libc::AF_INET, libc::AF_INET6, libc::AF_PACKET];
    let sockets: Result<Vec<_>, _> = families
        .iter()
        .map(|&f| argument(0, SeccompCmpOp::Eq, f.cast_unsigned().into()))
        .collect();
    let namespaces = [
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
        libc::CLONE_NEWNS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWCGROUP,
    ];
    let clones: Result<Vec<_>, _> = namespaces
        .iter()
        .map(|&flag| {
            let flag = u64::from(flag.cast_unsigned());
            argument(0, SeccompCmpOp::MaskedEq(flag), flag)
        })
        .collect();
    let (Ok(sockets), Ok(clones)) = (sockets, clones) else {
        return Vec::new();
    };
    rules.insert(libc::SYS_socket, sockets);
    rules.insert(libc::SYS_clone, clones);
    let eperm = SeccompAction::Errno(libc::EPERM.cast_unsigned());
    let enosys = SeccompAction::Errno(libc::ENOSYS.cast_unsigned());
    let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
    [(rules, eperm), (clone3, enosys)]
        .into_iter()
        .map(|(rules, action)| {
            SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
                .and_then(BpfProgram::try_from)
        })
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_default()
}

/// The size of the largest file in `folder` and below.
fn largest_file(folder: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => largest_file(&entry.path()),
            Ok(_) => entry.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .max()
        .unwrap_or(0)
}
