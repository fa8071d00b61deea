//! MLS character sheets made in a room: a player's choices (the file of
//! `nutshell mls character new --from`) turned into a sheet with verifiable
//! dice, every rule checked, and kept in the room's log as the player's.
//!
//! A sheet is a roll event whose record text is `character ` and the
//! canonical JSON of the [`SheetRequest`], so `nutshell verify` regenerates
//! the sheet from the revealed seed and compares it.

use nutshell_dice::Seeded;
use nutshell_mls::character::generation::{self, Choices};
use nutshell_mls::character::validate::{to_toml, validate};
use nutshell_mls::dice::Dice;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::fair::{self, RollError, RollRecord, Seed};

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

/// Makes the sheet named by `json` (after [`SHEET_PREFIX`]) with the
/// record's dice: `{"name", "sheet" (TOML), "rolled" (each roll of the
/// generation in words)}`, or the rules it breaks.
pub(crate) fn perform(
    seed: &Seed,
    record: &RollRecord<'_>,
    json: &str,
) -> Result<Value, RollError> {
    let request: SheetRequest = serde_json::from_str(json)
        .map_err(|e| RollError::Rules(format!("not a sheet request: {e}")))?;
    let choices = request.parse().map_err(RollError::Rules)?;
    let mut source = Seeded::from_key(fair::roll_key(seed, record));
    let mut dice = Dice::new(&mut source);
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
