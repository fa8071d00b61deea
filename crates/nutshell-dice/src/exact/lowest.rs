//! Fractions over one big denominator, put in lowest terms fast.
//!
//! Every weight of a distribution shares the denominator `D`, a product of
//! die sizes (6^1000 for `1000d6`): its prime factors are small. `D` is
//! factored once by trial division over the small primes; each numerator is
//! then reduced by finding how many times each of those primes divides it
//! (trailing zeros for 2, one machine-word remainder per chunk of powers for
//! the others), never by a general big-integer gcd. A part of `D` left with no
//! small factor (a die with a huge prime number of faces) falls back to the
//! gcd, on that part alone.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Primes tried as factors of the denominator.
const SMALL_PRIME_LIMIT: u64 = 1 << 12;

/// The denominator, factored for reducing its numerators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Denominator {
    /// `(p, e, p^c, c)`: a prime, its exponent in `D`, and its largest power
    /// that fits in a word (for dividing `c` factors at a time).
    factors: Vec<(u64, u64, u64, u64)>,
    /// What is left of `D` after its small primes (usually 1).
    rest: BigUint,
    whole: BigUint,
}

fn small_primes() -> impl Iterator<Item = u64> {
    (2..SMALL_PRIME_LIMIT).filter(|&n| (2..).take_while(|d| d * d <= n).all(|d| n % d != 0))
}

/// How many times `p` (with `chunk = p^c`) divides `n`, at most `most`,
/// dividing `n` by it as it goes.
fn take_factor(n: &mut BigUint, p: u64, chunk: u64, c: u64, most: u64) -> u64 {
    let mut v = 0;
    if p == 2 {
        let tz = n.trailing_zeros().unwrap_or(0).min(most);
        *n >>= tz;
        return tz;
    }
    while v + c <= most {
        let (q, r) = n.div_rem(&BigUint::from(chunk));
        if !r.is_zero() {
            break;
        }
        *n = q;
        v += c;
    }
    while v < most {
        let (q, r) = n.div_rem(&BigUint::from(p));
        if !r.is_zero() {
            break;
        }
        *n = q;
        v += 1;
    }
    v
}

impl Denominator {
    pub(crate) fn new(d: &BigUint) -> Denominator {
        let mut rest = d.clone();
        let mut factors = Vec::new();
        if !rest.is_zero() {
            for p in small_primes() {
                if rest.is_one() {
                    break;
                }
                if (&rest % p).is_zero() {
                    let mut c = 1;
                    let mut chunk = p;
                    while let Some(next) = chunk.checked_mul(p).filter(|&x| x < 1 << 62) {
                        chunk = next;
                        c += 1;
                    }
                    let e = take_factor(&mut rest, p, chunk, c, u64::MAX);
                    factors.push((p, e, chunk, c));
                }
            }
        }
        Denominator {
            factors,
            rest,
            whole: d.clone(),
        }
    }

    /// `n / D` in lowest terms. Both are worked on as 64-bit digits in
    /// place: for each prime `p` of `D`, one word remainder by the largest
    /// power of `p` in a word tells how many times `p` divides `n` (below
    /// that power, as many times as it divides the remainder), then one pass
    /// divides `n` and `D` by that power.
    pub(crate) fn reduce(&self, n: &BigUint) -> (BigUint, BigUint) {
        if n.is_zero() {
            return (BigUint::zero(), BigUint::one());
        }
        let mut num = n.to_u64_digits();
        let mut den = self.whole.to_u64_digits();
        for &(p, e, chunk, c) in &self.factors {
            let mut v = 0;
            if p == 2 {
                v = trailing_zeros(&num).min(e);
                shift_right(&mut num, v);
                shift_right(&mut den, v);
                continue;
            }
            while v < e {
                let r = rem_word(&num, chunk);
                // How many more times p divides n: c if the chunk does, else
                // as many times as it divides the remainder.
                let (mut w, mut pw) = (0, 1u64);
                let mut rest = r;
                while w < c && w < e - v && (r == 0 || rest.is_multiple_of(p)) {
                    w += 1;
                    pw *= p;
                    if r != 0 {
                        rest /= p;
                    }
                }
                if w == 0 {
                    break;
                }
                div_word(&mut num, pw);
                div_word(&mut den, pw);
                v += w;
                if w < c {
                    break;
                }
            }
        }
        let (mut num, mut den) = (from_digits(&num), from_digits(&den));
        if !self.rest.is_one() {
            let g = num.gcd(&self.rest);
            if !g.is_one() {
                num /= &g;
                den /= &g;
            }
        }
        (num, den)
    }
}

/// Trailing zero bits of a non-zero number in little-endian 64-bit digits.
fn trailing_zeros(digits: &[u64]) -> u64 {
    let mut bits = 0;
    for &d in digits {
        if d != 0 {
            return bits + u64::from(d.trailing_zeros());
        }
        bits += 64;
    }
    bits
}

/// `digits >>= bits`, in place.
fn shift_right(digits: &mut Vec<u64>, bits: u64) {
    let words = (bits / 64) as usize;
    let bits = (bits % 64) as u32;
    digits.drain(..words.min(digits.len()));
    if bits > 0 {
        let len = digits.len();
        for i in 0..len {
            let high = if i + 1 < len {
                digits[i + 1] << (64 - bits)
            } else {
                0
            };
            digits[i] = (digits[i] >> bits) | high;
        }
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
}

/// `digits mod d`.
fn rem_word(digits: &[u64], d: u64) -> u64 {
    let mut r = 0u64;
    for &x in digits.iter().rev() {
        r = (((u128::from(r) << 64) | u128::from(x)) % u128::from(d)) as u64;
    }
    r
}

/// `digits /= d` (the quotient), in place.
fn div_word(digits: &mut Vec<u64>, d: u64) {
    let mut r = 0u64;
    for x in digits.iter_mut().rev() {
        let cur = (u128::from(r) << 64) | u128::from(*x);
        let q = cur / u128::from(d);
        *x = q as u64;
        r = (cur - q * u128::from(d)) as u64;
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
}

fn from_digits(digits: &[u64]) -> BigUint {
    let mut halves = Vec::with_capacity(2 * digits.len());
    for &d in digits {
        halves.push(d as u32);
        halves.push((d >> 32) as u32);
    }
    BigUint::new(halves)
}

/// `n / d` as the nearest float (0 for underflow), without building a rational.
pub(crate) fn ratio_f64(n: &BigUint, d: &BigUint) -> f64 {
    if n.is_zero() || d.is_zero() {
        return 0.0;
    }
    let top = |x: &BigUint| -> (f64, i64) {
        let bits = x.bits();
        let shift = bits.saturating_sub(64);
        ((x >> shift).to_f64().unwrap_or(0.0), shift as i64)
    };
    let (a, sa) = top(n);
    let (b, sb) = top(d);
    let e = sa - sb;
    (a / b) * 2f64.powi(e.clamp(-2000, 2000) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn reduces_like_the_gcd() {
        let d = BigUint::from(6u32).pow(40) * BigUint::from(1_000_003u64);
        let den = Denominator::new(&d);
        for n in [
            1u64,
            2,
            3,
            12,
            36,
            7 * 1_000_003,
            6u64.pow(20) * 5,
            2u64.pow(60),
        ] {
            let n = BigUint::from(n);
            let g = n.gcd(&d);
            assert_eq!(den.reduce(&n), (&n / &g, &d / &g), "{n}");
        }
        assert_eq!(den.reduce(&d), (BigUint::one(), BigUint::one()));
        // Valuations around and past a word's power of the prime (5^27 is
        // the largest below 2^62), and up to the whole exponent.
        let d = BigUint::from(10u32).pow(100);
        let den = Denominator::new(&d);
        let five = BigUint::from(5u32);
        for k in [0u32, 1, 25, 26, 27, 28, 53, 54, 55, 99, 100] {
            for m in [1u32, 3, 7, 2u32.pow(20) * 3] {
                let n = five.pow(k) * BigUint::from(m);
                let g = n.gcd(&d);
                assert_eq!(den.reduce(&n), (&n / &g, &d / &g), "5^{k}·{m}");
            }
        }
    }

    #[test]
    fn floats_of_huge_ratios() {
        let d = BigUint::from(6u32).pow(1000);
        let n = &d / BigUint::from(4u32);
        assert!((ratio_f64(&n, &d) - 0.25).abs() < 1e-12);
        assert_eq!(ratio_f64(&BigUint::one(), &d), 0.0);
    }
}
