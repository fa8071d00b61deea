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
//! Between steps the server keeps the fight in memory ([`Cache`]); a fight
//! not there (after a restart, or stepped by another process) is rebuilt
//! from its events by replaying every step with its epoch's seed.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::{flag, split};
use super::rolls::{RollPlan, check_client_seed, nonce, refused};
use crate::action::Action;
use crate::app::{ApiError, AppState, InRoom};
use crate::fair::{self, RollRecord, Seed};
use crate::fight::{self, FightRequest, Rounds, Running};
use crate::store::{Draft, Event, Member, Role};

/// How many fights between steps a process keeps in memory.
const CACHE_SIZE: usize = 256;

/// How many fights over a process keeps in memory besides: the last ones
/// to end, which their table still reads (the answer that ended one, the
/// pages showing its end); older ones are rebuilt when read.
const FINISHED_KEPT: usize = 8;

/// Fights between steps or decisions, each with the sequence number of the
/// event it is the state after (a fight whose thread has moved on is
/// rebuilt), and the last few fights to end.
#[derive(Default)]
pub struct Cache {
    fights: Mutex<HashMap<(String, i64), (i64, Running)>>,
    finished: Mutex<HashMap<(String, i64), (i64, Running)>>,
}

impl Cache {
    /// A copy of fight `id` of `room` after event `head`, if kept.
    pub(crate) fn get(&self, room: &str, id: i64, head: i64) -> Option<Running> {
        let key = (room.to_string(), id);
        for kept in [&self.fights, &self.finished] {
            let fights = kept.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((at, fight)) = fights.get(&key)
                && *at == head
            {
                return Some(fight.clone());
            }
        }
        None
    }

    /// Keeps fight `id` as it is after event `head` (among the last few to
    /// end, once over).
    pub(crate) fn put(&self, room: &str, id: i64, head: i64, fight: Running) {
        let key = (room.to_string(), id);
        let over = fight.fight().ending().is_some();
        if over {
            self.fights
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&key);
        }
        let (kept, size) = if over {
            (&self.finished, FINISHED_KEPT)
        } else {
            (&self.fights, CACHE_SIZE)
        };
        let mut fights = kept.lock().unwrap_or_else(|e| e.into_inner());
        if fights.len() >= size && !fights.contains_key(&key) {
            // The fight stepped longest ago goes (it is rebuilt if needed).
            if let Some(oldest) = fights
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
            {
                fights.remove(&oldest);
            }
        }
        fights.insert(key, (head, fight));
    }
}

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
    let fight = request
        .build()
        .map_err(|e| ApiError::bad_request("bad_fight", e))?;
    // (Every combatant starts standing today, so no fight ends before its
    // first round; a setting that could, a map's, is refused here rather
    // than started and never steppable.)
    if let Some(ending) = fight.ending() {
        return Err(ApiError::bad_request(
            "bad_fight",
            format!("the fight is over before it starts: {}", ending.reason),
        ));
    }
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

pub(crate) fn over(id: i64) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "fight_over",
        format!("fight {id} is over"),
    )
}

/// Fight `id` as its events leave it: built from its request, every step
/// or decision replayed with its epoch's seed (the room's current one, or
/// an earlier one from the log's reveals), every change of control applied.
pub(crate) async fn rebuild(state: &AppState, room: &str, id: i64) -> Result<Running, ApiError> {
    let broken = |why: String| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "store",
            format!("fight {id} does not replay from its events: {why}"),
        )
    };
    let mut events = state.store.thread(room, id).await?;
    if events.is_empty() {
        return Err(ApiError::not_found(format!("no fight {id} in this room")));
    }
    let steps = events.split_off(1);
    let first = &events[0];
    let request: FightRequest =
        serde_json::from_value(first.body["request"].clone()).map_err(|e| broken(e.to_string()))?;
    let built = request.build().map_err(broken)?;
    let mut fight = if first.body["played"] == true {
        Running::Played(super::played::Table::from_start(&first.body, built).map_err(broken)?)
    } else {
        Running::Stepped(built)
    };
    let current = state
        .store
        .room(room)
        .await?
        .ok_or_else(|| ApiError::not_found("no such room"))?;
    let mut seeds: HashMap<i64, Seed> = HashMap::from([(current.epoch, current.seed)]);
    if steps.iter().any(|e| e.epoch != current.epoch) {
        for reveal in state
            .store
            .events_matching(room, "%\"kind\":\"reveal\"%")
            .await?
        {
            let seed = reveal.body["seed"]
                .as_str()
                .and_then(fair::unhex)
                .and_then(|b| Seed::try_from(b).ok());
            if let (Some(epoch), Some(seed)) = (reveal.body["epoch"].as_i64(), seed) {
                seeds.insert(epoch, seed);
            }
        }
    }
    // Replaying a long fight is long work (a thousand turns of an
    // all-engine fight take a good part of a second): on the pool, so the
    // threads answering other rooms never wait for it.
    let room_name = room.to_string();
    let replayed = state
        .pool
        .run_in_turn(
            room,
            move |_| -> Result<Running, String> {
                for event in &steps {
                    if event.kind == "fight-control" {
                        if let Running::Played(played) = &mut fight {
                            super::played::apply_control(played, &event.body)?;
                        }
                        continue;
                    }
                    replay_step(&mut fight, &room_name, id, event, &seeds)?;
                    if let Running::Played(played) = &mut fight {
                        played.track(step_number(&event.body).unwrap_or(0), event.at_ms);
                    }
                }
                Ok(fight)
            },
            REPLAY_WAITS_FOR_ITS_TURN,
        )
        .await?;
    replayed.map_err(broken)
}

/// How long a fight to rebuild waits for its room's turn on the pool when
/// the room's share is taken, before it is refused with 429 `busy`.
const REPLAY_WAITS_FOR_ITS_TURN: std::time::Duration = std::time::Duration::from_secs(5);

/// The number of a stored step (of this server: in its action; of an
/// earlier one: in its body), or none for the fight's first event.
pub(crate) fn step_number(body: &Value) -> Option<i64> {
    body["action"]["step"].as_i64().or(body["step"].as_i64())
}

/// Replays one stored step of fight `id` on `fight`: a step of this server
/// with the dice of its action, one of an earlier server with the dice of
/// its legacy record.
fn replay_step(
    fight: &mut Running,
    room: &str,
    id: i64,
    event: &Event,
    seeds: &HashMap<i64, Seed>,
) -> Result<(), String> {
    let body = &event.body;
    let seed = seeds
        .get(&event.epoch)
        .ok_or_else(|| format!("no seed for epoch {}", event.epoch))?;
    let roller = body["roller"].as_i64().unwrap_or(-1);
    let client_seed = body["client_seed"].as_str().unwrap_or("");
    if !body["action"].is_null() {
        let action: Action =
            serde_json::from_value(body["action"].clone()).map_err(|e| e.to_string())?;
        let canonical = action.canonical();
        let count = body["count"].as_i64().unwrap_or(0);
        let input = fair::DiceInput::new(room, event.epoch, roller, count, client_seed, &canonical);
        let mut dice = fair::dice(seed, &input);
        crate::replay::perform(
            &action,
            &mut dice,
            &nutshell_dice::Limits::default(),
            Some(fight),
        )
        .map_err(|e| e.to_string())?;
        return Ok(());
    }
    let rounds = Rounds::from_json(&body["rounds"])?;
    let text = fight::step_text(id, body["step"].as_i64().unwrap_or(0), rounds);
    let record = RollRecord {
        room,
        epoch: event.epoch,
        seq: event.seq,
        roller,
        client_seed,
        expression: &text,
    };
    let Running::Stepped(fight) = fight else {
        return Err("a step of an earlier server in a played fight".to_string());
    };
    crate::replay::legacy::step(fight, seed, &record).map_err(|e| e.to_string())?;
    Ok(())
}

/// Writes a fight's first event (its request and the state before the first
/// round, with `extra` fields such as a played fight's control) and
/// announces it: the event, whose `seq` names the fight.
pub(super) async fn append_start(
    state: &AppState,
    me: &Member,
    secret: bool,
    request: Value,
    start: Value,
    extra: serde_json::Map<String, Value>,
) -> Result<Event, ApiError> {
    let nonce = if secret { Some(nonce()?) } else { None };
    let (roller, name, role) = (me.id, me.name.clone(), me.role.as_str());
    let (event, ()) = state
        .store
        .append_with(&me.room, None, move |room, _slot| {
            let mut body = json!({
                "kind": "fight",
                "roller": roller,
                "name": name,
                "role": role,
                "epoch": room.epoch,
                "secret": secret,
                "request": request,
                "fight": start,
            });
            for (key, value) in extra {
                body[key] = value;
            }
            if let Some(nonce) = nonce {
                body["nonce"] = json!(nonce);
            }
            let draft = Draft {
                kind: "fight",
                epoch: room.epoch,
                secret,
                body,
                thread: None,
                roller: None,
            };
            Ok::<_, ApiError>((draft, ()))
        })
        .await
        .map_err(refused)?;
    state.hub.publish(event.clone());
    Ok(event)
}
