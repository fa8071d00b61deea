//! Brute force: every sequence of faces, rolled through the sampler.
//!
//! [`Odometer`] is a dice source that hands out faces like an odometer: the
//! first roll gets the lowest face of every die it asks for; each later roll
//! turns the last die that has a face left and starts the dice after it
//! again. A roll that stops early (an error, the dice limit) simply asks for
//! fewer faces, so the sequences visited are exactly the rolls that can
//! happen, each with its probability (one over the product of its dice's
//! face counts). Nothing here knows how the exact engine computes: it only
//! rolls.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use nutshell_dice::{DiceSource, Expression, Faces, RollError};
use std::collections::{BTreeMap, HashMap};

/// What every face sequence of an expression gives.
#[derive(Debug, Clone)]
pub struct Enumeration {
    /// The probability of each total, over the rolls that ended normally.
    pub outcomes: BTreeMap<i64, BigRational>,
    /// The probability of rolls the sampler left unfinished: a die at the
    /// explosion (or reroll) limit, or a roll past `max_dice`. Their totals
    /// are unknown: the exact engine may follow them further.
    pub unresolved: BigRational,
    /// The probability of rolls that fail for good (division by zero, a
    /// negative dice count, an overflow, ...), and the first such error.
    pub failed: BigRational,
    /// The first failing roll's error, for messages.
    pub first_failure: Option<RollError>,
    /// How many face sequences were rolled.
    pub sequences: usize,
}

/// A source that walks every sequence of faces. (fuzz/'s `exact_odds`
/// has its own: a fuzz target builds without the tests.)
struct Odometer {
    /// For each face drawn in the current roll: (index of the face, faces on the die).
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

impl Odometer {
    /// The product of the face counts of the dice drawn, if it fits.
    fn denominator(&self) -> Option<u128> {
        self.path[..self.pos]
            .iter()
            .try_fold(1u128, |acc, &(_, n)| acc.checked_mul(u128::from(n)))
    }

    /// Moves to the next sequence; false when all were visited.
    fn advance(&mut self) -> bool {
        self.path.truncate(self.pos);
        while let Some(last) = self.path.last_mut() {
            if last.0 + 1 < last.1 {
                last.0 += 1;
                self.pos = 0;
                return true;
            }
            self.path.pop();
        }
        false
    }
}

/// Where a rolled sequence's probability goes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Bin {
    Total(i64),
    Unresolved,
    Failed,
}

/// Rolls every face sequence of `expr`, or `None` when there are more than
/// `most` of them (or one has a probability too small for 128 bits).
pub fn enumerate(expr: &Expression, most: usize) -> Option<Enumeration> {
    let mut source = Odometer {
        path: Vec::new(),
        pos: 0,
    };
    // Sequences of one length over the same dice share a denominator: count
    // them per (bin, denominator) and make fractions once at the end.
    let mut counts: HashMap<(Bin, u128), u64> = HashMap::new();
    let mut first_failure = None;
    let mut sequences = 0;
    let mut roller = expr.roller();
    loop {
        let bin = match roller.roll(&mut source) {
            Ok(_) if roller.transcript().dice.iter().any(|d| d.limit_reached) => Bin::Unresolved,
            Ok(total) => Bin::Total(total),
            Err(RollError::TooManyDice { .. }) => Bin::Unresolved,
            Err(e) => {
                first_failure.get_or_insert(e);
                Bin::Failed
            }
        };
        *counts.entry((bin, source.denominator()?)).or_default() += 1;
        sequences += 1;
        if sequences > most {
            return None;
        }
        if !source.advance() {
            break;
        }
    }
    let mut outcomes: BTreeMap<i64, BigRational> = BTreeMap::new();
    let mut unresolved = BigRational::zero();
    let mut failed = BigRational::zero();
    for ((bin, denominator), n) in counts {
        let p = BigRational::new(BigInt::from(n), BigInt::from(denominator));
        match bin {
            Bin::Total(v) => *outcomes.entry(v).or_insert_with(BigRational::zero) += p,
            Bin::Unresolved => unresolved += p,
            Bin::Failed => failed += p,
        }
    }
    Some(Enumeration {
        outcomes,
        unresolved,
        failed,
        first_failure,
        sequences,
    })
}
