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

use super::decimal;
use super::words::{self, WordDivisor};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Primes tried as factors of the denominator.
const SMALL_PRIME_LIMIT: u64 = 1 << 12;

/// The denominator, factored for reducing its numerators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Denominator {
    /// `(p, e, p^c, c)`: a prime, its exponent in `D`, and its largest power
    /// below 2^62 (for dividing `c` factors at a time).
    factors: Vec<(u64, u64, WordDivisor, u64)>,
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
                    factors.push((p, e, WordDivisor::new(chunk), c));
                }
            }
        }
        Denominator {
            factors,
            rest,
            whole: d.clone(),
        }
    }

    /// `n / D` in lowest terms.
    pub(crate) fn reduce(&self, n: &BigUint) -> (BigUint, BigUint) {
        if n.is_zero() {
            return (BigUint::zero(), BigUint::one());
        }
        let (mut num, mut den) = (Vec::new(), Vec::new());
        words::load(n, &mut num);
        self.reduce_words(&mut num, &mut den);
        let (mut num, mut den) = (words::to_biguint(&num), words::to_biguint(&den));
        if !self.rest.is_one() {
            let g = num.gcd(&self.rest);
            if !g.is_one() {
                num /= &g;
                den /= &g;
            }
        }
        (num, den)
    }

    /// `num / D` put in lowest terms over its small primes, in place: `num`
    /// (non-zero, as words) is divided and `den` is set to what is left of
    /// `D`. For each prime `p` of `D`, one remainder by the largest power of
    /// `p` below 2^62 tells how many times `p` divides `num` (below that
    /// power, as many times as it divides the remainder), then one pass
    /// divides both by that power. The part of `D` without small primes
    /// (`rest`, usually 1) is left to the caller.
    fn reduce_words(&self, num: &mut Vec<u64>, den: &mut Vec<u64>) {
        words::load(&self.whole, den);
        for &(p, e, chunk, c) in &self.factors {
            if p == 2 {
                let v = words::trailing_zeros(num).min(e);
                words::shift_right(num, v);
                words::shift_right(den, v);
                continue;
            }
            let mut v = 0;
            while v < e {
                let r = chunk.rem(num);
                // How many more times p divides num: c if the chunk does,
                // else as many times as it divides the remainder.
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
                let by = if pw == chunk.get() {
                    chunk
                } else {
                    WordDivisor::new(pw)
                };
                by.div_in_place(num);
                by.div_in_place(den);
                v += w;
                if w < c {
                    break;
                }
            }
        }
    }
}

/// Writes the probabilities of one distribution as decimal fractions in
/// lowest terms, its buffers reused from one fraction to the next: no
/// big-integer value is built, and a denominator equal to the one before is
/// written from its text. For printing many fractions fast
/// ([`Distribution::fraction_writer`](super::Distribution::fraction_writer)).
///
/// ```
/// use nutshell_dice::Expression;
/// let d = Expression::parse("3d6")?.distribution()?;
/// let mut writer = d.fraction_writer();
/// let mut out = Vec::new();
/// for (_, weight) in &d.outcomes()[..2] {
///     writer.write(weight, &mut out);
///     out.push(b' ');
/// }
/// writer.write(d.tail_weight(), &mut out);
/// assert_eq!(String::from_utf8(out)?, "1/216 1/72 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FractionWriter<'d> {
    denominator: &'d Denominator,
    num: Vec<u64>,
    den: Vec<u64>,
    last_den: Vec<u64>,
    last_den_text: Vec<u8>,
    scratch: decimal::Scratch,
}

impl<'d> FractionWriter<'d> {
    pub(crate) fn new(denominator: &'d Denominator) -> FractionWriter<'d> {
        FractionWriter {
            denominator,
            num: Vec::new(),
            den: Vec::new(),
            last_den: Vec::new(),
            last_den_text: Vec::new(),
            scratch: decimal::Scratch::default(),
        }
    }

    /// Appends `weight / denominator` in lowest terms to `out`: `0`, a whole
    /// number, or `n/d`.
    pub fn write(&mut self, weight: &BigUint, out: &mut Vec<u8>) {
        words::load(weight, &mut self.num);
        if self.num.is_empty() {
            out.push(b'0');
            return;
        }
        if !self.denominator.rest.is_one() {
            // A denominator with a large prime factor: the general way.
            let (n, d) = self.denominator.reduce(weight);
            out.extend_from_slice(n.to_string().as_bytes());
            if !d.is_one() {
                out.push(b'/');
                out.extend_from_slice(d.to_string().as_bytes());
            }
            return;
        }
        self.denominator.reduce_words(&mut self.num, &mut self.den);
        decimal::write(&mut self.num, &mut self.scratch, out);
        if self.den.as_slice() == [1] {
            return;
        }
        out.push(b'/');
        if self.den != self.last_den || self.last_den_text.is_empty() {
            self.last_den.clone_from(&self.den);
            self.last_den_text.clear();
            decimal::write(&mut self.den, &mut self.scratch, &mut self.last_den_text);
        }
        out.extend_from_slice(&self.last_den_text);
    }
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
