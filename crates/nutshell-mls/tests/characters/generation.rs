//! mls, Character Generation: choices to a sheet, with rolls and a ledger.

use super::with_faces;
use nutshell_mls::character::generation::{Choices, generate};
use nutshell_mls::character::ledger::{Step, balance};
use nutshell_mls::character::validate::{to_toml, validate};

const CHOICES: &str = r#"
name = "Test"
race = "human"
age = 18
magic = true
traits = { strength = 3, body = 3 }
occupation = { name = "soldier", base = "strength" }
secondary = { sword = { kind = "trained", base = "dexterity", level = 1 } }
personality = { valorous = 16, greedy = "roll" }
"#;

#[test]
fn choices_become_a_valid_sheet() {
    let choices = Choices::parse("c.toml", CHOICES).unwrap();
    // Dice in order: 3d6 for greedy, 3d6 THP (Size 2 + Body 3 - 2), 2d6 TMP (Aura 2).
    let sheet = with_faces(&[6, 6, 5, 1, 1, 1, 2, 2], |d| generate(&choices, d)).unwrap();
    let ch = sheet.character.as_ref().unwrap();
    // mls, Personality Traits: "a player may roll 3d6 for a trait and take the value rolled"
    assert_eq!(ch.personality["greedy"], 17);
    assert_eq!(ch.rolled, ["greedy"]);
    // mls, THP: "THP equals the roll OR the base x3, whichever is the greater": 3 < 9.
    assert_eq!(sheet.thp, 9);
    // mls, TMP: the roll 4 < Aura x 3 = 6.
    assert_eq!(ch.tmp, Some(6));
    // mls, Fate Points: valorous 16 and greedy 17 give one each.
    assert_eq!(sheet.fate_points, 2);
    // 60 - 2 (strength) - 2 (body) - 2 (soldier) - 3 (sword +1) = 51.
    assert_eq!(ch.cps, 51);
    assert_eq!(balance(&ch.ledger), 51);
    assert!(ch.ledger.iter().all(|e| e.step == Step::Generation));
    let thp = ch.ledger.iter().find(|e| e.change == "THP 9").unwrap();
    assert_eq!(
        thp.roll.as_deref(),
        Some("3d6 = [1, 1, 1] = 3; base x 3 = 9")
    );
    assert_eq!(
        thp.rule,
        "mls, Character Generation, Total Hit Points (THP)"
    );
    let text = to_toml(&sheet).unwrap();
    assert!(validate(&sheet, Some(&text)).is_empty(), "{text}");
    // The sheet fights: its sword skill is Dexterity 2 + 1.
    let side = nutshell_mls::sheet::Side::parse("t.toml", &text).unwrap();
    assert_eq!(side.combatants[0].skill("sword"), 3);
    assert_eq!(side.combatants[0].skill("soldier"), 3);
}

#[test]
fn a_roll_too_high_for_a_high_thp_uses_the_roll() {
    let choices = Choices::parse("c.toml", "name = \"A\"\nrace = \"human\"\nage = 18\noccupation = { name = \"x\", base = \"mind\" }\n").unwrap();
    let sheet = with_faces(&[6, 5], |d| generate(&choices, d)).unwrap();
    assert_eq!(sheet.thp, 11);
}

#[test]
fn running_out_of_faces_names_the_die() {
    let choices = Choices::parse("c.toml", CHOICES).unwrap();
    let mut s = nutshell_dice::Scripted::new([6, 6]);
    let mut d = nutshell_mls::dice::Dice::new(&mut s);
    let e = generate(&choices, &mut d).unwrap_err().to_string();
    assert!(e.contains("die 3") && e.contains("greedy"), "{e}");
}

#[test]
fn bad_choices_name_their_line() {
    let e = Choices::parse("c.toml", "name = \"A\"\nrace = \"troll\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("c.toml: line 2:"), "{e}");
}
