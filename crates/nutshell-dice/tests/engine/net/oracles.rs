//! The oracles: ways to know an exact distribution is right that share no
//! code with the exact engine's shortcuts (caps pushed into sums, explosion
//! chains stopped at a threshold, keep/drop dynamic programs).
//!
//! - enumeration: every face sequence rolled through the sampler;
//! - laws that hold of any total `E`: `E op T` is `E`'s distribution cut at
//!   `T`; `E >= T` is the complement of `E < T`; `E - c op T` is
//!   `E op T + c`; `c + E - c op T` is `E op T`; `E op D` is `E - (D) op 0`;
//! - sampling: every sampled total inside the exact support, and a
//!   chi-square test of 20,000 seeded samples.
//!
//! Explosions make a distribution partial (its tail is the rolls it did not
//! follow), and two ways of computing one quantity may follow different
//! rolls; [`agree`] compares them within their tails, exactly when both
//! tails are zero.

use super::chi_square;
use super::generate::{Case, Op};
use crate::enumerate::Enumeration;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use nutshell_dice::{Distribution, ExactError, Expression, Limits, RollError, Seeded};
use std::collections::BTreeMap;

/// A distribution as exact probabilities, with its tail.
#[derive(Debug, Clone, PartialEq)]
pub struct Probabilities {
    pub outcomes: BTreeMap<i64, BigRational>,
    pub tail: BigRational,
}

impl Probabilities {
    pub fn of(d: &Distribution) -> Probabilities {
        let denominator = BigInt::from(d.denominator().clone());
        Probabilities {
            outcomes: d
                .outcomes()
                .iter()
                .map(|(v, w)| {
                    (
                        *v,
                        BigRational::new(BigInt::from(w.clone()), denominator.clone()),
                    )
                })
                .collect(),
            tail: d.tail(),
        }
    }

    fn at(&self, v: i64) -> BigRational {
        self.outcomes
            .get(&v)
            .cloned()
            .unwrap_or_else(BigRational::zero)
    }

    /// The 0/1 distribution of `self op t`.
    fn cut(&self, op: Op, t: i64) -> Probabilities {
        let mut outcomes = BTreeMap::new();
        for (&v, p) in &self.outcomes {
            let side = i64::from(op.holds(v, t));
            *outcomes.entry(side).or_insert_with(BigRational::zero) += p;
        }
        outcomes.retain(|_, p: &mut BigRational| !p.is_zero());
        Probabilities {
            outcomes,
            tail: self.tail.clone(),
        }
    }

    /// The distribution of `min(self, cap)`.
    fn capped(&self, cap: i64) -> Probabilities {
        let mut outcomes = BTreeMap::new();
        for (&v, p) in &self.outcomes {
            *outcomes.entry(v.min(cap)).or_insert_with(BigRational::zero) += p;
        }
        Probabilities {
            outcomes,
            tail: self.tail.clone(),
        }
    }

    /// `1 - self` for a 0/1 distribution.
    fn flipped(&self) -> Probabilities {
        Probabilities {
            outcomes: self
                .outcomes
                .iter()
                .map(|(&v, p)| (1 - v, p.clone()))
                .collect(),
            tail: self.tail.clone(),
        }
    }
}

/// Whether two partial distributions of the same quantity agree: each
/// outcome's probabilities differ by no more than the other side's tail (the
/// rolls it did not follow may land there), and in all by no more than both
/// tails; with no tails, they are equal.
pub fn agree(a: &Probabilities, b: &Probabilities) -> Result<(), String> {
    if a.tail.is_zero() && b.tail.is_zero() {
        if a.outcomes != b.outcomes {
            let v = a
                .outcomes
                .keys()
                .chain(b.outcomes.keys())
                .find(|&&v| a.at(v) != b.at(v))
                .copied()
                .unwrap_or_default();
            return Err(format!(
                "P({v}) is {} one way, {} the other",
                a.at(v),
                b.at(v)
            ));
        }
        return Ok(());
    }
    let mut drift = BigRational::zero();
    let values: std::collections::BTreeSet<i64> = a
        .outcomes
        .keys()
        .chain(b.outcomes.keys())
        .copied()
        .collect();
    for v in values {
        let (pa, pb) = (a.at(v), b.at(v));
        if pa > &pb + &b.tail || pb > &pa + &a.tail {
            return Err(format!(
                "P({v}) is {pa} (tail {}) one way, {pb} (tail {}) the other",
                a.tail, b.tail
            ));
        }
        drift += if pa > pb { &pa - &pb } else { &pb - &pa };
    }
    if drift > &a.tail + &b.tail {
        return Err(format!(
            "the outcomes differ by {drift} in all, more than the tails {} and {}",
            a.tail, b.tail
        ));
    }
    Ok(())
}

/// The exact distribution of `text`, or why not. `Ok(None)` when the
/// engine declines for size or for a feature it does not compute.
pub fn exact(text: &str, limits: &Limits) -> Result<Option<Probabilities>, String> {
    exact_with(text, None, limits)
}

/// The exact distribution of `min(text, cap)` (`Expression::distribution_capped`).
pub fn exact_capped(
    text: &str,
    cap: i64,
    limits: &Limits,
) -> Result<Option<Probabilities>, String> {
    exact_with(text, Some(cap), limits)
}

fn exact_with(
    text: &str,
    cap: Option<i64>,
    limits: &Limits,
) -> Result<Option<Probabilities>, String> {
    let expr = Expression::parse_with(text, limits)
        .map_err(|e| format!("`{text}` does not parse: {e}"))?;
    let d = match cap {
        Some(cap) => expr.distribution_capped(cap),
        None => expr.distribution(),
    };
    match d {
        Ok(d) => Ok(Some(Probabilities::of(&d))),
        Err(
            ExactError::Unsupported { .. }
            | ExactError::TooManyOutcomes { .. }
            | ExactError::TooMuchWork { .. },
        ) => Ok(None),
        Err(e) => Err(format!("`{text}` (capped at {cap:?}): {e}")),
    }
}

/// Exact against enumeration of every face sequence, under the same
/// explosion limit (exact odds follow every die to it: `tail_digits` 0).
/// Every roll enumeration finishes, exact odds must count the same way; the
/// rolls it leaves unfinished (a die at the limit, past the dice limit) the
/// exact engine may follow further, so exact odds lie between enumeration's
/// finished rolls and those plus the unfinished ones. A roll that fails for
/// good (division by zero, ...) means the expression has no distribution.
///
/// `deeper`, an enumeration under a higher explosion limit, bounds the exact
/// odds from above more tightly: what the exact engine resolved of a roll
/// unfinished at the lower limit must be where the roll really ends.
pub fn against_enumeration(
    exact: &Result<Distribution, ExactError>,
    all: &Enumeration,
    deeper: Option<&Enumeration>,
) -> Result<(), String> {
    let exact = match exact {
        Err(ExactError::MayFail { reason, .. }) => {
            if all.failed.is_zero() && all.unresolved.is_zero() {
                return Err(format!(
                    "exact odds say some rolls fail ({reason}), but none of the {} face sequences does",
                    all.sequences
                ));
            }
            return Ok(());
        }
        Err(_) => return Ok(()),
        Ok(d) => Probabilities::of(d),
    };
    if !all.failed.is_zero() {
        return Err(format!(
            "exact odds give a distribution, but rolls fail with probability {}: {}",
            all.failed,
            all.first_failure
                .as_ref()
                .map(|e| e.to_string())
                .unwrap_or_default()
        ));
    }
    if all.unresolved.is_zero() {
        if exact.outcomes != all.outcomes || !exact.tail.is_zero() {
            let v = exact
                .outcomes
                .keys()
                .chain(all.outcomes.keys())
                .find(|&&v| exact.outcomes.get(&v) != all.outcomes.get(&v))
                .copied();
            return Err(match v {
                Some(v) => format!(
                    "P({v}) is {} exactly but {} by enumeration",
                    exact.at(v),
                    all.outcomes
                        .get(&v)
                        .cloned()
                        .unwrap_or_else(BigRational::zero)
                ),
                None => format!("exact odds have a tail of {} where none exists", exact.tail),
            });
        }
        return Ok(());
    }
    if exact.tail > all.unresolved {
        return Err(format!(
            "exact odds leave out {} but enumeration finishes all but {}",
            exact.tail, all.unresolved
        ));
    }
    for &v in exact.outcomes.keys().chain(all.outcomes.keys()) {
        let (pe, pn) = (
            exact.at(v),
            all.outcomes
                .get(&v)
                .cloned()
                .unwrap_or_else(BigRational::zero),
        );
        if pe < pn || pe > &pn + &all.unresolved {
            return Err(format!(
                "P({v}) is {pe} exactly, but enumeration gives {pn} plus at most {} unfinished",
                all.unresolved
            ));
        }
        if let Some(deep) = deeper {
            let pd = deep
                .outcomes
                .get(&v)
                .cloned()
                .unwrap_or_else(BigRational::zero);
            if pe > &pd + &deep.unresolved {
                return Err(format!(
                    "P({v}) is {pe} exactly, but with a higher explosion limit enumeration \
                     gives {pd} plus at most {} unfinished",
                    deep.unresolved
                ));
            }
        }
    }
    Ok(())
}

/// Which laws were checked.
#[derive(Default, Debug)]
pub struct LawsChecked {
    pub capped: bool,
    pub cut: bool,
    pub complement: bool,
    pub shift: bool,
    pub difference: bool,
}

/// The algebraic laws around the case's comparison (or one made up from
/// the sum's own outcomes when the case compares nothing).
pub fn laws(
    case: &Case,
    sum: &Probabilities,
    limits: &Limits,
    pick: u64,
) -> Result<LawsChecked, String> {
    let mut done = LawsChecked::default();
    let e = &case.sum;
    let (op, right, constant) = match &case.comparison {
        Some(c) => (c.op, c.right.clone(), c.constant),
        None => {
            // A threshold among the sum's outcomes, or just past them.
            let values: Vec<i64> = sum.outcomes.keys().copied().collect();
            if values.is_empty() {
                return Ok(done);
            }
            let t = values[(pick as usize / 7) % values.len()] + (pick % 3) as i64 - 1;
            (Op::ALL[pick as usize % 5], t.to_string(), Some(t))
        }
    };
    let c = 1 + (pick % 4) as i64;
    let compared = format!("{e} {} {right}", op.text());
    let Some(whole) = exact(&compared, limits)? else {
        return Ok(done);
    };
    let law =
        |name: &str, result: Result<(), String>| result.map_err(|why| format!("{name}: {why}"));
    if let Some(t) = constant {
        law(
            &format!("`{compared}` is `{e}` cut at {t}"),
            agree(&sum.cut(op, t), &whole),
        )?;
        done.cut = true;
        // What `--at-least t` asks: the distribution of min(E, t).
        if let Some(capped) = exact_capped(e, t, limits)? {
            law(
                &format!("`{e}` capped at {t} is min(`{e}`, {t})"),
                agree(&sum.capped(t), &capped),
            )?;
            done.capped = true;
        }
        if let Some(shifted) = exact(&format!("{e} - {c} {} {right}", op.text()), limits)?
            && let Some(raised) = exact(&format!("{e} {} {}", op.text(), t + c), limits)?
        {
            law(
                &format!(
                    "`{e} - {c} {} {right}` is `{e} {} {}`",
                    op.text(),
                    op.text(),
                    t + c
                ),
                agree(&shifted, &raised),
            )?;
            done.shift = true;
        }
    } else {
        if let Some(diff) = exact(&format!("{e} - ({right}) {} 0", op.text()), limits)? {
            law(
                &format!("`{compared}` is `{e} - ({right}) {} 0`", op.text()),
                agree(&diff, &whole),
            )?;
            done.difference = true;
        }
        if let Some(shifted) = exact(&format!("{e} - {c} {} {right}", op.text()), limits)?
            && let Some(raised) = exact(&format!("{e} {} {right} + {c}", op.text()), limits)?
        {
            law(
                &format!(
                    "`{e} - {c} {} {right}` is `{e} {} {right} + {c}`",
                    op.text(),
                    op.text()
                ),
                agree(&shifted, &raised),
            )?;
            done.shift = true;
        }
    }
    // The shape: a constant first, taken back later (`5 + 2d20 - 7`).
    if let Some(around) = exact(&format!("{c} + {e} - {c} {} {right}", op.text()), limits)? {
        law(
            &format!("`{c} + {e} - {c} {} {right}` is `{compared}`", op.text()),
            agree(&around, &whole),
        )?;
        done.shift = true;
    }
    if let Some(other) = op.complement()
        && let Some(complement) = exact(&format!("{e} {} {right}", other.text()), limits)?
    {
        law(
            &format!("`{compared}` is 1 - `{e} {} {right}`", other.text()),
            agree(&complement.flipped(), &whole),
        )?;
        done.complement = true;
    }
    Ok(done)
}

/// What sampling found.
#[derive(Default, Debug)]
pub struct Sampled {
    /// Rolls refused for rolling more than `max_dice` dice.
    pub too_many_dice: u64,
}

/// `rolls` seeded samples: every total inside the exact support (when the
/// tail is negligible), no roll failing, and a chi-square test at
/// significance `alpha`.
pub fn sampling(
    expr: &Expression,
    d: &Distribution,
    rolls: u64,
    seed: u64,
    alpha: f64,
) -> Result<Sampled, String> {
    let mut roller = expr.roller();
    let mut dice = Seeded::new(seed);
    let mut seen: BTreeMap<i64, u64> = BTreeMap::new();
    let mut found = Sampled::default();
    for _ in 0..rolls {
        match roller.roll(&mut dice) {
            Ok(v) => *seen.entry(v).or_default() += 1,
            Err(RollError::TooManyDice { .. }) => found.too_many_dice += 1,
            Err(e) => {
                return Err(format!(
                    "exact odds give a distribution, but a sampled roll fails: {e}"
                ));
            }
        }
    }
    let tail = d.tail().to_f64().unwrap_or(1.0);
    if tail < 1e-9 {
        for v in seen.keys() {
            if d.probability(*v).is_zero() {
                return Err(format!(
                    "sampled a total of {v}, which exact odds call impossible"
                ));
            }
        }
    }
    let expected: Vec<(i64, f64)> = d.outcomes().iter().map(|(v, w)| (*v, d.float(w))).collect();
    let result = chi_square::test(&expected, tail, &seen, rolls);
    if result.p_value < alpha {
        let worst = result
            .worst
            .map(|((lo, hi), seen, expected)| {
                format!("; totals {lo}..={hi}: seen {seen}, expected {expected:.1}")
            })
            .unwrap_or_default();
        return Err(format!(
            "{rolls} samples are off the exact distribution: chi-square {:.1} on {} degrees of freedom, p = {:.2e}{worst}{}",
            result.statistic,
            result.degrees,
            result.p_value,
            if found.too_many_dice > 0 {
                format!("; {} rolls past max_dice", found.too_many_dice)
            } else {
                String::new()
            }
        ));
    }
    Ok(found)
}
