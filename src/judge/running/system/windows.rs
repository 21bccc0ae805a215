//! Windows: a sealed run is the program in a Job Object of its own. The job kills the whole
//! tree when the judge stops the run, when the run is over, and when the judge itself ends for
//! any reason (kill on close: the judge holds the job's only handle); it limits each process's
//! committed memory and the number of processes, refuses a child that asks to break away, ends
//! a process at an unhandled exception rather than waiting on an error dialog, and counts the
//! peak memory and the processes left. The program is started suspended and resumed only once it
//! is in the job, so nothing it starts is outside. Commands are written for `cmd.exe`. Wine runs
//! these binaries, but does not enforce a job's memory and process limits: the report says so.

use std::ffi::OsString;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, TH32CS_SNAPTHREAD, THREADENTRY32, Thread32First, Thread32Next,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_JOB_MEMORY,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectBasicAccountingInformation,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject,
    TerminateJobObject,
};
use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleW, GetProcAddress};
use windows_sys::Win32::System::Threading::{
    CREATE_SUSPENDED, OpenThread, ResumeThread, THREAD_SUSPEND_RESUME,
};

use super::{Ended, Exit, Keeping, SandboxMode, Seal, Sealing};

/// The exit code a stopped job's processes get.
const STOPPED: u32 = 0xC000_013A;

/// A Job Object, closed (and so its processes killed) when the last owner lets go.
struct Job(HANDLE);

// SAFETY: a job handle may be used and closed from any thread.
unsafe impl Send for Job {}
// SAFETY: as above; every use is a system call, which the system serialises.
unsafe impl Sync for Job {}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle this owns, closed once.
        unsafe { CloseHandle(self.0) };
    }
}

impl Job {
    /// A new job with the limits of `seal`.
    fn new(seal: &Seal) -> io::Result<Job> {
        // SAFETY: no name and default security: a new, unnamed, uninheritable job.
        let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if handle.is_null() {
            return Err(io::Error::last_os_error());
        }
        let job = Job(handle);
        // SAFETY: plain C data, for which zero bytes are a value (no limits).
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
        let basic = &mut limits.BasicLimitInformation;
        basic.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
            | JOB_OBJECT_LIMIT_ACTIVE_PROCESS;
        basic.ActiveProcessLimit = seal.sandbox.processes;
        if let Some(mb) = seal.memory_mb {
            // The job's processes together, committed memory (what they reserve is not).
            basic.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
            limits.JobMemoryLimit =
                usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        }
        // SAFETY: the job is open; the pointer and size are those of `limits`.
        let set = unsafe {
            SetInformationJobObject(
                job.0,
                JobObjectExtendedLimitInformation,
                (&raw const limits).cast(),
                size_of_u32::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>(),
            )
        };
        if set == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }

    /// Reads one of the job's information classes.
    fn query<T>(&self, class: i32) -> Option<T> {
        // SAFETY: the classes read here are plain C data, for which zero bytes are a value.
        let mut info: T = unsafe { std::mem::zeroed() };
        // SAFETY: the job is open; the pointer and size are those of `info`.
        let read = unsafe {
            QueryInformationJobObject(
                self.0,
                class,
                (&raw mut info).cast(),
                size_of_u32::<T>(),
                std::ptr::null_mut(),
            )
        };
        (read != 0).then_some(info)
    }

    /// Kills every process in the job.
    fn terminate(&self) {
        // SAFETY: the job is open.
        unsafe { TerminateJobObject(self.0, STOPPED) };
    }
}

/// The size of `T` as the system's calls take it.
fn size_of_u32<T>() -> u32 {
    u32::try_from(std::mem::size_of::<T>()).unwrap_or(u32::MAX)
}

/// A program started in its job.
pub struct Sealed {
    program: Child,
    job: Arc<Job>,
    stopped: Arc<AtomicBool>,
    status: Option<std::process::ExitStatus>,
    left: usize,
}

/// Ends a sealed run's tree from another thread: its job.
#[derive(Clone)]
pub struct Stopper {
    job: Arc<Job>,
    stopped: Arc<AtomicBool>,
}

impl std::fmt::Debug for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stopper")
    }
}

impl Stopper {
    /// Kills the whole job; the run reads as stopped.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.job.terminate();
    }

    /// Kills the whole job: the backstop, the same thing here.
    pub fn kill(&self) {
        self.job.terminate();
    }
}

impl Sealed {
    /// Starts `path` with `args` in a job with the limits of `seal`, its three streams piped.
    /// A start the system fails for a reason other than the program itself is tried again, a
    /// few times: Wine, loaded, now and then fails one with an internal error (2 judgings of
    /// 148 here, 100 cases each, ended by one).
    pub fn start(path: &Path, args: &[OsString], seal: &Seal) -> io::Result<Sealed> {
        let mut tries = 0;
        loop {
            match Sealed::try_start(path, args, seal) {
                Err(err)
                    if tries < 3
                        && !matches!(
                            err.kind(),
                            io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
                        ) =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                started => return started,
            }
        }
    }

    /// One try of [`Self::start`].
    fn try_start(path: &Path, args: &[OsString], seal: &Seal) -> io::Result<Sealed> {
        let job = Job::new(seal).map_err(|e| io::Error::other(format!("making its job: {e}")))?;
        let job = Arc::new(job);
        let mut command = Command::new(path);
        if let Some(work) = &seal.sandbox.work {
            command.current_dir(work);
        }
        let mut program = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .creation_flags(CREATE_SUSPENDED)
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("starting it: {e}")))?;
        // SAFETY: the job is open, and the handle is the suspended program's.
        let assigned = unsafe { AssignProcessToJobObject(job.0, program.as_raw_handle()) };
        let started = if assigned == 0 {
            let err = io::Error::last_os_error();
            Err(io::Error::other(format!("putting it in its job: {err}")))
        } else {
            resume(program.id()).map_err(|e| io::Error::other(format!("resuming it: {e}")))
        };
        if let Err(err) = started {
            let _ = program.kill();
            let _ = program.wait();
            return Err(err);
        }
        Ok(Sealed {
            program,
            job,
            stopped: Arc::new(AtomicBool::new(false)),
            status: None,
            left: 0,
        })
    }

    /// The program's standard input, output and error, the first time they are asked for.
    pub fn pipes(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        let program = &mut self.program;
        Some((
            program.stdin.take()?,
            program.stdout.take()?,
            program.stderr.take()?,
        ))
    }

    /// What ends the run's tree from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper {
            job: Arc::clone(&self.job),
            stopped: Arc::clone(&self.stopped),
        }
    }

    /// Ends the run at once (its job), and waits for it.
    pub fn close(&mut self) {
        self.stopper().kill();
        let _ = self.wait();
    }

    /// Waits until the program has ended, then counts what it left running and kills it.
    pub fn wait(&mut self) -> io::Result<()> {
        self.status = Some(self.program.wait()?);
        self.left = self
            .job
            .query::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>(JobObjectBasicAccountingInformation)
            .map_or(0, |info| info.ActiveProcesses as usize);
        self.job.terminate();
        Ok(())
    }

    /// How the run ended (its standard error holds nothing of the seal's here).
    #[allow(clippy::unnecessary_wraps)] // the same interface as Unix's, which can fail
    pub fn ended(self, _stderr: &mut Vec<u8>) -> io::Result<Ended> {
        let peak_kib = self
            .job
            .query::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>(JobObjectExtendedLimitInformation)
            .map_or(0, |info| info.PeakJobMemoryUsed as u64 / 1024);
        let exit = if self.stopped.load(Ordering::SeqCst) {
            Exit::Stopped
        } else {
            exit(self.status.and_then(|s| s.code()).unwrap_or(-1))
        };
        Ok(Ended {
            exit,
            peak_kib,
            left: self.left,
            hits: Vec::new(),
        })
    }
}

/// Resumes the threads of the suspended process `pid` (it has one: its first).
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: a snapshot of the system's threads, closed below.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: plain C data, for which zero bytes are a value.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = size_of_u32::<THREADENTRY32>();
    let mut resumed = 0;
    // SAFETY: the snapshot is open and `entry` is sized as the calls require.
    let mut more = unsafe { Thread32First(snapshot, &raw mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: a thread of the program, opened to resume it and closed after.
            unsafe {
                let thread = OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID);
                if !thread.is_null() {
                    if ResumeThread(thread) != u32::MAX {
                        resumed += 1;
                    }
                    CloseHandle(thread);
                }
            }
        }
        // SAFETY: as for the first entry.
        more = unsafe { Thread32Next(snapshot, &raw mut entry) } != 0;
    }
    // SAFETY: the snapshot opened above.
    unsafe { CloseHandle(snapshot) };
    if resumed == 0 {
        return Err(io::Error::other("cannot resume the program's first thread"));
    }
    Ok(())
}

/// How a program that ended with exit code `code` ended: a code of the form 0xCxxxxxxx (or a
/// breakpoint) is an exception the system ended it for, named where it is a common one.
fn exit(code: i32) -> Exit {
    let status = code.cast_unsigned();
    let name = match status {
        0xC000_0005 => "STATUS_ACCESS_VIOLATION",
        0xC000_00FD => "STATUS_STACK_OVERFLOW",
        0xC000_0409 => "STATUS_STACK_BUFFER_OVERRUN",
        0xC000_0094 => "STATUS_INTEGER_DIVIDE_BY_ZERO",
        0xC000_001D => "STATUS_ILLEGAL_INSTRUCTION",
        0xC000_0017 => "STATUS_NO_MEMORY",
        0xC000_0374 => "STATUS_HEAP_CORRUPTION",
        0xC000_013A => "STATUS_CONTROL_C_EXIT",
        0x8000_0003 => "STATUS_BREAKPOINT",
        status if status >= 0xC000_0000 => {
            return Exit::Signal(format!("exception 0x{status:08X}"));
        }
        _ => return Exit::Code(code),
    };
    Exit::Signal(name.to_string())
}

/// A bare program name is looked for in the current folder first, as `cmd.exe` does.
pub const CURRENT_FOLDER_FIRST: bool = true;

/// What a program's name may leave out.
pub const IMPLIED_EXTENSION: Option<&str> = Some(".exe");

/// Whether `path` is a file Windows runs as a program: `.exe`, `.com`, `.bat` or `.cmd`.
pub fn executable(path: &Path) -> bool {
    let program = path.extension().is_some_and(|extension| {
        ["exe", "com", "bat", "cmd"]
            .iter()
            .any(|known| extension.eq_ignore_ascii_case(known))
    });
    program && path.is_file()
}

/// `text` quoted for `cmd.exe` where it needs to be.
pub fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./\\=:,+@".contains(&b));
    if plain {
        text.to_string()
    } else {
        format!("\"{}\"", text.replace('"', "\"\""))
    }
}

/// `command` for `cmd.exe`, with `variables` set and its standard error joined to its
/// standard output: the program and its arguments.
pub fn shell(command: &str, variables: &[(String, String)]) -> (std::path::PathBuf, Vec<OsString>) {
    let mut line = String::new();
    for (name, value) in variables {
        line.push_str(&format!("set {name}={value}&& "));
    }
    line.push_str(&format!("({command}) 2>&1"));
    (
        "cmd.exe".into(),
        vec!["/d".into(), "/c".into(), line.into()],
    )
}

/// The batch file `NAME.cmd` that replays case `name` from the folder it is in: `run` (the
/// program's command line) with `NAME.in` on its standard input.
pub fn replay_script(run: &str, name: &str) -> String {
    format!(
        "@echo off\r\nrem Replays case {name}: its output against {name}.expected.\r\n\
         cd /d \"%~dp0\"\r\nif errorlevel 1 exit /b 2\r\n{run} < {}\r\n",
        quote(&format!("{name}.in"))
    )
}

/// Every run may read everything here: the job has no sandbox of files.
pub fn read_by_every_run(_path: &Path) -> bool {
    true
}

/// The keeper is Unix's: on Windows the job does its work, and the judge never starts one.
pub fn keep(keeping: &Keeping) -> ExitCode {
    let Keeping {
        memory_mb,
        address_space_mb,
        sandbox,
        probe,
        hold,
        program,
    } = keeping;
    let program = program
        .first()
        .map_or_else(String::new, |p| p.to_string_lossy().into_owned());
    let memory = memory_mb.map_or_else(String::new, |mb| format!(" within {mb} MiB"));
    let space = address_space_mb.map_or_else(String::new, |mb| format!(", {mb} MiB mapped"));
    let what = if *probe || *hold {
        "probing"
    } else {
        "keeping"
    };
    eprintln!(
        "error: not {what} {program}{memory}{space} (sandbox {}): Windows seals each run in a Job \
         Object, not a keeper",
        sandbox.mode.word()
    );
    ExitCode::from(2)
}

/// Whether this is Wine rather than Windows: its `ntdll` names its version.
fn under_wine() -> bool {
    let ntdll: Vec<u16> = "ntdll.dll".encode_utf16().chain([0]).collect();
    // SAFETY: a module every process has loaded, looked up by a NUL-terminated name; the
    // procedure is only looked up, never called.
    unsafe {
        let module = GetModuleHandleW(ntdll.as_ptr());
        !module.is_null() && GetProcAddress(module, c"wine_get_version".as_ptr().cast()).is_some()
    }
}

/// Nothing is held for the runs to share on Windows: each has its own job.
#[derive(Debug, Default)]
pub struct Holder;

impl Holder {
    /// No holder runs here.
    pub fn pid(&self) -> Option<u32> {
        None
    }
}

/// What a run is sealed with on Windows (and under Wine).
pub fn sealing(seal: &Seal) -> (Sealing, Holder) {
    let mut limits = vec![format!("at most {} processes", seal.sandbox.processes)];
    if let Some(mb) = seal.memory_mb {
        limits.insert(
            0,
            format!("committed memory <= {mb} MiB, the processes together"),
        );
    }
    let mut applied =
        vec!["Job Object: process tree killed at the end of each run and with the judge".into()];
    let mut missing = Vec::new();
    if under_wine() {
        missing.push(format!(
            "{}: asked of the Job Object, which Wine does not enforce",
            limits.join(" and ")
        ));
    } else {
        applied.extend(limits);
    }
    if seal.sandbox.mode != SandboxMode::Off {
        missing.push(
            "sandbox (files, network and system calls: Windows has no unprivileged equivalent of \
             Landlock and seccomp that a judge can set up alone)"
                .into(),
        );
    }
    (Sealing { applied, missing }, Holder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_of_exceptions_are_named_and_others_are_codes() {
        let cases = [
            (0, Exit::Code(0)),
            (3, Exit::Code(3)),
            (-1, Exit::Signal("exception 0xFFFFFFFF".into())),
            (
                0xC000_0005_u32.cast_signed(),
                Exit::Signal("STATUS_ACCESS_VIOLATION".into()),
            ),
            (
                0xC000_0409_u32.cast_signed(),
                Exit::Signal("STATUS_STACK_BUFFER_OVERRUN".into()),
            ),
            (
                0xC123_4567_u32.cast_signed(),
                Exit::Signal("exception 0xC1234567".into()),
            ),
        ];
        for (code, want) in cases {
            assert_eq!(exit(code), want, "{code:#x}");
        }
    }

    #[test]
    fn commands_are_quoted_for_cmd() {
        assert_eq!(quote(r"C:\work\student.exe"), r"C:\work\student.exe");
        assert_eq!(quote("two words"), "\"two words\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote(""), "\"\"");
        let script = replay_script("student.exe othello", "seed-1");
        assert!(
            script.ends_with("student.exe othello < seed-1.in\r\n"),
            "{script}"
        );
    }
}
