//! # nutshell-mls
//!
//! The tactical layer of *The Nutshell MLS* (rule text 001, from "Tactical
//! Actions" to "Total Attacks"; RULINGS M-4..M-9): turns of five combat rounds,
//! close combat against one or several foes, total attack and total defence,
//! shooting and offensive spells, damage, armour by location, hit points,
//! shock rolls, Fate Points, and a fight simulator; and MLS characters
//! ("Behaviour" to "Racial Differences"): generation, advancement with a
//! ledger, personality, ageing.
//!
//! | module | owns |
//! |---|---|
//! | [`schedule`] | attacks per skill and their rounds; delaying and rushing |
//! | [`body`] | hit locations, aimed attacks, armour coverage |
//! | [`damage`] | Dam to damage dice, through armour and shield; exact odds |
//! | [`health`] | CHP thresholds, shock rolls, unconsciousness, death |
//! | [`sheet`] | combatants and sides as TOML files |
//! | [`fight`] | a fight, stepped round by round, with its log |
//! | [`map`] | the battle map: grid, facing, movement costs, cheapest paths |
//! | [`simulate`] | many fights: tallies and confidence intervals |
//! | [`character`] | characters: generation, advancement, personality, ageing |
//!
//! Rules are cited as `mls, Heading` or by ruling id, as in `nutshell-rules`.

#![warn(missing_docs)]

pub mod body;
pub mod bounds;
pub mod character;
pub mod damage;
pub mod dice;
pub mod error;
pub mod fight;
pub mod health;
pub mod log;
pub mod map;
pub mod schedule;
pub mod sheet;
pub mod simulate;

pub use error::FightError;
pub use fight::{Ending, Fight, FightOptions, Fighter, Progress};

/// The referee's guide (docs/mls/combat.md): its Rust examples run as tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/mls/combat.md")]
pub struct CombatGuide;
