//! Exact odds: the distribution of any expression, as exact fractions.
//!
//! ```
//! use nutshell_dice::Expression;
//! let expr = Expression::parse("2d20kh1")?;
//! let odds = expr.distribution()?;
//! assert_eq!(odds.mean().to_string(), "553/40");
//! assert_eq!(odds.probability(20).to_string(), "39/400");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! How it works: [`compute`] walks the plan; sums are convolutions (powers of
//! one die by J. C. P. Miller's recurrence), keep/drop is a dynamic program over
//! outcomes ([`keep`]), explosions are followed to the explosion limit and the
//! probability beyond it is the [`Distribution::tail`], and everything else
//! combines independent parts outcome by outcome. Weights are integers kept
//! modulo several 62-bit primes ([`field`]) and rebuilt exactly at the end.
//! A computation that would pass [`Limits::max_work`] or
//! [`Limits::max_outcomes`] is refused before it runs too long.
//!
//! # In detail
//!
//! A computation runs in three parts. The measuring pass runs on one lane
//! first: when every denominator fits in it, that is the answer; otherwise it
//! measures the job (steps per lane, lanes needed, the keep DP's share,
//! outcomes to rebuild and print), so a job past `max_work` is refused before
//! its large steps. Then the run with all lanes: on the narrow primes when the
//! processor has IFMA ([`ifma`]) and the whole job's estimate is smaller so
//! (the keep DP once per eight lanes, all else on a few more lanes). Then the
//! rebuild of the exact integers ([`lowest`], [`decimal`]).

#![allow(clippy::needless_range_loop)] // weights are lane-interleaved: indices are the clearer form

mod compute;
mod decimal;
mod denom;
mod dist;
mod distribution;
mod draws;
mod field;
mod ifma;
mod keep;
mod lane_field;
mod lanes;
mod lowest;
mod sum;
mod tail;
mod threshold;
mod words;

pub use decimal::decimal;
pub use distribution::{Distribution, probability_text, ratio_to_f64};
pub use lowest::FractionWriter;

use crate::limits::Limits;
use crate::plan::Expression;
use crate::span::Span;
use field::{Crt, Family, Prime};
use num_bigint::BigUint;
use std::fmt;

/// Why an exact distribution could not be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExactError {
    /// The expression has a feature the exact engine does not compute.
    Unsupported {
        /// What, in words.
        what: String,
        /// Where.
        span: Span,
    },
    /// The distribution would have more distinct outcomes than the limit.
    TooManyOutcomes {
        /// How many.
        outcomes: u128,
        /// The limit ([`Limits::max_outcomes`]).
        limit: usize,
        /// Where.
        span: Span,
    },
    /// The computation would take more steps than the limit.
    TooMuchWork {
        /// The limit ([`Limits::max_work`]).
        limit: u64,
        /// The part of the expression being computed.
        span: Span,
    },
    /// Some rolls of the expression are errors (division by zero, a negative
    /// dice count, an overflow), so it has no distribution.
    MayFail {
        /// What can go wrong.
        reason: String,
        /// Where.
        span: Span,
    },
    /// The computation needs more memory than the system gave (a limit
    /// raised beyond what the machine holds).
    OutOfMemory {
        /// The bytes asked for.
        bytes: u128,
        /// Where.
        span: Span,
    },
    /// Internal: more residue lanes are needed (never returned by the public API).
    #[doc(hidden)]
    Capacity {
        /// Bits the denominator needs.
        bits: u64,
    },
}

impl ExactError {
    /// Where in the expression the problem is.
    pub fn span(&self) -> Span {
        match self {
            ExactError::Unsupported { span, .. }
            | ExactError::TooManyOutcomes { span, .. }
            | ExactError::TooMuchWork { span, .. }
            | ExactError::MayFail { span, .. }
            | ExactError::OutOfMemory { span, .. } => *span,
            ExactError::Capacity { .. } => Span::default(),
        }
    }

    /// The error with the expression and a caret under the place.
    pub fn render(&self, expression: &str) -> String {
        crate::span::render_caret("error", &self.to_string(), None, expression, self.span())
    }
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::Unsupported { what, .. } => write!(
                f,
                "the exact odds of {what} are not computed; estimate them with --simulate"
            ),
            ExactError::TooManyOutcomes {
                outcomes, limit, ..
            } => write!(
                f,
                "the exact distribution would span {outcomes} values here (every whole number from the lowest to the highest), more than the limit of {limit} (max_outcomes); estimate it with --simulate"
            ),
            ExactError::TooMuchWork { limit, .. } => write!(
                f,
                "the exact distribution would take more than {limit} steps (max_work); estimate it with --simulate, or raise the limit"
            ),
            ExactError::MayFail { reason, .. } => {
                write!(f, "some rolls of this expression fail: {reason}")
            }
            ExactError::OutOfMemory { bytes, .. } => write!(
                f,
                "the exact distribution needs {bytes} bytes of memory here, more than the system gave; estimate it with --simulate"
            ),
            ExactError::Capacity { bits } => write!(f, "internal: {bits}-bit denominator"),
        }
    }
}

impl std::error::Error for ExactError {}

static PROGRESS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static PROGRESS_TOTAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    static WORK_DONE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The elementary steps done so far by the exact computation running in this
/// process (the latest one, if several run at once), against
/// [`Limits::max_work`]: for a progress bar on another thread.
pub fn progress() -> u64 {
    PROGRESS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The steps the exact computation running in this process is expected to
/// take in all (computing, rebuilding and printing the numbers), once its
/// measuring pass has found it large; `None` while unknown (a job that fits
/// one residue lane is answered by that pass, in microseconds to
/// milliseconds). With [`progress`], the length and position of a progress
/// bar.
///
/// ```
/// use nutshell_dice::{Expression, exact};
/// Expression::parse("1000d6")?.distribution()?;
/// let total = exact::progress_total().expect("a job of many lanes is measured first");
/// assert!(exact::progress() <= total + total / 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn progress_total() -> Option<u64> {
    match PROGRESS_TOTAL.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        total => Some(total),
    }
}

/// The elementary steps the latest exact computation of this thread took
/// (rebuilding the numbers included), as charged against
/// [`Limits::max_work`].
///
/// ```
/// use nutshell_dice::Expression;
/// Expression::parse("100d6")?.distribution()?;
/// assert!(nutshell_dice::exact::work_done() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn work_done() -> u64 {
    WORK_DONE.with(|w| w.get())
}

/// The state of one exact computation: the residue lanes, the limits and the
/// work done so far.
pub(crate) struct Ctx<'a> {
    pub lanes: Vec<Prime>,
    pub k: usize,
    /// The primes of the lanes.
    pub family: Family,
    /// The steps per lane the keep DP has taken (the measuring pass uses it to
    /// choose the [`Family`]).
    pub keep_dp_work: u64,
    pub limits: &'a Limits,
    pub work: u64,
    /// The span of the node being computed, for errors.
    pub span: Span,
    /// The tail each exploding die may leave out (see `tail`).
    pub tail_per_die: Option<tail::Share>,
    /// In a measuring pass ([`exact`]), a denominator too large for the
    /// lanes is noted in `outgrown_bits` (the most bits one needed) instead of
    /// refused.
    pub measuring: bool,
    pub outgrown_bits: std::cell::Cell<u64>,
    /// The faces a roll draws, against `max_dice` (see `draws`).
    pub draws: draws::Draws,
    /// Sums are computed by the written structure of the plan, one operand
    /// after another (sums that could overflow in some other order).
    pub in_order: bool,
    /// Sums are read as flat lists of parts and capped as [`sum`] does, but
    /// every part is added on its own in written order: the tests'
    /// reference for the grouping and ordering.
    pub one_by_one: bool,
}

impl<'a> Ctx<'a> {
    fn new(k: usize, limits: &'a Limits, exploding_dice: u64) -> Ctx<'a> {
        Ctx::with_family(k, Family::Wide, limits, exploding_dice)
    }

    fn with_family(k: usize, family: Family, limits: &'a Limits, exploding_dice: u64) -> Ctx<'a> {
        Ctx {
            lanes: field::primes_of(family, k),
            k,
            family,
            keep_dp_work: 0,
            limits,
            work: 0,
            span: Span::default(),
            tail_per_die: tail::per_die(limits.tail_digits, exploding_dice),
            measuring: false,
            outgrown_bits: std::cell::Cell::new(0),
            draws: draws::Draws::default(),
            in_order: false,
            one_by_one: false,
        }
    }

    /// Counts `units` elementary steps (each over every lane) against the limit.
    pub fn charge(&mut self, units: u64) -> Result<(), ExactError> {
        self.charge_lane(units.saturating_mul(self.k as u64))
    }

    /// Refuses at once, charging nothing, if `units` more steps (in all,
    /// over every lane) would pass the limit: for work charged as a whole
    /// when it is done or as it goes.
    pub fn check_room(&self, units: u64) -> Result<(), ExactError> {
        if self.work.saturating_add(units) > self.limits.max_work {
            return Err(self.too_much_work());
        }
        Ok(())
    }

    /// Counts `units` elementary steps done in one lane (a computation that
    /// runs lane by lane charges each lane's steps as it takes them).
    pub fn charge_lane(&mut self, units: u64) -> Result<(), ExactError> {
        self.work = self.work.saturating_add(units);
        PROGRESS.store(self.work, std::sync::atomic::Ordering::Relaxed);
        WORK_DONE.with(|w| w.set(self.work));
        if self.work > self.limits.max_work {
            return Err(self.too_much_work());
        }
        Ok(())
    }

    fn too_much_work(&self) -> ExactError {
        ExactError::TooMuchWork {
            limit: self.limits.max_work,
            span: self.span,
        }
    }

    /// Whether only the shape of what comes next matters: in a measuring pass
    /// once a denominator has outgrown the lane, the weights are no longer
    /// the answer, so the large steps charge their work and give
    /// [`Ctx::placeholder`]s instead of computing.
    pub fn measuring_only(&self) -> bool {
        self.measuring && self.outgrown_bits.get() > 0
    }

    /// `dist` with every weight non-zero: the widest shape a large step's
    /// result can have, standing in for it in a measuring pass. Its weights
    /// read the same both ways only if the result's would (`symmetric`: a
    /// power of a symmetric die, a sum of symmetric parts), so that the
    /// estimate of rebuilding the weights halves only the work it may.
    pub fn placeholder(&self, mut dist: dist::Dist, symmetric: bool) -> dist::Dist {
        for (i, w) in dist.w.iter_mut().enumerate() {
            *w = self.lanes[i % self.k].one();
        }
        if !symmetric && dist.len >= 2 {
            let f = &self.lanes[0];
            dist.w[0] = f.add(f.one(), f.one());
        }
        dist
    }

    /// Refuses (so the computation restarts with more lanes) if the lanes cannot
    /// hold every weight below `denom`; in a measuring pass, notes the bits
    /// needed and goes on (the weights are then only residues, but the shape
    /// and the steps of the job are right).
    pub fn check_denominator(&self, denom: &denom::Denom) -> Result<(), ExactError> {
        let bits = denom.bits();
        if bits + 1 >= self.k as u64 * self.family.bits_per_prime() {
            if self.measuring {
                self.outgrown_bits.set(self.outgrown_bits.get().max(bits));
                return Ok(());
            }
            return Err(ExactError::Capacity { bits });
        }
        Ok(())
    }

    pub fn overflow(&self) -> ExactError {
        ExactError::MayFail {
            reason: "a result is too large for a 64-bit integer".to_string(),
            span: self.span,
        }
    }
}

impl Expression {
    /// The exact distribution of the expression's total.
    pub fn distribution(&self) -> Result<Distribution, ExactError> {
        exact(self, None, false)
    }

    /// The distribution computed with every part of every sum added on its
    /// own in written order (capped at `cap` if given): the reference the
    /// tests compare the engine's grouping of identical parts and ordering
    /// of partial sums against. The same answer, slower on long sums.
    #[doc(hidden)]
    pub fn distribution_in_order(&self, cap: Option<i64>) -> Result<Distribution, ExactError> {
        exact(self, cap, true)
    }

    /// The exact distribution of `min(total, cap)`: outcomes at or above `cap`
    /// are merged into `cap`. Explosions need only be followed until the total
    /// reaches `cap`, so threshold questions (`P(total >= cap)`) are often
    /// answered with no tail at all.
    pub fn distribution_capped(&self, cap: i64) -> Result<Distribution, ExactError> {
        exact(self, Some(cap), false)
    }
}

/// Computes the distribution.
///
/// A first pass runs with one residue lane. When every denominator fits in
/// it, that pass is the answer. Otherwise it has measured the whole job
/// cheaply (one lane's steps, the lanes the largest denominator needs, the
/// outcomes to rebuild and print): a job past [`Limits::max_work`] is refused
/// then, before any large step, and any other runs again with all its lanes
/// (restarting with more should a denominator still outgrow them).
fn exact(
    expr: &Expression,
    cap: Option<i64>,
    one_by_one: bool,
) -> Result<Distribution, ExactError> {
    let limits = expr.limits();
    let exploding = tail::exploding_dice(expr.root(), limits.max_dice);
    PROGRESS_TOTAL.store(0, std::sync::atomic::Ordering::Relaxed);
    let mut measure = Ctx::new(1, limits, exploding);
    measure.measuring = true;
    measure.one_by_one = one_by_one;
    let first = compute::Walker::new(&mut measure).node(expr.root(), cap)?;
    // Rolls that draw more than `max_dice` faces fail: refuse an expression
    // where that could happen more often than the tail threshold.
    measure.draws.check(limits, expr.root().span)?;
    let outgrown = measure.outgrown_bits.get();
    if outgrown == 0 {
        measure.span = expr.root().span;
        return finish(&mut measure, first);
    }
    let per_lane = measure.work;
    // The whole job on k lanes: the measuring pass again, the keep DP once
    // per pass over the lanes (one lane, or eight side by side), every other
    // step once per lane, then rebuilding and printing.
    let dp = measure.keep_dp_work.min(per_lane);
    let rebuilt = to_rebuild(&first, 1).1;
    let job = |family: Family| {
        let k = field::lanes_for_bits(outgrown + 2, family);
        let estimate = per_lane
            .saturating_add((per_lane - dp).saturating_mul(k as u64))
            .saturating_add(dp.saturating_mul(family.dp_passes(k)))
            .saturating_add(rebuild_cost(rebuilt, k));
        (k, estimate)
    };
    // The keep DP runs its lanes eight side by side where the processor can
    // (`ifma`), on primes of fewer bits (so more lanes for everything
    // else): chosen when that makes the whole job smaller. (The processor
    // is asked only then: a `cpuid` costs microseconds.)
    let family = if dp > 0 && job(Family::Narrow).1 < job(Family::Wide).1 && ifma::available() {
        Family::Narrow
    } else {
        Family::Wide
    };
    let (mut k, estimate) = job(family);
    if estimate > limits.max_work {
        return Err(ExactError::TooMuchWork {
            limit: limits.max_work,
            span: expr.root().span,
        });
    }
    PROGRESS_TOTAL.store(estimate, std::sync::atomic::Ordering::Relaxed);
    loop {
        let mut ctx = Ctx::with_family(k, family, limits, exploding);
        ctx.one_by_one = one_by_one;
        ctx.work = per_lane;
        let result = compute::Walker::new(&mut ctx).node(expr.root(), cap);
        match result {
            Ok(dist) => {
                ctx.span = expr.root().span;
                return finish(&mut ctx, dist);
            }
            Err(ExactError::Capacity { bits }) => {
                k = field::lanes_for_bits(bits + 2, family).max(k * 2);
            }
            Err(e) => return Err(e),
        }
    }
}

/// Elementary steps charged per inner step of rebuilding a weight from its
/// residues and printing it: a Montgomery product and an addition, then, for
/// each word of the number, reducing the fraction and dividing out its
/// decimal digits. Measured whole process (`nutshell odds 5000d6 --json`:
/// 3.5 s for 2.8·10^8 such steps), an inner step costs about as much as 12
/// steps of the computation itself (about 1 ns each), so that `max_work`
/// bounds the time to the answer, printing included.
const REBUILD_STEP_COST: u64 = 12;

/// Whether the weights of `dist` (over `k` lanes) read the same both ways:
/// every sum of symmetric dice, whose weights need only be rebuilt once.
pub(crate) fn is_symmetric(dist: &dist::Dist, k: usize) -> bool {
    let n = dist.len;
    (0..n / 2).all(|i| dist.weight(i, k) == dist.weight(n - 1 - i, k))
}

/// The weights of `dist` (over `k` lanes) to rebuild: half of them, rounded
/// up, when they read the same both ways.
fn to_rebuild(dist: &dist::Dist, k: usize) -> (bool, u64) {
    let symmetric = is_symmetric(dist, k);
    let n = dist.len as u64;
    (symmetric, if symmetric { n.div_ceil(2) } else { n })
}

/// The steps of rebuilding and printing `rebuilt` weights over `k` lanes:
/// about `k²/2` products each.
fn rebuild_cost(rebuilt: u64, k: usize) -> u64 {
    rebuilt
        .saturating_mul((k as u64).div_ceil(2))
        .saturating_mul(REBUILD_STEP_COST)
        .saturating_mul(k as u64)
}

/// Rebuilds the weights as big integers. Its cost, about `k²/2` products per
/// outcome for `k` lanes, is charged against `max_work` before it starts (and
/// was estimated before the computation when it needed more than one lane: a
/// distribution too large to rebuild and print within the limit, such as
/// `10000d6`'s 50,001 numbers of 26,000 bits, is refused at once).
fn finish(ctx: &mut Ctx<'_>, dist: dist::Dist) -> Result<Distribution, ExactError> {
    let crt = Crt::new(&ctx.lanes);
    let k = ctx.k;
    let n = dist.len;
    let (symmetric, rebuilt) = to_rebuild(&dist, k);
    let cost = rebuild_cost(rebuilt, k);
    ctx.check_room(cost)?;
    // The big integers take memory in many small pieces: about this much in
    // all, asked for as one block first (a raised `max_outcomes` can pass
    // what the machine holds: `1d100000000` is 10^8 weights).
    let per_weight = std::mem::size_of::<Option<BigUint>>()
        + std::mem::size_of::<(i64, BigUint)>()
        + 32
        + (dist.denom.bits() as usize).div_ceil(64) * 8;
    let denominator = dist.denom.to_biguint();
    crate::memory::probe((n as u128).saturating_mul(per_weight as u128)).map_err(|bytes| {
        ExactError::OutOfMemory {
            bytes,
            span: ctx.span,
        }
    })?;
    // Charged as a whole at the end; shown to a progress bar as it goes.
    let (before, per_weight) = (ctx.work, cost / rebuilt.max(1));
    let show = |done: usize| {
        let at = before.saturating_add(per_weight.saturating_mul(done as u64));
        PROGRESS.store(at, std::sync::atomic::Ordering::Relaxed);
    };
    let mut weights: Vec<Option<BigUint>> = ctx.filled(n, None)?;
    // The weights to rebuild (the first half of symmetric ones), four at a
    // time where the lanes allow.
    let last = if symmetric { (n - 1) / 2 } else { n - 1 };
    let to_do: Vec<usize> = (0..=last).filter(|&i| !dist.is_zero_at(i, k)).collect();
    let mut rest = &to_do[..];
    if k <= field::MANY_LANES {
        let mut fours = to_do.chunks_exact(4);
        for (done, four) in fours.by_ref().enumerate() {
            if done % 64 == 0 {
                show(done * 4);
            }
            let rebuilt: [BigUint; 4] =
                crt.rebuild_many(std::array::from_fn(|j| dist.weight(four[j], k)));
            for (&i, w) in four.iter().zip(rebuilt) {
                weights[i] = Some(w);
            }
        }
        rest = fours.remainder();
    }
    let rest_from = to_do.len() - rest.len();
    for (done, &i) in rest.iter().enumerate() {
        if done % 256 == 0 {
            show(rest_from + done);
        }
        weights[i] = Some(crt.rebuild(dist.weight(i, k)));
    }
    ctx.charge_lane(cost)?;
    if symmetric {
        for i in last + 1..n {
            weights[i] = weights[n - 1 - i].clone();
        }
    }
    let outcomes = weights
        .into_iter()
        .enumerate()
        .filter_map(|(i, w)| {
            w.filter(|w| *w != BigUint::from(0u32))
                .map(|w| (dist.min + i as i64, w))
        })
        .collect();
    Ok(Distribution::new(outcomes, denominator))
}
