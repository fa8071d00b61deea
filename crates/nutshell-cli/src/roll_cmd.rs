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
    let arguments: Vec<String> = std::iter::once(&args.first)
        .chain(&args.rest)
        .cloned()
        .collect();
    let (joined, several) = joined(&arguments);
    let given = with_flavour(joined.iter(), limits);
    let texts = expression_texts(&given)?;
    let mut parsed = Vec::with_capacity(texts.len());
    for (text, origin) in &texts {
        // Another tool's `6#4d6kh3`: six rolls, as `--repeat 6`.
        let (times, text) = match nutshell_dice::syntax::repeated(text) {
            Some((times, inner)) if Expression::parse_with(inner, limits).is_ok() => (times, inner),
            _ => (1, text.as_str()),
        };
        let expr = Expression::parse_with(text, limits).map_err(|e| {
            let mut message = e.render(text);
            if several.iter().any(|s| s == text) {
                message = format!(
                    "{}\nhelp: the arguments `{text}` were read as one expression; quote an expression with spaces: nutshell roll {}",
                    message.trim_end(),
                    quoted(text)
                );
            }
            Failure::bad_input(match message.strip_prefix("error: ") {
                Some(rest) if texts.len() > 1 => {
                    format!("error: {origin} (nothing was rolled): {rest}")
                }
                _ => message,
            })
        })?;
        let rolls = times.saturating_mul(args.repeat);
        if rolls > MAX_REPEAT {
            return Err(Failure::bad_input(format!(
                "error: `{times}#` with --repeat {} asks for {rolls} rolls; the most is {MAX_REPEAT}",
                args.repeat
            )));
        }
        if times > 1 {
            let _ = writeln!(
                anstream::stderr(),
                "note: `{times}#{text}` rolls `{text}` {times} times (as --repeat {times})"
            );
        }
        parsed.push((expr, rolls));
    }
    let mut source = args.source.source()?;
    let painter = crate::style::Terminal::new();
    let styles = painter.sequences();
    let mut out = anstream::stdout().lock();
    for (expr, rolls) in &parsed {
        for note in expr.notes() {
            let _ = writeln!(anstream::stderr(), "note: {note}");
        }
        let mut roller = expr.roller();
        for _ in 0..*rolls {
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
                // Labels are user text: shown escaped, the painter's styles kept.
                let roll = roller.to_roll(total);
                let line = roll.render_with(&painter);
                writeln!(out, "{}", crate::shown::styled(&line, &styles))?;
            }
        }
    }
    out.flush()?;
    if let Some(warning) = source.leftover_warning() {
        crate::exit::Failure::other(warning).print();
    }
    Ok(())
}

/// The arguments with those that only parse together joined into one
/// expression (`nutshell roll d20 + 5` rolls `d20 + 5`), and the texts so
/// joined (for an error's hint to quote them). An argument joins the one
/// before it when that ends with an operator (`+`, `>=`, `vs`, `(`, ...) or
/// it starts with one (`+5`, `)`, `[fire]`); a lone `-` between two
/// arguments is a subtraction (first or last, it reads standard input).
pub(crate) fn joined(arguments: &[String]) -> (Vec<String>, Vec<String>) {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for (i, argument) in arguments.iter().enumerate() {
        let join = groups.last().is_some_and(|(prev, _)| {
            prev != "-"
                && (ends_open(prev)
                    || starts_closing(argument)
                    || (argument == "-" && i + 1 < arguments.len()))
        });
        match groups.last_mut() {
            Some((prev, n)) if join => {
                prev.push(' ');
                prev.push_str(argument);
                *n += 1;
            }
            _ => groups.push((argument.clone(), 1)),
        }
    }
    let several = groups
        .iter()
        .filter(|(_, n)| *n > 1)
        .map(|(g, _)| g.clone())
        .collect();
    (groups.into_iter().map(|(g, _)| g).collect(), several)
}

/// Whether `text` ends with an operator, so the next argument continues it.
fn ends_open(text: &str) -> bool {
    let text = text.trim_end();
    let last_word = text.rsplit(char::is_whitespace).next().unwrap_or("");
    text.ends_with(['+', '-', '*', '/', '(', '{', ',', '>', '<', '=', '≥', '≤'])
        || matches!(
            last_word.to_ascii_lowercase().as_str(),
            "vs" | "vs." | "versus"
        )
}

/// Whether `text` starts with an operator that continues the argument before it.
fn starts_closing(text: &str) -> bool {
    let text = text.trim_start();
    let first_word = text.split(char::is_whitespace).next().unwrap_or("");
    text.starts_with(['+', '*', '/', ')', '}', ',', '>', '<', '=', '≥', '≤', '['])
        || matches!(
            first_word.to_ascii_lowercase().as_str(),
            "vs" | "vs." | "versus"
        )
}

/// `text` quoted for a POSIX shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
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
