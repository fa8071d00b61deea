//! Decisions to the letter of the text (issue 35): each test holds a
//! sentence of 001's combat chapter where the engine used to depart from it,
//! in a fight played by decisions (`mls play`, the server, the page and
//! Python all play through `fight::Play`), or by the engine where the
//! sentence binds it too.

use super::decisions::{labels, next_decision, options_on, play, refused};
use super::{combatant, logged, open, text, who};
use nutshell_dice::Seeded;
use nutshell_mls::fight::{Action, Choice, Controller, Decision, Kind, Made, Next, Play};
use nutshell_mls::sheet::Mode;
use nutshell_mls::{Fight, FightError};

/// Answers every decision on its default until one of `kind` by `who`
/// comes (None: the fight ended first).
fn until(p: &mut Play, dice: &mut Seeded, who: &str, kind: Kind) -> Option<Decision> {
    loop {
        match p.advance(dice).unwrap() {
            Next::Decide(d) if d.kind == kind && d.name == who => return Some(d),
            Next::Decide(d) => p.answer(d.default).unwrap(),
            Next::Step(nutshell_mls::Progress::Over(_)) => return None,
            Next::Step(_) => {}
        }
    }
}

/// Plays on, every decision on its default, while the clock is before
/// `turn`.
fn play_through(p: &mut Play, dice: &mut Seeded, turn: u32) {
    while p.fight().clock().0 <= turn {
        match p.step(dice).unwrap() {
            Next::Decide(d) => p.answer(d.default).unwrap(),
            Next::Step(nutshell_mls::Progress::Over(_)) => return,
            Next::Step(_) => {}
        }
    }
}

/// Ann (5 attacks, every round) against Bob (3: rounds 1, 3, 5) and Carl
/// (2: rounds 2, 4), all adjacent on the line.
fn ann_bob_carl() -> (String, String) {
    let ann = combatant("Ann", 10, 6, 60, "");
    let two = format!(
        "{}{}",
        combatant("Bob", 6, 4, 60, ""),
        combatant("Carl", 4, 4, 60, "")
    );
    (ann, two)
}

/// mls, Close Combat: "A character must attack an enemy who is attacking
/// him that round, and can only attack another enemy if none are attacking
/// him." (P-90) In round 1 only Bob attacks Ann, in round 2 only Carl: she
/// strikes each in his round and is never asked whom to strike, as each
/// round leaves her one legal target.
#[test]
fn a_character_attacked_strikes_only_an_enemy_attacking_him() {
    let (ann, two) = ann_bob_carl();
    for seed in 0..10 {
        let mut p = play(&ann, &two, options_on(None, 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        play_through(&mut p, &mut dice, 1);
        let asked: Vec<&Made> = p
            .decisions()
            .iter()
            .filter(|m| m.turn == 1 && m.kind == Kind::Target && m.who == "Ann")
            .collect();
        assert!(asked.is_empty(), "{asked:?}\n{}", text(p.fight()));
        let log = text(p.fight());
        for (round, whom) in [(1, "Bob"), (2, "Carl"), (3, "Bob"), (4, "Carl")] {
            // Unless someone fell before.
            if p.fight()
                .log()
                .iter()
                .any(|l| l.turn == 1 && l.round < round && l.text.contains("falls unconscious"))
            {
                break;
            }
            assert!(
                log.contains(&format!("[t1 r{round}] Ann rolls attack on {whom}")),
                "seed {seed}, round {round}:\n{log}"
            );
        }
    }
}

/// mls, Close Combat (P-90): an order naming an enemy who is not attacking
/// him, while another is, is refused with the sentence, never overridden.
#[test]
fn an_order_to_strike_an_enemy_not_attacking_him_is_refused_with_the_sentence() {
    let (ann, two) = ann_bob_carl();
    let mut p = play(&ann, &two, options_on(None, 1), &["Ann"]);
    let order = |round, kind, choice| Made {
        id: None,
        turn: 1,
        round,
        who: "Ann".into(),
        kind,
        choice,
        by: Controller::Person,
    };
    p.queue([
        order(0, Kind::SetAction, Choice::Action(Action::Fight)),
        order(
            0,
            Kind::Timing,
            Choice::Timing {
                delay: 0,
                rush: false,
            },
        ),
        order(1, Kind::Target, Choice::Target("Carl".into())),
    ]);
    let mut dice = Seeded::new(1);
    let why = loop {
        match p.advance(&mut dice) {
            Ok(Next::Decide(d)) => p.answer(d.default).unwrap(),
            Ok(other) => panic!("not refused: {other:?}\n{}", text(p.fight())),
            Err(FightError::Refused(why)) => break why,
            Err(e) => panic!("{e}"),
        }
    };
    assert!(
        why.contains("A character must attack an enemy who is attacking him that round, and can only attack another enemy if none are attacking him"),
        "{why}"
    );
    assert!(
        why.contains("\"Bob\" attacks him this round, \"Carl\" does not"),
        "{why}"
    );
}

/// mls, Close Combat (P-90), with a choice: Bob and Carl both attack Ann in
/// every round; Dan, adjacent too, has no attack (skill 1). Ann is offered
/// exactly Bob and Carl; Dan is ruled out with the sentence.
#[test]
fn whom_to_strike_offers_exactly_the_attackers() {
    let ann = combatant("Ann", 10, 6, 60, "tactic = { target = \"first\" }");
    let three = format!(
        "{}{}{}",
        combatant("Bob", 10, 4, 60, ""),
        combatant("Carl", 10, 4, 60, ""),
        combatant("Dan", 1, 4, 60, "")
    );
    let mut p = play(&ann, &three, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(3);
    let d = until(&mut p, &mut dice, "Ann", Kind::Target).expect("a target decision");
    assert_eq!(labels(&d), ["Bob", "Carl"]);
    let dan = d
        .ruled_out
        .iter()
        .find(|r| r.choice == Choice::Target("Dan".into()))
        .expect("Dan ruled out");
    assert!(
        dan.why
            .contains("can only attack another enemy if none are attacking him"),
        "{}",
        dan.why
    );
    let why = refused(&mut p, Choice::Target("Dan".into()));
    assert!(why.contains("\"Dan\" does not"), "{why}");
    p.answer(Choice::Target("Carl".into())).unwrap();
    while let Next::Decide(d) = p.step(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    logged(p.fight(), "Ann rolls attack on Carl");
}

/// A crossbowman and an archer on the line: Dan (crossbow, reload 1) is
/// played by a person; Cara (bow) by the engine.
fn crossbow_and_bow() -> (String, String) {
    let cara = "[[combatant]]\nname = \"Cara\"\nthp = 60\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 2, kind = \"missile\", range = 20 }]\n".to_string();
    let dan = "[[combatant]]\nname = \"Dan\"\nthp = 60\nskills = { crossbow = 10 }\nweapons = [{ name = \"crossbow\", skill = \"crossbow\", dam = 2, kind = \"missile\", range = 20, reload = 1 }]\n".to_string();
    (cara, dan)
}

/// mls, Shooting: "A knowing enemy may choose to Dodge provided he is not
/// attacking." Dan holds his attack in round 2 (the crossbow stays
/// unloaded): he is not attacking, so Cara's shot that round asks him
/// whether to dodge, and a "yes" rolls the dodge.
#[test]
fn a_shooter_who_holds_his_attack_may_dodge() {
    let (cara, dan) = crossbow_and_bow();
    let mut p = play(&cara, &dan, options_on(None, 6), &["Dan"]);
    let mut dice = Seeded::new(5);
    let d = until(&mut p, &mut dice, "Dan", Kind::Reload).expect("a reload");
    let round = d.round;
    p.answer(Choice::Yes(false)).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(
        (d.kind, d.round, d.name.as_str()),
        (Kind::Dodge, round, "Dan"),
        "{}",
        text(p.fight())
    );
    assert!(
        d.options[0]
            .rule
            .contains("may choose to Dodge provided he is not attacking")
    );
    p.answer(Choice::Yes(true)).unwrap();
    while let Next::Decide(d) = p.step(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    let log = text(p.fight());
    assert!(
        log.contains(&format!("r{round}] Dan holds the attack")),
        "{log}"
    );
    assert!(log.contains(&format!("r{round}] Dan rolls dodge")), "{log}");
}

/// The other way round: when Dan spends the attack reloading he is not
/// asked to dodge (he spends an attack), and a shooter who shoots that round
/// never dodges (the shots are simultaneous), however many seeds.
#[test]
fn a_shooter_who_shoots_or_reloads_does_not_dodge() {
    let (cara, dan) = crossbow_and_bow();
    for seed in 0..10 {
        let mut p = play(&cara, &dan, options_on(None, 6), &["Dan"]);
        let mut dice = Seeded::new(seed);
        play_through(&mut p, &mut dice, 2);
        let log = text(p.fight());
        assert!(!log.contains("Dan rolls dodge"), "seed {seed}:\n{log}");
    }
}

/// mls, Move and Shoot: "he may attack in any single round from any point
/// during his movement ... (normally the round will be where the movement
/// point expended - 3rd movement point means 3rd round)" (P-94). On the
/// line Cara moves 3 squares and shoots after the first: in round 1, from 9
/// squares (range 4: -2), not from the end of her move.
#[test]
fn a_move_and_shoot_shoots_from_the_point_chosen() {
    let cara = "[[combatant]]\nname = \"Cara\"\nthp = 60\ntraits = { agility = 2 }\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 2, kind = \"missile\", range = 4 }]\n";
    let bob = combatant("Bob", 6, 4, 60, "tactic = { turn_action = \"pray\" }");
    let mut p = play(cara, &bob, options_on(None, 10), &["Cara"]);
    let mut dice = Seeded::new(2);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(Action::MoveAndShoot)).unwrap();
    let d = until(&mut p, &mut dice, "Cara", Kind::Movement).unwrap();
    assert!(d.options.iter().any(|o| o.choice == Choice::Squares(3)));
    p.answer(Choice::Squares(3)).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::ShotPoint, "{}", text(p.fight()));
    assert_eq!(
        labels(&d),
        [
            "after 0 square(s): round 1",
            "after 1 square(s): round 1",
            "after 2 square(s): round 2",
            "after 3 square(s): round 3"
        ]
    );
    assert_eq!(d.default, Choice::ShotAt(3));
    let why = refused(&mut p, Choice::ShotAt(4));
    assert!(
        why.contains("he may attack in any single round from any point during his movement"),
        "{why}"
    );
    p.answer(Choice::ShotAt(1)).unwrap();
    play_through(&mut p, &mut dice, 1);
    let log = text(p.fight());
    assert!(
        log.contains("Cara will shoot after 1 square(s) of the move, in round 1"),
        "{log}"
    );
    assert!(log.contains("Cara attacks in round(s) [1]"), "{log}");
    assert!(
        log.contains("[t1 r1] 9 squares with a range of 4: -2"),
        "{log}"
    );
    assert!(
        log.contains("[t1 r1] Cara rolls shot (bow) at Bob"),
        "{log}"
    );
    assert_eq!(who(p.fight(), "Cara").position, 3);
}

/// mls, Foregoing Attacks: "This means that he still rolls if he is being
/// attacked that round, but does no harm if he hits." (P-91) Ann foregoes
/// in round 1, when Bob (rounds 2 and 4) does not attack: no roll is made
/// by either; in round 2, attacked, she rolls.
#[test]
fn a_foregoer_whom_no_one_attacks_makes_no_roll() {
    let ann = combatant("Ann", 10, 6, 60, "");
    let bob = combatant("Bob", 4, 4, 60, "");
    let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = until(&mut p, &mut dice, "Ann", Kind::Attack).unwrap();
    assert_eq!(d.round, 1);
    p.answer(Choice::Attack(Mode::Forego)).unwrap();
    let d = until(&mut p, &mut dice, "Ann", Kind::Attack).unwrap();
    assert_eq!(d.round, 2);
    p.answer(Choice::Attack(Mode::Forego)).unwrap();
    while let Next::Decide(d) = p.step(&mut dice).unwrap() {
        p.answer(d.default).unwrap();
    }
    let log = text(p.fight());
    assert!(
        log.contains("[t1 r1] Ann foregoes the attack and no one attacks him this round: no roll"),
        "{log}"
    );
    assert!(!log.contains("[t1 r1] Ann rolls"), "{log}");
    assert!(!log.contains("[t1 r1] Bob rolls"), "{log}");
    assert!(log.contains("[t1 r2] Ann rolls attack on Bob"), "{log}");
    assert!(log.contains("[t1 r2] Bob rolls attack on Ann"), "{log}");
}

/// The same sentence by another way: an engine foregoer (the tactic's
/// mode) against Bob (rounds 2 and 4) rolls only in rounds where Bob
/// attacks, over many seeds.
#[test]
fn an_engine_foregoer_rolls_only_when_attacked() {
    let ann = combatant("Ann", 10, 6, 30, "tactic = { mode = \"forego\" }");
    let bob = combatant("Bob", 4, 4, 30, "");
    for seed in 0..30 {
        let mut f =
            Fight::new([super::side(&ann), super::side(&bob)], options_on(None, 1)).unwrap();
        f.run(&mut Seeded::new(seed)).unwrap();
        for l in f.log() {
            if l.text.starts_with("Ann rolls attack") {
                assert!(
                    l.round == 2 || l.round == 4,
                    "seed {seed}: {}\n{}",
                    l.text,
                    text(&f)
                );
            }
        }
    }
}

/// mls, Charge: "A character who chooses a Charge action may move normally
/// during the movement portion of his side's Turn. However regardless of
/// skill he may only make on attack, in the fifth round." (P-92) With no
/// enemy within Agl+1, Charge is offered all the same: Ann moves her Agl+1
/// and, reaching no one, makes no attack.
#[test]
fn a_charge_that_reaches_nobody_moves_normally() {
    let ann = combatant("Ann", 10, 6, 30, "traits = { agility = 2 }");
    let bob = combatant("Bob", 6, 4, 30, "tactic = { turn_action = \"pray\" }");
    let mut p = play(&ann, &bob, options_on(None, 10), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = next_decision(&mut p, &mut dice);
    assert!(labels(&d).contains(&"Charge"), "{:?}", d.ruled_out);
    p.answer(Choice::Action(Action::Charge)).unwrap();
    let d = until(&mut p, &mut dice, "Ann", Kind::Movement).unwrap();
    p.answer(d.default).unwrap();
    play_through(&mut p, &mut dice, 1);
    let log = text(p.fight());
    assert!(log.contains("Ann moves 3 square(s) toward Bob"), "{log}");
    assert!(!log.contains("Ann attacks in round"), "{log}");
    assert!(!log.contains("Ann rolls"), "{log}");
}

/// Shoot without a missile weapon is refused for that reason (P-93), not
/// with the line-of-sight sentence of *Who May Shoot*; so are Move and Shoot
/// and casting without a spell.
#[test]
fn shooting_without_a_missile_weapon_is_refused_for_that_reason() {
    let ann = combatant("Ann", 10, 6, 30, "");
    let bob = combatant("Bob", 6, 4, 30, "");
    let mut p = play(&ann, &bob, options_on(None, 6), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    for (action, part) in [
        (Action::Shoot, "a shot is made with a missile weapon"),
        (Action::MoveAndShoot, "a shot is made with a missile weapon"),
        (Action::CastOffensiveSpells, "he has no offensive spell"),
    ] {
        let why = refused(&mut p, Choice::Action(action));
        assert!(why.contains(part), "{why}");
        assert!(!why.contains("so long as he can see"), "{why}");
    }
}

/// mls, Rushing Attacks: "A character may perform an attack 1 round in
/// advance ... This does not affect future attacks"; *Delaying Attacks*
/// speaks of "an attack" too (P-95): with attacks in rounds 1, 3 and 5 the
/// 2nd and the 3rd are both rushed, each asked in turn; an attack timed
/// once is not timed again.
#[test]
fn each_attack_of_the_turn_may_be_rushed_or_delayed() {
    let ann = combatant("Ann", 6, 6, 60, "");
    let bob = combatant("Bob", 4, 4, 60, "");
    let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = until(&mut p, &mut dice, "Ann", Kind::Timing).unwrap();
    assert!(d.question.contains("[1, 3, 5]"), "{}", d.question);
    p.answer(Choice::TimingOf {
        attack: 2,
        delay: 0,
        rush: true,
    })
    .unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Timing);
    assert!(d.question.contains("[1, 2, 5]"), "{}", d.question);
    assert_eq!(labels(&d)[0], "no other attack delayed or rushed");
    assert!(labels(&d).contains(&"rush attack 3 of the turn"));
    let why = refused(
        &mut p,
        Choice::TimingOf {
            attack: 2,
            delay: 1,
            rush: false,
        },
    );
    assert!(why.contains("timed already this turn (P-95)"), "{why}");
    p.answer(Choice::TimingOf {
        attack: 3,
        delay: 0,
        rush: true,
    })
    .unwrap();
    play_through(&mut p, &mut dice, 1);
    let log = text(p.fight());
    assert!(log.contains("Ann attacks in round(s) [1, 2, 4]"), "{log}");
    assert!(log.contains("[t1 r4] Ann rolls attack on Bob"), "{log}");
    assert!(log.contains("- 2 (rushed)"), "{log}");
}

/// mls, Behaviour: "the player must roll higher than the trait on 1d20 if
/// he wishes him to behave otherwise" (P-96): when Brana (Valorous 16)
/// fails the roll to flee, the player chooses again among the set actions
/// valour allows: Flee! is ruled out with the sentence, the rest offered.
#[test]
fn a_failed_behaviour_roll_lets_the_player_choose_what_the_trait_allows() {
    let brana = include_str!("../../../../examples/mls/characters/brana.toml");
    let brigand = combatant("Brigand", 9, 7, 10, "");
    for seed in 0..40 {
        let mut p = play(brana, &brigand, options_on(None, 3), &["Brana"]);
        let mut dice = Seeded::new(seed);
        let d = next_decision(&mut p, &mut dice);
        assert_eq!(d.kind, Kind::SetAction);
        let first = labels(&d).len();
        p.answer(Choice::Action(Action::Flee)).unwrap();
        let d = match p.step(&mut dice).unwrap() {
            Next::Decide(d) if d.kind == Kind::SetAction => d,
            // The roll succeeded: she flees.
            _ => continue,
        };
        assert!(d.question.contains("valorous"), "{}", d.question);
        assert!(!labels(&d).contains(&"Flee"), "{:?}", labels(&d));
        assert_eq!(labels(&d).len(), first - 1);
        let why = refused(&mut p, Choice::Action(Action::Flee));
        assert!(
            why.contains("he behaves as the trait has it (P-96)"),
            "{why}"
        );
        p.answer(Choice::Action(Action::Respond)).unwrap();
        while let Next::Decide(d) = p.step(&mut dice).unwrap() {
            p.answer(d.default).unwrap();
        }
        let made: Vec<&Made> = p
            .decisions()
            .iter()
            .filter(|m| m.kind == Kind::SetAction && m.who == "Brana")
            .collect();
        assert_eq!(made.len(), 2);
        assert_eq!(made[1].choice, Choice::Action(Action::Respond));
        return;
    }
    panic!("40 seeds gave no failed roll");
}

/// For every kind of decision, by another way than the examples above:
/// over fights of the example sides played by persons at random, every
/// option a decision rules out is refused with the sentence it was ruled
/// out by (and changes nothing), and every option it offers is accepted
/// (the playouts check that too). So what is offered is exactly what the
/// rules take (P-89). The kinds whose ruled-out options were tried are
/// counted: each kind that rules anything out must have been met.
#[test]
fn every_option_ruled_out_is_refused_with_its_sentence() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls/");
    let read = |p: &str| std::fs::read_to_string(format!("{root}{p}")).unwrap();
    let settings = [
        ("duel/knight.toml", "duel/brigand.toml", 3),
        ("skirmish/party.toml", "skirmish/goblins.toml", 4),
        ("archers/left.toml", "archers/right.toml", 12),
    ];
    let mut tried: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for (a, b, distance) in settings {
        let (a, b) = (read(a), read(b));
        for seed in 0..6u64 {
            let fight = Fight::new(
                [super::side(&a), super::side(&b)],
                nutshell_mls::FightOptions {
                    distance,
                    max_turns: 12,
                    ..Default::default()
                },
            )
            .unwrap();
            let n = fight.fighters().len();
            let mut p = Play::new(fight, vec![Controller::Person; n]);
            let mut dice = Seeded::new(seed);
            let mut k = seed as usize;
            loop {
                let d = match p.advance(&mut dice).unwrap() {
                    Next::Decide(d) => d,
                    Next::Step(nutshell_mls::Progress::Over(_)) => break,
                    Next::Step(_) => continue,
                };
                for r in d.ruled_out.iter().take(3) {
                    let why = refused(&mut p, r.choice.clone());
                    assert!(
                        why.contains(&r.why),
                        "{:?} {}: refused with {why:?}, ruled out with {:?}",
                        d.kind,
                        r.choice,
                        r.why
                    );
                    *tried.entry(d.kind.slug()).or_default() += 1;
                }
                k = k.wrapping_mul(31).wrapping_add(7);
                let pick = d.options[k % d.options.len()].choice.clone();
                p.answer(pick).unwrap();
            }
        }
    }
    for kind in ["set-action", "target", "timing", "movement", "reload"] {
        assert!(
            tried.contains_key(kind),
            "no ruled-out {kind} tried: {tried:?}"
        );
    }
}

/// mls, Move and Shoot, on the map (P-94): Cara walks A2 to D2 (3 MP) and
/// shoots from B2, the square her 1st movement point reached: in round 1,
/// 8 squares from Bob (range 4: -1), not from D2 in round 3.
#[test]
fn a_move_and_shoot_on_the_map_shoots_from_the_square_chosen() {
    let cara = "[[combatant]]\nname = \"Cara\"\nthp = 60\ntraits = { agility = 2 }\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 2, kind = \"missile\", range = 4 }]\n";
    let bob = combatant("Bob", 6, 4, 60, "tactic = { turn_action = \"pray\" }");
    let map = super::decisions::map_text(
        &open(10, 3),
        &[("Cara", "A2", "east"), ("Bob", "J2", "west")],
    );
    let mut p = play(cara, &bob, options_on(Some(&map), 1), &["Cara"]);
    let mut dice = Seeded::new(2);
    let d = until(&mut p, &mut dice, "Cara", Kind::SetAction).unwrap();
    assert!(labels(&d).contains(&"Move and Shoot"), "{:?}", labels(&d));
    p.answer(Choice::Action(Action::MoveAndShoot)).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Movement);
    p.answer(Choice::Path(vec!["D2".into()])).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::ShotPoint, "{}", text(p.fight()));
    assert_eq!(
        labels(&d),
        [
            "from A2 after 0 MP: round 1",
            "from B2 after 1 MP: round 1",
            "from C2 after 2 MP: round 2",
            "from D2 after 3 MP: round 3"
        ]
    );
    p.answer(Choice::ShotAt(1)).unwrap();
    play_through(&mut p, &mut dice, 1);
    let log = text(p.fight());
    assert!(
        log.contains("Cara will shoot from B2 (1 MP along the move) in round 1"),
        "{log}"
    );
    assert!(log.contains("Cara attacks in round(s) [1]"), "{log}");
    assert!(
        log.contains("[t1 r1] 8 squares with a range of 4: -1"),
        "{log}"
    );
    assert!(
        log.contains("[t1 r1] Cara rolls shot (bow) at Bob"),
        "{log}"
    );
}
