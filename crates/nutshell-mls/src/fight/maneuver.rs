//! Movement on a battle map, set action by set action (mls, *1. Movement*,
//! *Fighting Movement*, *Charge*, *Move and Shoot*, *Flee!*, *Pursue*,
//! *Killing an Opponent*, *Breaking Off*, *Following Up a Total Attack*):
//! the engine's tactical choices, each walked as a cheapest path over
//! square, facing and diagonal run at the text's movement costs.
//!
//! Where a mover goes, when its set action leaves the choice to it:
//! - Move and Charge: the cheapest pose from which an enemy is in reach
//!   (the tactic's target among the cheapest), else as near to the nearest
//!   enemy as its movement takes it;
//! - Move and Shoot: the cheapest pose out of contact from which an enemy is
//!   in an arc of its weapon and in sight, nearest within range first;
//! - Flee!: as far from every enemy as its whole allowance takes it, never
//!   into a square next to an enemy (P-70);
//! - Pursue: after the fleer, until he is in reach;
//! - Fight: a free turn, or one square, to have an enemy in front.

use std::collections::HashSet;
use std::sync::Arc;

use super::{Action, Fight};
use crate::map::{self, Distances, Facing, Path, Pose, Reach, Square};

use crate::log::rule;

impl Fight {
    /// Everything `i` can reach within `budget` movement points, around
    /// walls, other combatants and the squares `avoid` names.
    pub(super) fn reach(
        &self,
        i: usize,
        budget: u32,
        avoid: &dyn Fn(Square) -> bool,
    ) -> Option<Reach> {
        let field = self.field.as_ref()?;
        let pose = self.fighters[i].pose?;
        let length = self.fighters[i].sheet.squares_long();
        Some(map::explore(&field.map, pose, length, budget, &|s| {
            self.taken_for(i, s) || avoid(s)
        }))
    }

    /// `times` the movement allowance of `i` ("up to their Agl+1").
    pub(super) fn allowance(&self, i: usize, times: i64) -> u32 {
        u32::try_from(self.fighters[i].sheet.movement() * times).unwrap_or(0)
    }

    /// Everything `i` can reach within `budget` now, kept for the rest of
    /// its movement phase: choosing the set action and making the move
    /// explore the same ground (nobody else moves in between).
    fn reach_now(&mut self, i: usize, budget: u32) -> Option<Arc<Reach>> {
        if let Some((who, turn, b, reach)) = &self.reach_cache
            && (*who, *turn, *b) == (i, self.turn, budget)
        {
            return Some(Arc::clone(reach));
        }
        let reach = Arc::new(self.reach(i, budget, &|_| false)?);
        self.reach_cache = Some((i, self.turn, budget, Arc::clone(&reach)));
        Some(reach)
    }

    /// The cheapest way for `i`, within `budget`, to a pose from which it
    /// could strike one of `targets`, and the target its tactic picks among
    /// those the cheapest poses reach.
    pub(super) fn attack_path(
        &mut self,
        i: usize,
        budget: u32,
        targets: &[usize],
    ) -> Option<(Path, usize)> {
        // Every step moves one square at most and costs 1 MP at least: a
        // target farther than the budget (and a square to strike) is out of
        // reach without searching.
        let here: Vec<Square> = self.squares_of(i).collect();
        let near = targets.iter().any(|&j| {
            self.squares_of(j).any(|t| {
                here.iter()
                    .any(|h| h.x.abs_diff(t.x).max(h.y.abs_diff(t.y)) <= budget + 2)
            })
        });
        if !near {
            return None;
        }
        let reach = self.reach_now(i, budget)?;
        let mut cheapest: Option<u32> = None;
        let mut found: Vec<(Pose, Vec<usize>)> = Vec::new();
        for (pose, cost) in reach.poses() {
            if cheapest.is_some_and(|c| cost > c) {
                continue;
            }
            if !self
                .reach_from(i, pose)
                .any(|s| self.occupant(s).is_some_and(|j| targets.contains(&j)))
            {
                continue;
            }
            let hit: Vec<usize> = self
                .enemies_reached_from(i, pose)
                .into_iter()
                .filter(|j| targets.contains(j))
                .collect();
            if cheapest.is_none_or(|c| cost < c) {
                cheapest = Some(cost);
                found.clear();
            }
            found.push((pose, hit));
        }
        let all: Vec<usize> = found.iter().flat_map(|(_, h)| h.iter().copied()).collect();
        let target = self.pick(i, &all)?;
        let pose = found.iter().find(|(_, h)| h.contains(&target))?.0;
        Some((reach.path_to(pose)?, target))
    }

    /// Steps from every square to the nearest standing enemy of `side`'s,
    /// computed once per turn and side (no one of the other side moves in a
    /// side's movement phase).
    fn enemy_steps(&mut self, side: usize) -> Option<Arc<Distances>> {
        if let Some((turn, s, d)) = &self.enemy_steps
            && *turn == self.turn
            && *s == side
        {
            return Some(Arc::clone(d));
        }
        let map = Arc::clone(&self.field.as_ref()?.map);
        let sources: Vec<Square> = (0..self.fighters.len())
            .filter(|&j| self.fighters[j].side != side && self.fighters[j].standing())
            .flat_map(|j| self.squares_of(j))
            .collect();
        let d = Arc::new(Distances::from(&map, sources));
        self.enemy_steps = Some((self.turn, side, Arc::clone(&d)));
        Some(d)
    }

    /// The way, within `budget`, to the pose nearest (by `steps`) to what
    /// `steps` measures from, never nearer than `keep_off` steps; `None`
    /// when no pose is nearer than where `i` stands.
    fn toward(&mut self, i: usize, budget: u32, steps: &Distances, keep_off: u32) -> Option<Path> {
        let here = steps.get(self.fighters[i].pose?.square).unwrap_or(u32::MAX);
        let reach = self.reach_now(i, budget)?;
        let best = reach
            .poses()
            .into_iter()
            .filter_map(|(pose, cost)| {
                let d = steps.get(pose.square)?;
                (d >= keep_off && d < here).then_some((d, cost, pose))
            })
            .min()?;
        reach.path_to(best.2)
    }

    /// Walks `i` along `path` and logs each step: "E5 to F6, diagonal, 2
    /// MP; turns to face north, 1 MP".
    pub(super) fn walk(&mut self, i: usize, path: &Path, cite: &'static str, what: &str) {
        let end = path.steps.last().map_or(path.start, |s| s.1);
        // The steps are described on the map as it was (doors still closed).
        let described = match (&self.log, self.map()) {
            (Some(_), Some(m)) => path.describe(m),
            _ => Vec::new(),
        };
        // mls, Time Costs of Actions: "Open an unlocked door: 1 movement
        // point" (paid in the step's cost, P-65); the door stays open.
        let mut opened = Vec::new();
        if let Some(field) = self.field.as_mut() {
            for &(_, pose, _) in &path.steps {
                if field.open_door(pose.square) {
                    opened.push(pose.square.to_string());
                }
            }
        }
        self.place(i, end);
        self.fighters[i].moved = i64::from(path.cost);
        let positions = if self.log.is_some() {
            self.placements(&[i])
        } else {
            Vec::new()
        };
        let text = |s: &Self| {
            let steps = if described.is_empty() {
                "stays where it is".to_string()
            } else {
                format!("{} ({} MP)", described.join("; "), path.cost)
            };
            format!("{} {what}: {steps}", s.name(i))
        };
        self.note_with(Some(cite), text, |line| {
            line.positions = positions;
            line.opened = opened;
        });
    }

    /// The movement phase on the map for `i`'s set action.
    pub(super) fn maneuver(&mut self, i: usize, action: Action) {
        match action {
            Action::Charge | Action::Move => self.advance(i, action),
            Action::MoveAndShoot => self.move_and_shoot(i),
            Action::Pursue => self.pursue(i),
            Action::Flee => self.flee_on_map(i),
            Action::Fight => self.fighting_move(i),
            Action::Shoot | Action::CastOffensiveSpells | Action::Respond | Action::TurnAction => {}
        }
    }

    /// Move or Charge: "may move up to their Agl+1 in squares", toward an
    /// enemy to strike.
    fn advance(&mut self, i: usize, action: Action) {
        let budget = self.allowance(i, 1);
        let enemies = self.standing_enemies(i);
        if let Some((path, target)) = self.attack_path(i, budget, &enemies) {
            self.fighters[i].target = Some(target);
            self.fighters[i].charging = action == Action::Charge;
            let what = format!(
                "{} at {} (up to Agl+1 = {budget} MP)",
                if action == Action::Charge {
                    "charges"
                } else {
                    "moves"
                },
                self.name(target)
            );
            let cite = if action == Action::Charge {
                rule::CHARGE
            } else {
                rule::MAP_MOVEMENT
            };
            self.walk(i, &path, cite, &what);
            return;
        }
        // A charge that reaches nobody still moves normally and is still a
        // charge: "he may only be attacked in the 5th round" (P-92).
        self.fighters[i].charging = action == Action::Charge;
        let side = self.fighters[i].side;
        let Some(steps) = self.enemy_steps(side) else {
            return;
        };
        match self.toward(i, budget, &steps, 1) {
            Some(path) => self.walk(
                i,
                &path,
                rule::MAP_MOVEMENT,
                &format!("moves toward the enemy (up to Agl+1 = {budget} MP)"),
            ),
            None => self.note(Some(rule::MAP_MOVEMENT), |s| {
                format!("{} finds no way nearer the enemy", s.name(i))
            }),
        }
    }

    /// Whether `i` at `pose` would stand next to a standing enemy.
    fn in_contact(&self, i: usize, pose: Pose) -> bool {
        let side = self.fighters[i].side;
        let squares = map::body(pose, self.fighters[i].sheet.squares_long()).unwrap_or_default();
        squares.iter().any(|s| {
            (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    s.offset(dx, dy)
                        .and_then(|t| self.occupant(t))
                        .is_some_and(|j| self.fighters[j].side != side)
                })
            })
        })
    }

    /// Move and Shoot: to a pose out of contact with an enemy in an arc and
    /// in sight; the shot's round is the movement points spent to get there
    /// ("3rd movement point means 3rd round").
    fn move_and_shoot(&mut self, i: usize) {
        let budget = self.allowance(i, 1);
        let Some(reach) = self.reach_now(i, budget) else {
            return;
        };
        let enemies = self.standing_enemies(i);
        let range = self.fighters[i]
            .sheet
            .ranged()
            .and_then(|w| w.range)
            .unwrap_or(1);
        let mut best: Option<(i64, u32, Pose)> = None;
        for (pose, cost) in reach.poses() {
            if self.in_contact(i, pose) {
                continue;
            }
            let penalty = enemies
                .iter()
                .filter_map(|&j| self.sight_from(i, pose, j, None))
                .map(|(_, squares)| -super::range_penalty(squares, range))
                .min();
            if let Some(p) = penalty
                && best.is_none_or(|b| (p, cost, pose) < b)
            {
                best = Some((p, cost, pose));
            }
        }
        let path = match best {
            Some((_, _, pose)) => reach.path_to(pose),
            None => {
                let side = self.fighters[i].side;
                self.enemy_steps(side)
                    .and_then(|steps| self.toward(i, budget, &steps, 2))
            }
        };
        let Some(path) = path else {
            self.fighters[i].route.clear();
            return;
        };
        let mut route = vec![(0, path.start)];
        let mut spent = 0;
        for &(_, pose, cost) in &path.steps {
            spent += cost;
            route.push((spent, pose));
        }
        self.walk(
            i,
            &path,
            rule::MOVE_AND_SHOOT,
            &format!(
                "moves to shoot in round {}",
                i64::from(path.cost).clamp(1, 5)
            ),
        );
        self.fighters[i].route = route;
    }

    /// Pursue: "may only move directly after a character who chose Flee!",
    /// with a double move, until the fleer is in reach.
    fn pursue(&mut self, i: usize) {
        let enemies = self.standing_enemies(i);
        let fleeing = self.fleeing(&enemies);
        let Some(target) = self.pick(i, &fleeing) else {
            return;
        };
        self.fighters[i].target = Some(target);
        let budget = self.allowance(i, 2);
        let what = format!("pursues {} (twice Agl+1 = {budget} MP)", self.name(target));
        if let Some((path, _)) = self.attack_path(i, budget, &[target]) {
            self.walk(i, &path, rule::PURSUE, &what);
            return;
        }
        let Some(map) = self.field.as_ref().map(|f| Arc::clone(&f.map)) else {
            return;
        };
        let steps = Distances::from(&map, self.squares_of(target));
        if let Some(path) = self.chase(i, budget, &steps, target) {
            self.walk(i, &path, rule::PURSUE, &what);
        }
    }

    /// A pursuer who cannot reach the fleer this turn: "must use all of his
    /// movement allowance in trying to catch the opponent" (P-83). He ends
    /// where he is fewest steps from the fleer; among those poses, nearest
    /// by range (P-66), then in a straight line; among those, the way that
    /// spends the most of his allowance. `None` when nothing is nearer
    /// than where he stands.
    fn chase(&mut self, i: usize, budget: u32, steps: &Distances, target: usize) -> Option<Path> {
        let here = steps.get(self.fighters[i].pose?.square).unwrap_or(u32::MAX);
        let fleer: Vec<Square> = self.squares_of(target).collect();
        let reach = self.reach_now(i, budget)?;
        let near = |s: Square| {
            fleer
                .iter()
                .map(|&f| {
                    let (dx, dy) = (s.x.abs_diff(f.x), s.y.abs_diff(f.y));
                    (map::range(s, f), dx * dx + dy * dy)
                })
                .min()
                .unwrap_or((u32::MAX, u32::MAX))
        };
        let best = reach
            .poses()
            .into_iter()
            .filter_map(|(pose, cost)| {
                let d = steps.get(pose.square)?;
                let (range, line) = near(pose.square);
                (d >= 1 && d < here).then_some((d, range, line, std::cmp::Reverse(cost), pose))
            })
            .min()?;
        reach.path_to(best.4)
    }

    /// Flee!: "must avoid contact with all hostile characters. Motion should
    /// generally be away from the combat ... MUST use ALL of his movement
    /// allowance if this is possible" (P-70): the square farthest from every
    /// enemy that the double allowance reaches without coming next to one,
    /// the costlier way among equals. He escapes when he reaches the map's
    /// edge or no standing enemy could reach him with a pursuit next turn.
    fn flee_on_map(&mut self, i: usize) {
        let budget = self.allowance(i, 2);
        let side = self.fighters[i].side;
        let contact: HashSet<Square> = self
            .standing_enemies(i)
            .into_iter()
            .flat_map(|j| self.squares_of(j))
            .flat_map(|s| {
                (-1..=1).flat_map(move |dy| (-1..=1).filter_map(move |dx| s.offset(dx, dy)))
            })
            .collect();
        let steps = self.enemy_steps(side);
        let Some(reach) = self.reach(i, budget, &|s| contact.contains(&s)) else {
            return;
        };
        let far = |pose: Pose| steps.as_ref().and_then(|d| d.get(pose.square)).unwrap_or(0);
        let mut best: Option<(u32, u32, Pose)> = None;
        for (pose, cost) in reach.poses() {
            let key = (far(pose), cost, pose);
            if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
        self.fighters[i].broke_off = false;
        if let Some(path) = best.and_then(|b| reach.path_to(b.2)) {
            self.walk(
                i,
                &path,
                rule::FLEE,
                &format!("flees (twice Agl+1 = {budget} MP)"),
            );
            if path.cost < budget {
                self.close_door_behind(i, &path);
            }
        }
        self.flee_escape(i);
    }

    /// A fleer escapes when he reaches the map's edge or no standing enemy
    /// could reach him with a pursuit next turn (P-19).
    pub(super) fn flee_escape(&mut self, i: usize) {
        let at_edge = self.map().zip(self.fighters[i].pose).is_some_and(|(m, p)| {
            p.square.x == 0
                || p.square.y == 0
                || p.square.x + 1 == m.width()
                || p.square.y + 1 == m.height()
        });
        let caught = !at_edge
            && self
                .standing_enemies(i)
                .into_iter()
                .any(|j| self.could_catch(j, i));
        if !caught {
            self.set_gone(i);
            self.note_moved(rule::FLEE, &[i], |s| {
                if at_edge {
                    format!("{} leaves the map and escapes", s.name(i))
                } else {
                    format!("{} is out of every enemy's reach and escapes", s.name(i))
                }
            });
        }
    }

    /// A fleer with a movement point left shuts the last door he went
    /// through, when it is next to him and no one stands in it (mls, *Time
    /// Costs of Actions*: "Close a door: 1 movement point"): a pursuer pays
    /// 1 MP to open it again, and it blocks shots.
    fn close_door_behind(&mut self, i: usize, path: &Path) {
        let Some(end) = self.fighters[i].pose else {
            return;
        };
        let Some(door) = path
            .steps
            .iter()
            .rev()
            .map(|s| s.1.square)
            .find(|&s| self.map().and_then(|m| m.terrain(s)) == Some(map::Terrain::OpenDoor))
        else {
            return;
        };
        if door == end.square || !door.adjacent(end.square) {
            return;
        }
        let closed = self.field.as_mut().is_some_and(|f| f.close_door(door));
        if !closed {
            return;
        }
        self.fighters[i].moved += 1;
        self.note_with(
            Some(rule::CLOSE_DOOR),
            |s| format!("{} closes the door at {door} behind him, 1 MP", s.name(i)),
            |line| line.closed = vec![door.to_string()],
        );
    }

    /// Whether `j` could come next to `i` with a pursuit (twice its
    /// allowance) next turn.
    fn could_catch(&self, j: usize, i: usize) -> bool {
        let budget = self.allowance(j, 2);
        let targets: Vec<Square> = self.squares_of(i).collect();
        let (Some(field), Some(start)) = (self.field.as_ref(), self.fighters[j].pose) else {
            return false;
        };
        // Every step moves one square at most and costs 1 MP at least.
        let gap = targets
            .iter()
            .map(|t| {
                t.x.abs_diff(start.square.x)
                    .max(t.y.abs_diff(start.square.y))
            })
            .min()
            .unwrap_or(u32::MAX);
        if gap.saturating_sub(1) > budget {
            return false;
        }
        let length = self.fighters[j].sheet.squares_long();
        map::cheapest_path(
            &field.map,
            start,
            length,
            budget,
            &|s| self.taken_for(j, s),
            &|p| targets.iter().any(|t| t.adjacent(p.square)),
        )
        .is_some()
    }

    /// A Fight action: "may move up to 1 square (turning to face any
    /// direction for free whether they move or not), but must end up
    /// adjacent to an enemy"; *Fighting Movement*: "Movement is in any
    /// direction". An enemy already in front keeps it where it is.
    fn fighting_move(&mut self, i: usize) {
        let Some(here) = self.fighters[i].pose else {
            return;
        };
        if !self.enemies_reached_from(i, here).is_empty() {
            return;
        }
        let mut options: Vec<(Pose, Vec<usize>)> = Vec::new();
        for facing in Facing::ALL {
            let pose = Pose { facing, ..here };
            let hit = self.enemies_reached_from(i, pose);
            if !hit.is_empty() && self.fits(i, pose) {
                options.push((pose, hit));
            }
        }
        if options.is_empty() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let Some(square) = here.square.offset(dx, dy) else {
                        continue;
                    };
                    if square == here.square || !self.step_clear(here.square, square) {
                        continue;
                    }
                    for facing in Facing::ALL {
                        let pose = Pose { square, facing };
                        let hit = self.enemies_reached_from(i, pose);
                        if !hit.is_empty() && self.fits(i, pose) {
                            options.push((pose, hit));
                        }
                    }
                }
            }
        }
        let all: Vec<usize> = options
            .iter()
            .flat_map(|(_, h)| h.iter().copied())
            .collect();
        let Some(target) = self.pick(i, &all) else {
            return;
        };
        let Some(&(pose, _)) = options.iter().find(|(_, h)| h.contains(&target)) else {
            return;
        };
        self.place(i, pose);
        self.fighters[i].target = Some(target);
        self.note_moved(rule::FIGHTING_MOVEMENT, &[i], |s| {
            if pose.square == here.square {
                format!(
                    "{} turns to face {} (free in a Fight action), toward {}",
                    s.name(i),
                    pose.facing,
                    s.name(target)
                )
            } else {
                format!(
                    "{} steps from {} to {} and faces {} (a Fight action's square), toward {}",
                    s.name(i),
                    here.square,
                    pose.square,
                    pose.facing,
                    s.name(target)
                )
            }
        });
    }

    /// Whether one square's move from `from` to the neighbouring `to` stays
    /// off walls and does not cut a wall's corner (P-64).
    pub(super) fn step_clear(&self, from: Square, to: Square) -> bool {
        let Some(map) = self.map() else {
            return false;
        };
        if !map.terrain(to).is_some_and(|t| t.passable()) {
            return false;
        }
        if from.x != to.x && from.y != to.y {
            let corners = [Square::new(to.x, from.y), Square::new(from.x, to.y)];
            return corners
                .iter()
                .all(|&c| map.terrain(c).is_some_and(|t| !t.blocks_sight()));
        }
        true
    }
}
