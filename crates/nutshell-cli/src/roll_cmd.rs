//! `nutshell roll`.

use crate::exit::Failure;
use crate::source_args::SourceArgs;
use clap::Args;
use nutshell_dice::{Expression, Limits};
use std::io::Write;

/// The most rolls one `--repeat` may ask for.
const MAX_REPEAT: u64 = 1_000_000;

#[derive(Debug, Clone, Args)]
pub struct RollArgs {
    /// Dice expressions, such as 4d6kh3 or '2d20kh1 + 5' (quote expressions with spaces)
    /// (an expression starting with `-` goes after `--`: nutshell roll -- -1+1d6)
    #[arg(required = true, value_name = "EXPR")]
    pub expressions: Vec<String>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Roll each expression N times
    #[arg(long, short = 'n', value_name = "N", help_heading = "Output", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=MAX_REPEAT))]
    pub repeat: u64,
    /// Print one JSON object per roll (JSON Lines)
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Print only the totals
    #[arg(long, short = 'q', conflicts_with = "json", help_heading = "Output")]
    pub quiet: bool,
}

pub fn run(args: &RollArgs, limits: &Limits) -> Result<(), Failure> {
    // Parse everything first: a bad expression rolls nothing.
    let mut parsed = Vec::with_capacity(args.expressions.len());
    for text in &args.expressions {
        let expr = Expression::parse_with(text, limits).map_err(|e| Failure::bad_input(e.render(text)))?;
        parsed.push(expr);
    }
    let mut source = args.source.source()?;
    let painter = crate::style::Terminal::new();
    let mut out = anstream::stdout().lock();
    for expr in &parsed {
        let mut roller = expr.roller();
        for _ in 0..args.repeat {
            let total = roller
                .roll(source.dice())
                .map_err(|e| Failure::bad_input(e.render(expr.text())))?;
            if args.quiet {
                writeln!(out, "{total}")?;
            } else if args.json {
                let report = roller.to_roll(total).report();
                let line = serde_json::to_string(&report).map_err(|e| Failure::other(format!("error: {e}")))?;
                writeln!(out, "{line}")?;
            } else {
                let roll = roller.to_roll(total);
                writeln!(out, "{}", roll.render_with(&painter))?;
            }
        }
    }
    out.flush()?;
    if let Some(warning) = source.leftover_warning() {
        crate::exit::Failure::other(warning).print();
    }
    Ok(())
}
