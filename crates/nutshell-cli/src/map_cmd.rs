//! `nutshell mls map`: battle maps: check and print one, and find the
//! cheapest way across it at the rule text's movement costs.

use crate::exit::Failure;
use crate::scenario::{load_map, load_side};
use clap::{Args, Subcommand};
use nutshell_mls::map::{
    Arc, BattleMap, Facing, MissileKind, Pose, Square, Token, arc, arrow, cheapest_path,
    may_shoot_into, picture,
};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// `nutshell mls map`: draw a map (with the sides on it), or one of its
/// subcommands.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MapArgs {
    #[command(subcommand)]
    pub command: Option<MapCommand>,
    /// The map to draw: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: Option<PathBuf>,
    /// The two sides to place on it by its starts (A.toml B.toml)
    #[arg(value_name = "SIDE.toml", num_args = 0..=2)]
    pub sides: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum MapCommand {
    /// Check a map file and print it with column letters, row numbers and the starts
    Show(ShowArgs),
    /// The cheapest movement from one square and facing to another square, step by step
    Path(PathArgs),
    /// The four arcs of fire around a square and facing
    Arcs(ArcsArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The map: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WeaponArg {
    /// A bow: Forward and Left (Right when left-handed)
    Bow,
    /// A throwing weapon: as a bow
    Thrown,
    /// Any other missile weapon (a gun, a crossbow): Forward, Left and Right
    Other,
    /// A mounted, trained horse archer's bow: the Rear as well
    HorseArcher,
    /// An offensive spell: Forward only
    Spell,
}

#[derive(Debug, Clone, Args)]
pub struct ArcsArgs {
    /// The map: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: PathBuf,
    /// The shooter's square and facing, such as C3:north (or a combatant the map places)
    #[arg(long, value_name = "SQUARE:FACING|NAME")]
    pub at: String,
    /// Which missile: the arcs it may shoot into are drawn in capitals
    #[arg(long, value_enum, default_value = "bow")]
    pub weapon: WeaponArg,
    /// A left-handed shooter (bows and throwing weapons go Right, not Left)
    #[arg(long)]
    pub left_handed: bool,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PathArgs {
    /// The map: a TOML file (docs/mls/map.md)
    #[arg(value_name = "MAP.toml")]
    pub map: PathBuf,
    /// The starting square, such as B2 or B2:north, or the name of a combatant placed by the map
    #[arg(long, value_name = "SQUARE[:FACING]|NAME")]
    pub from: String,
    /// The starting facing (north, east, south, west); a placed combatant's by default
    #[arg(long, value_name = "FACING")]
    pub facing: Option<String>,
    /// The square to reach (SQUARE:FACING to end facing that way)
    #[arg(long, value_name = "SQUARE[:FACING]")]
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

pub fn run(args: &MapArgs) -> Result<(), Failure> {
    match (&args.command, &args.map) {
        (Some(MapCommand::Show(show_args)), _) => show(show_args),
        (Some(MapCommand::Path(path_args)), _) => path(path_args),
        (Some(MapCommand::Arcs(arcs_args)), _) => arcs(arcs_args),
        (None, Some(map)) if args.sides.is_empty() => show(&ShowArgs { map: map.clone() }),
        (None, Some(map)) => draw_sides(map, &args.sides),
        (None, None) => Err(Failure::bad_input(
            "error: name a map to draw (nutshell mls map MAP.toml [A.toml B.toml]), or a subcommand: show, path, arcs".to_string(),
        )),
    }
}

/// `nutshell mls path`.
pub fn run_path(args: &PathArgs) -> Result<(), Failure> {
    path(args)
}

/// `nutshell mls arcs`.
pub fn run_arcs(args: &ArcsArgs) -> Result<(), Failure> {
    arcs(args)
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

fn show(args: &ShowArgs) -> Result<(), Failure> {
    let map = load_map(&args.map)?;
    let mut out = anstream::stdout().lock();
    writeln!(
        out,
        "{}: {} columns x {} rows",
        crate::shown::text(&map.name),
        map.width(),
        map.height()
    )?;
    let tokens: Vec<Token> = map
        .starts
        .iter()
        .map(|s| Token {
            square: s.at,
            mark: arrow(s.facing),
        })
        .chain(map.side_starts.iter().map(|s| Token {
            square: s.at,
            mark: arrow(s.facing),
        }))
        .collect();
    for line in picture(&map, &tokens) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{LEGEND}")?;
    for start in &map.starts {
        writeln!(
            out,
            "{} at {}, facing {}",
            crate::shown::text(&start.who),
            start.at,
            start.facing
        )?;
    }
    for start in &map.side_starts {
        writeln!(
            out,
            "side {} from {}, facing {}, {} a rank",
            crate::shown::text(&start.side),
            start.at,
            start.facing,
            start.width
        )?;
    }
    Ok(())
}

const LEGEND: &str = "legend: . floor  # wall  + closed door  / open door  H ladder  ^ > v < a combatant facing north, east, south, west";

/// `nutshell mls map MAP A B`: the sides placed on the map as a fight
/// would place them.
fn draw_sides(map_path: &std::path::Path, sides: &[PathBuf]) -> Result<(), Failure> {
    let [a, b] = sides else {
        return Err(Failure::bad_input(
            "error: give both sides (nutshell mls map MAP.toml A.toml B.toml)".to_string(),
        ));
    };
    let map = std::sync::Arc::new(load_map(map_path)?);
    let sides = [load_side(a)?, load_side(b)?];
    let options = nutshell_mls::FightOptions {
        map: Some(map),
        ..nutshell_mls::FightOptions::default()
    };
    let fight = nutshell_mls::Fight::new(sides, options)
        .map_err(|e| Failure::bad_input(format!("error: {e}")))?;
    let mut board = crate::fight_view::Board::new(&fight);
    for line in fight.log() {
        board.update(line);
    }
    board.draw(&mut anstream::stdout().lock(), "")?;
    Ok(())
}

/// A pose from `SQUARE:FACING`, `SQUARE` with `facing`, or the name of a
/// combatant the map places (its facing unless `facing` says otherwise).
fn pose(
    flag: &str,
    text: &str,
    facing_flag: &str,
    facing_text: Option<&str>,
    map: &BattleMap,
) -> Result<Pose, Failure> {
    if let Some(start) = map.starts.iter().find(|s| s.who == text) {
        return Ok(Pose {
            square: start.at,
            facing: match facing_text {
                Some(f) => facing(facing_flag, f)?,
                None => start.facing,
            },
        });
    }
    let (square_text, facing_part) = match text.split_once(':') {
        Some((sq, f)) => (sq, Some(f)),
        None => (text, None),
    };
    let facing_text = facing_part.or(facing_text).ok_or_else(|| {
        Failure::bad_input(format!(
            "error: {flag} {text}: give a facing too ({square_text}:north, or {facing_flag}), or name a combatant the map places"
        ))
    })?;
    Ok(Pose {
        square: square(flag, square_text, map)?,
        facing: facing(
            if facing_part.is_some() {
                flag
            } else {
                facing_flag
            },
            facing_text,
        )?,
    })
}

fn path(args: &PathArgs) -> Result<(), Failure> {
    let map = load_map(&args.map)?;
    let start = pose(
        "--from",
        &args.from,
        "--facing",
        args.facing.as_deref(),
        &map,
    )?;
    let (to, to_facing) = match args.to.split_once(':') {
        Some((sq, f)) => (sq, Some(facing("--to", f)?)),
        None => (args.to.as_str(), None),
    };
    let goal = square("--to", to, &map)?;
    let face = match args.face.as_deref() {
        Some(f) => Some(facing("--face", f)?),
        None => to_facing,
    };
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
            "cost": path.cost,
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

fn arcs(args: &ArcsArgs) -> Result<(), Failure> {
    let map = load_map(&args.map)?;
    let shooter = pose("--at", &args.at, "--at", None, &map)?;
    let kind = match args.weapon {
        WeaponArg::Bow | WeaponArg::Thrown => MissileKind::ThrownOrBow,
        WeaponArg::Other => MissileKind::Other,
        WeaponArg::HorseArcher => MissileKind::HorseArcher,
        WeaponArg::Spell => MissileKind::Spell,
    };
    let letter = |a: Arc| match a {
        Arc::Forward => 'f',
        Arc::Left => 'l',
        Arc::Right => 'r',
        Arc::Rear => 'b',
    };
    let mut tokens = Vec::new();
    for y in 0..map.height() {
        for x in 0..map.width() {
            let square = Square::new(x, y);
            if !map.terrain(square).is_some_and(|t| t.passable()) {
                continue;
            }
            let mark = match arc(shooter, square) {
                None => arrow(shooter.facing),
                Some(a) if may_shoot_into(kind, a, args.left_handed) => {
                    letter(a).to_ascii_uppercase()
                }
                Some(a) => letter(a),
            };
            tokens.push(Token { square, mark });
        }
    }
    let allowed: Vec<&str> = [Arc::Forward, Arc::Left, Arc::Right, Arc::Rear]
        .into_iter()
        .filter(|a| may_shoot_into(kind, *a, args.left_handed))
        .map(Arc::name)
        .collect();
    let mut out = anstream::stdout().lock();
    if args.json {
        let object = json!({
            "at": shooter.square.to_string(),
            "facing": shooter.facing.name(),
            "may_shoot_into": allowed,
            "rows": picture(&map, &tokens).into_iter().skip_while(|l| !l.trim_start().starts_with('1')).collect::<Vec<_>>(),
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    for line in picture(&map, &tokens) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "F/f forward, L/l left, R/r right, B/b rear; capitals: the arcs this weapon may shoot into ({}) (mls, Who May Shoot; Who May Cast)",
        allowed.join(", ")
    )?;
    Ok(())
}
