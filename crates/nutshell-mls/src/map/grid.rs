//! Squares, facings and their names.
//!
//! A square is named as a referee reads a printed grid: its column as
//! letters (`A` to `Z`, then `AA`, `AB`, ... as in a spreadsheet) and its row
//! as a number from 1 at the top: `E5`. North is the top of the map.
//!
//! ```
//! use nutshell_mls::map::{Facing, Square};
//! let e5 = Square::parse("E5").unwrap();
//! assert_eq!((e5.x, e5.y), (4, 4));
//! assert_eq!(e5.step(Facing::North).unwrap().to_string(), "E4");
//! assert_eq!(Square::new(27, 0).to_string(), "AB1");
//! assert_eq!(Facing::East.back(), Facing::West);
//! ```

use std::fmt;

/// A square of the grid: column `x` from 0 at the left, row `y` from 0 at
/// the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The column, from 0.
    pub x: u32,
    /// The row, from 0 (row 1 of the printed grid).
    pub y: u32,
}

impl Square {
    /// The square at column `x`, row `y` (both from 0).
    pub fn new(x: u32, y: u32) -> Square {
        Square { x, y }
    }

    /// Reads a name such as `E5` or `ab12` (letters any case).
    pub fn parse(name: &str) -> Option<Square> {
        let name = name.trim();
        let split = name.find(|c: char| !c.is_ascii_alphabetic())?;
        let (letters, digits) = name.split_at(split);
        if letters.is_empty() || letters.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut column: u64 = 0;
        for c in letters.bytes() {
            column = column * 26 + u64::from(c.to_ascii_uppercase() - b'A' + 1);
        }
        let row: u64 = digits.parse().ok()?;
        if row == 0 {
            return None;
        }
        Some(Square::new(
            u32::try_from(column - 1).ok()?,
            u32::try_from(row - 1).ok()?,
        ))
    }

    /// The square `dx`, `dy` away, if it has non-negative coordinates.
    pub fn offset(self, dx: i32, dy: i32) -> Option<Square> {
        Some(Square::new(
            self.x.checked_add_signed(dx)?,
            self.y.checked_add_signed(dy)?,
        ))
    }

    /// The next square toward `facing`.
    pub fn step(self, facing: Facing) -> Option<Square> {
        let (dx, dy) = facing.delta();
        self.offset(dx, dy)
    }

    /// Whether `other` is one of the eight squares around this one.
    pub fn adjacent(self, other: Square) -> bool {
        self != other && self.x.abs_diff(other.x) <= 1 && self.y.abs_diff(other.y) <= 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut letters = Vec::new();
        let mut n = u64::from(self.x) + 1;
        while n > 0 {
            let rem = (n - 1) % 26;
            letters.push(b'A' + rem as u8);
            n = (n - 1) / 26;
        }
        letters.reverse();
        let letters = String::from_utf8(letters).expect("ASCII letters");
        write!(f, "{letters}{}", u64::from(self.y) + 1)
    }
}

/// The side of its square a character faces (mls, *Forward Movement*: "All
/// characters face a particular side of their square").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facing {
    /// Toward row 1.
    North,
    /// Toward the last column.
    East,
    /// Toward the last row.
    South,
    /// Toward column A.
    West,
}

impl Facing {
    /// All four, clockwise from north.
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    /// The step one square forward: (dx, dy).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }

    /// A quarter turn to the right (clockwise).
    pub fn right(self) -> Facing {
        Facing::ALL[(self.index() + 1) % 4]
    }

    /// A quarter turn to the left.
    pub fn left(self) -> Facing {
        Facing::ALL[(self.index() + 3) % 4]
    }

    /// The rear.
    pub fn back(self) -> Facing {
        Facing::ALL[(self.index() + 2) % 4]
    }

    /// 0 to 3, clockwise from north.
    pub fn index(self) -> usize {
        match self {
            Facing::North => 0,
            Facing::East => 1,
            Facing::South => 2,
            Facing::West => 3,
        }
    }

    /// Reads `north`, `n`, `east`, `e`, ... (any case).
    pub fn parse(text: &str) -> Option<Facing> {
        match text.trim().to_ascii_lowercase().as_str() {
            "north" | "n" => Some(Facing::North),
            "east" | "e" => Some(Facing::East),
            "south" | "s" => Some(Facing::South),
            "west" | "w" => Some(Facing::West),
            _ => None,
        }
    }

    /// `north`, `east`, `south` or `west`.
    pub fn name(self) -> &'static str {
        match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_across_letter_widths() {
        for x in [0, 1, 25, 26, 27, 51, 52, 499, 701, 702, 18_277] {
            for y in [0, 9, 499] {
                let square = Square::new(x, y);
                assert_eq!(Square::parse(&square.to_string()), Some(square), "{square}");
            }
        }
        assert_eq!(Square::new(25, 0).to_string(), "Z1");
        assert_eq!(Square::new(26, 0).to_string(), "AA1");
        assert_eq!(Square::parse("e5"), Some(Square::new(4, 4)));
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "5", "E", "E0", "5E", "E5x", "É5", "ABCDE1", "E-1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn turns_and_steps() {
        assert_eq!(Facing::North.right(), Facing::East);
        assert_eq!(Facing::North.left(), Facing::West);
        assert_eq!(Facing::South.back(), Facing::North);
        assert_eq!(Square::new(0, 0).step(Facing::North), None);
        assert!(Square::new(1, 1).adjacent(Square::new(2, 2)));
        assert!(!Square::new(1, 1).adjacent(Square::new(3, 1)));
    }
}
