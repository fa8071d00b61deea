//! The `nutshell` binary, end to end: output, JSON, exit codes, errors on stderr.

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::{json_of, json_printed, nutshell, odds_of, outcome, run, stdout_of};

#[test]
fn roll_with_typed_faces_prints_the_transcript() {
    run("roll 4d6kh3 --faces 6,5,3,1")
        .assert()
        .success()
        .stdout("4d6kh3 = [6, 5, 3, (1)] = 14\n")
        .stderr("");
}

#[test]
fn a_seed_gives_the_same_roll_every_time() {
    let first = run("roll 10d6! --seed 99").output().unwrap();
    let second = run("roll 10d6! --seed 99").output().unwrap();
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
    // Pinned: seed 1 rolls 3, 2, 2, 2 on four d6 (the generator never changes).
    run("roll 4d6 --seed 1")
        .assert()
        .success()
        .stdout("4d6 = [3, 2, 2, 2] = 9\n");
}

#[test]
fn json_prints_one_object_per_roll() {
    let output = nutshell()
        .args([
            "roll",
            "2d6[fire] + 1d4[cold]",
            "1d20",
            "--faces",
            "3,5,2,17",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["expression"], "2d6[fire] + 1d4[cold]");
    assert_eq!(lines[0]["total"], 10);
    assert_eq!(lines[0]["dice"].as_array().unwrap().len(), 3);
    assert_eq!(lines[0]["dice"][0]["faces"][0]["face"], 3);
    assert_eq!(lines[0]["dice"][2]["label"], "cold");
    assert_eq!(lines[1]["expression"], "1d20");
    assert_eq!(lines[1]["total"], 17);
}

#[test]
fn repeat_and_quiet_print_totals() {
    run("roll 1d6 --faces 1,2,3 --repeat 3 --quiet")
        .assert()
        .success()
        .stdout("1\n2\n3\n");
}

#[test]
fn bad_notation_exits_2_with_a_caret_on_stderr() {
    run("roll 4d6+").assert().code(2).stdout("").stderr(
        "error: expected a number, a die, `(`, `{` or a function after `+`\n  4d6+\n      ^\n",
    );
}

#[test]
fn a_bad_expression_rolls_nothing() {
    run("roll 1d6 2d --faces 4")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "expected the sides of the die after `d`",
        ));
}

#[test]
fn too_few_faces_names_the_die() {
    run("roll 4d6kh3 --faces 6,5")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "ran out of faces: die 3 (a d6 of `4d6kh3`) needs a face, but only 2 were given",
        ));
}

#[test]
fn a_face_the_die_cannot_show_is_refused() {
    run("roll 2d6 --faces 6,7")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("face 7 is not on a d6: die 2"));
}

#[test]
fn leftover_faces_are_a_warning() {
    run("roll 1d6 --faces 6,5")
        .assert()
        .success()
        .stdout("1d6 = [6] = 6\n")
        .stderr("warning: 1 of the faces given was not used (the roll needed 1)\n");
}

#[test]
fn bad_flags_exit_2() {
    run("roll 1d6 --seed banana").assert().code(2);
    run("roll 1d6 --faces 1,x")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--faces: face 2 of the list, `x`, is not a whole number",
        ));
    run("roll 1d6 --seed 1 --faces 1").assert().code(2);
    run("roll").assert().code(2);
    run("roll 1d6 --repeat 0").assert().code(2);
    run("frobnicate").assert().code(2);
}

#[test]
fn limits_are_set_from_the_command_line() {
    run("roll 20d6 --max-dice 10")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "20 dice is too many: the limit is 10 dice per roll",
        ));
    run("roll 1d6! --faces 6,6,6 --max-explosions 2")
        .assert()
        .success()
        .stdout("1d6! = [6!+6!+6…] = 18\n");
}

#[test]
fn expressions_can_come_from_standard_input() {
    run("roll - --faces 4,1,2")
        .write_stdin("1d6\n\n2d4 - 1\n")
        .assert()
        .success()
        .stdout("1d6 = [4] = 4\n2d4 - 1 = [1, 2] - 1 = 2\n");
}

/// A bad line among several names its line and says that nothing was rolled
/// (every expression is read before any die is rolled).
#[test]
fn a_bad_line_of_standard_input_is_named() {
    run("roll - --seed 1")
        .write_stdin("1d6\n\nbad\n3d6\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: line 3 of standard input (nothing was rolled): unknown function",
        ));
}

#[test]
fn a_megabyte_expression_is_refused_quickly() {
    run("roll -")
        .write_stdin("+1".repeat(500_000))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the expression is 1000000 characters long; the limit is 10000",
        ));
}

#[test]
fn deep_nesting_up_to_the_ceiling_does_not_overflow_the_stack() {
    let deep = format!("{}1d6{}", "(".repeat(999), ")".repeat(999));
    run("roll - --max-nesting 1000 --max-length 5000 --faces 4")
        .write_stdin(deep)
        .assert()
        .success()
        .stdout("1d6 = [4] = 4\n");
    run("roll 1d6 --max-nesting 1001").assert().code(2);
}

/// A short `odds` runs on the main thread, a long one on a thread with a
/// large stack: the deepest nesting of each runs to its answer.
#[test]
fn odds_nested_as_deep_as_its_length_allows_runs_on_either_thread() {
    // 64 bytes (the most the main thread takes): 30 levels.
    let short = format!("{}1d6{}", "(".repeat(30), ")".repeat(30));
    assert!(short.len() <= 64);
    nutshell()
        .args(["odds", &short, "--json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"expression\":\"1d6\""));
    let deep = format!("{}1d6{}", "(".repeat(999), ")".repeat(999));
    nutshell()
        .args([
            "odds",
            &deep,
            "--json",
            "--max-nesting",
            "1000",
            "--max-length",
            "5000",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"expression\":\"1d6\""));
}

#[test]
fn help_shows_examples() {
    run("roll --help").assert().success().stdout(
        predicate::str::contains("Examples:").and(predicate::str::contains("--faces 6,5,3,1")),
    );
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        nutshell()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("nutshell"));
    }
    run("completions tcsh").assert().code(2);
}

#[test]
fn colour_is_off_when_piped() {
    let output = nutshell()
        .env_remove("NO_COLOR")
        .args(["roll", "4d6kh3", "--faces", "6,5,3,1"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "4d6kh3 = [6, 5, 3, (1)] = 14\n"
    );
}

// ---- nutshell odds ----

#[test]
fn odds_json_lists_exact_fractions_in_lowest_terms() {
    let json = odds_of("3d6");
    assert_eq!(json["expression"], "3d6");
    let dist = json["distribution"].as_array().unwrap();
    assert_eq!(dist.len(), 16);
    assert_eq!(
        dist[0],
        serde_json::json!({"value": 3, "probability": "1/216"})
    );
    assert_eq!(
        dist[7],
        serde_json::json!({"value": 10, "probability": "1/8"})
    );
    assert_eq!(json["mean"], "21/2");
    assert_eq!(json["tail"], "0");
    let values: Vec<i64> = dist.iter().map(|d| d["value"].as_i64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn odds_of_the_issue_examples() {
    assert_eq!(odds_of("4d6dl1")["mean"], "15869/1296");
    assert_eq!(odds_of("2d20kh1")["mean"], "553/40");
}

#[test]
fn odds_report_the_tail_of_explosions() {
    let json = odds_of("1d6! --max-explosions 2");
    assert_eq!(json["tail"], "1/216");
    let json = odds_of("1d6! --max-explosions 2 --at-least 7");
    assert_eq!(
        json["at_least"],
        serde_json::json!({"value": 7, "probability": "1/6"})
    );
    let json = json_printed(nutshell().args(["odds", "3d6! >= 20", "--json"]));
    assert_eq!(json["tail"], "0");
    assert_eq!(json["distribution"][1]["value"], 1);
}

#[test]
fn odds_at_most() {
    let json = odds_of("2d6 --at-most 7");
    assert_eq!(json["at_most"]["probability"], "7/12");
}

#[test]
fn odds_table_shows_fractions_percentages_and_bars() {
    run("odds 2d6 --at-least 10").assert().success().stdout(
        predicate::str::contains("1/6")
            .and(predicate::str::contains("16.6667%"))
            .and(predicate::str::contains("█"))
            .and(predicate::str::contains("mean 7"))
            .and(predicate::str::contains("P(total >= 10) = 1/6 (16.67%)")),
    );
}

#[test]
fn odds_refusals_suggest_simulation() {
    run("odds 1d1000000000")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--simulate"));
    nutshell()
        .args(["odds", "1d6 / (1d2 - 1)"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the divisor can be 0"));
}

#[test]
fn odds_simulated_gives_intervals_that_cover_the_truth() {
    let output = run("odds 2d6 --simulate 400000 --json --seed 3")
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["simulated"], 400_000);
    let seven = json["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["value"] == 7)
        .unwrap();
    let (low, high) = (
        seven["low"].as_f64().unwrap(),
        seven["high"].as_f64().unwrap(),
    );
    assert!(low < 1.0 / 6.0 && 1.0 / 6.0 < high, "{low} {high}");
    let mean = json["mean_interval"].as_array().unwrap();
    assert!(mean[0].as_f64().unwrap() < 7.0 && 7.0 < mean[1].as_f64().unwrap());
    // The same seed gives the same estimate.
    let again = run("odds 2d6 --simulate 400000 --json --seed 3")
        .output()
        .unwrap();
    assert_eq!(output.stdout, again.stdout);
}

// ---- nutshell check / contest / table ----

#[test]
fn check_json_has_the_outcome_and_transcript() {
    let json = json_of("check tiered-d20 --skill 0 --dc 10 --edge 3 --faces 4,7");
    assert_eq!(json["ruleset"], "tiered-d20");
    assert_eq!(json["outcome"], "success");
    assert_eq!(json["natural"], 7);
    assert_eq!(json["total"], 11);
    assert!(
        json["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["rule"].as_str().unwrap().contains("Gaining Edge"))
    );
    let json = json_of("check mls --skill 3 --faces 1,1,1");
    assert_eq!(json["outcome"], "fumble");
    let json = json_of("check exploding-d6 --score 9 --dc 3 --faces 1,1");
    assert_eq!(json["outcome"], "botch");
    assert_eq!(
        json["experience"],
        serde_json::json!([{"character": "the roller", "points": 1}])
    );
}

#[test]
fn check_odds_json_lists_outcome_probabilities() {
    let json = json_of("check fantasy --mod 5 --dc 15 --odds");
    assert_eq!(outcome(&json, "success")["probability"], "11/20");
    let json = json_of("check favor-3d6 --dc 10 --odds");
    let crit = outcome(&json, "critical-success");
    assert_eq!(crit["probability"], "1/216");
}

#[test]
fn fantasy_descriptors_and_negative_modifiers() {
    let json = json_of("check fantasy --mod=-2 --mod 3 --dc Routine --faces 9");
    assert_eq!(json["total"], 10);
    assert_eq!(json["difficulty"], 10);
    assert_eq!(json["outcome"], "success");
}

#[test]
fn forbidden_requests_quote_the_rule() {
    run("check fantasy --take 20 --stressful --dc 10")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot take-20 in stressful situations",
        ));
    run("check fantasy --dc 10 --reroll --forced-reroll --faces 3,4,5")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "No roll can be rerolled more than once",
        ));
    run("check mls --favor 1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--favor is not an option of mls"));
    run("check fantasy --dc tough").assert().code(2);
    run("check exploding-d6 --score 2")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs the Difficulty #"));
    run("contest fantasy")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no contests"));
}

#[test]
fn contests() {
    let json = json_of("contest favor-3d6 --mod 2 --pc --vs-mod 2 --faces 3,3,3,3,3,3");
    assert_eq!(json["winner"], "first");
    let json = json_of("contest mls --skill 5 --vs-skill 5 --odds");
    assert_eq!(json["outcomes"].as_array().unwrap().len(), 2);
    let json = json_of("contest exploding-d6 --score 2 --vs-score 2 --odds");
    let first = outcome(&json, "first");
    assert_eq!(first["probability"], "1/2");
}

#[test]
fn tables_roll_a_row() {
    run("table examples/tables/wilderness.toml --faces 6,6")
        .assert()
        .success()
        .stdout("Wilderness encounters (d66: [6, 6] = 66): A dragon, asleep\n");
    run("table /nonexistent.toml")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

/// RULING F-6 (fantasy, Degree of Success and Magnitude Rolls): "Magnitude
/// checks default to 1d6 + the same ability modifier as the check. Improvised
/// tools: d4 or d3; superior: d8 or d12." (tool names and `--ability`: P-30)
/// "you apply the same ability score to magnitude checks as applied to the
/// original check": the skill modifier (`--mod`) stays out of the pool.
#[test]
fn fantasy_magnitude_defaults_to_1d6_plus_the_ability() {
    let skill_and_ability = "check fantasy --dc 10 --mod 2 --ability 3 --magnitude";
    let json = json_of(&format!("{skill_and_ability} --faces 8,4"));
    assert_eq!(json["total"], 13, "the check adds both");
    assert_eq!(
        json["effect"]["expression"], "1d6 + 3",
        "the pool adds the ability alone"
    );
    let json = json_of("check fantasy --dc 10 --mod 3 --magnitude --faces 15,4");
    assert_eq!(
        json["effect"]["expression"], "1d6",
        "no ability given, none added"
    );
    let base = "check fantasy --dc 10 --ability 3";
    let json = json_of(&format!("{base} --magnitude --faces 15,4"));
    assert_eq!(json["effect"]["expression"], "1d6 + 3");
    assert_eq!(json["effect"]["total"], 7);
    let json = json_of(&format!("{base} --tools improvised --faces 15,4"));
    assert_eq!(json["effect"]["expression"], "1d4 + 3");
    let json = json_of(&format!("{base} --tools superior-trained --faces 15,11"));
    assert_eq!(json["effect"]["total"], 14);
    let json = json_of(&format!("{base} --tools improvised-poor --faces 15,2"));
    assert_eq!(json["effect"]["expression"], "1d3 + 3");
    // An explicit pool is rolled as given.
    let json = json_of(&format!("{base} --effect 1d6 --faces 15,4"));
    assert_eq!(json["effect"]["total"], 4);
    // No magnitude unless asked for.
    let json = json_of(&format!("{base} --faces 15"));
    assert!(json.get("effect").is_none());
    // Exact odds include it, on success and on a critical (doubled: 2d6 + 6).
    let json = json_of(&format!("{base} --magnitude --crit-success --odds"));
    let effects = json["effects"].as_array().unwrap();
    assert_eq!(effects[0]["expression"], "1d6 + 3");
    assert_eq!(effects[0]["mean"], "13/2");
    assert_eq!(effects[1]["expression"], "2d6 + 6");
    // Step changes apply to the default pool: d6 -> d8.
    let json = json_of(&format!("{base} --magnitude --step 1 --faces 15,8"));
    assert_eq!(json["effect"]["expression"], "1d8 + 3");
    run(&format!("{base} --magnitude --effect 1d6"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    run("check mls --magnitude")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--magnitude is not an option of mls",
        ));
}

#[test]
fn inapplicable_flags_are_refused() {
    // mls, Use of Skills: the difficulty is fixed (15 success, 20 critical).
    run("check mls --dc 12 --faces 3,3,3")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--dc is not an option of mls"));
    // tiered-d20 has no contests, whatever the flags.
    run("contest tiered-d20 --skill 3 --vs-skill 2")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tiered-d20 has no contests"));
    run("contest fantasy --score 3")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fantasy has no contests"));
    run("check mls --reroll")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--reroll is not an option of mls"));
}

/// tiered-d20, *Rolling Dice*: "second check taking a -5 penalty" (RULING T-6)
/// and the jam's "+5 cumulative bonus per attempt after the first" (RULING
/// T-8) count checks and attempts from 1: a 0th is refused, not read as the first.
#[test]
fn tiered_d20_counts_actions_and_attempts_from_one() {
    for args in [
        ["--action", "0", "--dc", "10"],
        ["--jam-tier", "2", "--attempt", "0"],
    ] {
        run("check tiered-d20 --skill 0 --faces 10")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("from 1"));
    }
}

/// tiered-d20, Advantage & Disadvantage: "you can reroll only one of the dice"
/// (P-31: the lower, on a failure).
#[test]
fn tiered_d20_reroll() {
    let json = json_of("check tiered-d20 --skill 0 --dc 11 --advantage --reroll --faces 3,5,12");
    assert_eq!(json["outcome"], "success");
    assert_eq!(json["natural"], 12);
    assert_eq!(json["dice"].as_array().unwrap().len(), 3);
    let json = json_of("check tiered-d20 --skill 0 --dc 11 --reroll --odds");
    let failure = outcome(&json, "failure");
    assert_eq!(failure["probability"], "9/40");
}

/// favor-3d6, Contesting (RULING V-3): each side's JSON carries its own steps.
#[test]
fn favor_contest_sides_have_transcripts() {
    let json = json_of("contest favor-3d6 --mod 1 --vs-favor 1 --faces 2,3,4,6,6,6,1");
    assert_eq!(json["winner"], "second");
    let a = json["sides"][0]["transcript"].as_array().unwrap();
    let b = json["sides"][1]["transcript"].as_array().unwrap();
    assert!(
        a[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("A: dice [2, 3, 4]")
    );
    assert!(
        b.iter()
            .any(|s| s["text"].as_str().unwrap().contains("three or more 6s"))
    );
    // The text output shows them too.
    run("contest favor-3d6 --mod 1 --vs-favor 1 --faces 2,3,4,6,6,6,1")
        .assert()
        .success()
        .stdout(predicate::str::contains("B: three or more 6s"));
}

/// An expression may start with a hyphen, and flags after it still work.
#[test]
fn an_expression_may_start_with_a_hyphen() {
    run("roll -1d4+5 --faces 3")
        .assert()
        .success()
        .stdout("-1d4 + 5 = -[3] + 5 = 2\n");
    run("roll -1d4+5 2d6 --faces 3,1,2 -q")
        .assert()
        .success()
        .stdout("2\n3\n");
    run("roll --faces 2,1 1d6 -- -1d4")
        .assert()
        .success()
        .stdout("1d6 = [2] = 2\n-1d4 = -[1] = -1\n");
}

// Issue "A newcomer's first hour", item 4: the command line a person expects.

#[test]
fn an_expression_as_the_first_argument_rolls_it() {
    run("1d20+5 --faces 12")
        .assert()
        .success()
        .stdout("1d20 + 5 = [12] + 5 = 17\n");
    run("-1d4+5 --faces 2")
        .assert()
        .success()
        .stdout("-1d4 + 5 = -[2] + 5 = 3\n");
    // A word that is neither a subcommand nor an expression is clap's to answer.
    run("rol 3d6")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a similar subcommand exists: 'roll'",
        ));
}

#[test]
fn words_after_an_expression_are_its_label() {
    run("roll 1d20+5 to hit --faces 12")
        .assert()
        .success()
        .stdout("(1d20 + 5)[to hit] = ([12] + 5)[to hit] = 17\n");
    // `dF` is an expression, not a word of flavour.
    run("roll 1d6 dF --faces 3,-1")
        .assert()
        .success()
        .stdout("1d6 = [3] = 3\n1dF = [-1] = -1\n");
    run("roll 1d20 adv")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `2d20kh1`?"));
}

#[test]
fn a_success_count_added_to_a_number_is_noted_at_the_roll() {
    run("roll 1d20cs20+5 --faces 20")
        .assert()
        .success()
        .stdout("1d20=20 + 5 = [20✓] + 5 = 6\n")
        .stderr(
            predicate::str::contains("note: `1d20cs20` counts successes")
                .and(predicate::str::contains("write `1d20+5`")),
        );
}

#[test]
fn odds_of_a_comparison_lead_with_the_answer() {
    nutshell()
        .args(["odds", "1d20+5 >= 15"])
        .assert()
        .success()
        .stdout("P(1d20 + 5 >= 15) = 11/20 (55%)\n");
    nutshell()
        .args(["odds", "1d20 >= 11", "2d20kh1 >= 11"])
        .assert()
        .success()
        .stdout("P(1d20 >= 11) = 1/2 (50%)\nP(2d20kh1 >= 11) = 3/4 (75%)\n");
    // Flavour text stays with its answer.
    nutshell()
        .args(["odds", "1d20+5 >= 15 to hit", "2d20kh1+5 >= 15 # advantage"])
        .assert()
        .success()
        .stdout("P(1d20 + 5 >= 15) = 11/20 (55%) [to hit]\nP(2d20kh1 + 5 >= 15) = 319/400 (79.75%) [advantage]\n");
}

#[test]
fn odds_of_several_expressions_stand_side_by_side() {
    let out = run("odds 4d6kh3 3d6 2d6+7").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().next().unwrap();
    for name in ["value", "4d6kh3", "3d6", "2d6 + 7"] {
        assert!(header.contains(name), "{header}");
    }
    // 3d6 shows 10 with 1/8; 2d6 + 7 cannot show 3; 4d6kh3 cannot show 19.
    let row = |v: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(v))
            .unwrap_or_else(|| panic!("no row {v}: {text}"))
            .to_string()
    };
    assert!(row("10").contains("12.5000%"), "{}", row("10"));
    assert_eq!(row("3").matches('%').count(), 2, "{}", row("3"));
    assert_eq!(row("19").matches('%').count(), 1, "{}", row("19"));
    assert!(row("mean").contains("10.5000") && row("mean").contains("14.0000"));
    // JSON: one object a line, each as the single command prints it.
    let out = run("odds 3d6 1d6 --json").output().unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["expression"], "1d6");
    assert_eq!(lines[1]["distribution"][0]["probability"], "1/6");
}

#[test]
fn roll_help_has_a_cheat_sheet_and_no_limits_of_exact_odds() {
    let out = run("roll --help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("Notation"), "{help}");
    assert!(help.contains("2d20kh1  2d20kl1"), "{help}");
    for odds_only in ["--max-work", "--max-outcomes", "--tail"] {
        assert!(!help.contains(odds_only), "{odds_only} in roll --help");
    }
    let out = run("odds --help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for odds_only in ["--max-work", "--max-outcomes", "--tail"] {
        assert!(
            help.contains(odds_only),
            "{odds_only} missing from odds --help"
        );
    }
}

// Issue "A newcomer's first hour", item 5: checks and contests read the same everywhere.

#[test]
fn checks_show_the_dice_they_rolled() {
    // mls: the faces, as a contest and a fight show them.
    let mls = stdout_of("check mls --skill 12 --faces 4,3,4");
    assert!(
        mls.starts_with("  rolled 3d6 [4, 3, 4] for the check\n"),
        "{mls}"
    );
    // tiered-d20: its d20, with or without edges.
    let tiered = stdout_of("check tiered-d20 --skill 4 --dc 14 --faces 15");
    assert!(
        tiered.starts_with("  rolled 1d20 [15] for the check\n"),
        "{tiered}"
    );
    let edged = stdout_of("check tiered-d20 --skill 0 --dc 10 --edge 3 --faces 4,7");
    assert!(
        edged.starts_with("  rolled 1d20 [4] for the check; 1d8 [7] for the edge gained\n"),
        "{edged}"
    );
}

#[test]
fn a_botch_check_die_is_not_listed_among_the_dice_that_add_up() {
    // exploding-d6, Botch (1) (RULING X-3): a 1 rolls a second die that only checks for a botch.
    let text = stdout_of("contest exploding-d6 --score 3 --vs-score 2 --faces 1,3,3");
    assert!(
        text.starts_with(
            "first: 1d6 [1] for side A; 1d6 [3] botch check for side A; total 4: failure\n"
        ),
        "{text}"
    );
}

#[test]
fn a_tied_favor_contest_is_a_tie_won_or_lost_on_the_tie_break() {
    // favor-3d6, Tie Breakers (RULING V-3): equal totals, everything equal, a d2 decides.
    let text = stdout_of("contest favor-3d6 --mod 2 --vs-mod 2 --faces 5,1,3,4,4,1,1");
    assert!(
        text.contains("total 11: a tie, won on the tie-break"),
        "{text}"
    );
    assert!(
        text.contains("total 11: a tie, lost on the tie-break"),
        "{text}"
    );
    assert!(
        !text.contains(": success\n") && !text.contains(": failure\n"),
        "{text}"
    );
    assert!(text.contains("1d2 [1] to break the tie"), "{text}");
}

#[test]
fn contest_odds_rows_are_named_by_the_sides() {
    let mls = stdout_of("contest mls --skill 12 --vs-skill 10 --odds");
    assert!(
        mls.contains("the active side fails") && mls.contains("the active side succeeds"),
        "{mls}"
    );
    let exploding = stdout_of("contest exploding-d6 --score 3 --vs-score 2 --odds");
    assert!(
        exploding.contains("the first side wins") && exploding.contains("the second side wins"),
        "{exploding}"
    );
    for text in [&mls, &exploding] {
        let bare = |l: &str| {
            ["none", "first", "second"].contains(&l.split_whitespace().next().unwrap_or(""))
        };
        assert!(!text.lines().any(bare), "{text}");
    }
    // JSON keeps the ids.
    let json = stdout_of("contest mls --skill 12 --vs-skill 10 --odds --json");
    assert!(json.contains("\"outcome\":\"none\""), "{json}");
}
