//! MLS characters (rule text 001, from "Behaviour" to "Racial Differences"):
//! the character table of a sheet, generation with every cost and limit,
//! advancement with an append-only ledger, personality and behaviour, ageing,
//! and the time costs of actions.
//!
//! A character sheet is a combatant sheet (`crate::sheet`) with a
//! `[character]` table, so the same file fights: its secondary traits become
//! the combatant's skills (see [`Character::fighting`]).
//!
//! | module | owns |
//! |---|---|
//! | [`race`] | the racial table as data: base age, increment, reductions |
//! | [`age`] | `Age`, in months, written as years |
//! | [`table`] | the `[character]` table as data (`Character`, its traits and ledger), its formulas read and scored |
//! | [`primary`] | the eight primary traits (`Traits`, a sheet's values of them); base formulas of secondary traits |
//! | [`costs`] | every CP cost and yield; the rules quoted |
//! | [`personality`] | the fifteen pairs; Fate Points from traits |
//! | [`ledger`] | the append-only ledger and its balance |
//! | [`generation`] | the budget, the cost of a sheet, choices to a new sheet |
//! | [`replay`] | `check` replays the ledger and compares it with the sheet |
//! | [`validate`] | every rule a sheet must keep, as violations naming field and line |
//! | [`advancement`] | income, adventures, spending, checks after an adventure |
//! | [`plan`] | one advance as asked (adventure, checks, time, spends), for every front end |
//! | [`ageing`] | reductions of primary traits at the racial thresholds |
//! | [`behaviour`] | acting against a noticeable personality trait |
//! | [`time`] | time costs of actions as data |
//!
//! # In detail
//!
//! MLS characters: the racial table, costs and time costs as data (`race`,
//! `costs`, `time`), personality pairs, base formulas and `Traits`
//! (`primary`), the `[character]` table as data (`table`: `Character` and its
//! parts; `age`), below `sheet` and using neither it nor the rules; above
//! `sheet`: generation, `validate` (every rule, as violations naming field
//! and line), advancement and ageing appending to the sheet's ledger, `plan`
//! (one advance as asked: adventure, checks, time, spends; what both `mls
//! advance` and the server's advance route run), behaviour. A character sheet
//! is a combatant with a `[character]` table; `Side::parse` turns its
//! secondary traits into skills, so the same file fights.

pub mod advancement;
pub mod age;
pub mod ageing;
pub mod behaviour;
pub mod costs;
pub mod generation;
pub mod ledger;
pub mod personality;
pub mod plan;
pub mod primary;
pub mod race;
pub mod replay;
pub mod table;
pub mod time;
pub mod validate;

pub use age::Age;
pub use table::{Character, Negative, Occupation, Parsed, Secondary, Training};
