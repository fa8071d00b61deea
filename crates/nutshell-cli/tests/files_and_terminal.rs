//! Issue 23, items 6 to 10, end to end: numbers out of range refused with
//! the field the user wrote (RULING N-1), files read as written, user text
//! never sent raw to a terminal, and sheets written in a way that respects
//! the file (links, mode, owner, read-only, no temporary file left).

mod support;

use predicates::prelude::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use support::*;

/// A copy of the example sheet Brana in a fresh folder (`name` tells the
/// folders apart when one is left behind).
fn brana(name: &str) -> std::path::PathBuf {
    let to = folder(name).join("brana.toml");
    std::fs::copy(
        Path::new(ROOT).join("examples/mls/characters/brana.toml"),
        &to,
    )
    .unwrap();
    to
}

fn advance(path: &Path) -> assert_cmd::assert::Assert {
    run("mls advance")
        .arg(path)
        .args(["--years", "1", "--write"])
        .assert()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ------------------------------------------------------------ item 6

/// RULING N-1: the amount of `mls time` is bounded (1..10000), never
/// halved into a negative number of combat actions.
#[test]
fn a_huge_amount_of_time_is_refused_with_its_range() {
    run("mls time cast-offensive --amount 9223372036854775807")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cast-offensive: the amount 9223372036854775807 is outside 1..10000",
        ))
        .stderr(predicate::str::contains("-4611686018427387904").not());
    run("mls time cast-offensive --amount 10000")
        .assert()
        .success()
        .stdout(predicate::str::contains("5000 combat action(s)"));
}

/// RULING N-1: `check exploding-d6` refuses a score that would overflow a
/// Result whether it rolls or computes odds (the odds once said 35/36).
#[test]
fn exploding_d6_odds_and_rolls_refuse_the_same_huge_score() {
    for extra in [&["--odds"][..], &["--seed", "1"][..]] {
        run("check exploding-d6 --score 9223372036854775807 --dc 5")
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "the score 9223372036854775807 is too large",
            ));
    }
}

/// RULING N-1: `character check` names the trait the player typed, not a
/// skill derived from it and wrapped.
#[test]
fn character_check_names_the_trait_typed() {
    let sheet = brana("typed");
    let text = std::fs::read_to_string(&sheet).unwrap();
    std::fs::write(
        &sheet,
        text.replace("dexterity = 4", "dexterity = 9223372036854775807"),
    )
    .unwrap();
    run("mls character check")
        .arg(&sheet)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "traits.dexterity: 9223372036854775807 is outside -100..100, the range of a primary trait",
        ))
        .stderr(predicate::str::contains("skills.").not());
}

// ------------------------------------------------------------ item 7

#[test]
fn a_long_bad_faces_value_is_cut() {
    let long = "x".repeat(100_000);
    let err = refusal(&mut run(&format!("roll 1d6 --faces {long}")));
    assert!(err.len() < 300, "{} bytes: {err:.200}", err.len());
    assert!(err.contains("… (100000 characters)"), "{err}");
}

#[test]
fn character_new_from_choices_never_cites_the_unwritten_sheet() {
    let dir = folder("choices");
    let choices = dir.join("choices.toml");
    let from = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/mls/characters/choices"
    );
    let example = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "toml"))
        .unwrap();
    let text = std::fs::read_to_string(example).unwrap();
    // A weapon whose Dam is out of range: only the sheet's check sees it.
    std::fs::write(
        &choices,
        format!("{text}\n[[weapons]]\nname = \"club\"\nskill = \"club\"\ndam = 5000\n"),
    )
    .unwrap();
    let err = refusal(run("mls character new --seed 1 --from").arg(&choices));
    assert!(!err.contains("the new sheet"), "{err}");
    assert!(err.contains(&format!("{}:", choices.display())), "{err}");
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

#[test]
fn a_table_error_says_error_once_and_rows_must_be_tables() {
    let dir = folder("table");
    let table = dir.join("t.toml");
    std::fs::write(
        &table,
        "dice = \"d6\"\n[[rows]]\nroll = \"1-6\"\nresult = \"[[99999999d6]]\"\n",
    )
    .unwrap();
    let out = nutshell().arg("table").arg(&table).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    std::fs::write(&table, "dice = \"d6\"\nrows = [[\"1-6\", \"a\"]]\n").unwrap();
    nutshell()
        .arg("table")
        .arg(&table)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 2: rows[0]: a list where a table is expected",
        ))
        .stderr(predicate::str::contains("RowFile").not());
}

// ------------------------------------------------------------ item 9

/// Names with terminal controls: an escape sequence (colour, window title),
/// BEL, NUL, a C1 control, a right-to-left override, a bare CR and LF.
const NASTY: &str = "Ev\u{1b}[31mil\u{1b}]0;owned\u{7}\u{0}\u{9b}2J\u{202e}kcab\r\n";
const NASTY_TOML: &str = "Ev\\u001b[31mil\\u001b]0;owned\\u0007\\u0000\\u009b2J\u{202e}kcab\\r\\n";

fn shows_nothing_raw(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for c in ['\u{1b}', '\u{7}', '\u{0}', '\u{9b}', '\u{202e}', '\r'] {
        assert!(!text.contains(c), "{c:?} printed raw:\n{text}");
    }
}

/// Two swordsmen in `dir`, `a.toml` named with terminal controls
/// ([`NASTY_TOML`]) and `b.toml` named Bob: their paths.
fn swordsmen(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let side = |name: &str| {
        format!(
            "name = \"{name}\"\nthp = 12\nskills = {{ sword = 12 }}\nweapons = [{{ name = \"sword\", skill = \"sword\", dam = 8 }}]\n"
        )
    };
    let (a, b) = (dir.join("a.toml"), dir.join("b.toml"));
    std::fs::write(&a, side(NASTY_TOML)).unwrap();
    std::fs::write(&b, side("Bob")).unwrap();
    (a, b)
}

#[test]
fn a_combatant_named_with_terminal_controls_is_shown_escaped() {
    let dir = folder("names");
    let (a, b) = swordsmen(&dir);
    let out = run("mls fight")
        .arg(&a)
        .arg(&b)
        .args(["--seed", "3"])
        .assert()
        .success();
    let stdout = out.get_output().stdout.clone();
    shows_nothing_raw(&stdout);
    let text = String::from_utf8(stdout).unwrap();
    assert!(text.contains("Ev\\u{1b}[31mil"), "{text}");
    assert!(text.contains("\\u{202e}kcab\\r\\n"), "{text}");
    // JSON keeps the name exact.
    let out = run("mls fight")
        .arg(&a)
        .arg(&b)
        .args(["--seed", "3", "--json"])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(json.to_string().contains("Ev\\u001b[31mil"), "{json}");
    // An error that quotes the name: a duplicate in one side.
    let dup = dir.join("dup.toml");
    std::fs::write(
        &dup,
        format!(
            "[[combatant]]\nname = \"{NASTY_TOML}\"\nthp = 5\n[[combatant]]\nname = \"{NASTY_TOML}\"\nthp = 5\n"
        ),
    )
    .unwrap();
    let out = run("mls fight").arg(&dup).arg(&b).assert().code(2);
    shows_nothing_raw(&out.get_output().stderr);
    // The name ends in CR LF: quoted in the error, it is escaped too, so
    // the error stays one line (issue 23, item 9: "bare CR/LF").
    let error = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(error.trim_end().lines().count(), 1, "{error}");
    assert!(error.contains("kcab\\r\\n"), "{error}");
}

/// Issue 23, item 9: `mls play` (questions and the fight on stderr, the
/// ending on stdout) and `mls simulate` (a side's name in its win row) show
/// a combatant's name escaped too.
#[test]
fn played_and_simulated_fights_show_names_escaped() {
    let dir = folder("played-names");
    let (a, b) = swordsmen(&dir);
    // Enter at every question: the engine's pick.
    let out = run("mls play")
        .arg(&a)
        .arg(&b)
        .args(["--seed", "3", "--distance", "3"])
        .write_stdin("\n".repeat(400))
        .assert()
        .success();
    shows_nothing_raw(&out.get_output().stdout);
    shows_nothing_raw(&out.get_output().stderr);
    let questions = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(questions.contains("Ev\\u{1b}[31mil"), "{questions}");
    let out = run("mls simulate")
        .arg(&a)
        .arg(&b)
        .args(["--trials", "20", "--seed", "1"])
        .assert()
        .success();
    shows_nothing_raw(&out.get_output().stdout);
    let rows = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(rows.contains("\\u{202e}kcab"), "{rows}");
}

#[test]
fn a_table_with_terminal_controls_is_shown_escaped() {
    let dir = folder("ctl-table");
    let table = dir.join("t.toml");
    std::fs::write(
        &table,
        format!(
            "title = \"{NASTY_TOML}\"\ndice = \"d6\"\n[[rows]]\nroll = \"1-6\"\nresult = \"{NASTY_TOML}\"\n"
        ),
    )
    .unwrap();
    for extra in [&["--seed", "1"][..], &["--odds"][..]] {
        let out = nutshell()
            .arg("table")
            .arg(&table)
            .args(extra)
            .assert()
            .success();
        shows_nothing_raw(&out.get_output().stdout);
    }
    let out = nutshell()
        .arg("table")
        .arg(&table)
        .args(["--seed", "1", "--json"])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["title"], NASTY);
}

#[test]
fn a_character_named_with_terminal_controls_is_shown_escaped() {
    let out = run("mls character new --seed 1 --age 18 --occupation soldier=dexterity --name")
        // An argument cannot hold NUL; everything else can.
        .arg(NASTY.replace('\u{0}', ""))
        .assert();
    let output = out.get_output();
    shows_nothing_raw(&output.stderr);
    // Redirected, the sheet is a file: the name exact (to a terminal, it is
    // shown escaped).
    let sheet: toml::Value = toml::from_str(&String::from_utf8_lossy(&output.stdout)).unwrap();
    assert_eq!(
        sheet["name"].as_str(),
        Some(NASTY.replace('\u{0}', "").as_str())
    );
}

// ------------------------------------------------------------ item 10

#[test]
fn a_write_through_a_symbolic_link_changes_the_real_sheet() {
    let real = brana("symlink");
    let dir = real.parent().unwrap();
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink("brana.toml", &link).unwrap();
    let before = std::fs::read_to_string(&real).unwrap();
    advance(&link)
        .success()
        .stdout(predicate::str::contains("saved"));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let after = std::fs::read_to_string(&real).unwrap();
    assert_ne!(before, after);
    assert!(after.contains("age = 22"), "{after}");
    assert_eq!(names_in(dir), ["brana.toml", "link.toml"]);
}

#[test]
fn a_write_keeps_hard_links_mode_and_owner() {
    let real = brana("hardlink");
    let dir = real.parent().unwrap();
    let other = dir.join("other-name.toml");
    std::fs::hard_link(&real, &other).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let inode = std::fs::metadata(&real).unwrap().ino();
    advance(&real).success();
    let meta = std::fs::metadata(&real).unwrap();
    assert_eq!(meta.ino(), inode, "the same file");
    assert_eq!(meta.nlink(), 2);
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(
        text.contains("age = 22"),
        "the other name sees the new sheet"
    );
    assert_eq!(names_in(dir), ["brana.toml", "other-name.toml"]);
    // Without other links, a rename: the mode stays too.
    let single = brana("mode");
    std::fs::set_permissions(&single, std::fs::Permissions::from_mode(0o600)).unwrap();
    advance(&single).success();
    let meta = std::fs::metadata(&single).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
}

#[test]
fn a_write_keeps_the_owner_where_the_writer_may_give_it() {
    let sheet = brana("owner");
    let mine = std::fs::metadata(&sheet).unwrap().uid();
    if mine != 0 {
        // Only root may give a file to another user; nothing to test here.
        return;
    }
    std::os::unix::fs::chown(&sheet, Some(4321), Some(4321)).unwrap();
    advance(&sheet).success();
    let meta = std::fs::metadata(&sheet).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    assert!(
        std::fs::read_to_string(&sheet)
            .unwrap()
            .contains("age = 22")
    );
}

#[test]
fn a_read_only_sheet_is_refused_and_left_alone() {
    let sheet = brana("readonly");
    std::fs::set_permissions(&sheet, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read_to_string(&sheet).unwrap();
    advance(&sheet)
        .code(2)
        .stderr(predicate::str::contains(
            "is read-only (mode 444): nothing was written",
        ))
        .stdout(predicate::str::contains("saved").not());
    assert_eq!(std::fs::read_to_string(&sheet).unwrap(), before);
    assert_eq!(names_in(sheet.parent().unwrap()), ["brana.toml"]);
}

/// A file size limit (`ulimit -f`) below the new sheet's size: the write
/// fails with an error (SIGXFSZ is ignored), the old sheet stays whole and
/// no temporary file is left (one was, on every try, before).
#[test]
fn a_file_size_limit_leaves_the_sheet_whole_and_no_temporary_file() {
    for hard_link in [false, true] {
        let sheet = brana(if hard_link { "fsize-linked" } else { "fsize" });
        let dir = sheet.parent().unwrap().to_path_buf();
        if hard_link {
            std::fs::hard_link(&sheet, dir.join("other.toml")).unwrap();
        }
        let before = std::fs::read_to_string(&sheet).unwrap();
        // Below the old sheet's size, in 1024-byte blocks (bash's unit; a
        // shell counting 512-byte blocks sets half of it: below too).
        let blocks = before.len() / 1024;
        assert!(blocks > 0);
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -f {blocks} && exec \"$0\" mls advance \"$1\" --years 1 --write"
            ))
            .arg(assert_cmd::cargo::cargo_bin("nutshell"))
            .arg(&sheet)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(err.contains("cannot write"), "{err}");
        assert_eq!(std::fs::read_to_string(&sheet).unwrap(), before);
        let expected: Vec<&str> = if hard_link {
            vec!["brana.toml", "other.toml"]
        } else {
            vec!["brana.toml"]
        };
        assert_eq!(names_in(&dir), expected);
    }
}

/// A label may hold characters the parser allows but a terminal obeys (a C1
/// control, ESC c, U+202E): the transcript shows them escaped, JSON exact.
#[test]
fn a_label_with_terminal_controls_is_shown_escaped() {
    let expr = "1d6[a\u{1b}c\u{9b}2J\u{202e}z]";
    for extra in [&[][..], &["--repeat", "2"][..]] {
        let out = run(&format!("roll --seed 1 {expr}"))
            .args(extra)
            .assert()
            .success();
        shows_nothing_raw(&out.get_output().stdout);
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(text.contains("a\\u{1b}c\\u{9b}2J\\u{202e}z"), "{text}");
    }
    let out = run(&format!("odds {expr}")).assert().success();
    shows_nothing_raw(&out.get_output().stdout);
    let out = run(&format!("roll --seed 1 --json {expr}"))
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(
        json.to_string().contains("\\u001bc\u{9b}2J\u{202e}z"),
        "{json}"
    );
}
