//! *The Nutshell MLS* (001), checks and opposed rolls: 3d6 + trait or skill +
//! modifiers. Combat lives in the MLS tactical layer.
//!
//! Citations: "Use of Skills", "Opposed Rolls", "Natural 18s", "Natural 3s";
//! RULINGS M-1..M-3.

use crate::dice::Dice;
use crate::error::RulesError;
use crate::odds::{self, OutcomeOdds};
use crate::outcome::{CheckResult, ContestResult, Outcome, Step};
use num_rational::BigRational;
use nutshell_dice::DiceSource;
use std::cmp::Ordering;

/// The ruleset id.
pub const ID: &str = "mls";

const RULE_SKILL: &str = "mls, Use of Skills (RULING M-1)";
const RULE_18: &str = "mls, Natural 18s (RULING M-2)";
const RULE_3: &str = "mls, Natural 3s (RULING M-2)";
const RULE_OPPOSED: &str = "mls, Opposed Rolls (RULING M-3)";

/// One MLS check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Check {
    /// The trait or skill.
    pub skill: i64,
    /// Modifiers for difficulty, summed.
    pub modifier: i64,
}

/// The outcome of a total by itself (RULING M-1): 20+ critical success, 15-19
/// success, 10-14 failure, 9 or less fumble.
pub fn tier(total: i64) -> Outcome {
    match total {
        t if t >= 20 => Outcome::CriticalSuccess,
        t if t >= 15 => Outcome::Success,
        t if t >= 10 => Outcome::Failure,
        _ => Outcome::Fumble,
    }
}

/// The outcome of a natural 3d6 result and its total (RULINGS M-1, M-2).
pub fn outcome(natural: i64, total: i64) -> Outcome {
    match natural {
        18 => Outcome::CriticalSuccess,
        3 => Outcome::Fumble,
        _ => tier(total),
    }
}

impl Check {
    /// The total for a natural 3d6 result.
    pub fn total(&self, natural: i64) -> i64 {
        natural + self.skill + self.modifier
    }

    /// Refuses a skill or modifier so large that a total would overflow
    /// (RULING N-1): each must stay within a quarter of the 64-bit range.
    pub fn validate(&self) -> Result<(), RulesError> {
        for (value, what) in [(self.skill, "the skill"), (self.modifier, "the modifier")] {
            if value.unsigned_abs() > (i64::MAX / 4) as u64 {
                return Err(crate::error::overflow(what));
            }
        }
        Ok(())
    }

    /// Rolls 3d6 and resolves the check.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        self.validate()?;
        let mut dice = Dice::new(source);
        let result = self.roll_with(&mut dice)?;
        Ok(CheckResult {
            dice: dice.rolled,
            ..result
        })
    }

    fn roll_with(&self, dice: &mut Dice<'_>) -> Result<CheckResult, RulesError> {
        let faces = [
            dice.roll(6, "for the check")?,
            dice.roll(6, "for the check")?,
            dice.roll(6, "for the check")?,
        ];
        let natural: i64 = faces.iter().sum();
        Ok(self.resolve(natural))
    }

    /// The check for a natural 3d6 result, explained.
    pub fn resolve(&self, natural: i64) -> CheckResult {
        let total = self.total(natural);
        let base = tier(total);
        let mut transcript = vec![Step::new(
            RULE_SKILL,
            format!(
                "3d6 {natural} + skill {}{} = {total}: {}",
                self.skill,
                crate::outcome::added(self.modifier),
                base.id()
            ),
        )];
        let outcome = outcome(natural, total);
        if natural == 18 {
            transcript.push(Step::new(
                RULE_18,
                "natural 18 (three 6s): a critical success whatever the total",
            ));
        } else if natural == 3 {
            transcript.push(Step::new(
                RULE_3,
                "natural 3 (three 1s): a fumble whatever the total",
            ));
        }
        CheckResult {
            ruleset: ID,
            outcome,
            total: Some(total),
            natural: Some(natural),
            difficulty: Some(15),
            margin: None,
            dice: Vec::new(),
            transcript,
            effect: None,
            experience: Vec::new(),
        }
    }

    /// The exact probability of each outcome.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        self.validate()?;
        let order = [
            Outcome::Fumble,
            Outcome::Failure,
            Outcome::Success,
            Outcome::CriticalSuccess,
        ];
        let naturals = odds::faces_of("3d6")?;
        let events = naturals
            .into_iter()
            .map(|(n, p)| (outcome(n, self.total(n)), p));
        Ok(OutcomeOdds::new(ID, odds::tally(&order, events)))
    }
}

/// An opposed roll: the active side against the opponent (RULING M-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Contest {
    /// The active side.
    pub active: Check,
    /// The opponent.
    pub opponent: Check,
}

/// One side of an opposed roll: its natural 3d6 result and its total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    /// The natural 3d6 result (3..=18).
    pub natural: i64,
    /// The total: natural + skill + modifiers.
    pub total: i64,
}

/// What decided an opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// The active side rolled a natural 18 and the opponent did not.
    ActiveNatural18,
    /// The opponent rolled a natural 18 and the active side did not.
    OpponentNatural18,
    /// The active side rolled a natural 3 and the opponent did not.
    ActiveNatural3,
    /// The opponent rolled a natural 3 and the active side did not.
    OpponentNatural3,
    /// The totals decided (both naturals equal at 18 or 3 count as totals too).
    Totals {
        /// Both rolled the same natural 18 or 3, so the totals decide.
        both_natural: Option<i64>,
        /// Both were critical successes: `Some(true)` when the active side's
        /// (higher) roll was reduced to a normal success, `Some(false)` the
        /// opponent's; `None` too when their totals were equal (no higher roll).
        reduced_active: Option<bool>,
    },
}

/// The result of an opposed roll, without words: who won, each side's
/// outcome as adjusted by the other, and what decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opposed {
    /// The active side succeeds: its roll is a success and beats the opponent.
    pub wins: bool,
    /// The active side's outcome, as adjusted.
    pub active: Outcome,
    /// The opponent's outcome, as adjusted.
    pub opponent: Outcome,
    /// What decided it.
    pub decider: Decider,
}

/// Resolves an opposed roll (RULINGS M-2, M-3): the active side wins iff its
/// roll is a success and higher than the opponent's; a natural 18 beats
/// anything but another natural 18, a natural 3 loses to anything but another
/// natural 3; when both are critical successes the higher is reduced to a
/// normal success. The outcomes are as adjusted: the other side of a natural
/// 18 counts as a failure, of a natural 3 as a success. It allocates nothing, so combat calls it in its hot loop.
///
/// ```
/// use nutshell_rules::mls::{opposed, Rolled};
/// use nutshell_rules::Outcome;
/// // 21 against 20: both critical, the higher is reduced to a success, and wins.
/// let r = opposed(Rolled { natural: 12, total: 21 }, Rolled { natural: 11, total: 20 });
/// assert!(r.wins);
/// assert_eq!(r.active, Outcome::Success);
/// assert_eq!(r.opponent, Outcome::CriticalSuccess);
/// ```
pub fn opposed(active: Rolled, opponent: Rolled) -> Opposed {
    let (a_nat, o_nat) = (active.natural, opponent.natural);
    let a = outcome(a_nat, active.total);
    let o = outcome(o_nat, opponent.total);
    // Naturals decide unless both sides rolled the same one.
    if a_nat == 18 && o_nat != 18 {
        return Opposed {
            wins: true,
            active: Outcome::CriticalSuccess,
            opponent: counted_as_failure(o),
            decider: Decider::ActiveNatural18,
        };
    }
    if o_nat == 18 && a_nat != 18 {
        return Opposed {
            wins: false,
            active: counted_as_failure(a),
            opponent: Outcome::CriticalSuccess,
            decider: Decider::OpponentNatural18,
        };
    }
    if a_nat == 3 && o_nat != 3 {
        return Opposed {
            wins: false,
            active: Outcome::Fumble,
            opponent: counted_as_success(o),
            decider: Decider::ActiveNatural3,
        };
    }
    if o_nat == 3 && a_nat != 3 {
        return Opposed {
            wins: true,
            active: counted_as_success(a),
            opponent: Outcome::Fumble,
            decider: Decider::OpponentNatural3,
        };
    }
    let both_natural = (a_nat == o_nat && (a_nat == 18 || a_nat == 3)).then_some(a_nat);
    let (mut a, mut o) = if both_natural.is_some() {
        (tier(active.total), tier(opponent.total))
    } else {
        (a, o)
    };
    let mut reduced_active = None;
    if a == Outcome::CriticalSuccess && o == Outcome::CriticalSuccess {
        // Equal totals have no higher roll to reduce: both stay critical,
        // and the active side, not higher, fails (docs/rulings.md).
        match active.total.cmp(&opponent.total) {
            Ordering::Greater => {
                a = Outcome::Success;
                reduced_active = Some(true);
            }
            Ordering::Less => {
                o = Outcome::Success;
                reduced_active = Some(false);
            }
            Ordering::Equal => {}
        }
    }
    Opposed {
        wins: a.succeeded() && active.total > opponent.total,
        active: a,
        opponent: o,
        decider: Decider::Totals {
            both_natural,
            reduced_active,
        },
    }
}

/// The other side of a natural 18: "treated as a Critical against a Failure
/// even if the other character rolled a success or a critical" (mls, Natural
/// 18s). A fumble stays a fumble ("If the enemy rolled a Fumble this still
/// applies").
fn counted_as_failure(other: Outcome) -> Outcome {
    if other.succeeded() {
        Outcome::Failure
    } else {
        other
    }
}

/// The other side of a natural 3: "treated as a Fumble against a Success even
/// if the other character rolled a failure or a fumble" (mls, Natural 3s). A
/// critical stays a critical ("If the enemy rolled a Critical this still
/// applies").
fn counted_as_success(other: Outcome) -> Outcome {
    if other.succeeded() {
        other
    } else {
        Outcome::Success
    }
}

/// Who wins an opposed roll given both naturals, with the adjusted outcomes
/// and the steps.
fn judge(contest: &Contest, a_nat: i64, o_nat: i64) -> (bool, Outcome, Outcome, Vec<Step>) {
    let a_total = contest.active.total(a_nat);
    let o_total = contest.opponent.total(o_nat);
    let r = opposed(
        Rolled {
            natural: a_nat,
            total: a_total,
        },
        Rolled {
            natural: o_nat,
            total: o_total,
        },
    );
    let mut steps = Vec::new();
    match r.decider {
        Decider::ActiveNatural18 => steps.push(Step::new(RULE_18, "the active side rolled a natural 18: a critical against a failure, whatever the opponent rolled")),
        Decider::OpponentNatural18 => steps.push(Step::new(
            RULE_18,
            "the opponent rolled a natural 18: the active side's roll counts as a failure",
        )),
        Decider::ActiveNatural3 => steps.push(Step::new(RULE_3, "the active side rolled a natural 3: a fumble against a success, whatever the opponent rolled")),
        Decider::OpponentNatural3 => steps.push(Step::new(
            RULE_3,
            "the opponent rolled a natural 3: a fumble against a success; the active side wins",
        )),
        Decider::Totals {
            both_natural,
            reduced_active,
        } => {
            if let Some(n) = both_natural {
                steps.push(Step::new(
                    RULE_OPPOSED,
                    format!("both rolled a natural {n}: the totals decide as normal"),
                ));
            }
            match reduced_active {
                Some(true) => steps.push(Step::new(RULE_OPPOSED, "both are critical successes: the higher roll (the active side's) is reduced to a normal success")),
                Some(false) => steps.push(Step::new(RULE_OPPOSED, "both are critical successes: the higher roll (the opponent's) is reduced to a normal success")),
                None if r.active == Outcome::CriticalSuccess && r.opponent == Outcome::CriticalSuccess => steps.push(Step::new(RULE_OPPOSED, "both are critical successes with equal totals: neither roll is higher, so neither is reduced")),
                None => {}
            }
            let a = r.active;
            steps.push(Step::new(
                RULE_OPPOSED,
                if r.wins {
                    format!("the active roll is a {} and {a_total} is higher than {o_total}: the action succeeds", a.id())
                } else if !a.succeeded() {
                    format!("the active roll is a {}: the action fails", a.id())
                } else {
                    format!("{a_total} is not higher than {o_total}: the action fails")
                },
            ));
        }
    }
    (r.wins, r.active, r.opponent, steps)
}

impl Contest {
    /// Rolls both sides (active first) and resolves.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
        self.active.validate()?;
        self.opponent.validate()?;
        let mut dice = Dice::new(source);
        let mut active = self.active.roll_with(&mut dice)?;
        let active_dice: Vec<_> = dice.rolled.drain(..).collect();
        let mut opponent = self.opponent.roll_with(&mut dice)?;
        active.dice = active_dice;
        opponent.dice = dice.rolled;
        let (wins, a, o, transcript) = judge(
            self,
            active.natural.unwrap_or(0),
            opponent.natural.unwrap_or(0),
        );
        active.outcome = a;
        opponent.outcome = o;
        Ok(ContestResult {
            ruleset: ID,
            winner: if wins { "first" } else { "none" },
            sides: vec![active, opponent],
            transcript,
        })
    }

    /// The exact probability that the active side succeeds.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        self.active.validate()?;
        self.opponent.validate()?;
        let naturals = odds::faces_of("3d6")?;
        let mut success = BigRational::from_integer(0.into());
        for (a, p) in &naturals {
            for (o, q) in &naturals {
                if judge(self, *a, *o).0 {
                    success += p * q;
                }
            }
        }
        let fail = odds::ratio(1, 1) - &success;
        Ok(OutcomeOdds::named(
            ID,
            vec![("none".to_string(), fail), ("first".to_string(), success)],
        ))
    }
}
