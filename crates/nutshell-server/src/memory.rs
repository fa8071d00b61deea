//! The heap the server holds, counted, and the ceiling above which it takes
//! no new long work.
//!
//! [`Counting`] is a global allocator over the system's that counts the
//! bytes allocated and not yet freed; the `nutshell` binary installs it. A
//! [`crate::work::WorkPool`] asks [`over_ceiling`] before it admits a job
//! (exact odds, a simulation, a page of an export or of an event stream):
//! above the ceiling set by [`set_ceiling`] (`nutshell serve
//! --memory-limit`), the job is refused with 503 `busy` and `Retry-After`,
//! while rolls, checks and everything that is not long work go on. So the
//! heap stays under the ceiling plus what the jobs already running hold
//! (each bounded by the server's limits; docs/server.md, "Memory").
//!
//! A process that does not install the allocator (a library user, the
//! server's own in-process tests) counts nothing: [`in_use`] is `None` and
//! no job is refused for memory.
//!
//! ```
//! use nutshell_server::memory;
//! // These doctests do not install the allocator: nothing is counted.
//! assert_eq!(memory::in_use(), None);
//! memory::set_ceiling(Some(1));
//! assert_eq!(memory::over_ceiling(), None);
//! memory::set_ceiling(None);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);
/// The ceiling in bytes; 0: none.
static CEILING: AtomicUsize = AtomicUsize::new(0);

/// The system's allocator, counting the bytes it holds for the process.
///
/// ```ignore
/// #[global_allocator]
/// static HEAP: nutshell_server::memory::Counting = nutshell_server::memory::Counting;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

// SAFETY: every call is passed to `System` unchanged; only a counter is kept
// beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            counted(layout.size(), 0);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            counted(layout.size(), 0);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        counted(0, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            counted(new_size, layout.size());
        }
        p
    }
}

#[inline]
fn counted(added: usize, freed: usize) {
    if added >= freed {
        IN_USE.fetch_add(added - freed, Ordering::Relaxed);
    } else {
        IN_USE.fetch_sub(freed - added, Ordering::Relaxed);
    }
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
}

/// The bytes the process holds on its heap, when [`Counting`] is installed.
pub fn in_use() -> Option<usize> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| IN_USE.load(Ordering::Relaxed))
}

/// Sets the ceiling (bytes; `None`: no ceiling).
pub fn set_ceiling(bytes: Option<usize>) {
    CEILING.store(bytes.unwrap_or(0), Ordering::Relaxed);
}

/// The ceiling set, if any.
pub fn ceiling() -> Option<usize> {
    match CEILING.load(Ordering::Relaxed) {
        0 => None,
        bytes => Some(bytes),
    }
}

/// The heap in use and the ceiling, when the heap is counted and above it.
pub fn over_ceiling() -> Option<(usize, usize)> {
    let ceiling = ceiling()?;
    let in_use = in_use()?;
    (in_use > ceiling).then_some((in_use, ceiling))
}
