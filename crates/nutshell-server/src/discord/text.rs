//! What people read in Discord: the API's answers (rolls, checks, contests,
//! odds) as short Discord Markdown. Nothing here computes a result: every
//! number comes from the answer of the route that made it.
//!
//! ```
//! use nutshell_server::discord::text;
//! assert_eq!(text::percent(0.55), "55%");
//! assert_eq!(text::percent(1.0 / 3.0), "33.33%");
//! assert_eq!(text::escape("*bold* _x_ (a-b)"), "\\*bold\\* \\_x\\_ (a-b)");
//! assert_eq!(text::code("a`b"), "`a'b`");
//! ```

use serde_json::Value;

/// The most characters a message's content may have in Discord.
pub const MAX_CONTENT_CHARS: usize = 2000;

/// Rows of an odds table shown before it is cut (with the rest summed).
pub const MAX_TABLE_ROWS: usize = 24;

/// Text written by people (names, labels) with Discord's Markdown
/// characters escaped, so it shows as typed (mid-line: `#`, `>` and `-`
/// only mean something at a line's start; no answer pings anyone, see
/// `allowed_mentions`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as inline code (a backtick inside becomes `'`).
pub fn code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

/// A probability as a percentage to two decimals, trailing zeros dropped.
pub fn percent(p: f64) -> String {
    let text = format!("{:.2}", p * 100.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}%")
}

/// An exact probability as `11/20 (55%)`: the fraction when it is short
/// enough to read, else only the percentage with `≈`.
pub fn probability(fraction: &str, p: f64) -> String {
    if fraction.len() <= 40 {
        format!("{fraction} ({})", percent(p))
    } else {
        format!(
            "≈ {} (the exact fraction has {} digits)",
            percent(p),
            fraction.len()
        )
    }
}

/// `text` cut to Discord's limit on a line's end, saying so.
pub fn clip(text: String) -> String {
    if text.chars().count() <= MAX_CONTENT_CHARS {
        return text;
    }
    let note = "\n… (cut: the whole answer is in the room's log)";
    let keep = MAX_CONTENT_CHARS - note.chars().count() - 4;
    let mut cut: String = text.chars().take(keep).collect();
    if let Some(end) = cut.rfind('\n') {
        cut.truncate(end);
    }
    // A code block left open would swallow the note.
    if cut.matches("```").count() % 2 == 1 {
        cut.push_str("\n```");
    }
    cut.push_str(note);
    cut
}

/// A refusal: what was wrong, in the route's own words.
/// A message of several lines (an expression with a caret under the
/// error) keeps its layout in a code block.
pub fn refusal(message: &str) -> String {
    let message = message.trim();
    match message.split_once('\n') {
        None => clip(format!("⚠️ {message}")),
        Some((first, rest)) => clip(format!(
            "⚠️ {first}\n```\n{}\n```",
            rest.replace("```", "'''")
        )),
    }
}

/// The event line under a roll: its number in the room's log, and the
/// commitment it can be checked against.
fn event_line(answer: &Value) -> String {
    let seq = answer["seq"].as_i64().unwrap_or(0);
    let commitment = answer["commitment"].as_str().unwrap_or("");
    let short: String = commitment.chars().take(12).collect();
    format!(
        "-# event #{seq} · epoch {} · commitment `{short}…` · `/verify`",
        answer["epoch"].as_i64().unwrap_or(0)
    )
}

/// A roll's answer (`POST /rolls`).
pub fn roll(name: &str, answer: &Value) -> String {
    let secret = if answer["secret"].as_bool() == Some(true) {
        " in secret (only you see this; the table sees it when you reveal the epoch or `/table show` it)"
    } else {
        ""
    };
    let mut out = format!(
        "🎲 **{}** rolls **{}**{secret}\n{}\n",
        escape(name),
        answer["total"],
        code(answer["text"].as_str().unwrap_or(""))
    );
    out.push_str(&event_line(answer));
    clip(out)
}

/// An outcome id as words: `critical-success` → `Critical success`.
fn outcome(id: &str) -> String {
    let words = id.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}

/// One check's steps, each with the rule it cites.
fn steps(out: &mut String, check: &Value, indent: &str) {
    for step in check["transcript"].as_array().into_iter().flatten() {
        let text = step["text"].as_str().unwrap_or("");
        let rule = step["rule"].as_str().unwrap_or("");
        if rule.is_empty() {
            out.push_str(&format!("{indent}• {}\n", escape(text)));
        } else {
            out.push_str(&format!(
                "{indent}• {} — *{}*\n",
                escape(text),
                escape(rule)
            ));
        }
    }
    if let Some(effect) = check.get("effect").filter(|e| !e.is_null()) {
        out.push_str(&format!(
            "{indent}• effect {}: **{}**\n",
            code(effect["text"].as_str().unwrap_or("")),
            effect["total"]
        ));
    }
}

/// The headline of one check: outcome, total against difficulty.
fn headline(check: &Value) -> String {
    let mut line = format!(
        "**{}**",
        outcome(check["outcome"].as_str().unwrap_or("none"))
    );
    match (check["total"].as_i64(), check["difficulty"].as_i64()) {
        (Some(total), Some(dc)) => line.push_str(&format!(" ({total} vs {dc})")),
        (Some(total), None) => line.push_str(&format!(" ({total})")),
        _ => {}
    }
    line
}

/// The exact odds the check or contest route added (`odds: true`).
fn odds_lines(out: &mut String, odds: &Value) {
    let rows: Vec<String> = odds["outcomes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            format!(
                "{} {}",
                outcome(row["outcome"].as_str().unwrap_or("")),
                probability(
                    row["probability"].as_str().unwrap_or(""),
                    row["percent"].as_f64().unwrap_or(0.0) / 100.0
                )
            )
        })
        .collect();
    if !rows.is_empty() {
        out.push_str(&format!("📊 exact odds: {}\n", rows.join(" · ")));
    }
}

/// A check's answer (`POST /checks`): one check, or a tiered-d20 turn.
pub fn check(name: &str, answer: &Value) -> String {
    let ruleset = answer["ruleset"].as_str().unwrap_or("");
    let mut out = String::new();
    if let Some(checks) = answer["checks"].as_array() {
        out.push_str(&format!(
            "🎯 **{}** — {ruleset} turn of {} checks\n",
            escape(name),
            checks.len()
        ));
        for (index, check) in checks.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", index + 1, headline(check)));
            steps(&mut out, check, "  ");
        }
    } else {
        out.push_str(&format!(
            "🎯 **{}** — {ruleset} check: {}\n",
            escape(name),
            headline(answer)
        ));
        steps(&mut out, answer, "");
    }
    if let Some(odds) = answer.get("odds") {
        odds_lines(&mut out, odds);
    }
    out.push_str(&event_line(answer));
    clip(out)
}

/// A contest's answer (`POST /contests`).
pub fn contest(name: &str, answer: &Value) -> String {
    let ruleset = answer["ruleset"].as_str().unwrap_or("");
    let winner = match answer["winner"].as_str() {
        Some("first") => "side A wins".to_string(),
        Some("second") => "side B wins".to_string(),
        Some("none") => "nothing happens".to_string(),
        other => other.unwrap_or("no winner").to_string(),
    };
    let mut out = format!(
        "⚔️ **{}** — {ruleset} contest: **{winner}**\n",
        escape(name)
    );
    for (index, side) in answer["sides"].as_array().into_iter().flatten().enumerate() {
        let label = if index == 0 { "A" } else { "B" };
        out.push_str(&format!("Side {label}: {}\n", headline(side)));
        steps(&mut out, side, "  ");
    }
    let own = serde_json::json!({"transcript": answer["transcript"]});
    steps(&mut out, &own, "");
    if let Some(odds) = answer.get("odds") {
        odds_lines(&mut out, odds);
    }
    out.push_str(&event_line(answer));
    clip(out)
}

/// The odds route's answer: `P(…) = 11/20 (55%)` for a comparison
/// (`comparison` is the expression as the engine prints the comparison),
/// else a table of every outcome (cut after [`MAX_TABLE_ROWS`], the rest
/// summed), the mean and the standard deviation.
pub fn odds(answer: &Value, comparison: Option<&str>) -> String {
    let rows = answer["distribution"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let tail = answer["tail"].as_str().unwrap_or("0");
    let tail_note = if tail == "0" {
        String::new()
    } else {
        format!("\n-# exploding dice followed until what is left out is below {tail}")
    };
    if let Some(comparison) = comparison {
        let holds = rows.iter().find(|r| r["value"].as_i64() == Some(1));
        let (fraction, p) = match holds {
            Some(row) => (
                row["probability"].as_str().unwrap_or("0").to_string(),
                row["p"].as_f64().unwrap_or(0.0),
            ),
            None => ("0".to_string(), 0.0),
        };
        return clip(format!(
            "📊 P({}) = **{}**{tail_note}",
            code(comparison),
            probability(&fraction, p)
        ));
    }
    let mut out = format!(
        "📊 {} · mean {:.4} · standard deviation {:.4}\n```\n",
        code(answer["expression"].as_str().unwrap_or("")),
        answer["mean"].as_f64().unwrap_or(0.0),
        answer["std_dev"].as_f64().unwrap_or(0.0)
    );
    let widest = rows
        .iter()
        .map(|r| r["value"].to_string().len())
        .max()
        .unwrap_or(1);
    let most = rows
        .iter()
        .filter_map(|r| r["p"].as_f64())
        .fold(0.0f64, f64::max);
    let shown = rows.len().min(MAX_TABLE_ROWS);
    for row in &rows[..shown] {
        let p = row["p"].as_f64().unwrap_or(0.0);
        let bar = if most > 0.0 {
            "█".repeat(((p / most) * 20.0).round() as usize)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:>widest$}  {:>8}  {bar}  {}\n",
            row["value"].to_string(),
            percent(p),
            row["probability"].as_str().unwrap_or(""),
        ));
    }
    if rows.len() > shown {
        let rest: f64 = rows[shown..].iter().filter_map(|r| r["p"].as_f64()).sum();
        out.push_str(&format!(
            "… {} more outcomes ({} in all; `nutshell odds` lists them)\n",
            rows.len() - shown,
            percent(rest)
        ));
    }
    out.push_str("```");
    out.push_str(&tail_note);
    clip(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_answer_is_cut_on_a_line_with_its_code_block_closed() {
        let long = format!("```\n{}", "1234567890\n".repeat(400));
        let cut = clip(long);
        assert!(cut.chars().count() <= MAX_CONTENT_CHARS, "{}", cut.len());
        assert_eq!(cut.matches("```").count(), 2);
        assert!(cut.ends_with("(cut: the whole answer is in the room's log)"));
    }

    #[test]
    fn a_comparison_answers_its_probability() {
        let answer = json!({"distribution": [
            {"value": 0, "probability": "9/20", "p": 0.45},
            {"value": 1, "probability": "11/20", "p": 0.55},
        ], "tail": "0", "expression": "1d20 + 5 >= 15"});
        assert_eq!(
            odds(&answer, Some("1d20 + 5 >= 15")),
            "📊 P(`1d20 + 5 >= 15`) = **11/20 (55%)**"
        );
    }

    #[test]
    fn a_table_is_cut_after_its_rows_with_the_rest_summed() {
        let rows: Vec<Value> = (1..=30)
            .map(|v| json!({"value": v, "probability": "1/30", "p": 1.0 / 30.0}))
            .collect();
        let answer = json!({"distribution": rows, "tail": "0", "expression": "1d30", "mean": 15.5, "std_dev": 8.655});
        let text = odds(&answer, None);
        assert!(
            text.starts_with("📊 `1d30` · mean 15.5000 · standard deviation 8.6550\n```\n"),
            "{text}"
        );
        assert!(
            text.contains("\n 1     3.33%  ████████████████████  1/30\n"),
            "{text}"
        );
        assert!(text.contains("… 6 more outcomes (20% in all"), "{text}");
        assert_eq!(text.lines().filter(|l| l.ends_with("1/30")).count(), 24);
    }
}
