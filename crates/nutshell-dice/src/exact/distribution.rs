//! The public exact distribution: outcomes with big-integer weights over one
//! denominator, and the queries people ask of it.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::lowest::{Denominator, FractionWriter};
use super::words;

/// An exact distribution over integer outcomes.
///
/// `P(v) = weight(v) / denominator`. The weights may sum to less than the
/// denominator: the rest is the [`tail`](Distribution::tail), the probability
/// of rolls that go beyond the explosion limit, reported rather than dropped or
/// folded into an outcome.
#[derive(Debug, Clone)]
pub struct Distribution {
    outcomes: Vec<(i64, BigUint)>,
    denominator: BigUint,
    tail: BigUint,
    /// The denominator factored, on first use, for reducing fractions.
    factored: std::sync::OnceLock<Denominator>,
    /// The mean and the variance, on first use.
    moments: std::sync::OnceLock<(BigRational, BigRational)>,
}

impl PartialEq for Distribution {
    fn eq(&self, other: &Distribution) -> bool {
        self.outcomes == other.outcomes
            && self.denominator == other.denominator
            && self.tail == other.tail
    }
}

impl Eq for Distribution {}

impl Distribution {
    /// A distribution from `(outcome, weight)` pairs (ascending outcomes, non-zero
    /// weights) over `denominator`.
    pub fn new(outcomes: Vec<(i64, BigUint)>, denominator: BigUint) -> Distribution {
        let total: BigUint = outcomes.iter().map(|(_, w)| w).sum();
        let tail = if total <= denominator {
            &denominator - &total
        } else {
            BigUint::zero()
        };
        debug_assert!(total <= denominator, "weights exceed the denominator");
        Distribution {
            outcomes,
            denominator,
            tail,
            factored: std::sync::OnceLock::new(),
            moments: std::sync::OnceLock::new(),
        }
    }

    /// `weight / denominator` in lowest terms, as `(numerator, denominator)`.
    /// Fast for the denominators of dice (products of small primes): no
    /// general gcd.
    ///
    /// ```
    /// use nutshell_dice::Expression;
    /// let d = Expression::parse("2d6")?.distribution()?;
    /// let (n, q) = d.lowest_terms(&d.outcomes()[0].1); // 2: 1/36
    /// assert_eq!((n.to_string(), q.to_string()), ("1".into(), "36".into()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lowest_terms(&self, weight: &BigUint) -> (BigUint, BigUint) {
        self.factored
            .get_or_init(|| Denominator::new(&self.denominator))
            .reduce(weight)
    }

    /// A writer of this distribution's probabilities as decimal fractions in
    /// lowest terms, for printing many of them fast (see [`FractionWriter`]).
    pub fn fraction_writer(&self) -> FractionWriter<'_> {
        FractionWriter::new(
            self.factored
                .get_or_init(|| Denominator::new(&self.denominator)),
        )
    }

    /// `weight / denominator` as the nearest float (for display: percentages).
    pub fn float(&self, weight: &BigUint) -> f64 {
        super::lowest::ratio_f64(weight, &self.denominator)
    }

    /// The outcomes with non-zero probability and their weights, ascending.
    pub fn outcomes(&self) -> &[(i64, BigUint)] {
        &self.outcomes
    }

    /// The common denominator of the weights.
    pub fn denominator(&self) -> &BigUint {
        &self.denominator
    }

    fn ratio(&self, weight: &BigUint) -> BigRational {
        let (n, d) = self.lowest_terms(weight);
        BigRational::new_raw(BigInt::from(n), BigInt::from(d))
    }

    /// The probability of exactly `value`, in lowest terms.
    pub fn probability(&self, value: i64) -> BigRational {
        match self.outcomes.binary_search_by_key(&value, |o| o.0) {
            Ok(i) => self.ratio(&self.outcomes[i].1),
            Err(_) => BigRational::zero(),
        }
    }

    /// The probability of an outcome in `lo ..= hi`.
    pub fn between(&self, lo: i64, hi: i64) -> BigRational {
        let w: BigUint = self
            .outcomes
            .iter()
            .filter(|(v, _)| (lo..=hi).contains(v))
            .map(|(_, w)| w)
            .sum();
        self.ratio(&w)
    }

    /// `P(total >= t)`, not counting the tail.
    pub fn at_least(&self, t: i64) -> BigRational {
        self.between(t, i64::MAX)
    }

    /// `P(total <= t)`, not counting the tail.
    pub fn at_most(&self, t: i64) -> BigRational {
        self.between(i64::MIN, t)
    }

    /// The probability that lies beyond the explosion limit: 0 unless some
    /// explosion was cut off.
    pub fn tail(&self) -> BigRational {
        self.ratio(&self.tail)
    }

    /// The tail's weight over [`Distribution::denominator`].
    pub fn tail_weight(&self) -> &BigUint {
        &self.tail
    }

    /// The smallest and largest outcomes, if any.
    pub fn range(&self) -> Option<(i64, i64)> {
        Some((self.outcomes.first()?.0, self.outcomes.last()?.0))
    }

    /// The mean, `sum v P(v)` (over the outcomes; with a tail, the rolls beyond
    /// the limit are not in it).
    pub fn mean(&self) -> BigRational {
        self.moments().0.clone()
    }

    /// The variance, `sum v^2 P(v) - mean^2`.
    pub fn variance(&self) -> BigRational {
        self.moments().1.clone()
    }

    /// The mean and the variance, computed once: with `D` the denominator,
    /// `S1 = Σ v·w` and `S2 = Σ v²·w`, the mean is `S1/D` and the variance
    /// `(S2·D − S1²)/D²`, each put in lowest terms by one gcd.
    fn moments(&self) -> &(BigRational, BigRational) {
        self.moments.get_or_init(|| {
            let (s1, s2) = self.power_sums();
            let d = BigInt::from(self.denominator.clone());
            let variance = BigRational::new(&s2 * &d - &s1 * &s1, &d * &d);
            (BigRational::new(s1, d), variance)
        })
    }

    /// `S1 = Σ v·w` and `S2 = Σ v²·w`. With every |v| below 2^31 (so that v²
    /// fits a word) they are accumulated on words in place, the negative and
    /// the positive terms of `S1` apart: no big-integer value per outcome.
    fn power_sums(&self) -> (BigInt, BigInt) {
        if self
            .outcomes
            .iter()
            .all(|(v, _)| v.unsigned_abs() < 1 << 31)
        {
            let (mut positive, mut negative, mut squares) = (Vec::new(), Vec::new(), Vec::new());
            let mut w_words = Vec::new();
            for (v, w) in &self.outcomes {
                words::load(w, &mut w_words);
                let m = v.unsigned_abs();
                let s1 = if *v < 0 { &mut negative } else { &mut positive };
                words::mul_add(s1, &w_words, m);
                words::mul_add(&mut squares, &w_words, m * m);
            }
            let s1 = BigInt::from(words::to_biguint(&positive))
                - BigInt::from(words::to_biguint(&negative));
            return (s1, BigInt::from(words::to_biguint(&squares)));
        }
        let (mut s1, mut s2) = (BigInt::zero(), BigInt::zero());
        for (v, w) in &self.outcomes {
            let vw = BigInt::from(w.clone()) * *v;
            s2 += &vw * *v;
            s1 += vw;
        }
        (s1, s2)
    }

    /// The standard deviation, as a float.
    pub fn std_dev(&self) -> f64 {
        ratio_to_f64(&self.variance()).max(0.0).sqrt()
    }
}

/// A probability as people read it: the exact fraction in lowest terms and
/// the percentage to two decimals, trailing zeros dropped (a tiny non-zero
/// one as `<0.01%`).
///
/// ```
/// use nutshell_dice::exact::probability_text;
/// use num_rational::BigRational;
/// let p = BigRational::new(37.into(), 324.into());
/// assert_eq!(probability_text(&p), "37/324 (11.42%)");
/// assert_eq!(probability_text(&BigRational::new(11.into(), 20.into())), "11/20 (55%)");
/// ```
pub fn probability_text(p: &BigRational) -> String {
    let percent = ratio_to_f64(p) * 100.0;
    let percent = if p.numer().bits() == 0 {
        "0".to_string()
    } else if percent < 0.005 {
        "<0.01".to_string()
    } else {
        let text = format!("{percent:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{p} ({percent}%)")
}

/// A rational as the nearest float (for display only).
pub fn ratio_to_f64(r: &BigRational) -> f64 {
    if let Some(x) = r.to_f64()
        && x.is_finite()
    {
        return x;
    }
    // Scale huge numerators and denominators down together.
    let n = r.numer();
    let d = r.denom();
    let shift = n.bits().max(d.bits()).saturating_sub(1000);
    let n = (n >> shift).to_f64().unwrap_or(0.0);
    let d = (d >> shift).to_f64().unwrap_or(1.0);
    n / d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean and the variance from their definitions, one rational at a time.
    fn by_definition(outcomes: &[(i64, u64)], denominator: u64) -> (BigRational, BigRational) {
        let p = |w: u64| BigRational::new(BigInt::from(w), BigInt::from(denominator));
        let mean: BigRational = outcomes.iter().map(|&(v, w)| p(w) * BigInt::from(v)).sum();
        let variance: BigRational = outcomes
            .iter()
            .map(|&(v, w)| {
                let d = BigRational::from_integer(BigInt::from(v)) - &mean;
                p(w) * &d * &d
            })
            .sum();
        (mean, variance)
    }

    #[test]
    fn moments_of_negative_small_and_huge_outcomes() {
        for (outcomes, denominator) in [
            (vec![(-5, 3u64), (0, 1), (7, 2)], 6u64),
            (vec![(-3_000_000_000, 1), (2, 1), (5_000_000_000, 2)], 4),
            (vec![(-(1 << 31) + 1, 5), ((1 << 31) - 1, 7)], 12),
            (vec![(i64::from(i32::MIN), 1), (3, 1)], 2),
        ] {
            let d = Distribution::new(
                outcomes
                    .iter()
                    .map(|&(v, w)| (v, BigUint::from(w)))
                    .collect(),
                BigUint::from(denominator),
            );
            let (mean, variance) = by_definition(&outcomes, denominator);
            assert_eq!(d.mean(), mean, "{outcomes:?}");
            assert_eq!(d.variance(), variance, "{outcomes:?}");
        }
    }
}
