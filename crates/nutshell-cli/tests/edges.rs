//! The rules at their edges, as a referee meets them at the command line:
//! each test quotes the rule sentence or names the ruling it holds to.

mod support;

use predicates::prelude::*;
use support::*;

/// RULING N-1: "Overflow is an error, never a wrap." In rolls and odds alike.
#[test]
fn a_modifier_too_large_is_refused_not_wrapped() {
    for ruleset in [
        &["check", "fantasy", "--dc", "5"][..],
        &["check", "favor-3d6", "--dc", "5"][..],
        &["check", "tiered-d20", "--skill", "0", "--dc", "5"][..],
        &["check", "exploding-d6", "--score", "3", "--dc", "4"][..],
    ] {
        for odds in [false, true] {
            let mut cmd = nutshell();
            cmd.args(ruleset).arg("--mod").arg("9223372036854775807");
            if odds {
                cmd.arg("--odds");
            }
            cmd.assert()
                .code(2)
                .stderr(predicate::str::contains("overflow"));
        }
    }
}

/// Issue 14 item 11 (tiered-d20, *Rolling Dice* (RULING T-6)): each check of a
/// turn carries its own options; `--then 0:5` after a jam check is against DC 5.
#[test]
fn a_then_check_inherits_nothing_from_the_first() {
    let json = json_of("check tiered-d20 --jam-tier 1 --then 0:5 --faces 10,10");
    let checks = json["checks"].as_array().unwrap();
    assert_eq!(checks[0]["difficulty"], 11, "jam tier 1: DC 10 + 1");
    assert_eq!(checks[1]["difficulty"], 5);
    assert_eq!(checks[1]["outcome"], "success", "10 - 5 = 5 against DC 5");
}

/// Issue 14 item 7 (favor-3d6, *Favor and Disfavor*): "If you have enough
/// disfavor to roll zero dice, the test is automatically failed." (P-11)
#[test]
fn a_favor_side_with_no_dice_never_wins_a_contest() {
    let json = json_of("contest favor-3d6 --disfavor 3 --vs-mod=-15 --seed 4");
    assert_eq!(json["winner"], "second");
    let odds = json_of("contest favor-3d6 --disfavor 3 --vs-mod=-15 --odds");
    let second = odds["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == "second")
        .unwrap();
    assert_eq!(second["probability"], "1", "{odds}");
}

/// fantasy, *Take-10*: a take is measured against a DC; with none it is refused.
#[test]
fn take_without_a_dc_is_refused() {
    run("check fantasy --take 10")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--dc"));
}

/// Issue 14 item 14: "Goblin scouts, 1d6 of them" is rolled, not printed as
/// text, with the same dice (typed-in faces go on to the row's dice).
#[test]
fn table_rows_roll_their_dice_and_give_their_odds() {
    let file = "examples/tables/wilderness.toml";
    run(&format!("table {file} --faces 5,2,4"))
        .assert()
        .success()
        .stdout(
            "Wilderness encounters (d66: [5, 2] = 52): Goblin scouts, 4 of them\n  1d6 = [4] = 4\n",
        );
    let json = json_of(&format!("table {file} --faces 5,2,4"));
    assert_eq!(json["rolls"][0]["roll"]["dice"][0]["value"], 4);
    let odds = json_of(&format!("table {file} --odds"));
    let probabilities: Vec<&str> = odds["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["probability"].as_str().unwrap())
        .collect();
    assert_eq!(probabilities, ["1/3", "1/3", "1/4", "1/18", "1/36"]);
}
