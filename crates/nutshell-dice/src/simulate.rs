//! Monte Carlo estimates, for what the exact engine refuses or to check it.
//!
//! The engine starts no threads: [`simulate`] runs one worker's share, and a
//! front end runs several workers (each with its own non-overlapping random
//! stream, [`Xoshiro256::for_worker`]) and [`Estimate::merge`]s them.

use crate::source::{Random, Xoshiro256};
use crate::{Expression, RollError};
use std::collections::BTreeMap;

/// Counts of simulated totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Estimate {
    /// How many rolls.
    pub rolls: u64,
    /// How many rolls gave each total.
    pub counts: BTreeMap<i64, u64>,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub estimate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The proportion `count / trials` with its 95% Wilson score interval.
///
/// ```
/// let i = nutshell_dice::simulate::wilson(50, 100);
/// assert_eq!(i.estimate, 0.5);
/// assert!(i.low > 0.40 && i.low < 0.41 && i.high > 0.59 && i.high < 0.60);
/// ```
pub fn wilson(count: u64, trials: u64) -> Interval {
    let n = trials.max(1) as f64;
    let p = count as f64 / n;
    let z2 = Z95 * Z95;
    let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // Rounding can put an end a hair past the estimate at p = 0 or 1.
    Interval {
        estimate: p,
        low: (center - half).clamp(0.0, p),
        high: (center + half).clamp(p, 1.0),
    }
}

impl Estimate {
    /// Adds another worker's counts.
    pub fn merge(&mut self, other: Estimate) {
        self.rolls += other.rolls;
        for (v, c) in other.counts {
            *self.counts.entry(v).or_default() += c;
        }
    }

    /// The estimated probability of `count` rolls out of all, with a 95% interval.
    pub fn proportion(&self, count: u64) -> Interval {
        wilson(count, self.rolls)
    }

    /// The estimated probability of exactly `value`.
    pub fn probability(&self, value: i64) -> Interval {
        self.proportion(self.counts.get(&value).copied().unwrap_or(0))
    }

    /// The estimated probability of a total of at least `t`.
    pub fn at_least(&self, t: i64) -> Interval {
        self.proportion(self.counts.range(t..).map(|(_, c)| c).sum())
    }

    /// The estimated probability of a total of at most `t`.
    pub fn at_most(&self, t: i64) -> Interval {
        self.proportion(self.counts.range(..=t).map(|(_, c)| c).sum())
    }

    /// The sample mean with its 95% interval (normal approximation).
    pub fn mean(&self) -> Interval {
        let n = self.rolls.max(1) as f64;
        let mean = self
            .counts
            .iter()
            .map(|(v, c)| *v as f64 * *c as f64)
            .sum::<f64>()
            / n;
        let var = self
            .counts
            .iter()
            .map(|(v, c)| (*v as f64 - mean).powi(2) * *c as f64)
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let half = Z95 * (var / n).sqrt();
        Interval {
            estimate: mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// The sample standard deviation.
    pub fn std_dev(&self) -> f64 {
        let m = self.mean().estimate;
        let n = self.rolls.max(1) as f64;
        (self
            .counts
            .iter()
            .map(|(v, c)| (*v as f64 - m).powi(2) * *c as f64)
            .sum::<f64>()
            / (n - 1.0).max(1.0))
        .sqrt()
    }
}

/// Rolls `expr` `rolls` times as worker `worker` of a simulation seeded with
/// `seed`, and counts the totals.
///
/// ```
/// use nutshell_dice::{Expression, simulate::simulate};
/// let expr = Expression::parse("2d6")?;
/// let estimate = simulate(&expr, 10_000, 1, 0)?;
/// let seven = estimate.probability(7);
/// assert!(seven.low < 1.0 / 6.0 && 1.0 / 6.0 < seven.high);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simulate(
    expr: &Expression,
    rolls: u64,
    seed: u64,
    worker: u64,
) -> Result<Estimate, RollError> {
    let mut dice = Random::new(Xoshiro256::for_worker(seed, worker));
    let mut roller = expr.roller();
    let mut estimate = Estimate::default();
    for _ in 0..rolls {
        let total = roller.roll(&mut dice)?;
        *estimate.counts.entry(total).or_default() += 1;
    }
    estimate.rolls = rolls;
    Ok(estimate)
}
