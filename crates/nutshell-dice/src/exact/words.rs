//! Arithmetic on big numbers as little-endian 64-bit words, in place: what
//! printing and reducing many fractions needs (division by one word, its
//! remainder, shifts), without building big-integer values.
//!
//! Division by a word uses its precomputed reciprocal (N. Möller and
//! T. Granlund, "Improved division by invariant integers", IEEE Transactions
//! on Computers, 2011, algorithm 4): a multiplication and a few corrections
//! per word instead of a 128-bit division, which the compiler leaves to a
//! slow library routine.

/// A divisor of one word, prepared for dividing many words by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WordDivisor {
    /// The divisor.
    d: u64,
    /// `d` shifted left until its top bit is set.
    normalized: u64,
    /// How far it was shifted.
    shift: u32,
    /// `⌊(2^128 − 1) / normalized⌋ − 2^64`.
    reciprocal: u64,
}

impl WordDivisor {
    /// Prepares `d` (non-zero).
    pub(crate) fn new(d: u64) -> WordDivisor {
        assert!(d != 0, "division by zero");
        let shift = d.leading_zeros();
        let normalized = d << shift;
        let reciprocal = (u128::MAX / u128::from(normalized) - (1u128 << 64)) as u64;
        WordDivisor {
            d,
            normalized,
            shift,
            reciprocal,
        }
    }

    /// The divisor.
    pub(crate) fn get(&self) -> u64 {
        self.d
    }

    /// `(u1·2^64 + u0) / normalized` and the remainder, for `u1 < normalized`.
    #[inline]
    fn div_2by1(&self, u1: u64, u0: u64) -> (u64, u64) {
        let d = self.normalized;
        let q = (u128::from(self.reciprocal) * u128::from(u1))
            .wrapping_add((u128::from(u1) << 64) | u128::from(u0));
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

    /// The word of `digits << shift` at position `i` (bits shifted in from
    /// the word below).
    #[inline]
    fn shifted(&self, digits: &[u64], i: usize) -> u64 {
        if self.shift == 0 {
            return digits[i];
        }
        let below = if i > 0 {
            digits[i - 1] >> (64 - self.shift)
        } else {
            0
        };
        (digits[i] << self.shift) | below
    }

    /// The top word that `digits << shift` adds.
    #[inline]
    fn overflow(&self, digits: &[u64]) -> u64 {
        match (self.shift, digits.last()) {
            (0, _) | (_, None) => 0,
            (s, Some(&top)) => top >> (64 - s),
        }
    }

    /// `digits mod d`.
    pub(crate) fn rem(&self, digits: &[u64]) -> u64 {
        // Dividing `digits << shift` by `normalized` leaves the remainder
        // shifted by the same amount.
        let mut r = self.overflow(digits);
        for i in (0..digits.len()).rev() {
            r = self.div_2by1(r, self.shifted(digits, i)).1;
        }
        r >> self.shift
    }

    /// `digits /= d` in place (the quotient, its high zero words dropped);
    /// returns the remainder.
    pub(crate) fn div_in_place(&self, digits: &mut Vec<u64>) -> u64 {
        let mut r = self.overflow(digits);
        // From the top down: word i is overwritten after the shifted word i,
        // which reads word i − 1, still the dividend's.
        let mut i = digits.len();
        while i > 0 {
            i -= 1;
            let (q, rest) = self.div_2by1(r, self.shifted(digits, i));
            digits[i] = q;
            r = rest;
        }
        trim(digits);
        r >> self.shift
    }
}

/// Drops high zero words.
pub(crate) fn trim(digits: &mut Vec<u64>) {
    while digits.last() == Some(&0) {
        digits.pop();
    }
}

/// Trailing zero bits of a number (0 for zero).
pub(crate) fn trailing_zeros(digits: &[u64]) -> u64 {
    let mut bits = 0;
    for &d in digits {
        if d != 0 {
            return bits + u64::from(d.trailing_zeros());
        }
        bits += 64;
    }
    0
}

/// `digits >>= bits`, in place.
pub(crate) fn shift_right(digits: &mut Vec<u64>, bits: u64) {
    let words = ((bits / 64) as usize).min(digits.len());
    let bits = (bits % 64) as u32;
    digits.drain(..words);
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
    trim(digits);
}

/// Copies a big integer's words into `out` (replacing what it held).
pub(crate) fn load(n: &num_bigint::BigUint, out: &mut Vec<u64>) {
    out.clear();
    out.extend(n.iter_u64_digits());
    trim(out);
}

/// `acc += x·m`, in place.
pub(crate) fn mul_add(acc: &mut Vec<u64>, x: &[u64], m: u64) {
    if acc.len() < x.len() + 1 {
        acc.resize(x.len() + 1, 0);
    }
    let mut carry = 0u128;
    for (i, &xi) in x.iter().enumerate() {
        let t = u128::from(xi) * u128::from(m) + u128::from(acc[i]) + carry;
        acc[i] = t as u64;
        carry = t >> 64;
    }
    let mut i = x.len();
    while carry != 0 {
        if i == acc.len() {
            acc.push(0);
        }
        let t = u128::from(acc[i]) + carry;
        acc[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
}

/// The number the words hold.
pub(crate) fn to_biguint(words: &[u64]) -> num_bigint::BigUint {
    let mut halves = Vec::with_capacity(2 * words.len());
    for &d in words {
        halves.push(d as u32);
        halves.push((d >> 32) as u32);
    }
    num_bigint::BigUint::new(halves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn numbers() -> Vec<BigUint> {
        let mut cases = vec![
            BigUint::from(0u32),
            BigUint::from(1u32),
            BigUint::from(u64::MAX),
            BigUint::from(2u32).pow(64),
            BigUint::from(6u32).pow(300),
            BigUint::from(10u32).pow(100) - 1u32,
        ];
        let mut x = BigUint::from(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..100 {
            x = (&x * 6364136223846793005u64 + 1442695040888963407u64) * 3u32 + 7u32;
            cases.push(x.clone());
        }
        cases
    }

    #[test]
    fn division_by_a_word_is_the_big_integer_division() {
        for d in [
            1u64,
            2,
            3,
            7,
            10,
            3u64.pow(39),
            5u64.pow(27),
            1 << 63,
            u64::MAX,
            10u64.pow(19),
        ] {
            let divisor = WordDivisor::new(d);
            for n in numbers() {
                let mut digits = Vec::new();
                load(&n, &mut digits);
                assert_eq!(BigUint::from(divisor.rem(&digits)), &n % d, "{n} mod {d}");
                let r = divisor.div_in_place(&mut digits);
                assert_eq!(BigUint::from(r), &n % d, "{n} mod {d}");
                let mut q = Vec::new();
                load(&(&n / d), &mut q);
                assert_eq!(digits, q, "{n} / {d}");
            }
        }
    }

    #[test]
    fn multiply_adds_are_the_big_integer_ones() {
        let mut acc = Vec::new();
        let mut expected = BigUint::from(0u32);
        for (i, n) in numbers().into_iter().enumerate() {
            let m = [1u64, 7, u64::MAX, 1 << 40][i % 4];
            let mut x = Vec::new();
            load(&n, &mut x);
            mul_add(&mut acc, &x, m);
            expected += &n * m;
            assert_eq!(to_biguint(&acc), expected);
        }
    }

    #[test]
    fn shifts_and_trailing_zeros() {
        for n in numbers() {
            let mut digits = Vec::new();
            load(&n, &mut digits);
            let tz = n.trailing_zeros().unwrap_or(0);
            assert_eq!(trailing_zeros(&digits), tz);
            for bits in [0u64, 1, 63, 64, 65, 130] {
                let mut shifted = digits.clone();
                shift_right(&mut shifted, bits);
                let mut expected = Vec::new();
                load(&(&n >> bits), &mut expected);
                assert_eq!(shifted, expected, "{n} >> {bits}");
            }
        }
    }
}
