//! Closed forms for the exploding d6, so that odds are exact although a chain
//! of 6s never ends ("If a 6 is rolled, re-roll it again and again as long as
//! 6's continue", exploding-d6, Explode (6)).
//!
//! A *plain* exploding d6 `E` (the bonus dice after a 6, which never botch)
//! shows `6k + t` with `k` sixes and a last die `t` in 1..5, with probability
//! `6^-(k+1)`; it never shows a multiple of 6. Its survival is
//! `P(E > 6k + t) = 6^-k · (6 - t) / 6` for `t` in 0..5, so every
//! probability about one die is a finite formula. Two dice compared with an
//! offset `d` reduce to 35 cases of their first faces and the case "both
//! 6", which is the same question again: `g = (sum of the 35 cases) / 35`.
//!
//! The character's d6 roll (RULING X-3) is: a botch with probability 1/36; a
//! 1 with 5/36; 2..5 with 1/6 each; `6 + E` with 1/6.
//!
//! ```
//! use nutshell_rules::exploding_d6::series;
//! use num_rational::BigRational;
//! // Equal bonuses: each side wins as often as the other.
//! let (a_beats_b, tie) = series::compare(2, 2).unwrap();
//! let b_beats_a = BigRational::from_integer(1.into()) - &a_beats_b - &tie;
//! assert_eq!(a_beats_b, b_beats_a);
//! ```

use crate::error::RulesError;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The longest chain of 6s an exact answer may need: beyond it the exact
/// fractions would have tens of thousands of digits, and the question is
/// refused (a difference of more than 6 x 10,000 between a bonus and a
/// Difficulty or another bonus).
pub const MAX_CHAIN: i128 = 10_000;

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// `6^-k`, refusing chains longer than [`MAX_CHAIN`].
fn sixth_power(k: i128) -> Result<BigRational, RulesError> {
    if k > MAX_CHAIN {
        return Err(RulesError::Invalid(format!(
            "exact odds would follow a chain of {k} sixes (at most {MAX_CHAIN}): the numbers are too far apart"
        )));
    }
    let k = u32::try_from(k.max(0)).expect("at most MAX_CHAIN");
    Ok(BigRational::new(BigInt::one(), BigInt::from(6).pow(k)))
}

/// `P(E > x)` for a plain exploding d6 `E`.
pub fn plain_above(x: i128) -> Result<BigRational, RulesError> {
    if x < 1 {
        return Ok(BigRational::one());
    }
    let (k, t) = (x.div_euclid(6), x.rem_euclid(6));
    Ok(sixth_power(k)? * ratio(6 - t as i64, 6))
}

/// `P(E = x)` for a plain exploding d6 `E`.
pub fn plain_at(x: i128) -> Result<BigRational, RulesError> {
    if x < 1 || x % 6 == 0 {
        return Ok(BigRational::zero());
    }
    Ok(sixth_power(x / 6)? * ratio(1, 6))
}

/// `P(E < x)` for a plain exploding d6 `E`.
pub fn plain_below(x: i128) -> Result<BigRational, RulesError> {
    Ok(BigRational::one() - plain_above(x - 1)?)
}

/// The character's d6 roll without its tail of explosions: the botch, and
/// the faces 1..5 as `(value, probability)` (RULING X-3).
pub fn head() -> (BigRational, [(i128, BigRational); 5]) {
    (
        ratio(1, 36),
        [
            (1, ratio(5, 36)),
            (2, ratio(1, 6)),
            (3, ratio(1, 6)),
            (4, ratio(1, 6)),
            (5, ratio(1, 6)),
        ],
    )
}

/// `P(no botch and d6 roll < x)`: the probability that a roll misses a
/// Difficulty that is `x` above the bonus.
pub fn roll_below(x: i128) -> Result<BigRational, RulesError> {
    let (_, faces) = head();
    let mut p: BigRational = faces
        .iter()
        .filter(|(v, _)| *v < x)
        .map(|(_, q)| q.clone())
        .sum();
    // A first 6: 6 + E < x.
    p += ratio(1, 6) * plain_below(x - 6)?;
    Ok(p)
}

/// `(P(E_a + d > E_b), P(E_a + d = E_b))` for two independent plain exploding
/// dice: their first faces decide in 35 of 36 cases; when both show 6 the
/// question repeats, so each sum of the 35 cases is divided by 35.
fn plain_compare(d: i128) -> Result<(BigRational, BigRational), RulesError> {
    let mut wins = BigRational::zero();
    let mut ties = BigRational::zero();
    for ra in 1..=6i128 {
        for rb in 1..=6i128 {
            match (ra == 6, rb == 6) {
                (false, false) => {
                    if ra + d > rb {
                        wins += BigRational::one();
                    } else if ra + d == rb {
                        ties += BigRational::one();
                    }
                }
                // 6 + E_a + d against rb.
                (true, false) => {
                    wins += plain_above(rb - 6 - d)?;
                    ties += plain_at(rb - 6 - d)?;
                }
                // ra + d against 6 + E_b.
                (false, true) => {
                    wins += plain_below(ra + d - 6)?;
                    ties += plain_at(ra + d - 6)?;
                }
                (true, true) => {}
            }
        }
    }
    let cases = BigRational::from_integer(BigInt::from(35));
    Ok((wins / &cases, ties / cases))
}

/// For two characters' d6 rolls with bonuses `a` and `b` (Score +
/// Modifiers): `(P(A's Result > B's), P(a tie))`, a botch being below every
/// Result and two botches a tie (project ruling P-6). Exact, with no
/// explosion limit.
pub fn compare(a: i64, b: i64) -> Result<(BigRational, BigRational), RulesError> {
    let (botch, faces) = head();
    let tail = ratio(1, 6);
    let (a, b) = (i128::from(a), i128::from(b));
    let mut wins = BigRational::zero();
    let mut ties = &botch * &botch;
    // A botches: A never wins.
    // A shows a face 1..5.
    for (va, pa) in &faces {
        let ra = va + a;
        wins += pa * &botch;
        for (vb, pb) in &faces {
            let rb = vb + b;
            if ra > rb {
                wins += pa * pb;
            } else if ra == rb {
                ties += pa * pb;
            }
        }
        // B: 6 + E_b + b against ra.
        let x = ra - 6 - b;
        wins += pa * &tail * plain_below(x)?;
        ties += pa * &tail * plain_at(x)?;
    }
    // A: 6 + E_a + a.
    wins += &tail * &botch;
    for (vb, pb) in &faces {
        let x = vb + b - 6 - a;
        wins += &tail * pb * plain_above(x)?;
        ties += &tail * pb * plain_at(x)?;
    }
    let (both_win, both_tie) = plain_compare(a - b)?;
    wins += &tail * &tail * both_win;
    ties += &tail * &tail * both_tie;
    Ok((wins, ties))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain die's closed forms against a direct sum over chains.
    #[test]
    fn plain_die_against_chains() {
        for x in -3..40i128 {
            let mut above = BigRational::zero();
            let mut at = BigRational::zero();
            for k in 0..30u32 {
                for t in 1..=5i128 {
                    let v = 6 * i128::from(k) + t;
                    let p = BigRational::new(BigInt::one(), BigInt::from(6).pow(k + 1));
                    if v > x {
                        above += &p;
                    }
                    if v == x {
                        at += &p;
                    }
                }
            }
            let exact = plain_above(x).unwrap();
            // The chains sum leaves out 6^-30 of mass at the top.
            let missing = &exact - &above;
            assert!(missing >= BigRational::zero() && missing <= sixth_power(30).unwrap());
            assert_eq!(plain_at(x).unwrap(), at, "P(E = {x})");
        }
    }

    #[test]
    fn chains_are_limited() {
        assert!(plain_above(6 * MAX_CHAIN).is_ok());
        let e = plain_above(6 * (MAX_CHAIN + 1)).unwrap_err();
        assert!(e.to_string().contains("chain of"), "{e}");
    }
}
