//! Checks and contests of the five rulesets, rolled with verifiable dice.
//!
//! The body is `nutshell check`'s (or `nutshell contest`'s) options as JSON,
//! tagged by `ruleset`, with the command line's names (`--crit-success` is
//! `crit_success`; a repeatable option takes a number or a list), plus the
//! roll's own fields: `client_seed`, `secret` and `odds` (add the exact odds
//! of every outcome to the answer). For example
//! `{"ruleset": "fantasy", "mod": 5, "dc": "hard", "crit_success": true}`.
//!
//! The event is a roll whose action is [`Action::Check`] (or
//! [`Action::Contest`]) holding the request, so `nutshell verify` recomputes
//! a check exactly as it recomputes dice.

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use nutshell_rules::request::{CheckRequest, ContestRequest};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::rolls::{Committed, commit};
use crate::action::Action;
use crate::error::ApiError;
use crate::extract::InRoom;
use crate::state::AppState;
use crate::store::Member;

/// The fields a check or contest body carries besides the request.
pub(crate) struct RollFields {
    pub client_seed: String,
    pub secret: bool,
    pub odds: bool,
    /// The commitment of the epoch the client means, if it said.
    pub commitment: Option<String>,
}

/// Splits the body into the roll's fields and the request, refusing a
/// field of the wrong type with its name.
pub(crate) fn split<T: DeserializeOwned>(
    body: Value,
    what: &'static str,
) -> Result<(RollFields, T), ApiError> {
    let Value::Object(mut object) = body else {
        return Err(ApiError::bad_request(
            "bad_json",
            format!("the {what} must be a JSON object"),
        ));
    };
    let client_seed = match object.remove("client_seed") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s,
        Some(_) => return Err(field_type("client_seed", "a string")),
    };
    let secret = flag(&mut object, "secret")?;
    let commitment = match object.remove("commitment") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err(field_type("commitment", "a string")),
    };
    let odds = flag(&mut object, "odds")?;
    let code = match what {
        "check" => "bad_check",
        "contest" => "bad_contest",
        "sheet" => "bad_sheet",
        "advance" => "bad_advance",
        _ => "bad_fight",
    };
    let own: &[&str] = match what {
        "check" | "contest" => &["client_seed", "secret", "odds", "commitment"],
        "fight" => &[
            "run",
            "client_seed",
            "secret",
            "commitment",
            "played",
            "control",
            "decision_seconds",
        ],
        "sheet" => &["client_seed", "secret", "commitment"],
        _ => &["client_seed", "commitment"],
    };
    let request: T = serde_json::from_value(Value::Object(object)).map_err(|e| {
        ApiError::bad_request(code, format!("the {what}: {}", with_own_fields(&e, own)))
    })?;
    Ok((
        RollFields {
            client_seed,
            secret,
            odds,
            commitment,
        },
        request,
    ))
}

impl RollFields {
    /// Commits `action` with these fields (`client_seed`, `secret`);
    /// `code` names a refusal.
    pub(crate) async fn commit(
        self,
        state: &AppState,
        me: &Member,
        action: Action,
        code: &'static str,
    ) -> Result<Committed, ApiError> {
        commit(
            state,
            me,
            action,
            self.client_seed,
            self.secret,
            self.commitment,
            code,
        )
        .await
    }

    /// Refuses `"odds": true` for a roll that has no exact odds, saying why.
    pub(crate) fn refuse_odds(&self, code: &'static str, why: &str) -> Result<(), ApiError> {
        if self.odds {
            return Err(ApiError::bad_request(code, why.to_string()));
        }
        Ok(())
    }
}

/// A deserializing error, its list of the fields allowed (serde's "unknown
/// field `x`, expected one of ...") completed with the body's `own` fields
/// taken out before the request was read (`client_seed`, `secret`, ...).
pub(crate) fn with_own_fields(error: &serde_json::Error, own: &[&str]) -> String {
    let text = error.to_string();
    let Some(rest) = text.strip_prefix("unknown field `") else {
        return text;
    };
    let Some((unknown, expected)) = rest.split_once('`') else {
        return text;
    };
    let mut fields: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    for field in own {
        if !fields.contains(field) {
            fields.push(field);
        }
    }
    let list: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
    format!(
        "unknown field `{unknown}`; the fields are {}",
        list.join(", ")
    )
}

pub(crate) fn flag(object: &mut Map<String, Value>, name: &str) -> Result<bool, ApiError> {
    match object.remove(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(field_type(name, "true or false")),
    }
}

fn field_type(name: &str, expected: &str) -> ApiError {
    ApiError::bad_request("bad_json", format!("`{name}` must be {expected}"))
}

/// A rules error in a JSON request's words: the rules name the command
/// line's options (`--dc`, `--crit-success`); the body's fields are `dc`
/// and `crit_success`. `--dc hard:` becomes `` `dc` "hard": `` and
/// `(--dc N)` becomes `` (`dc`: a number) ``; text in single quotes (a
/// tiered-d20 `then`, itself written as options) is left as it is.
///
/// ```text
/// --dc medium: expected a whole number or a descriptor (laughable, ...)
/// `dc` "medium": expected a whole number or a descriptor (laughable, ...)
/// ```
pub(crate) fn json_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    let mut rest = message;
    while let Some(c) = rest.chars().next() {
        // A quote opens after a space (an apostrophe, as in "opponent's",
        // does not).
        if c == '\'' {
            quoted = !quoted && (out.is_empty() || out.ends_with([' ', '(']));
        }
        let flag = rest.strip_prefix("--").filter(|r| {
            !quoted
                && r.starts_with(|c: char| c.is_ascii_lowercase())
                && !out.ends_with(|c: char| c.is_alphanumeric())
        });
        let Some(after) = flag else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        let name = after[..end].trim_end_matches('-');
        out.push('`');
        out.push_str(&name.replace('-', "_"));
        out.push('`');
        rest = &after[name.len()..];
        if let Some(r) = rest.strip_prefix(" N)") {
            out.push_str(": a number)");
            rest = r;
        } else if let Some((value, r)) = rest
            .strip_prefix(' ')
            .and_then(|r| r.split_once(':'))
            .filter(|(v, _)| !v.is_empty() && !v.contains(' ') && !v.starts_with('\''))
        {
            if value.parse::<f64>().is_ok() {
                out.push_str(&format!(" {value}:"));
            } else {
                out.push_str(&format!(" {value:?}:"));
            }
            rest = r;
        }
    }
    out
}

/// What the check and contest routes share: validating, the exact odds,
/// the action.
trait RulesRoll: serde::Serialize + DeserializeOwned {
    /// `check` or `contest`: the body's name in errors.
    const WHAT: &'static str;
    /// The error code of a refusal.
    const CODE: &'static str;
    fn validate(&self) -> Result<(), nutshell_rules::RulesError>;
    fn odds_json(&self) -> Result<Value, nutshell_rules::RulesError>;
    fn action(&self) -> Action;
}

impl RulesRoll for CheckRequest {
    const WHAT: &'static str = "check";
    const CODE: &'static str = "bad_check";
    fn validate(&self) -> Result<(), nutshell_rules::RulesError> {
        CheckRequest::validate(self)
    }
    fn odds_json(&self) -> Result<Value, nutshell_rules::RulesError> {
        Ok(serde_json::to_value(self.odds()?).unwrap_or(Value::Null))
    }
    fn action(&self) -> Action {
        Action::Check {
            request: self.clone(),
        }
    }
}

impl RulesRoll for ContestRequest {
    const WHAT: &'static str = "contest";
    const CODE: &'static str = "bad_contest";
    fn validate(&self) -> Result<(), nutshell_rules::RulesError> {
        ContestRequest::validate(self)
    }
    fn odds_json(&self) -> Result<Value, nutshell_rules::RulesError> {
        Ok(serde_json::to_value(self.odds()?).unwrap_or(Value::Null))
    }
    fn action(&self) -> Action {
        Action::Contest {
            request: self.clone(),
        }
    }
}

/// Rolls a check or a contest: validated (nothing written when refused),
/// committed, answered with the result, the request and, when asked, the
/// exact odds of every outcome.
async fn roll_rules<R: RulesRoll>(
    state: AppState,
    me: Member,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(body) = body?;
    let (fields, request): (RollFields, R) = split(body, R::WHAT)?;
    let bad =
        |e: nutshell_rules::RulesError| ApiError::bad_request(R::CODE, json_words(&e.to_string()));
    request.validate().map_err(bad)?;
    let odds = if fields.odds {
        Some(request.odds_json().map_err(bad)?)
    } else {
        None
    };
    let committed = fields
        .commit(&state, &me, request.action(), R::CODE)
        .await?;
    let mut answer = committed.answer();
    answer["request"] = json!(request);
    if let Some(odds) = odds {
        answer["odds"] = odds;
    }
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `POST /api/rooms/{room}/checks`: rolls a check (or a tiered-d20 turn)
/// and answers `nutshell check --json`'s result with the event's fields.
pub async fn check(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    roll_rules::<CheckRequest>(state, me, body).await
}

/// `POST /api/rooms/{room}/contests`: rolls a contest and answers `nutshell
/// contest --json`'s result with the event's fields.
pub async fn contest(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    roll_rules::<ContestRequest>(state, me, body).await
}

#[cfg(test)]
mod tests {
    use super::json_words;

    /// Issue 26, item 5: a form's error names the JSON field, never the
    /// command line's flag.
    #[test]
    fn rules_errors_name_the_json_fields() {
        assert_eq!(
            json_words("--dc medium: expected a whole number or a descriptor (laughable, trivial)"),
            "`dc` \"medium\": expected a whole number or a descriptor (laughable, trivial)"
        );
        assert_eq!(
            json_words("fantasy needs the DC (--dc N)"),
            "fantasy needs the DC (`dc`: a number)"
        );
        assert_eq!(
            json_words("--take 5: a result of 0, 10 or 20 can be taken"),
            "`take` 5: a result of 0, 10 or 20 can be taken"
        );
        assert_eq!(
            json_words("--cancel-reroll cancels a forced reroll: give --forced-reroll too"),
            "`cancel_reroll` cancels a forced reroll: give `forced_reroll` too"
        );
        // A tiered-d20 `then` is written as options: left as it is.
        assert_eq!(
            json_words("--then '--skill 3 --dc x': expected SKILL:DC"),
            "`then` '--skill 3 --dc x': expected SKILL:DC"
        );
        assert_eq!(
            json_words("the opponent's --vs-skill"),
            "the opponent's `vs_skill`"
        );
        // Dashes that are not a flag stay.
        assert_eq!(json_words("2--3 and a -- b"), "2--3 and a -- b");
    }
}
