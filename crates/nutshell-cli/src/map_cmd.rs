//! `nutshell mls map`: battle maps: check and print one, and find the
//! cheapest way across it at the rule text's movement costs.

use crate::exit::Failure;
use clap::{Args, Subcommand};
use nutshell_mls::map::{BattleMap, Facing, Pose, Square, cheapest_path};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum MapCommand {
    /// Check a map file and print it with column letters, row numbers and the starts
    Show(ShowArgs),
    /// The cheapest movement from one square and facing to another square, step by step
    Path(PathArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The map: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct PathArgs {
    /// The map: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: PathBuf,
    /// The starting square, such as B2, or the name of a combatant placed by the map
    #[arg(long, value_name = "SQUARE|NAME")]
    pub from: String,
    /// The starting facing (north, east, south, west); a placed combatant's by default
    #[arg(long, value_name = "FACING")]
    pub facing: Option<String>,
    /// The square to reach
    #[arg(long, value_name = "SQUARE")]
    pub to: String,
    /// The facing to end with (any, if not given)
    #[arg(long, value_name = "FACING")]
    pub face: Option<String>,
    /// The mover's length in squares (more than 1: a long creature, 2 MP to turn to the rear)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub length: u32,
    /// The most movement points to spend
    #[arg(long, value_name = "MP", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub budget: u32,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(command: &MapCommand) -> Result<(), Failure> {
    match command {
        MapCommand::Show(args) => show(args),
        MapCommand::Path(args) => path(args),
    }
}

fn load(path: &std::path::Path) -> Result<BattleMap, Failure> {
    let text = crate::files::read_text(path)?;
    BattleMap::parse(&path.display().to_string(), &text)
        .map_err(|e| Failure::bad_input(format!("error: {e}")))
}

fn square(flag: &str, text: &str, map: &BattleMap) -> Result<Square, Failure> {
    let square = Square::parse(text).ok_or_else(|| {
        Failure::bad_input(format!(
            "error: {flag} {text}: not a square (a column's letters and a row's number, such as E5)"
        ))
    })?;
    if map.terrain(square).is_none() {
        return Err(Failure::bad_input(format!(
            "error: {flag} {square}: off the map ({} columns, {} rows)",
            map.width(),
            map.height()
        )));
    }
    Ok(square)
}

fn facing(flag: &str, text: &str) -> Result<Facing, Failure> {
    Facing::parse(text).ok_or_else(|| {
        Failure::bad_input(format!(
            "error: {flag} {text}: not a facing (north, east, south or west)"
        ))
    })
}

fn arrow(facing: Facing) -> char {
    match facing {
        Facing::North => '^',
        Facing::East => '>',
        Facing::South => 'v',
        Facing::West => '<',
    }
}

fn show(args: &ShowArgs) -> Result<(), Failure> {
    let map = load(&args.map)?;
    let mut out = anstream::stdout().lock();
    writeln!(
        out,
        "{}: {} columns x {} rows",
        map.name,
        map.width(),
        map.height()
    )?;
    let label = |x: u32| {
        Square::new(x, 0)
            .to_string()
            .trim_end_matches('1')
            .to_string()
    };
    let widest = label(map.width() - 1).len();
    let margin = map.height().to_string().len();
    for line in 0..widest {
        let header: String = (0..map.width())
            .map(|x| {
                let l = label(x);
                let pad = widest - l.len();
                if line < pad {
                    ' '
                } else {
                    l.as_bytes()[line - pad] as char
                }
            })
            .collect();
        writeln!(out, "{:margin$} {header}", "")?;
    }
    let rows = map.rows();
    for (y, row) in rows.iter().enumerate() {
        let mut cells: Vec<char> = row.chars().collect();
        for start in map.starts.iter().filter(|s| s.at.y as usize == y) {
            cells[start.at.x as usize] = arrow(start.facing);
        }
        let row: String = cells.into_iter().collect();
        writeln!(out, "{:>margin$} {row}", y + 1)?;
    }
    writeln!(
        out,
        "legend: . floor  # wall  + closed door  / open door  ^ > v < a combatant facing north, east, south, west"
    )?;
    for start in &map.starts {
        writeln!(
            out,
            "{} at {}, facing {}",
            start.who, start.at, start.facing
        )?;
    }
    Ok(())
}

fn path(args: &PathArgs) -> Result<(), Failure> {
    let map = load(&args.map)?;
    let placed = map.starts.iter().find(|s| s.who == args.from);
    let start = match placed {
        Some(start) => Pose {
            square: start.at,
            facing: match &args.facing {
                Some(f) => facing("--facing", f)?,
                None => start.facing,
            },
        },
        None => Pose {
            square: square("--from", &args.from, &map)?,
            facing: facing(
                "--facing",
                args.facing.as_deref().ok_or_else(|| {
                    Failure::bad_input(format!(
                        "error: --from {}: give --facing too (or name a combatant the map places)",
                        args.from
                    ))
                })?,
            )?,
        },
    };
    let goal = square("--to", &args.to, &map)?;
    let face = args
        .face
        .as_deref()
        .map(|f| facing("--face", f))
        .transpose()?;
    let others: Vec<Square> = map
        .starts
        .iter()
        .map(|s| s.at)
        .filter(|s| *s != start.square)
        .collect();
    let blocked = |s: Square| others.contains(&s);
    let found = cheapest_path(&map, start, args.length, args.budget, &blocked, &|p| {
        p.square == goal && face.is_none_or(|f| f == p.facing)
    });
    let mut out = anstream::stdout().lock();
    let Some(path) = found else {
        return Err(Failure::bad_input(format!(
            "error: no way from {} facing {} to {goal} within {} MP (walls, doors and combatants in the way)",
            start.square, start.facing, args.budget
        )));
    };
    if args.json {
        let steps: Vec<_> = path
            .steps
            .iter()
            .zip(path.describe(&map))
            .map(|((_, pose, cost), text)| {
                json!({"square": pose.square.to_string(), "facing": pose.facing.name(), "mp": cost, "text": text})
            })
            .collect();
        let object = json!({
            "from": start.square.to_string(),
            "facing": start.facing.name(),
            "to": goal.to_string(),
            "mp": path.cost,
            "steps": steps,
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    for line in path.describe(&map) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "{} MP in all (mls, Forward Movement; Diagonal Movement; Sideways and Rearward Movement)",
        path.cost
    )?;
    Ok(())
}
