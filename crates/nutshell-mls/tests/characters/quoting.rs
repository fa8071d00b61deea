//! Errors that quote what a user typed keep it on one line (issue "exact
//! odds that are never wrong", item 9: "no input garbles"): a line feed, a
//! carriage return or an escape in a name is written escaped, as Rust's
//! debug quoting writes it, never raw, so an error is one line a terminal
//! shows as it is.

use nutshell_mls::character::advancement::Spend;
use nutshell_mls::character::primary::Base;
use nutshell_mls::character::{Age, time};

/// Texts as an attacker types them: a line feed that would start a forged
/// second line, a carriage return that would overwrite the first, an escape.
const HOSTILE: [&str; 4] = [
    "sword\nerror: forged line",
    "sword\r\nok",
    "x\rOK     ",
    "\u{1b}[2Jgone",
];

fn one_line(error: &str, typed: &str) {
    assert!(
        !error.contains(['\n', '\r', '\u{1b}']),
        "{typed:?} broke the error: {error:?}"
    );
}

#[test]
fn a_spend_names_what_it_cannot_read_on_one_line() {
    for typed in HOSTILE {
        for text in [
            typed.to_string(),
            format!("secondary:{typed}"),
            format!("train:{typed}"),
            format!("money:{typed}"),
            format!("{typed}:x"),
        ] {
            let Err(error) = Spend::parse(&text) else {
                continue;
            };
            one_line(&error, &text);
        }
    }
    // The quoting is Rust's: a plain name reads as before.
    let error = Spend::parse("train:luck").unwrap_err();
    assert_eq!(error, "\"luck\" is not a primary trait");
}

#[test]
fn a_base_an_age_and_an_action_name_what_they_cannot_read_on_one_line() {
    for typed in HOSTILE {
        one_line(&Base::parse(typed).unwrap_err(), typed);
        one_line(
            &Base::parse(&format!("strength+{typed}")).unwrap_err(),
            typed,
        );
        one_line(&Age::parse(typed).unwrap_err(), typed);
        one_line(&time::cost(typed, None).unwrap_err(), typed);
    }
    let error = Age::parse("old\nman").unwrap_err();
    assert!(error.starts_with("\"old\\nman\" is not an age"), "{error}");
}

#[test]
fn a_rules_table_names_its_dice_on_one_line() {
    for typed in HOSTILE {
        let text = format!("dice = {typed:?}\n");
        let error = nutshell_rules::table::Table::parse(&text)
            .unwrap_err()
            .to_string();
        one_line(&error, typed);
    }
}

/// A side file whose names and values hold line feeds: every error that
/// quotes them is one line (an unknown value, an unknown skill, a name given
/// twice).
#[test]
fn a_side_file_names_what_it_cannot_read_on_one_line() {
    let knight = include_str!("../../../../examples/mls/duel/knight.toml");
    for (from, to) in [
        ("coverage = \"full\"", "coverage = \"fu\\nll\""),
        ("mode = \"normal\"", "mode = \"nor\\r\\nmal\""),
        ("skill = \"sword\", dam", "skill = \"sw\\u001bord\", dam"),
        ("name = \"longsword\"", "name = \"long\\nsword\", skill = 1"),
    ] {
        assert!(knight.contains(from), "{from}");
        let text = knight.replace(from, to);
        let error = nutshell_mls::sheet::Side::parse("side", &text)
            .unwrap_err()
            .to_string();
        one_line(&error, to);
    }
}
