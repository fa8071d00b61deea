//! `nutshell mls`, end to end: fights, simulations, attack rounds, damage.

mod support;

use serde_json::Value;
use support::*;

#[test]
fn attacks_prints_the_rounds_of_a_skill() {
    // RULING M-4: skill 7 gives three attacks, in rounds 1, 3 and 5.
    let v = json_of("mls attacks --skill 7");
    assert_eq!(v["rounds"], serde_json::json!([1, 3, 5]));
    run("mls attacks --skill 4 --rush")
        .assert()
        .success()
        .stdout("skill 4: 2 attack(s) a turn (half the skill, at most 5); rounds 1 (-2), 4\n");
}

#[test]
fn damage_odds_are_exact_and_shaped_like_nutshell_odds() {
    // RULING M-5: Dam 8 rolls 2d6, at least 8: P(8) = P(2d6 <= 8) = 26/36.
    let v = json_of("mls damage --dam 8 --odds");
    assert_eq!(v["expression"], "max(2d6, 8)");
    assert_eq!(
        v["distribution"][0],
        serde_json::json!({"value": 8, "probability": "13/18"})
    );
    assert_eq!(v["tail"], "0");
    // A critical against Partial armour ignores it (RULING M-6): max(4d6, 16).
    let v = json_of("mls damage --dam 8 --critical --armor 5 --coverage partial --odds");
    assert_eq!(v["expression"], "max(4d6, 16)");
    // A natural 18 against Encased armour 6 with Dam 8: 6 - 4 = 2 remains.
    let v = json_of("mls damage --dam 8 --natural-18 --armor 6 --coverage encased --odds");
    assert_eq!(v["expression"], "max(max(4d6, 16) - 2, 0)");
}

#[test]
fn damage_rolls_from_typed_faces() {
    run("mls damage --dam 10 --armor 3 --coverage full --faces 1,2,1")
        .assert()
        .success()
        .stdout("max(2d6 + 1d3, 10) = [1, 2, 1] -> 10; protection 3; damage 7\n");
}

#[test]
fn a_fight_is_reproducible_from_a_seed_and_logs_every_roll() {
    let line = format!("mls fight {DUEL} --seed 7");
    let first = json_of(&line);
    assert_eq!(first, json_of(&line));
    assert_eq!(
        first["sides"],
        serde_json::json!(["Sir Aldric", "Black Wat"])
    );
    let log = first["log"].as_array().unwrap();
    assert!(
        log.iter()
            .any(|l| l["text"].as_str().unwrap().contains("rolls"))
    );
    assert!(first["ending"]["turns"].as_u64().unwrap() >= 1);
    // Every roll carries its faces as data: three d6 for each MLS roll.
    for line in log
        .iter()
        .filter(|l| l["text"].as_str().unwrap().contains(" rolls "))
    {
        assert_eq!(line["faces"].as_array().unwrap().len(), 3, "{line}");
    }
    let text = run(&format!("mls fight {DUEL} --seed 7")).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("Turn 1: Sir Aldric  [mls, Party Turns and Turn Order]"),
        "{text}"
    );
    assert!(text.contains("  Round 1"), "{text}");
    assert!(text.contains("combatant"), "{text}");
}

#[test]
fn a_fight_from_typed_faces() {
    // Round 1: Black Wat's total attack 6,6,5 = 17 + 6 = 23 (critical) beats
    // Sir Aldric's 1,1,2 = 4 + 7 = 11: Dam (10 + Strength 4) x 2 = 28, 7d6 all
    // 1s -> 28; the mail (3) leaves 25: CHP 12 -> -13, below -50%: certain
    // death, but a Fate Point removes the damage. Round 2: neither attacks
    // (skills 7 and 6: rounds 1, 3, 5). Round 3: the same again, no Fate Point.
    let round = "6,6,5,1,1,2,1,1,1,1,1,1,1";
    let faces = format!("{round},{round}");
    let v = json_of(&format!("mls fight {DUEL} --faces {faces}"));
    assert_eq!(v["ending"]["winner"], "Black Wat");
    assert_eq!(v["combatants"][0]["state"], "dead");
    assert_eq!(v["combatants"][0]["fate_points"], 0);
    let log: Vec<&str> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert!(
        log.iter()
            .any(|l| l.contains("spends a Fate Point to remove the damage")),
        "{log:?}"
    );
    // One face short: the error names the die.
    let out = run(&format!("mls fight {DUEL} --faces 6,6,5,1,1,2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("ran out of faces: die 7 (a d6 for damage)"),
        "{err}"
    );
}

#[test]
fn a_bad_file_names_the_field_and_the_line() {
    let dir = std::env::temp_dir().join(format!("nutshell-mls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"X\"\nthp = 10\nweapons = [{ name = \"axe\", skill = \"axe\", dmg = 4 }]\n",
    )
    .unwrap();
    let out = nutshell()
        .args(["mls", "fight", KNIGHT, bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.toml: line 3: weapons[0]: unknown key `dmg`"),
        "{err}"
    );
    let out = nutshell()
        .args(["mls", "fight", KNIGHT, "no-such-file.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn simulate_gives_probabilities_with_intervals() {
    let v = json_of(&format!("mls simulate {SKIRMISH} --trials 2000"));
    assert_eq!(v["trials"], 2000);
    let p = |x: &Value| x["probability"].as_f64().unwrap();
    let total = p(&v["wins"][0]) + p(&v["wins"][1]) + p(&v["draw"]);
    assert!((total - 1.0).abs() < 1e-9);
    let w = &v["wins"][0];
    assert!(w["low"].as_f64().unwrap() <= p(w) && p(w) <= w["high"].as_f64().unwrap());
    assert_eq!(v["combatants"].as_array().unwrap().len(), 10);
    assert!(v["mean_turns"].as_f64().unwrap() >= 1.0);
    // The same seed, the same answer.
    let again = json_of(&format!("mls simulate {SKIRMISH} --trials 2000"));
    assert_eq!(v["wins"], again["wins"]);
}

#[test]
fn the_guides_worked_example_replays_from_its_seed_and_its_faces() {
    // docs/mls/combat.md, "A worked example": the seeded fight and the same
    // dice typed in give the same log, and the guide quotes its key lines.
    let seeded = run(&format!("mls fight {DUEL} --seed 40"))
        .output()
        .unwrap();
    let faces =
        "5,3,6,3,4,2,5,1,5,2,1,4,2,6,6,3,5,5,4,6,6,1,4,6,1,5,1,6,3,2,6,5,4,4,1,4,5,2,1,4,4,6,5,5";
    let typed = run(&format!("mls fight {DUEL} --faces {faces}"))
        .output()
        .unwrap();
    assert_eq!(seeded.stdout, typed.stdout);
    assert!(
        typed.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&typed.stderr)
    );
    let log = String::from_utf8(seeded.stdout).unwrap();
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/mls/combat.md"
    ))
    .unwrap();
    for line in [
        "Sir Aldric: CHP 12 -> -11 of 12",
        "spends a Fate Point to remove the damage (CHP back to 12)",
        "Black Wat's total attack fails and Sir Aldric hits: Dam 8 + Black Wat's Strength 4 = 12",
        "Winner: Sir Aldric (no one of Black Wat is standing)",
    ] {
        assert!(log.contains(line), "the fight no longer logs {line:?}");
        assert!(guide.contains(line), "the guide no longer quotes {line:?}");
    }
}

#[test]
fn a_missing_face_between_commas_is_an_error() {
    let out = run("mls damage --dam 8 --faces 1,,2").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("face 2 of the list is missing"), "{err}");
}

// ---------------------------------------------------------------- maps

const CRYPT: &str = "examples/mls/maps/crypt.toml";

/// `mls map show` prints the grid with column letters, row numbers and the
/// combatants as arrows of their facing.
#[test]
fn a_map_is_shown_with_its_coordinates_and_starts() {
    let out = run(&format!("mls map show {CRYPT}")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  ABCDEFGHIJKLMNOP\n"), "{text}");
    assert!(text.contains("3 #>.....+....<..#\n"), "{text}");
    assert!(text.contains("Black Wat at M3, facing west"), "{text}");
}

/// `mls map path`: the cheapest movement at the text's costs, each step
/// named with its cost; a closed door costs 1 more to open (P-65).
#[test]
fn the_cheapest_path_names_every_step_and_its_cost() {
    let path = json_printed(
        nutshell()
            .args(["mls", "map", "path", CRYPT, "--from", "Sir Aldric"])
            .args(["--to", "L3", "--json"]),
    );
    assert_eq!(path["mp"], 11);
    assert_eq!(
        path["steps"][5]["text"],
        "G3 to H3, forward, opening the door, 2 MP"
    );
    // mls, Diagonal Movement: the run B2-C3-D4 costs 2 then 1.
    let path = json_of(&format!(
        "mls map path {CRYPT} --from B2 --facing south --to D4"
    ));
    assert_eq!(path["mp"], 3);
    assert_eq!(path["steps"][0]["text"], "B2 to C3, diagonal, 2 MP");
    assert_eq!(path["steps"][1]["text"], "C3 to D4, diagonal, 1 MP");
}

/// Bad maps and bad squares are refused with where and what.
#[test]
fn bad_maps_and_squares_are_refused_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "rows = '''\n#..\n#.x\n'''\n").unwrap();
    let out = run("mls map show").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.toml:3:3: unknown square `x`"), "{err}");
    for (args, needle) in [
        (vec!["--from", "B2", "--to", "E5"], "give a facing too"),
        (
            vec!["--from", "B2", "--facing", "up", "--to", "E5"],
            "not a facing",
        ),
        (vec!["--from", "Sir Aldric", "--to", "Z99"], "off the map"),
        (vec!["--from", "Sir Aldric", "--to", "A1"], "no way"),
    ] {
        let out = run(&format!("mls map path {CRYPT}"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

// ---------------------------------------------------------- map fights

const CORRIDOR: &str = "examples/mls/maps/corridor.toml";

/// docs/mls/map.md's worked example is this command's output, character for
/// character.
#[test]
fn the_worked_example_on_the_map_is_what_the_fight_prints() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/mls/map.md"
    ))
    .unwrap();
    let command = "$ nutshell mls fight examples/mls/duel/knight.toml examples/mls/duel/brigand.toml --map examples/mls/maps/corridor.toml --seed 3 --show-map\n";
    let start = doc.find(command).expect("the worked example") + command.len();
    let end = start + doc[start..].find("```").unwrap();
    let shown = &doc[start..end];
    let out = run(&format!("mls fight {DUEL} --map {CORRIDOR}"))
        .args(["--seed", "3", "--show-map"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

/// `mls fight --map --json`: the lines that move someone carry the squares
/// and facings, the doors opened, and the first line places everyone.
#[test]
fn a_map_fight_log_carries_squares_facings_and_doors() {
    let fight = json_of(&format!("mls fight {DUEL} --map {CORRIDOR} --seed 3"));
    let log = fight["log"].as_array().unwrap();
    let first = log[0]["positions"].as_array().unwrap();
    assert_eq!(first.len(), 2);
    assert_eq!(first[0]["name"], "Sir Aldric");
    assert_eq!(first[0]["square"], "C4");
    assert_eq!(first[0]["facing"], "east");
    let door = log
        .iter()
        .find(|l| l.get("opened").is_some())
        .expect("a line opening the door");
    assert_eq!(door["opened"][0], "G4");
    assert_eq!(door["positions"][0]["square"], "H4");
    // Everyone's square is known at every point: replaying the positions
    // gives the final squares.
    let mut at = std::collections::HashMap::new();
    for line in log {
        for p in line["positions"].as_array().into_iter().flatten() {
            at.insert(p["name"].as_str().unwrap().to_string(), p["square"].clone());
        }
    }
    assert_eq!(at["Sir Aldric"], "H4");
    // The map as it began (the door still shut) and everyone's last square.
    assert_eq!(fight["map"]["rows"][3], "#.....+......#");
    assert_eq!(fight["combatants"][0]["square"], "H4");
    assert_eq!(fight["combatants"][0]["facing"], "east");
}

/// The three example maps fight to the end with a seed, on the command line.
#[test]
fn the_example_maps_fight_to_the_end() {
    let archers = "examples/mls/archers/left.toml examples/mls/archers/right.toml";
    for (map, sides) in [
        ("examples/mls/maps/corridor.toml", DUEL),
        ("examples/mls/maps/crossroads.toml", SKIRMISH),
        ("examples/mls/maps/pillars.toml", archers),
    ] {
        let fight = json_of(&format!("mls fight {sides} --map {map} --seed 11"));
        assert!(fight["ending"]["turns"].as_u64().unwrap() >= 1, "{map}");
        let sim = json_of(&format!("mls simulate {sides} --map {map} --trials 200"));
        assert_eq!(sim["trials"], 200, "{map}");
    }
}

/// `mls map MAP A B` draws the sides where the fight would place them;
/// `mls path` takes SQUARE:FACING; `mls arcs` marks the arcs.
#[test]
fn maps_are_drawn_with_the_sides_paths_and_arcs() {
    let (text, _) = printed(&mut run(&format!(
        "mls map examples/mls/maps/crossroads.toml {SKIRMISH}"
    )));
    assert!(text.contains("   5 >>............<........."), "{text}");
    assert!(
        text.contains("Goblin archer 2 (Goblins): P7, facing west"),
        "{text}"
    );
    let path = json_of(&format!("mls path {CRYPT} --from B2:south --to D4"));
    assert_eq!(path["cost"], 3);
    let out = run(&format!("mls arcs {CRYPT} --at H6:north --weapon other"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("6 #LLLLLL^RRRRRRR#"), "{text}");
    assert!(text.contains("(forward, left, right)"), "{text}");
}

/// A map that does not fit the sides is refused before any die is rolled.
#[test]
fn a_map_that_does_not_fit_the_sides_is_refused() {
    let out = run(&format!("mls fight {SKIRMISH} --map {CORRIDOR} --seed 1"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("a start names \"Sir Aldric\", who is in neither side"),
        "{err}"
    );
    let out = run(&format!("mls fight {DUEL} --map {CORRIDOR} --distance 3"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
