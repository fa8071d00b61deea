//! The working distribution of the exact engine: weights over a dense range of
//! integer outcomes, as residues modulo several primes, over one exact
//! denominator.
//!
//! A `Dist` is a *sub*-probability distribution: P(v) = weight(v) / denom, and
//! the weights may sum to less than `denom`. The missing mass is the `tail`:
//! rolls the engine did not follow (explosions beyond the limit).

use super::denom::Denom;
use super::field::{LAZY_TERMS, Prime, split_sum};
use super::{Ctx, ExactError};

/// Weights for outcomes `min .. min + len`, lane-interleaved: the weight of
/// outcome `min + i` in lane `l` is `w[i * k + l]` (Montgomery form).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dist {
    pub min: i64,
    pub len: usize,
    pub w: Vec<u64>,
    pub denom: Denom,
}

impl Dist {
    /// The largest outcome. Summed as `min + (len - 1)`: `min + len`
    /// overflows when the largest outcome is `i64::MAX` (found by the
    /// `exact_odds` fuzz target: the constant `9223372036854775807`).
    pub fn max(&self) -> i64 {
        self.min + (self.len as i64 - 1)
    }

    pub fn weight(&self, i: usize, k: usize) -> &[u64] {
        &self.w[i * k..(i + 1) * k]
    }

    pub fn is_zero_at(&self, i: usize, k: usize) -> bool {
        self.weight(i, k).iter().all(|&x| x == 0)
    }

    /// Drops zero weights at both ends (an empty distribution keeps one zero outcome).
    pub fn trim(mut self, k: usize) -> Dist {
        let mut lo = 0;
        while lo + 1 < self.len && self.is_zero_at(lo, k) {
            lo += 1;
        }
        let mut hi = self.len;
        while hi > lo + 1 && self.is_zero_at(hi - 1, k) {
            hi -= 1;
        }
        if lo > 0 || hi < self.len {
            self.w = self.w[lo * k..hi * k].to_vec();
            self.min += lo as i64;
            self.len = hi - lo;
        }
        self
    }

    /// Whether every weight is zero.
    pub fn is_empty(&self, k: usize) -> bool {
        (0..self.len).all(|i| self.is_zero_at(i, k))
    }
}

impl Ctx<'_> {
    /// `len` copies of `value`, or an error with the bytes they need.
    pub fn filled<T: Clone>(&self, len: usize, value: T) -> Result<Vec<T>, ExactError> {
        crate::memory::filled(len as u128, value).map_err(|bytes| ExactError::OutOfMemory {
            bytes,
            span: self.span,
        })
    }

    /// A zeroed distribution over `min ..= max`, checking the outcome limit.
    pub fn zeros(&self, min: i64, max: i64, denom: Denom) -> Result<Dist, ExactError> {
        let len = (max as i128 - min as i128 + 1).max(1);
        if len > self.limits.max_outcomes as i128 {
            return Err(ExactError::TooManyOutcomes {
                outcomes: len as u128,
                limit: self.limits.max_outcomes,
                span: self.span,
            });
        }
        self.check_denominator(&denom)?;
        let w = self.filled(len as usize * self.k, 0)?;
        Ok(Dist {
            min,
            len: len as usize,
            w,
            denom,
        })
    }

    /// The certain value `v`.
    pub fn point(&self, v: i64) -> Dist {
        Dist {
            min: v,
            len: 1,
            w: self.lanes.iter().map(Prime::one).collect(),
            denom: Denom::one(),
        }
    }

    /// A distribution from integer counts: `counts[i]` ways to show `values[i]`
    /// out of `denom`.
    pub fn counts_dist(&self, outcomes: &[(i64, u64)], denom: Denom) -> Result<Dist, ExactError> {
        let min = outcomes.iter().map(|o| o.0).min().unwrap_or(0);
        let max = outcomes.iter().map(|o| o.0).max().unwrap_or(0);
        let mut d = self.zeros(min, max, denom)?;
        let k = self.k;
        for &(v, c) in outcomes {
            let i = (v - min) as usize;
            for (l, f) in self.lanes.iter().enumerate() {
                d.w[i * k + l] = f.add(d.w[i * k + l], f.enter(c));
            }
        }
        Ok(d)
    }

    /// Multiplies every weight by the integer `factor` (and the denominator too),
    /// so that the probabilities are unchanged.
    pub fn rescale(&self, d: &mut Dist, factor: &Denom) {
        if factor.is_one() {
            return;
        }
        let k = self.k;
        let f_res: Vec<u64> = self.lanes.iter().map(|f| factor.residue(f)).collect();
        for i in 0..d.len {
            for (l, f) in self.lanes.iter().enumerate() {
                d.w[i * k + l] = f.mul(d.w[i * k + l], f_res[l]);
            }
        }
        d.denom = d.denom.mul(factor);
    }

    /// Brings `a` and `b` to a common denominator (their least common multiple).
    pub fn common_denominator(&self, a: &mut Dist, b: &mut Dist) {
        if a.denom == b.denom {
            return;
        }
        let lcm = a.denom.lcm(&b.denom);
        let fa = lcm.div(&a.denom);
        let fb = lcm.div(&b.denom);
        self.rescale(a, &fa);
        self.rescale(b, &fb);
    }

    /// `a + b` as disjoint parts of one probability space: the weights add
    /// (after a common denominator).
    pub fn union(&mut self, mut a: Dist, mut b: Dist) -> Result<Dist, ExactError> {
        self.common_denominator(&mut a, &mut b);
        let min = a.min.min(b.min);
        let max = a.max().max(b.max());
        let mut out = self.zeros(min, max, a.denom.clone())?;
        self.charge((a.len + b.len) as u64)?;
        let k = self.k;
        for part in [&a, &b] {
            let offset = (part.min - min) as usize;
            for i in 0..part.len {
                for (l, f) in self.lanes.iter().enumerate() {
                    let o = (offset + i) * k + l;
                    out.w[o] = f.add(out.w[o], part.w[i * k + l]);
                }
            }
        }
        Ok(out)
    }

    /// The distribution of `X + Y` for independent X and Y.
    pub fn add(&mut self, a: &Dist, b: &Dist) -> Result<Dist, ExactError> {
        let (a, b) = if a.len >= b.len { (a, b) } else { (b, a) };
        let min = a.min.checked_add(b.min).ok_or(self.overflow())?;
        let max = a.max().checked_add(b.max()).ok_or(self.overflow())?;
        let mut out = self.zeros(min, max, a.denom.mul(&b.denom))?;
        self.charge((a.len as u64) * (b.len as u64))?;
        if self.measuring_only() {
            let symmetric = super::is_symmetric(a, self.k) && super::is_symmetric(b, self.k);
            return Ok(self.placeholder(out, symmetric));
        }
        let k = self.k;
        if b.len <= 2 {
            // A constant or a coin added: a product and a sum per weight.
            for j in 0..b.len {
                let bw = &b.w[j * k..(j + 1) * k];
                for i in 0..a.len {
                    let o = (i + j) * k;
                    for (l, f) in self.lanes.iter().enumerate() {
                        out.w[o + l] = f.add(out.w[o + l], f.mul(a.w[i * k + l], bw[l]));
                    }
                }
            }
            return Ok(out);
        }
        // Lane by lane over contiguous copies: each outcome's weight is one
        // dot product of a reversed against b, its products summed unreduced
        // and reduced once per LAZY_TERMS (`convolve_lane`).
        let mut reversed = self.filled(a.len, 0u64)?;
        let mut forward = self.filled(b.len, 0u64)?;
        let mut lane_out = self.filled(out.len, 0u64)?;
        for (l, f) in self.lanes.iter().enumerate() {
            for i in 0..a.len {
                reversed[a.len - 1 - i] = a.w[i * k + l];
            }
            for j in 0..b.len {
                forward[j] = b.w[j * k + l];
            }
            convolve_lane(f, &reversed, &forward, &mut lane_out);
            for (t, &x) in lane_out.iter().enumerate() {
                out.w[t * k + l] = x;
            }
        }
        Ok(out)
    }

    /// The distribution of `f(X)`.
    pub fn map(&mut self, a: &Dist, f: impl Fn(i64) -> Option<i64>) -> Result<Dist, ExactError> {
        let k = self.k;
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut mapped = Vec::with_capacity(a.len);
        for i in 0..a.len {
            if a.is_zero_at(i, k) {
                mapped.push(None);
                continue;
            }
            let v = f(a.min + i as i64).ok_or(self.overflow())?;
            lo = lo.min(v);
            hi = hi.max(v);
            mapped.push(Some(v));
        }
        if lo > hi {
            return Ok(Dist {
                min: 0,
                len: 1,
                w: vec![0; k],
                denom: a.denom.clone(),
            });
        }
        let mut out = self.zeros(lo, hi, a.denom.clone())?;
        self.charge(a.len as u64)?;
        for (i, v) in mapped.into_iter().enumerate() {
            if let Some(v) = v {
                let o = (v - lo) as usize * k;
                for (l, f) in self.lanes.iter().enumerate() {
                    out.w[o + l] = f.add(out.w[o + l], a.w[i * k + l]);
                }
            }
        }
        Ok(out)
    }

    /// The distribution of `op(X, Y)` for independent X and Y, pair by pair.
    pub fn combine(
        &mut self,
        a: &Dist,
        b: &Dist,
        op: impl Fn(i64, i64) -> Result<i64, ExactError>,
    ) -> Result<Dist, ExactError> {
        let k = self.k;
        let nz_a: Vec<usize> = (0..a.len).filter(|&i| !a.is_zero_at(i, k)).collect();
        let nz_b: Vec<usize> = (0..b.len).filter(|&j| !b.is_zero_at(j, k)).collect();
        self.charge(2 * (nz_a.len() as u64) * (nz_b.len() as u64))?;
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for &i in &nz_a {
            for &j in &nz_b {
                let v = op(a.min + i as i64, b.min + j as i64)?;
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        if lo > hi {
            return Ok(Dist {
                min: 0,
                len: 1,
                w: vec![0; k],
                denom: a.denom.mul(&b.denom),
            });
        }
        let mut out = self.zeros(lo, hi, a.denom.mul(&b.denom))?;
        for &i in &nz_a {
            for &j in &nz_b {
                let v = op(a.min + i as i64, b.min + j as i64)?;
                let o = (v - lo) as usize * k;
                for (l, f) in self.lanes.iter().enumerate() {
                    out.w[o + l] = f.add(out.w[o + l], f.mul(a.w[i * k + l], b.w[j * k + l]));
                }
            }
        }
        Ok(out)
    }

    /// Merges every outcome at or above `cap` into `cap`: the distribution of
    /// `min(X, cap)`.
    pub fn cap(&mut self, a: Dist, cap: Option<i64>) -> Result<Dist, ExactError> {
        match cap {
            Some(c) if a.max() > c => self.map(&a, |v| Some(v.min(c))),
            _ => Ok(a),
        }
    }

    /// The distribution of the sum of `n` independent copies of `die`.
    ///
    /// Uses J. C. P. Miller's recurrence for the power of a polynomial: with
    /// P(x) = sum p_j x^j and p_0 != 0, the coefficients of P(x)^n satisfy
    /// a_0 = p_0^n and k p_0 a_k = sum_{j=1..min(d,k)} ((n+1) j - k) p_j a_{k-j}.
    /// That is O(n d^2) operations instead of O(n^2 d^2) by repeated convolution.
    pub fn power(&mut self, die: &Dist, n: u64) -> Result<Dist, ExactError> {
        if n == 0 {
            return Ok(self.point(0));
        }
        if n == 1 {
            return Ok(die.clone());
        }
        let k = self.k;
        let die = die.clone().trim(k);
        let d = die.len - 1;
        let min = die.min.checked_mul(n as i64).ok_or(self.overflow())?;
        let max = die.max().checked_mul(n as i64).ok_or(self.overflow())?;
        let denom = die.denom.pow(n);
        self.check_denominator(&denom)?;
        let mut out = self.zeros(min, max, denom)?;
        if d == 0 {
            for (l, f) in self.lanes.iter().enumerate() {
                out.w[l] = f.pow(die.w[l], n);
            }
            return Ok(out);
        }
        let len = out.len;
        self.charge((len as u64) * (d as u64) + 4 * len as u64)?;
        if self.measuring_only() {
            let symmetric = super::is_symmetric(&die, k);
            return Ok(self.placeholder(out, symmetric));
        }
        // p_0 must be invertible in every lane; it is a positive integer below
        // the denominator, so a zero residue is astronomically unlikely, but
        // fall back to repeated squaring if it happens.
        if die.weight(0, k).contains(&0) {
            return self.power_by_squaring(&die, n);
        }
        for (l, f) in self.lanes.iter().enumerate() {
            let p: Vec<u64> = (0..=d).map(|j| die.w[j * k + l]).collect();
            // Inverses of (t * p_0) for t = 1..len-1, by one batch inversion.
            let mut prefix = self.filled(len, f.one())?;
            let mut acc = f.one();
            for t in 1..len {
                let x = f.mul(f.enter(t as u64), p[0]);
                prefix[t] = acc;
                acc = f.mul(acc, x);
            }
            let mut inv_acc = f.inv(acc);
            let mut inv = self.filled(len, 0u64)?;
            for t in (1..len).rev() {
                let x = f.mul(f.enter(t as u64), p[0]);
                inv[t] = f.mul(inv_acc, prefix[t]);
                inv_acc = f.mul(inv_acc, x);
            }
            // ((n + 1)·j − t)·p_j split as (n + 1)·j·p_j and p_j: two sums
            // of products, each reduced once (`split_sum`).
            let np: Vec<u64> = (0..=d)
                .map(|j| f.mul(f.enter(((n + 1) * j as u64) % f.p), p[j]))
                .collect();
            let mut a = self.filled(len, 0u64)?;
            a[0] = f.pow(p[0], n);
            // A symmetric die has a symmetric power: compute half and mirror it.
            let symmetric = (0..=d).all(|j| p[j] == p[d - j]);
            let upto = if symmetric { len / 2 + 1 } else { len };
            let mut neg_t = 0u64;
            for t in 1..upto {
                neg_t = f.sub(neg_t, f.one());
                a[t] = f.mul(split_sum(f, &np, &p, &a, t, neg_t), inv[t]);
            }
            for t in upto..len {
                a[t] = a[len - 1 - t];
            }
            for t in 0..len {
                out.w[t * k + l] = a[t];
            }
        }
        Ok(out)
    }

    fn power_by_squaring(&mut self, die: &Dist, mut n: u64) -> Result<Dist, ExactError> {
        let mut base = die.clone();
        let mut acc = self.point(0);
        while n > 0 {
            if n & 1 == 1 {
                acc = self.add(&acc, &base)?;
            }
            n >>= 1;
            if n > 0 {
                base = self.add(&base, &base)?;
            }
        }
        Ok(acc)
    }

    /// The weighted sum of distributions: `sum_i P(i) * dists[i]`, where `mix`
    /// gives P(i) as the weight of outcome i (every part brought to a common
    /// denominator first).
    pub fn mixture(&mut self, mix: &Dist, parts: Vec<(usize, Dist)>) -> Result<Dist, ExactError> {
        let k = self.k;
        let mut lcm = Denom::one();
        for (_, d) in &parts {
            lcm = lcm.lcm(&d.denom);
        }
        let denom = mix.denom.mul(&lcm);
        self.check_denominator(&denom)?;
        let lo = parts.iter().map(|(_, d)| d.min).min().unwrap_or(0);
        let hi = parts.iter().map(|(_, d)| d.max()).max().unwrap_or(0);
        let mut out = self.zeros(lo, hi, denom)?;
        for (i, mut d) in parts {
            let factor = lcm.div(&d.denom);
            self.rescale(&mut d, &factor);
            self.charge(d.len as u64)?;
            let offset = (d.min - lo) as usize;
            let pw = mix.weight(i, k).to_vec();
            for j in 0..d.len {
                for (l, f) in self.lanes.iter().enumerate() {
                    let o = (offset + j) * k + l;
                    out.w[o] = f.add(out.w[o], f.mul(d.w[j * k + l], pw[l]));
                }
            }
        }
        Ok(out)
    }
}

/// The convolution of one lane: `out[t] = Σ_j a[t − j]·b[j]`, given `a`
/// reversed (so each sum is a dot product of two runs read forward), its
/// products summed unreduced, folded every [`LAZY_TERMS`] and reduced once.
fn convolve_lane(f: &Prime, a_reversed: &[u64], b: &[u64], out: &mut [u64]) {
    let (n, m) = (a_reversed.len(), b.len());
    debug_assert_eq!(out.len(), n + m - 1);
    for (t, slot) in out.iter_mut().enumerate() {
        // j from max(0, t − (n − 1)) to min(t, m − 1); a[t − j] is
        // a_reversed[n − 1 − t + j].
        let lo = t.saturating_sub(n - 1);
        let hi = t.min(m - 1);
        let xs = &a_reversed[n - 1 + lo - t..=n - 1 + hi - t];
        let ys = &b[lo..=hi];
        let mut acc = 0u128;
        for (xc, yc) in xs.chunks(LAZY_TERMS).zip(ys.chunks(LAZY_TERMS)) {
            let mut s = acc;
            for (&x, &y) in xc.iter().zip(yc) {
                s += Prime::wide(x, y);
            }
            acc = f.fold(s);
        }
        *slot = f.reduce_wide(acc);
    }
}
