//! What players bring from virtual tables and chat bots (Roll20, Foundry,
//! Avrae): read where the meaning is the same, answered with the exact fix
//! where it is not (docs/notation.md, "Habits from other tools").
//!
//! - A chat command or inline roll around the expression (`/r 1d20+5`,
//!   `!roll 1d20`, `[[1d20+5]]`) is read as the expression alone.
//! - Flavour text after the roll (`1d20+5 # attack`, `1d20+5 to hit`,
//!   `8d6 fire`) is the roll's label: `(1d20 + 5)[to hit]`.
//! - `1d20 adv`, `1d20 dis`: refused with the expression that rolls
//!   advantage or disadvantage (`2d20kh1`, `2d20kl1`).
//! - Avrae's modifiers `e6`, `ra1`, `mi2`, `ma5`, `p1`: refused with the
//!   expression in nutshell's spelling (`!6`, `!o1`, `min2`, `max5`, `dl1`).
//! - A success count added to other terms (`1d20cs20+5`) is read as
//!   documented, a count, with a note that says so ([`notes`]).
//!
//! ```
//! use nutshell_dice::Expression;
//! let roll = Expression::parse("[[1d20+5]] to hit")?;
//! assert_eq!(roll.normalized(), "(1d20 + 5)[to hit]");
//! let error = Expression::parse("1d20mi10").unwrap_err();
//! assert!(error.render("1d20mi10").contains("did you mean `min10`"));
//! # Ok::<(), nutshell_dice::NotationError>(())
//! ```
//!
//! # In detail
//!
//! - Chat wrappers are blanked to spaces rather than cut, so every span still
//!   points at the text the player typed.
//! - `vs N` after a roll is read as `>= N`.
//! - Another tool's `N#EXPR` (roll EXPR N times) is refused here; front ends
//!   roll it N times through `repeated`.
//! - [`notes`] also says when a success count is made by `cs` or a `vs`.

use super::ast::{BinOp, Expr, ExprKind, ModifierKind};
use crate::span::{NotationError, Span};

/// Blanks (to spaces, so every span still points at the user's text) a
/// chat command before the expression (`/r`, `/roll`, `!r`, `!roll`) and
/// Roll20's inline-roll brackets around it (`[[1d20+5]]`).
pub(super) fn unwrap_chat(chars: &mut [char]) {
    let mut i = chars.iter().take_while(|c| c.is_whitespace()).count();
    for command in ["/roll", "/r", "!roll", "!r"] {
        let n = command.chars().count();
        let matches = command
            .chars()
            .enumerate()
            .all(|(k, w)| chars.get(i + k).is_some_and(|c| c.eq_ignore_ascii_case(&w)));
        if matches && chars.get(i + n).is_some_and(|c| c.is_whitespace()) {
            chars[i..i + n].fill(' ');
            i += n;
            while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                i += 1;
            }
            break;
        }
    }
    if chars.get(i) == Some(&'[') && chars.get(i + 1) == Some(&'[') {
        let close = (i + 2..chars.len().saturating_sub(1))
            .find(|&k| chars[k] == ']' && chars[k + 1] == ']');
        if let Some(close) = close {
            chars[i..i + 2].fill(' ');
            chars[close..close + 2].fill(' ');
        }
    }
}

/// Modifier spellings that, after white space, are a misplaced modifier
/// (`4d6 kh3`) rather than flavour text.
const MODIFIER_WORDS: &[&str] = &[
    "k", "kh", "kl", "d", "dh", "dl", "r", "ro", "rr", "x", "xo", "s", "sa", "sd", "min", "max",
    "cs", "cf", "f", "df", "e", "ra", "mi", "ma", "p", "pl", "ph",
];

/// What follows a whole expression (from `at`, white space skipped), read
/// as flavour text: `Ok(Some(label))`, `Ok(None)` (nothing to keep: an empty
/// `#`), or `Err` with the fix for `adv` and `dis`. `None` outside: not
/// flavour text, the parser's own error stands.
pub(super) fn flavour(
    chars: &[char],
    at: usize,
    before: &str,
) -> Option<Result<Option<String>, NotationError>> {
    let rest: String = chars[at..].iter().collect();
    let whole = Span::new(at, chars.len());
    if let Some(comment) = rest.strip_prefix('#') {
        let label = comment.trim();
        if label.is_empty() {
            return Some(Ok(None));
        }
        return Some(checked_label(label, whole));
    }
    let after_space = at > 0 && chars[at - 1].is_whitespace();
    let word: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
    let wordy = word.chars().next().is_some_and(char::is_alphabetic)
        && word
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'));
    if !after_space || !wordy {
        return None;
    }
    let lower = word.to_lowercase();
    if MODIFIER_WORDS.contains(&lower.as_str()) {
        return None;
    }
    let keep = match lower.as_str() {
        "adv" | "advantage" => Some("kh1"),
        "dis" | "disadv" | "disadvantage" => Some("kl1"),
        _ => None,
    };
    if let Some(keep) = keep {
        let what = if keep == "kh1" {
            "advantage"
        } else {
            "disadvantage"
        };
        let fix = advantage_fix(before.trim(), keep);
        let word_span = Span::new(at, at + word.chars().count());
        return Some(Err(NotationError::new(
            word_span,
            format!(
                "`{word}` is not notation: {what} is two d20s keeping the {}",
                if keep == "kh1" { "higher" } else { "lower" }
            ),
        )
        .with_label(match fix {
            Some(fix) => format!("did you mean `{fix}`?"),
            None => format!("roll it as `2d20{keep}`"),
        })));
    }
    Some(checked_label(rest.trim(), whole))
}

/// A label from flavour text, which cannot hold the brackets labels are
/// written in.
fn checked_label(label: &str, span: Span) -> Result<Option<String>, NotationError> {
    if label.contains(['[', ']']) {
        return Err(NotationError::new(
            span,
            "text after the roll becomes its label, which cannot contain `[` or `]`",
        ));
    }
    Ok(Some(label.to_string()))
}

/// `before` with its one d20 rolled twice, keeping `keep`: `1d20+5` gives
/// `2d20kh1+5`. `None` when it has no single plain d20.
fn advantage_fix(before: &str, keep: &str) -> Option<String> {
    let lower = before.to_ascii_lowercase();
    let found: Vec<usize> = lower.match_indices("d20").map(|(i, _)| i).collect();
    let &[at] = found.as_slice() else {
        return None;
    };
    // The count before it: none, or a 1.
    let count_start = lower[..at]
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let count = &lower[count_start..at];
    if !(count.is_empty() || count == "1") {
        return None;
    }
    // A plain d20: no modifier right after it.
    let after = &before[at + 3..];
    if after
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '!')
    {
        return None;
    }
    Some(format!("{}2d20{keep}{after}", &before[..count_start]))
}

/// The fix for a modifier of another tool's spelling at `at` (Avrae's `e`,
/// `ra`, `mi`, `ma`, `p`), as an error naming it and the whole expression
/// as nutshell writes it. `None`: not one of those.
pub(super) fn foreign_modifier(chars: &[char], at: usize) -> Option<NotationError> {
    let lower = |k: usize| chars.get(at + k).map(|c| c.to_ascii_lowercase());
    let (name, ours, meaning) = match (lower(0)?, lower(1)) {
        ('e', _) => ("e", "!", "explode on"),
        ('r', Some('a')) => ("ra", "!o", "reroll once and add, on"),
        ('m', Some('i')) => ("mi", "min", "minimum"),
        ('m', Some('a')) => ("ma", "max", "maximum"),
        ('p', Some('l')) => ("pl", "dl", "drop the lowest"),
        ('p', Some('h')) => ("ph", "dh", "drop the highest"),
        ('p', _) => ("p", "dl", "drop the lowest"),
        _ => return None,
    };
    let start = at + name.len();
    // Avrae's selector: a number, or a comparison and a number.
    let mut end = start;
    while chars.get(end).is_some_and(|c| matches!(c, '>' | '<' | '=')) {
        end += 1;
    }
    let digits = chars[end..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    end += digits;
    let selector: String = chars[start..end].iter().collect();
    let written: String = chars[at..end].iter().collect();
    let fix = format!("{ours}{selector}");
    let whole: String = chars[..at]
        .iter()
        .chain(fix.chars().collect::<Vec<_>>().iter())
        .chain(chars[end..].iter())
        .collect();
    let note = if name == "ra" {
        " (Avrae adds at most one die in all; `!o` rolls once more for each die that matches, the same for one die)"
    } else {
        ""
    };
    Some(
        NotationError::new(
            Span::new(at, end),
            format!(
                "`{written}` is Avrae's {meaning} {selector}: nutshell writes it `{fix}`{note}"
            ),
        )
        .with_label(format!("did you mean `{fix}`, as in `{}`?", whole.trim())),
    )
}

/// Another tool's repetition, `N#EXPR` (`6#4d6kh3`: six rolls of
/// `4d6kh3`): the count and the expression's text, for a front end that
/// rolls it N times. `None` when `text` is not written so (a `#` after
/// white space starts flavour text: `6 # six`).
///
/// ```
/// use nutshell_dice::syntax::repeated;
/// assert_eq!(repeated("6#4d6kh3"), Some((6, "4d6kh3")));
/// assert_eq!(repeated(" 3#1d20+5 to hit"), Some((3, "1d20+5 to hit")));
/// assert_eq!(repeated("6 # six"), None);
/// assert_eq!(repeated("1d20#x"), None);
/// ```
pub fn repeated(text: &str) -> Option<(u64, &str)> {
    let text = text.trim_start();
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let rest = text[digits..].strip_prefix('#')?;
    let count = text[..digits].parse().ok()?;
    let expression = rest.trim();
    if expression.is_empty() || rest.starts_with(char::is_whitespace) {
        return None;
    }
    Some((count, expression))
}

/// The refusal of `N#EXPR` when the parser has read the number `expr` and
/// stopped at `at` (the `#`) and the rest is an expression (`parses`, the
/// parser's answer, so this file stays below the parser): an expression
/// is one roll, so the front end's repetition is named. `None`: not that.
pub(super) fn repetition(
    chars: &[char],
    expr: &Expr,
    at: usize,
    parses: impl Fn(&str) -> bool,
) -> Option<NotationError> {
    if !matches!(expr.kind, ExprKind::Number(_)) || chars.get(at) != Some(&'#') {
        return None;
    }
    let text: String = chars.iter().collect();
    let (count, expression) = repeated(&text)?;
    if !parses(expression) {
        return None;
    }
    Some(
        NotationError::new(
            Span::new(expr.span.start, at + 1),
            format!(
                "`{count}#` asks for {count} rolls of `{expression}`, but an expression is one roll"
            ),
        )
        .with_label(format!(
            "roll `{expression}` {count} times: `--repeat {count}` on the command line, `repeat={count}` in Python"
        )),
    )
}

/// Notes on a parsed expression that reads differently from what another
/// tool's user may expect, for a front end to show at the roll: a success
/// count added to other terms (`1d20cs20+5` is a count of 20s plus 5; in
/// Roll20 `cs20` only marks a critical).
pub(crate) fn notes(expr: &Expr, text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let piece = |span: Span| -> String {
        chars[span.start.min(chars.len())..span.end.min(chars.len())]
            .iter()
            .collect()
    };
    let mut out = Vec::new();
    // Terms already noted as counts added to other terms.
    let mut noted = Vec::new();
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Chain(first, rest) => {
                let additive = rest
                    .iter()
                    .any(|(op, _, _)| matches!(op, BinOp::Add | BinOp::Sub));
                if additive {
                    for operand in std::iter::once(&**first).chain(rest.iter().map(|r| &r.2)) {
                        if let Some(note) = counted(operand, &piece, e, &chars) {
                            out.push(note);
                            noted.push(operand.span);
                        }
                    }
                }
                stack.push(first);
                stack.extend(rest.iter().map(|r| &r.2));
            }
            ExprKind::Negate(x) | ExprKind::Paren(x) | ExprKind::Labeled(x, _) => stack.push(x),
            ExprKind::Compare(_, a, b) => {
                let between = piece(Span::new(a.span.end, b.span.start));
                let word = between.trim().to_ascii_lowercase();
                if matches!(word.as_str(), "vs" | "vs." | "versus") {
                    out.push(format!(
                        "`{}` compares the total: read as `>= {}`, 1 when the total reaches it, 0 otherwise",
                        piece(Span::new(a.span.end, b.span.end)).trim(),
                        piece(b.span)
                    ));
                }
                stack.push(a);
                stack.push(b);
            }
            ExprKind::Call(_, args) => stack.extend(args.iter()),
            ExprKind::Group(g) => {
                if !noted.contains(&e.span)
                    && let Some(note) = critical(e, &g.modifiers, &piece)
                {
                    out.push(note);
                }
                stack.extend(g.members.iter());
            }
            ExprKind::Dice(term) => {
                if !noted.contains(&e.span)
                    && let Some(note) = critical(e, &term.modifiers, &piece)
                {
                    out.push(note);
                }
            }
            ExprKind::Number(_) => {}
        }
    }
    out
}

/// The note for a term whose `cs` turns its total into a count, when it is
/// not added to other terms (`1d20cs>19`: in Roll20 the d20's face, the 20
/// marked; here 1 or 0).
fn critical(
    term: &Expr,
    modifiers: &[super::ast::Modifier],
    piece: &dyn Fn(Span) -> String,
) -> Option<String> {
    let success = modifiers.iter().find(|m| {
        matches!(m.kind, ModifierKind::Success(_))
            && piece(m.span).to_ascii_lowercase().starts_with("cs")
    })?;
    let written = piece(success.span);
    let whole = piece(term.span);
    let without = whole.replacen(&written, "", 1);
    Some(format!(
        "`{whole}` counts successes (the dice that match `{written}`): the total is how many; in Roll20 `{written}` only marks a critical: for the dice's total write `{without}`"
    ))
}

/// The note for `operand`, a term of the sum `sum`, when it counts successes.
fn counted(
    operand: &Expr,
    piece: &dyn Fn(Span) -> String,
    sum: &Expr,
    chars: &[char],
) -> Option<String> {
    let modifiers = match &operand.kind {
        ExprKind::Dice(term) => &term.modifiers,
        ExprKind::Group(group) => &group.modifiers,
        _ => return None,
    };
    let success = modifiers
        .iter()
        .find(|m| matches!(m.kind, ModifierKind::Success(_)))?;
    let term = piece(operand.span);
    let written = piece(success.span);
    let mut note = format!(
        "`{term}` counts successes (the dice that match `{written}`), and the count is added to the other terms"
    );
    if written.to_ascii_lowercase().starts_with("cs") {
        // The sum without the count: the expression as a Roll20 user means it.
        let without: String = chars[sum.span.start..success.span.start]
            .iter()
            .chain(chars[success.span.end..sum.span.end].iter())
            .collect();
        note.push_str(&format!(
            "; in Roll20 `{written}` only marks a critical: for the dice's total write `{}`",
            without.trim()
        ));
    }
    Some(note)
}
