//! Rolls with verifiable dice, secret GM rolls, and the reveals that make
//! them checkable.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{ApiError, AppState, Gm, InRoom};
use crate::fair::{self, RollRecord};
use crate::store::{Draft, Role};

/// The longest client seed accepted, in bytes.
pub const MAX_CLIENT_SEED: usize = 256;

/// `POST /api/rooms/{room}/rolls`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollRequest {
    /// The dice expression, in nutshell's notation.
    pub expression: String,
    /// The client's own seed: any text up to 256 bytes, mixed into the dice
    /// so the server cannot choose them alone.
    #[serde(default)]
    pub client_seed: String,
    /// A GM's roll that players see only as "the GM rolled in secret".
    #[serde(default)]
    pub secret: bool,
}

/// Rolls an expression. The answer is the committed event: the transcript
/// (`nutshell roll --json`) with the event's `seq`, `epoch`, hashes and the
/// epoch's `commitment`.
pub async fn roll(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<RollRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(request) = body?;
    if request.secret && me.role != Role::Gm {
        return Err(ApiError::forbidden("only the GM may roll in secret"));
    }
    if request.client_seed.len() > MAX_CLIENT_SEED {
        return Err(ApiError::bad_request(
            "bad_client_seed",
            format!(
                "`client_seed` is {} bytes; the most is {MAX_CLIENT_SEED}",
                request.client_seed.len()
            ),
        ));
    }
    let lock = state.hub.room_lock(&me.room);
    let _held = lock.lock().await;
    let room = state
        .store
        .room(&me.room)
        .await?
        .ok_or_else(|| ApiError::not_found("no such room"))?;
    let seq = state.store.next_seq(&room.id).await?;
    let record = RollRecord {
        room: &room.id,
        epoch: room.epoch,
        seq,
        roller: me.id,
        client_seed: &request.client_seed,
        expression: &request.expression,
    };
    let limits = state.limits.clone();
    let seed = room.seed;
    let record_owned = (
        room.id.clone(),
        request.client_seed.clone(),
        request.expression.clone(),
    );
    let report = tokio::task::spawn_blocking(move || {
        let record = RollRecord {
            room: &record_owned.0,
            epoch: record.epoch,
            seq: record.seq,
            roller: record.roller,
            client_seed: &record_owned.1,
            expression: &record_owned.2,
        };
        fair::roll(&seed, &record, &limits)
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?
    .map_err(|e| ApiError::bad_request("bad_expression", e.to_string()))?;
    let result = serde_json::to_value(&report)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    let body = json!({
        "kind": "roll",
        "roller": me.id,
        "name": me.name,
        "epoch": room.epoch,
        "client_seed": request.client_seed,
        "expression": request.expression,
        "secret": request.secret,
        "result": result,
    });
    let draft = Draft {
        kind: "roll",
        epoch: room.epoch,
        secret: request.secret,
        body,
    };
    let event = state.store.append(&room.id, draft).await?;
    let mut answer = result;
    answer["seq"] = json!(event.seq);
    answer["epoch"] = json!(event.epoch);
    answer["input"] = json!(request.expression);
    answer["client_seed"] = json!(request.client_seed);
    answer["secret"] = json!(request.secret);
    answer["roller"] = json!(me.id);
    answer["commitment"] = json!(fair::commitment(&room.seed));
    answer["body_hash"] = json!(event.body_hash);
    answer["hash"] = json!(event.hash);
    state.hub.publish(event);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `POST /api/rooms/{room}/reveal` (GM): ends the epoch, publishing its seed
/// (every roll of the epoch becomes verifiable and every secret roll of it
/// visible) and the commitment to the next epoch's fresh seed.
pub async fn reveal(State(state): State<AppState>, Gm(me): Gm) -> Result<Json<Value>, ApiError> {
    let lock = state.hub.room_lock(&me.room);
    let _held = lock.lock().await;
    let room = state
        .store
        .room(&me.room)
        .await?
        .ok_or_else(|| ApiError::not_found("no such room"))?;
    let next_seed = fair::fresh_seed()
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "entropy", e.to_string()))?;
    let body = json!({
        "kind": "reveal",
        "epoch": room.epoch,
        "seed": fair::hex(&room.seed),
        "next_epoch": room.epoch + 1,
        "commitment": fair::commitment(&next_seed),
    });
    let draft = Draft {
        kind: "reveal",
        epoch: room.epoch,
        secret: false,
        body: body.clone(),
    };
    let event = state
        .store
        .rotate(&room.id, room.epoch, &next_seed, draft)
        .await?;
    let mut answer = body;
    answer["seq"] = json!(event.seq);
    state.hub.publish(event);
    Ok(Json(answer))
}

/// `POST /api/rooms/{room}/rolls/{seq}/reveal` (GM): shows one secret roll
/// to everyone now; it becomes verifiable when its epoch's seed is revealed.
pub async fn show(
    State(state): State<AppState>,
    Gm(me): Gm,
    Path((_room, seq)): Path<(String, i64)>,
) -> Result<Json<Value>, ApiError> {
    let lock = state.hub.room_lock(&me.room);
    let _held = lock.lock().await;
    let event = state
        .store
        .event(&me.room, seq)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no event {seq} in this room")))?;
    if !event.secret {
        return Err(ApiError::bad_request(
            "not_secret",
            format!("event {seq} is not a secret roll"),
        ));
    }
    if event.shown {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "already_shown",
            format!("event {seq} is already shown"),
        ));
    }
    let room = state
        .store
        .room(&me.room)
        .await?
        .ok_or_else(|| ApiError::not_found("no such room"))?;
    let draft = Draft {
        kind: "show",
        epoch: room.epoch,
        secret: false,
        body: json!({"kind": "show", "of": seq}),
    };
    let shown = state.store.show(&me.room, seq, draft).await?;
    let answer = json!({"seq": shown.seq, "of": seq, "roll": event.body});
    state.hub.publish(shown);
    Ok(Json(answer))
}
