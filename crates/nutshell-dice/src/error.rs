//! Errors found while rolling.

use crate::source::SourceError;
use crate::span::Span;
use std::fmt;

/// Why a roll could not be completed. Every variant names where in the
/// expression it happened, so a front end can point at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollError {
    /// The dice source could not give a face.
    Source {
        /// The dice term, in normalized notation.
        term: String,
        /// The die, such as `d6`.
        die: String,
        /// Which face of the roll this was, counted from 1 in transcript order.
        position: usize,
        /// What went wrong.
        error: SourceError,
        /// Where the term is written.
        span: Span,
    },
    /// More faces than [`crate::Limits::max_dice`] would be rolled.
    TooManyDice {
        /// The limit.
        limit: u64,
        /// The term that would cross it.
        span: Span,
    },
    /// A computed dice count is negative.
    NegativeCount {
        /// The count.
        count: i64,
        /// Where.
        span: Span,
    },
    /// Computed sides are below 1 or above [`crate::plan::MAX_FACES`].
    BadSides {
        /// The sides.
        sides: i64,
        /// Where.
        span: Span,
    },
    /// A die with computed sides would explode or reroll forever.
    Endless {
        /// Why.
        reason: String,
        /// Where.
        span: Span,
    },
    /// A result does not fit in a 64-bit integer.
    Overflow {
        /// The operation that overflowed.
        span: Span,
    },
    /// Division by zero.
    DivisionByZero {
        /// The division.
        span: Span,
    },
    /// The transcript of the roll needs more memory than the system gave
    /// (a `max_dice` raised beyond what the machine holds).
    OutOfMemory {
        /// The bytes needed.
        bytes: u128,
        /// The term whose dice need them.
        span: Span,
    },
}

impl RollError {
    /// Where in the expression the error happened.
    pub fn span(&self) -> Span {
        match self {
            RollError::Source { span, .. }
            | RollError::TooManyDice { span, .. }
            | RollError::NegativeCount { span, .. }
            | RollError::BadSides { span, .. }
            | RollError::Endless { span, .. }
            | RollError::Overflow { span }
            | RollError::DivisionByZero { span }
            | RollError::OutOfMemory { span, .. } => *span,
        }
    }

    /// The error with the expression and a caret under the place it happened.
    pub fn render(&self, expression: &str) -> String {
        crate::span::render_caret("error", &self.to_string(), None, expression, self.span())
    }
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::Source {
                term,
                die,
                position,
                error: SourceError::Exhausted { given },
                ..
            } => write!(
                f,
                "ran out of faces: die {position} (a {die} of `{term}`) needs a face, but only {given} {} given",
                if *given == 1 { "was" } else { "were" }
            ),
            RollError::Source {
                term,
                die,
                position,
                error: SourceError::NotOnDie { face },
                ..
            } => write!(
                f,
                "face {face} is not on a {die}: die {position} (a {die} of `{term}`) cannot show it"
            ),
            RollError::TooManyDice { limit, .. } => {
                write!(f, "this roll needs more than {limit} dice (max_dice)")
            }
            RollError::NegativeCount { count, .. } => {
                write!(
                    f,
                    "the dice count came out as {count}; it must be 0 or more"
                )
            }
            RollError::BadSides { sides, .. } => write!(
                f,
                "the number of sides came out as {sides}; it must be from 1 to {}",
                crate::plan::MAX_FACES
            ),
            RollError::Endless { reason, .. } => f.write_str(reason),
            RollError::Overflow { .. } => {
                f.write_str("the result is too large for a 64-bit integer")
            }
            RollError::DivisionByZero { .. } => f.write_str("division by zero"),
            RollError::OutOfMemory { bytes, .. } => write!(
                f,
                "this roll needs {bytes} bytes of memory for its dice, more than the system gave; roll fewer dice"
            ),
        }
    }
}

impl std::error::Error for RollError {}
