//! The `odds` command line read without clap, for speed.
//!
//! Building the full parser of every command costs a process about a tenth of
//! a millisecond and a hundred page faults, as much as a small exact
//! distribution. [`read`] takes the common `odds` lines (an expression, the
//! odds flags and the limit flags, each at most once, values written plainly)
//! and gives up on anything else: help, version, `--flag=value`, a repeated
//! flag, a value it does not read the same way clap would, `--simulate`, any
//! mistake. Those go through the full parser, so every message is clap's.
//! A test holds the two parsers to the same result.

use crate::cli_args::{Cli, Command};
use crate::limits_args::{ExactLimitArgs, LimitArgs};
use crate::odds_cmd::OddsArgs;
use std::ffi::OsString;

/// The `odds` line `args` (the program's name first), if it is a plain one.
pub fn read(args: &[OsString]) -> Option<Cli> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let mut limits = LimitArgs::default();
    let mut exact = ExactLimitArgs::default();
    let mut expression: Option<&str> = None;
    let mut at_least = None;
    let mut at_most = None;
    let (mut all, mut json, mut odds) = (false, false, false);
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if !word.starts_with('-') {
            if !odds {
                // The subcommand comes first of the words that are not flags.
                if word != "odds" {
                    return None;
                }
                odds = true;
            } else if expression.replace(word).is_some() {
                return None;
            }
            continue;
        }
        if seen.contains(&word) {
            return None;
        }
        seen.push(word);
        match word {
            "--json" if odds => json = true,
            "--all" if odds => all = true,
            _ => {
                let value = *words.get(i)?;
                i += 1;
                match word {
                    "--at-least" if odds => at_least = Some(signed(value)?),
                    "--at-most" if odds => at_most = Some(signed(value)?),
                    "--max-dice" => limits.max_dice = plain(value)?,
                    "--max-explosions" => limits.max_explosions = plain(value)?,
                    "--max-nesting" => {
                        limits.max_nesting = plain(value).filter(|n| (1..=1000).contains(n))?
                    }
                    "--max-length" => limits.max_length = plain(value)?,
                    "--max-outcomes" if odds => exact.max_outcomes = plain(value)?,
                    "--max-work" if odds => exact.max_work = plain(value)?,
                    "--tail" if odds => exact.tail = crate::limits_args::parse_tail(value).ok()?,
                    "--max-file-size" => limits.max_file_size = plain(value)?,
                    _ => return None,
                }
            }
        }
    }
    let expression = expression?;
    if !odds || expression.is_empty() {
        return None;
    }
    Some(Cli {
        command: Command::Odds(OddsArgs {
            expression: expression.to_string(),
            more: Vec::new(),
            at_least,
            at_most,
            simulate: None,
            seed: 1,
            all,
            json,
            exact,
        }),
        limits,
    })
}

/// A number written as plain ASCII digits (what clap reads the same way).
fn plain<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A number of plain ASCII digits with an optional minus sign.
fn signed(text: &str) -> Option<i64> {
    match text.strip_prefix('-') {
        Some(rest) => plain::<i64>(rest).map(|n| -n),
        None => plain(text),
    }
}
