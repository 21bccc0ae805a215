//! Zeroed memory for the solvers' large tables, straight from the system: on Linux a private
//! anonymous mapping, which costs nothing until a page is touched, asked to be backed by huge
//! pages (fewer page faults, and fewer address-translation misses on a table read at random);
//! elsewhere the allocator's zeroed memory. Nothing else in the crate maps memory.

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
        let start = Self::map(layout)?;
        Some(Zeroed { start, count })
    }

    #[cfg(target_os = "linux")]
    fn map(layout: std::alloc::Layout) -> Option<NonNull<T>> {
        use nix::sys::mman::{MapFlags, MmapAdvise, ProtFlags, madvise, mmap_anonymous};
        let length = std::num::NonZeroUsize::new(layout.size())?;
        // A mapping is aligned to a page, which no value here needs more than.
        debug_assert!(layout.align() <= 4096);
        // SAFETY: a new private anonymous mapping aliases nothing; the kernel fills it with
        // zeros, page-aligned.
        let start = unsafe {
            mmap_anonymous(
                None,
                length,
                ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
                MapFlags::MAP_PRIVATE,
            )
        }
        .ok()?;
        // SAFETY: advice on the whole of the mapping just made; huge pages are a hint, and
        // a kernel that does not take it leaves the mapping as it was.
        let _ = unsafe { madvise(start, layout.size(), MmapAdvise::MADV_HUGEPAGE) };
        Some(start.cast())
    }

    #[cfg(not(target_os = "linux"))]
    fn map(layout: std::alloc::Layout) -> Option<NonNull<T>> {
        // SAFETY: the layout's size is not zero (checked in `new`).
        NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }.cast())
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
        #[cfg(target_os = "linux")]
        // SAFETY: the mapping made in `map`, of this size, not used after this.
        let _ = unsafe { nix::sys::mman::munmap(self.start.cast(), layout.size()) };
        #[cfg(not(target_os = "linux"))]
        // SAFETY: allocated in `map` with this layout, not used after this.
        unsafe {
            std::alloc::dealloc(self.start.as_ptr().cast(), layout)
        };
    }
}
