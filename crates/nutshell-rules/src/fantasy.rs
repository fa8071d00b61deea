//! *Nutshell Fantasy* (000): d20 + modifiers against a Difficulty Class.
//!
//! Rule citations name the text's headings: "The Core Mechanic", "Take-10",
//! "Take-20", "Take-0", "Automatic Success or Failure", "Critical Success or
//! Failure", "Natural Even", "Degree of Success and Magnitude Rolls", "Nominal
//! Success and Imperfect Defences", "Modifiers, Step Changes, and Extra Dice",
//! "Rerolls"; and RULINGS F-1..F-11.

use crate::dice::Dice;
use crate::effect::{Pool, roll_effect};
use crate::error::RulesError;
use crate::odds::{self, OutcomeOdds};
use crate::outcome::{CheckResult, Outcome, Step};
use num_rational::BigRational;
use nutshell_dice::DiceSource;

/// The ruleset id.
pub const ID: &str = "fantasy";

/// The Difficulty Class descriptors (RULING F-1).
pub const DESCRIPTORS: [(&str, i64); 9] = [
    ("laughable", 0),
    ("trivial", 5),
    ("routine", 10),
    ("average", 15),
    ("difficult", 20),
    ("hard", 25),
    ("extreme", 30),
    ("godlike", 35),
    ("impossible", 40),
];

/// A DC from a number or a descriptor name (case-insensitive).
///
/// ```
/// assert_eq!(nutshell_rules::fantasy::dc("Hard"), Some(25));
/// assert_eq!(nutshell_rules::fantasy::dc("17"), Some(17));
/// ```
pub fn dc(text: &str) -> Option<i64> {
    let t = text.trim();
    t.parse().ok().or_else(|| {
        DESCRIPTORS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(t))
            .map(|(_, v)| *v)
    })
}

/// Taking a result instead of rolling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Take-0.
    Zero,
    /// Take-10.
    Ten,
    /// Take-20.
    Twenty,
}

impl Take {
    /// The die result taken.
    pub fn value(self) -> i64 {
        match self {
            Take::Zero => 0,
            Take::Ten => 10,
            Take::Twenty => 20,
        }
    }
}

/// Rerolls (fantasy, "Rerolls"; RULING F-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reroll {
    /// No reroll.
    #[default]
    None,
    /// The roller spends a reroll when the check fails, and keeps the new result.
    Own,
    /// Another forces a reroll: the die is rolled again and the new result stands.
    Forced,
    /// A forced reroll cancelled by spending one's own: both are spent, the first
    /// result stands.
    ForcedCancelled,
    /// Both a reroll and a forced reroll of the same roll: refused.
    OwnAndForced,
}

/// A magnitude check (or damage) that follows a success.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// The pool, such as `1d6+2` (by default a d6 plus the check's ability
    /// modifier: RULING F-6).
    pub pool: String,
    /// Step changes to its dice (RULING F-9).
    pub steps: i64,
    /// Extra dice of the largest type (RULING F-10).
    pub extra: u64,
    /// A nominal success: every die counts as 1 (RULING F-7).
    pub nominal: bool,
    /// The effect does "double damage" or similar: the whole pool and every
    /// modifier doubled ("Any effect that does \"double damage\" or similar also
    /// applies double the normal modifiers to the roll", *Modifiers, Step
    /// Changes, and Extra Dice*), after extra dice; a critical doubles it again
    /// (project ruling P-78).
    pub double: bool,
}

/// The tools for a magnitude check, which choose its die (fantasy, "Degree of
/// Success and Magnitude Rolls": "If you are forced to work with poor or
/// improvised tools, the magnitude check may be reduced to a d4 or d3, while
/// superior tools and training can increase the check to a d8 or even d12";
/// project ruling P-30 names the five).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tools {
    /// Poor, improvised tools: a d3.
    ImprovisedPoor,
    /// Improvised tools: a d4.
    Improvised,
    /// The standard tools for the job, in decent conditions: a d6 (the default).
    #[default]
    Standard,
    /// Superior tools: a d8.
    Superior,
    /// Superior tools and training: a d12.
    SuperiorTrained,
}

impl Tools {
    /// The magnitude die's sides.
    pub fn sides(self) -> u64 {
        match self {
            Tools::ImprovisedPoor => 3,
            Tools::Improvised => 4,
            Tools::Standard => 6,
            Tools::Superior => 8,
            Tools::SuperiorTrained => 12,
        }
    }
}

impl Effect {
    /// The default magnitude check (RULING F-6): one die chosen by the tools
    /// plus the check's ability `modifier`, with no step changes or extra dice.
    ///
    /// ```
    /// use nutshell_rules::fantasy::{Effect, Tools};
    /// assert_eq!(Effect::magnitude(Tools::Standard, 3).pool, "1d6+3");
    /// assert_eq!(Effect::magnitude(Tools::Improvised, -1).pool, "1d4-1");
    /// ```
    pub fn magnitude(tools: Tools, modifier: i64) -> Effect {
        Effect {
            pool: format!("1d{}{modifier:+}", tools.sides()),
            steps: 0,
            extra: 0,
            nominal: false,
            double: false,
        }
    }
}

/// One fantasy check.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// All modifiers, summed.
    pub modifier: i64,
    /// The Difficulty Class.
    pub dc: i64,
    /// The check allows critical success.
    pub crit_success: bool,
    /// The check allows critical failure.
    pub crit_failure: bool,
    /// Only a natural even result passes.
    pub natural_even: bool,
    /// Take a result instead of rolling.
    pub take: Option<Take>,
    /// A stressful situation (no take-10 or take-20).
    pub stressful: bool,
    /// No retry is allowed (no take-20).
    pub no_retry: bool,
    /// Rerolls.
    pub reroll: Reroll,
    /// The effect of a success.
    pub effect: Option<Effect>,
}

const RULE_CORE: &str = "fantasy, The Core Mechanic (RULING F-1)";
const RULE_AUTO: &str = "fantasy, Automatic Success or Failure (RULING F-2)";
const RULE_CRIT: &str = "fantasy, Critical Success or Failure (RULING F-3)";
const RULE_EVEN: &str = "fantasy, Natural Even (RULING F-5)";
const RULE_TAKE: &str = "RULING F-4";
const RULE_REROLL: &str = "fantasy, Rerolls (RULING F-11)";

/// The success of one d20 result before confirmation, with the steps.
struct Resolution {
    success: bool,
    threat: Option<Outcome>,
    steps: Vec<Step>,
}

impl Check {
    /// Refuses what the rules forbid before any die is rolled.
    pub fn validate(&self) -> Result<(), RulesError> {
        match self.take {
            Some(Take::Ten) if self.stressful => {
                return Err(RulesError::forbidden(
                    "take-10 is not allowed in a stressful situation",
                    "fantasy, Take-10",
                    "In stressful situations, such as combat, you will generally not be able to take-10.",
                ));
            }
            Some(Take::Twenty) if self.stressful => {
                return Err(RulesError::forbidden(
                    "take-20 is not allowed in a stressful situation",
                    "fantasy, Take-20",
                    "you can only take-20 in those situations where a retry would normally be permitted, and cannot take-20 in stressful situations.",
                ));
            }
            Some(Take::Twenty) if self.no_retry => {
                return Err(RulesError::forbidden(
                    "take-20 is not allowed where no retry is permitted",
                    "fantasy, Take-20",
                    "you can only take-20 in those situations where a retry would normally be permitted",
                ));
            }
            Some(_) if self.reroll != Reroll::None => {
                return Err(RulesError::forbidden(
                    "a taken result cannot be rerolled",
                    "fantasy, Rerolls",
                    "Note that you can only reroll, or force a reroll, when dice are actually rolled! If you take-10, for example, you cannot then reroll.",
                ));
            }
            _ => {}
        }
        for (value, what) in [(self.modifier, "the modifier"), (self.dc, "the DC")] {
            // Within a quarter of the 64-bit range, no total, margin or
            // extreme-case test (modifier + 25, modifier - 5) can overflow.
            if value.unsigned_abs() > (i64::MAX / 4) as u64 {
                return Err(crate::error::overflow(what));
            }
        }
        if let Some(effect) = &self.effect
            && Pool::parse(&effect.pool)?
                .dice
                .iter()
                .any(|&(_, sides)| sides == 20)
        {
            return Err(RulesError::forbidden(
                format!("the magnitude pool `{}` holds a d20", effect.pool),
                "fantasy, Modifiers, Step Changes, and Extra Dice",
                "The d20 is never affected by extra dice. That is, the d20 will never be added to another dice pool, and neither will you add another die to a d20 roll.",
            ));
        }
        if self.reroll == Reroll::OwnAndForced {
            return Err(RulesError::forbidden(
                "the same roll cannot be rerolled twice (spend the reroll to cancel the forced one instead)",
                "fantasy, Rerolls",
                "No roll can be rerolled more than once.",
            ));
        }
        Ok(())
    }

    /// Success of a natural `n`, with automatic results and threats.
    fn resolve(&self, n: i64) -> Resolution {
        let total = n + self.modifier;
        let mut steps = vec![Step::new(
            RULE_CORE,
            format!(
                "natural {n}{} = {total} against DC {}",
                crate::outcome::added(self.modifier),
                self.dc
            ),
        )];
        let mut success = total >= self.dc;
        steps.push(Step::new(
            RULE_CORE,
            if success {
                format!("{total} >= {}: success", self.dc)
            } else {
                format!("{total} < {}: failure", self.dc)
            },
        ));
        if self.natural_even && n % 2 != 0 && success {
            success = false;
            steps.push(Step::new(
                RULE_EVEN,
                format!("natural {n} is odd: a natural-even check fails"),
            ));
        }
        if n == 20 {
            if self.modifier + 25 < self.dc {
                steps.push(Step::new(
                    RULE_AUTO,
                    "natural 20, but even a roll of 25 would not be enough: no automatic success",
                ));
            } else if !success {
                success = true;
                steps.push(Step::new(RULE_AUTO, "natural 20: automatic success"));
            } else {
                steps.push(Step::new(RULE_AUTO, "natural 20: automatic success"));
            }
        } else if n == 1 {
            if self.modifier - 5 >= self.dc {
                steps.push(Step::new(
                    RULE_AUTO,
                    "natural 1, but even a roll of -5 would be enough: no automatic failure",
                ));
            } else {
                success = false;
                steps.push(Step::new(RULE_AUTO, "natural 1: automatic failure"));
            }
        }
        let threat = if n == 20 && success && self.crit_success {
            steps.push(Step::new(
                RULE_CRIT,
                "natural 20 on a check that allows critical success: a threat, roll to confirm",
            ));
            Some(Outcome::CriticalSuccess)
        } else if n == 1 && !success && self.crit_failure {
            steps.push(Step::new(
                RULE_CRIT,
                "natural 1 on a check that allows critical failure: a threat, roll to confirm",
            ));
            Some(Outcome::CriticalFailure)
        } else {
            None
        };
        Resolution {
            success,
            threat,
            steps,
        }
    }

    /// Whether a confirmation roll of natural `c` succeeds: the same roll
    /// again, with no automatic or critical rules (RULING F-3; a natural-even
    /// check needs an even die here too).
    fn confirms(&self, c: i64) -> bool {
        c + self.modifier >= self.dc && (!self.natural_even || c % 2 == 0)
    }

    /// Resolves the check with dice from `source`.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        self.validate()?;
        let mut dice = Dice::new(source);
        let mut transcript = Vec::new();
        if let Some(take) = self.take {
            let v = take.value();
            let total = v + self.modifier;
            let mut success = total >= self.dc;
            transcript.push(Step::new(
                RULE_TAKE,
                format!(
                    "take-{v}: the die counts as {v}, not a natural result; {total} against DC {}",
                    self.dc
                ),
            ));
            if take == Take::Twenty {
                transcript.push(Step::new(
                    "fantasy, Take-20",
                    "taking 20 costs 20 times the normal time and 20 times the normal resources, and any negative consequences of failure are suffered automatically (where they make taking 20 impossible, roll instead)",
                ));
            }
            if self.natural_even {
                success = false;
                transcript.push(Step::new(
                    RULE_TAKE,
                    "a natural-even check cannot be passed by taking a result",
                ));
            }
            let outcome = if success {
                Outcome::Success
            } else {
                Outcome::Failure
            };
            transcript.push(Step::new(
                RULE_CORE,
                (if success { "success" } else { "failure" }).to_string(),
            ));
            let effect = self.effect_roll(&mut dice, outcome, &mut transcript)?;
            return Ok(CheckResult {
                ruleset: ID,
                outcome,
                total: Some(total),
                natural: None,
                difficulty: Some(self.dc),
                margin: None,
                dice: dice.rolled,
                transcript,
                effect,
                experience: Vec::new(),
            });
        }
        if self.dc <= 10 && !self.stressful {
            transcript.push(Step::new(
                "fantasy, When Not To Roll (P-32)",
                format!("DC {} is 10 or less: typically no roll is needed (the GM may still ask for one)", self.dc),
            ));
        }
        let mut n = dice.roll(20, "for the check")?;
        let mut resolution = self.resolve(n);
        match self.reroll {
            Reroll::Own if !resolution.success => {
                transcript.append(&mut resolution.steps);
                transcript.push(Step::new(
                    RULE_REROLL,
                    "the check failed: the roller spends a reroll and must keep the new result",
                ));
                n = dice.roll(20, "rerolled")?;
                resolution = self.resolve(n);
            }
            Reroll::Own => {
                transcript.push(Step::new(
                    RULE_REROLL,
                    "the check succeeded: the reroll is not spent",
                ));
            }
            // As `Reroll::Own`'s failure, in the forced reroll's words.
            Reroll::Forced => {
                transcript.append(&mut resolution.steps);
                transcript.push(Step::new(
                    RULE_REROLL,
                    "a forced reroll: the new result stands",
                ));
                n = dice.roll(20, "rerolled (forced)")?;
                resolution = self.resolve(n);
            }
            Reroll::ForcedCancelled => {
                transcript.push(Step::new(
                    RULE_REROLL,
                    "a forced reroll, cancelled by spending the roller's own reroll: both are spent and the first result stands",
                ));
            }
            Reroll::None | Reroll::OwnAndForced => {}
        }
        transcript.append(&mut resolution.steps);
        let mut outcome = if resolution.success {
            Outcome::Success
        } else {
            Outcome::Failure
        };
        if let Some(threat) = resolution.threat {
            let c = dice.roll(20, "to confirm")?;
            let confirmed = self.confirms(c);
            let total = c + self.modifier;
            let why = if confirmed {
                "success".to_string()
            } else if total < self.dc {
                format!("failure ({total} < {})", self.dc)
            } else {
                "failure: the die is odd, and the confirmation of a natural-even check needs an even die too (P-1)".to_string()
            };
            transcript.push(Step::new(
                RULE_CRIT,
                format!(
                    "confirmation: natural {c}{} = {total} against DC {}: {why}",
                    crate::outcome::added(self.modifier),
                    self.dc,
                ),
            ));
            match (threat, confirmed) {
                (Outcome::CriticalSuccess, true) => {
                    outcome = Outcome::CriticalSuccess;
                    transcript.push(Step::new(RULE_CRIT, "confirmed: critical success"));
                }
                (Outcome::CriticalSuccess, false) => {
                    transcript.push(Step::new(RULE_CRIT, "not confirmed: a normal success"));
                }
                (_, false) => {
                    outcome = Outcome::CriticalFailure;
                    transcript.push(Step::new(RULE_CRIT, "confirmed: critical failure"));
                    transcript.push(Step::new(
                        "fantasy, Critical Success or Failure (P-33)",
                        "a critical failure has double the effect of a normal failure (the GM narrates it)",
                    ));
                }
                (_, true) => {
                    transcript.push(Step::new(
                        RULE_CRIT,
                        "not confirmed: disaster averted, a normal failure",
                    ));
                }
            }
        }
        let effect = self.effect_roll(&mut dice, outcome, &mut transcript)?;
        Ok(CheckResult {
            ruleset: ID,
            outcome,
            total: Some(n + self.modifier),
            natural: Some(n),
            difficulty: Some(self.dc),
            margin: None,
            dice: dice.rolled,
            transcript,
            effect,
            experience: Vec::new(),
        })
    }

    /// The effect expression for an outcome, if any.
    pub fn effect_expression(&self, outcome: Outcome) -> Result<Option<String>, RulesError> {
        let Some(effect) = &self.effect else {
            return Ok(None);
        };
        if !outcome.succeeded() {
            return Ok(None);
        }
        let mut pool = Pool::parse(&effect.pool)?;
        pool.step(effect.steps)?;
        pool.add_extra(effect.extra)?;
        if effect.double {
            pool.double()?;
        }
        if outcome == Outcome::CriticalSuccess {
            pool.double()?;
        }
        let text = pool.notation();
        Ok(Some(if effect.nominal {
            format!("nominal({text})")
        } else {
            text
        }))
    }

    fn effect_roll(
        &self,
        dice: &mut Dice<'_>,
        outcome: Outcome,
        transcript: &mut Vec<Step>,
    ) -> Result<Option<crate::outcome::EffectRoll>, RulesError> {
        let Some(expression) = self.effect_expression(outcome)? else {
            return Ok(None);
        };
        let effect = self.effect.as_ref().expect("an effect");
        let mut pool = Pool::parse(&effect.pool)?;
        for note in pool.step(effect.steps)? {
            transcript.push(Step::new(
                "fantasy, Modifiers, Step Changes, and Extra Dice (RULING F-9)",
                note,
            ));
        }
        if effect.extra > 0 {
            transcript.push(Step::new(
                "fantasy, Modifiers, Step Changes, and Extra Dice (RULING F-10)",
                format!(
                    "{} extra dice of the largest type in the pool",
                    effect.extra
                ),
            ));
        }
        if effect.double {
            transcript.push(Step::new(
                "fantasy, Modifiers, Step Changes, and Extra Dice (P-78)",
                "double damage: the whole pool and every modifier doubled",
            ));
        }
        if outcome == Outcome::CriticalSuccess {
            transcript.push(Step::new(
                "fantasy, Critical Success or Failure (RULING F-8)",
                "critical success: extra dice first, then the whole pool and every modifier doubled",
            ));
        }
        if effect.nominal {
            transcript.push(Step::new(
                "fantasy, Nominal Success and Imperfect Defences (RULING F-7)",
                "nominal success: every die of the magnitude check counts as 1",
            ));
        }
        let roll = roll_effect(dice, &expression)?;
        transcript.push(Step::new(
            "fantasy, Degree of Success and Magnitude Rolls",
            format!("magnitude: {}", roll.text),
        ));
        Ok(Some(roll))
    }

    /// The exact probability of each outcome (and, with an effect, its
    /// distribution on each successful outcome). A reroll is spent when the
    /// check fails, as [`Check::roll`] does.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        self.validate()?;
        let order = [
            Outcome::CriticalFailure,
            Outcome::Failure,
            Outcome::Success,
            Outcome::CriticalSuccess,
        ];
        let mut events: Vec<(Outcome, BigRational)> = Vec::new();
        if let Some(take) = self.take {
            let success = take.value() + self.modifier >= self.dc && !self.natural_even;
            events.push((
                if success {
                    Outcome::Success
                } else {
                    Outcome::Failure
                },
                odds::ratio(1, 1),
            ));
        } else {
            let d20 = odds::die(20)?;
            let confirm: BigRational = d20
                .iter()
                .filter(|(c, _)| self.confirms(*c))
                .map(|(_, p)| p.clone())
                .sum();
            let deny = odds::ratio(1, 1) - &confirm;
            // The outcome of one d20 result n, as probabilities.
            let final_of = |n: i64| -> Vec<(Outcome, BigRational)> {
                let r = self.resolve(n);
                match r.threat {
                    Some(Outcome::CriticalSuccess) => {
                        vec![
                            (Outcome::CriticalSuccess, confirm.clone()),
                            (Outcome::Success, deny.clone()),
                        ]
                    }
                    Some(_) => vec![
                        (Outcome::CriticalFailure, deny.clone()),
                        (Outcome::Failure, confirm.clone()),
                    ],
                    None => vec![(
                        if r.success {
                            Outcome::Success
                        } else {
                            Outcome::Failure
                        },
                        odds::ratio(1, 1),
                    )],
                }
            };
            for (n, p) in &d20 {
                let first_fails = !self.resolve(*n).success;
                if self.reroll == Reroll::Own && first_fails {
                    for (m, q) in &d20 {
                        for (o, r) in final_of(*m) {
                            events.push((o, p * q * r));
                        }
                    }
                } else {
                    for (o, r) in final_of(*n) {
                        events.push((o, p * r));
                    }
                }
            }
        }
        let mut result = OutcomeOdds::new(ID, odds::tally(&order, events));
        result.add_effects(|o| self.effect_expression(o))?;
        Ok(result)
    }
}
