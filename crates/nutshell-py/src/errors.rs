//! The libraries' errors as the Python exceptions of `nutshell._errors`.
//!
//! The exception classes are written in Python (they carry attributes such
//! as `position` and `limit`); this module builds instances of them.

use nutshell_dice::{ExactError, NotationError, RollError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// An instance of `nutshell._errors.<class>` built from `args`.
fn raise<'py>(py: Python<'py>, class: &str, args: Bound<'py, PyTuple>) -> PyErr {
    let made = py
        .import("nutshell._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// The limit a message names, such as `max_dice` in "... (max_dice)" (the
/// engine names the limit it refuses by in parentheses, as a field of
/// `Limits`), as the keyword argument that sets it: `max_length` for
/// `max_expression_chars`, `max_explosions` for `max_repeats_per_die`.
pub fn limit_named(message: &str) -> Option<&'static str> {
    let start = message.find("(max_")? + 1;
    let rest = &message[start..];
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    if !rest[end..].starts_with(')') {
        return None;
    }
    Some(match &rest[..end] {
        "max_expression_chars" => "max_length",
        "max_repeats_per_die" => "max_explosions",
        "max_dice" => "max_dice",
        "max_nesting" => "max_nesting",
        "max_outcomes" => "max_outcomes",
        "max_work" => "max_work",
        _ => return None,
    })
}

/// A library's message in Python's words: the command line's flags become
/// the keyword arguments of the same names (`(--dc N)` is `(dc=N)`,
/// `--vs-skill` is `vs_skill`), and `--simulate` becomes many rolls.
///
/// ```text
/// fantasy needs the DC (--dc N)    fantasy needs the DC (dc=N)
/// (--skill, --vs-mod)              (skill, vs_mod)
/// estimate it with --simulate      estimate it from many rolls: roll(expression, repeat=n)
/// ```
///
/// (Checked by the pytest suite, `tests/test_errors.py`.)
pub fn keywords(message: &str) -> String {
    let message = message.replace(
        "with --simulate",
        "from many rolls: roll(expression, repeat=n)",
    );
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str("--");
            rest = after;
            continue;
        }
        out.push_str(&name.replace('-', "_"));
        rest = &after[name_len..];
        // `--dc N`: a placeholder value in capitals is the keyword's value.
        if let Some(value) = rest.strip_prefix(' ') {
            let word_len = value
                .find(|c: char| !c.is_ascii_uppercase())
                .unwrap_or(value.len());
            if word_len > 0 {
                out.push('=');
                out.push_str(&value[..word_len]);
                rest = &value[word_len..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `class(message, rendered, position, expression[, limit])`.
fn positioned(
    py: Python<'_>,
    class: &str,
    message: String,
    rendered: String,
    position: usize,
    expression: &str,
    limit: Option<&str>,
) -> PyErr {
    let args = match limit {
        Some(limit) => (message, rendered, position, expression, limit).into_pyobject(py),
        None => (message, rendered, position, expression).into_pyobject(py),
    };
    match args {
        Ok(args) => raise(py, class, args),
        Err(e) => e,
    }
}

/// A parse error: `NotationError`, or `LimitError` when it is a limit
/// (the expression too long, nested too deep, too many dice).
pub fn notation(py: Python<'_>, e: &NotationError, text: &str) -> PyErr {
    let limit = limit_named(&e.message);
    let class = if limit.is_some() {
        "LimitError"
    } else {
        "NotationError"
    };
    positioned(
        py,
        class,
        e.message.clone(),
        e.render(text),
        e.span.start,
        text,
        limit,
    )
}

/// A roll's error: `LimitError` for `max_dice` and memory, else `DiceError`.
pub fn roll(py: Python<'_>, e: &RollError, text: &str) -> PyErr {
    let (class, limit) = match e {
        RollError::TooManyDice { .. } => ("LimitError", Some("max_dice")),
        RollError::OutOfMemory { .. } => ("LimitError", Some("memory")),
        _ => ("DiceError", None),
    };
    positioned(
        py,
        class,
        e.to_string(),
        e.render(text),
        e.span().start,
        text,
        limit,
    )
}

/// An exact computation's error: `LimitError` for `max_work`,
/// `max_outcomes` and memory, else `DiceError`.
pub fn exact(py: Python<'_>, e: &ExactError, text: &str) -> PyErr {
    let (class, limit) = match e {
        ExactError::TooMuchWork { .. } => ("LimitError", Some("max_work")),
        ExactError::TooManyOutcomes { .. } => ("LimitError", Some("max_outcomes")),
        ExactError::OutOfMemory { .. } => ("LimitError", Some("memory")),
        _ => ("DiceError", None),
    };
    let message = keywords(&e.to_string());
    // A refusal of rolls that may pass max_dice names the limit.
    let limit = limit.or_else(|| limit_named(&message));
    let class = if limit.is_some() { "LimitError" } else { class };
    positioned(
        py,
        class,
        message.clone(),
        keywords(&e.render(text)),
        e.span().start,
        text,
        limit,
    )
}

/// A ruleset's or the MLS layer's refusal: `RuleError`.
pub fn rule(py: Python<'_>, message: impl Into<String>) -> PyErr {
    let message: String = keywords(&message.into());
    match (message,).into_pyobject(py) {
        Ok(args) => raise(py, "RuleError", args),
        Err(e) => e,
    }
}

/// A dice source's failure outside an expression (a ruleset's or a fight's
/// dice): `DiceError` without a position.
pub fn dice(py: Python<'_>, message: impl Into<String>) -> PyErr {
    let message: String = message.into();
    match (message,).into_pyobject(py) {
        Ok(args) => raise(py, "DiceError", args),
        Err(e) => e,
    }
}
