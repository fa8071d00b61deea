//! Big integers as decimal text, fast, into a byte buffer.
//!
//! A number of up to [`OWN_LIMIT`] words is divided by 10^19 a word at a time
//! with a precomputed reciprocal ([`WordDivisor`]), each remainder giving 19
//! digits written two at a time from a table; longer numbers go through the
//! big-integer library, which splits them first.

use super::words::{WordDivisor, trim};
use num_bigint::BigUint;

/// 10^19: the largest power of ten in a word.
const CHUNK: u64 = 10_000_000_000_000_000_000;
const CHUNK_DIGITS: usize = 19;

/// Longest number (in words) converted here; above it the library's
/// conversion, which divides by a power of ten near the square root first,
/// is the faster.
const OWN_LIMIT: usize = 64;

/// "00" to "99".
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Scratch space for [`write`], reused from number to number.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    chunks: Vec<u64>,
}

/// Appends the decimal digits of the number `digits` (little-endian words)
/// to `out`; `digits` is consumed (left empty or divided down).
pub(crate) fn write(digits: &mut Vec<u64>, scratch: &mut Scratch, out: &mut Vec<u8>) {
    trim(digits);
    match digits.len() {
        0 => out.push(b'0'),
        1 => write_word(digits[0], out),
        n if n > OWN_LIMIT => {
            let mut halves = Vec::with_capacity(2 * n);
            for &d in digits.iter() {
                halves.push(d as u32);
                halves.push((d >> 32) as u32);
            }
            out.extend_from_slice(BigUint::new(halves).to_string().as_bytes());
            digits.clear();
        }
        _ => {
            let ten19 = WordDivisor::new(CHUNK);
            let chunks = &mut scratch.chunks;
            chunks.clear();
            while !digits.is_empty() {
                chunks.push(ten19.div_in_place(digits));
            }
            let mut iter = chunks.iter().rev();
            if let Some(&first) = iter.next() {
                write_word(first, out);
            }
            for &c in iter {
                write_padded(c, out);
            }
        }
    }
}

/// `n`'s decimal digits, as `n.to_string()` gives them, faster for big numbers.
///
/// ```
/// use num_bigint::BigUint;
/// let n = BigUint::from(6u32).pow(100);
/// assert_eq!(nutshell_dice::exact::decimal(&n), n.to_string());
/// ```
pub fn decimal(n: &BigUint) -> String {
    let mut digits: Vec<u64> = n.iter_u64_digits().collect();
    let mut out = Vec::with_capacity(digits.len() * 20);
    write(&mut digits, &mut Scratch::default(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// A word's digits, without leading zeros.
pub(crate) fn write_word(mut n: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[n as usize * 2..n as usize * 2 + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + n as u8;
    }
    out.extend_from_slice(&buf[at..]);
}

/// A chunk below 10^19 as exactly 19 digits, leading zeros included.
fn write_padded(mut n: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; CHUNK_DIGITS + 1];
    let mut at = buf.len();
    for _ in 0..CHUNK_DIGITS.div_ceil(2) {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    // 20 digits were written; the first is the zero above 19.
    out.extend_from_slice(&buf[1..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_those_of_to_string() {
        let mut cases: Vec<BigUint> = vec![
            BigUint::from(0u32),
            BigUint::from(1u32),
            BigUint::from(9u32),
            BigUint::from(10u32),
            BigUint::from(99u32),
            BigUint::from(100u32),
            BigUint::from(u64::MAX),
            BigUint::from(10u32).pow(19),
            BigUint::from(10u32).pow(19) - 1u32,
            BigUint::from(10u32).pow(38),
            BigUint::from(10u32).pow(38) - 1u32,
            BigUint::from(2u32).pow(64),
            BigUint::from(6u32).pow(1000),
            BigUint::from(6u32).pow(1000) - 1u32,
            BigUint::from(6u32).pow(3000) - 1u32,
        ];
        let mut x = BigUint::from(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..200 {
            x = (&x * 6364136223846793005u64 + 1442695040888963407u64) * 3u32 + 7u32;
            cases.push(x.clone());
        }
        for n in cases {
            assert_eq!(decimal(&n), n.to_string());
        }
        for w in [0u64, 5, 10, 99, 100, 12345, u64::MAX] {
            let mut out = Vec::new();
            write_word(w, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), w.to_string());
        }
    }
}
