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

mod close;
mod shooting;

pub use shooting::range_penalty;

use crate::body::{HitKind, Location};
use crate::damage::{Damage, Hit, Protection};
use crate::dice::Dice;
use crate::error::FightError;
use crate::health::{self, State, Threshold};
use crate::log::{Line, rule};
use crate::schedule::{ROUNDS, Schedule};
use crate::sheet::{Combatant, Preferred, Side, TargetChoice, WeaponKind};
use nutshell_dice::DiceSource;
use nutshell_rules::Outcome;
use nutshell_rules::mls;
use serde::Serialize;
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
}

impl Default for FightOptions {
    fn default() -> FightOptions {
        FightOptions {
            max_turns: 100,
            log: true,
            distance: 1,
            surprised: None,
        }
    }
}

/// The set actions (mls, *Set Actions*): "Fight, Charge, Shoot, Cast
/// Offensive Spells, Move, Move and Shoot, Flee, Pursue, Respond".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
}

impl Action {
    /// The name used in logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Action::Fight => "Fight",
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
    /// Position on the line between the sides, in squares.
    pub position: i64,
    /// The set action chosen on its side's last turn.
    pub action: Option<Action>,
    schedule: Schedule,
    attacking: Attacking,
    /// The turn it was last knocked out in (that turn does not count down).
    down_turn: u32,
    target: Option<usize>,
    reload_left: u32,
    prepared: u32,
    broke_off: bool,
    charging: bool,
    moved: i64,
    shot_by: Vec<usize>,
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

    fn wants_to_break_off(&self) -> bool {
        self.sheet
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
                        "two combatants are named \"{}\" (sides \"{}\" and \"{}\"): names must be unique in a fight",
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
                    schedule: Schedule::none(),
                    attacking: Attacking::Melee,
                    down_turn: 0,
                    target: None,
                    reload_left: 0,
                    prepared: 0,
                    broke_off: false,
                    charging: false,
                    moved: 0,
                    shot_by: Vec::new(),
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
            turn: 0,
            round: 0,
            ending: None,
            log: options.log.then(Vec::new),
            max_turns: options.max_turns,
            pending: Vec::new(),
        };
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
            self.begin_turn();
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
        if self.log.is_some() {
            let line = Line {
                turn: self.turn,
                round: self.round,
                text: text(self),
                rule,
                faces: faces.to_vec(),
            };
            self.log.get_or_insert_default().push(line);
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.fighters[i].sheet.name
    }

    // ----- geometry and choices -----

    fn separation(&self, a: usize, b: usize) -> i64 {
        (self.fighters[a].position - self.fighters[b].position).abs()
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.separation(a, b) <= 1
    }

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

    /// Moves `i` up to `squares` toward `j`, stopping adjacent; returns the squares moved.
    fn move_toward(&mut self, i: usize, j: usize, squares: i64) -> i64 {
        let gap = self.separation(i, j) - 1;
        let step = squares.min(gap).max(0);
        let dir = (self.fighters[j].position - self.fighters[i].position).signum();
        self.fighters[i].position += dir * step;
        step
    }

    // ----- the turn -----

    /// The movement phase: the active side chooses set actions and moves; then
    /// everyone's attacks for the turn are scheduled.
    fn begin_turn(&mut self) {
        self.turn += 1;
        let active = self.active_side();
        self.note(Some(rule::TURN_ORDER), |s| {
            format!("Turn {}: {}", s.turn, s.sides[active])
        });
        for i in 0..self.fighters.len() {
            let f = &mut self.fighters[i];
            f.schedule = Schedule::none();
            f.charging = false;
            f.moved = 0;
            f.shot_by.clear();
        }
        if self.turn == 1 {
            // The side acting second has its set actions ready from the start
            // (project ruling P-22): an archer can shoot back in the first turn.
            for i in 0..self.fighters.len() {
                if self.fighters[i].side != active && self.fighters[i].standing() {
                    let action = self.choose_action(i);
                    self.fighters[i].action = Some(action);
                    self.note(Some(rule::SET_ACTIONS), |s| {
                        format!("{} stands ready to {}", s.name(i), action.name())
                    });
                }
            }
        }
        for i in 0..self.fighters.len() {
            if self.fighters[i].side == active && self.fighters[i].standing() {
                let action = self.choose_action(i);
                self.fighters[i].action = Some(action);
                self.note(Some(rule::SET_ACTIONS), |s| {
                    format!("{} chooses {}", s.name(i), action.name())
                });
                self.make_move(i, action);
            }
        }
        for i in 0..self.fighters.len() {
            if self.fighters[i].standing() {
                self.schedule(i, active);
            }
        }
    }

    /// Those of `enemies` who chose Flee! in their side's last turn.
    fn fleeing(&self, enemies: &[usize]) -> Vec<usize> {
        enemies
            .iter()
            .copied()
            .filter(|&j| self.fighters[j].action == Some(Action::Flee))
            .collect()
    }

    /// Chooses `i`'s set action for this turn: its tactic, within the rules.
    fn choose_action(&self, i: usize) -> Action {
        let f = &self.fighters[i];
        let ranged = f.sheet.ranged().map(|w| w.kind);
        if f.broke_off {
            Action::Flee
        } else if self.engaged(i) {
            Action::Fight
        } else if f.sheet.melee().is_some()
            && ranged.is_none()
            && !self.fleeing(&self.standing_enemies(i)).is_empty()
        {
            Action::Pursue
        } else if let Some(kind) = ranged {
            match (f.sheet.tactic.action, kind) {
                (Some(Preferred::MoveAndShoot), _) => Action::MoveAndShoot,
                (Some(Preferred::Respond), _) => Action::Respond,
                (None, WeaponKind::Spell) => Action::CastOffensiveSpells,
                (None, _) => Action::Shoot,
            }
        } else if f.sheet.melee().is_none() || f.sheet.tactic.action == Some(Preferred::Respond) {
            Action::Respond
        } else {
            let target = self.nearest(i, &self.standing_enemies(i));
            match target {
                Some(j) if self.separation(i, j) - 1 <= f.sheet.movement() => Action::Charge,
                Some(_) => Action::Move,
                None => Action::Respond,
            }
        }
    }

    /// Makes `i`'s move for its set action (mls, *1. Movement*).
    fn make_move(&mut self, i: usize, action: Action) {
        let enemies = self.standing_enemies(i);
        let fleeing = self.fleeing(&enemies);
        let movement = self.fighters[i].sheet.movement();
        match action {
            Action::Charge | Action::Move => {
                if let Some(j) = self.nearest(i, &enemies) {
                    let moved = self.move_toward(i, j, movement);
                    self.fighters[i].moved = moved;
                    self.fighters[i].target = Some(j);
                    if action == Action::Charge {
                        self.fighters[i].charging = true;
                    }
                    self.note(Some(rule::MOVEMENT), |s| {
                        format!(
                            "{} moves {moved} square(s) toward {} (up to Agl+1 = {movement}); {} apart",
                            s.name(i),
                            s.name(j),
                            s.separation(i, j)
                        )
                    });
                }
            }
            Action::MoveAndShoot => {
                if let Some(j) = self.nearest(i, &enemies) {
                    // Close in, but never into contact: a shooter stays at least 2 squares off.
                    let room = (self.separation(i, j) - 2).max(0);
                    let moved = self.move_toward(i, j, movement.min(room));
                    self.fighters[i].moved = moved;
                    self.note(Some(rule::MOVE_AND_SHOOT), |s| {
                        format!(
                            "{} moves {moved} square(s) and will shoot in round {}",
                            s.name(i),
                            moved.clamp(1, 5)
                        )
                    });
                }
            }
            Action::Pursue => {
                if let Some(j) = self.pick(i, &fleeing) {
                    let moved = self.move_toward(i, j, 2 * movement);
                    self.fighters[i].moved = moved;
                    self.fighters[i].target = Some(j);
                    self.note(Some(rule::PURSUE), |s| {
                        format!(
                            "{} pursues {} {moved} square(s) (up to twice Agl+1 = {}); {} apart",
                            s.name(i),
                            s.name(j),
                            2 * movement,
                            s.separation(i, j)
                        )
                    });
                }
            }
            Action::Flee => self.flee(i, 2 * movement),
            Action::Fight | Action::Shoot | Action::CastOffensiveSpells | Action::Respond => {}
        }
    }

    /// "The fleeing character MUST use ALL of his movement allowance": away
    /// from the nearest enemy. He escapes when no standing enemy could reach
    /// him with a pursuit (twice its Agl+1) next turn (project ruling P-19).
    fn flee(&mut self, i: usize, squares: i64) {
        let enemies = self.standing_enemies(i);
        let nearest = enemies
            .iter()
            .copied()
            .min_by_key(|&j| (self.separation(i, j), j));
        let away = match nearest {
            Some(j) if self.fighters[j].position != self.fighters[i].position => {
                (self.fighters[i].position - self.fighters[j].position).signum()
            }
            _ => {
                if self.fighters[i].side == 0 {
                    -1
                } else {
                    1
                }
            }
        };
        self.fighters[i].position += away * squares;
        self.fighters[i].broke_off = false;
        let caught = enemies
            .iter()
            .any(|&j| self.separation(i, j) - 1 <= 2 * self.fighters[j].sheet.movement());
        self.note(Some(rule::FLEE), |s| {
            format!("{} flees {squares} square(s) (twice Agl+1)", s.name(i))
        });
        if !caught {
            self.fighters[i].state = State::Escaped;
            self.note(Some(rule::FLEE), |s| {
                format!("{} is out of every enemy's reach and escapes", s.name(i))
            });
        }
    }

    /// Schedules `i`'s attacks for the turn (RULING M-4) from its set action,
    /// or, on the other side's turn, from where it stands.
    fn schedule(&mut self, i: usize, active: usize) {
        let adjacent = self.engaged(i);
        let f = &self.fighters[i];
        let tactic = &f.sheet.tactic;
        let shape = |s: Schedule| {
            let s = s.delayed(tactic.delay as usize);
            if tactic.rush { s.rushed() } else { s }
        };
        let ranged_skill = f.sheet.ranged().map(|w| f.sheet.skill(&w.skill));
        // Without a melee weapon a combatant only defends in close combat.
        let melee = match f.sheet.melee() {
            Some(_) => Schedule::for_skill(f.melee_skill()),
            None => Schedule::none(),
        };
        let (schedule, attacking) = if f.side == active {
            match f.action {
                Some(Action::Fight) => (shape(melee), Attacking::Melee),
                Some(Action::Respond) if adjacent => (shape(melee), Attacking::Melee),
                // "regardless of skill he may only make one attack, in the fifth round"
                Some(Action::Charge) if adjacent => (Schedule::from_rounds(&[5]), Attacking::Melee),
                Some(Action::Shoot | Action::CastOffensiveSpells) => (
                    shape(Schedule::for_skill(ranged_skill.unwrap_or(0))),
                    Attacking::Ranged,
                ),
                // "he may attack in any single round from any point during his movement"
                Some(Action::MoveAndShoot) => (
                    Schedule::from_rounds(&[f.moved.clamp(1, 5) as usize]),
                    Attacking::Ranged,
                ),
                // "IF, and only if, he finishes his move adjacent ... a single unopposed attack in the fifth round"
                Some(Action::Pursue) if adjacent => {
                    (Schedule::from_rounds(&[5]), Attacking::Unopposed)
                }
                _ => (Schedule::none(), Attacking::Melee),
            }
        } else if f.action == Some(Action::Flee) {
            // A fleer has turned his back: "He may not make any attacks" and a
            // pursuer catches him from behind, with an unopposed attack.
            (Schedule::none(), Attacking::Melee)
        } else if adjacent && f.sheet.melee().is_some() {
            // "Any inactive character ... may attack any enemy in the hex in front of him."
            (shape(melee), Attacking::Melee)
        } else if matches!(
            f.action,
            Some(Action::Shoot | Action::CastOffensiveSpells | Action::MoveAndShoot)
        ) && ranged_skill.is_some()
        {
            // "Any active or inactive character who is not being attacked by an adjacent opponent may shoot"
            (
                shape(Schedule::for_skill(ranged_skill.unwrap_or(0))),
                Attacking::Ranged,
            )
        } else {
            (Schedule::none(), Attacking::Melee)
        };
        let rounds = schedule.rounds();
        let f = &mut self.fighters[i];
        f.schedule = schedule;
        f.attacking = attacking;
        if !rounds.is_empty() {
            self.note(Some(rule::ROUNDS), |s| {
                format!("{} attacks in round(s) {:?}", s.name(i), rounds)
            });
        }
    }

    /// Whether `j` may be attacked in `round`: a charger "may only be attacked
    /// in the 5th round".
    fn attackable(&self, j: usize, round: usize) -> bool {
        self.fighters[j].standing() && (!self.fighters[j].charging || round == 5)
    }

    fn resolve_round(&mut self, dice: &mut Dice<'_>) -> Result<(), FightError> {
        let round = self.round;
        self.pending.clear();
        self.shoot(dice, round)?;
        self.close_combat(dice, round)?;
        self.apply_hits(dice)?;
        Ok(())
    }

    /// "All full turn actions ... now take effect"; unconscious combatants
    /// count down their turns.
    fn end_turn(&mut self) {
        for i in 0..self.fighters.len() {
            if let State::Unconscious(Some(n)) = self.fighters[i].state
                && self.fighters[i].down_turn != self.turn
            {
                let left = n.saturating_sub(1);
                if left == 0 {
                    self.fighters[i].state = State::Standing;
                    self.note(Some(rule::UNCONSCIOUS), |s| {
                        format!("{} comes round", s.name(i))
                    });
                } else {
                    self.fighters[i].state = State::Unconscious(Some(left));
                }
            }
        }
        self.round = 0;
    }

    /// Ends the fight when a side has no one standing, or, at the end of a
    /// turn, when the turn limit is reached.
    fn check_over(&mut self, turn_done: bool) {
        if self.ending.is_some() {
            return;
        }
        let up = |s: usize| self.fighters.iter().any(|f| f.side == s && f.standing());
        let (a, b) = (up(0), up(1));
        let ending = match (a, b) {
            (true, true) if turn_done && self.turn >= self.max_turns => Some(Ending {
                winner: None,
                turns: self.turn,
                reason: format!("no side won in {} turns", self.max_turns),
            }),
            (true, true) => None,
            (false, false) => {
                // Everyone is down: a side whose members are all dead (or fled)
                // loses to one with survivors, who will come round.
                let survivors = |s: usize| {
                    self.fighters
                        .iter()
                        .any(|f| f.side == s && matches!(f.state, State::Unconscious(_)))
                };
                match (survivors(0), survivors(1)) {
                    (true, false) | (false, true) => {
                        let w = if survivors(0) { 0 } else { 1 };
                        Some(Ending {
                            winner: Some(w),
                            turns: self.turn,
                            reason: format!(
                                "everyone is down, and only side {} has survivors",
                                self.sides[w]
                            ),
                        })
                    }
                    _ => Some(Ending {
                        winner: None,
                        turns: self.turn,
                        reason: "neither side has anyone standing".into(),
                    }),
                }
            }
            (winner_a, _) => {
                let w = if winner_a { 0 } else { 1 };
                Some(Ending {
                    winner: Some(w),
                    turns: self.turn,
                    reason: format!("no one of {} is standing", self.sides[1 - w]),
                })
            }
        };
        if let Some(e) = ending {
            self.note(None, |s| match e.winner {
                Some(w) => format!("Winner: {} ({})", s.sides[w], e.reason),
                None => format!("A draw: {}", e.reason),
            });
            self.ending = Some(e);
        }
    }

    // ----- rolls, hits and health -----

    /// One MLS roll: 3d6 + skill + modifier. `what` is only put into words
    /// for the log or an error.
    fn roll(
        &mut self,
        dice: &mut Dice<'_>,
        i: usize,
        skill: i64,
        mods: Mods,
        what: RollFor,
    ) -> Result<Roll, FightError> {
        let modifier = mods.total();
        let three = dice.three_d6(&|| format!("for {}'s {}", self.name(i), self.describe(what)))?;
        let natural = three.natural();
        let total = natural + skill + modifier;
        let roll = Roll { natural, total };
        self.note_dice(None, &three.faces, |s| {
            let m = mods.text();
            let skill = match skill {
                k if k < 0 => format!("- {}", -k),
                k => format!("+ {k}"),
            };
            let special = match natural {
                18 => " (natural 18)",
                3 => " (natural 3)",
                _ => "",
            };
            format!(
                "{} rolls {}: 3d6 {:?} = {natural}{special} {skill}{m} = {total}: {}",
                s.name(i),
                s.describe(what),
                three.faces,
                roll.outcome().id()
            )
        });
        Ok(roll)
    }

    /// What a roll is for, in words.
    fn describe(&self, what: RollFor) -> String {
        match what {
            RollFor::Attack(t) => format!("attack on {}", self.name(t)),
            RollFor::TotalAttack(t) => format!("total attack on {}", self.name(t)),
            RollFor::Unopposed(t) => format!("unopposed attack on {}", self.name(t)),
            RollFor::Shot(t, w) => format!("shot ({w}) at {}", self.name(t)),
            RollFor::Defence => "defence".to_string(),
            RollFor::Dodge => "dodge".to_string(),
            RollFor::Shock => "shock roll".to_string(),
        }
    }

    /// Queues a hit for the end of the round.
    fn queue_hit(&mut self, hit: PendingHit) {
        self.pending.push(hit);
    }

    /// Rolls and applies the round's hits, in the order they were scored.
    fn apply_hits(&mut self, dice: &mut Dice<'_>) -> Result<(), FightError> {
        let pending = std::mem::take(&mut self.pending);
        for h in &pending {
            self.apply_hit(dice, h)?;
        }
        self.pending = pending;
        Ok(())
    }

    fn apply_hit(&mut self, dice: &mut Dice<'_>, h: &PendingHit) -> Result<(), FightError> {
        let t = h.target;
        if matches!(self.fighters[t].state, State::Dead) {
            self.note(None, |s| {
                format!(
                    "{}'s blow falls on {}, already dead",
                    s.name(h.attacker),
                    s.name(t)
                )
            });
            return Ok(());
        }
        let attacker = &self.fighters[h.attacker].sheet;
        let target = &self.fighters[t].sheet;
        let protection = Protection {
            armour: target.armour_on(h.location).map(|a| (a.value, a.coverage)),
            shield: if h.shield {
                target.shield.as_ref().map(|s| s.value)
            } else {
                None
            },
        };
        let hit = Hit {
            damage: Damage {
                dam: h.dam,
                critical: h.kind.critical || h.kind.natural_18,
                minor: attacker.minor,
            },
            kind: h.kind,
            protection,
        };
        let (before, done, faces) = hit.roll(dice)?;
        let absorbed = hit.absorbed();
        self.note_dice(Some(rule::DAMAGE), &faces, |s| {
            let how = if hit.damage.minor {
                format!("a minor NPC's Dam {}", hit.damage.effective_dam())
            } else {
                format!(
                    "{} = {faces:?}, at least Dam {}",
                    hit.damage.expression(),
                    hit.damage.effective_dam()
                )
            };
            let crit = if hit.damage.critical {
                " (critical: Dam doubled)"
            } else {
                ""
            };
            let armour = match (protection.armour, absorbed) {
                (_, 0) if h.kind.natural_18 && protection.armour.is_some() => {
                    " - armour ignored (natural 18)".to_string()
                }
                (Some(_), 0) if h.kind.critical => " - armour ignored (critical)".to_string(),
                (_, 0) => String::new(),
                (_, a) => format!(
                    " - {a} armour{}",
                    if protection.shield.is_some() && !h.kind.natural_18 {
                        " and shield"
                    } else {
                        ""
                    }
                ),
            };
            format!(
                "damage to {} from {}'s hit on the {}: {how}{crit} = {before}{armour} = {done}",
                s.name(t),
                s.name(h.attacker),
                h.location
            )
        });
        self.take_damage(dice, t, done)
    }

    /// Damage to CHP, then whatever the new CHP calls for (RULING M-7).
    fn take_damage(
        &mut self,
        dice: &mut Dice<'_>,
        t: usize,
        damage: i64,
    ) -> Result<(), FightError> {
        if damage <= 0 {
            return Ok(());
        }
        let before = self.fighters[t].chp;
        let after = before.saturating_sub(damage);
        self.fighters[t].chp = after;
        let f = &self.fighters[t];
        let (minor, thp) = (f.sheet.minor, f.sheet.thp);
        self.note(None, |s| {
            format!("{}: CHP {before} -> {after} of {thp}", s.name(t))
        });
        match health::threshold(minor, after, thp) {
            Threshold::Unhurt => {}
            Threshold::MinorDead => self.set_state(
                t,
                State::Dead,
                rule::MINORS,
                "at 0 CHP or below a minor NPC is effectively dead",
            ),
            Threshold::CertainDeath => {
                if self.fighters[t].fate_points > 0 {
                    self.fighters[t].fate_points -= 1;
                    self.fighters[t].chp = before;
                    self.note(Some(rule::CERTAIN_DEATH), |s| {
                        format!("{} is below -50% THP, but spends a Fate Point to remove the damage (CHP back to {before})", s.name(t))
                    });
                } else {
                    self.set_state(
                        t,
                        State::Dead,
                        rule::CERTAIN_DEATH,
                        "below -50% THP: dead, no shock roll",
                    );
                }
            }
            Threshold::ShockOrDeath => {
                let (ok, _) = self.shock_roll(dice, t)?;
                if ok {
                    self.set_state(t, State::Unconscious(None), rule::DEATH, "below 0 CHP, the shock roll succeeds: unconscious until the end of the fight");
                } else if self.fighters[t].fate_points > 0 {
                    self.fighters[t].fate_points -= 1;
                    self.set_state(t, State::Unconscious(None), rule::FATE, "the shock roll fails below 0 CHP, but a Fate Point makes it a success: unconscious until the end of the fight");
                } else {
                    self.set_state(
                        t,
                        State::Dead,
                        rule::DEATH,
                        "below 0 CHP, the shock roll fails: dead",
                    );
                }
            }
            Threshold::ShockOrUnconscious => {
                let rule = if minor {
                    rule::MINORS
                } else {
                    rule::UNCONSCIOUS
                };
                let (ok, score) = self.shock_roll(dice, t)?;
                if !ok && self.fighters[t].standing() {
                    let turns = health::unconscious_turns(score);
                    let why = format!(
                        "the shock roll fails: unconscious for 15 - {score} = {turns} turn(s)"
                    );
                    self.set_state(t, State::Unconscious(Some(turns)), rule, &why);
                } else if !ok {
                    // Already down: a longer spell of unconsciousness, never a shorter one.
                    if let State::Unconscious(Some(n)) = self.fighters[t].state {
                        self.fighters[t].state =
                            State::Unconscious(Some(n.max(health::unconscious_turns(score))));
                    }
                }
            }
        }
        Ok(())
    }

    /// "Shock Roll = a check on the Shock trait" (RULING M-7): success and the score.
    fn shock_roll(&mut self, dice: &mut Dice<'_>, t: usize) -> Result<(bool, i64), FightError> {
        let shock = self.fighters[t].sheet.shock_trait();
        let roll = self.roll(dice, t, shock, Mods::default(), RollFor::Shock)?;
        Ok((roll.outcome().succeeded(), roll.total))
    }

    fn set_state(&mut self, t: usize, state: State, rule: &'static str, why: &str) {
        self.fighters[t].state = state;
        self.fighters[t].down_turn = self.turn;
        self.note(Some(rule), |s| format!("{}: {why}", s.name(t)));
    }
}
