//! Rolls with verifiable dice, secret GM rolls, and the reveals that make
//! them checkable.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::action::Action;
use crate::error::ApiError;
use crate::extract::{Gm, InRoom};
use crate::fair;
use crate::replay;
use crate::state::AppState;
use crate::store::{AppendError, Draft, Event, Member, Role, Room, Slot};

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
    /// The commitment of the epoch the client means to roll in (as it last
    /// saw it): if the GM revealed meanwhile, the roll is refused (409)
    /// rather than made with the next epoch's seed.
    #[serde(default)]
    pub commitment: Option<String>,
}

/// Rolls an expression. The answer is the committed event: the transcript
/// (`nutshell roll --json`) with the event's `seq`, `epoch`, hashes and the
/// epoch's `commitment`. The event's action is always a roll: an
/// expression that does not parse as dice is refused, whatever it looks
/// like.
pub async fn roll(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<RollRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(request) = body?;
    let action = Action::Roll {
        expression: request.expression.clone(),
    };
    let committed = commit(
        &state,
        &me,
        action,
        request.client_seed,
        request.secret,
        request.commitment,
        "bad_expression",
    )
    .await?;
    let mut answer = committed.answer();
    answer["input"] = json!(request.expression);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// A roll of any kind, committed: the event, what was rolled and the
/// commitment of its epoch's seed.
/// The event itself goes to the room's readers; this keeps what the answer
/// names of it.
pub(crate) struct Committed {
    seq: i64,
    epoch: i64,
    secret: bool,
    body_hash: String,
    hash: String,
    result: Value,
    commitment: String,
    roller: i64,
    count: i64,
    client_seed: String,
}

impl Committed {
    /// The answer to the roller: the result's fields with the event's.
    pub(crate) fn answer(self) -> Value {
        let mut answer = self.result;
        answer["seq"] = json!(self.seq);
        answer["epoch"] = json!(self.epoch);
        answer["client_seed"] = json!(self.client_seed);
        answer["secret"] = json!(self.secret);
        answer["roller"] = json!(self.roller);
        answer["count"] = json!(self.count);
        answer["commitment"] = json!(self.commitment);
        answer["body_hash"] = json!(self.body_hash);
        answer["hash"] = json!(self.hash);
        answer
    }
}

/// An action about to be committed: who acts, the action, the client's
/// seed and whether it is secret (then its body carries a fresh nonce).
pub(crate) struct RollPlan {
    roller: i64,
    name: String,
    role: Role,
    action: Action,
    /// The action's canonical JSON: what the dice are keyed by.
    canonical: String,
    client_seed: String,
    secret: bool,
    nonce: Option<String>,
    /// The commitment of the epoch the client means, if it said.
    expect: Option<String>,
    /// The error code when the action cannot be performed.
    bad_code: &'static str,
    limits: nutshell_dice::Limits,
    /// Fields added to the event's body (an advance names its sheet).
    extra: serde_json::Map<String, Value>,
}

impl RollPlan {
    /// An action by `me`, refused at once (nothing written) when a player
    /// asks for secrecy or the client seed is too long.
    pub(crate) fn new(
        state: &AppState,
        me: &Member,
        action: Action,
        client_seed: String,
        secret: bool,
        bad_code: &'static str,
    ) -> Result<RollPlan, ApiError> {
        if secret && me.role != Role::Gm {
            return Err(ApiError::forbidden("only the GM may roll in secret"));
        }
        check_client_seed(&client_seed)?;
        let nonce = if secret { Some(nonce()?) } else { None };
        Ok(RollPlan {
            roller: me.id,
            name: me.name.clone(),
            role: me.role,
            canonical: action.canonical(),
            action,
            client_seed,
            secret,
            nonce,
            expect: None,
            bad_code,
            limits: state.limits.clone(),
            extra: serde_json::Map::new(),
        })
    }

    /// Refuses the action (409 `epoch_changed`) unless the room's epoch is
    /// still the one committed to `commitment`, when given.
    pub(crate) fn expecting(mut self, commitment: Option<String>) -> RollPlan {
        self.expect = commitment;
        self
    }

    /// Adds a field to the event's body.
    pub(crate) fn with(mut self, name: &str, value: Value) -> RollPlan {
        self.extra.insert(name.to_string(), value);
        self
    }

    /// The dice of this action in `room` at `slot`.
    pub(crate) fn dice(&self, room: &Room, slot: Slot) -> nutshell_dice::Seeded {
        let input = fair::DiceInput::new(
            &room.id,
            room.epoch,
            self.roller,
            slot.count,
            &self.client_seed,
            &self.canonical,
        );
        fair::dice(&room.seed, &input)
    }

    /// Performs the action with its dice in `room` at `slot` (on `fight`
    /// for a fight's step): its draft and result (nothing is written when
    /// the action cannot be performed).
    pub(crate) fn draft(
        &self,
        room: &Room,
        slot: Slot,
        fight: Option<&mut crate::fight::Running>,
    ) -> Result<(Draft, Value), ApiError> {
        if let Some(expected) = &self.expect
            && *expected != fair::commitment(&room.seed)
        {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "epoch_changed",
                format!(
                    "the epoch committed to {expected} has ended (the GM revealed its seed): nothing was rolled; roll again in epoch {}",
                    room.epoch
                ),
            ));
        }
        let mut dice = self.dice(room, slot);
        let result = replay::perform(&self.action, &mut dice, &self.limits, fight)
            .map_err(|e| ApiError::bad_request(self.bad_code, e.to_string()))?;
        let kind = self.action.event_kind();
        let mut body = json!({
            "kind": kind,
            "action": self.action.to_json(),
            "roller": self.roller,
            "name": self.name,
            "role": self.role.as_str(),
            "epoch": room.epoch,
            "count": slot.count,
            "client_seed": self.client_seed,
            "secret": self.secret,
        });
        // A clone of the value, not json!'s serialization of it again.
        body["result"] = result.clone();
        if let Some(nonce) = &self.nonce {
            body["nonce"] = json!(nonce);
        }
        for (name, value) in &self.extra {
            body[name] = value.clone();
        }
        let draft = Draft {
            kind,
            epoch: room.epoch,
            secret: self.secret,
            body,
            thread: None,
            roller: Some((self.roller, slot.count)),
        };
        Ok((draft, result))
    }

    /// The committed action, answered to its actor.
    pub(crate) fn committed(self, event: &Event, result: Value, commitment: String) -> Committed {
        Committed {
            seq: event.seq,
            epoch: event.epoch,
            secret: event.secret,
            body_hash: event.body_hash.clone(),
            hash: event.hash.clone(),
            count: event.body["count"].as_i64().unwrap_or(0),
            result,
            commitment,
            roller: self.roller,
            client_seed: self.client_seed,
        }
    }
}

/// A fresh nonce for a secret event, or 503 when the system has no entropy.
pub(crate) fn nonce() -> Result<String, ApiError> {
    fair::fresh_nonce()
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "entropy", e.to_string()))
}

/// Refuses a client seed over [`MAX_CLIENT_SEED`] bytes.
pub(crate) fn check_client_seed(client_seed: &str) -> Result<(), ApiError> {
    if client_seed.len() > MAX_CLIENT_SEED {
        return Err(ApiError::bad_request(
            "bad_client_seed",
            format!(
                "`client_seed` is {} bytes; the most is {MAX_CLIENT_SEED}",
                client_seed.len()
            ),
        ));
    }
    Ok(())
}

/// Commits a `roll` event of `action`, performed inside the write
/// transaction with the dice of the room's seed and the roller's count, and
/// publishes it. `bad_code` is the error code when the action cannot be
/// performed (nothing is written then).
pub(crate) async fn commit(
    state: &AppState,
    me: &Member,
    action: Action,
    client_seed: String,
    secret: bool,
    commitment: Option<String>,
    bad_code: &'static str,
) -> Result<Committed, ApiError> {
    let plan =
        RollPlan::new(state, me, action, client_seed, secret, bad_code)?.expecting(commitment);
    let (event, drafted) = state
        .store
        .append_with(&me.room, Some(me.id), move |room, slot| {
            plan.drafted(room, slot)
        })
        .await
        .map_err(refused)?;
    Ok(drafted.answered(&event))
}

/// An action drafted inside its write transaction, until its event is
/// committed: its result, the commitment of the room's seed then, its plan.
pub(crate) struct Drafted {
    result: Value,
    commitment: String,
    plan: RollPlan,
}

impl RollPlan {
    /// Drafts the action (on no fight) inside the write transaction: its
    /// draft, and what answers it once committed.
    pub(crate) fn drafted(self, room: &Room, slot: Slot) -> Result<(Draft, Drafted), ApiError> {
        let (draft, result) = self.draft(room, slot, None)?;
        let commitment = fair::commitment(&room.seed);
        Ok((
            draft,
            Drafted {
                result,
                commitment,
                plan: self,
            },
        ))
    }
}

impl Drafted {
    /// Sends an event committed outside the group-commit writer (a
    /// thread's) to the room's readers (moved, not copied) and keeps what
    /// the answer to the actor names of it.
    pub(crate) fn publish(self, state: &AppState, event: Event) -> Committed {
        let committed = self.answered(&event);
        state.hub.publish(event);
        committed
    }

    /// What the answer to the actor names of the committed event (the
    /// store has passed the event itself on to the room's readers).
    pub(crate) fn answered(self, event: &Event) -> Committed {
        self.plan.committed(event, self.result, self.commitment)
    }
}

/// `POST /api/rooms/{room}/reveal` (GM): ends the epoch, publishing its seed
/// (every roll of the epoch becomes verifiable and every secret roll of it
/// visible) and the commitment to the next epoch's fresh seed.
pub async fn reveal(State(state): State<AppState>, Gm(me): Gm) -> Result<Json<Value>, ApiError> {
    let next_seed = fair::fresh_seed()
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "entropy", e.to_string()))?;
    let event = state
        .store
        .rotate(&me.room, &next_seed, |room, _seq| {
            Ok::<_, ApiError>(Draft {
                kind: "reveal",
                epoch: room.epoch,
                secret: false,
                body: json!({
                    "kind": "reveal",
                    "epoch": room.epoch,
                    "seed": fair::hex(&room.seed),
                    "next_epoch": room.epoch + 1,
                    "commitment": fair::commitment(&next_seed),
                }),
                thread: None,
                roller: None,
            })
        })
        .await
        .map_err(refused)?;
    let mut answer = event.body.clone();
    answer["seq"] = json!(event.seq);
    state.hub.publish(event);
    Ok(Json(answer))
}

/// `POST /api/rooms/{room}/rolls/{seq}/reveal` (GM): shows one secret roll
/// to everyone now; it becomes verifiable when its epoch's seed is revealed.
pub async fn show(
    State(state): State<AppState>,
    Gm(me): Gm,
    Path((_room, seq)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let seq = super::seq_param(&seq, "roll")?;
    let (shown, target) = state
        .store
        .show(&me.room, seq, |room, target| {
            let Some(target) = target else {
                return Err(ApiError::not_found(format!("no event {seq} in this room")));
            };
            if !target.secret {
                return Err(ApiError::bad_request(
                    "not_secret",
                    format!("event {seq} is not a secret roll"),
                ));
            }
            if target.shown {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "already_shown",
                    format!("event {seq} is already shown"),
                ));
            }
            Ok(Draft {
                kind: "show",
                epoch: room.epoch,
                secret: false,
                body: json!({"kind": "show", "of": seq}),
                thread: None,
                roller: None,
            })
        })
        .await
        .map_err(refused)?;
    let roll = target.map(|t| t.body).unwrap_or(Value::Null);
    let answer = json!({"seq": shown.seq, "of": seq, "roll": roll});
    state.hub.publish(shown);
    Ok(Json(answer))
}

/// The store's failure or the handler's own refusal, as the API answers it.
pub(crate) fn refused(error: AppendError<ApiError>) -> ApiError {
    match error {
        AppendError::Store(e) => e.into(),
        AppendError::Refused(e) => e,
    }
}
