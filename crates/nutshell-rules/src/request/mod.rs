//! Checks and contests as data: what a front end asks for, in the command
//! line's own words.
//!
//! Each ruleset's options are a type here, deserializable from JSON with the
//! command line's option names (`--crit-success` is `crit_success`, `--mod`
//! is `mod`, a repeatable option takes a list or a single number). The
//! command line builds the same types from its flags, so the command line,
//! the server and any other front end validate alike and can never disagree.
//! Unknown fields are refused.
//!
//! ```
//! use nutshell_rules::request::{CheckRequest, Rolled};
//! use nutshell_dice::Scripted;
//! let request: CheckRequest = serde_json::from_str(
//!     r#"{"ruleset": "fantasy", "mod": 5, "dc": "hard", "crit_success": true}"#,
//! )?;
//! let Rolled::Check(result) = request.roll(&mut Scripted::new([20, 20]))? else {
//!     unreachable!("one check")
//! };
//! assert_eq!(result.outcome.id(), "critical-success");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod contest;
mod fantasy;
mod tiered;

pub use contest::{ContestRequest, ExplodingContest, FavorContest, MlsContest, NoContest};
pub use fantasy::{FantasyCheck, FantasyDc, ToolsName};
pub use tiered::TieredCheck;

use crate::error::{self, RulesError};
use crate::odds::OutcomeOdds;
use crate::outcome::CheckResult;
use crate::tiered_d20::TurnCheckOdds;
use crate::{exploding_d6, favor_3d6, mls};
use nutshell_dice::DiceSource;
use serde::{Deserialize, Serialize};

/// One number or a list of numbers: a repeatable option such as `--mod`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Numbers {
    /// A single value.
    One(i64),
    /// Several values.
    Many(Vec<i64>),
}

impl Default for Numbers {
    fn default() -> Numbers {
        Numbers::Many(Vec::new())
    }
}

impl From<Vec<i64>> for Numbers {
    fn from(values: Vec<i64>) -> Numbers {
        Numbers::Many(values)
    }
}

impl Numbers {
    /// The values, in order.
    pub fn values(&self) -> Vec<i64> {
        match self {
            Numbers::One(v) => vec![*v],
            Numbers::Many(v) => v.clone(),
        }
    }

    /// Whether no value is given.
    pub fn is_empty(&self) -> bool {
        matches!(self, Numbers::Many(v) if v.is_empty())
    }

    /// Their sum, refusing overflow (RULING N-1).
    pub fn sum(&self, what: &str) -> Result<i64, RulesError> {
        error::sum(self.values(), what)
    }
}

/// A check of any ruleset, tagged by `ruleset`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "ruleset")]
pub enum CheckRequest {
    /// `fantasy`.
    #[serde(rename = "fantasy")]
    Fantasy(FantasyCheck),
    /// `mls`.
    #[serde(rename = "mls")]
    Mls(MlsCheck),
    /// `exploding-d6`.
    #[serde(rename = "exploding-d6")]
    ExplodingD6(ExplodingCheck),
    /// `tiered-d20` (one check, or a turn of several with `then`).
    #[serde(rename = "tiered-d20")]
    TieredD20(TieredCheck),
    /// `favor-3d6`.
    #[serde(rename = "favor-3d6")]
    Favor3d6(FavorCheck),
}

/// `mls`: 3d6 + skill + modifiers; the difficulty is fixed (15 succeeds, 20
/// is a critical), so there is no `dc`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct MlsCheck {
    /// Modifiers, summed (the ref's difficulty goes here).
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// The trait or skill.
    pub skill: Option<i64>,
}

/// `exploding-d6`: one exploding d6 + Score against `#`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplodingCheck {
    /// Modifiers, summed.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// The Score.
    pub score: Option<i64>,
    /// The Difficulty `#` (required).
    pub dc: Option<i64>,
    /// The character can take their time.
    pub rote: bool,
    /// Helpers' Score + modifiers, for cooperation.
    pub helper: Numbers,
}

/// `favor-3d6`: 3d6 (plus favor, minus disfavor) + modifier against the TD.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct FavorCheck {
    /// Modifiers, summed.
    #[serde(rename = "mod")]
    pub modifier: Numbers,
    /// Points of favor.
    pub favor: Option<u32>,
    /// Points of disfavor.
    pub disfavor: Option<u32>,
    /// The Test Difficulty (required).
    pub dc: Option<i64>,
}

/// What a check request rolls: one check, or a turn of several.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Rolled {
    /// One check.
    Check(CheckResult),
    /// A turn of checks (tiered-d20 with `then`).
    Turn(TurnResult),
}

/// The checks of a turn, as rolled (a critical failure ends it early).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnResult {
    /// The ruleset id.
    pub ruleset: &'static str,
    /// The checks made, in order.
    pub checks: Vec<CheckResult>,
}

/// The exact odds of a check request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Odds {
    /// One check's outcomes.
    Check(OutcomeOdds),
    /// Each check of a turn: the chance of reaching it and its outcomes.
    Turn(TurnOdds),
}

/// The odds of every check of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnOdds {
    /// The ruleset id.
    pub ruleset: &'static str,
    /// One entry per check, in order.
    pub checks: Vec<TurnCheckOdds>,
}

/// `difficulty` or the error naming what is missing.
fn required(value: Option<i64>, ruleset: &str, name: &str) -> Result<i64, RulesError> {
    value.ok_or_else(|| RulesError::Invalid(format!("{ruleset} needs {name} (--dc N)")))
}

impl MlsCheck {
    /// The check this request describes.
    pub fn build(&self) -> Result<mls::Check, RulesError> {
        let check = mls::Check {
            skill: self.skill.unwrap_or(0),
            modifier: self.modifier.sum("the modifiers")?,
        };
        check.validate()?;
        Ok(check)
    }
}

impl ExplodingCheck {
    /// The check this request describes.
    pub fn build(&self) -> Result<exploding_d6::Check, RulesError> {
        let check = exploding_d6::Check {
            score: self.score.unwrap_or(0),
            modifier: self.modifier.sum("the modifiers")?,
            difficulty: required(self.dc, exploding_d6::ID, "the Difficulty #")?,
            rote: self.rote,
            helpers: self.helper.values(),
            max_explosions: 0,
        };
        check.bonus()?;
        Ok(check)
    }
}

impl FavorCheck {
    /// The test this request describes.
    pub fn build(&self) -> Result<favor_3d6::Test, RulesError> {
        let test = favor_3d6::Test {
            modifier: self.modifier.sum("the modifiers")?,
            favor: self.favor.unwrap_or(0),
            disfavor: self.disfavor.unwrap_or(0),
            td: required(self.dc, favor_3d6::ID, "the Test Difficulty")?,
        };
        test.validate()?;
        Ok(test)
    }
}

impl CheckRequest {
    /// The ruleset id.
    pub fn ruleset(&self) -> &'static str {
        match self {
            CheckRequest::Fantasy(_) => crate::fantasy::ID,
            CheckRequest::Mls(_) => mls::ID,
            CheckRequest::ExplodingD6(_) => exploding_d6::ID,
            CheckRequest::TieredD20(_) => crate::tiered_d20::ID,
            CheckRequest::Favor3d6(_) => favor_3d6::ID,
        }
    }

    /// Refuses a request that cannot be made, before any die is rolled.
    pub fn validate(&self) -> Result<(), RulesError> {
        match self {
            CheckRequest::Fantasy(c) => c.build().map(drop),
            CheckRequest::Mls(c) => c.build().map(drop),
            CheckRequest::ExplodingD6(c) => c.build().map(drop),
            CheckRequest::TieredD20(c) => c.build().map(drop),
            CheckRequest::Favor3d6(c) => c.build().map(drop),
        }
    }

    /// Rolls the check (or the turn) with dice from `source`.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<Rolled, RulesError> {
        Ok(match self {
            CheckRequest::Fantasy(c) => Rolled::Check(c.roll(source)?),
            CheckRequest::Mls(c) => Rolled::Check(c.build()?.roll(source)?),
            CheckRequest::ExplodingD6(c) => Rolled::Check(c.build()?.roll(source)?),
            CheckRequest::Favor3d6(c) => Rolled::Check(c.build()?.roll(source)?),
            CheckRequest::TieredD20(c) => match c.build()? {
                tiered::Built::Check(check) => Rolled::Check(check.roll(source)?),
                tiered::Built::Turn(turn) => Rolled::Turn(TurnResult {
                    ruleset: crate::tiered_d20::ID,
                    checks: turn.roll(source)?,
                }),
            },
        })
    }

    /// The exact odds of every outcome (of every check of a turn).
    pub fn odds(&self) -> Result<Odds, RulesError> {
        Ok(match self {
            CheckRequest::Fantasy(c) => Odds::Check(c.build()?.odds()?),
            CheckRequest::Mls(c) => Odds::Check(c.build()?.odds()?),
            CheckRequest::ExplodingD6(c) => Odds::Check(c.build()?.odds()?),
            CheckRequest::Favor3d6(c) => Odds::Check(c.build()?.odds()?),
            CheckRequest::TieredD20(c) => match c.build()? {
                tiered::Built::Check(check) => Odds::Check(check.odds()?),
                tiered::Built::Turn(turn) => Odds::Turn(TurnOdds {
                    ruleset: crate::tiered_d20::ID,
                    checks: turn.odds()?,
                }),
            },
        })
    }
}
