//! The heap counted by `memory::Counting` (installed here as the `nutshell`
//! binary installs it): per-thread slots summed when read must give the
//! bytes in use, whichever thread allocates and whichever frees, past the
//! threads that get a slot of their own, so that `--memory-limit` still
//! refuses long work above the ceiling (docs/server.md, "Memory").

use nutshell_server::memory;

#[global_allocator]
static HEAP: memory::Counting = memory::Counting;

const MIB: usize = 1 << 20;

/// The tests measure one heap: one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn in_use() -> usize {
    memory::in_use().expect("the allocator is installed: the heap is counted")
}

/// Within a mebibyte: the test harness's own threads allocate meanwhile.
fn near(a: usize, b: usize) -> bool {
    a.abs_diff(b) < MIB
}

#[test]
fn bytes_allocated_on_one_thread_and_freed_on_another_are_counted_once() {
    let _alone = alone();
    let before = in_use();
    let block: Vec<u8> = vec![1; 64 * MIB];
    let holding = in_use();
    assert!(
        near(holding, before + 64 * MIB),
        "{before} then {holding} bytes"
    );
    // Freed on another thread: its slot goes below zero, the sum is right.
    std::thread::spawn(move || drop(block)).join().unwrap();
    let after = in_use();
    assert!(near(after, before), "{before} then {after} bytes");
}

#[test]
fn thousands_of_threads_count_in_their_own_slots_and_in_shared_ones() {
    let _alone = alone();
    let before = in_use();
    // More threads than get a slot of their own (1,024): the later ones
    // share sixteen slots. Each keeps a block until all have allocated.
    let threads = 1300;
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(threads + 1));
    let mut handles = Vec::new();
    for i in 0..threads {
        let barrier = barrier.clone();
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let block: Vec<u8> = vec![i as u8; 16 * 1024];
                barrier.wait(); // all allocated
                barrier.wait(); // counted by the main thread
                drop(block);
            })
            .unwrap();
        handles.push(handle);
    }
    barrier.wait();
    let holding = in_use();
    let blocks = threads * 16 * 1024;
    assert!(
        holding >= before + blocks && holding < before + blocks + 4 * MIB,
        "{before} then {holding} bytes with {blocks} in blocks"
    );
    barrier.wait();
    for handle in handles {
        handle.join().unwrap();
    }
    let after = in_use();
    assert!(near(after, before), "{before} then {after} bytes");
}

#[test]
fn the_ceiling_is_passed_when_the_heap_is_above_it() {
    let _alone = alone();
    let block: Vec<u8> = vec![1; 32 * MIB];
    memory::set_ceiling(Some(16 * MIB));
    let over = memory::over_ceiling();
    memory::set_ceiling(None);
    let (held, ceiling) = over.expect("32 MiB held, above a ceiling of 16");
    assert_eq!(ceiling, 16 * MIB);
    assert!(held >= 32 * MIB, "{held}");
    drop(block);
}
