//! MLS fights in a room, stepped round by round: two sides (the TOML of
//! `nutshell mls fight`'s side files) and the scenario's options make a
//! fight; each step resolves rounds with verifiable dice.
//!
//! A fight is a thread of events ([`crate::store::Store::append_to_thread`]):
//! a `fight` event (the [`FightRequest`] and the state before the first
//! round; no dice) and `fight-step` events, each naming the fight, its step
//! number and how many rounds it resolves. A step is an
//! [`crate::action::Action::FightStep`]: its dice are keyed like any roll's,
//! by that action ([`crate::fair::DiceInput`]); its result carries the log
//! lines of its rounds and the state a viewer needs (every combatant's
//! health and position, the clock, the ending). [`step`] resolves rounds
//! with the dice it is given, for the route and for `nutshell verify`
//! (through [`crate::replay::perform`]).
//!
//! The fight's setting lives in one place, [`FightRequest::build`]: a new
//! option (the battle `map`, for one) is a new field of the request,
//! defaulted and left out of the record when unused (so earlier records keep
//! their text), passed on to `FightOptions` there; [`state`] is the one place
//! that says where a combatant stands (on a map, its square and facing).
//!
//! Earlier servers keyed a step's dice by the record text [`step_text`] and
//! the sequence number, and fought some fights to the end in one roll event
//! whose text is [`FIGHT_PREFIX`] and the request ([`run_whole`]); both still
//! replay ([`crate::replay::legacy`]).
//!
//! # In detail
//!
//! MLS fights in a room: the request (the one place a setting such as the
//! battle map joins `FightOptions`), the state a viewer sees (health and
//! position; on a map square, facing and the map as it began), and `step`
//! (rounds resolved with the given dice), `Running` (a fight stepped, or
//! `Played`: the engine's `Play` with each combatant's `Control`, GM, engine
//! or member, and the time for decisions) and `decide` (a played fight's
//! decision answered and the fight run on to the next person's), shared with
//! `verify` through `replay`; `Played::from_start` and `apply_control` (a
//! played fight as its first event starts it, a change of control applied),
//! shared by the routes and `verify`; fights and steps of earlier servers
//! still replay.

use std::sync::Arc;

use nutshell_dice::Seeded;
use nutshell_mls::fight::{Controller, Decision, Kind, Made, Play};
use nutshell_mls::map::BattleMap;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions, Progress};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::fair;
use crate::roll_error::RollError;

/// How a fight of an earlier server's single roll event names it.
pub const FIGHT_PREFIX: &str = "fight ";

/// How a fight step's record names it.
pub const STEP_PREFIX: &str = "fight-step ";

/// The most turns a fight in a room may last (the command line allows more;
/// a step runs inside the write of its event).
pub const MAX_TURNS: u32 = 1000;

/// The most rounds one step resolves (a whole fight of [`MAX_TURNS`] turns).
pub const MAX_ROUNDS: u32 = MAX_TURNS * 5;

/// The longest side description accepted, in bytes.
pub const MAX_SIDE_BYTES: usize = 16 * 1024;

/// The longest battle map accepted, in bytes (a request's body is at most
/// 64 KiB in all, with the sides).
pub const MAX_MAP_BYTES: usize = 32 * 1024;

/// A fight's sides and options: `POST /api/rooms/{room}/fights` without the
/// request's own fields (`client_seed`, `secret`, `run`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightRequest {
    /// The first side: one combatant or a side of `[[combatant]]`s, as TOML.
    pub a: String,
    /// The second side.
    pub b: String,
    /// Squares between the sides at the start (1: engaged).
    #[serde(default = "one")]
    pub distance: i64,
    /// The surprised side, `a` or `b`, which acts second.
    #[serde(default)]
    pub surprised: Option<String>,
    /// A fight undecided after this many turns is a draw.
    #[serde(default = "hundred")]
    pub max_turns: u32,
    /// The battle map, as the TOML of `nutshell mls fight --map`: the fight
    /// is played on it (and `distance` is not used). Left out of the record
    /// when absent, so fights on the line keep their record text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
}

fn one() -> i64 {
    1
}

fn hundred() -> u32 {
    100
}

impl FightRequest {
    /// The fight this request describes, ready to run; the error names the
    /// side or option that is wrong (a side's TOML error gives its line).
    pub fn build(&self) -> Result<Fight, String> {
        let (sides, options) = self.setting()?;
        let on_map = options.map.is_some();
        Fight::new(sides, options).map_err(|e| map_error(on_map, e))
    }

    /// The sides and options of [`FightRequest::build`], checked, for many
    /// fights of the same setting (`nutshell_mls::simulate`).
    pub fn setting(&self) -> Result<([Side; 2], FightOptions), String> {
        for (name, text) in [("a", &self.a), ("b", &self.b)] {
            if text.len() > MAX_SIDE_BYTES {
                return Err(format!(
                    "side {name} is {} bytes; the most is {MAX_SIDE_BYTES}",
                    text.len()
                ));
            }
        }
        if !(1..=10_000).contains(&self.distance) {
            return Err("`distance` must be 1 to 10000 squares".to_string());
        }
        if !(1..=MAX_TURNS).contains(&self.max_turns) {
            return Err(format!("`max_turns` must be 1 to {MAX_TURNS}"));
        }
        let surprised = match self.surprised.as_deref() {
            None => None,
            Some("a") => Some(0),
            Some("b") => Some(1),
            Some(other) => {
                return Err(format!("`surprised` must be \"a\" or \"b\", not {other:?}"));
            }
        };
        let a = Side::parse("side a", &self.a).map_err(|e| e.to_string())?;
        let b = Side::parse("side b", &self.b).map_err(|e| e.to_string())?;
        let map = match &self.map {
            None => None,
            Some(text) if text.len() > MAX_MAP_BYTES => {
                return Err(format!(
                    "`map` is {} bytes; the most is {MAX_MAP_BYTES}",
                    text.len()
                ));
            }
            // The error reads `map:LINE:COLUMN: what`.
            Some(text) => Some(Arc::new(
                BattleMap::parse("map", text).map_err(|e| format!("`map`: {e}"))?,
            )),
        };
        let options = FightOptions {
            max_turns: self.max_turns,
            log: true,
            distance: self.distance,
            surprised,
            map,
        };
        Ok(([a, b], options))
    }

    /// The record text of a fight of an earlier server (one roll event).
    pub fn text(&self) -> String {
        let value = serde_json::to_value(self).expect("a fight request is plain data");
        format!("{FIGHT_PREFIX}{}", fair::canonical(&value))
    }
}

/// A fight that cannot be set up, in words: a start naming no one, or a
/// square taken twice, is the map's (`map NAME: why`).
pub fn map_error(on_map: bool, e: nutshell_mls::FightError) -> String {
    if on_map && e.to_string().starts_with("map ") {
        format!("`map`: {e}")
    } else {
        e.to_string()
    }
}

/// How many rounds a step resolves: in JSON a number or `"end"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Value", into = "Value")]
pub enum Rounds {
    /// This many (1 to [`MAX_ROUNDS`]), or fewer if the fight ends first.
    Count(u32),
    /// Until the fight ends.
    ToEnd,
}

impl Rounds {
    /// As the step's body and record write it: a number, or `"end"`.
    pub fn to_json(self) -> Value {
        match self {
            Rounds::Count(n) => json!(n),
            Rounds::ToEnd => json!("end"),
        }
    }

    /// Read back from [`Rounds::to_json`].
    pub fn from_json(value: &Value) -> Result<Rounds, String> {
        match value {
            Value::String(s) if s == "end" => Ok(Rounds::ToEnd),
            Value::Number(n) => match n.as_u64() {
                Some(n @ 1..) if n <= u64::from(MAX_ROUNDS) => Ok(Rounds::Count(n as u32)),
                _ => Err(format!("`rounds` must be 1 to {MAX_ROUNDS}, or \"end\"")),
            },
            _ => Err(format!("`rounds` must be 1 to {MAX_ROUNDS}, or \"end\"")),
        }
    }
}

impl From<Rounds> for Value {
    fn from(rounds: Rounds) -> Value {
        rounds.to_json()
    }
}

impl TryFrom<Value> for Rounds {
    type Error = String;
    fn try_from(value: Value) -> Result<Rounds, String> {
        Rounds::from_json(&value)
    }
}

/// The record text of step `step` of fight `fight`: what its dice are keyed
/// by (with the room, epoch, sequence number, stepper and client seed).
pub fn step_text(fight: i64, step: i64, rounds: Rounds) -> String {
    let value = json!({"fight": fight, "step": step, "rounds": rounds.to_json()});
    format!("{STEP_PREFIX}{}", fair::canonical(&value))
}

/// What a viewer needs of a fight between steps: the clock (the turn, the
/// last round resolved in it, the side acting; none before the first turn)
/// and every combatant's health and position (on the line between the
/// sides, in squares; on a battle map also its `square` and `facing`), its
/// set action and what it has left.
pub fn state(fight: &Fight) -> Value {
    let names = fight.side_names();
    let (turn, round) = fight.clock();
    let combatants: Vec<Value> = fight
        .fighters()
        .iter()
        .map(|f| {
            let mut combatant = json!({
                "name": f.sheet.name,
                "side": names[f.side],
                "chp": f.chp,
                "thp": f.sheet.thp,
                "state": f.state.name(),
                "position": f.position,
                "action": f.action.map(|a| a.name()),
                "fate_points": f.fate_points,
                "mp": f.mp,
            });
            // Only on a map, so that fights on the line keep their records.
            if let Some(pose) = f.pose {
                combatant["square"] = json!(pose.square.to_string());
                combatant["facing"] = json!(pose.facing.name());
            }
            combatant
        })
        .collect();
    json!({
        "turn": turn,
        "round": round,
        // Nobody acts before the first turn.
        "acting": (turn > 0).then(|| &names[fight.active_side()]),
        "combatants": combatants,
    })
}

/// The body of a fight's first event's `fight` field: the sides, who acts
/// first, the state before the first round and, on a battle map, the `map`
/// as the fight begins (its `name` and `rows`, as `FightReport::map`).
pub fn start(fight: &Fight) -> Value {
    let names = fight.side_names();
    let mut start = json!({
        "sides": names,
        "first": names[fight.first_side()],
        "state": state(fight),
    });
    if let Some(map) = fight.map_at_start() {
        start["map"] = json!({"name": map.name, "rows": map.rows()});
    }
    start
}

/// Resolves up to `rounds` rounds of `fight` with `dice`: the step's
/// result, with the log lines of those rounds, the state after them, and,
/// once the fight is over, its ending and the checks earned. `nutshell
/// verify` replays with this ([`crate::replay::perform`]).
pub fn step(fight: &mut Fight, dice: &mut Seeded, rounds: Rounds) -> Result<Value, RollError> {
    if fight.ending().is_some() {
        return Err(RollError::Rules("the fight is over".to_string()));
    }
    let before = fight.log().len();
    let mut resolved = 0u32;
    loop {
        let progress = fight
            .step(dice)
            .map_err(|e| RollError::Rules(e.to_string()))?;
        resolved += 1;
        let done = match rounds {
            Rounds::Count(n) => resolved >= n,
            Rounds::ToEnd => false,
        };
        if matches!(progress, Progress::Over(_)) || done {
            break;
        }
    }
    let mut result = json!({
        "rounds": resolved,
        "lines": &fight.log()[before..],
        "state": state(fight),
        "over": false,
    });
    add_ending(fight, &mut result);
    Ok(result)
}

/// A fight between events: stepped round by round by whoever started it,
/// or played by its combatants' controllers, decision by decision.
///
/// (A played fight is larger than a stepped one by its `Play`'s state; both
/// are kept one per fight and cloned whole between requests, so boxing
/// either would save nothing.)
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Running {
    /// Stepped (`POST /fights/{fight}/step`): every choice is the engine's.
    Stepped(Fight),
    /// Played by decisions (`POST /fights/{fight}/decisions`).
    Played(Played),
}

impl Running {
    /// The fight as it stands.
    pub fn fight(&self) -> &Fight {
        match self {
            Running::Stepped(fight) => fight,
            Running::Played(played) => played.play.fight(),
        }
    }
}

/// A played fight: the engine's [`Play`] and, for the table, who controls
/// each combatant and how long a person has to decide.
#[derive(Debug, Clone)]
pub struct Played {
    /// The fight and the decision it waits for.
    pub play: Play,
    /// Each combatant's controller, in the fight's order.
    pub control: Vec<Control>,
    /// Seconds a person has to decide before the engine's default is
    /// taken (none: no limit).
    pub decision_seconds: Option<u64>,
    /// Since when each decision waited for has been waited for, in the
    /// order of [`Play::pending_all`] ([`Played::track`]).
    pub since: Vec<Since>,
}

/// When a decision waited for became so: the number of the event of the
/// fight's thread after which it was first waited for, and that event's
/// time. A decision still waited for after the next event (the same
/// [`Decision::id`]) keeps its `since`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Since {
    /// The decision ([`Decision::id`]).
    pub id: String,
    /// The combatant (index into the fight's fighters).
    pub who: usize,
    /// The kind of decision.
    pub kind: Kind,
    /// Its turn.
    pub turn: u32,
    /// Its round.
    pub round: usize,
    /// The step (event number in the thread) at which it became pending.
    pub step: i64,
    /// The time of that event, in milliseconds since 1970.
    pub at_ms: i64,
}

impl Since {
    fn of(&self, d: &Decision) -> bool {
        self.id == d.id
    }
}

/// Who controls a combatant of a played fight: in JSON `"gm"`, `"engine"`
/// or a member's id.
///
/// ```
/// use nutshell_server::fight::Control;
/// use serde_json::json;
/// assert_eq!(Control::from_json(&json!("gm")), Ok(Control::Gm));
/// assert_eq!(Control::from_json(&json!(3)), Ok(Control::Member(3)));
/// assert_eq!(Control::Engine.to_json(), json!("engine"));
/// assert!(Control::from_json(&json!("bob")).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// The GM decides.
    Gm,
    /// The engine decides at once, by the combatant's tactic.
    Engine,
    /// This member decides (member 0 is the GM).
    Member(i64),
}

impl Control {
    /// Reads `"gm"`, `"engine"` or a member's id (0 reads as the GM).
    pub fn from_json(value: &Value) -> Result<Control, String> {
        match value {
            Value::String(s) if s == "gm" => Ok(Control::Gm),
            Value::String(s) if s == "engine" => Ok(Control::Engine),
            Value::Number(n) => match n.as_i64() {
                Some(0) => Ok(Control::Gm),
                Some(id @ 1..) => Ok(Control::Member(id)),
                _ => Err(format!("{n} is not a member's id")),
            },
            other => Err(format!(
                "a controller is \"gm\", \"engine\" or a member's id, not {other}"
            )),
        }
    }

    /// As [`Control::from_json`] reads it.
    pub fn to_json(self) -> Value {
        match self {
            Control::Gm => json!("gm"),
            Control::Engine => json!("engine"),
            Control::Member(id) => json!(id),
        }
    }

    /// Whether `member` (with `gm` telling whether they are the GM) makes
    /// this controller's decisions.
    pub fn is(self, member: i64, gm: bool) -> bool {
        match self {
            Control::Gm => gm,
            Control::Engine => false,
            Control::Member(id) => id == member,
        }
    }
}

impl Played {
    /// A played fight as its first event starts it: `fight` with the
    /// event's `control` and `decision_seconds`.
    pub fn from_start(body: &Value, fight: Fight) -> Result<Played, String> {
        let names: Vec<String> = fight
            .fighters()
            .iter()
            .map(|f| f.sheet.name.clone())
            .collect();
        let mut control = vec![Control::Gm; names.len()];
        for entry in body["control"].as_array().into_iter().flatten() {
            let name = entry["name"].as_str().unwrap_or("");
            let i = names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| format!("no combatant {name:?}"))?;
            control[i] = Control::from_json(&entry["controller"])?;
        }
        Ok(Played::new(
            fight,
            control,
            body["decision_seconds"].as_u64(),
        ))
    }

    /// Applies a `fight-control` event to the fight.
    pub fn apply_control(&mut self, body: &Value) -> Result<(), String> {
        if let Some(name) = body["who"].as_str() {
            let i = self
                .play
                .index_of(name)
                .ok_or_else(|| format!("no combatant {name:?}"))?;
            self.control[i] = Control::from_json(&body["controller"])?;
        }
        if let Some(seconds) = body.get("decision_seconds") {
            self.decision_seconds = seconds.as_u64();
        }
        Ok(())
    }

    /// `fight` played with `control` (one per combatant).
    pub fn new(fight: Fight, control: Vec<Control>, decision_seconds: Option<u64>) -> Played {
        let engine = control
            .iter()
            .map(|c| {
                if *c == Control::Engine {
                    Controller::Engine
                } else {
                    Controller::Person
                }
            })
            .collect();
        Played {
            play: Play::new(fight, engine),
            control,
            decision_seconds,
            since: Vec::new(),
        }
    }

    /// Notes, after the fight's event number `step` (written at `at_ms`),
    /// since when each decision waited for is waited for: one waited for
    /// before keeps its step; a new one gets this one.
    pub fn track(&mut self, step: i64, at_ms: i64) {
        let before = std::mem::take(&mut self.since);
        self.since = self
            .play
            .pending_all()
            .iter()
            .map(|d| {
                before.iter().find(|s| s.of(d)).cloned().unwrap_or(Since {
                    id: d.id.clone(),
                    who: d.who,
                    kind: d.kind,
                    turn: d.turn,
                    round: d.round,
                    step,
                    at_ms,
                })
            })
            .collect();
    }

    /// Since when `d` (one of the decisions waited for) has been waited
    /// for.
    pub fn since_of(&self, d: &Decision) -> Option<Since> {
        self.since.iter().find(|s| s.of(d)).cloned()
    }

    /// The names of the combatants the engine controls: what a decision's
    /// action records, so its replay hands the same combatants to the
    /// engine.
    pub fn engine_names(&self) -> Vec<String> {
        self.play
            .fight()
            .fighters()
            .iter()
            .zip(&self.control)
            .filter(|(_, c)| **c == Control::Engine)
            .map(|(f, _)| f.sheet.name.clone())
            .collect()
    }
}

/// What the fight waits for after a decision event, as its result gives
/// it: the first decision waited for (the combatant, the kind, the turn and
/// round; no options: those are shown only to the combatant's controller),
/// or null.
pub fn waiting(play: &Play) -> Value {
    match play.pending() {
        Some(d) => waited(d),
        None => Value::Null,
    }
}

fn waited(d: &Decision) -> Value {
    json!({"id": d.id, "who": d.name, "kind": d.kind, "turn": d.turn, "round": d.round})
}

/// The decisions waited for after the first, in the shape of [`waiting`]
/// (a decision event's result has them as `also_waiting` when there are
/// any: several members of a side declaring their set actions at once).
pub fn also_waiting(play: &Play) -> Vec<Value> {
    play.pending_all().iter().skip(1).map(waited).collect()
}

/// Performs a decision event of a played fight with `dice`: hands the
/// combatants named in `engine` (and only them) to the engine, answers the
/// decision waited for that `made` names (its combatant and kind: any of
/// those waited for; none: the fight only goes on, as at its start or when
/// a combatant waited for was handed to the engine), and runs the fight
/// until a person must decide or it is over. The result holds the log lines
/// of the rounds resolved, the state, `waiting` (the first decision waited
/// for next, or null), `also_waiting` (the others, only when there are any)
/// and, once over, the ending and the checks earned. `nutshell verify`
/// replays with this.
pub fn decide(
    play: &mut Play,
    dice: &mut Seeded,
    made: Option<&Made>,
    engine: &[String],
    rounds: Option<u32>,
) -> Result<Value, RollError> {
    let rules = |e: nutshell_mls::FightError| RollError::Rules(e.to_string());
    if play.fight().ending().is_some() {
        return Err(RollError::Rules("the fight is over".to_string()));
    }
    let names: Vec<String> = play
        .fight()
        .fighters()
        .iter()
        .map(|f| f.sheet.name.clone())
        .collect();
    if let Some(unknown) = engine.iter().find(|n| !names.contains(n)) {
        return Err(RollError::Rules(format!(
            "the engine is given {unknown:?}, who is not in the fight"
        )));
    }
    for (i, name) in names.iter().enumerate() {
        let wanted = if engine.contains(name) {
            Controller::Engine
        } else {
            Controller::Person
        };
        if play.controllers().get(i) != Some(&wanted) {
            play.set_controller(i, wanted).map_err(rules)?;
        }
    }
    // A change of control asks anew what the fight waits for (the step
    // retried on its faces).
    if made.is_some() && play.pending_all().is_empty() && play.fight().ending().is_none() {
        play.advance(dice).map_err(rules)?;
    }
    let pending = play.pending_all();
    match (made, pending.first()) {
        (Some(m), Some(_)) => {
            let found = match &m.id {
                Some(id) => pending.iter().find(|d| &d.id == id),
                None => pending.iter().find(|d| d.name == m.who && d.kind == m.kind),
            };
            let Some(d) = found else {
                let awaited: Vec<String> = pending
                    .iter()
                    .map(|d| format!("{}'s {}", d.name, d.kind.name()))
                    .collect();
                return Err(RollError::Rules(format!(
                    "the fight waits for {}, not {}'s {}",
                    awaited.join(", "),
                    m.who,
                    m.kind.name()
                )));
            };
            let id = d.id.clone();
            play.answer_id(&id, m.choice.clone(), m.by).map_err(rules)?;
        }
        (Some(m), None) => {
            return Err(RollError::Rules(format!(
                "no decision is waited for, yet {}'s {} is given",
                m.who,
                m.kind.name()
            )));
        }
        // The fight only goes on: at its start, or after a change of
        // control (which may leave it waiting for the same decisions).
        (None, _) => {}
    }
    let before = play.fight().log().len();
    match rounds {
        None => {
            play.advance(dice).map_err(rules)?;
        }
        // At most this many rounds: a long run of the engine's combatants
        // is written as several events, each within the size of one.
        Some(limit) => {
            for _ in 0..limit {
                match play.step(dice).map_err(rules)? {
                    nutshell_mls::fight::Next::Step(Progress::Round { .. }) => {}
                    _ => break,
                }
            }
        }
    }
    let fight = play.fight();
    let mut result = json!({
        "lines": &fight.log()[before..],
        "state": state(fight),
        "over": false,
        "waiting": waiting(play),
    });
    // Only when several are waited for, so that earlier results keep
    // their text.
    let also = also_waiting(play);
    if !also.is_empty() {
        result["also_waiting"] = json!(also);
    }
    add_ending(fight, &mut result);
    Ok(result)
}

/// Fights `request` to the end with `dice`: the report of `nutshell mls
/// fight --json`, as the single roll event of an earlier server holds it
/// (only [`crate::replay::legacy`] reads such events).
pub(crate) fn run_whole(request: &FightRequest, dice: &mut Seeded) -> Result<Value, RollError> {
    let mut fight = request.build().map_err(RollError::Rules)?;
    let ending = fight
        .run(dice)
        .map_err(|e| RollError::Rules(e.to_string()))?;
    serde_json::to_value(fight.report(&ending))
        .map_err(|e| RollError::Rules(format!("the result is not JSON: {e}")))
}

/// Once `fight` has ended: `result` marked over, with the ending and the
/// checks earned.
fn add_ending(fight: &Fight, result: &mut Value) {
    if let Some(ending) = fight.ending().cloned() {
        let report = fight.report(&ending);
        result["over"] = json!(true);
        result["ending"] = json!(report.ending);
        result["checks"] = json!(report.checks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> FightRequest {
        FightRequest {
            a: include_str!("../../../examples/mls/duel/knight.toml").to_string(),
            b: include_str!("../../../examples/mls/duel/brigand.toml").to_string(),
            distance: 3,
            surprised: None,
            max_turns: 100,
            map: None,
        }
    }

    /// The dice of step `n` (its count) under `seed`.
    fn dice(seed: &[u8; 32], n: i64) -> Seeded {
        fair::dice(seed, &fair::DiceInput::new("r", 0, 0, n, "", "{}"))
    }

    /// Stepping one round at a time gives the rounds of `Fight::step` in
    /// order: each step's lines are of the round it resolved, and the
    /// lines of all steps are the fight's whole log.
    #[test]
    fn a_step_resolves_one_round_and_reports_its_lines_and_state() {
        let seed = [3u8; 32];
        let mut fight = request().build().unwrap();
        let start = start(&fight);
        assert_eq!(start["sides"], json!(["Sir Aldric", "Black Wat"]));
        assert_eq!(start["state"]["combatants"][1]["position"], 3);
        let mut all = Vec::new();
        for n in 1..=200 {
            let result = step(&mut fight, &mut dice(&seed, n), Rounds::Count(1)).unwrap();
            assert_eq!(result["rounds"], 1);
            let (turn, round) = fight.clock();
            assert_eq!(result["state"]["turn"], turn);
            assert_eq!(result["state"]["round"], round);
            for line in result["lines"].as_array().unwrap() {
                assert!(line["turn"].as_u64().unwrap() <= u64::from(turn));
                all.push(line.clone());
            }
            let chp: Vec<i64> = fight.fighters().iter().map(|f| f.chp).collect();
            let shown: Vec<i64> = result["state"]["combatants"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["chp"].as_i64().unwrap())
                .collect();
            assert_eq!(chp, shown);
            if result["over"] == true {
                assert!(result["ending"]["reason"].is_string());
                break;
            }
        }
        assert!(fight.ending().is_some(), "the duel ends within 200 rounds");
        assert_eq!(json!(fight.log()), json!(all));
        // A finished fight takes no more steps.
        assert!(step(&mut fight, &mut dice(&seed, 999), Rounds::Count(1)).is_err());
    }

    /// docs/mls/map.md, Fights on the map: a fight on a map starts with the
    /// map's rows and every combatant's square and facing, and each step's
    /// state gives the squares the log's `positions` last put them on.
    #[test]
    fn a_fight_on_a_map_gives_the_map_and_every_square_and_facing() {
        let seed = [5u8; 32];
        let mut request = request();
        request.map = Some(include_str!("../../../examples/mls/maps/corridor.toml").to_string());
        let mut fight = request.build().unwrap();
        let start = start(&fight);
        let map = fight.map_at_start().unwrap();
        assert_eq!(start["map"]["rows"], json!(map.rows()));
        assert_eq!(start["map"]["name"], json!(map.name));
        let first = &start["state"]["combatants"];
        assert_eq!(first[0]["square"], "C4");
        assert_eq!(first[0]["facing"], "east");
        assert_eq!(first[1]["square"], "M4");
        assert_eq!(first[1]["facing"], "west");
        let mut squares: std::collections::HashMap<String, String> =
            std::collections::HashMap::new();
        for n in 1..=500 {
            let result = step(&mut fight, &mut dice(&seed, n), Rounds::Count(1)).unwrap();
            for line in result["lines"].as_array().unwrap() {
                for p in line["positions"].as_array().into_iter().flatten() {
                    squares.insert(
                        p["name"].as_str().unwrap().to_string(),
                        p["square"].as_str().unwrap().to_string(),
                    );
                }
            }
            for c in result["state"]["combatants"].as_array().unwrap() {
                let name = c["name"].as_str().unwrap();
                if let Some(logged) = squares.get(name) {
                    assert_eq!(
                        c["square"].as_str(),
                        Some(logged.as_str()),
                        "step {n}: {name}"
                    );
                }
            }
            if result["over"] == true {
                break;
            }
        }
        assert!(fight.ending().is_some(), "the duel ends within 500 rounds");
        assert!(!squares.is_empty(), "somebody moved");
    }

    /// A fight on the line keeps the record text it had before maps: no
    /// `map` in its request, no `square` in its state.
    #[test]
    fn a_fight_without_a_map_records_no_map() {
        let request = request();
        assert!(!request.text().contains("map"), "{}", request.text());
        let start = start(&request.build().unwrap());
        assert!(start.get("map").is_none());
        assert!(start["state"]["combatants"][0].get("square").is_none());
    }

    #[test]
    fn a_bad_map_is_refused_with_its_line_and_column() {
        let mut request = request();
        request.map = Some("name = \"x\"\nrows = '''\n###\n#x#\n###\n'''\n".to_string());
        let error = request.build().unwrap_err();
        assert!(
            error.starts_with("`map`: map:4:2: unknown square `x`"),
            "{error}"
        );
        // A start that names no one in the fight.

        request.map = Some(
            "name = \"x\"\nrows = '''\n....\n'''\n[[start]]\nwho = \"Nobody\"\nat = \"A1\"\nfacing = \"east\"\n"
                .to_string(),
        );
        let error = request.build().unwrap_err();
        assert_eq!(
            error,
            "`map`: map \"x\": a start names \"Nobody\", who is in neither side"
        );
        request.map = Some("x".repeat(MAX_MAP_BYTES + 1));
        assert!(request.build().unwrap_err().contains("bytes"));
    }

    #[test]
    fn rounds_read_back_as_written_and_refuse_what_is_out_of_range() {
        for rounds in [Rounds::Count(1), Rounds::Count(MAX_ROUNDS), Rounds::ToEnd] {
            assert_eq!(Rounds::from_json(&rounds.to_json()), Ok(rounds));
        }
        for bad in [
            json!(0),
            json!(MAX_ROUNDS + 1),
            json!(-1),
            json!("all"),
            json!(1.5),
        ] {
            let error = Rounds::from_json(&bad).unwrap_err();
            assert!(error.contains("`rounds`"), "{bad}: {error}");
        }
    }
}
