//! Denominators kept as their prime factorizations.
//!
//! Every denominator of the exact engine is built from the face counts of
//! dice (`n`, `n²` for `ro`, `n - m` for `r`) by products, powers and least
//! common multiples. Kept factored, each of those is arithmetic on a few
//! exponents, however large the number: a mixture over computed sides
//! (`479d(10d4)!!<8`) took the least common multiple of thirty numbers of
//! 200,000 bits by binary gcd, tens of seconds before the job was measured
//! and refused. The integer itself is built once, for the answer.

use super::field::Prime;
use num_bigint::BigUint;

/// A positive integer as `(prime, exponent)` pairs, primes ascending, no
/// zero exponent (so equal numbers have equal factorizations).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Denom {
    factors: Vec<(u64, u64)>,
}

impl Denom {
    /// 1.
    pub fn one() -> Denom {
        Denom::default()
    }

    /// `n >= 1`, factored by trial division (at most 2^16 divisions for a
    /// die of up to 2^32 faces).
    pub fn of(n: u64) -> Denom {
        assert!(n >= 1, "a denominator is positive");
        let mut factors = Vec::new();
        let mut rest = n;
        let mut p = 2u64;
        while p.saturating_mul(p) <= rest {
            if rest.is_multiple_of(p) {
                let mut e = 0;
                while rest.is_multiple_of(p) {
                    rest /= p;
                    e += 1;
                }
                factors.push((p, e));
            }
            p += if p == 2 { 1 } else { 2 };
        }
        if rest > 1 {
            factors.push((rest, 1));
        }
        Denom { factors }
    }

    /// Merges two factorizations, exponents combined by `op`.
    fn merge(&self, other: &Denom, op: impl Fn(u64, u64) -> u64) -> Denom {
        let (a, b) = (&self.factors, &other.factors);
        let (mut i, mut j) = (0, 0);
        let mut factors = Vec::with_capacity(a.len() + b.len());
        while i < a.len() || j < b.len() {
            let (p, e) = match (a.get(i), b.get(j)) {
                (Some(&(p, x)), Some(&(q, _))) if p < q => {
                    i += 1;
                    (p, op(x, 0))
                }
                (Some(&(p, _)), Some(&(q, y))) if q < p => {
                    j += 1;
                    (q, op(0, y))
                }
                (Some(&(p, x)), Some(&(_, y))) => {
                    i += 1;
                    j += 1;
                    (p, op(x, y))
                }
                (Some(&(p, x)), None) => {
                    i += 1;
                    (p, op(x, 0))
                }
                (None, Some(&(q, y))) => {
                    j += 1;
                    (q, op(0, y))
                }
                (None, None) => unreachable!("the loop stops when both are done"),
            };
            if e > 0 {
                factors.push((p, e));
            }
        }
        Denom { factors }
    }

    /// `self * other`.
    pub fn mul(&self, other: &Denom) -> Denom {
        self.merge(other, u64::saturating_add)
    }

    /// The least common multiple.
    pub fn lcm(&self, other: &Denom) -> Denom {
        self.merge(other, u64::max)
    }

    /// `self / other`, for `other` dividing `self` (as it does a common
    /// multiple).
    pub fn div(&self, other: &Denom) -> Denom {
        self.merge(other, |x, y| {
            debug_assert!(y <= x, "the divisor divides");
            x.saturating_sub(y)
        })
    }

    /// `self^e`.
    pub fn pow(&self, e: u64) -> Denom {
        if e == 0 {
            return Denom::one();
        }
        Denom {
            factors: self
                .factors
                .iter()
                .map(|&(p, x)| (p, x.saturating_mul(e)))
                .collect(),
        }
    }

    pub fn is_one(&self) -> bool {
        self.factors.is_empty()
    }

    /// The number's length in bits, or one more: `log2` of the factors
    /// summed in floating point, rounded up past its error. (Used to size
    /// the residue lanes, where a bit too many costs nothing.)
    pub fn bits(&self) -> u64 {
        let log2: f64 = self
            .factors
            .iter()
            .map(|&(p, e)| e as f64 * (p as f64).log2())
            .sum();
        (log2 * (1.0 + 1e-12) + 1e-9).floor() as u64 + 1
    }

    /// The number as a float (infinity when too large).
    pub fn to_f64(&self) -> f64 {
        self.factors
            .iter()
            .map(|&(p, e)| (p as f64).powf(e as f64))
            .product()
    }

    /// The number itself.
    pub fn to_biguint(&self) -> BigUint {
        self.factors
            .iter()
            .map(|&(p, e)| BigUint::from(p).pow(e as u32))
            .product()
    }

    /// The number modulo the lane's prime, in its Montgomery form: a
    /// product of powers, never the big integer.
    pub fn residue(&self, f: &Prime) -> u64 {
        self.factors
            .iter()
            .fold(f.one(), |acc, &(p, e)| f.mul(acc, f.pow(f.enter(p), e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factored_arithmetic_matches_big_integers() {
        let cases = [
            1u64,
            2,
            6,
            36,
            100,
            97,
            4_294_967_291,
            4_294_967_295,
            1 << 31,
            360,
        ];
        for &a in &cases {
            let da = Denom::of(a);
            assert_eq!(da.to_biguint(), BigUint::from(a), "{a}");
            let exact_bits = BigUint::from(a).bits();
            assert!((exact_bits..=exact_bits + 1).contains(&da.bits()), "{a}");
            for &b in &cases {
                let db = Denom::of(b);
                let (ba, bb) = (BigUint::from(a), BigUint::from(b));
                assert_eq!(da.mul(&db).to_biguint(), &ba * &bb);
                let lcm = num_integer::Integer::lcm(&ba, &bb);
                assert_eq!(da.lcm(&db).to_biguint(), lcm);
                assert_eq!(da.lcm(&db).div(&da).to_biguint(), &lcm / &ba);
                assert_eq!(da.pow(7).to_biguint(), ba.pow(7));
            }
        }
        // 6^1000: 2585 bits.
        let d = Denom::of(6).pow(1000);
        assert!((2585..=2586).contains(&d.bits()));
        assert_eq!(d, Denom::of(2).pow(1000).mul(&Denom::of(3).pow(1000)));
        assert!(Denom::of(1).is_one());
    }

    #[test]
    fn residues_are_the_number_modulo_the_prime() {
        let f = &super::super::field::primes_of(super::super::field::Family::Wide, 1)[0];
        let d = Denom::of(6).pow(100).mul(&Denom::of(4_294_967_291));
        let p = BigUint::from(f.p);
        let expected = u64::try_from(d.to_biguint() % p).unwrap();
        assert_eq!(f.leave(d.residue(f)), expected);
    }
}
