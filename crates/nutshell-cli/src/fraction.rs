//! Exact fractions and percentages as text.

use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::exact::ratio_to_f64;

/// `p/q` in lowest terms, `0` or `1` for those, an integer when whole.
pub fn fraction(r: &BigRational) -> String {
    if r.is_zero() {
        return "0".to_string();
    }
    let n = nutshell_dice::exact::decimal(r.numer().magnitude());
    let sign = if r.numer().sign() == num_bigint::Sign::Minus {
        "-"
    } else {
        ""
    };
    if r.denom().is_one() {
        return format!("{sign}{n}");
    }
    format!(
        "{sign}{n}/{}",
        nutshell_dice::exact::decimal(r.denom().magnitude())
    )
}

/// A percentage with four decimals; tiny non-zero values say so.
pub fn percent(r: &BigRational) -> String {
    if r.is_zero() {
        return "0%".to_string();
    }
    let x = ratio_to_f64(r) * 100.0;
    if x < 0.00005 {
        return "<0.0001%".to_string();
    }
    format!("{x:.4}%")
}
