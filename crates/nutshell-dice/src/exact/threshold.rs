//! Keep the K highest of N identical dice by threshold decomposition: Θ(N²)
//! word operations for `Nd6khN/2`, where the outcome DP of `keep` takes Θ(N⁴).
//!
//! Order the die's outcomes `v_1 < ... < v_m` with weights `w_i` and kept
//! scores `g_i` (never decreasing with the value). With `W≤i` the weight at or
//! below `v_i`, `W<i = W≤i − w_i`, `y_i(z) = Σ_{j>i} w_j z^(g_j − g_i)` and
//! `S(x; B) = Σ_{a<K} C(N, a) x^a B^(N−a)`, the generating function of the
//! kept score (counts over the rolls of the N dice) is
//!
//! ```text
//! A(z) = Σ_i z^(K·g_i) · [ S(y_i; W≤i) − S(y_i + w_i; W<i) ]
//! ```
//!
//! The first term counts rolls with fewer than K dice above `v_i`, the second
//! those with fewer than K at or above it: their difference is the rolls whose
//! K-th highest die is `v_i`. `S` satisfies
//! `(x + B)·S' = N·S − (N − K + 1)·C(N, K−1)·B^(N−K+1)·x^(K−1)`, so with
//! `x = x(z)` each coefficient of `S(x(z))` follows from the previous ones in
//! one pass over the terms of `x` (a recurrence of J. C. P. Miller's kind,
//! like the power of a polynomial in `dist`), and `x^K` by Miller's own.
//!
//! Everything runs modulo each residue lane's prime: divisions are by small
//! `n` and by `W≤i` (or `y_i(0) + W≤i`), invertible whenever the die's total
//! weight is below the prime. Where one is not, the caller falls back to the DP.
//!
//! Cost per lane: about `4·Σ_i L_i·t_i` products, with `L_i = (K−1)·(g_m − g_i) + 1`
//! coefficients and `t_i` terms in `y_i`: `1000d6kh500` is about 0.2 million
//! per lane. Design note and Python prototypes: the keep-highest notes of the
//! project (threshold decomposition, A. J. Liu's icepool paper for the DP).

use super::denom::Denom;
use super::dist::Dist;
use super::field::{Prime, split_sum};
use super::{Ctx, ExactError};

/// The outcomes of a die that matter: value order, score and weight residues.
struct Outcome<'a> {
    score: i64,
    /// One residue per lane (Montgomery form).
    w: &'a [u64],
}

/// Steps of the work limit (about a nanosecond each) charged for two
/// products of the recurrence: one takes 1.5 ns on dice of few faces and up
/// to 3.5 ns on dice of hundreds (measured on the development machine from
/// `100d20kh50` and `1000d6kh500` to `100d100kh50` and `21d1000dl1`, whose
/// longer rows leave the cache). The larger figure is charged, so a long
/// computation stays within the second per 10^9 steps that `max_work`
/// promises; few-faced pools answer sooner than charged.
const STEPS_PER_TWO_PRODUCTS: u64 = 7;

/// The estimated products per lane of [`Ctx::keep_highest_by_threshold`] for
/// a die whose nonzero outcomes have these scores (ascending), keeping `keep`.
pub(crate) fn threshold_cost(scores: &[i64], keep: u64) -> u64 {
    let Some(&top) = scores.last() else {
        return 0;
    };
    let m = scores.len() as u64;
    scores
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let coefficients = (keep.saturating_sub(1)).saturating_mul((top - s) as u64) + 1;
            let terms = m - i as u64;
            // S and x^K for both terms, plus the q0 sums.
            coefficients
                .saturating_mul(terms)
                .saturating_mul(4)
                .saturating_add(4 * keep)
        })
        .fold(0u64, u64::saturating_add)
}

/// The estimated products per lane of the outcome DP (`keep`) for one die
/// type with these scores (ascending), `count` dice keeping `keep`.
pub(crate) fn dp_cost(scores: &[i64], count: u64, keep: u64) -> u64 {
    let Some(&top) = scores.last() else {
        return 0;
    };
    let mut ops = 0u64;
    for (idx, _) in scores.iter().enumerate().rev() {
        let next = scores[(idx + 1).min(scores.len() - 1)];
        for a in 0..keep {
            let width = if a == 0 {
                1
            } else {
                a.saturating_mul((top - next) as u64) + 1
            };
            let transitions = (keep - a).min(count - a) + 2;
            ops = ops.saturating_add(width.saturating_mul(transitions));
        }
    }
    ops
}

/// Inverses of `1..=n` modulo `f.p`, in Montgomery form (index 0 unused):
/// one inversion of `n!` and three products each, `1/i = (i−1)!·(1/i!)`.
fn inverses(f: &Prime, n: usize) -> Vec<u64> {
    let mut fact = Vec::with_capacity(n + 1);
    let (mut acc, mut i_m) = (f.one(), 0u64);
    fact.push(acc);
    for _ in 1..=n {
        i_m = f.add(i_m, f.one());
        acc = f.mul(acc, i_m);
        fact.push(acc);
    }
    let mut inv = vec![0u64; n + 1];
    let mut inv_fact = f.inv(fact[n]); // 1/i! for i = n, going down
    let mut i_m = f.enter(n as u64);
    for i in (1..=n).rev() {
        inv[i] = f.mul(inv_fact, fact[i - 1]);
        inv_fact = f.mul(inv_fact, i_m);
        i_m = f.sub(i_m, f.one());
    }
    inv
}

/// One lane's shared tables.
struct Lane<'a> {
    f: &'a Prime,
    n: u64,
    keep: u64,
    /// Inverses of 1..=max(L, K).
    inv: Vec<u64>,
    /// The integers 0..=max(L, K), in Montgomery form.
    ints: Vec<u64>,
    /// Their negatives.
    neg_ints: Vec<u64>,
    /// `C(N, a)` for `a = 0..=K`.
    binom: Vec<u64>,
}

impl Lane<'_> {
    /// The signed integer `v` in Montgomery form.
    fn int(&self, v: i128) -> u64 {
        let p = i128::from(self.f.p);
        self.f.enter(v.rem_euclid(p) as u64)
    }

    /// Coefficients `0..len` of `x^K` (Miller's recurrence on `x = z^s·x̂`),
    /// as `(c, λ)` with `x^K = λ·c`: the scale `x̂_0^K` is left to the caller,
    /// which multiplies the whole power by a constant anyway.
    fn power_keep(&self, x: &[u64], len: usize) -> (Vec<u64>, u64) {
        let f = self.f;
        let mut e = vec![0u64; len];
        let Some(s) = x.iter().position(|&c| c != 0) else {
            return (e, 0);
        };
        let xh = &x[s..];
        let d = xh.len() - 1;
        let offset = (self.keep as usize).saturating_mul(s);
        if offset >= len {
            return (e, 0);
        }
        let eh = &mut e[offset..];
        // x̂ = x̂_0·ξ with ξ_0 = 1: ξ^K by the recurrence (no division by
        // x̂_0 at each step), then scaled by x̂_0^K.
        let inv0 = f.inv(xh[0]);
        let xi: Vec<u64> = xh.iter().map(|&c| f.mul(c, inv0)).collect();
        // (K+1)·j·ξ_j and ξ_j, for the split sum Σ ((K+1)·j − n)·ξ_j·e_{n−j}.
        let k1 = self.int(i128::from(self.keep) + 1);
        let jx: Vec<u64> = (0..=d)
            .map(|j| f.mul(k1, f.mul(self.ints[j], xi[j])))
            .collect();
        eh[0] = f.one();
        for n in 1..eh.len() {
            let acc = split_sum(f, &jx, &xi, eh, n, self.neg_ints[n]);
            eh[n] = f.mul(acc, self.inv[n]);
        }
        (e, f.pow(xh[0], self.keep))
    }

    /// Coefficients of `S(x(z); B)`, added with `sign` into `out[base..]`.
    /// `None` when `x(0) + B` is 0 modulo the prime.
    fn add_s(&self, out: &mut [u64], base: usize, x: &[u64], b: u64, add: bool) -> Option<()> {
        let f = self.f;
        let d = x.len() - 1;
        let k = self.keep as usize;
        let len = (k - 1) * d + 1;
        let lead = f.add(x[0], b);
        if lead == 0 {
            return None;
        }
        let lead_inv = f.inv(lead);
        // q0 = Σ_{a<K} C(N, a) x0^a B^(N−a), from a = K−1 down (Horner in x0/B
        // would need B invertible; powers of B upward instead).
        let b_low = f.pow(b, self.n - self.keep + 1); // B^(N−K+1)
        let mut q0 = 0u64;
        let mut bpow = b_low; // B^(N−a) for a = K−1
        let mut xpows = vec![f.one(); k];
        for a in 1..k {
            xpows[a] = f.mul(xpows[a - 1], x[0]);
        }
        for a in (0..k).rev() {
            q0 = f.add(q0, f.mul(self.binom[a], f.mul(xpows[a], bpow)));
            bpow = f.mul(bpow, b);
        }
        let (e, e_scale) = self.power_keep(x, len);
        // (N+1)·j·x_j and x_j, for the split sum Σ ((N+1)·j − n)·x_j·q_{n−j}.
        let n1 = self.int(i128::from(self.n) + 1);
        let jx: Vec<u64> = (0..=d)
            .map(|j| f.mul(n1, f.mul(self.ints[j], x[j])))
            .collect();
        // q_n = (acc_n / n − C(N, K)·B^(N−K+1)·e_n) / lead, the first product
        // and the second summed before one reduction.
        let neg_ce = f.sub(0, f.mul(f.mul(self.binom[k], b_low), e_scale));
        let mut q = vec![0u64; len];
        q[0] = q0;
        for n in 1..len {
            let acc = split_sum(f, &jx, x, &q, n, self.neg_ints[n]);
            let inner = f.reduce_wide(Prime::wide(acc, self.inv[n]) + Prime::wide(neg_ce, e[n]));
            q[n] = f.mul(inner, lead_inv);
        }
        for (n, &c) in q.iter().enumerate() {
            let slot = &mut out[base + n];
            *slot = if add {
                f.add(*slot, c)
            } else {
                f.sub(*slot, c)
            };
        }
        Some(())
    }
}

impl Ctx<'_> {
    /// The distribution of the sum of `g` over the `keep` highest of `count`
    /// dice distributed as `die`, by threshold decomposition (module doc).
    /// `Ok(None)` when it does not apply: `g` decreasing somewhere, `keep`
    /// outside `2..count`, or a division by 0 modulo some lane's prime.
    pub fn keep_highest_by_threshold(
        &mut self,
        die: &Dist,
        count: u64,
        keep: u64,
        g: &dyn Fn(i64) -> i64,
        denom: Denom,
    ) -> Result<Option<Dist>, ExactError> {
        let k = self.k;
        if keep < 2 || keep >= count {
            return Ok(None);
        }
        let outcomes: Vec<Outcome> = (0..die.len)
            .filter(|&i| !die.is_zero_at(i, k))
            .map(|i| Outcome {
                score: g(die.min + i as i64),
                w: die.weight(i, k),
            })
            .collect();
        if outcomes.is_empty() || outcomes.windows(2).any(|w| w[1].score < w[0].score) {
            return Ok(None);
        }
        let scores: Vec<i64> = outcomes.iter().map(|o| o.score).collect();
        let (lo, hi) = (scores[0], scores[scores.len() - 1]);
        let keep_i = keep as i64;
        let (Some(s_lo), Some(s_hi)) = (keep_i.checked_mul(lo), keep_i.checked_mul(hi)) else {
            return Err(self.overflow());
        };
        let mut out = self.zeros(s_lo, s_hi, denom)?;
        self.charge(threshold_cost(&scores, keep).saturating_mul(STEPS_PER_TWO_PRODUCTS) / 2)?;
        if self.measuring_only() {
            return Ok(Some(self.placeholder(out, false)));
        }
        let longest = (keep as usize - 1) * (hi - lo) as usize + 1;
        let lanes = self.lanes.clone();
        for (l, f) in lanes.iter().enumerate() {
            let inv = inverses(f, longest.max(keep as usize));
            let mut binom = vec![f.one(); keep as usize + 1];
            for a in 1..=keep as usize {
                let factor = f.mul(f.enter((count - a as u64 + 1) % f.p), inv[a]);
                binom[a] = f.mul(binom[a - 1], factor);
            }
            let mut ints = Vec::with_capacity(inv.len());
            let mut i = 0u64;
            for _ in 0..inv.len() {
                ints.push(i);
                i = f.add(i, f.one());
            }
            let neg_ints = ints.iter().map(|&i| f.sub(0, i)).collect();
            let lane = Lane {
                f,
                n: count,
                keep,
                inv,
                ints,
                neg_ints,
                binom,
            };
            let mut acc = vec![0u64; out.len];
            let mut at_or_below = 0u64;
            for (i, o) in outcomes.iter().enumerate() {
                let w = o.w[l];
                let below = at_or_below;
                at_or_below = f.add(at_or_below, w);
                let degree = (hi - o.score) as usize;
                let mut y = vec![0u64; degree + 1];
                for above in &outcomes[i + 1..] {
                    let slot = &mut y[(above.score - o.score) as usize];
                    *slot = f.add(*slot, above.w[l]);
                }
                let base = (keep_i * (o.score - lo)) as usize;
                if lane.add_s(&mut acc, base, &y, at_or_below, true).is_none() {
                    return Ok(None);
                }
                if below != 0 {
                    y[0] = f.add(y[0], w);
                    if lane.add_s(&mut acc, base, &y, below, false).is_none() {
                        return Ok(None);
                    }
                }
            }
            for (s, &v) in acc.iter().enumerate() {
                out.w[s * k + l] = v;
            }
        }
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::super::keep::PoolType;
    use super::*;
    use crate::Limits;

    /// The threshold decomposition against the outcome DP, residue by
    /// residue, on dice with gaps, weights, negative values and tied scores
    /// (the note's prototype checks, `proto.py` and `proto2.py`).
    #[test]
    fn agrees_with_the_dp_on_every_shape_of_die() {
        let limits = Limits::default();
        let dice: Vec<(Vec<(i64, u64)>, u64)> = vec![
            ((1..=6).map(|v| (v, 1)).collect(), 6),
            // An exploding d4 cut at two explosions: values with gaps, weights.
            (
                vec![
                    (1, 16),
                    (2, 16),
                    (3, 16),
                    (5, 4),
                    (6, 4),
                    (7, 4),
                    (9, 1),
                    (10, 1),
                    (11, 1),
                    (12, 1),
                ],
                64,
            ),
            (vec![(-2, 3), (0, 1), (1, 5), (4, 2)], 11),
            // A tail: weights sum below the denominator.
            (vec![(1, 2), (2, 3), (7, 1)], 8),
        ];
        // Scores: the value, and a success count with a -1 face (ties).
        let scores: [&dyn Fn(i64) -> i64; 2] = [&|v| v, &|v| i64::from(v >= 5) - i64::from(v <= 1)];
        for (die, denom) in &dice {
            for g in scores {
                for n in 3..=7u64 {
                    for keep in 2..n {
                        let mut ctx = Ctx::new(4, &limits, 0);
                        let dist = ctx.counts_dist(die, Denom::of(*denom)).unwrap();
                        let total = Denom::of(*denom).pow(n);
                        let fast = ctx
                            .keep_highest_by_threshold(&dist, n, keep, g, total)
                            .unwrap()
                            .expect("applies")
                            .trim(4);
                        let denom = dist.denom.pow(n);
                        let slow = ctx
                            .keep_highest_dp(&[PoolType { dist, count: n }], keep, g, denom)
                            .unwrap()
                            .trim(4);
                        assert_eq!(
                            (fast.min, &fast.w),
                            (slow.min, &slow.w),
                            "{die:?} n={n} keep={keep}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn keep_half_costs_grow_as_n_squared_against_n_to_the_fourth() {
        // Per residue lane (and the lanes grow as N too): doubling N doubles
        // the threshold's products and multiplies the DP's by about 8.
        let d6 = [1, 2, 3, 4, 5, 6];
        let t = |n: u64| threshold_cost(&d6, n / 2) as f64;
        let d = |n: u64| dp_cost(&d6, n, n / 2) as f64;
        assert!((1.8..2.2).contains(&(t(400) / t(200))));
        assert!(d(400) / d(200) > 6.0);
        assert!(t(100) < d(100));
        // Few dice: the DP is cheaper and stays.
        assert!(t(10) > d(10));
    }
}
