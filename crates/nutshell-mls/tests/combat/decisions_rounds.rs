//! The decisions of the rounds and of the line (docs/mls/combat.md, "Playing
//! a fight by decisions"; P-88): movement on the line, delaying or rushing a
//! later attack, aiming, reloading and preparing, advancing after a fall or a
//! Total Attack, shooting back, and Behaviour against a Noticeable trait
//! other than Valorous and Cowardly. Each: the options offered in a position
//! built for it, an illegal answer refused with its sentence, a legal one
//! applied.

use super::decisions::{labels, logged, next_decision, options_on, play, refused};
use super::{combatant, open, text};
use nutshell_dice::Seeded;
use nutshell_mls::body::Location;
use nutshell_mls::fight::{Action, Choice, Decision, Kind, Next, Play};
use nutshell_mls::log::Line;
use nutshell_mls::sheet::Mode;

/// Answers every decision with its default until one of `kind` for which
/// `want` holds; `None` if the fight ends first.
fn until(
    p: &mut Play,
    dice: &mut Seeded,
    kind: Kind,
    want: impl Fn(&Decision) -> bool,
) -> Option<Decision> {
    loop {
        match p.advance(dice).unwrap() {
            Next::Decide(d) if d.kind == kind && want(&d) => return Some(d),
            Next::Decide(d) => p.answer(d.default).unwrap(),
            Next::Step(nutshell_mls::Progress::Over(_)) => return None,
            Next::Step(_) => {}
        }
    }
}

/// Resolves the round the answers given lead into, every later decision
/// of it on its default.
fn settle(p: &mut Play, dice: &mut Seeded) {
    while let Next::Decide(d) = p.step(dice).unwrap() {
        p.answer(d.default).unwrap();
    }
}

/// mls, 1. Movement: "may move up to their Agl+1 in squares" (P-88): on the
/// line a Move closes on the nearest enemy, no further than next to him, or
/// withdraws; a Charge only closes.
#[test]
fn a_move_on_the_line_closes_or_withdraws_within_the_allowance() {
    let ann = combatant("Ann", 10, 6, 20, "traits = { agility = 2 }");
    let bob = combatant("Bob", 10, 6, 20, "");
    // Four squares apart: three lie between them.
    let mut p = play(&ann, &bob, options_on(None, 4), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(Action::Move)).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::Movement);
    assert_eq!(
        labels(&d),
        [
            "withdraw 3 square(s)",
            "withdraw 2 square(s)",
            "withdraw 1 square(s)",
            "stay",
            "close 1 square(s)",
            "close 2 square(s)",
            "close 3 square(s)"
        ]
    );
    assert_eq!(d.default, Choice::Squares(3));
    assert!(
        d.options[0]
            .rule
            .contains("may move up to their Agl+1 in squares")
    );
    let why = refused(&mut p, Choice::Squares(4));
    assert!(
        why.contains("may move up to their Agl+1 in squares"),
        "{why}"
    );
    assert!(why.contains("Agl+1 is 3"), "{why}");
    let why = refused(&mut p, Choice::Squares(-4));
    assert!(why.contains("Agl+1 is 3"), "{why}");
    p.answer(Choice::Squares(-2)).unwrap();
    settle(&mut p, &mut dice);
    logged(
        &p,
        "Ann withdraws 2 square(s) from Bob (up to Agl+1 = 3); 6 apart",
    );
    assert_eq!(p.fight().fighters()[0].position, -2);
    let made = p
        .decisions()
        .iter()
        .find(|m| m.kind == Kind::Movement)
        .unwrap();
    assert_eq!(made.choice, Choice::Squares(-2));

    // A Charge closes: no withdrawing, and no further than next to him.
    let bob = combatant("Bob", 10, 6, 20, "");
    let ann = combatant("Ann", 10, 6, 20, "traits = { agility = 3 }");
    let mut p = play(&ann, &bob, options_on(None, 3), &["Ann"]);
    let mut dice = Seeded::new(1);
    next_decision(&mut p, &mut dice);
    p.answer(Choice::Action(Action::Charge)).unwrap();
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(
        labels(&d),
        ["stay", "close 1 square(s)", "close 2 square(s)"]
    );
    let why = refused(&mut p, Choice::Squares(-1));
    assert!(why.contains("a charge closes on the enemy"), "{why}");
    let why = refused(&mut p, Choice::Squares(3));
    assert!(
        why.contains("2 square(s) lie between him and \"Bob\""),
        "{why}"
    );
    p.answer(Choice::Squares(1)).unwrap();
    settle(&mut p, &mut dice);
    logged(
        &p,
        "Ann moves 1 square(s) toward Bob (up to Agl+1 = 4); 2 apart",
    );
}

/// mls, Delaying Attacks: "A character may delay an attack by one round ...
/// If an attack is delayed then all future attacks are also moved forward
/// the same number of rounds, but without the bonus. Any attack that moves
/// beyond the 5th round is lost"; Rushing Attacks: "This does not affect
/// future attacks": an attack after the turn's first is delayed or rushed.
#[test]
fn a_later_attack_may_be_delayed_or_rushed() {
    // Skill 8: four attacks, in rounds 1, 2, 4 and 5.
    let ann = combatant("Ann", 8, 6, 60, "");
    let bob = combatant("Bob", 4, 4, 60, "");
    let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(1);
    let d = until(&mut p, &mut dice, Kind::Timing, |_| true).unwrap();
    assert!(
        d.question.contains("round(s) [1, 2, 4, 5]"),
        "{}",
        d.question
    );
    let l = labels(&d);
    for want in [
        "delay attack 2 of the turn 1 round(s)",
        "delay attack 2 of the turn 3 round(s)",
        "delay attack 3 of the turn 1 round(s)",
        "rush attack 3 of the turn",
    ] {
        assert!(l.contains(&want), "{want}: {l:?}");
    }
    // The 2nd attack's round 1 holds the 1st: it cannot come earlier.
    let rush_2nd = Choice::TimingOf {
        attack: 2,
        delay: 0,
        rush: true,
    };
    assert!(d.ruled_out.iter().any(|r| r.choice == rush_2nd));
    let why = refused(&mut p, rush_2nd);
    assert!(why.contains("Rushing Attacks"), "{why}");
    assert!(
        why.contains("attack 2 is in round 2, and round 1 already holds an attack"),
        "{why}"
    );
    let why = refused(
        &mut p,
        Choice::TimingOf {
            attack: 9,
            delay: 1,
            rush: false,
        },
    );
    assert!(why.contains("not one of the options"), "{why}");
    // The 3rd attack delayed a round: 4th to 5th (+1); the 4th is lost.
    p.answer(Choice::TimingOf {
        attack: 3,
        delay: 1,
        rush: false,
    })
    .unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "Ann attacks in round(s) [1, 2, 5]");
    // The rest of the turn: its 5th round holds the delayed attack.
    while p.fight().clock().0 == 1 && p.fight().ending().is_none() {
        match p.step(&mut dice).unwrap() {
            Next::Decide(d) => p.answer(d.default).unwrap(),
            Next::Step(_) => {}
        }
    }
    let log = text(p.fight());
    assert!(log.contains("+ 1 (delayed)"), "{log}");
}

/// mls, Aiming an Attack: "Close Combat attacks may also be aimed at
/// specific locations in exactly the same way"; Aiming a Shot: "Head -3
/// 17+" (RULING M-8).
#[test]
fn an_attack_is_aimed_at_a_location() {
    let ann = combatant("Ann", 12, 6, 60, "");
    let bob = combatant("Bob", 8, 4, 60, "");
    let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
    let mut dice = Seeded::new(2);
    let d = until(&mut p, &mut dice, Kind::Aim, |_| true).unwrap();
    assert_eq!(d.default, Choice::Aim(Location::Chest));
    assert_eq!(labels(&d)[0], "the chest (not aimed)");
    assert!(
        labels(&d).contains(&"the head (-3, 17+)"),
        "{:?}",
        labels(&d)
    );
    assert!(
        labels(&d).contains(&"the wrist (-4, 17+)"),
        "{:?}",
        labels(&d)
    );
    assert!(
        d.options[1]
            .rule
            .contains("Close Combat attacks may also be aimed")
    );
    let why = refused(&mut p, Choice::Yes(true));
    assert!(why.contains("not one of the options"), "{why}");
    p.answer(Choice::Aim(Location::Head)).unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "- 3 (aim)");
    let made = p
        .decisions()
        .iter()
        .rfind(|m| m.kind == Kind::Aim && m.who == "Ann")
        .unwrap();
    assert_eq!(made.choice, Choice::Aim(Location::Head));
    // A Total Defence does no damage: it is not aimed, and not asked.
    let d = until(&mut p, &mut dice, Kind::Attack, |_| true).unwrap();
    p.answer(Choice::Attack(Mode::TotalDefence)).unwrap();
    match p.advance(&mut dice).unwrap() {
        Next::Decide(d2) => assert_ne!(d2.kind, Kind::Aim, "{d2:?}"),
        Next::Step(_) => {}
    }
    let _ = d;
}

/// mls, Reloading: "This requires a number of 'attacks' to be spent
/// reloading instead of shooting"; Foregoing Attacks: "Any character may
/// forego an attack": the attack is spent reloading or held.
#[test]
fn an_attack_is_spent_reloading_or_held() {
    let archer = "[[combatant]]\nname = \"Archer\"\nthp = 30\nskills = { crossbow = 10 }\nweapons = [{ name = \"crossbow\", skill = \"crossbow\", dam = 6, kind = \"missile\", range = 20, reload = 2 }]\ntactic = { action = \"respond\" }\n";
    let ann = combatant("Ann", 10, 6, 60, "tactic = { turn_action = \"pray\" }");
    let mut p = play(archer, &ann, options_on(None, 8), &["Archer"]);
    let mut dice = Seeded::new(3);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(Action::Shoot)).unwrap();
    let d = until(&mut p, &mut dice, Kind::Reload, |_| true).unwrap();
    assert_eq!(
        labels(&d),
        ["reload the crossbow (2 attack(s) to go)", "hold the attack"]
    );
    assert_eq!(d.default, Choice::Yes(true));
    assert!(
        d.options[0]
            .rule
            .contains("spent reloading instead of shooting")
    );
    let why = refused(&mut p, Choice::Target("Ann".into()));
    assert!(why.contains("spent reloading instead of shooting"), "{why}");
    assert!(why.contains("the crossbow is not loaded"), "{why}");
    p.answer(Choice::Yes(false)).unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "Archer holds the attack: the crossbow stays unloaded");
    // Asked again at the next attack, still two to go; reloading now.
    let d = until(&mut p, &mut dice, Kind::Reload, |_| true).unwrap();
    assert_eq!(labels(&d)[0], "reload the crossbow (2 attack(s) to go)");
    p.answer(Choice::Yes(true)).unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "Archer spends the attack reloading the crossbow");
}

/// mls, Preparing Spells: "This requires a number of 'attacks' to be spent
/// preparing instead of casting".
#[test]
fn an_attack_is_spent_preparing_a_spell_or_held() {
    let mage = "[[combatant]]\nname = \"Mage\"\nthp = 30\nskills = { fire = 10 }\nweapons = [{ name = \"fireball\", skill = \"fire\", dam = 8, kind = \"spell\", range = 20, prepare = 1 }]\n";
    let ann = combatant("Ann", 10, 6, 60, "tactic = { turn_action = \"pray\" }");
    let mut p = play(mage, &ann, options_on(None, 8), &["Mage"]);
    let mut dice = Seeded::new(3);
    let d = until(&mut p, &mut dice, Kind::Reload, |_| true).unwrap();
    assert_eq!(
        labels(&d),
        ["prepare fireball (1 attack(s) to go)", "hold the attack"]
    );
    assert!(
        d.options[0]
            .rule
            .contains("spent preparing instead of casting")
    );
    let why = refused(&mut p, Choice::Target("Ann".into()));
    assert!(why.contains("the fireball is not prepared"), "{why}");
    p.answer(Choice::Yes(false)).unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "Mage holds the attack: fireball is not prepared");
}

/// Ann (skill 16, Dam 12) next to Bob (a minor of 3 THP, who falls to a
/// blow), Cid further off praying all turn: the map, Ann and her foes.
fn ann_fells_bob() -> (String, String, String) {
    let map = super::decisions::map_text(
        &open(8, 3),
        &[
            ("Ann", "B2", "east"),
            ("Bob", "C2", "west"),
            ("Cid", "G2", "west"),
        ],
    );
    let ann = combatant("Ann", 16, 12, 60, "");
    let foes = format!(
        "{}{}",
        combatant("Bob", 4, 2, 3, "minor = true"),
        combatant("Cid", 4, 2, 60, "tactic = { turn_action = \"pray\" }")
    );
    (map, ann, foes)
}

/// mls, Killing an Opponent: "he may move into the square occupied by his
/// opponent (even if this is a diagonal)": a person decides, the engine's
/// pick (P-73) the default.
#[test]
fn a_fallen_opponents_square_may_be_taken_or_not() {
    let (map, ann, foes) = ann_fells_bob();
    for stay in [true, false] {
        let mut asked = false;
        for seed in 0..40 {
            let mut p = play(&ann, &foes, options_on(Some(&map), 1), &["Ann"]);
            let mut dice = Seeded::new(seed);
            next_decision(&mut p, &mut dice);
            p.answer(Choice::Action(Action::Fight)).unwrap();
            let Some(d) = until(&mut p, &mut dice, Kind::Advance, |_| true) else {
                continue;
            };
            assert!(d.question.contains("Bob has fallen"), "{}", d.question);
            assert_eq!(labels(&d), ["yes", "no"]);
            // Nearer Cid: the engine would take it.
            assert_eq!(d.default, Choice::Yes(true));
            assert!(
                d.options[0]
                    .rule
                    .contains("he may move into the square occupied by his opponent")
            );
            let why = refused(&mut p, Choice::Target("Cid".into()));
            assert!(why.contains("not one of the options"), "{why}");
            p.answer(Choice::Yes(!stay)).unwrap();
            let round = p.fight().clock();
            while p.fight().clock() == round {
                match p.step(&mut dice).unwrap() {
                    Next::Decide(d) => p.answer(d.default).unwrap(),
                    Next::Step(_) => break,
                }
            }
            let at = p.fight().fighters()[0].pose.unwrap().square.to_string();
            assert_eq!(at, if stay { "B2" } else { "C2" }, "{}", text(p.fight()));
            asked = true;
            break;
        }
        assert!(asked, "Bob never fell in 40 seeds");
    }
}

/// A decision in the middle of a round shows the round so far
/// (docs/mls/combat.md, "Playing a fight by decisions"): while Ann is asked
/// whether to take fallen Bob's square (mls, Killing an Opponent), the lines
/// of the blow that felled him are shown; once the round is resolved they
/// are its first lines, same text, same order; none are shown after it.
#[test]
fn a_decision_in_a_round_shows_the_round_so_far() {
    let (map, ann, foes) = ann_fells_bob();
    for seed in 0..40 {
        let mut p = play(&ann, &foes, options_on(Some(&map), 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        assert!(p.so_far().is_empty());
        next_decision(&mut p, &mut dice);
        p.answer(Choice::Action(Action::Fight)).unwrap();
        // What each decision of the step under way showed.
        let mut shown: Vec<Vec<Line>> = Vec::new();
        let mut advance = false;
        loop {
            let before = p.fight().log().len();
            match p.step(&mut dice).unwrap() {
                Next::Decide(d) => {
                    let so_far = p.so_far().to_vec();
                    assert_eq!(p.fight().log().len(), before, "the step is undone");
                    if let Some(last) = shown.last() {
                        assert!(so_far.starts_with(last), "a later decision shows more");
                    }
                    if d.kind == Kind::Advance {
                        let felled = so_far.last().expect("the blow is shown");
                        assert!(felled.text.contains("Bob"), "{}", felled.text);
                        assert_eq!(felled.turn, d.turn);
                        advance = true;
                    }
                    shown.push(so_far);
                    p.answer(d.default).unwrap();
                }
                Next::Step(progress) => {
                    let lines = &p.fight().log()[before..];
                    for s in &shown {
                        assert!(lines.starts_with(s), "shown: {s:#?}\nround: {lines:#?}");
                    }
                    assert!(p.so_far().is_empty(), "cleared once the step completes");
                    if advance {
                        return;
                    }
                    shown.clear();
                    if matches!(progress, nutshell_mls::Progress::Over(_)) {
                        break;
                    }
                }
            }
        }
    }
    panic!("Bob never fell in 40 seeds");
}

/// mls, Following Up a Total Attack: "A character who gets a Critical hit
/// against an opponent with a Total Attack may follow up": asked, and a
/// "no" keeps both where they stand.
#[test]
fn a_critical_against_a_total_attack_may_be_followed_up_or_not() {
    let ann = combatant("Ann", 16, 4, 80, "");
    let bob = combatant("Bob", 6, 4, 80, "tactic = { mode = \"total-attack\" }");
    let mut seen = [false, false];
    for seed in 0..200 {
        let follow = seed % 2 == 0;
        let mut p = play(&ann, &bob, options_on(None, 1), &["Ann"]);
        let mut dice = Seeded::new(seed);
        let Some(d) = until(&mut p, &mut dice, Kind::Advance, |_| true) else {
            continue;
        };
        assert!(d.question.contains("follow up"), "{}", d.question);
        assert!(d.options[0].rule.contains("may follow up"));
        let why = refused(&mut p, Choice::Stop);
        assert!(why.contains("not one of the options"), "{why}");
        let before = (
            p.fight().fighters()[0].position,
            p.fight().fighters()[1].position,
        );
        p.answer(Choice::Yes(follow)).unwrap();
        settle(&mut p, &mut dice);
        let after = (
            p.fight().fighters()[0].position,
            p.fight().fighters()[1].position,
        );
        if follow {
            assert_eq!(after, (before.1, before.0), "{}", text(p.fight()));
            logged(
                &p,
                "Ann scored a critical against a total attack and follows up",
            );
        } else {
            assert_eq!(after, before, "{}", text(p.fight()));
            assert!(!text(p.fight()).contains("follows up"));
        }
        seen[usize::from(follow)] = true;
        if seen == [true, true] {
            return;
        }
    }
    panic!("200 seeds did not give a critical against the total attack both ways: {seen:?}");
}

/// mls, Shooting: "He may also choose to shoot back if he has chosen a
/// Shoot action. Two characters shooting at each other in the same round
/// both roll to hit, and if successful both hit" (P-88).
#[test]
fn a_shooter_shot_at_may_shoot_back() {
    let bow = |name: &str, extra: &str| {
        format!(
            "[[combatant]]\nname = \"{name}\"\nthp = 40\nskills = {{ bow = 6 }}\nweapons = [{{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 30 }}]\n{extra}\n"
        )
    };
    let ann = bow("Ann", "tactic = { target = \"weakest\" }");
    let foes = format!(
        "{}{}",
        bow("Bob", ""),
        combatant("Cid", 6, 4, 10, "tactic = { turn_action = \"pray\" }")
    );
    let mut p = play(&ann, &foes, options_on(None, 6), &["Ann"]);
    let mut dice = Seeded::new(5);
    let d = next_decision(&mut p, &mut dice);
    assert_eq!(d.kind, Kind::SetAction);
    p.answer(Choice::Action(Action::Shoot)).unwrap();
    let d = until(&mut p, &mut dice, Kind::ShootBack, |_| true).unwrap();
    assert!(
        d.question
            .contains("Bob shoots at you this round; shoot back at Bob instead of Cid?"),
        "{}",
        d.question
    );
    assert_eq!(d.default, Choice::Yes(false));
    assert!(
        d.options[0]
            .rule
            .contains("He may also choose to shoot back")
    );
    let why = refused(&mut p, Choice::Target("Cid".into()));
    assert!(why.contains("not one of the options"), "{why}");
    p.answer(Choice::Yes(true)).unwrap();
    settle(&mut p, &mut dice);
    logged(&p, "Ann shoots back at Bob");
    logged(
        &p,
        "Ann and Bob shoot at each other: each hits on a success",
    );
    logged(&p, "Ann rolls shot (bow) at Bob");
    assert!(
        !text(p.fight()).contains("shot (bow) at Cid"),
        "{}",
        text(p.fight())
    );
}

/// mls, Behaviour: "If the trait is 16 or higher it is Noticeable, and the
/// player must roll higher than the trait on 1d20 if he wishes him to
/// behave otherwise (an automatic check on the opposing trait if it
/// succeeds)" (P-88): a Total Attack against a Noticeable Cautious 17 rolls
/// 1d20; over 17 it is made and Reckless is checked, else a normal attack.
#[test]
fn a_total_attack_against_a_noticeable_cautious_needs_a_roll_and_checks_reckless() {
    let brana = include_str!("../../../../examples/mls/characters/brana.toml")
        .replace("cautious = 7", "cautious = 17");
    let brigand = combatant("Brigand", 9, 7, 40, "");
    let mut seen = [false, false];
    for seed in 0..60 {
        let mut p = play(&brana, &brigand, options_on(None, 1), &["Brana"]);
        let mut dice = Seeded::new(seed);
        let Some(d) = until(&mut p, &mut dice, Kind::Attack, |_| true) else {
            continue;
        };
        assert_eq!(d.name, "Brana");
        p.answer(Choice::Attack(Mode::TotalAttack)).unwrap();
        // The roll and the attack are in the same step.
        settle(&mut p, &mut dice);
        let log = text(p.fight());
        let line = p
            .fight()
            .log()
            .iter()
            .find(|l| l.text.contains("goes against a Noticeable cautious 17"))
            .unwrap_or_else(|| panic!("{log}"));
        let roll = line.faces[0];
        let checks = p.fight().trait_checks();
        if roll > 17 {
            assert!(
                line.text.contains("higher: he may (a check on reckless)"),
                "{log}"
            );
            assert!(log.contains("Brana rolls total attack"), "{log}");
            assert_eq!(checks.len(), 1);
            assert_eq!(
                (
                    checks[0].checked.as_str(),
                    checks[0].against.as_str(),
                    checks[0].value,
                    checks[0].roll
                ),
                ("reckless", "cautious", 17, roll)
            );
            let earned = p.fight().earned_checks();
            assert!(
                earned
                    .iter()
                    .any(|c| c.combatant == "Brana" && c.skill == "reckless"),
                "{earned:?}"
            );
            seen[1] = true;
        } else {
            assert!(
                line.text
                    .contains("not higher: he follows the trait (a normal attack by default)"),
                "{log}"
            );
            assert!(!log.contains("Brana rolls total attack"), "{log}");
            assert!(checks.is_empty());
            seen[0] = true;
        }
        if seen == [true, true] {
            return;
        }
    }
    panic!("60 seeds did not give a roll over 17 and one not: {seen:?}");
}

/// The engine's choices roll nothing for Behaviour, and every new decision
/// the engine makes is recorded as its own: an all-engine fight is the
/// engine's own fight (checked for these sites too: a crossbow, a spell,
/// aiming tactics, a later attack delayed, a move on the line).
#[test]
fn the_new_sites_on_the_engine_are_the_engines_own_fight() {
    let a = format!(
        "{}{}",
        "[[combatant]]\nname = \"Archer\"\nthp = 30\nskills = { crossbow = 10, blade = 6 }\nweapons = [{ name = \"crossbow\", skill = \"crossbow\", dam = 6, kind = \"missile\", range = 20, reload = 1 }, { name = \"knife\", skill = \"blade\", dam = 3 }]\ntactic = { aim = \"head\" }\n",
        combatant("Ann", 10, 6, 30, "tactic = { delay = 1, delay_attack = 2 }")
    );
    let b = format!(
        "{}{}",
        "[[combatant]]\nname = \"Mage\"\nthp = 30\nskills = { fire = 10 }\nweapons = [{ name = \"fireball\", skill = \"fire\", dam = 8, kind = \"spell\", range = 20, prepare = 1 }]\n",
        combatant(
            "Bob",
            9,
            6,
            30,
            "tactic = { aim = \"arm\", mode = \"total-attack\" }"
        )
    );
    for seed in 0..30 {
        for distance in [1, 6] {
            let options = options_on(None, distance);
            let mut engine =
                nutshell_mls::Fight::new([super::side(&a), super::side(&b)], options.clone())
                    .unwrap();
            let ending = engine.run(&mut Seeded::new(seed)).unwrap();
            let mut p = play(&a, &b, options, &[]);
            assert_eq!(
                p.run(&mut Seeded::new(seed)).unwrap(),
                ending,
                "seed {seed}"
            );
            assert_eq!(p.fight().log(), engine.log(), "seed {seed}");
            let kinds: Vec<Kind> = p.decisions().iter().map(|m| m.kind).collect();
            assert!(kinds.contains(&Kind::Aim), "seed {seed}");
            // Replayed from its decisions: the same fight.
            let mut again = play(&a, &b, options_on(None, distance), &[]);
            again.queue(p.decisions().to_vec());
            again.run(&mut Seeded::new(seed)).unwrap();
            assert_eq!(again.fight().log(), engine.log(), "seed {seed}");
            assert_eq!(again.queued(), 0);
        }
    }
}
