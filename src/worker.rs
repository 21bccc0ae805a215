//! Worker threads whose panics stay panics: a worker is started through [`spawn`] and its
//! result taken through [`joined`], which carries a panic on into the thread that joins it, so
//! that it ends the program as the internal error it is (`main.rs` prints it and exits with
//! 101), never as a default value or another error. Debug builds have a test hook: with
//! `BOARDGAMES_PANIC_IN_WORKER` in the environment, every worker started here panics at once.
//! Never does I/O.

use std::thread::{Builder, Scope, ScopedJoinHandle};

/// The environment variable that makes every worker panic as it starts, in debug builds.
pub const PANIC_HOOK: &str = "BOARDGAMES_PANIC_IN_WORKER";

/// Starts `work` on a thread of `scope`, as [`Scope::spawn`] does (which panics if the system
/// will not start one).
pub fn spawn<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    work: impl FnOnce() -> T + Send + 'scope,
) -> ScopedJoinHandle<'scope, T> {
    scope.spawn(boxed(work))
}

/// `work` behind one indirection, after the test hook: the standard library's thread start
/// is then built once for each result type, not once for each job of each board size.
fn boxed<'scope, T>(
    work: impl FnOnce() -> T + Send + 'scope,
) -> Box<dyn FnOnce() -> T + Send + 'scope> {
    Box::new(move || {
        inject();
        work()
    })
}

/// Starts `work` on a thread of `scope` with a `stack`-byte stack; the error is the system's
/// refusal, which the caller may answer by running `work` itself.
pub fn spawn_with_stack<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    stack: usize,
    work: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<ScopedJoinHandle<'scope, T>> {
    Builder::new()
        .stack_size(stack)
        .spawn_scoped(scope, boxed(work))
}

/// The test hook: in debug builds, a panic when [`PANIC_HOOK`] is set.
fn inject() {
    if cfg!(debug_assertions) && std::env::var_os(PANIC_HOOK).is_some() {
        panic!("a worker's panic, injected by {PANIC_HOOK}");
    }
}

/// What a joined worker returned; its panic goes on in this thread.
pub fn joined<T>(result: std::thread::Result<T>) -> T {
    result.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_returns_its_value_and_its_panic_goes_on_in_the_joining_thread() {
        let value = std::thread::scope(|scope| {
            joined(spawn_with_stack(scope, 1 << 20, || 6 * 7).unwrap().join())
        });
        assert_eq!(value, 42);
        let caught = std::panic::catch_unwind(|| {
            std::thread::scope(|scope| {
                let worker = spawn(scope, || -> u32 { panic!("lost stone") });
                joined(worker.join())
            })
        });
        let panic = caught.expect_err("the worker's panic reaches the joining thread");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"lost stone"));
    }
}
