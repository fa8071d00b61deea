//! The handlers, one module per resource.

pub mod cache;
pub mod checks;
pub mod fight_thread;
pub mod fights;
pub mod log;
pub mod odds;
pub mod played;
pub mod rolls;
pub mod rooms;
pub mod sheets;
pub mod simulate;

use axum::http::header;
use axum::response::IntoResponse;

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Event, Member, Role};

/// The OpenAPI description of every route.
pub async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("../openapi.json"),
    )
}

/// `{"ok": true, "version": "..."}`: the server is up.
pub async fn health() -> impl IntoResponse {
    axum::Json(serde_json::json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}))
}

/// Every unknown route.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such route: see /api/openapi.json")
}

/// Checks a display name ([`crate::names::check_name`]): 1 to 64
/// characters after trimming, nothing hidden or that turns text around.
pub(crate) fn display_name(name: &str, field: &str) -> Result<String, ApiError> {
    crate::names::check_name(name).map_err(|error| {
        ApiError::bad_request(
            "bad_name",
            format!(
                "`{field}` must be 1 to {} characters, each of them shown: {error}",
                crate::names::MAX_NAME_CHARS
            ),
        )
    })
}

/// An event's number in a path (`/fights/{fight}/step`), or a JSON error
/// naming the segment.
pub(crate) fn seq_param(text: &str, what: &str) -> Result<i64, ApiError> {
    text.parse::<i64>().map_err(|_| {
        ApiError::bad_request(
            "bad_path",
            format!("`{text}` is not a {what} number (the sequence number of its event)"),
        )
    })
}

/// A thread of events (a fight and its steps, a sheet and its advances) that
/// `me` may continue: its first event `id`, which `is_kind` accepts, started
/// by `me` or the GM (else `forbidden`), and its latest event. A missing
/// thread, one of another kind, and any event `me` may not see (a secret
/// event not shown, whatever it is) are all `missing`: one status and one
/// message, so the answer tells nothing about what a hidden event holds.
pub(crate) async fn own_thread(
    state: &AppState,
    me: &Member,
    id: i64,
    is_kind: impl Fn(&Event) -> bool,
    missing: impl Fn() -> ApiError,
    forbidden: impl FnOnce() -> String,
) -> Result<(Event, Event), ApiError> {
    let first = state
        .store
        .event(&me.room, id)
        .await?
        .filter(|e| crate::events::may_see(e, me) && is_kind(e))
        .ok_or_else(&missing)?;
    if first.body["roller"].as_i64() != Some(me.id) && me.role != Role::Gm {
        return Err(ApiError::forbidden(forbidden()));
    }
    let head = state
        .store
        .thread_head(&me.room, id)
        .await?
        .ok_or_else(missing)?;
    Ok((first, head))
}
