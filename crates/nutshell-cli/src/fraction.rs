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

/// A percentage to two decimals, trailing zeros dropped (`55%`, `11.42%`,
/// `0.5%`); tiny non-zero values say so (`<0.01%`).
pub fn short_percent(r: &BigRational) -> String {
    if r.is_zero() {
        return "0%".to_string();
    }
    let x = ratio_to_f64(r) * 100.0;
    if x < 0.005 {
        return "<0.01%".to_string();
    }
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn short_percentages_drop_trailing_zeros() {
        assert_eq!(short_percent(&r(11, 20)), "55%");
        assert_eq!(short_percent(&r(37, 324)), "11.42%");
        assert_eq!(short_percent(&r(1, 200)), "0.5%");
        assert_eq!(short_percent(&r(1, 1)), "100%");
        assert_eq!(short_percent(&r(0, 1)), "0%");
        assert_eq!(short_percent(&r(1, 1_000_000)), "<0.01%");
    }
}
