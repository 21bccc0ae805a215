//! Linux: a table's memory is a private anonymous mapping, asked to be backed by huge pages.

use std::alloc::Layout;
use std::ptr::NonNull;

use nix::sys::mman::{MapFlags, MmapAdvise, ProtFlags, madvise, mmap_anonymous, munmap};

/// Zeroed, page-aligned memory of `layout` (whose size is not zero), or `None`.
pub fn map(layout: Layout) -> Option<NonNull<u8>> {
    let length = std::num::NonZeroUsize::new(layout.size())?;
    // A mapping is aligned to a page, which no value here needs more than.
    debug_assert!(layout.align() <= 4096);
    // SAFETY: a new private anonymous mapping aliases nothing; the kernel fills it with zeros,
    // page-aligned.
    let start = unsafe {
        mmap_anonymous(
            None,
            length,
            ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
            MapFlags::MAP_PRIVATE,
        )
    }
    .ok()?;
    // SAFETY: advice on the whole of the mapping just made; huge pages are a hint, and a kernel
    // that does not take it leaves the mapping as it was.
    let _ = unsafe { madvise(start, layout.size(), MmapAdvise::MADV_HUGEPAGE) };
    Some(start.cast())
}

/// Gives back memory that [`map`] made.
///
/// # Safety
/// `start` and `layout` are those of one call of [`map`], and the memory is not used after.
pub unsafe fn unmap(start: NonNull<u8>, layout: Layout) {
    // SAFETY: the caller's promise: a mapping of this size, not used after this.
    let _ = unsafe { munmap(start.cast(), layout.size()) };
}
