//! The decision sites of the rounds and of the line: aiming an attack or a
//! shot, spending an attack reloading or preparing, advancing into a fallen
//! opponent's square or following up a Total Attack, shooting back, and how
//! far to move on the line in a fight without a map (docs/mls/combat.md,
//! "Playing a fight by decisions"; P-88).
//!
//! As in `choices`, each site first asks whether the fight is played by
//! decisions; when it is not, it returns the engine's pick without building
//! any option, so `mls simulate` keeps its speed.
//!
//! # In detail
//!
//! The sites: aiming an attack or a shot, an attack spent reloading or
//! preparing or held, advancing into a fallen opponent's square or following
//! up a Total Attack, shooting back, how far to move on the line, and the
//! point of a Move and Shoot's move the shot is taken from (P-94).

use super::choices::sentence;
use super::decide::{Ask, Choice, Controller, Kind, Opt, RuledOut};
use super::{Action, Fight};
use crate::body::Location;
use crate::error::FightError;
use crate::map::Pose;
use crate::sheet::Mode;

impl Fight {
    /// Where `i` aims this round's close attack (`shot` false) or shot: the
    /// tactic's `aim`, or decided (mls, *Aiming a Shot*, *Aiming an
    /// Attack*). A person's Total Defence, foregone attack or break-off does
    /// no damage and is not aimed (P-88).
    pub(super) fn choose_aim(&mut self, i: usize, shot: bool) -> Result<(), FightError> {
        if !self.deciding() {
            return Ok(());
        }
        let tactic = self.fighters[i].sheet.tactic.aim;
        let default = Choice::Aim(tactic.unwrap_or(Location::Chest));
        if !self.person_decides(i, Kind::Aim, |_| default.clone()) {
            self.fighters[i].aim = tactic;
            return Ok(());
        }
        let f = &self.fighters[i];
        if !shot && (matches!(f.mode, Mode::TotalDefence | Mode::Forego) || f.breaking_off) {
            self.fighters[i].aim = None;
            return Ok(());
        }
        let rule = if shot {
            sentence::AIM_SHOT
        } else {
            sentence::AIM_ATTACK
        };
        let options = std::iter::once(Location::Chest)
            .chain(Location::ALL.into_iter().filter(|&l| l != Location::Chest))
            .map(|l| Opt {
                choice: Choice::Aim(l),
                label: match l.aim() {
                    Some((penalty, required)) => format!("the {l} ({penalty}, {required}+)"),
                    None => Choice::Aim(l).to_string(),
                },
                rule,
            })
            .collect();
        let target = self.fighters[i]
            .target
            .map(|t| self.name(t).to_string())
            .unwrap_or_default();
        let question = format!(
            "{}: where to aim this round's {} at {target} (the penalty applies to the roll, and the total must reach the score, else the chest is hit)",
            self.name(i),
            if shot { "shot" } else { "attack" }
        );
        let aim = self.decide(
            Ask {
                who: i,
                kind: Kind::Aim,
                question,
                options,
                ruled_out: Vec::new(),
                default,
            },
            |_, c| match c {
                Choice::Aim(l) => Ok(*l),
                _ => Err("the answer is not a location".into()),
            },
        )?;
        self.fighters[i].aim = (aim != Location::Chest).then_some(aim);
        Ok(())
    }

    /// Whether `i` spends this round's attack reloading its `weapon`
    /// (`preparing` false) or preparing its spell, or holds it: the engine
    /// always spends it; a person may hold it (mls, *Foregoing Attacks*).
    /// Shooting instead is ruled out with the sentence: "This requires a
    /// number of 'attacks' to be spent reloading instead of shooting".
    pub(super) fn choose_reload(
        &mut self,
        i: usize,
        preparing: bool,
        weapon: &str,
        left: u32,
    ) -> Result<bool, FightError> {
        if !self.person_decides(i, Kind::Reload, |_| Choice::Yes(true)) {
            return Ok(true);
        }
        let rule = if preparing {
            sentence::PREPARE
        } else {
            sentence::RELOAD
        };
        let what = if preparing {
            format!("prepare {weapon} ({left} attack(s) to go)")
        } else {
            format!("reload the {weapon} ({left} attack(s) to go)")
        };
        let options = vec![
            Opt {
                choice: Choice::Yes(true),
                label: what,
                rule,
            },
            Opt {
                choice: Choice::Yes(false),
                label: "hold the attack".into(),
                rule: sentence::FOREGO,
            },
        ];
        let ruled_out = self
            .standing_enemies(i)
            .into_iter()
            .map(|j| RuledOut {
                choice: Choice::Target(self.name(j).to_string()),
                why: format!(
                    "{rule}: the {weapon} is not {} ({left} attack(s) to go): {:?} cannot be {} now",
                    if preparing { "prepared" } else { "loaded" },
                    self.name(j),
                    if preparing { "cast at" } else { "shot" }
                ),
            })
            .collect();
        let question = format!(
            "{}: this round's attack: {}?",
            self.name(i),
            if preparing {
                "prepare the spell"
            } else {
                "reload"
            }
        );
        self.decide(
            Ask {
                who: i,
                kind: Kind::Reload,
                question,
                options,
                ruled_out,
                default: Choice::Yes(true),
            },
            |_, c| match c {
                Choice::Yes(y) => Ok(*y),
                _ => Err("the answer is not yes or no".into()),
            },
        )
    }

    /// mls, *Shooting*: "He may also choose to shoot back if he has chosen a
    /// Shoot action." After every shot of `round` is aimed (`shots`, each
    /// shooter's `candidates`, and whether its arc was set by this shot), a
    /// shooter with a Shoot or Cast action who is shot at by someone he could
    /// shoot, and aims elsewhere, is asked whether to shoot back at him
    /// instead (P-88). The engine keeps its target.
    pub(super) fn shoot_back(
        &mut self,
        round: usize,
        shots: &mut [(usize, usize)],
        candidates: &[Vec<usize>],
        fresh_arc: &[bool],
    ) -> Result<(), FightError> {
        for k in 0..shots.len() {
            let (t, aimed) = shots[k];
            if !matches!(
                self.fighters[t].action,
                Some(Action::Shoot | Action::CastOffensiveSpells)
            ) {
                continue;
            }
            let at_him: Vec<usize> = shots
                .iter()
                .filter(|&&(s, x)| x == t && s != aimed && candidates[k].contains(&s))
                .map(|&(s, _)| s)
                .collect();
            for s in at_him {
                let back =
                    self.choose_yes(t, Kind::ShootBack, false, sentence::SHOOT_BACK, |f| {
                        format!(
                            "{}: {} shoots at you this round; shoot back at {} instead of {}?",
                            f.name(t),
                            f.name(s),
                            f.name(s),
                            f.name(aimed)
                        )
                    })?;
                if !back {
                    continue;
                }
                shots[k].1 = s;
                self.fighters[t].target = Some(s);
                if self.on_map() && fresh_arc[k] {
                    self.fighters[t].shot_arc = None;
                    let arc = self
                        .pose_in_round(t, round)
                        .and_then(|p| self.sight_from(t, p, s, Some(round)))
                        .map(|(arc, _)| arc);
                    self.fighters[t].shot_arc = arc;
                }
                self.note(Some(crate::log::rule::SHOOTING), |f| {
                    format!("{} shoots back at {}", f.name(t), f.name(s))
                });
                break;
            }
        }
        Ok(())
    }

    /// Whether `attacker` advances after `fallen` fell: into his square
    /// (mls, *Killing an Opponent*; `follow_up` false) or following up a
    /// critical against a Total Attack (*Following Up a Total Attack*). The
    /// engine's pick is `default`; a person decides.
    pub(super) fn choose_advance(
        &mut self,
        attacker: usize,
        fallen: usize,
        follow_up: bool,
        default: bool,
    ) -> Result<bool, FightError> {
        let rule = if follow_up {
            sentence::FOLLOW_UP
        } else {
            sentence::KILLING
        };
        self.choose_yes(attacker, Kind::Advance, default, rule, |f| {
            if follow_up {
                format!(
                    "{}: a critical against {}'s Total Attack: follow up, trading squares with him?",
                    f.name(attacker),
                    f.name(fallen)
                )
            } else {
                format!(
                    "{}: {} has fallen: move into his square?",
                    f.name(attacker),
                    f.name(fallen)
                )
            }
        })
    }

    /// On the line (a fight without a map), how far `i` moves for `action`
    /// relative to `j`, the nearest enemy: `engine` squares toward him (the
    /// tactic's), or decided: toward him up to `most` (his allowance, and no
    /// further than next to him), or, for a Move or Move and Shoot, away from
    /// him up to his allowance (P-88). Positive toward, negative away.
    pub(super) fn line_squares(
        &mut self,
        i: usize,
        action: Action,
        j: usize,
        engine: i64,
        most: i64,
    ) -> Result<i64, FightError> {
        if !self.person_decides(i, Kind::Movement, |_| Choice::Squares(engine)) {
            return Ok(engine);
        }
        let movement = self.fighters[i].sheet.movement();
        let least = if action == Action::Charge {
            0
        } else {
            -movement
        };
        if least >= most {
            return Ok(engine);
        }
        let rule = match action {
            Action::Charge => sentence::CHARGE,
            Action::MoveAndShoot => sentence::MOVE_AND_SHOOT,
            _ => sentence::LINE,
        };
        let options = (least..=most)
            .map(|n| Opt {
                choice: Choice::Squares(n),
                label: Choice::Squares(n).to_string(),
                rule: if n < 0 { sentence::LINE } else { rule },
            })
            .collect();
        let gap = self.separation(i, j) - 1;
        let name = self.name(j).to_string();
        let why = move |n: i64| -> String {
            if n > movement || -n > movement {
                format!("{}: Agl+1 is {movement}", sentence::LINE)
            } else if n > most {
                format!(
                    "{}: {gap} square(s) lie between him and {name:?}",
                    sentence::LINE
                )
            } else {
                format!("{}: a charge closes on the enemy (P-88)", sentence::CHARGE)
            }
        };
        let mut ruled_out = vec![RuledOut {
            choice: Choice::Squares(most + 1),
            why: why(most + 1),
        }];
        if least > -movement - 1 {
            ruled_out.push(RuledOut {
                choice: Choice::Squares(least - 1),
                why: why(least - 1),
            });
        }
        let question = format!(
            "{}: how far to move for {} ({} square(s) apart from {}; Agl+1 = {movement})",
            self.name(i),
            action.name(),
            self.separation(i, j),
            self.name(j)
        );
        self.decide(
            Ask {
                who: i,
                kind: Kind::Movement,
                question,
                options,
                ruled_out,
                default: Choice::Squares(engine),
            },
            |_, c| match *c {
                Choice::Squares(n) if (least..=most).contains(&n) => Ok(n),
                Choice::Squares(n) => Err(why(n)),
                _ => Err("the answer is not a number of squares".into()),
            },
        )
    }

    /// mls, *Move and Shoot*: "he may attack in any single round from any
    /// point during his movement ... (normally the round will be where the
    /// movement point expended - 3rd movement point means 3rd round)". A
    /// person chooses the point of his move (`points`: the movement points
    /// spent there, with the pose on the map or the position on the line)
    /// his shot is taken from; its round is those movement points, 1 to 5
    /// (P-94). The engine shoots from the end of its move, as before, and
    /// is not asked.
    pub(super) fn choose_shot_point(
        &mut self,
        i: usize,
        points: &[(u32, Option<Pose>, i64)],
    ) -> Result<(), FightError> {
        if !self.deciding()
            || points.len() < 2
            || self.decider(i, Kind::ShotPoint) == Controller::Engine
        {
            return Ok(());
        }
        let round_of = |mp: u32| (mp as usize).clamp(1, crate::schedule::ROUNDS);
        let options = points
            .iter()
            .map(|&(mp, pose, _)| Opt {
                choice: Choice::ShotAt(mp),
                label: match pose {
                    Some(p) => format!("from {} after {mp} MP: round {}", p.square, round_of(mp)),
                    None => format!("after {mp} square(s): round {}", round_of(mp)),
                },
                rule: sentence::MOVE_AND_SHOOT,
            })
            .collect();
        let last = points.last().map_or(0, |p| p.0);
        let ruled_out = vec![RuledOut {
            choice: Choice::ShotAt(last + 1),
            why: format!(
                "{}: the move spends {last} movement point(s)",
                sentence::MOVE_AND_SHOOT
            ),
        }];
        let question = format!(
            "{}: from which point of the move to shoot (its round is the movement points spent there: 3rd movement point, 3rd round)",
            self.name(i)
        );
        let (mp, pose, position) = self.decide(
            Ask {
                who: i,
                kind: Kind::ShotPoint,
                question,
                options,
                ruled_out,
                default: Choice::ShotAt(last),
            },
            |_, c| match c {
                Choice::ShotAt(mp) => {
                    points.iter().find(|p| p.0 == *mp).copied().ok_or_else(|| {
                        format!(
                            "{}: no point of the move is {mp} movement point(s) along it",
                            sentence::MOVE_AND_SHOOT
                        )
                    })
                }
                _ => Err("the answer is not a point of the move".into()),
            },
        )?;
        let round = round_of(mp);
        self.fighters[i].shot_point = Some((round, pose, position));
        self.note(Some(crate::log::rule::MOVE_AND_SHOOT), |f| match pose {
            Some(p) => format!(
                "{} will shoot from {} ({mp} MP along the move) in round {round}",
                f.name(i),
                p.square
            ),
            None => format!(
                "{} will shoot after {mp} square(s) of the move, in round {round}",
                f.name(i)
            ),
        });
        Ok(())
    }

    /// On the line: moves `i` up to `squares` away from `j`; returns the
    /// squares moved.
    pub(super) fn withdraw(&mut self, i: usize, j: usize, squares: i64) -> i64 {
        let dir = (self.fighters[i].position - self.fighters[j].position).signum();
        let dir = if dir == 0 {
            if self.fighters[i].side == 0 { -1 } else { 1 }
        } else {
            dir
        };
        self.fighters[i].position += dir * squares;
        squares
    }
}
