//! Combatant and side files: the schema, and errors that name the field and
//! the line.

use nutshell_mls::sheet::Side;

fn error(text: &str) -> String {
    Side::parse("bad.toml", text).unwrap_err().to_string()
}

#[test]
fn the_example_files_load() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mls");
    for (file, count) in [
        ("duel/knight.toml", 1),
        ("duel/brigand.toml", 1),
        ("skirmish/party.toml", 4),
        ("skirmish/goblins.toml", 6),
        ("archers/left.toml", 1),
        ("archers/right.toml", 1),
    ] {
        let side = Side::load(&root.join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(side.combatants.len(), count, "{file}");
    }
}

#[test]
fn a_missing_field_is_named_with_its_line() {
    let e = error("name = \"Ann\"\nskills = { sword = 3 }\n");
    assert!(
        e.starts_with("bad.toml: line 1: missing field `thp`"),
        "{e}"
    );
}

#[test]
fn an_unknown_field_is_named_with_its_line() {
    let e = error(
        "name = \"Ann\"\nthp = 10\nweapons = [{ name = \"axe\", skill = \"axe\", dmg = 3 }]\n",
    );
    assert!(
        e.starts_with("bad.toml: line 3: unknown field `dmg`"),
        "{e}"
    );
}

#[test]
fn a_bad_value_is_named_with_its_line() {
    let e = error("name = \"Ann\"\nthp = 10\n\narmour = [{ value = 2, coverage = \"plate\" }]\n");
    assert!(
        e.starts_with("bad.toml: line 4: unknown variant `plate`"),
        "{e}"
    );
    let e = error("name = \"Ann\"\nthp = \"ten\"\n");
    assert!(e.starts_with("bad.toml: line 2: invalid type"), "{e}");
}

#[test]
fn a_weapon_with_an_unknown_skill() {
    let e = error(
        "[[combatant]]\nname = \"Ann\"\nthp = 10\nskills = { sword = 4 }\nweapons = [{ name = \"axe\", skill = \"axe\", dam = 3 }]\n",
    );
    assert_eq!(
        e,
        "bad.toml: line 5: combatant \"Ann\": weapons[0] (axe).skill: \"axe\" is not one of its skills (sword)"
    );
}

#[test]
fn values_out_of_range_and_other_checks() {
    for (text, expected) in [
        (
            "name = \"A\"\nthp = 0\n",
            "thp: 0 is not a number of hit points from 1 to 10000",
        ),
        (
            "name = \"A\"\nthp = 5\nchp = 9\n",
            "chp: 9 must lie between -THP and THP (5)",
        ),
        (
            "name = \"A\"\nthp = 5\nskills = { bow = 5 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 3, kind = \"missile\" }]\n",
            "a missile weapon or spell needs a range in squares",
        ),
        (
            "name = \"A\"\nthp = 5\ntactic = { delay = 5 }\n",
            "tactic.delay: 5 rounds: a turn has five rounds, so at most 4",
        ),
        ("side = \"S\"\n", "no combatants"),
        (
            "[[combatant]]\nname = \"A\"\nthp = 5\n[[combatant]]\nname = \"A\"\nthp = 6\n",
            "two combatants are named \"A\"",
        ),
        (
            "name = \"A\"\nthp = 5\nweapons = 3\n",
            "line 3: invalid type",
        ),
        ("this is not toml", "line 1"),
        (
            "name = \"A\"\nthp = 5\nposition = -2\n",
            "position: -2: squares behind the side's line",
        ),
        (
            "name = \"A\"\nthp = 5\nskills = { s = 2 }\nweapons = [{ name = \"club\", skill = \"s\", dam = 3, range = 4 }]\n",
            "range, reload and prepare are for missile weapons and spells",
        ),
        (
            "name = \"A\"\nthp = 5\narmour = [{ value = 2, coverage = \"full\", locations = [] }]\n",
            "an empty list covers nothing",
        ),
    ] {
        let e = error(text);
        assert!(e.contains(expected), "{text:?}: {e}");
    }
}
