//! A fight's thread of events, below the routes that step and play it:
//! its first event written (`append_start`), and the fight as its events
//! leave it (`rebuild`: built from its request, every step or decision
//! replayed with its epoch's seed, every change of control applied). A
//! rebuilt fight is the one its events make, whichever process rebuilds it.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::rolls::{nonce, refused};
use crate::action::Action;
use crate::error::ApiError;
use crate::fair::{self, RollRecord, Seed};
use crate::fight::{self, FightRequest, Played, Rounds, Running};
use crate::state::AppState;
use crate::store::{Draft, Event, Member};

/// The fight `request` starts, refused (400 `bad_fight`) when it does not
/// build or is over before it starts. (Every combatant starts standing
/// today, so no fight ends before its first round; a setting that could, a
/// map's, is refused here rather than started and never steppable.)
pub(crate) fn build(request: &FightRequest) -> Result<nutshell_mls::Fight, ApiError> {
    let fight = request
        .build()
        .map_err(|e| ApiError::bad_request("bad_fight", e))?;
    if let Some(ending) = fight.ending() {
        return Err(ApiError::bad_request(
            "bad_fight",
            format!("the fight is over before it starts: {}", ending.reason),
        ));
    }
    Ok(fight)
}

/// 409 `fight_over`: fight `id` has ended.
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
        Running::Played(Played::from_start(&first.body, built).map_err(broken)?)
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
                            played.apply_control(&event.body)?;
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
pub(crate) async fn append_start(
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
    // The store passed it on to the room's readers.
    Ok(std::sync::Arc::unwrap_or_clone(event))
}
