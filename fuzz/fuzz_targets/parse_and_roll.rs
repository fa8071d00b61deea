//! Parse arbitrary text as dice notation, then roll it.
//!
//! Input layout: the first 8 bytes (when there are 8) are a little-endian seed;
//! the rest, decoded as UTF-8 lossily, is the expression. Shorter inputs use
//! seed 0 and the whole input as the expression.
//!
//! Checks (a panic anywhere is a finding):
//! - parsing never panics; a parse error renders with a caret;
//! - a parsed expression rolls from `Seeded::new(seed)` without panicking, and
//!   the roll renders and its report serializes to JSON (or the roll error renders);
//! - the same expression rolled from `Scripted` faces derived from the input
//!   bytes never panics (running out of faces or a face not on the die is fine);
//! - the normalized echo is a fixed point: it parses again, to the same
//!   normalized string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nutshell_dice::{Expression, Limits, Scripted, Seeded};

/// Small enough that every run stays fast; the other limits are the defaults.
fn limits() -> Limits {
    Limits {
        max_dice: 2_000,
        ..Limits::default()
    }
}

/// Faces for `Scripted`, derived from the input bytes, cycled up to 256 faces:
/// bytes below 0xF0 give 1..=20 (faces most dice can show), the top sixteen
/// give -8..=7 (zero and negative faces, for Fudge dice and custom ranges).
fn scripted_faces(data: &[u8]) -> Vec<i64> {
    if data.is_empty() {
        return Vec::new();
    }
    data.iter()
        .cycle()
        .take(256)
        .map(|&b| {
            if b >= 0xF0 {
                i64::from(b - 0xF0) - 8
            } else {
                i64::from(b % 20) + 1
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (seed, rest) = if data.len() >= 8 {
        let (head, rest) = data.split_at(8);
        (u64::from_le_bytes(head.try_into().unwrap()), rest)
    } else {
        (0, data)
    };
    let text = String::from_utf8_lossy(rest);
    let limits = limits();

    let expr = match Expression::parse_with(&text, &limits) {
        Ok(expr) => expr,
        Err(err) => {
            let _ = err.render(&text);
            let _ = err.to_string();
            return;
        }
    };

    // Roll from a seed: render, report, JSON.
    match expr.roll(&mut Seeded::new(seed)) {
        Ok(roll) => {
            let _ = roll.render();
            let report = roll.report();
            serde_json::to_string(&report).expect("a roll report serializes to JSON");
        }
        Err(err) => {
            let _ = err.render(&text);
        }
    }

    // Roll from faces typed in: errors are fine, panics are not.
    match expr.roll(&mut Scripted::new(scripted_faces(data))) {
        Ok(roll) => {
            let _ = roll.render();
        }
        Err(err) => {
            let _ = err.render(&text);
        }
    }

    // The normalized echo is a fixed point. Normalizing may lengthen the text
    // (spaces around operators), so only the length limit is lifted here.
    let normalized = expr.normalized();
    let relaxed = Limits {
        max_expression_chars: usize::MAX,
        ..limits
    };
    let again = match Expression::parse_with(normalized, &relaxed) {
        Ok(again) => again,
        Err(err) => panic!(
            "the normalized form of {text:?} does not parse again:\n{}",
            err.render(normalized)
        ),
    };
    assert_eq!(
        again.normalized(),
        normalized,
        "normalizing {text:?} twice gives two different strings"
    );
});
