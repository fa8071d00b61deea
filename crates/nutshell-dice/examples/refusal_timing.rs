//! Times how long the exact engine takes to answer or refuse:
//! `refusal_timing [--max-work N] [--max-dice N] [--max-outcomes N]
//! [--max-nesting N] [--max-length N] EXPR...` prints one JSON line per
//! expression (`@nested-groups:N` stands for N groups nested in each other
//! around `1d6`, `@members:N` for a group of N `1d6`), with the time to
//! parse and compute, the outcome (`answer` or the error) and the steps
//! charged.
//!
//! Used for issue 23's list of inputs that took seconds before a refusal
//! (docs/odds.md, "A job past the limit is refused before it starts").

use nutshell_dice::{Expression, Limits};
use std::time::Instant;

fn expand(text: &str) -> String {
    if let Some(n) = text.strip_prefix("@nested-groups:") {
        let n: usize = n.parse().expect("a number");
        return format!("{}1d6{}", "{".repeat(n), "}".repeat(n));
    }
    if let Some(n) = text.strip_prefix("@members:") {
        let n: usize = n.parse().expect("a number");
        return format!("{{{}}}kh1", vec!["1d6"; n].join(", "));
    }
    text.to_string()
}

fn main() {
    let mut limits = Limits::default();
    let mut args = std::env::args().skip(1).peekable();
    let mut texts = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> u64 {
            let v = args
                .next()
                .unwrap_or_else(|| panic!("{name} needs a value"));
            v.parse::<f64>().map(|x| x as u64).expect("a number")
        };
        match arg.as_str() {
            "--max-work" => limits.max_work = value("--max-work"),
            "--max-dice" => limits.max_dice = value("--max-dice"),
            "--max-outcomes" => limits.max_outcomes = value("--max-outcomes") as usize,
            "--max-nesting" => limits.max_nesting = value("--max-nesting") as usize,
            "--max-length" => limits.max_expression_chars = value("--max-length") as usize,
            _ => texts.push(arg),
        }
    }
    for text in texts {
        let expanded = expand(&text);
        let start = Instant::now();
        let outcome = match Expression::parse_with(&expanded, &limits) {
            Err(e) => format!("parse error: {e}"),
            Ok(expr) => match expr.distribution() {
                Ok(d) => format!("answer: {} outcomes", d.outcomes().len()),
                Err(e) => format!("refused: {e}"),
            },
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let work = nutshell_dice::exact::work_done();
        let outcome = outcome.replace('"', "'");
        println!(
            "{{\"expression\":\"{text}\",\"ms\":{ms:.2},\"work\":{work},\"outcome\":\"{outcome}\"}}"
        );
    }
}
