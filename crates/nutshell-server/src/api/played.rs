//! MLS fights played by their players: each combatant is controlled by a
//! member, the GM or the engine; the fight waits for a person's decision,
//! takes it, and goes on by itself until the next one (the engine's
//! combatants decide at once).
//!
//! - `POST /fights` with `"played": true` (and `control`,
//!   `decision_seconds`) starts one: a `fight` event naming every
//!   combatant's controller, then a `fight-decision` event that runs the
//!   fight to the first person's decision.
//! - `GET /fights/{fight}` shows it: the state, who controls whom, every
//!   decision awaited (several when the members of the side acting are asked
//!   for their set actions at once) and, to each decision's controller only,
//!   its options.
//! - `POST /fights/{fight}/decisions` answers a decision awaited: a
//!   `fight-decision` event whose action holds the answer and whose dice are
//!   keyed by it ([`crate::action::Action::FightDecision`]); its result
//!   holds the rounds it let the fight resolve.
//! - `POST /fights/{fight}/control` (the GM) hands a combatant to someone
//!   else, or sets the time for decisions: a `fight-control` event (no
//!   dice). When that time runs out the engine's default is taken, as a
//!   `fight-decision` event whose decision is `"by": "engine"`.
//!
//! Every event of a played fight continues the fight's thread; its `step`
//! is its number in it (the fight's own event is 0). A decision quotes the
//! step it read, and is taken only while its decision has been awaited ever
//! since ([`crate::fight::Since`]): an answer to a decision no longer
//! awaited, or asked again since, is refused (409 `stale`); of two answers
//! to one decision at once one is written, while answers to two decisions
//! at once are both written, one after the other.

use std::time::Duration;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use nutshell_mls::fight::{Choice, Controller, Decision, Kind, Made};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::checks::RollFields;
use super::fight_thread::{append_start, build, over, rebuild, step_number};
use super::rolls::{RollPlan, check_client_seed, refused};
use crate::action::Action;
use crate::error::ApiError;
use crate::extract::InRoom;
use crate::fight::{self, Control, FightRequest, Played, Running};
use crate::state::AppState;
use crate::store::{AppendError, Draft, Event, Member, Role, Slot};

/// The longest time for a decision that may be set, in seconds (a day).
pub const MAX_DECISION_SECONDS: u64 = 86_400;

/// A played fight's own fields of `POST /fights`, taken out of its body.
pub(crate) struct Table {
    control: Map<String, Value>,
    decision_seconds: Option<u64>,
}

fn decision_seconds(value: &Value) -> Result<Option<u64>, ApiError> {
    match value {
        Value::Null => Ok(None),
        Value::Number(n) => match n.as_u64() {
            Some(s @ 1..=MAX_DECISION_SECONDS) => Ok(Some(s)),
            _ => Err(ApiError::bad_request(
                "bad_fight",
                format!("`decision_seconds` must be 1 to {MAX_DECISION_SECONDS}, or null"),
            )),
        },
        _ => Err(ApiError::bad_request(
            "bad_fight",
            format!("`decision_seconds` must be 1 to {MAX_DECISION_SECONDS}, or null"),
        )),
    }
}

impl Table {
    /// Takes `played`, `control` and `decision_seconds` out of a fight's
    /// body: the table's fields when `played` is true (the other two without
    /// it are refused).
    pub(crate) fn take(object: &mut Map<String, Value>) -> Result<Option<Table>, ApiError> {
        let played = match object.remove("played") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                return Err(ApiError::bad_request(
                    "bad_fight",
                    "`played` must be true or false",
                ));
            }
        };
        let control = object.remove("control");
        let seconds = object.remove("decision_seconds");
        if !played {
            if control.is_some() || seconds.is_some() {
                return Err(ApiError::bad_request(
                    "bad_fight",
                    "`control` and `decision_seconds` are for a played fight: add `\"played\": true`",
                ));
            }
            return Ok(None);
        }
        let control = match control {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(map)) => map,
            Some(_) => {
                return Err(ApiError::bad_request(
                    "bad_fight",
                    "`control` must be an object: {\"<combatant>\": \"gm\" | \"engine\" | <member id>}",
                ));
            }
        };
        Ok(Some(Table {
            control,
            decision_seconds: decision_seconds(seconds.as_ref().unwrap_or(&Value::Null))?,
        }))
    }
}

/// Checks a controller named for a combatant: a member of the room, and no
/// player's in a secret fight.
fn check_control(
    members: &[Member],
    who: &str,
    value: &Value,
    secret: bool,
) -> Result<Control, ApiError> {
    let control = Control::from_json(value)
        .map_err(|e| ApiError::bad_request("bad_control", format!("{who:?}: {e}")))?;
    if let Control::Member(id) = control {
        if !members.iter().any(|m| m.id == id) {
            return Err(ApiError::bad_request(
                "bad_control",
                format!("{who:?}: there is no member {id} in this room"),
            ));
        }
        if secret {
            return Err(ApiError::bad_request(
                "bad_control",
                format!(
                    "{who:?}: a secret fight is the GM's: a player cannot control a combatant in it"
                ),
            ));
        }
    }
    Ok(control)
}

/// Starts a played fight (`POST /fights` with `"played": true`): the
/// controllers (named in `control`, else a combatant named as a sheet of
/// the room is its owner's, the rest the GM's), the `fight` event, and the
/// first `fight-decision` event (the fight run to the first person's
/// decision, with the starter's client seed). Answers the fight as
/// [`show`] does, with the two events' numbers.
pub(crate) async fn create(
    state: &AppState,
    me: &Member,
    request: FightRequest,
    fields: RollFields,
    table: Table,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let fight = build(&request)?;
    let secret = fields.secret;
    let names: Vec<String> = fight
        .fighters()
        .iter()
        .map(|f| f.sheet.name.clone())
        .collect();
    let members = state.store.members(&me.room).await?;
    if let Some(unknown) = table.control.keys().find(|k| !names.contains(k)) {
        return Err(ApiError::bad_request(
            "bad_control",
            format!(
                "`control` names {unknown:?}, who is not in the fight (its combatants: {})",
                names.join(", ")
            ),
        ));
    }
    let owners = if secret {
        Vec::new()
    } else {
        sheet_owners(state, me).await?
    };
    let gm = me.role == Role::Gm;
    if !gm && table.decision_seconds.is_some() {
        return Err(ApiError::forbidden(
            "only the GM sets the time for decisions (`decision_seconds`)",
        ));
    }
    let mut control = Vec::with_capacity(names.len());
    for name in &names {
        let named = match table.control.get(name) {
            Some(value) => Some(check_control(&members, name, value, secret)?),
            None => None,
        };
        // Only the GM drafts: a player names himself or the engine; the
        // sheets of others stay with the GM until the GM hands them out.
        if !gm
            && let Some(c) = named
            && c != Control::Member(me.id)
            && c != Control::Engine
        {
            return Err(ApiError::forbidden(format!(
                "{name:?}: a player may give a combatant only to himself or to the engine; the GM hands combatants to others"
            )));
        }
        control.push(match named {
            Some(c) => c,
            None => match owners.iter().find(|(n, _)| n == name) {
                Some((_, owner)) if gm && *owner != 0 => Control::Member(*owner),
                Some((_, owner)) if *owner == me.id => Control::Member(me.id),
                _ => Control::Gm,
            },
        });
    }
    let control_json: Vec<Value> = names
        .iter()
        .zip(&control)
        .map(|(n, c)| json!({"name": n, "controller": c.to_json()}))
        .collect();
    let seconds = table.decision_seconds;
    let mut extra = serde_json::Map::new();
    extra.insert("played".into(), json!(true));
    extra.insert("control".into(), json!(control_json));
    extra.insert("decision_seconds".into(), json!(seconds));
    let event = append_start(
        state,
        me,
        secret,
        json!(request),
        fight::start(&fight),
        extra,
    )
    .await?;
    let played = Played::new(fight, control, seconds);
    // A reader of the new fight (a page on the event stream) may have run it
    // on first (`settle`): the fight has started all the same.
    let started = match commit(
        state,
        me,
        &event,
        event.seq,
        0,
        played,
        None,
        fields.client_seed,
    )
    .await
    {
        Ok((step_event, _)) => step_event.seq,
        Err(e) if e.code == "stale_head" => state
            .store
            .thread_head(&me.room, event.seq)
            .await?
            .map_or(event.seq, |head| head.seq),
        Err(e) => return Err(e),
    };
    let mut answer = show_fight(state, me, event.seq).await?;
    answer["seq"] = json!(event.seq);
    answer["started"] = json!(started);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The room's sheets that `me` may see, by name, with their owners.
async fn sheet_owners(state: &AppState, me: &Member) -> Result<Vec<(String, i64)>, ApiError> {
    let mut owners = Vec::new();
    for event in state
        .store
        .events_matching(&me.room, "%\"kind\":\"sheet\"%")
        .await?
    {
        if !super::sheets::is_sheet(&event) || !crate::events::may_see(&event, me) {
            continue;
        }
        if let (Some(name), Some(owner)) = (
            event.body["result"]["name"].as_str(),
            event.body["roller"].as_i64(),
        ) {
            owners.push((name.to_string(), owner));
        }
    }
    Ok(owners)
}

/// How long an answer, a start or a hand-over waits for its room's turn on
/// the pool when the room's share is taken (several members answering at
/// once) before it is refused with 429 `busy`.
const WAIT_FOR_THE_ROOMS_TURN: std::time::Duration = std::time::Duration::from_secs(5);

/// The most rounds one `fight-decision` event resolves: a longer run of the
/// engine's combatants (an all-engine fight, a hand-over) is written as
/// several events, each well within the size of one.
pub const ROUNDS_PER_EVENT: u32 = 40;

/// Appends `fight-decision` events to fight `first` by `actor`: `made`
/// answered (none: the fight only goes on), the fight run until the next
/// person's decision or its end with the dice of each event's action, at
/// most [`ROUNDS_PER_EVENT`] rounds an event. Refused with 409 `stale`
/// when the fight's thread is no longer at `head`. Each event is announced,
/// the fight kept, and the time for the next decision set. Answers the
/// first event and the result of the whole run (every event's lines, the
/// last one's state and `waiting`).
#[allow(clippy::too_many_arguments)]
async fn commit(
    state: &AppState,
    actor: &Member,
    first: &Event,
    head: i64,
    step: i64,
    played: Played,
    made: Option<Made>,
    client_seed: String,
) -> Result<(Event, Value), ApiError> {
    let (mut head, mut step, mut played, mut made) = (head, step, played, made);
    let mut answered: Option<(Event, Value)> = None;
    // Every event's lines, gathered once (a run of a hundred events would
    // otherwise copy the lines so far at each).
    let mut lines: Vec<Value> = Vec::new();
    loop {
        let (event, result, after) = commit_one(
            state,
            actor,
            first,
            head,
            step,
            played,
            made.take(),
            &client_seed,
        )
        .await?;
        let goes_on = result["over"] != true && result["waiting"].is_null();
        let mut last = result;
        if let Value::Array(these) = last["lines"].take() {
            lines.extend(these);
        }
        match &mut answered {
            None => answered = Some((event.clone(), last)),
            Some((_, whole)) => *whole = last,
        }
        if !goes_on {
            break;
        }
        (head, step, played) = (event.seq, step + 1, after);
    }
    let (event, mut whole) = answered.expect("one event at least");
    whole["lines"] = Value::Array(lines);
    Ok((event, whole))
}

/// The lock a member's engine runs in a room take turns on (in this
/// process). Entries stay for the process's life: one per member who ran
/// the engine, a few bytes each.
fn member_turn(room: &str, member: i64) -> std::sync::Arc<tokio::sync::Mutex<()>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Turns = Mutex<HashMap<(String, i64), Arc<tokio::sync::Mutex<()>>>>;
    static TURNS: OnceLock<Turns> = OnceLock::new();
    let turns = TURNS.get_or_init(Default::default);
    turns
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((room.to_string(), member))
        .or_default()
        .clone()
}

/// One `fight-decision` event of [`commit`]: the engine's run computed on
/// the pool for long work, outside the write transaction, from the room's
/// epoch and the actor's count read ahead; written if the transaction finds
/// the thread's head, the epoch and the count unchanged (computed again
/// otherwise). Answers the event, its result and the fight after it.
#[allow(clippy::too_many_arguments)]
async fn commit_one(
    state: &AppState,
    actor: &Member,
    first: &Event,
    head: i64,
    step: i64,
    played: Played,
    made: Option<Made>,
    client_seed: &str,
) -> Result<(Event, Value, Played), ApiError> {
    let id = first.seq;
    let number = step + 1;
    let action = Action::FightDecision {
        fight: id,
        step: number,
        decision: made,
        engine: played.engine_names(),
        rounds: Some(ROUNDS_PER_EVENT),
    };
    let plan = std::sync::Arc::new(
        RollPlan::new(
            state,
            actor,
            action,
            client_seed.to_string(),
            first.secret,
            "illegal_decision",
        )?
        .with("fight", json!(id))
        .with("step", json!(number)),
    );
    // One member's runs in this process take turns: each is drafted on the
    // member's count of rolls, so two at once would keep moving each
    // other's (the retries below stay for other processes).
    let turn = member_turn(&actor.room, actor.id);
    let _turn = turn.lock().await;
    for _ in 0..16 {
        let (room, count) = state.store.slot_ahead(&actor.room, Some(actor.id)).await?;
        let slot = Slot { seq: 0, count };
        let (job, ahead, mut running) =
            (plan.clone(), room.clone(), Running::Played(played.clone()));
        let (draft, result, running) = state
            .pool
            .run_in_turn(
                &actor.room,
                move |_| {
                    job.draft(&ahead, slot, Some(&mut running))
                        .map(|(draft, result)| (draft, result, running))
                },
                WAIT_FOR_THE_ROOMS_TURN,
            )
            .await??;
        let written = state
            .store
            .append_to_thread(
                &actor.room,
                id,
                Some(actor.id),
                move |now_room, now_slot, now| {
                    if now.map(|e| e.seq) != Some(head) {
                        return Err(stale_head(id));
                    }
                    if now_slot.count != count
                        || now_room.epoch != room.epoch
                        || now_room.seed != room.seed
                    {
                        return Err(moved());
                    }
                    Ok((draft, (result, running)))
                },
            )
            .await;
        let (event, (result, running)) = match written {
            Err(AppendError::Refused(e)) if e.code == "moved" => continue,
            other => other.map_err(refused)?,
        };
        state.hub.publish(event.clone());
        let Running::Played(mut played) = running else {
            return Err(not_played(id));
        };
        played.track(number, event.at_ms);
        schedule(state, &actor.room, id, &played);
        state
            .fights
            .put(&actor.room, id, event.seq, Running::Played(played.clone()));
        return Ok((event, result, played));
    }
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the room's epoch or the member's rolls kept moving while the fight was computed; try again",
    ))
}

/// The epoch or the actor's count moved between reading them ahead and the
/// write: the run is computed again.
fn moved() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "moved", "computed again")
}

/// The thread moved on between reading the fight and writing the event
/// (a 409 like [`stale`], which a caller may read again and retry).
fn stale_head(id: i64) -> ApiError {
    let mut e = stale(id);
    e.code = "stale_head";
    e
}

fn stale(id: i64) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "stale",
        format!(
            "fight {id} has moved on (another decision or change was written): read it again and answer the decision it waits for now"
        ),
    )
}

/// The time, in milliseconds since 1970, at which decision `d` (one of
/// those awaited) is the engine's, if there is a time for decisions: it
/// counts from the event after which `d` was first awaited.
fn deadline_ms(played: &Played, d: &Decision) -> Option<i64> {
    let seconds = played.decision_seconds?;
    if played.control.get(d.who) == Some(&Control::Engine) {
        return None;
    }
    let since = played.since_of(d)?;
    Some(since.at_ms + i64::try_from(seconds).unwrap_or(i64::MAX / 2000) * 1000)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `ms` since 1970 as RFC 3339 in UTC, to the millisecond.
///
/// (Days to a civil date: H. Hinnant's `civil_from_days`.)
fn rfc3339(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

/// Takes the engine's default for each decision awaited when its time
/// runs out (in this process: a timer per decision; a server starting arms
/// them for the fights in progress, [`arm_all`]; the next reader of a fight
/// takes any that ran out meanwhile: [`expire`]).
fn schedule(state: &AppState, room: &str, id: i64, played: &Played) {
    let mut deadlines: Vec<i64> = played
        .play
        .pending_all()
        .iter()
        .filter_map(|d| deadline_ms(played, d))
        .collect();
    deadlines.sort_unstable();
    deadlines.dedup();
    for at in deadlines {
        let (state, room) = (state.clone(), room.to_string());
        let wait = Duration::from_millis(u64::try_from(at - now_ms()).unwrap_or(0));
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            // Answered meanwhile, or a process stopping: nothing to do.
            let _ = expire(&state, &room, id).await;
        });
    }
}

/// Arms the timers of every played fight in progress with a time for
/// decisions (a server starting: decisions whose time runs out while nobody
/// reads the fight are taken by the engine all the same). Reads each such
/// fight's events once, and rebuilds only those with a time.
pub(crate) async fn arm_all(state: AppState) {
    let Ok(fights) = state.store.played_fights().await else {
        return;
    };
    for (room, id) in fights {
        let Ok(Some(head)) = state.store.thread_head(&room, id).await else {
            continue;
        };
        if head.body["result"]["over"] == true {
            continue;
        }
        // Only a fight with a time for decisions (set at its start or by a
        // change of control) is replayed.
        let Ok(events) = state.store.thread(&room, id).await else {
            continue;
        };
        let timed = events
            .iter()
            .any(|e| e.body["decision_seconds"].as_u64().is_some());
        if !timed {
            continue;
        }
        let Ok((_, running)) = current(&state, &room, id).await else {
            continue;
        };
        if let Running::Played(played) = &running
            && played.play.fight().ending().is_none()
        {
            schedule(&state, &room, id, played);
        }
    }
}

/// The room's GM, who writes the engine's decisions.
async fn gm(state: &AppState, room: &str) -> Result<Member, ApiError> {
    state
        .store
        .members(room)
        .await?
        .into_iter()
        .find(|m| m.role == Role::Gm)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "store",
                "the room has no GM",
            )
        })
}

/// Fight `id` of `room` as its latest event leaves it: that event and the
/// fight.
async fn current(state: &AppState, room: &str, id: i64) -> Result<(Event, Running), ApiError> {
    let head = state
        .store
        .thread_head(room, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no fight {id} in this room")))?;
    let running = match state.fights.get(room, id, head.seq) {
        Some(running) => running,
        None => {
            let running = rebuild(state, room, id).await?;
            state.fights.put(room, id, head.seq, running.clone());
            running
        }
    };
    Ok((head, running))
}

/// Takes the engine's default, as a decision event written by the GM's
/// member with `"by": "engine"`, for each decision fight `id` awaits whose
/// time has run out. Whether it took any.
async fn expire(state: &AppState, room: &str, id: i64) -> Result<bool, ApiError> {
    let Some(first) = state.store.event(room, id).await? else {
        return Ok(false);
    };
    let mut took = false;
    // Each taken default is an event; a race lost to another writer is
    // read again (a few times at most).
    for _ in 0..16 {
        let (head, running) = current(state, room, id).await?;
        let Running::Played(played) = running else {
            return Ok(took);
        };
        if played.play.fight().ending().is_some() {
            return Ok(took);
        }
        let now = now_ms();
        let Some(asked) = played
            .play
            .pending_all()
            .iter()
            .find(|d| deadline_ms(&played, d).is_some_and(|at| at <= now))
            .cloned()
        else {
            return Ok(took);
        };
        let made = asked.answered(asked.default.clone(), Controller::Engine);
        // Not written when someone answered (or another process took the
        // default) first: read again.
        if commit_as_gm(state, room, &first, &head, played, Some(made)).await? {
            took = true;
        }
    }
    Ok(took)
}

/// Writes, as the room's GM, the run of played fight `first` from event
/// `head` on (with the engine's `made` answer, if any): what no member
/// asked for (a default taken when the time ran out, a fight settled).
/// False when another writer got there first (409), so nothing was written.
async fn commit_as_gm(
    state: &AppState,
    room: &str,
    first: &Event,
    head: &Event,
    played: Played,
    made: Option<Made>,
) -> Result<bool, ApiError> {
    let gm = gm(state, room).await?;
    let step = step_number(&head.body).unwrap_or(0);
    match commit(
        state,
        &gm,
        first,
        head.seq,
        step,
        played,
        made,
        String::new(),
    )
    .await
    {
        Ok(_) => Ok(true),
        Err(e) if e.status == StatusCode::CONFLICT => Ok(false),
        Err(e) => Err(e),
    }
}

/// Makes fight `id` await someone again when it does not: a fight not over
/// that awaits nobody (a process stopped between a start or a hand-over
/// and the run it causes, or between the events of a long run), or whose
/// engine's combatants are not those its controllers say, goes on at once
/// with decision events written by the GM's member. Whether it wrote any.
async fn settle(state: &AppState, room: &str, id: i64) -> Result<bool, ApiError> {
    let Some(first) = state.store.event(room, id).await? else {
        return Ok(false);
    };
    for _ in 0..4 {
        let (head, running) = current(state, room, id).await?;
        let Running::Played(played) = running else {
            return Ok(false);
        };
        if played.play.fight().ending().is_some() {
            return Ok(false);
        }
        let synced = played
            .play
            .controllers()
            .iter()
            .zip(&played.control)
            .all(|(c, want)| (*c == Controller::Engine) == (*want == Control::Engine));
        if synced && !played.play.pending_all().is_empty() {
            return Ok(false);
        }
        // Not written when someone else wrote first: read again.
        if commit_as_gm(state, room, &first, &head, played, None).await? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The first event of fight `id` if `me` may see it.
async fn visible_fight(state: &AppState, me: &Member, id: i64) -> Result<Event, ApiError> {
    state
        .store
        .event(&me.room, id)
        .await?
        .filter(|e| crate::events::may_see(e, me) && e.kind == "fight")
        .ok_or_else(|| ApiError::not_found(format!("no fight {id} in this room")))
}

/// A controller as a viewer reads it: `"gm"`, `"engine"` or
/// `{"member": id, "name": name}`.
fn controller_json(control: Control, members: &[Member]) -> Value {
    match control {
        Control::Member(id) => json!({
            "member": id,
            "name": members.iter().find(|m| m.id == id).map(|m| m.name.clone()),
        }),
        other => other.to_json(),
    }
}

/// `GET /api/rooms/{room}/fights/{fight}`: the fight as it stands, for any
/// member who may see it: `fight`, `played`, `step` (its thread's last
/// event's number, which a decision quotes), `start`, `state`, `over`,
/// `ending` once over, `controllers`, `waiting` (every decision awaited:
/// whose, its kind, turn, round, controller, `deadline`), `decisions` (the
/// engine's decisions with their options of those the viewer controls) and
/// `decision` (the first of them) and `so_far` (the log lines of the round
/// under way up to the decisions awaited, as the event answering them will
/// begin with; empty when none). Decisions whose time ran out are taken by
/// the engine first.
pub async fn show(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    Path((_room, id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let id = super::seq_param(&id, "fight")?;
    let first = visible_fight(&state, &me, id).await?;
    if first.body["played"] == true {
        settle(&state, &me.room, id).await?;
        expire(&state, &me.room, id).await?;
    }
    Ok(Json(show_fight(&state, &me, id).await?))
}

async fn show_fight(state: &AppState, me: &Member, id: i64) -> Result<Value, ApiError> {
    let first = visible_fight(state, me, id).await?;
    let (head, running) = current(state, &me.room, id).await?;
    let fight = running.fight();
    let mut answer = json!({
        "fight": id,
        "played": matches!(running, Running::Played(_)),
        "step": step_number(&head.body).unwrap_or(0),
        "seq": head.seq,
        "secret": first.secret,
        "start": first.body["fight"],
        "state": fight::state(fight),
        "over": fight.ending().is_some(),
        "controllers": [],
        "waiting": [],
        "decisions": [],
        "so_far": [],
    });
    if let Some(ending) = fight.ending() {
        answer["ending"] = json!(fight.report(ending).ending);
    }
    // On a map, each standing combatant's enemies he could strike (in his
    // front arc) or shoot (in sight) from where he stands: the page marks
    // them for the one whose decision it is (mls, Who May Attack, Who May
    // Shoot). Not in `state`, whose hashes old logs keep.
    if fight.on_map() && fight.ending().is_none() {
        let targets: Map<String, Value> = fight
            .fighters()
            .iter()
            .enumerate()
            .filter(|(_, f)| f.standing())
            .map(|(i, f)| (f.sheet.name.clone(), json!(fight.targets(i))))
            .collect();
        answer["targets"] = Value::Object(targets);
    }
    let Running::Played(played) = &running else {
        return Ok(answer);
    };
    let members = state.store.members(&me.room).await?;
    answer["decision_seconds"] = json!(played.decision_seconds);
    answer["controllers"] = fight
        .fighters()
        .iter()
        .zip(&played.control)
        .map(|(f, c)| json!({"name": f.sheet.name, "controller": controller_json(*c, &members)}))
        .collect();
    let mut waiting = Vec::new();
    let mut mine = Vec::new();
    for asked in played.play.pending_all() {
        let control = played.control[asked.who];
        let mut entry = json!({
            "id": asked.id,
            "who": asked.name,
            "kind": asked.kind,
            "turn": asked.turn,
            "round": asked.round,
            "controller": controller_json(control, &members),
        });
        if let Some(at) = deadline_ms(played, asked) {
            entry["deadline"] = json!(rfc3339(at));
        }
        waiting.push(entry);
        if control.is(me.id, me.role == Role::Gm) {
            mine.push(json!(asked));
        }
    }
    answer["waiting"] = json!(waiting);
    // The round so far: the lines the step under way wrote before the
    // decision it waits for, which its event will begin with.
    answer["so_far"] = json!(played.play.so_far());
    if let Some(first) = mine.first() {
        answer["decision"] = first.clone();
    }
    answer["decisions"] = json!(mine);
    Ok(answer)
}

/// `POST /api/rooms/{room}/fights/{fight}/decisions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionRequest {
    /// The decision answered (`GET`'s `id` of it): an answer to a decision
    /// already answered is refused (409 `stale`), whatever is asked next.
    #[serde(default)]
    pub id: Option<String>,
    /// The fight's step the answer was read at (`GET`'s `step`): without
    /// an `id`, the decision of `who` and `kind` awaited ever since.
    #[serde(default)]
    pub step: Option<i64>,
    /// The combatant deciding, by name.
    pub who: String,
    /// The kind of decision.
    pub kind: Kind,
    /// The answer, as the decision's options give it.
    pub choice: Choice,
    /// The client's own seed, mixed into the dice of the rounds that follow.
    #[serde(default)]
    pub client_seed: String,
}

/// Answers a decision fight `fight` awaits (`who`'s of kind `kind`): 403
/// for a combatant the member does not control, 400 `illegal_decision`
/// naming the rule's sentence, 409 `stale` when that decision is not
/// awaited or has not been awaited ever since `step`; else 201 with the
/// `fight-decision` event
/// (as the member sees it) and its result: the log lines of the rounds the
/// fight resolved until the next person's decision (or its end), the state
/// and the next `waiting`.
pub async fn decide(
    // The extractors of a route on one event of the room (the same in each
    // such route: axum reads the handler's parameters).
    State(state): State<AppState>,
    InRoom(me): InRoom,
    Path((_room, id)): Path<(String, String)>,
    body: Result<Json<DecisionRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let id = super::seq_param(&id, "fight")?;
    let Json(request) = body?;
    check_client_seed(&request.client_seed)?;
    let first = visible_fight(&state, &me, id).await?;
    if first.body["played"] != true {
        return Err(not_played(id));
    }
    settle(&state, &me.room, id).await?;
    expire(&state, &me.room, id).await?;
    // Written on the thread's head as read; a race lost to another writer
    // (another member's answer to another decision) is read again, and the
    // answer still applies while its decision is still awaited.
    let mut tries = 0;
    loop {
        tries += 1;
        let (head, running) = current(&state, &me.room, id).await?;
        let (event, result, step) =
            match answer_once(&state, &me, &first, &request, head, running).await {
                Err(e) if e.code == "stale_head" && tries < 8 => continue,
                Err(e) if e.code == "stale_head" => return Err(stale(id)),
                other => other?,
            };
        return Ok((
            StatusCode::CREATED,
            Json(json!({
                "event": crate::events::view(&event, &me),
                "result": result,
                "fight": id,
                "step": step + 1,
            })),
        ));
    }
}

/// One try of [`decide`] on the fight as `head` leaves it: the event, its
/// result and the step it followed; `stale_head` when another event was
/// written meanwhile.
async fn answer_once(
    state: &AppState,
    me: &Member,
    first: &Event,
    request: &DecisionRequest,
    head: Event,
    running: Running,
) -> Result<(Event, Value, i64), ApiError> {
    let id = first.seq;
    let Running::Played(played) = running else {
        return Err(not_played(id));
    };
    if played.play.fight().ending().is_some() {
        return Err(over(id));
    }
    let Some(i) = played.play.index_of(&request.who) else {
        return Err(ApiError::bad_request(
            "bad_decision",
            format!("there is no combatant {:?} in fight {id}", request.who),
        ));
    };
    if !played.control[i].is(me.id, me.role == Role::Gm) {
        return Err(ApiError::forbidden(format!(
            "{:?} is not yours to control (their controller is {})",
            request.who,
            played.control[i].to_json()
        )));
    }
    let step = step_number(&head.body).unwrap_or(0);
    let asked = match (&request.id, request.step) {
        (Some(wanted), _) => awaited_by_id(&played, id, wanted, request)?,
        (None, Some(read)) => awaited_since(&played, id, read, step, request)?,
        (None, None) => {
            return Err(ApiError::bad_request(
                "bad_decision",
                "an answer names its decision: give its `id` (or the `step` it was read at)",
            ));
        }
    };
    // Tried first: a refused answer writes nothing.
    let mut trial = played.play.clone();
    if let Err(e) = trial.answer_id(&asked.id, request.choice.clone(), Controller::Person) {
        return Err(ApiError::bad_request("illegal_decision", e.to_string()));
    }
    let made = asked.answered(request.choice.clone(), Controller::Person);
    let (event, result) = commit(
        state,
        me,
        first,
        head.seq,
        step,
        played,
        Some(made),
        request.client_seed.clone(),
    )
    .await?;
    Ok((event, result, step))
}

/// The decision `wanted` names, if the fight awaits it: else 409 `stale`,
/// saying whether it was answered already.
fn awaited_by_id(
    played: &Played,
    fight: i64,
    wanted: &str,
    request: &DecisionRequest,
) -> Result<Decision, ApiError> {
    if let Some(d) = played.play.pending_all().iter().find(|d| d.id == wanted) {
        if d.name != request.who || d.kind != request.kind {
            return Err(ApiError::bad_request(
                "bad_decision",
                format!(
                    "decision {wanted} is {}'s {}, not {}'s {}",
                    d.name,
                    d.kind.name(),
                    request.who,
                    request.kind.name()
                ),
            ));
        }
        return Ok(d.clone());
    }
    let why = if played.play.answered(wanted) {
        format!("decision {wanted} of fight {fight} has been answered already")
    } else {
        format!(
            "fight {fight} does not await decision {wanted} (it awaits {})",
            awaited_list(played)
        )
    };
    Err(ApiError::new(StatusCode::CONFLICT, "stale", why))
}

/// `who`'s decision of `kind` if the fight has awaited it ever since step
/// `read` (an answer that quotes no `id`): else 409 `stale`.
fn awaited_since(
    played: &Played,
    fight: i64,
    read: i64,
    step: i64,
    request: &DecisionRequest,
) -> Result<Decision, ApiError> {
    if read > step {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!("step {read} is not fight {fight}'s step: it is at step {step}"),
        ));
    }
    let Some(asked) = played
        .play
        .pending_all()
        .iter()
        .find(|d| d.name == request.who && d.kind == request.kind)
        .cloned()
    else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!(
                "fight {fight} awaits {}, not {}'s {}",
                awaited_list(played),
                request.who,
                request.kind.name()
            ),
        ));
    };
    // Awaited since the step the answer quotes, without a break: else the
    // member answered a decision asked before (an earlier one of the same
    // kind, or this one before it was asked again).
    let since = played.since_of(&asked).map_or(step, |s| s.step);
    if read < since {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!(
                "{}'s {} ({}) has been awaited since step {since}, after step {read}: read the fight again",
                asked.name,
                asked.kind.name(),
                asked.id
            ),
        ));
    }
    Ok(asked)
}

/// The decisions a fight awaits, in words.
fn awaited_list(played: &Played) -> String {
    let awaited: Vec<String> = played
        .play
        .pending_all()
        .iter()
        .map(|d| format!("{}'s {} ({})", d.name, d.kind.name(), d.id))
        .collect();
    if awaited.is_empty() {
        "nothing".to_string()
    } else {
        awaited.join(", ")
    }
}

fn not_played(id: i64) -> ApiError {
    ApiError::bad_request(
        "not_played",
        format!("fight {id} is not played by decisions: it goes on by its steps"),
    )
}

/// `POST /api/rooms/{room}/fights/{fight}/control` (the GM's): `{"who":
/// name, "controller": "gm" | "engine" | <member id>}` and/or
/// `{"decision_seconds": N | null}`, written as a `fight-control` event.
/// A combatant handed to the engine while his decision is awaited has it
/// taken at once (a `fight-decision` event by the GM's member). Answers the
/// fight as `GET` shows it.
pub async fn control(
    // The extractors of a route on one event of the room (the same in each
    // such route: axum reads the handler's parameters).
    State(state): State<AppState>,
    InRoom(me): InRoom,
    Path((_room, id)): Path<(String, String)>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let id = super::seq_param(&id, "fight")?;
    let Json(body) = body?;
    let first = visible_fight(&state, &me, id).await?;
    if me.role != Role::Gm {
        return Err(ApiError::forbidden(
            "only the GM may hand combatants to others or set the time for decisions",
        ));
    }
    if first.body["played"] != true {
        return Err(not_played(id));
    }
    let Value::Object(mut object) = body else {
        return Err(ApiError::bad_request(
            "bad_control",
            "the change must be a JSON object",
        ));
    };
    let who = object.remove("who");
    let controller = object.remove("controller");
    let seconds = object.remove("decision_seconds");
    if let Some(extra) = object.keys().next() {
        return Err(ApiError::bad_request(
            "bad_control",
            format!(
                "unknown field `{extra}`: a change of control has `who`, `controller` and `decision_seconds`"
            ),
        ));
    }
    let (head, running) = current(&state, &me.room, id).await?;
    let Running::Played(mut played) = running else {
        return Err(not_played(id));
    };
    if played.play.fight().ending().is_some() {
        return Err(over(id));
    }
    let mut change = json!({
        "kind": "fight-control",
        "fight": id,
        "roller": me.id,
        "name": me.name,
        "role": me.role.as_str(),
        "secret": first.secret,
    });
    match (&who, &controller) {
        (Some(Value::String(name)), Some(value)) => {
            if played.play.index_of(name).is_none() {
                return Err(ApiError::bad_request(
                    "bad_control",
                    format!("there is no combatant {name:?} in fight {id}"),
                ));
            }
            let members = state.store.members(&me.room).await?;
            let control = check_control(&members, name, value, first.secret)?;
            change["who"] = json!(name);
            change["controller"] = control.to_json();
        }
        (None, None) => {}
        _ => {
            return Err(ApiError::bad_request(
                "bad_control",
                "`who` (a combatant's name) and `controller` go together",
            ));
        }
    }
    if let Some(value) = &seconds {
        change["decision_seconds"] = json!(decision_seconds(value)?);
    }
    if change.get("who").is_none() && seconds.is_none() {
        return Err(ApiError::bad_request(
            "bad_control",
            "nothing to change: give `who` and `controller`, or `decision_seconds`",
        ));
    }
    let step = step_number(&head.body).unwrap_or(0);
    change["step"] = json!(step + 1);
    let engine_before = played.engine_names();
    played
        .apply_control(&change)
        .map_err(|e| ApiError::bad_request("bad_control", e))?;
    let nonce = if first.secret {
        Some(super::rolls::nonce()?)
    } else {
        None
    };
    let (expected, secret) = (head.seq, first.secret);
    let (event, ()) = state
        .store
        .append_to_thread(&me.room, id, None, move |room, _slot, now| {
            if now.map(|e| e.seq) != Some(expected) {
                return Err(stale(id));
            }
            change["epoch"] = json!(room.epoch);
            if let Some(nonce) = nonce {
                change["nonce"] = json!(nonce);
            }
            let draft = Draft {
                kind: "fight-control",
                epoch: room.epoch,
                secret,
                body: change,
                thread: None,
                roller: None,
            };
            Ok((draft, ()))
        })
        .await
        .map_err(refused)?;
    state.hub.publish(event.clone());
    // A combatant handed to the engine or back: the fight goes on at once
    // (a decision event with no answer), asking anew what the rules now
    // require of whom (a decision awaited, now the engine's, is taken).
    if played.engine_names() != engine_before {
        commit(
            &state,
            &me,
            &first,
            event.seq,
            step + 1,
            played,
            None,
            String::new(),
        )
        .await
        .or_else(|e| {
            // A reader ran the fight on first (`settle`): done all the same.
            if e.code == "stale_head" {
                Ok((event.clone(), Value::Null))
            } else {
                Err(e)
            }
        })?;
    } else {
        schedule(&state, &me.room, id, &played);
        state
            .fights
            .put(&me.room, id, event.seq, Running::Played(played));
    }
    let mut answer = show_fight(&state, &me, id).await?;
    answer["control_seq"] = json!(event.seq);
    Ok((StatusCode::CREATED, Json(answer)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_as_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(rfc3339(1_795_000_000_000), "2026-11-18T11:06:40.000Z");
    }
}
