//! # nutshell-rules
//!
//! The five rulesets of the nutshell rule texts: each resolves checks and
//! contests from any dice source (a seed, or faces typed in from physical
//! dice), explains every step with the rule it applies, and gives the exact
//! probability of every outcome tier from the exact engine.
//!
//! | module | ruleset id | rule text |
//! |---|---|---|
//! | [`fantasy`] | `fantasy` | *Nutshell Fantasy* (000) |
//! | [`mls`] | `mls` | *The Nutshell MLS* (001) |
//! | [`exploding_d6`] | `exploding-d6` | exploding d6 (002) |
//! | [`tiered_d20`] | `tiered-d20` | tiered d20 (003) |
//! | [`favor_3d6`] | `favor-3d6` | favor 3d6 (004) |
//!
//! Rules are cited as `ruleset, Heading` (the heading of the rule text) or by
//! ruling id (`RULING F-2`) from the rulings that settle the texts' ambiguities.
//!
//! ```
//! use nutshell_dice::Scripted;
//! use nutshell_rules::{mls, Outcome};
//! let check = mls::Check { skill: 12, ..Default::default() };
//! let result = check.roll(&mut Scripted::new([6, 5, 4]))?;
//! assert_eq!(result.total, Some(27));
//! assert_eq!(result.outcome, Outcome::CriticalSuccess);
//! # Ok::<(), nutshell_rules::RulesError>(())
//! ```

pub mod dice;
pub mod effect;
pub mod error;
pub mod exploding_d6;
pub mod fantasy;
pub mod favor_3d6;
pub mod mls;
pub mod odds;
pub mod outcome;
pub mod request;
pub mod table;
pub mod tiered_d20;
pub mod toml_file;

pub use error::RulesError;
pub use odds::OutcomeOdds;
pub use outcome::{CheckResult, ContestResult, Experience, Outcome, Step};

/// The ruleset ids, as the command line and the JSON name them.
pub const RULESETS: [&str; 5] = ["fantasy", "mls", "exploding-d6", "tiered-d20", "favor-3d6"];
