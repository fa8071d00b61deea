//! Shots and offensive spells in one round (mls, *Shooting*, *Offensive
//! Spells*, *Range*, *Aiming a Shot*, *Reloading*, *Preparing Spells*, *Who May
//! Shoot*, *Move and Shoot*).
//!
//! Shots in a round are simultaneous: "A successful shot does not stop a
//! successful shot by the enemy." Each shot is rolled in file order of the
//! shooters; a target that dodges rolls right after the shot it dodges.

use super::choices::sentence;
use super::decide::Kind;
use super::{Action, Attacking, Fight, Mods, RollFor};
use crate::dice::Dice;
use crate::error::FightError;
use crate::log::rule;
use crate::map::{self, Arc as FireArc, MissileKind, Pose};
use crate::sheet::{Launcher, WeaponKind};
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
    /// Where `i` stands in `round`: a Move and Shoot mover is where its
    /// movement had taken it by then ("3rd movement point means 3rd round";
    /// in the 5th round, at its movement's end).
    pub(super) fn pose_in_round(&self, i: usize, round: usize) -> Option<Pose> {
        let f = &self.fighters[i];
        if let Some((r, Some(pose), _)) = f.shot_point
            && r == round
        {
            // The point of the move a person shoots from (P-94).
            return Some(pose);
        }
        if f.route.is_empty() || round >= 5 {
            return f.pose;
        }
        f.route
            .iter()
            .rev()
            .find(|(mp, _)| *mp as usize <= round)
            .map(|(_, p)| *p)
            .or(f.pose)
    }

    /// The arcs `i`'s missile weapon or spell may shoot into (mls, *Who May
    /// Shoot*, *Who May Cast*).
    fn missile_kind(&self, i: usize) -> MissileKind {
        let sheet = &self.fighters[i].sheet;
        match sheet.ranged() {
            Some(w) if w.kind == WeaponKind::Spell => MissileKind::Spell,
            _ if sheet.horse_archer => MissileKind::HorseArcher,
            Some(w) if w.missile == Some(Launcher::Other) => MissileKind::Other,
            _ => MissileKind::ThrownOrBow,
        }
    }

    /// Whether `i`, standing at `pose`, could shoot `j` (where `j` stands in
    /// `round`, or now): `j` in an arc `i`'s weapon may shoot into and, once
    /// this turn's first shot is made, in that arc (mls, *Close Targets*),
    /// seen with nothing in the way (P-68). The arc and the range (P-66).
    pub(super) fn sight_from(
        &self,
        i: usize,
        pose: Pose,
        j: usize,
        round: Option<usize>,
    ) -> Option<(FireArc, i64)> {
        let field = self.field.as_ref()?;
        let kind = self.missile_kind(i);
        let left_handed = self.fighters[i].sheet.left_handed;
        let at = match round {
            Some(r) => self.pose_in_round(j, r)?,
            None => self.fighters[j].pose?,
        };
        map::body_squares(at, self.fighters[j].sheet.squares_long()).find_map(|square| {
            let arc = map::arc(pose, square)?;
            let allowed = map::may_shoot_into(kind, arc, left_handed)
                && self.fighters[i].shot_arc.is_none_or(|a| a == arc);
            let in_the_way = |q| self.occupant(q).is_some_and(|o| o != i && o != j);
            (allowed && map::clear_shot(&field.map, pose.square, square, &in_the_way))
                .then(|| (arc, i64::from(map::range(pose.square, square))))
        })
    }

    /// Whether `i` has a standing enemy to shoot from where it stands.
    pub(super) fn has_a_shot(&self, i: usize) -> bool {
        let Some(pose) = self.fighters[i].pose else {
            return false;
        };
        self.standing_enemies(i)
            .into_iter()
            .any(|j| self.sight_from(i, pose, j, None).is_some())
    }

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
                && (!self.on_map() || self.in_reach(j, i))
                && f.target
                    .is_none_or(|t| t == i || !self.adjacent(j, t) || !self.fighters[t].standing())
        })
    }

    pub(super) fn shoot(&mut self, dice: &mut Dice<'_>, round: usize) -> Result<(), FightError> {
        let n = self.fighters.len();
        let mut shots: Vec<(usize, usize)> = Vec::new();
        // For shooting back (fights played by decisions): each shot's
        // candidates, and whether its arc was set by it.
        let mut candidates_of: Vec<Vec<usize>> = Vec::new();
        let mut fresh_arc: Vec<bool> = Vec::new();
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
                let left = f.reload_left;
                if !self.choose_reload(i, false, &weapon.name, left)? {
                    self.fighters[i].held = Some((self.turn, round));
                    self.note(Some(rule::RELOADING), |s| {
                        format!(
                            "{} holds the attack: the {} stays unloaded",
                            s.name(i),
                            weapon.name
                        )
                    });
                    continue;
                }
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
            let f = &self.fighters[i];
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
                let left = prepare - f.prepared;
                if !self.choose_reload(i, true, &weapon.name, left)? {
                    self.fighters[i].held = Some((self.turn, round));
                    self.note(Some(rule::PREPARING), |s| {
                        format!(
                            "{} holds the attack: {} is not prepared",
                            s.name(i),
                            weapon.name
                        )
                    });
                    continue;
                }
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
                // On a map: in an arc of the weapon and in sight.
                .filter(|&j| {
                    !self.on_map()
                        || self
                            .pose_in_round(i, round)
                            .and_then(|p| self.sight_from(i, p, j, Some(round)))
                            .is_some()
                })
                .collect();
            let keep = self.fighters[i].target.filter(|t| candidates.contains(t));
            let t = match keep {
                Some(t) => Some(t),
                None => {
                    let default = self.pick(i, &candidates);
                    self.choose_target(i, &candidates, default, true)?
                }
            };
            let Some(t) = t else {
                if self.on_map() {
                    self.note(Some(rule::WHO_MAY_SHOOT), |s| {
                        format!(
                            "{} has no target: no enemy open to attack in sight in an arc it may shoot into",
                            s.name(i)
                        )
                    });
                }
                continue;
            };
            self.fighters[i].target = Some(t);
            if self.deciding() {
                fresh_arc.push(self.fighters[i].shot_arc.is_none());
                candidates_of.push(candidates);
                self.choose_aim(i, true)?;
            }
            if self.on_map() && self.fighters[i].shot_arc.is_none() {
                let arc = self
                    .pose_in_round(i, round)
                    .and_then(|p| self.sight_from(i, p, t, Some(round)))
                    .map(|(arc, _)| arc);
                self.fighters[i].shot_arc = arc;
                if let Some(arc) = arc {
                    self.note(Some(rule::CLOSE_TARGETS), |s| {
                        format!(
                            "{} shoots into its {} arc: its other shots this turn go there too",
                            s.name(i),
                            arc.name()
                        )
                    });
                }
            }
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
        if self.deciding() {
            self.shoot_back(round, &mut shots, &candidates_of, &fresh_arc)?;
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
        let distance = match self.pose_in_round(s, round) {
            Some(pose) => self
                .sight_from(s, pose, t, Some(round))
                .map_or_else(|| self.separation(s, t), |(_, range)| range),
            None => match f.shot_point {
                // On the line, the point of the move a person shoots from
                // (P-94).
                Some((r, None, at)) if r == round => (at - self.fighters[t].position).abs(),
                _ => self.separation(s, t),
            },
        };
        let range = range_penalty(distance, weapon.range.unwrap_or(1));
        let modifier = Mods::default()
            .timing(f.schedule.modifier(round).unwrap_or(0))
            .add(range, "range")
            .add(f.aim_penalty(), "aim");
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
        // "provided he is not attacking": one who holds his attack this
        // round is not attacking.
        let attacking = self.fighters[t].attacks_in(self.turn, round);
        let (target_side, would_dodge) = {
            let target = &self.fighters[t];
            (target.side, target.sheet.tactic.dodge && !attacking)
        };
        // "A knowing enemy may choose to Dodge": a surprised side knows of no
        // enemy in the first turn, the surprisers' (project ruling P-61).
        let knowing = !(self.surprised == Some(target_side) && self.turn == 1);
        let may_dodge = knowing && !mutual && !attacking;
        let dodges = if may_dodge {
            self.choose_yes(t, Kind::Dodge, would_dodge, sentence::DODGE, |f| {
                format!(
                    "{}: {} shoots at you ({}); dodge?",
                    f.name(t),
                    f.name(s),
                    weapon.name
                )
            })?
        } else {
            false
        };
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
