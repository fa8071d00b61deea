//! MLS character sheets made in a room: a player's choices (the file of
//! `nutshell mls character new --from`) turned into a sheet with verifiable
//! dice, every rule checked, kept in the room's log as the player's, and
//! advanced with the ledger (`nutshell mls advance`'s options).
//!
//! A sheet is a roll event whose action is [`crate::action::Action::Sheet`]
//! (the [`SheetRequest`]), so `nutshell verify` regenerates the sheet from
//! the revealed seed and compares it. An advance is a roll event continuing
//! the sheet's thread, whose action ([`crate::action::Action::Advance`])
//! holds the [`AdvanceRecord`], the version it starts from: verify replays
//! it from the record and checks ([`Custody`]) that it started from the
//! sheet's latest version. (Earlier servers wrote the request after a
//! prefix, [`SHEET_PREFIX`] or [`ADVANCE_PREFIX`], in an `expression`:
//! [`crate::replay::legacy`] reads those.)
//!
//! (The order of an advance, [`advance`], repeats `nutshell mls advance`'s;
//! both belong in `nutshell-mls` as one request type, as checks have
//! `nutshell_rules::request`.)

use nutshell_dice::Seeded;
use nutshell_mls::character::generation::{self, Choices};
use nutshell_mls::character::plan::{self, AdvancePlan, Ageing, Part, PlanError};
use nutshell_mls::character::primary::Primary;
use nutshell_mls::character::validate::{parse_sheet, to_toml, validate};
use nutshell_mls::character::{advancement, costs};
use nutshell_mls::dice::Dice;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::fair;
use crate::roll_error::RollError;

/// How a sheet's record names it.
pub const SHEET_PREFIX: &str = "character ";

/// The longest choices file accepted, in bytes.
pub const MAX_CHOICES_BYTES: usize = 16 * 1024;

/// `POST /api/rooms/{room}/sheets` without the roll's own fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetRequest {
    /// The choices, as the TOML of a choices file
    /// (examples/mls/characters/choices/).
    pub choices: String,
}

impl SheetRequest {
    /// The choices, read; the error names the line.
    pub fn parse(&self) -> Result<Choices, String> {
        if self.choices.len() > MAX_CHOICES_BYTES {
            return Err(format!(
                "the choices are {} bytes; the most is {MAX_CHOICES_BYTES}",
                self.choices.len()
            ));
        }
        Choices::parse("choices", &self.choices).map_err(|e| e.to_string())
    }

    /// The record text of this sheet.
    pub fn text(&self) -> String {
        let value = serde_json::to_value(self).expect("a sheet request is plain data");
        format!("{SHEET_PREFIX}{}", fair::canonical(&value))
    }
}

/// Makes the sheet `request` asks for with `dice`: `{"name", "sheet"
/// (TOML), "rolled" (each roll of the generation in words)}`, or the rules
/// it breaks.
pub(crate) fn make(request: &SheetRequest, source: &mut Seeded) -> Result<Value, RollError> {
    let choices = request.parse().map_err(RollError::Rules)?;
    let mut dice = Dice::new(source);
    let sheet =
        generation::generate(&choices, &mut dice).map_err(|e| RollError::Rules(e.to_string()))?;
    let violations = validate(&sheet, None);
    if !violations.is_empty() {
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        return Err(RollError::Rules(format!(
            "the character breaks {} rule(s): {}",
            list.len(),
            list.join("; ")
        )));
    }
    let text = to_toml(&sheet).map_err(|e| RollError::Rules(e.to_string()))?;
    let rolled: Vec<String> = sheet
        .character
        .as_ref()
        .map(|c| {
            c.ledger
                .iter()
                .filter_map(|e| e.roll.as_ref().map(|r| format!("{} [{r}]", e.change)))
                .collect()
        })
        .unwrap_or_default();
    Ok(json!({"name": sheet.name, "sheet": text, "rolled": rolled}))
}

// ------------------------------------------------------------ advancement

/// How an advance's record names it.
pub const ADVANCE_PREFIX: &str = "advance ";

/// The most names a list option (`check`, `reduce`, `spend`) takes.
const MAX_LIST: usize = 64;

/// `POST /api/rooms/{room}/sheets/{sheet}/advance` without the roll's own
/// fields: `nutshell mls advance`'s options by the command line's names (a
/// repeatable option takes one text or a list), applied in its order: the
/// adventure's CPs, the checks rolled, the increments passed, the spends.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvanceOptions {
    /// An adventure completed: `minor`, `average` or `major` (with `role`).
    #[serde(default)]
    pub adventure: Option<String>,
    /// The character's role in it: `minor` or `major`.
    #[serde(default)]
    pub role: Option<String>,
    /// Traits checked during the adventure, rolled after the sheet's own.
    #[serde(default, deserialize_with = "check_list")]
    pub check: Vec<String>,
    /// Age increments of the race to pass (0 to 1000).
    #[serde(default)]
    pub increments: u32,
    /// Years to pass instead: a whole number of the race's increments.
    #[serde(default)]
    pub years: Option<u32>,
    /// The primary traits to reduce when age demands it, in order.
    #[serde(default, deserialize_with = "reduce_list")]
    pub reduce: Vec<String>,
    /// CPs spent after the increments: `secondary:NAME`, `negative:NAME`,
    /// `personality:NAME`, `train:TRAIT`, `money:N`, `prayer:N`, in order.
    #[serde(default, deserialize_with = "spend_list")]
    pub spend: Vec<String>,
}

fn check_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    one_or_many(d, "check")
}

fn reduce_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    one_or_many(d, "reduce")
}

fn spend_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    one_or_many(d, "spend")
}

/// A text or a list of texts, as option `name`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(
    d: D,
    name: &str,
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    match Option::<OneOrMany>::deserialize(d) {
        Ok(None) => Ok(Vec::new()),
        Ok(Some(OneOrMany::One(one))) => Ok(vec![one]),
        Ok(Some(OneOrMany::Many(many))) => Ok(many),
        Err(_) => Err(serde::de::Error::custom(format!(
            "`{name}` must be a text or a list of texts"
        ))),
    }
}

impl AdvanceOptions {
    /// Checks every option that does not depend on the sheet; the error
    /// names the option (`nutshell mls advance`'s name).
    fn plan(&self) -> Result<AdvancePlan, String> {
        let adventure = match (self.adventure.as_deref(), self.role.as_deref()) {
            (None, None) => None,
            (Some(_), None) => return Err("`adventure` needs `role` (minor or major)".into()),
            (None, Some(_)) => return Err("`role` needs `adventure`".into()),
            (Some(size), Some(role)) => {
                let size = match size {
                    "minor" => costs::Adventure::Minor,
                    "average" => costs::Adventure::Average,
                    "major" => costs::Adventure::Major,
                    other => {
                        return Err(format!(
                            "`adventure` must be minor, average or major, not {other:?}"
                        ));
                    }
                };
                let role = match role {
                    "minor" => costs::Role::Minor,
                    "major" => costs::Role::Major,
                    other => return Err(format!("`role` must be minor or major, not {other:?}")),
                };
                Some((size, role))
            }
        };
        if self.increments > 1000 {
            return Err("`increments` must be 0 to 1000".into());
        }
        match self.years {
            Some(y) if y > 1000 => return Err("`years` must be 0 to 1000".into()),
            Some(_) if self.increments > 0 => {
                return Err("`increments` and `years` exclude each other: give one".into());
            }
            _ => {}
        }
        for (name, list) in [
            ("check", &self.check),
            ("reduce", &self.reduce),
            ("spend", &self.spend),
        ] {
            if list.len() > MAX_LIST || list.iter().any(|item| item.len() > 64) {
                return Err(format!(
                    "`{name}` takes at most {MAX_LIST} names of at most 64 bytes"
                ));
            }
        }
        let reduce = self
            .reduce
            .iter()
            .map(|r| {
                Primary::parse(r).ok_or_else(|| format!("`reduce` {r:?}: not a primary trait"))
            })
            .collect::<Result<_, _>>()?;
        let spends = self
            .spend
            .iter()
            .map(|s| {
                advancement::Spend::parse(s)
                    .map(|spend| (spend, s.clone()))
                    .map_err(|e| format!("`spend` {s:?}: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(AdvancePlan {
            adventure,
            checks: self.check.clone(),
            ageing: match self.years {
                Some(y) => Ageing::Years(y),
                None => Ageing::Increments(self.increments),
            },
            reduce,
            spends,
        })
    }

    /// Refuses options that cannot advance any sheet, naming the option.
    pub fn check_options(&self) -> Result<(), String> {
        self.plan().map(|_| ())
    }
}

/// The record of an advance: the sheet (its first event's `seq`), the event
/// whose version it advances, that version's text, and the options. Its
/// canonical JSON after [`ADVANCE_PREFIX`] is the roll's record text, so the
/// advance replays from the record alone, and `nutshell verify` checks that
/// `was` is the sheet as event `from` left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvanceRecord {
    pub sheet: i64,
    pub from: i64,
    pub was: String,
    pub options: AdvanceOptions,
}

impl AdvanceRecord {
    /// The record text.
    pub fn text(&self) -> String {
        let value = serde_json::to_value(self).expect("an advance is plain data");
        format!("{ADVANCE_PREFIX}{}", fair::canonical(&value))
    }
}

/// Advances `was` by `options` with `dice`, as `nutshell mls advance` does:
/// `{"name", "sheet" (the new TOML), "entries" (the ledger's new entries),
/// "cps", "age"}`, or what is wrong, naming the option (nothing changes).
pub fn advance(was: &str, options: &AdvanceOptions, dice: &mut Dice) -> Result<Value, String> {
    let plan = options.plan()?;
    let sheet = parse_sheet("sheet", was).map_err(|e| e.to_string())?;
    let advanced = plan::advance(sheet, was, &plan, dice).map_err(|e| match &e {
        PlanError::Broken(v) => broken("the sheet breaks", v),
        PlanError::WouldBreak(v) => broken("the result would break", v),
        PlanError::Years { years, .. } => {
            format!("`years` {years}: {e}; give `increments` instead")
        }
        PlanError::ExtraReduce(n) => {
            format!("`reduce` names {n} trait(s) more than age demanded")
        }
        PlanError::Step(part, error) => {
            let option = match part {
                Part::Adventure => "`adventure`".to_string(),
                Part::Check => "`check`".to_string(),
                Part::Increments => "`increments`".to_string(),
                Part::Spend(k) => match options.spend.get(*k) {
                    Some(text) => format!("`spend` {text:?}"),
                    None => "`spend`".to_string(),
                },
            };
            format!("{option}: {error}")
        }
        PlanError::NoCharacter => e.to_string(),
    })?;
    let ch = advanced
        .sheet
        .character
        .as_ref()
        .ok_or("the sheet has no [character] table")?;
    Ok(json!({
        "name": advanced.sheet.name,
        "sheet": advanced.text,
        "entries": advanced.added(),
        "cps": ch.cps,
        "age": ch.age,
    }))
}

fn broken(headline: &str, violations: &[impl std::fmt::Display]) -> String {
    let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
    format!("{headline} {} rule(s): {}", list.len(), list.join("; "))
}

/// Advances the sheet of `record` with `source`'s dice.
pub(crate) fn perform_advance(
    record: &AdvanceRecord,
    source: &mut Seeded,
) -> Result<Value, RollError> {
    let mut dice = Dice::new(source);
    advance(&record.was, &record.options, &mut dice).map_err(RollError::Rules)
}

/// The text of sheet `id` as event `seq` left it, for each sheet of a log
/// read in order: `nutshell verify` checks that every advance starts from
/// its sheet's latest version (the server cannot swap in a better sheet).
#[derive(Debug, Default)]
pub(crate) struct Custody {
    /// Sheet id -> (the latest event, its text).
    latest: std::collections::HashMap<i64, (i64, String)>,
    /// Events the exporter may not see.
    hidden: std::collections::HashSet<i64>,
}

impl Custody {
    /// Notes an event the exporter may not see.
    pub(crate) fn hidden(&mut self, seq: i64) {
        self.hidden.insert(seq);
    }

    /// Follows a sheet made by event `seq`: its custody starts.
    pub(crate) fn made(&mut self, seq: i64, body: &Value) {
        let text = body["result"]["sheet"].as_str().unwrap_or("").to_string();
        self.latest.insert(seq, (seq, text));
    }

    /// Follows advance event `seq` of `record`: it must start from its
    /// sheet's latest version (a sheet this log does not hold, made before
    /// an export began, is taken as it is).
    pub(crate) fn advanced(
        &mut self,
        seq: i64,
        record: &AdvanceRecord,
        body: &Value,
    ) -> Result<(), String> {
        let made = |body: &Value| body["result"]["sheet"].as_str().unwrap_or("").to_string();
        if body["advances"].as_i64() != Some(record.sheet) {
            return Err(format!(
                "event {seq}: `advances` is not the sheet its record names"
            ));
        }
        if let Some((latest, text)) = self.latest.get(&record.sheet) {
            if record.from != *latest && !self.hidden.contains(&record.from) {
                return Err(format!(
                    "event {seq} advances sheet {} from event {}, but its latest version is event {latest}",
                    record.sheet, record.from
                ));
            }
            if record.from == *latest && record.was != *text {
                return Err(format!(
                    "event {seq}: the sheet advanced is not sheet {} as event {latest} left it",
                    record.sheet
                ));
            }
        }
        self.latest.insert(record.sheet, (seq, made(body)));
        Ok(())
    }
}
