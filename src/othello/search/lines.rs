//! Zeroed cache lines of atomic words for the solver's table, straight from the system: on Linux
//! a private anonymous mapping, which costs nothing until a page is touched, asked to be backed
//! by huge pages (fewer page faults, and fewer address-translation misses on a table read at
//! random); elsewhere the allocator's zeroed memory. Nothing else in the crate maps memory.

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// Eight words on a cache line of their own.
#[repr(align(64))]
pub struct Line(pub [AtomicU64; 8]);

/// Cache lines, all zero when made.
pub struct Lines {
    start: NonNull<Line>,
    count: usize,
}

// SAFETY: `Lines` owns its memory as a `Box<[Line]>` would, and `Line` (atomic words) is both
// `Send` and `Sync`.
unsafe impl Send for Lines {}
// SAFETY: as above.
unsafe impl Sync for Lines {}

impl Lines {
    /// `count` (at least one) zeroed lines, or `None` when the memory cannot be had.
    pub fn zeroed(count: usize) -> Option<Lines> {
        let layout = std::alloc::Layout::array::<Line>(count.max(1)).ok()?;
        let start = Self::map(layout)?;
        Some(Lines {
            start,
            count: count.max(1),
        })
    }

    #[cfg(target_os = "linux")]
    fn map(layout: std::alloc::Layout) -> Option<NonNull<Line>> {
        use nix::sys::mman::{MapFlags, MmapAdvise, ProtFlags, madvise, mmap_anonymous};
        let length = std::num::NonZeroUsize::new(layout.size())?;
        // SAFETY: a new private anonymous mapping aliases nothing; the kernel fills it with
        // zeros, page-aligned (more than a line's alignment).
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
    fn map(layout: std::alloc::Layout) -> Option<NonNull<Line>> {
        // SAFETY: the layout's size is not zero (at least one line).
        NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }.cast())
    }
}

impl Deref for Lines {
    type Target = [Line];

    fn deref(&self) -> &[Line] {
        // SAFETY: `start` points to `count` lines this value owns, zeroed when made (all-zero
        // bytes are valid atomic words) and changed since only through their atomics.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.count) }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<Line>(self.count).expect("made with it");
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
