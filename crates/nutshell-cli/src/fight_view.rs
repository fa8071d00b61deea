//! A fight shown at the terminal between its steps: the state of every
//! fighter (`state_table`), the map as the log tells it (`Board`) and the
//! checks earned (`write_checks`), for `mls fight`, `mls play` and `mls map`.

use comfy_table::{Table, presets};
use nutshell_mls::Fight;
use nutshell_mls::map::{BattleMap, Facing, Square, Token, arrow, picture};
use std::io::Write;

/// The fighters' state: health, Fate Points, standing.
pub fn state_table(fight: &Fight) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    table.set_header(vec![
        "combatant",
        "side",
        "CHP",
        "THP",
        "state",
        "Fate Points",
    ]);
    for f in fight.fighters() {
        table.add_row(vec![
            crate::shown::text(&f.sheet.name).into_owned(),
            crate::shown::text(&fight.side_names()[f.side]).into_owned(),
            f.chp.to_string(),
            f.sheet.thp.to_string(),
            f.state.name().to_string(),
            f.fate_points.to_string(),
        ]);
    }
    table
}

/// A fight's map as its log tells it: where everyone stands, line by line,
/// drawn between turns by `mls fight --show-map`.
pub struct Board {
    map: Option<BattleMap>,
    sides: Vec<(String, String)>,
    at: std::collections::BTreeMap<String, nutshell_mls::log::Placement>,
}

impl Board {
    /// An empty board for `fight`'s map (nothing is drawn without one).
    pub fn new(fight: &nutshell_mls::Fight) -> Board {
        let names = fight.side_names();
        Board {
            map: fight.map_at_start().cloned(),
            sides: fight
                .fighters()
                .iter()
                .map(|f| (f.sheet.name.clone(), names[f.side].clone()))
                .collect(),
            at: std::collections::BTreeMap::new(),
        }
    }

    /// Takes in a log line's positions.
    pub fn update(&mut self, line: &nutshell_mls::log::Line) {
        for p in &line.positions {
            self.at.insert(p.name.clone(), p.clone());
        }
        if let Some(map) = &mut self.map {
            for door in line.opened.iter().filter_map(|d| Square::parse(d)) {
                map.set_terrain(door, nutshell_mls::map::Terrain::OpenDoor);
            }
            for door in line.closed.iter().filter_map(|d| Square::parse(d)) {
                map.set_terrain(door, nutshell_mls::map::Terrain::ClosedDoor);
            }
        }
    }

    /// Draws the map with everyone where the log has put them so far,
    /// under `title`.
    pub fn draw(&self, out: &mut impl Write, title: &str) -> std::io::Result<()> {
        let Some(map) = &self.map else {
            return Ok(());
        };
        let mut tokens = Vec::new();
        for fallen in [true, false] {
            for p in self.at.values() {
                let Some(square) = Square::parse(&p.square) else {
                    continue;
                };
                let mark = match (p.state, Facing::parse(p.facing)) {
                    ("standing", Some(f)) => arrow(f),
                    ("escaped", _) => continue,
                    _ => 'x',
                };
                if (mark == 'x') == fallen {
                    tokens.push(Token { square, mark });
                }
            }
        }
        writeln!(out)?;
        if !title.is_empty() {
            writeln!(out, "  {title}:")?;
        }
        for line in picture(map, &tokens) {
            writeln!(out, "  {line}")?;
        }
        for (name, side) in &self.sides {
            if let Some(p) = self.at.get(name) {
                writeln!(
                    out,
                    "  {} ({}): {}, facing {}{}",
                    crate::shown::text(name),
                    crate::shown::text(side),
                    p.square,
                    p.facing,
                    if p.state == "standing" {
                        String::new()
                    } else {
                        format!(", {}", p.state)
                    }
                )?;
            }
        }
        writeln!(out)?;
        Ok(())
    }
}

/// The checks a fight earned, under `heading` (when there are any), one a
/// line.
pub fn write_checks(
    out: &mut impl Write,
    heading: &str,
    checks: &[nutshell_mls::fight::EarnedCheck],
) -> std::io::Result<()> {
    if checks.is_empty() {
        return Ok(());
    }
    writeln!(out, "{heading}")?;
    for c in checks {
        writeln!(
            out,
            "  {}: {} ({})",
            crate::shown::text(&c.combatant),
            crate::shown::text(&c.skill),
            crate::shown::text(&c.why)
        )?;
    }
    Ok(())
}
