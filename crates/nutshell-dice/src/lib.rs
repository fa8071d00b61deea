//! # nutshell-dice
//!
//! Dice notation for tabletop role-playing games, read the way Roll20 and Foundry
//! users write it, plus every dice form the nutshell rulesets need. Parse once
//! into a plan, then roll it with any [`DiceSource`] and read the [`Transcript`]
//! of what happened to every die.
//!
//! ```
//! use nutshell_dice::{Expression, Scripted, Seeded};
//!
//! // Parse once...
//! let expr = Expression::parse("4d6k3 + 2")?;
//! assert_eq!(expr.normalized(), "4d6kh3 + 2");
//!
//! // ...roll with physical dice typed in...
//! let roll = expr.roll(&mut Scripted::new([6, 5, 3, 1]))?;
//! assert_eq!(roll.total, 16);
//! assert_eq!(roll.render(), "4d6kh3 + 2 = [6, 5, 3, (1)] + 2 = 16");
//!
//! // ...or reproducibly from a seed, as many times as you like.
//! let mut dice = Seeded::new(42);
//! let mut roller = expr.roller();
//! for _ in 0..100 {
//!     let total = roller.roll(&mut dice)?;
//!     assert!((5..=20).contains(&total));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate does no I/O beyond asking the operating system for entropy (feature
//! `os-entropy`), starts no threads and reads no clock, so it embeds anywhere.

#![warn(missing_docs)]

pub mod error;
pub mod exact;
pub mod limits;
mod memory;
pub mod plan;
pub mod roll;
pub mod simulate;
pub mod source;
pub mod span;
pub mod syntax;

pub use error::RollError;
pub use exact::{Distribution, ExactError};
pub use limits::Limits;
pub use plan::{Expression, Faces};
pub use roll::{Roll, Roller, Transcript};
#[cfg(feature = "os-entropy")]
pub use source::Entropy;
pub use source::{DiceSource, Scripted, Seeded};
pub use span::{NotationError, Span};
