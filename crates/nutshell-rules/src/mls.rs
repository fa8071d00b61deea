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

    /// Rolls 3d6 and resolves the check.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
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
                "3d6 {natural} + skill {} {} {} = {total}: {}",
                self.skill,
                if self.modifier < 0 { "-" } else { "+" },
                self.modifier.abs(),
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
            experience: None,
        }
    }

    /// The exact probability of each outcome.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
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

/// Who wins an opposed roll given both naturals, with the adjusted outcomes
/// and the steps.
fn judge(contest: &Contest, a_nat: i64, o_nat: i64) -> (bool, Outcome, Outcome, Vec<Step>) {
    let a_total = contest.active.total(a_nat);
    let o_total = contest.opponent.total(o_nat);
    let mut a = outcome(a_nat, a_total);
    let mut o = outcome(o_nat, o_total);
    let mut steps = Vec::new();
    // Naturals decide unless both sides rolled the same one.
    if a_nat == 18 && o_nat != 18 {
        steps.push(Step::new(RULE_18, "the active side rolled a natural 18: a critical against a failure, whatever the opponent rolled"));
        return (true, Outcome::CriticalSuccess, o, steps);
    }
    if o_nat == 18 && a_nat != 18 {
        steps.push(Step::new(
            RULE_18,
            "the opponent rolled a natural 18: the active side's roll counts as a failure",
        ));
        return (false, a, Outcome::CriticalSuccess, steps);
    }
    if a_nat == 3 && o_nat != 3 {
        steps.push(Step::new(RULE_3, "the active side rolled a natural 3: a fumble against a success, whatever the opponent rolled"));
        return (false, Outcome::Fumble, o, steps);
    }
    if o_nat == 3 && a_nat != 3 {
        steps.push(Step::new(
            RULE_3,
            "the opponent rolled a natural 3: a fumble against a success; the active side wins",
        ));
        return (
            true,
            if a.succeeded() { a } else { Outcome::Success },
            Outcome::Fumble,
            steps,
        );
    }
    if (a_nat == 18 && o_nat == 18) || (a_nat == 3 && o_nat == 3) {
        steps.push(Step::new(
            RULE_OPPOSED,
            format!("both rolled a natural {a_nat}: the totals decide as normal"),
        ));
        a = tier(a_total);
        o = tier(o_total);
    }
    if a == Outcome::CriticalSuccess && o == Outcome::CriticalSuccess {
        if a_total > o_total {
            a = Outcome::Success;
            steps.push(Step::new(RULE_OPPOSED, "both are critical successes: the higher roll (the active side's) is reduced to a normal success"));
        } else {
            o = Outcome::Success;
            steps.push(Step::new(RULE_OPPOSED, "both are critical successes: the higher roll (the opponent's) is reduced to a normal success"));
        }
    }
    let wins = a.succeeded() && a_total > o_total;
    steps.push(Step::new(
        RULE_OPPOSED,
        if wins {
            format!("the active roll is a {} and {a_total} is higher than {o_total}: the action succeeds", a.id())
        } else if !a.succeeded() {
            format!("the active roll is a {}: the action fails", a.id())
        } else {
            format!("{a_total} is not higher than {o_total}: the action fails")
        },
    ));
    (wins, a, o, steps)
}

impl Contest {
    /// Rolls both sides (active first) and resolves.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
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
