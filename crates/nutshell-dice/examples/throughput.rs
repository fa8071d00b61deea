//! Roll throughput, for the side-by-side peer comparison (`bench/peers/run`).
//!
//! ```text
//! cargo run --release -p nutshell-dice --example throughput -- nutshell '4d6kh3+2' 2
//! cargo run --release -p nutshell-dice --example throughput -- baseline '4d6kh3+2' 2
//! ```
//!
//! `nutshell` parses the expression once and rolls it again and again with a
//! reused [`Roller`] (full transcript recorded every roll); `baseline` is a
//! hand-written loop rolling the same dice with the same generator and the same
//! range reduction, the floor any dice engine could reach (written out for
//! `4d6kh3+2`, `1d20+5`, `2d20kh1+3`, `8d6`, `3d6` and `10d6!`). Prints one
//! JSON line.

use nutshell_dice::source::{ChaCha8, below};
use nutshell_dice::{Expression, Seeded};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, expr, seconds] = args.as_slice() else {
        eprintln!("usage: throughput nutshell|baseline EXPR SECONDS");
        std::process::exit(2);
    };
    let budget = Duration::from_secs_f64(seconds.parse().expect("SECONDS is a number"));
    let (rolls, elapsed, checksum) = match mode.as_str() {
        "nutshell" => run_nutshell(expr, budget),
        "baseline" => run_baseline(expr, budget),
        other => {
            eprintln!("unknown mode {other}");
            std::process::exit(2);
        }
    };
    println!(
        "{{\"tool\":\"{mode}\",\"expression\":\"{expr}\",\"rolls\":{rolls},\"seconds\":{:.6},\"rolls_per_second\":{:.1},\"checksum\":{checksum}}}",
        elapsed.as_secs_f64(),
        rolls as f64 / elapsed.as_secs_f64()
    );
}

/// Rolls in batches of 4096 until the time budget is spent.
fn timed(budget: Duration, mut batch: impl FnMut() -> i64) -> (u64, Duration, i64) {
    let start = Instant::now();
    let mut rolls = 0u64;
    let mut checksum = 0i64;
    loop {
        for _ in 0..4096 {
            checksum = checksum.wrapping_add(batch());
        }
        rolls += 4096;
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return (rolls, elapsed, checksum);
        }
    }
}

fn run_nutshell(text: &str, budget: Duration) -> (u64, Duration, i64) {
    let expr = Expression::parse(text).expect("a valid expression");
    let mut roller = expr.roller();
    let mut dice = Seeded::new(1);
    timed(budget, || black_box(roller.roll(&mut dice).expect("rolls")))
}

fn run_baseline(text: &str, budget: Duration) -> (u64, Duration, i64) {
    let mut rng = ChaCha8::from_seed(1);
    match text {
        "4d6kh3+2" => timed(budget, || {
            let mut sum = 0i64;
            let mut lowest = i64::MAX;
            for _ in 0..4 {
                let face = i64::from(below(&mut rng, 6)) + 1;
                sum += face;
                lowest = lowest.min(face);
            }
            black_box(sum - lowest + 2)
        }),
        "1d20+5" => timed(budget, || black_box(i64::from(below(&mut rng, 20)) + 1 + 5)),
        "2d20kh1+3" => timed(budget, || {
            let [a, b] = faces::<2>(&mut rng, 20);
            black_box(a.max(b) + 3)
        }),
        "8d6" => timed(budget, || black_box(faces::<8>(&mut rng, 6).iter().sum())),
        "3d6" => timed(budget, || black_box(faces::<3>(&mut rng, 6).iter().sum())),
        "10d6!" => timed(budget, || {
            let mut sum = 0i64;
            for _ in 0..10 {
                let mut explosions = 0;
                loop {
                    let face = i64::from(below(&mut rng, 6)) + 1;
                    sum += face;
                    if face != 6 || explosions == 100 {
                        break;
                    }
                    explosions += 1;
                }
            }
            black_box(sum)
        }),
        other => {
            eprintln!(
                "no baseline for {other}; baselines exist for {}",
                BASELINES.join(", ")
            );
            std::process::exit(2);
        }
    }
}

/// The expressions with a hand-written baseline.
const BASELINES: [&str; 6] = ["4d6kh3+2", "1d20+5", "2d20kh1+3", "8d6", "3d6", "10d6!"];

/// `N` faces of a die with `sides` sides, as the baseline rolls them.
#[inline(always)]
fn faces<const N: usize>(rng: &mut ChaCha8, sides: u32) -> [i64; N] {
    std::array::from_fn(|_| i64::from(below(rng, sides)) + 1)
}
