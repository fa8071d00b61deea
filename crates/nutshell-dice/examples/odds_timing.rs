//! Times exact distributions: `odds_timing EXPR [EXPR...]` prints one JSON line
//! per expression with the best of several runs, in milliseconds, and the
//! elementary steps charged against `max_work` (`work`), to calibrate the limit.
//!
//! Used by `bench/peers/run odds` beside icepool and dyce, and by
//! `bench/odds/calibrate` (`--once`: one run each, timed by `perf stat`).

use nutshell_dice::{Expression, Limits};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut limits = Limits::default();
    if let Some(pos) = args.iter().position(|a| a == "--max-explosions") {
        limits.max_repeats_per_die = args[pos + 1].parse().expect("a number");
        args.drain(pos..pos + 2);
    }
    // `--once`: one run each, for a CPU-time measure of the whole process
    // (`perf stat -e task-clock`), which the machine's load does not change.
    let once = args
        .iter()
        .position(|a| a == "--once")
        .map(|pos| args.remove(pos));
    if let Some(pos) = args.iter().position(|a| a == "--max-nesting") {
        limits.max_nesting = args[pos + 1].parse().expect("a number");
        args.drain(pos..pos + 2);
    }
    for text in &args {
        let expr = Expression::parse_with(text, &limits).expect("a valid expression");
        let mut best = f64::INFINITY;
        let mut runs = 0;
        let started = Instant::now();
        let mut mean = String::new();
        let mut work = 0;
        while runs < 1
            || (once.is_none()
                && (runs < 3 || (started.elapsed().as_secs_f64() < 1.0 && runs < 1000)))
        {
            let t = Instant::now();
            let d = expr.distribution().expect("computable");
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
            mean = d.mean().to_string();
            work = nutshell_dice::exact::work_done();
            runs += 1;
        }
        let short_text = if text.len() > 60 {
            format!(
                "{}… ({} characters)",
                text.chars().take(40).collect::<String>(),
                text.len()
            )
        } else {
            text.clone()
        };
        let ns_per_step = best * 1e6 / work.max(1) as f64;
        let short_mean = if mean.len() > 60 {
            format!("{}…", &mean[..60])
        } else {
            mean
        };
        println!(
            "{{\"tool\":\"nutshell\",\"expression\":\"{short_text}\",\"best_ms\":{best:.4},\"runs\":{runs},\"work\":{work},\"ns_per_step\":{ns_per_step:.2},\"mean\":\"{short_mean}\"}}"
        );
    }
}
