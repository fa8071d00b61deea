//! Flags that set the engine's limits, shared by every command that parses dice.

use clap::Args;
use nutshell_dice::Limits;

/// Limits on what one expression may ask (see `docs/notation.md`, "Limits").
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Most faces rolled for one roll, rerolls and explosions included
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_dice, global = true)]
    pub max_dice: u64,
    /// Most explosions of one die, and most rerolls of one face
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_repeats_per_die, global = true)]
    pub max_explosions: u32,
    /// Deepest nesting of brackets, groups, functions and signs (at most 1000)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_nesting as u16, global = true,
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub max_nesting: u16,
    /// Longest expression, in characters
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_expression_chars, global = true)]
    pub max_length: usize,
    /// Most distinct outcomes of an exact distribution
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_outcomes, global = true)]
    pub max_outcomes: usize,
    /// Most elementary steps of an exact computation (about 1 second per 10^9)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_work, global = true)]
    pub max_work: u64,
    /// Most bytes of one file read (sides, sheets, maps, tables, choices, standard input)
    #[arg(long, value_name = "BYTES", default_value_t = crate::files::DEFAULT_MAX_FILE_BYTES, global = true)]
    pub max_file_size: u64,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_dice: self.max_dice,
            max_repeats_per_die: self.max_explosions,
            max_nesting: usize::from(self.max_nesting),
            max_expression_chars: self.max_length,
            max_outcomes: self.max_outcomes,
            max_work: self.max_work,
        }
    }
}
