//! Rolls, hits and what they do (mls, *Damage*, *Armor*, *CHP*,
//! *Unconsciousness*, *Death*, *Certain Death*, *Minors*; RULINGS M-5..M-7).

use super::choices::sentence;
use super::decide::Kind;
use super::{Fight, Mods, PendingHit, Roll, RollFor};
use crate::damage::{Damage, Hit, Protection};
use crate::dice::Dice;
use crate::error::FightError;
use crate::health::{self, State, Threshold};
use crate::log::rule;

impl Fight {
    /// One MLS roll: 3d6 + skill + modifier. `what` is only put into words
    /// for the log or an error.
    pub(super) fn roll(
        &mut self,
        dice: &mut Dice<'_>,
        i: usize,
        skill: i64,
        mods: Mods,
        what: RollFor,
    ) -> Result<Roll, FightError> {
        let modifier = mods.total();
        let three = dice.three_d6(&|| format!("for {}'s {}", self.name(i), self.describe(what)))?;
        let natural = three.natural();
        let total = natural + skill + modifier;
        let roll = Roll { natural, total };
        self.note_dice(None, &three.faces, |s| {
            let m = mods.text();
            let skill = match skill {
                k if k < 0 => format!("- {}", -k),
                k => format!("+ {k}"),
            };
            let special = match natural {
                18 => " (natural 18)",
                3 => " (natural 3)",
                _ => "",
            };
            format!(
                "{} rolls {}: 3d6 {:?} = {natural}{special} {skill}{m} = {total}: {}",
                s.name(i),
                s.describe(what),
                three.faces,
                roll.outcome().id()
            )
        });
        self.note_use(i, what, roll);
        Ok(roll)
    }

    /// What a roll is for, in words.
    pub(super) fn describe(&self, what: RollFor) -> String {
        match what {
            RollFor::Attack(t) => format!("attack on {}", self.name(t)),
            RollFor::TotalAttack(t) => format!("total attack on {}", self.name(t)),
            RollFor::Unopposed(t) => format!("unopposed attack on {}", self.name(t)),
            RollFor::Shot(t, w) => format!("shot ({w}) at {}", self.name(t)),
            RollFor::Defence => "defence".to_string(),
            RollFor::Dodge => "dodge".to_string(),
            RollFor::Shock => "shock roll".to_string(),
        }
    }

    /// Queues a hit for the end of the round.
    pub(super) fn queue_hit(&mut self, hit: PendingHit) {
        self.pending.push(hit);
    }

    /// Rolls and applies the round's hits, in the order they were scored.
    pub(super) fn apply_hits(&mut self, dice: &mut Dice<'_>) -> Result<(), FightError> {
        let pending = std::mem::take(&mut self.pending);
        for h in &pending {
            self.fighters[h.target].attacked = true;
            self.apply_hit(dice, h)?;
        }
        self.pending = pending;
        Ok(())
    }

    pub(super) fn apply_hit(
        &mut self,
        dice: &mut Dice<'_>,
        h: &PendingHit,
    ) -> Result<(), FightError> {
        let t = h.target;
        if matches!(self.fighters[t].state, State::Dead) {
            self.note(None, |s| {
                format!(
                    "{}'s blow falls on {}, already dead",
                    s.name(h.attacker),
                    s.name(t)
                )
            });
            return Ok(());
        }
        let attacker = &self.fighters[h.attacker].sheet;
        let target = &self.fighters[t].sheet;
        let protection = Protection {
            armour: target.armour_on(h.location).map(|a| (a.value, a.coverage)),
            shield: if h.shield {
                target.shield.as_ref().map(|s| s.value)
            } else {
                None
            },
        };
        let hit = Hit {
            damage: Damage {
                dam: h.dam,
                critical: h.kind.critical || h.kind.natural_18,
                minor: attacker.minor,
            },
            kind: h.kind,
            protection,
        };
        let (before, done, faces) = hit.roll(dice)?;
        let absorbed = hit.absorbed();
        self.note_dice(Some(rule::DAMAGE), &faces, |s| {
            let how = if hit.damage.minor {
                format!("a minor NPC's Dam {}", hit.damage.effective_dam())
            } else {
                format!(
                    "{} = {faces:?}, at least Dam {}",
                    hit.damage.expression(),
                    hit.damage.effective_dam()
                )
            };
            let crit = if hit.damage.critical {
                " (critical: Dam doubled)"
            } else {
                ""
            };
            let armour = match (protection.armour, absorbed) {
                (_, 0) if h.kind.natural_18 && protection.armour.is_some() => {
                    " - armour ignored (natural 18)".to_string()
                }
                (Some(_), 0) if h.kind.critical => " - armour ignored (critical)".to_string(),
                (_, 0) => String::new(),
                (_, a) => format!(
                    " - {a} armour{}",
                    if protection.shield.is_some() && !h.kind.natural_18 {
                        " and shield"
                    } else {
                        ""
                    }
                ),
            };
            format!(
                "damage to {} from {}'s hit on the {}: {how}{crit} = {before}{armour} = {done}",
                s.name(t),
                s.name(h.attacker),
                h.location
            )
        });
        self.take_damage(dice, t, done)
    }

    /// Damage to CHP, then whatever the new CHP calls for (RULING M-7).
    pub(super) fn take_damage(
        &mut self,
        dice: &mut Dice<'_>,
        t: usize,
        damage: i64,
    ) -> Result<(), FightError> {
        if damage <= 0 {
            return Ok(());
        }
        let before = self.fighters[t].chp;
        let after = before.saturating_sub(damage);
        self.fighters[t].chp = after;
        let f = &self.fighters[t];
        let (minor, thp) = (f.sheet.minor, f.sheet.thp);
        self.note(None, |s| {
            format!("{}: CHP {before} -> {after} of {thp}", s.name(t))
        });
        match health::threshold(minor, after, thp) {
            Threshold::Unhurt => {}
            Threshold::MinorDead => self.set_state(
                t,
                State::Dead,
                rule::MINORS,
                "at 0 CHP or below a minor NPC is effectively dead",
            ),
            Threshold::CertainDeath => {
                let spend = self.fighters[t].fate_points > 0
                    && self.choose_yes(t, Kind::FatePoint, true, sentence::CERTAIN_DEATH, |s| {
                        format!(
                            "{}: below -50% THP, certain death; spend a Fate Point to remove the damage ({} left)?",
                            s.name(t),
                            s.fighters[t].fate_points
                        )
                    })?;
                if spend {
                    self.fighters[t].fate_points -= 1;
                    self.fighters[t].chp = before;
                    self.note(Some(rule::CERTAIN_DEATH), |s| {
                        format!("{} is below -50% THP, but spends a Fate Point to remove the damage (CHP back to {before})", s.name(t))
                    });
                } else {
                    self.set_state(
                        t,
                        State::Dead,
                        rule::CERTAIN_DEATH,
                        "below -50% THP: dead, no shock roll",
                    );
                }
            }
            Threshold::ShockOrDeath => {
                let (ok, _) = self.shock_roll(dice, t)?;
                if ok {
                    self.set_state(t, State::Unconscious(None), rule::DEATH, "below 0 CHP, the shock roll succeeds: unconscious until the end of the fight");
                } else if self.fighters[t].fate_points > 0
                    && self.choose_yes(t, Kind::FatePoint, true, sentence::FATE, |s| {
                        format!(
                            "{}: the shock roll fails below 0 CHP; spend a Fate Point to make it a success ({} left)?",
                            s.name(t),
                            s.fighters[t].fate_points
                        )
                    })?
                {
                    self.fighters[t].fate_points -= 1;
                    self.set_state(t, State::Unconscious(None), rule::FATE, "the shock roll fails below 0 CHP, but a Fate Point makes it a success: unconscious until the end of the fight");
                } else {
                    self.set_state(
                        t,
                        State::Dead,
                        rule::DEATH,
                        "below 0 CHP, the shock roll fails: dead",
                    );
                }
            }
            Threshold::ShockOrUnconscious => {
                let rule = if minor {
                    rule::MINORS
                } else {
                    rule::UNCONSCIOUS
                };
                let (ok, score) = self.shock_roll(dice, t)?;
                if !ok && self.fighters[t].standing() {
                    let turns = health::unconscious_turns(score);
                    let why = format!(
                        "the shock roll fails: unconscious for 15 - {score} = {turns} turn(s)"
                    );
                    self.set_state(t, State::Unconscious(Some(turns)), rule, &why);
                } else if !ok {
                    // Already down: a longer spell of unconsciousness, never a shorter one.
                    if let State::Unconscious(Some(n)) = self.fighters[t].state {
                        self.fighters[t].state =
                            State::Unconscious(Some(n.max(health::unconscious_turns(score))));
                    }
                }
            }
        }
        Ok(())
    }

    /// "Shock Roll = a check on the Shock trait" (RULING M-7): success and the score.
    pub(super) fn shock_roll(
        &mut self,
        dice: &mut Dice<'_>,
        t: usize,
    ) -> Result<(bool, i64), FightError> {
        let shock = self.fighters[t].sheet.shock_trait();
        let roll = self.roll(dice, t, shock, Mods::default(), RollFor::Shock)?;
        Ok((roll.outcome().succeeded(), roll.total))
    }

    pub(super) fn set_state(&mut self, t: usize, state: State, rule: &'static str, why: &str) {
        self.fighters[t].state = state;
        self.fighters[t].down_turn = self.turn;
        if !self.fighters[t].standing() {
            // The fallen lie on the floor: they block no one (P-69).
            self.vacate(t);
        }
        self.note_moved(rule, &[t], |s| format!("{}: {why}", s.name(t)));
    }
}
