//! A fight's setting from the command line: the two side files, the battle
//! map and the options (`ScenarioArgs`), read within the file size limit.
//! What `mls fight`, `mls simulate`, `mls play` and `mls map` all load, so it
//! sits below every one of them.

use crate::exit::Failure;
use clap::{Args, ValueEnum};
use nutshell_mls::FightOptions;
use nutshell_mls::character::Character;
use nutshell_mls::map::BattleMap;
use nutshell_mls::sheet::Side;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Scenario")]
pub struct ScenarioArgs {
    /// The first side: a TOML file with one combatant or a side of [[combatant]]s
    #[arg(value_name = "A.toml")]
    pub a: PathBuf,
    /// The second side
    #[arg(value_name = "B.toml")]
    pub b: PathBuf,
    /// Squares between the sides at the start (1: already engaged in close combat)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(i64).range(1..=10_000))]
    pub distance: i64,
    /// Fight on this battle map (docs/mls/map.md): every combatant placed by
    /// the map's starts, moving square by square; without it the sides face
    /// each other on a line, --distance apart
    #[arg(long, value_name = "MAP.toml", conflicts_with = "distance")]
    pub map: Option<PathBuf>,
    /// The surprised side, which acts second
    #[arg(long, value_enum, value_name = "SIDE")]
    pub surprised: Option<SideId>,
    /// A fight still undecided after this many turns is a draw
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_turns: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SideId {
    /// The first file
    A,
    /// The second file
    B,
}

fn bad(e: nutshell_mls::FightError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

/// Reads a side file (within the file size limit) and parses it.
pub fn load_side(path: &std::path::Path) -> Result<Side, Failure> {
    let text = crate::files::read_text(path)?;
    Side::parse(&path.display().to_string(), &text).map_err(bad)
}

/// The sides and options of a scenario's flags.
pub fn load_scenario(
    scenario: &ScenarioArgs,
    log: bool,
) -> Result<([Side; 2], FightOptions), Failure> {
    let sides = [load_side(&scenario.a)?, load_side(&scenario.b)?];
    let map = match &scenario.map {
        Some(path) => Some(std::sync::Arc::new(load_map(path)?)),
        None => None,
    };
    let options = FightOptions {
        max_turns: scenario.max_turns,
        log,
        distance: scenario.distance,
        surprised: scenario.surprised.map(|s| s as usize),
        map,
    };
    Ok((sides, options))
}

/// Reads a battle map file (within the file size limit) and parses it.
pub fn load_map(path: &std::path::Path) -> Result<BattleMap, Failure> {
    let text = crate::files::read_text(path)?;
    BattleMap::parse(&path.display().to_string(), &text)
        .map_err(|e| Failure::bad_input(format!("error: {e}")))
}

/// `--record`: each character sheet among the scenario's files (a file
/// named twice, once) given to `add` (its file as shown, its combatant's
/// name, its character table, and the lines said so far), which returns
/// what it added; a sheet added to is rewritten keeping its layout, with a
/// line saying so. A file that is not one character sheet is said when
/// `say_not_a_sheet`, else passed over. Returns the lines said.
pub fn record_on_sheets(
    scenario: &ScenarioArgs,
    say_not_a_sheet: bool,
    mut add: impl FnMut(&str, &str, &mut Character, &mut Vec<String>) -> Vec<String>,
) -> Result<Vec<String>, Failure> {
    use nutshell_mls::character::validate::{parse_sheet, to_toml};
    let mut done = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for path in [&scenario.a, &scenario.b] {
        if !seen.insert(path.clone()) {
            continue;
        }
        let shown = path.display().to_string();
        let text = crate::files::read_text(path)?;
        let Ok(mut sheet) = parse_sheet(&shown, &text) else {
            if say_not_a_sheet {
                done.push(format!(
                    "{shown}: not a character sheet: no checks recorded"
                ));
            }
            continue;
        };
        let name = sheet.name.clone();
        let Some(ch) = sheet.character.as_mut() else {
            continue;
        };
        let added = add(&shown, &name, ch, &mut done);
        if added.is_empty() {
            continue;
        }
        let new_text = to_toml(&sheet).map_err(bad)?;
        crate::sheet_file::rewrite(path, &text, &new_text)?;
        done.push(format!(
            "{shown}: recorded check(s) on {} (roll them with `nutshell mls advance {shown} --adventure ...`)",
            added.join(", ")
        ));
    }
    Ok(done)
}
