//! mls, Character Advancement and Effects of Age, on a sheet with its ledger.

use super::{sheet, sheet_text, with_faces};
use nutshell_mls::character::advancement::{
    Spend, adventure, after_adventure, pass_increment, spend,
};
use nutshell_mls::character::costs::{Adventure, Role};
use nutshell_mls::character::ledger::{Step, balance};
use nutshell_mls::character::primary::Primary;
use nutshell_mls::character::validate::validate;
use nutshell_mls::sheet::Combatant;

fn base(extra_traits: &str, age: i64, cps: i64) -> Combatant {
    let mut t = sheet_text(
        extra_traits,
        cps,
        "",
        "[character.secondary.sword]\nkind = \"trained\"\nbase = \"dexterity\"\nlevel = 0\n[character.secondary.observe]\nkind = \"natural\"\nbase = \"awareness\"\n[character.secondary.climb]\nkind = \"inherent\"\nbase = \"agility\"\n[character.secondary.lore]\nkind = \"trained\"\nbase = \"mind\"\n[character.negative.fear]\nlevel = 1\n[character.personality]\nvalorous = 15\n",
    );
    t = t.replace("age = 18", &format!("age = {age}"));
    let mut s = sheet(&t);
    nutshell_mls::character::generation::open_ledger(&mut s).unwrap();
    s
}

fn ch(s: &Combatant) -> &nutshell_mls::character::Character {
    s.character.as_ref().unwrap()
}

fn fresh() -> Combatant {
    // 60 - 2 (soldier) - 1 (sword) + 3 (fear +1) = 60.
    base("", 18, 60)
}

/// The fresh character a year on (62 CPs at 19): what generation bought is
/// no longer this increment's change.
fn played() -> Combatant {
    let mut s = fresh();
    pass_increment(&mut s, &mut vec![]).unwrap();
    s
}

/// The sheet's sword at base + `level`.
fn sword_at(s: &mut Combatant, level: i64) {
    let sword = s.character.as_mut().unwrap().secondary.get_mut("sword");
    sword.unwrap().level = Some(level);
}

fn minor_adventure(s: &mut Combatant) {
    with_faces(&[], |d| adventure(s, Adventure::Minor, Role::Minor, d)).unwrap();
}

#[test]
fn yearly_income_and_the_ledger() {
    // mls, Character Points: "A character receives 2 CPs per year up until the age of 40,
    // after which only 1 CP is received."
    let mut s = fresh();
    pass_increment(&mut s, &mut vec![]).unwrap();
    assert_eq!(ch(&s).age.to_string(), "19");
    assert_eq!(ch(&s).cps, 62);
    assert_eq!(balance(&ch(&s).ledger), 62);
    let last = ch(&s).ledger.last().unwrap();
    assert_eq!((last.step, last.cps), (Step::Income, 2));
    // From 40 on: 1 CP (and the reduction for age falls due at 40).
    let mut s = base("", 39, 102);
    pass_increment(&mut s, &mut vec![Primary::Mind]).unwrap();
    assert_eq!(ch(&s).cps, 104);
    pass_increment(&mut s, &mut vec![]).unwrap();
    assert_eq!(ch(&s).cps, 105);
}

#[test]
fn adventures_pay_their_dice() {
    // mls, Adventures: Minor adventure, minor role: 1 CP, no roll.
    let mut s = fresh();
    assert_eq!(
        with_faces(&[], |d| adventure(&mut s, Adventure::Minor, Role::Minor, d)).unwrap(),
        1
    );
    // Major adventure, major role: 1d10.
    assert_eq!(
        with_faces(&[10], |d| adventure(
            &mut s,
            Adventure::Major,
            Role::Major,
            d
        ))
        .unwrap(),
        10
    );
    assert_eq!(ch(&s).cps, 71);
    assert_eq!(
        ch(&s).ledger.last().unwrap().roll.as_deref(),
        Some("1d10 = 10")
    );
    let mut faces = nutshell_dice::Scripted::new([7]);
    let mut d = nutshell_mls::dice::Dice::new(&mut faces);
    let e = adventure(&mut s, Adventure::Average, Role::Major, &mut d).unwrap_err();
    assert!(e.to_string().contains("not on a d6"), "{e}");
}

fn spend1(s: &mut Combatant, what: &str) -> Result<(), String> {
    with_faces(&[], |d| spend(s, &Spend::parse(what).unwrap(), d)).map_err(|e| e.to_string())
}

#[test]
fn secondary_traits_one_level_a_year() {
    // mls, Character Advancement, Secondary Traits: "2 CPs to go from base to +1 ... Traits
    // may never be increased by more than one level each year through CPs."
    let mut s = played();
    spend1(&mut s, "secondary:sword").unwrap();
    assert_eq!(ch(&s).secondary["sword"].level, Some(1));
    assert_eq!(ch(&s).cps, 60);
    let e = spend1(&mut s, "secondary:sword").unwrap_err();
    assert!(
        e.contains("already changed with CPs at age 19")
            && e.contains("more than one level each year"),
        "{e}"
    );
    pass_increment(&mut s, &mut vec![]).unwrap();
    spend1(&mut s, "secondary:sword").unwrap();
    assert_eq!(ch(&s).secondary["sword"].level, Some(2));
    assert_eq!(ch(&s).cps, 60 + 2 - 3);
    // "1 CP to acquire at base": a Trained trait, and a Natural one (had at base-2;
    // RULING P-45).
    spend1(&mut s, "secondary:lore").unwrap();
    spend1(&mut s, "secondary:observe").unwrap();
    assert_eq!(ch(&s).secondary["lore"].level, Some(0));
    assert_eq!(ch(&s).secondary["observe"].level, Some(0));
    assert_eq!(ch(&s).cps, 57);
    // RULING P-45: an Inherent trait is had at base: its first step is base to +1, 2 CPs.
    spend1(&mut s, "secondary:climb").unwrap();
    assert_eq!(ch(&s).secondary["climb"].level, Some(1));
    assert_eq!(ch(&s).cps, 55);
    // RULING P-43: the occupation at double cost: base to +1 is 4.
    spend1(&mut s, "secondary:soldier").unwrap();
    assert_eq!(ch(&s).occupation.level, 1);
    assert_eq!(ch(&s).cps, 51);
    assert!(validate(&s, None).is_empty());
}

#[test]
fn a_generation_purchase_is_this_increments_change() {
    // RULING P-54. mls, Limits: "No Secondary Trait ... may begin above base+4", and
    // mls, Character Advancement, Secondary Traits: "Traits may never be increased by more
    // than one level each year through CPs": what generation bought was bought this
    // increment, so it cannot be raised again at the same age.
    let mut s = fresh();
    let e = spend1(&mut s, "secondary:sword").unwrap_err();
    assert!(
        e.contains("bought at generation at age 18") && e.contains("more than one level each year"),
        "{e}"
    );
    let e = spend1(&mut s, "secondary:soldier").unwrap_err();
    assert!(e.contains("bought at generation"), "{e}");
    // mls, Personality Traits: "Up to 5 traits may be at 16/4": valorous chosen at 15
    // cannot be bought to 16 at once.
    let e = spend1(&mut s, "personality:valorous").unwrap_err();
    assert!(
        e.contains("bought at generation") && e.contains("more that one level each year"),
        "{e}"
    );
    // A ledger written by hand that does it anyway is caught by check.
    let mut hand = fresh();
    let c = hand.character.as_mut().unwrap();
    c.secondary.get_mut("sword").unwrap().level = Some(1);
    c.cps -= 2;
    c.ledger.push(
        nutshell_mls::character::ledger::Entry::new(
            c.age,
            Step::Spend,
            "sword base -> base+1",
            -2,
            "mls, Character Advancement, Secondary Traits",
        )
        .target("secondary.sword")
        .from(Some(0))
        .to(Some(1)),
    );
    let v = validate(&hand, None);
    assert!(
        v.iter()
            .any(|v| v.problem.contains("already changed at age 18")
                && v.field.starts_with("character.ledger[")),
        "{v:#?}"
    );
    // A year on, it may be raised.
    pass_increment(&mut s, &mut vec![]).unwrap();
    spend1(&mut s, "secondary:sword").unwrap();
    spend1(&mut s, "personality:valorous").unwrap();
    assert!(validate(&s, None).is_empty(), "{:#?}", validate(&s, None));
}

#[test]
fn secondary_traits_stop_at_base_plus_6() {
    // mls, Character Advancement, Secondary Traits: "7 CPs to go from +5 to +6. Secondary
    // traits may never rise above base +6."
    let mut s = fresh();
    sword_at(&mut s, 5);
    s.character.as_mut().unwrap().cps = 100;
    s.character.as_mut().unwrap().ledger.clear();
    spend1(&mut s, "secondary:sword").unwrap();
    assert_eq!(ch(&s).cps, 93);
    pass_increment(&mut s, &mut vec![]).unwrap();
    let e = spend1(&mut s, "secondary:sword").unwrap_err();
    assert!(e.contains("base+6, the most"), "{e}");
}

#[test]
fn negative_traits_decrease() {
    // mls, Decrease Negative Traits: "+1 to base at a cost of 2 CPs, and removed from base
    // level at a cost of 1 CP."
    let mut s = played();
    spend1(&mut s, "negative:fear").unwrap();
    assert_eq!(ch(&s).negative["fear"].level, 0);
    assert_eq!(ch(&s).cps, 60);
    let e = spend1(&mut s, "negative:fear").unwrap_err();
    assert!(e.contains("more than one level each year"), "{e}");
    pass_increment(&mut s, &mut vec![]).unwrap();
    spend1(&mut s, "negative:fear").unwrap();
    assert!(!ch(&s).negative.contains_key("fear"));
    assert_eq!(ch(&s).cps, 61);
    assert!(validate(&s, None).is_empty(), "{:#?}", validate(&s, None));
}

#[test]
fn personality_increases() {
    // mls, Increase a Personality Trait: "by one level to 16 or 17 at a cost of 5 CPs"; the
    // opposing trait falls (the pair adds up to 20).
    let mut s = played();
    spend1(&mut s, "personality:valorous").unwrap();
    assert_eq!(ch(&s).personality["valorous"], 16);
    assert_eq!(ch(&s).cps, 57);
    // "Each Personality trait may not be increased by more that one level each year"
    assert!(
        spend1(&mut s, "personality:valorous")
            .unwrap_err()
            .contains("each year")
    );
    // Raising the opposite trait writes the pair through the name the sheet uses.
    spend1(&mut s, "personality:cowardly").unwrap();
    assert_eq!(ch(&s).personality["valorous"], 15);
    assert_eq!(ch(&s).cps, 56);
    // "Personality traits may NOT be increased to 20 by CPs."
    s.character
        .as_mut()
        .unwrap()
        .personality
        .insert("valorous".into(), 19);
    pass_increment(&mut s, &mut vec![]).unwrap();
    assert!(
        spend1(&mut s, "personality:valorous")
            .unwrap_err()
            .contains("NOT be increased to 20")
    );
}

#[test]
fn not_enough_cps() {
    let mut s = fresh();
    s.character.as_mut().unwrap().cps = 1;
    s.character.as_mut().unwrap().ledger.clear();
    let e = spend1(&mut s, "secondary:sword").unwrap_err();
    assert!(e.contains("costs 2 CP(s), but only 1 are left"), "{e}");
}

#[test]
fn training_up_a_trait() {
    // mls, Training Up an Attribute: "At a cost of 5 CPs one Primary Trait (and all
    // Secondary traits based on it) may be temporarily increased by one level. This lasts
    // for one year"
    let mut s = fresh();
    spend1(&mut s, "train:dexterity").unwrap();
    assert_eq!(ch(&s).cps, 55);
    let fighting = nutshell_mls::sheet::Side::parse(
        "t.toml",
        &nutshell_mls::character::validate::to_toml(&s).unwrap(),
    )
    .unwrap();
    assert_eq!(fighting.combatants[0].traits.dexterity, 3);
    assert_eq!(fighting.combatants[0].skill("sword"), 3);
    // "no more than one trait can be so increased at any time"
    assert!(
        spend1(&mut s, "train:strength")
            .unwrap_err()
            .contains("already trained up")
    );
    // After the year it drops back, unless paid again.
    pass_increment(&mut s, &mut vec![]).unwrap();
    assert!(ch(&s).training.is_none());
    assert!(
        ch(&s)
            .ledger
            .iter()
            .any(|e| e.change.contains("drops back"))
    );
    spend1(&mut s, "train:dexterity").unwrap();
    // "Traits may be increased to RAv+3."
    let mut s = base("dexterity = 4", 18, 55);
    spend1(&mut s, "train:dexterity").unwrap();
    let mut s = base("dexterity = 4", 18, 55);
    s.traits.dexterity = 5;
    assert!(
        spend1(&mut s, "train:dexterity")
            .unwrap_err()
            .contains("RAv+3")
    );
}

#[test]
fn money_and_prayer() {
    // mls, Acquiring Money: "1d20 x 10 florins per CP"
    let mut s = fresh();
    with_faces(&[7, 20], |d| spend(&mut s, &Spend::Money(2), d)).unwrap();
    assert_eq!(ch(&s).florins, 270);
    assert_eq!(ch(&s).cps, 58);
    // mls, Prayer: "A character with a Priest magic skill ... 5 favor points per CP"
    // (RULING P-46: a secondary trait whose name has "priest").
    assert!(
        spend1(&mut s, "prayer:1")
            .unwrap_err()
            .contains("Priest magic skill")
    );
    s.character.as_mut().unwrap().secondary.insert(
        "priest-of-mithras".into(),
        nutshell_mls::character::Secondary {
            kind: nutshell_mls::character::costs::Kind::Trained,
            base: "aura".into(),
            level: Some(0),
        },
    );
    spend1(&mut s, "prayer:3").unwrap();
    assert_eq!(ch(&s).favour, 15);
    assert_eq!(ch(&s).cps, 55);
}

#[test]
fn spend_syntax() {
    assert_eq!(
        Spend::parse("train:str"),
        Ok(Spend::Train(Primary::Strength))
    );
    assert!(Spend::parse("sword").unwrap_err().contains("KIND:WHAT"));
    assert!(
        Spend::parse("money:0")
            .unwrap_err()
            .contains("from 1 to 1000")
    );
}

#[test]
fn secondary_checks_after_an_adventure() {
    // mls, Checks on Secondary Traits: "roll 1d8 for each Secondary trait that has received
    // a check. If the result is high enough the trait goes up one level."
    let mut s = fresh();
    minor_adventure(&mut s);
    // sword at base needs 3; observe (natural, base-2) needs 2 and goes to base.
    with_faces(&[3, 2], |d| {
        after_adventure(&mut s, &["sword".into(), "observe".into()], d)
    })
    .unwrap();
    assert_eq!(ch(&s).secondary["sword"].level, Some(1));
    assert_eq!(ch(&s).secondary["observe"].level, Some(0));
    // sword at +1 needs 4: a 3 fails.
    minor_adventure(&mut s);
    with_faces(&[3], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap();
    assert_eq!(ch(&s).secondary["sword"].level, Some(1));
    // "No more than one roll may be made per trait"
    minor_adventure(&mut s);
    let e = with_faces(&[8], |d| {
        after_adventure(&mut s, &["sword".into(), "sword".into()], d)
    })
    .unwrap_err();
    assert!(e.to_string().contains("checked twice"), "{e}");
    // A Trained trait not acquired is not available, so cannot be checked.
    let mut s = fresh();
    minor_adventure(&mut s);
    let e = with_faces(&[], |d| after_adventure(&mut s, &["lore".into()], d)).unwrap_err();
    assert!(e.to_string().contains("not available"), "{e}");
    // Checks cost no CPs and keep the ledger in balance.
    assert_eq!(balance(&ch(&s).ledger), ch(&s).cps);
}

#[test]
fn one_roll_per_trait_per_completed_adventure() {
    // RULING P-56. mls, Checks on Secondary Traits: "After an adventure is completed the
    // player may roll 1d8 for each Secondary trait that has received a check ... No more
    // than one roll may be made per trait": no roll without an adventure, and one per
    // trait per adventure, however many commands.
    let mut s = fresh();
    let e = with_faces(&[], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap_err();
    assert!(e.to_string().contains("no adventure was completed"), "{e}");
    minor_adventure(&mut s);
    with_faces(&[1], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap();
    let e = with_faces(&[], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap_err();
    assert!(
        e.to_string()
            .contains("already rolled for after this adventure"),
        "{e}"
    );
    // The adventure of an earlier age does not count.
    pass_increment(&mut s, &mut vec![]).unwrap();
    let e = with_faces(&[], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap_err();
    assert!(
        e.to_string().contains("the last adventure was at age 18"),
        "{e}"
    );
    assert!(validate(&s, None).is_empty(), "{:#?}", validate(&s, None));
    // A ledger with a second roll written in by hand is caught by check.
    let mut hand = s.clone();
    let c = hand.character.as_mut().unwrap();
    let roll = c
        .ledger
        .iter()
        .find(|e| e.step == Step::Check)
        .unwrap()
        .clone();
    let mut roll = roll;
    roll.age = c.age;
    c.ledger.push(roll);
    let v = validate(&hand, None);
    assert!(
        v.iter()
            .any(|v| v.problem.contains("the last adventure was at 18")),
        "{v:#?}"
    );
}

#[test]
fn personality_checks_in_the_players_order() {
    // mls, Checks on Personality Traits: "If the roll is higher than the trait then it goes
    // up by 1, the opposing trait is reduced by 1. Any number of checks may be made ...
    // the result of each roll does affect future rolls."
    let mut s = fresh();
    let checks: Vec<String> = ["valorous", "valorous", "cowardly"]
        .map(String::from)
        .into();
    // valorous 15: 16 > 15 -> 16; then 16 is not > 16 -> stays; cowardly 4: 5 > 4 -> 5.
    with_faces(&[16, 16, 5], |d| after_adventure(&mut s, &checks, d)).unwrap();
    assert_eq!(ch(&s).personality["valorous"], 15);
    let rolls: Vec<_> = ch(&s)
        .ledger
        .iter()
        .filter(|e| e.step == Step::Check)
        .map(|e| e.change.clone())
        .collect();
    assert_eq!(
        rolls,
        [
            "valorous 15 -> 16, cowardly 5 -> 4",
            "valorous stays 16 (the roll must be higher)",
            "cowardly 4 -> 5, valorous 16 -> 15",
        ]
    );
}

#[test]
fn ageing_reduces_a_trait_at_40_and_50() {
    // mls, Effects of Age: "When a character reaches the age of 40 he must reduce one
    // Primary trait ... except Size by one level. Every ten years after this he must do
    // this again (it may be the same trait). Reductions may never fall below the racial
    // average -2."
    let mut s = base("", 39, 102);
    let e = pass_increment(&mut s.clone(), &mut vec![])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("at age 40 a primary trait other than Size must be reduced"),
        "{e}"
    );
    let e = pass_increment(&mut s.clone(), &mut vec![Primary::Size])
        .unwrap_err()
        .to_string();
    assert!(e.contains("Size is never reduced"), "{e}");
    pass_increment(&mut s, &mut vec![Primary::Dexterity]).unwrap();
    assert_eq!(s.traits.dexterity, 1);
    // The secondary traits based on it follow.
    assert_eq!(ch(&s).scores(&s.traits).unwrap()["sword"], 1);
    for _ in 0..9 {
        pass_increment(&mut s, &mut vec![]).unwrap();
    }
    pass_increment(&mut s, &mut vec![Primary::Dexterity]).unwrap();
    assert_eq!(s.traits.dexterity, 0);
    assert_eq!(ch(&s).age.to_string(), "50");
    for _ in 0..9 {
        pass_increment(&mut s, &mut vec![]).unwrap();
    }
    let e = pass_increment(&mut s.clone(), &mut vec![Primary::Dexterity])
        .unwrap_err()
        .to_string();
    assert!(e.contains("racial average -2 already"), "{e}");
    pass_increment(&mut s, &mut vec![Primary::Mind]).unwrap();
    assert!(validate(&s, None).is_empty(), "{:#?}", validate(&s, None));
}

#[test]
fn an_ork_ages_by_9_months() {
    // mls, Racial Differences: Ork "12 | 9 months | 28½"; income 2 CPs an increment.
    let t = sheet_text("", 58, "", "")
        .replace("race = \"human\"", "race = \"ork\"")
        .replace("age = 18", "age = 28.5");
    let mut s = sheet(&t);
    s.character.as_mut().unwrap().age = nutshell_mls::character::Age(28 * 12 - 3);
    pass_increment(&mut s, &mut vec![Primary::Strength]).unwrap();
    assert_eq!(ch(&s).age.to_string(), "28½");
    assert_eq!(s.traits.strength, 1);
}

#[test]
fn no_roll_at_base_plus_6() {
    // RULING P-49: the table of mls, Checks on Secondary Traits, ends at +5 ("8 | +6"):
    // a checked trait at base+6 is not rolled for, and the ledger says so.
    let mut s = fresh();
    sword_at(&mut s, 6);
    minor_adventure(&mut s);
    with_faces(&[], |d| after_adventure(&mut s, &["sword".into()], d)).unwrap();
    let last = ch(&s).ledger.last().unwrap();
    assert_eq!(
        last.change,
        "sword is at base+6: the table goes no higher, no roll"
    );
    assert!(last.roll.is_none());
}

#[test]
fn no_reduction_when_every_trait_is_at_the_floor() {
    // RULING P-50: mls, Effects of Age: "Reductions may never fall below the racial
    // average -2." With every trait but Size at RAv-2, none is reduced; the ledger says so.
    let mut s = base("", 39, 102);
    s.traits = nutshell_mls::sheet::Traits {
        strength: 0,
        body: 0,
        size: 2,
        dexterity: 0,
        agility: 0,
        mind: 0,
        aura: 0,
        awareness: 0,
    };
    pass_increment(&mut s, &mut vec![]).unwrap();
    assert!(
        ch(&s)
            .ledger
            .last()
            .unwrap()
            .change
            .starts_with("no primary trait but Size")
    );
}

#[test]
fn a_new_sheet_is_one_whose_ledger_holds_only_the_generation() {
    // RULING P-48: the generation rules apply while the ledger holds only generation
    // entries; once played, the limits of play (base+6) apply instead of base+4.
    let mut s = fresh();
    sword_at(&mut s, 5);
    assert!(
        validate(&s, None)
            .iter()
            .any(|v| v.problem.contains("base+5 is outside base..base+4"))
    );
    // Once played, base+5 is within the limits of play; but no entry made it, so the
    // only fault left is the hand edit (RULING P-55).
    pass_increment(&mut s, &mut vec![]).unwrap();
    let v = validate(&s, None);
    assert_eq!(v.len(), 1, "{v:#?}");
    assert_eq!(v[0].field, "character.secondary.sword.level");
    assert!(
        v[0].problem.contains("changed outside the ledger"),
        "{v:#?}"
    );
}

#[test]
fn the_ledger_only_grows_in_order() {
    // An entry out of order, or a generation entry after play, is refused.
    let mut s = fresh();
    pass_increment(&mut s, &mut vec![]).unwrap();
    let mut moved = s.clone();
    let first = moved.character.as_ref().unwrap().ledger[0].clone();
    moved.character.as_mut().unwrap().ledger.push(first);
    let v = validate(&moved, None);
    assert!(
        v.iter()
            .any(|v| v.problem.contains("a generation entry after play began")),
        "{v:#?}"
    );
    let mut aged = s.clone();
    aged.character.as_mut().unwrap().age = nutshell_mls::character::Age::years(25);
    let v = validate(&aged, None);
    assert!(
        v.iter()
            .any(|v| v.problem.contains("the ledger's last entry is at age 19")),
        "{v:#?}"
    );
}
