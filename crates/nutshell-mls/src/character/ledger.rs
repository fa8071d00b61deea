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
    #[serde(default, deserialize_with = "crate::bounds::points")]
    pub cps: i64,
    /// The trait or thing changed (`secondary.sword`, `personality.valorous`,
    /// `primary.strength`), for the once-a-year limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The target's value before the change (a level relative to base, a
    /// trait's value, florins); left out when the target was not had before
    /// (a secondary trait acquired, anything set at generation).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::bounds::points_option"
    )]
    pub from: Option<i64>,
    /// The target's value after the change; left out when the target is gone
    /// after it (a negative trait removed from base). `check` replays these.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::bounds::points_option"
    )]
    pub to: Option<i64>,
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
            from: None,
            to: None,
            roll: None,
            rule: super::costs::cite(rule).to_string(),
        }
    }

    /// With the thing changed.
    pub fn target(mut self, target: impl Into<String>) -> Entry {
        self.target = Some(target.into());
        self
    }

    /// With the value before the change.
    pub fn from(mut self, from: Option<i64>) -> Entry {
        self.from = from;
        self
    }

    /// With the value after the change.
    pub fn to(mut self, to: Option<i64>) -> Entry {
        self.to = to;
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

/// The thing an entry's target names, the same however it is written:
/// `traits.strength` and `primary.strength` are one trait, `Valorous` and
/// `valorous` one, the occupation one package skill
/// (`character.occupation` at generation, `secondary.NAME` in play).
pub fn key(target: &str, occupation: &str) -> String {
    let t = target.strip_prefix("character.").unwrap_or(target);
    if t == "occupation" || t.strip_prefix("secondary.") == Some(occupation) {
        return "occupation".into();
    }
    if let Some(p) = t.strip_prefix("traits.") {
        return format!("primary.{p}");
    }
    if let Some(p) = t.strip_prefix("personality.")
        && let Some(id) = super::personality::TraitId::parse(p)
    {
        return format!("personality.{}", id.name());
    }
    t.to_string()
}

/// Whether the ledger already changed `target` at `age` by CPs: a spend, or
/// a purchase at generation (which is that increment's change).
pub fn changed_at(ledger: &[Entry], age: Age, target: &str, occupation: &str) -> Option<Step> {
    let k = key(target, occupation);
    ledger
        .iter()
        .filter(|e| e.age == age && matches!(e.step, Step::Spend | Step::Generation))
        .find(|e| e.target.as_deref().map(|t| key(t, occupation)) == Some(k.clone()))
        .map(|e| e.step)
}
