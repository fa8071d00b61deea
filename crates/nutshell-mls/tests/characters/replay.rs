//! RULING P-55: `check` replays the ledger from the generation entries and
//! compares the result with the sheet, field by field; each entry must keep
//! its rule. Hand edits and invented entries are violations.

use nutshell_mls::character::validate::{parse_sheet, validate};

fn veteran() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/mls/characters/veteran.toml"
    ))
    .unwrap()
}

fn problems(text: &str) -> Vec<String> {
    let sheet = parse_sheet("t.toml", text).unwrap_or_else(|e| panic!("{e}"));
    validate(&sheet, Some(text))
        .iter()
        .map(|v| v.to_string())
        .collect()
}

fn caught(text: &str, words: &[&str]) {
    let p = problems(text);
    assert!(
        p.iter().any(|p| words.iter().all(|w| p.contains(w))),
        "{words:?} not in {p:#?}"
    );
}

fn edit(from: &str, to: &str) -> String {
    let v = veteran();
    assert!(v.contains(from), "{from}");
    v.replacen(from, to, 1)
}

#[test]
fn the_veteran_replays_clean() {
    assert!(problems(&veteran()).is_empty());
}

#[test]
fn hand_edits_of_a_played_character_are_changed_outside_the_ledger() {
    // The issue: "every change can be audited". Each edit below passed `check` before.
    let outside = "changed outside the ledger";
    caught(
        &edit("strength = 3", "strength = 4"),
        &[
            "line 7: traits.strength",
            "4 on the sheet",
            "makes it 3",
            outside,
        ],
    );
    caught(
        &edit(
            "base = \"dexterity\"\nlevel = 4",
            "base = \"dexterity\"\nlevel = 6",
        ),
        &[
            "character.secondary.sword.level",
            "base+6 on the sheet",
            "base+4",
            outside,
        ],
    );
    caught(
        &edit("thp = 9", "thp = 30"),
        &["line 3: thp", "30 on the sheet", outside],
    );
    caught(
        &edit("valorous = 18", "valorous = 19"),
        &[
            "character.personality.valorous",
            "19 on the sheet",
            "makes it 18",
            outside,
        ],
    );
    caught(
        &edit("fate_points = 1", "fate_points = 9"),
        &["fate_points", "9 on the sheet", "makes it 1", outside],
    );
    caught(
        &edit(
            "valorous = 18\n",
            "valorous = 18\nchaste = 16\ntemperate = 16\nforgiving = 16\ngenerous = 16\nkind = 16\n",
        ),
        &[
            "character.personality.chaste",
            "16 on the sheet",
            "makes it 10",
            outside,
        ],
    );
    caught(
        &edit(
            "[character.secondary.sword]",
            "[character.secondary.axe]\nkind = \"trained\"\nbase = \"strength\"\nlevel = 3\n\n[character.secondary.sword]",
        ),
        &[
            "character.secondary.axe.level",
            "base+3 on the sheet",
            "not had",
            outside,
        ],
    );
}

#[test]
fn invented_entries_are_held_to_their_rules() {
    // The made-up ledger: five traits at 4, THP 99, 7 Fate Points, and entries
    // `generation cps=60`, `spend cps=-13` that say nothing of what they bought.
    let text = "name = \"Cheat\"\nthp = 99\nfate_points = 7\ntraits = { strength = 4, body = 4, size = 4, dexterity = 4, agility = 4 }\n\n[character]\nrace = \"human\"\nage = 18\ncps = 47\noccupation = { name = \"soldier\", base = \"strength\" }\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"60 CPs\"\ncps = 60\nrule = \"x\"\n\n[[character.ledger]]\nage = 18\nstep = \"spend\"\nchange = \"everything\"\ncps = -13\nrule = \"x\"\n";
    let p = problems(text);
    let all = p.join("\n");
    // mls, Character Generation, Occupation: generation must record what it bought.
    assert!(
        all.contains("generation did not record the occupation"),
        "{all}"
    );
    // RULING P-55: a spend must say what it changed.
    assert!(all.contains("does not say what"), "{all}");
    for field in ["traits.strength", "traits.agility"] {
        assert!(
            p.iter()
                .any(|l| l.contains(&format!(": {field}: "))
                    && l.contains("changed outside the ledger")),
            "{field}: {all}"
        );
    }
    // mls, Total Hit Points (THP) and Fate Points: generation recorded neither.
    assert!(all.contains("generation did not record THP"), "{all}");
    assert!(
        all.contains("generation did not record the Fate Points"),
        "{all}"
    );
    // With targets but prices that lie: strength 4 is RAv+2 and costs 5, not 0.
    let lie = "name = \"Cheat\"\nthp = 6\nfate_points = 0\ntraits = { strength = 4 }\n\n[character]\nrace = \"human\"\nage = 18\ncps = 58\noccupation = { name = \"soldier\", base = \"strength\" }\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"60 CPs\"\ncps = 60\nrule = \"x\"\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"strength 4\"\ncps = 0\ntarget = \"traits.strength\"\nto = 4\nrule = \"x\"\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"soldier\"\ncps = -2\ntarget = \"character.occupation\"\nto = 0\nrule = \"x\"\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"THP\"\ncps = 0\ntarget = \"thp\"\nto = 6\nrule = \"x\"\n\n[[character.ledger]]\nage = 18\nstep = \"generation\"\nchange = \"FP\"\ncps = 0\ntarget = \"fate_points\"\nto = 0\nrule = \"x\"\n";
    let p = problems(lie).join("\n");
    assert!(
        p.contains(
            "line 19: character.ledger[1]: entry 2: strength 4 costs 5 CPs, but the entry says 0"
        ) && p.contains("Primary Trait at Racial Average +1 costs 2 CPs, +2 costs 5 CPs"),
        "{p}"
    );
    // A starting budget that is not the rule's: 60 at 18.
    let rich = lie.replacen("cps = 60", "cps = 99", 1);
    let p = problems(&rich).join("\n");
    assert!(
        p.contains("99 starting CPs, but a Human aged 18 has 60"),
        "{p}"
    );
}

#[test]
fn play_entries_are_held_to_their_rules() {
    // mls, Increase a Personality Trait: "by one level to 18 or 19 at a cost of 10 CPs".
    let cheap = edit(
        "change = \"valorous 17 -> 18, cowardly 3 -> 2\"\ncps = -10",
        "change = \"valorous 17 -> 18, cowardly 3 -> 2\"\ncps = -1",
    )
    .replacen("cps = 48", "cps = 57", 1);
    let p = problems(&cheap).join("\n");
    assert!(
        p.contains("personality.valorous 17 -> 18 costs 10, but the entry says 1"),
        "{p}"
    );
    // mls, Checks on Secondary Traits: the 1d8 roll decides; a failed roll raises nothing.
    let lucky = edit("roll = \"1d8 = 5\"", "roll = \"1d8 = 2\"");
    let p = problems(&lucky).join("\n");
    assert!(p.contains("does not follow from the roll 1d8 = 2"), "{p}");
}
