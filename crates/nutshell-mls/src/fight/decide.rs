//! Decisions: wherever the text gives a character a choice, the fight asks
//! whoever controls him (docs/mls/combat.md, "Playing a fight by
//! decisions").
//!
//! A decision names who decides, its [`Kind`], the legal options (each with
//! the rule it comes from), the options the rules rule out (each with the
//! sentence that does), and the engine's own pick from the combatant's
//! tactic as the default. A [`Controller::Engine`] takes the default at
//! once; a [`Controller::Person`] is asked ([`super::Play`]). Answers are
//! plain data ([`Choice`], [`Made`]), so a fight is its sides, its map, its
//! dice and its list of decisions, and replays exactly from them.
//!
//! A fight that is not played by decisions (`mls simulate`, `Fight::run`)
//! asks nothing and builds no options: every decision site first checks
//! whether decisions are on.

use super::Fight;
use crate::error::FightError;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Who makes a combatant's choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Controller {
    /// The engine: the combatant's tactic, as `mls fight` plays it.
    #[default]
    Engine,
    /// A person, who is asked.
    Person,
}

/// The kinds of decision a fight asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The set action at the movement phase (mls, *Set Actions*).
    SetAction,
    /// The movement of the set action on a battle map: squares and facing
    /// (mls, *1. Movement*, *Forward Movement* ...).
    Movement,
    /// Whom to strike or shoot when free to choose (mls, *Who May Attack*,
    /// *Close Combat*, *Who May Shoot*).
    Target,
    /// How the next close attack is made: normal, Total Attack, Total
    /// Defence or foregone (mls, *Other Options for Combat Rounds*).
    Attack,
    /// After a Total Attack's hit: the next opponent, or stop (mls, *Total
    /// Attack*).
    Chain,
    /// Whether to delay or rush the turn's first attack (mls, *Delaying
    /// Attacks*, *Rushing Attacks*).
    Timing,
    /// Whether to dodge a shot (mls, *Shooting*).
    Dodge,
    /// Whether to spend a Fate Point (mls, *Death*, *Certain Death*).
    FatePoint,
    /// Where to aim an attack or a shot (mls, *Aiming a Shot*, *Aiming an
    /// Attack*).
    Aim,
    /// Whether to spend an attack reloading a missile weapon or preparing a
    /// spell, or hold it (mls, *Reloading*, *Preparing Spells*).
    Reload,
    /// Whether to advance into a fallen opponent's square, or follow up a
    /// critical against a Total Attack (mls, *Killing an Opponent*,
    /// *Following Up a Total Attack*).
    Advance,
    /// Whether to shoot back at a shooter instead of the target chosen
    /// (mls, *Shooting*).
    ShootBack,
}

impl Kind {
    /// The kind in words.
    pub fn name(self) -> &'static str {
        match self {
            Kind::SetAction => "set action",
            Kind::Movement => "movement",
            Kind::Target => "target",
            Kind::Attack => "attack",
            Kind::Chain => "total attack's next opponent",
            Kind::Timing => "timing",
            Kind::Dodge => "dodge",
            Kind::FatePoint => "Fate Point",
            Kind::Aim => "aim",
            Kind::Reload => "reload",
            Kind::Advance => "advance",
            Kind::ShootBack => "shoot back",
        }
    }
}

/// An answer to a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// A set action.
    Action(super::Action),
    /// A way on the map: squares passed through in order, each reached by
    /// the cheapest way from the one before; the last may name a facing
    /// after a colon (`E5:north`). Empty: stay.
    Path(Vec<String>),
    /// A combatant, by name.
    Target(String),
    /// How to make the attack.
    Attack(crate::sheet::Mode),
    /// Yes or no (dodge, spend a Fate Point).
    Yes(bool),
    /// Stop (a Total Attack's chain).
    Stop,
    /// Use the attack to break off combat.
    BreakOff,
    /// The turn's first attack delayed by this many rounds (0: on time), or
    /// rushed one round.
    Timing {
        /// Rounds of delay.
        delay: u32,
        /// Rushed one round early.
        rush: bool,
    },
    /// Aim at this location (the chest: not aimed).
    Aim(crate::body::Location),
    /// On the line (a fight without a map): squares moved toward the
    /// nearest enemy (positive) or away from him (negative).
    Squares(i64),
    /// A later attack of the turn (`attack`: 2 for the second) delayed by
    /// `delay` rounds, or rushed one round.
    TimingOf {
        /// Which attack of the turn, 1 for the first.
        attack: u32,
        /// Rounds of delay.
        delay: u32,
        /// Rushed one round early.
        rush: bool,
    },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Action(a) => f.write_str(a.name()),
            Choice::Path(p) if p.is_empty() => f.write_str("stay"),
            Choice::Path(p) => f.write_str(&p.join(" ")),
            Choice::Target(t) => f.write_str(t),
            Choice::Attack(m) => f.write_str(match m {
                crate::sheet::Mode::Normal => "a normal attack",
                crate::sheet::Mode::TotalAttack => "a Total Attack",
                crate::sheet::Mode::TotalDefence => "a Total Defence",
                crate::sheet::Mode::Forego => "forego the attack",
            }),
            Choice::Yes(true) => f.write_str("yes"),
            Choice::Yes(false) => f.write_str("no"),
            Choice::Stop => f.write_str("stop"),
            Choice::BreakOff => f.write_str("break off"),
            Choice::Timing { rush: true, .. } => f.write_str("rush the first attack"),
            Choice::Timing { delay: 0, .. } => f.write_str("on time"),
            Choice::Timing { delay, .. } => write!(f, "delay the first attack {delay} round(s)"),
            Choice::Aim(crate::body::Location::Chest) => f.write_str("the chest (not aimed)"),
            Choice::Aim(l) => write!(f, "aim at the {l}"),
            Choice::Squares(0) => f.write_str("stay"),
            Choice::Squares(n) if *n > 0 => write!(f, "close {n} square(s)"),
            Choice::Squares(n) => write!(f, "withdraw {} square(s)", -n),
            Choice::TimingOf {
                attack, rush: true, ..
            } => {
                write!(f, "rush attack {attack} of the turn")
            }
            Choice::TimingOf {
                attack, delay: 0, ..
            } => {
                write!(f, "attack {attack} of the turn on time")
            }
            Choice::TimingOf { attack, delay, .. } => {
                write!(f, "delay attack {attack} of the turn {delay} round(s)")
            }
        }
    }
}

/// One option of a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Opt {
    /// The answer that takes it.
    pub choice: Choice,
    /// The option in words ("Charge", "E5 (3 MP)").
    pub label: String,
    /// The rule it comes from, and the sentence.
    pub rule: &'static str,
}

/// An option the rules rule out, with the sentence that does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuledOut {
    /// The answer that would take it.
    pub choice: Choice,
    /// The rule and sentence it breaks.
    pub why: String,
}

/// A square a movement decision can end on: its least cost in movement
/// points and the cheapest way there, so that a front end shows costs and
/// paths without computing them.
///
/// In a decision's JSON these are the `square`, `cost` and `path` of the
/// option that ends there:
///
/// ```json
/// {"choice": {"path": ["C3"]}, "label": "C3 (2 MP)", "rule": "...",
///  "square": "C3", "cost": 2, "path": ["C4", "C3"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    /// The square reached.
    pub square: String,
    /// The least movement points it costs.
    pub cost: u32,
    /// The squares entered on the cheapest way, in order, the last being
    /// `square` (empty when it is the square the combatant stands on).
    pub path: Vec<String>,
}

/// A decision the fight waits for.
///
/// Its JSON is its fields', `moves` merged into the `options` they belong
/// to (a movement option carries its `square`, `cost` and `path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The turn and round (0: the movement phase).
    pub turn: u32,
    /// The round.
    pub round: usize,
    /// The combatant who decides (index into `Fight::fighters`).
    pub who: usize,
    /// His name.
    pub name: String,
    /// What kind of decision.
    pub kind: Kind,
    /// The question in words.
    pub question: String,
    /// The legal options (for movement: every square within the allowance,
    /// with its cheapest cost; a path through several is also an answer).
    pub options: Vec<Opt>,
    /// Options the rules rule out, each with its sentence.
    pub ruled_out: Vec<RuledOut>,
    /// The engine's pick from the combatant's tactic.
    pub default: Choice,
    /// For a movement: every square within the allowance, with its least
    /// cost and the cheapest way there (one per option ending on a square).
    pub moves: Vec<Move>,
}

/// An option as a decision's JSON writes it: with its square's cost and
/// way when it is a movement's.
#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    opt: &'a Opt,
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a [String]>,
}

impl Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let options: Vec<Shown<'_>> = self
            .options
            .iter()
            .map(|o| {
                let square = match &o.choice {
                    Choice::Path(p) if p.len() == 1 => p[0].split(':').next(),
                    _ => None,
                };
                let m = square.and_then(|s| self.moves.iter().find(|m| m.square == s));
                Shown {
                    opt: o,
                    square: m.map(|m| m.square.as_str()),
                    cost: m.map(|m| m.cost),
                    path: m.map(|m| m.path.as_slice()),
                }
            })
            .collect();
        let mut s = serializer.serialize_struct("Decision", 9)?;
        s.serialize_field("turn", &self.turn)?;
        s.serialize_field("round", &self.round)?;
        s.serialize_field("who", &self.who)?;
        s.serialize_field("name", &self.name)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("question", &self.question)?;
        s.serialize_field("options", &options)?;
        s.serialize_field("ruled_out", &self.ruled_out)?;
        s.serialize_field("default", &self.default)?;
        s.end()
    }
}

impl Decision {
    /// This decision answered with `choice` by `by`: what the log records.
    pub fn answered(&self, choice: Choice, by: Controller) -> Made {
        Made {
            turn: self.turn,
            round: self.round,
            who: self.name.clone(),
            kind: self.kind,
            choice,
            by,
        }
    }
}

/// A decision made: what the JSON log writes and an orders file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    /// The turn it was made in.
    #[serde(default)]
    pub turn: u32,
    /// The round (0: the movement phase).
    #[serde(default)]
    pub round: usize,
    /// The combatant who decided, by name.
    pub who: String,
    /// The kind.
    pub kind: Kind,
    /// The answer.
    pub choice: Choice,
    /// Who made it: a person or the engine.
    #[serde(default = "person")]
    pub by: Controller,
}

fn person() -> Controller {
    Controller::Person
}

/// What a decision needs from its site: the question, and its options.
pub(super) struct Ask {
    pub who: usize,
    pub kind: Kind,
    pub question: String,
    pub options: Vec<Opt>,
    pub ruled_out: Vec<RuledOut>,
    pub default: Choice,
}

/// A fight's decisions: who controls whom, answers waiting to be used, the
/// decisions made, and the ones being waited for (several when the active
/// side's members are asked for their set actions at once).
#[derive(Debug, Clone, Default)]
pub(super) struct Decisions {
    pub controllers: Vec<Controller>,
    pub queue: VecDeque<Made>,
    pub made: Vec<Made>,
    pub asked: Vec<Decision>,
    /// The squares of the movement about to be asked, with their costs and
    /// ways (set by the movement's site, taken by the next decision).
    pub moves: Vec<Move>,
}

impl Fight {
    /// Waits for `asks` at once (each a person's, none answered yet): the
    /// fight stops (`FightError::Waiting`) with every one of them pending.
    pub(super) fn wait_for_all(&mut self, asks: Vec<Ask>) -> FightError {
        let asked: Vec<Decision> = asks
            .into_iter()
            .map(|ask| self.asking(ask, Vec::new()))
            .collect();
        if let Some(d) = self.decisions.as_mut() {
            d.asked = asked;
        }
        FightError::Waiting
    }

    /// `ask` as the decision waited for, in this turn and round (`moves`:
    /// a movement's squares).
    fn asking(&self, ask: Ask, moves: Vec<Move>) -> Decision {
        Decision {
            turn: self.turn,
            round: self.round,
            who: ask.who,
            name: self.fighters[ask.who].sheet.name.clone(),
            kind: ask.kind,
            question: ask.question,
            options: ask.options,
            ruled_out: ask.ruled_out,
            default: ask.default,
            moves,
        }
    }

    /// Whether this fight is played by decisions (else every choice is the
    /// engine's and no options are built).
    pub(super) fn deciding(&self) -> bool {
        self.decisions.is_some()
    }

    /// Asks `ask`: an answer waiting in the queue for this combatant and
    /// kind is checked by `apply` and used; an engine controller takes the
    /// default; a person's decision stops the fight (`FightError::Waiting`)
    /// until it is answered. A one-option decision is not asked.
    ///
    /// `apply` turns an answer into what the site needs, or says which rule
    /// it breaks; by default an answer must be one of the options.
    pub(super) fn decide<T>(
        &mut self,
        ask: Ask,
        apply: impl Fn(&Self, &Choice) -> Result<T, String>,
    ) -> Result<T, FightError> {
        let name = self.fighters[ask.who].sheet.name.clone();
        if ask.kind != Kind::Movement && ask.options.len() == 1 {
            let only = ask.options[0].choice.clone();
            return apply(self, &only).map_err(FightError::Invalid);
        }
        let (turn, round) = (self.turn, self.round);
        let d = self
            .decisions
            .as_mut()
            .expect("decide is only called when deciding");
        let moves = std::mem::take(&mut d.moves);
        let front = d.queue.front();
        let matches = front.is_some_and(|m| m.who == name && m.kind == ask.kind);
        let controller = d.controllers.get(ask.who).copied().unwrap_or_default();
        let (choice, by) = if matches {
            let m = d.queue.pop_front().expect("checked");
            (m.choice, m.by)
        } else if controller == Controller::Engine {
            (ask.default.clone(), Controller::Engine)
        } else if let Some(m) = front {
            return Err(FightError::Invalid(format!(
                "the orders' next decision is {:?}'s {} (turn {}, round {}), but the fight asks {name:?} for a {} in turn {turn}, round {round}",
                m.who,
                m.kind.name(),
                m.turn,
                m.round,
                ask.kind.name()
            )));
        } else {
            let asked = self.asking(ask, moves);
            if let Some(d) = self.decisions.as_mut() {
                d.asked = vec![asked];
            }
            return Err(FightError::Waiting);
        };
        let legal = |c: &Choice| -> Result<(), String> {
            if ask.kind == Kind::Movement || ask.options.iter().any(|o| &o.choice == c) {
                return Ok(());
            }
            match ask.ruled_out.iter().find(|r| &r.choice == c) {
                Some(r) => Err(r.why.clone()),
                None => Err(format!(
                    "not one of the options: {}",
                    ask.options
                        .iter()
                        .map(|o| format!("{:?}", o.label))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        };
        let applied = legal(&choice).and_then(|()| apply(self, &choice));
        match applied {
            Ok(t) => {
                if let Some(d) = self.decisions.as_mut() {
                    d.made.push(Made {
                        turn,
                        round,
                        who: name,
                        kind: ask.kind,
                        choice,
                        by,
                    });
                }
                Ok(t)
            }
            Err(why) => Err(FightError::Refused(format!(
                "{name:?}'s {} {:?} is refused: {why}",
                ask.kind.name(),
                choice.to_string()
            ))),
        }
    }
}
