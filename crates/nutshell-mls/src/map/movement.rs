//! Movement on the grid at the costs of the rule text, and the cheapest way
//! from one pose to another.
//!
//! mls, *Forward Movement*: "A character may move forward into the square he
//! faces at a cost of 1 movement point. He may turn to face another side at a
//! cost of 1 movement point before moving. Long creatures taking up more than
//! one square use 2 movement points to turn to face the rear."
//!
//! mls, *Diagonal Movement*: "diagonally into a square adjacent to that in
//! front of him at a cost of 2 movement points. If diagonal movement
//! continues the second square only costs 1 movement point (the 3rd
//! sequential square another 2, the fourth sequential square another 1 and
//! so on). The first diagonal move after non-diagonal movement always costs
//! 2 movement points."
//!
//! mls, *Sideways and Rearward Movement*: "sideways or backwards without
//! changing facing at a cost of 2 movement points per square ... diagonally
//! backwards at a cost of 3 movement points per square."
//!
//! Project rulings (docs/rulings.md): P-63, diagonal movement "continues"
//! only with the next step diagonal forward in the same direction, with no
//! turn or other step between; P-64, a diagonal step may not cut the corner
//! of a wall or closed door; P-65, entering a closed door square opens it for
//! 1 movement point more (*Time Costs of Actions*).
//!
//! ```
//! use nutshell_mls::map::{cheapest_path, BattleMap, Facing, Pose, Square};
//! let map = BattleMap::open(8, 8);
//! let start = Pose { square: Square::parse("B7").unwrap(), facing: Facing::North };
//! let goal = Square::parse("E4").unwrap();
//! // Three diagonal steps north-east: 2 + 1 + 2 movement points.
//! let path = cheapest_path(&map, start, 1, 20, &|_| false, &|p| p.square == goal).unwrap();
//! assert_eq!(path.cost, 5);
//! assert_eq!(path.describe(&map)[0], "B7 to C6, diagonal, 2 MP");
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A small, fast, deterministic hasher for the search's maps (the
/// multiply-rotate of rustc's FxHasher): keys are a few small integers, and
/// the default SipHash spent most of a search's time hashing them.
#[derive(Debug, Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_i32(&mut self, i: i32) {
        self.add(i as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.add(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

use super::grid::{Facing, Square};
use super::terrain::{BattleMap, Terrain};

/// Where a character stands and the side it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pose {
    /// Its square (the head's, for a long creature).
    pub square: Square,
    /// The side it faces.
    pub facing: Facing,
}

/// Left or right of the facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hand {
    /// To the left.
    Left,
    /// To the right.
    Right,
}

impl Hand {
    fn of(self, facing: Facing) -> Facing {
        match self {
            Hand::Left => facing.left(),
            Hand::Right => facing.right(),
        }
    }
}

/// One step of movement, relative to the facing it starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Into the square in front.
    Forward,
    /// Into a square diagonally in front.
    Diagonal(Hand),
    /// Into the square to one side, facing unchanged.
    Sideways(Hand),
    /// Into the square behind, facing unchanged.
    Backward,
    /// Into a square diagonally behind, facing unchanged.
    DiagonalBack(Hand),
    /// Turning to face another side, in place.
    Turn(Facing),
}

impl Step {
    /// Every step there is from a pose facing `facing`.
    fn all(facing: Facing) -> impl Iterator<Item = Step> {
        let moves = [
            Step::Forward,
            Step::Diagonal(Hand::Left),
            Step::Diagonal(Hand::Right),
            Step::Sideways(Hand::Left),
            Step::Sideways(Hand::Right),
            Step::Backward,
            Step::DiagonalBack(Hand::Left),
            Step::DiagonalBack(Hand::Right),
        ];
        let turns = Facing::ALL
            .into_iter()
            .filter(move |f| *f != facing)
            .map(Step::Turn);
        moves.into_iter().chain(turns)
    }

    /// The square offset of the step, from a pose facing `facing`.
    fn delta(self, facing: Facing) -> (i32, i32) {
        let add = |a: (i32, i32), b: (i32, i32)| (a.0 + b.0, a.1 + b.1);
        match self {
            Step::Forward => facing.delta(),
            Step::Diagonal(hand) => add(facing.delta(), hand.of(facing).delta()),
            Step::Sideways(hand) => hand.of(facing).delta(),
            Step::Backward => facing.back().delta(),
            Step::DiagonalBack(hand) => add(facing.back().delta(), hand.of(facing).delta()),
            Step::Turn(_) => (0, 0),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Step::Forward => "forward",
            Step::Diagonal(_) => "diagonal",
            Step::Sideways(_) => "sideways",
            Step::Backward => "backwards",
            Step::DiagonalBack(_) => "diagonally backwards",
            Step::Turn(_) => "turn",
        }
    }
}

/// A run of diagonal steps: its direction and whether it has had an odd
/// number of steps (then the next one in the same direction costs 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiagonalRun {
    direction: (i32, i32),
    odd: bool,
}

/// A mover between steps: its pose and the diagonal run it is in, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mover {
    /// Where it stands and faces.
    pub pose: Pose,
    /// The diagonal run the last steps made (mls, *Diagonal Movement*).
    pub run: Option<DiagonalRun>,
}

impl Mover {
    /// A mover that has not moved yet this turn.
    pub fn at(pose: Pose) -> Mover {
        Mover { pose, run: None }
    }
}

/// Whether a character may stand in `square`: on the map, not a wall, not
/// taken by someone else.
fn open(map: &BattleMap, blocked: &dyn Fn(Square) -> bool, square: Square) -> Option<Terrain> {
    map.terrain(square)
        .filter(|t| t.passable())
        .filter(|_| !blocked(square))
}

/// The squares a combatant `length` squares long covers at `pose`: its
/// square, then those behind it; `None` where one is off the map.
///
/// ```
/// use nutshell_mls::map::{body, Facing, Pose, Square};
/// let pose = Pose { square: Square::parse("C3").unwrap(), facing: Facing::East };
/// let squares: Vec<String> = body(pose, 3).unwrap().iter().map(|s| s.to_string()).collect();
/// assert_eq!(squares, ["C3", "B3", "A3"]);
/// ```
pub fn body(pose: Pose, length: u32) -> Option<Vec<Square>> {
    let squares: Vec<Square> = body_squares(pose, length).collect();
    (squares.len() == length.max(1) as usize).then_some(squares)
}

/// The squares of [`body`] one by one, without allocating: its square,
/// then those behind it, stopping at the map's top or left edge.
pub fn body_squares(pose: Pose, length: u32) -> impl Iterator<Item = Square> {
    let back = pose.facing.back();
    std::iter::successors(Some(pose.square), move |s| s.step(back)).take(length.max(1) as usize)
}

/// Whether a long creature's body (every square behind its head) fits at
/// `pose`: on the map, no wall, no one else there.
fn body_fits(map: &BattleMap, blocked: &dyn Fn(Square) -> bool, pose: Pose, length: u32) -> bool {
    length <= 1
        || body(pose, length).is_some_and(|squares| {
            squares[1..]
                .iter()
                .all(|&s| open(map, blocked, s).is_some())
        })
}

/// The step from `mover` and what it costs, or `None` when it is not
/// allowed (off the map, into a wall or someone's square, across a wall's
/// corner). `length` is the mover's length in squares (more than 1: a long
/// creature).
pub fn step(
    map: &BattleMap,
    blocked: &dyn Fn(Square) -> bool,
    mover: Mover,
    step: Step,
    length: u32,
) -> Option<(Mover, u32)> {
    let Pose { square, facing } = mover.pose;
    if let Step::Turn(to) = step {
        if to == facing {
            return None;
        }
        // mls, Forward Movement: 1 to face another side; 2 to the rear for
        // a long creature.
        let cost = if to == facing.back() && length > 1 {
            2
        } else {
            1
        };
        let pose = Pose { square, facing: to };
        if !body_fits(map, blocked, pose, length) {
            return None;
        }
        return Some((Mover { pose, run: None }, cost));
    }
    let (dx, dy) = step.delta(facing);
    let target = square.offset(dx, dy)?;
    let terrain = open(map, blocked, target)?;
    let diagonal = dx != 0 && dy != 0;
    if diagonal {
        // P-64: no cutting the corner of a wall or a closed door.
        for corner in [square.offset(dx, 0)?, square.offset(0, dy)?] {
            if map.terrain(corner).is_none_or(|t| t.blocks_sight()) {
                return None;
            }
        }
    }
    let (cost, run) = match step {
        Step::Forward => (1, None),
        Step::Diagonal(_) => {
            // P-63: the run goes on only in the same direction.
            let continued = mover.run.filter(|r| r.direction == (dx, dy));
            match continued {
                Some(r) if r.odd => (
                    1,
                    Some(DiagonalRun {
                        direction: (dx, dy),
                        odd: false,
                    }),
                ),
                _ => (
                    2,
                    Some(DiagonalRun {
                        direction: (dx, dy),
                        odd: true,
                    }),
                ),
            }
        }
        Step::Sideways(_) | Step::Backward => (2, None),
        Step::DiagonalBack(_) => (3, None),
        Step::Turn(_) => unreachable!("handled above"),
    };
    let pose = Pose {
        square: target,
        facing,
    };
    if !body_fits(map, blocked, pose, length) {
        return None;
    }
    Some((
        Mover { pose, run },
        cost + terrain.entry_cost(map.ladder_half_metres),
    ))
}

/// A way from one pose to another: each step with the mover after it and
/// its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// Where it starts.
    pub start: Pose,
    /// The steps in order: the step, the pose after it, its movement points.
    pub steps: Vec<(Step, Pose, u32)>,
    /// Movement points in all.
    pub cost: u32,
}

impl Path {
    /// Each step in words, as a fight's log gives them: "E5 to F6, diagonal,
    /// 2 MP", "G3 to H3, forward, opening the door, 2 MP" or "turns to face
    /// north, 1 MP".
    pub fn describe(&self, map: &BattleMap) -> Vec<String> {
        let mut from = self.start;
        self.steps
            .iter()
            .map(|(step, pose, cost)| {
                let door = map.terrain(pose.square) == Some(Terrain::ClosedDoor);
                let ladder = map.terrain(pose.square) == Some(Terrain::Ladder);
                let text = match step {
                    Step::Turn(to) => format!("turns to face {to}, {cost} MP"),
                    _ if door => format!(
                        "{} to {}, {}, opening the door, {cost} MP",
                        from.square,
                        pose.square,
                        step.name()
                    ),
                    _ if ladder => format!(
                        "{} to {}, {}, climbing the ladder, {cost} MP",
                        from.square,
                        pose.square,
                        step.name()
                    ),
                    _ => format!(
                        "{} to {}, {}, {cost} MP",
                        from.square,
                        pose.square,
                        step.name()
                    ),
                };
                from = *pose;
                text
            })
            .collect()
    }
}

/// Every mover state reachable from `start` within `budget` movement
/// points, with the least cost of reaching it and how (Dijkstra's search
/// over square, facing and diagonal run).
#[derive(Debug)]
struct Search {
    cost: FxMap<Mover, u32>,
    came_from: FxMap<Mover, (Mover, Step, u32)>,
    /// Each state in the order the search settled it: the search stopped
    /// at a goal would have stopped at the first of these that meets it.
    settled: Vec<Mover>,
}

fn search(
    map: &BattleMap,
    start: Pose,
    length: u32,
    budget: u32,
    blocked: &dyn Fn(Square) -> bool,
    stop: &dyn Fn(Pose) -> bool,
) -> (Search, Option<Mover>) {
    let first = Mover::at(start);
    // Room for a typical allowance's states up front: growing the tables
    // was a tenth of a search's time.
    let room = (budget as usize + 1).pow(2).clamp(16, 4096) * 8;
    let mut found = Search {
        cost: FxMap::with_capacity_and_hasher(room, Default::default()),
        came_from: FxMap::with_capacity_and_hasher(room, Default::default()),
        settled: Vec::with_capacity(room),
    };
    found.cost.insert(first, 0);
    let mut queue = BinaryHeap::from([Reverse((0u32, first))]);
    while let Some(Reverse((cost, mover))) = queue.pop() {
        if found.cost.get(&mover).is_some_and(|&c| c < cost) {
            continue;
        }
        found.settled.push(mover);
        if stop(mover.pose) {
            return (found, Some(mover));
        }
        for s in Step::all(mover.pose.facing) {
            let Some((next, extra)) = step(map, blocked, mover, s, length) else {
                continue;
            };
            let total = cost + extra;
            if total > budget || found.cost.get(&next).is_some_and(|&c| c <= total) {
                continue;
            }
            found.cost.insert(next, total);
            found.came_from.insert(next, (mover, s, extra));
            queue.push(Reverse((total, next)));
        }
    }
    (found, None)
}

/// The cheapest way from `start` to a pose where `goal` holds, within
/// `budget` movement points, never entering a square where `blocked` holds;
/// `None` when there is none. Ties are broken the same way every time.
pub fn cheapest_path(
    map: &BattleMap,
    start: Pose,
    length: u32,
    budget: u32,
    blocked: &dyn Fn(Square) -> bool,
    goal: &dyn Fn(Pose) -> bool,
) -> Option<Path> {
    let (found, end) = search(map, start, length, budget, blocked, goal);
    Some(found.path(start, end?))
}

impl Search {
    /// The way the search found to `end`, one of its states.
    fn path(&self, start: Pose, end: Mover) -> Path {
        let mut steps = Vec::new();
        let mut at = end;
        while let Some(&(before, s, cost)) = self.came_from.get(&at) {
            steps.push((s, at.pose, cost));
            at = before;
        }
        steps.reverse();
        Path {
            start,
            cost: self.cost[&end],
            steps,
        }
    }
}

/// Every pose reachable from a start within a budget, with the least cost
/// of each and the way there: what a combatant's tactic chooses its move
/// from.
///
/// ```
/// use nutshell_mls::map::{explore, BattleMap, Facing, Pose, Square};
/// let map = BattleMap::open(6, 6);
/// let start = Pose { square: Square::parse("C4").unwrap(), facing: Facing::North };
/// let reach = explore(&map, start, 1, 3, &|_| false);
/// let ahead = Pose { square: Square::parse("C1").unwrap(), facing: Facing::North };
/// assert_eq!(reach.cost(ahead), Some(3));
/// assert_eq!(reach.path_to(ahead).unwrap().steps.len(), 3);
/// ```
#[derive(Debug)]
pub struct Reach {
    start: Pose,
    found: Search,
    best: FxMap<Pose, (u32, Mover)>,
}

impl Reach {
    /// The least movement points to reach `pose`, if it can be reached.
    pub fn cost(&self, pose: Pose) -> Option<u32> {
        self.best.get(&pose).map(|(c, _)| *c)
    }

    /// Every reachable pose with its least cost, in a fixed order (by
    /// square, then facing).
    pub fn poses(&self) -> Vec<(Pose, u32)> {
        let mut all: Vec<(Pose, u32)> = self.best.iter().map(|(p, (c, _))| (*p, *c)).collect();
        all.sort_unstable();
        all
    }

    /// The cheapest way to `pose`.
    pub fn path_to(&self, pose: Pose) -> Option<Path> {
        let &(_, end) = self.best.get(&pose)?;
        Some(self.found.path(self.start, end))
    }

    /// The way [`cheapest_path`] finds from this search's start, within its
    /// budget and around what it avoided, to a pose where `goal` holds: the
    /// same way, ties broken alike, without searching again (the search
    /// stopped at its goal settles the same states in the same order up to
    /// it). What checks many answers against one explored ground uses it.
    ///
    /// ```
    /// use nutshell_mls::map::{cheapest_path, explore, BattleMap, Facing, Pose, Square};
    /// let map = BattleMap::open(6, 6);
    /// let start = Pose { square: Square::parse("C4").unwrap(), facing: Facing::North };
    /// let reach = explore(&map, start, 1, 4, &|_| false);
    /// let d2 = Square::parse("D2").unwrap();
    /// let goal = |p: Pose| p.square == d2;
    /// let searched = cheapest_path(&map, start, 1, 4, &|_| false, &goal).unwrap();
    /// assert_eq!(reach.first_path(&goal), Some(searched));
    /// ```
    pub fn first_path(&self, goal: &dyn Fn(Pose) -> bool) -> Option<Path> {
        let end = self.found.settled.iter().find(|m| goal(m.pose))?;
        Some(self.found.path(self.start, *end))
    }
}

/// Explores every pose reachable from `start` within `budget` movement
/// points, never entering a square where `blocked` holds.
pub fn explore(
    map: &BattleMap,
    start: Pose,
    length: u32,
    budget: u32,
    blocked: &dyn Fn(Square) -> bool,
) -> Reach {
    let (found, _) = search(map, start, length, budget, blocked, &|_| false);
    let mut best: FxMap<Pose, (u32, Mover)> = FxMap::default();
    for (&mover, &cost) in &found.cost {
        let entry = best.entry(mover.pose).or_insert((cost, mover));
        if (cost, mover) < *entry {
            *entry = (cost, mover);
        }
    }
    Reach { start, found, best }
}

/// The least movement points to reach every pose reachable from `start`
/// within `budget`.
pub fn reachable(
    map: &BattleMap,
    start: Pose,
    length: u32,
    budget: u32,
    blocked: &dyn Fn(Square) -> bool,
) -> HashMap<Pose, u32> {
    explore(map, start, length, budget, blocked)
        .best
        .into_iter()
        .map(|(pose, (cost, _))| (pose, cost))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(name: &str, facing: Facing) -> Pose {
        Pose {
            square: Square::parse(name).unwrap(),
            facing,
        }
    }

    fn cost(map: &BattleMap, from: Pose, to: Pose, length: u32) -> Option<u32> {
        cheapest_path(map, from, length, 100, &|_| false, &|p| p == to).map(|p| p.cost)
    }

    /// mls, Forward Movement: "move forward into the square he faces at a
    /// cost of 1 movement point".
    #[test]
    fn forward_costs_one_a_square() {
        let map = BattleMap::open(10, 10);
        assert_eq!(
            cost(
                &map,
                pose("E9", Facing::North),
                pose("E4", Facing::North),
                1
            ),
            Some(5)
        );
    }

    /// mls, Forward Movement: "He may turn to face another side at a cost of
    /// 1 movement point"; "Long creatures ... use 2 movement points to turn
    /// to face the rear."
    #[test]
    fn turning_costs_one_and_two_to_the_rear_for_long_creatures() {
        let map = BattleMap::open(5, 5);
        let from = pose("C3", Facing::North);
        assert_eq!(cost(&map, from, pose("C3", Facing::East), 1), Some(1));
        assert_eq!(cost(&map, from, pose("C3", Facing::South), 1), Some(1));
        assert_eq!(cost(&map, from, pose("C3", Facing::South), 2), Some(2));
        // Two quarter turns cost 2 as well: the long creature gains nothing.
        assert_eq!(cost(&map, from, pose("C3", Facing::West), 2), Some(1));
    }

    /// mls, Diagonal Movement: 2, then 1, 2, 1 ... while the diagonal run
    /// continues; "The first diagonal move after non-diagonal movement always
    /// costs 2".
    #[test]
    fn diagonal_runs_alternate_two_and_one() {
        let map = BattleMap::open(10, 10);
        let from = Mover::at(pose("A10", Facing::North));
        let mut mover = from;
        let mut costs = Vec::new();
        for _ in 0..4 {
            let (next, c) = step(&map, &|_| false, mover, Step::Diagonal(Hand::Right), 1).unwrap();
            costs.push(c);
            mover = next;
        }
        assert_eq!(costs, [2, 1, 2, 1]);
        assert_eq!(mover.pose.square.to_string(), "E6");
        // A forward step breaks the run: the next diagonal costs 2 again.
        let (after, _) = step(&map, &|_| false, mover, Step::Forward, 1).unwrap();
        let (_, c) = step(&map, &|_| false, after, Step::Diagonal(Hand::Right), 1).unwrap();
        assert_eq!(c, 2);
        // P-63: a diagonal in another direction starts a new run.
        let (one, _) = step(&map, &|_| false, from, Step::Diagonal(Hand::Right), 1).unwrap();
        let (_, c) = step(&map, &|_| false, one, Step::Diagonal(Hand::Left), 1).unwrap();
        assert_eq!(c, 2);
    }

    /// mls, Sideways and Rearward Movement: 2 a square sideways or back, 3
    /// diagonally back, facing unchanged.
    #[test]
    fn sideways_backwards_and_diagonally_backwards() {
        let map = BattleMap::open(5, 5);
        let mover = Mover::at(pose("C3", Facing::North));
        let go = |s| {
            step(&map, &|_| false, mover, s, 1)
                .map(|(m, c)| (m.pose.square.to_string(), m.pose.facing, c))
        };
        assert_eq!(
            go(Step::Sideways(Hand::Left)),
            Some(("B3".into(), Facing::North, 2))
        );
        assert_eq!(
            go(Step::Sideways(Hand::Right)),
            Some(("D3".into(), Facing::North, 2))
        );
        assert_eq!(go(Step::Backward), Some(("C4".into(), Facing::North, 2)));
        assert_eq!(
            go(Step::DiagonalBack(Hand::Left)),
            Some(("B4".into(), Facing::North, 3))
        );
        // The cheapest way to the square behind, facing kept: a step back
        // (2), not turning twice and stepping (3).
        assert_eq!(
            cost(
                &map,
                pose("C3", Facing::North),
                pose("C4", Facing::North),
                1
            ),
            Some(2)
        );
    }

    /// Walls and occupied squares cannot be entered; P-64: a diagonal step
    /// cannot cut a wall's corner; P-65: a closed door costs 1 more.
    #[test]
    fn walls_corners_doors_and_occupied_squares() {
        let map = BattleMap::parse("m.toml", "rows = '''\n.#.\n...\n.+.\n'''\n").unwrap();
        let mover = Mover::at(pose("A2", Facing::North));
        assert!(step(&map, &|_| false, mover, Step::Diagonal(Hand::Right), 1).is_none());
        let mover = Mover::at(pose("B2", Facing::South));
        let (_, c) = step(&map, &|_| false, mover, Step::Forward, 1).unwrap();
        assert_eq!(c, 2, "forward 1 + opening the door 1");
        let taken = Square::parse("B3").unwrap();
        assert!(step(&map, &|s| s == taken, mover, Step::Forward, 1).is_none());
        let path = cheapest_path(&map, pose("A1", Facing::South), 1, 20, &|_| false, &|p| {
            p.square == Square::parse("C1").unwrap()
        })
        .unwrap();
        assert_eq!(
            path.describe(&map),
            [
                "A1 to A2, forward, 1 MP",
                "turns to face east, 1 MP",
                "A2 to B2, forward, 1 MP",
                "B2 to C2, forward, 1 MP",
                "turns to face north, 1 MP",
                "C2 to C1, forward, 1 MP"
            ]
        );
        assert_eq!(path.cost, 6);
    }

    /// The search against brute force: on small random maps, every sequence
    /// of legal steps within the budget is tried, and the search's cost of
    /// each pose is never more (nor less) than the cheapest sequence's.
    #[test]
    fn the_search_matches_brute_force_on_random_maps() {
        fn brute(
            map: &BattleMap,
            blocked: &dyn Fn(Square) -> bool,
            mover: Mover,
            spent: u32,
            budget: u32,
            length: u32,
            best: &mut HashMap<Pose, u32>,
        ) {
            let entry = best.entry(mover.pose).or_insert(u32::MAX);
            *entry = (*entry).min(spent);
            for s in Step::all(mover.pose.facing) {
                if let Some((next, c)) = step(map, blocked, mover, s, length)
                    && spent + c <= budget
                {
                    brute(map, blocked, next, spent + c, budget, length, best);
                }
            }
        }
        // A small deterministic generator: the same maps every run.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for case in 0..40 {
            let (width, height) = (3 + next(3) as usize, 3 + next(3) as usize);
            let mut rows = String::new();
            for _ in 0..height {
                for _ in 0..width {
                    rows.push(match next(10) {
                        0 | 1 => '#',
                        2 => '+',
                        _ => '.',
                    });
                }
                rows.push('\n');
            }
            let text = format!("rows = '''\n{rows}'''\n");
            let map = BattleMap::parse("random.toml", &text).unwrap();
            let squares: Vec<Square> = (0..height as u32)
                .flat_map(|y| (0..width as u32).map(move |x| Square::new(x, y)))
                .filter(|s| map.terrain(*s).is_some_and(|t| t.passable()))
                .collect();
            if squares.len() < 2 {
                continue;
            }
            let start = Pose {
                square: squares[next(squares.len() as u64) as usize],
                facing: Facing::ALL[next(4) as usize],
            };
            let taken = squares[next(squares.len() as u64) as usize];
            let blocked = |s: Square| s == taken && s != start.square;
            let length = 1 + next(2) as u32;
            let budget = 5;
            let mut best = HashMap::new();
            brute(
                &map,
                &blocked,
                Mover::at(start),
                0,
                budget,
                length,
                &mut best,
            );
            let found = reachable(&map, start, length, budget, &blocked);
            assert_eq!(found, best, "case {case}: map\n{rows}from {start:?}");
            // And each cheapest path replays, step by step, at its cost.
            for (goal, cost) in &best {
                let path =
                    cheapest_path(&map, start, length, budget, &blocked, &|p| p == *goal).unwrap();
                assert_eq!(path.cost, *cost);
                let mut mover = Mover::at(start);
                let mut total = 0;
                for (s, pose, c) in &path.steps {
                    let (after, paid) = step(&map, &blocked, mover, *s, length).unwrap();
                    assert_eq!((after.pose, paid), (*pose, *c));
                    total += paid;
                    mover = after;
                }
                assert_eq!(total, *cost);
            }
            // One exploration answers, for every goal, with the very way
            // the search stopped at that goal finds (what checks each
            // square a mover is offered): each pose, and each square in
            // whatever facing.
            let reach = explore(&map, start, length, budget, &blocked);
            for goal in best.keys() {
                let searched =
                    cheapest_path(&map, start, length, budget, &blocked, &|p| p == *goal);
                assert_eq!(reach.first_path(&|p| p == *goal), searched, "case {case}");
                let square = goal.square;
                let on_square = |p: Pose| p.square == square;
                let searched = cheapest_path(&map, start, length, budget, &blocked, &on_square);
                assert_eq!(reach.first_path(&on_square), searched, "case {case}");
            }
            let nowhere = |p: Pose| p.square == Square::new(99, 99);
            assert_eq!(reach.first_path(&nowhere), None);
        }
    }
}
