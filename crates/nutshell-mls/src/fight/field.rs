//! Where the combatants stand, and the geometry every other part of a fight
//! asks about: how far apart, adjacent, within reach of a blow.
//!
//! Without a map the sides stand on a line (`Fighter::position`): "how far
//! apart" is a difference and "adjacent" is one square or less. On a battle
//! map (`FightOptions::map`) every combatant has a square and a facing
//! (`Fighter::pose`), a long creature covers the squares behind its own, and
//! an occupancy grid answers "who stands there" in one look-up. The fallen
//! (unconscious or dead) lie on the floor: they block neither movement nor
//! sight (project ruling P-69).

use std::sync::Arc;

use super::Fight;
use crate::error::FightError;
use crate::map::{self, BattleMap, Facing, Pose, Square};

/// The battle map of a fight and who stands where on it.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub(super) map: Arc<BattleMap>,
    /// The map as the fight began (doors closed that have been opened since).
    start: Arc<BattleMap>,
    /// For each square (row by row), the standing combatant there plus one;
    /// 0 for nobody.
    occupant: Vec<u32>,
}

impl Field {
    pub(super) fn new(map: Arc<BattleMap>) -> Field {
        let squares = map.width() as usize * map.height() as usize;
        Field {
            start: Arc::clone(&map),
            map,
            occupant: vec![0; squares],
        }
    }

    fn index(&self, s: Square) -> Option<usize> {
        (s.x < self.map.width() && s.y < self.map.height())
            .then(|| s.y as usize * self.map.width() as usize + s.x as usize)
    }

    /// Opens the closed door on `square` (the map is copied on the first
    /// change, so fights sharing a map do not see each other's doors).
    pub(super) fn open_door(&mut self, square: Square) -> bool {
        if self.map.terrain(square) != Some(map::Terrain::ClosedDoor) {
            return false;
        }
        Arc::make_mut(&mut self.map).set_terrain(square, map::Terrain::OpenDoor);
        true
    }

    /// Closes the open door on `square`.
    pub(super) fn close_door(&mut self, square: Square) -> bool {
        if self.map.terrain(square) != Some(map::Terrain::OpenDoor) || self.at(square).is_some() {
            return false;
        }
        Arc::make_mut(&mut self.map).set_terrain(square, map::Terrain::ClosedDoor);
        true
    }

    /// The standing combatant on `square`, if any.
    pub(super) fn at(&self, square: Square) -> Option<usize> {
        let k = self.index(square)?;
        self.occupant[k].checked_sub(1).map(|i| i as usize)
    }

    fn set(&mut self, square: Square, who: Option<usize>) {
        if let Some(k) = self.index(square) {
            self.occupant[k] = who.map_or(0, |i| i as u32 + 1);
        }
    }
}

impl Fight {
    /// Whether the fight is on a battle map.
    pub fn on_map(&self) -> bool {
        self.field.is_some()
    }

    /// The battle map as it is now (doors opened in the fight stay open),
    /// if the fight has one.
    pub fn map(&self) -> Option<&BattleMap> {
        self.field.as_ref().map(|f| &*f.map)
    }

    /// The battle map as the fight began: with the log's `positions` and
    /// `opened`, what a viewer replays the fight on.
    pub fn map_at_start(&self) -> Option<&BattleMap> {
        self.field.as_ref().map(|f| &*f.start)
    }

    /// The squares `i` covers on the map (its own, then those behind it for
    /// a long creature); empty off the map.
    pub(super) fn squares_of(&self, i: usize) -> impl Iterator<Item = Square> + use<> {
        let f = &self.fighters[i];
        let length = f.sheet.squares_long();
        f.pose
            .into_iter()
            .flat_map(move |pose| map::body_squares(pose, length))
    }

    /// Puts `i` on the occupancy grid (when standing).
    pub(super) fn occupy(&mut self, i: usize) {
        if self.fighters[i].standing() {
            self.mark(i, Some(i));
        }
    }

    /// Takes `i` off the occupancy grid.
    pub(super) fn vacate(&mut self, i: usize) {
        self.mark(i, None);
    }

    /// Marks `i`'s squares as `who`'s (where they are still `i`'s or free).
    fn mark(&mut self, i: usize, who: Option<usize>) {
        let squares = self.squares_of(i);
        if let Some(field) = self.field.as_mut() {
            for s in squares {
                if field.at(s).is_none_or(|j| j == i) {
                    field.set(s, who);
                }
            }
        }
    }

    /// `i` has left the fight (fled beyond reach): off the map too.
    pub(super) fn set_gone(&mut self, i: usize) {
        self.vacate(i);
        self.fighters[i].state = crate::health::State::Escaped;
    }

    /// Moves `i` to `pose` on the map.
    pub(super) fn place(&mut self, i: usize, pose: Pose) {
        self.vacate(i);
        self.fighters[i].pose = Some(pose);
        self.occupy(i);
    }

    /// The standing combatant on `square`.
    pub(super) fn occupant(&self, square: Square) -> Option<usize> {
        self.field.as_ref().and_then(|f| f.at(square))
    }

    /// Whether `square` is taken by a standing combatant other than `i`.
    pub(super) fn taken_for(&self, i: usize, square: Square) -> bool {
        self.occupant(square).is_some_and(|j| j != i)
    }

    /// Squares between `a` and `b`: on the map, the range (P-66) between
    /// their nearest squares.
    pub(super) fn separation(&self, a: usize, b: usize) -> i64 {
        if self.field.is_none() {
            return (self.fighters[a].position - self.fighters[b].position).abs();
        }
        self.squares_of(a)
            .flat_map(|x| self.squares_of(b).map(move |y| map::range(x, y)))
            .min()
            .map_or(i64::MAX, i64::from)
    }

    /// Next to each other: one square apart on the line; on the map, a
    /// square of one among the eight around a square of the other.
    pub(super) fn adjacent(&self, a: usize, b: usize) -> bool {
        if self.field.is_none() {
            return self.separation(a, b) <= 1;
        }
        self.squares_of(a)
            .any(|x| self.squares_of(b).any(|y| x.adjacent(y)))
    }

    /// Whether `i` can strike `j` in close combat where they stand: adjacent
    /// on the line; on the map, `j` on the square in front of `i` (or a
    /// front diagonal, with a spear: mls, *Who May Attack*; P-67).
    pub(super) fn in_reach(&self, i: usize, j: usize) -> bool {
        match self.fighters[i].pose {
            None => self.adjacent(i, j),
            Some(pose) => self
                .reach_from(i, pose)
                .any(|s| self.occupant(s) == Some(j)),
        }
    }

    /// The squares `i` could strike from `pose`.
    pub(super) fn reach_from(&self, i: usize, pose: Pose) -> impl Iterator<Item = Square> + use<> {
        let spear = self.fighters[i].sheet.melee().is_some_and(|w| w.spear);
        map::attackable(pose, spear).into_iter()
    }

    /// The standing enemies `i` could strike from `pose` on the map.
    pub(super) fn enemies_reached_from(&self, i: usize, pose: Pose) -> Vec<usize> {
        let side = self.fighters[i].side;
        let mut out: Vec<usize> = self
            .reach_from(i, pose)
            .filter_map(|s| self.occupant(s))
            .filter(|&j| self.fighters[j].side != side)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A facing from which `i`, without leaving its square, could strike
    /// `j`: "If any character is being attacked this round he may turn at no
    /// cost to face (and thus attack) his attacker" (mls, *Who May Attack*).
    /// A long creature turns about its head: a facing whose body would swing
    /// into a wall or someone's square is no facing it can take (P-82).
    pub(super) fn facing_to_reach(&self, i: usize, j: usize) -> Option<Facing> {
        let pose = self.fighters[i].pose?;
        let mut facings = vec![pose.facing];
        facings.extend(Facing::ALL.into_iter().filter(|f| *f != pose.facing));
        facings.into_iter().find(|&facing| {
            let to = Pose { facing, ..pose };
            (facing == pose.facing || self.fits(i, to))
                && self.reach_from(i, to).any(|s| self.occupant(s) == Some(j))
        })
    }

    /// Turns `i` to `facing` in place (a free turn), if the body fits.
    pub(super) fn turn_to(&mut self, i: usize, facing: Facing) -> bool {
        let Some(pose) = self.fighters[i].pose else {
            return false;
        };
        if pose.facing == facing {
            return true;
        }
        let to = Pose { facing, ..pose };
        if !self.fits(i, to) {
            return false;
        }
        self.place(i, to);
        true
    }

    /// Whether `i` could stand at `pose`: every square of its body on the
    /// map, open, and free of other standing combatants.
    pub(super) fn fits(&self, i: usize, pose: Pose) -> bool {
        let Some(field) = &self.field else {
            return false;
        };
        map::body(pose, self.fighters[i].sheet.squares_long()).is_some_and(|squares| {
            squares.iter().all(|&s| {
                field.map.terrain(s).is_some_and(|t| t.passable()) && !self.taken_for(i, s)
            })
        })
    }

    /// Places every combatant on the map at the start: its own `[[start]]`,
    /// else its side's block; refuses anyone left unplaced, a start naming no
    /// one, and two on one square.
    pub(super) fn set_out(&mut self, map: Arc<BattleMap>) -> Result<(), FightError> {
        let bad = |why: String| FightError::Invalid(format!("map {:?}: {why}", map.name));
        for start in &map.starts {
            if !self.fighters.iter().any(|f| f.sheet.name == start.who) {
                return Err(bad(format!(
                    "a start names {:?}, who is in neither side",
                    start.who
                )));
            }
        }
        for start in &map.side_starts {
            if !self.sides.contains(&start.side) {
                return Err(bad(format!(
                    "{}: a start names the side {:?}, which is not in the fight (the sides are {:?} and {:?})",
                    start.origin, start.side, self.sides[0], self.sides[1]
                )));
            }
        }
        self.field = Some(Field::new(Arc::clone(&map)));
        let mut placed_in_block = [0usize; 2];
        for i in 0..self.fighters.len() {
            let name = self.fighters[i].sheet.name.clone();
            let side = self.fighters[i].side;
            let (pose, origin) = if let Some(s) = map.starts.iter().find(|s| s.who == name) {
                (
                    Some(Pose {
                        square: s.at,
                        facing: s.facing,
                    }),
                    format!("the start of {name:?}"),
                )
            } else if let Some(block) = map.side_starts.iter().find(|s| s.side == self.sides[side])
            {
                let k = placed_in_block[side];
                placed_in_block[side] += 1;
                (
                    block.square(k).map(|square| Pose {
                        square,
                        facing: block.facing,
                    }),
                    format!(
                        "{} (side {:?}, {name:?} is number {})",
                        block.origin,
                        block.side,
                        k + 1
                    ),
                )
            } else {
                return Err(bad(format!(
                    "{name:?} has no start: add a [[start]] with who = {name:?} or side = {:?}",
                    self.sides[side]
                )));
            };
            let Some(pose) = pose.filter(|&p| self.fits(i, p)) else {
                let why =
                    match pose.and_then(|p| map::body(p, self.fighters[i].sheet.squares_long())) {
                        None => "off the map".to_string(),
                        Some(squares) => squares
                            .iter()
                            .find_map(|&s| match map.terrain(s) {
                                None => Some(format!("{s} is off the map")),
                                Some(t) if !t.passable() => Some(format!("{s} is a wall")),
                                _ => self.occupant(s).map(|j| {
                                    format!("{s} is taken by {:?}", self.fighters[j].sheet.name)
                                }),
                            })
                            .unwrap_or_else(|| "no room".to_string()),
                    };
                return Err(bad(format!("{origin}: {name:?} cannot stand there: {why}")));
            };
            self.fighters[i].pose = Some(pose);
            self.occupy(i);
        }
        Ok(())
    }

    /// Every combatant still on the map as a token: its facing's arrow when
    /// standing, `x` when fallen (escaped ones are gone); drawn fallen first.
    pub fn tokens(&self) -> Vec<map::Token> {
        let mut fallen = Vec::new();
        let mut standing = Vec::new();
        for f in &self.fighters {
            let Some(pose) = f.pose else { continue };
            match f.state {
                crate::health::State::Standing => {
                    for (k, square) in map::body(pose, f.sheet.squares_long())
                        .unwrap_or_default()
                        .into_iter()
                        .enumerate()
                    {
                        let mark = if k == 0 { map::arrow(pose.facing) } else { '=' };
                        standing.push(map::Token { square, mark });
                    }
                }
                crate::health::State::Escaped => {}
                _ => fallen.push(map::Token {
                    square: pose.square,
                    mark: 'x',
                }),
            }
        }
        fallen.extend(standing);
        fallen
    }

    /// Where every combatant on the map stands, for the log.
    pub(super) fn placements(&self, who: &[usize]) -> Vec<crate::log::Placement> {
        who.iter()
            .filter_map(|&i| {
                let f = &self.fighters[i];
                f.pose.map(|p| crate::log::Placement {
                    name: f.sheet.name.clone(),
                    square: p.square.to_string(),
                    facing: p.facing.name(),
                    state: f.state.name(),
                })
            })
            .collect()
    }
}
