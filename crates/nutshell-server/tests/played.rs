//! MLS fights played by their players at a table (issue 26, items 1 and 2):
//! who controls whom, the decisions API, its refusals, its events, secrecy,
//! the time for decisions, restarts and two processes, on SQLite and
//! PostgreSQL.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use nutshell_server::verify::verify;
use serde_json::{Value, json};

#[path = "support/table.rs"]
mod table;

use table::app::{Backend, fresh_sqlite, on_both_databases, pg, spawn_app};
use table::{App, Stream, Who, percentile};
#[path = "support/reseal.rs"]
mod reseal;
use reseal::reseal;

on_both_databases!(
    a_table_plays_a_map_fight_to_the_end_through_decisions,
    a_secret_played_fight_is_the_gms_alone,
    the_time_for_a_decision_runs_out_and_the_engine_decides,
    the_gm_hands_a_combatant_to_the_engine_and_the_fight_goes_on,
    two_players_declare_their_set_actions_in_any_order,
    a_decision_in_a_round_shows_the_round_so_far,
    random_play_through_the_api_never_stalls,
    a_player_drafts_nobody,
    random_play_across_processes_with_sigkills,
);

const PARTY: &str = include_str!("../../../examples/mls/skirmish/party.toml");
const GOBLINS: &str = include_str!("../../../examples/mls/skirmish/goblins.toml");
const CROSSROADS: &str = include_str!("../../../examples/mls/maps/crossroads.toml");
const KNIGHT: &str = include_str!("../../../examples/mls/duel/knight.toml");
const BRIGAND: &str = include_str!("../../../examples/mls/duel/brigand.toml");
const CORRIDOR: &str = include_str!("../../../examples/mls/maps/corridor.toml");

/// The duel in the corridor, played, each combatant controlled as `control`
/// says (name -> a member's id, `"gm"` or `"engine"`).
fn corridor_duel(control: Value) -> Value {
    json!({"a": KNIGHT, "b": BRIGAND, "map": CORRIDOR, "played": true, "control": control})
}

/// The crossroads skirmish, played: Brenna and Tamsin are Ada's, Corwin
/// Bo's, Master Odo and Goblin 1 the GM's, the other goblins the engine's.
fn crossroads(ada: i64, bo: i64) -> Value {
    json!({
        "a": PARTY, "b": GOBLINS, "map": CROSSROADS, "played": true,
        "control": {
            "Brenna": ada, "Tamsin": ada, "Corwin": bo, "Master Odo": "gm",
            "Goblin 1": "gm", "Goblin 2": "engine", "Goblin 3": "engine",
            "Goblin 4": "engine", "Goblin archer 1": "engine", "Goblin archer 2": "engine",
        },
    })
}

/// Fight `path` as the GM sees it: none once it is over, else the view and
/// the decisions it awaits (a fight not over awaits someone).
async fn fight_as_gm(app: &App, path: &str, gm: &Who) -> Option<(Value, Vec<Value>)> {
    let (status, view) = app.get(path, &gm.key).await;
    assert_eq!(status, 200, "{view}");
    if view["over"] == true {
        return None;
    }
    let waiting = view["waiting"].as_array().unwrap().clone();
    assert!(
        !waiting.is_empty(),
        "a fight not over awaits nobody: {view}"
    );
    Some((view, waiting))
}

/// Decision `id` of fight `path` as the member whose key is `key` is
/// offered it (with its options), if it is among theirs.
async fn offered(app: &App, path: &str, key: &str, id: &Value) -> Option<Value> {
    let (status, mine) = app.get(path, key).await;
    assert_eq!(status, 200, "{mine}");
    mine["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == *id)
        .cloned()
}

/// A member at the table and the server they talk to.
struct Seat<'a> {
    who: Who,
    app: &'a App,
    stream: Stream,
}

/// The numbers of the decision `events` a person made.
fn by_people(events: &[Value]) -> Vec<i64> {
    events
        .iter()
        .filter(|e| e["body"]["action"]["decision"]["by"] == "person")
        .map(|e| e["seq"].as_i64().unwrap())
        .collect()
}

/// Which of `members` (the GM first) a `waiting` entry's controller is.
fn member_index(members: &[Who], controller: &Value) -> usize {
    if controller == "gm" {
        return 0;
    }
    let member = controller["member"].as_i64().expect("a person's decision");
    members.iter().position(|m| m.id == member).unwrap()
}

/// Whose the controller of a `waiting` entry is: the seat's index.
fn decider(seats: &[Seat<'_>], controller: &Value) -> usize {
    let id = if controller == "gm" {
        0
    } else {
        controller["member"].as_i64().expect("a person's decision")
    };
    seats.iter().position(|s| s.who.id == id).unwrap()
}

/// What was seen while playing a fight to its end.
#[derive(Default)]
struct Played {
    decisions: usize,
    /// Decision POST to the event on each other member's stream.
    latencies: Vec<Duration>,
    refused_403: bool,
    refused_400: bool,
    stale_409: bool,
    concurrent: bool,
    /// The events each 201 answered, by number.
    answered: Vec<i64>,
}

/// Plays fight `id` to its end by decisions only: whoever is awaited
/// answers with the engine's pick. On the way, once each: another member's
/// answer (403), an illegal move (400 with its sentence), a stale step
/// (409), and two answers at once (one 201, one 409). Every member checks
/// they see the options of their own combatants only.
async fn play_to_end(room: &str, id: i64, seats: &[Seat<'_>]) -> Played {
    let path = format!("/api/rooms/{room}/fights/{id}");
    let mut seen = Played::default();
    for _ in 0..2000 {
        let views = futures_views(seats, &path).await;
        let view = &views[0];
        if view["over"] == true {
            for v in &views {
                assert_eq!(v["over"], true);
                assert!(v["waiting"].as_array().unwrap().is_empty());
            }
            return seen;
        }
        let waiting = &view["waiting"][0];
        let who = waiting["who"].as_str().unwrap().to_string();
        let d = decider(seats, &waiting["controller"]);
        // Each sees who is awaited; only the controller sees the options
        // (another member sees those of their own combatants awaited too).
        for (i, v) in views.iter().enumerate() {
            assert_eq!(v["waiting"][0]["who"], who, "{v}");
            assert_eq!(v["step"], view["step"]);
            let theirs: Vec<&Value> = v["waiting"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|w| decider(seats, &w["controller"]) == i)
                .collect();
            let shown = v["decisions"].as_array().unwrap();
            assert_eq!(shown.len(), theirs.len(), "{v}");
            for (w, s) in theirs.iter().zip(shown) {
                assert_eq!((&w["who"], &w["kind"]), (&s["name"], &s["kind"]), "{v}");
            }
            if i == d {
                assert_eq!(v["decision"]["name"], who, "{v}");
            } else {
                assert_ne!(
                    v["decision"]["name"], who,
                    "{} sees {who}'s options",
                    seats[i].who.name
                );
            }
        }
        let decision = &views[d]["decision"];
        let kind = decision["kind"].clone();
        let step = view["step"].as_i64().unwrap();
        let answer = json!({"step": step, "who": who, "kind": kind, "choice": decision["default"]});
        let decisions = format!("{path}/decisions");
        let seat = &seats[d];
        if kind == "movement" {
            for option in decision["options"].as_array().unwrap() {
                let square = option["square"]
                    .as_str()
                    .expect("a movement option's square");
                assert!(option["cost"].is_u64(), "{option}");
                let way = option["path"].as_array().unwrap();
                if let Some(last) = way.last() {
                    assert_eq!(last.as_str().unwrap(), square, "{option}");
                }
            }
        }
        // Another member's answer for this combatant: 403, nothing written.
        if !seen.refused_403 && d != 0 {
            let other = seats
                .iter()
                .position(|s| s.who.id != seat.who.id && s.who.id != 0)
                .unwrap();
            for o in [0, other] {
                let (status, error) = seats[o]
                    .app
                    .post(&decisions, &seats[o].who.key, answer.clone())
                    .await;
                assert_eq!(status, 403, "{error}");
                assert_eq!(error["error"]["code"], "forbidden");
            }
            seen.refused_403 = true;
        }
        // An illegal move: into the hedge (a wall), refused with the rule.
        if !seen.refused_400
            && kind == "movement"
            && decision["options"].as_array().unwrap().len() > 1
        {
            let mut bad = answer.clone();
            bad["choice"] = json!({"path": ["A1"]});
            let (status, error) = seat.app.post(&decisions, &seat.who.key, bad).await;
            assert_eq!(status, 400, "{error}");
            assert_eq!(error["error"]["code"], "illegal_decision", "{error}");
            let message = error["error"]["message"].as_str().unwrap();
            assert!(message.contains("is refused"), "{message}");
            assert!(message.contains("mls"), "the rule's sentence: {message}");
            seen.refused_400 = true;
        }
        // An answer to a step the fight has left: 409.
        if !seen.stale_409 && step > 1 {
            let mut old = answer.clone();
            old["step"] = json!(step - 1);
            let (status, error) = seat.app.post(&decisions, &seat.who.key, old).await;
            assert_eq!(status, 409, "{error}");
            assert_eq!(error["error"]["code"], "stale");
            seen.stale_409 = true;
        }
        let sent = Instant::now();
        let seq = if !seen.concurrent {
            // Two answers at once: one is written, the other is stale.
            let (a, b) = tokio::join!(
                seat.app.post(&decisions, &seat.who.key, answer.clone()),
                seat.app.post(&decisions, &seat.who.key, answer.clone()),
            );
            let mut statuses = [a.0, b.0];
            statuses.sort();
            assert_eq!(statuses, [201, 409], "{} / {}", a.1, b.1);
            let (won, lost) = if a.0 == 201 { (a.1, b.1) } else { (b.1, a.1) };
            assert_eq!(lost["error"]["code"], "stale", "{lost}");
            seen.concurrent = true;
            won["event"]["seq"].as_i64().unwrap()
        } else {
            let (status, done) = seat.app.post(&decisions, &seat.who.key, answer).await;
            assert_eq!(status, 201, "{done}");
            assert_eq!(done["event"]["kind"], "fight-decision");
            assert_eq!(
                done["event"]["body"]["action"]["decision"]["who"],
                who.as_str()
            );
            assert_eq!(done["event"]["body"]["action"]["decision"]["by"], "person");
            done["event"]["seq"].as_i64().unwrap()
        };
        seen.answered.push(seq);
        seen.decisions += 1;
        for (i, other) in seats.iter().enumerate() {
            if i != d {
                let arrived = other.stream.wait_for(seq).await;
                seen.latencies
                    .push(arrived.at.saturating_duration_since(sent));
                assert_eq!(arrived.data["kind"], "fight-decision");
            }
        }
    }
    panic!("fight {id} not over after 2000 decisions");
}

/// Every seat's view of the fight, read at once.
async fn futures_views(seats: &[Seat<'_>], path: &str) -> Vec<Value> {
    let mut views = Vec::new();
    for seat in seats {
        let (status, view) = seat.app.get(path, &seat.who.key).await;
        assert_eq!(status, 200, "{view}");
        views.push(view);
    }
    // Read one after the other: a view read after another's may be of a
    // later step only if someone answered meanwhile (nobody does here).
    views
}

/// Reveals the epoch and checks the whole log; answers the log.
async fn reveal_and_verify(app: &App, room: &str, gm: &Who) -> String {
    let (status, revealed) = app
        .post(&format!("/api/rooms/{room}/reveal"), &gm.key, json!({}))
        .await;
    assert_eq!(status, 200, "{revealed}");
    let log = app.log(room, &gm.key).await;
    let report = verify(&log).unwrap_or_else(|f| panic!("the log verifies: {f}"));
    assert_eq!(report.rolls_pending, 0);
    log
}

/// The `fight-decision` events of fight `id` in an export, in order.
fn decision_events(log: &str, id: i64) -> Vec<Value> {
    log.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["kind"] == "fight-decision" && e["body"]["fight"] == id)
        .collect()
}

/// Changing one decision's choice in an export (hashes recomputed, so the
/// chain holds) fails `verify` at that line.
fn a_changed_decision_fails(log: &str, id: i64) {
    let events = decision_events(log, id);
    let target = events
        .iter()
        .find(|e| {
            e["body"]["action"]["decision"]["kind"] == "movement"
                || e["body"]["action"]["decision"]["kind"] == "set-action"
        })
        .expect("a movement or set action decided");
    let seq = target["seq"].as_i64().unwrap();
    let kind = target["body"]["action"]["decision"]["kind"].clone();
    let edited = reseal(log, seq, |body| {
        body["action"]["decision"]["choice"] = if kind == "movement" {
            json!({"path": []})
        } else {
            json!({"action": "total-defence"})
        };
    });
    let line = edited
        .lines()
        .position(|l| serde_json::from_str::<Value>(l).unwrap()["seq"] == seq)
        .unwrap()
        + 1;
    let failure = verify(&edited).expect_err("a changed decision fails");
    assert_eq!(failure.line, line, "{failure}");
    assert!(
        failure.message.contains(&format!("event {seq}")),
        "{failure}"
    );
}

fn report_latency(what: &str, latencies: &mut [Duration]) {
    if latencies.is_empty() {
        return;
    }
    let p50 = percentile(latencies, 0.5);
    let p99 = percentile(latencies, 0.99);
    println!(
        "{what}: decision POST to the event on every other member's stream over {} deliveries: p50 {:.1} ms, p99 {:.1} ms",
        latencies.len(),
        p50.as_secs_f64() * 1000.0,
        p99.as_secs_f64() * 1000.0
    );
}

async fn seats<'a>(
    app: &'a App,
    room: &str,
    gm: &Who,
    players: &[Who],
    after: i64,
) -> Vec<Seat<'a>> {
    let mut seats = Vec::new();
    for who in std::iter::once(gm).chain(players) {
        seats.push(Seat {
            who: who.clone(),
            app,
            stream: Stream::open(app, room, &who.key, after).await,
        });
    }
    seats
}

/// A GM and two players play the crossroads skirmish on the map to its
/// end, by decisions only; the log verifies, and fails on a changed
/// decision.
async fn a_table_plays_a_map_fight_to_the_end_through_decisions(backend: Backend) {
    let Some(app) = spawn_app(backend, "a_table_plays_a_map_fight").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let seats = seats(&app, &room, &gm, &players, 0).await;
    let fight = app
        .start_fight(&room, &gm, crossroads(players[0].id, players[1].id))
        .await;
    let id = fight["fight"].as_i64().unwrap();
    assert_eq!(fight["played"], true);
    assert_eq!(
        fight["step"], 1,
        "the fight's start ran it to the first decision"
    );
    let controllers: HashMap<String, Value> = fight["controllers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["controller"].clone(),
            )
        })
        .collect();
    assert_eq!(
        controllers["Brenna"],
        json!({"member": players[0].id, "name": "Ada"})
    );
    assert_eq!(
        controllers["Corwin"],
        json!({"member": players[1].id, "name": "Bo"})
    );
    assert_eq!(controllers["Goblin 1"], "gm");
    assert_eq!(controllers["Goblin 2"], "engine");
    // A played fight is not stepped.
    let (status, error) = app
        .post(
            &format!("/api/rooms/{room}/fights/{id}/step"),
            &gm.key,
            json!({}),
        )
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (400, Some("played_fight"))
    );
    let mut seen = play_to_end(&room, id, &seats).await;
    assert!(seen.refused_403 && seen.refused_400 && seen.stale_409 && seen.concurrent);
    report_latency(&format!("{backend:?}"), &mut seen.latencies);
    // After the end: nothing more is taken.
    let (status, error) = app
        .post(
            &format!("/api/rooms/{room}/fights/{id}/decisions"),
            &gm.key,
            json!({"step": 0, "who": "Brenna", "kind": "movement", "choice": {"path": []}}),
        )
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (409, Some("fight_over")),
        "{error}"
    );
    let log = reveal_and_verify(&app, &room, &gm).await;
    // One event per answer, each by a person, steps one after the other.
    let events = decision_events(&log, id);
    let people = by_people(&events);
    assert_eq!(people, seen.answered);
    for (n, e) in events.iter().enumerate() {
        assert_eq!(e["body"]["step"], n as i64 + 1);
    }
    assert_eq!(events.last().unwrap()["body"]["result"]["over"], true);
    // Every member's stream announced every event of the fight once.
    for seat in &seats {
        let all = seat.stream.all();
        for e in &events {
            let seq = e["seq"].as_i64().unwrap();
            assert_eq!(all.iter().filter(|s| s.seq == seq).count(), 1);
        }
    }
    a_changed_decision_fails(&log, id);
}

/// A GM's secret played fight: players get 404 for it on every route, and
/// see its events only as hidden ones; no player may be handed a combatant.
async fn a_secret_played_fight_is_the_gms_alone(backend: Backend) {
    let Some(app) = spawn_app(backend, "a_secret_played_fight").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada"]).await;
    let ada = &players[0];
    let stream = Stream::open(&app, &room, &ada.key, 0).await;
    let fights = format!("/api/rooms/{room}/fights");
    let mut body =
        json!({"a": KNIGHT, "b": BRIGAND, "map": CORRIDOR, "played": true, "secret": true});
    body["control"] = json!({"Sir Aldric": ada.id});
    let (status, error) = app.post(&fights, &gm.key, body.clone()).await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (400, Some("bad_control")),
        "{error}"
    );
    body["control"] = json!({});
    let fight = app.start_fight(&room, &gm, body).await;
    let id = fight["fight"].as_i64().unwrap();
    assert_eq!(fight["controllers"][0]["controller"], "gm");
    // A player asks for it as for any hidden event: 404, the same words.
    let path = format!("{fights}/{id}");
    let (status, missing) = app.get(&path, &ada.key).await;
    assert_eq!(status, 404);
    let (_, nothing) = app.get(&format!("{fights}/999999"), &ada.key).await;
    assert_eq!(
        missing["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&id.to_string(), "N"),
        nothing["error"]["message"]
            .as_str()
            .unwrap()
            .replace("999999", "N")
    );
    let answer =
        json!({"step": 1, "who": "Sir Aldric", "kind": "set-action", "choice": {"action": "move"}});
    let (status, _) = app
        .post(&format!("{path}/decisions"), &ada.key, answer)
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .post(
            &format!("{path}/control"),
            &ada.key,
            json!({"who": "Sir Aldric", "controller": "engine"}),
        )
        .await;
    assert_eq!(status, 404);
    // The GM plays it to the end.
    play_to_end_alone(&app, &room, id, &gm).await;
    // Ada's stream saw the fight's events, every one hidden.
    let (_, view) = app.get(&path, &gm.key).await;
    let last = view["seq"].as_i64().unwrap();
    stream.wait_for(last).await;
    for s in stream.all().iter().filter(|s| s.seq >= id) {
        assert_eq!(s.data["hidden"], true, "{}", s.data);
        assert!(s.data["body"].is_null());
    }
    // Her export, the fight's events hidden in it, checks as far as it can.
    let hers = app.log(&room, &ada.key).await;
    assert!(decision_events(&hers, id).is_empty());
    let report = verify(&hers).unwrap_or_else(|f| panic!("{f}"));
    assert!(report.rolls_hidden >= 2, "{report:?}");
    let log = reveal_and_verify(&app, &room, &gm).await;
    assert!(!decision_events(&log, id).is_empty());
}

/// A decision awaited in the middle of a round: the fight's GET shows every
/// member who may see it the round's lines up to it (`so_far`), and the
/// event that answers it begins with those same lines; empty once the
/// fight is over.
async fn a_decision_in_a_round_shows_the_round_so_far(backend: Backend) {
    let Some(app) = spawn_app(backend, "a_decision_in_a_round_shows_so_far").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada"]).await;
    let ada = &players[0];
    let fights = format!("/api/rooms/{room}/fights");
    let (mut shown, mut completed) = (0, 0);
    for _ in 0..10 {
        let body = corridor_duel(json!({"Sir Aldric": ada.id, "Black Wat": "gm"}));
        let fight = app.start_fight(&room, &gm, body).await;
        let id = fight["fight"].as_i64().unwrap();
        let path = format!("{fights}/{id}");
        let mut before: Vec<Value> = Vec::new();
        for _ in 0..2000 {
            let (_, view) = app.get(&path, &gm.key).await;
            let (_, hers) = app.get(&path, &ada.key).await;
            assert_eq!(hers["so_far"], view["so_far"], "every member sees it");
            if view["over"] == true {
                assert_eq!(view["so_far"], json!([]));
                break;
            }
            let so_far = view["so_far"].as_array().unwrap().clone();
            assert!(
                so_far.len() >= before.len() && so_far[..before.len()] == before[..],
                "the round so far only grows: {before:?}\nnow: {so_far:?}"
            );
            let who = if view["waiting"][0]["controller"] == "gm" {
                &gm
            } else {
                ada
            };
            let (_, mine) = app.get(&path, &who.key).await;
            let d = &mine["decision"];
            let answer = json!({"step": mine["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
            let (status, done) = app
                .post(&format!("{path}/decisions"), &who.key, answer)
                .await;
            assert_eq!(status, 201, "{done}");
            // An answer the round's next decision still waits behind
            // writes no lines (the round shown so far grows); the one that
            // completes the round writes it, beginning with what was shown.
            let lines = done["result"]["lines"].as_array().unwrap();
            if lines.is_empty() {
                before = so_far.clone();
            } else {
                assert!(
                    lines.len() >= so_far.len() && lines[..so_far.len()] == so_far[..],
                    "shown: {so_far:?}\nevent: {lines:?}"
                );
                before.clear();
                // A round's own lines, not only the turn's opening.
                if so_far.iter().any(|l| l["round"].as_u64() > Some(0)) {
                    completed += 1;
                }
            }
            if !so_far.is_empty() {
                // The lines are the log's: text, turn and round.
                assert!(so_far[0]["text"].is_string(), "{}", so_far[0]);
                assert!(so_far[0]["turn"].as_u64().unwrap() >= 1);
                shown += 1;
            }
        }
        if shown > 0 && completed > 0 {
            break;
        }
    }
    assert!(
        shown > 0 && completed > 0,
        "no decision in the middle of a round in 10 fights"
    );
    reveal_and_verify(&app, &room, &gm).await;
}

/// The GM answers every decision of fight `id` with the engine's pick.
async fn play_to_end_alone(app: &App, room: &str, id: i64, gm: &Who) {
    let path = format!("/api/rooms/{room}/fights/{id}");
    for _ in 0..2000 {
        let (_, view) = app.get(&path, &gm.key).await;
        if view["over"] == true {
            return;
        }
        let d = &view["decision"];
        let answer = json!({"step": view["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
        let (status, done) = app
            .post(&format!("{path}/decisions"), &gm.key, answer)
            .await;
        assert_eq!(status, 201, "{done}");
    }
    panic!("fight {id} not over");
}

/// With a time for decisions, a decision nobody answers is taken by the
/// engine (its default) and logged as the engine's.
async fn the_time_for_a_decision_runs_out_and_the_engine_decides(backend: Backend) {
    let Some(app) = spawn_app(backend, "the_time_for_a_decision_runs_out").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada"]).await;
    let ada = &players[0];
    let fights = format!("/api/rooms/{room}/fights");
    let body = json!({
        "a": KNIGHT, "b": BRIGAND, "map": CORRIDOR, "played": true,
        "control": {"Sir Aldric": ada.id, "Black Wat": "engine"}, "decision_seconds": 1,
    });
    let fight = app.start_fight(&room, &gm, body).await;
    let id = fight["fight"].as_i64().unwrap();
    let waited = fight["waiting"][0].clone();
    assert_eq!(waited["who"], "Sir Aldric");
    assert!(
        waited["deadline"].as_str().unwrap().ends_with('Z'),
        "{waited}"
    );
    let default = {
        let (_, view) = app.get(&format!("{fights}/{id}"), &ada.key).await;
        view["decision"]["default"].clone()
    };
    // Nobody answers; past the time the fight has moved on by itself.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (status, view) = app.get(&format!("{fights}/{id}"), &ada.key).await;
    assert_eq!(status, 200);
    assert!(view["step"].as_i64().unwrap() >= 2, "{view}");
    let log = app.log(&room, &gm.key).await;
    let taken = &decision_events(&log, id)[1];
    let decision = &taken["body"]["action"]["decision"];
    assert_eq!(decision["who"], "Sir Aldric");
    assert_eq!(decision["by"], "engine");
    assert_eq!(decision["choice"], default);
    // The GM lifts the limit; the next decision waits.
    let (status, changed) = app
        .post(
            &format!("{fights}/{id}/control"),
            &gm.key,
            json!({"decision_seconds": null}),
        )
        .await;
    assert_eq!(status, 201, "{changed}");
    assert!(
        changed["waiting"][0].get("deadline").is_none() || changed["over"] == true,
        "{changed}"
    );
    // A player may not change it.
    let (status, _) = app
        .post(
            &format!("{fights}/{id}/control"),
            &ada.key,
            json!({"decision_seconds": 5}),
        )
        .await;
    assert_eq!(status, 403);
    reveal_and_verify(&app, &room, &gm).await;
}

/// The GM hands a player's combatant, whose decision is awaited, to the
/// engine: it decides at once and the fight goes on; handed back, the
/// player decides again.
async fn the_gm_hands_a_combatant_to_the_engine_and_the_fight_goes_on(backend: Backend) {
    let Some(app) = spawn_app(backend, "the_gm_hands_a_combatant").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada"]).await;
    let ada = &players[0];
    let fights = format!("/api/rooms/{room}/fights");
    let body = corridor_duel(json!({"Sir Aldric": ada.id, "Black Wat": "gm"}));
    let fight = app.start_fight(&room, &gm, body).await;
    let id = fight["fight"].as_i64().unwrap();
    let path = format!("{fights}/{id}");
    // Unknown combatants and members are refused with their names.
    for (change, needle) in [
        (json!({"who": "Nobody", "controller": "gm"}), "Nobody"),
        (
            json!({"who": "Sir Aldric", "controller": 99}),
            "no member 99",
        ),
        (
            json!({"who": "Sir Aldric", "controller": "bob"}),
            "not \"bob\"",
        ),
    ] {
        let (status, error) = app.post(&format!("{path}/control"), &gm.key, change).await;
        assert_eq!(status, 400, "{error}");
        assert!(
            error["error"]["message"].as_str().unwrap().contains(needle),
            "{error}"
        );
    }
    // Whoever is awaited first, hand Sir Aldric to the engine whenever he is.
    let mut handed = false;
    for _ in 0..500 {
        let (_, view) = app.get(&path, &gm.key).await;
        if view["over"] == true {
            break;
        }
        let who = view["waiting"][0]["who"].as_str().unwrap().to_string();
        if who == "Sir Aldric" && !handed {
            let step = view["step"].as_i64().unwrap();
            let (status, after) = app
                .post(
                    &format!("{path}/control"),
                    &gm.key,
                    json!({"who": "Sir Aldric", "controller": "engine"}),
                )
                .await;
            assert_eq!(status, 201, "{after}");
            assert!(
                after["step"].as_i64().unwrap() >= step + 2,
                "a control event and the engine's decision: {after}"
            );
            assert_ne!(after["waiting"][0]["who"], "Sir Aldric", "{after}");
            handed = true;
            // Back to Ada.
            let (status, back) = app
                .post(
                    &format!("{path}/control"),
                    &gm.key,
                    json!({"who": "Sir Aldric", "controller": ada.id}),
                )
                .await;
            assert_eq!(status, 201, "{back}");
            continue;
        }
        let key = if who == "Sir Aldric" {
            &ada.key
        } else {
            &gm.key
        };
        let (_, mine) = app.get(&path, key).await;
        let d = &mine["decision"];
        let answer = json!({"step": mine["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
        let (status, done) = app.post(&format!("{path}/decisions"), key, answer).await;
        assert_eq!(status, 201, "{done}");
    }
    assert!(handed, "Sir Aldric was awaited at least once");
    let log = reveal_and_verify(&app, &room, &gm).await;
    let controls = log
        .lines()
        .filter(|l| l.contains("\"kind\":\"fight-control\""))
        .count();
    assert_eq!(controls, 2);
}

/// Two server processes on one PostgreSQL database: the GM and Ada on one,
/// Bo on the other, play the crossroads to its end; every decision is one
/// event, none lost or doubled, and the log verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_play_one_fight() {
    let Some(url) = pg::fresh_postgres("two_servers_play_one_fight").await else {
        return;
    };
    let a = table::start(&url, None).await;
    let b = table::start(&url, None).await;
    let (room, gm, players) = a.table(&["Ada", "Bo"]).await;
    let seats = vec![
        Seat {
            who: gm.clone(),
            app: &a,
            stream: Stream::open(&a, &room, &gm.key, 0).await,
        },
        Seat {
            who: players[0].clone(),
            app: &a,
            stream: Stream::open(&a, &room, &players[0].key, 0).await,
        },
        Seat {
            who: players[1].clone(),
            app: &b,
            stream: Stream::open(&b, &room, &players[1].key, 0).await,
        },
    ];
    let fight = b
        .start_fight(&room, &gm, crossroads(players[0].id, players[1].id))
        .await;
    let id = fight["fight"].as_i64().unwrap();
    let mut seen = play_to_end(&room, id, &seats).await;
    report_latency("two processes on PostgreSQL", &mut seen.latencies);
    let log = reveal_and_verify(&b, &room, &gm).await;
    let events = decision_events(&log, id);
    let people = by_people(&events);
    assert_eq!(people, seen.answered, "every answer once, none lost");
    let steps: Vec<i64> = events
        .iter()
        .map(|e| e["body"]["step"].as_i64().unwrap())
        .collect();
    assert_eq!(steps, (1..=steps.len() as i64).collect::<Vec<_>>());
}

/// The `nutshell` binary of this build (the command line crate's), next to
/// this test's own directory.
fn nutshell_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let binary = dir.join(format!("nutshell{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: build it first (`cargo build --release -p nutshell-cli`; .ci/test does)",
        binary.display()
    );
    binary
}

/// A `nutshell serve` process, killed with SIGKILL when dropped.
struct Serve(std::process::Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(database: &str) -> (Serve, String) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(nutshell_binary())
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "0",
            "--database",
            database,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    (Serve(child), format!("http://{address}"))
}

/// `kill -9` of a real server in the middle of a played fight: restarted on
/// the same database, the fight is rebuilt from its events and goes on from
/// where it was, and the finished log verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_fight_survives_a_sigkill_and_goes_on() {
    let (database, _dir) = fresh_sqlite();
    let (mut process, base) = serve(&database);
    let app = table::at(base);
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let fight = app
        .start_fight(&room, &gm, crossroads(players[0].id, players[1].id))
        .await;
    let id = fight["fight"].as_i64().unwrap();
    let path = format!("/api/rooms/{room}/fights/{id}");
    let keys: HashMap<i64, String> = std::iter::once(&gm)
        .chain(&players)
        .map(|w| (w.id, w.key.clone()))
        .collect();
    // Ten decisions, then SIGKILL.
    let answer_one = |app: &App, view: Value| {
        let keys = keys.clone();
        let path = path.clone();
        let app_base = app.base.clone();
        async move {
            let app = table::at(app_base);
            let controller = &view["waiting"][0]["controller"];
            let id = if controller == "gm" {
                0
            } else {
                controller["member"].as_i64().unwrap()
            };
            let key = &keys[&id];
            let (_, mine) = app.get(&path, key).await;
            let d = &mine["decision"];
            let answer = json!({"step": mine["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
            let (status, done) = app.post(&format!("{path}/decisions"), key, answer).await;
            assert_eq!(status, 201, "{done}");
        }
    };
    for _ in 0..10 {
        let (_, view) = app.get(&path, &gm.key).await;
        assert_eq!(view["over"], false);
        answer_one(&app, view).await;
    }
    let (_, before) = app.get(&path, &gm.key).await;
    process.0.kill().unwrap(); // SIGKILL
    process.0.wait().unwrap();
    drop(process);
    let (_process, base) = serve(&database);
    let app = table::at(base);
    let (status, after) = app.get(&path, &gm.key).await;
    assert_eq!(status, 200, "{after}");
    // Rebuilt from its events: the same step, state and decision awaited.
    for field in ["step", "state", "waiting", "controllers"] {
        assert_eq!(after[field], before[field], "{field}");
    }
    let mut n = 0;
    loop {
        let (_, view) = app.get(&path, &gm.key).await;
        if view["over"] == true {
            break;
        }
        answer_one(&app, view).await;
        n += 1;
        assert!(n < 2000, "the fight ends");
    }
    reveal_and_verify(&app, &room, &gm).await;
}

/// Prints a random play's counts and keeps them in the build's temporary
/// directory (`random-play-counts.txt`), which `.ci/test` shows at its end.
// Written again in nutshell-mls's tests/combat/playouts.rs: each crate's
// tests build alone.
fn report(line: &str) {
    use std::io::Write;
    println!("{line}");
    let path = concat!(env!("CARGO_TARGET_TMPDIR"), "/random-play-counts.txt");
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

/// An answer posted to a server that may be killed while it is in flight:
/// the status, or none when the connection broke.
async fn try_post(base: String, key: String, path: String, body: Value) -> Option<u16> {
    let response = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .ok()?;
    Some(response.status().as_u16())
}

/// The ids of the decisions `view` awaits.
fn awaited_ids(view: &Value) -> Vec<Value> {
    view["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].clone())
        .collect()
}

/// Random play through real processes (issue 34, "random play through the
/// server"): `nutshell serve` processes on one database (two on
/// PostgreSQL, one on SQLite), two members answering at once, answers sent
/// twice (to both processes when there are two), random hand-overs, and
/// twice a `kill -9` of a process while an answer is in flight, restarted
/// on the same database. After every step: a fight not over awaits
/// someone, an offered option is never refused (no 400, no 5xx), an answer
/// is written at most once (the other 409), and an answer cut by the kill
/// either holds after the restart (sending it again is 409) or is still
/// awaited and answered again. At the end every decision id answered by a
/// person appears once in the log, and the log verifies.
async fn random_play_across_processes_with_sigkills(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let (database, processes) = match backend {
        Backend::Sqlite => (
            format!("sqlite:{}", dir.path().join("table.db").display()),
            1,
        ),
        Backend::Postgres => match pg::fresh_postgres("random_play_across_processes").await {
            Some(url) => (url, 2),
            None => return,
        },
    };
    let mut servers: Vec<(Serve, String)> = (0..processes).map(|_| serve(&database)).collect();
    let first = table::at(servers[0].1.clone());
    let (room, gm, players) = first.table(&["Ada", "Bo"]).await;
    let members = [gm.clone(), players[0].clone(), players[1].clone()];
    let fights = format!("/api/rooms/{room}/fights");
    let (status, fight) = first
        .post(&fights, &gm.key, crossroads(players[0].id, players[1].id))
        .await;
    assert_eq!(status, 201, "{fight}");
    let path = format!("{fights}/{}", fight["fight"].as_i64().unwrap());
    let decisions = format!("{path}/decisions");
    let mut pick = Pick(0x0051_6C11);
    let (mut answers, mut concurrent, mut doubles, mut hand_overs, mut kills) = (0, 0, 0, 0, 0);
    let mut cut_by_a_kill = 0;
    let mut over = false;
    for step in 0..3000 {
        let base = servers[pick.below(servers.len())].1.clone();
        let app = table::at(base);
        let Some((view, waiting)) = fight_as_gm(&app, &path, &gm).await else {
            over = true;
            break;
        };
        if pick.below(12) == 0 {
            hand_over_at_random(&app, &path, &view, &gm, &players, &mut pick).await;
            hand_overs += 1;
            continue;
        }
        // Up to two awaited decisions of different members, each with an
        // option its controller is offered.
        let mut chosen: Vec<(usize, Value)> = Vec::new();
        for _ in 0..2 {
            let w = &waiting[pick.below(waiting.len())];
            let seat = member_index(&members, &w["controller"]);
            if chosen.iter().any(|(s, _)| *s == seat) {
                continue;
            }
            let Some(d) = offered(&app, &path, &members[seat].key, &w["id"]).await else {
                continue;
            };
            let options = d["options"].as_array().unwrap();
            assert!(!options.is_empty(), "a decision with no option: {d}");
            let choice = options[pick.below(options.len())]["choice"].clone();
            chosen.push((
                seat,
                json!({"id": d["id"], "who": d["name"], "kind": d["kind"], "choice": choice}),
            ));
        }
        if chosen.len() == 2 {
            concurrent += 1;
        }
        // Each answer to a random process, a quarter of them twice (to
        // every process), all at once.
        let mut sent = Vec::new();
        for (k, (seat, answer)) in chosen.iter().enumerate() {
            let twice = pick.below(4) == 0;
            doubles += usize::from(twice);
            for n in 0..if twice { 2 } else { 1 } {
                let base = servers[(pick.below(servers.len()) + n) % servers.len()]
                    .1
                    .clone();
                let task = tokio::spawn(try_post(
                    base,
                    members[*seat].key.clone(),
                    decisions.clone(),
                    answer.clone(),
                ));
                sent.push((k, task));
            }
        }
        // Twice in the fight, a process is killed while they are in flight.
        let kill = (kills < 2 && step >= 10 + 15 * kills).then(|| pick.below(servers.len()));
        if let Some(k) = kill {
            tokio::time::sleep(Duration::from_millis(pick.below(6) as u64)).await;
            servers[k].0.0.kill().unwrap(); // SIGKILL
            servers[k].0.0.wait().unwrap();
            servers[k] = serve(&database);
            kills += 1;
        }
        let mut written = vec![0; chosen.len()];
        let mut cut = vec![false; chosen.len()];
        for (k, task) in sent {
            match task.await.unwrap() {
                Some(201) => written[k] += 1,
                Some(409) => {}
                Some(status) => panic!(
                    "an offered answer got {status}: {} (after {answers} answers)",
                    chosen[k].1
                ),
                None => {
                    assert!(kill.is_some(), "a connection broke without a kill");
                    cut[k] = true;
                }
            }
        }
        for (k, (seat, answer)) in chosen.iter().enumerate() {
            assert!(written[k] <= 1, "one answer written twice: {answer}");
            answers += written[k];
            if cut[k] && written[k] == 0 {
                cut_by_a_kill += 1;
                // Cut by the kill: written, or still awaited and answerable.
                let app = table::at(servers[0].1.clone());
                let (_, now) = app.get(&path, &gm.key).await;
                let (status, again) = app
                    .post(&decisions, &members[*seat].key, answer.clone())
                    .await;
                if awaited_ids(&now).contains(&answer["id"]) {
                    assert_ne!(status, 400, "{again}");
                    answers += usize::from(status == 201);
                } else {
                    assert_eq!(
                        status, 409,
                        "a cut answer that was written, sent again: {again}"
                    );
                }
            }
        }
    }
    assert!(over, "the fight did not end");
    assert_eq!(kills, 2);
    let app = table::at(servers[0].1.clone());
    let log = reveal_and_verify(&app, &room, &gm).await;
    let twice = answered_again_unasked(&log);
    assert!(
        twice.is_empty(),
        "a decision answered twice in the log, not asked again between the answers: {twice:?}; the log:\n{log}"
    );
    report(&format!(
        "random play across {processes} process(es) ({backend:?}): {answers} answers, {concurrent} steps with two members at once, {doubles} doubled, {hand_overs} hand-overs, {kills} kill -9 ({cut_by_a_kill} answers cut by them)"
    ));
}

/// The decisions a person answered again in `log` (an exported room's log,
/// one event a line) without the fight having asked them again after the
/// first answer. A decision is asked again, under the same id, when the
/// answer given held when given but not when its decision was reached
/// (another member acted first: "your answer no longer holds"); the
/// result of the event that reached it then lists it as awaited. Any other
/// second answer is one answer applied twice.
fn answered_again_unasked(log: &str) -> Vec<String> {
    let mut answered: Vec<String> = Vec::new();
    let mut twice = Vec::new();
    for event in log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
    {
        let decision = &event["body"]["action"]["decision"];
        if event["kind"] == "fight-decision"
            && decision["by"] == "person"
            && let Some(id) = decision["id"].as_str()
        {
            if answered.iter().any(|a| a == id) {
                twice.push(format!("{id} (event {})", event["seq"]));
            }
            answered.push(id.to_string());
        }
        let result = &event["body"]["result"];
        let awaited = std::iter::once(&result["waiting"])
            .chain(result["also_waiting"].as_array().into_iter().flatten())
            .filter_map(|w| w["id"].as_str());
        for id in awaited {
            answered.retain(|a| a != id);
        }
    }
    twice
}

#[test]
fn a_decision_asked_again_may_be_answered_again_but_not_otherwise() {
    let answer = |seq: u64, id: &str| {
        json!({"seq": seq, "kind": "fight-decision", "body": {"action": {"decision": {"id": id, "by": "person"}}, "result": {"waiting": null}}}).to_string()
    };
    let asked_again = json!({"seq": 2, "kind": "fight-decision", "body": {"action": {"decision": {"id": "t1r0-2-move-1", "by": "person"}}, "result": {"waiting": {"id": "t1r0-1-set-action-1"}}}}).to_string();
    let log = [
        answer(1, "t1r0-1-set-action-1"),
        asked_again,
        answer(3, "t1r0-1-set-action-1"),
    ]
    .join("\n");
    assert!(answered_again_unasked(&log).is_empty());
    let log = [
        answer(1, "t1r0-1-set-action-1"),
        answer(2, "t1r0-2-move-1"),
        answer(3, "t1r0-1-set-action-1"),
    ]
    .join("\n");
    assert_eq!(
        answered_again_unasked(&log),
        ["t1r0-1-set-action-1 (event 3)"]
    );
}

/// The decision JSON a controller reads: each movement option with its
/// square, cost and path; the rule of every option and every option ruled
/// out with its sentence (mls, *1. Movement*; docs/mls/combat.md, "Playing
/// a fight by decisions").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_shows_its_options_with_rules_costs_and_paths() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let app = table::start(&url, Some(dir)).await;
    let (room, gm, _) = app.table(&[]).await;
    let fights = format!("/api/rooms/{room}/fights");
    let body = json!({"a": KNIGHT, "b": BRIGAND, "map": CORRIDOR, "played": true});
    let fight = app.start_fight(&room, &gm, body).await;
    let id = fight["fight"].as_i64().unwrap();
    // Without `control` and without sheets of these names, all the GM's.
    assert!(
        fight["controllers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["controller"] == "gm")
    );
    let path = format!("{fights}/{id}");
    let mut movements = 0;
    for _ in 0..200 {
        let (_, view) = app.get(&path, &gm.key).await;
        if view["over"] == true || movements >= 3 {
            break;
        }
        let d = &view["decision"];
        for o in d["options"].as_array().unwrap() {
            assert!(o["rule"].as_str().unwrap().starts_with("mls"), "{o}");
        }
        for r in d["ruled_out"].as_array().unwrap() {
            assert!(!r["why"].as_str().unwrap().is_empty(), "{r}");
        }
        if d["kind"] == "movement" && d["question"].as_str().unwrap().contains("the way to move") {
            movements += 1;
            let here = view["state"]["combatants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == d["name"])
                .unwrap()["square"]
                .clone();
            for o in d["options"].as_array().unwrap() {
                let square = o["square"].as_str().unwrap();
                let cost = o["cost"].as_u64().unwrap();
                let way: Vec<&str> = o["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap())
                    .collect();
                assert!(
                    o["label"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("({cost} MP)")),
                    "{o}"
                );
                if square == here {
                    assert!(way.is_empty(), "{o}");
                } else {
                    assert_eq!(way.last(), Some(&square), "{o}");
                    // Each square of the way is a step from the one before.
                    assert!(way.len() as u64 <= cost, "{o}");
                }
            }
        }
        let answer = json!({"step": view["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
        let (status, done) = app
            .post(&format!("{path}/decisions"), &gm.key, answer)
            .await;
        assert_eq!(status, 201, "{done}");
    }
    assert!(movements > 0, "a movement was asked");
}

/// A combatant named as a member's sheet in the room is that member's by
/// default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_combatant_named_as_a_players_sheet_is_that_players() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let app = table::start(&url, Some(dir)).await;
    let (room, gm, players) = app.table(&["Ada"]).await;
    let choices = include_str!("../../../examples/mls/characters/choices/brana.choices.toml");
    let (status, sheet) = app
        .post(
            &format!("/api/rooms/{room}/sheets"),
            &players[0].key,
            json!({"choices": choices}),
        )
        .await;
    assert_eq!(status, 201, "{sheet}");
    let name = "Brana";
    let side = format!(
        "name = \"{name}\"\nthp = 20\nskills = {{ stick = 7, dodge = 4 }}\nweapons = [{{ name = \"stick\", skill = \"stick\", dam = 1 }}]\n"
    );
    let body = json!({"a": side, "b": BRIGAND, "played": true});
    let fight = app.start_fight(&room, &gm, body).await;
    assert_eq!(
        fight["controllers"][0]["controller"],
        json!({"member": players[0].id, "name": "Ada"})
    );
    assert_eq!(fight["controllers"][1]["controller"], "gm");
}

/// Ann (Ada's) and Cid (Bo's) on side a, on the line four squares from
/// Bob (the engine's).
fn two_players(ada: i64, bo: i64, seconds: Option<u64>) -> Value {
    let one = |name: &str, thp: i64, dam: i64| {
        format!(
            "[[combatant]]\nname = \"{name}\"\nthp = {thp}\nskills = {{ blade = 6 }}\nweapons = [{{ name = \"blade\", skill = \"blade\", dam = {dam} }}]\n"
        )
    };
    // Bob lasts: many hit points, and only a scratch from either.
    json!({
        "a": format!("{}{}", one("Ann", 40, 1), one("Cid", 40, 1)), "b": one("Bob", 90, 1),
        "distance": 4,
        "played": true, "decision_seconds": seconds,
        "control": {"Ann": ada, "Cid": bo, "Bob": "engine"},
    })
}

/// The set actions awaited (`waiting`), as (who, kind).
fn awaited(view: &Value) -> Vec<(String, String)> {
    view["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["who"].as_str().unwrap().to_string(),
                w["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn set_actions(names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .map(|n| (n.to_string(), "set-action".to_string()))
        .collect()
}

/// Reads the fight until both of side a's set actions are awaited (the
/// engine's turns go on by themselves; anything else awaited, a timing for
/// one, is answered with its default by its controller, one of `who`).
async fn both_awaited(app: &App, path: &str, who: &[&Who]) -> Value {
    for _ in 0..200 {
        let (status, view) = app.get(path, &who[0].key).await;
        assert_eq!(status, 200, "{view}");
        assert_eq!(view["over"], false, "{view}");
        if awaited(&view) == set_actions(&["Ann", "Cid"]) {
            return view;
        }
        let member = view["waiting"][0]["controller"]["member"].as_i64().unwrap();
        let key = &who.iter().find(|w| w.id == member).unwrap().key;
        let (_, mine) = app.get(path, key).await;
        let d = &mine["decision"];
        let answer = json!({"step": mine["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]});
        let (status, done) = app.post(&format!("{path}/decisions"), key, answer).await;
        assert_eq!(status, 201, "{done}");
    }
    panic!("both set actions never awaited again");
}

/// The issue: "the active side's members may declare in any order" (mls,
/// Party Turns and Turn Order; docs/server.md, "Playing a fight"). Both set
/// actions are awaited at once and listed in `waiting`, each member seeing
/// their own in `decisions`; Bo answers Cid's first and Ada then Ann's,
/// quoting the step she read before Bo answered: both are applied, Cid
/// choosing first. Next turn both answer at the same moment: both apply.
/// Then Ada answers Ann's twice at once: one 201, one 409. The log
/// verifies; a decision for Ann written by Bo (a forged log) fails.
async fn two_players_declare_their_set_actions_in_any_order(backend: Backend) {
    let Some(app) = spawn_app(backend, "two_players_declare_in_any_order").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let (ada, bo) = (&players[0], &players[1]);
    let fights = format!("/api/rooms/{room}/fights");
    let (status, fight) = app
        .post(&fights, &gm.key, two_players(ada.id, bo.id, None))
        .await;
    assert_eq!(status, 201, "{fight}");
    let id = fight["fight"].as_i64().unwrap();
    let path = format!("{fights}/{id}");
    let decisions = format!("{path}/decisions");
    // Both awaited; each member sees their own decision only.
    let view = both_awaited(&app, &path, &[ada, bo]).await;
    assert_eq!(view["waiting"][0]["controller"]["member"], ada.id);
    assert_eq!(view["waiting"][1]["controller"]["member"], bo.id);
    assert_eq!(view["decision"]["name"], "Ann");
    assert_eq!(view["decisions"].as_array().unwrap().len(), 1);
    let (_, bos) = app.get(&path, &bo.key).await;
    assert_eq!(bos["decision"]["name"], "Cid");
    assert_eq!(bos["decisions"][0]["name"], "Cid");
    let (_, gms) = app.get(&path, &gm.key).await;
    assert!(gms.get("decision").is_none(), "{gms}");
    assert_eq!(gms["decisions"], json!([]));
    let step = view["step"].as_i64().unwrap();
    let answer = |who: &str, step: i64| json!({"step": step, "who": who, "kind": "set-action", "choice": {"action": "respond"}});
    // Bo first, then Ada on the step she read.
    let (status, cid) = app.post(&decisions, &bo.key, answer("Cid", step)).await;
    assert_eq!(status, 201, "{cid}");
    assert_eq!(cid["result"]["waiting"]["who"], "Ann", "{cid}");
    assert!(cid["result"].get("also_waiting").is_none(), "{cid}");
    let (status, ann) = app.post(&decisions, &ada.key, answer("Ann", step)).await;
    assert_eq!(status, 201, "{ann}");
    let lines: Vec<&str> = ann["result"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    let at = |part: &str| lines.iter().position(|l| l.contains(part)).unwrap();
    assert!(
        at("Cid chooses Respond") < at("Ann chooses Respond"),
        "{lines:?}"
    );
    // Next turn: both at once, both applied one after the other.
    let view = both_awaited(&app, &path, &[ada, bo]).await;
    let step = view["step"].as_i64().unwrap();
    let (a, b) = tokio::join!(
        app.post(&decisions, &ada.key, answer("Ann", step)),
        app.post(&decisions, &bo.key, answer("Cid", step)),
    );
    assert_eq!((a.0, b.0), (201, 201), "{} / {}", a.1, b.1);
    // The same decision twice at once: one is written, the other is stale.
    let view = both_awaited(&app, &path, &[ada, bo]).await;
    let step = view["step"].as_i64().unwrap();
    let (a, b) = tokio::join!(
        app.post(&decisions, &ada.key, answer("Ann", step)),
        app.post(&decisions, &ada.key, answer("Ann", step)),
    );
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [201, 409], "{} / {}", a.1, b.1);
    let lost = if a.0 == 409 { &a.1 } else { &b.1 };
    assert_eq!(lost["error"]["code"], "stale", "{lost}");
    // An answer quoting a step before its decision was asked: stale.
    let (status, error) = app.post(&decisions, &bo.key, answer("Cid", step - 1)).await;
    assert_eq!(status, 409, "{error}");
    let log = reveal_and_verify(&app, &room, &gm).await;
    let events = decision_events(&log, id);
    let first = &events[0]["body"]["result"];
    assert_eq!(first["waiting"]["who"], "Ann");
    assert_eq!(first["also_waiting"][0]["who"], "Cid", "{first}");
    // Ada's decision for Ann, as if Bo had written it: refused by verify.
    let forged = events
        .iter()
        .find(|e| {
            e["body"]["action"]["decision"]["who"] == "Ann"
                && e["body"]["action"]["decision"]["by"] == "person"
        })
        .unwrap();
    let seq = forged["seq"].as_i64().unwrap();
    let edited = reseal(&log, seq, |body| {
        body["roller"] = json!(bo.id);
        body["name"] = json!("Bo");
    });
    let failure = verify(&edited).expect_err("a decision by a member who does not control it");
    assert!(
        failure.message.contains(&format!("event {seq}")),
        "{failure}"
    );
    assert!(failure.message.contains("did not control Ann"), "{failure}");
}

/// A server restarted (`kill -9`) in the middle of a played fight whose
/// decisions have a time: once the time runs out the engine takes its
/// default, though nobody reads the fight (docs/server.md, "Playing a
/// fight": a server starting arms the time of every fight in progress).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_takes_an_expired_default_without_a_read() {
    let (database, _dir) = fresh_sqlite();
    let (mut process, base) = serve(&database);
    let app = table::at(base);
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let fight = app
        .start_fight(
            &room,
            &gm,
            two_players(players[0].id, players[1].id, Some(2)),
        )
        .await;
    let id = fight["fight"].as_i64().unwrap();
    assert_eq!(fight["waiting"].as_array().unwrap().len(), 2, "{fight}");
    for w in fight["waiting"].as_array().unwrap() {
        assert!(w["deadline"].is_string(), "{w}");
    }
    process.0.kill().unwrap(); // SIGKILL, before the time runs out
    process.0.wait().unwrap();
    drop(process);
    let (_process, base) = serve(&database);
    let app = table::at(base);
    // Nobody reads the fight: only the room's log, until the engine's
    // decisions are in it.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = app.log(&room, &gm.key).await;
        let by_engine: Vec<String> = decision_events(&log, id)
            .iter()
            .filter(|e| e["body"]["action"]["decision"]["by"] == "engine")
            .map(|e| {
                e["body"]["action"]["decision"]["who"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        if by_engine.iter().any(|w| w == "Ann") && by_engine.iter().any(|w| w == "Cid") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no default taken after the restart: {by_engine:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A played fight's log written before the members of a side could declare
/// in any order (Ann and Cid, Ada's and Bo's, on one side, asked one at a
/// time; recorded by that server) still verifies: every decision replays,
/// and its results are the same but for `also_waiting`, which it did not
/// write.
#[test]
fn a_played_log_written_before_any_order_still_verifies() {
    let log = include_str!("data/played-before-any-order.jsonl");
    let report = verify(log).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(report.rolls_pending, 0);
    let events = decision_events(log, 4);
    assert!(events.len() >= 10, "{}", events.len());
    assert!(!log.contains("also_waiting"));
    assert_eq!(events[0]["body"]["result"]["waiting"]["who"], "Ann");
}

/// A small generator of the test's own (SplitMix64).
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// The GM hands a random combatant of `view` to the engine, himself or a
/// player, at random (the random plays' hand-overs); it is written.
async fn hand_over_at_random(
    app: &App,
    path: &str,
    view: &Value,
    gm: &Who,
    players: &[Who],
    pick: &mut Pick,
) {
    let names = view["controllers"].as_array().unwrap();
    let who = names[pick.below(names.len())]["name"].clone();
    let to = [
        json!("engine"),
        json!("gm"),
        json!(players[0].id),
        json!(players[1].id),
    ][pick.below(4)]
    .clone();
    let (status, changed) = app
        .post(
            &format!("{path}/control"),
            &gm.key,
            json!({"who": who, "controller": to}),
        )
        .await;
    assert_eq!(status, 201, "{changed}");
}

/// Random play through the API (the guide's random playouts, at the
/// table): a GM and two players play fights on the map, each decision
/// answered by its controller with an option the server offered, picked at
/// random among every decision awaited (members answer in any order),
/// sometimes sent twice at once (a double click), with the GM handing
/// random combatants to the engine, to a player or back at random points.
/// After every answer: what is offered is accepted (201, never 400), a
/// doubled answer is written once (the other 409 `stale`), a fight not
/// over awaits someone and every decision awaited shows its controller
/// options; every fight ends; the log verifies.
async fn random_play_through_the_api_never_stalls(backend: Backend) {
    let Some(app) = spawn_app(backend, "random_play_through_the_api").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let members = [gm.clone(), players[0].clone(), players[1].clone()];
    let fights = format!("/api/rooms/{room}/fights");
    let (mut answers, mut doubles, mut hand_overs) = (0, 0, 0);
    for seed in 0..3u64 {
        let mut pick = Pick(seed);
        let body = if seed % 2 == 0 {
            crossroads(players[0].id, players[1].id)
        } else {
            corridor_duel(json!({"Sir Aldric": players[0].id, "Black Wat": "gm"}))
        };
        let fight = app.start_fight(&room, &gm, body).await;
        let id = fight["fight"].as_i64().unwrap();
        let path = format!("{fights}/{id}");
        let mut over = false;
        for _ in 0..3000 {
            let Some((view, waiting)) = fight_as_gm(&app, &path, &gm).await else {
                over = true;
                break;
            };
            if pick.below(10) == 0 {
                hand_over_at_random(&app, &path, &view, &gm, &players, &mut pick).await;
                hand_overs += 1;
                continue;
            }
            let w = &waiting[pick.below(waiting.len())];
            let seat = member_index(&members, &w["controller"]);
            let who = &members[seat];
            let Some(d) = offered(&app, &path, &who.key, &w["id"]).await else {
                // Answered or handed over between the two reads.
                continue;
            };
            let options = d["options"].as_array().unwrap();
            assert!(!options.is_empty(), "a decision with no option: {d}");
            let option = &options[pick.below(options.len())];
            let answer = json!({
                "id": d["id"], "who": d["name"], "kind": d["kind"], "choice": option["choice"],
            });
            let decisions = format!("{path}/decisions");
            let statuses: Vec<u16> = if pick.below(4) == 0 {
                doubles += 1;
                let (a, b) = tokio::join!(
                    app.post(&decisions, &who.key, answer.clone()),
                    app.post(&decisions, &who.key, answer.clone())
                );
                // And once more after both: already answered.
                let (c, late) = app.post(&decisions, &who.key, answer.clone()).await;
                assert_eq!(
                    c, 409,
                    "an answer sent again after its decision was answered: {late}"
                );
                vec![a.0, b.0]
            } else {
                vec![app.post(&decisions, &who.key, answer.clone()).await.0]
            };
            assert!(
                !statuses.contains(&400),
                "an offered option was refused: {answer} ({statuses:?})"
            );
            let written = statuses.iter().filter(|s| **s == 201).count();
            assert!(written <= 1, "one answer written twice: {statuses:?}");
            answers += written;
        }
        assert!(over, "fight {id} did not end");
    }
    report(&format!(
        "random play through the API ({backend:?}): {answers} answers, {doubles} doubled, {hand_overs} hand-overs"
    ));
    reveal_and_verify(&app, &room, &gm).await;
}

/// docs/server.md, Security model: only the GM drafts. A player starting a
/// played fight may give combatants only to himself or to the engine, and
/// may not set the time for decisions.
async fn a_player_drafts_nobody(backend: Backend) {
    let Some(app) = spawn_app(backend, "a_player_drafts_nobody").await else {
        return;
    };
    let (room, gm, players) = app.table(&["Ada", "Bo"]).await;
    let (ada, bo) = (&players[0], &players[1]);
    let fights = format!("/api/rooms/{room}/fights");
    for (control, seconds) in [
        (
            json!({"Sir Aldric": ada.id, "Black Wat": bo.id}),
            Value::Null,
        ),
        (
            json!({"Sir Aldric": ada.id, "Black Wat": "gm"}),
            Value::Null,
        ),
        (json!({"Sir Aldric": ada.id}), json!(1)),
    ] {
        let body = json!({
            "a": KNIGHT, "b": BRIGAND, "map": CORRIDOR, "played": true,
            "control": control, "decision_seconds": seconds,
        });
        let (status, error) = app.post(&fights, &ada.key, body).await;
        assert_eq!(status, 403, "{error}");
    }
    let body = corridor_duel(json!({"Sir Aldric": ada.id}));
    let fight = app.start_fight(&room, ada, body).await;
    let controllers = fight["controllers"].as_array().unwrap();
    assert_eq!(controllers[0]["controller"]["member"], ada.id);
    assert_eq!(controllers[1]["controller"], "gm");
    let _ = gm;
}
