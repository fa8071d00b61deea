//! Spellings of other dice languages that are not notation here, refused
//! with the expression to type (docs/notation.md, "Where popular tools
//! disagree"):
//!
//! - AnyDice's `[highest 3 of 4d6]` and `[lowest 1 of 2d20]`: `4d6kh3`, `2d20kl1`;
//! - AnyDice's `output 3d6`: the expression alone, `3d6`;
//! - a character's attribute (`@str` in Foundry, `@{str}` in Roll20): the
//!   notation holds numbers, not sheets.
//!
//! ```
//! use nutshell_dice::Expression;
//! let error = Expression::parse("[highest 3 of 4d6]").unwrap_err();
//! assert!(error.render("[highest 3 of 4d6]").contains("did you mean `4d6kh3`?"));
//! let error = Expression::parse("output 3d6").unwrap_err();
//! assert!(error.render("output 3d6").contains("did you mean `3d6`?"));
//! ```

use crate::span::{NotationError, Span};

/// AnyDice's `[highest N of X]` or `[lowest N of X]` at `at` (the `[`), as
/// an error offering `XkhN` (`XklN`) in the whole expression. `None`: not
/// one of those, the parser's own error stands.
pub(super) fn bracket(chars: &[char], at: usize) -> Option<NotationError> {
    let (end, term) = bracket_at(chars, at)?;
    let written: String = chars[at..end].iter().collect();
    let whole = rewritten(chars)?;
    let which = if term.contains("kh") {
        "highest"
    } else {
        "lowest"
    };
    Some(
        NotationError::new(
            Span::new(at, end),
            format!("`{written}` is AnyDice's: nutshell keeps the {which} dice with a modifier"),
        )
        .with_label(offer(&term, &whole)),
    )
}

/// AnyDice's `output` at `start..end` (the word), as an error offering the
/// expression alone (its `named "..."` dropped, its brackets rewritten).
pub(super) fn output(chars: &[char], start: usize, end: usize) -> Option<NotationError> {
    let name: String = chars[start..end].iter().collect();
    if !name.eq_ignore_ascii_case("output") {
        return None;
    }
    let rest: String = chars[end..].iter().collect();
    let rest = match rest.find(" named ") {
        Some(at) => &rest[..at],
        None => rest.as_str(),
    };
    let rest = rest.trim();
    let error = NotationError::new(
        Span::new(start, end),
        "`output` is AnyDice's: here an expression is the roll itself",
    );
    if rest.is_empty() {
        return Some(error.with_label("write the dice alone, as in `3d6`"));
    }
    let chars: Vec<char> = rest.chars().collect();
    let fix = rewritten(&chars).unwrap_or_else(|| rest.to_string());
    Some(error.with_label(format!("did you mean `{fix}`?")))
}

/// A reference to a character's attribute at `at` (the `@`): `@str`,
/// `@{str}`, or AnyDice's pick `1@3d6`.
pub(super) fn reference(chars: &[char], at: usize) -> NotationError {
    if at > 0 && chars[at - 1].is_ascii_digit() {
        return NotationError::new(
            Span::at(at),
            "`@` after a number is AnyDice's pick of one die by its place (`1@3d6`): nutshell keeps dice with a modifier",
        )
        .with_label("the highest of 3d6 is `3d6kh1`, the lowest `3d6kl1`");
    }
    let mut end = at + 1;
    if chars.get(end) == Some(&'{') {
        end = (end..chars.len())
            .find(|&k| chars[k] == '}')
            .map_or(chars.len(), |k| k + 1);
    } else {
        while chars
            .get(end)
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.'))
        {
            end += 1;
        }
    }
    let written: String = chars[at..end].iter().collect();
    if end == at + 1 {
        return NotationError::new(Span::at(at), "unexpected `@`").with_label(
            "nutshell's notation has no references (`@str`) and no AnyDice picks (`1@3d6`); keep dice with `kh`, as in `3d6kh1`",
        );
    }
    let example: String = chars[..at]
        .iter()
        .chain(['3'].iter())
        .chain(chars[end..].iter())
        .collect();
    NotationError::new(
        Span::new(at, end),
        format!(
            "`{written}` refers to a character's attribute (Foundry's `@str`, Roll20's `@{{str}}`): the notation holds numbers, not sheets"
        ),
    )
    .with_label(format!(
        "write the attribute's value in its place, as in `{}` for a +3",
        example.trim()
    ))
}

/// The label that offers `term`, and the whole expression when it holds more.
fn offer(term: &str, whole: &str) -> String {
    if term == whole.trim() {
        format!("did you mean `{term}`?")
    } else {
        format!("did you mean `{term}`, as in `{}`?", whole.trim())
    }
}

/// `chars` with every AnyDice bracket rewritten; `None` when one is not
/// AnyDice's.
fn rewritten(chars: &[char]) -> Option<String> {
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '[' {
            let (end, term) = bracket_at(chars, i)?;
            out.push_str(&term);
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The bracket at `at` read as AnyDice's: where it ends and nutshell's term.
fn bracket_at(chars: &[char], at: usize) -> Option<(usize, String)> {
    let close = (at + 1..chars.len()).find(|&k| chars[k] == ']')?;
    let inner: String = chars[at + 1..close].iter().collect();
    let mut words = inner.split_whitespace();
    let keep = match words.next()?.to_ascii_lowercase().as_str() {
        "highest" => "kh",
        "lowest" => "kl",
        _ => return None,
    };
    let count: u64 = words.next()?.parse().ok()?;
    if !words.next()?.eq_ignore_ascii_case("of") {
        return None;
    }
    let dice = words.collect::<Vec<_>>().join(" ");
    if dice.is_empty() {
        return None;
    }
    let simple = {
        let lower = dice.to_ascii_lowercase();
        lower.split_once('d').is_some_and(|(n, s)| {
            n.chars().all(|c| c.is_ascii_digit())
                && !s.is_empty()
                && s.chars().all(|c| c.is_ascii_digit())
        })
    };
    let term = if simple {
        format!("{dice}{keep}{count}")
    } else {
        format!("{{{dice}}}{keep}{count}")
    };
    Some((close + 1, term))
}
