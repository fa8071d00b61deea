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
                fact[l][i] = f.mul(fact[l][i - 1], f.from_u64(i as u64));
            }
            inv_fact[l][n_max] = f.inv(fact[l][n_max]);
            for i in (0..n_max).rev() {
                inv_fact[l][i] = f.mul(inv_fact[l][i + 1], f.from_u64(i as u64 + 1));
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
                    let r = unassigned(idx, t);
                    let need = (keep - assigned(idx)) as usize;
                    // Stay below `keep`: c < need.
                    for c in 0..=r.min(need - 1) {
                        let target = idx - c * stride[t];
                        if next[target].is_empty() {
                            next[target] = vec![0u64; width * k];
                        }
                        let shift = c as i64 * go;
                        for (l, f) in self.lanes.iter().enumerate() {
                            let coef = f.mul(binom(l, r, c), pw[t][l][c]);
                            if coef == 0 {
                                continue;
                            }
                            for s in 0..width {
                                let x = sums[s * k + l];
                                if x == 0 {
                                    continue;
                                }
                                let s2 = (s as i64 + shift) as usize;
                                let cell = &mut next[target][s2 * k + l];
                                *cell = f.add(*cell, f.mul(x, coef));
                            }
                        }
                    }
                    // Reach `keep`: c >= need; every die left must show less.
                    if r >= need {
                        let shift = need as i64 * go;
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
                            if finish == 0 {
                                continue;
                            }
                            for s in 0..width {
                                let x = sums[s * k + l];
                                if x == 0 {
                                    continue;
                                }
                                let s2 = (s as i64 + shift) as usize;
                                let cell = &mut result.w[s2 * k + l];
                                *cell = f.add(*cell, f.mul(x, finish));
                            }
                        }
                    }
                }
                layer = next;
            }
        }
        Ok(result)
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
        self.keep_highest(&negated, keep, &|v| g(-v))
    }
}
