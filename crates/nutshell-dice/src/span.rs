//! Positions in the user's text, and the error that points at one.

use std::fmt;

/// A range of characters (not bytes) in the expression, `start..end`.
///
/// Character indices make carets line up with what the user typed, whatever
/// non-ASCII text the expression holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span {
    /// First character, counted from 0.
    pub start: usize,
    /// One past the last character.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (character indices).
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The one-character span at `at`.
    pub fn at(at: usize) -> Span {
        Span::new(at, at + 1)
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The 1-based column of the first character, as an editor shows it.
    pub fn column(&self) -> usize {
        self.start + 1
    }
}

/// A problem with the text of an expression, found before any die is rolled.
///
/// It names what is wrong, points at the character with a [`Span`], and may carry a
/// short label for the caret (what was expected there).
///
/// ```
/// let err = nutshell_dice::Expression::parse("4d6+").unwrap_err();
/// assert_eq!(err.column(), 5);
/// assert_eq!(err.message, "expected a number, a die, `(`, `{` or a function after `+`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    /// One sentence: what is wrong.
    pub message: String,
    /// Where it is wrong.
    pub span: Span,
    /// A short note shown under the caret, such as what was expected.
    pub label: Option<String>,
}

impl NotationError {
    /// An error at `span` with `message`.
    pub fn new(span: Span, message: impl Into<String>) -> NotationError {
        NotationError {
            message: message.into(),
            span,
            label: None,
        }
    }

    /// The same error with a note under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> NotationError {
        self.label = Some(label.into());
        self
    }

    /// The 1-based column of the offending character.
    pub fn column(&self) -> usize {
        self.span.column()
    }

    /// The error as plain text with the expression and a caret under the column:
    ///
    /// ```text
    /// error: unknown modifier `z` after a dice term
    ///   4d6z
    ///      ^ expected kh, kl, dh, dl, !, r, min, max, a comparison or a sort
    /// ```
    pub fn render(&self, expression: &str) -> String {
        crate::span::render_caret(
            "error",
            &self.message,
            self.label.as_deref(),
            expression,
            self.span,
        )
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (column {})", self.message, self.column())
    }
}

impl std::error::Error for NotationError {}

/// How many characters of context a rendered caret line shows on each side of the
/// error. Long expressions (a megabyte of `+1`) are cut around the error.
const CONTEXT_CHARS: usize = 60;

/// Renders `message`, the expression, and carets under `span`, plain text.
pub(crate) fn render_caret(
    severity: &str,
    message: &str,
    label: Option<&str>,
    expression: &str,
    span: Span,
) -> String {
    // White space prints as a space and control characters (an escape
    // sequence would restyle the terminal) as U+FFFD.
    let chars: Vec<char> = expression
        .chars()
        .map(|c| {
            if c.is_whitespace() {
                ' '
            } else if c.is_control() {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect();
    let start = span.start.min(chars.len());
    let end = span.end.clamp(start + 1, chars.len().max(start) + 1);
    let window_start = start.saturating_sub(CONTEXT_CHARS);
    let window_end = (end + CONTEXT_CHARS).min(chars.len());
    let mut line = String::new();
    if window_start > 0 {
        line.push('…');
    }
    line.extend(&chars[window_start..window_end]);
    if window_end < chars.len() {
        line.push('…');
    }
    // Carets go under the columns a terminal draws, not under characters:
    // a CJK character or an emoji takes two, a combining mark none.
    let columns = |range: std::ops::Range<usize>| -> usize {
        range
            .map(|i| chars.get(i).map_or(1, |&c| display_width(c)))
            .sum()
    };
    let lead = columns(window_start..start) + usize::from(window_start > 0);
    let mut out = format!("{severity}: {message}\n  {line}\n  ");
    out.extend(std::iter::repeat_n(' ', lead));
    out.extend(std::iter::repeat_n('^', columns(start..end).max(1)));
    if let Some(label) = label {
        out.push(' ');
        out.push_str(label);
    }
    out
}

/// The columns a terminal gives `c`: two for East Asian wide characters and
/// emoji, none for combining marks, joiners and variation selectors, else one.
fn display_width(c: char) -> usize {
    match u32::from(c) {
        0x0300..=0x036F | 0x200B..=0x200F | 0x20D0..=0x20FF | 0xFE00..=0xFE0F => 0,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F680..=0x1F6FF
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_sits_under_the_column_even_after_non_ascii_text() {
        let text = render_caret("error", "bad", Some("here"), "ü+ä?", Span::at(3));
        assert_eq!(text, "error: bad\n  ü+ä?\n     ^ here");
    }

    /// A terminal draws CJK characters and emoji two columns wide: the caret
    /// counts columns, not characters.
    #[test]
    fn caret_sits_under_the_column_after_wide_characters() {
        let text = render_caret("error", "bad", None, "1d6[日本]+é", Span::at(8));
        assert_eq!(
            text.lines().nth(2).unwrap(),
            format!("  {}^", " ".repeat(10))
        );
        let text = render_caret("error", "bad", None, "1d6[🔥]+x", Span::at(7));
        assert_eq!(
            text.lines().nth(2).unwrap(),
            format!("  {}^", " ".repeat(8))
        );
    }

    /// An escape character in the expression is not sent to the terminal.
    #[test]
    fn control_characters_print_as_replacement_characters() {
        let text = render_caret("error", "bad", None, "1d6\u{1b}[31mX", Span::at(3));
        assert!(!text.contains('\u{1b}'));
        assert!(text.contains("1d6\u{fffd}[31mX"));
    }

    #[test]
    fn long_expressions_are_cut_around_the_error() {
        let expr = "+1".repeat(500);
        let text = render_caret("error", "bad", None, &expr, Span::at(500));
        let line = text.lines().nth(1).unwrap();
        assert!(line.starts_with("  …") && line.ends_with('…'));
        assert!(line.chars().count() < 130);
        let caret = text.lines().nth(2).unwrap();
        assert_eq!(caret.find('^').unwrap(), 2 + 1 + CONTEXT_CHARS);
    }

    #[test]
    fn caret_at_end_of_input_points_past_the_last_character() {
        let text = render_caret("error", "bad", None, "4d", Span::at(2));
        assert_eq!(text.lines().nth(2).unwrap(), "    ^");
    }
}
