//! `fantasy` checks as data.

use super::Numbers;
use crate::error::{self, RulesError};
use crate::fantasy::{self, Effect, Reroll, Take, Tools};
use crate::outcome::{CheckResult, Step};
use nutshell_dice::DiceSource;
use serde::{Deserialize, Serialize};

/// A DC as a number or a descriptor (`hard`, `routine`, ...; RULING F-1).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum FantasyDc {
    /// A number.
    Number(i64),
    /// A number or a descriptor, as text.
    Text(String),
}

impl FantasyDc {
    /// The DC's value.
    pub fn value(&self) -> Result<i64, RulesError> {
        match self {
            FantasyDc::Number(n) => Ok(*n),
            FantasyDc::Text(t) => fantasy::dc(t).ok_or_else(|| {
                RulesError::Invalid(format!(
                    "--dc {t}: expected a whole number or a descriptor (laughable, trivial, routine, average, difficult, hard, extreme, godlike, impossible)"
                ))
            }),
        }
    }
}

/// The tools of a magnitude check, by name (project ruling P-30).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolsName {
    /// Poor, improvised tools: d3.
    ImprovisedPoor,
    /// Improvised tools: d4.
    Improvised,
    /// The standard tools: d6.
    Standard,
    /// Superior tools: d8.
    Superior,
    /// Superior tools and training: d12.
    SuperiorTrained,
}

impl From<ToolsName> for Tools {
    fn from(t: ToolsName) -> Tools {
        match t {
            ToolsName::ImprovisedPoor => Tools::ImprovisedPoor,
            ToolsName::Improvised => Tools::Improvised,
            ToolsName::Standard => Tools::Standard,
            ToolsName::Superior => Tools::Superior,
            ToolsName::SuperiorTrained => Tools::SuperiorTrained,
        }
    }
}

/// `fantasy`: d20 + modifiers against a DC.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct FantasyCheck {
    /// Modifiers other than the ability score, summed (skill, circumstance).
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// The ability score's modifier: added to the check, and the only
    /// modifier of the default magnitude check ("you apply the same ability
    /// score to magnitude checks as applied to the original check").
    pub ability: Option<i64>,
    /// The DC, a number or a descriptor (required).
    pub dc: Option<FantasyDc>,
    /// The check allows critical success.
    pub crit_success: bool,
    /// The check allows critical failure.
    pub crit_failure: bool,
    /// Only a natural even result passes.
    pub natural_even: bool,
    /// Take 0, 10 or 20 instead of rolling.
    pub take: Option<u8>,
    /// A stressful situation.
    pub stressful: bool,
    /// No retry is allowed.
    pub no_retry: bool,
    /// Spend a reroll if the check fails.
    pub reroll: bool,
    /// Another forces a reroll.
    pub forced_reroll: bool,
    /// Cancel the forced reroll by spending one's own.
    pub cancel_reroll: bool,
    /// Any magnitude (or damage) pool rolled on a success, such as `1d8+4`.
    pub effect: Option<String>,
    /// Roll the default magnitude check on a success.
    pub magnitude: bool,
    /// The tools of the magnitude check (implies `magnitude`).
    pub tools: Option<ToolsName>,
    /// Step changes to the magnitude dice.
    pub step: Option<i64>,
    /// Extra magnitude dice of the largest type.
    pub extra: Option<u64>,
    /// A nominal success.
    pub nominal: bool,
    /// The effect does double damage: the pool and every modifier doubled.
    pub double: bool,
}

const RULE_MAGNITUDE: &str = "fantasy, Degree of Success and Magnitude Rolls (RULING F-6, P-30)";

impl FantasyCheck {
    fn default_magnitude(&self) -> bool {
        self.effect.is_none() && (self.magnitude || self.tools.is_some())
    }

    /// The check this request describes, every option checked.
    pub fn build(&self) -> Result<fantasy::Check, RulesError> {
        let invalid = |m: &str| Err(RulesError::Invalid(m.to_string()));
        if self.cancel_reroll && !self.forced_reroll {
            return invalid("--cancel-reroll cancels a forced reroll: give --forced-reroll too");
        }
        if self.effect.is_some() && (self.magnitude || self.tools.is_some()) {
            return invalid(
                "--effect POOL replaces the default magnitude check: give it or --magnitude/--tools, not both",
            );
        }
        let take = match self.take {
            None => None,
            Some(0) => Some(Take::Zero),
            Some(10) => Some(Take::Ten),
            Some(20) => Some(Take::Twenty),
            Some(n) => {
                return Err(RulesError::Invalid(format!(
                    "--take {n}: a result of 0, 10 or 20 can be taken"
                )));
            }
        };
        let Some(dc) = &self.dc else {
            return Err(RulesError::Invalid(match take {
                Some(t) => format!(
                    "fantasy needs the DC (--dc N): taking {} is compared with it like a roll",
                    t.value()
                ),
                None => "fantasy needs the DC (--dc N)".to_string(),
            }));
        };
        let reroll = match (self.reroll, self.forced_reroll, self.cancel_reroll) {
            (false, false, _) => Reroll::None,
            (true, false, _) => Reroll::Own,
            (false, true, false) => Reroll::Forced,
            (_, true, true) => Reroll::ForcedCancelled,
            (true, true, false) => Reroll::OwnAndForced,
        };
        let ability = self.ability.unwrap_or(0);
        let modifier = error::add(
            self.modifier.sum("the modifiers")?,
            ability,
            "the modifiers",
        )?;
        let pool = match &self.effect {
            Some(pool) => Some(pool.clone()),
            None if self.default_magnitude() => Some(
                Effect::magnitude(self.tools.map_or(Tools::Standard, Into::into), ability).pool,
            ),
            None => None,
        };
        let effect = match pool {
            Some(pool) => Some(Effect {
                pool,
                steps: self.step.unwrap_or(0),
                extra: self.extra.unwrap_or(0),
                nominal: self.nominal,
                double: self.double,
            }),
            None if self.step.is_some() || self.extra.is_some() || self.nominal || self.double => {
                return invalid(
                    "--step, --extra, --nominal and --double change the magnitude pool: ask for it with --magnitude or --effect POOL",
                );
            }
            None => None,
        };
        let check = fantasy::Check {
            modifier,
            dc: dc.value()?,
            crit_success: self.crit_success,
            crit_failure: self.crit_failure,
            natural_even: self.natural_even,
            take,
            stressful: self.stressful,
            no_retry: self.no_retry,
            reroll,
            effect,
        };
        check.validate()?;
        Ok(check)
    }

    /// Rolls the check; the transcript says which ability score the default
    /// magnitude check adds.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        let mut result = self.build()?.roll(source)?;
        if self.default_magnitude() && result.effect.is_some() {
            let note = match self.ability {
                Some(a) => format!(
                    "the magnitude check adds the same ability score as the check ({a:+}), and no other modifier"
                ),
                None => "no ability score given (--ability N): the magnitude check adds none"
                    .to_string(),
            };
            let at = result
                .transcript
                .iter()
                .position(|s| s.text.starts_with("magnitude:"))
                .unwrap_or(result.transcript.len());
            result
                .transcript
                .insert(at, Step::new(RULE_MAGNITUDE, note));
        }
        Ok(result)
    }
}
