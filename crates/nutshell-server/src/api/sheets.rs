//! MLS character sheets in a room: made from a player's choices with
//! verifiable dice (`POST /sheets`), listed at their latest version (`GET
//! /sheets`), advanced by their owner or the GM (`POST
//! /sheets/{sheet}/advance`), and any sheet checked against every rule
//! (`POST /sheets/check`).

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use nutshell_dice::Seeded;
use nutshell_mls::character::generation;
use nutshell_mls::character::validate::{parse_sheet, validate};
use nutshell_mls::dice::Dice;
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::split;
use super::rolls::{RollPlan, refused};
use crate::action::Action;
use crate::error::ApiError;
use crate::events::view;
use crate::extract::InRoom;
use crate::sheet::{
    ADVANCE_PREFIX, AdvanceOptions, AdvanceRecord, MAX_CHOICES_BYTES, SHEET_PREFIX, SheetRequest,
};
use crate::state::AppState;
use crate::store::Event;

/// `{"choices": TOML}` (plus `client_seed`, and `secret` for the GM's
/// characters): the new sheet, kept in the log as the caller's.
pub async fn create(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(body) = body?;
    let (fields, request): (_, SheetRequest) = split(body, "sheet")?;
    fields.refuse_odds("bad_sheet", "a sheet has no odds")?;
    request
        .parse()
        .map_err(|e| ApiError::bad_request("bad_sheet", e))?;
    let committed = fields
        .commit(&state, &me, Action::Sheet { request }, "bad_sheet")
        .await?;
    Ok((StatusCode::CREATED, Json(committed.answer())))
}

/// The sheets made in the room that the caller may see, oldest first, each
/// at its latest version: `seq` (the sheet's id: the event that made it),
/// `version` (the event of its latest version), `advances` (how many), the
/// owner (`roller`, `owner`), the sheet and the rolls that made it.
pub async fn list(
    State(state): State<AppState>,
    InRoom(me): InRoom,
) -> Result<Json<Value>, ApiError> {
    // Sheets and advances of this server (`"action":{...,"kind":"sheet"}`)
    // and of earlier ones (an `expression` with a prefix); what the pattern
    // finds is checked by its structure.
    let made = "%\"kind\":\"sheet\"%";
    let advanced = "%\"kind\":\"advance\"%";
    let legacy_made = format!("%\"expression\":\"{SHEET_PREFIX}%");
    let legacy_advanced = format!("%\"expression\":\"{ADVANCE_PREFIX}%");
    let mut sheets: Vec<Value> = Vec::new();
    let mut events = state.store.events_matching(&me.room, made).await?;
    events.extend(state.store.events_matching(&me.room, &legacy_made).await?);
    events.sort_by_key(|e| e.seq);
    events.dedup_by_key(|e| e.seq);
    for event in events {
        if !is_sheet(&event) {
            continue;
        }
        let seen = view(&event, &me);
        let body = &seen["body"];
        if body.is_null() {
            continue;
        }
        sheets.push(json!({
            "seq": seen["seq"],
            "version": seen["seq"],
            "advances": 0,
            "roller": body["roller"],
            "owner": body["name"],
            "name": body["result"]["name"],
            "sheet": body["result"]["sheet"],
            "rolled": body["result"]["rolled"],
        }));
    }
    let mut events = state.store.events_matching(&me.room, advanced).await?;
    events.extend(
        state
            .store
            .events_matching(&me.room, &legacy_advanced)
            .await?,
    );
    events.sort_by_key(|e| e.seq);
    events.dedup_by_key(|e| e.seq);
    for event in events {
        if !is_advance(&event) {
            continue;
        }
        let seen = view(&event, &me);
        let body = &seen["body"];
        if let Some(sheet) = sheets.iter_mut().find(|s| s["seq"] == body["advances"]) {
            sheet["version"] = seen["seq"].clone();
            sheet["advances"] = json!(sheet["advances"].as_i64().unwrap_or(0) + 1);
            sheet["name"] = body["result"]["name"].clone();
            sheet["sheet"] = body["result"]["sheet"].clone();
        }
    }
    Ok(Json(json!({"sheets": sheets})))
}

/// `POST /api/rooms/{room}/sheets/{sheet}/advance`: `nutshell mls
/// advance`'s options (`adventure`, `role`, `check`, `increments`, `years`,
/// `reduce`, `spend`) plus `client_seed`. The sheet's owner or the GM
/// advances its latest version with verifiable dice; the answer is the new
/// sheet and the ledger's new entries. A bad option is refused naming it,
/// and nothing is written; a secret sheet's advances are secret.
pub async fn advance(
    // The extractors of a route on one event of the room (the same in each
    // such route: axum reads the handler's parameters).
    State(state): State<AppState>,
    InRoom(me): InRoom,
    Path((_room, id)): Path<(String, String)>,
    body: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let id = super::seq_param(&id, "sheet")?;
    let Json(body) = body?;
    let (fields, options): (_, AdvanceOptions) = split(body, "advance")?;
    fields.refuse_odds("bad_advance", "an advance has no odds")?;
    if fields.secret {
        return Err(ApiError::bad_request(
            "bad_advance",
            "`secret`: an advance is as secret as its sheet",
        ));
    }
    options
        .check_options()
        .map_err(|e| ApiError::bad_request("bad_advance", e))?;
    let no_sheet = || ApiError::not_found(format!("no sheet {id} in this room"));
    let (first, head) = super::own_thread(&state, &me, id, is_sheet, no_sheet, || {
        format!("only the owner of sheet {id} or the GM may advance it")
    })
    .await?;
    let was = head.body["result"]["sheet"]
        .as_str()
        .ok_or_else(no_sheet)?
        .to_string();
    let record = AdvanceRecord {
        sheet: id,
        from: head.seq,
        was,
        options,
    };
    let plan = RollPlan::new(
        &state,
        &me,
        Action::Advance { record },
        fields.client_seed,
        first.secret,
        "bad_advance",
    )?
    .expecting(fields.commitment)
    .with("advances", json!(id));
    let expected = head.seq;
    let (event, drafted) = state
        .store
        .append_to_thread(&me.room, id, Some(me.id), move |room, slot, now| {
            if now.map(|e| e.seq) != Some(expected) {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "conflict",
                    format!("sheet {id} was advanced meanwhile: try again"),
                ));
            }
            // As `rolls::commit`'s transaction after the thread's check: the
            // draft and the seed's commitment read inside it.
            plan.drafted(room, slot)
        })
        .await
        .map_err(refused)?;
    let mut answer = drafted.publish(&state, event).answer();
    answer["advances"] = json!(id);
    answer["from"] = json!(expected);
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Whether `event` made a sheet: a roll whose action is a sheet (or, from
/// an earlier server, whose expression names one by its prefix and is not
/// a plain roll by `/rolls`: such a roll was answered as a sheet too, so it
/// is listed as its author's).
pub(crate) fn is_sheet(event: &Event) -> bool {
    event.kind == "roll"
        && (event.body["action"]["kind"] == "sheet"
            || (event.body["action"].is_null()
                && event.body["expression"]
                    .as_str()
                    .is_some_and(|x| x.starts_with(SHEET_PREFIX))))
}

/// Whether `event` advanced a sheet (an earlier server's advance names it
/// in `advances`, which `/rolls` never wrote).
fn is_advance(event: &Event) -> bool {
    event.kind == "roll"
        && !event.body["advances"].is_null()
        && (event.body["action"]["kind"] == "advance"
            || (event.body["action"].is_null()
                && event.body["expression"]
                    .as_str()
                    .is_some_and(|x| x.starts_with(ADVANCE_PREFIX))))
}

/// `POST /sheets/check`: `{"sheet": TOML}` or `{"choices": TOML}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSheet {
    #[serde(default)]
    pub sheet: Option<String>,
    #[serde(default)]
    pub choices: Option<String>,
}

/// Checks a sheet against every cost and limit (`nutshell mls character
/// check --json`): `{"ok", "violations": [{field, line, problem, rule}]}`.
/// With `choices` instead (the file of `nutshell mls character new
/// --from`), the character they make is checked the same way and the
/// answer adds its CPs (`cps`: `budget`, `spent`, `left`) and what each
/// choice cost (`costs`: `[{field, what, cps}]`), so a form can show them as
/// they are spent. Nothing is written or rolled for the table.
pub async fn check(
    InRoom(_me): InRoom,
    body: Result<Json<CheckSheet>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(request) = body?;
    match (request.sheet, request.choices) {
        (Some(sheet), None) => check_sheet(&sheet),
        (None, Some(choices)) => check_choices(choices),
        _ => Err(ApiError::bad_request(
            "bad_sheet",
            "give one of `sheet` (a sheet's TOML) or `choices` (a choices file's TOML)",
        )),
    }
}

fn check_sheet(text: &str) -> Result<Json<Value>, ApiError> {
    if text.len() > MAX_CHOICES_BYTES * 4 {
        return Err(ApiError::bad_request(
            "bad_sheet",
            format!(
                "the sheet is {} bytes; the most is {}",
                text.len(),
                MAX_CHOICES_BYTES * 4
            ),
        ));
    }
    let sheet = parse_sheet("sheet", text)
        .map_err(|e| ApiError::bad_request("bad_sheet", e.to_string()))?;
    let violations: Vec<Value> = validate(&sheet, Some(text))
        .into_iter()
        .map(|v| json!({"field": v.field, "line": v.line, "problem": v.problem, "rule": v.rule}))
        .collect();
    Ok(Json(
        json!({"ok": violations.is_empty(), "name": sheet.name, "violations": violations}),
    ))
}

/// The character the choices make, with fixed dice (only the rolled
/// personality traits, THP and TMP depend on them, never a cost), checked.
fn check_choices(choices: String) -> Result<Json<Value>, ApiError> {
    let request = SheetRequest { choices };
    let choices = request
        .parse()
        .map_err(|e| ApiError::bad_request("bad_sheet", e))?;
    let budget = generation::budget(choices.race, choices.age);
    let mut source = Seeded::new(0);
    let mut dice = Dice::new(&mut source);
    let sheet = match generation::generate(&choices, &mut dice) {
        Ok(sheet) => sheet,
        Err(e) => {
            let field = if budget.is_err() {
                "character.age"
            } else {
                "choices"
            };
            return Ok(Json(json!({
                "ok": false,
                "name": choices.name,
                "cps": null,
                "costs": [],
                "violations": [{"field": field, "line": null, "problem": e.to_string(), "rule": null}],
            })));
        }
    };
    let violations: Vec<Value> = validate(&sheet, None)
        .into_iter()
        .map(|v| json!({"field": v.field, "line": v.line, "problem": v.problem, "rule": v.rule}))
        .collect();
    let character = sheet.character.as_ref();
    let costs: Vec<Value> = character
        .and_then(|c| generation::cost(c, &sheet.traits).ok())
        .unwrap_or_default()
        .into_iter()
        .map(|c| json!({"field": c.field, "what": c.what, "cps": c.cps}))
        .collect();
    let cps = match (budget, character) {
        (Ok(budget), Some(c)) => json!({"budget": budget, "spent": budget - c.cps, "left": c.cps}),
        _ => Value::Null,
    };
    Ok(Json(json!({
        "ok": violations.is_empty(),
        "name": sheet.name,
        "cps": cps,
        "costs": costs,
        "violations": violations,
    })))
}
