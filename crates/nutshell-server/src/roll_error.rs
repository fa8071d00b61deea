//! [`RollError`]: why an action could not be performed with its dice. Below
//! everything that performs one (the rulesets' requests in `replay`, the
//! fights in `fight`, the sheets in `sheet`), so each of them can fail in
//! the same words, and above none of them.

/// Why an action could not be performed.
#[derive(Debug, thiserror::Error)]
pub enum RollError {
    /// The expression does not parse (the message points at the character).
    #[error("{0}")]
    Notation(String),
    /// The roll broke a limit.
    #[error("{0}")]
    Roll(String),
    /// A check, contest, sheet, advance or fight the rules refuse, or a
    /// request that is not one.
    #[error("{0}")]
    Rules(String),
}
