//! Fights played by decisions (docs/mls/combat.md, "Playing a fight by
//! decisions"): each kind of decision offers the legal options, refuses an
//! illegal answer with the sentence it breaks and changes nothing, and
//! applies a legal one; an all-engine fight is the engine's own fight; a
//! fight replays from its decisions.

use super::{combatant, open, side, text};
use nutshell_dice::Seeded;
use nutshell_mls::fight::{Choice, Controller, Decision, Kind, Made, Next, Play};
use nutshell_mls::sheet::Mode;
use nutshell_mls::{Fight, FightError, FightOptions, Progress};

pub(super) use super::{map_text, options_on};

/// A fight between `a` and `b`, every combatant named in `people` played by
/// a person.
pub(super) fn play(a: &str, b: &str, options: FightOptions, people: &[&str]) -> Play {
    let fight = super::fight_with(a, b, options);
    let controllers = fight
        .fighters()
        .iter()
        .map(|f| {
            if people.contains(&f.sheet.name.as_str()) {
                Controller::Person
            } else {
                Controller::Engine
            }
        })
        .collect();
    Play::new(fight, controllers)
}

/// Runs until the next decision (which must come).
pub(super) fn next_decision(p: &mut Play, dice: &mut Seeded) -> Decision {
    match p.advance(dice) {
        Ok(Next::Decide(d)) => d,
        other => panic!("no decision: {other:?}\n{}", text(p.fight())),
    }
}

pub(super) fn labels(d: &Decision) -> Vec<&str> {
    d.options.iter().map(|o| o.label.as_str()).collect()
}

/// The refusal of `choice`, which must be refused, and the pending
/// decision unchanged by it.
pub(super) fn refused(p: &mut Play, choice: Choice) -> String {
    let before = p.pending().cloned();
    let log = p.fight().log().len();
    match p.answer(choice) {
        Err(FightError::Refused(why)) => {
            assert_eq!(p.pending().cloned(), before, "a refusal changes nothing");
            assert_eq!(p.fight().log().len(), log);
            why
        }
        other => panic!("not refused: {other:?}"),
    }
}

pub(super) fn logged(p: &Play, part: &str) {
    super::logged(p.fight(), part);
}

/// Every fight of these scenarios, all on the engine, is the engine's own
/// fight for the same seed: the same log, line for line, and the same
/// ending (mls, *Set Actions*: the engine's controller is the tactic).
#[test]
fn an_all_engine_play_is_the_engines_own_fight() {
    let knight = combatant("Knight", 12, 8, 14, "fate_points = 1");
    let brigands = format!(
        "{}{}",
        combatant("Brigand", 9, 7, 10, ""),
        combatant("Cutpurse", 8, 5, 9, "")
    );
    let archer = "[[combatant]]\nname = \"Archer\"\nthp = 12\nskills = { bow = 10, blade = 6 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 5, kind = \"missile\", range = 20 }, { name = \"knife\", skill = \"blade\", dam = 3 }]\n";
    let map = map_text(
        &[
            "..........",
            "..........",
            "...#......",
            "..........",
            "..........",
        ],
        &[
            ("Knight", "B3", "east"),
            ("Archer", "B4", "east"),
            ("Brigand", "I2", "west"),
            ("Cutpurse", "I4", "west"),
        ],
    );
    let knights = format!("{knight}{archer}");
    for seed in 0..40 {
        for (a, b, options) in [
            (&knight, &brigands, options_on(None, 1)),
            (&knight, &brigands, options_on(None, 6)),
            (&knights, &brigands, options_on(Some(&map), 1)),
        ] {
            let mut engine = Fight::new([side(a), side(b)], options.clone()).unwrap();
            let ending = engine.run(&mut Seeded::new(seed)).unwrap();
            let mut p = play(a, b, options, &[]);
            let played = p.run(&mut Seeded::new(seed)).unwrap();
            assert_eq!(played, ending, "seed {seed}");
            assert_eq!(p.fight().log(), engine.log(), "seed {seed}");
            assert!(p.decisions().iter().all(|m| m.by == Controller::Engine));
        }
    }
}

/// mls, Set Actions; Pursue: "may only move directly after a character who
/// chose Flee! in the opposing side's last Turn"; Who May Shoot.
#[test]
fn a_set_action_offers_the_legal_actions_and_refuses_pursue_with_its_sentence() {
    let knight = combatant("Knight", 12, 8, 14, "");
    let brigand = combatant("Brigand", 9, 7, 10, "");
    let mut p = play(&knight, &brigand, options_on(None, 4), &["Knight"]);
    let mut dice = Seeded::new(3);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(
        (d.kind, d.name.as_str(), d.turn),
        (Kind::SetAction, "Knight", 1)
    );
    assert_eq!(
        labels(&d),
        ["Charge", "Move", "Flee", "Respond", "a full-turn action"]
    );
    assert_eq!(
        d.default,
        Choice::Action(nutshell_mls::fight::Action::Charge)
    );
    let why = refused(&mut p, Choice::Action(nutshell_mls::fight::Action::Pursue));
    assert!(
        why.contains("may only move directly after a character who chose Flee!"),
        "{why}"
    );
    // No missile weapon: refused for that reason, not for sight (P-93).
    let why = refused(&mut p, Choice::Action(nutshell_mls::fight::Action::Shoot));
    assert!(
        why.contains("a shot is made with a missile weapon"),
        "{why}"
    );
    let why = refused(&mut p, Choice::Action(nutshell_mls::fight::Action::Fight));
    assert!(why.contains("must end up adjacent to an enemy"), "{why}");
    p.answer(Choice::Action(nutshell_mls::fight::Action::Move))
        .unwrap();
    assert!(p.pending().is_none());
    // On the line the move's squares are asked next (P-88): the default.
    while let Next::Decide(d) = p.step(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    logged(&p, "Knight chooses Move");
    // The brigand's ready action (the engine's), then the knight's.
    let made: Vec<_> = p
        .decisions()
        .iter()
        .map(|m| (m.who.as_str(), m.kind, m.by))
        .collect();
    assert_eq!(
        made[..2],
        [
            ("Brigand", Kind::SetAction, Controller::Engine),
            ("Knight", Kind::SetAction, Controller::Person)
        ]
    );
}

/// mls, 1. Movement: "may move up to their Agl+1 in squares"; Forward
/// Movement's costs. A square too far is refused; a path through squares
/// is walked at the text's costs.
#[test]
fn a_movement_is_a_path_within_the_allowance() {
    let map = map_text(
        &open(14, 3),
        &[("Ann", "B2", "east"), ("Bob", "M2", "west")],
    );
    let ann = combatant("Ann", 10, 6, 12, "traits = { agility = 2 }");
    let bob = combatant("Bob", 10, 6, 12, "");
    let mut p = play(&ann, &bob, options_on(Some(&map), 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(nutshell_mls::fight::Action::Move))
        .unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Movement);
    // Three MP: E2 straight ahead is 3; a turn and a step north-east less far.
    assert!(labels(&d).contains(&"E2 (3 MP)"), "{:?}", labels(&d));
    assert!(!labels(&d).iter().any(|l| l.starts_with("F2")));
    assert_eq!(d.default, Choice::Path(vec!["E2:east".into()]));
    let why = refused(&mut p, Choice::Path(vec!["F2".into()]));
    assert!(
        why.contains("may move up to their Agl+1 in squares"),
        "{why}"
    );
    assert!(why.contains("within the 3 MP left"), "{why}");
    let why = refused(&mut p, Choice::Path(vec!["Z99".into()]));
    assert!(
        why.contains("not on the map") || why.contains("not a square"),
        "{why}"
    );
    p.answer(Choice::Path(vec!["C2".into(), "D2".into()]))
        .unwrap();
    p.step(&mut dice).unwrap();
    let ann = &p.fight().fighters()[0];
    assert_eq!(ann.pose.unwrap().square.to_string(), "D2");
    logged(
        &p,
        "Ann moves (up to Agl+1 = 3 MP): B2 to C2, forward, 1 MP; C2 to D2, forward, 1 MP (2 MP)",
    );
}

/// mls, Fighting Movement: "may move up to 1 square (turning to face any
/// direction for free whether they move or not), but must end up adjacent
/// to an enemy" (P-74).
#[test]
fn a_fight_action_steps_one_square_and_must_end_next_to_an_enemy() {
    let map = map_text(&open(6, 3), &[("Ann", "B2", "east"), ("Bob", "D2", "west")]);
    let ann = combatant("Ann", 12, 6, 30, "");
    let bob = combatant("Bob", 8, 4, 30, "tactic = { turn_action = \"pray\" }");
    let mut p = play(&ann, &bob, options_on(Some(&map), 1), &["Ann"]);
    let mut dice = Seeded::new(2);
    let d = next_decision(&mut p, &mut dice);
    assert!(labels(&d).contains(&"Fight"), "{:?}", labels(&d));
    p.answer(Choice::Action(nutshell_mls::fight::Action::Fight))
        .unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Movement);
    assert!(labels(&d).contains(&"C2:east"), "{:?}", labels(&d));
    assert!(
        !labels(&d).iter().any(|l| l.starts_with("A")),
        "{:?}",
        labels(&d)
    );
    let why = refused(&mut p, Choice::Path(vec!["E2".into()]));
    assert!(why.contains("is not one square's move from B2"), "{why}");
    let why = refused(&mut p, Choice::Path(vec!["A2:west".into()]));
    assert!(why.contains("must end up adjacent to an enemy"), "{why}");
    assert!(why.contains("no enemy is adjacent"), "{why}");
    p.answer(Choice::Path(vec!["C2".into()])).unwrap();
    // The rest of the movement phase and the first round, on the defaults.
    while let Next::Decide(d) = p.step(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    assert_eq!(
        p.fight().fighters()[0].pose.unwrap().square.to_string(),
        "C2"
    );
    logged(&p, "Ann takes a Fight action's square: C2 facing east");
}

/// mls, Flee!: "must avoid contact with all hostile characters" and "MUST
/// use ALL of his movement allowance if this is possible, he may not use
/// less".
#[test]
fn a_flight_must_use_its_whole_allowance_and_avoid_contact() {
    let map = map_text(
        &open(14, 5),
        &[("Ann", "F3", "east"), ("Bob", "H3", "west")],
    );
    let ann = combatant("Ann", 10, 6, 12, "traits = { agility = 2 }");
    let bob = combatant("Bob", 10, 6, 12, "");
    let mut p = play(&ann, &bob, options_on(Some(&map), 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    next_decision(&mut p, &mut dice);
    p.answer(Choice::Action(nutshell_mls::fight::Action::Flee))
        .unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Movement);
    assert!(
        !labels(&d).iter().any(|l| l.starts_with("G3")),
        "{:?}",
        labels(&d)
    );
    let why = refused(&mut p, Choice::Path(vec!["G3".into()]));
    assert!(
        why.contains("must avoid contact with all hostile characters"),
        "{why}"
    );
    // Turning round costs; a step west after it leaves movement unused.
    let why = refused(&mut p, Choice::Path(vec!["E3".into()]));
    assert!(
        why.contains("MUST use ALL of his movement allowance"),
        "{why}"
    );
    p.answer(d.default.clone()).unwrap();
    p.step(&mut dice).unwrap();
    logged(&p, "Ann flees (twice Agl+1 = 6 MP)");
}

/// mls, Close Combat: "can only attack another enemy if none are attacking
/// him": whom to strike among the enemies in reach.
#[test]
fn a_target_is_chosen_among_the_enemies_in_reach() {
    let ann = combatant("Ann", 12, 6, 30, "tactic = { target = \"first\" }");
    let two = format!(
        "{}{}{}",
        combatant("Bob", 8, 4, 20, "tactic = { mode = \"forego\" }"),
        combatant("Cid", 8, 4, 20, "tactic = { mode = \"forego\" }"),
        combatant("Dan", 8, 4, 20, "position = 6")
    );
    let mut p = play(&ann, &two, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(2);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(nutshell_mls::fight::Action::Fight))
        .unwrap();
    let d = loop {
        let d = next_decision(&mut p, &mut dice);
        if d.kind == Kind::Target {
            break d;
        }
        let default = d.default.clone();
        p.answer(default).unwrap();
    };
    assert_eq!(labels(&d), ["Bob", "Cid"]);
    assert_eq!(d.default, Choice::Target("Bob".into()));
    let why = refused(&mut p, Choice::Target("Dan".into()));
    assert!(why.contains("\"Dan\" cannot be struck now"), "{why}");
    p.answer(Choice::Target("Cid".into())).unwrap();
    while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    logged(&p, "Ann rolls attack on Cid");
}

/// mls, Total Attack: "A character may at any time declare his next attack
/// is a Total Attack"; the Strength is added to Dam on a win.
#[test]
fn an_attack_may_be_declared_a_total_attack() {
    let ann = combatant("Ann", 14, 6, 30, "traits = { strength = 3 }");
    let bob = combatant("Bob", 6, 4, 30, "");
    let mut found = false;
    for seed in 0..40 {
        let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        let mut declared = false;
        while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
            if d.kind == Kind::Attack && !declared {
                assert_eq!(
                    labels(&d),
                    [
                        "a normal attack",
                        "a Total Attack",
                        "a Total Defence",
                        "forego the attack",
                        "break off"
                    ]
                );
                assert!(
                    d.options[1]
                        .rule
                        .contains("declare his next attack is a Total Attack")
                );
                let why = refused(&mut p, Choice::Yes(true));
                assert!(why.contains("not one of the options"), "{why}");
                p.answer(Choice::Attack(Mode::TotalAttack)).unwrap();
                declared = true;
            } else {
                p.answer(d.default).unwrap();
            }
        }
        assert!(declared);
        let log = text(p.fight());
        assert!(log.contains("Ann rolls total attack on Bob"), "{log}");
        if log.contains("Ann's total attack succeeds: Dam 6 + Strength 3 = 9") {
            found = true;
            break;
        }
    }
    assert!(found, "no seed of 40 where the total attack succeeds");
}

/// mls, Total Attack: "continuing to attack until he has hit all enemies,
/// voluntarily stops his attacks or fails an attack": after a hit the next
/// opponent, or stop, is asked.
#[test]
fn a_total_attack_goes_on_or_stops_as_decided() {
    let ann = combatant(
        "Ann",
        18,
        6,
        60,
        "traits = { strength = 3 }\ntactic = { mode = \"total-attack\" }",
    );
    let foes = format!(
        "{}{}{}",
        combatant("Bob", 4, 4, 60, ""),
        combatant("Cid", 4, 4, 60, ""),
        combatant("Dan", 4, 4, 60, "position = 6")
    );
    let mut stopped = false;
    let mut went_on = false;
    for seed in 0..30 {
        let stop = seed % 2 == 0;
        let mut p = play(&ann, &foes, options_on(None, 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
            if d.kind == Kind::Chain {
                let options: Vec<&Choice> = d.options.iter().map(|o| &o.choice).collect();
                assert!(options.contains(&&Choice::Stop), "{options:?}");
                assert!(
                    d.options
                        .iter()
                        .all(|o| o.rule.contains("voluntarily stops his attacks"))
                );
                let why = refused(&mut p, Choice::Target("Dan".into()));
                assert!(
                    why.contains("\"Dan\" is not open to the chain now"),
                    "{why}"
                );
                let next = d.options[0].choice.clone();
                p.answer(if stop { Choice::Stop } else { next }).unwrap();
                // The round resolved, the answer shows in the log.
                p.step(&mut dice).unwrap();
                let log = text(p.fight());
                if stop {
                    assert!(
                        log.contains("Ann stops the total attack voluntarily after 1 hit(s)"),
                        "{log}"
                    );
                    stopped = true;
                } else {
                    assert!(log.contains("Ann goes on to attack"), "{log}");
                    went_on = true;
                }
                break;
            }
            p.answer(d.default).unwrap();
        }
        if stopped && went_on {
            return;
        }
    }
    panic!("no seed of 30 gave a total attack a hit with another opponent open");
}

/// mls, Breaking Off: "A character may choose to use an attack to Break Off
/// combat. He makes a normal attack, but if successful does no damage.
/// However he is considered to have disengaged (backed away)."
#[test]
fn an_attack_may_be_used_to_break_off() {
    let ann = combatant("Ann", 16, 6, 60, "");
    let bob = combatant("Bob", 4, 4, 60, "");
    for seed in 0..20 {
        let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
            if d.kind == Kind::Attack {
                assert!(
                    d.options[4]
                        .rule
                        .contains("He makes a normal attack, but if successful does no damage")
                );
                p.answer(Choice::BreakOff).unwrap();
                p.step(&mut dice).unwrap();
                let log = text(p.fight());
                if log.contains("Ann breaks off: no damage, backs away from Bob") {
                    assert!(!log.contains("damage to Bob"), "{log}");
                    return;
                }
                break;
            }
            p.answer(d.default).unwrap();
        }
    }
    panic!("no seed of 20 where Ann's break-off attack succeeds");
}

/// mls, Delaying Attacks: "A character may delay an attack by one round and
/// gain +1 to his chance to hit, or by two rounds and gain +2"; Rushing
/// Attacks: "cannot be done more than 1 round in advance".
#[test]
fn the_first_attack_may_be_delayed_or_rushed() {
    let ann = combatant("Ann", 10, 6, 60, "");
    let bob = combatant("Bob", 4, 4, 60, "");
    let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = loop {
        let d = next_decision(&mut p, &mut dice);
        if d.kind == Kind::Timing {
            break d;
        }
        p.answer(d.default).unwrap();
    };
    assert!(
        d.question.contains("round(s) [1, 2, 3, 4, 5]"),
        "{}",
        d.question
    );
    assert_eq!(
        labels(&d),
        [
            "on time",
            "delay the first attack 1 round(s)",
            "delay the first attack 2 round(s)",
            "delay the first attack 3 round(s)",
            "delay the first attack 4 round(s)",
            // The later attacks (P-88): delayed within the turn; none can
            // be rushed, every round holding an attack.
            "delay attack 2 of the turn 1 round(s)",
            "delay attack 2 of the turn 2 round(s)",
            "delay attack 2 of the turn 3 round(s)",
            "delay attack 3 of the turn 1 round(s)",
            "delay attack 3 of the turn 2 round(s)",
            "delay attack 4 of the turn 1 round(s)"
        ]
    );
    assert_eq!(d.ruled_out.len(), 5);
    // Every attack in the 1st round: none can come a round earlier.
    let why = refused(
        &mut p,
        Choice::Timing {
            delay: 0,
            rush: true,
        },
    );
    assert!(
        why.contains("cannot be done more than 1 round in advance"),
        "{why}"
    );
    p.answer(Choice::Timing {
        delay: 2,
        rush: false,
    })
    .unwrap();
    while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
        if p.fight().clock().0 > 1 {
            break;
        }
        p.answer(d.default).unwrap();
    }
    let log = text(p.fight());
    assert!(log.contains("Ann attacks in round(s) [3, 4, 5]"), "{log}");
    assert!(log.contains("+ 2 (delayed)"), "{log}");
}

/// mls, Shooting: "A knowing enemy may choose to Dodge provided he is not
/// attacking": asked, and a "no" rolls no dodge.
#[test]
fn a_shot_at_a_person_asks_whether_to_dodge() {
    let archer = "[[combatant]]\nname = \"Archer\"\nthp = 30\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 20 }]\n";
    let ann = combatant("Ann", 10, 6, 30, "tactic = { turn_action = \"pray\" }");
    let mut p = play(archer, &ann, options_on(None, 5), &["Ann"]);
    let mut dice = Seeded::new(4);
    let d = loop {
        let d = next_decision(&mut p, &mut dice);
        if d.kind == Kind::Dodge {
            break d;
        }
        p.answer(d.default).unwrap();
    };
    assert_eq!(d.default, Choice::Yes(true));
    assert!(
        d.options[0]
            .rule
            .contains("may choose to Dodge provided he is not attacking")
    );
    let why = refused(&mut p, Choice::Target("Archer".into()));
    assert!(why.contains("not one of the options"), "{why}");
    p.answer(Choice::Yes(false)).unwrap();
    p.step(&mut dice).unwrap();
    assert!(
        !text(p.fight()).contains("Ann rolls dodge"),
        "{}",
        text(p.fight())
    );
    let made = p.decisions().last().unwrap();
    assert_eq!(
        (made.kind, &made.choice),
        (Kind::Dodge, &Choice::Yes(false))
    );
}

/// Ann (a person) against the Ogre with the dice of `seed`, her Fate Point
/// spent or not (`spend`) when she is asked the question that names
/// `question.0` citing `question.1`, every other decision the default: the
/// fight played to its end, if she was asked.
fn fate_point_played(
    ann: &str,
    ogre: &str,
    seed: u64,
    question: (&str, &str),
    spend: bool,
) -> Option<Play> {
    let mut p = play(ann, ogre, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(seed);
    let mut asked = false;
    while let Next::Decide(d) = p.advance(&mut dice).unwrap() {
        if d.kind == Kind::FatePoint && d.question.contains(question.0) {
            assert!(d.options[0].rule.contains(question.1));
            p.answer(Choice::Yes(spend)).unwrap();
            asked = true;
        } else {
            p.answer(d.default).unwrap();
        }
    }
    asked.then_some(p)
}

/// mls, Death: "if he has any Fate Points one of these can be expended
/// after a failed Shock Roll to make it a success"; a "no" leaves him dead.
/// mls, Certain Death: "A Fate Point may be used to remove damage and thus
/// prevent death": asked; a "no" leaves him dead, a "yes" restores the CHP.
#[test]
fn certain_death_asks_for_a_fate_point() {
    let ann = combatant("Ann", 8, 6, 8, "fate_points = 1");
    let ogre = combatant("Ogre", 14, 30, 40, "");
    let mut seen = [false, false];
    for seed in 0..200 {
        for spend in [true, false] {
            let question = ("certain death", "A Fate Point may be used to remove damage");
            let Some(p) = fate_point_played(&ann, &ogre, seed, question, spend) else {
                continue;
            };
            let log = text(p.fight());
            if spend {
                assert!(
                    log.contains("spends a Fate Point to remove the damage"),
                    "{log}"
                );
            } else {
                assert!(
                    log.contains("Ann: below -50% THP: dead, no shock roll"),
                    "{log}"
                );
                assert_eq!(p.fight().fighters()[0].fate_points, 1);
            }
            seen[usize::from(spend)] = true;
        }
        if seen == [true, true] {
            return;
        }
    }
    panic!("no seed of 200 brought certain death");
}

#[test]
fn a_failed_shock_roll_asks_for_a_fate_point() {
    let ann = combatant("Ann", 8, 6, 10, "fate_points = 1");
    let ogre = combatant("Ogre", 14, 5, 40, "");
    let mut seen = [false, false];
    for seed in 0..400 {
        for spend in [true, false] {
            let question = ("shock roll fails", "expended after a failed Shock Roll");
            let Some(p) = fate_point_played(&ann, &ogre, seed, question, spend) else {
                continue;
            };
            let log = text(p.fight());
            let ann = &p.fight().fighters()[0];
            if spend {
                assert!(log.contains("a Fate Point makes it a success"), "{log}");
                assert_eq!(ann.fate_points, 0);
            } else {
                assert!(
                    log.contains("Ann: below 0 CHP, the shock roll fails: dead"),
                    "{log}"
                );
                assert_eq!(ann.fate_points, 1);
            }
            seen[usize::from(spend)] = true;
        }
        if seen == [true, true] {
            return;
        }
    }
    panic!("no seed of 400 brought a failed shock roll below 0 CHP");
}

/// A map fight played by decisions from a list of orders equals the same
/// fight replayed from its decisions as the JSON log writes them.
#[test]
fn a_played_map_fight_replays_from_its_json_decisions() {
    let map = map_text(
        &[
            "............",
            "....#.......",
            "............",
            "............",
        ],
        &[
            ("Ann", "B2", "east"),
            ("Bob", "K2", "west"),
            ("Cid", "K3", "west"),
        ],
    );
    let ann = combatant(
        "Ann",
        12,
        7,
        20,
        "fate_points = 2\ntraits = { agility = 2 }",
    );
    let foes = format!(
        "{}{}",
        combatant("Bob", 9, 5, 12, ""),
        combatant("Cid", 9, 5, 12, "")
    );
    for seed in 0..6 {
        let mut p = play(&ann, &foes, options_on(Some(&map), 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        // A person's answers: whatever the engine would, but a total attack
        // and a path of two squares.
        loop {
            match p.advance(&mut dice).unwrap() {
                Next::Decide(d) => {
                    let choice = match (&d.kind, &d.default) {
                        (Kind::Attack, _) => Choice::Attack(Mode::TotalAttack),
                        (Kind::Movement, Choice::Path(end)) if p.fight().clock().0 == 1 => {
                            let _ = end;
                            Choice::Path(vec!["C2".into(), "D3".into()])
                        }
                        _ => d.default.clone(),
                    };
                    p.answer(choice).unwrap();
                }
                Next::Step(Progress::Over(_)) => break,
                Next::Step(_) => {}
            }
        }
        let json = serde_json::to_string(p.decisions()).unwrap();
        let orders: Vec<Made> = serde_json::from_str(&json).unwrap();
        let mut replay = play(&ann, &foes, options_on(Some(&map), 1), &["Ann"]);
        replay.queue(orders);
        let ending = replay.run(&mut Seeded::new(seed)).unwrap();
        assert_eq!(Some(&ending), p.fight().ending(), "seed {seed}");
        assert_eq!(replay.fight().log(), p.fight().log(), "seed {seed}");
        assert_eq!(replay.decisions(), p.decisions(), "seed {seed}");
        assert_eq!(replay.queued(), 0);
        // On the engine alone, with the orders: the same fight again.
        let mut engine = play(&ann, &foes, options_on(Some(&map), 1), &[]);
        engine.queue(serde_json::from_str::<Vec<Made>>(&json).unwrap());
        engine.run(&mut Seeded::new(seed)).unwrap();
        assert_eq!(engine.fight().log(), p.fight().log(), "seed {seed}");
    }
}

/// The dice of a step undone at a decision are served again when it is
/// retried: a fight played by decisions with faces typed in uses each face
/// once, in log order.
#[test]
fn a_step_undone_at_a_decision_keeps_its_dice() {
    let ann = combatant("Ann", 10, 6, 30, "fate_points = 1");
    let bob = combatant("Bob", 10, 6, 30, "");
    let mut seeded = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(9);
    while let Next::Decide(d) = seeded.advance(&mut dice).unwrap() {
        seeded.answer(d.default).unwrap();
    }
    let faces: Vec<i64> = seeded
        .fight()
        .log()
        .iter()
        .flat_map(|l| l.faces.iter().copied())
        .collect();
    let mut typed = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut source = nutshell_dice::Scripted::new(faces.iter().copied());
    while let Next::Decide(d) = typed.advance(&mut source).unwrap() {
        typed.answer(d.default).unwrap();
    }
    assert_eq!(source.remaining(), 0);
    assert_eq!(typed.fight().log(), seeded.fight().log());
}

/// Handing a combatant to the engine at a prompt: its decision is the
/// engine's, and the log says so.
#[test]
fn a_person_may_hand_a_combatant_to_the_engine() {
    let knight = combatant("Knight", 12, 8, 14, "");
    let brigand = combatant("Brigand", 9, 7, 10, "");
    let mut p = play(&knight, &brigand, options_on(None, 4), &["Knight"]);
    let mut dice = Seeded::new(3);
    next_decision(&mut p, &mut dice);
    p.set_controller(0, Controller::Engine).unwrap();
    assert!(p.pending().is_none());
    let ending = p.run(&mut dice).unwrap();
    let mut engine = Fight::new([side(&knight), side(&brigand)], options_on(None, 4)).unwrap();
    assert_eq!(engine.run(&mut Seeded::new(3)).unwrap(), ending);
    assert_eq!(p.decisions()[0].by, Controller::Engine);
}

/// mls, Behaviour: "If the trait is 16 or higher it is Noticeable, and the
/// player must roll higher than the trait on 1d20 if he wishes him to
/// behave otherwise" (P-87): Brana (Valorous 16) told to flee rolls 1d20;
/// 17 or more and she flees, else she stands and fights by her trait.
#[test]
fn fleeing_against_a_noticeable_valorous_needs_a_roll() {
    let brana = include_str!("../../../../examples/mls/characters/brana.toml");
    let brigand = combatant("Brigand", 9, 7, 10, "");
    let mut seen = [false, false];
    for seed in 0..40 {
        let mut p = play(brana, &brigand, options_on(None, 3), &["Brana"]);
        let mut dice = Seeded::new(seed);
        let d = next_decision(&mut p, &mut dice);
        assert_eq!(d.kind, Kind::SetAction);
        p.answer(Choice::Action(nutshell_mls::fight::Action::Flee))
            .unwrap();
        while let Next::Decide(d) = p.step(&mut dice).unwrap() {
            p.answer(d.default).unwrap();
        }
        let log = text(p.fight());
        let line = p
            .fight()
            .log()
            .iter()
            .find(|l| l.text.contains("goes against a Noticeable valorous 16"))
            .unwrap_or_else(|| panic!("{log}"));
        let roll = line.faces[0];
        assert!((1..=20).contains(&roll));
        if roll > 16 {
            assert!(log.contains("Brana chooses Flee"), "{log}");
            seen[1] = true;
        } else {
            assert!(
                line.text.contains("not higher: he follows the trait"),
                "{log}"
            );
            assert!(!log.contains("Brana chooses Flee"), "{log}");
            seen[0] = true;
        }
        if seen == [true, true] {
            return;
        }
    }
    panic!("40 seeds did not give both a roll over 16 and one under");
}
