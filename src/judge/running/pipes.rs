//! Reading a running program's output: each pipe by a thread of its own, so that a program
//! that writes without end, or never closes its pipes, never blocks the judge; standard output
//! kept up to a limit, standard error's tail kept.

use std::io::{self, Read};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

/// The standard error kept of a run: its last 16 KiB, which hold a sanitizer's whole report
/// (its frames and shadow-memory legend come to 3 or 4 KiB).
const STDERR_TAIL: usize = 16 << 10;

/// Bytes being read from a pipe by a thread of their own.
pub struct Collecting {
    bytes: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Collecting {
    /// What was read, once the pipe closed or `grace` passed.
    pub fn finish(self, grace: Duration) -> Vec<u8> {
        let _ = self.done.recv_timeout(grace);
        std::mem::take(&mut *self.bytes.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Reads `pipe` to its end, keeping at most `limit` bytes; past that calls `over` once and
/// stops reading.
pub fn collect(
    mut pipe: impl Read + Send + 'static,
    limit: usize,
    over: impl FnOnce() + Send + 'static,
) -> Collecting {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let (done, finished) = mpsc::channel();
    let kept = Arc::clone(&bytes);
    thread::spawn(move || {
        let mut buf = [0; 1 << 16];
        let mut over = Some(over);
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            let room = limit - kept.len();
            kept.extend_from_slice(&buf[..n.min(room)]);
            if n > room {
                drop(kept);
                if let Some(over) = over.take() {
                    over();
                }
                break;
            }
        }
        let _ = done.send(());
    });
    Collecting {
        bytes,
        done: finished,
    }
}

/// Reads `pipe` to its end, keeping its last [`STDERR_TAIL`] bytes.
pub fn collect_tail(mut pipe: impl Read + Send + 'static) -> Collecting {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let (done, finished) = mpsc::channel();
    let kept = Arc::clone(&bytes);
    thread::spawn(move || {
        let mut buf = [0; 1 << 12];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            kept.extend_from_slice(&buf[..n]);
            let excess = kept.len().saturating_sub(STDERR_TAIL);
            kept.drain(..excess);
        }
        let _ = done.send(());
    });
    Collecting {
        bytes,
        done: finished,
    }
}
