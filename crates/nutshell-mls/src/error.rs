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
}

impl fmt::Display for FightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FightError::File(m)
            | FightError::Invalid(m)
            | FightError::Dice(m)
            | FightError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FightError {}
