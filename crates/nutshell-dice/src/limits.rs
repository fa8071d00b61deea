//! Every bound the engine enforces, gathered in one value.
//!
//! Exceeding a limit is always a typed error ([`crate::NotationError`] or
//! [`crate::RollError`]), never a hang, a panic or an abort. The defaults suit a
//! chat bot or a virtual table; a front end may raise or lower any of them.

/// The largest nesting depth a caller may configure. Parsing and evaluation recurse
/// once per nesting level, so this ceiling keeps the stack safe on every platform
/// whatever a caller asks for.
pub const NESTING_CEILING: usize = 1_000;

/// Bounds on what one expression may ask of the engine.
///
/// ```
/// use nutshell_dice::{Limits, Expression};
/// let limits = Limits { max_dice: 10, ..Limits::default() };
/// let err = Expression::parse_with("20d6", &limits).unwrap_err();
/// assert!(err.to_string().contains("limit is 10"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// Longest expression, in characters.
    pub max_expression_chars: usize,
    /// Deepest nesting of parentheses, groups, functions, unary signs and computed
    /// dice counts or sides. Capped at [`NESTING_CEILING`].
    pub max_nesting: usize,
    /// Most faces rolled for one roll of an expression, rerolls and explosions
    /// included: a roll that would roll more fails. Exact odds refuse an
    /// expression whose rolls could pass it with a chance above the tail
    /// threshold ([`Limits::tail_digits`]).
    pub max_dice: u64,
    /// Most explosions of one die. When a die reaches it, it stops exploding
    /// and the transcript says so. Rerolls (`r`) have no limit of their own:
    /// [`Limits::max_dice`] bounds them, as every face a roll draws.
    pub max_repeats_per_die: u32,
    /// Most distinct outcomes an exact distribution may hold.
    pub max_outcomes: usize,
    /// Most elementary steps (multiply-adds per residue) an exact computation may take.
    pub max_work: u64,
    /// Exact odds follow explosion chains until the probability they leave out
    /// (the tail, reported exactly) is below `10^-tail_digits` for the whole
    /// expression, and never past `max_repeats_per_die` explosions. 0 turns
    /// the threshold off (every die explodes up to `max_repeats_per_die`).
    pub tail_digits: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_expression_chars: 10_000,
            max_nesting: 64,
            max_dice: 10_000,
            max_repeats_per_die: 100,
            max_outcomes: 1_000_000,
            max_work: 4_000_000_000,
            tail_digits: 12,
        }
    }
}

impl Limits {
    /// The nesting depth actually enforced: the configured one, never above the ceiling.
    pub fn nesting(&self) -> usize {
        self.max_nesting.min(NESTING_CEILING)
    }
}
