//! Display names of members, rooms and sheets: what a name may hold, and
//! when two names are one.
//!
//! A name is 1 to 64 characters after trimming, with no control character,
//! no invisible character (Unicode's default-ignorable code points: zero
//! width spaces and joiners, soft hyphens, variation selectors, ...), no
//! bidirectional control (`U+202A`-`U+202E`, `U+2066`-`U+2069`, the marks
//! `U+200E`, `U+200F`, `U+061C`) and no line or paragraph separator: each
//! of these can make a name look like another one, or make the text after
//! it run backwards.
//!
//! Two names are one when their confusable skeletons (Unicode TR39, section
//! 4) agree after case is set aside: [`name_key`]. So `GM`, `gm`, `ＧＭ`
//! (fullwidth) and `GМ` (with a Cyrillic `М`) are one name, as are `Ann`
//! and `Аnn` (a Cyrillic `А`); `G M` (a space counts) and `GMs` are others.
//!
//! ```
//! use nutshell_server::names::{check_name, name_key};
//! assert_eq!(name_key("GM"), name_key("ＧＭ"));
//! assert_eq!(name_key("GM"), name_key("G\u{41c}"));
//! assert_eq!(name_key("Ann"), name_key("\u{410}nn"));
//! assert_ne!(name_key("Ann"), name_key("Anna"));
//! assert!(check_name("GM\u{200b}").is_err());
//! assert!(check_name("\u{202e}MG").is_err());
//! assert_eq!(check_name("  Ada  ").unwrap(), "Ada");
//! ```

use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// The most characters a name may have.
pub const MAX_NAME_CHARS: usize = 64;

/// Why a name is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty after trimming.
    #[error("it is empty")]
    Empty,
    /// Over [`MAX_NAME_CHARS`].
    #[error("it has {0} characters; the most is {MAX_NAME_CHARS}")]
    TooLong(usize),
    /// A character that cannot be seen or that turns text around.
    #[error(
        "character {position} is U+{code:04X} ({what}), which is not shown or changes how text around it is shown"
    )]
    Hidden {
        /// 1-based, counted in characters.
        position: usize,
        code: u32,
        what: &'static str,
    },
}

/// What kind of hidden character `c` is, or `None` for a character a name
/// may hold.
pub fn hidden_kind(c: char) -> Option<&'static str> {
    match c {
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => Some("a bidirectional control"),
        '\u{200E}' | '\u{200F}' | '\u{061C}' => Some("a bidirectional mark"),
        '\u{2028}' | '\u{2029}' => Some("a line or paragraph separator"),
        c if c.is_control() => Some("a control character"),
        c if c.identifier_type() == Some(IdentifierType::Default_Ignorable) => {
            Some("an invisible character")
        }
        // Format characters that are not default-ignorable but still draw
        // nothing of their own (Arabic and Syriac marks that prefix numbers,
        // the interlinear annotation marks).
        '\u{0600}'..='\u{0605}'
        | '\u{06DD}'
        | '\u{070F}'
        | '\u{0890}'..='\u{0891}'
        | '\u{08E2}'
        | '\u{110BD}'
        | '\u{110CD}'
        | '\u{FFF9}'..='\u{FFFB}' => Some("a format character"),
        _ => None,
    }
}

/// The name trimmed, or why it is refused.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some((index, c, what)) = name
        .chars()
        .enumerate()
        .find_map(|(i, c)| hidden_kind(c).map(|what| (i, c, what)))
    {
        return Err(NameError::Hidden {
            position: index + 1,
            code: u32::from(c),
            what,
        });
    }
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Err(NameError::TooLong(count));
    }
    Ok(name.to_string())
}

/// The key under which names are compared: the TR39 skeleton of the
/// trimmed name, lowered, and the skeleton of that (so a capital letter of
/// another script that looks like a Latin capital compares as that
/// capital's small letter).
pub fn name_key(name: &str) -> String {
    let first: String = unicode_security::skeleton(name.trim()).collect();
    let lowered = first.to_lowercase();
    unicode_security::skeleton(&lowered).collect()
}

/// Whether two names are one: their [`name_key`]s agree.
pub fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24's look-alikes of `GM` and `Ann` (the review's list): each
    /// is refused as hidden or compares equal to the name it imitates.
    #[test]
    fn the_reviews_look_alike_names_are_refused_or_taken() {
        for hidden in [
            "GM\u{200b}",
            "\u{202e}MG",
            "G\u{2066}M",
            "GM\u{feff}",
            "G\u{ad}M",
        ] {
            assert!(
                matches!(check_name(hidden), Err(NameError::Hidden { .. })),
                "{hidden:?}"
            );
        }
        for alike in ["GM", "gm", "Gm", "\u{ff27}\u{ff2d}", "G\u{41c}", " GM "] {
            assert!(same_name("GM", alike), "{alike:?} ~ GM");
        }
        assert!(same_name("Ann", "\u{ff21}nn"));
        assert!(same_name("Ann", "\u{410}nn"));
        for other in ["GMs", "G M", "MG", "Ada"] {
            assert!(!same_name("GM", other), "{other:?} is another name");
        }
    }

    /// A refusal names the character and where it is.
    #[test]
    fn a_hidden_character_is_named_with_its_position() {
        let error = check_name("Ann\u{200b}").unwrap_err();
        assert_eq!(
            error.to_string(),
            "character 4 is U+200B (an invisible character), which is not shown or changes how text around it is shown"
        );
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"x".repeat(65)), Err(NameError::TooLong(65)));
        assert_eq!(check_name(&"é".repeat(64)).unwrap().chars().count(), 64);
    }

    /// Names people write, in scripts other than Latin, are kept as they
    /// are and stay distinct from each other.
    #[test]
    fn ordinary_names_in_many_scripts_are_accepted() {
        let names = [
            "Ada",
            "Zoë",
            "Łukasz",
            "Дмитрий",
            "Σοφία",
            "李小龍",
            "محمد",
            "O'Brien",
            "Jean-Luc",
            "🐉 Smaug",
        ];
        for name in names {
            assert_eq!(check_name(name).as_deref(), Ok(name), "{name}");
        }
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert!(!same_name(a, b), "{a} vs {b}");
            }
        }
    }
}
