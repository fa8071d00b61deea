//! Shots and offensive spells in one round (mls, *Shooting*, *Offensive
//! Spells*, *Range*, *Aiming a Shot*, *Reloading*, *Preparing Spells*, *Who May
//! Shoot*, *Move and Shoot*).
//!
//! Shots in a round are simultaneous: "A successful shot does not stop a
//! successful shot by the enemy." Each shot is rolled in file order of the
//! shooters; a target that dodges rolls right after the shot it dodges.

use super::{Action, Attacking, Fight, Mods, RollFor};
use crate::dice::Dice;
use crate::error::FightError;
use crate::log::rule;
use nutshell_rules::mls;
use std::sync::Arc;

/// The penalty for shooting `distance` squares with a weapon of `range`
/// (mls, *Range*: "Shooting outside of this range applies a penalty of -1 to
/// the roll for each increment of this range"; RULING M-9): -1 for each
/// increment begun beyond the range.
///
/// ```
/// use nutshell_mls::fight::range_penalty;
/// assert_eq!(range_penalty(10, 10), 0);
/// assert_eq!(range_penalty(11, 10), -1);
/// assert_eq!(range_penalty(20, 10), -1);
/// assert_eq!(range_penalty(21, 10), -2);
/// assert_eq!(range_penalty(30, 10), -2);
/// ```
pub fn range_penalty(distance: i64, range: i64) -> i64 {
    if range <= 0 || distance <= range {
        0
    } else {
        -((distance - range + range - 1) / range)
    }
}

impl Fight {
    /// mls, *Who May Shoot*: "Any active or inactive character who is not
    /// being attacked by an adjacent opponent may shoot". The adjacent enemy
    /// who attacks `i` in close combat this round, if any: one standing, with a
    /// close attack in this round, whose target is `i` or who has no other
    /// adjacent target (project ruling P-60). An adjacent charger who only
    /// attacks in the 5th round does not stop a shot in the 1st to 4th.
    fn attacked_by_adjacent(&self, i: usize, round: usize) -> Option<usize> {
        self.adjacent_enemies(i).into_iter().find(|&j| {
            let f = &self.fighters[j];
            f.schedule.has(round)
                && f.attacking != Attacking::Ranged
                && f.target
                    .is_none_or(|t| t == i || !self.adjacent(j, t) || !self.fighters[t].standing())
        })
    }

    pub(super) fn shoot(&mut self, dice: &mut Dice<'_>, round: usize) -> Result<(), FightError> {
        let n = self.fighters.len();
        let mut shots: Vec<(usize, usize)> = Vec::new();
        for i in 0..n {
            let f = &self.fighters[i];
            if !(f.standing() && f.schedule.has(round) && f.attacking == Attacking::Ranged) {
                continue;
            }
            let sheet = Arc::clone(&f.sheet);
            let Some(weapon) = sheet.ranged() else {
                continue;
            };
            if let Some(j) = self.attacked_by_adjacent(i, round) {
                self.note(Some(rule::WHO_MAY_SHOOT), |s| {
                    format!(
                        "{} cannot shoot: {} attacks {} from an adjacent square this round",
                        s.name(i),
                        s.name(j),
                        s.name(i)
                    )
                });
                continue;
            }
            if f.reload_left > 0 {
                self.fighters[i].reload_left -= 1;
                self.note(Some(rule::RELOADING), |s| {
                    format!(
                        "{} spends the attack reloading the {}",
                        s.name(i),
                        weapon.name
                    )
                });
                continue;
            }
            // A spell spends magic points: without enough, no casting.
            if let Some(cost) = weapon.mp {
                let left = f.mp.unwrap_or(0);
                if left < i64::from(cost) {
                    self.note(Some(rule::MAGIC_POINTS), |s| {
                        format!(
                            "{} cannot cast {}: it needs {cost} magic point(s), {} has {left}",
                            s.name(i),
                            weapon.name,
                            s.name(i)
                        )
                    });
                    continue;
                }
            }
            let prepare = weapon.actions_to_prepare();
            if f.prepared < prepare {
                self.fighters[i].prepared += 1;
                self.note(Some(rule::PREPARING), |s| {
                    format!(
                        "{} spends the attack preparing {} ({}/{prepare})",
                        s.name(i),
                        weapon.name,
                        s.fighters[i].prepared,
                    )
                });
                continue;
            }
            let candidates: Vec<usize> = self
                .standing_enemies(i)
                .into_iter()
                .filter(|&j| self.attackable(j, round))
                // a mover who shoots "may be shot at only once per opponent"
                .filter(|&j| {
                    !(self.fighters[j].action == Some(Action::MoveAndShoot)
                        && self.fighters[j].shot_by.contains(&i))
                })
                .collect();
            let keep = f.target.filter(|t| candidates.contains(t));
            let Some(t) = keep.or_else(|| self.pick(i, &candidates)) else {
                continue;
            };
            self.fighters[i].target = Some(t);
            self.fighters[i].reload_left = weapon.reload;
            self.fighters[i].prepared = 0;
            if let Some(cost) = weapon.mp {
                let left = self.fighters[i].mp.unwrap_or(0) - i64::from(cost);
                self.fighters[i].mp = Some(left);
                self.note(Some(rule::MAGIC_POINTS), |s| {
                    format!(
                        "{} spends {cost} magic point(s) on {}: {left} left",
                        s.name(i),
                        weapon.name
                    )
                });
            }
            shots.push((i, t));
        }
        for &(s, t) in &shots {
            self.resolve_shot(dice, round, s, t, &shots)?;
        }
        Ok(())
    }

    fn resolve_shot(
        &mut self,
        dice: &mut Dice<'_>,
        round: usize,
        s: usize,
        t: usize,
        shots: &[(usize, usize)],
    ) -> Result<(), FightError> {
        let f = &self.fighters[s];
        let sheet = Arc::clone(&f.sheet);
        let Some(weapon) = sheet.ranged() else {
            return Ok(());
        };
        let skill = f.sheet.skill(&weapon.skill);
        let distance = self.separation(s, t);
        let range = range_penalty(distance, weapon.range.unwrap_or(1));
        let modifier = Mods::default()
            .timing(f.schedule.modifier(round).unwrap_or(0))
            .add(range, "range")
            .add(f.sheet.tactic.aim_penalty(), "aim");
        if range != 0 {
            self.note(Some(rule::RANGE), |_| {
                format!(
                    "{} squares with a range of {}: {range}",
                    distance,
                    weapon.range.unwrap_or(1)
                )
            });
        }
        let rs = self.roll(dice, s, skill, modifier, RollFor::Shot(t, &weapon.name))?;
        self.fighters[t].shot_by.push(s);
        let mutual = shots.contains(&(t, s));
        let (target_side, would_dodge) = {
            let target = &self.fighters[t];
            (
                target.side,
                target.sheet.tactic.dodge && !target.schedule.has(round),
            )
        };
        // "A knowing enemy may choose to Dodge": a surprised side knows of no
        // enemy in the first turn, the surprisers' (project ruling P-61).
        let knowing = !(self.surprised == Some(target_side) && self.turn == 1);
        let dodges = knowing && !mutual && would_dodge;
        if !knowing && would_dodge {
            self.note(Some(rule::SHOOTING), |f| {
                format!(
                    "{} is surprised and does not know of {}: no dodge",
                    f.name(t),
                    f.name(s)
                )
            });
        }
        if dodges {
            // "A knowing enemy may choose to Dodge provided he is not attacking."
            let dodge = self.fighters[t].sheet.dodge();
            let rd = self.roll(dice, t, dodge, Mods::default(), RollFor::Dodge)?;
            let r = mls::opposed(rs.rolled(), rd.rolled());
            if r.wins {
                self.score(s, t, weapon.dam, rs, r, true);
            } else {
                self.note(Some(rule::SHOOTING), |f| {
                    format!("{}'s shot misses {}", f.name(s), f.name(t))
                });
            }
        } else {
            if mutual && s < t {
                self.note(Some(rule::SHOOTING), |f| {
                    format!(
                        "{} and {} shoot at each other: each hits on a success",
                        f.name(s),
                        f.name(t)
                    )
                });
            }
            self.unopposed_hit(s, t, weapon.dam, rs);
        }
        Ok(())
    }
}
