//! Dice written in a table's result ("Goblin scouts, 1d6 of them"): found when
//! the table is read, rolled with the table's own dice source when the row
//! comes up.
//!
//! Two ways to write them:
//! - bare, `NdS` or `NdS+K` / `NdS-K` (`1d6`, `2d6+1`), standing as a word of
//!   their own: "1d6 of them", "(2d4 days)";
//! - any expression in double brackets, as Roll20 and Foundry write inline
//!   rolls: `[[4d6kh3]]`, `[[1d6 * 10]]`.
//!
//! ```
//! use nutshell_rules::table::inline::find;
//! let found = find("Goblin scouts, 1d6 of them, [[1d4 * 10]] gold").unwrap();
//! let texts: Vec<&str> = found.iter().map(|d| d.source.as_str()).collect();
//! assert_eq!(texts, ["1d6", "1d4 * 10"]);
//! assert!(find("A d66 table of 2d stuff").unwrap().is_empty());
//! ```

use nutshell_dice::{DiceSource, Expression};
use serde::Serialize;

/// A dice expression found in a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its byte range in the result, brackets included.
    pub start: usize,
    /// The end of that range (exclusive).
    pub end: usize,
    /// The expression as written (without brackets).
    pub source: String,
}

/// One expression of a result, rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InlineRoll {
    /// The expression as written.
    pub expression: String,
    /// Its total, which replaces it in the result's text.
    pub total: i64,
    /// The roll, as `nutshell roll --json` gives it (`text` is the transcript
    /// `nutshell roll` prints).
    pub roll: nutshell_dice::roll::RollReport,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length of a bare `NdS[+-K]` at the start of `rest`, if there is one.
fn bare_at(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let count = digits(0);
    if count == 0 || b.get(count) != Some(&b'd') {
        return None;
    }
    let sides = digits(count + 1);
    if sides == 0 {
        return None;
    }
    let mut end = count + 1 + sides;
    if matches!(b.get(end), Some(b'+' | b'-')) {
        let k = digits(end + 1);
        if k > 0 {
            end += 1 + k;
        }
    }
    match rest[end..].chars().next() {
        Some(c) if is_word(c) => None,
        _ => Some(end),
    }
}

/// Every dice expression in `text`, in order; an unclosed `[[` or a bracketed
/// expression that does not parse is an error that says which and where.
pub fn find(text: &str) -> Result<Vec<Found>, String> {
    let mut found = Vec::new();
    let mut i = 0;
    let mut previous: Option<char> = None;
    while i < text.len() {
        let rest = &text[i..];
        if let Some(inner) = rest.strip_prefix("[[") {
            let Some(close) = inner.find("]]") else {
                return Err(format!(
                    "`[[` at character {} is never closed with `]]`",
                    text[..i].chars().count() + 1
                ));
            };
            let source = inner[..close].trim().to_string();
            Expression::parse(&source).map_err(|e| {
                // The caller says "error:" once, before the file and line.
                let shown = e.render(&source);
                let shown = shown.strip_prefix("error: ").unwrap_or(&shown).to_string();
                format!("[[{source}]]: {shown}")
            })?;
            let end = i + 2 + close + 2;
            found.push(Found {
                start: i,
                end,
                source,
            });
            i = end;
            previous = Some(']');
            continue;
        }
        if !previous.is_some_and(is_word)
            && let Some(len) = bare_at(rest)
        {
            let source = rest[..len].to_string();
            // A bare expression that is not valid notation (1d0) is text.
            if Expression::parse(&source).is_ok() {
                found.push(Found {
                    start: i,
                    end: i + len,
                    source,
                });
                i += len;
                previous = Some('0');
                continue;
            }
        }
        let c = rest.chars().next().expect("i < len");
        previous = Some(c);
        i += c.len_utf8();
    }
    Ok(found)
}

/// Rolls every expression of `text` with `source`, in order, and returns the
/// text with each replaced by its total, and the rolls.
pub fn roll(
    text: &str,
    source: &mut dyn DiceSource,
) -> Result<(String, Vec<InlineRoll>), crate::RulesError> {
    let found = find(text).map_err(crate::RulesError::Invalid)?;
    let mut out = String::with_capacity(text.len());
    let mut rolls = Vec::with_capacity(found.len());
    let mut last = 0;
    for f in &found {
        let expression = Expression::parse(&f.source)
            .map_err(|e| crate::RulesError::Invalid(e.render(&f.source)))?;
        let roll = expression
            .roll(source)
            .map_err(|e| crate::RulesError::Invalid(e.render(&f.source)))?;
        out.push_str(&text[last..f.start]);
        out.push_str(&roll.total.to_string());
        last = f.end;
        rolls.push(InlineRoll {
            expression: f.source.clone(),
            total: roll.total,
            roll: roll.report(),
        });
    }
    out.push_str(&text[last..]);
    Ok((out, rolls))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nutshell_dice::Scripted;

    #[test]
    fn bare_dice_are_words_of_their_own() {
        let sources =
            |t: &str| -> Vec<String> { find(t).unwrap().into_iter().map(|f| f.source).collect() };
        assert_eq!(sources("1d6 of them"), ["1d6"]);
        assert_eq!(sources("(2d6+1 days)"), ["2d6+1"]);
        assert_eq!(sources("3d6-2, 2d4"), ["3d6-2", "2d4"]);
        assert!(sources("a d6, x1d6, 1d6x, 1d, 1d0").is_empty());
        assert_eq!(sources("[[4d6kh3]] and [[ 1d4*10 ]]"), ["4d6kh3", "1d4*10"]);
    }

    #[test]
    fn bad_brackets_are_refused_with_the_place() {
        assert!(find("gold: [[1d6").unwrap_err().contains("character 7"));
        assert!(find("[[1d6+]]").unwrap_err().contains("[[1d6+]]"));
    }

    #[test]
    fn each_expression_is_replaced_by_its_total_in_order() {
        let (text, rolls) = roll(
            "Goblins, 1d6 of them, with [[2d4*10]] coins",
            &mut Scripted::new([5, 1, 3]),
        )
        .unwrap();
        assert_eq!(text, "Goblins, 5 of them, with 40 coins");
        assert_eq!(rolls[0].roll.text, "1d6 = [5] = 5");
        assert_eq!(rolls[1].total, 40);
    }
}
