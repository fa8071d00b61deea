//! Exact odds of an expression, under the engine's limits.

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use nutshell_dice::Expression;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{ApiError, AppState, InRoom};

/// `POST /api/rooms/{room}/odds`: `{"expression"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsRequest {
    pub expression: String,
}

/// The exact distribution of an expression, in the shape of `nutshell odds
/// --json`, each outcome with its probability as a fraction and as a float
/// (`p`) for charts. The engine's `max_work` bounds the time; a request over
/// it gets 422 and the reason.
pub async fn odds(
    State(state): State<AppState>,
    InRoom(_me): InRoom,
    body: Result<Json<OddsRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body?;
    let limits = state.limits.clone();
    tokio::task::spawn_blocking(move || {
        let text = &request.expression;
        let expr = Expression::parse_with(text, &limits)
            .map_err(|e| ApiError::bad_request("bad_expression", e.render(text)))?;
        let dist = expr.distribution().map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "too_costly",
                e.render(text),
            )
        })?;
        let mut writer = dist.fraction_writer();
        let mut fraction = |weight: &num_bigint::BigUint| {
            let mut text = Vec::new();
            writer.write(weight, &mut text);
            String::from_utf8(text).unwrap_or_default()
        };
        let outcomes: Vec<Value> = dist
            .outcomes()
            .iter()
            .map(|(value, weight)| {
                json!({"value": value, "probability": fraction(weight), "p": dist.float(weight)})
            })
            .collect();
        Ok(Json(json!({
            "expression": expr.normalized(),
            "distribution": outcomes,
            "mean": nutshell_dice::exact::ratio_to_f64(&dist.mean()),
            "std_dev": dist.std_dev(),
            "tail": fraction(dist.tail_weight()),
        })))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?
}
