//! Drawing the dice of a fight from any source, in the order the log lists
//! them, so faces typed in from physical dice replay a fight exactly.

use crate::error::FightError;
use nutshell_dice::source::SourceError;
use nutshell_dice::{DiceSource, Faces};

/// A dice source that counts the dice it draws and names a die that could not
/// be drawn.
pub struct Dice<'s> {
    source: &'s mut dyn DiceSource,
    drawn: u64,
}

/// A roll of 3d6: the faces and their sum, the natural result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreeD6 {
    /// The three faces, in the order rolled.
    pub faces: [i64; 3],
}

impl ThreeD6 {
    /// The natural result, 3..=18.
    pub fn natural(&self) -> i64 {
        self.faces.iter().sum()
    }
}

impl<'s> Dice<'s> {
    /// Dice drawn from `source`.
    pub fn new(source: &'s mut dyn DiceSource) -> Dice<'s> {
        Dice { source, drawn: 0 }
    }

    /// How many dice have been drawn.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    /// One die with faces 1..=`sides`, drawn for `purpose` (named in errors).
    pub fn die(&mut self, sides: u64, purpose: &dyn Fn() -> String) -> Result<i64, FightError> {
        let position = self.drawn + 1;
        let face = self
            .source
            .draw(&Faces::standard(sides))
            .map_err(|e| match e {
                SourceError::Exhausted { given } => FightError::Dice(format!(
                    "ran out of faces: die {position} (a d{sides} {}) needs a face, but only {given} {} given",
                    purpose(),
                    if given == 1 { "was" } else { "were" }
                )),
                SourceError::NotOnDie { face } => FightError::Dice(format!(
                    "face {face} is not on a d{sides}: die {position} (a d{sides} {}) cannot show it",
                    purpose()
                )),
            })?;
        self.drawn += 1;
        Ok(face)
    }

    /// Three d6 for one MLS roll.
    pub fn three_d6(&mut self, purpose: &dyn Fn() -> String) -> Result<ThreeD6, FightError> {
        Ok(ThreeD6 {
            faces: [
                self.die(6, purpose)?,
                self.die(6, purpose)?,
                self.die(6, purpose)?,
            ],
        })
    }
}
