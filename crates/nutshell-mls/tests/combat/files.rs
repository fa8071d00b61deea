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
    assert!(e.starts_with("bad.toml: line 1: missing key `thp`"), "{e}");
}

#[test]
fn an_unknown_field_is_named_with_its_line() {
    let e = error(
        "name = \"Ann\"\nthp = 10\nweapons = [{ name = \"axe\", skill = \"axe\", dmg = 3 }]\n",
    );
    assert!(
        e.starts_with("bad.toml: line 3: weapons[0]: unknown key `dmg`"),
        "{e}"
    );
}

#[test]
fn a_bad_value_is_named_with_its_line() {
    let e = error("name = \"Ann\"\nthp = 10\n\narmour = [{ value = 2, coverage = \"plate\" }]\n");
    assert!(
        e.starts_with("bad.toml: line 4: armour[0].coverage: unknown value `plate`"),
        "{e}"
    );
    let e = error("name = \"Ann\"\nthp = \"ten\"\n");
    assert!(
        e.starts_with("bad.toml: line 2: thp: found the text \"ten\", expected a whole number"),
        "{e}"
    );
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
            "line 3: weapons: found 3, expected a list",
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

/// RULING N-1: "Overflow is an error, never a wrap." Every number a sheet
/// holds has a range (`nutshell_mls::bounds`), checked when the file is read:
/// a huge Strength is refused with its key, line and range, never added to
/// Dam; a huge Agility never doubled into "0 MP"; a huge Shock never rolled.
#[test]
fn huge_numbers_are_refused_with_the_key_the_file_wrote_and_its_range() {
    let big = i64::MAX;
    for (text, expected) in [
        (
            format!("name = \"A\"\nthp = 5\n[traits]\nstrength = {big}\n"),
            format!(
                "bad.toml: line 4: traits.strength: {big} is outside -100..100, the range of a primary trait"
            ),
        ),
        (
            format!("name = \"A\"\nthp = 5\ntraits = {{ agility = {big} }}\n"),
            format!(
                "bad.toml: line 3: traits.agility: {big} is outside -100..100, the range of a primary trait"
            ),
        ),
        (
            format!("name = \"A\"\nthp = 5\nshock = {}\n", i64::MIN),
            format!(
                "bad.toml: line 3: shock: {} is outside -100..100, the range of the Shock trait",
                i64::MIN
            ),
        ),
        (
            format!(
                "[[combatant]]\nname = \"A\"\nthp = 5\n\n[[combatant]]\nname = \"B\"\nthp = 5\ntactic = {{ break_off_below = {big} }}\n"
            ),
            format!(
                "bad.toml: line 8: combatant[1].tactic.break_off_below: {big} is outside -10000..10000, the range of hit points"
            ),
        ),
        (
            format!("name = \"A\"\nthp = 5\nchp = {big}\n"),
            format!(
                "bad.toml: line 3: chp: {big} is outside -10000..10000, the range of hit points"
            ),
        ),
    ] {
        assert_eq!(error(&text), expected);
    }
}

/// The largest values the ranges allow fight without overflow: a fight of
/// two Strength 100, Agility 100 combatants with Dam 1000 runs to its end.
#[test]
fn the_largest_values_allowed_fight_without_overflow() {
    let sheet = |name: &str, t: i64, dam: i64| {
        format!(
            "[[combatant]]\nname = \"{name}\"\nthp = 10000\nshock = {t}\nskills = {{ axe = {t}, dodge = {t} }}\n\
             traits = {{ strength = {t}, body = {t}, size = {t}, dexterity = {t}, agility = {t}, mind = {t}, aura = {t}, awareness = {t} }}\n\
             weapons = [{{ name = \"axe\", skill = \"axe\", dam = {dam} }}]\n\
             armour = [{{ value = {dam}, coverage = \"partial\" }}]\n"
        )
    };
    let one = |name: &str| sheet(name, 100, 1000);
    let a = Side::parse("a.toml", &one("A")).unwrap();
    let b = Side::parse("b.toml", &one("B")).unwrap();
    let mut fight = nutshell_mls::fight::Fight::new([a, b], Default::default()).unwrap();
    let mut source = nutshell_dice::Seeded::new(7);
    fight.run(&mut source).unwrap();
    let low = |name: &str| sheet(name, -100, 0);
    let a = Side::parse("a.toml", &low("A")).unwrap();
    let b = Side::parse("b.toml", &low("B")).unwrap();
    let mut fight = nutshell_mls::fight::Fight::new([a, b], Default::default()).unwrap();
    fight.run(&mut source).unwrap();
}

/// A list where a table is expected is refused, not read by position
/// (`traits = [3, 3, 2]` once set Strength, Body and Size).
#[test]
fn a_list_where_a_table_is_expected_is_refused() {
    for (text, expected) in [
        (
            "name = \"A\"\nthp = 5\ntraits = [3, 3, 2]\n",
            "bad.toml: line 3: traits: a list where a table is expected",
        ),
        (
            "name = \"A\"\nthp = 5\ntraits = [3, 3, 2, 2, 2, 2, 2, 2, 2]\n",
            "bad.toml: line 3: traits: a list where a table is expected",
        ),
        (
            "name = \"A\"\nthp = 5\nskills = { axe = 2 }\nweapons = [[\"axe\", \"axe\", 3]]\n",
            "bad.toml: line 4: weapons[0]: a list where a table is expected",
        ),
        (
            "name = \"A\"\nthp = 5\ntactic = [\"normal\"]\n",
            "bad.toml: line 3: tactic: a list where a table is expected",
        ),
    ] {
        let e = error(text);
        assert!(e.starts_with(expected), "{text:?}: {e}");
    }
}

/// Errors speak the file's words: keys, tables, lists, whole numbers; never
/// serde's (`expected struct ...`, `expected i64`, `invalid length`).
#[test]
fn errors_speak_the_files_words() {
    for (text, expected) in [
        (
            "name = \"A\"\nthp = \"ten\"\n",
            "bad.toml: line 2: thp: found the text \"ten\", expected a whole number",
        ),
        (
            "name = \"A\"\nthp = 5\nfate_points = -1\n",
            "bad.toml: line 3: fate_points: found -1, expected a whole number from 0 to 4294967295",
        ),
        (
            "name = \"A\"\nthp = 5\ntraits = 3\n",
            "bad.toml: line 3: traits: found 3, expected a table",
        ),
        ("name = \"A\"\n", "bad.toml: line 1: missing key `thp`"),
    ] {
        let e = error(text);
        assert!(e.starts_with(expected), "{text:?}: {e}");
        for serde in [
            "struct",
            "i64",
            "u32",
            "invalid length",
            "sequence",
            "invalid type",
        ] {
            assert!(!e.contains(serde), "{text:?}: {e}");
        }
    }
}
