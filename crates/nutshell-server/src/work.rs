//! The pool for long work (exact odds, simulations of many fights): a few
//! threads of their own, at a lower scheduling priority than the threads
//! that answer requests, fed by a bounded queue in which each room may hold
//! only a few jobs. So one room that asks for the most expensive answers
//! again and again waits for its own jobs, and rolls in other rooms keep
//! their latency.
//!
//! A job that cannot be admitted is refused at once: 429 `busy` when its
//! room has [`PoolConfig::per_room`] jobs in the pool, 503 `busy` when the
//! pool is full or the server's heap is above its ceiling
//! ([`crate::memory`]); each with `Retry-After`. A job whose request went away
//! (the client left, or the request timed out) while it waited is skipped;
//! one that runs sees [`Cancel::is_cancelled`] and may stop early.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use nutshell_server::work::{PoolConfig, WorkPool};
//! let pool = WorkPool::new(PoolConfig { workers: 1, queue: 4, per_room: 2, nice: 0 });
//! let answer = pool.run("room", |_cancel| 6 * 7).await.unwrap();
//! assert_eq!(answer, 42);
//! # });
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

/// The pool's size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolConfig {
    /// Threads running jobs.
    pub workers: usize,
    /// Jobs admitted beyond those running.
    pub queue: usize,
    /// Jobs of one room in the pool (running or waiting) at once.
    pub per_room: usize,
    /// The workers' nice value (Linux: 0 normal, up to 19 lowest).
    pub nice: i32,
}

impl Default for PoolConfig {
    /// Half the cores (at least one) at nice 10; 16 waiting; 2 per room.
    fn default() -> PoolConfig {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        PoolConfig {
            workers: (cores / 2).max(1),
            queue: 16,
            per_room: 2,
            nice: 10,
        }
    }
}

impl PoolConfig {
    /// The pool that renders pages of the log (exports, event streams):
    /// a thread per core at nice 10, 256 pages waiting, 32 per room.
    pub fn rendering() -> PoolConfig {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        PoolConfig {
            workers: cores,
            queue: 256,
            per_room: 32,
            nice: 10,
        }
    }
}

/// Why a job was not admitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Busy {
    /// The room has its share of the pool.
    #[error(
        "this room already has {0} long jobs (odds, simulations) running or waiting; wait for them"
    )]
    Room(usize),
    /// The pool is full.
    #[error("the server is busy with {0} long jobs (odds, simulations); try again shortly")]
    Full(usize),
    /// The server's heap is above its ceiling ([`crate::memory`]).
    #[error(
        "the server holds {} MiB, above its memory limit of {} MiB: no new long work (odds, simulations, exports) until jobs end; try again shortly",
        .0 >> 20,
        .1 >> 20
    )]
    Memory(usize, usize),
    /// The pool's threads are gone (the server is stopping).
    #[error("the server is stopping")]
    Stopped,
}

/// Set when the request that asked for a job is gone.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Whether nobody waits for the answer any more.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Sets the flag when dropped (the request's future was dropped), unless
/// the answer came.
struct CancelOnDrop(Option<Cancel>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = self.0.take() {
            cancel.0.store(true, Ordering::Relaxed);
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Admitted {
    total: usize,
    rooms: HashMap<String, usize>,
}

/// A place in the pool, given back when its job ends (or is skipped).
struct Slot {
    admitted: Arc<Mutex<Admitted>>,
    room: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        admitted.total -= 1;
        if let Some(count) = admitted.rooms.get_mut(&self.room) {
            *count -= 1;
            if *count == 0 {
                admitted.rooms.remove(&self.room);
            }
        }
    }
}

/// The pool.
pub struct WorkPool {
    config: PoolConfig,
    sender: Mutex<mpsc::Sender<Job>>,
    admitted: Arc<Mutex<Admitted>>,
}

impl std::fmt::Debug for WorkPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkPool")
            .field("config", &self.config)
            .finish()
    }
}

impl WorkPool {
    /// Starts the pool's threads (they end when the pool is dropped).
    pub fn new(config: PoolConfig) -> WorkPool {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..config.workers.max(1) {
            let receiver = receiver.clone();
            let nice = config.nice;
            let spawned = std::thread::Builder::new()
                .name(format!("nutshell-work-{index}"))
                .spawn(move || {
                    lower_priority(nice);
                    loop {
                        let job = {
                            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
                            receiver.recv()
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(error) = spawned {
                tracing::error!(%error, "cannot start a worker thread");
            }
        }
        WorkPool {
            config,
            sender: Mutex::new(sender),
            admitted: Arc::default(),
        }
    }

    /// The pool's size.
    pub fn config(&self) -> &PoolConfig {
        &self.config
    }

    /// Jobs in the pool now (running and waiting).
    pub fn admitted(&self) -> usize {
        self.admitted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .total
    }

    /// Runs `work` for `room` on the pool and gives its answer, or says why
    /// it was not admitted. Dropping the returned future cancels the job.
    pub async fn run<T, F>(&self, room: &str, work: F) -> Result<T, Busy>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let slot = self.admit(room)?;
        self.run_admitted(slot, work).await
    }

    /// Like [`WorkPool::run`], but a job refused only because its room's
    /// share of the pool is taken waits, up to `patience`, for one of the
    /// room's own jobs to end instead of being refused at once. For the
    /// answers of a table, which come together when several members answer
    /// at once (or a client sends one twice): each is a small job, and a
    /// player should not see `busy` because another one answered first.
    /// A full pool is still refused at once.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::time::Duration;
    /// use nutshell_server::work::{PoolConfig, WorkPool};
    /// let pool = WorkPool::new(PoolConfig { workers: 1, queue: 4, per_room: 1, nice: 0 });
    /// let (a, b) = tokio::join!(
    ///     pool.run_in_turn("room", |_| 1, Duration::from_secs(5)),
    ///     pool.run_in_turn("room", |_| 2, Duration::from_secs(5)),
    /// );
    /// assert_eq!((a, b), (Ok(1), Ok(2)));
    /// # });
    /// ```
    pub async fn run_in_turn<T, F>(
        &self,
        room: &str,
        work: F,
        patience: std::time::Duration,
    ) -> Result<T, Busy>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let until = std::time::Instant::now() + patience;
        let slot = loop {
            match self.admit(room) {
                Ok(slot) => break slot,
                Err(Busy::Room(_)) if std::time::Instant::now() < until => {
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await
                }
                Err(busy) => return Err(busy),
            }
        };
        self.run_admitted(slot, work).await
    }

    async fn run_admitted<T, F>(&self, slot: Slot, work: F) -> Result<T, Busy>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let cancel = Cancel::default();
        let mut guard = CancelOnDrop(Some(cancel.clone()));
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _slot = slot;
            if cancel.is_cancelled() {
                return;
            }
            let _ = reply.send(work(&cancel));
        });
        self.sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .map_err(|_| Busy::Stopped)?;
        let answer = answer.await.map_err(|_| Busy::Stopped);
        guard.0 = None;
        answer
    }

    fn admit(&self, room: &str) -> Result<Slot, Busy> {
        if let Some((in_use, ceiling)) = crate::memory::over_ceiling() {
            return Err(Busy::Memory(in_use, ceiling));
        }
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        let capacity = self.config.workers.max(1) + self.config.queue;
        if admitted.total >= capacity {
            return Err(Busy::Full(admitted.total));
        }
        let count = admitted.rooms.entry(room.to_string()).or_insert(0);
        if *count >= self.config.per_room.max(1) {
            return Err(Busy::Room(*count));
        }
        *count += 1;
        admitted.total += 1;
        Ok(Slot {
            admitted: self.admitted.clone(),
            room: room.to_string(),
        })
    }
}

/// Sets the calling thread's nice value (Linux only; elsewhere nothing).
fn lower_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    if nice != 0 {
        // On Linux the nice value is a thread's own: `who` is the thread id.
        // SAFETY: plain system calls on the calling thread, no pointers.
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            if libc::setpriority(libc::PRIO_PROCESS, tid, nice) != 0 {
                tracing::warn!("cannot lower the priority of a worker thread");
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn config(workers: usize, queue: usize, per_room: usize) -> PoolConfig {
        PoolConfig {
            workers,
            queue,
            per_room,
            nice: 0,
        }
    }

    /// A room gets at most `per_room` jobs in the pool; other rooms still
    /// get in; a full pool refuses everyone; places come back when jobs end.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_room_gets_its_share_and_the_pool_is_bounded() {
        let pool = Arc::new(WorkPool::new(config(1, 2, 2)));
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let wait = Arc::new(Mutex::new(wait));
        let blocker = |wait: Arc<Mutex<mpsc::Receiver<()>>>| {
            move |_: &Cancel| {
                let _ = wait.lock().unwrap().recv();
                1
            }
        };
        let mut running = Vec::new();
        for _ in 0..2 {
            let pool = pool.clone();
            let job = blocker(wait.clone());
            running.push(tokio::spawn(async move { pool.run("a", job).await }));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(pool.run("a", |_| 0).await, Err(Busy::Room(2)));
        let pool2 = pool.clone();
        let job = blocker(wait.clone());
        running.push(tokio::spawn(async move { pool2.run("b", job).await }));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(pool.admitted(), 3);
        assert_eq!(pool.run("c", |_| 0).await, Err(Busy::Full(3)));
        for _ in 0..3 {
            release.send(()).unwrap();
        }
        for job in running {
            assert_eq!(job.await.unwrap(), Ok(1));
        }
        assert_eq!(pool.admitted(), 0);
        assert_eq!(pool.run("a", |_| 7).await, Ok(7));
    }

    /// A job whose caller went away while it waited is skipped, and a
    /// running one sees the cancellation.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_request_cancels_its_job() {
        let pool = Arc::new(WorkPool::new(config(1, 4, 4)));
        let saw = Arc::new(AtomicBool::new(false));
        let seen = saw.clone();
        let running = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run("a", move |cancel| {
                    let started = std::time::Instant::now();
                    while !cancel.is_cancelled() && started.elapsed() < Duration::from_secs(10) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    seen.store(cancel.is_cancelled(), Ordering::Relaxed);
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let ran = Arc::new(AtomicBool::new(false));
        let flag = ran.clone();
        let waiting = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run("a", move |_| flag.store(true, Ordering::Relaxed))
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        waiting.abort();
        running.abort();
        for _ in 0..200 {
            if pool.admitted() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(pool.admitted(), 0);
        assert!(
            saw.load(Ordering::Relaxed),
            "the running job saw the cancel"
        );
        assert!(!ran.load(Ordering::Relaxed), "the waiting job was skipped");
    }
}
