//! Steps from every square to the nearest of some squares, around walls: the
//! "which way is the enemy" that a mover heads along when it cannot reach
//! him this turn, and that a fleer runs against.

use std::collections::VecDeque;

use super::grid::Square;
use super::terrain::BattleMap;

/// Steps (to any of the eight squares around, never through a wall nor
/// across a wall's corner, P-64) from each square of a map to the nearest of
/// the sources; `None` where none can be reached.
///
/// ```
/// use nutshell_mls::map::{BattleMap, Distances, Square};
/// let map = BattleMap::parse("m.toml", "rows = '''\n.....\n.###.\n.....\n'''\n")?;
/// let d = Distances::from(&map, [Square::parse("C1").unwrap()]);
/// assert_eq!(d.get(Square::parse("E1").unwrap()), Some(2));
/// assert_eq!(d.get(Square::parse("C3").unwrap()), Some(6)); // around the wall, no corners cut
/// assert_eq!(d.get(Square::parse("C2").unwrap()), None); // a wall
/// # Ok::<(), nutshell_mls::FightError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Distances {
    width: u32,
    steps: Vec<u32>,
}

impl Distances {
    /// Breadth-first from `sources` over the open squares of `map`.
    pub fn from(map: &BattleMap, sources: impl IntoIterator<Item = Square>) -> Distances {
        let (width, height) = (map.width(), map.height());
        let mut steps = vec![u32::MAX; width as usize * height as usize];
        let index = |s: Square| s.y as usize * width as usize + s.x as usize;
        let mut queue = VecDeque::new();
        for s in sources {
            if map.terrain(s).is_some() && steps[index(s)] != 0 {
                steps[index(s)] = 0;
                queue.push_back(s);
            }
        }
        let open = |s: Square| map.terrain(s).is_some_and(|t| t.passable());
        let clear = |s: Square| map.terrain(s).is_some_and(|t| !t.blocks_sight());
        while let Some(s) = queue.pop_front() {
            let next = steps[index(s)] + 1;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let Some(t) = s.offset(dx, dy) else { continue };
                    if !open(t) || steps[index(t)] <= next {
                        continue;
                    }
                    if dx != 0 && dy != 0 {
                        let corners = [s.offset(dx, 0), s.offset(0, dy)];
                        if !corners.into_iter().all(|c| c.is_some_and(clear)) {
                            continue;
                        }
                    }
                    steps[index(t)] = next;
                    queue.push_back(t);
                }
            }
        }
        Distances { width, steps }
    }

    /// The steps from `square` to the nearest source.
    pub fn get(&self, square: Square) -> Option<u32> {
        if square.x >= self.width {
            return None;
        }
        let k = square.y as usize * self.width as usize + square.x as usize;
        self.steps.get(k).copied().filter(|&d| d != u32::MAX)
    }
}
