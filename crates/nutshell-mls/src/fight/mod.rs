//! A fight between two sides, resolved turn by turn and round by round as
//! *The Nutshell MLS* describes it, from "Tactical Actions" to "Total
//! Attacks" (RULINGS M-4..M-9; project rulings P-15 onwards).
//!
//! A [`Fight`] can be stepped one round at a time and inspected between steps,
//! or run to the end. Every die comes from a [`DiceSource`] in the order the
//! log lists the rolls, so a seed replays a fight and faces typed in from
//! physical dice resolve one.
//!
//! ```
//! use nutshell_dice::Seeded;
//! use nutshell_mls::{Fight, FightOptions, sheet::Side};
//! let knight = Side::parse("knight.toml", r#"
//! name = "Knight"
//! thp = 14
//! skills = { sword = 12 }
//! weapons = [{ name = "sword", skill = "sword", dam = 8 }]
//! "#)?;
//! let brigand = Side::parse("brigand.toml", r#"
//! name = "Brigand"
//! thp = 10
//! skills = { axe = 8 }
//! weapons = [{ name = "axe", skill = "axe", dam = 9 }]
//! "#)?;
//! let mut fight = Fight::new([knight, brigand], FightOptions::default())?;
//! let ending = fight.run(&mut Seeded::new(7))?;
//! assert!(ending.turns >= 1);
//! # Ok::<(), nutshell_mls::FightError>(())
//! ```
//!
//! # In detail
//!
//! The log is a line per event, built only when the log is on. The fight's
//! parts: `turn` (set actions, movement, schedules, the turn's end, the
//! ending), `shooting` and `close` (a round's shots and close combat),
//! `sight` ([`Fight::targets`]: the enemies a combatant could strike in his
//! front arc or shoot in sight, for a front end to mark), `wounds` (rolls,
//! hits applied at the round's end, damage, shock, death); `field`,
//! `maneuver` and `displace` place and move combatants; `decide`, `choices`,
//! `round_choices` and `play` are the fight played by decisions.

mod checks;
mod choices;
mod close;
pub mod decide;
mod displace;
mod field;
mod maneuver;
mod play;
mod report;
mod round_choices;
mod shooting;
mod sight;
mod turn;
mod wounds;

pub use checks::{EarnedCheck, TURNS_FOR_A_CHECK, TraitCheck};
pub use decide::{Choice, Controller, Decision, Kind, Made, Move, Opt, RuledOut, decision_id};
pub use play::{Next, Play};
pub use report::{CombatantReport, EndingReport, FightReport, MapReport};
pub use shooting::range_penalty;
pub use sight::Target;

use crate::body::{HitKind, Location};
use crate::dice::Dice;
use crate::error::FightError;
use crate::health::State;
use crate::log::{Line, rule};
use crate::map::{Arc as FireArc, BattleMap, Pose};
use crate::schedule::{ROUNDS, Schedule};
use crate::sheet::{Combatant, Side, TargetChoice};
use nutshell_dice::DiceSource;
use nutshell_rules::Outcome;
use nutshell_rules::mls;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a fight is set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightOptions {
    /// The fight is a draw after this many turns (each side's turn counts).
    pub max_turns: u32,
    /// Keep a log (off for simulations: faster).
    pub log: bool,
    /// Squares between the two sides at the start, for combatants without a
    /// `position`: 1 means the sides start engaged in close combat.
    pub distance: i64,
    /// The side (0 or 1) that is surprised and so acts second.
    pub surprised: Option<usize>,
    /// A battle map: the fight is played on its squares, every combatant
    /// placed by the map's starts (`docs/mls/map.md`). Without one the sides
    /// face each other on a line, `distance` apart.
    pub map: Option<Arc<BattleMap>>,
}

impl Default for FightOptions {
    fn default() -> FightOptions {
        FightOptions {
            max_turns: 100,
            log: true,
            distance: 1,
            surprised: None,
            map: None,
        }
    }
}

/// The set actions (mls, *Set Actions*): "Fight, Charge, Shoot, Cast
/// Offensive Spells, Move, Move and Shoot, Flee, Pursue, Respond".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Close combat with adjacent enemies.
    Fight,
    /// Move, then one attack in the 5th round.
    Charge,
    /// Shoot a missile weapon.
    Shoot,
    /// Cast offensive spells (as missiles, Forward arc only).
    CastOffensiveSpells,
    /// Move up to Agl+1 squares.
    Move,
    /// Move, and shoot once in the round of the movement.
    MoveAndShoot,
    /// Move twice as far, away from the enemy; no attacks.
    Flee,
    /// Move twice as far after a fleeing enemy; one unopposed attack in the
    /// 5th round if adjacent at the end.
    Pursue,
    /// Stand and respond: attack enemies who come adjacent.
    Respond,
    /// A full-turn action outside the set actions (the tactic's
    /// `turn_action`): no attacks; it takes effect at the turn's end unless
    /// an attack interrupts it.
    TurnAction,
}

impl Action {
    /// The name used in logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Action::Fight => "Fight",
            Action::TurnAction => "a full-turn action",
            Action::Charge => "Charge",
            Action::Shoot => "Shoot",
            Action::CastOffensiveSpells => "Cast Offensive Spells",
            Action::Move => "Move",
            Action::MoveAndShoot => "Move and Shoot",
            Action::Flee => "Flee",
            Action::Pursue => "Pursue",
            Action::Respond => "Respond",
        }
    }
}

/// What a combatant's scheduled attacks are this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Attacking {
    /// Close combat with its melee weapon.
    #[default]
    Melee,
    /// Shots with its missile weapon or spell.
    Ranged,
    /// One unopposed close-combat attack (Pursue).
    Unopposed,
}

/// A combatant in a fight: its sheet and its state.
#[derive(Debug, Clone)]
pub struct Fighter {
    /// The sheet (shared: cloning a fight copies only its state).
    pub sheet: Arc<Combatant>,
    /// 0 or 1.
    pub side: usize,
    /// Current hit points: "This begins at THP and can never rise above it."
    pub chp: i64,
    /// Fate Points left.
    pub fate_points: u32,
    /// Standing, unconscious, dead or escaped.
    pub state: State,
    /// Position on the line between the sides, in squares (fights without
    /// a map).
    pub position: i64,
    /// Square and facing on the battle map (fights on a map).
    pub pose: Option<Pose>,
    /// A Move and Shoot on the map: the poses its movement passed through,
    /// each with the movement points spent to get there ("3rd movement
    /// point means 3rd round"), from the start.
    route: Vec<(u32, Pose)>,
    /// The arc of this turn's first shot: the rest go into it (mls, *Close
    /// Targets*).
    shot_arc: Option<FireArc>,
    /// The set action chosen on its side's last turn.
    pub action: Option<Action>,
    /// The turn it last chose Flee! in (as its side's set action, not the
    /// action it stood ready with before its side's first turn).
    fled_turn: Option<u32>,
    /// How its next close attack is made (its tactic's mode unless decided).
    mode: crate::sheet::Mode,
    /// Where its attacks and shots are aimed (its tactic's `aim` unless
    /// decided; RULING M-8).
    aim: Option<Location>,
    /// Checks on personality traits earned by acting against a Noticeable
    /// trait (mls, *Behaviour*: "an automatic check on the opposing trait if
    /// it succeeds").
    trait_checks: Vec<checks::TraitCheck>,
    schedule: Schedule,
    attacking: Attacking,
    /// The turn it was last knocked out in (that turn does not count down).
    down_turn: u32,
    target: Option<usize>,
    reload_left: u32,
    prepared: u32,
    /// Magic points left (None: the combatant has no TMP).
    pub mp: Option<i64>,
    /// Attacked this turn (in close combat, or hit by a shot): a full-turn
    /// action is then interrupted.
    attacked: bool,
    /// Skills rolled, for the checks they earn.
    used: checks::SkillUse,
    broke_off: bool,
    /// This round's attack is used to break off (decided by a person).
    breaking_off: bool,
    charging: bool,
    moved: i64,
    shot_by: Vec<usize>,
    /// The turn and round in which it held its attack (a person's, owed to
    /// reloading or preparing): not attacking then, so it may dodge (mls,
    /// *Shooting*: "A knowing enemy may choose to Dodge provided he is not
    /// attacking").
    held: Option<(u32, usize)>,
    /// A Move and Shoot's shot point chosen by a person: the round of the
    /// shot, and where it stands then (the pose on the map, the position on
    /// the line); mls, *Move and Shoot*: "he may attack in any single round
    /// from any point during his movement".
    shot_point: Option<(usize, Option<Pose>, i64)>,
    /// The points of this turn's Move and Shoot move (movement points spent,
    /// the pose on the map, the position on the line), from which a person
    /// chooses his shot's when the rounds begin (P-94).
    move_points: Vec<(u32, Option<Pose>, i64)>,
}

impl Fighter {
    /// On its feet.
    pub fn standing(&self) -> bool {
        self.state == State::Standing
    }

    /// The rounds it attacks in this turn.
    pub fn attack_rounds(&self) -> Vec<usize> {
        self.schedule.rounds()
    }

    /// The skill of its close-combat weapon (its dodge score without one).
    fn melee_skill(&self) -> i64 {
        self.sheet
            .melee()
            .map(|w| self.sheet.skill(&w.skill))
            .unwrap_or_else(|| self.sheet.dodge())
    }

    /// The penalty of its aim (RULING M-8), 0 when not aiming.
    fn aim_penalty(&self) -> i64 {
        self.aim
            .and_then(Location::aim)
            .map_or(0, |(penalty, _)| penalty)
    }

    /// Whether it attacks in `round` of `turn`: an attack scheduled and not
    /// held.
    fn attacks_in(&self, turn: u32, round: usize) -> bool {
        self.schedule.has(round) && self.held != Some((turn, round))
    }

    fn wants_to_break_off(&self) -> bool {
        self.breaking_off
            || self
                .sheet
                .tactic
                .break_off_below
                .is_some_and(|below| self.chp < below)
    }
}

/// How a fight ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// The winning side (0 or 1), or none for a draw.
    pub winner: Option<usize>,
    /// Turns played (each side's turn counts).
    pub turns: u32,
    /// Why it ended, in words.
    pub reason: String,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// A round was resolved; the fight goes on.
    Round {
        /// The turn.
        turn: u32,
        /// The round just resolved.
        round: usize,
    },
    /// The fight is over.
    Over(Ending),
}

/// One MLS roll in combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Roll {
    natural: i64,
    total: i64,
}

impl Roll {
    fn rolled(self) -> mls::Rolled {
        mls::Rolled {
            natural: self.natural,
            total: self.total,
        }
    }

    fn outcome(self) -> Outcome {
        mls::outcome(self.natural, self.total)
    }
}

/// The modifiers of one roll, each with its reason for the log; kept on the
/// stack.
#[derive(Debug, Clone, Copy, Default)]
struct Mods {
    parts: [(i64, &'static str); 6],
    len: usize,
}

impl Mods {
    /// Adds a modifier (nothing for 0).
    fn add(mut self, value: i64, why: &'static str) -> Mods {
        if value != 0 && self.len < self.parts.len() {
            self.parts[self.len] = (value, why);
            self.len += 1;
        }
        self
    }

    /// A delayed (+) or rushed (-) attack's modifier.
    fn timing(self, value: i64) -> Mods {
        self.add(value, if value > 0 { "delayed" } else { "rushed" })
    }

    fn total(&self) -> i64 {
        self.parts[..self.len].iter().map(|(v, _)| v).sum()
    }

    /// ` + 1 (delayed) - 3 (aim)`.
    fn text(&self) -> String {
        self.parts[..self.len]
            .iter()
            .map(|(v, why)| match v {
                v if *v < 0 => format!(" - {} ({why})", -v),
                v => format!(" + {v} ({why})"),
            })
            .collect()
    }
}

/// What a roll is for (put into words only when needed).
#[derive(Debug, Clone, Copy)]
enum RollFor<'w> {
    /// An attack on this combatant.
    Attack(usize),
    /// A total attack on this combatant.
    TotalAttack(usize),
    /// An unopposed attack on this combatant.
    Unopposed(usize),
    /// A shot at this combatant with this weapon.
    Shot(usize, &'w str),
    /// A roll against attacks.
    Defence,
    /// A dodge of a shot.
    Dodge,
    /// A shock roll.
    Shock,
}

/// A hit scored in a round, applied at the round's end.
#[derive(Debug, Clone, Copy)]
struct PendingHit {
    attacker: usize,
    target: usize,
    dam: i64,
    kind: HitKind,
    location: Location,
    shield: bool,
}

/// A fight in progress.
#[derive(Debug, Clone)]
pub struct Fight {
    fighters: Vec<Fighter>,
    sides: [String; 2],
    first: usize,
    turn: u32,
    round: usize,
    ending: Option<Ending>,
    log: Option<Vec<Line>>,
    max_turns: u32,
    pending: Vec<PendingHit>,
    /// The side surprised, if one is: it knows of no enemy in the first turn.
    surprised: Option<usize>,
    /// The battle map and who stands where on it (fights on a map).
    field: Option<field::Field>,
    /// Steps to the nearest enemy of a side, for the turn it was made in.
    enemy_steps: Option<(u32, usize, Arc<crate::map::Distances>)>,
    /// What a fighter can reach this turn within a budget (fighter, turn,
    /// budget), made when its set action is chosen and used for its move.
    reach_cache: Option<(usize, u32, u32, Arc<crate::map::Reach>)>,
    /// Played by decisions (`Play`): controllers, answers, decisions made.
    decisions: Option<Box<decide::Decisions>>,
}

impl Fight {
    /// Sets up a fight between two sides. The side with player characters acts
    /// first unless surprised; otherwise the first side given (mls, *Party Turns
    /// and Turn Order*).
    pub fn new(sides: [Side; 2], options: FightOptions) -> Result<Fight, FightError> {
        let mut fighters = Vec::new();
        let names = [sides[0].name.clone(), sides[1].name.clone()];
        let pcs = [sides[0].pcs, sides[1].pcs];
        for (side, s) in sides.into_iter().enumerate() {
            for c in s.combatants {
                if fighters.iter().any(|f: &Fighter| f.sheet.name == c.name) {
                    return Err(FightError::Invalid(format!(
                        "two combatants are named {:?} (sides {:?} and {:?}): names must be unique in a fight",
                        c.name,
                        names[fighters
                            .iter()
                            .find(|f: &&Fighter| f.sheet.name == c.name)
                            .map_or(0, |f| f.side)],
                        names[side]
                    )));
                }
                // A side's line: side 0 at 0 facing up the line, side 1 at
                // `distance` facing down; `position` counts squares behind it.
                let behind = c.position.unwrap_or(0);
                let position = if side == 0 {
                    -behind
                } else {
                    options.distance.max(1) + behind
                };
                fighters.push(Fighter {
                    chp: c.chp.unwrap_or(c.thp),
                    fate_points: if c.minor { 0 } else { c.fate_points },
                    position,
                    side,
                    state: State::Standing,
                    action: None,
                    fled_turn: None,
                    mode: c.tactic.mode,
                    aim: c.tactic.aim,
                    trait_checks: Vec::new(),
                    schedule: Schedule::none(),
                    attacking: Attacking::Melee,
                    down_turn: 0,
                    target: None,
                    reload_left: 0,
                    prepared: 0,
                    mp: c.magic_points(),
                    attacked: false,
                    used: checks::SkillUse::default(),
                    broke_off: false,
                    breaking_off: false,
                    charging: false,
                    moved: 0,
                    shot_by: Vec::new(),
                    held: None,
                    shot_point: None,
                    move_points: Vec::new(),
                    pose: None,
                    route: Vec::new(),
                    shot_arc: None,
                    sheet: Arc::new(c),
                });
            }
        }
        if options.max_turns == 0 {
            return Err(FightError::Invalid("max_turns must be at least 1".into()));
        }
        let mut first = match (pcs[0], pcs[1]) {
            (false, true) => 1,
            _ => 0,
        };
        if options.surprised == Some(first) {
            first = 1 - first;
        }
        let mut fight = Fight {
            fighters,
            sides: names,
            first,
            surprised: options.surprised,
            turn: 0,
            round: 0,
            ending: None,
            log: options.log.then(Vec::new),
            max_turns: options.max_turns,
            pending: Vec::new(),
            field: None,
            enemy_steps: None,
            reach_cache: None,
            decisions: None,
        };
        if let Some(map) = options.map {
            fight.set_out(map)?;
            let everyone: Vec<usize> = (0..fight.fighters.len()).collect();
            let positions = fight.placements(&everyone);
            fight.note_positions(Some(rule::MAP), positions, |s| {
                format!(
                    "On the map {}: {}",
                    s.map().map_or("", |m| m.name.as_str()),
                    s.fighters
                        .iter()
                        .filter_map(|f| f.pose.map(|p| format!(
                            "{} at {} facing {}",
                            f.sheet.name, p.square, p.facing
                        )))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
        }
        fight.check_over(false);
        Ok(fight)
    }

    /// The combatants, in file order (side 0 first).
    pub fn fighters(&self) -> &[Fighter] {
        &self.fighters
    }

    /// The sides' names.
    pub fn side_names(&self) -> &[String; 2] {
        &self.sides
    }

    /// The side that acts first.
    pub fn first_side(&self) -> usize {
        self.first
    }

    /// The current turn (0 before the first) and the last round resolved in it.
    pub fn clock(&self) -> (u32, usize) {
        (self.turn, self.round)
    }

    /// The log so far (empty when the fight keeps none).
    pub fn log(&self) -> &[Line] {
        self.log.as_deref().unwrap_or(&[])
    }

    /// How it ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The side acting in the current turn.
    pub fn active_side(&self) -> usize {
        if self.turn % 2 == 1 {
            self.first
        } else {
            1 - self.first
        }
    }

    /// Resolves the next round (beginning a turn first when one is due).
    pub fn step(&mut self, source: &mut dyn DiceSource) -> Result<Progress, FightError> {
        if let Some(e) = &self.ending {
            return Ok(Progress::Over(e.clone()));
        }
        let mut dice = Dice::new(source);
        if self.round == 0 {
            self.begin_turn(&mut dice)?;
            // Everyone on a side may have fled in the movement phase.
            self.check_over(false);
            if let Some(e) = &self.ending {
                return Ok(Progress::Over(e.clone()));
            }
        }
        self.round += 1;
        let round = self.round;
        self.resolve_round(&mut dice)?;
        let turn_done = self.round == ROUNDS;
        if turn_done {
            self.end_turn();
        }
        self.check_over(turn_done);
        Ok(match &self.ending {
            Some(e) => Progress::Over(e.clone()),
            None => Progress::Round {
                turn: self.turn,
                round,
            },
        })
    }

    /// Runs the fight to its end.
    pub fn run(&mut self, source: &mut dyn DiceSource) -> Result<Ending, FightError> {
        loop {
            if let Progress::Over(e) = self.step(source)? {
                return Ok(e);
            }
        }
    }

    // ----- the log -----

    /// Adds a line to the log; `text` is only called when there is a log.
    fn note(&mut self, rule: Option<&'static str>, text: impl FnOnce(&Self) -> String) {
        self.note_dice(rule, &[], text);
    }

    /// Adds a line that rolled these dice (kept as data for programs).
    fn note_dice(
        &mut self,
        rule: Option<&'static str>,
        faces: &[i64],
        text: impl FnOnce(&Self) -> String,
    ) {
        self.note_with(rule, text, |line| line.faces = faces.to_vec());
    }

    /// Adds a line that moved or turned combatants on the map, with where
    /// they now stand.
    fn note_positions(
        &mut self,
        rule: Option<&'static str>,
        positions: Vec<crate::log::Placement>,
        text: impl FnOnce(&Self) -> String,
    ) {
        self.note_with(rule, text, |line| line.positions = positions);
    }

    /// Adds a line, `data` filling in what it carries for programs (dice,
    /// positions, doors); neither is called without a log.
    fn note_with(
        &mut self,
        rule: Option<&'static str>,
        text: impl FnOnce(&Self) -> String,
        data: impl FnOnce(&mut Line),
    ) {
        if self.log.is_some() {
            let mut line = Line {
                turn: self.turn,
                round: self.round,
                text: text(self),
                rule,
                ..Line::default()
            };
            data(&mut line);
            self.log.get_or_insert_default().push(line);
        }
    }

    /// Notes that `who` moved or turned: `text` and their new places.
    fn note_moved(
        &mut self,
        rule: &'static str,
        who: &[usize],
        text: impl FnOnce(&Self) -> String,
    ) {
        if self.log.is_some() {
            let positions = self.placements(who);
            self.note_positions(Some(rule), positions, text);
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.fighters[i].sheet.name
    }

    // ----- geometry and choices -----

    fn standing_enemies(&self, i: usize) -> Vec<usize> {
        let side = self.fighters[i].side;
        (0..self.fighters.len())
            .filter(|&j| self.fighters[j].side != side && self.fighters[j].standing())
            .collect()
    }

    /// Whether a standing enemy is adjacent to `i`.
    fn engaged(&self, i: usize) -> bool {
        let side = self.fighters[i].side;
        self.fighters
            .iter()
            .enumerate()
            .any(|(j, f)| f.side != side && f.standing() && self.adjacent(i, j))
    }

    fn adjacent_enemies(&self, i: usize) -> Vec<usize> {
        self.standing_enemies(i)
            .into_iter()
            .filter(|&j| self.adjacent(i, j))
            .collect()
    }

    /// The candidate `i`'s tactic prefers.
    fn pick(&self, i: usize, candidates: &[usize]) -> Option<usize> {
        let by =
            |key: &dyn Fn(usize) -> i64| candidates.iter().copied().min_by_key(|&j| (key(j), j));
        match self.fighters[i].sheet.tactic.target {
            TargetChoice::First => candidates.iter().copied().min(),
            TargetChoice::Weakest => by(&|j| self.fighters[j].chp),
            TargetChoice::Strongest => by(&|j| -self.fighters[j].chp),
            TargetChoice::Nearest => by(&|j| self.separation(i, j)),
        }
    }

    /// The nearest of `candidates` to `i` (then by the tactic's preference):
    /// where a Move or Charge heads.
    fn nearest(&self, i: usize, candidates: &[usize]) -> Option<usize> {
        let closest = candidates.iter().map(|&j| self.separation(i, j)).min()?;
        let at: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&j| self.separation(i, j) == closest)
            .collect();
        self.pick(i, &at)
    }

    /// On the line: moves `i` up to `squares` toward `j`, stopping
    /// adjacent; returns the squares moved.
    fn move_toward(&mut self, i: usize, j: usize, squares: i64) -> i64 {
        let gap = self.separation(i, j) - 1;
        let step = squares.min(gap).max(0);
        let dir = (self.fighters[j].position - self.fighters[i].position).signum();
        self.fighters[i].position += dir * step;
        step
    }
}
