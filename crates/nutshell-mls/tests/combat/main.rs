//! The MLS tactical layer, rule by rule: each test cites the heading of the
//! rule text (001, *The Nutshell MLS*) or the ruling it holds.

mod any_order;
mod damage;
mod decisions;
mod decisions_rounds;
mod fights;
mod files;
mod health;
mod letter;
mod map_fights;
mod playouts;
mod properties;
mod schedule;
mod sentences;
mod simulate;
mod targets;

use nutshell_dice::Scripted;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions, Fighter, Progress};

/// A side from TOML.
pub fn side(text: &str) -> Side {
    Side::parse("test.toml", text).unwrap_or_else(|e| panic!("{e}"))
}

/// One combatant's TOML: `name`, a melee `skill` (the "blade" skill) and
/// `dam`, `thp`, and any further lines.
pub fn combatant(name: &str, skill: i64, dam: i64, thp: i64, extra: &str) -> String {
    format!(
        "[[combatant]]\nname = \"{name}\"\nthp = {thp}\nskills = {{ blade = {skill} }}\nweapons = [{{ name = \"blade\", skill = \"blade\", dam = {dam} }}]\n{extra}\n"
    )
}

/// A fight between two sides written as TOML, engaged from the start.
pub fn fight(a: &str, b: &str) -> Fight {
    Fight::new([side(a), side(b)], FightOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Resolves one round with exactly these faces (all of them must be used).
pub fn round(fight: &mut Fight, faces: &[i64]) -> Progress {
    let mut dice = Scripted::new(faces.iter().copied());
    let progress = fight
        .step(&mut dice)
        .unwrap_or_else(|e| panic!("{e}\n{}", text(fight)));
    assert_eq!(
        dice.remaining(),
        0,
        "faces left over after the round:\n{}",
        text(fight)
    );
    progress
}

/// The log as text, one line each.
pub fn text(fight: &Fight) -> String {
    fight
        .log()
        .iter()
        .map(|l| format!("[t{} r{}] {}", l.turn, l.round, l.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The combatant named `name`.
pub fn who<'f>(fight: &'f Fight, name: &str) -> &'f Fighter {
    fight
        .fighters()
        .iter()
        .find(|f| f.sheet.name == name)
        .unwrap_or_else(|| panic!("no combatant {name}"))
}

/// Asserts the log has a line containing `part`.
pub fn logged(fight: &Fight, part: &str) {
    assert!(
        fight.log().iter().any(|l| l.text.contains(part)),
        "no log line contains {part:?}:\n{}",
        text(fight)
    );
}
