//! Moves made during the rounds on a battle map, each the consequence of a
//! blow (mls, *2. Rounds*: "The only movement allowable during this time is
//! by an active or inactive character advancing after a Total Attack"):
//! stepping into a fallen opponent's square (*Killing an Opponent*, P-73),
//! backing away after breaking off (*Breaking Off*), trading squares after a
//! critical against a total attack (*Following Up a Total Attack*), and
//! getting up where one fell (P-69).

use super::Fight;
use crate::log::rule;
use crate::map::{self, Facing, Pose, Square};

impl Fight {
    /// mls, *Killing an Opponent*: "If a character kills or knocks
    /// unconscious an opponent with his attack he may move into the square
    /// occupied by his opponent (even if this is a diagonal)." The engine
    /// takes the square when its attacker has no other enemy next to it and
    /// the square brings it nearer the nearest enemy still standing.
    ///
    /// In a fight played by decisions a person decides whenever the square
    /// is open to him (he stands, next to the fallen, the square fits him and
    /// no wall's corner is cut), engaged or not; the engine's pick is the
    /// default.
    pub(super) fn advance_after_fall(
        &mut self,
        attacker: usize,
        fallen: usize,
    ) -> Result<(), crate::error::FightError> {
        let (Some(from), Some(to)) = (self.fighters[attacker].pose, self.fighters[fallen].pose)
        else {
            return Ok(());
        };
        let deciding = self.deciding();
        if !self.fighters[attacker].standing()
            || self.fighters[fallen].standing()
            || !self.adjacent(attacker, fallen)
            || (!deciding && self.engaged(attacker))
        {
            return Ok(());
        }
        let pose = Pose {
            square: to.square,
            facing: from.facing,
        };
        if !self.fits(attacker, pose) || !self.step_clear(from.square, to.square) {
            return Ok(());
        }
        let nearest = |p: Pose| {
            self.standing_enemies(attacker)
                .into_iter()
                .flat_map(|j| self.squares_of(j))
                .map(|s| map::range(p.square, s))
                .min()
        };
        let engine = !self.engaged(attacker)
            && matches!((nearest(from), nearest(pose)), (Some(now), Some(then)) if then < now);
        if !deciding && !engine {
            return Ok(());
        }
        if deciding && !self.choose_advance(attacker, fallen, false, engine)? {
            return Ok(());
        }
        self.place(attacker, pose);
        self.note_moved(rule::KILLING, &[attacker], |s| {
            format!(
                "{} moves into {}'s square, {}",
                s.name(attacker),
                s.name(fallen),
                pose.square
            )
        });
        Ok(())
    }

    /// Breaking off on the map: "he is considered to have disengaged (backed
    /// away)": one square away from `from`, facing unchanged, the farthest
    /// free square around; none if every square around is taken.
    pub(super) fn back_away(&mut self, z: usize, from: usize) -> Option<Square> {
        let here = self.fighters[z].pose?;
        let theirs: Vec<Square> = self.squares_of(from).collect();
        let mut best: Option<(u32, Square)> = None;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(square) = here.square.offset(dx, dy) else {
                    continue;
                };
                let pose = Pose { square, ..here };
                if square == here.square
                    || !self.step_clear(here.square, square)
                    || !self.fits(z, pose)
                {
                    continue;
                }
                let away = theirs
                    .iter()
                    .map(|&t| map::range(square, t))
                    .min()
                    .unwrap_or(0);
                if best.is_none_or(|(b, _)| away > b) {
                    best = Some((away, square));
                }
            }
        }
        let (_, square) = best?;
        self.place(z, Pose { square, ..here });
        Some(square)
    }

    /// Following up a Total Attack on the map: `c` "moves into the square
    /// occupied by the enemy, and may change facing as he wishes. The enemy
    /// in that square is moved into the square occupied by the total
    /// attacker and may not change his facing." `c` faces him again.
    /// Combatants longer than a square do not trade places.
    pub(super) fn trade_squares(&mut self, c: usize, t: usize) -> bool {
        let (Some(pc), Some(pt)) = (self.fighters[c].pose, self.fighters[t].pose) else {
            return false;
        };
        if self.fighters[c].sheet.squares_long() > 1 || self.fighters[t].sheet.squares_long() > 1 {
            return false;
        }
        let facing = Facing::ALL
            .into_iter()
            .find(|f| pt.square.step(*f) == Some(pc.square))
            .unwrap_or(pc.facing);
        self.vacate(c);
        self.vacate(t);
        self.fighters[c].pose = Some(Pose {
            square: pt.square,
            facing,
        });
        self.fighters[t].pose = Some(Pose {
            square: pc.square,
            facing: pt.facing,
        });
        self.occupy(c);
        self.occupy(t);
        true
    }

    /// Someone who comes round stands up where he lies, or, if someone
    /// stands there now, on the nearest free square (P-69).
    pub(super) fn stand_up(&mut self, i: usize) {
        let Some(pose) = self.fighters[i].pose else {
            return;
        };
        if self.fits(i, pose) {
            self.occupy(i);
            return;
        }
        let max = self.map().map_or(0, |m| m.width().max(m.height()));
        for ring in 1..=max as i32 {
            for dy in -ring..=ring {
                for dx in -ring..=ring {
                    if dx.abs() != ring && dy.abs() != ring {
                        continue;
                    }
                    if let Some(square) = pose.square.offset(dx, dy) {
                        let to = Pose { square, ..pose };
                        if self.fits(i, to) {
                            self.place(i, to);
                            self.note_moved(rule::KILLING, &[i], |s| {
                                format!(
                                    "{} gets up on {square}, the nearest free square",
                                    s.name(i)
                                )
                            });
                            return;
                        }
                    }
                }
            }
        }
    }
}
