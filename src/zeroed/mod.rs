//! Zeroed memory for the solvers' large tables, straight from the system, behind one interface
//! (`memory`: map and unmap zeroed bytes) with a file per system: on Linux a private anonymous
//! mapping, which costs nothing until a page is touched, asked to be backed by huge pages (fewer
//! page faults, and fewer address-translation misses on a table read at random); on macOS and
//! Windows the allocator's zeroed memory, which for blocks this large is fresh pages from the
//! system, zeroed as they are first touched. Nothing else in the crate maps memory.

#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod memory;
#[cfg(not(target_os = "linux"))]
#[path = "portable.rs"]
mod memory;

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64};

/// A type for which all-zero bytes are a valid value, shared between threads.
///
/// # Safety
/// All-zero bytes must be a valid value of the type.
pub unsafe trait Zero: Send + Sync {}

// SAFETY: an atomic integer of zero bytes is 0.
unsafe impl Zero for AtomicU8 {}
// SAFETY: as above.
unsafe impl Zero for AtomicU64 {}
// SAFETY: an array of values that may be all zero may be all zero.
unsafe impl<T: Zero, const N: usize> Zero for [T; N] {}

/// Eight words on a cache line of their own.
#[repr(align(64))]
pub struct Line(pub [AtomicU64; 8]);

// SAFETY: eight atomic words, which may be zero.
unsafe impl Zero for Line {}

/// Values of `T`, all zero when made.
pub struct Zeroed<T: Zero> {
    start: NonNull<T>,
    count: usize,
}

// SAFETY: `Zeroed` owns its memory as a `Box<[T]>` would, and `T` is both `Send` and `Sync`.
unsafe impl<T: Zero> Send for Zeroed<T> {}
// SAFETY: as above.
unsafe impl<T: Zero> Sync for Zeroed<T> {}

impl<T: Zero> Zeroed<T> {
    /// `count` (at least one) zeroed values, or `None` when the memory cannot be had.
    pub fn new(count: usize) -> Option<Zeroed<T>> {
        let count = count.max(1);
        let layout = std::alloc::Layout::array::<T>(count).ok()?;
        if layout.size() == 0 {
            return None;
        }
        let start = memory::map(layout)?.cast();
        Some(Zeroed { start, count })
    }
}

impl<T: Zero> Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `start` points to `count` values this owns, zeroed when made (valid, as `T`
        // is `Zero`) and changed since only through shared references (atomics).
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.count) }
    }
}

impl<T: Zero> Drop for Zeroed<T> {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<T>(self.count).expect("made with it");
        // SAFETY: mapped in `new` with this layout, not used after this.
        unsafe { memory::unmap(self.start.cast(), layout) };
    }
}
