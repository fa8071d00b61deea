//! Shown output against real output: what is masked and what a wildcard
//! matches.
//!
//! - Masked on both sides: durations (`0.7 ms`, `2.1 s`, `, 1s`), rates
//!   (`168885 fights/s`), thread counts (`on 2 threads`) and log
//!   timestamps (`2026-11-27T02:35:43.344313Z`), which change from run to
//!   run and machine to machine.
//! - A shown line `...` matches any number of lines (none included).
//! - `[..]` inside a shown line matches any text on that line.
//! - Trailing white space is ignored (tables pad their last column).

use regex::Regex;
use std::sync::LazyLock;

static MASKS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    vec![
        (
            Regex::new(r"\d+(\.\d+)? ?(fights|rolls|requests)/s").unwrap(),
            "[rate] $2/s",
        ),
        (Regex::new(r"on \d+ threads?").unwrap(), "on [n] threads"),
        (
            Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z").unwrap(),
            "[timestamp]",
        ),
        (
            Regex::new(r"\b\d+(\.\d+)? ?(ms|µs|ns|s|min)\b").unwrap(),
            "[time]",
        ),
    ]
});

/// `text` with what changes between runs masked.
pub fn mask(text: &str) -> String {
    let mut out = text.to_string();
    for (pattern, with) in MASKS.iter() {
        out = pattern.replace_all(&out, *with).into_owned();
    }
    out
}

/// Whether one actual line matches one shown line (both masked).
fn line_matches(shown: &str, actual: &str) -> bool {
    let shown = shown.trim_end();
    let actual = actual.trim_end();
    if !shown.contains("[..]") {
        return shown == actual;
    }
    let parts: Vec<&str> = shown.split("[..]").collect();
    let mut rest = actual;
    let Some(first) = rest.strip_prefix(parts[0]) else {
        return false;
    };
    rest = first;
    let last = parts.len() - 1;
    for (i, part) in parts.iter().enumerate().skip(1) {
        if i == last {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the actual lines match the shown ones, `...` lines matching any
/// run of lines.
pub fn matches(shown: &[String], actual: &[String]) -> bool {
    let shown: Vec<String> = shown.iter().map(|l| mask(l)).collect();
    let actual: Vec<String> = actual.iter().map(|l| mask(l)).collect();
    fn go(shown: &[String], actual: &[String]) -> bool {
        match shown.split_first() {
            None => actual.is_empty(),
            Some((first, rest)) if first.trim() == "..." => {
                (0..=actual.len()).any(|skip| go(rest, &actual[skip..]))
            }
            Some((first, rest)) => {
                !actual.is_empty() && line_matches(first, &actual[0]) && go(rest, &actual[1..])
            }
        }
    }
    go(&shown, &actual)
}

#[test]
fn masks_and_wildcards() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(
        &s(&["100 fights, seed 1 (9 fights/s on 2 threads)"]),
        &s(&["100 fights, seed 1 (168885 fights/s on 1 thread)"])
    ));
    assert!(matches(&s(&["took 0.7 ms"]), &s(&["took 12.25 ms"])));
    assert!(!matches(&s(&["3d6 = 12"]), &s(&["3d6 = 11"])));
    assert!(matches(&s(&["a", "...", "z"]), &s(&["a", "b", "c", "z"])));
    assert!(matches(&s(&["a", "...", "z"]), &s(&["a", "z"])));
    assert!(!matches(&s(&["a", "...", "z"]), &s(&["a", "y"])));
    assert!(matches(&s(&["x [..] y"]), &s(&["x anything y  "])));
    assert!(!matches(&s(&["x [..] y"]), &s(&["x anything z"])));
    assert!(!matches(&s(&["a"]), &s(&["a", "b"])));
}
