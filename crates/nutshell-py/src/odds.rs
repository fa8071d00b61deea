//! Exact odds: `_odds` computes an expression's distribution with the
//! interpreter detached; `_Dist` holds it and answers the package's
//! `Distribution` (`python/nutshell/_odds.py`), which makes the fractions.
//! A `_Dist` without an expression (`_Dist._from_weights`: an icepool die
//! converted) is combined with others by [`crate::combine`].

use crate::limits::LimitArgs;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use nutshell_dice::Distribution;
use pyo3::prelude::*;
use std::sync::Arc;

/// An exact distribution as the engine computed it: outcomes with integer
/// weights over one denominator, and the tail.
#[pyclass(frozen, module = "nutshell._nutshell", name = "_Dist")]
pub struct Dist {
    /// The expression it is the distribution of; `None` for one given by
    /// its weights.
    pub(crate) expr: Option<Arc<nutshell_dice::Expression>>,
    pub(crate) dist: Distribution,
}

/// `(numerator, denominator)` of a rational in lowest terms.
fn pair(r: &BigRational) -> (BigInt, BigInt) {
    (r.numer().clone(), r.denom().clone())
}

/// Computes the exact distribution of `expression` (or of `min(total, cap)`).
fn compute(
    py: Python<'_>,
    expr: &Arc<nutshell_dice::Expression>,
    cap: Option<i64>,
) -> PyResult<Distribution> {
    let e = expr.clone();
    let result = py.detach(move || match cap {
        Some(cap) => e.distribution_capped(cap),
        None => e.distribution(),
    });
    result.map_err(|err| crate::errors::exact(py, &err, expr.text()))
}

/// The exact distribution of an expression (see `nutshell.odds`).
// `Expression`'s keywords (a Python signature each), and the exact engine's.
#[pyfunction(name = "_odds")]
#[pyo3(signature = (expression, *, max_dice=None, max_explosions=None, max_nesting=None, max_length=None, max_outcomes=None, max_work=None, tail_digits=None))]
#[allow(clippy::too_many_arguments)]
pub fn odds_native(
    py: Python<'_>,
    expression: &str,
    max_dice: Option<u64>,
    max_explosions: Option<u32>,
    max_nesting: Option<usize>,
    max_length: Option<usize>,
    max_outcomes: Option<usize>,
    max_work: Option<u64>,
    tail_digits: Option<u32>,
) -> PyResult<Dist> {
    let limits = LimitArgs {
        max_outcomes,
        max_work,
        tail_digits,
        ..LimitArgs::parsing(max_dice, max_explosions, max_nesting, max_length)
    };
    let expr = crate::dice::parse(py, expression, &limits)?;
    let dist = compute(py, &expr, None)?;
    Ok(Dist {
        expr: Some(expr),
        dist,
    })
}

#[pymethods]
impl Dist {
    /// The expression, normalized (`None` for a distribution given by its
    /// weights).
    #[getter]
    fn expression(&self) -> Option<&str> {
        self.expr.as_deref().map(|e| e.normalized())
    }

    /// A distribution given by `(value, weight)` pairs (any order, repeated
    /// values added, zero weights left out) over the sum of the weights: an
    /// icepool die, converted exactly.
    #[staticmethod]
    #[pyo3(name = "_from_weights")]
    fn from_weights(weights: Vec<(i64, BigUint)>) -> PyResult<Dist> {
        crate::combine::from_weights(weights).map(Dist::of_weights)
    }

    /// `self op other` over independent outcomes (`+`, `-`, `*`, `//`, and
    /// the comparisons `<`, `<=`, `>`, `>=`, `=`, `!=` as 1 or 0), exactly:
    /// the product of the two distributions, the tails' share left in the
    /// tail.
    fn _combine(&self, py: Python<'_>, op: &str, other: &Dist) -> PyResult<Dist> {
        let (a, b) = (&self.dist, &other.dist);
        py.detach(|| crate::combine::combine(a, op, b))
            .map(Dist::of_weights)
    }

    /// `op self` (`neg`, `abs`) outcome by outcome.
    fn _map(&self, op: &str) -> PyResult<Dist> {
        crate::combine::map(&self.dist, op).map(Dist::of_weights)
    }

    /// The outcomes with non-zero probability, ascending.
    fn values(&self) -> Vec<i64> {
        self.dist.outcomes().iter().map(|(v, _)| *v).collect()
    }

    /// Each outcome's weight over `denominator`, in the order of `values()`.
    fn weights(&self) -> Vec<BigUint> {
        self.dist
            .outcomes()
            .iter()
            .map(|(_, w)| w.clone())
            .collect()
    }

    /// The common denominator of the weights.
    #[getter]
    fn denominator(&self) -> BigUint {
        self.dist.denominator().clone()
    }

    /// The tail's weight over `denominator`.
    #[getter]
    fn tail_weight(&self) -> BigUint {
        self.dist.tail_weight().clone()
    }

    /// `(n, d)` in lowest terms for each outcome, in the order of `values()`.
    fn fractions(&self, py: Python<'_>) -> Vec<(BigUint, BigUint)> {
        let dist = &self.dist;
        py.detach(|| {
            dist.outcomes()
                .iter()
                .map(|(_, w)| dist.lowest_terms(w))
                .collect()
        })
    }

    /// `(n, d)` in lowest terms for `value`, or None when it is not an outcome.
    fn fraction(&self, value: i64) -> Option<(BigUint, BigUint)> {
        let outcomes = self.dist.outcomes();
        let i = outcomes.binary_search_by_key(&value, |o| o.0).ok()?;
        Some(self.dist.lowest_terms(&outcomes[i].1))
    }

    /// Each outcome's probability as the nearest float.
    fn floats(&self) -> Vec<f64> {
        self.dist
            .outcomes()
            .iter()
            .map(|(_, w)| self.dist.float(w))
            .collect()
    }

    /// The tail in lowest terms.
    fn tail(&self) -> (BigInt, BigInt) {
        pair(&self.dist.tail())
    }

    /// The mean in lowest terms (over the outcomes; the tail is not in it).
    fn mean(&self, py: Python<'_>) -> (BigInt, BigInt) {
        py.detach(|| pair(&self.dist.mean()))
    }

    /// The variance in lowest terms.
    fn variance(&self, py: Python<'_>) -> (BigInt, BigInt) {
        py.detach(|| pair(&self.dist.variance()))
    }

    /// The standard deviation, as a float.
    fn std_dev(&self, py: Python<'_>) -> f64 {
        py.detach(|| self.dist.std_dev())
    }

    /// `P(total >= t)` exactly, even where the distribution has a tail: from
    /// the distribution of `min(total, t)`, which follows explosions only
    /// until the total reaches `t` (as `nutshell odds --at-least`).
    fn at_least(&self, py: Python<'_>, t: i64) -> PyResult<(BigInt, BigInt)> {
        let Some(expr) = self
            .expr
            .as_ref()
            .filter(|_| self.dist.tail_weight() != &BigUint::ZERO)
        else {
            return Ok(pair(&self.dist.at_least(t)));
        };
        let capped = compute(py, expr, Some(t))?;
        Ok(pair(&capped.at_least(t)))
    }

    /// `P(total <= t)` exactly: `1 - P(total >= t + 1)` (as `--at-most`).
    fn at_most(&self, py: Python<'_>, t: i64) -> PyResult<(BigInt, BigInt)> {
        let Some(expr) = self
            .expr
            .as_ref()
            .filter(|_| self.dist.tail_weight() != &BigUint::ZERO)
        else {
            return Ok(pair(&self.dist.at_most(t)));
        };
        let Some(cap) = t.checked_add(1) else {
            return Ok(pair(&self.dist.at_most(t)));
        };
        let capped = compute(py, expr, Some(cap))?;
        Ok(pair(&capped.at_most(t)))
    }

    /// The distribution as JSON text, as `nutshell odds --json` prints it.
    fn to_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.json())
    }
}

impl Dist {
    /// A distribution without an expression (weights given or combined).
    fn of_weights(dist: Distribution) -> Dist {
        Dist { expr: None, dist }
    }
}

impl Dist {
    /// `nutshell odds --json`'s object (without `at_least`/`at_most`): every
    /// probability in lowest terms, written by the engine's `FractionWriter`.
    fn json(&self) -> String {
        let dist = &self.dist;
        let mut buf: Vec<u8> = Vec::new();
        buf.extend_from_slice(b"{\"distribution\":[");
        let mut fractions = dist.fraction_writer();
        for (i, (v, weight)) in dist.outcomes().iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(b"{\"probability\":\"");
            fractions.write(weight, &mut buf);
            buf.extend_from_slice(format!("\",\"value\":{v}}}").as_bytes());
        }
        let text = |s: &str| serde_json::to_string(s).unwrap_or_default();
        buf.extend_from_slice(
            format!(
                "],\"expression\":{},\"mean\":\"{}\",\"std_dev\":{},\"tail\":\"",
                self.expr
                    .as_ref()
                    .map_or("null".to_string(), |e| text(e.normalized())),
                fraction(&dist.mean()),
                serde_json::to_string(&dist.std_dev()).unwrap_or_else(|_| "null".into()),
            )
            .as_bytes(),
        );
        fractions.write(dist.tail_weight(), &mut buf);
        buf.extend_from_slice(
            format!("\",\"variance\":\"{}\"}}", fraction(&dist.variance())).as_bytes(),
        );
        String::from_utf8(buf).unwrap_or_default()
    }
}

/// `p/q` in lowest terms, `0`, or a whole number (the command line's form).
fn fraction(r: &BigRational) -> String {
    nutshell_rules::odds::fraction(r)
}
