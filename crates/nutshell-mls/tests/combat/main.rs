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
use nutshell_mls::map::BattleMap;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions, Fighter, Progress};
use std::sync::Arc;

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
    fight_with(a, b, FightOptions::default())
}

/// A fight between two sides written as TOML, with `options`.
pub fn fight_with(a: &str, b: &str, options: FightOptions) -> Fight {
    Fight::new([side(a), side(b)], options).unwrap_or_else(|e| panic!("{e}"))
}

/// A fight between two sides written as TOML, `distance` squares apart on
/// the line.
pub fn fight_apart(a: &str, b: &str, distance: i64) -> Fight {
    fight_with(a, b, options_on(None, distance))
}

/// The options of a fight on `map` (TOML), else on the line `distance`
/// squares apart.
pub fn options_on(map: Option<&str>, distance: i64) -> FightOptions {
    FightOptions {
        distance,
        map: map.map(|m| Arc::new(BattleMap::parse("test-map.toml", m).unwrap())),
        ..FightOptions::default()
    }
}

/// A map of `rows`, the combatants placed by `starts` (name, square, facing).
pub fn map_text(rows: &[impl AsRef<str>], starts: &[(&str, &str, &str)]) -> String {
    let rows: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
    let mut toml = format!("rows = '''\n{}\n'''\n", rows.join("\n"));
    for (name, at, facing) in starts {
        toml += &format!("[[start]]\nwho = \"{name}\"\nat = \"{at}\"\nfacing = \"{facing}\"\n");
    }
    toml
}

/// `width` x `height` floor squares.
pub fn open(width: usize, height: usize) -> Vec<String> {
    vec![".".repeat(width); height]
}

/// A fight on a map given as rows, each combatant placed by `starts`
/// (name, square, facing): side A is `a`, side B `b` (TOML).
pub fn on_map(rows: &[impl AsRef<str>], starts: &[(&str, &str, &str)], a: &str, b: &str) -> Fight {
    fight_with(a, b, options_on(Some(&map_text(rows, starts)), 1))
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
