//! `nutshell mls play` (docs/mls/combat.md, "Playing a fight by
//! decisions"): a fight played at a terminal from the first turn to the
//! end, and replayed from the decisions its JSON log wrote.

mod support;

use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use support::{DUEL, json_printed, nutshell, nutshell_in, printed};

const ANN: &str = r#"name = "Ann"
thp = 20
shock = 6
fate_points = 2
traits = { agility = 2, strength = 2 }
skills = { sword = 12, dodge = 6 }
weapons = [{ name = "sword", skill = "sword", dam = 6 }]
"#;

// The foes of the web table's played-fight tests too (each crate's tests
// build alone).
const FOES: &str = r#"side = "Foes"
[[combatant]]
name = "Bob"
thp = 20
skills = { bow = 7, knife = 8 }
weapons = [{ name = "bow", skill = "bow", dam = 4, kind = "missile", range = 20 }, { name = "knife", skill = "knife", dam = 4 }]
[[combatant]]
name = "Cid"
thp = 14
skills = { axe = 10 }
weapons = [{ name = "axe", skill = "axe", dam = 9 }]
"#;

const MAP: &str = r#"rows = '''
..........
..........
..........
..........
'''
[[start]]
who = "Ann"
at = "B2"
facing = "east"
[[start]]
who = "Bob"
at = "I1"
facing = "west"
[[start]]
who = "Cid"
at = "H3"
facing = "west"
"#;

fn files(dir: &Path) {
    std::fs::write(dir.join("ann.toml"), ANN).unwrap();
    std::fs::write(dir.join("foes.toml"), FOES).unwrap();
    std::fs::write(dir.join("map.toml"), MAP).unwrap();
}

/// The kind of the decision asked last on `screen`: "set action", ...
fn last_kind(screen: &str) -> Option<&str> {
    let at = screen.rfind(" decides (")? + " decides (".len();
    let end = screen[at..].find(')')?;
    Some(&screen[at..at + end])
}

/// Plays the fight of `seed` in a pseudo-terminal (util-linux `script`),
/// answering each prompt as a referee would: the first set action is first
/// refused (Pursue), explained (`?`), then Move; the first movement is a
/// square typed (D2) and confirmed; every attack a Total Attack; every dodge and
/// Fate Point taken; the rest the engine's pick (Enter). Returns the
/// screen and the JSON written.
fn play_in_a_terminal(dir: &Path, seed: u64) -> (String, Value) {
    let nutshell = assert_cmd::cargo::cargo_bin("nutshell");
    let out = dir.join(format!("fight-{seed}.json"));
    let command = format!(
        "cd '{}' && '{}' mls play ann.toml foes.toml --map map.toml --seed {seed} --engine Foes --json > '{}'",
        dir.display(),
        nutshell.display(),
        out.display()
    );
    let mut child = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("util-linux's `script` runs the command in a pseudo-terminal");
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut screen = String::new();
    let mut answered_to = 0;
    let mut set_actions = 0;
    let mut movements = 0;
    let mut aims = 0;
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(bytes) => screen.push_str(&String::from_utf8_lossy(&bytes)),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("no prompt for a minute:\n{screen}");
            }
        }
        let fresh = &screen[answered_to..];
        if !fresh.trim_end_matches(['\r', '\n']).ends_with("> ") && !fresh.ends_with("> ") {
            continue;
        }
        let confirm = fresh.trim_end().ends_with("  >") && fresh.contains("the cheapest way to");
        let answer = if confirm {
            "y".to_string()
        } else {
            match last_kind(&screen) {
                Some("set action") => {
                    set_actions += 1;
                    match set_actions {
                        1 => "pursue".into(),
                        2 => "?".into(),
                        3 => "move".into(),
                        _ => String::new(),
                    }
                }
                Some("movement") => {
                    movements += 1;
                    // The first: a square two ahead, typed and confirmed.
                    if movements == 1 {
                        "D2".into()
                    } else {
                        String::new()
                    }
                }
                Some("attack") => "2".into(),
                // The first aim: the head, by the location's name.
                Some("aim") => {
                    aims += 1;
                    if aims == 1 {
                        "head".into()
                    } else {
                        String::new()
                    }
                }
                Some("dodge" | "Fate Point") => "y".into(),
                _ => String::new(),
            }
        };
        answered_to = screen.len();
        writeln!(stdin, "{answer}").unwrap();
        stdin.flush().unwrap();
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}\n{screen}");
    let json: Value = serde_json::from_slice(&std::fs::read(&out).unwrap())
        .unwrap_or_else(|e| panic!("{e}\n{screen}"));
    (screen, json)
}

fn by_person<'v>(json: &'v Value, kind: &str) -> Vec<&'v Value> {
    json["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == kind && d["by"] == "person")
        .collect()
}

#[test]
fn a_fight_is_played_at_a_terminal_to_the_end_and_replays_from_its_log() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let mut all_four = None;
    for seed in 1..=30 {
        let (screen, json) = play_in_a_terminal(dir.path(), seed);
        // The first turn: a refusal with its sentence, an explanation, a move.
        assert!(
            screen.contains("refused: \"Ann\"'s set action \"Pursue\" is refused: mls, Pursue: \"may only move directly after a character who chose Flee! in the opposing side's last Turn\""),
            "{screen}"
        );
        assert!(
            screen.contains("Move: mls, 1. Movement: \"may move up to their Agl+1 in squares\""),
            "{screen}"
        );
        assert!(screen.contains("The map now"), "{screen}");
        assert!(screen.contains("the cheapest way to"), "{screen}");
        assert!(json["ending"].is_object(), "{json}");
        // The foes' ready actions are the engine's; Ann's first is hers.
        let first = json["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["who"] == "Ann")
            .unwrap();
        assert_eq!(
            (
                &first["who"],
                &first["kind"],
                &first["choice"]["action"],
                &first["by"]
            ),
            (
                &Value::from("Ann"),
                &Value::from("set-action"),
                &Value::from("move"),
                &Value::from("person")
            )
        );
        let path = by_person(&json, "movement");
        assert!(!path.is_empty(), "{json}");
        assert_eq!(json["controllers"]["Bob"], "engine");
        assert_eq!(json["controllers"]["Ann"], "person");
        // Replayed from the decisions the log wrote: the same fight.
        let orders = dir.path().join(format!("orders-{seed}.json"));
        std::fs::write(&orders, json.to_string()).unwrap();
        let again = json_printed(
            nutshell_in(dir.path())
                .args(["mls", "play", "ann.toml", "foes.toml", "--map", "map.toml"])
                .args(["--seed", &seed.to_string(), "--engine", "Foes", "--json"])
                .arg("--orders")
                .arg(&orders)
                .write_stdin(""),
        );
        assert_eq!(again["log"], json["log"], "seed {seed}");
        assert_eq!(again["decisions"], json["decisions"], "seed {seed}");
        // The aim typed by name (mls, Aiming an Attack).
        if let Some(first) = by_person(&json, "aim").first() {
            assert_eq!(first["choice"]["aim"], "head", "{json}");
            assert!(screen.contains("the head (-3, 17+)"), "{screen}");
        }
        let kinds = ["attack", "dodge", "fate-point", "aim"];
        if kinds.iter().all(|k| !by_person(&json, k).is_empty()) {
            assert!(
                by_person(&json, "attack")
                    .iter()
                    .all(|d| d["choice"]["attack"] == "total-attack")
            );
            all_four = Some(seed);
            break;
        }
    }
    assert!(
        all_four.is_some(),
        "no seed of 30 asked for a path, a total attack, a dodge, a Fate Point and an aim"
    );
}

/// `mls play` of the files of [`files`] in `dir` (seed 1, the foes the
/// engine's) taking its decisions from `orders.toml`, refused: what it
/// says.
fn refused_orders(dir: &Path) -> String {
    let out = nutshell_in(dir)
        .args(["mls", "play", "ann.toml", "foes.toml", "--map", "map.toml"])
        .args(["--seed", "1", "--engine", "Foes", "--orders", "orders.toml"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// An orders file in TOML, the same shape: a refused order is an error
/// naming its sentence; the answers ending while a decision waits is an
/// error naming it.
#[test]
fn orders_in_toml_are_checked_like_answers() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    std::fs::write(
        dir.path().join("orders.toml"),
        "[[decisions]]\nwho = \"Ann\"\nkind = \"set-action\"\nchoice = { action = \"pursue\" }\n",
    )
    .unwrap();
    let err = refused_orders(dir.path());
    assert!(
        err.contains("may only move directly after a character who chose Flee!"),
        "{err}"
    );
    std::fs::write(
        dir.path().join("orders.toml"),
        "[[decisions]]\nwho = \"Ann\"\nkind = \"set-action\"\nchoice = { action = \"move\" }\n",
    )
    .unwrap();
    let err = refused_orders(dir.path());
    assert!(err.contains("Ann decides (movement)"), "{err}");
    assert!(
        err.contains("the answers ended while Ann was to decide (movement, turn 1, round 0)"),
        "{err}"
    );
}

/// `--ask-faces`: each die's face is asked as it is rolled (physical dice at
/// the table); a face the die cannot show is asked again; the answers
/// ending is an error naming the die.
#[test]
fn faces_are_asked_as_the_dice_are_rolled() {
    let out = nutshell()
        .args(["mls", "play"])
        .args(DUEL.split_whitespace())
        .args([
            "--engine",
            "Sir Aldric",
            "--engine",
            "Black Wat",
            "--ask-faces",
        ])
        .write_stdin("7\n4\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("roll a d6 and type its face: 7\n  7 is not a face of a d6"),
        "{err}"
    );
    assert!(err.contains("roll a d6 and type its face: 4\n"), "{err}");
    assert!(
        err.contains(
            "error: ran out of faces: die 2 (a d6 for Black Wat's total attack on Sir Aldric)"
        ),
        "{err}"
    );
}

/// mls, Behaviour: "the player must roll higher than the trait on 1d20 if
/// he wishes him to behave otherwise (an automatic check on the opposing
/// trait if it succeeds)" (P-88): Brana (Valorous 16) ordered to flee; when
/// the 1d20 is over 16, `--record` writes the check on Cowardly to her
/// sheet with a ledger entry, and the sheet still checks.
#[test]
fn a_check_on_the_opposing_trait_is_recorded_on_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("brigand.toml"),
        "name = \"Brigand\"\nthp = 10\nskills = { axe = 8 }\nweapons = [{ name = \"axe\", skill = \"axe\", dam = 9 }]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("orders.toml"),
        "[[decisions]]\nwho = \"Brana\"\nkind = \"set-action\"\nchoice = { action = \"flee\" }\n",
    )
    .unwrap();
    for seed in 1..=60 {
        std::fs::copy(
            Path::new(support::ROOT).join("examples/mls/characters/brana.toml"),
            dir.path().join("brana.toml"),
        )
        .unwrap();
        let json = json_printed(
            nutshell_in(dir.path())
                .args([
                    "mls",
                    "play",
                    "brana.toml",
                    "brigand.toml",
                    "--distance",
                    "3",
                ])
                .args(["--seed", &seed.to_string(), "--engine", "Brigand"])
                .args(["--orders", "orders.toml", "--record", "--json"])
                .write_stdin("\n".repeat(400)),
        );
        let line = json["log"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| {
                l["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("goes against a Noticeable valorous 16"))
            })
            .unwrap_or_else(|| panic!("{json}"));
        let roll = line["faces"][0].as_i64().unwrap();
        if roll <= 16 {
            assert!(
                !json["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["trait"] == "cowardly"),
                "{json}"
            );
            continue;
        }
        assert!(
            json["checks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["combatant"] == "Brana" && c["trait"] == "cowardly"),
            "{json}"
        );
        assert!(
            json["recorded"][0]
                .as_str()
                .unwrap()
                .contains("recorded check(s) on cowardly"),
            "{json}"
        );
        let sheet = std::fs::read_to_string(dir.path().join("brana.toml")).unwrap();
        assert!(sheet.contains("\"cowardly\""), "{sheet}");
        assert!(
            sheet.contains("acted against valorous 16: cowardly is checked"),
            "{sheet}"
        );
        assert!(sheet.contains(&format!("1d20 = {roll}")), "{sheet}");
        // The sheet's comments and layout are kept, and it still checks.
        printed(nutshell_in(dir.path()).args(["mls", "character", "check", "brana.toml"]));
        return;
    }
    panic!("60 seeds gave no 1d20 over 16");
}
