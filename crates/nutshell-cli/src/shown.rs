//! User text as the terminal shows it: the one way the command line prints
//! what a user or a file wrote (combatant and character names, `--name`,
//! tables' titles and results, labels, messages, and the errors that quote
//! them).
//!
//! A name may hold anything a file can: NUL, an escape sequence that
//! recolours the terminal or sets its window title, BEL, C1 controls, a
//! right-to-left override (U+202E) that makes text read backwards, a bare
//! carriage return that lets a line overwrite itself. Printed raw, such text
//! drives the terminal instead of being read. So every control character
//! (C0, DEL, C1) and every bidirectional formatting character is shown
//! escaped, as Rust writes it in a string: `\n`, `\r`, `\t`, `\0`, else
//! `\u{1b}`, `\u{202e}`. JSON output is not touched: it keeps the text
//! exact, and JSON escapes control characters itself.
//!
//! Expressions' errors already show control characters as U+FFFD under
//! their caret line (the engine's `render_caret`); this is the same idea for
//! everything else.

use std::borrow::Cow;

/// Whether `c` is shown escaped: a control character, or a bidirectional
/// formatting character (marks, embeddings, overrides, isolates).
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

fn escape(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| hidden(c) && !(keep_newlines && c == '\n'))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One piece of user text, on one line: every hidden character escaped,
/// line breaks included: `"A\u{1b}[31m"` prints as `A\u{1b}[31m`.
pub fn text(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// A message of several lines that quotes user text (an error, a log):
/// every hidden character escaped except the line breaks between its lines.
pub fn lines(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidirectional_characters_are_escaped() {
        assert_eq!(text("Aldric"), "Aldric");
        assert!(matches!(text("Aldric"), Cow::Borrowed(_)));
        assert_eq!(
            text("A\u{1b}[31mred\u{7}\u{0}\r\n\u{202e}cba\u{9b}"),
            "A\\u{1b}[31mred\\u{7}\\0\\r\\n\\u{202e}cba\\u{9b}"
        );
        assert_eq!(lines("one\ntwo\u{1b}"), "one\ntwo\\u{1b}");
        assert_eq!(text("\u{2066}x\u{2069}\t"), "\\u{2066}x\\u{2069}\\t");
        // Ordinary non-ASCII text is untouched.
        assert_eq!(text("Ærwyn 日本 🔥"), "Ærwyn 日本 🔥");
    }

    #[test]
    fn nothing_hidden_survives_any_input() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let s = format!("a{c}b");
            assert!(!text(&s).chars().any(hidden), "{c:?}");
            assert!(!lines(&s).chars().any(|c| hidden(c) && c != '\n'), "{c:?}");
        }
    }
}
