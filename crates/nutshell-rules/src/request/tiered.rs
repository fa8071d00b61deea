//! `tiered-d20` checks and turns as data.

use super::Numbers;
use crate::error::RulesError;
use crate::tiered_d20::{self, Check, Turn};
use serde::{Deserialize, Serialize};

/// `tiered-d20`: d20 + skill against a DC, four tiers. With `then`, a turn
/// of several checks in one round (RULING T-6): each check of `then` carries
/// its own options, and the turn's `reroll` is spent once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct TieredCheck {
    /// Modifiers outside the stacking cap, summed.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// The skill modifier.
    pub skill: Option<i64>,
    /// The DC (required, except to clear a jam).
    pub dc: Option<i64>,
    /// Bonuses under the stacking cap.
    pub bonus: Numbers,
    /// Penalties under the stacking cap, as positive numbers.
    pub penalty: Numbers,
    /// Sources of advantage (several do not stack).
    pub advantage: u32,
    /// Sources of disadvantage.
    pub disadvantage: u32,
    /// Edges gained on the roll.
    pub edge: Option<u32>,
    /// Edges lost on the roll.
    pub lose_edge: Option<u32>,
    /// Net edges on the DC.
    pub dc_edge: Option<i32>,
    /// This is the K-th check of the round (a single check only).
    pub action: Option<u32>,
    /// Clearing a jammed item of this tier: DC 10 + tier (no `dc`).
    pub jam_tier: Option<i64>,
    /// The attempt to clear the jam.
    pub attempt: Option<u32>,
    /// Damage or healing dice of the action.
    pub effect: Option<String>,
    /// Bonuses to the damage or healing roll, under their own stacking cap.
    pub effect_bonus: Numbers,
    /// Penalties to the damage or healing roll, as positive numbers, under the cap.
    pub effect_penalty: Numbers,
    /// One reroll of a d20: for a single check, or for the whole turn.
    pub reroll: bool,
    /// Further checks in the same round, each with its own options.
    pub then: Vec<TieredCheck>,
}

/// What a request builds: one check or a turn.
pub(super) enum Built {
    Check(Check),
    Turn(Turn),
}

impl TieredCheck {
    /// The request's check (or turn), every option checked.
    pub(super) fn build(&self) -> Result<Built, RulesError> {
        let first = self.check(0)?;
        if self.then.is_empty() {
            return Ok(Built::Check(first));
        }
        if self.action.is_some() {
            return Err(RulesError::Invalid(
                "--action numbers a single check: the checks of a turn are numbered by their order"
                    .to_string(),
            ));
        }
        let mut checks = vec![first];
        for (k, then) in self.then.iter().enumerate() {
            let what = |option: &str| {
                RulesError::Invalid(format!(
                    "check {} of the turn: {option} belongs to the turn's first check",
                    k + 2
                ))
            };
            if then.reroll {
                return Err(what(
                    "--reroll (the turn has one reroll, spent on the first check that fails)",
                ));
            }
            if then.action.is_some() {
                return Err(what("--action"));
            }
            if !then.then.is_empty() {
                return Err(what("--then"));
            }
            checks.push(then.check(k + 1)?);
        }
        Ok(Built::Turn(Turn {
            checks,
            reroll: self.reroll,
        }))
    }

    /// This check alone (`index` 0 for the first of a turn).
    fn check(&self, index: usize) -> Result<Check, RulesError> {
        let at = |m: String| {
            if index == 0 {
                RulesError::Invalid(m)
            } else {
                RulesError::Invalid(format!("check {} of the turn: {m}", index + 1))
            }
        };
        let bonuses = self.bonus.values();
        let penalties = self.penalty.values();
        let effect_bonuses = self.effect_bonus.values();
        let effect_penalties = self.effect_penalty.values();
        if bonuses.iter().chain(&penalties).any(|&v| v < 0) {
            return Err(at(
                "--bonus and --penalty take positive numbers (a penalty of 2 is --penalty 2)"
                    .into(),
            ));
        }
        if effect_bonuses
            .iter()
            .chain(&effect_penalties)
            .any(|&v| v < 0)
        {
            return Err(at(
                "--effect-bonus and --effect-penalty take positive numbers (a penalty of 2 is --effect-penalty 2)"
                    .into(),
            ));
        }
        if self.effect.is_none() && !(effect_bonuses.is_empty() && effect_penalties.is_empty()) {
            return Err(at(
                "--effect-bonus and --effect-penalty change the damage or healing roll: give its dice with --effect".into(),
            ));
        }
        // "the second check taking a -5 penalty" (RULING T-6), "+5 ... per
        // attempt after the first" (RULING T-8): both count from 1.
        if self.action == Some(0) {
            return Err(at(
                "--action counts the checks of a round from 1 (the first check is --action 1)"
                    .into(),
            ));
        }
        if self.attempt == Some(0) {
            return Err(at(
                "--attempt counts the attempts to clear a jam from 1 (the first is --attempt 1)"
                    .into(),
            ));
        }
        if self.attempt.is_some() && self.jam_tier.is_none() {
            return Err(at(
                "--attempt counts attempts to clear a jam: give --jam-tier".into(),
            ));
        }
        let dc = match (self.dc, self.jam_tier) {
            (Some(_), Some(tier)) => {
                return Err(at(format!(
                    "--jam-tier sets the DC (10 + Tier = {}): give --dc or --jam-tier, not both",
                    10i64.saturating_add(tier)
                )));
            }
            (Some(dc), None) => dc,
            (None, Some(_)) => 0,
            (None, None) => return Err(at(format!("{} needs the DC (--dc N)", tiered_d20::ID))),
        };
        let check = Check {
            skill: self.skill.unwrap_or(0),
            modifier: self.modifier.sum("the modifiers")?,
            bonuses,
            penalties,
            dc,
            advantage: self.advantage,
            disadvantage: self.disadvantage,
            edges: self.edge.unwrap_or(0),
            lost_edges: self.lose_edge.unwrap_or(0),
            dc_edges: self.dc_edge.unwrap_or(0),
            action: self.action.unwrap_or(1),
            jam: self.jam_tier.map(|tier| (tier, self.attempt.unwrap_or(1))),
            effect: self.effect.clone(),
            effect_bonuses,
            effect_penalties,
            reroll: self.reroll,
        };
        check.validate().map_err(|e| at(e.to_string()))?;
        Ok(check)
    }

    /// One further check of a turn, written as on the command line: either
    /// `SKILL:DC` or the check's own options, such as
    /// `--skill 3 --dc 15 --advantage --edge 2` (the options of a check, but
    /// not `--reroll`, `--action` or `--then`).
    ///
    /// ```
    /// use nutshell_rules::request::TieredCheck;
    /// let then = TieredCheck::parse_then("--skill 3 --dc 15 --advantage --bonus 1 --bonus 2")?;
    /// assert_eq!((then.skill, then.dc, then.advantage), (Some(3), Some(15), 1));
    /// assert_eq!(then.bonus.values(), vec![1, 2]);
    /// assert_eq!(TieredCheck::parse_then("0:5")?.dc, Some(5));
    /// # Ok::<(), nutshell_rules::RulesError>(())
    /// ```
    pub fn parse_then(spec: &str) -> Result<TieredCheck, RulesError> {
        let bad = |m: String| RulesError::Invalid(format!("--then '{spec}': {m}"));
        let words: Vec<&str> = spec.split_whitespace().collect();
        if let [single] = words.as_slice()
            && let Some((skill, dc)) = single.split_once(':')
        {
            let number = |t: &str| {
                t.trim()
                    .parse::<i64>()
                    .map_err(|_| bad("expected SKILL:DC, such as 3:15, or the check's options, such as --skill 3 --dc 15".into()))
            };
            return Ok(TieredCheck {
                skill: Some(number(skill)?),
                dc: Some(number(dc)?),
                ..TieredCheck::default()
            });
        }
        if words.is_empty() {
            return Err(bad("no check given".into()));
        }
        let mut check = TieredCheck::default();
        let mut i = 0;
        while i < words.len() {
            let flag = words[i];
            let Some(name) = flag.strip_prefix("--") else {
                return Err(bad(format!(
                    "`{flag}` is not an option (options start with --)"
                )));
            };
            i += 1;
            match name {
                "advantage" => check.advantage += 1,
                "disadvantage" => check.disadvantage += 1,
                "reroll" | "action" | "then" => {
                    return Err(bad(format!(
                        "--{name} belongs to the turn's first check (the turn has one reroll, spent on the first check that fails)"
                    )));
                }
                _ => {
                    let Some(value) = words.get(i) else {
                        return Err(bad(format!("--{name} needs a value")));
                    };
                    i += 1;
                    check.set(name, value).map_err(bad)?;
                }
            }
        }
        Ok(check)
    }

    /// Sets the option `name` from its text.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
            value
                .parse()
                .map_err(|_| format!("--{name} {value}: expected a whole number"))
        }
        let push = |numbers: &mut Numbers, v: i64| {
            let mut values = numbers.values();
            values.push(v);
            *numbers = Numbers::Many(values);
        };
        match name {
            "mod" => push(&mut self.modifier, number(name, value)?),
            "bonus" => push(&mut self.bonus, number(name, value)?),
            "penalty" => push(&mut self.penalty, number(name, value)?),
            "skill" => self.skill = Some(number(name, value)?),
            "dc" => self.dc = Some(number(name, value)?),
            "edge" => self.edge = Some(number(name, value)?),
            "lose-edge" => self.lose_edge = Some(number(name, value)?),
            "dc-edge" => self.dc_edge = Some(number(name, value)?),
            "jam-tier" => self.jam_tier = Some(number(name, value)?),
            "attempt" => self.attempt = Some(number(name, value)?),
            "effect" => self.effect = Some(value.to_string()),
            "effect-bonus" => push(&mut self.effect_bonus, number(name, value)?),
            "effect-penalty" => push(&mut self.effect_penalty, number(name, value)?),
            _ => {
                return Err(format!(
                    "--{name} is not an option of a tiered-d20 check (--skill, --mod, --dc, --bonus, --penalty, --advantage, --disadvantage, --edge, --lose-edge, --dc-edge, --jam-tier, --attempt, --effect, --effect-bonus, --effect-penalty)"
                ));
            }
        }
        Ok(())
    }
}
