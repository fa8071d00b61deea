//! MLS fights in a room, stepped round by round (see [`crate::fight`]).
//!
//! `POST /fights` starts one: the sides and options, committed as a `fight`
//! event (`"run": true` also fights it to the end in the same request, as a
//! script wants). `POST /fights/{fight}/step` resolves the next round (or
//! `rounds` of them, or `"end"`) as a `fight-step` event, announced live to
//! the room with the rounds' log lines and every combatant's health and
//! position. The member who started a fight and the GM may step it; a GM's
//! secret fight is secret step by step.
//!
//! Between steps the server keeps the fight in memory ([`super::cache::Cache`]); a fight
//! not there (after a restart, or stepped by another process) is rebuilt
//! from its events by replaying every step with its epoch's seed.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::{flag, split};
use super::fight_thread::{append_start, build, over, rebuild, step_number};
use super::rolls::{RollPlan, check_client_seed, refused};
use crate::action::Action;
use crate::error::ApiError;
use crate::extract::InRoom;
use crate::fair;
use crate::fight::{self, FightRequest, Rounds, Running};
use crate::state::AppState;
use crate::store::{Member, Role};

/// `POST /api/rooms/{room}/fights`: `{"a": TOML, "b": TOML, "distance"?,
/// "surprised"?, "max_turns"?}` plus `secret` (the GM's), and `run` with its
/// `client_seed` to fight it to the end at once.
pub async fn create(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(mut body) = body?;
    let (run, table) = match &mut body {
        Value::Object(object) => (flag(object, "run")?, super::played::Table::take(object)?),
        _ => (false, None),
    };
    let (fields, request): (_, FightRequest) = split(body, "fight")?;
    fields.refuse_odds(
        "bad_fight",
        "a fight has no exact odds: `nutshell mls simulate` estimates them",
    )?;
    if fields.secret && me.role != Role::Gm {
        return Err(ApiError::forbidden("only the GM may fight in secret"));
    }
    check_client_seed(&fields.client_seed)?;
    if let Some(table) = table {
        if run {
            return Err(ApiError::bad_request(
                "bad_fight",
                "a played fight (`\"played\": true`) goes on by its decisions: it cannot also `run` to the end at once",
            ));
        }
        return super::played::create(&state, &me, request, fields, table).await;
    }
    if !run && !fields.client_seed.is_empty() {
        return Err(ApiError::bad_request(
            "bad_fight",
            "`client_seed` goes with each step (or with `\"run\": true`): starting a fight rolls no dice",
        ));
    }
    let fight = build(&request)?;
    let secret = fields.secret;
    let event = append_start(
        &state,
        &me,
        secret,
        json!(request),
        fight::start(&fight),
        serde_json::Map::new(),
    )
    .await?;
    state
        .fights
        .put(&me.room, event.seq, event.seq, Running::Stepped(fight));
    if run {
        let mut answer = step(
            &state,
            &me,
            event.seq,
            Rounds::ToEnd,
            fields.client_seed,
            fields.commitment,
        )
        .await?;
        // The answer of `nutshell mls fight --json` at the top, as before
        // fights were stepped.
        let report = answer.as_object_mut().and_then(|o| o.remove("report"));
        if let Some(Value::Object(report)) = report {
            for (key, value) in report {
                answer[key.as_str()] = value;
            }
        }
        answer["request"] = json!(request);
        return Ok((StatusCode::CREATED, Json(answer)));
    }
    let mut answer = event.body["fight"].clone();
    answer["fight"] = json!(event.seq);
    answer["seq"] = json!(event.seq);
    answer["epoch"] = json!(event.epoch);
    answer["secret"] = json!(event.secret);
    answer["request"] = json!(request);
    answer["body_hash"] = json!(event.body_hash);
    answer["hash"] = json!(event.hash);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `POST /api/rooms/{room}/fights/{fight}/step`: `{"rounds"?: N | "end",
/// "client_seed"?}`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Rounds to resolve: a number (1 by default) or `"end"`.
    #[serde(default)]
    pub rounds: Option<Value>,
    /// The client's own seed, mixed into this step's dice.
    #[serde(default)]
    pub client_seed: String,
    /// The commitment of the epoch the client means, if it said (409 when
    /// the GM revealed meanwhile).
    #[serde(default)]
    pub commitment: Option<String>,
}

/// Resolves the next round(s) of a fight: the step's result (the rounds'
/// log lines, the state after them, the ending once over, and then the
/// whole fight's `report`) with the event's fields.
pub async fn step_route(
    // The extractors of a route on one event of the room (the same in each
    // such route: axum reads the handler's parameters).
    State(state): State<AppState>,
    InRoom(me): InRoom,
    Path((_room, id)): Path<(String, String)>,
    body: Result<Json<StepRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let id = super::seq_param(&id, "fight")?;
    let request = match body {
        Ok(Json(request)) => request,
        // An empty body is one round.
        Err(JsonRejection::MissingJsonContentType(_)) => StepRequest::default(),
        Err(rejection) => return Err(rejection.into()),
    };
    let rounds = match &request.rounds {
        None => Rounds::Count(1),
        Some(value) => {
            Rounds::from_json(value).map_err(|e| ApiError::bad_request("bad_step", e))?
        }
    };
    check_client_seed(&request.client_seed)?;
    let answer = step(
        &state,
        &me,
        id,
        rounds,
        request.client_seed,
        request.commitment,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Steps fight `id`: checks who asks, gets the fight as its latest event
/// left it, and commits the step (refused with 409 when another step was
/// committed meanwhile or the fight is over).
async fn step(
    state: &AppState,
    me: &Member,
    id: i64,
    rounds: Rounds,
    client_seed: String,
    expect: Option<String>,
) -> Result<Value, ApiError> {
    let no_fight = || ApiError::not_found(format!("no fight {id} in this room"));
    let (first, head) = super::own_thread(
        state,
        me,
        id,
        |e| e.kind == "fight",
        no_fight,
        || format!("only the member who started fight {id} or the GM may step it"),
    )
    .await?;
    if head.body["result"]["over"] == true {
        return Err(over(id));
    }
    let number = step_number(&head.body).unwrap_or(0) + 1;
    if first.body["played"] == true {
        return Err(ApiError::bad_request(
            "played_fight",
            format!(
                "fight {id} is played by decisions: it goes on by `POST .../fights/{id}/decisions`, not by steps"
            ),
        ));
    }
    let mut fight = match state.fights.get(&me.room, id, head.seq) {
        Some(fight) => fight,
        None => rebuild(state, &me.room, id).await?,
    };
    let action = Action::FightStep {
        fight: id,
        step: number,
        rounds,
    };
    // The fight, step and rounds also at the body's top, as viewers read
    // them (`verify` checks they are the action's).
    let plan = RollPlan::new(
        state,
        me,
        action,
        client_seed.clone(),
        first.secret,
        "bad_step",
    )?
    .with("fight", json!(id))
    .with("step", json!(number))
    .with("rounds", rounds.to_json())
    .expecting(expect);
    let expected = head.seq;
    let (event, (result, commitment, fight, plan)) = state
        .store
        .append_to_thread(&me.room, id, Some(me.id), move |room, slot, now| {
            if now.map(|e| e.seq) != Some(expected) {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "conflict",
                    format!("fight {id} was stepped meanwhile: try again"),
                ));
            }
            let (draft, result) = plan.draft(room, slot, Some(&mut fight))?;
            Ok((draft, (result, fair::commitment(&room.seed), fight, plan)))
        })
        .await
        .map_err(refused)?;
    let count = event.body["count"].clone();
    drop(plan);
    state.hub.publish(event.clone());
    let mut answer = result;
    answer["fight"] = json!(id);
    answer["step"] = json!(number);
    answer["seq"] = json!(event.seq);
    answer["epoch"] = json!(event.epoch);
    answer["client_seed"] = json!(client_seed);
    answer["count"] = count;
    answer["secret"] = json!(event.secret);
    answer["commitment"] = json!(commitment);
    answer["body_hash"] = json!(event.body_hash);
    answer["hash"] = json!(event.hash);
    if let Some(ending) = fight.fight().ending() {
        answer["report"] = json!(fight.fight().report(ending));
    }
    state.fights.put(&me.room, id, event.seq, fight);
    Ok(answer)
}
