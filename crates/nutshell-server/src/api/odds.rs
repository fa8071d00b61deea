//! Exact odds of an expression, under the server's limits: computed on the
//! pool for long work ([`crate::work`]), and answered only when the answer
//! fits [`AnswerLimits`].

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use nutshell_dice::Expression;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::extract::InRoom;
use crate::limits::AnswerLimits;
use crate::state::AppState;

/// `POST /api/rooms/{room}/odds`: `{"expression"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsRequest {
    pub expression: String,
}

fn answer_too_large(what: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "answer_too_large", what)
}

/// The exact distribution of an expression, in the shape of `nutshell odds
/// --json`, each outcome with its probability as a fraction and as a float
/// (`p`) for charts. The engine's `max_work` bounds the time (over it: 422
/// `too_costly`); an answer of more outcomes or bytes than
/// [`AnswerLimits`] allows is 422 `answer_too_large`, found while it is
/// written, so it never takes more memory than the limit.
pub async fn odds(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<OddsRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let limits = state.limits.clone();
    let answer = state.answer.clone();
    let text = state
        .pool
        .run(&me.room, move |_cancel| {
            odds_answer(&request.expression, &limits, &answer)
        })
        .await??;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The answer's JSON text for `text`, or why there is none.
fn odds_answer(
    text: &str,
    limits: &nutshell_dice::Limits,
    answer: &AnswerLimits,
) -> Result<String, ApiError> {
    let expr = Expression::parse_with(text, limits)
        .map_err(|e| ApiError::bad_request("bad_expression", e.render(text)))?;
    let dist = expr.distribution().map_err(|e| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_costly",
            e.render(text),
        )
    })?;
    let outcomes = dist.outcomes();
    if outcomes.len() > answer.max_outcomes {
        return Err(answer_too_large(format!(
            "`{text}` has {} outcomes; this server answers at most {} (ask the command line, `nutshell odds`, for more)",
            outcomes.len(),
            answer.max_outcomes
        )));
    }
    let mut writer = dist.fraction_writer();
    let mut digits = Vec::new();
    let mut fraction = |weight: &num_bigint::BigUint| {
        digits.clear();
        writer.write(weight, &mut digits);
        String::from_utf8_lossy(&digits).into_owned()
    };
    let over = |bytes: usize| {
        answer_too_large(format!(
            "the odds of `{text}` take over {bytes} bytes to write; this server answers at most {} (ask the command line, `nutshell odds`, for more)",
            answer.max_bytes
        ))
    };
    let mut out = String::from("{\"distribution\":[");
    for (index, (value, weight)) in outcomes.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let row = json!({"value": value, "probability": fraction(weight), "p": dist.float(weight)});
        out.push_str(&row.to_string());
        if out.len() > answer.max_bytes {
            return Err(over(out.len()));
        }
    }
    let rest = json!({
        "expression": expr.normalized(),
        "mean": nutshell_dice::exact::ratio_to_f64(&dist.mean()),
        "std_dev": dist.std_dev(),
        "tail": fraction(dist.tail_weight()),
    });
    out.push_str("],");
    // The other fields, without their object's braces.
    let rest = rest.to_string();
    out.push_str(&rest[1..]);
    if out.len() > answer.max_bytes {
        return Err(over(out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer is the JSON it always was; too many outcomes or bytes are
    /// refused with the limit named.
    #[test]
    fn answers_within_the_limits_and_refuses_past_them() {
        let limits = nutshell_dice::Limits::default();
        let text = odds_answer("2d6", &limits, &AnswerLimits::default()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["expression"], "2d6");
        assert_eq!(value["distribution"].as_array().unwrap().len(), 11);
        assert_eq!(value["distribution"][5]["probability"], "1/6");
        assert_eq!(value["mean"], 7.0);
        assert_eq!(value["tail"], "0");
        let few = AnswerLimits {
            max_outcomes: 10,
            max_bytes: 1 << 20,
        };
        let error = odds_answer("2d6", &limits, &few).unwrap_err();
        assert_eq!(error.code, "answer_too_large");
        assert!(error.message.contains("11 outcomes"), "{}", error.message);
        let small = AnswerLimits {
            max_outcomes: 10_000,
            max_bytes: 300,
        };
        let error = odds_answer("2d6", &limits, &small).unwrap_err();
        assert_eq!(error.code, "answer_too_large");
        assert!(error.message.contains("at most 300"), "{}", error.message);
        assert!(text.len() > 300);
    }
}
