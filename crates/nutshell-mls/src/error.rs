//! Errors of the tactical layer.

use std::fmt;

/// Why a fight, a file or a damage roll could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FightError {
    /// A combatant or side file is bad; the message names the file's field and line.
    File(String),
    /// The request is not meaningful (no combatants, a negative Dam...).
    Invalid(String),
    /// The dice source could not give a face; the message names the die.
    Dice(String),
    /// The exact engine could not compute a distribution.
    Engine(String),
    /// A decision breaks a rule; the message names the sentence it breaks.
    /// Nothing was changed.
    Refused(String),
    /// A fight played by decisions waits for one (`fight::Play` asks it).
    Waiting,
}

impl fmt::Display for FightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FightError::File(m)
            | FightError::Invalid(m)
            | FightError::Dice(m)
            | FightError::Engine(m)
            | FightError::Refused(m) => f.write_str(m),
            FightError::Waiting => f.write_str("the fight waits for a decision"),
        }
    }
}

impl std::error::Error for FightError {}
