//! Behaviour (mls, *Behaviour*): a personality trait of 15 or less lets the
//! character behave as the player wishes; at 16 or more it is Noticeable, and
//! acting against it needs a roll higher than the trait on 1d20, which, if it
//! succeeds, checks the opposing trait.

use super::personality::NOTICEABLE;
use crate::dice::Dice;
use crate::error::FightError;
use serde::Serialize;

/// The die: "roll higher than the trait on 1d20".
pub const DIE: u64 = 20;

/// The outcome of wanting to act against a trait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Behaviour {
    /// The trait's value.
    pub value: i64,
    /// 16 or more.
    pub noticeable: bool,
    /// The 1d20, when one was needed.
    pub roll: Option<i64>,
    /// Whether the character may act against the trait.
    pub acts_against: bool,
    /// Whether the opposing trait receives a check.
    pub checks_opposite: bool,
}

/// Resolves an attempt to act against a trait of `value`.
pub fn behave(value: i64, dice: &mut Dice) -> Result<Behaviour, FightError> {
    if value < NOTICEABLE {
        return Ok(Behaviour {
            value,
            noticeable: false,
            roll: None,
            acts_against: true,
            checks_opposite: false,
        });
    }
    let roll = dice.die(DIE, &|| format!("to act against a trait of {value}"))?;
    let success = roll > value;
    Ok(Behaviour {
        value,
        noticeable: true,
        roll: Some(roll),
        acts_against: success,
        checks_opposite: success,
    })
}

/// Acts against the trait `name` of a sheet: a success checks the opposing
/// trait (added to the sheet's pending checks, with a ledger entry).
pub fn on_sheet(
    sheet: &mut crate::sheet::Combatant,
    name: &str,
    dice: &mut Dice,
) -> Result<Behaviour, FightError> {
    use super::ledger::{Entry, Step};
    let ch = sheet
        .character
        .as_mut()
        .ok_or_else(|| FightError::Invalid("the sheet has no [character] table".into()))?;
    let id = super::personality::TraitId::parse(name)
        .ok_or_else(|| FightError::Invalid(format!("{name:?} is not a personality trait")))?;
    let values = ch
        .parsed()
        .map_err(|(f, e)| FightError::Invalid(format!("{f}: {e}")))?
        .personality;
    let b = behave(values.get(id), dice)?;
    if b.checks_opposite {
        let other = id.opposite().name();
        ch.checks.push(other.to_string());
        ch.ledger.push(
            Entry::new(
                ch.age,
                Step::Behaviour,
                format!(
                    "acted against {} {}: {other} is checked",
                    id.name(),
                    b.value
                ),
                0,
                super::costs::rules::BEHAVIOUR,
            )
            .target(format!("personality.{other}"))
            .roll(format!("1d20 = {}", b.roll.unwrap_or(0))),
        );
    }
    Ok(b)
}
