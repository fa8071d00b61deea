//! `POST /api/rooms/{room}/fights`: an MLS fight between two sides, fought
//! to the end with verifiable dice; the answer and the event carry the whole
//! log, turn by turn and round by round (`nutshell mls fight --json`).

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use serde_json::{Value, json};

use super::checks::split;
use crate::app::{ApiError, AppState, InRoom};
use crate::fight::FightRequest;

/// Fights `{"a": TOML, "b": TOML, "distance"?, "surprised"?, "max_turns"?}`
/// (plus `client_seed`, `secret`).
pub async fn fight(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(body) = body?;
    let (fields, request): (_, FightRequest) = split(body, "fight")?;
    fields.refuse_odds(
        "bad_fight",
        "a fight has no exact odds: `nutshell mls simulate` estimates them",
    )?;
    request
        .build()
        .map_err(|e| ApiError::bad_request("bad_fight", e))?;
    let committed = fields
        .commit(&state, &me, request.text(), "bad_fight")
        .await?;
    let mut answer = committed.answer();
    answer["request"] = json!(request);
    Ok((StatusCode::CREATED, Json(answer)))
}
