//! What `nutshell verify` compares when it recomputes a roll: a result is
//! [`split`] into what its dice decided, compared exactly, and its words,
//! compared only to be shown where they differ.
//!
//! The words are the explanations written beside the values, each a string:
//!
//! - each step's `text` and `rule` (its citation): a step is an element of a
//!   `transcript` (a check's, a contest's or a contest side's), of a fight's
//!   `lines` (a step's or a played fight's decision's) or of a whole fight's
//!   `log` (an earlier server's);
//! - a dice roll's own `text` (`4d6kh3 = [2, 5, (2), 6] = 13`: every face and
//!   the total are in its `dice`, `terms` and `total`);
//! - a fight's `ending.reason` (its `winner` and `turns` are beside it, each
//!   combatant's state in `state`).
//!
//! Everything else of a result is what the dice decided and is compared
//! exactly: every face, kept or dropped, total, outcome, margin, number,
//! name, health, square, decision waited for, every sheet's TOML and what a
//! sheet's generation rolled (`rolled`), an effect roll's `text` (the only
//! record of its faces), a step's `faces`, and how many steps there are. The
//! one thing left out is the `id` of a played fight's decisions waited for
//! (`waiting`, `also_waiting`): earlier versions did not write it, and it
//! follows from the rest (the turn, round, combatant, kind and the decisions
//! made before).
//!
//! Invariant: two results with the same [`Split::decided`] have their words
//! at the same places, listed in the same order, so [`Split::words`] of a
//! recorded result and of its recomputation compare one by one, and
//! [`words`] names where each is.
//!
//! ```
//! use nutshell_server::decided::{split, words};
//! use serde_json::json;
//! let old = json!({"total": 18, "transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 + 0 = 18: success"}]});
//! let new = json!({"total": 18, "transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 = 18: success"}]});
//! // The same decision, worded differently.
//! assert_eq!(split(&old).decided, split(&new).decided);
//! assert_ne!(split(&old).words, split(&new).words);
//! assert_eq!(words(&new)[1], ("result.transcript[0].text".to_string(), "3d6 6 + skill 12 = 18: success".to_string()));
//! // A number is what the dice decided.
//! let forged = json!({"total": 19, "transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 = 18: success"}]});
//! assert_ne!(split(&forged).decided, split(&new).decided);
//! ```

use serde_json::Value;

use crate::fair;

/// A result split into what its dice decided and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The SHA-256 of the result's canonical JSON with each of its words
    /// replaced by `""` and the ids of the decisions waited for left out.
    pub decided: [u8; 32],
    /// Its words, in the order [`words`] lists them with their places.
    pub words: Vec<String>,
}

/// `result` split into what its dice decided and its words.
pub fn split(result: &Value) -> Split {
    let mut decided = result.clone();
    let mut words = Vec::new();
    visit(&mut decided, &mut |_, text| {
        words.push(std::mem::take(text))
    });
    Split {
        decided: fair::sha256(fair::canonical(&decided).as_bytes()),
        words,
    }
}

/// Each of `result`'s words with its place (`result.transcript[1].text`),
/// in the order of [`Split::words`].
pub fn words(result: &Value) -> Vec<(String, String)> {
    let mut result = result.clone();
    let mut found = Vec::new();
    visit(&mut result, &mut |at, text| {
        found.push((at.to_string(), std::mem::take(text)));
    });
    found
}

/// Where a value is in a result, for which of its fields are words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The result itself.
    Result,
    /// A step of a transcript or a fight's log.
    Step,
    /// A fight's ending.
    Ending,
    /// Anywhere else.
    Other,
}

/// The arrays whose elements are steps.
const STEPS: [&str; 3] = ["transcript", "lines", "log"];

/// Leaves out the ids of the decisions waited for, and hands each of the
/// words of `result` to `found` with its place, in the order of the keys'
/// bytes (canonical JSON's).
fn visit(result: &mut Value, found: &mut dyn FnMut(&str, &mut String)) {
    if let Value::Object(top) = result {
        if let Some(Value::Object(waiting)) = top.get_mut("waiting") {
            waiting.remove("id");
        }
        if let Some(Value::Array(also)) = top.get_mut("also_waiting") {
            for waiting in also.iter_mut().filter_map(Value::as_object_mut) {
                waiting.remove("id");
            }
        }
    }
    walk(result, &mut "result".to_string(), Place::Result, found);
}

fn walk(
    value: &mut Value,
    at: &mut String,
    place: Place,
    found: &mut dyn FnMut(&str, &mut String),
) {
    match value {
        Value::Object(object) => {
            // serde_json's map is sorted by its keys' bytes (a BTreeMap);
            // were a dependency to turn on its `preserve_order`, a result
            // read from a log and one made now would still list their words
            // in one order.
            let in_order = object.keys().zip(object.keys().skip(1)).all(|(a, b)| a < b);
            if in_order {
                for (key, item) in object.iter_mut() {
                    entry(key, item, at, place, found);
                }
            } else {
                let mut keys: Vec<String> = object.keys().cloned().collect();
                keys.sort();
                for key in keys {
                    if let Some(item) = object.get_mut(&key) {
                        entry(&key, item, at, place, found);
                    }
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                walk(item, at, Place::Other, found);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

fn entry(
    key: &str,
    item: &mut Value,
    at: &mut String,
    place: Place,
    found: &mut dyn FnMut(&str, &mut String),
) {
    let len = at.len();
    at.push('.');
    at.push_str(key);
    let worded = match place {
        Place::Result => key == "text",
        Place::Step => key == "text" || key == "rule",
        Place::Ending => key == "reason",
        Place::Other => false,
    };
    match item {
        // (`found` leaves a string there, so that a result whose words'
        // place holds anything but a string decides otherwise.)
        Value::String(text) if worded => found(at, text),
        Value::Array(steps) if STEPS.contains(&key) => {
            for (i, step) in steps.iter_mut().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                walk(step, at, Place::Step, found);
                at.truncate(len);
            }
        }
        _ => {
            let inner = match (place, key) {
                (Place::Result, "ending") => Place::Ending,
                _ => Place::Other,
            };
            walk(item, at, inner, found);
        }
    }
    at.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn placed(result: &Value) -> Vec<String> {
        words(result).into_iter().map(|(at, _)| at).collect()
    }

    /// The words of each kind of result are where the module's docs say,
    /// and nothing else is.
    #[test]
    fn the_words_are_the_steps_texts_a_rolls_text_and_an_ending_reason() {
        // A dice roll.
        let roll = json!({"expression": "2d6", "total": 7, "text": "2d6 = [1, 6] = 7",
                          "dice": [{"die": "d6", "faces": [{"face": 1, "value": 1}]}],
                          "terms": [{"expression": "2d6", "total": 7}]});
        assert_eq!(placed(&roll), ["result.text"]);
        // A contest: its steps and each side's; an effect's text is not
        // words (its faces are only there).
        let contest = json!({"sides": [
            {"outcome": "success", "total": 17, "transcript": [{"rule": "r", "text": "a"}],
             "effect": {"expression": "1d6", "total": 3, "text": "1d6 = [3] = 3"}},
            {"outcome": "failure", "total": 9, "transcript": [{"rule": "r", "text": "b"}]}],
            "transcript": [{"rule": "r", "text": "c"}], "winner": "first"});
        assert_eq!(
            placed(&contest),
            [
                "result.sides[0].transcript[0].rule",
                "result.sides[0].transcript[0].text",
                "result.sides[1].transcript[0].rule",
                "result.sides[1].transcript[0].text",
                "result.transcript[0].rule",
                "result.transcript[0].text",
            ]
        );
        // A fight's step: its lines' texts and rules, its ending's reason;
        // not its faces, state, checks or winner.
        let step = json!({"lines": [{"turn": 1, "round": 1, "text": "A hits B", "faces": [1, 2, 3]},
                                    {"turn": 1, "round": 1, "text": "B falls", "rule": "mls, X"}],
                          "state": {"combatants": [{"name": "B", "chp": -1, "state": "dead"}]},
                          "ending": {"winner": "A", "turns": 1, "reason": "B is down"},
                          "checks": [{"combatant": "A", "trait": "sword", "why": "turn 1"}],
                          "over": true});
        assert_eq!(
            placed(&step),
            [
                "result.ending.reason",
                "result.lines[0].text",
                "result.lines[1].rule",
                "result.lines[1].text",
            ]
        );
        // A sheet: its TOML and its rolls are what the dice decided.
        let sheet = json!({"name": "Brana", "sheet": "thp = 11\n", "rolled": ["THP 11 [3d6 = [4, 2, 5] = 11]"]});
        assert!(placed(&sheet).is_empty());
    }

    /// Every value but the words decides: a face, a total, an outcome, a
    /// step's faces, a step more or less, a `text` that is not a string.
    #[test]
    fn every_value_but_the_words_decides() {
        let check = json!({"dice": [{"die": "d20", "face": 3}], "natural": 3, "total": 3,
                           "outcome": "failure",
                           "transcript": [{"rule": "F-1", "text": "natural 3 = 3 against DC 10"}]});
        let base = split(&check);
        let mut reworded = check.clone();
        reworded["transcript"][0]["text"] = json!("natural 3 + 0 = 3 against DC 10");
        reworded["transcript"][0]["rule"] = json!("F-2");
        assert_eq!(split(&reworded).decided, base.decided);
        assert_eq!(
            split(&reworded).words,
            ["F-2", "natural 3 + 0 = 3 against DC 10"]
        );
        let forges: [fn(&mut Value); 7] = [
            |v: &mut Value| v["dice"][0]["face"] = json!(4),
            |v: &mut Value| v["total"] = json!(4),
            |v: &mut Value| v["outcome"] = json!("success"),
            |v: &mut Value| v["transcript"][0]["text"] = json!(null),
            |v: &mut Value| v["transcript"][0]["faces"] = json!([3]),
            |v: &mut Value| {
                v["transcript"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"rule": "F-1", "text": ""}))
            },
            |v: &mut Value| v["text"] = json!(3),
        ];
        for forge in forges {
            let mut forged = check.clone();
            forge(&mut forged);
            assert_ne!(split(&forged).decided, base.decided, "{forged}");
        }
    }

    /// A played fight's decisions waited for are compared without their
    /// ids (earlier versions did not write them), and only those.
    #[test]
    fn the_ids_of_the_decisions_waited_for_are_left_out() {
        let with = json!({"waiting": {"id": "t1r0-A-timing-1", "who": "A", "kind": "timing"},
                          "also_waiting": [{"id": "t1r0-B-timing-1", "who": "B", "kind": "timing"}],
                          "lines": [], "over": false});
        let without = json!({"waiting": {"who": "A", "kind": "timing"},
                             "also_waiting": [{"who": "B", "kind": "timing"}],
                             "lines": [], "over": false});
        assert_eq!(split(&with).decided, split(&without).decided);
        let mut other = without.clone();
        other["waiting"]["who"] = json!("B");
        assert_ne!(split(&other).decided, split(&without).decided);
    }
}
