//! Attack and shooting geometry on the grid: who is in front, the four arcs
//! of fire, range in squares, and line of sight.
//!
//! mls, *Who May Attack*: "may attack any enemy in the hex in front of him.
//! A character with a spear may attack one of the diagonal squares in front
//! of him." (P-67: the "hex" is the square in front.)
//!
//! mls, *Who May Shoot*: "There are four arcs, each delineated by the
//! diagonal lines of squares running through the shooter's square. Forward
//! includes the two diagonals, the other diagonals are included in the Right
//! and Left arcs. Everything else is to the Rear."
//!
//! ```
//! use nutshell_mls::map::{arc, Arc, Facing, Pose, Square};
//! let archer = Pose { square: Square::parse("E5").unwrap(), facing: Facing::North };
//! assert_eq!(arc(archer, Square::parse("G3").unwrap()), Some(Arc::Forward)); // front diagonal
//! assert_eq!(arc(archer, Square::parse("G7").unwrap()), Some(Arc::Right));   // rear diagonal
//! assert_eq!(arc(archer, Square::parse("E9").unwrap()), Some(Arc::Rear));
//! ```

use super::grid::{Facing, Square};
use super::movement::{Hand, Pose};
use super::terrain::BattleMap;

/// One of the four arcs around a shooter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arc {
    /// In front, both front diagonals included.
    Forward,
    /// To the left, the rear-left diagonal included.
    Left,
    /// To the right, the rear-right diagonal included.
    Right,
    /// Behind.
    Rear,
}

impl Arc {
    /// `forward`, `left`, `right` or `rear`.
    pub fn name(self) -> &'static str {
        match self {
            Arc::Forward => "forward",
            Arc::Left => "left",
            Arc::Right => "right",
            Arc::Rear => "rear",
        }
    }
}

/// The offset of `target` from `pose` in the pose's own terms: (squares
/// ahead, squares to the right).
fn relative(pose: Pose, target: Square) -> (i64, i64) {
    let dx = i64::from(target.x) - i64::from(pose.square.x);
    let dy = i64::from(target.y) - i64::from(pose.square.y);
    match pose.facing {
        Facing::North => (-dy, dx),
        Facing::East => (dx, dy),
        Facing::South => (dy, -dx),
        Facing::West => (-dx, -dy),
    }
}

/// The arc `target` lies in, seen from `pose`; `None` for the shooter's own
/// square.
pub fn arc(pose: Pose, target: Square) -> Option<Arc> {
    let (ahead, right) = relative(pose, target);
    if ahead == 0 && right == 0 {
        return None;
    }
    Some(if ahead > 0 && right.abs() <= ahead {
        Arc::Forward
    } else if ahead < 0 && right.abs() < -ahead {
        Arc::Rear
    } else if right < 0 {
        Arc::Left
    } else {
        Arc::Right
    })
}

/// What a missile weapon may shoot into (mls, *Who May Shoot*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissileKind {
    /// Throwing weapons and bows: Forward and the off side (Left, or Right
    /// for a left-handed character).
    ThrownOrBow,
    /// Every other missile weapon (such as guns): Forward, Left and Right.
    Other,
    /// A trained horse archer, mounted and riding away: the Rear as well.
    HorseArcher,
    /// An offensive spell (mls, *Who May Cast*): Forward only.
    Spell,
}

/// Whether a shot of `kind` may go into `arc`; `left_handed` swaps Left for
/// Right for throwing weapons and bows.
pub fn may_shoot_into(kind: MissileKind, arc: Arc, left_handed: bool) -> bool {
    let off_side = if left_handed { Arc::Right } else { Arc::Left };
    match kind {
        MissileKind::Spell => arc == Arc::Forward,
        MissileKind::ThrownOrBow => arc == Arc::Forward || arc == off_side,
        MissileKind::Other => arc != Arc::Rear,
        MissileKind::HorseArcher => arc == Arc::Forward || arc == off_side || arc == Arc::Rear,
    }
}

/// The squares a character standing at `pose` may attack in close combat:
/// the square in front, and with a spear also the two front diagonals (it
/// picks one of them to attack: mls, *Who May Attack*).
pub fn attackable(pose: Pose, spear: bool) -> Vec<Square> {
    let front = pose.square.step(pose.facing);
    let mut squares: Vec<Square> = front.into_iter().collect();
    if spear && let Some(front) = front {
        for hand in [Hand::Left, Hand::Right] {
            let side = match hand {
                Hand::Left => pose.facing.left(),
                Hand::Right => pose.facing.right(),
            };
            squares.extend(front.step(side));
        }
    }
    squares
}

/// The range from `from` to `to` in squares (P-66): the longer axis plus
/// half the shorter, rounded down, so every second diagonal square counts
/// two, as diagonal movement costs alternate 2 and 1.
pub fn range(from: Square, to: Square) -> u32 {
    let dx = from.x.abs_diff(to.x);
    let dy = from.y.abs_diff(to.y);
    dx.max(dy) + dx.min(dy) / 2
}

/// Walks the squares a line from the centre of `from` to the centre of
/// `to` passes through, in order, both ends excluded, calling `visit` with
/// each; where it passes exactly through a corner, with the two squares
/// beside the corner as a pair, since the line only touches them. Stops as
/// soon as `visit` returns false, and returns whether it never did.
fn walk_line(
    from: Square,
    to: Square,
    visit: &mut dyn FnMut(Square, Option<Square>) -> bool,
) -> bool {
    let (x0, y0) = (i64::from(from.x), i64::from(from.y));
    let (x1, y1) = (i64::from(to.x), i64::from(to.y));
    let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
    let (sx, sy) = ((x1 - x0).signum(), (y1 - y0).signum());
    let square = |x: i64, y: i64| Square::new(x as u32, y as u32);
    let (mut x, mut y) = (x0, y0);
    // Walk the grid lines the segment crosses (a supercover line): compare
    // where it meets the next vertical and the next horizontal grid line.
    let (mut ix, mut iy) = (0i64, 0i64);
    while ix < dx || iy < dy {
        // Crossing the next vertical line at t = (2*ix + 1) / (2*dx), the
        // next horizontal at t = (2*iy + 1) / (2*dy); compare by cross-multiplying.
        let vertical = (1 + 2 * ix) * dy;
        let horizontal = (1 + 2 * iy) * dx;
        if vertical == horizontal {
            // Exactly through a corner: the line touches the two squares
            // beside it and goes on diagonally.
            let beside = (square(x + sx, y), square(x, y + sy));
            x += sx;
            y += sy;
            ix += 1;
            iy += 1;
            if !visit(beside.0, Some(beside.1)) {
                return false;
            }
            if (x, y) != (x1, y1) && !visit(square(x, y), None) {
                return false;
            }
        } else {
            if vertical < horizontal {
                x += sx;
                ix += 1;
            } else {
                y += sy;
                iy += 1;
            }
            if (x, y) != (x1, y1) && !visit(square(x, y), None) {
                return false;
            }
        }
    }
    true
}

/// The squares [`walk_line`] visits, collected.
#[cfg(test)]
fn crossed(from: Square, to: Square) -> Vec<(Square, Option<Square>)> {
    let mut out = Vec::new();
    walk_line(from, to, &mut |a, b| {
        out.push((a, b));
        true
    });
    out
}

/// Whether `from` sees `to` with nothing blocking the shot (P-68): the line
/// between the squares' centres may not pass through a wall or a closed
/// door, nor through a square where `occupied` holds (another combatant is
/// in the way); a line through a corner is blocked only when both squares
/// beside that corner block.
///
/// ```
/// use nutshell_mls::map::{clear_shot, BattleMap, Square};
/// let map = BattleMap::parse("m.toml", "rows = '''\n.....\n..#..\n.....\n'''\n")?;
/// let sq = |n: &str| Square::parse(n).unwrap();
/// assert!(!clear_shot(&map, sq("A2"), sq("E2"), &|_| false)); // through the wall
/// assert!(clear_shot(&map, sq("A1"), sq("E1"), &|_| false));
/// assert!(!clear_shot(&map, sq("A1"), sq("E1"), &|s| s == sq("C1"))); // someone in the way
/// # Ok::<(), nutshell_mls::FightError>(())
/// ```
pub fn clear_shot(
    map: &BattleMap,
    from: Square,
    to: Square,
    occupied: &dyn Fn(Square) -> bool,
) -> bool {
    let blocks = |s: Square| map.terrain(s).is_none_or(|t| t.blocks_sight()) || occupied(s);
    walk_line(from, to, &mut |a, b| match b {
        None => !blocks(a),
        Some(b) => !(blocks(a) && blocks(b)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn pose(name: &str, facing: Facing) -> Pose {
        Pose {
            square: sq(name),
            facing,
        }
    }

    /// mls, Who May Shoot: the four arcs by the diagonals through the
    /// shooter's square; Forward takes both front diagonals, the rear
    /// diagonals go to Left and Right, the rest is Rear.
    #[test]
    fn the_four_arcs_for_every_facing() {
        // Facing north from D4 on a 7 x 7 grid, the arcs drawn out as the
        // rule describes them: F forward (the front diagonals included), L
        // left and R right (the rear diagonals included), B rear.
        let picture = [
            "FFFFFFF", //
            "LFFFFFR", //
            "LLFFFRR", //
            "LLL.RRR", //
            "LLLBRRR", //
            "LLBBBRR", //
            "LBBBBBR",
        ];
        let centre = pose("D4", Facing::North);
        // Facing another side turns the picture with the shooter: a target
        // is in the arc its offset, turned back to north, has in the picture.
        for (turns, facing) in Facing::ALL.into_iter().enumerate() {
            let shooter = Pose { facing, ..centre };
            for y in 0..7i64 {
                for x in 0..7i64 {
                    let (mut dx, mut dy) = (x - 3, y - 3);
                    for _ in 0..turns {
                        (dx, dy) = (dy, -dx);
                    }
                    let drawn = picture[(dy + 3) as usize].as_bytes()[(dx + 3) as usize];
                    let want = match drawn {
                        b'F' => Some(Arc::Forward),
                        b'L' => Some(Arc::Left),
                        b'R' => Some(Arc::Right),
                        b'B' => Some(Arc::Rear),
                        _ => None,
                    };
                    let target = Square::new(x as u32, y as u32);
                    assert_eq!(arc(shooter, target), want, "facing {facing}, {target}");
                }
            }
        }
        // Spot checks facing north from D4.
        assert_eq!(arc(centre, sq("A1")), Some(Arc::Forward)); // front-left diagonal
        assert_eq!(arc(centre, sq("G1")), Some(Arc::Forward)); // front-right diagonal
        assert_eq!(arc(centre, sq("A4")), Some(Arc::Left));
        assert_eq!(arc(centre, sq("A7")), Some(Arc::Left)); // rear-left diagonal
        assert_eq!(arc(centre, sq("G7")), Some(Arc::Right)); // rear-right diagonal
        assert_eq!(arc(centre, sq("D7")), Some(Arc::Rear));
        assert_eq!(arc(centre, sq("C7")), Some(Arc::Rear));
        // Facing east, north is to the left.
        assert_eq!(arc(pose("D4", Facing::East), sq("D1")), Some(Arc::Left));
    }

    /// mls, Who May Shoot: "throwing weapons and bows to front and left
    /// (substitute right if left-handed), and all other weapons (such as
    /// guns) also include the right. Trained horse archers ... fire to the
    /// rear"; Who May Cast: "only a target in the Forward arc".
    #[test]
    fn which_missiles_go_into_which_arcs() {
        use MissileKind::*;
        let all = [Arc::Forward, Arc::Left, Arc::Right, Arc::Rear];
        let allowed = |kind, left_handed| {
            all.into_iter()
                .filter(|a| may_shoot_into(kind, *a, left_handed))
                .collect::<Vec<_>>()
        };
        assert_eq!(allowed(ThrownOrBow, false), [Arc::Forward, Arc::Left]);
        assert_eq!(allowed(ThrownOrBow, true), [Arc::Forward, Arc::Right]);
        assert_eq!(allowed(Other, false), [Arc::Forward, Arc::Left, Arc::Right]);
        assert_eq!(
            allowed(HorseArcher, false),
            [Arc::Forward, Arc::Left, Arc::Rear]
        );
        assert_eq!(allowed(Spell, false), [Arc::Forward]);
    }

    /// mls, Who May Attack: the square in front; with a spear one of the
    /// diagonal squares in front as well (P-67: "hex" is the square).
    #[test]
    fn who_may_be_attacked_in_close_combat() {
        let fighter = pose("C3", Facing::East);
        assert_eq!(attackable(fighter, false), [sq("D3")]);
        assert_eq!(attackable(fighter, true), [sq("D3"), sq("D2"), sq("D4")]);
        // At the map's edge there is nothing in front.
        assert!(attackable(pose("A1", Facing::North), true).is_empty());
    }

    /// P-66: range counts every second diagonal square as two.
    #[test]
    fn range_in_squares() {
        assert_eq!(range(sq("A1"), sq("A11")), 10);
        assert_eq!(range(sq("A1"), sq("B2")), 1);
        assert_eq!(range(sq("A1"), sq("C3")), 3);
        assert_eq!(range(sq("A1"), sq("E5")), 6);
        assert_eq!(range(sq("A1"), sq("K5")), 12);
    }

    /// P-68: walls and closed doors block sight; a line through a corner is
    /// blocked only between two blocking squares; combatants in the line
    /// block the shot.
    #[test]
    fn line_of_sight() {
        let map = BattleMap::parse(
            "m.toml",
            "rows = '''\n......\n.#....\n..#...\n...+..\n......\n'''\n",
        )
        .unwrap();
        let none = |_: Square| false;
        // A1 to D4: the diagonal passes B2 (wall).
        assert!(!clear_shot(&map, sq("A1"), sq("D4"), &none));
        // Along row 1: clear.
        assert!(clear_shot(&map, sq("A1"), sq("F1"), &none));
        // Row 4 through the closed door D4.
        assert!(!clear_shot(&map, sq("A4"), sq("F4"), &none));
        // A3 to C1 passes B2 (a wall) through its middle: blocked; A2 to
        // B1 only touches the corner between A1 and B2, one of which is
        // open: clear.
        assert!(!clear_shot(&map, sq("A3"), sq("C1"), &none));
        assert!(clear_shot(&map, sq("A2"), sq("B1"), &none));
        // B3 to C2 passes exactly between B2 and C3, both walls: blocked.
        assert!(!clear_shot(&map, sq("B3"), sq("C2"), &none));
        // Adjacent squares always see each other unless cut by two walls.
        assert!(clear_shot(&map, sq("E5"), sq("F5"), &none));
        // Someone standing in the line blocks it.
        assert!(!clear_shot(&map, sq("A1"), sq("F1"), &|s| s == sq("C1")));
    }

    /// The crossed squares of straight and diagonal lines.
    #[test]
    fn crossed_squares() {
        let names = |a: &str, b: &str| {
            crossed(sq(a), sq(b))
                .into_iter()
                .map(|(s, t)| match t {
                    None => s.to_string(),
                    Some(t) => format!("{s}|{t}"),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(names("A1", "D1"), ["B1", "C1"]);
        assert_eq!(names("A1", "C3"), ["B1|A2", "B2", "C2|B3"]);
        assert_eq!(names("A1", "C2"), ["B1", "B2"]);
        assert!(names("A1", "B1").is_empty());
    }
}
