//! Errors of the rulesets.

use std::fmt;

/// Why a check could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// The rules forbid the request; the message quotes the rule.
    Forbidden {
        /// What was asked and why it is refused.
        message: String,
        /// The rule, as `ruleset, Heading`.
        rule: &'static str,
        /// The rule's own words.
        quote: &'static str,
    },
    /// The request is not meaningful (a negative skill count, a bad table...).
    Invalid(String),
    /// The dice source could not give a face.
    Dice(String),
    /// An expression or its odds could not be computed.
    Engine(String),
}

impl RulesError {
    /// A refusal that quotes `rule`.
    pub fn forbidden(
        message: impl Into<String>,
        rule: &'static str,
        quote: &'static str,
    ) -> RulesError {
        RulesError::Forbidden {
            message: message.into(),
            rule,
            quote,
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Forbidden {
                message,
                rule,
                quote,
            } => write!(f, "{message} ({rule}: \"{quote}\")"),
            RulesError::Invalid(m) | RulesError::Dice(m) | RulesError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RulesError {}

impl From<nutshell_dice::ExactError> for RulesError {
    fn from(e: nutshell_dice::ExactError) -> RulesError {
        RulesError::Engine(e.to_string())
    }
}

impl From<nutshell_dice::RollError> for RulesError {
    fn from(e: nutshell_dice::RollError) -> RulesError {
        RulesError::Dice(e.to_string())
    }
}

impl From<nutshell_dice::NotationError> for RulesError {
    fn from(e: nutshell_dice::NotationError) -> RulesError {
        RulesError::Invalid(e.to_string())
    }
}

/// `a + b`, or an error naming `what` when the sum leaves the 64-bit range
/// (RULING N-1: "Overflow is an error, never a wrap").
pub fn add(a: i64, b: i64, what: &str) -> Result<i64, RulesError> {
    a.checked_add(b).ok_or_else(|| overflow(what))
}

/// The sum of `values`, or an error naming `what` on overflow (RULING N-1).
pub fn sum(values: impl IntoIterator<Item = i64>, what: &str) -> Result<i64, RulesError> {
    values
        .into_iter()
        .try_fold(0i64, |acc, v| add(acc, v, what))
}

/// `a * b`, or an error naming `what` on overflow (RULING N-1).
pub fn mul(a: i64, b: i64, what: &str) -> Result<i64, RulesError> {
    a.checked_mul(b).ok_or_else(|| overflow(what))
}

/// The error for a sum or product that leaves the 64-bit range.
pub fn overflow(what: &str) -> RulesError {
    RulesError::Invalid(format!(
        "{what} overflows: the numbers are too large (at most {} either way; RULING N-1: overflow is an error, never a wrap)",
        i64::MAX
    ))
}
