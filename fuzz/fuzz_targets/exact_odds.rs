//! Parse arbitrary text as dice notation and compute its exact odds under
//! small limits; when the expression is small, compare them with every face
//! sequence rolled through the sampler.
//!
//! Checks (a panic anywhere is a finding):
//! - computing never panics, and a refusal renders with a caret;
//! - a distribution's weights never exceed its denominator;
//! - `distribution_capped(t)` is the distribution cut at `t` (within the
//!   tails of both);
//! - with at most 4,000 face sequences: the exact probability of each total
//!   lies between the rolls enumeration finishes with that total and those
//!   plus the rolls it leaves unfinished (a die at the explosion limit, a
//!   roll past the dice limit), equal when none is unfinished; a roll that
//!   fails (division by zero, ...) means the exact engine must refuse with
//!   `MayFail`, and a `MayFail` refusal means some roll fails or is left
//!   unfinished.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::Zero;
use nutshell_dice::{DiceSource, ExactError, Expression, Faces, Limits, RollError};
use std::collections::BTreeMap;

/// Small limits: every input stays fast, explosions are followed to the
/// limit (no tail threshold), as enumeration sees them.
fn limits() -> Limits {
    Limits {
        max_expression_chars: 400,
        max_nesting: 24,
        max_dice: 40,
        max_repeats_per_die: 2,
        max_outcomes: 20_000,
        max_work: 3_000_000,
        tail_digits: 0,
    }
}

/// A source that walks every face sequence like an odometer.
struct Odometer {
    path: Vec<(u64, u64)>,
    pos: usize,
}

impl DiceSource for Odometer {
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, nutshell_dice::source::SourceError> {
        if self.pos == self.path.len() {
            self.path.push((0, faces.len()));
        }
        let face = faces.nth(self.path[self.pos].0);
        self.pos += 1;
        Ok(face)
    }
}

struct Enumeration {
    outcomes: BTreeMap<i64, BigRational>,
    unresolved: BigRational,
    failed: bool,
}

/// Every face sequence, or `None` past `most` of them.
fn enumerate(expr: &Expression, most: usize) -> Option<Enumeration> {
    let mut source = Odometer {
        path: Vec::new(),
        pos: 0,
    };
    let mut all = Enumeration {
        outcomes: BTreeMap::new(),
        unresolved: BigRational::zero(),
        failed: false,
    };
    let mut roller = expr.roller();
    for _ in 0..most {
        let result = roller.roll(&mut source);
        let denominator = source.path[..source.pos]
            .iter()
            .try_fold(1u128, |acc, &(_, n)| acc.checked_mul(u128::from(n)))?;
        let p = BigRational::new(1.into(), denominator.into());
        match result {
            Ok(_) if roller.transcript().dice.iter().any(|d| d.limit_reached) => {
                all.unresolved += p
            }
            Ok(total) => *all.outcomes.entry(total).or_insert_with(BigRational::zero) += p,
            Err(RollError::TooManyDice { .. }) => all.unresolved += p,
            Err(_) => all.failed = true,
        }
        source.path.truncate(source.pos);
        loop {
            match source.path.last_mut() {
                None => return Some(all),
                Some(last) if last.0 + 1 < last.1 => {
                    last.0 += 1;
                    source.pos = 0;
                    break;
                }
                Some(_) => {
                    source.path.pop();
                }
            }
        }
    }
    None
}

fn probabilities(d: &nutshell_dice::Distribution) -> BTreeMap<i64, BigRational> {
    let denominator = num_bigint::BigInt::from(d.denominator().clone());
    d.outcomes()
        .iter()
        .map(|(v, w)| {
            (
                *v,
                BigRational::new(num_bigint::BigInt::from(w.clone()), denominator.clone()),
            )
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let limits = limits();
    let Ok(expr) = Expression::parse_with(&text, &limits) else {
        return;
    };
    let exact = expr.distribution();
    if let Err(err) = &exact {
        let _ = err.render(&text);
    }
    if let Ok(d) = &exact {
        let total: BigUint = d.outcomes().iter().map(|(_, w)| w).sum();
        assert!(
            &total <= d.denominator(),
            "{text:?}: weights past the denominator"
        );
        // The distribution cut at a threshold inside its range.
        if let Some((lo, hi)) = d.range() {
            let t = lo + (hi - lo) / 2;
            if let Ok(capped) = expr.distribution_capped(t) {
                let full = probabilities(d);
                let cut = probabilities(&capped);
                let at_least: BigRational = full.range(t..).map(|(_, p)| p).sum();
                let capped_at_least = cut.get(&t).cloned().unwrap_or_else(BigRational::zero);
                let slack = d.tail() + capped.tail();
                assert!(
                    capped_at_least >= &at_least - &slack && capped_at_least <= &at_least + &slack,
                    "{text:?}: capped at {t}, P(>= {t}) is {capped_at_least}, not {at_least}"
                );
                for (v, p) in full.range(..t) {
                    let q = cut.get(v).cloned().unwrap_or_else(BigRational::zero);
                    assert!(
                        q <= p + &slack && p <= &(&q + &slack),
                        "{text:?}: capped at {t}, P({v}) is {q}, not {p}"
                    );
                }
            }
        }
    }
    // Enumeration, with a dice limit small enough to end rerolls.
    let small = Limits {
        max_dice: 12,
        ..limits
    };
    let Ok(rolled) = Expression::parse_with(&text, &small) else {
        return;
    };
    let Some(all) = enumerate(&rolled, 4_000) else {
        return;
    };
    match &exact {
        Err(ExactError::MayFail { .. }) => assert!(
            all.failed || !all.unresolved.is_zero(),
            "{text:?}: exact odds say some rolls fail, but every sequence rolls"
        ),
        Err(_) => {}
        Ok(d) => {
            assert!(
                !all.failed,
                "{text:?}: a roll fails, but exact odds were given"
            );
            let exact = probabilities(d);
            if all.unresolved.is_zero() {
                assert_eq!(
                    exact, all.outcomes,
                    "{text:?}: exact odds against enumeration"
                );
                assert!(
                    d.tail().is_zero(),
                    "{text:?}: a tail where every roll finishes"
                );
            } else {
                for v in exact.keys().chain(all.outcomes.keys()) {
                    let pe = exact.get(v).cloned().unwrap_or_else(BigRational::zero);
                    let pn = all
                        .outcomes
                        .get(v)
                        .cloned()
                        .unwrap_or_else(BigRational::zero);
                    assert!(
                        pe >= pn && pe <= &pn + &all.unresolved,
                        "{text:?}: P({v}) is {pe} exactly, enumeration {pn} + {} unfinished",
                        all.unresolved
                    );
                }
            }
        }
    }
});
