//! Contests as data.

use super::Numbers;
use crate::error::RulesError;
use crate::odds::OutcomeOdds;
use crate::outcome::ContestResult;
use crate::{exploding_d6, favor_3d6, mls};
use nutshell_dice::DiceSource;
use serde::{Deserialize, Serialize};

/// A contest of any ruleset that has them, tagged by `ruleset`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "ruleset")]
pub enum ContestRequest {
    /// `fantasy` has no contests (refused with the reason).
    #[serde(rename = "fantasy")]
    Fantasy(NoContest),
    /// `mls`: an active side against an opponent.
    #[serde(rename = "mls")]
    Mls(MlsContest),
    /// `exploding-d6`: opposed rolls, ties re-rolled.
    #[serde(rename = "exploding-d6")]
    ExplodingD6(ExplodingContest),
    /// `tiered-d20` has no contests (refused with the reason).
    #[serde(rename = "tiered-d20")]
    TieredD20(NoContest),
    /// `favor-3d6`: the higher total, with tie-breakers.
    #[serde(rename = "favor-3d6")]
    Favor3d6(FavorContest),
}

/// The options of a ruleset without contests (ignored: the request is refused).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct NoContest {}

/// `mls`: the active side (`skill`, `mod`) against the opponent (`vs_`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct MlsContest {
    /// The active side's modifiers.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// The active side's skill.
    pub skill: Option<i64>,
    /// The opponent's modifiers.
    #[serde(rename = "vs_mod")]
    pub vs_modifier: Numbers,
    /// The opponent's skill.
    pub vs_skill: Option<i64>,
}

/// `exploding-d6`: side A (`score`, `mod`) against side B (`vs_`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplodingContest {
    /// Side A's modifiers.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// Side A's Score.
    pub score: Option<i64>,
    /// Side B's modifiers.
    #[serde(rename = "vs_mod")]
    pub vs_modifier: Numbers,
    /// Side B's Score.
    pub vs_score: Option<i64>,
}

/// `favor-3d6`: side A against side B (`vs_`), with what the tie-breakers need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct FavorContest {
    /// Side A's modifiers.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// Side A's favor.
    pub favor: Option<u32>,
    /// Side A's disfavor.
    pub disfavor: Option<u32>,
    /// Side A is a PC.
    pub pc: bool,
    /// Side A is defending itself.
    pub defender: bool,
    /// Side A's level or DR.
    pub level: Option<i64>,
    /// Side B's modifiers.
    #[serde(rename = "vs_mod")]
    pub vs_modifier: Numbers,
    /// Side B's favor.
    pub vs_favor: Option<u32>,
    /// Side B's disfavor.
    pub vs_disfavor: Option<u32>,
    /// Side B is a PC.
    pub vs_pc: bool,
    /// Side B is defending itself.
    pub vs_defender: bool,
    /// Side B's level or DR.
    pub vs_level: Option<i64>,
}

/// The contests themselves, built from a request.
enum Built {
    Mls(mls::Contest),
    ExplodingD6(exploding_d6::Contest),
    Favor3d6(favor_3d6::Contest),
}

impl ContestRequest {
    /// The ruleset id.
    pub fn ruleset(&self) -> &'static str {
        match self {
            ContestRequest::Fantasy(_) => crate::fantasy::ID,
            ContestRequest::Mls(_) => mls::ID,
            ContestRequest::ExplodingD6(_) => exploding_d6::ID,
            ContestRequest::TieredD20(_) => crate::tiered_d20::ID,
            ContestRequest::Favor3d6(_) => favor_3d6::ID,
        }
    }

    fn build(&self) -> Result<Built, RulesError> {
        let m = |n: &Numbers| n.sum("the modifiers");
        Ok(match self {
            ContestRequest::Fantasy(_) => return Err(RulesError::Invalid(
                "fantasy has no contests: the target's defence is the DC of the attacker's check (fantasy, Difficulty Classes)".to_string(),
            )),
            ContestRequest::TieredD20(_) => return Err(RulesError::Invalid(
                "tiered-d20 has no contests: the target sets the DC (tiered-d20, Rolling Dice)".to_string(),
            )),
            ContestRequest::Mls(c) => Built::Mls(mls::Contest {
                active: mls::Check {
                    skill: c.skill.unwrap_or(0),
                    modifier: m(&c.modifier)?,
                },
                opponent: mls::Check {
                    skill: c.vs_skill.unwrap_or(0),
                    modifier: m(&c.vs_modifier)?,
                },
            }),
            ContestRequest::ExplodingD6(c) => Built::ExplodingD6(exploding_d6::Contest {
                first: exploding_d6::Check {
                    score: c.score.unwrap_or(0),
                    modifier: m(&c.modifier)?,
                    ..Default::default()
                },
                second: exploding_d6::Check {
                    score: c.vs_score.unwrap_or(0),
                    modifier: m(&c.vs_modifier)?,
                    ..Default::default()
                },
            }),
            ContestRequest::Favor3d6(c) => Built::Favor3d6(favor_3d6::Contest {
                first: favor_3d6::Side {
                    test: favor_3d6::Test {
                        modifier: m(&c.modifier)?,
                        favor: c.favor.unwrap_or(0),
                        disfavor: c.disfavor.unwrap_or(0),
                        td: 0,
                    },
                    pc: c.pc,
                    defender: c.defender,
                    level: c.level.unwrap_or(0),
                },
                second: favor_3d6::Side {
                    test: favor_3d6::Test {
                        modifier: m(&c.vs_modifier)?,
                        favor: c.vs_favor.unwrap_or(0),
                        disfavor: c.vs_disfavor.unwrap_or(0),
                        td: 0,
                    },
                    pc: c.vs_pc,
                    defender: c.vs_defender,
                    level: c.vs_level.unwrap_or(0),
                },
            }),
        })
    }

    /// Refuses a request that cannot be made, before any die is rolled.
    pub fn validate(&self) -> Result<(), RulesError> {
        self.build().map(drop)
    }

    /// Rolls the contest with dice from `source`.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
        match self.build()? {
            Built::Mls(c) => c.roll(source),
            Built::ExplodingD6(c) => c.roll(source),
            Built::Favor3d6(c) => c.roll(source),
        }
    }

    /// The exact probability of each side winning.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        match self.build()? {
            Built::Mls(c) => c.odds(),
            Built::ExplodingD6(c) => c.odds(),
            Built::Favor3d6(c) => c.odds(),
        }
    }
}
