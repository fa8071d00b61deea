//! The ledger: every change to a character, with its rule and its cost, in
//! the order made. Tools only ever append to it; the unspent CPs are always
//! its sum, so nothing is lost and every change can be audited.

use super::Age;
use serde::{Deserialize, Serialize};

/// What kind of change an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// A choice at generation (the starting CPs, a trait bought, a roll).
    Generation,
    /// CPs for an increment of age.
    Income,
    /// CPs for an adventure.
    Adventure,
    /// CPs spent in play.
    Spend,
    /// A roll for a checked trait after an adventure.
    Check,
    /// A primary trait reduced by age, or training ending.
    Ageing,
    /// A roll to act against a noticeable personality trait.
    Behaviour,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The character's age when it was made.
    pub age: Age,
    /// The kind of change.
    pub step: Step,
    /// What changed, in words ("strength 2 -> 3").
    pub change: String,
    /// CPs gained (positive) or spent (negative).
    #[serde(default)]
    pub cps: i64,
    /// The trait or thing changed (`secondary.sword`, `personality.valorous`,
    /// `primary.strength`), for the once-a-year limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The dice, if any were rolled ("1d8 = 5").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<String>,
    /// The rule it follows, cited by heading (the quotes are in `costs::rules`).
    pub rule: String,
}

impl Entry {
    /// An entry without a target or a roll.
    pub fn new(age: Age, step: Step, change: impl Into<String>, cps: i64, rule: &str) -> Entry {
        Entry {
            age,
            step,
            change: change.into(),
            cps,
            target: None,
            roll: None,
            rule: super::costs::cite(rule).to_string(),
        }
    }

    /// With the thing changed.
    pub fn target(mut self, target: impl Into<String>) -> Entry {
        self.target = Some(target.into());
        self
    }

    /// With the dice rolled.
    pub fn roll(mut self, roll: impl Into<String>) -> Entry {
        self.roll = Some(roll.into());
        self
    }
}

/// The CPs the ledger leaves unspent: the sum of its entries.
pub fn balance(ledger: &[Entry]) -> i64 {
    ledger.iter().map(|e| e.cps).sum()
}

/// Whether the ledger holds only the generation (a character not yet played).
pub fn fresh(ledger: &[Entry]) -> bool {
    ledger.iter().all(|e| e.step == Step::Generation)
}
