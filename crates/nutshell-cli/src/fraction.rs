//! Exact fractions and percentages as text.

use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::exact::ratio_to_f64;

/// `p/q` in lowest terms, `0` or `1` for those, an integer when whole.
pub fn fraction(r: &BigRational) -> String {
    if r.is_zero() {
        return "0".to_string();
    }
    if r.denom().is_one() {
        return r.numer().to_string();
    }
    format!("{}/{}", r.numer(), r.denom())
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

/// `n` in decimal, as `n.to_string()` gives it, faster for big numbers: the
/// number is divided by 10^19 a word at a time with a precomputed reciprocal
/// (N. Möller and T. Granlund, "Improved division by invariant integers",
/// 2011, algorithm 4) instead of a hardware division per word.
pub fn decimal(n: &num_bigint::BigUint) -> String {
    const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19 >= 2^63: normalized
    const RECIPROCAL: u64 = (u128::MAX / CHUNK as u128 - (1u128 << 64)) as u64;
    let mut digits = n.to_u64_digits();
    if digits.len() <= 1 {
        return digits.first().copied().unwrap_or(0).to_string();
    }
    if digits.len() > 64 {
        // Longer numbers: the big-integer library's own conversion, which
        // splits them instead of dividing the whole number once per 19 digits.
        return n.to_string();
    }
    let mut chunks = Vec::with_capacity(digits.len() * 20 / 19 + 1);
    while !digits.is_empty() {
        let mut r = 0u64;
        for x in digits.iter_mut().rev() {
            let (q, rest) = div_by_chunk(r, *x, CHUNK, RECIPROCAL);
            *x = q;
            r = rest;
        }
        chunks.push(r);
        while digits.last() == Some(&0) {
            digits.pop();
        }
    }
    let mut text = String::with_capacity(chunks.len() * 19);
    let mut iter = chunks.iter().rev();
    if let Some(first) = iter.next() {
        text.push_str(&first.to_string());
    }
    for c in iter {
        text.push_str(&format!("{c:019}"));
    }
    text
}

/// `(u1·2^64 + u0) / d` and the remainder, for `u1 < d`, `d >= 2^63`, and
/// `v = ⌊(2^128 − 1)/d⌋ − 2^64`.
#[inline]
fn div_by_chunk(u1: u64, u0: u64, d: u64, v: u64) -> (u64, u64) {
    let q = (u128::from(v) * u128::from(u1)).wrapping_add((u128::from(u1) << 64) | u128::from(u0));
    let mut q1 = ((q >> 64) as u64).wrapping_add(1);
    let q0 = q as u64;
    let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
    if r > q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 += 1;
        r -= d;
    }
    (q1, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn decimals_of_big_numbers_are_those_of_to_string() {
        let mut cases: Vec<BigUint> = vec![
            BigUint::from(0u32),
            BigUint::from(1u32),
            BigUint::from(u64::MAX),
            BigUint::from(10u32).pow(19),
            BigUint::from(10u32).pow(19) - 1u32,
            BigUint::from(10u32).pow(38),
            BigUint::from(10u32).pow(38) - 1u32,
            BigUint::from(2u32).pow(64),
            BigUint::from(6u32).pow(1000),
            BigUint::from(6u32).pow(1000) - 1u32,
        ];
        // Pseudo-random numbers of many lengths.
        let mut x = BigUint::from(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..200 {
            x = (&x * 6364136223846793005u64 + 1442695040888963407u64) * 3u32 + 7u32;
            cases.push(x.clone());
        }
        for n in cases {
            assert_eq!(decimal(&n), n.to_string());
        }
    }
}
