//! The battle map file: the grid as rows of characters, and where the
//! combatants start.
//!
//! ```toml
//! name = "The crypt"
//! rows = '''
//! ##########
//! #........#
//! #...+....#
//! ##########
//! '''
//!
//! [[start]]
//! who = "Sir Aldric"   # a combatant's name
//! at = "B2"
//! facing = "east"
//! ```
//!
//! The legend, one character a square:
//!
//! | character | square |
//! |---|---|
//! | `.` | floor |
//! | `#` | wall: blocks movement and sight |
//! | `+` | closed door: blocks sight; entering it opens it for 1 movement point more (mls, *Time Costs of Actions*: "Open an unlocked door: 1 movement point") |
//! | `/` | open door: like floor |
//! | `H` | ladder: climbing it costs 1 movement point per half metre of `ladder_height` (3 m, so 6 MP, when left out; mls, *Time Costs of Actions*) |
//!
//! Every row has the same number of squares. Bad maps are refused with the
//! file, line and column of the fault.
//!
//! ```
//! use nutshell_mls::map::{BattleMap, Square, Terrain};
//! let map = BattleMap::parse("m.toml", "rows = '''\n#.+\n#./\n'''\n")?;
//! assert_eq!((map.width(), map.height()), (3, 2));
//! assert_eq!(map.terrain(Square::new(2, 0)), Some(Terrain::ClosedDoor));
//! let err = BattleMap::parse("m.toml", "rows = '''\n#..\n#x.\n'''\n").unwrap_err();
//! assert_eq!(err.to_string(), "m.toml:3:2: unknown square `x` (the legend: `.` floor, `#` wall, `+` closed door, `/` open door, `H` ladder)");
//! # Ok::<(), nutshell_mls::FightError>(())
//! ```

use serde::Deserialize;

use super::grid::{Facing, Square};
use crate::FightError;

/// The most squares a map may have in a row or a column.
pub const MAX_MAP_SIDE: u32 = 1000;

/// What a square of the map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Open ground.
    Floor,
    /// Blocks movement and sight.
    Wall,
    /// Blocks sight; costs 1 movement point to open on the way in.
    ClosedDoor,
    /// Passable like floor.
    OpenDoor,
    /// A ladder in the square: passing it means climbing it, 1 movement
    /// point per half metre of the map's `ladder_height` (mls, *Time Costs
    /// of Actions*: "Climb a ladder within a square: 1 movement point per
    /// half metre").
    Ladder,
}

impl Terrain {
    fn from_char(c: char) -> Option<Terrain> {
        match c {
            '.' => Some(Terrain::Floor),
            '#' => Some(Terrain::Wall),
            '+' => Some(Terrain::ClosedDoor),
            '/' => Some(Terrain::OpenDoor),
            'H' => Some(Terrain::Ladder),
            _ => None,
        }
    }

    /// The legend's character.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Floor => '.',
            Terrain::Wall => '#',
            Terrain::ClosedDoor => '+',
            Terrain::OpenDoor => '/',
            Terrain::Ladder => 'H',
        }
    }

    /// Whether a character may stand in it.
    pub fn passable(self) -> bool {
        self != Terrain::Wall
    }

    /// Whether it stops sight and missiles.
    pub fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Wall | Terrain::ClosedDoor)
    }

    /// Movement points spent on entering it besides the step itself, with
    /// ladders `ladder_mp` to climb.
    pub fn entry_cost(self, ladder_mp: u32) -> u32 {
        match self {
            Terrain::ClosedDoor => 1,
            Terrain::Ladder => ladder_mp,
            _ => 0,
        }
    }
}

const LEGEND: &str = "the legend: `.` floor, `#` wall, `+` closed door, `/` open door, `H` ladder";

/// Where a combatant starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    /// The combatant's name.
    pub who: String,
    /// Its square.
    pub at: Square,
    /// The side of the square it faces.
    pub facing: Facing,
}

/// Where a whole side starts: a block of ranks, `width` squares across,
/// the first combatant at `at`, the rank filling to the right of the
/// facing, the next rank behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideStart {
    /// The side's name.
    pub side: String,
    /// The first combatant's square (the front rank's left end, seen
    /// from behind the side).
    pub at: Square,
    /// The side of the square every combatant faces.
    pub facing: Facing,
    /// Combatants in a rank.
    pub width: u32,
    /// Where the start is written (`file:line:column`), for errors found
    /// when the side is placed.
    pub origin: String,
}

impl SideStart {
    /// The square of the `k`-th combatant of the side (from 0): ranks of
    /// `width` left to right as the side faces, rank after rank toward the
    /// rear; `None` off the map's coordinates.
    ///
    /// ```
    /// use nutshell_mls::map::{Facing, SideStart, Square};
    /// let start = SideStart { side: "Goblins".into(), at: Square::parse("E2").unwrap(),
    ///     facing: Facing::South, width: 3, origin: String::new() };
    /// // Facing south, the rank runs west (their right) and the next rank is north.
    /// assert_eq!(start.square(1).unwrap().to_string(), "D2");
    /// assert_eq!(start.square(3).unwrap().to_string(), "E1");
    /// ```
    pub fn square(&self, k: usize) -> Option<Square> {
        let width = self.width.max(1) as usize;
        let (across, back) = ((k % width) as i64, (k / width) as i64);
        let (rx, ry) = self.facing.right().delta();
        let (bx, by) = self.facing.back().delta();
        let dx = i64::from(rx) * across + i64::from(bx) * back;
        let dy = i64::from(ry) * across + i64::from(by) * back;
        self.at
            .offset(i32::try_from(dx).ok()?, i32::try_from(dy).ok()?)
    }
}

/// A battle map: its squares and the combatants' starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleMap {
    /// The map's name.
    pub name: String,
    width: u32,
    height: u32,
    cells: Vec<Terrain>,
    /// The height a ladder (`H`) climbs, in half metres: each costs 1 MP.
    pub ladder_half_metres: u32,
    /// Where combatants start, by name.
    pub starts: Vec<Start>,
    /// Where whole sides start, by side name.
    pub side_starts: Vec<SideStart>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    #[serde(default)]
    name: Option<String>,
    rows: toml::Spanned<String>,
    #[serde(default)]
    ladder_height: Option<toml::Spanned<f64>>,
    #[serde(default)]
    start: Vec<StartFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartFile {
    #[serde(default)]
    who: Option<String>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    at: toml::Spanned<String>,
    facing: toml::Spanned<String>,
}

/// 1-based line and column of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl BattleMap {
    /// Reads a map from TOML text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<BattleMap, FightError> {
        let at = |offset: usize, message: String| {
            let (line, column) = line_col(text, offset);
            FightError::File(format!("{file}:{line}:{column}: {message}"))
        };
        let parsed: MapFile = nutshell_rules::toml_file::from_str(text).map_err(|e| {
            let message = match e.path.as_str() {
                "" => e.message.clone(),
                path => format!("{path}: {}", e.message),
            };
            match e.span {
                Some(span) => at(span.start, message),
                None => FightError::File(format!("{file}: {message}")),
            }
        })?;
        // Where the rows' text begins in the file: after the opening quotes
        // and the newline a multi-line string drops.
        let span = parsed.rows.span();
        let raw = &text[span.clone()];
        let mut content = span.start;
        for quotes in ["'''", "\"\"\"", "'", "\""] {
            if raw.starts_with(quotes) {
                content += quotes.len();
                break;
            }
        }
        if text[content..].starts_with("\r\n") {
            content += 2;
        } else if text[content..].starts_with('\n') {
            content += 1;
        }
        let rows: Vec<&str> = parsed.rows.get_ref().lines().collect();
        let rows: Vec<&str> = rows.into_iter().map(|r| r.trim_end_matches('\r')).collect();
        let mut width = None;
        let mut cells = Vec::new();
        let mut offset = content;
        for (index, row) in rows.iter().enumerate() {
            let count = row.chars().count();
            if count == 0 {
                return Err(at(offset, format!("row {} is empty", index + 1)));
            }
            match width {
                None => width = Some(count),
                Some(w) if w != count => {
                    return Err(at(
                        offset,
                        format!(
                            "row {} has {count} squares; row 1 has {w} (every row must have as many)",
                            index + 1
                        ),
                    ));
                }
                Some(_) => {}
            }
            for (column, (byte, c)) in row.char_indices().enumerate() {
                let Some(terrain) = Terrain::from_char(c) else {
                    return Err(at(
                        offset + byte,
                        format!("unknown square `{c}` ({LEGEND})"),
                    ));
                };
                let _ = column;
                cells.push(terrain);
            }
            offset += row.len() + 1;
        }
        let Some(width) = width else {
            return Err(at(span.start, "the map has no rows".to_string()));
        };
        let height = rows.len();
        if width > MAX_MAP_SIDE as usize || height > MAX_MAP_SIDE as usize {
            return Err(at(
                span.start,
                format!(
                    "the map is {width} x {height} squares; the most is {MAX_MAP_SIDE} x {MAX_MAP_SIDE}"
                ),
            ));
        }
        let mut map = BattleMap {
            name: parsed.name.unwrap_or_else(|| file.to_string()),
            width: width as u32,
            height: height as u32,
            cells,
            ladder_half_metres: 6,
            starts: Vec::new(),
            side_starts: Vec::new(),
        };
        if let Some(h) = parsed.ladder_height {
            let metres = *h.get_ref();
            if !(0.5..=100.0).contains(&metres) {
                return Err(at(
                    h.span().start,
                    format!("ladder_height {metres}: a ladder is 0.5 to 100 metres high"),
                ));
            }
            // "1 movement point per half metre", the part of a half metre
            // left over rounded down (RULINGS N-1: "always round down"; P-84):
            // a ladder of 1.2 m is 2 MP. At least 0.5 m: at least 1 MP.
            map.ladder_half_metres = (metres * 2.0).floor() as u32;
        }
        for start in parsed.start {
            let square_at = start.at.span().start;
            let (who, side) = match (start.who, start.side) {
                (Some(who), None) => (who, None),
                (None, Some(side)) => (side.clone(), Some(side)),
                _ => {
                    return Err(at(
                        square_at,
                        "a [[start]] names either `who` (one combatant) or `side` (a whole side)"
                            .to_string(),
                    ));
                }
            };
            let Some(square) = Square::parse(start.at.get_ref()) else {
                return Err(at(
                    square_at,
                    format!(
                        "`{}` is not a square (a column's letters and a row's number, such as E5)",
                        start.at.get_ref()
                    ),
                ));
            };
            match map.terrain(square) {
                None => {
                    return Err(at(
                        square_at,
                        format!(
                            "{} starts at {square}, off the map ({} columns, {} rows)",
                            who, map.width, map.height
                        ),
                    ));
                }
                Some(t) if !t.passable() => {
                    return Err(at(square_at, format!("{} starts at {square}, a wall", who)));
                }
                Some(_) => {}
            }
            if let Some(other) = map.starts.iter().find(|s| s.at == square) {
                return Err(at(
                    square_at,
                    format!("{} and {} both start at {square}", other.who, who),
                ));
            }
            if side.is_none() && map.starts.iter().any(|s| s.who == who) {
                return Err(at(square_at, format!("{} is placed twice", who)));
            }
            let Some(facing) = Facing::parse(start.facing.get_ref()) else {
                return Err(at(
                    start.facing.span().start,
                    format!(
                        "`{}` is not a facing (north, east, south or west)",
                        start.facing.get_ref()
                    ),
                ));
            };
            if let Some(side) = side {
                let width = start.width.unwrap_or(10);
                if !(1..=MAX_MAP_SIDE).contains(&width) {
                    return Err(at(
                        square_at,
                        format!("width {width}: a rank is 1..{MAX_MAP_SIDE} squares"),
                    ));
                }
                if map.side_starts.iter().any(|s| s.side == side) {
                    return Err(at(square_at, format!("side {side} is placed twice")));
                }
                let (line, column) = line_col(text, square_at);
                map.side_starts.push(SideStart {
                    side,
                    at: square,
                    facing,
                    width,
                    origin: format!("{file}:{line}:{column}"),
                });
                continue;
            }
            if start.width.is_some() {
                return Err(at(
                    square_at,
                    format!("{who}: `width` is for a side's start"),
                ));
            }
            map.starts.push(Start {
                who,
                at: square,
                facing,
            });
        }
        Ok(map)
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The terrain of `square`, or `None` off the map.
    pub fn terrain(&self, square: Square) -> Option<Terrain> {
        (square.x < self.width && square.y < self.height)
            .then(|| self.cells[(square.y * self.width + square.x) as usize])
    }

    /// Changes a square (a door opened in a fight); off the map, nothing.
    pub fn set_terrain(&mut self, square: Square, terrain: Terrain) {
        if square.x < self.width && square.y < self.height {
            self.cells[(square.y * self.width + square.x) as usize] = terrain;
        }
    }

    /// An open map of `width` x `height` floor squares (a fight without a map
    /// file), at most [`MAX_MAP_SIDE`] a side.
    pub fn open(width: u32, height: u32) -> BattleMap {
        let (width, height) = (width.clamp(1, MAX_MAP_SIDE), height.clamp(1, MAX_MAP_SIDE));
        BattleMap {
            name: "open field".to_string(),
            width,
            height,
            cells: vec![Terrain::Floor; (width * height) as usize],
            ladder_half_metres: 6,
            starts: Vec::new(),
            side_starts: Vec::new(),
        }
    }

    /// The map as rows of legend characters (what the file's `rows` holds).
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| self.cells[(y * self.width + x) as usize].symbol())
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        BattleMap::parse("m.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn a_good_map_reads_back_its_rows_and_starts() {
        let text = "name = \"Hall\"\nrows = '''\n#####\n#..+#\n#./.#\n#####\n'''\n\n[[start]]\nwho = \"Ann\"\nat = \"B2\"\nfacing = \"east\"\n";
        let map = BattleMap::parse("m.toml", text).unwrap();
        assert_eq!(map.name, "Hall");
        assert_eq!(map.rows(), ["#####", "#..+#", "#./.#", "#####"]);
        assert_eq!(
            map.starts,
            [Start {
                who: "Ann".into(),
                at: Square::new(1, 1),
                facing: Facing::East
            }]
        );
    }

    #[test]
    fn bad_maps_are_refused_with_line_and_column() {
        // Ragged rows: the short row's line.
        assert_eq!(
            error("rows = '''\n###\n##\n'''\n"),
            "m.toml:3:1: row 2 has 2 squares; row 1 has 3 (every row must have as many)"
        );
        // An unknown character: its line and column.
        assert_eq!(
            error("rows = '''\n...\n..?\n'''\n"),
            "m.toml:3:3: unknown square `?` (the legend: `.` floor, `#` wall, `+` closed door, `/` open door, `H` ladder)"
        );
        let starts = "rows = '''\n#..\n...\n'''\n[[start]]\nwho = \"Ann\"\nat = ";
        assert_eq!(
            error(&format!("{starts}\"A1\"\nfacing = \"north\"\n")),
            "m.toml:7:6: Ann starts at A1, a wall"
        );
        assert_eq!(
            error(&format!("{starts}\"D1\"\nfacing = \"north\"\n")),
            "m.toml:7:6: Ann starts at D1, off the map (3 columns, 2 rows)"
        );
        assert_eq!(
            error(&format!("{starts}\"B1\"\nfacing = \"up\"\n")),
            "m.toml:8:10: `up` is not a facing (north, east, south or west)"
        );
        assert_eq!(
            error(&format!(
                "{starts}\"B1\"\nfacing = \"north\"\n[[start]]\nwho = \"Bo\"\nat = \"B1\"\nfacing = \"south\"\n"
            )),
            "m.toml:11:6: Ann and Bo both start at B1"
        );
        assert!(error("rows = '''\n'''\n").contains("no rows"));
        assert!(
            error("rows = 5\n").starts_with("m.toml:1:8: "),
            "{}",
            error("rows = 5\n")
        );
        assert!(error("rows = '''\n.\n'''\nbogus = 1\n").contains("bogus"));
    }

    #[test]
    fn a_500_by_500_map_is_read() {
        let row = ".".repeat(500);
        let text = format!("rows = '''\n{}'''\n", format!("{row}\n").repeat(500));
        let map = BattleMap::parse("big.toml", &text).unwrap();
        assert_eq!((map.width(), map.height()), (500, 500));
        let too_big = format!("rows = '''\n{}'''\n", ".".repeat(1001) + "\n");
        assert!(error(&too_big).contains("the most is 1000 x 1000"));
    }
}
