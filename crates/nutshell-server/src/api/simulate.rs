//! Many fights of one setting, for their odds: `POST /simulate` runs up to
//! [`MAX_TRIALS`] fights (`nutshell_mls::simulate`, as `nutshell mls
//! simulate`) within [`TIME_LIMIT`] and answers the win rates with 95%
//! intervals and the counts behind them. Simulated fights use their own
//! seeds, not the room's dice: nothing is written to the room. A page runs
//! 10,000 fights as several requests (`first` says where each batch
//! starts, so the batches together are one run of the seed) and shows its
//! progress between them. Simulations run on the pool for long work
//! ([`crate::work`]).

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use nutshell_dice::simulate::wilson;
use nutshell_mls::simulate::Tally;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::extract::InRoom;
use crate::fight::{FightRequest, map_error};
use crate::state::AppState;

/// The most fights one request runs.
pub const MAX_TRIALS: u64 = 10_000;

/// How long one request may run; a batch not done by then answers the
/// fights done (`"complete": false`).
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// Fights run between looks at the clock.
const CHUNK: u64 = 50;

/// `POST /api/rooms/{room}/simulate`: a fight's request (`a`, `b`,
/// `distance`, `surprised`, `max_turns`, `map`) plus `trials` (1 to
/// [`MAX_TRIALS`], 1,000 by default), `seed` (a number; random when left
/// out, and answered) and `first` (the index of the batch's first fight, 0
/// by default).
pub async fn simulate(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(mut body) = body?;
    let Value::Object(object) = &mut body else {
        return Err(ApiError::bad_request(
            "bad_simulation",
            "the body must be a JSON object",
        ));
    };
    let number = |value: Option<Value>, name: &str, default: u64| -> Result<u64, ApiError> {
        match value {
            None => Ok(default),
            Some(v) => v.as_u64().ok_or_else(|| {
                ApiError::bad_request(
                    "bad_simulation",
                    format!("`{name}` must be a whole number 0 or more"),
                )
            }),
        }
    };
    let trials = number(object.remove("trials"), "trials", 1000)?;
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(ApiError::bad_request(
            "bad_simulation",
            format!("`trials` must be 1 to {MAX_TRIALS}"),
        ));
    }
    let first = number(object.remove("first"), "first", 0)?;
    let seed = match object.remove("seed") {
        Some(v) => number(Some(v), "seed", 0)?,
        None => {
            let bytes = crate::fair::fresh_seed().map_err(|e| {
                ApiError::bad_request("bad_simulation", format!("no random seed: {e}"))
            })?;
            u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
        }
    };
    let request: FightRequest = serde_json::from_value(body).map_err(|e| {
        ApiError::bad_request(
            "bad_simulation",
            super::checks::with_own_fields(&e, &["trials", "seed", "first"]),
        )
    })?;
    let (sides, options) = request
        .setting()
        .map_err(|e| ApiError::bad_request("bad_simulation", e))?;
    let on_map = options.map.is_some();
    // On the pool for long work: a room's simulations wait for each other,
    // and rolls elsewhere keep their latency. A request that goes away (or
    // times out) stops its simulation at the next look at the clock.
    let answer = state
        .pool
        .run(&me.room, move |cancel| -> Result<Value, ApiError> {
            let names = [sides[0].name.clone(), sides[1].name.clone()];
            let started = Instant::now();
            let mut tally = Tally::default();
            let mut done = 0u64;
            while done < trials && started.elapsed() < TIME_LIMIT && !cancel.is_cancelled() {
                let n = CHUNK.min(trials - done);
                let range = first + done..first + done + n;
                let part = Tally::run(&sides, &options, seed, range, &|| {})
                    .map_err(|e| ApiError::bad_request("bad_simulation", map_error(on_map, e)))?;
                tally = tally.merge(part);
                done += n;
            }
            let est = |count: u64| {
                let i = wilson(count, done);
                json!({"count": count, "probability": i.estimate, "low": i.low, "high": i.high})
            };
            Ok(json!({
                "sides": names,
                "seed": seed,
                "first": first,
                "trials": done,
                "requested": trials,
                "complete": done == trials,
                "wins": [est(tally.wins[0]), est(tally.wins[1])],
                "draw": est(tally.draws),
                "turns": tally.turns,
                "mean_turns": tally.turns as f64 / done.max(1) as f64,
                "seconds": started.elapsed().as_secs_f64(),
            }))
        })
        .await??;
    Ok(Json(answer))
}
