//! One advance as a player asks for it between sessions: an adventure and
//! the role played in it, the checks to roll, time passing (with the primary
//! traits age takes), and CPs spent. `nutshell mls advance` and the table
//! server both run it, so a sheet advances the same way on both.
//!
//! The steps run in the order of the rule text's *Character Advancement*:
//! the adventure's CPs, then the rolls for checked traits (*Checks on
//! Secondary Traits*, *Checks on Personality Traits*), then each increment of
//! age (*Character Points*, *Effects of Age*), then the spends. The sheet is
//! checked against every rule before and after; nothing changes unless all
//! of it succeeds.

use std::fmt;

use super::advancement::{self, Spend};
use super::costs::{Adventure, Role};
use super::generation;
use super::primary::Primary;
use super::validate::{Violation, to_toml, validate};
use crate::FightError;
use crate::dice::Dice;
use crate::sheet::Combatant;

/// How much time passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ageing {
    /// So many of the race's age increments (*Racial Differences*).
    Increments(u32),
    /// So many years: a whole number of increments, or refused.
    Years(u32),
}

/// What one advance asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdvancePlan {
    /// The adventure completed and the role played (*Adventures*).
    pub adventure: Option<(Adventure, Role)>,
    /// Secondary or personality traits checked in play, rolled for now
    /// besides those the sheet already lists.
    pub checks: Vec<String>,
    /// The time that passes.
    pub ageing: Ageing,
    /// The primary traits to lower when age demands it, in order.
    pub reduce: Vec<Primary>,
    /// The CPs to spend, in order, each with the words it was asked in.
    pub spends: Vec<(Spend, String)>,
}

/// Which part of an advance failed, named as the plan's field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The adventure.
    Adventure,
    /// The checks.
    Check,
    /// Time passing (with the primary traits lowered for age).
    Increments,
    /// The spend at this index of the plan's.
    Spend(usize),
}

/// Why an advance was refused; nothing changed.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// The sheet already breaks these rules.
    Broken(Vec<Violation>),
    /// The advanced sheet would break these rules.
    WouldBreak(Vec<Violation>),
    /// A step was refused by its rule.
    Step(Part, FightError),
    /// The years are not a whole number of the race's increments.
    Years {
        /// The years asked for.
        years: u32,
        /// The race, with its article ("an Elf or Halfling").
        race: String,
        /// The race's increment in months.
        increment_months: i64,
    },
    /// More primary traits named to lower than age demanded.
    ExtraReduce(usize),
    /// The sheet has no `[character]` table.
    NoCharacter,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Violation]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            PlanError::Broken(v) => write!(f, "the sheet breaks {} rule(s): {}", v.len(), list(v)),
            PlanError::WouldBreak(v) => {
                write!(f, "the result would break {} rule(s): {}", v.len(), list(v))
            }
            PlanError::Step(_, e) => write!(f, "{e}"),
            PlanError::Years {
                years,
                race,
                increment_months,
            } => write!(
                f,
                "{race} ages by increments of {}, and {years} years is not a whole number of them (mls, Racial Differences)",
                if increment_months % 12 == 0 {
                    format!("{} year(s)", increment_months / 12)
                } else {
                    format!("{increment_months} months")
                }
            ),
            PlanError::ExtraReduce(n) => {
                write!(f, "{n} trait(s) more to reduce than age demanded")
            }
            PlanError::NoCharacter => write!(f, "the sheet has no [character] table"),
        }
    }
}

/// A sheet advanced: the new sheet, its TOML, and where the ledger's new
/// entries begin.
#[derive(Debug, Clone)]
pub struct Advanced {
    /// The advanced sheet.
    pub sheet: Combatant,
    /// Its TOML text.
    pub text: String,
    /// The index of the first ledger entry this advance added.
    pub first_new_entry: usize,
}

impl Advanced {
    /// The ledger entries this advance added.
    pub fn added(&self) -> &[super::ledger::Entry] {
        self.sheet
            .character
            .as_ref()
            .map_or(&[], |c| &c.ledger[self.first_new_entry..])
    }
}

/// Advances `sheet` (read from `text`) by `plan`, drawing dice from `dice`.
pub fn advance(
    mut sheet: Combatant,
    text: &str,
    plan: &AdvancePlan,
    dice: &mut Dice,
) -> Result<Advanced, PlanError> {
    let before = validate(&sheet, Some(text));
    if !before.is_empty() {
        return Err(PlanError::Broken(before));
    }
    let step = |part| move |e| PlanError::Step(part, e);
    generation::open_ledger(&mut sheet).map_err(step(Part::Adventure))?;
    let first_new_entry = sheet.character.as_ref().map_or(0, |c| c.ledger.len());
    if let Some((size, role)) = plan.adventure {
        advancement::adventure(&mut sheet, size, role, dice).map_err(step(Part::Adventure))?;
    }
    let mut checks = sheet
        .character
        .as_ref()
        .map(|c| c.checks.clone())
        .unwrap_or_default();
    checks.extend(plan.checks.iter().cloned());
    if !checks.is_empty() {
        advancement::after_adventure(&mut sheet, &checks, dice).map_err(step(Part::Check))?;
    }
    let increments = match plan.ageing {
        Ageing::Increments(n) => i64::from(n),
        Ageing::Years(years) => {
            let row = sheet
                .character
                .as_ref()
                .ok_or(PlanError::NoCharacter)?
                .race
                .row();
            let months = i64::from(years) * 12;
            if months % row.increment != 0 {
                return Err(PlanError::Years {
                    years,
                    race: row.a(),
                    increment_months: row.increment,
                });
            }
            months / row.increment
        }
    };
    let mut reduce = plan.reduce.clone();
    for _ in 0..increments {
        advancement::pass_increment(&mut sheet, &mut reduce).map_err(step(Part::Increments))?;
    }
    if !reduce.is_empty() {
        return Err(PlanError::ExtraReduce(reduce.len()));
    }
    for (k, (spend, _)) in plan.spends.iter().enumerate() {
        advancement::spend(&mut sheet, spend, dice).map_err(step(Part::Spend(k)))?;
    }
    let text = to_toml(&sheet).map_err(|e| PlanError::Step(Part::Spend(plan.spends.len()), e))?;
    let after = validate(&sheet, Some(&text));
    if !after.is_empty() {
        return Err(PlanError::WouldBreak(after));
    }
    if sheet.character.is_none() {
        return Err(PlanError::NoCharacter);
    }
    Ok(Advanced {
        sheet,
        text,
        first_new_entry,
    })
}
