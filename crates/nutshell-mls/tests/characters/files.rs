//! The example characters under examples/mls/characters: the valid ones keep
//! every rule and fight; the broken ones fail with the rule they break.

use nutshell_mls::character::validate::{parse_sheet, validate};
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions};

fn path(name: &str) -> String {
    format!(
        "{}/../../examples/mls/characters/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn read(name: &str) -> String {
    std::fs::read_to_string(path(name)).unwrap()
}

const VALID: [&str; 4] = ["brana.toml", "hugo.toml", "grishnak.toml", "veteran.toml"];

#[test]
fn the_valid_examples_keep_every_rule_and_fight() {
    for name in VALID {
        let text = read(name);
        let sheet = parse_sheet(name, &text).unwrap_or_else(|e| panic!("{e}"));
        let v = validate(&sheet, Some(&text));
        assert!(v.is_empty(), "{name}: {v:#?}");
    }
    for (a, b) in [
        ("brana.toml", "grishnak.toml"),
        ("hugo.toml", "veteran.toml"),
    ] {
        let sides = [
            Side::parse(a, &read(a)).unwrap(),
            Side::parse(b, &read(b)).unwrap(),
        ];
        let mut fight = Fight::new(sides, FightOptions::default()).unwrap();
        let ending = fight.run(&mut nutshell_dice::Seeded::new(1)).unwrap();
        assert!(ending.turns >= 1);
    }
}

#[test]
fn the_veteran_has_a_ledger_of_play_in_balance() {
    let text = read("veteran.toml");
    let sheet = parse_sheet("veteran.toml", &text).unwrap();
    let ch = sheet.character.unwrap();
    assert!(!nutshell_mls::character::ledger::fresh(&ch.ledger));
    assert_eq!(nutshell_mls::character::ledger::balance(&ch.ledger), ch.cps);
}

fn broken(name: &str) -> String {
    let text = read(&format!("broken/{name}"));
    match parse_sheet(name, &text) {
        Err(e) => e.to_string(),
        Ok(sheet) => validate(&sheet, Some(&text))
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn every_violation_cites_a_rule() {
    // The issue: check "explains each violation with the rule it breaks".
    for entry in std::fs::read_dir(path("broken")).unwrap() {
        let p = entry.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let Ok(sheet) = parse_sheet("b.toml", &text) else {
            continue;
        };
        for v in validate(&sheet, Some(&text)) {
            assert!(v.rule.is_some(), "{}: {v}", p.display());
        }
    }
    // A ledger out of order, a hand-aged and a hand-edited sheet.
    let text = read("veteran.toml")
        .replacen("age = 23", "age = 30", 1)
        .replacen("cps = 48", "cps = 50", 1);
    let sheet = parse_sheet("v.toml", &text).unwrap();
    let v = validate(&sheet, Some(&text));
    assert!(v.len() >= 2, "{v:#?}");
    for v in v {
        assert!(v.rule.is_some(), "{v}");
    }
}

#[test]
fn the_broken_examples_say_why() {
    let cases = [
        (
            "overspent.toml",
            "character: the choices cost 67 CPs, but a Human aged 18 has 60: 7 too many",
        ),
        (
            "three-at-plus-two.toml",
            "line 6: traits.agility: 3 traits at +2 (strength, body, agility)",
        ),
        (
            "personality-pair.toml",
            "line 22: combatant \"Hugo the Younger\": character.personality.valorous: cowardly = 5 and valorous = 16 do not add up to 20",
        ),
        (
            "unknown-field.toml",
            "line 6: traits: unknown key `strenght`",
        ),
        (
            "too-old.toml",
            "line 11: character.age: a Human starts no younger than 18 and no older than 54",
        ),
        (
            "secondary-above-four.toml",
            "line 17: character.secondary.swim.level: base+5 is outside base..base+4 for a new character",
        ),
        (
            "bad-base.toml",
            "character.occupation.base: \"luck\" is not a primary trait",
        ),
        (
            "fate-points.toml",
            "line 5: fate_points: 3 Fate Points, but the personality traits give 0 and 0 were bought: 0",
        ),
        (
            "tampered-ledger.toml",
            "character.cps: 60 unspent CPs, but the ledger's entries add up to 48",
        ),
        (
            "edited-by-hand.toml",
            "line 7: traits.strength: 4 on the sheet, but the ledger makes it 3: changed outside the ledger",
        ),
        (
            "aged-by-hand.toml",
            "line 39: character.age: 30, but the ledger's last entry is at age 23",
        ),
    ];
    for (name, words) in cases {
        let e = broken(name);
        assert!(e.contains(words), "{name}: {e}");
    }
    let listed = std::fs::read_dir(path("broken")).unwrap().count();
    assert_eq!(listed, cases.len(), "every broken example is asserted");
}
