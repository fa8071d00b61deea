//! The arguments of `nutshell odds` (one expression, or several side by
//! side), below both `odds_cmd` and `odds_compare`.

use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct OddsArgs {
    /// A dice expression, such as 4d6kh3 or '3d6! >= 20' (it may start with
    /// -, as -1d4+5); - reads it from standard input
    #[arg(value_name = "EXPR", allow_hyphen_values = true)]
    pub expression: String,
    /// More expressions, side by side with the first (as AnyDice and icepool
    /// compare them): nutshell odds 4d6kh3 3d6 2d6+7
    #[arg(value_name = "EXPR")]
    pub more: Vec<String>,
    /// Also print P(total >= T), exactly even for exploding dice
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub at_least: Option<i64>,
    /// Also print P(total <= T)
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub at_most: Option<i64>,
    /// Estimate by rolling N times (on every core) instead of computing exactly
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    pub simulate: Option<u64>,
    /// Seed of the simulation (default: 1, so estimates are reproducible)
    #[arg(long, value_name = "S", default_value_t = 1, requires = "simulate")]
    pub seed: u64,
    /// Print every outcome, not only the most likely ones
    #[arg(long)]
    pub all: bool,
    /// Print a JSON object (one per line for several expressions)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub exact: crate::limits_args::ExactLimitArgs,
}
