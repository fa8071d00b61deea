//! `nutshell odds`: the tail threshold of exploding dice, end to end.

mod support;

use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;
use support::*;

fn fraction(text: &str) -> BigRational {
    match text.split_once('/') {
        Some((n, d)) => {
            BigRational::new(n.parse::<BigInt>().unwrap(), d.parse::<BigInt>().unwrap())
        }
        None => BigRational::from_integer(text.parse::<BigInt>().unwrap()),
    }
}

fn below(tail: &BigRational, digits: u32) -> bool {
    tail * BigRational::from_integer(BigInt::from(10).pow(digits))
        < BigRational::from_integer(1.into())
}

/// docs/odds.md, "The tail": explosions are followed until the tail of the
/// whole expression is below `--tail` (1e-12 by default), exactly reported.
#[test]
fn explosions_stop_where_the_tail_stops_mattering() {
    let tail = fraction(odds_of("10d6!")["tail"].as_str().unwrap());
    assert!(tail > BigRational::from_integer(0.into()));
    assert!(below(&tail, 12), "default threshold 1e-12");
    assert!(!below(&tail, 14), "not followed much deeper than needed");
    let tail15 = fraction(odds_of("10d6! --tail 1e-15")["tail"].as_str().unwrap());
    assert!(below(&tail15, 15));
    // With the threshold off, the explosion limit decides: 1d6! with 3
    // explosions leaves out (1/6)^4.
    let v = odds_of("1d6! --tail 0 --max-explosions 3");
    assert_eq!(v["tail"], "1/1296");
    // The explosion limit still caps the threshold's depth.
    let v = odds_of("1d6! --max-explosions 3");
    assert_eq!(v["tail"], "1/1296");
}

#[test]
fn a_bad_tail_threshold_is_refused() {
    run("odds 1d6! --tail 2")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("between 0 and 1"));
}

/// A reader that stops early (`nutshell odds 1000d6 --all | head`) ends the
/// command quietly with success: the tool's own entry point ignores SIGPIPE
/// as the standard runtime does, so the closed pipe is an error the command
/// handles, not a signal that kills it.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nutshell"))
        .args(["odds", "1000d6", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reading end is dropped here, long before the table ends.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// docs/odds.md, "Limits": a long exact computation on a terminal shows a
/// progress bar on standard error, and removes it before the answer. Run in
/// a pseudo-terminal by `script` (util-linux), the bar told to appear at
/// once; the JSON answer, written to a file meanwhile, is whole.
#[test]
fn a_long_exact_computation_shows_a_progress_bar_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    let nutshell = assert_cmd::cargo::cargo_bin("nutshell");
    let command = format!(
        "'{}' odds 1000d6 --json > '{}'",
        nutshell.display(),
        answer.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NUTSHELL_PROGRESS_AFTER_MS", "0")
        .output()
        .expect("util-linux's `script` runs the command in a pseudo-terminal");
    assert!(out.status.success(), "{out:?}");
    let screen = String::from_utf8_lossy(&out.stdout);
    // The bar of either phase: on a loaded machine the watcher may first
    // wake once the computation is done and the fractions are being written.
    assert!(
        screen.contains("computing exact odds") || screen.contains("writing the fractions"),
        "{screen:?}"
    );
    // The last thing drawn clears the bar's line.
    assert!(screen.trim_end().ends_with("\u{1b}[2K"), "{screen:?}");
    let json: Value = serde_json::from_slice(&std::fs::read(&answer).unwrap()).unwrap();
    assert_eq!(json["distribution"].as_array().unwrap().len(), 5001);
    assert_eq!(json["mean"], "3500");
}

/// As with `roll`, the expression may start with `-`, and `-` reads it from
/// standard input (for an expression longer than the shell allows).
#[test]
fn the_expression_may_start_with_a_minus_or_come_from_standard_input() {
    let json = odds_of("-1d4+5");
    let values: Vec<i64> = json["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [1, 2, 3, 4]);
    let json = json_printed(run("odds - --json").write_stdin("3d6 + 1\n"));
    assert_eq!(json["expression"], "3d6 + 1");
    assert_eq!(json["distribution"].as_array().unwrap().len(), 16);
}
