//! MLS fights in a room: two sides (the TOML of `nutshell mls fight`'s side
//! files) fought to the end with verifiable dice, the whole log kept.
//!
//! A fight is a roll event whose record text is `fight ` and the canonical
//! JSON of the [`FightRequest`], so its dice are keyed like any roll's and
//! `nutshell verify` replays the fight from the revealed seed and compares
//! every line of the log.

use nutshell_dice::Seeded;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fair::{self, RollError, RollRecord, Seed};

/// How a fight's record names it.
pub const FIGHT_PREFIX: &str = "fight ";

/// The most turns a fight in a room may last (the command line allows more;
/// a room's fight runs inside the write of its event).
pub const MAX_TURNS: u32 = 1000;

/// The longest side description accepted, in bytes.
pub const MAX_SIDE_BYTES: usize = 16 * 1024;

/// `POST /api/rooms/{room}/fights` without the roll's own fields: the two
/// sides as TOML text and `nutshell mls fight`'s scenario options.
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
}

fn one() -> i64 {
    1
}

fn hundred() -> u32 {
    100
}

impl FightRequest {
    /// The fight this request describes, ready to run; the error says which
    /// side or option is wrong (a side's TOML error gives its line).
    pub fn build(&self) -> Result<Fight, String> {
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
        let options = FightOptions {
            max_turns: self.max_turns,
            log: true,
            distance: self.distance,
            surprised,
            map: None,
        };
        Fight::new([a, b], options).map_err(|e| e.to_string())
    }

    /// The record text of this fight.
    pub fn text(&self) -> String {
        let value = serde_json::to_value(self).expect("a fight request is plain data");
        format!("{FIGHT_PREFIX}{}", fair::canonical(&value))
    }
}

/// Fights the request named by `json` (after [`FIGHT_PREFIX`]) with the
/// record's dice: the report of `nutshell mls fight --json`.
pub(crate) fn perform(
    seed: &Seed,
    record: &RollRecord<'_>,
    json: &str,
) -> Result<Value, RollError> {
    let request: FightRequest = serde_json::from_str(json)
        .map_err(|e| RollError::Rules(format!("not a fight request: {e}")))?;
    let mut fight = request.build().map_err(RollError::Rules)?;
    let mut dice = Seeded::from_key(fair::roll_key(seed, record));
    let ending = fight
        .run(&mut dice)
        .map_err(|e| RollError::Rules(e.to_string()))?;
    serde_json::to_value(fight.report(&ending))
        .map_err(|e| RollError::Rules(format!("the result is not JSON: {e}")))
}
