//! The active side's members declare in any order (docs/mls/combat.md,
//! "Playing a fight by decisions"; the issue: "the active side's members
//! may declare in any order; the engine's combatants decide at once").
//!
//! mls, *Party Turns and Turn Order*: "one side performs its actions
//! first"; *1. Movement*: "Any characters who chose a Move, Charge, or Move
//! and Shoot action may move up to their Agl+1 in squares". The text orders
//! the sides, not the members of a side: each member a person controls is
//! asked for his set action at once, and whoever answers first moves first.

use super::decisions::{map_text, options_on, play};
use super::{combatant, open, text};
use nutshell_dice::Seeded;
use nutshell_mls::fight::{Action, Choice, Controller, Kind, Made, Next, Play};
use nutshell_mls::{FightError, FightOptions, Progress};

/// Ann and Cid (side a) against Bob, on an open map.
fn setting() -> (String, String, FightOptions) {
    let map = map_text(
        &open(14, 5),
        &[
            ("Ann", "B2", "east"),
            ("Cid", "B4", "east"),
            ("Bob", "M3", "west"),
        ],
    );
    let a = format!(
        "{}{}",
        combatant("Ann", 11, 6, 20, ""),
        combatant("Cid", 10, 6, 20, "")
    );
    let b = combatant("Bob", 10, 6, 30, "");
    (a, b, options_on(Some(&map), 1))
}

fn who_asked(p: &Play) -> Vec<(&str, Kind)> {
    p.pending_all()
        .iter()
        .map(|d| (d.name.as_str(), d.kind))
        .collect()
}

/// Steps until a decision is waited for (which must come).
fn wait(p: &mut Play, dice: &mut Seeded) {
    match p.advance(dice) {
        Ok(Next::Decide(_)) => {}
        other => panic!("no decision: {other:?}\n{}", text(p.fight())),
    }
}

/// The index of the first log line containing `part`.
fn line_of(p: &Play, part: &str) -> usize {
    p.fight()
        .log()
        .iter()
        .position(|l| l.text.contains(part))
        .unwrap_or_else(|| panic!("no line {part:?}:\n{}", text(p.fight())))
}

/// Plays to the end, every decision waited for answered with its default
/// (the first pending, in order).
fn finish(p: &mut Play, dice: &mut Seeded) {
    loop {
        match p.advance(dice).unwrap() {
            Next::Decide(d) => p.answer(d.default).unwrap(),
            Next::Step(Progress::Over(_)) => return,
            Next::Step(Progress::Round { .. }) => {}
        }
    }
}

/// Issue: "the active side's members may declare in any order". A side of
/// two persons gets two pending set actions at once; the first pending is
/// the first member's.
#[test]
fn a_side_of_two_persons_is_asked_both_set_actions_at_once() {
    let (a, b, options) = setting();
    let mut p = play(&a, &b, options, &["Ann", "Cid"]);
    let mut dice = Seeded::new(4);
    wait(&mut p, &mut dice);
    assert_eq!(
        who_asked(&p),
        [("Ann", Kind::SetAction), ("Cid", Kind::SetAction)]
    );
    assert_eq!(p.pending().unwrap().name, "Ann");
    assert!(p.pending_all().iter().all(|d| d.turn == 1 && d.round == 0));
}

/// mls, 1. Movement; the issue: "the active side's members may declare in
/// any order". Cid, second in the fighters' order, answers first: he
/// chooses and moves first (his token moves before Ann's, in the log and on
/// the map); while his movement is awaited Ann's set action stays awaited
/// beside it (issue: "a member's box stays while its decision is awaited,
/// whatever another member answers"), with the same id.
#[test]
fn the_second_member_answering_first_moves_first() {
    let (a, b, options) = setting();
    let mut p = play(&a, &b, options, &["Ann", "Cid"]);
    let mut dice = Seeded::new(4);
    wait(&mut p, &mut dice);
    let ann_id = p.pending_all()[0].id.clone();
    p.answer_for(
        1,
        Kind::SetAction,
        Choice::Action(Action::Move),
        Controller::Person,
    )
    .unwrap();
    wait(&mut p, &mut dice);
    assert_eq!(
        who_asked(&p),
        [("Cid", Kind::Movement), ("Ann", Kind::SetAction)]
    );
    assert_eq!(
        p.pending_all()[1].id,
        ann_id,
        "the same decision, still awaited"
    );
    p.answer_for(
        1,
        Kind::Movement,
        Choice::Path(vec!["D4".into()]),
        Controller::Person,
    )
    .unwrap();
    wait(&mut p, &mut dice);
    assert_eq!(who_asked(&p), [("Ann", Kind::SetAction)]);
    p.answer(Choice::Action(Action::Move)).unwrap();
    wait(&mut p, &mut dice);
    assert_eq!(who_asked(&p), [("Ann", Kind::Movement)]);
    p.answer(Choice::Path(vec!["D2".into()])).unwrap();
    p.step(&mut dice).unwrap();
    // (A step waiting for a decision is undone: the moves show once the
    // movement phase is over.)
    let square = |i: usize| p.fight().fighters()[i].pose.unwrap().square.to_string();
    assert_eq!((square(0), square(1)), ("D2".to_string(), "D4".to_string()));
    assert!(line_of(&p, "Cid chooses Move") < line_of(&p, "Ann chooses Move"));
    assert!(line_of(&p, "Cid moves") < line_of(&p, "Ann moves"));
    let made: Vec<(&str, Kind)> = p
        .decisions()
        .iter()
        .filter(|m| m.by == Controller::Person)
        .map(|m| (m.who.as_str(), m.kind))
        .collect();
    assert_eq!(
        made[..4],
        [
            ("Cid", Kind::SetAction),
            ("Cid", Kind::Movement),
            ("Ann", Kind::SetAction),
            ("Ann", Kind::Movement)
        ]
    );
}

/// A fight's decisions replay it exactly (docs/mls/combat.md, "Playing a
/// fight by decisions"), whatever order the members declared in: queued
/// into a fresh fight with the same dice they give the same log, state and
/// ending.
#[test]
fn decisions_made_out_of_order_replay_the_fight_exactly() {
    let (a, b, options) = setting();
    for seed in 0..6 {
        let mut p = play(&a, &b, options.clone(), &["Ann", "Cid"]);
        let mut dice = Seeded::new(seed);
        // Every turn, the last member asked answers first.
        loop {
            match p.advance(&mut dice).unwrap() {
                Next::Decide(_) => {
                    let last = p.pending_all().last().unwrap().clone();
                    p.answer_for(last.who, last.kind, last.default, Controller::Person)
                        .unwrap();
                }
                Next::Step(Progress::Over(_)) => break,
                Next::Step(Progress::Round { .. }) => {}
            }
        }
        let made: Vec<Made> = p.decisions().to_vec();
        let mut again = play(&a, &b, options.clone(), &["Ann", "Cid"]);
        again.queue(made.clone());
        let ending = again.run(&mut Seeded::new(seed)).unwrap();
        assert_eq!(Some(&ending), p.fight().ending(), "seed {seed}");
        assert_eq!(again.fight().log(), p.fight().log(), "seed {seed}");
        assert_eq!(again.decisions(), &made[..], "seed {seed}");
        assert_eq!(again.queued(), 0);
    }
}

/// Side `a` (Ann, Cid and the engine's Eve, Cid third) against `bob` on
/// `map`, seed 7: Ann and Cid are asked their set actions together, Cid
/// answers first (Respond); the play and its dice at the next decision.
fn cid_answers_first(a: &str, bob: &str, map: &str) -> (Play, Seeded) {
    let mut p = play(a, bob, options_on(Some(map), 1), &["Ann", "Cid"]);
    let mut dice = Seeded::new(7);
    wait(&mut p, &mut dice);
    assert_eq!(
        who_asked(&p),
        [("Ann", Kind::SetAction), ("Cid", Kind::SetAction)]
    );
    p.answer_for(
        2,
        Kind::SetAction,
        Choice::Action(Action::Respond),
        Controller::Person,
    )
    .unwrap();
    wait(&mut p, &mut dice);
    (p, dice)
}

/// The issue: "the engine's combatants decide at once". Eve (the engine's)
/// comes first and acts at once; Ann and Cid are then asked together. With
/// Ann first and Eve between them, Cid answering first leaves Ann asked
/// alone (the first left is a person's), and Eve acts right after Ann.
#[test]
fn engine_members_act_at_once_and_persons_are_asked_together() {
    let map = map_text(
        &open(14, 5),
        &[
            ("Eve", "B1", "east"),
            ("Ann", "B2", "east"),
            ("Cid", "B4", "east"),
            ("Bob", "M3", "west"),
        ],
    );
    let bob = combatant("Bob", 10, 6, 30, "");
    let eve = combatant("Eve", 10, 6, 20, "");
    let ann = combatant("Ann", 11, 6, 20, "");
    let cid = combatant("Cid", 10, 6, 20, "");
    // Eve first.
    let a = format!("{eve}{ann}{cid}");
    let (mut p, mut dice) = cid_answers_first(&a, &bob, &map);
    p.answer(Choice::Action(Action::Respond)).unwrap();
    p.step(&mut dice).unwrap();
    let order = ["Eve chooses", "Cid chooses", "Ann chooses"].map(|l| line_of(&p, l));
    assert!(order.is_sorted(), "{}", text(p.fight()));
    // Eve between Ann and Cid.
    let a = format!("{ann}{eve}{cid}");
    let (mut p, mut dice) = cid_answers_first(&a, &bob, &map);
    assert_eq!(who_asked(&p), [("Ann", Kind::SetAction)]);
    p.answer(Choice::Action(Action::Respond)).unwrap();
    p.step(&mut dice).unwrap();
    let cid = line_of(&p, "Cid chooses");
    let ann = line_of(&p, "Ann chooses");
    let eve = line_of(&p, "Eve chooses");
    assert!(cid < ann && ann < eve, "{}", text(p.fight()));
}

/// A refused answer to one of the decisions waited for changes nothing:
/// every decision stays pending, the log unchanged (mls, Pursue: "may only
/// move directly after a character who chose Flee! in the opposing side's
/// last Turn"). An answer for a decision not waited for is an error.
#[test]
fn a_refused_answer_to_one_pending_decision_changes_nothing() {
    let (a, b, options) = setting();
    let mut p = play(&a, &b, options, &["Ann", "Cid"]);
    let mut dice = Seeded::new(4);
    wait(&mut p, &mut dice);
    let before = p.pending_all().to_vec();
    let log = p.fight().log().len();
    match p.answer_for(
        1,
        Kind::SetAction,
        Choice::Action(Action::Pursue),
        Controller::Person,
    ) {
        Err(FightError::Refused(why)) => {
            assert!(why.contains("may only move directly after"), "{why}")
        }
        other => panic!("not refused: {other:?}"),
    }
    assert_eq!(p.pending_all(), &before[..]);
    assert_eq!(p.fight().log().len(), log);
    assert!(matches!(
        p.answer_for(1, Kind::Movement, Choice::Path(vec![]), Controller::Person),
        Err(FightError::Invalid(_))
    ));
    assert!(matches!(
        p.answer_for(
            2,
            Kind::SetAction,
            Choice::Action(Action::Move),
            Controller::Person
        ),
        Err(FightError::Invalid(_))
    ));
    assert_eq!(p.pending_all(), &before[..]);
}

/// Answers given in the fighters' order give exactly the fight of the
/// engine before members could declare in any order, when they were asked
/// one at a time in that order: any_order.log is the log of these fights
/// (every answer the engine's pick), recorded with that engine.
#[test]
fn answers_in_index_order_give_the_fight_recorded_before() {
    let (a, b, options) = setting();
    let mut out = String::new();
    for seed in 0..3 {
        let mut p = play(&a, &b, options.clone(), &["Ann", "Cid"]);
        finish(&mut p, &mut Seeded::new(seed));
        out += &format!("# seed {seed}\n{}\n", text(p.fight()));
    }
    assert_eq!(out, include_str!("any_order.log"));
}

/// A member handed to the engine while his set action is waited for has it
/// made by the engine on the next step; the others are asked again.
#[test]
fn handing_a_member_to_the_engine_drops_his_pending_decision() {
    let (a, b, options) = setting();
    let mut p = play(&a, &b, options, &["Ann", "Cid"]);
    let mut dice = Seeded::new(4);
    wait(&mut p, &mut dice);
    p.set_controller(0, Controller::Engine).unwrap();
    assert!(p.pending_all().is_empty());
    wait(&mut p, &mut dice);
    assert_eq!(who_asked(&p), [("Cid", Kind::SetAction)]);
    p.answer(Choice::Action(Action::Respond)).unwrap();
    p.step(&mut dice).unwrap();
    let ann = p.decisions().iter().find(|m| m.who == "Ann").unwrap();
    assert_eq!((ann.kind, ann.by), (Kind::SetAction, Controller::Engine));
    assert!(line_of(&p, "Ann chooses") < line_of(&p, "Cid chooses"));
}
