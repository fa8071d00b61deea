//! The heap the server holds, counted, and the ceiling above which it takes
//! no new long work.
//!
//! [`Counting`] is a global allocator over mimalloc that counts the bytes
//! allocated and not yet freed; the `nutshell` binary installs it (glibc's
//! malloc, underneath it before, took a fifth of the server's time under
//! load, in locks between threads and in consolidating free chunks). A
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

use std::alloc::{GlobalAlloc, Layout};

use mimalloc::MiMalloc;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

static COUNTING: AtomicBool = AtomicBool::new(false);
/// The ceiling in bytes; 0: none.
static CEILING: AtomicUsize = AtomicUsize::new(0);

/// Threads that get a counter of their own; later ones share [`SHARED`].
const OWN: usize = 1024;
/// Counters shared by the threads past the first [`OWN`].
const SHARED: usize = 16;

/// A counter alone on its cache line (two, for the adjacent-line
/// prefetcher), so that threads counting side by side never touch the same
/// line.
#[repr(align(128))]
struct Slot(AtomicIsize);

/// The heap counted per thread: bytes allocated less bytes freed by the
/// threads of each slot (negative when a thread frees what another
/// allocated), summed when read ([`in_use`]).
static SLOTS: [Slot; OWN + SHARED] = [const { Slot(AtomicIsize::new(0)) }; OWN + SHARED];
/// The next slot to hand out.
static NEXT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's slot plus one (0: none yet). A constant initializer
    /// and no destructor, so the allocator may read it at any time, while
    /// the thread starts or ends included.
    static MINE: Cell<usize> = const { Cell::new(0) };
}

/// mimalloc, counting the bytes it holds for the process.
///
/// Each thread counts in a slot of its own (a thread among the first 1,024
/// to allocate; later ones share sixteen slots), updated by a plain load and
/// store of its own cache line: no instruction with a lock prefix, no line
/// passed between cores, so threads allocating side by side cost each other
/// nothing (a single shared counter halved what a second core added to `mls
/// simulate`). [`in_use`] sums the slots, which is exact: every byte freed
/// is taken from some slot's count, allocated in another or not.
///
/// ```ignore
/// #[global_allocator]
/// static HEAP: nutshell_server::memory::Counting = nutshell_server::memory::Counting;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

// SAFETY: every call is passed to mimalloc unchanged; only a counter is kept
// beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is mimalloc's.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            counted(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            counted(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        counted(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            counted(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Adds `delta` bytes to this thread's slot.
#[inline]
fn counted(delta: isize) {
    // `try_with`: a thread's storage may be gone while it ends (then the
    // shared slot 0 of the shared ones counts, with a locked add).
    let mine = MINE.try_with(|m| m.get()).unwrap_or(usize::MAX);
    match mine {
        0 => claim(delta),
        usize::MAX => {
            SLOTS[OWN].0.fetch_add(delta, Ordering::Relaxed);
        }
        i if i <= OWN => {
            // Only this thread writes its own slot: a plain read and write.
            let slot = &SLOTS[i - 1].0;
            slot.store(
                slot.load(Ordering::Relaxed).wrapping_add(delta),
                Ordering::Relaxed,
            );
        }
        i => {
            SLOTS[i - 1].0.fetch_add(delta, Ordering::Relaxed);
        }
    }
}

/// A thread's first count: takes a slot (one of its own while any is left,
/// else one of the shared ones) and counts there.
#[cold]
fn claim(delta: isize) {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let slot = if n < OWN { n } else { OWN + n % SHARED };
    let _ = MINE.try_with(|m| m.set(slot + 1));
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
    SLOTS[slot].0.fetch_add(delta, Ordering::Relaxed);
}

/// The bytes the process holds on its heap, when [`Counting`] is installed.
pub fn in_use() -> Option<usize> {
    COUNTING.load(Ordering::Relaxed).then(|| {
        let sum = SLOTS.iter().fold(0isize, |acc, s| {
            acc.wrapping_add(s.0.load(Ordering::Relaxed))
        });
        // The slots are read one after another while threads go on
        // counting: a sum caught mid-way may fall below zero.
        sum.max(0) as usize
    })
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
