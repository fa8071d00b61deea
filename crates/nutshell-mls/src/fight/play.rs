//! A fight played by decisions: it runs until a person must decide, shows
//! the decision, takes an answer, and goes on.
//!
//! A step that reaches an unanswered decision is undone: the fight goes back
//! to where the step began, and the faces the step drew are kept and served
//! again first when it is retried, so the dice are the same whatever the
//! source (a seed, or faces typed in from physical dice). An answer is
//! checked by running the step again on those faces alone up to the
//! decision: a refused answer changes nothing.
//!
//! # In detail
//!
//! `Play`: a fight played by decisions. A step that reaches an unanswered
//! decision is undone (the fight cloned at the step's start) and its dice
//! kept to be served again first (`Rewind`), so any source works, typed faces
//! included; the log lines it wrote before the decision are kept as `so_far`
//! (the round so far, final since its dice are, cleared when a step
//! completes); an answer is checked by replaying the step on those faces
//! alone up to the decision, so a refused one changes nothing; `answer_as`
//! records who answered (the engine's default taken for a person whose time
//! ran out is the engine's); `pending_all` and `answer_for`: the set actions
//! of a side's members asked at once (`fight::turn`'s `members_act`: the
//! first left acts at once if the engine's, else whoever is answered first,
//! else every member left whom a person controls is asked) and answered in
//! any order.

use super::decide::{Choice, Controller, Decision, Decisions, Kind, Made};
use super::{Fight, Progress};
use crate::error::FightError;
use crate::log::Line;
use nutshell_dice::source::SourceError;
use nutshell_dice::{DiceSource, Faces};

/// What a step of a played fight did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A person must decide this before the fight goes on.
    Decide(Decision),
    /// A round was resolved, or the fight is over.
    Step(Progress),
}

/// A fight whose combatants are each controlled by a person or by the
/// engine.
#[derive(Debug, Clone)]
pub struct Play {
    fight: Fight,
    /// The faces the undone step drew, served first when it is retried.
    faces: Vec<i64>,
    /// The decisions waited for, in order (several when members of the
    /// active side are asked for their set actions at once).
    asked: Vec<Decision>,
    /// The log lines the undone step wrote before its decision: final, as
    /// its faces are kept; empty once a step completes.
    so_far: Vec<Line>,
}

/// A dice source that serves some faces again before drawing new ones, and
/// keeps every face it serves.
struct Rewind<'s> {
    again: &'s [i64],
    next: usize,
    source: Option<&'s mut dyn DiceSource>,
    served: Vec<i64>,
}

impl DiceSource for Rewind<'_> {
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        let face = match self.again.get(self.next) {
            Some(&f) => {
                self.next += 1;
                f
            }
            None => match self.source.as_mut() {
                Some(s) => s.draw(faces)?,
                None => {
                    return Err(SourceError::Exhausted {
                        given: self.again.len(),
                    });
                }
            },
        };
        self.served.push(face);
        Ok(face)
    }
}

impl Play {
    /// Plays `fight` by decisions, every combatant on `controllers` (by
    /// index; those left out are the engine's).
    pub fn new(mut fight: Fight, controllers: Vec<Controller>) -> Play {
        let n = fight.fighters.len();
        let mut all = controllers;
        all.resize(n, Controller::Engine);
        fight.decisions = Some(Box::new(Decisions {
            controllers: all,
            ..Decisions::default()
        }));
        Play {
            fight,
            faces: Vec::new(),
            asked: Vec::new(),
            so_far: Vec::new(),
        }
    }

    /// The fight as it stands.
    pub fn fight(&self) -> &Fight {
        &self.fight
    }

    /// The decision waited for, if any (the first, when several are).
    pub fn pending(&self) -> Option<&Decision> {
        self.asked.first()
    }

    /// Every decision waited for, in order: the set actions of the active
    /// side's members a person controls, asked at once (docs/mls/combat.md,
    /// "Playing a fight by decisions"), or one decision.
    pub fn pending_all(&self) -> &[Decision] {
        &self.asked
    }

    /// The log lines of the step under way up to the decision it waits for
    /// (the round so far): the step, retried on the same faces, writes them
    /// again first when it completes. Empty when no step is under way.
    pub fn so_far(&self) -> &[Line] {
        &self.so_far
    }

    /// Who controls each combatant.
    pub fn controllers(&self) -> &[Controller] {
        self.state().map_or(&[], |d| &d.controllers)
    }

    /// Hands combatant `i` to a person or to the engine. The decisions
    /// waited for are asked anew on the next step (the undone step retried
    /// on its faces, the answers given kept), so the fight then waits for
    /// exactly the decisions the rules require of the new controllers.
    pub fn set_controller(&mut self, i: usize, controller: Controller) -> Result<(), FightError> {
        let d = self.state_mut();
        let Some(c) = d.controllers.get_mut(i) else {
            return Err(FightError::Invalid(format!("there is no combatant {i}")));
        };
        if *c != controller {
            *c = controller;
            self.asked.clear();
        }
        Ok(())
    }

    /// Whether the decision `id` has been answered: made, or answered and
    /// waiting to be used.
    pub fn answered(&self, id: &str) -> bool {
        let Some(d) = self.state() else {
            return false;
        };
        if d.answers.iter().any(|m| m.id.as_deref() == Some(id)) {
            return true;
        }
        // The ids of the decisions made, counted as they were asked.
        let mut seen: Vec<(u32, usize, &str, Kind, usize)> = Vec::new();
        d.made.iter().any(|m| {
            let n = match seen
                .iter_mut()
                .find(|s| (s.0, s.1, s.2, s.3) == (m.turn, m.round, m.who.as_str(), m.kind))
            {
                Some(s) => {
                    s.4 += 1;
                    s.4
                }
                None => {
                    seen.push((m.turn, m.round, m.who.as_str(), m.kind, 1));
                    1
                }
            };
            self.index_of(&m.who).is_some_and(|who| {
                super::decide::decision_id(m.turn, m.round, who, m.kind, n) == id
            })
        })
    }

    /// The combatant named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.fight
            .fighters
            .iter()
            .position(|f| f.sheet.name == name)
    }

    /// Adds answers to be used, in order, as the fight reaches their
    /// decisions (an orders file, or a log being replayed). An answer is used
    /// when the next decision is its combatant's and of its kind, whoever
    /// controls him; a person's decision that does not match it is an error.
    pub fn queue(&mut self, orders: impl IntoIterator<Item = Made>) {
        self.state_mut().queue.extend(orders);
    }

    /// The answers queued and not used yet.
    pub fn queued(&self) -> usize {
        self.state().map_or(0, |d| d.queue.len())
    }

    /// Every decision made so far, by whom, in order: an orders file that
    /// replays the fight.
    pub fn decisions(&self) -> &[Made] {
        self.state().map_or(&[], |d| &d.made)
    }

    fn state(&self) -> Option<&Decisions> {
        self.fight.decisions.as_deref()
    }

    fn state_mut(&mut self) -> &mut Decisions {
        self.fight
            .decisions
            .get_or_insert_with(Box::default)
            .as_mut()
    }

    /// Runs the next round, or stops at a decision a person must make.
    pub fn step(&mut self, source: &mut dyn DiceSource) -> Result<Next, FightError> {
        if let Some(d) = self.asked.first() {
            return Ok(Next::Decide(d.clone()));
        }
        let start = self.fight.clone();
        let again = std::mem::take(&mut self.faces);
        let mut dice = Rewind {
            again: &again,
            next: 0,
            source: Some(source),
            served: Vec::new(),
        };
        match self.fight.step(&mut dice) {
            Ok(p) => {
                self.so_far.clear();
                Ok(Next::Step(p))
            }
            Err(FightError::Waiting) => {
                let asked = self
                    .fight
                    .decisions
                    .as_mut()
                    .map(|d| std::mem::take(&mut d.asked))
                    .unwrap_or_default();
                let Some(first) = asked.first().cloned() else {
                    return Err(FightError::Invalid("a decision was lost".into()));
                };
                self.faces = dice.served;
                self.so_far = self.fight.log()[start.log().len()..].to_vec();
                self.fight = start;
                self.asked = asked;
                Ok(Next::Decide(first))
            }
            Err(e) => {
                // The step is undone, its faces kept: a source that ran out
                // can be given more and the step retried.
                self.faces = dice.served;
                self.fight = start;
                Err(e)
            }
        }
    }

    /// Runs until a person must decide or the fight is over.
    pub fn advance(&mut self, source: &mut dyn DiceSource) -> Result<Next, FightError> {
        loop {
            match self.step(source)? {
                Next::Step(Progress::Round { .. }) => continue,
                other => return Ok(other),
            }
        }
    }

    /// Answers the decision waited for. An answer that breaks a rule is
    /// refused (`FightError::Refused`, naming the sentence) and changes
    /// nothing.
    pub fn answer(&mut self, choice: Choice) -> Result<(), FightError> {
        self.answer_as(choice, Controller::Person)
    }

    /// [`Play::answer`], saying who answered: `Controller::Engine` when the
    /// engine's default is taken for a person (a table's time for a
    /// decision ran out), so the log says it was the engine's.
    pub fn answer_as(&mut self, choice: Choice, by: Controller) -> Result<(), FightError> {
        let Some(asked) = self.asked.first() else {
            return Err(FightError::Invalid("no decision is waited for".into()));
        };
        let (who, kind) = (asked.who, asked.kind);
        self.answer_for(who, kind, choice, by)
    }

    /// Answers the decision of kind `kind` waited for from combatant `who`
    /// (any of [`Play::pending_all`]; `by` as for [`Play::answer_as`]). An
    /// answer that breaks a rule is refused and changes nothing; one that is
    /// taken is used on the next step, when the fight reaches its decision.
    pub fn answer_for(
        &mut self,
        who: usize,
        kind: Kind,
        choice: Choice,
        by: Controller,
    ) -> Result<(), FightError> {
        let Some(asked) = self.asked.iter().find(|a| a.who == who && a.kind == kind) else {
            let name = self
                .fight
                .fighters
                .get(who)
                .map_or_else(|| format!("combatant {who}"), |f| f.sheet.name.clone());
            return Err(FightError::Invalid(format!(
                "no {} is waited for from {name}",
                kind.name()
            )));
        };
        let id = asked.id.clone();
        self.answer_id(&id, choice, by)
    }

    /// Answers the decision waited for whose [`Decision::id`] is `id` (`by`
    /// as for [`Play::answer_as`]). An answer that breaks a rule is refused
    /// (`FightError::Refused`, naming the sentence) and changes nothing; one
    /// that is taken is used when the fight reaches its decision, whatever
    /// other decisions are answered meanwhile and in whatever order.
    pub fn answer_id(
        &mut self,
        id: &str,
        choice: Choice,
        by: Controller,
    ) -> Result<(), FightError> {
        let Some(asked) = self.asked.iter().find(|a| a.id == id).cloned() else {
            let why = if self.answered(id) {
                "has been answered already"
            } else {
                "is not waited for"
            };
            return Err(FightError::Invalid(format!("decision {id} {why}")));
        };
        let made = asked.answered(choice, by);
        let refused = |why: &str| {
            FightError::Refused(format!(
                "{:?}'s {} {:?} is refused: {why}",
                asked.name,
                asked.kind.name(),
                made.choice.to_string()
            ))
        };
        // Try it: the step again, on the faces it drew before the decision.
        let mut trial = self.fight.clone();
        let d = trial.decisions.get_or_insert_with(Box::default);
        d.rejected = None;
        d.answers.retain(|m| m.id != made.id);
        d.answers.push(made.clone());
        let mut dice = Rewind {
            again: &self.faces,
            next: 0,
            source: None,
            served: Vec::new(),
        };
        let outcome = trial.step(&mut dice);
        let d = trial.decisions.as_deref();
        if let Some((rid, why)) = d.and_then(|d| d.rejected.as_ref())
            && rid == id
        {
            return Err(refused(why));
        }
        let used = d.is_some_and(|d| !d.answers.iter().any(|m| m.id == made.id));
        let reached = match outcome {
            // Only the dice ran out (the trial has no new ones), or the fight
            // went on: the answer held.
            Ok(_) | Err(FightError::Waiting | FightError::Dice(_)) => format!("{outcome:?}"),
            Err(e) => return Err(e),
        };
        if !used {
            // Not reached yet (a set action standing by while another member
            // acts): one of its options, which are exactly those the rules
            // take.
            if !asked.options.iter().any(|o| o.choice == made.choice) {
                return Err(
                    match asked.ruled_out.iter().find(|r| r.choice == made.choice) {
                        Some(r) => refused(&r.why),
                        None => {
                            refused(&format!("not one of the options (not reached: {reached})"))
                        }
                    },
                );
            }
        }
        let answers = &mut self.state_mut().answers;
        answers.retain(|m| m.id != made.id);
        answers.push(made);
        // The step is retried on its faces: the answer is used where its
        // decision comes, and the fight asks anew what it then waits for.
        self.asked.clear();
        Ok(())
    }

    /// Runs the fight to its end, every decision the engine's or queued.
    pub fn run(&mut self, source: &mut dyn DiceSource) -> Result<super::Ending, FightError> {
        loop {
            match self.advance(source)? {
                Next::Step(Progress::Over(e)) => return Ok(e),
                Next::Decide(d) => {
                    return Err(FightError::Invalid(format!(
                        "turn {}, round {}: {} must decide: {}",
                        d.turn, d.round, d.name, d.question
                    )));
                }
                Next::Step(Progress::Round { .. }) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FightOptions;
    use crate::fight::{Action, Kind};
    use crate::map::{BattleMap, Square};
    use crate::sheet::Side;
    use nutshell_dice::Seeded;
    use std::sync::Arc;

    /// The corridor duel (examples/mls), Sir Aldric a person's, Black Wat
    /// the engine's.
    fn corridor() -> Play {
        let side = |name: &str, text: &str| Side::parse(name, text).unwrap();
        let map = BattleMap::parse(
            "corridor.toml",
            include_str!("../../../../examples/mls/maps/corridor.toml"),
        )
        .unwrap();
        let options = FightOptions {
            map: Some(Arc::new(map)),
            ..FightOptions::default()
        };
        let sides = [
            side(
                "a",
                include_str!("../../../../examples/mls/duel/knight.toml"),
            ),
            side(
                "b",
                include_str!("../../../../examples/mls/duel/brigand.toml"),
            ),
        ];
        let fight = Fight::new(sides, options).unwrap();
        Play::new(fight, vec![Controller::Person, Controller::Engine])
    }

    fn next(p: &mut Play, dice: &mut Seeded) -> Decision {
        match p.advance(dice).unwrap() {
            Next::Decide(d) => d,
            other => panic!("no decision: {other:?}"),
        }
    }

    /// mls, 1. Movement: "may move up to their Agl+1 in squares". A
    /// movement decision's JSON gives every option its square, its least
    /// cost (the label's) and the cheapest way there, square by square, so
    /// that a front end computes no cost.
    #[test]
    fn a_movement_shows_each_squares_cost_and_way() {
        let mut p = corridor();
        let mut dice = Seeded::new(5);
        let d = next(&mut p, &mut dice);
        assert_eq!((d.name.as_str(), d.kind), ("Sir Aldric", Kind::SetAction));
        p.answer(Choice::Action(Action::Move)).unwrap();
        let d = next(&mut p, &mut dice);
        assert_eq!(d.kind, Kind::Movement);
        let json = serde_json::to_value(&d).unwrap();
        let options = json["options"].as_array().unwrap();
        assert_eq!(options.len(), d.options.len());
        let start = Square::parse("C4").unwrap();
        for o in options {
            let square = o["square"].as_str().unwrap();
            let cost = o["cost"].as_u64().unwrap();
            assert_eq!(o["label"], format!("{square} ({cost} MP)"), "{o}");
            assert!(cost <= 3, "within Agl+1 = 3: {o}");
            let way: Vec<Square> = o["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| Square::parse(s.as_str().unwrap()).unwrap())
                .collect();
            assert_eq!(way.last().copied().unwrap_or(start).to_string(), square);
            let mut at = start;
            for s in &way {
                assert_eq!(at.x.abs_diff(s.x).max(at.y.abs_diff(s.y)), 1, "{o}");
                at = *s;
            }
        }
        // Other decisions carry no squares.
        let set = serde_json::to_value(corridor_first()).unwrap();
        assert!(set["options"][0].get("square").is_none(), "{set}");
    }

    fn corridor_first() -> Decision {
        next(&mut corridor(), &mut Seeded::new(5))
    }

    /// The engine's pick taken for a person (a table's time ran out) is
    /// recorded as the engine's; an answer by the person as the person's.
    #[test]
    fn an_answer_says_who_gave_it() {
        let mut p = corridor();
        let mut dice = Seeded::new(9);
        next(&mut p, &mut dice);
        p.answer(Choice::Action(Action::Move)).unwrap();
        let d = next(&mut p, &mut dice);
        p.answer_as(d.default.clone(), Controller::Engine).unwrap();
        next(&mut p, &mut dice);
        let made = p.decisions();
        let by: Vec<(Kind, Controller)> = made
            .iter()
            .filter(|m| m.who == "Sir Aldric")
            .map(|m| (m.kind, m.by))
            .collect();
        assert_eq!(
            &by[..2],
            &[
                (Kind::SetAction, Controller::Person),
                (Kind::Movement, Controller::Engine)
            ]
        );
    }
}
