//! Exact integer arithmetic by residues: every weight is kept modulo several
//! 62-bit primes (a residue number system) and rebuilt as a big integer at the
//! end by the Chinese remainder theorem.
//!
//! All the dynamic programs of the exact engine only add and multiply
//! non-negative integers whose final values are bounded by a known denominator,
//! so working modulo enough primes is exact, and each step is a handful of
//! machine multiplications instead of a big-integer operation.

use num_bigint::BigUint;
use std::sync::Mutex;

/// Arithmetic modulo one prime `p < 2^62`, in Montgomery form (R = 2^64).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Prime {
    pub p: u64,
    /// `-p^-1 mod 2^64`.
    neg_inv: u64,
    /// `R^2 mod p`, to enter Montgomery form.
    r2: u64,
}

impl Prime {
    fn new(p: u64) -> Prime {
        // Newton's iteration doubles the correct low bits of p^-1 mod 2^64.
        let mut inv: u64 = p;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        debug_assert_eq!(p.wrapping_mul(inv), 1);
        let r = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = ((u128::from(r) * u128::from(r)) % u128::from(p)) as u64;
        Prime {
            p,
            neg_inv: inv.wrapping_neg(),
            r2,
        }
    }

    /// Montgomery product: `a * b / R mod p`.
    #[inline(always)]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        let t = u128::from(a) * u128::from(b);
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p { u - self.p } else { u }
    }

    /// Reduces a lazily accumulated sum of Montgomery products: `t = Σ a_i·b_i`
    /// over at most [`LAZY_TERMS`] products of residues, possibly on top of a
    /// [`Prime::fold`]ed sum, to the residue of `Σ a_i·b_i / R` (what adding
    /// the [`Prime::mul`] of each pair gives), with one reduction for the whole
    /// sum instead of one per product.
    #[inline(always)]
    pub fn reduce_wide(&self, t: u128) -> u64 {
        let folded = self.fold(t);
        let hi = (folded >> 64) as u64;
        let lo = folded as u64;
        // REDC of hi·2^64 + lo < p·R.
        let m = lo.wrapping_mul(self.neg_inv);
        let mp = u128::from(m) * u128::from(self.p);
        let (sum, carry) = u128::from(lo).overflowing_add(mp);
        debug_assert!(!carry);
        let u = (sum >> 64) as u64 + hi;
        if u >= self.p { u - self.p } else { u }
    }

    /// [`Prime::reduce_wide`] for a sum whose high word is below `2p`: one
    /// residue `x < p` entered as `x·R` plus at most [`SHORT_TERMS`] products
    /// (`(p − 1)·2^64 + 4p² < (2p − 1)·2^64`, as `4p < 2^64`).
    #[inline(always)]
    pub fn reduce_short(&self, t: u128) -> u64 {
        let mut hi = (t >> 64) as u64;
        debug_assert!(hi < 2 * self.p);
        if hi >= self.p {
            hi -= self.p;
        }
        let lo = t as u64;
        let m = lo.wrapping_mul(self.neg_inv);
        let mp = u128::from(m) * u128::from(self.p);
        let u = ((u128::from(lo) + mp) >> 64) as u64 + hi;
        if u >= self.p { u - self.p } else { u }
    }

    /// A lazily accumulated sum (as for [`Prime::reduce_wide`]) brought back
    /// to a high word below `p`, the same residue: [`LAZY_TERMS`] more
    /// products may then be added to it.
    #[inline(always)]
    pub fn fold(&self, t: u128) -> u128 {
        let mut hi = (t >> 64) as u64;
        debug_assert!(hi < 4 * self.p);
        if hi >= 2 * self.p {
            hi -= 2 * self.p;
        }
        if hi >= self.p {
            hi -= self.p;
        }
        (u128::from(hi) << 64) | (t & u128::from(u64::MAX))
    }

    /// `a·b` as a wide product, for lazy sums ([`Prime::reduce_wide`]).
    #[inline(always)]
    pub fn wide(a: u64, b: u64) -> u128 {
        u128::from(a) * u128::from(b)
    }

    #[inline(always)]
    pub fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p { s - self.p } else { s }
    }

    #[inline(always)]
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.p - b }
    }

    /// Enters Montgomery form.
    #[inline]
    pub fn enter(&self, x: u64) -> u64 {
        self.mul(x % self.p, self.r2)
    }

    /// Leaves Montgomery form.
    #[inline]
    pub fn leave(&self, x: u64) -> u64 {
        self.mul(x, 1)
    }

    /// One, in Montgomery form.
    pub fn one(&self) -> u64 {
        self.enter(1)
    }

    /// `a^e`, both in Montgomery form.
    pub fn pow(&self, a: u64, mut e: u64) -> u64 {
        let mut base = a;
        let mut acc = self.one();
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }

    /// The inverse of a non-zero `a` (Montgomery form in and out), by Fermat.
    pub fn inv(&self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }

    /// A big integer reduced modulo p, in Montgomery form (the tests'
    /// reference; denominators enter as products of powers,
    /// `Denom::residue`).
    #[cfg(test)]
    pub fn enter_big(&self, x: &BigUint) -> u64 {
        let digits = x.to_u64_digits();
        // Horner over 64-bit digits, most significant first: acc = acc * 2^64 + d.
        // In Montgomery form, 2^64 = R is represented by R * R mod p = r2.
        let mut acc = 0u64;
        for &d in digits.iter().rev() {
            acc = self.add(self.mul(acc, self.r2), self.enter(d));
        }
        acc
    }
}

/// How many products of residues may be added, unreduced, to a `u128` that
/// is 0 or [`Prime::fold`]ed before [`Prime::reduce_wide`] or
/// [`Prime::fold`]: each product of two residues below `p < 2^62` is below
/// `p·2^62`, so its high word is below `p/4`, and eleven of them on a high
/// word below `p` stay below `4p`, which two subtractions bring under `p`.
pub(crate) const LAZY_TERMS: usize = 11;

/// `Σ u_j·q_{n−j} − n·Σ v_j·q_{n−j}` over `j = 1..=min(n, d)` (with `d + 1`
/// the length of `u` and `v`, and `neg_n` = −n): the second sum reduced once
/// (to multiply it by −n), the first kept unreduced and reduced with that
/// product.
#[inline(always)]
pub(crate) fn split_sum(f: &Prime, u: &[u64], v: &[u64], q: &[u64], n: usize, neg_n: u64) -> u64 {
    let m = n.min(u.len() - 1);
    let (mut a, mut b) = (0u128, 0u128);
    if m < LAZY_TERMS {
        // Short (the dice of most games): no folding.
        let (u, v, q) = (&u[1..=m], &v[1..=m], &q[n - m..n]);
        for j in 0..m {
            let qv = q[m - 1 - j];
            a += Prime::wide(u[j], qv);
            b += Prime::wide(v[j], qv);
        }
    } else {
        let mut terms = 0;
        for j in 1..=m {
            if terms == LAZY_TERMS - 1 {
                a = f.fold(a);
                b = f.fold(b);
                terms = 0;
            }
            let qv = q[n - j];
            a += Prime::wide(u[j], qv);
            b += Prime::wide(v[j], qv);
            terms += 1;
        }
        a = f.fold(a);
    }
    let b = f.reduce_wide(b);
    f.reduce_wide(a + Prime::wide(b, neg_n))
}

/// How many products [`Prime::reduce_short`] takes on top of one residue.
pub(crate) const SHORT_TERMS: usize = 4;

/// Deterministic Miller-Rabin for 64-bit integers.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for small in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n.is_multiple_of(small) {
            return n == small;
        }
    }
    let mulmod = |a: u64, b: u64| ((u128::from(a) * u128::from(b)) % u128::from(n)) as u64;
    let powmod = |mut a: u64, mut e: u64| {
        let mut acc = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                acc = mulmod(acc, a);
            }
            a = mulmod(a, a);
            e >>= 1;
        }
        acc
    };
    let mut d = n - 1;
    let mut s = 0;
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    'witness: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut x = powmod(a, d);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mulmod(x, x);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// Which primes a computation's residue lanes use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// The largest primes below 2^62: the most bits per lane, for lanes
    /// computed one at a time.
    Wide,
    /// The largest primes below 2^50: eight lanes side by side in the
    /// 52-bit multipliers of AVX-512 IFMA ([`super::ifma`]), for a job that
    /// takes fewer steps so (its keep DP once per eight lanes).
    Narrow,
}

impl Family {
    /// Bits of capacity each prime adds (each is above `2^bits + 0.9`).
    pub fn bits_per_prime(self) -> u64 {
        match self {
            Family::Wide => 61,
            Family::Narrow => 49,
        }
    }

    /// How many times the keep DP runs for `k` lanes of this family: once
    /// per lane, or once per eight side by side. The DP's work (counted per
    /// lane) is charged this many times.
    pub fn dp_passes(self, k: usize) -> u64 {
        match self {
            Family::Wide => k as u64,
            Family::Narrow => k.div_ceil(8) as u64,
        }
    }

    /// The odd number the search for this family's primes starts from.
    fn start(self) -> u64 {
        match self {
            Family::Wide => (1u64 << 62) - 1,
            Family::Narrow => (1u64 << 50) - 1,
        }
    }

    fn known(self) -> &'static [u64] {
        match self {
            Family::Wide => &KNOWN_PRIMES,
            Family::Narrow => &KNOWN_NARROW_PRIMES,
        }
    }
}

/// Each family's primes, largest first, found once and kept.
static PRIMES: [Mutex<Vec<u64>>; 2] = [Mutex::new(Vec::new()), Mutex::new(Vec::new())];

/// The 64 largest primes below 2^62, largest first (enough for 3,900-bit
/// denominators): found by the search below once and written down, so that a
/// process does not spend its start searching (a test checks them against
/// the search).
const KNOWN_PRIMES: [u64; 64] = [
    0x3fffffffffffffc7,
    0x3fffffffffffffa9,
    0x3fffffffffffff8b,
    0x3fffffffffffff71,
    0x3fffffffffffff67,
    0x3fffffffffffff59,
    0x3fffffffffffff55,
    0x3fffffffffffff3d,
    0x3fffffffffffff35,
    0x3ffffffffffffeef,
    0x3ffffffffffffee1,
    0x3ffffffffffffec3,
    0x3ffffffffffffe45,
    0x3ffffffffffffe1d,
    0x3ffffffffffffe11,
    0x3ffffffffffffdc1,
    0x3ffffffffffffdbb,
    0x3ffffffffffffda5,
    0x3ffffffffffffd87,
    0x3ffffffffffffd69,
    0x3ffffffffffffd03,
    0x3ffffffffffffcfb,
    0x3ffffffffffffcf7,
    0x3ffffffffffffce9,
    0x3ffffffffffffcd3,
    0x3ffffffffffffcc1,
    0x3ffffffffffffc65,
    0x3ffffffffffffc2b,
    0x3ffffffffffffc1f,
    0x3ffffffffffffc17,
    0x3ffffffffffffc11,
    0x3ffffffffffffc07,
    0x3ffffffffffffb53,
    0x3ffffffffffffb27,
    0x3ffffffffffffaf3,
    0x3ffffffffffffab7,
    0x3ffffffffffffa67,
    0x3ffffffffffffa15,
    0x3ffffffffffff9ef,
    0x3ffffffffffff9d9,
    0x3ffffffffffff9d3,
    0x3ffffffffffff9c5,
    0x3ffffffffffff9af,
    0x3ffffffffffff977,
    0x3ffffffffffff95f,
    0x3ffffffffffff95b,
    0x3ffffffffffff959,
    0x3ffffffffffff8e1,
    0x3ffffffffffff8a7,
    0x3ffffffffffff889,
    0x3ffffffffffff87d,
    0x3ffffffffffff805,
    0x3ffffffffffff7e7,
    0x3ffffffffffff7c9,
    0x3ffffffffffff7a3,
    0x3ffffffffffff775,
    0x3ffffffffffff757,
    0x3ffffffffffff739,
    0x3ffffffffffff713,
    0x3ffffffffffff6d1,
    0x3ffffffffffff6c1,
    0x3ffffffffffff6b9,
    0x3ffffffffffff6a3,
    0x3ffffffffffff68b,
];

/// The 32 largest primes below 2^50, largest first (1,560 bits), written down
/// like [`KNOWN_PRIMES`].
const KNOWN_NARROW_PRIMES: [u64; 32] = [
    0x3ffffffffffe5,
    0x3ffffffffffdd,
    0x3ffffffffffcd,
    0x3ffffffffffb9,
    0x3ffffffffff8f,
    0x3ffffffffff8b,
    0x3ffffffffff7d,
    0x3ffffffffff5f,
    0x3ffffffffff3d,
    0x3ffffffffff17,
    0x3fffffffffef5,
    0x3fffffffffeab,
    0x3fffffffffea1,
    0x3fffffffffe87,
    0x3fffffffffe59,
    0x3fffffffffe41,
    0x3fffffffffddf,
    0x3fffffffffdb1,
    0x3fffffffffda5,
    0x3fffffffffd9d,
    0x3fffffffffd75,
    0x3fffffffffd73,
    0x3fffffffffd67,
    0x3fffffffffd5d,
    0x3fffffffffd57,
    0x3fffffffffd3d,
    0x3fffffffffd2d,
    0x3fffffffffd1b,
    0x3fffffffffd03,
    0x3fffffffffcd3,
    0x3fffffffffccb,
    0x3fffffffffc97,
];

/// The next `count` primes below `start` (odd), largest first.
fn search_primes(mut candidate: u64, count: usize, into: &mut Vec<u64>) {
    let target = into.len() + count;
    while into.len() < target {
        if is_prime(candidate) {
            into.push(candidate);
        }
        candidate -= 2;
    }
}

/// The first `k` primes below 2^62.
#[cfg(test)]
pub(crate) fn primes(k: usize) -> Vec<Prime> {
    primes_of(Family::Wide, k)
}

/// The first `k` primes of a family.
pub(crate) fn primes_of(family: Family, k: usize) -> Vec<Prime> {
    let slot = match family {
        Family::Wide => 0,
        Family::Narrow => 1,
    };
    let mut found = PRIMES[slot].lock().unwrap_or_else(|e| e.into_inner());
    if found.is_empty() {
        found.extend_from_slice(family.known());
    }
    if found.len() < k {
        let next = found.last().map_or(family.start(), |&p| p - 2);
        let more = k - found.len();
        search_primes(next, more, &mut found);
    }
    found[..k].iter().map(|&p| Prime::new(p)).collect()
}

/// How many primes of a family hold every integer below `2^bits`.
pub(crate) fn lanes_for_bits(bits: u64, family: Family) -> usize {
    (bits / family.bits_per_prime() + 1) as usize
}

/// Rebuilds integers from their residues (Garner's algorithm).
pub(crate) struct Crt {
    lanes: Vec<Prime>,
    /// `p_j mod p_i` in Montgomery form, for j < i.
    modp: Vec<Vec<u64>>,
    /// `(p_0 p_1 ... p_{i-1})^-1 mod p_i` in Montgomery form.
    inv_prefix: Vec<u64>,
}

impl Crt {
    pub fn new(lanes: &[Prime]) -> Crt {
        let k = lanes.len();
        let mut modp = vec![Vec::new(); k];
        let mut inv_prefix = Vec::with_capacity(k);
        for i in 0..k {
            let f = &lanes[i];
            let mut prefix = f.one();
            for lane in &lanes[..i] {
                let pj = f.enter(lane.p);
                modp[i].push(pj);
                prefix = f.mul(prefix, pj);
            }
            inv_prefix.push(f.inv(prefix));
        }
        Crt {
            lanes: lanes.to_vec(),
            modp,
            inv_prefix,
        }
    }

    /// The integer whose residues (Montgomery form, one per lane) are `residues`.
    pub fn rebuild(&self, residues: &[u64]) -> BigUint {
        let k = self.lanes.len();
        if k <= MANY_LANES {
            let [x] = self.rebuild_many([residues]);
            return x;
        }
        let mut v = [vec![0u64; k]];
        self.mixed_radix_digits([residues], &mut v);
        self.mixed_radix_value(&v[0])
    }

    /// [`Crt::rebuild`] of `N` integers at once, for at most [`MANY_LANES`]
    /// lanes (their digits on the stack).
    pub fn rebuild_many<const N: usize>(&self, residues: [&[u64]; N]) -> [BigUint; N] {
        let k = self.lanes.len();
        assert!(k <= MANY_LANES, "{k} lanes");
        let mut v = [[0u64; MANY_LANES]; N];
        self.mixed_radix_digits(residues, &mut v);
        std::array::from_fn(|b| self.mixed_radix_value(&v[b][..k]))
    }

    /// The mixed-radix digits of `N` integers (Garner: `x = v0 + v1·p0 +
    /// v2·p0·p1` and so on), into the first `k` places of each `v[b]`, their
    /// steps interleaved so that the processor overlaps the `N` chains of
    /// dependent products (one chain alone waits on every multiplication).
    fn mixed_radix_digits<V: AsMut<[u64]>, const N: usize>(
        &self,
        residues: [&[u64]; N],
        v: &mut [V; N],
    ) {
        for i in 0..self.lanes.len() {
            let f = &self.lanes[i];
            // t = (v0 + v1 p0 + ... + v_{i-1} p0..p_{i-2}) mod p_i by Horner, in
            // plain form: a Montgomery product with a Montgomery-form constant
            // leaves a plain value plain.
            let mut t = [0u64; N];
            for j in (0..i).rev() {
                let m = self.modp[i][j];
                for (t, v) in t.iter_mut().zip(v.iter_mut()) {
                    let vj = v.as_mut()[j];
                    let vj = if vj >= f.p { vj - f.p } else { vj };
                    *t = f.add(f.mul(*t, m), vj);
                }
            }
            for (b, v) in v.iter_mut().enumerate() {
                let d = f.sub(f.leave(residues[b][i]), t[b]);
                v.as_mut()[i] = f.mul(d, self.inv_prefix[i]);
            }
        }
    }

    /// The integer with these mixed-radix digits.
    fn mixed_radix_value(&self, v: &[u64]) -> BigUint {
        let k = v.len();
        // x = (...(v_{k-1} p_{k-2} + v_{k-2}) p_{k-3} + ...) p_0 + v_0, in
        // 64-bit digits in place (no big-integer temporaries).
        let mut digits_stack = [0u64; MANY_LANES];
        let mut digits_heap = Vec::new();
        let digits: &mut [u64] = if k <= MANY_LANES {
            &mut digits_stack[..k]
        } else {
            digits_heap.resize(k, 0);
            &mut digits_heap
        };
        let mut len = 0;
        for i in (0..k).rev() {
            let p = u128::from(self.lanes[i].p);
            let mut carry = u128::from(v[i]);
            if i + 1 < k {
                for d in digits[..len].iter_mut() {
                    let t = u128::from(*d) * p + carry;
                    *d = t as u64;
                    carry = t >> 64;
                }
            }
            if carry != 0 {
                digits[len] = carry as u64;
                len += 1;
            }
        }
        let mut halves = Vec::with_capacity(2 * len);
        for &d in &digits[..len] {
            halves.push(d as u32);
            halves.push((d >> 32) as u32);
        }
        BigUint::new(halves)
    }
}

/// The most lanes [`Crt::rebuild_many`] takes (about 3,900 bits): its
/// digits then live on the stack.
pub(crate) const MANY_LANES: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_primes_are_the_search_s() {
        let mut searched = Vec::new();
        search_primes((1u64 << 62) - 1, KNOWN_PRIMES.len(), &mut searched);
        assert_eq!(searched, KNOWN_PRIMES);
        // And the search goes on past them.
        let more = primes(KNOWN_PRIMES.len() + 3);
        assert!(more.windows(2).all(|w| w[0].p > w[1].p));
        assert!(more[KNOWN_PRIMES.len()..].iter().all(|p| is_prime(p.p)));
    }

    #[test]
    fn the_written_narrow_primes_are_the_search_s() {
        let mut searched = Vec::new();
        search_primes(
            Family::Narrow.start(),
            KNOWN_NARROW_PRIMES.len(),
            &mut searched,
        );
        assert_eq!(searched, KNOWN_NARROW_PRIMES);
        let more = primes_of(Family::Narrow, KNOWN_NARROW_PRIMES.len() + 2);
        assert!(more.windows(2).all(|w| w[0].p > w[1].p));
        assert!(more.iter().all(|p| is_prime(p.p) && p.p >> 49 == 1));
        // Each prime adds at least the bits counted for it.
        assert_eq!(lanes_for_bits(49, Family::Narrow), 2);
        assert_eq!(lanes_for_bits(48, Family::Narrow), 1);
    }

    #[test]
    fn primes_are_prime_and_large() {
        let ps = primes(8);
        assert_eq!(ps.len(), 8);
        for w in ps.windows(2) {
            assert!(w[0].p > w[1].p);
        }
        assert!(ps.iter().all(|p| p.p > (1u64 << 61) && is_prime(p.p)));
        assert!(!is_prime((1u64 << 62) - 1) || ps[0].p == (1u64 << 62) - 1);
    }

    #[test]
    fn montgomery_arithmetic_agrees_with_u128() {
        let f = primes(1)[0];
        let cases = [
            (0u64, 5u64),
            (1, 1),
            (f.p - 1, f.p - 1),
            (123_456_789, 987_654_321_123),
        ];
        for (a, b) in cases {
            let expected = ((u128::from(a) * u128::from(b)) % u128::from(f.p)) as u64;
            assert_eq!(f.leave(f.mul(f.enter(a), f.enter(b))), expected);
            let sum = ((u128::from(a) + u128::from(b)) % u128::from(f.p)) as u64;
            assert_eq!(f.leave(f.add(f.enter(a), f.enter(b))), sum);
        }
        let x = f.enter(12345);
        assert_eq!(f.leave(f.mul(x, f.inv(x))), 1);
    }

    #[test]
    fn lazy_sums_of_products_agree_with_reducing_each_product() {
        for f in primes(3) {
            let big = [
                f.p - 1,
                f.p - 2,
                f.p / 2 + 7,
                1,
                0,
                0x3fff_ffff_ffff_fff0 % f.p,
            ];
            // Sums of up to LAZY_TERMS products of the largest residues, then
            // folded and continued: against products reduced one by one.
            let mut lazy = 0u128;
            let mut exact = 0u64;
            for round in 0..5 {
                for i in 0..LAZY_TERMS {
                    let a = big[(i + round) % big.len()];
                    let b = big[(i * 7 + round * 3) % big.len()];
                    let (a, b) = if round == 0 {
                        (f.p - 1, f.p - 1)
                    } else {
                        (a, b)
                    };
                    lazy += Prime::wide(a, b);
                    exact = f.add(exact, f.mul(a, b));
                }
                assert_eq!(f.reduce_wide(lazy), exact, "round {round}");
                lazy = f.fold(lazy);
                assert_eq!(f.reduce_wide(lazy), exact);
            }
            // One residue as x·R plus SHORT_TERMS products, the largest there are.
            let top = f.p - 1;
            let mut short = u128::from(top) << 64;
            let mut expected = top;
            for _ in 0..SHORT_TERMS {
                short += Prime::wide(top, top);
                expected = f.add(expected, f.mul(top, top));
            }
            assert_eq!(f.reduce_short(short), expected);
            assert_eq!(f.reduce_wide(short), expected);
            assert_eq!(f.reduce_wide(0), 0);
            assert_eq!(f.reduce_wide(Prime::wide(f.one(), f.enter(5))), f.enter(5));
        }
    }

    #[test]
    fn crt_rebuilds_big_integers() {
        let lanes = primes(5);
        let crt = Crt::new(&lanes);
        let x = BigUint::from(6u32).pow(100); // 259 bits, below 5 * 61 = 305
        let residues: Vec<u64> = lanes.iter().map(|f| f.enter_big(&x)).collect();
        assert_eq!(crt.rebuild(&residues), x);
        let zero: Vec<u64> = lanes.iter().map(|f| f.enter(0)).collect();
        assert_eq!(crt.rebuild(&zero), BigUint::from(0u32));
        let y = BigUint::from(10u32).pow(90) + 7u32;
        let of_y: Vec<u64> = lanes.iter().map(|f| f.enter_big(&y)).collect();
        assert_eq!(
            crt.rebuild_many([&residues[..], &zero, &of_y]),
            [x.clone(), BigUint::from(0u32), y]
        );
        // Past MANY_LANES, one at a time.
        let many = primes(MANY_LANES + 3);
        let crt = Crt::new(&many);
        let big = BigUint::from(3u32).pow(1300) + 1u32;
        let of_big: Vec<u64> = many.iter().map(|f| f.enter_big(&big)).collect();
        assert_eq!(crt.rebuild(&of_big), big);
    }
}
