//! Checks on secondary traits earned in a fight (mls, *Checks on Secondary
//! Traits*): "any Combat trait (including casting offensive spells) is used
//! for at least 3 turns, that trait receives a check. Whenever a Critical is
//! rolled on any Secondary trait it receives a check."
//!
//! A fight with a log notes, for each combatant, the turns in which each skill
//! was rolled and the first critical success on it; [`Fight::earned_checks`]
//! lists the checks at the end, ready to be written to a sheet's `checks` and
//! rolled for by `mls advance` after the adventure. A person's choice against
//! a Noticeable personality trait that its 1d20 allows checks the opposing
//! trait (mls, *Behaviour*); those checks are listed too.

use super::{Fight, Roll, RollFor};
use nutshell_rules::Outcome;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What a combatant's rolls did with its skills in a fight.
#[derive(Debug, Clone, Default)]
pub(super) struct SkillUse {
    /// The turns in which each skill was rolled.
    turns: BTreeMap<String, BTreeSet<u32>>,
    /// The turn of the first critical success on each skill.
    criticals: BTreeMap<String, u32>,
}

/// One check earned in a fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EarnedCheck {
    /// The combatant.
    pub combatant: String,
    /// The skill (a secondary trait of a character sheet), or the
    /// personality trait checked by acting against its opposite.
    #[serde(rename = "trait")]
    pub skill: String,
    /// Why: the turns it was used in, or the critical.
    pub why: String,
}

/// A check on a personality trait earned by acting against its opposite
/// (mls, *Behaviour*: "the player must roll higher than the trait on 1d20
/// if he wishes him to behave otherwise (an automatic check on the opposing
/// trait if it succeeds)").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraitCheck {
    /// The combatant.
    pub combatant: String,
    /// The trait checked ("cowardly").
    pub checked: String,
    /// The Noticeable trait acted against ("valorous").
    pub against: String,
    /// Its value.
    pub value: i64,
    /// The 1d20 rolled.
    pub roll: i64,
    /// The turn.
    pub turn: u32,
}

/// Turns of use that earn a check.
pub const TURNS_FOR_A_CHECK: usize = 3;

impl Fight {
    /// The skill a roll of `i`'s is made with, if it is a skill (the Agility
    /// behind a dodge without the `dodge` skill is a primary trait, and a shock
    /// roll is no secondary trait's use).
    pub(super) fn skill_rolled(&self, i: usize, what: RollFor) -> Option<String> {
        let sheet = &self.fighters[i].sheet;
        let dodge = || {
            sheet
                .skills
                .contains_key("dodge")
                .then(|| "dodge".to_string())
        };
        match what {
            RollFor::Attack(_)
            | RollFor::TotalAttack(_)
            | RollFor::Unopposed(_)
            | RollFor::Defence => sheet.melee().map(|w| w.skill.clone()).or_else(dodge),
            RollFor::Shot(..) => sheet.ranged().map(|w| w.skill.clone()),
            RollFor::Dodge => dodge(),
            RollFor::Shock => None,
        }
    }

    /// Notes a roll for the checks it may earn (only in fights with a log:
    /// simulations skip the bookkeeping).
    pub(super) fn note_use(&mut self, i: usize, what: RollFor, roll: Roll) {
        if self.log.is_none() {
            return;
        }
        let Some(skill) = self.skill_rolled(i, what) else {
            return;
        };
        let turn = self.turn;
        let used = &mut self.fighters[i].used;
        if roll.outcome() == Outcome::CriticalSuccess {
            used.criticals.entry(skill.clone()).or_insert(turn);
        }
        used.turns.entry(skill).or_default().insert(turn);
    }

    /// The checks earned so far, by combatant in file order, then by skill.
    pub fn earned_checks(&self) -> Vec<EarnedCheck> {
        let mut out = Vec::new();
        for f in &self.fighters {
            let names: BTreeSet<&String> =
                f.used.turns.keys().chain(f.used.criticals.keys()).collect();
            for skill in names {
                let turns = f.used.turns.get(skill).map(|t| t.len()).unwrap_or(0);
                let why = if turns >= TURNS_FOR_A_CHECK {
                    let list: Vec<String> =
                        f.used.turns[skill].iter().map(u32::to_string).collect();
                    format!("used in {turns} turns ({})", list.join(", "))
                } else if let Some(t) = f.used.criticals.get(skill) {
                    format!("a critical in turn {t}")
                } else {
                    continue;
                };
                out.push(EarnedCheck {
                    combatant: f.sheet.name.clone(),
                    skill: skill.clone(),
                    why,
                });
            }
            // mls, Behaviour: "(an automatic check on the opposing trait if
            // it succeeds)".
            for c in &f.trait_checks {
                out.push(EarnedCheck {
                    combatant: f.sheet.name.clone(),
                    skill: c.checked.clone(),
                    why: format!(
                        "acted against {} {} in turn {} (1d20 = {})",
                        c.against, c.value, c.turn, c.roll
                    ),
                });
            }
        }
        out
    }

    /// The checks on personality traits earned so far by acting against a
    /// Noticeable trait, in the order they were earned by combatant.
    pub fn trait_checks(&self) -> Vec<TraitCheck> {
        self.fighters
            .iter()
            .flat_map(|f| f.trait_checks.iter().cloned())
            .collect()
    }
}
