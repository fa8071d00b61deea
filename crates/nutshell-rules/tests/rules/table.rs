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
        "the roll 65 is covered by more than one row (lines 10, 14)"
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
            .contains("unknown field")
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
