//! Whom a combatant could attack from where he stands, for a front end that
//! marks them: the enemies in his front arc to strike (mls, *Who May
//! Attack*: "any enemy in the hex in front of him. A character with a spear
//! may attack one of the diagonal squares in front of him") and, with a
//! missile weapon or a spell, the enemies in sight to shoot (mls, *Who May
//! Shoot*: "so long as he can see the target at which he is shooting, and
//! nothing is blocking his shot. The target must be within the shooter's
//! arc of fire"; P-68). Only on a battle map; the fallen are no targets.

use serde::Serialize;

use super::Fight;

/// An enemy a combatant could attack now, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The enemy (index into `Fight::fighters`).
    pub who: usize,
    /// His name.
    pub name: String,
    /// On a square in front of the attacker (a front diagonal too, with a
    /// spear): he may be struck.
    pub front_arc: bool,
    /// In an arc the attacker's missile weapon or spell may shoot into,
    /// seen with nothing in the way: he may be shot.
    pub in_sight: bool,
}

impl Fight {
    /// The standing enemies `i` could strike or shoot from where he stands
    /// now, in the order of the fight's combatants (empty off the map, or
    /// when `i` is not standing). The shot is as the rules would let it go
    /// now: into this turn's arc once a shot has set it (mls, *Close
    /// Targets*).
    pub fn targets(&self, i: usize) -> Vec<Target> {
        let Some(f) = self.fighters.get(i) else {
            return Vec::new();
        };
        let Some(pose) = f.pose.filter(|_| self.on_map() && f.standing()) else {
            return Vec::new();
        };
        let struck = self.enemies_reached_from(i, pose);
        let shoots = f.sheet.ranged().is_some();
        self.standing_enemies(i)
            .into_iter()
            .filter_map(|j| {
                let front_arc = struck.contains(&j);
                let in_sight = shoots && self.sight_from(i, pose, j, None).is_some();
                (front_arc || in_sight).then(|| Target {
                    who: j,
                    name: self.fighters[j].sheet.name.clone(),
                    front_arc,
                    in_sight,
                })
            })
            .collect()
    }
}
