//! What a check or contest gives: the outcome tier, the numbers, the dice and
//! the steps that explain it.

use serde::Serialize;

/// Outcome tiers. Each ruleset uses some of them: `fantasy` and `tiered-d20`
/// and `favor-3d6` the four of critical failure to critical success; `mls`
/// says `fumble` for its lowest tier; `exploding-d6` has `botch`, `failure` and
/// `success`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// exploding-d6: a botch.
    Botch,
    /// mls: a fumble.
    Fumble,
    /// A critical failure.
    CriticalFailure,
    /// A failure.
    Failure,
    /// A success.
    Success,
    /// A critical success.
    CriticalSuccess,
}

impl Outcome {
    /// The id used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Botch => "botch",
            Outcome::Fumble => "fumble",
            Outcome::CriticalFailure => "critical-failure",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::CriticalSuccess => "critical-success",
        }
    }

    /// Whether it is a success of some kind.
    pub fn succeeded(self) -> bool {
        matches!(self, Outcome::Success | Outcome::CriticalSuccess)
    }
}

/// One step of a resolution: what happened and the rule that made it happen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The rule applied, as `ruleset, Heading` and/or a ruling id.
    pub rule: String,
    /// What it did, in words.
    pub text: String,
}

impl Step {
    /// A step citing `rule`.
    pub fn new(rule: impl Into<String>, text: impl Into<String>) -> Step {
        Step {
            rule: rule.into(),
            text: text.into(),
        }
    }
}

/// One die rolled (or taken) for a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RolledDie {
    /// The die, such as `d20`.
    pub die: String,
    /// The face.
    pub face: i64,
    /// What it was rolled for.
    pub purpose: String,
}

/// The resolution of one check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    /// The ruleset id.
    pub ruleset: &'static str,
    /// The outcome tier.
    pub outcome: Outcome,
    /// The total compared with the difficulty (none for a success without a roll).
    pub total: Option<i64>,
    /// The natural result of the dice, before modifiers (none when taken or not rolled).
    pub natural: Option<i64>,
    /// The difficulty the total was compared with.
    pub difficulty: Option<i64>,
    /// Total minus difficulty, where the rules use it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// Every die, in the order rolled (the order typed-in faces are used).
    pub dice: Vec<RolledDie>,
    /// The resolution, step by step.
    pub transcript: Vec<Step>,
    /// An effect rolled after the outcome (magnitude or damage), if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<EffectRoll>,
    /// Experience points gained, by character (exploding-d6: "Whenever a
    /// Character Botches, they get +1 Experience Point").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub experience: Vec<Experience>,
}

impl CheckResult {
    /// The experience points `character` gained (0 if none).
    pub fn experience_of(&self, character: &str) -> i64 {
        self.experience
            .iter()
            .filter(|e| e.character == character)
            .map(|e| e.points)
            .sum()
    }
}

/// Experience points gained by one character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Experience {
    /// Who: `the roller`, `helper 1`, `side A`, ...
    pub character: String,
    /// How many points.
    pub points: i64,
}

impl Experience {
    /// `points` for `character`.
    pub fn new(character: &str, points: i64) -> Experience {
        Experience {
            character: character.to_string(),
            points,
        }
    }
}

/// An effect roll: the expression rolled for this outcome and its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EffectRoll {
    /// The expression, in dice notation (after step changes, extra dice,
    /// doubling, `nominal` or `maximize`).
    pub expression: String,
    /// The result.
    pub total: i64,
    /// The roll as text.
    pub text: String,
}

/// The resolution of a contest between two sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestResult {
    /// The ruleset id.
    pub ruleset: &'static str,
    /// `first` (the active side, or side A), `second`, or `none` (an MLS active
    /// roll that does not succeed: nothing happens).
    pub winner: &'static str,
    /// Each side's check, as resolved for the contest.
    pub sides: Vec<CheckResult>,
    /// The contest's own steps (tie-breakers, re-rolls, reductions).
    pub transcript: Vec<Step>,
}

/// A modifier as a step's text adds it to a sum: ` + 3`, ` - 2`, and
/// nothing at all for 0 (a check without a modifier reads `natural 9 = 9`,
/// not `natural 9 + 0 = 9`).
///
/// ```
/// use nutshell_rules::outcome::added;
/// assert_eq!(format!("natural 9{} = 12", added(3)), "natural 9 + 3 = 12");
/// assert_eq!(format!("natural 9{} = 7", added(-2)), "natural 9 - 2 = 7");
/// assert_eq!(format!("natural 9{} = 9", added(0)), "natural 9 = 9");
/// ```
pub fn added(modifier: i64) -> String {
    match modifier {
        0 => String::new(),
        m if m < 0 => format!(" - {}", m.unsigned_abs()),
        m => format!(" + {m}"),
    }
}
