//! MLS character sheets in a room: made from a player's choices with
//! verifiable dice (`POST /sheets`), listed (`GET /sheets`), and any sheet
//! checked against every rule (`POST /sheets/check`).

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use nutshell_mls::character::validate::{parse_sheet, validate};
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::split;
use crate::app::{ApiError, AppState, InRoom};
use crate::events::view;
use crate::sheet::{MAX_CHOICES_BYTES, SHEET_PREFIX, SheetRequest};

/// `{"choices": TOML}` (plus `client_seed`, and `secret` for the GM's
/// characters): the new sheet, kept in the log as the caller's.
pub async fn create(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(body) = body?;
    let (fields, request): (_, SheetRequest) = split(body, "sheet")?;
    fields.refuse_odds("bad_sheet", "a sheet has no odds")?;
    request
        .parse()
        .map_err(|e| ApiError::bad_request("bad_sheet", e))?;
    let committed = fields
        .commit(&state, &me, request.text(), "bad_sheet")
        .await?;
    Ok((StatusCode::CREATED, Json(committed.answer())))
}

/// The sheets made in the room that the caller may see, oldest first: each
/// with its event's `seq`, the owner (`roller`, `owner`) and the sheet.
pub async fn list(
    State(state): State<AppState>,
    InRoom(me): InRoom,
) -> Result<Json<Value>, ApiError> {
    let pattern = format!("%\"expression\":\"{SHEET_PREFIX}%");
    let events = state.store.events_matching(&me.room, &pattern).await?;
    let sheets: Vec<Value> = events
        .iter()
        .map(|event| view(event, &me))
        .filter(|seen| !seen["body"].is_null())
        .map(|seen| {
            let body = &seen["body"];
            json!({
                "seq": seen["seq"],
                "roller": body["roller"],
                "owner": body["name"],
                "name": body["result"]["name"],
                "sheet": body["result"]["sheet"],
                "rolled": body["result"]["rolled"],
            })
        })
        .collect();
    Ok(Json(json!({"sheets": sheets})))
}

/// `POST /sheets/check`: `{"sheet": TOML}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSheet {
    pub sheet: String,
}

/// Checks a sheet against every cost and limit (`nutshell mls character
/// check --json`): `{"ok", "violations": [{field, line, problem, rule}]}`.
/// Nothing is written.
pub async fn check(
    InRoom(_me): InRoom,
    body: Result<Json<CheckSheet>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body?;
    if request.sheet.len() > MAX_CHOICES_BYTES * 4 {
        return Err(ApiError::bad_request(
            "bad_sheet",
            format!(
                "the sheet is {} bytes; the most is {}",
                request.sheet.len(),
                MAX_CHOICES_BYTES * 4
            ),
        ));
    }
    let sheet = parse_sheet("sheet", &request.sheet)
        .map_err(|e| ApiError::bad_request("bad_sheet", e.to_string()))?;
    let violations: Vec<Value> = validate(&sheet, Some(&request.sheet))
        .into_iter()
        .map(|v| json!({"field": v.field, "line": v.line, "problem": v.problem, "rule": v.rule}))
        .collect();
    Ok(Json(
        json!({"ok": violations.is_empty(), "name": sheet.name, "violations": violations}),
    ))
}
