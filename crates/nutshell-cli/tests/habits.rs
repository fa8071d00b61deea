//! Issue "The second hour": what people type from habit, at the command
//! line, gets the roll they meant or an error with the command to type
//! (docs/notation.md, "Habits from other tools").

mod support;

use predicates::prelude::*;
use support::*;

/// Standard output and error of `nutshell ARGS`, which must succeed.
fn printed_by(args: &[&str]) -> (String, String) {
    printed(nutshell().args(args))
}

/// `nutshell roll d20 + 5`: arguments that only parse together are one roll.
#[test]
fn an_expression_split_over_arguments_is_one_roll() {
    for args in [
        &["roll", "d20", "+", "5", "--faces", "12"][..],
        &["d20", "+", "5", "--faces", "12"],
        &["roll", "d20", "+5", "--faces", "12"],
        &["roll", "d20+", "5", "--faces", "12"],
    ] {
        nutshell()
            .args(args)
            .assert()
            .success()
            .stdout("1d20 + 5 = [12] + 5 = 17\n");
    }
    // A lone `-` between two arguments subtracts; alone it still reads stdin.
    run("roll 2d6 - 1 --faces 3,4")
        .assert()
        .success()
        .stdout("2d6 - 1 = [3, 4] - 1 = 6\n");
    run("roll - --faces 3")
        .write_stdin("1d6\n")
        .assert()
        .success()
        .stdout("1d6 = [3] = 3\n");
    // Separate expressions stay separate rolls.
    run("roll 1d6 1d4 --faces 6,2")
        .assert()
        .success()
        .stdout("1d6 = [6] = 6\n1d4 = [2] = 2\n");
    // Still wrong together: the error shows the command quoted.
    run("roll d20 + --seed 1")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "the arguments `d20 +` were read as one expression; quote an expression with spaces: nutshell roll 'd20 +'",
        ));
}

/// `nutshell odds d20 + 5`: as for `roll`, arguments that only parse
/// together are one expression, and its odds are those of the quoted one;
/// expressions that each parse stay columns side by side.
#[test]
fn odds_of_an_expression_split_over_arguments_are_its_odds() {
    for (split, quoted) in [
        (&["odds", "d20", "+", "5"][..], "d20 + 5"),
        (&["odds", "3d6", "-", "2"], "3d6 - 2"),
        (&["odds", "2d6", ">=", "7"], "2d6 >= 7"),
        (&["odds", "4d6kh3", "+2"], "4d6kh3 +2"),
    ] {
        let (joined, _) = printed_by(split);
        let (one, _) = printed_by(&["odds", quoted]);
        assert_eq!(joined, one, "{split:?}");
    }
    let (columns, _) = printed_by(&["odds", "1d6", "1d4"]);
    let (first, _) = printed_by(&["odds", "1d6"]);
    assert_ne!(columns, first, "two expressions are compared side by side");
}

/// `1d20+5 vs 15`: the comparison `>=`, with a note; not a label.
#[test]
fn versus_compares_the_total() {
    let (out, err) = printed_by(&["1d20+5", "vs", "15", "--faces", "10"]);
    assert!(out.starts_with("1d20 + 5 >= 15 = "), "{out}");
    assert!(out.ends_with(" = 1\n"), "{out}");
    assert!(err.contains("read as `>= 15`"), "{err}");
    let (out, _) = printed_by(&["roll", "1d20+5 vs 15", "--faces", "9"]);
    assert!(out.ends_with(" = 0\n"), "{out}");
    // The exact odds are those of `>=`.
    let (versus, _) = printed_by(&["odds", "1d20+5 vs 15", "--json"]);
    let (at_least, _) = printed_by(&["odds", "1d20+5 >= 15", "--json"]);
    let p = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        v["distribution"].clone()
    };
    assert_eq!(p(&versus), p(&at_least));
    assert_eq!(p(&versus)[1]["probability"], "11/20");
}

/// `6#4d6kh3`: six rolls, as `--repeat 6`, with a note.
#[test]
fn a_count_and_hash_rolls_that_many_times() {
    let (out, err) = printed_by(&["roll", "6#4d6kh3", "--seed", "7"]);
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(out.lines().all(|l| l.starts_with("4d6kh3 = [")), "{out}");
    assert!(
        err.contains("rolls `4d6kh3` 6 times (as --repeat 6)"),
        "{err}"
    );
    let (repeated, _) = printed_by(&["roll", "4d6kh3", "--repeat", "6", "--seed", "7"]);
    assert_eq!(out, repeated);
    // With --repeat, both count.
    let (out, _) = printed_by(&["roll", "2#1d6", "--repeat", "3", "-q", "--seed", "1"]);
    assert_eq!(out.lines().count(), 6, "{out}");
    run("roll 1000#1d6 --repeat 1000000")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the most is 1000000"));
    // The exact odds refuse it naming the repetition.
    run("odds 6#4d6kh3")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`6#` asks for 6 rolls of `4d6kh3`",
        ));
}

/// `1d20cs>19` alone: the total is a count, and the roll says so.
#[test]
fn a_critical_mark_that_counts_is_noted() {
    let (out, err) = printed_by(&["roll", "1d20cs>19", "--faces", "8"]);
    assert_eq!(out, "1d20>=20 = [8] = 0\n");
    assert!(
        err.contains("note: `1d20cs>19` counts successes (the dice that match `cs>19`): the total is how many; in Roll20 `cs>19` only marks a critical: for the dice's total write `1d20`"),
        "{err}"
    );
}

/// AnyDice's brackets and `output`, and attribute references: a hint.
#[test]
fn other_languages_get_the_expression_to_type() {
    for (text, hint) in [
        ("[highest 3 of 4d6]", "did you mean `4d6kh3`?"),
        ("[lowest 1 of 2d20]", "did you mean `2d20kl1`?"),
        ("output 3d6", "did you mean `3d6`?"),
        ("1d20+@str", "as in `1d20+3`"),
    ] {
        for command in ["odds", "roll"] {
            nutshell()
                .args([command, text])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(hint));
        }
    }
}

/// `mls play --engine b` takes a side as `--surprised` does; the ending's
/// "Winner:" line is printed once.
#[test]
fn mls_play_takes_a_side_letter_and_names_the_winner_once() {
    let play = |engine: [&str; 4]| printed(run(&format!("mls play {DUEL} --seed 7")).args(engine));
    let (out, err) = play(["--engine", "a", "--engine", "B"]);
    let (named_out, named_err) = play(["--engine", "Sir Aldric", "--engine", "Black Wat"]);
    assert_eq!((&out, &err), (&named_out, &named_err));
    let winners = out.matches("Winner:").count() + err.matches("Winner:").count();
    let draws = out.matches("A draw:").count() + err.matches("A draw:").count();
    assert_eq!(winners + draws, 1, "{out}\n{err}");
    assert!(
        out.starts_with("Winner:") || out.starts_with("A draw:"),
        "{out}"
    );
    run(&format!("mls play {DUEL} --engine c"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("or a and b"));
}
