//! MLS characters, rule by rule: every cost, limit and table entry has a test
//! citing the rule text (001, *The Nutshell MLS*) or a project ruling
//! (docs/rulings.md, P-40..P-56).

mod advancement;
mod costs;
mod files;
mod generation;
mod limits;
mod personality;
mod properties;
mod quoting;
mod race;
mod replay;
mod time;

use nutshell_dice::Scripted;
use nutshell_mls::character::validate::{Violation, parse_sheet, validate};
use nutshell_mls::dice::Dice;
use nutshell_mls::sheet::Combatant;

/// A fresh human of 18 with nothing bought: 60 CPs less the soldier
/// occupation (2) = 58 unspent. `traits`, `extra` (lines of the [character]
/// table) and `after` (more tables) vary it.
pub fn sheet_text(traits: &str, cps: i64, extra: &str, after: &str) -> String {
    format!(
        "name = \"Test\"\nthp = 6\ntraits = {{ {traits} }}\n\n[character]\nrace = \"human\"\nage = 18\ncps = {cps}\noccupation = {{ name = \"soldier\", base = \"strength\" }}\n{extra}\n{after}\n"
    )
}

/// Parses a sheet (it must parse and be ready to fight).
pub fn sheet(text: &str) -> Combatant {
    parse_sheet("test.toml", text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The violations of a sheet.
pub fn violations(text: &str) -> Vec<Violation> {
    validate(&sheet(text), Some(text))
}

/// Asserts the sheet breaks exactly one rule, on `field`, whose message and
/// rule contain `words`; returns it.
pub fn one(text: &str, field: &str, words: &str) -> Violation {
    let v = violations(text);
    assert_eq!(v.len(), 1, "expected one violation, got {v:#?}\n{text}");
    let v = v.into_iter().next().unwrap();
    assert_eq!(v.field, field, "{v}");
    let all = format!("{} {}", v.problem, v.rule.clone().unwrap_or_default());
    assert!(all.contains(words), "{all:?} lacks {words:?}");
    v
}

/// Asserts the sheet keeps every rule.
pub fn ok(text: &str) {
    let v = violations(text);
    assert!(v.is_empty(), "{v:#?}\n{text}");
}

/// Runs `f` with dice that show exactly `faces` (all must be used).
pub fn with_faces<T>(faces: &[i64], f: impl FnOnce(&mut Dice) -> T) -> T {
    let mut s = Scripted::new(faces.iter().copied());
    let t = {
        let mut d = Dice::new(&mut s);
        f(&mut d)
    };
    assert_eq!(s.remaining(), 0, "faces left over");
    t
}
