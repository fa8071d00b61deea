//! Close combat in one round (mls, *Close Combat*, *Normal Attacks*,
//! *Defensive Rounds*, *Shields*, *Total Attack*, *Total Defence*,
//! *Foregoing Attacks*, *Breaking Off*, *Total Attacks*).
//!
//! Who attacks whom: every combatant with an attack this round picks an
//! adjacent enemy, then "A character must attack an enemy who is attacking him
//! that round" moves targets until it holds. The attacks then fall into
//! situations (connected groups of attackers and their targets), each resolved
//! on its own: everyone rolls once, in file order, and an attacker hits when
//! his roll succeeds and beats every opponent he faces.

use super::{Attacking, Fight, Mods, PendingHit, Roll, RollFor};
use crate::body::{HitKind, Location, landing};
use crate::dice::Dice;
use crate::error::FightError;
use crate::log::rule;
use crate::sheet::{Mode, TargetChoice};
use nutshell_rules::Outcome;
use nutshell_rules::mls::{self, Decider};

/// The most enemies that attack one combatant in a round: the eight squares
/// around his (project ruling P-23). On the line every enemy within a square
/// is adjacent; the rest wait for a place.
pub const MAX_ATTACKERS: usize = 8;

impl Fight {
    pub(super) fn close_combat(
        &mut self,
        dice: &mut Dice<'_>,
        round: usize,
    ) -> Result<(), FightError> {
        let n = self.fighters.len();
        let mut attacker = vec![false; n];
        let near = Near::new(round);
        // How many attackers each combatant already draws this round.
        let mut drawn = vec![0usize; n];
        #[allow(clippy::needless_range_loop)] // `self` is borrowed mutably in the loop
        for i in 0..n {
            let f = &self.fighters[i];
            if !(f.standing() && f.schedule.has(round)) || f.attacking == Attacking::Ranged {
                continue;
            }
            let (side, position) = (f.side, f.position);
            let keep = self.kept_target(i, round, &drawn);
            if f.attacking == Attacking::Unopposed {
                if let Some(t) = keep {
                    self.fighters[t].attacked = true;
                    self.choose_aim(i, false)?;
                    self.unopposed_attack(dice, i, t, round)?;
                }
                continue;
            }
            // "A character must attack an enemy who is attacking him that
            // round, and can only attack another enemy if none are
            // attacking him" (P-90): the enemies known to attack him are
            // his only targets.
            let open = self.strikable(i, round, &drawn);
            let at_him = self.attacking_him(i, round, &open, &attacker, &drawn);
            let keep = keep.filter(|t| at_him.is_empty() || at_him.contains(t));
            let target = match keep {
                Some(t) => Some(t),
                None if !at_him.is_empty() => {
                    let default = self.pick(i, &at_him);
                    self.choose_strike(i, &at_him, &open, default)?
                }
                None if self.on_map() => {
                    let default = self.pick(i, &open);
                    self.choose_target(i, &open, default, false)?
                }
                None => {
                    let default = near.pick(self, i, side, position, &|j| drawn[j] < MAX_ATTACKERS);
                    if self.deciding() {
                        self.choose_target(i, &open, default, false)?
                    } else {
                        default
                    }
                }
            };
            if let Some(t) = target {
                attacker[i] = true;
                drawn[t] += 1;
                self.fighters[i].target = target;
            }
        }
        // "If a character is being attacked this round he MUST attack a
        // character that is attacking him."
        if self.on_map() {
            self.face_attackers(round, &mut attacker, &mut drawn)?;
        } else {
            for _ in 0..=n {
                let by = self.targeted_by(&attacker);
                let mut changed = false;
                for i in (0..n).filter(|&i| attacker[i]) {
                    let at_me = &by[i];
                    if !at_me.is_empty()
                        && !at_me.contains(&self.fighters[i].target.unwrap_or(usize::MAX))
                    {
                        let default = self.pick(i, at_me);
                        self.fighters[i].target = self.choose_target(i, at_me, default, false)?;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        // "A character may at any time declare his next attack is a Total
        // Attack" (and a Total Defence, or forego it).
        if self.deciding() {
            for i in (0..n).filter(|&i| attacker[i]) {
                self.choose_mode(i, dice)?;
                self.choose_aim(i, false)?;
            }
        }
        self.forego_unattacked(&mut attacker);
        // Whoever is attacked has a full-turn action interrupted.
        let targets: Vec<usize> = (0..n)
            .filter(|&z| attacker[z])
            .filter_map(|z| self.fighters[z].target)
            .collect();
        for t in targets {
            self.fighters[t].attacked = true;
        }
        for members in self.situations(&attacker) {
            self.situation(dice, round, members, &attacker)?;
        }
        Ok(())
    }

    /// mls, *Foregoing Attacks*: "Any character may forego an attack. This
    /// means that he still rolls if he is being attacked that round, but
    /// does no harm if he hits." A foregoer whom no one attacks this round
    /// makes no roll, and his target is not attacked by him (P-91); until
    /// none is left, as one foregoer dropped may leave another unattacked.
    fn forego_unattacked(&mut self, attacker: &mut [bool]) {
        loop {
            let by = self.targeted_by(attacker);
            let idle: Vec<usize> = (0..self.fighters.len())
                .filter(|&i| {
                    attacker[i] && self.fighters[i].mode == Mode::Forego && by[i].is_empty()
                })
                .collect();
            if idle.is_empty() {
                return;
            }
            for i in idle {
                attacker[i] = false;
                self.note(Some(rule::FOREGO), |s| {
                    format!(
                        "{} foregoes the attack and no one attacks him this round: no roll",
                        s.name(i)
                    )
                });
            }
        }
    }

    /// The target `i` keeps from before, if it is still open to his
    /// attack this round.
    fn kept_target(&self, i: usize, round: usize, drawn: &[usize]) -> Option<usize> {
        let side = self.fighters[i].side;
        self.fighters[i].target.filter(|&t| {
            self.fighters[t].side != side
                && self.attackable(t, round)
                && self.in_reach(i, t)
                && drawn[t] < MAX_ATTACKERS
        })
    }

    /// The enemies `i` could strike this round where he stands (in front of
    /// him on the map, adjacent on the line), open to attack and with room
    /// for one more attacker.
    fn strikable(&self, i: usize, round: usize, drawn: &[usize]) -> Vec<usize> {
        let near = match self.fighters[i].pose {
            Some(p) if self.on_map() => self.enemies_reached_from(i, p),
            _ => self.adjacent_enemies(i),
        };
        near.into_iter()
            .filter(|&j| self.attackable(j, round) && drawn[j] < MAX_ATTACKERS)
            .collect()
    }

    /// mls, *Close Combat*: "A character must attack an enemy who is
    /// attacking him that round, and can only attack another enemy if none
    /// are attacking him." Of `open` (the enemies `i` could strike), those
    /// known to attack him this round when he chooses (P-90): an enemy who
    /// has already chosen him, and one still to choose whose close attack
    /// this round can only fall on him (he keeps his target on him, or `i`
    /// is the only enemy he could strike). Empty when none is known.
    fn attacking_him(
        &self,
        i: usize,
        round: usize,
        open: &[usize],
        attacker: &[bool],
        drawn: &[usize],
    ) -> Vec<usize> {
        open.iter()
            .copied()
            .filter(|&j| {
                let f = &self.fighters[j];
                if attacker[j] {
                    return f.target == Some(i);
                }
                if j < i || !(f.standing() && f.schedule.has(round)) {
                    return false;
                }
                if f.attacking != Attacking::Melee || f.sheet.melee().is_none() {
                    return false;
                }
                match self.kept_target(j, round, drawn) {
                    Some(t) => t == i,
                    None => self.strikable(j, round, drawn) == [i],
                }
            })
            .collect()
    }

    /// On the map, mls, *Who May Attack*: "If any character is being
    /// attacked this round he may turn at no cost to face (and thus attack)
    /// his attacker. If a character is being attacked this round he MUST
    /// attack a character that is attacking him." Everyone with a close
    /// attack this round who is attacked turns, if he must, to face one of
    /// his attackers and strikes him; one who can face none of them (a
    /// spear's diagonal thrust) only defends.
    fn face_attackers(
        &mut self,
        round: usize,
        attacker: &mut [bool],
        drawn: &mut [usize],
    ) -> Result<(), FightError> {
        let n = self.fighters.len();
        for _ in 0..=n {
            let by = self.targeted_by(attacker);
            let mut changed = false;
            for i in 0..n {
                let f = &self.fighters[i];
                let could = f.standing()
                    && f.schedule.has(round)
                    && f.attacking == Attacking::Melee
                    && f.sheet.melee().is_some();
                let at_me = &by[i];
                if !could
                    || at_me.is_empty()
                    || (attacker[i] && f.target.is_some_and(|t| at_me.contains(&t)))
                {
                    continue;
                }
                let faceable: Vec<usize> = at_me
                    .iter()
                    .copied()
                    .filter(|&j| self.facing_to_reach(i, j).is_some())
                    .collect();
                let old = self.fighters[i].target.filter(|_| attacker[i]);
                let default = self.pick(i, &faceable);
                match self.choose_target(i, &faceable, default, false)? {
                    Some(j) => {
                        let facing = self.facing_to_reach(i, j).expect("checked above");
                        let turned = self.fighters[i].pose.is_some_and(|p| p.facing != facing);
                        if !self.turn_to(i, facing) {
                            // facing_to_reach only offers facings the body fits.
                            continue;
                        }
                        if let Some(t) = old {
                            drawn[t] = drawn[t].saturating_sub(1);
                        }
                        attacker[i] = true;
                        drawn[j] += 1;
                        self.fighters[i].target = Some(j);
                        if turned {
                            self.note_moved(rule::WHO_MAY_ATTACK, &[i], |s| {
                                format!(
                                    "{} is attacked by {} and turns to face {} (free)",
                                    s.name(i),
                                    s.name(j),
                                    facing
                                )
                            });
                        }
                    }
                    None if attacker[i] => {
                        if let Some(t) = old {
                            drawn[t] = drawn[t].saturating_sub(1);
                        }
                        attacker[i] = false;
                        self.note(Some(rule::WHO_MAY_ATTACK), |s| {
                            format!(
                                "{} must fight an attacker but can face none of them: it only defends",
                                s.name(i)
                            )
                        });
                    }
                    None => continue,
                }
                changed = true;
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }

    /// For each combatant, the attackers whose target it is this round, in file order.
    fn targeted_by(&self, attacker: &[bool]) -> Vec<Vec<usize>> {
        let mut by = vec![Vec::new(); self.fighters.len()];
        for (z, f) in self.fighters.iter().enumerate() {
            if let Some(t) = f.target.filter(|_| attacker[z]) {
                by[t].push(z);
            }
        }
        by
    }

    /// Groups of combatants linked by this round's attacks, each in file order.
    fn situations(&self, attacker: &[bool]) -> Vec<Vec<usize>> {
        let n = self.fighters.len();
        let mut group: Vec<usize> = (0..n).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        let mut involved = vec![false; n];
        for z in (0..n).filter(|&z| attacker[z]) {
            if let Some(t) = self.fighters[z].target {
                involved[z] = true;
                involved[t] = true;
                let (a, b) = (root(&mut group, z), root(&mut group, t));
                group[a.max(b)] = a.min(b);
            }
        }
        let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in (0..n).filter(|&i| involved[i]) {
            let r = root(&mut group, i);
            match out.iter_mut().find(|(g, _)| *g == r) {
                Some((_, members)) => members.push(i),
                None => out.push((r, vec![i])),
            }
        }
        out.into_iter().map(|(_, members)| members).collect()
    }

    fn situation(
        &mut self,
        dice: &mut Dice<'_>,
        round: usize,
        members: Vec<usize>,
        attacker: &[bool],
    ) -> Result<(), FightError> {
        let mode = |f: &Self, i: usize| f.fighters[i].mode;
        // "Against another Total Defence no rolls are made by either character."
        if let [a, b] = members[..]
            && attacker[a]
            && attacker[b]
            && mode(self, a) == Mode::TotalDefence
            && mode(self, b) == Mode::TotalDefence
        {
            self.note(Some(rule::TOTAL_DEFENCE), |s| {
                format!(
                    "{} and {} both make a Total Defence: no rolls",
                    s.name(a),
                    s.name(b)
                )
            });
            return Ok(());
        }
        let total_attacker = members
            .iter()
            .copied()
            .find(|&i| attacker[i] && mode(self, i) == Mode::TotalAttack);
        let (rest, rolled) = match total_attacker {
            Some(t) => {
                let rolled = self.total_attack(dice, round, t, &members, attacker)?;
                let rest = members
                    .into_iter()
                    .filter(|i| !rolled.iter().any(|(j, _)| j == i))
                    .collect();
                (rest, rolled)
            }
            None => (members, Vec::new()),
        };
        // mls, Total Attacks: "If the Total Attack fails, or if it succeeds
        // and no other attacks are selected, then all other characters roll."
        if !rest.is_empty() {
            self.normal_attacks(dice, round, &rest, attacker, &rolled)?;
        }
        Ok(())
    }

    /// The modifiers of `i`'s attack this round: delay or rush, aiming, Total Defence.
    fn attack_mods(&self, i: usize, round: usize) -> Mods {
        let f = &self.fighters[i];
        let defence = if f.mode == Mode::TotalDefence { 2 } else { 0 };
        Mods::default()
            .timing(f.schedule.modifier(round).unwrap_or(0))
            .add(f.aim_penalty(), "aim")
            .add(defence, "total defence")
    }

    /// `i`'s close-combat attack roll this round: its melee skill with the
    /// attack's modifiers.
    fn attack_roll(
        &mut self,
        dice: &mut Dice<'_>,
        i: usize,
        round: usize,
        what: RollFor,
    ) -> Result<Roll, FightError> {
        let skill = self.fighters[i].melee_skill();
        let mods = self.attack_mods(i, round);
        self.roll(dice, i, skill, mods, what)
    }

    fn melee_dam(&self, i: usize) -> i64 {
        self.fighters[i].sheet.melee().map_or(0, |w| w.dam)
    }

    fn aimed_location(&self, i: usize, total: i64) -> Location {
        self.fighters[i]
            .aim
            .map_or(Location::Chest, |aim| landing(aim, total))
    }

    /// "So long as no character is making a Total Attack all roll at the same
    /// time, the one suffering a penalty of -1 for every extra opponent. If the
    /// one rolls higher than all opponents he hits his selected opponent. If he
    /// rolls higher than some he blocks their attacks and is hit by the others.
    /// A roll must always be a success to hit."
    /// The attacks of a situation's `members`, all rolled at once. `rolled`
    /// holds the characters who already rolled this round in a total attack's
    /// exchanges: they do not roll again, and their roll stands against any
    /// member who attacks them (project ruling P-20).
    fn normal_attacks(
        &mut self,
        dice: &mut Dice<'_>,
        round: usize,
        members: &[usize],
        attacker: &[bool],
        rolled: &[(usize, Roll)],
    ) -> Result<(), FightError> {
        let n = self.fighters.len();
        let mut here = vec![false; n];
        for &m in members {
            here[m] = true;
        }
        let mut rolls: Vec<Option<Roll>> = vec![None; n];
        for &(j, r) in rolled {
            here[j] = true;
            rolls[j] = Some(r);
        }
        // Who attacks whom within this situation.
        let mut by = self.targeted_by(attacker);
        for list in &mut by {
            list.retain(|&z| here[z]);
        }
        for &x in members {
            let extra = by[x].len().saturating_sub(1) as i64;
            if extra > 0 {
                self.note(Some(rule::CLOSE), |s| {
                    format!("{} faces {} attackers: -{extra}", s.name(x), extra + 1)
                });
            }
            let skill = self.fighters[x].melee_skill();
            let (modifier, what) = if attacker[x] {
                let t = self.fighters[x].target.unwrap_or(x);
                (self.attack_mods(x, round), RollFor::Attack(t))
            } else {
                (Mods::default(), RollFor::Defence)
            };
            let modifier = modifier.add(-extra, "extra attackers");
            rolls[x] = Some(self.roll(dice, x, skill, modifier, what)?);
        }
        for &z in members.iter().filter(|&&z| attacker[z]) {
            let Some(x) = self.fighters[z].target.filter(|&x| here[x]) else {
                continue;
            };
            let (Some(rz), Some(rx)) = (rolls[z], rolls[x]) else {
                continue;
            };
            let r = mls::opposed(rz.rolled(), rx.rolled());
            let beaten_all = by[z]
                .iter()
                .filter(|&&o| o != x)
                .all(|&o| rolls[o].is_some_and(|ro| mls::opposed(rz.rolled(), ro.rolled()).wins));
            if !r.wins {
                let cite = if attacker[x] {
                    rule::NORMAL
                } else {
                    rule::DEFENSIVE
                };
                self.note(Some(cite), |s| {
                    if !r.active.succeeded() {
                        format!("{} misses {} (not a success)", s.name(z), s.name(x))
                    } else if attacker[x] {
                        format!("{} does not beat {}: blocked", s.name(z), s.name(x))
                    } else {
                        format!("{} blocks {}'s attack", s.name(x), s.name(z))
                    }
                });
                continue;
            }
            if !beaten_all {
                self.note(Some(rule::NORMAL), |s| {
                    format!(
                        "{} beats {} but not every opponent: no hit",
                        s.name(z),
                        s.name(x)
                    )
                });
                continue;
            }
            self.land_blow(z, x, rz, r);
        }
        Ok(())
    }

    /// `z` won against `x`: damage, or what its mode makes of the win.
    fn land_blow(&mut self, z: usize, x: usize, rz: Roll, r: mls::Opposed) {
        match self.fighters[z].mode {
            Mode::TotalDefence => {
                self.note(Some(rule::TOTAL_DEFENCE), |s| {
                    format!("{} wins a Total Defence: no damage", s.name(z))
                });
                return;
            }
            Mode::Forego => {
                self.note(Some(rule::FOREGO), |s| {
                    format!("{} wins but foregoes the attack: no harm", s.name(z))
                });
                return;
            }
            _ => {}
        }
        if self.fighters[z].wants_to_break_off() && self.on_map() {
            // "if successful does no damage. However he is considered to have disengaged"
            let moved = self.back_away(z, x);
            self.fighters[z].broke_off = true;
            self.fighters[z].schedule = crate::schedule::Schedule::none();
            self.note_moved(rule::BREAK_OFF, &[z], |s| match moved {
                Some(square) => format!(
                    "{} breaks off: no damage, backs away from {} to {square}",
                    s.name(z),
                    s.name(x)
                ),
                None => format!(
                    "{} breaks off: no damage; no square to back away to",
                    s.name(z)
                ),
            });
            return;
        }
        if self.fighters[z].wants_to_break_off() {
            // "if successful does no damage. However he is considered to have disengaged"
            let away = (self.fighters[z].position - self.fighters[x].position).signum();
            let away = if away == 0 {
                if self.fighters[z].side == 0 { -1 } else { 1 }
            } else {
                away
            };
            self.fighters[z].position += away;
            self.fighters[z].broke_off = true;
            self.fighters[z].schedule = crate::schedule::Schedule::none();
            self.note(Some(rule::BREAK_OFF), |s| {
                format!(
                    "{} breaks off: no damage, backs away from {}",
                    s.name(z),
                    s.name(x)
                )
            });
            return;
        }
        let dam = self.melee_dam(z);
        self.score(z, x, dam, rz, r, true);
    }

    /// Queues a hit from an opposed win `r` of `z` (roll `rz`) over `x`.
    pub(super) fn score(
        &mut self,
        z: usize,
        x: usize,
        dam: i64,
        rz: Roll,
        r: mls::Opposed,
        opposed: bool,
    ) {
        let natural_18 = r.decider == Decider::ActiveNatural18;
        let kind = HitKind {
            critical: r.active == Outcome::CriticalSuccess,
            natural_18,
        };
        // "a successful but losing roll means that the shield has blocked the attack"
        let shield = opposed
            && r.opponent.succeeded()
            && self.fighters[x].sheet.shield.is_some()
            && !natural_18;
        self.note(None, |s| format!("{} hits {}", s.name(z), s.name(x)));
        if let Decider::Totals {
            reduced_active: Some(true),
            ..
        } = r.decider
        {
            self.note(Some(rule::OPPOSED), |s| {
                format!("both rolls are critical successes: {}'s higher roll is reduced to a normal success", s.name(z))
            });
        }
        if natural_18 {
            self.note(Some(rule::NATURAL_18), |s| {
                format!("{}'s natural 18: a critical whatever {} rolled; shields, Partial and Full armour are ignored", s.name(z), s.name(x))
            });
        } else if r.decider == Decider::OpponentNatural3 {
            self.note(Some(rule::NATURAL_3), |s| {
                format!(
                    "{}'s natural 3 counts as a fumble against a success",
                    s.name(x)
                )
            });
        }
        if shield {
            self.note(Some(rule::SHIELDS), |s| {
                format!(
                    "{}'s roll succeeds but loses: the shield blocks part of the blow",
                    s.name(x)
                )
            });
        }
        let location = self.aimed_location(z, rz.total);
        if let Some((aim, (_, required))) = self.fighters[z]
            .aim
            .and_then(|a| a.aim().map(|x| (a, x)))
            .filter(|_| location == Location::Chest)
        {
            self.note(Some(rule::AIMING), |_| {
                format!(
                    "aimed at the {aim}, but {} is short of {required}+: a normal hit on the chest",
                    rz.total
                )
            });
        }
        self.queue_hit(PendingHit {
            attacker: z,
            target: x,
            dam,
            kind,
            location,
            shield,
        });
    }

    /// "IF, and only if, he finishes his move adjacent to ... the fleeing
    /// character he may make a single unopposed attack in the fifth round."
    fn unopposed_attack(
        &mut self,
        dice: &mut Dice<'_>,
        i: usize,
        t: usize,
        round: usize,
    ) -> Result<(), FightError> {
        let roll = self.attack_roll(dice, i, round, RollFor::Unopposed(t))?;
        self.unopposed_hit(i, t, self.melee_dam(i), roll);
        Ok(())
    }

    /// An unopposed attack hits on any success.
    pub(super) fn unopposed_hit(&mut self, z: usize, x: usize, dam: i64, roll: Roll) {
        let outcome = roll.outcome();
        if outcome.succeeded() {
            let r = mls::Opposed {
                wins: true,
                active: outcome,
                opponent: Outcome::Failure,
                decider: if roll.natural == 18 {
                    Decider::ActiveNatural18
                } else {
                    Decider::Totals {
                        both_natural: None,
                        reduced_active: None,
                    }
                },
            };
            self.score(z, x, dam, roll, r, false);
        } else {
            self.note(None, |s| format!("{} misses {}", s.name(z), s.name(x)));
        }
    }

    /// A Total Attack by `t` (mls, *Total Attack*, *Total Attacks*): one
    /// opponent at a time; each win adds his Strength to Dam and goes on to the
    /// next opponent able to attack (those unable only once all those are hit);
    /// the first failure ends it, the enemy who beats him adds his Strength,
    /// and every opponent able to attack who has not rolled makes an unopposed
    /// attack. Returns everyone who rolled.
    fn total_attack(
        &mut self,
        dice: &mut Dice<'_>,
        round: usize,
        t: usize,
        members: &[usize],
        attacker: &[bool],
    ) -> Result<Vec<(usize, Roll)>, FightError> {
        let side = self.fighters[t].side;
        let able: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&j| self.fighters[j].side != side && attacker[j] && self.adjacent(t, j))
            .collect();
        let unable: Vec<usize> = self
            .adjacent_enemies(t)
            .into_iter()
            .filter(|&j| !attacker[j] && self.attackable(j, round))
            .filter(|&j| members.contains(&j) || !self.fighters.iter().any(|f| f.target == Some(j)))
            .collect();
        let mut consumed = vec![t];
        // Each character's roll in the exchanges (the last one for the total attacker).
        let mut rolled: Vec<(usize, Roll)> = Vec::new();
        let mut hits = 0u32;
        let stop_after = self.fighters[t].sheet.tactic.stop_after;
        let mut current = self.fighters[t].target;
        let strength = |f: &Self, i: usize| f.fighters[i].sheet.traits.strength;
        // An opponent strikes back at the total attacker only if he can: on
        // the map, with the total attacker in front of him (mls, Who May
        // Attack); one who cannot merely blocks (Defensive Rounds; P-86).
        let strikes_back = |f: &Self, c: usize| attacker[c] && (!f.on_map() || f.in_reach(c, t));
        let is_total =
            |f: &Self, i: usize| strikes_back(f, i) && f.fighters[i].mode == Mode::TotalAttack;
        while let Some(c) = current {
            consumed.push(c);
            let rt = self.attack_roll(dice, t, round, RollFor::TotalAttack(c))?;
            let skill_c = self.fighters[c].melee_skill();
            let (mod_c, what) = if strikes_back(self, c) {
                let what = if is_total(self, c) {
                    RollFor::TotalAttack(t)
                } else {
                    RollFor::Attack(t)
                };
                (self.attack_mods(c, round), what)
            } else {
                (Mods::default(), RollFor::Defence)
            };
            let rc = self.roll(dice, c, skill_c, mod_c, what)?;
            rolled.retain(|(j, _)| *j != t);
            rolled.push((t, rt));
            rolled.push((c, rc));
            let r = mls::opposed(rt.rolled(), rc.rolled());
            if r.wins {
                hits += 1;
                let both = if is_total(self, c) {
                    strength(self, c)
                } else {
                    0
                };
                let own = strength(self, t);
                let dam = self.melee_dam(t) + own + both;
                self.note(Some(rule::TOTAL_ATTACK), |s| {
                    format!(
                        "{}'s total attack succeeds: Dam {} + Strength {own}{} = {dam}",
                        s.name(t),
                        s.melee_dam(t),
                        if both > 0 {
                            format!(" + {}'s Strength {both}", s.name(c))
                        } else {
                            String::new()
                        }
                    )
                });
                self.score(t, c, dam, rt, r, true);
                let left = |list: &[usize]| {
                    list.iter()
                        .copied()
                        .filter(|j| !consumed.contains(j))
                        .collect::<Vec<_>>()
                };
                let able_left = left(&able);
                // Every able opponent so far was hit (a failure ends the chain),
                // so the unable may follow once the able are all done. On the
                // map the next opponent must be one he can strike: in reach
                // where he stands, or attacking him and faced with a free
                // turn (mls, Who May Attack; P-85).
                let strikeable: Vec<usize> = if !able_left.is_empty() {
                    able_left
                } else {
                    left(&unable)
                }
                .into_iter()
                .filter(|&j| {
                    !self.on_map()
                        || self.in_reach(t, j)
                        || (attacker[j]
                            && self.fighters[j].target == Some(t)
                            && self.facing_to_reach(t, j).is_some())
                })
                .collect();
                // "continuing to attack until he has hit all enemies,
                // voluntarily stops his attacks or fails an attack".
                let next = self.pick(t, &strikeable);
                let stops = next.is_some() && stop_after.is_some_and(|most| hits >= most);
                let default = if stops { None } else { next };
                current = self.choose_chain(t, &strikeable, default)?;
                if current.is_none() && !strikeable.is_empty() {
                    self.note(Some(rule::TOTAL_ATTACK), |s| {
                        format!(
                            "{} stops the total attack voluntarily after {hits} hit(s): the others roll",
                            s.name(t)
                        )
                    });
                }
                if let Some(n) = current
                    && !self.in_reach(t, n)
                    && let Some(facing) = self.facing_to_reach(t, n)
                    && self.turn_to(t, facing)
                {
                    self.note_moved(rule::WHO_MAY_ATTACK, &[t], |s| {
                        format!(
                            "{} is attacked by {} and turns to face {} (free)",
                            s.name(t),
                            s.name(n),
                            facing
                        )
                    });
                }
                if let Some(n) = current {
                    self.note(Some(rule::TOTAL_ATTACK), |s| {
                        format!("{} goes on to attack {}", s.name(t), s.name(n))
                    });
                }
                continue;
            }
            let back = mls::opposed(rc.rolled(), rt.rolled());
            let c_mode = self.fighters[c].mode;
            let c_strikes = strikes_back(self, c) && c_mode != Mode::Forego;
            if back.wins && c_strikes {
                let both = if is_total(self, c) {
                    strength(self, c)
                } else {
                    0
                };
                let dam = self.melee_dam(c) + strength(self, t) + both;
                let cite = if c_mode == Mode::TotalDefence {
                    rule::TOTAL_DEFENCE
                } else {
                    rule::TOTAL_ATTACK
                };
                self.note(Some(cite), |s| {
                    let own = s.melee_dam(c);
                    let st = strength(s, t);
                    let theirs = if both > 0 {
                        format!(" + {}'s Strength {both}", s.name(c))
                    } else {
                        String::new()
                    };
                    format!(
                        "{}'s total attack fails and {} hits: Dam {own} + {}'s Strength {st}{theirs} = {dam}",
                        s.name(t),
                        s.name(c),
                        s.name(t)
                    )
                });
                // "A character who gets a Critical hit against an opponent
                // with a Total Attack may follow up."
                if back.active == Outcome::CriticalSuccess
                    && self.choose_advance(c, t, true, true)?
                {
                    if self.on_map() {
                        if self.trade_squares(c, t) {
                            self.note_moved(rule::FOLLOW_UP, &[c, t], |s| {
                                format!("{} scored a critical against a total attack and follows up, trading squares with {}, who keeps his facing", s.name(c), s.name(t))
                            });
                        }
                    } else {
                        let (pc, pt) = (self.fighters[c].position, self.fighters[t].position);
                        self.fighters[c].position = pt;
                        self.fighters[t].position = pc;
                        self.note(Some(rule::FOLLOW_UP), |s| {
                            format!("{} scored a critical against a total attack and follows up, trading squares with {}", s.name(c), s.name(t))
                        });
                    }
                }
                self.score(c, t, dam, rc, back, true);
            } else {
                self.note(Some(rule::TOTAL_ATTACK), |s| {
                    format!("{}'s total attack on {} fails", s.name(t), s.name(c))
                });
            }
            // "any opponents able to attack who have not yet rolled make unopposed
            // attacks against him, but without the Strength addition"
            for a in able
                .iter()
                .copied()
                .filter(|j| !consumed.contains(j))
                .collect::<Vec<_>>()
            {
                consumed.push(a);
                let ra = self.attack_roll(dice, a, round, RollFor::Unopposed(t))?;
                rolled.push((a, ra));
                if self.fighters[a].mode == Mode::Forego {
                    continue;
                }
                self.unopposed_hit(a, t, self.melee_dam(a), ra);
            }
            break;
        }
        Ok(rolled)
    }
}

/// The combatants who may be attacked this round, by side and square, in
/// file order: finding an adjacent enemy looks at three squares, not at everyone.
struct Near {
    round: usize,
    /// Built on the first pick of the round: a round where every target
    /// stays valid (most rounds of a duel) never builds it.
    by_square: std::cell::OnceCell<[std::collections::BTreeMap<i64, Vec<usize>>; 2]>,
}

impl Near {
    fn new(round: usize) -> Near {
        Near {
            round,
            by_square: std::cell::OnceCell::new(),
        }
    }

    fn squares(&self, fight: &Fight) -> &[std::collections::BTreeMap<i64, Vec<usize>>; 2] {
        self.by_square.get_or_init(|| {
            let mut by_square = [
                std::collections::BTreeMap::new(),
                std::collections::BTreeMap::new(),
            ];
            for (j, f) in fight.fighters.iter().enumerate() {
                if fight.attackable(j, self.round) {
                    by_square[f.side]
                        .entry(f.position)
                        .or_insert_with(Vec::new)
                        .push(j);
                }
            }
            by_square
        })
    }

    /// The adjacent enemy with room for one more attacker (`open`) that
    /// combatant `i` (of `side`, at `position`) picks.
    fn pick(
        &self,
        fight: &Fight,
        i: usize,
        side: usize,
        position: i64,
        open: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        let squares = self.squares(fight)[1 - side].range(position - 1..=position + 1);
        if fight.fighters[i].sheet.tactic.target == TargetChoice::First {
            // Each square's list is in file order: the first of the firsts.
            return squares
                .filter_map(|(_, list)| list.iter().copied().find(|&j| open(j)))
                .min();
        }
        let candidates: Vec<usize> = squares
            .flat_map(|(_, list)| list.iter().copied())
            .filter(|&j| open(j))
            .collect();
        fight.pick(i, &candidates)
    }
}
