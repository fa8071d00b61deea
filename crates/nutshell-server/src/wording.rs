//! The words earlier versions wrote in a result's texts, mapped to today's,
//! so that `nutshell verify` recomputes an old roll with today's rules and
//! still compares it exactly: a recorded result and a recomputed one are
//! compared after both pass through [`comparable`].
//!
//! Only the `text` of a transcript's steps is mapped, and only by the
//! rewrites listed here, each of a wording that said nothing more than
//! today's: every face, total, outcome and every other word still has to
//! match. Today's texts contain none of the old wordings, so they pass
//! through unchanged.
//!
//! | written until | today |
//! |---|---|
//! | `natural 9 + 0 = 9 against DC 10` (fantasy) | `natural 9 = 9 against DC 10` |
//! | `3d6 6 + skill 12 + 0 = 18: success` (mls) | `3d6 6 + skill 12 = 18: success` |
//! | `dice [5, 1, 3] = 9, +0 = 9` (favor-3d6) | `dice [5, 1, 3] = 9` |
//! | a played fight's `waiting` without `id` | `waiting` with the decision's `id` (compared without it) |
//!
//! ```
//! use nutshell_server::wording::comparable;
//! use serde_json::json;
//! let old = json!({"transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 + 0 = 18: success"}]});
//! let new = json!({"transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 = 18: success"}]});
//! assert_eq!(comparable(&old), comparable(&new));
//! // Any other difference still shows.
//! let forged = json!({"transcript": [{"rule": "mls", "text": "3d6 6 + skill 12 = 19: success"}]});
//! assert_ne!(comparable(&forged), comparable(&new));
//! ```

use serde_json::Value;

/// `result` with every `text` string of it in today's wording.
pub fn comparable(result: &Value) -> Value {
    let mut result = result.clone();
    rewrite(&mut result);
    result
}

fn rewrite(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, item) in object.iter_mut() {
                match item {
                    Value::String(text) if key == "text" => {
                        if let Some(today) = today(text) {
                            *text = today;
                        }
                    }
                    // A played fight's decisions awaited: their `id`, which
                    // earlier versions did not write, follows from the rest
                    // (the turn, round, combatant, kind and the decisions
                    // made before), so it is left out of the comparison.
                    Value::Object(d) if key == "waiting" => {
                        d.remove("id");
                    }
                    Value::Array(ds) if key == "also_waiting" => {
                        for d in ds.iter_mut().filter_map(Value::as_object_mut) {
                            d.remove("id");
                        }
                    }
                    _ => rewrite(item),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}

/// The text in today's wording, when it is in an earlier one.
fn today(text: &str) -> Option<String> {
    if text.contains(" + 0 = ") {
        return Some(text.replace(" + 0 = ", " = "));
    }
    // favor-3d6: `..., +0 = N` where N repeats the sum before it.
    let (head, tail) = text.split_once(", +0 = ")?;
    let (_, sum) = head.rsplit_once(" = ")?;
    let end = tail
        .find(|c: char| !c.is_ascii_digit() && c != '-')
        .unwrap_or(tail.len());
    (tail[..end] == *sum).then(|| format!("{head}{}", &tail[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_earlier_wording_reads_as_today_and_nothing_else_changes() {
        for (old, new) in [
            (
                "natural 9 + 0 = 9 against DC 10",
                "natural 9 = 9 against DC 10",
            ),
            (
                "confirmation: natural 14 + 0 = 14 against DC 12: success",
                "confirmation: natural 14 = 14 against DC 12: success",
            ),
            (
                "3d6 6 + skill 12 + 0 = 18: success",
                "3d6 6 + skill 12 = 18: success",
            ),
            ("A: dice [5, 1, 3] = 9, +0 = 9", "A: dice [5, 1, 3] = 9"),
        ] {
            assert_eq!(today(old).as_deref(), Some(new), "{old}");
            assert_eq!(today(new), None, "{new} is today's");
        }
        // A sum that is not repeated is not an earlier wording.
        assert_eq!(today("dice [5, 1, 3] = 9, +0 = 10"), None);
        // Only texts: a `+ 0 = ` elsewhere is compared as it is.
        let value = json!({"expression": "1d6 + 0 = 3", "sides": [{"transcript": [{"text": "natural 2 + 0 = 2 against DC 1"}]}]});
        let mapped = comparable(&value);
        assert_eq!(mapped["expression"], "1d6 + 0 = 3");
        assert_eq!(
            mapped["sides"][0]["transcript"][0]["text"],
            "natural 2 = 2 against DC 1"
        );
    }
}
