//! Distributions combined outcome by outcome, for those that have no
//! expression (an icepool die converted by `odds(die)`): the package builds
//! the text of the combined expression and asks the engine whenever both
//! sides have one, so this path is only for weights given from outside.
//!
//! Each answers the dice crate's [`Distribution`]; `odds.rs` wraps it as
//! the Python `_Dist` (so this module needs nothing of that one).
//!
//! Exact: big-integer weights over the product of the denominators; what
//! either side leaves in its tail stays in the result's tail.

use num_bigint::BigUint;
use nutshell_dice::Distribution;
use pyo3::exceptions::{PyOverflowError, PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use std::collections::BTreeMap;

/// A distribution from `(value, weight)` pairs over the sum of the weights.
pub fn from_weights(weights: Vec<(i64, BigUint)>) -> PyResult<Distribution> {
    let mut merged: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (v, w) in weights {
        *merged.entry(v).or_default() += w;
    }
    merged.retain(|_, w| *w != BigUint::ZERO);
    if merged.is_empty() {
        return Err(PyValueError::new_err(
            "a die needs at least one outcome with a weight above 0",
        ));
    }
    let denominator: BigUint = merged.values().sum();
    Ok(Distribution::new(merged.into_iter().collect(), denominator))
}

/// `a op b` over independent outcomes.
pub fn combine(a: &Distribution, op: &str, b: &Distribution) -> PyResult<Distribution> {
    let f: fn(i64, i64) -> Option<Option<i64>> = match op {
        "+" => |x, y| Some(x.checked_add(y)),
        "-" => |x, y| Some(x.checked_sub(y)),
        "*" => |x, y| Some(x.checked_mul(y)),
        "//" => |x, y| {
            if y == 0 {
                None
            } else {
                Some(x.checked_div_euclid(y).map(|q| {
                    // Python's floor division, toward negative infinity.
                    if (x.rem_euclid(y) != 0) && y < 0 {
                        q - 1
                    } else {
                        q
                    }
                }))
            }
        },
        "<" => |x, y| Some(Some(i64::from(x < y))),
        "<=" => |x, y| Some(Some(i64::from(x <= y))),
        ">" => |x, y| Some(Some(i64::from(x > y))),
        ">=" => |x, y| Some(Some(i64::from(x >= y))),
        "=" => |x, y| Some(Some(i64::from(x == y))),
        "!=" => |x, y| Some(Some(i64::from(x != y))),
        _ => return Err(PyValueError::new_err(format!("unknown operator {op:?}"))),
    };
    let mut out: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (x, wx) in a.outcomes() {
        for (y, wy) in b.outcomes() {
            let v = match f(*x, *y) {
                None => {
                    return Err(PyZeroDivisionError::new_err(format!(
                        "{x} // {y}: the right side can be 0"
                    )));
                }
                Some(None) => {
                    return Err(PyOverflowError::new_err(format!(
                        "{x} {op} {y} passes the range of a 64-bit whole number"
                    )));
                }
                Some(Some(v)) => v,
            };
            *out.entry(v).or_default() += wx * wy;
        }
    }
    Ok(Distribution::new(
        out.into_iter().collect(),
        a.denominator() * b.denominator(),
    ))
}

/// `op a` (`neg`, `abs`) outcome by outcome.
pub fn map(a: &Distribution, op: &str) -> PyResult<Distribution> {
    let f: fn(i64) -> Option<i64> = match op {
        "neg" => i64::checked_neg,
        "abs" => i64::checked_abs,
        _ => return Err(PyValueError::new_err(format!("unknown operator {op:?}"))),
    };
    let mut out: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (x, w) in a.outcomes() {
        let v = f(*x).ok_or_else(|| {
            PyOverflowError::new_err(format!(
                "{op} {x} passes the range of a 64-bit whole number"
            ))
        })?;
        *out.entry(v).or_default() += w;
    }
    Ok(Distribution::new(
        out.into_iter().collect(),
        a.denominator().clone(),
    ))
}
