//! The map drawn as text: column letters over the grid, row numbers down
//! its side, one character a square, tokens over the terrain.

use super::grid::{Facing, Square};
use super::terrain::BattleMap;

/// Something drawn on a square over the terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Where.
    pub square: Square,
    /// The character drawn.
    pub mark: char,
}

/// The arrow for a facing: `^`, `>`, `v`, `<`.
pub fn arrow(facing: Facing) -> char {
    match facing {
        Facing::North => '^',
        Facing::East => '>',
        Facing::South => 'v',
        Facing::West => '<',
    }
}

/// The map as lines of text: the column letters (stacked when a column has
/// more than one), then each row with its number, the tokens drawn over the
/// terrain (a later token over an earlier one on the same square).
///
/// ```
/// use nutshell_mls::map::{picture, BattleMap, Square, Token};
/// let map = BattleMap::parse("m.toml", "rows = '''\n#...\n#.+.\n'''\n")?;
/// let lines = picture(&map, &[Token { square: Square::parse("B1").unwrap(), mark: '>' }]);
/// assert_eq!(lines, ["  ABCD", "1 #>..", "2 #.+."]);
/// # Ok::<(), nutshell_mls::FightError>(())
/// ```
pub fn picture(map: &BattleMap, tokens: &[Token]) -> Vec<String> {
    let label = |x: u32| {
        Square::new(x, 0)
            .to_string()
            .trim_end_matches('1')
            .to_string()
    };
    let widest = label(map.width().saturating_sub(1)).len();
    let margin = map.height().to_string().len();
    let mut lines = Vec::new();
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
        lines.push(format!("{:margin$} {header}", ""));
    }
    let mut rows: Vec<Vec<char>> = map.rows().iter().map(|r| r.chars().collect()).collect();
    for t in tokens {
        if let Some(cell) = rows
            .get_mut(t.square.y as usize)
            .and_then(|r| r.get_mut(t.square.x as usize))
        {
            *cell = t.mark;
        }
    }
    for (y, row) in rows.into_iter().enumerate() {
        let row: String = row.into_iter().collect();
        lines.push(format!("{:>margin$} {row}", y + 1));
    }
    lines
}
