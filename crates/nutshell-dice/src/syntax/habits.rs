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
/// stopped at `at` (the `#`) and the rest is an expression: an expression
/// is one roll, so the front end's repetition is named. `None`: not that.
pub(super) fn repetition(
    chars: &[char],
    expr: &Expr,
    at: usize,
    limits: &crate::Limits,
) -> Option<NotationError> {
    if !matches!(expr.kind, ExprKind::Number(_)) || chars.get(at) != Some(&'#') {
        return None;
    }
    let text: String = chars.iter().collect();
    let (count, expression) = repeated(&text)?;
    super::parse(expression, limits).ok()?;
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

#[cfg(test)]
mod tests {
    use crate::{Expression, Scripted};

    fn normalized(text: &str) -> String {
        Expression::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {}", e.render(text)))
            .normalized()
            .to_string()
    }

    fn refused(text: &str) -> String {
        match Expression::parse(text) {
            Ok(e) => panic!("{text} was read as {}", e.normalized()),
            Err(e) => e.render(text),
        }
    }

    /// The corrected expression a refusal offers (`did you mean `X``),
    /// which must itself parse.
    fn offered(text: &str) -> String {
        let message = refused(text);
        let fix = message
            .rsplit("`")
            .nth(1)
            .unwrap_or_else(|| panic!("{text}: no fix in {message}"))
            .to_string();
        Expression::parse(&fix)
            .unwrap_or_else(|e| panic!("{text}: the fix {fix} fails: {}", e.render(&fix)));
        fix
    }

    /// Issue "A newcomer's first hour": flavour text after the roll is its label.
    #[test]
    fn flavour_text_is_the_rolls_label() {
        assert_eq!(normalized("1d20+5 # attack"), "(1d20 + 5)[attack]");
        assert_eq!(normalized("1d20+5 to hit"), "(1d20 + 5)[to hit]");
        assert_eq!(normalized("8d6 fire"), "8d6[fire]");
        assert_eq!(normalized("1d20+5 #"), "1d20 + 5");
        assert_eq!(
            normalized("1d20 + 5   Schwert-Angriff"),
            "(1d20 + 5)[Schwert-Angriff]"
        );
        // The label changes nothing of the roll.
        let labelled = Expression::parse("1d20+5 to hit").unwrap();
        let roll = labelled.roll(&mut Scripted::new([12])).unwrap();
        assert_eq!(roll.total, 17);
        // The echo parses back to itself.
        let echo = normalized("2d6[fire] + 1d4 # damage");
        assert_eq!(normalized(&echo), echo);
    }

    /// A misplaced modifier is not flavour text: the parser's own error stands.
    #[test]
    fn misplaced_modifiers_are_still_refused() {
        assert!(refused("4d6 kh3").contains("modifiers follow their dice with no space"));
        assert!(refused("4d6 kh").contains("modifiers follow their dice with no space"));
        assert!(refused("4d6 min").contains("modifiers follow their dice with no space"));
        assert!(refused("1d20+5 to [hit]").contains("cannot contain `[`"));
        assert!(refused("1d20 5").contains("unexpected `5`"));
    }

    /// Roll20's inline rolls and the chat commands of Roll20, Foundry and Avrae.
    #[test]
    fn chat_wrappers_are_read_as_the_expression() {
        assert_eq!(normalized("[[1d20+5]]"), "1d20 + 5");
        assert_eq!(normalized("  [[ 1d20+5 ]] "), "1d20 + 5");
        assert_eq!(normalized("/r 1d20+5"), "1d20 + 5");
        assert_eq!(normalized("/roll 4d6kh3"), "4d6kh3");
        assert_eq!(normalized("!r 1d20 to hit"), "1d20[to hit]");
        assert_eq!(normalized("[[1d20+5]] to hit"), "(1d20 + 5)[to hit]");
        // Carets still point at the user's text.
        let message = refused("[[1d20+]]");
        assert!(message.contains("[[1d20+]]"), "{message}");
        // Unclosed inline brackets are not unwrapped.
        assert!(refused("[[1d20+5").contains("label"));
    }

    #[test]
    fn advantage_words_are_answered_with_the_expression() {
        assert_eq!(offered("1d20 adv"), "2d20kh1");
        assert_eq!(offered("1d20+5 dis"), "2d20kl1+5");
        assert_eq!(offered("d20 + 3 advantage"), "2d20kh1 + 3");
        assert!(refused("3d6 adv").contains("roll it as `2d20kh1`"));
    }

    /// Avrae's modifiers, each answered with nutshell's spelling.
    #[test]
    fn avrae_modifiers_are_answered_with_the_fix() {
        assert_eq!(offered("4d6e6"), "4d6!6");
        assert_eq!(offered("1d20ra1"), "1d20!o1");
        assert_eq!(offered("1d6mi2"), "1d6min2");
        assert_eq!(offered("1d6ma5+1"), "1d6max5+1");
        assert_eq!(offered("4d6p1"), "4d6dl1");
        assert_eq!(offered("4d6ph1"), "4d6dh1");
        assert_eq!(offered("8d6e>5"), "8d6!>5");
        assert!(refused("1d20mi10").contains("did you mean `min10`"));
        // The fixes mean what Avrae means: the same distribution as the
        // spelling the fix gives, for one die.
        let min = Expression::parse("1d6min2")
            .unwrap()
            .distribution()
            .unwrap();
        assert_eq!(min.probability(2).to_string(), "1/3");
    }

    /// Roll20 reads `cs20` as a critical mark; nutshell counts (docs/notation.md).
    #[test]
    fn a_success_count_added_to_other_terms_is_noted() {
        let expr = Expression::parse("1d20cs20+5").unwrap();
        assert_eq!(expr.notes().len(), 1);
        assert!(
            expr.notes()[0].contains("`1d20cs20` counts successes"),
            "{:?}",
            expr.notes()
        );
        assert!(
            expr.notes()[0].contains("write `1d20+5`"),
            "{:?}",
            expr.notes()
        );
        // Read as documented: 1 or 0, plus 5.
        let roll = expr.roll(&mut Scripted::new([20])).unwrap();
        assert_eq!(roll.total, 6);
        let counted = Expression::parse("8d10>=7 + 2").unwrap();
        assert_eq!(counted.notes().len(), 1);
        assert!(!counted.notes()[0].contains("Roll20"));
        for quiet in ["1d20+5", "8d10>=7", "3d6 >= 15", "{3d6, 2d6}kh1 + 2"] {
            assert!(
                Expression::parse(quiet).unwrap().notes().is_empty(),
                "{quiet}"
            );
        }
    }

    /// Issue "The second hour": every `cs` that turns a total into a count
    /// says so at the roll, alone too (Roll20 reads `1d20cs>19` as a d20
    /// with its 20 marked).
    #[test]
    fn every_cs_that_counts_is_noted() {
        for (text, without, total) in [
            ("1d20cs>19", "1d20", 0),
            ("1d20cs20", "1d20", 0),
            ("{1d20}cs20", "{1d20}", 0),
            ("(1d20cs20)", "1d20", 0),
            ("3d6cs6 >= 1", "3d6", 0),
        ] {
            let expr = Expression::parse(text).unwrap();
            assert_eq!(expr.notes().len(), 1, "{text}: {:?}", expr.notes());
            let note = &expr.notes()[0];
            assert!(note.contains("the total is how many"), "{text}: {note}");
            assert!(
                note.contains(&format!("write `{without}`")),
                "{text}: {note}"
            );
            // Still a count, as documented: a 2 matches nothing.
            let roll = expr.roll(&mut Scripted::new([2, 2, 2])).unwrap();
            assert_eq!(roll.total, total, "{text}");
        }
        // Added to other terms: the one note of that case, not two.
        assert_eq!(Expression::parse("1d20cs20+5").unwrap().notes().len(), 1);
        assert!(Expression::parse("8d10>=7").unwrap().notes().is_empty());
    }

    /// Issue "The second hour": `vs N` compares the total (`>= N`).
    #[test]
    fn versus_is_at_least() {
        assert_eq!(normalized("1d20+5 vs 15"), "1d20 + 5 >= 15");
        assert_eq!(
            normalized("1d20+5 VS 15 to hit"),
            "(1d20 + 5 >= 15)[to hit]"
        );
        assert_eq!(normalized("2d6 versus 1d6+3"), "2d6 >= 1d6 + 3");
        assert_eq!(normalized("1d20 vs. 12"), "1d20 >= 12");
        let expr = Expression::parse("1d20+5 vs 15").unwrap();
        assert_eq!(expr.roll(&mut Scripted::new([10])).unwrap().total, 1);
        assert_eq!(expr.roll(&mut Scripted::new([9])).unwrap().total, 0);
        assert!(
            expr.notes()[0].contains("read as `>= 15`"),
            "{:?}",
            expr.notes()
        );
        // The odds are those of `>=`.
        assert_eq!(
            expr.distribution().unwrap().probability(1),
            Expression::parse("1d20+5 >= 15")
                .unwrap()
                .distribution()
                .unwrap()
                .probability(1)
        );
        // Not followed by a number or dice: flavour text, as before.
        assert_eq!(normalized("1d20 vs goblins"), "1d20[vs goblins]");
        assert_eq!(normalized("1d20 vs dragons"), "1d20[vs dragons]");
    }

    /// Issue "The second hour": `6#4d6kh3` is refused naming the repetition.
    #[test]
    fn another_tools_repetition_is_refused_naming_repeat() {
        let message = refused("6#4d6kh3");
        assert!(
            message.contains("`6#` asks for 6 rolls of `4d6kh3`"),
            "{message}"
        );
        assert!(message.contains("--repeat 6"), "{message}");
        assert!(message.contains("repeat=6"), "{message}");
        // A comment after white space stays a label.
        assert_eq!(normalized("6 # six"), "6[six]");
        assert_eq!(normalized("1d20 #3"), "1d20[3]");
        // The front ends' reading of it.
        assert_eq!(crate::syntax::repeated("6#4d6kh3"), Some((6, "4d6kh3")));
        assert_eq!(crate::syntax::repeated("6#"), None);
    }
}
