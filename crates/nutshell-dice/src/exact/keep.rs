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

use super::dist::Dist;
use super::{Ctx, ExactError};
use num_bigint::BigUint;

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
        let mut denom = BigUint::from(1u32);
        for t in pool {
            denom *= t.dist.denom.pow(t.count as u32);
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
    pub(crate) fn keep_highest_dp(
        &mut self,
        pool: &[PoolType],
        keep: u64,
        g: &dyn Fn(i64) -> i64,
        denom: BigUint,
    ) -> Result<Dist, ExactError> {
        let k = self.k;
        let total: u64 = pool.iter().map(|t| t.count).sum();
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

        // States: the unassigned counts of each type, as a mixed-radix index.
        let types = pool.len();
        let mut stride = vec![1usize; types];
        for t in 1..types {
            stride[t] = stride[t - 1] * (pool[t - 1].count as usize + 1);
        }
        let states = stride[types - 1] * (pool[types - 1].count as usize + 1);
        let unassigned = |idx: usize, t: usize| (idx / stride[t]) % (pool[t].count as usize + 1);
        let assigned = |idx: usize| -> u64 {
            total - (0..types).map(|t| unassigned(idx, t) as u64).sum::<u64>()
        };

        // Binomial coefficients modulo each prime.
        let n_max = pool.iter().map(|t| t.count).max().unwrap_or(0) as usize;
        let mut fact = vec![vec![0u64; n_max + 1]; k];
        let mut inv_fact = vec![vec![0u64; n_max + 1]; k];
        for (l, f) in self.lanes.iter().enumerate() {
            fact[l][0] = f.one();
            for i in 1..=n_max {
                fact[l][i] = f.mul(fact[l][i - 1], f.enter(i as u64));
            }
            inv_fact[l][n_max] = f.inv(fact[l][n_max]);
            for i in (0..n_max).rev() {
                inv_fact[l][i] = f.mul(inv_fact[l][i + 1], f.enter(i as u64 + 1));
            }
        }
        let lanes = self.lanes.clone();
        let binom = |l: usize, r: usize, c: usize| {
            lanes[l].mul(fact[l][r], lanes[l].mul(inv_fact[l][c], inv_fact[l][r - c]))
        };

        // The starting state: nothing assigned, kept sum 0.
        let mut layer: Vec<Vec<u64>> = vec![Vec::new(); states];
        let start = states - 1;
        layer[start] = vec![0u64; width * k];
        for (l, f) in self.lanes.iter().enumerate() {
            layer[start][(0 - s_lo) as usize * k + l] = f.one();
        }

        // Per-type weight at an outcome and mass below / at-or-below it.
        let mass_below = |t: usize, o: i64, l: usize| -> u64 {
            let d = &pool[t].dist;
            let f = &lanes[l];
            let end = ((o - d.min).clamp(0, d.len as i64)) as usize;
            (0..end).fold(0, |acc, i| f.add(acc, d.w[i * k + l]))
        };
        let weight_at = |t: usize, o: i64, l: usize| -> u64 {
            let d = &pool[t].dist;
            if o < d.min || o > d.max() {
                0
            } else {
                d.w[(o - d.min) as usize * k + l]
            }
        };

        for &o in &outcomes {
            let go = g(o);
            // Powers for this outcome: w^c, below^e and at-or-below^e per type and lane.
            let mut pw = Vec::with_capacity(types);
            let mut below_pow = Vec::with_capacity(types);
            let mut le_pow = Vec::with_capacity(types);
            for t in 0..types {
                let n = pool[t].count as usize;
                let mut w_t = vec![vec![0u64; n + 1]; k];
                let mut b_t = vec![vec![0u64; n + 1]; k];
                let mut le_t = vec![vec![0u64; n + 1]; k];
                for (l, f) in self.lanes.iter().enumerate() {
                    let w = weight_at(t, o, l);
                    let b = mass_below(t, o, l);
                    let le = f.add(b, w);
                    let (mut x, mut y, mut z) = (f.one(), f.one(), f.one());
                    for e in 0..=n {
                        w_t[l][e] = x;
                        b_t[l][e] = y;
                        le_t[l][e] = z;
                        x = f.mul(x, w);
                        y = f.mul(y, b);
                        z = f.mul(z, le);
                    }
                }
                pw.push(w_t);
                below_pow.push(b_t);
                le_pow.push(le_t);
            }
            for t in 0..types {
                let mut next: Vec<Vec<u64>> = vec![Vec::new(); states];
                let active: Vec<usize> = (0..states).filter(|&i| !layer[i].is_empty()).collect();
                let mut work = 0u64;
                for &idx in &active {
                    let r = unassigned(idx, t);
                    let need = (keep - assigned(idx)) as usize;
                    work += (width as u64) * (need.min(r) as u64 + 2);
                }
                self.charge(work)?;
                for idx in active {
                    let sums = std::mem::take(&mut layer[idx]);
                    let Some((lo, hi)) = occupied(&sums, k) else {
                        continue;
                    };
                    let r = unassigned(idx, t);
                    let need = (keep - assigned(idx)) as usize;
                    // Stay below `keep`: c < need.
                    for c in 0..=r.min(need - 1) {
                        let target = idx - c * stride[t];
                        if next[target].is_empty() {
                            next[target] = vec![0u64; width * k];
                        }
                        let coefs: Vec<u64> = (0..k)
                            .map(|l| self.lanes[l].mul(binom(l, r, c), pw[t][l][c]))
                            .collect();
                        let shift = (c as i64 * go) as isize;
                        axpy_shifted(&self.lanes, &mut next[target], &sums, lo, hi, shift, &coefs);
                    }
                    // Reach `keep`: c >= need; every die left must show less.
                    if r >= need {
                        let shift = (need as i64 * go) as isize;
                        let mut coefs = vec![0u64; k];
                        for (l, f) in self.lanes.iter().enumerate() {
                            let mut finish = 0u64;
                            for c in need..=r {
                                let term = f.mul(
                                    binom(l, r, c),
                                    f.mul(pw[t][l][c], below_pow[t][l][r - c]),
                                );
                                finish = f.add(finish, term);
                            }
                            for (t2, _) in pool.iter().enumerate() {
                                if t2 == t {
                                    continue;
                                }
                                let r2 = unassigned(idx, t2);
                                let factor = if t2 < t {
                                    below_pow[t2][l][r2]
                                } else {
                                    le_pow[t2][l][r2]
                                };
                                finish = f.mul(finish, factor);
                            }
                            coefs[l] = finish;
                        }
                        axpy_shifted(&self.lanes, &mut result.w, &sums, lo, hi, shift, &coefs);
                    }
                }
                layer = next;
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
                < super::threshold::dp_cost(&scores, count, keep)
    }

    /// Keep the single highest die: P(max = o) = prod F_t(o)^n_t - prod F_t(<o)^n_t,
    /// with F_t the mass of a type at or below an outcome.
    fn keep_one_highest(
        &mut self,
        pool: &[PoolType],
        denom: BigUint,
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
                let denom = t.dist.denom.pow(t.count as u32);
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

/// The first and last sums with a non-zero weight in a state's row.
fn occupied(row: &[u64], k: usize) -> Option<(usize, usize)> {
    let width = row.len() / k;
    let nonzero = |s: &usize| row[s * k..(s + 1) * k].iter().any(|&x| x != 0);
    let lo = (0..width).find(nonzero)?;
    let hi = (0..width).rev().find(nonzero)?;
    Some((lo, hi))
}

/// `dst[s + shift] += src[s] * coefs` for every sum `s` in `lo..=hi`, lane by lane.
fn axpy_shifted(
    lanes: &[super::field::Prime],
    dst: &mut [u64],
    src: &[u64],
    lo: usize,
    hi: usize,
    shift: isize,
    coefs: &[u64],
) {
    let k = lanes.len();
    if coefs.iter().all(|&c| c == 0) {
        return;
    }
    for s in lo..=hi {
        let from = &src[s * k..(s + 1) * k];
        let to_index = (s as isize + shift) as usize * k;
        let to = &mut dst[to_index..to_index + k];
        for l in 0..k {
            let f = &lanes[l];
            to[l] = f.add(to[l], f.mul(from[l], coefs[l]));
        }
    }
}
