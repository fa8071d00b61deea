use super::*;
use nutshell_rules::table::Table;

const D66: &str = r#"
title = "Encounters"
dice = "d66"

[[rows]]
roll = "11-36"
result = "Nothing"

[[rows]]
roll = "41-65"
result = "A merchant"

[[rows]]
roll = 66
result = "A dragon"
"#;

/// "Number column headers (d6, d66, d666) indicate that you must roll one, two,
/// or three d6s (one per number column) to get a random row." (Tables; RULING N-2)
#[test]
fn rolling_on_a_d66_table() {
    let table = Table::parse(D66).unwrap();
    let r = table.roll(&mut faces(&[6, 6])).unwrap();
    assert_eq!((r.roll, r.row.result.as_str()), (66, "A dragon"));
    let r = table.roll(&mut faces(&[2, 4])).unwrap();
    assert_eq!((r.roll, r.row.result.as_str()), (24, "Nothing"));
    assert!(table.roll(&mut faces(&[7, 1])).is_err());
}

#[test]
fn bad_tables_name_the_line() {
    let gap = D66.replace("roll = 66", "roll = 65");
    assert_eq!(
        Table::parse(&gap).unwrap_err().to_string(),
        "the roll 65 is covered by 2 rows (lines 10, 14)"
    );
    let missing = D66.replace("\"41-65\"", "\"42-65\"");
    assert_eq!(
        Table::parse(&missing).unwrap_err().to_string(),
        "no row covers the roll 41"
    );
    let bad_digit = D66.replace("\"11-36\"", "\"10-36\"");
    assert!(
        Table::parse(&bad_digit)
            .unwrap_err()
            .to_string()
            .starts_with("line 6: roll = \"10-36\": 10 is not a roll of d66")
    );
    let bad_dice = D66.replace("\"d66\"", "\"d20\"");
    assert!(
        Table::parse(&bad_dice)
            .unwrap_err()
            .to_string()
            .contains("line 3: dice = \"d20\"")
    );
    let not_toml = "title = ";
    assert!(
        Table::parse(not_toml)
            .unwrap_err()
            .to_string()
            .starts_with("line 1")
    );
    let unknown = format!("{D66}\ncolour = 1\n");
    assert!(
        Table::parse(&unknown)
            .unwrap_err()
            .to_string()
            .contains("unknown key `colour`")
    );
}

#[test]
fn d6_and_d666_tables() {
    let d6 = "dice = \"d6\"\n[[rows]]\nroll = \"1-3\"\nresult = \"low\"\n[[rows]]\nroll = \"4-6\"\nresult = \"high\"\n";
    let table = Table::parse(d6).unwrap();
    assert_eq!(table.roll(&mut faces(&[5])).unwrap().row.result, "high");
    let d666 = "dice = \"d666\"\n[[rows]]\nroll = \"111-666\"\nresult = \"all\"\n";
    let table = Table::parse(d666).unwrap();
    let r = table.roll(&mut faces(&[1, 2, 3])).unwrap();
    assert_eq!((r.roll, r.faces.len()), (123, 3));
}

const D6_WITH_DICE: &str = r#"
dice = "d6"

[[rows]]
roll = "1-3"
result = "Goblin scouts, 1d6 of them"

[[rows]]
roll = "4-5"
result = "A chest of [[2d6 * 10]] coins and 1d4+1 gems"

[[rows]]
roll = 6
result = "Nothing"
"#;

/// Issue 14 item 14: dice expressions written in a result are rolled with the
/// same dice source, and shown in the transcript and JSON.
#[test]
fn dice_in_a_result_are_rolled_with_the_same_source() {
    let table = Table::parse(D6_WITH_DICE).unwrap();
    let r = table.roll(&mut faces(&[2, 5])).unwrap();
    assert_eq!(r.text, "Goblin scouts, 5 of them");
    assert_eq!(r.rolls.len(), 1);
    assert_eq!(r.rolls[0].roll.text, "1d6 = [5] = 5");
    let r = table.roll(&mut faces(&[4, 3, 6, 2])).unwrap();
    assert_eq!(r.text, "A chest of 90 coins and 3 gems");
    assert_eq!(r.rolls.iter().map(|x| x.total).collect::<Vec<_>>(), [90, 3]);
    let r = table.roll(&mut faces(&[6])).unwrap();
    assert_eq!((r.text.as_str(), r.rolls.len()), ("Nothing", 0));
    // A bad bracketed expression is refused when the table is read, with its line.
    let bad = D6_WITH_DICE.replace("[[2d6 * 10]]", "[[2d6 *]]");
    let e = Table::parse(&bad).unwrap_err().to_string();
    assert!(e.contains("line 9") && e.contains("[[2d6 *]]"), "{e}");
}

/// Issue 14 item 14: `nutshell table FILE --odds` gives each row's exact
/// probability (a d66 row covers its digit rolls out of 36).
#[test]
fn each_rows_exact_probability() {
    let table = Table::parse(D66).unwrap();
    let odds: Vec<(usize, String)> = table
        .odds()
        .into_iter()
        .map(|o| (o.rolls, o.probability))
        .collect();
    // 11-36: 3 tens digits x 6 = 18 rolls; 41-65: 41..46, 51..56, 61..65 = 17.
    assert_eq!(
        odds,
        [
            (18, "1/2".to_string()),
            (17, "17/36".to_string()),
            (1, "1/36".to_string())
        ]
    );
}

/// Issue 23, item 8: a table of thousands of duplicate rows is refused with
/// the first lines and a count of the rest, not every line (once 148 KB).
#[test]
fn duplicate_rows_are_listed_a_screenful_at_most() {
    let mut text = String::from("dice = \"d666\"\n");
    for _ in 0..5000 {
        text.push_str("[[rows]]\nroll = \"111-666\"\nresult = \"x\"\n");
    }
    let e = Table::parse(&text).unwrap_err().to_string();
    assert!(
        e.starts_with("the roll 111 is covered by 5000 rows (lines 3, 6, 9,"),
        "{e}"
    );
    assert!(e.ends_with(" and 4990 more)"), "{e}");
    assert!(e.len() < 200, "{e}");
}

/// Issue 23, item 7: rows are tables; a row written as a list (once read by
/// position) is refused, in the file's words.
#[test]
fn a_row_written_as_a_list_is_refused() {
    for text in [
        "dice = \"d6\"\nrows = [[\"1-6\", \"a\"]]\n",
        "dice = \"d6\"\nrows = [[\"1-6\", \"a\", \"b\"]]\n",
    ] {
        let e = Table::parse(text).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 2: rows[0]: a list where a table is expected (write `{ key = value, ... }` or a [section])"
        );
    }
    let e = Table::parse("dice = 6\n").unwrap_err().to_string();
    assert_eq!(e, "line 1: dice: found 6, expected text in quotes");
}
