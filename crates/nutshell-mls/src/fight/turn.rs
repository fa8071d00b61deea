//! A turn (mls, *Party Turns and Turn Order*): the movement phase (set
//! actions chosen and moves made), everyone's attacks scheduled, the rounds
//! resolved in `close` and `shooting`, and the turn's end.

use super::decide::{Controller, Kind};
use super::{Action, Attacking, Ending, Fight};
use crate::dice::Dice;
use crate::error::FightError;
use crate::health::State;
use crate::log::rule;
use crate::schedule::Schedule;
use crate::sheet::{Preferred, WeaponKind};

impl Fight {
    /// The movement phase: the active side chooses set actions and moves; then
    /// everyone's attacks for the turn are scheduled.
    pub(super) fn begin_turn(&mut self, dice: &mut Dice<'_>) -> Result<(), FightError> {
        self.turn += 1;
        let active = self.active_side();
        self.note(Some(rule::TURN_ORDER), |s| {
            format!("Turn {}: {}", s.turn, s.sides[active])
        });
        for i in 0..self.fighters.len() {
            let f = &mut self.fighters[i];
            f.schedule = Schedule::none();
            f.charging = false;
            f.moved = 0;
            f.shot_by.clear();
            f.attacked = false;
            f.route.clear();
            f.shot_point = None;
            f.move_points.clear();
            f.shot_arc = None;
        }
        if self.turn == 1 {
            // The side acting second has its set actions ready from the start
            // (project ruling P-22): an archer can shoot back in the first turn.
            self.members_act(1 - active, true, dice)?;
        }
        self.members_act(active, false, dice)?;
        for i in 0..self.fighters.len() {
            if self.fighters[i].standing() {
                self.schedule(i, active)?;
            }
        }
        Ok(())
    }

    /// The standing members of `side` act one at a time, each his set
    /// action and then his move (`ready`: only standing ready with a set
    /// action before their side's first turn, P-22). They may declare in any
    /// order (mls, *Party Turns and Turn Order* orders the sides, not the
    /// members of a side; the engine's combatants decide at once): the first
    /// left in the fighters' order acts at once if the engine controls him;
    /// else the member whose set action is the next answer given acts; with
    /// none given, the fight waits for every member left whom a person
    /// controls, asked for their set actions at once. Answers given in the
    /// fighters' order make them act in that order.
    fn members_act(
        &mut self,
        side: usize,
        ready: bool,
        dice: &mut Dice<'_>,
    ) -> Result<(), FightError> {
        if !self.deciding() {
            // Every choice the engine's: in the fighters' order.
            for i in 0..self.fighters.len() {
                if self.fighters[i].side == side && self.fighters[i].standing() {
                    self.act(i, ready, dice)?;
                }
            }
            return Ok(());
        }
        let mut acted = vec![false; self.fighters.len()];
        loop {
            let left: Vec<usize> = (0..self.fighters.len())
                .filter(|&i| {
                    self.fighters[i].side == side && !acted[i] && self.fighters[i].standing()
                })
                .collect();
            if left.is_empty() {
                self.stand_by(Vec::new());
                return Ok(());
            }
            let i = self.next_to_act(&left, ready)?;
            acted[i] = true;
            self.act(i, ready, dice)?;
        }
    }

    /// `i` chooses his set action and makes its move (`ready`: only stands
    /// ready with it, P-22).
    fn act(&mut self, i: usize, ready: bool, dice: &mut Dice<'_>) -> Result<(), FightError> {
        let action = self.set_action(i, ready, dice)?;
        self.fighters[i].action = Some(action);
        if ready {
            self.note(Some(rule::SET_ACTIONS), |s| {
                format!("{} stands ready to {}", s.name(i), action.name())
            });
            return Ok(());
        }
        if action == Action::Flee {
            self.fighters[i].fled_turn = Some(self.turn);
        }
        self.note(Some(rule::SET_ACTIONS), |s| {
            format!("{} chooses {}", s.name(i), action.name())
        });
        self.make_move(i, action)
    }

    /// Which of `left` (members yet to act, in the fighters' order) acts
    /// next: the first, at once, if the engine controls him; else the one
    /// whose set action was answered first at the table (answers come in
    /// any order), the others a person controls standing by (asked with
    /// whatever the fight stops at while he acts); else the one whose set
    /// action is the next answer of the queue; else, with no answer waiting,
    /// the fight waits for the set actions of every one of `left` whom a
    /// person controls.
    fn next_to_act(&mut self, left: &[usize], ready: bool) -> Result<usize, FightError> {
        let first = left[0];
        let Some(d) = self.decisions.as_deref() else {
            return Ok(first);
        };
        if self.decider(first, Kind::SetAction) == Controller::Engine {
            self.stand_by(Vec::new());
            return Ok(first);
        }
        let answered = d.answers.iter().find_map(|m| {
            if m.kind != Kind::SetAction {
                return None;
            }
            left.iter().copied().find(|&i| {
                self.fighters[i].sheet.name == m.who
                    && m.id.as_deref() == Some(self.decision_id(i, Kind::SetAction).as_str())
            })
        });
        let persons: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&i| self.decider(i, Kind::SetAction) == Controller::Person)
            .collect();
        if let Some(i) = answered {
            let mut asks = Vec::new();
            for &j in &persons {
                if j != i && self.answer_waiting(j, Kind::SetAction).is_none() {
                    let default = self.choose_action(j);
                    asks.push(self.set_action_ask(j, ready, default));
                }
            }
            self.stand_by(asks);
            return Ok(i);
        }
        self.stand_by(Vec::new());
        let d = self.decisions.as_deref().expect("deciding");
        if let Some(m) = d.queue.front().filter(|m| m.kind == Kind::SetAction)
            && let Some(&i) = left.iter().find(|&&i| self.fighters[i].sheet.name == m.who)
        {
            return Ok(i);
        }
        // An answer of another kind first: the first acts, and the answer
        // is his or an error, as the orders say.
        if !d.queue.is_empty() {
            return Ok(first);
        }
        let mut asks = Vec::with_capacity(persons.len());
        for i in persons {
            let default = self.choose_action(i);
            asks.push(self.set_action_ask(i, ready, default));
        }
        Err(self.wait_for_all(asks))
    }

    /// Those of `enemies` who chose Flee! in their side's last turn (mls,
    /// *Pursue*: "may only move directly after a character who chose Flee!
    /// in the opposing side's last Turn"): not one who only stood ready to
    /// flee before his side's first turn (P-22).
    pub(super) fn fleeing(&self, enemies: &[usize]) -> Vec<usize> {
        let last = self.turn.saturating_sub(1);
        enemies
            .iter()
            .copied()
            .filter(|&j| last > 0 && self.fighters[j].fled_turn == Some(last))
            .collect()
    }

    /// Chooses `i`'s set action for this turn: its tactic, within the rules.
    pub(super) fn choose_action(&mut self, i: usize) -> Action {
        let f = &self.fighters[i];
        let ranged = f.sheet.ranged().map(|w| w.kind);
        if f.broke_off || f.sheet.tactic.action == Some(Preferred::Flee) {
            Action::Flee
        } else if f.sheet.tactic.turn_action.is_some() {
            Action::TurnAction
        } else if self.engaged(i) {
            Action::Fight
        } else if f.sheet.melee().is_some()
            && ranged.is_none()
            && !self.fleeing(&self.standing_enemies(i)).is_empty()
        {
            Action::Pursue
        } else if let Some(kind) = ranged {
            match (f.sheet.tactic.action, kind) {
                (Some(Preferred::MoveAndShoot), _) => Action::MoveAndShoot,
                (Some(Preferred::Respond), _) => Action::Respond,
                (Some(Preferred::Flee), _) => Action::Flee,
                // On a map, a shooter with no enemy in an arc and in sight
                // moves to find one (mls, *Move and Shoot*).
                (None, _) if self.on_map() && !self.has_a_shot(i) => Action::MoveAndShoot,
                (None, WeaponKind::Spell) => Action::CastOffensiveSpells,
                (None, _) => Action::Shoot,
            }
        } else if f.sheet.melee().is_none() || f.sheet.tactic.action == Some(Preferred::Respond) {
            Action::Respond
        } else if self.on_map() {
            let enemies = self.standing_enemies(i);
            let budget = u32::try_from(f.sheet.movement()).unwrap_or(0);
            if self.attack_path(i, budget, &enemies).is_some() {
                Action::Charge
            } else if enemies.is_empty() {
                Action::Respond
            } else {
                Action::Move
            }
        } else {
            let target = self.nearest(i, &self.standing_enemies(i));
            match target {
                Some(j) if self.separation(i, j) - 1 <= f.sheet.movement() => Action::Charge,
                Some(_) => Action::Move,
                None => Action::Respond,
            }
        }
    }

    /// Makes `i`'s move for its set action (mls, *1. Movement*).
    pub(super) fn make_move(&mut self, i: usize, action: Action) -> Result<(), FightError> {
        if self.on_map() {
            return self.movement(i, action);
        }
        let enemies = self.standing_enemies(i);
        let fleeing = self.fleeing(&enemies);
        let movement = self.fighters[i].sheet.movement();
        match action {
            Action::Charge | Action::Move => {
                if let Some(j) = self.nearest(i, &enemies) {
                    let most = movement.min(self.separation(i, j) - 1).max(0);
                    let n = self.line_squares(i, action, j, most, most)?;
                    if n < 0 {
                        let moved = self.withdraw(i, j, -n);
                        self.fighters[i].moved = moved;
                        self.note(Some(rule::MOVEMENT), |s| {
                            format!(
                                "{} withdraws {moved} square(s) from {} (up to Agl+1 = {movement}); {} apart",
                                s.name(i),
                                s.name(j),
                                s.separation(i, j)
                            )
                        });
                        return Ok(());
                    }
                    let moved = self.move_toward(i, j, n);
                    self.fighters[i].moved = moved;
                    self.fighters[i].target = Some(j);
                    if action == Action::Charge {
                        self.fighters[i].charging = true;
                    }
                    self.note(Some(rule::MOVEMENT), |s| {
                        format!(
                            "{} moves {moved} square(s) toward {} (up to Agl+1 = {movement}); {} apart",
                            s.name(i),
                            s.name(j),
                            s.separation(i, j)
                        )
                    });
                }
            }
            Action::MoveAndShoot => {
                if let Some(j) = self.nearest(i, &enemies) {
                    // Close in, but never into contact: a shooter stays at
                    // least 2 squares off (a person may close to contact, or
                    // withdraw: P-88).
                    let room = (self.separation(i, j) - 2).max(0);
                    let most = movement.min(self.separation(i, j) - 1).max(0);
                    let n = self.line_squares(i, action, j, movement.min(room), most)?;
                    let start = self.fighters[i].position;
                    let (moved, away) = if n < 0 {
                        (self.withdraw(i, j, -n), true)
                    } else {
                        (self.move_toward(i, j, n), false)
                    };
                    self.fighters[i].moved = moved;
                    let dir = (self.fighters[i].position - start).signum();
                    let points: Vec<(u32, Option<crate::map::Pose>, i64)> = (0..=moved)
                        .map(|k| (k as u32, None, start + dir * k))
                        .collect();
                    self.note(Some(rule::MOVE_AND_SHOOT), |s| {
                        if away {
                            format!(
                                "{} withdraws {moved} square(s) from {} and will shoot in round {}",
                                s.name(i),
                                s.name(j),
                                moved.clamp(1, 5)
                            )
                        } else {
                            format!(
                                "{} moves {moved} square(s) and will shoot in round {}",
                                s.name(i),
                                moved.clamp(1, 5)
                            )
                        }
                    });
                    // A person may shoot from any point of the move,
                    // asked when the rounds begin (P-94).
                    self.fighters[i].move_points = points;
                }
            }
            Action::Pursue => {
                if let Some(j) = self.pick(i, &fleeing) {
                    let moved = self.move_toward(i, j, 2 * movement);
                    self.fighters[i].moved = moved;
                    self.fighters[i].target = Some(j);
                    self.note(Some(rule::PURSUE), |s| {
                        format!(
                            "{} pursues {} {moved} square(s) (up to twice Agl+1 = {}); {} apart",
                            s.name(i),
                            s.name(j),
                            2 * movement,
                            s.separation(i, j)
                        )
                    });
                }
            }
            Action::Flee => self.flee(i, 2 * movement),
            Action::Fight
            | Action::Shoot
            | Action::CastOffensiveSpells
            | Action::Respond
            | Action::TurnAction => {}
        }
        Ok(())
    }

    /// "The fleeing character MUST use ALL of his movement allowance": away
    /// from the nearest enemy. He escapes when no standing enemy could reach
    /// him with a pursuit (twice its Agl+1) next turn (project ruling P-19).
    pub(super) fn flee(&mut self, i: usize, squares: i64) {
        let enemies = self.standing_enemies(i);
        let nearest = enemies
            .iter()
            .copied()
            .min_by_key(|&j| (self.separation(i, j), j));
        let away = match nearest {
            Some(j) if self.fighters[j].position != self.fighters[i].position => {
                (self.fighters[i].position - self.fighters[j].position).signum()
            }
            _ => {
                if self.fighters[i].side == 0 {
                    -1
                } else {
                    1
                }
            }
        };
        self.fighters[i].position += away * squares;
        self.fighters[i].broke_off = false;
        let caught = enemies
            .iter()
            .any(|&j| self.separation(i, j) - 1 <= 2 * self.fighters[j].sheet.movement());
        self.note(Some(rule::FLEE), |s| {
            format!("{} flees {squares} square(s) (twice Agl+1)", s.name(i))
        });
        if !caught {
            self.set_gone(i);
            self.note(Some(rule::FLEE), |s| {
                format!("{} is out of every enemy's reach and escapes", s.name(i))
            });
        }
    }

    /// Schedules `i`'s attacks for the turn (RULING M-4) from its set action,
    /// or, on the other side's turn, from where it stands.
    pub(super) fn schedule(&mut self, i: usize, active: usize) -> Result<(), FightError> {
        // "During the Rounds portion ... he may attack in any single round
        // from any point during his movement": a person's Move and Shoot
        // chooses the point now, the moves of his side made (P-94).
        if self.fighters[i].side == active
            && self.fighters[i].action == Some(Action::MoveAndShoot)
            && self.fighters[i].move_points.len() > 1
        {
            let points = std::mem::take(&mut self.fighters[i].move_points);
            self.choose_shot_point(i, &points)?;
        }
        let adjacent = self.engaged(i);
        let f = &self.fighters[i];
        let tactic = &f.sheet.tactic;
        // Why a rush asked for could not be made, said in the log.
        let refused: std::cell::RefCell<Option<String>> = std::cell::RefCell::new(None);
        // The schedule before delaying and rushing, when they apply.
        let base: std::cell::Cell<Option<Schedule>> = std::cell::Cell::new(None);
        let shape = |s: Schedule| {
            base.set(Some(s));
            let k = |n: u32| n.saturating_sub(1) as usize;
            let s = s.delay_attack(k(tactic.delay_attack), tactic.delay as usize);
            if !tactic.rush {
                return s;
            }
            s.rush_attack(k(tactic.rush_attack)).unwrap_or_else(|why| {
                *refused.borrow_mut() = Some(why);
                s
            })
        };
        let ranged_skill = f.sheet.ranged().map(|w| f.sheet.skill(&w.skill));
        // Without a melee weapon a combatant only defends in close combat.
        let melee = match f.sheet.melee() {
            Some(_) => Schedule::for_skill(f.melee_skill()),
            None => Schedule::none(),
        };
        let (schedule, attacking) = if f.side == active {
            match f.action {
                Some(Action::Fight) => (shape(melee), Attacking::Melee),
                Some(Action::Respond) if adjacent => (shape(melee), Attacking::Melee),
                // "regardless of skill he may only make one attack, in the fifth round"
                Some(Action::Charge) if adjacent => (Schedule::from_rounds(&[5]), Attacking::Melee),
                Some(Action::Shoot | Action::CastOffensiveSpells) => (
                    shape(Schedule::for_skill(ranged_skill.unwrap_or(0))),
                    Attacking::Ranged,
                ),
                // "he may attack in any single round from any point during his movement"
                Some(Action::MoveAndShoot) => (
                    Schedule::from_rounds(&[f
                        .shot_point
                        .map_or(f.moved.clamp(1, 5) as usize, |(round, _, _)| round)]),
                    Attacking::Ranged,
                ),
                // "IF, and only if, he finishes his move adjacent ... a single unopposed attack in the fifth round"
                Some(Action::Pursue)
                    if f.target.is_some_and(|t| self.in_reach(i, t))
                        || (adjacent && !self.on_map()) =>
                {
                    (Schedule::from_rounds(&[5]), Attacking::Unopposed)
                }
                _ => (Schedule::none(), Attacking::Melee),
            }
        } else if f.action == Some(Action::Flee) {
            // A fleer has turned his back: "He may not make any attacks" and a
            // pursuer catches him from behind, with an unopposed attack.
            (Schedule::none(), Attacking::Melee)
        } else if adjacent && f.sheet.melee().is_some() {
            // "Any inactive character ... may attack any enemy in the hex in front of him."
            (shape(melee), Attacking::Melee)
        } else if matches!(
            f.action,
            Some(Action::Shoot | Action::CastOffensiveSpells | Action::MoveAndShoot)
        ) && ranged_skill.is_some()
        {
            // "Any active or inactive character who is not being attacked by an adjacent opponent may shoot"
            (
                shape(Schedule::for_skill(ranged_skill.unwrap_or(0))),
                Attacking::Ranged,
            )
        } else {
            (Schedule::none(), Attacking::Melee)
        };
        // A person may delay or rush the turn's first attack (mls, Delaying
        // Attacks, Rushing Attacks).
        let schedule = match base.get() {
            Some(base) if self.deciding() && !base.rounds().is_empty() => {
                // Each attack may be delayed or rushed: asked again after
                // each one timed, about the later ones (P-95).
                let mut decided = None;
                let (mut current, mut from) = (base, 0);
                while let Some((next, k)) = self.choose_timing(i, current, from)? {
                    refused.replace(None);
                    decided = Some(next);
                    current = next;
                    from = k + 1;
                    if from >= current.rounds().len() {
                        break;
                    }
                }
                decided.unwrap_or(schedule)
            }
            _ => schedule,
        };
        let rounds = schedule.rounds();
        if let Some(why) = refused.into_inner() {
            self.note(Some(rule::RUSH), |s| {
                format!("{} cannot rush: {why}", s.name(i))
            });
        }
        let f = &mut self.fighters[i];
        f.schedule = schedule;
        f.attacking = attacking;
        if !rounds.is_empty() {
            self.note(Some(rule::ROUNDS), |s| {
                format!("{} attacks in round(s) {:?}", s.name(i), rounds)
            });
        }
        Ok(())
    }

    /// Whether `j` may be attacked in `round`: a charger "may only be attacked
    /// in the 5th round".
    pub(super) fn attackable(&self, j: usize, round: usize) -> bool {
        self.fighters[j].standing() && (!self.fighters[j].charging || round == 5)
    }

    pub(super) fn resolve_round(&mut self, dice: &mut Dice<'_>) -> Result<(), FightError> {
        let round = self.round;
        self.pending.clear();
        self.shoot(dice, round)?;
        self.close_combat(dice, round)?;
        self.apply_hits(dice)?;
        if self.on_map() {
            let falls: Vec<(usize, usize)> = self
                .pending
                .iter()
                .map(|h| (h.attacker, h.target))
                .collect();
            for (attacker, target) in falls {
                self.advance_after_fall(attacker, target)?;
            }
        }
        Ok(())
    }

    /// "All full turn actions ... now take effect"; unconscious combatants
    /// count down their turns.
    pub(super) fn end_turn(&mut self) {
        // "3. Turn Actions: All full turn actions, assuming they have not been
        // interrupted by attacks, now take effect." (project ruling P-62)
        let active = self.active_side();
        for i in 0..self.fighters.len() {
            let f = &self.fighters[i];
            if f.side != active || f.action != Some(Action::TurnAction) {
                continue;
            }
            let what = f.sheet.tactic.turn_action.clone().unwrap_or_default();
            if !f.standing() {
                continue;
            }
            if f.attacked {
                self.note(Some(rule::TURN_ACTIONS), |s| {
                    format!("{}'s {what} is interrupted by an attack: lost", s.name(i))
                });
            } else {
                self.note(Some(rule::TURN_ACTIONS), |s| {
                    format!("{}'s {what} takes effect", s.name(i))
                });
            }
        }
        for i in 0..self.fighters.len() {
            if let State::Unconscious(Some(n)) = self.fighters[i].state
                && self.fighters[i].down_turn != self.turn
            {
                let left = n.saturating_sub(1);
                if left == 0 {
                    self.fighters[i].state = State::Standing;
                    self.stand_up(i);
                    self.note_moved(rule::UNCONSCIOUS, &[i], |s| {
                        format!("{} comes round", s.name(i))
                    });
                } else {
                    self.fighters[i].state = State::Unconscious(Some(left));
                }
            }
        }
        self.round = 0;
    }

    /// Ends the fight when a side has no one standing, or, at the end of a
    /// turn, when the turn limit is reached.
    pub(super) fn check_over(&mut self, turn_done: bool) {
        if self.ending.is_some() {
            return;
        }
        let up = |s: usize| self.fighters.iter().any(|f| f.side == s && f.standing());
        let (a, b) = (up(0), up(1));
        let ending = match (a, b) {
            (true, true) if turn_done && self.turn >= self.max_turns => Some(Ending {
                winner: None,
                turns: self.turn,
                reason: format!("no side won in {} turns", self.max_turns),
            }),
            (true, true) => None,
            (false, false) => {
                // Everyone is down: a side whose members are all dead (or fled)
                // loses to one with survivors, who will come round.
                let survivors = |s: usize| {
                    self.fighters
                        .iter()
                        .any(|f| f.side == s && matches!(f.state, State::Unconscious(_)))
                };
                match (survivors(0), survivors(1)) {
                    (true, false) | (false, true) => {
                        let w = if survivors(0) { 0 } else { 1 };
                        Some(Ending {
                            winner: Some(w),
                            turns: self.turn,
                            reason: format!(
                                "everyone is down, and only side {} has survivors",
                                self.sides[w]
                            ),
                        })
                    }
                    _ => Some(Ending {
                        winner: None,
                        turns: self.turn,
                        reason: "neither side has anyone standing".into(),
                    }),
                }
            }
            (winner_a, _) => {
                let w = if winner_a { 0 } else { 1 };
                Some(Ending {
                    winner: Some(w),
                    turns: self.turn,
                    reason: format!("no one of {} is standing", self.sides[1 - w]),
                })
            }
        };
        if let Some(e) = ending {
            self.note(None, |s| match e.winner {
                Some(w) => format!("Winner: {} ({})", s.sides[w], e.reason),
                None => format!("A draw: {}", e.reason),
            });
            self.ending = Some(e);
        }
    }
}
