//! The handlers, one module per resource.
//!
//! # In detail
//!
//! One module per resource (`simulate`: many fights of a setting in a
//! blocking task under a trial and time limit, writing nothing); handlers
//! parse, check and call the store; every dice-drawing event is built by
//! `rolls::RollPlan` from one `Action` (committed by `rolls::commit`, or
//! appended to a thread), each route making only its own kind; a player's
//! request about an event they may not see is answered as about no event
//! (`api::own_thread`); `api::cache` keeps fights between steps in memory
//! (`fight::Running`: stepped, or played; the last eight to end beside them),
//! only ever a copy of what the events say; `api::fight_thread`, below both
//! `api::fights` and `api::played`, writes a fight's first event and rebuilds
//! a fight from its events when it is not kept, replaying on the pool for
//! long work, never on a thread answering requests; `api::played`: fights
//! played by their players (an answer names its decision's `id`; the engine's
//! runs computed on the pool for long work outside the write transaction from
//! the epoch and count read ahead, at most `ROUNDS_PER_EVENT` rounds an
//! event; `settle` makes a fight not over that awaits nobody go on; only the
//! GM drafts) (who controls whom, `GET /fights/{fight}` showing a decision's
//! options only to its controller and the round so far (`Play::so_far`) to
//! everyone who may see the fight, `POST .../decisions` answering it as a
//! `fight-decision` event that runs the fight to the next person's decision,
//! `POST .../control` as a `fight-control` event; every decision awaited is
//! listed, and any may be answered while it has been awaited since the step
//! the answer quotes (`fight::Since`, rebuilt with the fight), a write that
//! lost the race for the thread's head read again and retried; each
//! decision's time kept by a timer in the process that wrote the event after
//! which it was first awaited, checked again by every reader of the fight,
//! and armed for every played fight in progress by a server starting,
//! `arm_all`)

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
