//! The slash commands, as Discord's JSON (what `PUT
//! /applications/{id}/commands` takes, and what `nutshell discord commands`
//! prints), and [`check`]: the documented limits of that JSON, so a command
//! set Discord would refuse is found here first.
//!
//! Option names are the JSON fields of the server's routes (`mod`, `dc`,
//! `crit_success`, `vs_skill`): a command's options become the route's body
//! as they are, and the rules check them as they check the web table's.
//!
//! ```
//! let commands = nutshell_server::discord::commands::all();
//! let names: Vec<&str> = commands.iter().map(|c| c["name"].as_str().unwrap()).collect();
//! assert_eq!(names, ["roll", "odds", "check", "contest", "verify", "table"]);
//! assert_eq!(nutshell_server::discord::commands::check(&commands), Vec::<String>::new());
//! ```

use serde_json::{Value, json};

/// Option types (Discord's numbers).
pub const SUB_COMMAND: u64 = 1;
pub const STRING: u64 = 3;
pub const INTEGER: u64 = 4;
pub const BOOLEAN: u64 = 5;

/// The fantasy DC given by name (RULING F-1): its own option, read as `dc`.
pub const DC_NAME: &str = "dc_name";

fn option(kind: u64, name: &str, description: &str) -> Value {
    json!({"type": kind, "name": name, "description": description})
}

fn int(name: &str, description: &str) -> Value {
    option(INTEGER, name, description)
}

fn flag(name: &str, description: &str) -> Value {
    option(BOOLEAN, name, description)
}

fn text(name: &str, description: &str) -> Value {
    let mut option = option(STRING, name, description);
    option["max_length"] = json!(500);
    option
}

fn required(mut option: Value) -> Value {
    option["required"] = json!(true);
    option
}

fn choices(mut option: Value, names: &[&str]) -> Value {
    option["choices"] = names
        .iter()
        .map(|name| json!({"name": name, "value": name}))
        .collect();
    option
}

fn sub(name: &str, description: &str, options: Vec<Value>) -> Value {
    let mut sub = option(SUB_COMMAND, name, description);
    sub["options"] = json!(options);
    sub
}

fn command(name: &str, description: &str, options: Vec<Value>) -> Value {
    json!({"name": name, "type": 1, "description": description, "options": options})
}

/// Fantasy's taking 0, 10 or 20: a number of three.
fn take() -> Value {
    let mut take = int("take", "Take 0, 10 or 20 instead of rolling");
    take["choices"] = json!([
        {"name": "0", "value": 0},
        {"name": "10", "value": 10},
        {"name": "20", "value": 20},
    ]);
    take
}

fn odds_flag() -> Value {
    flag("odds", "Also show the exact odds of every outcome")
}

/// The check options of each ruleset (the route's fields).
fn check_rulesets() -> Vec<Value> {
    let descriptors: Vec<&str> = nutshell_rules::fantasy::DESCRIPTORS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    vec![
        sub(
            "fantasy",
            "d20 + modifiers against a DC",
            vec![
                int("dc", "The DC as a number"),
                choices(text(DC_NAME, "The DC by name"), &descriptors),
                int("mod", "Modifiers other than the ability's, summed"),
                int("ability", "The ability score's modifier"),
                flag("crit_success", "The check allows critical success"),
                flag("crit_failure", "The check allows critical failure"),
                flag("natural_even", "Only a natural even result passes"),
                take(),
                flag("stressful", "A stressful situation"),
                flag("no_retry", "No retry is allowed"),
                flag("reroll", "Spend a reroll if the check fails"),
                flag("forced_reroll", "Another forces a reroll"),
                flag("cancel_reroll", "Cancel the forced reroll with your own"),
                text(
                    "effect",
                    "Magnitude or damage rolled on a success, e.g. 1d8+4",
                ),
                flag("magnitude", "Roll the default magnitude check on a success"),
                choices(
                    text("tools", "The magnitude check's tools"),
                    &[
                        "improvised-poor",
                        "improvised",
                        "standard",
                        "superior",
                        "superior-trained",
                    ],
                ),
                int("step", "Step changes to the magnitude dice"),
                int("extra", "Extra magnitude dice of the largest type"),
                flag("nominal", "A nominal success"),
                flag("double", "The effect does double damage"),
                odds_flag(),
            ],
        ),
        sub(
            "mls",
            "3d6 + skill + modifiers (15 succeeds, 20 is critical)",
            vec![
                int("skill", "The trait or skill"),
                int("mod", "Modifiers, summed (the ref's difficulty)"),
                odds_flag(),
            ],
        ),
        sub(
            "exploding-d6",
            "One exploding d6 + Score against the Difficulty",
            vec![
                int("dc", "The Difficulty #"),
                int("score", "The Score"),
                int("mod", "Modifiers, summed"),
                flag("rote", "The character can take their time"),
                int("helper", "A helper's Score + modifiers"),
                odds_flag(),
            ],
        ),
        sub(
            "tiered-d20",
            "d20 + skill with capped bonuses, edges and advantage",
            vec![
                int("dc", "The DC"),
                int("skill", "The skill modifier"),
                int("mod", "Modifiers outside the stacking cap"),
                int("bonus", "A bonus under the stacking cap"),
                int("penalty", "A penalty under the cap, as a positive number"),
                int("advantage", "Sources of advantage"),
                int("disadvantage", "Sources of disadvantage"),
                int("edge", "Edges gained on the roll"),
                int("lose_edge", "Edges lost on the roll"),
                int("dc_edge", "Net edges on the DC"),
                int("action", "This is the K-th check of the round"),
                int("jam_tier", "Clearing a jammed item of this tier"),
                int("attempt", "The attempt to clear the jam"),
                text("effect", "Damage or healing dice of the action"),
                int("effect_bonus", "A bonus to the effect, under its cap"),
                int("effect_penalty", "A penalty to the effect, positive"),
                flag("reroll", "One reroll of the d20"),
                odds_flag(),
            ],
        ),
        sub(
            "favor-3d6",
            "3d6 with favor and disfavor + modifier against the TD",
            vec![
                int("dc", "The Test Difficulty"),
                int("mod", "Modifiers, summed"),
                int("favor", "Points of favor"),
                int("disfavor", "Points of disfavor"),
                odds_flag(),
            ],
        ),
    ]
}

/// The contests (the rulesets that have them).
fn contest_rulesets() -> Vec<Value> {
    vec![
        sub(
            "mls",
            "The active side against the opponent",
            vec![
                int("skill", "The active side's skill"),
                int("vs_skill", "The opponent's skill"),
                int("mod", "The active side's modifiers"),
                int("vs_mod", "The opponent's modifiers"),
                odds_flag(),
            ],
        ),
        sub(
            "exploding-d6",
            "Side A against side B",
            vec![
                int("score", "Side A's Score"),
                int("vs_score", "Side B's Score"),
                int("mod", "Side A's modifiers"),
                int("vs_mod", "Side B's modifiers"),
                odds_flag(),
            ],
        ),
        sub(
            "favor-3d6",
            "Side A against side B, with the tie-breakers",
            vec![
                int("mod", "Side A's modifiers"),
                int("favor", "Side A's favor"),
                int("disfavor", "Side A's disfavor"),
                flag("pc", "Side A is a PC"),
                flag("defender", "Side A is defending itself"),
                int("level", "Side A's level or DR"),
                int("vs_mod", "Side B's modifiers"),
                int("vs_favor", "Side B's favor"),
                int("vs_disfavor", "Side B's disfavor"),
                flag("vs_pc", "Side B is a PC"),
                flag("vs_defender", "Side B is defending itself"),
                int("vs_level", "Side B's level or DR"),
                odds_flag(),
            ],
        ),
    ]
}

/// Every command, in Discord's JSON.
pub fn all() -> Vec<Value> {
    vec![
        command(
            "roll",
            "Roll dice in nutshell's notation, verifiably",
            vec![
                required(text(
                    "expression",
                    "The dice, e.g. 4d6kh3 + 2 or 1d20+5 to hit",
                )),
                flag(
                    "secret",
                    "The GM's secret roll: only you see it until it is shown",
                ),
            ],
        ),
        command(
            "odds",
            "The exact odds of an expression or a comparison",
            vec![required(text(
                "expression",
                "The dice, or a comparison such as 1d20+5 >= 15",
            ))],
        ),
        command(
            "check",
            "A check of one of the five rulesets",
            check_rulesets(),
        ),
        command("contest", "A contest between two sides", contest_rulesets()),
        command(
            "verify",
            "How to check this channel's dice: the log and the command",
            vec![],
        ),
        command(
            "table",
            "The channel's room at the nutshell table",
            vec![
                sub(
                    "link",
                    "Tie this channel to a room you are the GM of",
                    vec![
                        required(text("room", "The room's id")),
                        required(text("key", "Your GM key (only nutshell sees it)")),
                    ],
                ),
                sub(
                    "reveal",
                    "GM: reveal the epoch's seed (every roll can be checked)",
                    vec![],
                ),
                sub(
                    "show",
                    "GM: show one secret roll to everyone now",
                    vec![required(int("event", "The secret roll's event number"))],
                ),
            ],
        ),
    ]
}

/// Whether `name` is a valid command or option name: 1 to 32 characters,
/// lowercase letters, digits, `-` and `_`.
fn good_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=32).contains(&count)
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

/// The characters Discord counts against a command's 4000: names,
/// descriptions and choice values, of the command and all its options.
fn counted(value: &Value) -> usize {
    let own = chars(&value["name"]) + chars(&value["description"]);
    let choices: usize = value["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| chars(&c["name"]) + c["value"].to_string().trim_matches('"').chars().count())
        .sum();
    let options: usize = value["options"]
        .as_array()
        .into_iter()
        .flatten()
        .map(counted)
        .sum();
    own + choices + options
}

fn check_options(path: &str, options: &[Value], problems: &mut Vec<String>, depth: usize) {
    if options.len() > 25 {
        problems.push(format!("{path}: {} options; at most 25", options.len()));
    }
    let mut seen = std::collections::HashSet::new();
    let mut optional_seen = false;
    for option in options {
        let name = option["name"].as_str().unwrap_or("");
        let here = format!("{path} {name}");
        if !good_name(name) {
            problems.push(format!(
                "{here}: a name must be 1-32 lowercase letters, digits, - or _"
            ));
        }
        if !seen.insert(name) {
            problems.push(format!("{here}: the name is used twice"));
        }
        if !(1..=100).contains(&chars(&option["description"])) {
            problems.push(format!("{here}: a description must be 1-100 characters"));
        }
        let kind = option["type"].as_u64().unwrap_or(0);
        if !matches!(kind, SUB_COMMAND | STRING | INTEGER | BOOLEAN) {
            problems.push(format!("{here}: type {kind} is not one this set uses"));
        }
        let is_required = option["required"].as_bool() == Some(true);
        if is_required && optional_seen {
            problems.push(format!("{here}: a required option after an optional one"));
        }
        optional_seen |= !is_required;
        if let Some(choices) = option["choices"].as_array() {
            if !matches!(kind, STRING | INTEGER) || choices.len() > 25 {
                problems.push(format!(
                    "{here}: at most 25 choices, on a string or integer"
                ));
            }
            for choice in choices {
                let fits = match kind {
                    STRING => choice["value"]
                        .as_str()
                        .is_some_and(|v| v.chars().count() <= 100),
                    _ => choice["value"].is_i64(),
                };
                if !fits || !(1..=100).contains(&chars(&choice["name"])) {
                    problems.push(format!(
                        "{here}: choice {choice} is not of the option's type"
                    ));
                }
            }
        }
        if kind == SUB_COMMAND {
            if depth > 0 {
                problems.push(format!("{here}: a subcommand inside a subcommand"));
            }
            let inner = option["options"].as_array().cloned().unwrap_or_default();
            check_options(&here, &inner, problems, depth + 1);
        }
    }
    let subs = options
        .iter()
        .filter(|o| o["type"].as_u64() == Some(SUB_COMMAND))
        .count();
    if subs > 0 && subs != options.len() {
        problems.push(format!("{path}: subcommands mixed with other options"));
    }
}

/// Every way `commands` breaks Discord's documented limits for chat input
/// commands (empty when none): names of 1 to 32 lowercase characters,
/// descriptions of 1 to 100, at most 25 options per level and 25 choices
/// per option, required options first, choices of the option's type, at
/// most 4000 characters of names, descriptions and values per command, and
/// at most 100 commands.
pub fn check(commands: &[Value]) -> Vec<String> {
    let mut problems = Vec::new();
    if commands.len() > 100 {
        problems.push(format!("{} commands; at most 100", commands.len()));
    }
    let mut seen = std::collections::HashSet::new();
    for command in commands {
        let name = command["name"].as_str().unwrap_or("");
        let here = format!("/{name}");
        if !good_name(name) {
            problems.push(format!(
                "{here}: a name must be 1-32 lowercase letters, digits, - or _"
            ));
        }
        if !seen.insert(name) {
            problems.push(format!("{here}: the name is used twice"));
        }
        if command["type"].as_u64() != Some(1) {
            problems.push(format!("{here}: not a chat input command (type 1)"));
        }
        if !(1..=100).contains(&chars(&command["description"])) {
            problems.push(format!("{here}: a description must be 1-100 characters"));
        }
        let options = command["options"].as_array().cloned().unwrap_or_default();
        check_options(&here, &options, &mut problems, 0);
        let total = counted(command);
        if total > 4000 {
            problems.push(format!(
                "{here}: {total} characters of names, descriptions and values; at most 4000"
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker finds what Discord would refuse.
    #[test]
    fn the_checker_finds_each_broken_limit() {
        let mut commands = all();
        assert_eq!(check(&commands), Vec::<String>::new());
        commands[0]["name"] = json!("Roll");
        commands[1]["description"] = json!("x".repeat(101));
        commands[2]["options"][0]["options"][0]["name"] = json!("a".repeat(33));
        commands[5]["options"][0]["options"][0]["required"] = json!(false);
        let problems = check(&commands);
        assert!(
            problems.iter().any(|p| p.starts_with("/Roll: a name")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("/odds: a description")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("/check fantasy aaaa")),
            "{problems:?}"
        );
        assert!(
            problems
                .contains(&"/table link key: a required option after an optional one".to_string()),
            "{problems:?}"
        );
        let many: Vec<Value> = (0..26).map(|i| int(&format!("o{i}"), "d")).collect();
        let problems = check(&[command("many", "d", many)]);
        assert_eq!(problems, ["/many: 26 options; at most 25"]);
    }
}
