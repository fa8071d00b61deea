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
    /// A dice expression, such as 4d6kh3 or '2d20kh1 + 5' (quote expressions with spaces);
    /// it may start with `-` (nutshell roll -1d4+5); `-` reads expressions from
    /// standard input, one per line
    #[arg(value_name = "EXPR", allow_hyphen_values = true)]
    pub first: String,
    /// More expressions (one starting with `-` goes after `--`: nutshell roll 1d6 -- -1d4)
    #[arg(value_name = "EXPR")]
    pub rest: Vec<String>,
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
    // One positional takes a leading hyphen: a list of them would swallow
    // the flags that follow it.
    let given = with_flavour(std::iter::once(&args.first).chain(&args.rest), limits);
    let texts = expression_texts(&given)?;
    let mut parsed = Vec::with_capacity(texts.len());
    for (text, origin) in &texts {
        let expr = Expression::parse_with(text, limits).map_err(|e| {
            let message = e.render(text);
            Failure::bad_input(match message.strip_prefix("error: ") {
                Some(rest) if texts.len() > 1 => {
                    format!("error: {origin} (nothing was rolled): {rest}")
                }
                _ => message,
            })
        })?;
        parsed.push(expr);
    }
    let mut source = args.source.source()?;
    let painter = crate::style::Terminal::new();
    let mut out = anstream::stdout().lock();
    for expr in &parsed {
        for note in expr.notes() {
            let _ = writeln!(anstream::stderr(), "note: {note}");
        }
        let mut roller = expr.roller();
        for _ in 0..args.repeat {
            let total = roller
                .roll(source.dice())
                .map_err(|e| Failure::bad_input(e.render(expr.text())))?;
            if args.quiet {
                writeln!(out, "{total}")?;
            } else if args.json {
                let report = roller.to_roll(total).report();
                let line = serde_json::to_string(&report)
                    .map_err(|e| Failure::other(format!("error: {e}")))?;
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

/// The arguments with flavour text joined to the expression before it:
/// `nutshell roll 1d20+5 to hit` rolls `1d20+5 to hit`, labelled "to hit"
/// (a word is flavour when it is letters only and not an expression itself,
/// as `dF` is).
fn with_flavour<'a>(arguments: impl Iterator<Item = &'a String>, limits: &Limits) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for argument in arguments {
        let words = !argument.trim().is_empty()
            && argument
                .chars()
                .all(|c| c.is_alphabetic() || c.is_whitespace() || c == '\'' || c == '’');
        match out.last_mut() {
            Some(last)
                if words && last != "-" && Expression::parse_with(argument, limits).is_err() =>
            {
                last.push(' ');
                last.push_str(argument);
            }
            _ => out.push(argument.clone()),
        }
    }
    out
}

/// The expressions from the command line, with `-` replaced by the lines of
/// standard input, each with where it came from (for an error's first words).
fn expression_texts(arguments: &[String]) -> Result<Vec<(String, String)>, Failure> {
    let mut texts = Vec::new();
    for (position, argument) in arguments.iter().enumerate() {
        if argument == "-" {
            let input = crate::files::read_stdin()?;
            texts.extend(
                input
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(n, l)| (l.to_string(), format!("line {} of standard input", n + 1))),
            );
        } else {
            texts.push((argument.clone(), format!("expression {}", position + 1)));
        }
    }
    if texts.is_empty() {
        return Err(Failure::bad_input(
            "error: no expression to roll: standard input was empty",
        ));
    }
    Ok(texts)
}
