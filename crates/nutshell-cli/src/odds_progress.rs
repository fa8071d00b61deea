//! The progress bar of a long `nutshell odds`: the exact computation's steps
//! against the job the engine measured (or, while that is unknown, against
//! `--max-work`, the most it may take), then the fractions written out.
//!
//! Nothing is drawn unless standard error is a terminal and the job has
//! taken half a second; a quick answer never starts the bar.

use nutshell_dice::{Limits, exact};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a job runs before the bar appears; the environment variable
/// `NUTSHELL_PROGRESS_AFTER_MS` sets another delay (a test shows the bar at
/// once with 0).
const SHOW_AFTER: Duration = Duration::from_millis(500);
/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(50);

/// What the bar shows now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Computing,
    /// Writing this many fractions.
    Writing(u64),
    /// Cleared for good: standard output is about to be written to the same
    /// terminal, or the job is over.
    Done,
}

struct Shared {
    phase: Phase,
    bar: Option<indicatif::ProgressBar>,
}

/// A handle the odds command reports through; does nothing when standard
/// error is not a terminal.
pub struct Progress {
    shared: Option<Arc<Mutex<Shared>>>,
    written: Arc<AtomicU64>,
}

impl Progress {
    /// From now on the bar counts the `total` fractions being written to
    /// standard output (with [`Progress::wrote`]); or, when that is the
    /// terminal the bar is on, the bar is removed.
    pub fn writing(&self, total: u64) {
        if std::io::stdout().is_terminal() {
            self.clear();
        } else {
            self.set_phase(Phase::Writing(total));
        }
    }

    /// `n` more fractions were written.
    pub fn wrote(&self, n: u64) {
        self.written.fetch_add(n, Ordering::Relaxed);
    }

    /// Removes the bar for good (before text goes to the terminal it is on).
    pub fn clear(&self) {
        self.set_phase(Phase::Done);
    }

    fn set_phase(&self, phase: Phase) {
        if let Some(shared) = &self.shared {
            let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
            if shared.phase == Phase::Done {
                return;
            }
            shared.phase = phase;
            if phase == Phase::Done
                && let Some(bar) = shared.bar.take()
            {
                bar.finish_and_clear();
            }
        }
    }
}

/// Runs `job` with a [`Progress`] it reports to; on a terminal, a bar is
/// drawn on standard error from half a second on, and cleared when the job
/// ends.
pub fn with_progress<T>(limits: &Limits, job: impl FnOnce(&Progress) -> T) -> T {
    let written = Arc::new(AtomicU64::new(0));
    if !std::io::stderr().is_terminal() {
        return job(&Progress {
            shared: None,
            written,
        });
    }
    let shared = Arc::new(Mutex::new(Shared {
        phase: Phase::Computing,
        bar: None,
    }));
    let progress = Progress {
        shared: Some(shared.clone()),
        written: written.clone(),
    };
    let max_work = limits.max_work;
    // The watcher waits on a channel, so it wakes the moment the job ends
    // (dropping the sender) instead of finishing a sleep.
    let (finished, watch) = std::sync::mpsc::channel::<()>();
    let watcher = std::thread::spawn(move || {
        use std::sync::mpsc::RecvTimeoutError::Timeout;
        let mut wait = std::env::var("NUTSHELL_PROGRESS_AFTER_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(SHOW_AFTER, Duration::from_millis);
        while watch.recv_timeout(wait) == Err(Timeout) {
            wait = TICK;
            let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
            let (position, length, what) = match shared.phase {
                Phase::Done => return,
                Phase::Computing => {
                    let total = exact::progress_total().unwrap_or(max_work);
                    (exact::progress(), total, "computing exact odds")
                }
                Phase::Writing(total) => (
                    written.load(Ordering::Relaxed),
                    total,
                    "writing the fractions",
                ),
            };
            let bar = shared.bar.get_or_insert_with(|| {
                let bar = indicatif::ProgressBar::new(length);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{msg:22} {bar:20} {percent:>3}%, {elapsed}",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                bar
            });
            bar.set_message(what);
            bar.set_length(length.max(1));
            bar.set_position(position.min(length));
        }
    });
    let result = job(&progress);
    progress.clear();
    drop(finished);
    let _ = watcher.join();
    result
}
