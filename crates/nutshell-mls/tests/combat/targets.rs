//! `Fight::targets`: the enemies a combatant could attack from where he
//! stands, as a front end marks them (rule text 001, *Who May Attack*, *Who
//! May Shoot*; P-68, P-69).

use super::{combatant, on_map};
use nutshell_mls::Fight;

/// `name`'s targets: (name, front arc, in sight).
fn targets(fight: &Fight, name: &str) -> Vec<(String, bool, bool)> {
    let i = fight
        .fighters()
        .iter()
        .position(|f| f.sheet.name == name)
        .unwrap();
    fight
        .targets(i)
        .into_iter()
        .map(|t| (t.name, t.front_arc, t.in_sight))
        .collect()
}

fn t(name: &str, front_arc: bool, in_sight: bool) -> (String, bool, bool) {
    (name.to_string(), front_arc, in_sight)
}

const OPEN: [&str; 7] = [
    ".......", ".......", ".......", ".......", ".......", ".......", ".......",
];

/// Ann on D4 facing north, Bob in front of her (D3) facing her, Cid beside
/// her (C4), Dan diagonal in front (C3), Eve behind (D5) facing her back.
const AROUND_ANN: [(&str, &str, &str); 5] = [
    ("Ann", "D4", "north"),
    ("Bob", "D3", "south"),
    ("Cid", "C4", "east"),
    ("Dan", "C3", "east"),
    ("Eve", "D5", "north"),
];

fn enemies() -> String {
    ["Bob", "Cid", "Dan", "Eve"]
        .iter()
        .map(|n| combatant(n, 10, 4, 20, ""))
        .collect()
}

#[test]
fn a_swordsman_may_strike_only_the_enemy_in_front_of_him() {
    // mls, Who May Attack: "any active character has chosen a Fight action,
    // may attack any enemy in the hex in front of him." Ann faces north from
    // D4: Bob on D3 is in front of her; Cid beside her (C4), Dan diagonal
    // in front (C3) and Eve behind (D5) are not. Without a missile weapon
    // nobody is "in sight" to shoot.
    let ann = combatant("Ann", 10, 4, 20, "");
    let f = on_map(&OPEN, &AROUND_ANN, &ann, &enemies());
    assert_eq!(targets(&f, "Ann"), vec![t("Bob", true, false)]);
    // Bob, facing south onto D4, may strike Ann; Eve, facing north onto D4,
    // too.
    assert_eq!(targets(&f, "Bob"), vec![t("Ann", true, false)]);
    assert_eq!(targets(&f, "Eve"), vec![t("Ann", true, false)]);
    assert_eq!(targets(&f, "Cid"), vec![t("Ann", true, false)]);
}

#[test]
fn a_spear_adds_the_diagonals_in_front() {
    // mls, Who May Attack: "A character with a spear may attack one of the
    // diagonal squares in front of him."
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 20\nskills = { blade = 10 }\nweapons = [{ name = \"spear\", skill = \"blade\", dam = 6, spear = true }]\n";
    let f = on_map(&OPEN, &AROUND_ANN, ann, &enemies());
    assert_eq!(
        targets(&f, "Ann"),
        vec![t("Bob", true, false), t("Dan", true, false)]
    );
}

#[test]
fn an_archer_marks_the_enemies_in_sight_in_his_arcs() {
    // mls, Who May Shoot: "so long as he can see the target at which he is
    // shooting, and nothing is blocking his shot. The target must be within
    // the shooter's arc of fire. ... All characters on foot may use throwing
    // weapons and bows to front and left". Ann, with a bow and a dagger,
    // faces north from D4 with a wall west of C3..C1: Bob in front (D3) may
    // be struck and shot; Cid to her left (A4) shot; Dan to her right (G4)
    // is outside a bow's arcs; Eve (A2) is behind the wall (P-68).
    let rows = [
        ".......", "..#....", "..#....", ".......", ".......", ".......", ".......",
    ];
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 20\nskills = { blade = 10, bow = 10 }\nweapons = [{ name = \"dagger\", skill = \"blade\", dam = 4 }, { name = \"bow\", skill = \"bow\", dam = 6, range = 20, kind = \"missile\" }]\n";
    let f = on_map(
        &rows,
        &[
            ("Ann", "D4", "north"),
            ("Bob", "D3", "south"),
            ("Cid", "A4", "east"),
            ("Dan", "G4", "west"),
            ("Eve", "A2", "east"),
        ],
        ann,
        &enemies(),
    );
    assert_eq!(
        targets(&f, "Ann"),
        vec![t("Bob", true, true), t("Cid", false, true)]
    );
}

#[test]
fn off_the_map_nobody_is_marked() {
    // The marks are of squares and arcs: a fight on a line has none.
    let f = super::fight(
        &combatant("Ann", 10, 4, 20, ""),
        &combatant("Bob", 10, 4, 20, ""),
    );
    assert!(targets(&f, "Ann").is_empty());
}
