//! Keep the highest k of a pool of independent dice, exactly, by dynamic
//! programming over outcomes (the idea of Icepool, H. Liu, AIIDE 2022) instead
//! of enumerating rolls.
//!
//! The pool holds several *types* of dice, each with a count and a
//! distribution. Outcomes are visited from the highest down; the state is how
//! many dice of each type are still unassigned and the sum of what has been
//! kept so far. At each outcome, each type assigns `c` of its unassigned dice to
//! it, with `C(r, c) p(o)^c` ways. Once k dice are assigned, the kept sum is
//! known: every unassigned die must show less, which is one power of its
//! distribution's mass below the outcome, and the state is finished at once.
//! The work is polynomial in the number of dice, where enumeration is
//! exponential.
//!
//! # In detail
//!
//! The DP is written once over [`super::lane_field::LaneField`] and runs on
//! one residue lane at a time or on eight side by side. Each state is a
//! contiguous row over the kept sums (only as long as its sums), updated in
//! place from the states above it, its sums of products reduced once. For a
//! pool of one type of die the threshold method ([`super::threshold`]) is
//! chosen instead when its operation count, weighed by the measured cost of
//! each operation, is lower. Three of the DP's products are charged as one
//! step of `max_work`.

use super::denom::Denom;
use super::dist::Dist;
use super::field::Family;
use super::ifma::{Field8, Lanes8, Words8};
use super::lane_field::{LaneField, Source};
use super::{Ctx, ExactError};

/// The DP's products (place by place, over the states a row feeds) that
/// make one step of the work limit: a step is about a nanosecond, and the
/// DP's inner product, a 128-bit multiply-add with its share of the row's
/// bookkeeping, takes 0.3 to 0.9 of one (measured on the development
/// machine: 0.3 to 0.45 ns from `30d6!kh15` to `80d6!kh40`, 0.6 ns on mixed
/// pools such as `{40d6+40d8}kh40`, 0.9 ns on dice of a thousand faces,
/// `21d1000dl1`, whose rows leave the cache; one lane at a time or eight
/// side by side). One to a step keeps the slowest within the second per
/// 10^9 steps that `max_work` promises; most answer sooner than charged.
const DP_PRODUCTS_PER_STEP: u64 = 1;

/// What one product of the threshold recurrence costs against one of the
/// DP, for the choice between them: about four times (1 to 1.5 ns, its dot
/// products run over the terms of a die with divisions and their
/// reductions beside, against about 0.3 ns). Measured crossovers, with
/// either arithmetic: `50d6kh25` (threshold products per DP product 0.22)
/// is faster by threshold, `60d10kh30` (0.20) the same either way,
/// `80d6!kh40` (0.84) ten times faster by the DP.
const THRESHOLD_PRODUCT_COST: u64 = 4;

/// One kind of die in a pool.
pub(crate) struct PoolType {
    pub dist: Dist,
    pub count: u64,
}

impl Ctx<'_> {
    /// The distribution of the sum of `g(value)` over the `keep` highest dice
    /// of the pool (ties broken arbitrarily: equal values contribute equally).
    pub fn keep_highest(
        &mut self,
        pool: &[PoolType],
        keep: u64,
        g: &dyn Fn(i64) -> i64,
    ) -> Result<Dist, ExactError> {
        let k = self.k;
        let total: u64 = pool.iter().map(|t| t.count).sum();
        let mut denom = Denom::one();
        for t in pool {
            denom = denom.mul(&t.dist.denom.pow(t.count));
        }
        self.check_denominator(&denom)?;
        if keep == 0 {
            // Nothing kept: the sum is 0 with the probability that no die fell
            // into the tail.
            let mut out = self.zeros(0, 0, denom)?;
            for (l, f) in self.lanes.iter().enumerate() {
                let mut m = f.one();
                for t in pool {
                    let mass = (0..t.dist.len).fold(0, |acc, i| f.add(acc, t.dist.w[i * k + l]));
                    m = f.mul(m, f.pow(mass, t.count));
                }
                out.w[l] = m;
            }
            return Ok(out);
        }
        let keep = keep.min(total);
        if keep == 1 {
            return self.keep_one_highest(pool, denom, g);
        }
        // One type of die: threshold decomposition when it is the cheaper.
        if let [t] = pool
            && self.threshold_is_cheaper(&t.dist, t.count, keep, g)
            && let Some(d) =
                self.keep_highest_by_threshold(&t.dist, t.count, keep, g, denom.clone())?
        {
            return Ok(d);
        }
        self.keep_highest_dp(pool, keep, g, denom)
    }

    /// [`Ctx::keep_highest`] by the outcome DP (the module doc), for `2 <=
    /// keep <= total`.
    ///
    /// It runs lane by lane (one prime at a time, the whole DP in each), each
    /// state's weights a contiguous row over the kept sums with the range it
    /// occupies, in buffers reused from step to step. A step *gathers*: each
    /// new state's row is a short sum over the states it can come from, of
    /// products accumulated unreduced in `u128` and reduced once per sum
    /// ([`Prime::reduce_wide`]), and no row is ever cleared, since only the
    /// occupied range is read and every place of it is written.
    pub(crate) fn keep_highest_dp(
        &mut self,
        pool: &[PoolType],
        keep: u64,
        g: &dyn Fn(i64) -> i64,
        denom: Denom,
    ) -> Result<Dist, ExactError> {
        let k = self.k;
        // Contributions of each outcome, and the range of kept sums.
        let mut outcomes: Vec<i64> = pool
            .iter()
            .flat_map(|t| {
                (0..t.dist.len)
                    .filter(|&i| !t.dist.is_zero_at(i, k))
                    .map(|i| t.dist.min + i as i64)
            })
            .collect();
        outcomes.sort_unstable_by(|a, b| b.cmp(a));
        outcomes.dedup();
        let g_min = outcomes.iter().map(|&o| g(o)).min().unwrap_or(0);
        let g_max = outcomes.iter().map(|&o| g(o)).max().unwrap_or(0);
        let keep_i = keep as i64;
        let s_lo = (keep_i.checked_mul(g_min).ok_or(self.overflow())?).min(0);
        let s_hi = (keep_i.checked_mul(g_max).ok_or(self.overflow())?).max(0);
        let width = (s_hi - s_lo + 1) as usize;
        let mut result = self.zeros(s_lo, s_hi, denom)?;
        let states = States::new(pool);
        let gs: Vec<isize> = outcomes.iter().map(|&o| g(o) as isize).collect();
        let steps = states.work_per_step(pool, &gs, keep, width as u64);
        let products = steps.iter().fold(0u64, |a, &b| a.saturating_add(b));
        let all_steps = products.div_ceil(DP_PRODUCTS_PER_STEP);
        self.keep_dp_work = self.keep_dp_work.saturating_add(all_steps);
        // Each pass of the DP (a lane, or eight side by side) takes its steps.
        let charged = all_steps.saturating_mul(self.family.dp_passes(k));
        self.check_room(charged)?;
        if self.measuring_only() {
            self.charge_lane(charged)?;
            return Ok(self.placeholder(result, false));
        }

        let job = DpLanes {
            pool,
            outcomes: &outcomes,
            gs: &gs,
            states: &states,
            keep: keep as usize,
            width,
            s_lo,
            k,
        };
        // Each lane is the whole DP over one prime (or eight side by side):
        // charged in full here (the limit was checked above), then run one
        // after the other, or on several threads for a large job.
        self.charge_lane(charged)?;
        let lanes = self.lanes.clone();
        match self.family {
            Family::Wide => {
                let kept =
                    super::lanes::run(&lanes, all_steps, |l, f| job.run(f, job.lane_weights(l)));
                for (l, kept) in kept.into_iter().enumerate() {
                    for (s, x) in kept.into_iter().enumerate() {
                        result.w[s * k + l] = x;
                    }
                }
            }
            Family::Narrow => {
                let groups: Vec<[u64; 8]> = lanes
                    .chunks(8)
                    .map(|g| std::array::from_fn(|j| g.get(j).unwrap_or(&g[0]).p))
                    .collect();
                let kept =
                    super::lanes::run(&groups, all_steps, |g, primes| job.run_eight(g, *primes));
                for (g, kept) in kept.into_iter().enumerate() {
                    for (s, x) in kept.into_iter().enumerate() {
                        for (j, &x) in x.iter().enumerate().take(k - (g * 8).min(k)) {
                            result.w[s * k + g * 8 + j] = x;
                        }
                    }
                }
            }
        }
        Ok(result)
    }

    /// Whether threshold decomposition would take fewer steps than the DP for
    /// `count` dice like `die`, keeping `keep` (false when `g` decreases
    /// somewhere: the decomposition needs a score that never decreases).
    fn threshold_is_cheaper(
        &self,
        die: &Dist,
        count: u64,
        keep: u64,
        g: &dyn Fn(i64) -> i64,
    ) -> bool {
        let scores: Vec<i64> = (0..die.len)
            .filter(|&i| !die.is_zero_at(i, self.k))
            .map(|i| g(die.min + i as i64))
            .collect();
        scores.windows(2).all(|w| w[0] <= w[1])
            && super::threshold::threshold_cost(&scores, keep)
                .saturating_mul(THRESHOLD_PRODUCT_COST)
                < super::threshold::dp_cost(&scores, count, keep)
    }

    /// Keep the single highest die: P(max = o) = prod F_t(o)^n_t - prod F_t(<o)^n_t,
    /// with F_t the mass of a type at or below an outcome.
    fn keep_one_highest(
        &mut self,
        pool: &[PoolType],
        denom: Denom,
        g: &dyn Fn(i64) -> i64,
    ) -> Result<Dist, ExactError> {
        let k = self.k;
        let lo = pool.iter().map(|t| t.dist.min).min().unwrap_or(0);
        let hi = pool.iter().map(|t| t.dist.max()).max().unwrap_or(0);
        let span = (hi - lo + 1) as u64;
        self.charge(span * pool.len() as u64 * 64)?;
        // The value of max(dice) first, then mapped by g.
        let mut max_dist = self.zeros(lo, hi, denom)?;
        for (l, f) in self.lanes.iter().enumerate() {
            let mut below: Vec<u64> = vec![0; pool.len()]; // running mass below o, per type
            let mut previous = {
                // prod of mass below `lo`: zero unless a type has no outcomes, then one.
                let mut p = f.one();
                for t in pool {
                    p = f.mul(p, f.pow(0, t.count));
                }
                p
            };
            for i in 0..max_dist.len {
                let o = lo + i as i64;
                let mut at_or_below = f.one();
                for (ti, t) in pool.iter().enumerate() {
                    let d = &t.dist;
                    if o >= d.min && o <= d.max() {
                        below[ti] = f.add(below[ti], d.w[(o - d.min) as usize * k + l]);
                    }
                    at_or_below = f.mul(at_or_below, f.pow(below[ti], t.count));
                }
                max_dist.w[i * k + l] = f.sub(at_or_below, previous);
                previous = at_or_below;
            }
        }
        self.map(&max_dist, |v| Some(g(v)))
    }

    /// Keep the lowest: the highest of the negated dice.
    pub fn keep_lowest(
        &mut self,
        pool: &[PoolType],
        keep: u64,
        g: &dyn Fn(i64) -> i64,
    ) -> Result<Dist, ExactError> {
        let mut negated = Vec::with_capacity(pool.len());
        for t in pool {
            negated.push(PoolType {
                dist: self.map(&t.dist, |v| v.checked_neg())?,
                count: t.count,
            });
        }
        // One type: the lowest of the dice are the highest of the reflected
        // ones, scored -g(-v) (never decreasing when g never decreases).
        let total: u64 = pool.iter().map(|t| t.count).sum();
        if let [t] = &negated[..]
            && keep >= 2
            && keep < total
        {
            let reflected = |v: i64| -g(-v);
            if self.threshold_is_cheaper(&t.dist, t.count, keep, &reflected) {
                let denom = t.dist.denom.pow(t.count);
                self.check_denominator(&denom)?;
                if let Some(d) =
                    self.keep_highest_by_threshold(&t.dist, t.count, keep, &reflected, denom)?
                {
                    return self.map(&d, |s| s.checked_neg());
                }
            }
        }
        self.keep_highest(&negated, keep, &|v| g(-v))
    }
}

/// The outcome DP of [`Ctx::keep_highest_dp`] over one residue lane at a time.
struct DpLanes<'a> {
    pool: &'a [PoolType],
    /// The outcomes, highest first, and the score each adds.
    outcomes: &'a [i64],
    gs: &'a [isize],
    states: &'a States,
    keep: usize,
    /// Kept sums `s_lo ..` over `width` places.
    width: usize,
    s_lo: i64,
    /// Lanes of the pool's weights.
    k: usize,
}

impl DpLanes<'_> {
    /// The weights of each type's outcomes in lane `l`.
    fn lane_weights(&self, l: usize) -> Vec<Vec<u64>> {
        let k = self.k;
        self.pool
            .iter()
            .map(|t| (0..t.dist.len).map(|i| t.dist.w[i * k + l]).collect())
            .collect()
    }

    /// The kept sums' weights in lanes `8·group ..` (a group past the last
    /// lane repeats the group's first lane), eight side by side: with the
    /// processor's IFMA when it has it.
    fn run_eight(&self, group: usize, primes: [u64; 8]) -> Vec<[u64; 8]> {
        #[cfg(target_arch = "x86_64")]
        if super::ifma::in_registers() {
            #[target_feature(enable = "avx512f,avx512ifma")]
            fn on_registers(job: &DpLanes<'_>, group: usize, primes: [u64; 8]) -> Vec<[u64; 8]> {
                job.eight(&Field8::<super::ifma::Zmm>::new(primes), group)
            }
            // SAFETY: in_registers() said this processor has these features.
            return unsafe { on_registers(self, group, primes) };
        }
        self.eight(&Field8::<Lanes8>::new(primes), group)
    }

    /// (Loops, not iterator adaptors, on the way to the registers: a closure
    /// is a function of its own, compiled without the instructions, and the
    /// register operations in it would not be inlined.)
    #[inline(always)]
    fn eight<W: Words8>(&self, f: &Field8<W>, group: usize) -> Vec<[u64; 8]> {
        let k = self.k;
        let mut lanes = [group * 8; 8];
        for (j, l) in lanes.iter_mut().enumerate() {
            if group * 8 + j < k {
                *l = group * 8 + j;
            }
        }
        let mut weights = Vec::with_capacity(self.pool.len());
        for t in self.pool {
            let mut of_type = Vec::with_capacity(t.dist.len);
            for i in 0..t.dist.len {
                let mut x = [0u64; 8];
                for j in 0..8 {
                    x[j] = t.dist.w[i * k + lanes[j]];
                }
                of_type.push(f.enter_lanes_form(x));
            }
            weights.push(of_type);
        }
        let kept = self.run(f, weights);
        let mut out = Vec::with_capacity(kept.len());
        for x in kept {
            out.push(f.leave_to_lanes_form(x));
        }
        out
    }

    /// The kept sums' weights in the field `f` (one lane, or eight side by
    /// side), given each type's outcome weights in it.
    #[inline(always)]
    fn run<F: LaneField>(&self, f: &F, weights: Vec<Vec<F::E>>) -> Vec<F::E> {
        let (pool, outcomes, states) = (self.pool, self.outcomes, self.states);
        let (keep_us, width, s_lo) = (self.keep, self.width, self.s_lo);
        let zero = F::E::default();
        let n_max = pool.iter().map(|t| t.count).max().unwrap_or(0) as usize;
        let mut rows: Vec<Row<F::E>> = (0..states.len).map(|_| Row::default()).collect();
        let mut kept = vec![f.acc_zero(); width];
        let mut scratch = Vec::new();
        let mut sources: Vec<Source<F::E>> = Vec::with_capacity(keep_us + 1);
        let binom = Binomials::new(f, n_max);
        // Per type: cumulative weight below each of its values.
        let mut below_of: Vec<Vec<F::E>> = Vec::with_capacity(pool.len());
        for w in &weights {
            let mut c = Vec::with_capacity(w.len() + 1);
            let mut run = zero;
            c.push(run);
            for &x in w {
                run = f.add(run, x);
                c.push(run);
            }
            below_of.push(c);
        }
        let mut w_pow: Vec<Vec<F::E>> = vec![Vec::new(); pool.len()];
        let mut b_pow: Vec<Vec<F::E>> = vec![Vec::new(); pool.len()];
        let mut le_pow: Vec<Vec<F::E>> = vec![Vec::new(); pool.len()];
        rows[states.len - 1].set_one(f.one(), (0 - s_lo) as usize);
        let mut kept_terms = 0;
        let (mut kept_lo, mut kept_end) = (usize::MAX, 0usize);
        for (oi, &o) in outcomes.iter().enumerate() {
            let go = self.gs[oi];
            for (t, ty) in pool.iter().enumerate() {
                let d = &ty.dist;
                let idx = (o - d.min).clamp(0, d.len as i64) as usize;
                let w = if o < d.min || o > d.max() {
                    zero
                } else {
                    weights[t][idx]
                };
                let b = below_of[t][idx];
                powers(f, w, ty.count as usize, &mut w_pow[t]);
                powers(f, b, ty.count as usize, &mut b_pow[t]);
                powers(f, f.add(b, w), ty.count as usize, &mut le_pow[t]);
            }
            for t in 0..pool.len() {
                if pool[t].count == 0 || f.is_zero(w_pow[t][1]) {
                    // No die of this type shows `o` (in these lanes): every
                    // state stays as it is.
                    continue;
                }
                let count_t = pool[t].count as usize;
                let stride = states.stride[t];
                // First, the states that reach `keep` here are finished:
                // every die left shows less than `o` (or, of the types
                // not yet visited at `o`, at most `o`).
                for (src, row) in rows.iter().enumerate() {
                    if row.is_empty() {
                        continue;
                    }
                    let a = states.assigned[src] as usize;
                    let need = keep_us - a;
                    let r = states.unassigned(t, src);
                    if r < need {
                        continue;
                    }
                    // Σ_{c>=need} C(r,c) w^c b^(r-c), or (w+b)^r minus the
                    // terms below `need`, whichever is shorter.
                    let complement = need < r + 1 - need;
                    let cs = if complement { 0..need } else { need..r + 1 };
                    let mut sum = f.acc_zero();
                    for (terms, c) in cs.enumerate() {
                        if terms > 0 && terms % F::FOLD_TERMS == 0 {
                            sum = f.fold(sum);
                        }
                        let ways = f.mul(binom.choose(f, r, c), w_pow[t][c]);
                        sum = f.mul_add(sum, ways, b_pow[t][r - c]);
                    }
                    let sum = f.reduce(sum);
                    let mut fin = if complement {
                        f.sub(le_pow[t][r], sum)
                    } else {
                        sum
                    };
                    for t2 in (0..pool.len()).filter(|&t2| t2 != t) {
                        let r2 = states.unassigned(t2, src);
                        let factor = if t2 < t {
                            b_pow[t2][r2]
                        } else {
                            le_pow[t2][r2]
                        };
                        fin = f.mul(fin, factor);
                    }
                    if f.is_zero(fin) {
                        continue;
                    }
                    let shift = (need as i64 * go as i64) as isize;
                    let to = (row.lo as isize + shift) as usize;
                    let len = row.end - row.lo;
                    if kept_terms == F::FOLD_TERMS {
                        for x in kept[kept_lo..kept_end].iter_mut() {
                            *x = f.fold(*x);
                        }
                        kept_terms = 0;
                        (kept_lo, kept_end) = (usize::MAX, 0);
                    }
                    kept_terms += 1;
                    kept_lo = kept_lo.min(to);
                    kept_end = kept_end.max(to + len);
                    for (d, &x) in kept[to..to + len].iter_mut().zip(row.values()) {
                        *d = f.mul_add(*d, x, fin);
                    }
                }
                // Then the states that stay below `keep`, in place: a
                // state's new weights are its own (no die of this type at
                // `o`) plus those of states with more dice unassigned,
                // which have higher indices and are updated later.
                for tgt in 0..states.len {
                    let a = states.assigned[tgt] as usize;
                    if a >= keep_us {
                        continue;
                    }
                    let u = states.unassigned(t, tgt);
                    let c_max = (count_t - u).min(a);
                    sources.clear();
                    let (mut lo, mut end) = (usize::MAX, 0usize);
                    for c in 1..=c_max {
                        let src = tgt + c * stride;
                        let row = &rows[src];
                        if row.is_empty() {
                            continue;
                        }
                        let shift = c as isize * go;
                        lo = lo.min((row.lo as isize + shift) as usize);
                        end = end.max((row.end as isize + shift) as usize);
                        let coef = f.mul(binom.choose(f, u + c, c), w_pow[t][c]);
                        sources.push(Source {
                            row: src,
                            to: (row.lo as isize + shift) as usize,
                            coef,
                        });
                    }
                    if sources.is_empty() {
                        continue;
                    }
                    let (before, after) = rows.split_at_mut(tgt + 1);
                    let target = &mut before[tgt];
                    target.make_room(end);
                    f.gather(
                        &mut target.data,
                        &sources,
                        |src| after[src - tgt - 1].values(),
                        (lo, end),
                        &mut scratch,
                    );
                    target.cover(lo, end);
                }
            }
        }
        let mut out = Vec::with_capacity(width);
        for x in kept {
            out.push(f.reduce(x));
        }
        out
    }
}

/// The DP's states: how many dice of each type are still unassigned, as a
/// mixed-radix index (the last index: every die unassigned).
struct States {
    len: usize,
    stride: Vec<usize>,
    /// `radix[t]`: the dice of type `t`, plus one.
    radix: Vec<usize>,
    /// Dice assigned in each state.
    assigned: Vec<u32>,
}

impl States {
    fn new(pool: &[PoolType]) -> States {
        let radix: Vec<usize> = pool.iter().map(|t| t.count as usize + 1).collect();
        let mut stride = vec![1usize; pool.len()];
        for t in 1..pool.len() {
            stride[t] = stride[t - 1] * radix[t - 1];
        }
        let len = stride[pool.len() - 1] * radix[pool.len() - 1];
        let total: usize = radix.iter().map(|r| r - 1).sum();
        let assigned = (0..len)
            .map(|idx| {
                let left: usize = (0..pool.len()).map(|t| (idx / stride[t]) % radix[t]).sum();
                (total - left) as u32
            })
            .collect();
        States {
            len,
            stride,
            radix,
            assigned,
        }
    }

    /// Dice of type `t` still unassigned in state `idx`.
    #[inline]
    fn unassigned(&self, t: usize, idx: usize) -> usize {
        (idx / self.stride[t]) % self.radix[t]
    }

    /// The steps charged for each (outcome, type) step, in the order the DP
    /// takes them (`gs`: the outcomes' scores, highest outcome first): each
    /// state reached so far is read once for each way it can go on (its dice
    /// at this outcome: none, some, or enough to finish), a row at a time. A
    /// state with `a` dice kept, at an outcome scored `g`, holds sums of `a`
    /// scores from `g` up to the highest, so its row is at most
    /// `a·(g_top − g) + 1` places (and never more than `width`, every kept
    /// sum). Counted over the states reachable by then, before any lane
    /// runs, so that a refusal comes before the work.
    fn work_per_step(&self, pool: &[PoolType], gs: &[isize], keep: u64, width: u64) -> Vec<u64> {
        let g_top = gs.iter().copied().max().unwrap_or(0);
        let mut active = vec![false; self.len];
        active[self.len - 1] = true;
        let mut next = vec![false; self.len];
        let mut steps = Vec::with_capacity(gs.len() * pool.len());
        for &g in gs {
            // Rows grow by the range of one score per die kept.
            let per_die = g_top.abs_diff(g) as u64;
            for t in 0..pool.len() {
                let mut work = 0u64;
                next.fill(false);
                for idx in (0..self.len).filter(|&i| active[i]) {
                    let r = self.unassigned(t, idx);
                    let a = u64::from(self.assigned[idx]);
                    let need = (keep - a) as usize;
                    let row = a.saturating_mul(per_die).saturating_add(1).min(width);
                    work = work.saturating_add(row.saturating_mul(need.min(r) as u64 + 2));
                    for c in 0..=r.min(need - 1) {
                        next[idx - c * self.stride[t]] = true;
                    }
                }
                steps.push(work);
                std::mem::swap(&mut active, &mut next);
            }
        }
        steps
    }
}

/// One state's weights over the kept sums (residues of one lane, or of
/// several side by side): `data[s]` for sum index `s`, zero outside
/// `lo..end`.
#[derive(Default)]
struct Row<E> {
    lo: usize,
    end: usize,
    data: Vec<E>,
}

impl<E: Copy + Default> Row<E> {
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.lo >= self.end
    }

    #[inline(always)]
    fn values(&self) -> &[E] {
        &self.data[self.lo..self.end]
    }

    /// Empty (zero everywhere).
    fn clear(&mut self) {
        if self.lo < self.end {
            self.data[self.lo..self.end].fill(E::default());
        }
        self.lo = 0;
        self.end = 0;
    }

    #[inline(always)]
    fn set_one(&mut self, one: E, at: usize) {
        self.clear();
        self.make_room(at + 1);
        self.data[at] = one;
        self.lo = at;
        self.end = at + 1;
    }

    /// `data` over the sums below `end` at least (zero where nothing is):
    /// a row of few dice never touches the memory of the high sums.
    #[inline(always)]
    fn make_room(&mut self, end: usize) {
        if self.data.len() < end {
            self.data.resize(end, E::default());
        }
    }

    /// The occupied range now takes in `lo..end` too.
    #[inline(always)]
    fn cover(&mut self, lo: usize, end: usize) {
        if self.is_empty() {
            (self.lo, self.end) = (lo, end);
        } else {
            self.lo = self.lo.min(lo);
            self.end = self.end.max(end);
        }
    }
}

/// `out[e] = x^e` for `e = 0..=n` (Montgomery form).
#[inline(always)]
fn powers<F: LaneField>(f: &F, x: F::E, n: usize, out: &mut Vec<F::E>) {
    out.clear();
    let mut p = f.one();
    for _ in 0..=n {
        out.push(p);
        p = f.mul(p, x);
    }
}

/// Binomial coefficients in a field, from factorials.
struct Binomials<E> {
    fact: Vec<E>,
    inv_fact: Vec<E>,
}

impl<E: Copy> Binomials<E> {
    #[inline(always)]
    fn new<F: LaneField<E = E>>(f: &F, n_max: usize) -> Binomials<E> {
        let mut fact = vec![f.one(); n_max + 1];
        for i in 1..=n_max {
            fact[i] = f.mul(fact[i - 1], f.small(i as u64));
        }
        let mut inv_fact = vec![f.one(); n_max + 1];
        inv_fact[n_max] = f.inv(fact[n_max]);
        for i in (0..n_max).rev() {
            inv_fact[i] = f.mul(inv_fact[i + 1], f.small(i as u64 + 1));
        }
        Binomials { fact, inv_fact }
    }

    #[inline(always)]
    fn choose<F: LaneField<E = E>>(&self, f: &F, n: usize, c: usize) -> E {
        f.mul(self.fact[n], f.mul(self.inv_fact[c], self.inv_fact[n - c]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use num_bigint::BigUint;

    /// Keeps of more than `LAZY_TERMS` dice (a state gathers from more
    /// sources than one unreduced sum holds, and finishes more states than
    /// that at one outcome): the DP against the threshold decomposition (an
    /// independent method), and against itself with the dice split into two
    /// types of the same die (mixed-radix states, several types per outcome).
    /// A DP large enough to run its lanes on several threads gives what the
    /// threshold method gives.
    #[test]
    fn a_dp_over_several_threads_agrees_with_the_threshold_method() {
        let limits = Limits {
            max_work: u64::MAX,
            ..Limits::default()
        };
        let die: Vec<(i64, u64)> = (1..=20).map(|v| (v, 1)).collect();
        let (n, keep) = (40u64, 20u64);
        let total = Denom::of(20).pow(n);
        let mut ctx = Ctx::new(5, &limits, 0);
        let d = ctx.counts_dist(&die, Denom::of(20)).unwrap();
        let one_type = [PoolType {
            dist: d.clone(),
            count: n,
        }];
        let states = States::new(&one_type);
        let steps: u64 = states
            .work_per_step(
                &one_type,
                &(1..=20).rev().collect::<Vec<_>>(),
                keep,
                keep * 19 + 1,
            )
            .iter()
            .sum();
        assert!(steps * 5 >= super::super::lanes::PARALLEL_STEPS, "{steps}");
        let by_dp = ctx
            .keep_highest_dp(&one_type, keep, &|v| v, total.clone())
            .unwrap()
            .trim(5);
        let by_threshold = ctx
            .keep_highest_by_threshold(&d, n, keep, &|v| v, total)
            .unwrap()
            .expect("applies")
            .trim(5);
        assert_eq!((by_dp.min, &by_dp.w), (by_threshold.min, &by_threshold.w));
    }

    /// The method is chosen by what each costs (`THRESHOLD_PRODUCT_COST`):
    /// threshold decomposition for many standard dice, the DP for a die of
    /// many outcomes such as an exploded one (`80d6!kh40`: the DP took
    /// 0.5 s where the threshold method took 5.4 s).
    #[test]
    fn the_cheaper_method_is_chosen() {
        let limits = Limits::default();
        let ctx = Ctx::new(1, &limits, 0);
        let d6: Vec<(i64, u64)> = (1..=6).map(|v| (v, 1)).collect();
        let d6 = ctx.counts_dist(&d6, Denom::of(6)).unwrap();
        let d20: Vec<(i64, u64)> = (1..=20).map(|v| (v, 1)).collect();
        let d20 = ctx.counts_dist(&d20, Denom::of(20)).unwrap();
        // A d6 exploding up to 15 times: 80 outcomes (6j + t, t < 6).
        let exploded: Vec<(i64, u64)> = (0..16)
            .flat_map(|j| (1..=5).map(move |t| (6 * j + t, 6u64.pow(15 - j as u32))))
            .collect();
        let exploded = ctx.counts_dist(&exploded, Denom::of(6u64.pow(16))).unwrap();
        let by_threshold = |d: &Dist, n, keep| ctx.threshold_is_cheaper(d, n, keep, &|v| v);
        assert!(by_threshold(&d6, 50, 25));
        assert!(by_threshold(&d6, 100, 50));
        assert!(by_threshold(&d6, 1000, 500));
        assert!(by_threshold(&d20, 200, 100));
        assert!(!by_threshold(&d20, 50, 10));
        assert!(!by_threshold(&exploded, 80, 40));
        assert!(!by_threshold(&exploded, 10, 5));
    }

    /// A type of die in a pool: its `(value, count)` list, their
    /// denominator, how many dice.
    type DiceOfAType<'a> = (&'a [(i64, u64)], u64, u64);

    /// The kept sums of `pool`, keeping `keep`, on `k` lanes of a family, as
    /// big integers.
    fn kept_sums(family: Family, k: usize, pool: &[DiceOfAType<'_>], keep: u64) -> Vec<BigUint> {
        let limits = Limits {
            max_work: u64::MAX,
            ..Limits::default()
        };
        let mut ctx = Ctx::with_family(k, family, &limits, 0);
        let mut denom = Denom::one();
        let types: Vec<PoolType> = pool
            .iter()
            .map(|&(die, die_denom, count)| {
                denom = denom.mul(&Denom::of(die_denom).pow(count));
                PoolType {
                    dist: ctx.counts_dist(die, Denom::of(die_denom)).unwrap(),
                    count,
                }
            })
            .collect();
        let d = ctx.keep_highest_dp(&types, keep, &|v| v, denom).unwrap();
        let crt = super::super::field::Crt::new(&ctx.lanes);
        (0..d.len).map(|i| crt.rebuild(d.weight(i, k))).collect()
    }

    /// The DP on eight lanes side by side (in registers where the processor
    /// has IFMA, and on plain words) gives the one-lane DP's numbers: an
    /// exploding die with a pool of two types, and a keep of 20 (a state
    /// gathers from more sources than one pass of `gather` and one unreduced
    /// sum take), with a group of lanes left part empty (9 lanes).
    #[test]
    fn eight_lanes_side_by_side_give_the_one_lane_dp() {
        // A d10 exploding up to three times, and a d6.
        let mut exploding: Vec<(i64, u64)> = Vec::new();
        for level in 0..4u32 {
            let weight = 10u64.pow(3 - level);
            for face in 1..=9 {
                exploding.push((10 * i64::from(level) + face, weight));
            }
        }
        exploding.push((40, 1));
        let d6: Vec<(i64, u64)> = (1..=6).map(|v| (v, 1)).collect();
        let cases: [(&[DiceOfAType<'_>], u64); 3] = [
            (&[(&exploding, 10_000, 10)], 5),
            (&[(&exploding, 10_000, 5), (&d6, 6, 4)], 4),
            (&[(&d6, 6, 50)], 20),
        ];
        for (pool, keep) in cases {
            let wide = kept_sums(Family::Wide, 8, pool, keep);
            for plain in [false, true] {
                super::super::ifma::PLAIN_WORDS.with(|p| p.set(plain));
                let narrow = kept_sums(Family::Narrow, 9, pool, keep);
                assert_eq!(narrow, wide, "keep {keep}, plain words {plain}");
            }
            super::super::ifma::PLAIN_WORDS.with(|p| p.set(false));
            // Numbers larger than one lane holds.
            assert!(wide.iter().any(|w| w.bits() > 64), "keep {keep}");
        }
    }

    #[test]
    fn large_keeps_agree_with_the_threshold_method_and_with_split_types() {
        let limits = Limits {
            max_work: u64::MAX,
            ..Limits::default()
        };
        let dice: [(Vec<(i64, u64)>, u64); 2] = [
            ((1..=6).map(|v| (v, 1)).collect(), 6),
            // Gaps, weights and a tail.
            (vec![(1, 5), (2, 3), (4, 2), (9, 1), (10, 1)], 13),
        ];
        for (die, denom) in &dice {
            for (n, keep) in [(30u64, 20u64), (26, 13), (14, 12)] {
                let total = Denom::of(*denom).pow(n);
                let mut ctx = Ctx::new(8, &limits, 0);
                let d = ctx.counts_dist(die, Denom::of(*denom)).unwrap();
                let by_threshold = ctx
                    .keep_highest_by_threshold(&d, n, keep, &|v| v, total.clone())
                    .unwrap()
                    .expect("applies")
                    .trim(8);
                let one_type = [PoolType {
                    dist: d.clone(),
                    count: n,
                }];
                let by_dp = ctx
                    .keep_highest_dp(&one_type, keep, &|v| v, total.clone())
                    .unwrap()
                    .trim(8);
                assert_eq!((by_dp.min, &by_dp.w), (by_threshold.min, &by_threshold.w));
                let two_types = [
                    PoolType {
                        dist: d.clone(),
                        count: n / 2,
                    },
                    PoolType {
                        dist: d.clone(),
                        count: n - n / 2,
                    },
                ];
                let split = ctx
                    .keep_highest_dp(&two_types, keep, &|v| v, total)
                    .unwrap()
                    .trim(8);
                assert_eq!(
                    (split.min, &split.w),
                    (by_dp.min, &by_dp.w),
                    "n={n} keep={keep}"
                );
            }
        }
    }
}
