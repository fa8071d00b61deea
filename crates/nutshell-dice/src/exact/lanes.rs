//! Running a computation's residue lanes: each lane is the whole computation
//! modulo one prime, independent of the others, so a large job runs them on
//! the machine's cores (each thread taking the next lane left) and a small
//! one in turn on the calling thread, where a thread would cost more than it
//! saves.

/// Steps (over all lanes) from which a job is split over threads: about a
/// fifth of a millisecond of work (a step is about a nanosecond), several
/// times what starting a thread costs.
pub(crate) const PARALLEL_STEPS: u64 = 200_000;

/// `job(l, lane)` for every lane (a prime, or eight side by side), in lane order: on several threads when the
/// job takes at least [`PARALLEL_STEPS`] (`steps_per_lane` over every lane) and
/// the machine has more than one core, each thread taking the next lane left,
/// else one lane after the other.
pub(crate) fn run<L: Sync, T: Send>(
    lanes: &[L],
    steps_per_lane: u64,
    job: impl Fn(usize, &L) -> T + Sync,
) -> Vec<T> {
    let threads = if lanes.len() >= 2
        && steps_per_lane.saturating_mul(lanes.len() as u64) >= PARALLEL_STEPS
    {
        cores().min(lanes.len())
    } else {
        1
    };
    if threads <= 1 {
        return lanes.iter().enumerate().map(|(l, f)| job(l, f)).collect();
    }
    // Each thread takes the next lane not yet taken, so the calling thread,
    // which starts at once, does more when the others start late.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let l = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if l >= lanes.len() {
                return done;
            }
            done.push((l, job(l, &lanes[l])));
        }
    };
    let mut all = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for handle in others {
            match handle.join() {
                Ok(part) => all.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_by_key(|(l, _)| *l);
    all.into_iter().map(|(_, out)| out).collect()
}

/// The cores this process may use. Asked once (the answer reads the
/// process's scheduling and control-group settings, about 50 µs), and only by
/// a job large enough to use them; 2 when the system cannot tell.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_runs_once_in_order_small_or_large() {
        let lanes = super::super::field::primes(7);
        for steps in [0, PARALLEL_STEPS] {
            let out = run(&lanes, steps, |l, f: &super::super::field::Prime| (l, f.p));
            let expected: Vec<(usize, u64)> = lanes.iter().map(|f| f.p).enumerate().collect();
            assert_eq!(out, expected, "{steps} steps per lane");
        }
    }
}
