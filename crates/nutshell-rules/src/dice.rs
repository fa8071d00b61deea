//! Drawing the dice of a check from any source, keeping a record of each.

use crate::error::RulesError;
use crate::outcome::RolledDie;
use nutshell_dice::source::SourceError;
use nutshell_dice::{DiceSource, Faces};

/// A dice source that records every die a check rolls.
pub struct Dice<'s> {
    source: &'s mut dyn DiceSource,
    /// The dice rolled so far, in order.
    pub rolled: Vec<RolledDie>,
    /// The most dice one check may roll (explosions and re-rolls included).
    pub limit: usize,
}

impl<'s> Dice<'s> {
    /// Records dice drawn from `source`.
    pub fn new(source: &'s mut dyn DiceSource) -> Dice<'s> {
        Dice {
            source,
            rolled: Vec::new(),
            limit: nutshell_dice::Limits::default().max_dice as usize,
        }
    }

    /// Rolls one die with faces 1..=`sides` for `purpose`.
    pub fn roll(&mut self, sides: u64, purpose: &str) -> Result<i64, RulesError> {
        self.roll_faces(Faces::standard(sides), &format!("d{sides}"), purpose)
    }

    /// Rolls one die with these faces.
    pub fn roll_faces(
        &mut self,
        faces: Faces<'_>,
        die: &str,
        purpose: &str,
    ) -> Result<i64, RulesError> {
        if self.rolled.len() >= self.limit {
            return Err(RulesError::Dice(format!(
                "this check needs more than {} dice (max_dice)",
                self.limit
            )));
        }
        let position = self.rolled.len() + 1;
        let face = self.source.draw(&faces).map_err(|e| match e {
            SourceError::Exhausted { given } => RulesError::Dice(format!(
                "ran out of faces: die {position} (the {die} {purpose}) needs a face, but only {given} {} given",
                if given == 1 { "was" } else { "were" }
            )),
            SourceError::NotOnDie { face } => RulesError::Dice(format!(
                "face {face} is not on a {die}: die {position} (the {die} {purpose}) cannot show it"
            )),
        })?;
        self.rolled.push(RolledDie {
            die: die.to_string(),
            face,
            purpose: purpose.to_string(),
        });
        Ok(face)
    }

    /// The underlying source, for rolling an expression with the engine.
    pub fn source(&mut self) -> &mut dyn DiceSource {
        self.source
    }
}
