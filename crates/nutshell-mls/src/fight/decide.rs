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
//!
//! # In detail
//!
//! Decisions as plain data (serde): `Controller` (a person or the engine),
//! `Kind`, `Choice`, `Decision` (who, question, options with their rules,
//! options ruled out with their sentences, the engine's default; a movement's
//! `moves`, each square's least cost and cheapest path, merged into its
//! options' JSON as `square`, `cost`, `path` so that no front end computes
//! costs), `Made` (an answer and who gave it, and the `id` of the decision it
//! answers); `decision_id` (`t{turn}r{round}-{who}-{kind}-{n}`, derived from
//! the decisions made, so the same on every replay); `Fight::decide`, where a
//! table's answer to this decision (by id) or an answer waiting in the queue
//! is checked and used, an engine controller takes the default, and a
//! person's decision stops the step offering exactly the options its `apply`
//! accepts (none: `decide_or` lets the site do what P-89 says; one: taken,
//! though an order for that very turn and round that the rules rule out is
//! refused with its sentence: `refuse_ruled_out`); `Fight::wait_for_all`,
//! which stops it waiting for several decisions at once.

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
    /// Where along a Move and Shoot's movement the shot is taken, which
    /// sets its round (mls, *Move and Shoot*: "he may attack in any single
    /// round from any point during his movement").
    ShotPoint,
}

impl Kind {
    /// The kind as its JSON writes it (`set-action`).
    pub fn slug(self) -> &'static str {
        match self {
            Kind::SetAction => "set-action",
            Kind::Movement => "movement",
            Kind::Target => "target",
            Kind::Attack => "attack",
            Kind::Chain => "chain",
            Kind::Timing => "timing",
            Kind::Dodge => "dodge",
            Kind::FatePoint => "fate-point",
            Kind::Aim => "aim",
            Kind::Reload => "reload",
            Kind::Advance => "advance",
            Kind::ShootBack => "shoot-back",
            Kind::ShotPoint => "shot-point",
        }
    }

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
            Kind::ShotPoint => "shot point",
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
    /// A Move and Shoot's shot taken after this many movement points of
    /// the move (on the line: squares), in the round they give.
    ShotAt(u32),
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

impl Choice {
    /// The attack of the turn a timing names (1 for the first; 0 for
    /// anything else).
    pub fn timed_attack(&self) -> usize {
        match self {
            Choice::Timing { .. } => 1,
            Choice::TimingOf { attack, .. } => *attack as usize,
            _ => 0,
        }
    }
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
            Choice::ShotAt(0) => f.write_str("shoot before moving"),
            Choice::ShotAt(n) => write!(f, "shoot after {n} movement point(s) of the move"),
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
    /// The decision's identity: its turn, round, combatant, kind and which
    /// of his decisions of that kind in that round it is
    /// ([`decision_id`]). An answer quotes it, so a retried or doubled
    /// answer can never answer the next decision of the same kind.
    pub id: String,
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
        let mut s = serializer.serialize_struct("Decision", 10)?;
        s.serialize_field("id", &self.id)?;
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
            id: Some(self.id.clone()),
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
    /// The decision it answers ([`Decision::id`]): given by a table's
    /// answers, absent from orders files (matched by combatant and kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
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

/// The identity of a decision: `t{turn}r{round}-{who}-{kind}-{n}`, where
/// `who` is the combatant's index and `n` counts his decisions of that kind
/// in that round, from 1.
///
/// ```
/// use nutshell_mls::fight::{decision_id, Kind};
/// assert_eq!(decision_id(3, 2, 1, Kind::Dodge, 2), "t3r2-1-dodge-2");
/// ```
pub fn decision_id(turn: u32, round: usize, who: usize, kind: Kind, n: usize) -> String {
    format!("t{turn}r{round}-{who}-{}-{n}", kind.slug())
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
    /// Answers of an orders file or a log, used in order.
    pub queue: VecDeque<Made>,
    /// Answers given at the table, each naming its decision by `id`, in the
    /// order they came: each is used when its decision is reached,
    /// whatever is asked before it.
    pub answers: Vec<Made>,
    pub made: Vec<Made>,
    pub asked: Vec<Decision>,
    /// The set actions of the acting side's members still to declare, asked
    /// alongside whatever the fight stops at (so a member's question stays
    /// while another member moves).
    pub standing_by: Vec<Decision>,
    /// A table's answer that no longer held when its decision was reached
    /// (its decision's id and the sentence): the decision is asked again.
    pub rejected: Option<(String, String)>,
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
        self.wait_for(asked)
    }

    /// Stops the fight waiting for `asked`, and for the set actions standing
    /// by that are not among them.
    fn wait_for(&mut self, mut asked: Vec<Decision>) -> FightError {
        if let Some(d) = self.decisions.as_mut() {
            for s in &d.standing_by {
                if !asked.iter().any(|a| a.id == s.id) {
                    asked.push(s.clone());
                }
            }
            d.asked = asked;
        }
        FightError::Waiting
    }

    /// Notes the set actions of `asks` (members of the acting side yet to
    /// declare) as standing by: asked with whatever the fight stops at
    /// before they are reached.
    pub(super) fn stand_by(&mut self, asks: Vec<Ask>) {
        let asked: Vec<Decision> = asks
            .into_iter()
            .map(|ask| self.asking(ask, Vec::new()))
            .collect();
        if let Some(d) = self.decisions.as_mut() {
            d.standing_by = asked;
        }
    }

    /// `ask` as the decision waited for, in this turn and round (`moves`:
    /// a movement's squares).
    pub(super) fn asking(&self, ask: Ask, moves: Vec<Move>) -> Decision {
        Decision {
            id: self.decision_id(ask.who, ask.kind),
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

    /// The id ([`decision_id`]) `i`'s next decision of `kind` has in this
    /// turn and round.
    pub(super) fn decision_id(&self, i: usize, kind: Kind) -> String {
        let name = &self.fighters[i].sheet.name;
        let n = self.decisions.as_deref().map_or(0, |d| {
            d.made
                .iter()
                .filter(|m| {
                    m.turn == self.turn && m.round == self.round && &m.who == name && m.kind == kind
                })
                .count()
        });
        decision_id(self.turn, self.round, i, kind, n + 1)
    }

    /// The table's answer waiting for `i`'s next decision of `kind`, if any.
    pub(super) fn answer_waiting(&self, i: usize, kind: Kind) -> Option<&Made> {
        let d = self.decisions.as_deref()?;
        if d.answers.is_empty() {
            return None;
        }
        let id = self.decision_id(i, kind);
        d.answers
            .iter()
            .find(|m| m.id.as_deref() == Some(id.as_str()))
    }

    /// The answer `i`'s next decision of `kind` would take without asking,
    /// if any: a table's answer to it, or the orders' next one when it is
    /// this decision (as [`Fight::decide_or`] looks them up). A site whose
    /// options are costly to work out checks this answer alone first.
    pub(super) fn ready_answer(&self, i: usize, kind: Kind) -> Option<&Choice> {
        if let Some(m) = self.answer_waiting(i, kind) {
            return Some(&m.choice);
        }
        let next = self.decisions.as_deref()?.queue.front()?;
        (next.who == self.fighters[i].sheet.name && next.kind == kind).then_some(&next.choice)
    }

    /// Whether orders are being replayed whose next one is not `i`'s
    /// decision of `kind`: a decision an older orders file never met (P-95,
    /// P-96) is then not asked, and takes its old answer.
    pub(super) fn orders_skip(&self, i: usize, kind: Kind) -> bool {
        let name = self.fighters[i].sheet.name.as_str();
        self.decisions.as_deref().is_some_and(|d| {
            d.queue
                .front()
                .is_some_and(|m| m.who != name || m.kind != kind)
        })
    }

    /// Whether this fight is played by decisions (else every choice is the
    /// engine's and no options are built).
    pub(super) fn deciding(&self) -> bool {
        self.decisions.is_some()
    }

    /// Asks `ask`: a table's answer to it, or an answer waiting in the
    /// queue for this combatant and kind, is checked by `apply` and used; an
    /// engine controller takes the default; a person's decision stops the
    /// fight (`FightError::Waiting`) until it is answered.
    ///
    /// What is offered is what is accepted: a person is offered only the
    /// options `apply` takes, the others listed as ruled out with the
    /// sentence `apply` gives. A decision with one legal option is not
    /// asked, and one with none is the rules' (the engine's default where it
    /// holds): P-80, P-89.
    ///
    /// `apply` turns an answer into what the site needs, or says which rule
    /// it breaks; by default an answer must be one of the options.
    pub(super) fn decide<T>(
        &mut self,
        ask: Ask,
        apply: impl Fn(&Self, &Choice) -> Result<T, String>,
    ) -> Result<T, FightError> {
        let (who, kind) = (ask.who, ask.kind);
        self.decide_or(ask, apply)?.ok_or_else(|| {
            FightError::Invalid(format!(
                "{:?}'s {} has no legal option",
                self.fighters[who].sheet.name,
                kind.name()
            ))
        })
    }

    /// A decision with one legal option is not asked (P-80), but an order
    /// waiting for `who`'s decision of `kind` in this very turn and round
    /// that the rules rule out (one of `ruled_out`) is refused with its
    /// sentence, not left over for a later decision.
    pub(super) fn refuse_ruled_out(
        &mut self,
        who: usize,
        kind: Kind,
        ruled_out: &[RuledOut],
    ) -> Result<(), FightError> {
        let name = self.fighters[who].sheet.name.clone();
        let (turn, round) = (self.turn, self.round);
        let Some(d) = self.decisions.as_mut() else {
            return Ok(());
        };
        let Some(m) = d.queue.front() else {
            return Ok(());
        };
        if m.who != name || m.kind != kind || (m.turn, m.round) != (turn, round) {
            return Ok(());
        }
        let Some(r) = ruled_out.iter().find(|r| r.choice == m.choice) else {
            return Ok(());
        };
        let m = d.queue.pop_front().expect("checked");
        Err(FightError::Refused(format!(
            "{name:?}'s {} {:?} is refused: {}",
            kind.name(),
            m.choice.to_string(),
            r.why
        )))
    }

    /// [`Fight::decide`], but a person's decision with no legal option
    /// (not even the default) is `None`, for the site to do what the rules
    /// then say (P-89).
    pub(super) fn decide_or<T>(
        &mut self,
        ask: Ask,
        apply: impl Fn(&Self, &Choice) -> Result<T, String>,
    ) -> Result<Option<T>, FightError> {
        let name = self.fighters[ask.who].sheet.name.clone();
        if ask.kind != Kind::Movement && ask.options.len() == 1 {
            self.refuse_ruled_out(ask.who, ask.kind, &ask.ruled_out)?;
            let only = ask.options[0].choice.clone();
            return apply(self, &only).map(Some).map_err(FightError::Invalid);
        }
        let (turn, round) = (self.turn, self.round);
        let id = self.decision_id(ask.who, ask.kind);
        let legal = |f: &Self, c: &Choice| -> Result<T, String> {
            if ask.kind != Kind::Movement && !ask.options.iter().any(|o| &o.choice == c) {
                return Err(match ask.ruled_out.iter().find(|r| &r.choice == c) {
                    Some(r) => r.why.clone(),
                    None => format!(
                        "not one of the options: {}",
                        ask.options
                            .iter()
                            .map(|o| format!("{:?}", o.label))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
            apply(f, c)
        };
        let record = |f: &mut Self, choice: Choice, by: Controller, id: Option<String>| {
            if let Some(d) = f.decisions.as_mut() {
                d.made.push(Made {
                    id,
                    turn,
                    round,
                    who: name.clone(),
                    kind: ask.kind,
                    choice,
                    by,
                });
            }
        };
        let d = self
            .decisions
            .as_mut()
            .expect("decide is only called when deciding");
        let moves = std::mem::take(&mut d.moves);
        // A table's answer to this very decision.
        if let Some(at) = d
            .answers
            .iter()
            .position(|m| m.id.as_deref() == Some(id.as_str()))
        {
            let m = d.answers.remove(at);
            match legal(self, &m.choice) {
                Ok(t) => {
                    record(self, m.choice, m.by, m.id);
                    return Ok(Some(t));
                }
                Err(why) => {
                    // It held when given; the fight has moved since (another
                    // member acted first): asked again, saying why.
                    if let Some(d) = self.decisions.as_mut() {
                        d.rejected = Some((id.clone(), why));
                    }
                }
            }
        }
        let d = self.decisions.as_mut().expect("deciding");
        let front = d.queue.front();
        let matches = front.is_some_and(|m| m.who == name && m.kind == ask.kind);
        let controller = d.controllers.get(ask.who).copied().unwrap_or_default();
        if matches {
            let m = d.queue.pop_front().expect("checked");
            return match legal(self, &m.choice) {
                Ok(t) => {
                    record(self, m.choice, m.by, m.id);
                    Ok(Some(t))
                }
                Err(why) => Err(FightError::Refused(format!(
                    "{name:?}'s {} {:?} is refused: {why}",
                    ask.kind.name(),
                    m.choice.to_string()
                ))),
            };
        }
        if controller == Controller::Engine {
            let choice = ask.default.clone();
            return match legal(self, &choice) {
                Ok(t) => {
                    record(self, choice, Controller::Engine, None);
                    Ok(Some(t))
                }
                Err(why) => Err(FightError::Refused(format!(
                    "{name:?}'s {} {:?} is refused: {why}",
                    ask.kind.name(),
                    choice.to_string()
                ))),
            };
        }
        if let Some(m) = front {
            return Err(FightError::Invalid(format!(
                "the orders' next decision is {:?}'s {} (turn {}, round {}), but the fight asks {name:?} for a {} in turn {turn}, round {round}",
                m.who,
                m.kind.name(),
                m.turn,
                m.round,
                ask.kind.name()
            )));
        }
        // A person: offered exactly what the rules accept.
        let mut options = Vec::with_capacity(ask.options.len());
        let mut ruled_out = ask.ruled_out.clone();
        for o in &ask.options {
            match legal(self, &o.choice) {
                Ok(_) => options.push(o.clone()),
                Err(why) => ruled_out.push(RuledOut {
                    choice: o.choice.clone(),
                    why,
                }),
            }
        }
        let default_holds = legal(self, &ask.default).is_ok();
        let only = match options.as_slice() {
            [] if default_holds => Some(ask.default.clone()),
            [one] if ask.kind != Kind::Movement => Some(one.choice.clone()),
            _ => None,
        };
        if let Some(choice) = only {
            // P-89: nothing to choose, the rules decide.
            let t = legal(self, &choice).map_err(FightError::Invalid)?;
            self.note(Some(crate::log::rule::DECISIONS), |s| {
                format!(
                    "{} has no other choice for the {}: {choice} (P-89)",
                    s.name(ask.who),
                    ask.kind.name()
                )
            });
            return Ok(Some(t));
        }
        if options.is_empty() {
            return Ok(None);
        }
        let default = if default_holds {
            ask.default.clone()
        } else {
            options[0].choice.clone()
        };
        let mut question = ask.question.clone();
        if let Some((rid, why)) = self.decisions.as_deref().and_then(|d| d.rejected.as_ref())
            && *rid == id
        {
            question = format!("{question} (your answer no longer holds: {why})");
        }
        let asked = self.asking(
            Ask {
                who: ask.who,
                kind: ask.kind,
                question,
                options,
                ruled_out,
                default,
            },
            moves,
        );
        Err(self.wait_for(vec![asked]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decision's id spells its kind as the JSON does.
    #[test]
    fn a_kinds_slug_is_its_json() {
        for kind in [
            Kind::SetAction,
            Kind::Movement,
            Kind::Target,
            Kind::Attack,
            Kind::Chain,
            Kind::Timing,
            Kind::Dodge,
            Kind::FatePoint,
            Kind::Aim,
            Kind::Reload,
            Kind::Advance,
            Kind::ShootBack,
            Kind::ShotPoint,
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.slug());
        }
    }
}
