//! `nutshell mls character new|check|show`, `advance`, `behave`, `time`, end to end.

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::*;

const DIR: &str = "examples/mls/characters";

/// A scratch copy of an example character sheet (or choices), in a fresh
/// folder of its own.
fn scratch(name: &str) -> std::path::PathBuf {
    copy_example(&format!("mls/characters/{name}"))
}

#[test]
fn check_accepts_the_examples() {
    run("mls character check")
        .args(
            ["brana.toml", "hugo.toml", "grishnak.toml", "veteran.toml"]
                .map(|f| format!("{DIR}/{f}")),
        )
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "hugo.toml: ok: Hugo the Younger, Human aged 18, 47 CP(s) unspent",
        ))
        .stdout(predicate::str::contains(
            "grishnak.toml: ok: Grishnak, Ork aged 15",
        ));
}

#[test]
fn the_guides_glob_checks_every_sheet() {
    // docs/mls/characters.md: `nutshell mls character check examples/mls/characters/*.toml`;
    // the choices files for `character new --from` live in choices/, not among the sheets.
    let sheets: Vec<String> = std::fs::read_dir(std::path::Path::new(ROOT).join(DIR))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| format!("{DIR}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert_eq!(sheets.len(), 4, "{sheets:?}");
    run("mls character check").args(&sheets).assert().success();
    // A choices file given to check says what it is for.
    nutshell()
        .args([
            "mls",
            "character",
            "check",
            &format!("{DIR}/choices/brana.choices.toml"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is a file of choices, not a character sheet: make the sheet with `nutshell mls character new --from",
        ));
}

#[test]
fn check_explains_each_violation_with_its_rule() {
    nutshell()
        .args([
            "mls",
            "character",
            "check",
            &format!("{DIR}/broken/three-at-plus-two.toml"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 rule(s) broken"))
        .stderr(predicate::str::contains(
            "line 6: traits.agility: 3 traits at +2",
        ))
        .stderr(predicate::str::contains(
            "rule: mls, Character Generation, Primary Traits: \"May have up to 2 traits at +2",
        ));
    nutshell()
        .args([
            "mls",
            "character",
            "check",
            &format!("{DIR}/broken/unknown-field.toml"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown-field.toml: line 6: traits: unknown key `strenght`",
        ));
    let out = nutshell()
        .args([
            "mls",
            "character",
            "check",
            "--json",
            &format!("{DIR}/broken/overspent.toml"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["violations"][0]["field"], "character");
    assert!(
        v["violations"][0]["rule"]
            .as_str()
            .unwrap()
            .contains("Players have 60 CPs")
    );
}

#[test]
fn check_refuses_a_combatant_without_a_character() {
    run("mls character check examples/mls/duel/knight.toml")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no [character] table"));
}

#[test]
fn show_prints_a_readable_sheet() {
    nutshell()
        .args([
            "mls",
            "character",
            "show",
            &format!("{DIR}/hugo.toml"),
            "--ledger",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("Hugo the Younger: Human, aged 18"))
        .stdout(predicate::str::contains(
            "spear             4  (trained, base strength+agility = 2), base+2",
        ))
        .stdout(predicate::str::contains(
            "swim              3  (natural, base body = 3), base",
        ))
        .stdout(predicate::str::contains("trusting 14  / 6   suspicious"))
        .stdout(predicate::str::contains("Ledger: 0 entries"));
}

#[test]
fn new_from_flags_is_reproducible_and_checks() {
    let args = [
        "mls",
        "character",
        "new",
        "--name",
        "Ada",
        "--age",
        "20",
        "--trait",
        "mind=4",
        "--trait",
        "size=1",
        "--occupation",
        "scholar=mind:1",
        "--secondary",
        "lore=mind:trained:2",
        "--personality",
        "honest=roll",
        "--personality",
        "curious=3",
    ];
    nutshell()
        .args(args)
        .args(["--seed", "1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("\"curious\": not a personality trait")
                .or(predicate::str::contains("personality.curious")),
        );
    let (text, _) = printed(
        nutshell()
            .args(&args[..args.len() - 2])
            .args(["--faces", "6,6,6,3,3"]),
    );
    // honest rolled 18: two Fate Points; THP: Size 1 + Body 2 - 2 = 1d6 = 3 (base x 3 = 3).
    assert!(text.contains("honest = 18"), "{text}");
    assert!(text.contains("fate_points = 2"), "{text}");
    assert!(text.contains("thp = 3"), "{text}");
    // 64 - 5 (mind +2) + 3 (size -1) - 6 (scholar +1) - 6 (lore +2) = 50.
    assert!(text.contains("cps = 50"), "{text}");
}

#[test]
fn new_refuses_what_the_rules_forbid() {
    run("mls character new --name X --occupation thief=dexterity --secondary stealth=dexterity:trained:5 --seed 1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "character.secondary.stealth.level: base+5 is outside base..base+4",
        ))
        .stderr(predicate::str::contains(
            "No Secondary Trait or Negative trait may begin above base+4",
        ));
    run("mls character new --name X --age 60 --occupation thief=dexterity --seed 1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "PCs must begin no younger than 18 and no older than 54",
        ));
}

#[test]
fn new_from_a_file_writes_a_sheet_that_fights() {
    let dir = scratch("choices/brana.choices.toml");
    let out = dir.with_file_name("new.toml");
    run(&format!(
        "mls character new --from {} --seed 21 --out {}",
        dir.display(),
        out.display()
    ))
    .assert()
    .success()
    .stderr(predicate::str::contains(
        "honest rolled: 8, deceitful 12 [3d6 = [6, 1, 1] = 8]",
    ))
    .stderr(predicate::str::contains(
        "THP 9 [3d6 = [2, 6, 1] = 9; base x 3 = 9]",
    ))
    .stderr(predicate::str::contains("wrote"));
    // The same seed gives the example's sheet.
    let made = std::fs::read_to_string(&out).unwrap();
    let example = example_text("mls/characters/brana.toml");
    assert_eq!(made, example);
    // Never overwrites.
    run(&format!(
        "mls character new --from {} --seed 21 --out {}",
        dir.display(),
        out.display()
    ))
    .assert()
    .code(2)
    .stderr(predicate::str::contains("exists"));
    run(&format!(
        "mls fight {} examples/mls/duel/brigand.toml --seed 3",
        out.display()
    ))
    .assert()
    .success()
    .stdout(predicate::str::contains("Brana"));
}

/// The answers of `new_asks_step_by_step` up to the first weapon.
fn step_by_step() -> Vec<&'static str> {
    [
        // Name; race: human; age: 62 CPs.
        &["Tess", "", "19"][..],
        // Strength 5: refused (RAv+3); then 4, and body, size 4: a third +2
        // ...; dexterity .. awareness 2.
        &["5", "4", "4", "4", "2", "2", "2", "2", "2"],
        // Refused as a whole: 3 traits at +2; again.
        &["4", "4", "2", "2", "2", "2", "2", "2"],
        // No negative trait; occupation guard, level 5 refused, then 0.
        &["", "guard", "strength+body", "5", "0"],
        // A secondary trait, sword; then done.
        &["sword", "trained", "dexterity", "2", ""],
        // Chaste/lustful 17: refused; 16; the next thirteen pairs: the
        // default; persistent rolled.
        &["17", "16"],
        &[""; 13],
        &["roll"],
        // One Fate Point bought; no magic.
        &["1", "n"],
    ]
    .concat()
}

/// `nutshell mls character new` answering `answers` (one a line), its
/// three personality rolls 4, 4, 4 and its THP 5, 5, 5, 5: standard output
/// and error; it must succeed.
fn new_answering(answers: &[&str]) -> (String, String) {
    let input = answers.join("\n") + "\n";
    printed(run("mls character new --faces 4,4,4,5,5,5,5").write_stdin(input))
}

#[test]
fn new_asks_step_by_step() {
    let answers = [
        step_by_step(),
        vec![
            "sword", // weapon
            "melee", // its kind
            "sword", "7", "", // no other weapon
        ],
    ]
    .concat();
    let (text, err) = new_answering(&answers);
    assert!(err.contains("62 CPs to spend."), "{err}");
    assert!(err.contains("strength (0 to 4, such as 3; 62 CPs left) [2]: 5\n  refused: 5 is outside 0..4: mls, Character Generation, Limits: \"No Primary Trait may ever naturally exceed the RAv+2"), "{err}");
    assert!(err.contains("refused: 3 traits at +2, 2 allowed: mls, Character Generation, Primary Traits: \"May have up to 2 traits at +2"), "{err}");
    assert!(
        err.contains("refused: base+5: mls, Character Generation, Limits"),
        "{err}"
    );
    assert!(err.contains("refused: 17: mls, Character Generation, Personality Traits: \"May be chosen as desired from 5 to 15"), "{err}");
    assert!(err.contains("nothing to go on; 50 CPs left)"), "{err}");
    assert!(err.contains("nothing to go on; 44 CPs left)"), "{err}");
    // 62 - 10 (two +2) - 2 (guard) - 6 (sword +2) - 5 (a Fate Point) = 39.
    assert!(text.contains("cps = 39"), "{text}");
    // chaste 16: one Fate Point; persistent rolled 4+4+4 = 12; bought 1: 2 in all.
    assert!(text.contains("persistent = 12"), "{text}");
    assert!(text.contains("fate_points = 2"), "{text}");
    // THP: Size 2 + Body 4 - 2 = 4d6 = 20, more than base x 3 = 12.
    assert!(text.contains("thp = 20"), "{text}");
    assert!(
        text.contains("name = \"sword\"\nskill = \"sword\"\ndam = 7"),
        "{text}"
    );
}

/// Issue 35, the character builder: a weapon's kind is asked (melee or
/// missile); a missile weapon's sort, range (mls, *Range*: "Each weapon has
/// a range according to its type and often the Strength of the user"; the
/// text has no table, so it is asked in squares) and reloading are asked;
/// and the builder ends by offering to save the sheet to a file, which is
/// then a combatant that shoots.
#[test]
fn new_asks_a_weapons_kind_and_range_and_offers_to_save() {
    let dir = folder("new-save");
    let file = dir.join("tess.toml");
    let taken = dir.join("taken.toml");
    std::fs::write(&taken, "not a sheet").unwrap();
    let (taken_name, file_name) = (arg(&taken), arg(&file));
    let answers = [
        step_by_step(),
        vec![
            "bow",     // a weapon
            "arrows",  // its kind: refused (melee or missile)
            "missile", // its kind
            "sword",   // used with
            "5",       // Dam
            "sling",   // its sort: refused
            "",        // bow
            "0",       // range 0: refused
            "25",      // range in squares
            "",        // no reloading
            "sword",   // another weapon
            "",        // melee
            "sword",
            "7",
            "",          // no other weapon
            &taken_name, // exists: refused
            &file_name,
        ],
    ]
    .concat();
    let (out, err) = new_answering(&answers);
    assert!(err.contains("  kind (melee or missile) [melee]: arrows\n  refused: melee (a close-combat weapon) or missile"), "{err}");
    assert!(err.contains("  sort (bow, thrown, or other such as a crossbow or gun, which also shoots to the right) [bow]: sling\n  refused: bow, thrown or other"), "{err}");
    assert!(err.contains("mls, Range: \"Each weapon has a range according to its type and often the Strength of the user\""), "{err}");
    assert!(err.contains("  range in squares (1 to 1000, such as 20): 0\n  refused: a range from 1 to 1000 squares"), "{err}");
    assert!(
        err.contains("Another weapon (a name such as bow; nothing when done)"),
        "{err}"
    );
    assert!(
        err.contains(
            "Save the sheet to a file (a new file name such as ada.toml; nothing to print it here)"
        ),
        "{err}"
    );
    assert!(
        err.contains("exists: a sheet is never overwritten by `new`"),
        "{err}"
    );
    assert!(err.contains(&format!("wrote {}", file.display())), "{err}");
    // Saved, the sheet is not printed.
    assert!(out.is_empty(), "{out}");
    let sheet = std::fs::read_to_string(&file).unwrap();
    assert!(
        sheet
            .contains("name = \"bow\"\nskill = \"sword\"\ndam = 5\nkind = \"missile\"\nrange = 25"),
        "{sheet}"
    );
    assert!(
        sheet.contains("name = \"sword\"\nskill = \"sword\"\ndam = 7"),
        "{sheet}"
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "not a sheet");
    // The saved sheet fights, and shoots with its bow.
    run(&format!(
        "mls fight {} examples/mls/duel/brigand.toml --distance 12 --seed 3",
        file.display()
    ))
    .assert()
    .success()
    .stdout(predicate::str::contains("Tess rolls shot"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_stops_when_the_answers_end() {
    run("mls character new --seed 1")
        .write_stdin("Tess\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the answers ended at the question \"Race (",
        ));
}

#[test]
fn advance_appends_to_the_ledger() {
    let file = scratch("hugo.toml");
    let f = file.display().to_string();
    // RULING P-52: adventure, then checks, then the year, then spending.
    // Average adventure, major role: 1d6 = 4; spear check 1d8 = 5 (base+2 needs 5): +3;
    // a year: +2 CPs; spending: swim base -> +1 (2 CPs), money 1 CP: 1d20 = 9 -> 90 florins.
    run(&format!("mls advance {f} --adventure average --role major --check spear --years 1 --spend secondary:swim --spend money:1 --faces 4,5,9 --write"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "age 18   adventure    +4 CP  4 CP(s): average adventure, major role [1d6 = 4]",
        ))
        .stdout(predicate::str::contains(
            "spear base+2 -> base+3 (needs 5+) [1d8 = 5]",
        ))
        .stdout(predicate::str::contains("age 19   income       +2 CP"))
        .stdout(predicate::str::contains("swim base -> base+1"))
        .stdout(predicate::str::contains("1 CP(s) to 90 florins"))
        .stdout(predicate::str::contains(
            "Hugo the Younger: 50 CP(s) unspent at age 19; saved",
        ));
    run(&format!("mls character check {f}")).assert().success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# A character written by hand"), "{text}");
    assert!(text.contains("florins = 90"));
    // The ledger was opened from the sheet: the generation comes first.
    assert!(text.contains("(ledger opened from the sheet)"));
    // The same trait cannot go up twice in a year through CPs.
    run(&format!("mls advance {f} --spend secondary:swim --seed 1"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Traits may never be increased by more than one level each year through CPs.",
        ));
}

#[test]
fn advance_needs_a_trait_to_reduce_at_40() {
    let file = scratch("veteran.toml");
    let f = file.display().to_string();
    run(&format!("mls advance {f} --years 17 --seed 1"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "at age 40 a primary trait other than Size must be reduced: name it (--reduce TRAIT)",
        ));
    let v = json_printed(&mut run(&format!(
        "mls advance {f} --years 17 --reduce mind --json --seed 1"
    )));
    assert_eq!(v["age"], 40);
    assert_eq!(v["written"], false);
    let last = v["entries"].as_array().unwrap().last().unwrap();
    assert_eq!(last["step"], "ageing");
    assert_eq!(last["change"], "mind 1 -> 0 (age 40)");
    // Not saved without --write.
    run(&format!("mls character check {f}"))
        .assert()
        .success()
        .stdout(predicate::str::contains("aged 23"));
}

#[test]
fn advance_refuses_a_broken_sheet() {
    nutshell()
        .args([
            "mls",
            "advance",
            &format!("{DIR}/broken/tampered-ledger.toml"),
            "--years",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing was changed"))
        .stderr(predicate::str::contains(
            "the ledger's entries add up to 48",
        ));
}

#[test]
fn behave_with_a_value() {
    run("mls behave --trait 17 --faces 18")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "a trait of 17 is Noticeable: 1d20 = 18 > 17: the character may act against it",
        ));
    run("mls behave --trait 16 --faces 16")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "not higher than 16: the character behaves by the trait",
        ));
    let out = run("mls behave --trait 12 --json").output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["noticeable"], false);
    assert_eq!(v["roll"], Value::Null);
    assert_eq!(v["acts_against"], true);
}

#[test]
fn behave_on_a_sheet_checks_the_opposite() {
    let file = scratch("brana.toml");
    let f = file.display().to_string();
    let out = run(&format!(
        "mls behave {f} --trait valorous --faces 19 --json --write"
    ))
    .output()
    .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value"], 16);
    assert_eq!(v["checks_opposite"], true);
    assert_eq!(v["opposite"], "cowardly");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("checks = [\"cowardly\"]"), "{text}");
    run(&format!("mls character check {f}")).assert().success();
    // The pending check is rolled by the next advance: cowardly 4, 1d20 = 5 -> 5.
    run(&format!("mls advance {f} --faces 5"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "cowardly 4 -> 5, valorous 16 -> 15 [1d20 = 5]",
        ));
}

#[test]
fn time_costs() {
    run("mls time cast-offensive --amount 5")
        .assert()
        .success()
        .stdout("cast-offensive: 3 combat action(s)  [mls, Time Costs of Actions]\n");
    run("mls time search")
        .assert()
        .success()
        .stdout(predicate::str::contains("1 turn(s) (Search roll required)"));
    run("mls time")
        .assert()
        .success()
        .stdout(predicate::str::contains("climb-ladder"));
}

#[test]
fn a_new_character_cannot_raise_at_once_what_generation_bought() {
    // RULING P-54; mls, Limits: "No Secondary Trait ... may begin above base+4": Brana's
    // sword was bought at base+2 at 21, so it waits for the next increment.
    let file = scratch("brana.toml");
    let f = file.display().to_string();
    run(&format!("mls advance {f} --spend secondary:sword --write"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "secondary.sword was bought at generation at age 21",
        ));
    run(&format!(
        "mls advance {f} --years 1 --spend secondary:sword"
    ))
    .assert()
    .success()
    .stdout(predicate::str::contains("sword base+2 -> base+3"));
}

#[test]
fn checks_cannot_be_rolled_without_end() {
    // RULING P-56; mls, Checks on Secondary Traits: "After an adventure is completed the
    // player may roll 1d8 ... No more than one roll may be made per trait".
    let file = scratch("veteran.toml");
    let f = file.display().to_string();
    let advance_checking_dodge = |extra: &[&str]| {
        let mut args = vec!["mls", "advance", f.as_str(), "--check", "dodge", "--write"];
        args.extend_from_slice(extra);
        nutshell().args(args).assert()
    };
    advance_checking_dodge(&["--faces", "8"])
        .code(2)
        .stderr(predicate::str::contains(
            "the last adventure was at age 21, and the character is 23",
        ));
    advance_checking_dodge(&["--adventure", "minor", "--role", "minor", "--faces", "8"]).success();
    advance_checking_dodge(&["--faces", "8"])
        .code(2)
        .stderr(predicate::str::contains(
            "already rolled for after this adventure",
        ));
    run(&format!("mls character check {f}")).assert().success();
}

#[test]
fn years_are_years() {
    // mls, Racial Differences: an Elf's increment is 4 years. `--years` counts years
    // (whole increments only); `--increments` counts increments.
    let dir = scratch("brana.toml");
    let f = dir.with_file_name("elf.toml").display().to_string();
    run(&format!("mls character new --name Ela --race elf --age 29 --occupation scout=awareness --seed 1 --out {f}"))
        .assert()
        .success();
    run(&format!("mls advance {f} --years 5"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--years 5: an Elf or Halfling ages by increments of 4 year(s)",
        ));
    let v = json_printed(&mut run(&format!("mls advance {f} --years 8 --json")));
    assert_eq!(v["age"], 37);
    let out = run(&format!("mls advance {f} --increments 2 --json"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["age"], 37);
}

#[test]
fn a_trait_is_given_once_and_is_secondary_or_negative() {
    // A repeated --secondary or --negative used to replace the earlier one silently.
    let base = [
        "mls",
        "character",
        "new",
        "--name",
        "Ada",
        "--occupation",
        "scholar=mind",
        "--seed",
        "1",
    ];
    let refused = |extra: &[&str], words: &str| {
        nutshell()
            .args(base)
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(words.to_string()));
    };
    refused(
        &[
            "--secondary",
            "lore=mind:trained:2",
            "--secondary",
            "lore=mind:trained:0",
        ],
        "--secondary lore=mind:trained:0: lore was already given",
    );
    refused(
        &["--negative", "greed=1", "--negative", "greed=0"],
        "--negative greed=0: greed was already given",
    );
    refused(
        &["--personality", "honest=12", "--personality", "honest=8"],
        "--personality honest=8: honest was already given",
    );
    // mls, Negative Traits: a negative trait yields CPs; the same name cannot also be a
    // secondary trait bought with them.
    refused(
        &[
            "--secondary",
            "greed=mind:trained:1",
            "--negative",
            "greed=1",
        ],
        "greed is a secondary trait too",
    );
    // The same on a sheet: check says so.
    let text = example_text("mls/characters/hugo.toml");
    let dir = std::env::temp_dir().join(format!(
        "nutshell-chars-{}-secondary-and-negative.toml",
        std::process::id()
    ));
    std::fs::write(
        &dir,
        format!("{text}\n[character.negative.swim]\nlevel = 1\n"),
    )
    .unwrap();
    run(&format!("mls character check {}", dir.display()))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "character.negative.swim: swim is a secondary trait too",
        ));
}

#[test]
fn new_names_fields_not_lines_of_a_sheet_never_shown() {
    // mls, Primary Traits: "May have up to 2 traits at +2": the refusal names the trait,
    // with no line of the (unwritten) sheet.
    let out = run("mls character new --name Ada --occupation scholar=mind --trait strength=4 --trait body=4 --trait agility=4 --seed 1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("traits.agility: 3 traits at +2"), "{e}");
    assert!(!e.contains("line "), "{e}");
}

/// Issue 14 item 15: "a sheet full of comments comes back with all of them
/// after an advancement" (the sheet is edited with toml_edit, not rewritten).
#[test]
fn advance_write_keeps_every_comment_of_the_sheet() {
    let file = scratch("brana.toml");
    let f = file.display().to_string();
    let original = std::fs::read_to_string(&file).unwrap();
    let mut notes = Vec::new();
    let mut commented = String::new();
    for (i, line) in original.lines().enumerate() {
        if line.starts_with('[') {
            let note = format!("# about the section below, note {i}");
            commented.push_str(&format!("{note}\n"));
            notes.push(note);
        }
        if line.contains(" = ") && !line.starts_with('#') {
            let note = format!("# note {i} for the player");
            commented.push_str(&format!("{line}  {note}\n"));
            notes.push(note);
        } else {
            commented.push_str(&format!("{line}\n"));
        }
    }
    commented.push_str("\n# The player's last words, at the very end.\n");
    notes.push("# The player's last words, at the very end.".into());
    std::fs::write(&file, &commented).unwrap();
    run(&format!("mls advance {f} --years 1 --write"))
        .assert()
        .success();
    let after = std::fs::read_to_string(&file).unwrap();
    for note in &notes {
        assert!(after.contains(note.as_str()), "lost {note:?}:\n{after}");
    }
    assert!(after.contains("age = 22"), "{after}");
    run(&format!("mls character check {f}")).assert().success();
}

/// Issue 14 item 16: a file over the size limit is refused before parsing,
/// with its size and the limit in the message.
#[test]
fn files_over_the_size_limit_are_refused_before_parsing() {
    let file = scratch("brana.toml");
    let f = file.display().to_string();
    let size = std::fs::metadata(&file).unwrap().len();
    run(&format!("mls character show {f} --max-file-size 100"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "is too large: {size} bytes, and the limit is 100 bytes"
        )));
    run(&format!("mls fight {f} {f} --max-file-size 100"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the limit is 100 bytes"));
}

/// Issue 14 item 4 (mls, *Checks on Secondary Traits*: "roll 1d8 for each
/// Secondary trait that has received a check"): a trait at base-2 whose roll
/// fails (a 1; it needs 2+) simply stays at base-2, and the advancement stands.
#[test]
fn a_failed_check_at_base_minus_2_keeps_the_advancement() {
    let file = scratch("brana.toml");
    let f = file.display().to_string();
    let advance = |faces: &str| {
        nutshell()
            .args([
                "mls",
                "advance",
                &f,
                "--adventure",
                "average",
                "--role",
                "major",
                "--check",
                "observe",
                "--faces",
                faces,
                "--write",
            ])
            .assert()
            .success()
            .stdout(predicate::str::contains("; saved"))
    };
    advance("4,1").stdout(predicate::str::contains(
        "observe stays at base-2 (needs 2+) [1d8 = 1]",
    ));
    run(&format!("mls character check {f}")).assert().success();
    // The next adventure's check on the same trait succeeds from base-2.
    advance("4,2").stdout(predicate::str::contains("observe base-2 -> base"));
    run(&format!("mls character check {f}")).assert().success();
}

/// Issue 14 item 6: "every command takes `--json`", `mls time` and
/// `character show` included.
#[test]
fn time_and_show_take_json() {
    let out = run("mls time climb-ladder --amount 3 --json")
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["cost"].as_i64(), v["unit"].as_str()),
        (Some(3), Some("movement-point"))
    );
    let out = run("mls time --json").output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 10);
    let out = nutshell()
        .args([
            "mls",
            "character",
            "show",
            &format!("{DIR}/brana.toml"),
            "--json",
            "--ledger",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["name"], "Brana");
    assert_eq!(v["age"], 21);
    assert_eq!(
        v["ledger"].as_array().unwrap().len(),
        v["ledger_entries"].as_u64().unwrap() as usize
    );
    let sword = v["secondary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["trait"] == "sword")
        .unwrap();
    // sword: trained, base dexterity 4, level +2: 6.
    assert_eq!(sword["score"], 6);
}

/// Issue 14 item 5 (mls, *Checks on Secondary Traits*): the checks earned in a
/// fight are listed at its end, and `--record` writes them to each sheet's
/// `checks`, ready for `mls advance`; nothing else of the sheet changes.
#[test]
fn a_fight_lists_its_checks_and_records_them_in_the_sheets() {
    let brana = scratch("brana.toml");
    let grishnak = scratch("grishnak.toml");
    let before = std::fs::read_to_string(&grishnak).unwrap();
    let out = run("mls fight")
        .arg(&brana)
        .arg(&grishnak)
        .args(["--seed", "5", "--record", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks: Vec<String> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["combatant"].as_str().unwrap(),
                c["trait"].as_str().unwrap()
            )
        })
        .collect();
    assert!(checks.contains(&"Grishnak axe".to_string()), "{checks:?}");
    let after = std::fs::read_to_string(&grishnak).unwrap();
    let added: Vec<&str> = after
        .lines()
        .filter(|l| !before.lines().any(|b| b == *l))
        .collect();
    assert_eq!(added, ["checks = [\"axe\"]"]);
    run("mls character check").arg(&grishnak).assert().success();
    run("mls advance")
        .arg(&grishnak)
        .args([
            "--adventure",
            "average",
            "--role",
            "major",
            "--faces",
            "5,1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "axe stays at base+1 (needs 4+) [1d8 = 1]",
        ));
}
