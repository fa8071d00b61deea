//! A small builder for notation cases: an expression, the faces typed in, and
//! what must come out.

use nutshell_dice::{Expression, Limits, RollError, Scripted};

/// Rolls `expr` with exactly `faces`, asserting that every face was used, and
/// returns the total and the one-line transcript.
#[track_caller]
pub fn roll(expr: &str, faces: &[i64]) -> (i64, String) {
    roll_with(expr, faces, &Limits::default())
}

#[track_caller]
pub fn roll_with(expr: &str, faces: &[i64], limits: &Limits) -> (i64, String) {
    let parsed = Expression::parse_with(expr, limits)
        .unwrap_or_else(|e| panic!("{expr}: {}", e.render(expr)));
    let mut source = Scripted::new(faces.iter().copied());
    let roll = parsed
        .roll(&mut source)
        .unwrap_or_else(|e| panic!("{expr}: {}", e.render(expr)));
    assert_eq!(
        source.remaining(),
        0,
        "{expr}: {} faces left unused",
        source.remaining()
    );
    (roll.total, roll.render())
}

/// Asserts the total and the rendered transcript.
#[track_caller]
pub fn check(expr: &str, faces: &[i64], total: i64, text: &str) {
    let (got_total, got_text) = roll(expr, faces);
    assert_eq!(got_text, text, "{expr}");
    assert_eq!(got_total, total, "{expr}");
}

/// The error rolling `expr` with `faces` gives.
#[track_caller]
pub fn roll_error(expr: &str, faces: &[i64]) -> RollError {
    let parsed = Expression::parse(expr).unwrap_or_else(|e| panic!("{expr}: {}", e.render(expr)));
    parsed
        .roll(&mut Scripted::new(faces.iter().copied()))
        .expect_err("the roll should fail")
}

/// The error `text` is refused with, rendered under the text (the test
/// fails when it parses).
#[track_caller]
pub fn refused(text: &str) -> String {
    match Expression::parse(text) {
        Ok(e) => panic!("{text} was read as {}", e.normalized()),
        Err(e) => e.render(text),
    }
}
