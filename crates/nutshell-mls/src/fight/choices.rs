//! The decision sites: each choice the text gives a character, with its
//! legal options, the options ruled out and the sentence that rules them
//! out, and the engine's pick from the tactic as the default.
//!
//! Each site first asks whether the fight is played by decisions; when it
//! is not, it returns the engine's pick without building any option.
//!
//! # In detail
//!
//! A set action not open to a combatant is closed with the rule's sentence
//! that closes it. A person's path on the map is offered as waypoints reached
//! by cheapest ways, with Flee!'s and Pursue's whole allowance and contact.
//! Every site opens with `person_decides`: whether a person decides; when the
//! engine does, the tactic's pick is recorded as its decision, so a replay
//! finds the same decisions.

use super::decide::{Ask, Choice, Controller, Kind, Opt, RuledOut};
use super::{Action, Fight};
use crate::error::FightError;
use crate::map::{self, Facing, Path, Pose, Square};
use crate::sheet::{Mode, WeaponKind};
use std::collections::HashSet;

/// The sentences decisions cite.
pub mod sentence {
    /// mls, *Set Actions*.
    pub const SET_ACTIONS: &str = "mls, Set Actions: \"Characters may choose the following Set Actions in a tactical situation, which governs his behavior for the Turn\"";
    /// A full-turn action.
    pub const TURN_ACTION: &str = "mls, Set Actions: \"The result of any action outside of these occurs at the end of the Turn\"";
    /// Pursue.
    pub const PURSUE: &str = "mls, Pursue: \"may only move directly after a character who chose Flee! in the opposing side's last Turn\"";
    /// Fight.
    pub const FIGHT: &str = "mls, Fighting Movement: \"may move up to 1 square (turning to face any direction for free whether they move or not), but must end up adjacent to an enemy\"";
    /// Charge.
    pub const CHARGE: &str = "mls, Charge: \"may move normally during the movement portion of his side's Turn. However regardless of skill he may only make on attack, in the fifth round\"";
    /// Shoot.
    pub const SHOOT: &str = "mls, Who May Shoot: \"so long as he can see the target at which he is shooting, and nothing is blocking his shot. The target must be within the shooter's arc of fire\"";
    /// Cast.
    pub const CAST: &str =
        "mls, Offensive Spells; Who May Cast: \"only a target in the Forward arc can be cast at\"";
    /// Shoot or Move and Shoot without a weapon that shoots.
    pub const NO_MISSILE: &str = "mls, Range: \"Each weapon has a range according to its type\": a shot is made with a missile weapon (or a thrown one), and he has none (P-93)";
    /// Cast without an offensive spell.
    pub const NO_SPELL: &str = "mls, Offensive Spells: \"Offensive magical spells (fireballs, lightning etc.) are treated as missile weapons\": he has no offensive spell to cast (P-93)";
    /// Move.
    pub const MOVE: &str = "mls, 1. Movement: \"may move up to their Agl+1 in squares\"";
    /// Move and Shoot.
    pub const MOVE_AND_SHOOT: &str = "mls, Move and Shoot: \"he may attack in any single round from any point during his movement\"";
    /// Flee!.
    pub const FLEE: &str =
        "mls, Flee!: \"may move with a double movement allowance ... He may not make any attacks\"";
    /// Flee!'s contact.
    pub const FLEE_CONTACT: &str = "mls, Flee!: \"must avoid contact with all hostile characters\"";
    /// Flee!'s whole allowance.
    pub const FLEE_ALL: &str = "mls, Flee!: \"The fleeing character MUST use ALL of his movement allowance if this is possible, he may not use less\"";
    /// Pursue's whole allowance.
    pub const PURSUE_ALL: &str =
        "mls, Pursue: \"must use all of his movement allowance in trying to catch the opponent\"";
    /// Whom to strike.
    pub const CLOSE: &str = "mls, Close Combat: \"A character must attack an enemy who is attacking him that round, and can only attack another enemy if none are attacking him\"";
    /// Whom to shoot.
    pub const CLOSE_TARGETS: &str = "mls, Close Targets: \"Once a character has selected a target to shoot at he is not bound to make future shots at this same target, however he must make all future shots for the remainder of this Turn into the same arc\"";
    /// Total Attack.
    pub const TOTAL_ATTACK: &str = "mls, Total Attack: \"A character may at any time declare his next attack is a Total Attack\"";
    /// A Total Attack's chain.
    pub const CHAIN: &str = "mls, Total Attack: \"the total attacker may now make a second attack against a second opponent, under the same conditions, continuing to attack until he has hit all enemies, voluntarily stops his attacks or fails an attack\"";
    /// Breaking off.
    pub const BREAK_OFF: &str = "mls, Breaking Off: \"A character may choose to use an attack to Break Off combat. He makes a normal attack, but if successful does no damage. However he is considered to have disengaged (backed away)\"";
    /// Behaviour.
    pub const BEHAVIOUR: &str = "mls, Behaviour: \"If the trait is 16 or higher it is Noticeable, and the player must roll higher than the trait on 1d20 if he wishes him to behave otherwise\" (P-87)";
    /// Delaying.
    pub const DELAY: &str = "mls, Delaying Attacks: \"A character may delay an attack by one round and gain +1 to his chance to hit, or by two rounds and gain +2 to hit, and so on ... Any attack that moves beyond the 5th round is lost\"";
    /// Rushing.
    pub const RUSH: &str = "mls, Rushing Attacks: \"A character may perform an attack 1 round in advance, at a penalty of -2 to his roll ... and cannot be done more than 1 round in advance\"";
    /// Total Defence.
    pub const TOTAL_DEFENCE: &str =
        "mls, Total Defence: \"Any attack can be declared a Total Defence\"";
    /// Foregoing.
    pub const FOREGO: &str = "mls, Foregoing Attacks: \"Any character may forego an attack\"";
    /// A normal attack.
    pub const NORMAL: &str = "mls, Normal Attacks";
    /// Dodge.
    pub const DODGE: &str =
        "mls, Shooting: \"A knowing enemy may choose to Dodge provided he is not attacking\"";
    /// Fate Point after a failed shock roll.
    pub const FATE: &str = "mls, Death: \"if he has any Fate Points one of these can be expended after a failed Shock Roll to make it a success\"";
    /// Fate Point under Certain Death.
    pub const CERTAIN_DEATH: &str =
        "mls, Certain Death: \"A Fate Point may be used to remove damage and thus prevent death\"";
    /// Aiming a shot.
    pub const AIM_SHOT: &str = "mls, Aiming a Shot: \"Different areas can be aimed at specifically if desired. Each area has a penalty to the roll's success which is applied to the score\" (RULING M-8)";
    /// Aiming a close attack.
    pub const AIM_ATTACK: &str = "mls, Aiming an Attack: \"Close Combat attacks may also be aimed at specific locations in exactly the same way\" (RULING M-8)";
    /// Reloading.
    pub const RELOAD: &str = "mls, Reloading: \"Some missile weapons require reloading before they can be fired again. This requires a number of 'attacks' to be spent reloading instead of shooting\"";
    /// Preparing a spell.
    pub const PREPARE: &str = "mls, Preparing Spells: \"Some offensive spells require time to prepare and throw. This requires a number of 'attacks' to be spent preparing instead of casting\"";
    /// Moving into a fallen opponent's square.
    pub const KILLING: &str = "mls, Killing an Opponent: \"If a character kills or knocks unconscious an opponent with his attack he may move into the square occupied by his opponent (even if this is a diagonal)\"";
    /// Following up a Total Attack.
    pub const FOLLOW_UP: &str = "mls, Following Up a Total Attack: \"A character who gets a Critical hit against an opponent with a Total Attack may follow up. He moves into the square occupied by the enemy\"";
    /// Shooting back.
    pub const SHOOT_BACK: &str = "mls, Shooting: \"He may also choose to shoot back if he has chosen a Shoot action\" (P-88)";
    /// Moving on the line.
    pub const LINE: &str = "mls, 1. Movement: \"may move up to their Agl+1 in squares\" (P-88: on the line, toward the nearest enemy, no further than next to him, or away from him)";
}

/// The personality trait a person's choice goes against, with its opposite
/// (mls, *Behaviour*; P-87, P-88): Flee! and breaking off against Valorous,
/// Fight and Charge against Cowardly, Pursue against Merciful, a Total
/// Attack against Cautious, a Total Defence against Reckless, foregoing an
/// attack against Cruel.
pub(super) fn trait_against(choice: &Choice) -> Option<(&'static str, &'static str)> {
    match choice {
        Choice::Action(Action::Flee) | Choice::BreakOff => Some(("valorous", "cowardly")),
        Choice::Action(Action::Fight | Action::Charge) => Some(("cowardly", "valorous")),
        Choice::Action(Action::Pursue) => Some(("merciful", "cruel")),
        Choice::Attack(Mode::TotalAttack) => Some(("cautious", "reckless")),
        Choice::Attack(Mode::TotalDefence) => Some(("reckless", "cautious")),
        Choice::Attack(Mode::Forego) => Some(("cruel", "merciful")),
        _ => None,
    }
}

/// Every set action, in the text's order, and the full-turn action.
const ACTIONS: [Action; 10] = [
    Action::Fight,
    Action::Charge,
    Action::Shoot,
    Action::CastOffensiveSpells,
    Action::Move,
    Action::MoveAndShoot,
    Action::Flee,
    Action::Pursue,
    Action::Respond,
    Action::TurnAction,
];

/// "E5:north" as a square and a facing.
fn parse_waypoint(text: &str) -> Result<(Square, Option<Facing>), String> {
    let (sq, facing) = match text.split_once(':') {
        Some((s, f)) => (s, Some(f)),
        None => (text, None),
    };
    let square = Square::parse(sq.trim()).ok_or_else(|| {
        format!("{sq:?} is not a square (a column letter and a row number, such as E5)")
    })?;
    let facing = match facing {
        Some(f) => Some(
            Facing::parse(f.trim())
                .ok_or_else(|| format!("{f:?} is not a facing (north, east, south or west)"))?,
        ),
        None => None,
    };
    Ok((square, facing))
}

impl Fight {
    /// Who decides `i`'s next decision of `kind`: a table's answer to it,
    /// or a matching answer waiting in the queue, says; else his controller.
    pub(super) fn decider(&self, i: usize, kind: Kind) -> Controller {
        let Some(d) = self.decisions.as_deref() else {
            return Controller::Engine;
        };
        if let Some(m) = self.answer_waiting(i, kind) {
            return m.by;
        }
        match d.queue.front() {
            Some(m) if m.who == self.fighters[i].sheet.name && m.kind == kind => m.by,
            _ => d.controllers.get(i).copied().unwrap_or_default(),
        }
    }

    /// The preamble of the decision sites: whether a person decides `i`'s
    /// next decision of `kind`, so the site builds its options and asks. Not
    /// when the fight is not played by decisions (nothing is recorded), nor
    /// when the engine decides it: then the tactic's pick, `default(self)`,
    /// is recorded as the engine's decision, and the site takes that pick.
    pub(super) fn person_decides(
        &mut self,
        i: usize,
        kind: Kind,
        default: impl FnOnce(&Self) -> Choice,
    ) -> bool {
        if !self.deciding() {
            return false;
        }
        if self.decider(i, kind) == Controller::Engine {
            let choice = default(self);
            self.decide_engine(i, kind, choice);
            return false;
        }
        true
    }

    /// Whether `action` is open to `i` now, or the sentence that closes it.
    fn action_legal(&mut self, i: usize, action: Action) -> Result<(), &'static str> {
        let sheet = std::sync::Arc::clone(&self.fighters[i].sheet);
        let ranged = sheet.ranged().map(|w| w.kind);
        let enemies = self.standing_enemies(i);
        match action {
            Action::Fight => {
                let near = if self.on_map() {
                    // One square's move (any of the eight) puts him next to it.
                    let mine: Vec<Square> = self.squares_of(i).collect();
                    enemies.iter().any(|&j| {
                        self.squares_of(j).any(|t| {
                            mine.iter()
                                .any(|m| m.x.abs_diff(t.x).max(m.y.abs_diff(t.y)) <= 2)
                        })
                    })
                } else {
                    self.engaged(i)
                };
                if near { Ok(()) } else { Err(sentence::FIGHT) }
            }
            // "may move normally during the movement portion of his side's
            // Turn. However regardless of skill he may only make on attack,
            // in the fifth round": open whether or not an enemy is within
            // reach of the move (P-92); he attacks in the 5th round if the
            // move brings him next to one.
            Action::Charge => {
                if sheet.melee().is_none() {
                    return Err(sentence::CHARGE);
                }
                Ok(())
            }
            Action::Shoot | Action::CastOffensiveSpells => {
                let kind_ok = match action {
                    Action::Shoot => {
                        matches!(ranged, Some(WeaponKind::Missile | WeaponKind::Melee))
                    }
                    _ => ranged == Some(WeaponKind::Spell),
                };
                if !kind_ok {
                    return Err(if action == Action::Shoot {
                        sentence::NO_MISSILE
                    } else {
                        sentence::NO_SPELL
                    });
                }
                let why = if action == Action::Shoot {
                    sentence::SHOOT
                } else {
                    sentence::CAST
                };
                let sight = if self.on_map() {
                    self.has_a_shot(i)
                } else {
                    !enemies.is_empty()
                };
                if sight { Ok(()) } else { Err(why) }
            }
            Action::MoveAndShoot => {
                if ranged.is_some() {
                    Ok(())
                } else {
                    Err(sentence::NO_MISSILE)
                }
            }
            Action::Pursue => {
                if self.fleeing(&enemies).is_empty() {
                    Err(sentence::PURSUE)
                } else {
                    Ok(())
                }
            }
            Action::Move | Action::Flee | Action::Respond | Action::TurnAction => Ok(()),
        }
    }

    /// `i`'s set action: its tactic's (`choose_action`), or decided.
    pub(super) fn set_action(
        &mut self,
        i: usize,
        ready: bool,
        dice: &mut crate::dice::Dice<'_>,
    ) -> Result<Action, FightError> {
        let default = self.choose_action(i);
        if !self.person_decides(i, Kind::SetAction, |_| Choice::Action(default)) {
            return Ok(default);
        }
        let ask = self.set_action_ask(i, ready, default);
        self.decide(ask, |_, c| match c {
            Choice::Action(a) => Ok(*a),
            _ => Err("the answer is not a set action".into()),
        })
        .and_then(|chosen| self.behave(i, chosen, default, dice))
    }

    /// The question of `i`'s set action (`ready`: standing ready before his
    /// side's first turn), its options and the sentences that rule the
    /// others out, with `default` (the engine's) as the default. Draws no
    /// dice, so that several members can be asked at once.
    pub(super) fn set_action_ask(&mut self, i: usize, ready: bool, default: Action) -> Ask {
        let mut options = Vec::new();
        let mut ruled_out = Vec::new();
        for action in ACTIONS {
            let rule = match action {
                Action::Fight => sentence::FIGHT,
                Action::Charge => sentence::CHARGE,
                Action::Shoot => sentence::SHOOT,
                Action::CastOffensiveSpells => sentence::CAST,
                Action::Move => sentence::MOVE,
                Action::MoveAndShoot => sentence::MOVE_AND_SHOOT,
                Action::Flee => sentence::FLEE,
                Action::Pursue => sentence::PURSUE,
                Action::Respond => sentence::SET_ACTIONS,
                Action::TurnAction => sentence::TURN_ACTION,
            };
            match self.action_legal(i, action) {
                Ok(()) => options.push(Opt {
                    choice: Choice::Action(action),
                    label: action.name().to_string(),
                    rule,
                }),
                Err(why) => ruled_out.push(RuledOut {
                    choice: Choice::Action(action),
                    why: why.to_string(),
                }),
            }
        }
        let question = if ready {
            format!(
                "{}: the set action to stand ready with before your side's first turn (P-22)",
                self.name(i)
            )
        } else {
            format!("{}: your set action for this turn", self.name(i))
        };
        Ask {
            who: i,
            kind: Kind::SetAction,
            question,
            options,
            ruled_out,
            default: Choice::Action(default),
        }
    }

    /// A trait of `i`'s personality (a character sheet's; 10 without one).
    fn personality(&self, i: usize, name: &str, opposite: &str) -> i64 {
        self.fighters[i]
            .sheet
            .character
            .as_ref()
            .and_then(|c| {
                c.personality
                    .get(name)
                    .copied()
                    .or_else(|| c.personality.get(opposite).map(|v| 20 - v))
            })
            .unwrap_or(10)
    }

    /// mls, Behaviour, for a person's set action (P-87, P-88): Flee!
    /// against Valorous, Fight or Charge against Cowardly, Pursue against
    /// Merciful. A failed roll leaves him to the trait: he chooses again
    /// among the set actions the trait allows (P-96), `instead` (the
    /// engine's action if the trait allows it, or Fight, Flee! or Respond as
    /// the trait has it) being the default; a choice that goes against
    /// another Noticeable trait rolls for it in turn.
    fn behave(
        &mut self,
        i: usize,
        chosen: Action,
        default: Action,
        dice: &mut crate::dice::Dice<'_>,
    ) -> Result<Action, FightError> {
        let mut chosen = chosen;
        let mut against: Vec<&'static str> = Vec::new();
        loop {
            let instead = match chosen {
                Action::Flee => {
                    if default != Action::Flee {
                        default
                    } else if self.action_legal(i, Action::Fight).is_ok() {
                        Action::Fight
                    } else {
                        Action::Respond
                    }
                }
                Action::Fight | Action::Charge => Action::Flee,
                Action::Pursue if default != Action::Pursue => default,
                Action::Pursue => Action::Respond,
                _ => return Ok(chosen),
            };
            let Some((name, _)) = trait_against(&Choice::Action(chosen)) else {
                return Ok(chosen);
            };
            if against.contains(&name) {
                return Ok(chosen);
            }
            let may =
                self.against_trait(i, &Choice::Action(chosen), &Choice::Action(instead), dice)?;
            if may {
                return Ok(chosen);
            }
            against.push(name);
            if self.orders_skip(i, Kind::SetAction) {
                // Orders written before P-96 name no second choice: the
                // trait's own.
                return Ok(instead);
            }
            let mut ask = self.set_action_ask(i, false, instead);
            let (allowed, barred): (Vec<Opt>, Vec<Opt>) = std::mem::take(&mut ask.options)
                .into_iter()
                .partition(|o| trait_against(&o.choice).is_none_or(|(t, _)| !against.contains(&t)));
            ask.options = allowed;
            ask.ruled_out.extend(barred.into_iter().map(|o| RuledOut {
                why: format!(
                    "{}: the roll against his Noticeable {} failed: he behaves as the trait has it (P-96)",
                    sentence::BEHAVIOUR,
                    trait_against(&o.choice).map_or("", |(t, _)| t)
                ),
                choice: o.choice,
            }));
            ask.question = format!(
                "{}: the roll failed, so {} behaves as his {name} has it: a set action it allows",
                self.name(i),
                self.name(i)
            );
            chosen = self.decide(ask, |_, c| match c {
                Choice::Action(a) => Ok(*a),
                _ => Err("the answer is not a set action".into()),
            })?;
        }
    }

    /// mls, Behaviour: "If the trait is 16 or higher it is Noticeable, and
    /// the player must roll higher than the trait on 1d20 if he wishes him to
    /// behave otherwise (an automatic check on the opposing trait if it
    /// succeeds)". Whether `i` may make the person's `chosen` (P-87, P-88):
    /// against a Noticeable trait the 1d20 is drawn and logged, with
    /// `instead` as what the trait makes of a failure; a success checks the
    /// opposing trait ([`Fight::earned_checks`]).
    pub(super) fn against_trait(
        &mut self,
        i: usize,
        chosen: &Choice,
        instead: &Choice,
        dice: &mut crate::dice::Dice<'_>,
    ) -> Result<bool, FightError> {
        let Some((name, opposite)) = trait_against(chosen) else {
            return Ok(true);
        };
        let value = self.personality(i, name, opposite);
        let b = crate::character::behaviour::behave(value, dice)?;
        let Some(roll) = b.roll else {
            return Ok(true);
        };
        let words = |c: &Choice| match c {
            Choice::Action(a) => a.name().to_string(),
            other => other.to_string(),
        };
        let text = |s: &Self| {
            format!(
                "{}'s {} goes against a Noticeable {name} {value}: 1d20 = {roll}, {}",
                s.name(i),
                words(chosen),
                if b.acts_against {
                    format!("higher: he may (a check on {opposite})")
                } else {
                    format!(
                        "not higher: he follows the trait ({} by default)",
                        words(instead)
                    )
                }
            )
        };
        self.note_dice(Some(sentence::BEHAVIOUR), &[roll], text);
        if b.checks_opposite {
            let combatant = self.name(i).to_string();
            let turn = self.turn;
            self.fighters[i]
                .trait_checks
                .push(super::checks::TraitCheck {
                    combatant,
                    checked: opposite.to_string(),
                    against: name.to_string(),
                    value,
                    roll,
                    turn,
                });
        }
        Ok(b.acts_against)
    }

    /// Records an engine decision (consuming a matching queued answer made
    /// by the engine).
    pub(super) fn decide_engine(&mut self, i: usize, kind: Kind, choice: Choice) {
        let name = self.fighters[i].sheet.name.clone();
        let (turn, round) = (self.turn, self.round);
        let id = self.decision_id(i, kind);
        if let Some(d) = self.decisions.as_mut() {
            // A table's answer the engine's pick stands for (its time ran
            // out): used up.
            let before = d.answers.len();
            d.answers.retain(|m| m.id.as_deref() != Some(id.as_str()));
            let answered = d.answers.len() < before;
            if !answered
                && d.queue
                    .front()
                    .is_some_and(|m| m.who == name && m.kind == kind)
            {
                d.queue.pop_front();
            }
            d.made.push(super::decide::Made {
                id: answered.then_some(id),
                turn,
                round,
                who: name,
                kind,
                choice,
                by: Controller::Engine,
            });
        }
    }

    /// The movement of `i`'s set action on the map: the engine's
    /// (`maneuver`), or a person's path.
    pub(super) fn movement(&mut self, i: usize, action: Action) -> Result<(), FightError> {
        let moves = matches!(
            action,
            Action::Charge
                | Action::Move
                | Action::MoveAndShoot
                | Action::Flee
                | Action::Pursue
                | Action::Fight
        );
        if !self.deciding() || !moves || self.decider(i, Kind::Movement) == Controller::Engine {
            self.maneuver(i, action);
            if self.deciding() && moves {
                let end = self.fighters[i]
                    .pose
                    .map(|p| vec![format!("{}:{}", p.square, p.facing)])
                    .unwrap_or_default();
                self.decide_engine(i, Kind::Movement, Choice::Path(end));
            }
            return Ok(());
        }
        let Some(start) = self.fighters[i].pose else {
            return Ok(());
        };
        if action == Action::Fight {
            return self.fighting_step(i, start);
        }
        let double = matches!(action, Action::Flee | Action::Pursue);
        let budget = self.allowance(i, if double { 2 } else { 1 });
        let contact = self.contact_squares(i, action);
        // An answer already given (the step run again on a table's answer,
        // or orders replayed) is checked alone: what would be offered is
        // worked out only when a person is to be asked.
        let given = match self.ready_answer(i, Kind::Movement) {
            Some(Choice::Path(points)) => Some(points.clone()),
            _ => None,
        };
        let checked = given.and_then(|points| {
            let path = self.person_path(i, action, budget, &contact, &points, None);
            path.ok().map(|path| (Choice::Path(points), path))
        });
        let (ask, explored) = match &checked {
            Some((answer, _)) => {
                let ask = Ask {
                    who: i,
                    kind: Kind::Movement,
                    question: String::new(),
                    options: Vec::new(),
                    ruled_out: Vec::new(),
                    default: answer.clone(),
                };
                (ask, None)
            }
            None => self.movement_ask(i, action, start, budget, &contact),
        };
        let path = self.decide_or(ask, |f, c| match (c, &checked) {
            (c, Some((answer, path))) if c == answer => Ok(path.clone()),
            (Choice::Path(points), _) => {
                f.person_path(i, action, budget, &contact, points, explored.as_ref())
            }
            _ => Err("the answer is not a path".into()),
        })?;
        match path {
            Some(path) => self.walk_decided(i, action, budget, &path)?,
            None => {
                // P-89: no way the rules take (a fleer in a dead end cannot
                // spend his whole allowance): the engine's way, the
                // furthest the action's movement gets him.
                self.note(Some(crate::log::rule::DECISIONS), |s| {
                    format!(
                        "{} has no way that {} allows: the engine's way is taken (P-89)",
                        s.name(i),
                        action.name()
                    )
                });
                self.maneuver(i, action);
            }
        }
        Ok(())
    }

    /// What a person moving for `action` from `start` is asked: every
    /// square within `budget` at its cheapest, the engine's way as the
    /// default, and what the mover can reach (checked answers read their
    /// first leg from it).
    fn movement_ask(
        &mut self,
        i: usize,
        action: Action,
        start: Pose,
        budget: u32,
        contact: &HashSet<Square>,
    ) -> (Ask, Option<map::Reach>) {
        // The engine's way, tried on a copy.
        let mut dry = self.clone();
        dry.decisions = None;
        dry.log = None;
        dry.maneuver(i, action);
        let end = dry.fighters[i].pose.unwrap_or(start);
        let default = vec![format!("{}:{}", end.square, end.facing)];
        let mut cheapest: Vec<(Square, u32)> = Vec::new();
        let mut moves = Vec::new();
        // What the mover can reach: the squares offered, and the first leg
        // of every answer checked against it without searching again.
        let reach = self.reach(i, budget, &|s| contact.contains(&s));
        if let Some(reach) = reach.as_ref() {
            let mut best: Vec<(Square, u32, Pose)> = Vec::new();
            for (pose, cost) in reach.poses() {
                match best.iter_mut().find(|(s, _, _)| *s == pose.square) {
                    Some(b) if cost < b.1 => *b = (pose.square, cost, pose),
                    Some(_) => {}
                    None => best.push((pose.square, cost, pose)),
                }
            }
            // Each square's cheapest way, for a front end to show.
            for &(square, cost, pose) in &best {
                let mut path: Vec<String> = Vec::new();
                if let Some(way) = reach.path_to(pose) {
                    let mut at = start.square;
                    for (_, p, _) in &way.steps {
                        if p.square != at {
                            at = p.square;
                            path.push(at.to_string());
                        }
                    }
                }
                moves.push(super::decide::Move {
                    square: square.to_string(),
                    cost,
                    path,
                });
            }
            cheapest = best.iter().map(|&(s, c, _)| (s, c)).collect();
        }
        if let Some(d) = self.decisions.as_mut() {
            d.moves = moves;
        }
        let rule = match action {
            Action::Flee => sentence::FLEE,
            Action::Pursue => sentence::PURSUE,
            Action::MoveAndShoot => sentence::MOVE_AND_SHOOT,
            Action::Charge => sentence::CHARGE,
            _ => sentence::MOVE,
        };
        let options = cheapest
            .iter()
            .map(|(s, c)| Opt {
                choice: Choice::Path(vec![s.to_string()]),
                label: format!("{s} ({c} MP)"),
                rule,
            })
            .collect();
        let question = format!(
            "{}: the way to move for {} ({budget} MP, from {} facing {})",
            self.name(i),
            action.name(),
            start.square,
            start.facing
        );
        let ask = Ask {
            who: i,
            kind: Kind::Movement,
            question,
            options,
            ruled_out: Vec::new(),
            default: Choice::Path(default),
        };
        (ask, reach)
    }

    /// A person's Fight action on the map: "may move up to 1 square
    /// (turning to face any direction for free whether they move or not),
    /// but must end up adjacent to an enemy" (P-74: any of the eight
    /// squares, no wall's corner cut).
    fn fighting_step(&mut self, i: usize, start: Pose) -> Result<(), FightError> {
        let mut dry = self.clone();
        dry.decisions = None;
        dry.log = None;
        dry.maneuver(i, Action::Fight);
        let end = dry.fighters[i].pose.unwrap_or(start);
        let default = Choice::Path(vec![format!("{}:{}", end.square, end.facing)]);
        let mut options = Vec::new();
        // A Fight action's step costs no movement points.
        let mut moves = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(square) = start.square.offset(dx, dy) else {
                    continue;
                };
                if square != start.square && !self.step_clear(start.square, square) {
                    continue;
                }
                for facing in Facing::ALL {
                    let pose = Pose { square, facing };
                    if self.fighting_pose(i, start, pose).is_ok() {
                        if !moves
                            .iter()
                            .any(|m: &super::decide::Move| m.square == square.to_string())
                        {
                            moves.push(super::decide::Move {
                                square: square.to_string(),
                                cost: 0,
                                path: if square == start.square {
                                    Vec::new()
                                } else {
                                    vec![square.to_string()]
                                },
                            });
                        }
                        let text = format!("{square}:{facing}");
                        options.push(Opt {
                            choice: Choice::Path(vec![text.clone()]),
                            label: text,
                            rule: sentence::FIGHT,
                        });
                    }
                }
            }
        }
        if let Some(d) = self.decisions.as_mut() {
            d.moves = moves;
        }
        let question = format!(
            "{}: a Fight action's square and facing (from {} facing {})",
            self.name(i),
            start.square,
            start.facing
        );
        let pose = self.decide_or(
            Ask {
                who: i,
                kind: Kind::Movement,
                question,
                options,
                ruled_out: Vec::new(),
                default,
            },
            |f, c| match c {
                Choice::Path(points) if points.is_empty() => f.fighting_pose(i, start, start),
                Choice::Path(points) if points.len() == 1 => {
                    let (square, facing) = parse_waypoint(&points[0])?;
                    let pose = Pose {
                        square,
                        facing: facing.unwrap_or(start.facing),
                    };
                    f.fighting_pose(i, start, pose)
                }
                Choice::Path(_) => Err(format!("{}: one square at most", sentence::FIGHT)),
                _ => Err("the answer is not a square".into()),
            },
        )?;
        let Some(pose) = pose else {
            // P-89: no square one step away has an enemy adjacent (a wall
            // between, or every square taken): he stands where he is.
            self.note(Some(crate::log::rule::DECISIONS), |s| {
                format!(
                    "{} has no square from which to fight: stands at {} (P-89)",
                    s.name(i),
                    start.square
                )
            });
            return Ok(());
        };
        if pose != start {
            self.place(i, pose);
            self.note_moved(crate::log::rule::FIGHTING_MOVEMENT, &[i], |s| {
                format!(
                    "{} takes a Fight action's square: {} facing {}",
                    s.name(i),
                    pose.square,
                    pose.facing
                )
            });
        }
        let hit = self.enemies_reached_from(i, pose);
        if let Some(t) = self.pick(i, &hit) {
            self.fighters[i].target = Some(t);
        }
        Ok(())
    }

    /// Whether `pose` is a Fight action's square and facing from `start`,
    /// or the sentence it breaks.
    fn fighting_pose(&self, i: usize, start: Pose, pose: Pose) -> Result<Pose, String> {
        let near = pose.square.x.abs_diff(start.square.x) <= 1
            && pose.square.y.abs_diff(start.square.y) <= 1;
        if !near || (pose.square != start.square && !self.step_clear(start.square, pose.square)) {
            return Err(format!(
                "{}: {} is not one square's move from {} (P-74)",
                sentence::FIGHT,
                pose.square,
                start.square
            ));
        }
        if pose != start && !self.fits(i, pose) {
            return Err(format!("{}: {} is taken", sentence::FIGHT, pose.square));
        }
        let side = self.fighters[i].side;
        let length = self.fighters[i].sheet.squares_long();
        let body: Vec<Square> = map::body_squares(pose, length).collect();
        let adjacent = self
            .standing_enemies(i)
            .into_iter()
            .filter(|&j| self.fighters[j].side != side)
            .any(|j| {
                self.squares_of(j)
                    .any(|t| body.iter().any(|b| b.adjacent(t)))
            });
        if !adjacent {
            return Err(format!(
                "{}: at {} facing {} no enemy is adjacent",
                sentence::FIGHT,
                pose.square,
                pose.facing
            ));
        }
        Ok(pose)
    }

    /// Squares a mover may not enter: next to an enemy, for a fleer.
    fn contact_squares(&self, i: usize, action: Action) -> HashSet<Square> {
        if action != Action::Flee {
            return HashSet::new();
        }
        self.standing_enemies(i)
            .into_iter()
            .flat_map(|j| self.squares_of(j))
            .flat_map(|s| {
                (-1..=1).flat_map(move |dy| (-1..=1).filter_map(move |dx| s.offset(dx, dy)))
            })
            .collect()
    }

    /// A person's way: each waypoint by the cheapest way from the last,
    /// within the allowance, checked against the action's rules. `explored`
    /// is what the mover can reach now within `budget` around `contact`
    /// (`Fight::reach`), when the caller has it: the first leg is then read
    /// from it, the same way [`map::cheapest_path`] would find.
    fn person_path(
        &self,
        i: usize,
        action: Action,
        budget: u32,
        contact: &HashSet<Square>,
        points: &[String],
        explored: Option<&map::Reach>,
    ) -> Result<Path, String> {
        let (Some(field), Some(start)) = (self.field.as_ref(), self.fighters[i].pose) else {
            return Err("not on a map".into());
        };
        let length = self.fighters[i].sheet.squares_long();
        let blocked = |s: Square| self.taken_for(i, s) || contact.contains(&s);
        let mut path = Path {
            start,
            steps: Vec::new(),
            cost: 0,
        };
        let mut at = start;
        let why_budget = match action {
            Action::Flee => sentence::FLEE,
            Action::Pursue => sentence::PURSUE,
            _ => sentence::MOVE,
        };
        for text in points {
            let (square, facing) = parse_waypoint(text)?;
            if field.map.terrain(square).is_none() {
                return Err(format!("{square} is not on the map"));
            }
            if contact.contains(&square) {
                return Err(format!(
                    "{}: {square} is next to an enemy",
                    sentence::FLEE_CONTACT
                ));
            }
            let left = budget - path.cost;
            let goal = |p: Pose| p.square == square && facing.is_none_or(|f| p.facing == f);
            let leg = match explored {
                Some(reach) if path.steps.is_empty() => reach.first_path(&goal),
                _ => map::cheapest_path(&field.map, at, length, left, &blocked, &goal),
            };
            let Some(leg) = leg else {
                return Err(format!(
                    "{why_budget}: {text:?} cannot be reached from {} within the {left} MP left (of {budget})",
                    at.square
                ));
            };
            path.cost += leg.cost;
            path.steps.extend(leg.steps);
            at = path.steps.last().map_or(at, |s| s.1);
        }
        let left = budget - path.cost;
        let must_use_all = match action {
            Action::Flee => Some(sentence::FLEE_ALL),
            Action::Pursue => {
                let target = self.pick(i, &self.fleeing(&self.standing_enemies(i)));
                let caught = target
                    .is_some_and(|t| self.reach_from(i, at).any(|s| self.occupant(s) == Some(t)));
                (!caught).then_some(sentence::PURSUE_ALL)
            }
            _ => None,
        };
        if let Some(why) = must_use_all
            && left > 0
        {
            // The nearest other square, searched no further than it.
            let elsewhere = |p: Pose| p.square != at.square;
            if let Some(further) =
                map::cheapest_path(&field.map, at, length, left, &blocked, &elsewhere)
            {
                let square = further.steps.last().map_or(at.square, |s| s.1.square);
                return Err(format!(
                    "{why}: {left} MP are left, and {square} can still be reached ({} MP)",
                    further.cost
                ));
            }
        }
        Ok(path)
    }

    /// Walks a person's path for `action` and does what the action does
    /// after its movement.
    fn walk_decided(
        &mut self,
        i: usize,
        action: Action,
        budget: u32,
        path: &Path,
    ) -> Result<(), FightError> {
        let (cite, what) = match action {
            Action::Flee => (
                crate::log::rule::FLEE,
                format!("flees (twice Agl+1 = {budget} MP)"),
            ),
            Action::Pursue => (
                crate::log::rule::PURSUE,
                format!("pursues (twice Agl+1 = {budget} MP)"),
            ),
            Action::MoveAndShoot => (
                crate::log::rule::MOVE_AND_SHOOT,
                format!(
                    "moves to shoot in round {}",
                    i64::from(path.cost).clamp(1, 5)
                ),
            ),
            Action::Charge => (
                crate::log::rule::CHARGE,
                format!("charges (up to Agl+1 = {budget} MP)"),
            ),
            _ => (
                crate::log::rule::MAP_MOVEMENT,
                format!("moves (up to Agl+1 = {budget} MP)"),
            ),
        };
        if action == Action::Pursue {
            let target = self.pick(i, &self.fleeing(&self.standing_enemies(i)));
            self.fighters[i].target = target;
        }
        self.walk(i, path, cite, &what);
        let end = self.fighters[i].pose.unwrap_or(path.start);
        match action {
            Action::Charge | Action::Move => {
                let hit = self.enemies_reached_from(i, end);
                self.fighters[i].target = self.pick(i, &hit);
                self.fighters[i].charging = action == Action::Charge;
            }
            Action::MoveAndShoot => {
                let mut route = vec![(0, path.start)];
                let mut spent = 0;
                for &(_, pose, cost) in &path.steps {
                    spent += cost;
                    route.push((spent, pose));
                }
                let points: Vec<(u32, Option<Pose>, i64)> =
                    route.iter().map(|&(mp, p)| (mp, Some(p), 0)).collect();
                self.fighters[i].route = route;
                // The point of the move to shoot from is asked when the
                // rounds begin (P-94).
                self.fighters[i].move_points = points;
            }
            Action::Flee => {
                self.fighters[i].broke_off = false;
                self.flee_escape(i);
            }
            _ => {}
        }
        Ok(())
    }

    /// Whom `i` strikes among `at_him`, the enemies attacking him this
    /// round, when `open` (every enemy he could strike) holds others: mls,
    /// *Close Combat*: "A character must attack an enemy who is attacking
    /// him that round, and can only attack another enemy if none are
    /// attacking him" (P-90). The others are ruled out with that sentence;
    /// with one attacker nothing is asked, but an order naming another for
    /// this round is refused with it.
    pub(super) fn choose_strike(
        &mut self,
        i: usize,
        at_him: &[usize],
        open: &[usize],
        default: Option<usize>,
    ) -> Result<Option<usize>, FightError> {
        if !self.deciding() {
            return Ok(default);
        }
        let names = at_him
            .iter()
            .map(|&j| format!("{:?}", self.name(j)))
            .collect::<Vec<_>>()
            .join(" and ");
        let ruled_out: Vec<RuledOut> = open
            .iter()
            .filter(|j| !at_him.contains(j))
            .map(|&j| RuledOut {
                choice: Choice::Target(self.name(j).to_string()),
                why: format!(
                    "{}: {names} {} him this round, {:?} does not",
                    sentence::CLOSE,
                    if at_him.len() == 1 {
                        "attacks"
                    } else {
                        "attack"
                    },
                    self.name(j)
                ),
            })
            .collect();
        if at_him.len() == 1 {
            self.refuse_ruled_out(i, Kind::Target, &ruled_out)?;
        }
        self.choose_target_ruling(i, at_him, default, false, ruled_out)
    }

    /// Whom `i` strikes or shoots among `candidates` (two or more): the
    /// tactic's `default`, or decided.
    pub(super) fn choose_target(
        &mut self,
        i: usize,
        candidates: &[usize],
        default: Option<usize>,
        shooting: bool,
    ) -> Result<Option<usize>, FightError> {
        self.choose_target_ruling(i, candidates, default, shooting, Vec::new())
    }

    /// [`Fight::choose_target`], with `ruled_out` besides the enemies who
    /// cannot be struck or shot now.
    fn choose_target_ruling(
        &mut self,
        i: usize,
        candidates: &[usize],
        default: Option<usize>,
        shooting: bool,
        ruled_out: Vec<RuledOut>,
    ) -> Result<Option<usize>, FightError> {
        let Some(default) = default else {
            return Ok(None);
        };
        if candidates.len() < 2
            || !self.person_decides(i, Kind::Target, |f| {
                Choice::Target(f.name(default).to_string())
            })
        {
            return Ok(Some(default));
        }
        let rule = if shooting {
            sentence::CLOSE_TARGETS
        } else {
            sentence::CLOSE
        };
        let options = candidates
            .iter()
            .map(|&j| Opt {
                choice: Choice::Target(self.name(j).to_string()),
                label: self.name(j).to_string(),
                rule,
            })
            .collect();
        let mut others = ruled_out;
        let named: Vec<Choice> = others.iter().map(|r| r.choice.clone()).collect();
        others.extend(
            self.standing_enemies(i)
                .into_iter()
                .filter(|j| !candidates.contains(j))
                .filter(|&j| !named.contains(&Choice::Target(self.name(j).to_string())))
                .map(|j| RuledOut {
                    choice: Choice::Target(self.name(j).to_string()),
                    why: if shooting {
                        format!("{}: {:?} cannot be shot now", sentence::SHOOT, self.name(j))
                    } else {
                        format!(
                            "{}: {:?} cannot be struck now",
                            sentence::CLOSE,
                            self.name(j)
                        )
                    },
                }),
        );
        let question = format!(
            "{}: whom to {} this round",
            self.name(i),
            if shooting { "shoot" } else { "strike" }
        );
        let default_name = self.name(default).to_string();
        let chosen = self.decide(
            Ask {
                who: i,
                kind: Kind::Target,
                question,
                options,
                ruled_out: others,
                default: Choice::Target(default_name),
            },
            |f, c| match c {
                Choice::Target(name) => candidates
                    .iter()
                    .copied()
                    .find(|&j| f.name(j) == name)
                    .ok_or_else(|| format!("{name:?} is not a target now")),
                _ => Err("the answer is not a target".into()),
            },
        )?;
        Ok(Some(chosen))
    }

    /// How `i` makes its close attack this round: its tactic's mode, or
    /// decided ("at any time declare his next attack is a Total Attack").
    pub(super) fn choose_mode(
        &mut self,
        i: usize,
        dice: &mut crate::dice::Dice<'_>,
    ) -> Result<(), FightError> {
        let default = self.fighters[i].sheet.tactic.mode;
        if !self.deciding() {
            return Ok(());
        }
        if !self.person_decides(i, Kind::Attack, |_| Choice::Attack(default)) {
            self.fighters[i].mode = default;
            self.fighters[i].breaking_off = false;
            return Ok(());
        }
        let options = [
            (Mode::Normal, sentence::NORMAL),
            (Mode::TotalAttack, sentence::TOTAL_ATTACK),
            (Mode::TotalDefence, sentence::TOTAL_DEFENCE),
            (Mode::Forego, sentence::FOREGO),
        ]
        .into_iter()
        .map(|(m, rule)| Opt {
            choice: Choice::Attack(m),
            label: Choice::Attack(m).to_string(),
            rule,
        })
        .chain(std::iter::once(Opt {
            choice: Choice::BreakOff,
            label: Choice::BreakOff.to_string(),
            rule: sentence::BREAK_OFF,
        }))
        .collect::<Vec<Opt>>();
        let all = options.clone();
        let target = self.fighters[i]
            .target
            .map(|t| self.name(t).to_string())
            .unwrap_or_default();
        let apply = |_: &Self, c: &Choice| -> Result<(Mode, bool), String> {
            match c {
                Choice::Attack(m) => Ok((*m, false)),
                // "He makes a normal attack, but if successful does no damage."
                Choice::BreakOff => Ok((Mode::Normal, true)),
                _ => Err("the answer is not a way to attack".into()),
            }
        };
        let mut mode = self.decide(
            Ask {
                who: i,
                kind: Kind::Attack,
                question: format!(
                    "{}: how to make this round's attack on {target}",
                    self.name(i)
                ),
                options,
                ruled_out: Vec::new(),
                default: Choice::Attack(default),
            },
            apply,
        )?;
        // mls, Behaviour: a Total Attack against a Noticeable Cautious, and
        // so on (P-88); a failed roll leaves him to the trait: he chooses
        // again among the ways the trait allows (P-96), the tactic's way or
        // a normal attack being the default.
        let mut against: Vec<&'static str> = Vec::new();
        loop {
            let chosen = if mode.1 {
                Choice::BreakOff
            } else {
                Choice::Attack(mode.0)
            };
            let Some((name, _)) = trait_against(&chosen) else {
                break;
            };
            if against.contains(&name) {
                break;
            }
            let instead = match chosen {
                Choice::Attack(m) if m != default => Choice::Attack(default),
                Choice::BreakOff => Choice::Attack(default),
                _ => Choice::Attack(Mode::Normal),
            };
            if self.against_trait(i, &chosen, &instead, dice)? {
                break;
            }
            against.push(name);
            if self.orders_skip(i, Kind::Attack) {
                // Orders written before P-96 name no second choice.
                mode = match instead {
                    Choice::Attack(m) => (m, false),
                    _ => (Mode::Normal, false),
                };
                break;
            }
            let (allowed, barred): (Vec<Opt>, Vec<Opt>) = all
                .iter()
                .cloned()
                .partition(|o| trait_against(&o.choice).is_none_or(|(t, _)| !against.contains(&t)));
            let ruled_out = barred
                .into_iter()
                .map(|o| RuledOut {
                    why: format!(
                        "{}: the roll against his Noticeable {} failed: he behaves as the trait has it (P-96)",
                        sentence::BEHAVIOUR,
                        trait_against(&o.choice).map_or("", |(t, _)| t)
                    ),
                    choice: o.choice,
                })
                .collect();
            mode = self.decide(
                Ask {
                    who: i,
                    kind: Kind::Attack,
                    question: format!(
                        "{}: the roll failed, so the attack on {target} is made as his {name} has it: how?",
                        self.name(i)
                    ),
                    options: allowed,
                    ruled_out,
                    default: instead,
                },
                apply,
            )?;
        }
        self.fighters[i].mode = mode.0;
        self.fighters[i].breaking_off = mode.1;
        Ok(())
    }

    /// After total attacker `t`'s hit: the next of `next` (the opponents
    /// he may go on to) or stop; the tactic's `default`, or decided.
    pub(super) fn choose_chain(
        &mut self,
        t: usize,
        next: &[usize],
        default: Option<usize>,
    ) -> Result<Option<usize>, FightError> {
        let as_choice = |f: &Self, c: Option<usize>| match c {
            Some(j) => Choice::Target(f.name(j).to_string()),
            None => Choice::Stop,
        };
        if next.is_empty() || !self.person_decides(t, Kind::Chain, |f| as_choice(f, default)) {
            return Ok(default);
        }
        let mut options: Vec<Opt> = next
            .iter()
            .map(|&j| Opt {
                choice: Choice::Target(self.name(j).to_string()),
                label: format!("go on to {}", self.name(j)),
                rule: sentence::CHAIN,
            })
            .collect();
        options.push(Opt {
            choice: Choice::Stop,
            label: "stop".into(),
            rule: sentence::CHAIN,
        });
        let ruled_out = self
            .standing_enemies(t)
            .into_iter()
            .filter(|j| !next.contains(j))
            .map(|j| RuledOut {
                choice: Choice::Target(self.name(j).to_string()),
                why: format!(
                    "{}; \"He may attack an opponent who is unable to attack this round only if he has hit all opponents who are able to attack\"; Who May Attack: \"any enemy in the hex in front of him\": {:?} is not open to the chain now",
                    sentence::CHAIN,
                    self.name(j)
                ),
            })
            .collect();
        let default = as_choice(self, default);
        self.decide(
            Ask {
                who: t,
                kind: Kind::Chain,
                question: format!(
                    "{}: the total attack hits; go on to another opponent, or stop?",
                    self.name(t)
                ),
                options,
                ruled_out,
                default,
            },
            |f, c| match c {
                Choice::Stop => Ok(None),
                Choice::Target(name) => next
                    .iter()
                    .copied()
                    .find(|&j| f.name(j) == name)
                    .map(Some)
                    .ok_or_else(|| format!("{name:?} is not open to the chain")),
                _ => Err("the answer is not an opponent or stop".into()),
            },
        )
    }

    /// Whether `i` delays or rushes an attack of `base` from the
    /// `from`-th on (0: the first): the tactic's way (`None`), or decided,
    /// with the index of the attack delayed or rushed. mls, *Delaying
    /// Attacks*: "A character may delay an attack"; *Rushing Attacks*: "A
    /// character may perform an attack 1 round in advance": each attack, so
    /// a person who delays or rushes one is asked again about the later
    /// ones (`from` past it) until he answers "no other" (P-95).
    pub(super) fn choose_timing(
        &mut self,
        i: usize,
        base: crate::schedule::Schedule,
        from: usize,
    ) -> Result<Option<(crate::schedule::Schedule, usize)>, FightError> {
        // An answer is the schedule and the index of the attack timed (the
        // number of attacks for "on time": none left to ask about).
        if from > 0 && self.orders_skip(i, Kind::Timing) {
            // Asked again: an orders file that names no further timing for
            // him has none (so orders written before P-95 replay).
            return Ok(None);
        }
        let tactic = &self.fighters[i].sheet.tactic;
        let default = match (
            from,
            tactic.delay,
            tactic.rush,
            tactic.delay_attack,
            tactic.rush_attack,
        ) {
            (f, ..) if f > 0 => Choice::Timing {
                delay: 0,
                rush: false,
            },
            (_, 0, false, _, _) => Choice::Timing {
                delay: 0,
                rush: false,
            },
            (_, d, false, 1, _) => Choice::Timing {
                delay: d,
                rush: false,
            },
            (_, 0, true, _, 1) => Choice::Timing {
                delay: 0,
                rush: true,
            },
            (_, d, false, k, _) if d > 0 => Choice::TimingOf {
                attack: k,
                delay: d,
                rush: false,
            },
            (_, 0, true, _, k) => Choice::TimingOf {
                attack: k,
                delay: 0,
                rush: true,
            },
            // A tactic that delays one attack and rushes another: the
            // engine's own.
            _ => {
                if self.decider(i, Kind::Timing) == Controller::Engine {
                    return Ok(None);
                }
                Choice::Timing {
                    delay: 0,
                    rush: false,
                }
            }
        };
        if !self.person_decides(i, Kind::Timing, |_| default.clone()) {
            return Ok(None);
        }
        let mut options = vec![Opt {
            choice: Choice::Timing {
                delay: 0,
                rush: false,
            },
            label: if from == 0 {
                "on time".into()
            } else {
                "no other attack delayed or rushed".into()
            },
            rule: sentence::DELAY,
        }];
        let mut ruled_out = Vec::new();
        if from == 0 {
            for delay in 1..=4 {
                let c = Choice::Timing { delay, rush: false };
                options.push(Opt {
                    label: c.to_string(),
                    choice: c,
                    rule: sentence::DELAY,
                });
            }
            let rush = Choice::Timing {
                delay: 0,
                rush: true,
            };
            match base.rush_attack(0) {
                Ok(_) => options.push(Opt {
                    label: rush.to_string(),
                    choice: rush,
                    rule: sentence::RUSH,
                }),
                Err(why) => ruled_out.push(RuledOut {
                    choice: rush,
                    why: format!("{}: {why}", sentence::RUSH),
                }),
            }
        }
        let rounds = base.rounds();
        // A later attack of the turn: delayed within the turn, or rushed
        // where the round before it is free.
        for (k, &round) in rounds.iter().enumerate().skip(from.max(1)) {
            let attack = k as u32 + 1;
            for delay in 1..=(crate::schedule::ROUNDS - round) as u32 {
                let c = Choice::TimingOf {
                    attack,
                    delay,
                    rush: false,
                };
                options.push(Opt {
                    label: c.to_string(),
                    choice: c,
                    rule: sentence::DELAY,
                });
            }
            let c = Choice::TimingOf {
                attack,
                delay: 0,
                rush: true,
            };
            match base.rush_attack(k) {
                Ok(_) => options.push(Opt {
                    label: c.to_string(),
                    choice: c,
                    rule: sentence::RUSH,
                }),
                Err(why) => ruled_out.push(RuledOut {
                    choice: c,
                    why: format!("{}: {why}", sentence::RUSH),
                }),
            }
        }
        // The attacks already timed this turn are not timed again.
        for k in 0..from {
            ruled_out.push(RuledOut {
                choice: Choice::TimingOf {
                    attack: k as u32 + 1,
                    delay: 1,
                    rush: false,
                },
                why: format!(
                    "{}: attack {} of the turn is not after the one timed already this turn (P-95)",
                    sentence::DELAY,
                    k + 1
                ),
            });
        }
        let attacks = rounds.len() as u32;
        let question = if from == 0 {
            format!(
                "{}: your attacks this turn are in round(s) {rounds:?}; delay or rush one?",
                self.name(i)
            )
        } else {
            format!(
                "{}: your attacks this turn are now in round(s) {rounds:?}; delay or rush a later one (attack {} on)?",
                self.name(i),
                from + 1
            )
        };
        self.decide(
            Ask {
                who: i,
                kind: Kind::Timing,
                question,
                options,
                ruled_out,
                default,
            },
            |_, c| match *c {
                // On time (no other): the schedule as it stands, and no
                // attack left to ask about.
                Choice::Timing {
                    rush: false,
                    delay: 0,
                } => Ok(Some((base, rounds.len()))),
                Choice::Timing { .. } | Choice::TimingOf { .. } if from > 0 && c.timed_attack() <= from => Err(format!(
                    "{}: attack {} of the turn is not after the one timed already this turn (P-95)",
                    sentence::DELAY,
                    c.timed_attack()
                )),
                Choice::Timing {
                    rush: true,
                    delay: 0,
                } => base
                    .rush_attack(0)
                    .map(|s| Some((s, 0)))
                    .map_err(|why| format!("{}: {why}", sentence::RUSH)),
                Choice::Timing { rush: false, delay } if delay <= 4 => {
                    Ok(Some((base.delay_attack(0, delay as usize), 0)))
                }
                Choice::TimingOf { attack, .. } if attack < 1 || attack > attacks => Err(format!(
                    "{}: there are {attacks} attack(s) this turn, in round(s) {rounds:?}",
                    sentence::DELAY
                )),
                Choice::TimingOf {
                    attack,
                    rush: true,
                    delay: 0,
                } => base
                    .rush_attack(attack as usize - 1)
                    .map(|s| Some((s, attack as usize - 1)))
                    .map_err(|why| format!("{}: {why}", sentence::RUSH)),
                Choice::TimingOf {
                    attack,
                    rush: false,
                    delay,
                } if delay <= 4 => Ok(Some((
                    base.delay_attack(attack as usize - 1, delay as usize),
                    attack as usize - 1,
                ))),
                _ => {
                    Err("the answer is not a delay of 0 to 4 rounds or a rush of one attack".into())
                }
            },
        )
    }

    /// A yes-or-no decision (dodge, Fate Point): `default`, or decided.
    pub(super) fn choose_yes(
        &mut self,
        i: usize,
        kind: Kind,
        default: bool,
        rule: &'static str,
        question: impl FnOnce(&Self) -> String,
    ) -> Result<bool, FightError> {
        if !self.person_decides(i, kind, |_| Choice::Yes(default)) {
            return Ok(default);
        }
        let options = vec![
            Opt {
                choice: Choice::Yes(true),
                label: "yes".into(),
                rule,
            },
            Opt {
                choice: Choice::Yes(false),
                label: "no".into(),
                rule,
            },
        ];
        let question = question(self);
        self.decide(
            Ask {
                who: i,
                kind,
                question,
                options,
                ruled_out: Vec::new(),
                default: Choice::Yes(default),
            },
            |_, c| match c {
                Choice::Yes(y) => Ok(*y),
                _ => Err("the answer is not yes or no".into()),
            },
        )
    }
}
