//! Zeroed memory for the solvers' large tables, straight from the system, behind one interface
//! (`memory`: map and unmap zeroed bytes) with a file per system: on Linux a private anonymous
//! mapping, which costs nothing until a page is touched, asked to be backed by huge pages (fewer
//! page faults, and fewer address-translation misses on a table read at random); on macOS and
//! Windows the allocator's zeroed memory, which for blocks this large is fresh pages from the
//! system, zeroed as they are first touched. Nothing else in the crate maps memory.
//!
//! A table may leave its memory to the next table of the same size in the process
//! ([`Zeroed::keep_when_dropped`]), which zeroes only the part the first one used: pages the
//! system has backed once are not backed again (on the test machine a fresh page costs more
//! than its zeroing: 1.2 s of a 13 s solve with a 512 MiB table). At most one such block is
//! kept, and it is given back before any table of another size is made.
//!
//! A search reads such tables at random, so that most of its time can go to waiting for memory:
//! [`prefetch`] starts a read early, so that several overlap.

#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod memory;
#[cfg(not(target_os = "linux"))]
#[path = "portable.rs"]
mod memory;

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64};
use std::sync::{Mutex, PoisonError};

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
    /// Values from the start that may not be zero when dropped, where the memory is then kept
    /// for the next block of its size ([`Zeroed::keep_when_dropped`]); `None`: given back.
    kept: Option<usize>,
}

/// A dropped block kept for the next of its size: its memory, its layout and the bytes from
/// its start that may not be zero.
struct Spare {
    start: NonNull<u8>,
    layout: std::alloc::Layout,
    dirty: usize,
}

// SAFETY: the block is owned by whoever holds the `Spare`, and only raw bytes are in it.
unsafe impl Send for Spare {}

/// Where a dropped block waits for the next of its size: one block at most.
struct Keeper(Mutex<Option<Spare>>);

impl Keeper {
    const fn new() -> Self {
        Keeper(Mutex::new(None))
    }

    /// The block kept, zeroed, if it has `layout`; a block of another layout is given back.
    fn take(&self, layout: std::alloc::Layout) -> Option<NonNull<u8>> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        if kept.layout != layout {
            // SAFETY: mapped with its layout by `memory::map`, owned here, not used after.
            unsafe { memory::unmap(kept.start, kept.layout) };
            return None;
        }
        // SAFETY: the block is owned here and `dirty` lies within it.
        unsafe { kept.start.write_bytes(0, kept.dirty) };
        Some(kept.start)
    }

    /// Keeps `spare`, giving back the block kept before, if any.
    fn keep(&self, spare: Spare) {
        let old = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(spare);
        if let Some(old) = old {
            // SAFETY: mapped with its layout by `memory::map`, owned here, not used after.
            unsafe { memory::unmap(old.start, old.layout) };
        }
    }
}

/// The process's one kept block, if any.
static SPARE: Keeper = Keeper::new();

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
        let start = SPARE.take(layout).or_else(|| memory::map(layout))?.cast();
        Some(Zeroed {
            start,
            count,
            kept: None,
        })
    }

    /// Keeps the memory, when this is dropped, for the next block of the same size the process
    /// makes, which will zero the first `used` values: the caller's word that every value after
    /// them is still zero (all-zero values otherwise, valid but stale, would reach that block).
    pub fn keep_when_dropped(&mut self, used: usize) {
        self.kept = Some(used.min(self.count));
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
        if let Some(used) = self.kept {
            SPARE.keep(Spare {
                start: self.start.cast(),
                layout,
                dirty: used * size_of::<T>(),
            });
            return;
        }
        // SAFETY: mapped in `new` with this layout, not used after this.
        unsafe { memory::unmap(self.start.cast(), layout) };
    }
}

/// Starts loading `value` into the cache, for a read soon after (a hint: elsewhere than on
/// x86-64 it does nothing).
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE, all a prefetch needs, is part of every x86-64 processor, and a
        // prefetch reads nothing the program can see.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn a_kept_block_comes_back_zeroed_for_its_size_only() {
        let keeper = Keeper::new();
        let layout = std::alloc::Layout::array::<u64>(3000).unwrap();
        let start = memory::map(layout).unwrap();
        // SAFETY: the block just mapped, 24,000 bytes.
        unsafe { start.write_bytes(7, 100) };
        keeper.keep(Spare {
            start,
            layout,
            dirty: 100,
        });
        let again = keeper.take(layout).expect("the same size is kept");
        assert_eq!(again, start);
        // SAFETY: the block, owned again, read within its size.
        let bytes = unsafe { std::slice::from_raw_parts(again.as_ptr(), 200) };
        assert!(bytes.iter().all(|&b| b == 0), "the used part is zeroed");
        assert!(keeper.take(layout).is_none(), "taken once");
        keeper.keep(Spare {
            start: again,
            layout,
            dirty: 0,
        });
        let other = std::alloc::Layout::array::<u64>(4000).unwrap();
        assert!(keeper.take(other).is_none(), "another size is mapped anew");
        assert!(
            keeper.take(layout).is_none(),
            "and the kept block was given back"
        );
    }

    #[test]
    fn a_block_kept_when_dropped_starts_the_next_one_zeroed() {
        // A size no other test makes.
        let count = 12_347;
        let mut first = Zeroed::<AtomicU64>::new(count).unwrap();
        for word in &first[..10] {
            word.store(u64::MAX, Relaxed);
        }
        first.keep_when_dropped(10);
        drop(first);
        let second = Zeroed::<AtomicU64>::new(count).unwrap();
        assert!(second.iter().all(|w| w.load(Relaxed) == 0));
    }
}
