//! Rooms: create one (becoming its GM), join one with its invite, read one.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::extract::{ClientAddress, InRoom};
use crate::fair;
use crate::state::AppState;
use crate::store::{Draft, Role, Room};

/// `POST /api/rooms`: `{"name"?}`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRoom {
    #[serde(default)]
    pub name: Option<String>,
}

fn entropy(error: getrandom::Error) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "entropy",
        format!("the operating system gave no random bytes: {error}"),
    )
}

/// Creates a room: its id, the GM's key, the invite code and the first
/// epoch's commitment. Keys and the invite are shown here once and stored
/// only as hashes.
pub async fn create(
    State(state): State<AppState>,
    address: ClientAddress,
    body: Result<Option<Json<CreateRoom>>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    address.limit_rooms(&state)?;
    let request = body?.map(|Json(b)| b).unwrap_or_default();
    let name = match request.name {
        Some(name) => super::display_name(&name, "name")?,
        None => "Table".to_string(),
    };
    let id = fair::random_token(8).map_err(entropy)?;
    let gm_key = fair::random_token(32).map_err(entropy)?;
    let invite = fair::random_token(16).map_err(entropy)?;
    let seed = fair::fresh_seed().map_err(entropy)?;
    let commitment = fair::commitment(&seed);
    let room = Room {
        id: id.clone(),
        name: name.clone(),
        invite_hash: fair::sha256_hex(invite.as_bytes()),
        epoch: 0,
        seed,
    };
    let first = Draft {
        kind: "room",
        epoch: 0,
        secret: false,
        body: json!({"kind": "room", "room": id, "name": name, "epoch": 0, "commitment": commitment}),
        thread: None,
        roller: None,
    };
    let event = state
        .store
        .create_room(&room, &fair::sha256_hex(gm_key.as_bytes()), first)
        .await?;
    state.hub.publish(event);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "room": id,
            "name": name,
            "gm_key": gm_key,
            "invite": invite,
            "epoch": 0,
            "commitment": commitment,
        })),
    ))
}

/// `POST /api/rooms/{room}/join`: `{"invite", "name"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub invite: String,
    pub name: String,
}

/// Joins a room as a player: a new player key, shown once.
pub async fn join(
    State(state): State<AppState>,
    address: ClientAddress,
    Path(room_id): Path<String>,
    body: Result<Json<Join>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    address.limit_joins(&state)?;
    let Json(request) = body?;
    let name = super::display_name(&request.name, "name")?;
    let room = state.store.room(&room_id).await?;
    let Some(room) = room.filter(|r| r.invite_hash == fair::sha256_hex(request.invite.as_bytes()))
    else {
        // The same answer for a wrong room and a wrong invite: nothing to probe.
        return Err(ApiError::forbidden("no room with this id and invite"));
    };
    crate::extract::limit_room_joins(&state, &room.id)?;
    let key = fair::random_token(32).map_err(entropy)?;
    let draft = Draft {
        kind: "join",
        epoch: room.epoch,
        secret: false,
        body: json!({"kind": "join", "name": name, "role": Role::Player.as_str()}),
        thread: None,
        roller: None,
    };
    let (member, event) = state
        .store
        .join(&room.id, &name, &fair::sha256_hex(key.as_bytes()), draft)
        .await?;
    let seq = event.seq;
    state.hub.publish(event);
    Ok((
        StatusCode::CREATED,
        Json(
            json!({"room": room.id, "member": member.id, "name": name, "player_key": key, "seq": seq}),
        ),
    ))
}

/// `GET /api/rooms/{room}`: the room, its members, the current epoch's
/// commitment, its latest event (`last_seq`, `last_hash`: what `nutshell
/// verify --head` checks an export against) and who the caller is.
pub async fn show(
    State(state): State<AppState>,
    InRoom(me): InRoom,
) -> Result<Json<Value>, ApiError> {
    let room = state
        .store
        .room(&me.room)
        .await?
        .ok_or_else(|| ApiError::not_found("no such room"))?;
    let members: Vec<Value> = state
        .store
        .members(&room.id)
        .await?
        .into_iter()
        .map(|m| json!({"id": m.id, "name": m.name, "role": m.role.as_str()}))
        .collect();
    let next = state.store.next_seq(&room.id).await?;
    let last_hash = state
        .store
        .event(&room.id, next - 1)
        .await?
        .map(|event| event.hash);
    Ok(Json(json!({
        "room": room.id,
        "name": room.name,
        "epoch": room.epoch,
        "commitment": fair::commitment(&room.seed),
        "last_seq": next - 1,
        "last_hash": last_hash,
        "members": members,
        "you": {"id": me.id, "name": me.name, "role": me.role.as_str()},
    })))
}
