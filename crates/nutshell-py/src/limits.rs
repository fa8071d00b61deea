//! The engine's limits from keyword arguments: each one the command line's
//! flag of the same name (`max_dice=` is `--max-dice`), unset ones at the
//! engine's defaults.

use nutshell_dice::Limits;
use nutshell_dice::limits::NESTING_CEILING;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The limits a call sets; `None` keeps the default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LimitArgs {
    pub max_dice: Option<u64>,
    pub max_explosions: Option<u32>,
    pub max_nesting: Option<usize>,
    pub max_length: Option<usize>,
    pub max_outcomes: Option<usize>,
    pub max_work: Option<u64>,
    /// The tail threshold as digits: `tail = 10^-digits` (the package turns
    /// `tail=1e-12` into 12, as the command line's `--tail` does).
    pub tail_digits: Option<u32>,
}

impl LimitArgs {
    /// The limits of parsing and rolling (`roll`, `Expression`): dice,
    /// explosions, nesting and length; the others the defaults.
    pub fn parsing(
        max_dice: Option<u64>,
        max_explosions: Option<u32>,
        max_nesting: Option<usize>,
        max_length: Option<usize>,
    ) -> LimitArgs {
        LimitArgs {
            max_dice,
            max_explosions,
            max_nesting,
            max_length,
            ..LimitArgs::default()
        }
    }

    /// The limits, refusing a nesting depth outside `1..=1000` as the
    /// command line does.
    pub fn limits(&self) -> PyResult<Limits> {
        let d = Limits::default();
        if let Some(n) = self.max_nesting
            && !(1..=NESTING_CEILING).contains(&n)
        {
            return Err(PyValueError::new_err(format!(
                "max_nesting={n}: it must be from 1 to {NESTING_CEILING}"
            )));
        }
        if let Some(t) = self.tail_digits
            && t > 300
        {
            return Err(PyValueError::new_err("tail: at most 1e-300"));
        }
        Ok(Limits {
            max_dice: self.max_dice.unwrap_or(d.max_dice),
            max_repeats_per_die: self.max_explosions.unwrap_or(d.max_repeats_per_die),
            max_nesting: self.max_nesting.unwrap_or(d.max_nesting),
            max_expression_chars: self.max_length.unwrap_or(d.max_expression_chars),
            max_outcomes: self.max_outcomes.unwrap_or(d.max_outcomes),
            max_work: self.max_work.unwrap_or(d.max_work),
            tail_digits: self.tail_digits.unwrap_or(d.tail_digits),
        })
    }

    /// Whether every limit is the default, given or not (such expressions
    /// are cached).
    pub fn is_default(&self) -> bool {
        self.limits().is_ok_and(|l| l == Limits::default())
    }
}
