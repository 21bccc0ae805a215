//! macOS and Windows: a table's memory is the allocator's zeroed memory. For blocks this large
//! both allocators ask the system for fresh pages, which are zero until first touched.

use std::alloc::Layout;
use std::ptr::NonNull;

/// Zeroed memory of `layout` (whose size is not zero), or `None`.
pub fn map(layout: Layout) -> Option<NonNull<u8>> {
    // SAFETY: the layout's size is not zero (the caller checks).
    NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
}

/// Gives back memory that [`map`] made.
///
/// # Safety
/// `start` and `layout` are those of one call of [`map`], and the memory is not used after.
pub unsafe fn unmap(start: NonNull<u8>, layout: Layout) {
    // SAFETY: the caller's promise: allocated in `map` with this layout, not used after this.
    unsafe { std::alloc::dealloc(start.as_ptr(), layout) };
}
