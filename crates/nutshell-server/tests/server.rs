//! The server end to end: a real server on a loopback port, a real HTTP
//! client, and each scenario run against both databases, SQLite (a fresh file)
//! and PostgreSQL (a fresh database on the server at 127.0.0.1:5432, or
//! `NUTSHELL_TEST_POSTGRES`).

use std::sync::Arc;
use std::time::Duration;

use nutshell_dice::Limits;
use nutshell_server::rate::RateLimit;
use nutshell_server::verify::verify;

#[path = "support/app.rs"]
mod app;
#[path = "support/proxy.rs"]
mod proxy;
#[path = "support/reseal.rs"]
mod reseal;
use app::pg::fresh_postgres;
use app::{App, Backend, lines, spawn_app, start, take_events, with_a_server_on_both_databases};
use nutshell_server::{Store, router};
use proxy::CuttableProxy;
use reseal::reseal;
use serde_json::{Value, json};

/// Reads server-sent events until `count` events arrived (or 10 s pass):
/// their (id, data) pairs.
async fn read_events(response: &mut reqwest::Response, count: usize) -> Vec<(i64, Value)> {
    let mut buffer = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while events.len() < count {
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .expect("events within 10 s")
            .unwrap()
            .expect("the stream stays open");
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        events.extend(take_events(&mut buffer));
    }
    events
}

/// Two characters' choices: a sheet is made from them.
const BRANA: &str = include_str!("../../../examples/mls/characters/choices/brana.choices.toml");
const GRISHNAK: &str =
    include_str!("../../../examples/mls/characters/choices/grishnak.choices.toml");

/// Waits for requests sent at once, each of which must be answered 201:
/// the sequence numbers of their events, sorted.
async fn committed_seqs(tasks: Vec<tokio::task::JoinHandle<(u16, Value)>>) -> Vec<i64> {
    let mut seqs = Vec::new();
    for task in tasks {
        let (status, answer) = task.await.unwrap();
        assert_eq!(status, 201, "{answer}");
        seqs.push(answer["seq"].as_i64().unwrap());
    }
    seqs.sort();
    seqs
}

with_a_server_on_both_databases!(
    a_roll_is_committed_and_verifies_after_the_reveal,
    keys_are_checked_on_every_request,
    bad_requests_get_json_errors_and_change_nothing,
    a_secret_roll_never_reaches_a_player_before_it_is_revealed,
    a_reconnecting_reader_gets_exactly_what_it_missed,
    the_log_survives_a_restart_and_the_chain_goes_on,
    concurrent_rolls_get_distinct_sequence_numbers,
    every_changed_byte_of_an_export_is_caught,
    checks_and_contests_are_rolled_committed_and_verified,
    concurrent_joins_get_distinct_members_and_sequence_numbers,
    concurrent_rolls_in_several_rooms_with_refusals_stay_gapless,
    an_mls_fight_is_stepped_round_by_round_announced_and_replayed,
    a_fight_on_a_map_is_stepped_with_squares_and_facings_and_replayed,
    many_fights_are_simulated_in_batches_that_add_up,
    a_sheet_is_advanced_by_its_owner_with_the_ledger_and_replayed,
    character_sheets_are_made_kept_per_player_checked_and_verified,
    a_join_under_a_members_or_the_gms_name_is_refused,
);

async fn a_roll_is_committed_and_verifies_after_the_reveal(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let (status, roll) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&player),
            json!({"expression": "4d6k3 + 2", "client_seed": "my lucky socks"}),
        )
        .await;
    assert_eq!(status, 201, "{roll}");
    // The transcript of `nutshell roll --json`, with the event's number.
    assert_eq!(roll["expression"], "4d6kh3 + 2");
    assert_eq!(roll["input"], "4d6k3 + 2");
    assert_eq!(roll["seq"], 3); // room, join, roll
    assert_eq!(roll["dice"].as_array().unwrap().len(), 4);
    let total = roll["total"].as_i64().unwrap();
    assert!((5..=20).contains(&total));
    // Before the reveal the roll is chained and committed, not yet checkable.
    let before = verify(&app.log(&room, &player).await).unwrap();
    assert_eq!(
        (before.events, before.rolls_verified, before.rolls_pending),
        (3, 0, 1)
    );
    let (status, revealed) = app
        .post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    assert_eq!(status, 200, "{revealed}");
    assert_ne!(revealed["commitment"], roll["commitment"]);
    // The revealed seed hashes to the commitment published at creation.
    let seed = nutshell_server::fair::unhex(revealed["seed"].as_str().unwrap()).unwrap();
    assert_eq!(
        nutshell_server::fair::commitment(&seed.try_into().unwrap()),
        roll["commitment"].as_str().unwrap()
    );
    for key in [&gm, &player] {
        let report = verify(&app.log(&room, key).await).unwrap();
        assert_eq!(report.rolls_verified, 1);
        assert_eq!(report.epochs_revealed, 1);
        assert_eq!(report.events, 4);
    }
    let (status, health) = app.get_text("/api/health", None).await;
    assert_eq!(status, 200, "{health} on {}", app.database);
}

async fn checks_and_contests_are_rolled_committed_and_verified(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let checks = format!("/api/rooms/{room}/checks");
    let contests = format!("/api/rooms/{room}/contests");
    // The command line's options, by the command line's names.
    let (status, check) = app
        .post(
            &checks,
            Some(&player),
            json!({"ruleset": "fantasy", "mod": 5, "dc": "hard", "crit_success": true,
                   "client_seed": "ada", "odds": true}),
        )
        .await;
    assert_eq!(status, 201, "{check}");
    assert_eq!(check["ruleset"], "fantasy");
    assert_eq!(check["seq"], 3);
    assert_eq!(check["difficulty"], 25); // fantasy, "hard" is DC 25
    let natural = check["natural"].as_i64().unwrap();
    assert_eq!(check["total"].as_i64().unwrap(), natural + 5);
    assert_eq!(check["odds"]["outcomes"].as_array().unwrap().len(), 4);
    // A tiered-d20 turn and an MLS contest, the GM's secretly.
    let (status, turn) = app
        .post(
            &checks,
            Some(&player),
            json!({"ruleset": "tiered-d20", "skill": 4, "dc": 14, "then": [{"skill": 4, "dc": 12}]}),
        )
        .await;
    assert_eq!(status, 201, "{turn}");
    let (status, contest) = app
        .post(
            &contests,
            Some(&gm),
            json!({"ruleset": "mls", "skill": 12, "vs_skill": 10, "secret": true}),
        )
        .await;
    assert_eq!(status, 201, "{contest}");
    assert_eq!(contest["sides"].as_array().unwrap().len(), 2);
    // Bad requests say what is wrong and write nothing.
    for (path, body, needle) in [
        (&checks, json!({"mod": 5}), "ruleset"),
        (
            &checks,
            json!({"ruleset": "fantasy", "dc": "hard", "bogus": 1}),
            "bogus",
        ),
        (
            &checks,
            json!({"ruleset": "exploding-d6", "score": 3}),
            "Difficulty",
        ),
        (
            &checks,
            json!({"ruleset": "fantasy", "dc": 10, "secret": "yes"}),
            "secret",
        ),
        (&contests, json!({"ruleset": "fantasy"}), "fantasy"),
        (&checks, json!([1, 2]), "object"),
    ] {
        let (status, error) = app.post(path, Some(&player), body.clone()).await;
        assert_eq!(status, 400, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    // The player sees the secret contest as hidden; everything verifies after
    // the reveal, the checks recomputed from the seed like dice.
    let log = app.log(&room, &player).await;
    assert_eq!(lines(&log).len(), 5, "{log}");
    assert!(
        !log.contains("vs_skill"),
        "the secret contest leaked: {log}"
    );
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&app.log(&room, &gm).await).unwrap();
    assert_eq!((report.rolls_verified, report.rolls_hidden), (3, 0));
    // A forged outcome is caught.
    let log = app.log(&room, &gm).await;
    let forged = log.replacen(&format!("\"natural\":{natural}"), "\"natural\":99", 1);
    assert_ne!(forged, log);
    assert!(verify(&forged).is_err());
}

/// Issue 27, item 5: a check without a modifier reads `natural 9 = 9`, not
/// `natural 9 + 0 = 9`. A log written before (`tests/data/plus-zero-room.jsonl`:
/// fantasy, mls and favor-3d6 checks and an mls contest, all without a
/// modifier, then a reveal) still verifies, every roll recomputed: verify
/// compares what the dice decided (issue 40, item 3), and each text in the
/// earlier wording is shown as a note naming its line, the recorded words
/// and today's. A forger who rewrites a text with the numbers left true
/// (every hash recomputed) is shown the same way; one who rewrites the
/// outcome fails.
#[test]
fn a_log_of_checks_written_with_plus_zero_still_verifies() {
    let log = include_str!("data/plus-zero-room.jsonl");
    assert!(log.contains(" + 0 = ") && log.contains(", +0 = "));
    let report = verify(log).unwrap();
    assert_eq!((report.rolls_verified, report.rolls_pending), (5, 0));
    assert!(report.complete());
    // A note for each text with `+ 0` (one a text at most), none else.
    let old: Vec<usize> = log
        .lines()
        .enumerate()
        .flat_map(|(i, line)| {
            let texts = line.matches(" + 0 = ").count() + line.matches(", +0 = ").count();
            std::iter::repeat_n(i + 1, texts)
        })
        .collect();
    assert_eq!(old.len(), 6);
    let noted: Vec<usize> = report.notes.iter().map(|n| n.line).collect();
    assert_eq!(noted, old, "{:?}", report.notes);
    for note in &report.notes {
        let (recorded, today) = note.message.split_once(", today ").unwrap();
        assert!(
            recorded.contains(" + 0 = ") || recorded.contains(", +0 = "),
            "{note}"
        );
        assert!(!today.contains("+ 0") && !today.contains("+0"), "{note}");
    }
    // A forger who rewrites the mls check's text (every hash recomputed).
    let mls = lines(log)
        .into_iter()
        .find(|l| {
            l["body"]["action"]["request"]["ruleset"] == "mls"
                && l["body"]["action"]["kind"] == "check"
        })
        .unwrap();
    let seq = mls["seq"].as_i64().unwrap();
    let forged = reseal(log, seq, |body| {
        let text = body["result"]["transcript"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        let changed = text.replace(": ", ": critical ");
        assert_ne!(changed, text);
        body["result"]["transcript"][0]["text"] = json!(changed);
    });
    let report = verify(&forged).unwrap();
    let shown: Vec<String> = report
        .notes
        .iter()
        .filter(|n| n.line == seq as usize)
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].contains("`result.transcript[0].text`")
            && shown[0].contains("recorded \"3d6 5 + skill 12 + 0 = 17: critical success\", today \"3d6 5 + skill 12 = 17: success\""),
        "{shown:?}"
    );
    // One who rewrites its outcome fails that line.
    let forged = reseal(log, seq, |body| {
        body["result"]["outcome"] = json!("critical-success");
    });
    let error = verify(&forged).unwrap_err();
    assert_eq!(error.line, seq as usize);
    assert!(error.message.contains("do not follow"), "{error:?}");
}

async fn an_mls_fight_is_stepped_round_by_round_announced_and_replayed(app: App) {
    let knight = include_str!("../../../examples/mls/duel/knight.toml");
    let brigand = include_str!("../../../examples/mls/duel/brigand.toml");
    // Two who fight long (many hit points, sticks): the steps below all
    // find the fight going on.
    let stick = |name: &str| {
        format!(
            "name = \"{name}\"\nthp = 200\nskills = {{ stick = 7, dodge = 4 }}\n\
             weapons = [{{ name = \"stick\", skill = \"stick\", dam = 1 }}]\n"
        )
    };
    let (long_a, long_b) = (stick("Ann"), stick("Bo"));
    let (room, gm, player) = app.room_with_player().await;
    let fights = format!("/api/rooms/{room}/fights");
    // The GM watches the room.
    let mut stream = app
        .client
        .get(format!("{}/api/rooms/{room}/events?after=2", app.base))
        .bearer_auth(&gm)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    // Starting a fight is an event with the state before the first round.
    let (status, started) = app
        .post(
            &fights,
            Some(&player),
            json!({"a": long_a, "b": long_b, "distance": 3, "max_turns": 20}),
        )
        .await;
    assert_eq!(status, 201, "{started}");
    let id = started["fight"].as_i64().unwrap();
    assert_eq!((id, started["seq"].as_i64()), (3, Some(3)));
    assert_eq!(started["sides"], json!(["Ann", "Bo"]));
    assert_eq!(started["state"]["turn"], 0);
    let positions: Vec<i64> = started["state"]["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, [0, 3]);
    // Each step resolves one round: its lines and every combatant's state.
    let step = format!("{fights}/{id}/step");
    let mut answers = Vec::new();
    for (n, key) in [(1, &player), (2, &gm), (3, &player)] {
        let body = if n == 2 {
            json!({"client_seed": "gm's turn"})
        } else {
            json!({})
        };
        let (status, answer) = app.post(&step, Some(key), body).await;
        assert_eq!(status, 201, "{answer}");
        assert_eq!(answer["step"], n);
        assert_eq!(answer["rounds"], 1);
        assert!(answer["lines"].is_array(), "{answer}");
        assert_eq!(answer["state"]["combatants"].as_array().unwrap().len(), 2);
        answers.push(answer);
    }
    // The room saw the fight and each step as it happened, with the same
    // lines and state.
    let seen = read_events(&mut stream, 4).await;
    assert_eq!(seen[0].1["kind"], "fight");
    for (i, answer) in answers.iter().enumerate() {
        let (seq, event) = &seen[i + 1];
        assert_eq!(*seq, answer["seq"].as_i64().unwrap());
        assert_eq!(event["kind"], "fight-step");
        assert_eq!(event["body"]["fight"], id);
        assert_eq!(event["body"]["result"]["lines"], answer["lines"]);
        assert_eq!(event["body"]["result"]["state"], answer["state"]);
    }
    // The first round of a fight at 3 squares: the first side moves up.
    assert_eq!(answers[0]["state"]["turn"], 1);
    assert_eq!(answers[0]["state"]["round"], 1);
    assert_eq!(answers[2]["state"]["round"], 3);
    // Steps that cannot be taken are refused and write nothing.
    let before = lines(&app.log(&room, &gm).await).len();
    for (path, body, status_wanted, needle) in [
        (step.clone(), json!({"rounds": 0}), 400, "`rounds`"),
        (step.clone(), json!({"rounds": "all"}), 400, "`rounds`"),
        (step.clone(), json!({"bogus": 1}), 400, "bogus"),
        (
            step.clone(),
            json!({"client_seed": "x".repeat(300)}),
            400,
            "client_seed",
        ),
        (format!("{fights}/999/step"), json!({}), 404, "999"),
        (format!("{fights}/1/step"), json!({}), 404, "no fight 1"),
        (format!("{fights}/first/step"), json!({}), 400, "`first`"),
    ] {
        let (status, error) = app.post(&path, Some(&player), body.clone()).await;
        assert_eq!(status, status_wanted, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert_eq!(lines(&app.log(&room, &gm).await).len(), before);
    // A player may not step the GM's fight.
    let (status, gm_fight) = app
        .post(&fights, Some(&gm), json!({"a": knight, "b": brigand}))
        .await;
    assert_eq!(status, 201, "{gm_fight}");
    let gm_step = format!("{fights}/{}/step", gm_fight["fight"]);
    let (status, error) = app.post(&gm_step, Some(&player), json!({})).await;
    assert_eq!(status, 403, "{error}");
    // A new epoch mid-fight, and a second server on the same database (so
    // the fight is not in its memory): it rebuilds the fight from the log,
    // with the revealed seed of the first epoch, and steps on.
    let (status, _) = app
        .post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    assert_eq!(status, 200);
    let other = start(&app.database, None).await;
    let (status, fourth) = other.post(&step, Some(&player), json!({})).await;
    assert_eq!(status, 201, "{fourth}");
    assert_eq!(fourth["step"], 4);
    // Concurrent steps: each is committed once or refused as a conflict,
    // and the steps stay numbered one after the other.
    let mut racing = Vec::new();
    for i in 0..4 {
        let request = app
            .client
            .post(format!("{}{step}", app.base))
            .bearer_auth(&player)
            .json(&json!({"client_seed": format!("race {i}")}));
        racing.push(tokio::spawn(async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }));
    }
    let mut results = Vec::new();
    for task in racing {
        results.push(task.await.unwrap());
    }
    let committed = results.iter().filter(|(s, _)| *s == 201).count();
    assert!(committed >= 1, "{results:?}");
    for (status, answer) in &results {
        assert!(
            *status == 201 || (*status == 409 && answer["error"]["code"] == "conflict"),
            "{status} {answer}"
        );
    }
    let numbers: Vec<i64> = lines(&app.log(&room, &gm).await)
        .iter()
        .filter(|l| l["kind"] == "fight-step" && l["body"]["fight"] == id)
        .map(|l| l["body"]["step"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=4 + committed as i64).collect::<Vec<_>>());
    // To the end: the ending, the checks and the whole fight's report.
    let (status, last) = app
        .post(&step, Some(&player), json!({"rounds": "end"}))
        .await;
    assert_eq!(status, 201, "{last}");
    assert_eq!(last["over"], true);
    assert!(last["ending"]["reason"].is_string(), "{last}");
    let whole = last["report"]["log"].as_array().unwrap();
    let stepped: Vec<Value> = lines(&app.log(&room, &gm).await)
        .iter()
        .filter(|l| l["kind"] == "fight-step" && l["body"]["fight"] == id)
        .flat_map(|l| l["body"]["result"]["lines"].as_array().unwrap().clone())
        .collect();
    assert_eq!(whole, &stepped, "the steps' lines are the fight's log");
    let (status, error) = app.post(&step, Some(&player), json!({})).await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (409, Some("fight_over"))
    );
    // A script fights to the end in one request, as before fights were
    // stepped; the GM's secret fight is secret step by step.
    let (status, run) = app
        .post(
            &fights,
            Some(&player),
            json!({"a": knight, "b": brigand, "run": true, "client_seed": "duel"}),
        )
        .await;
    assert_eq!(status, 201, "{run}");
    assert_eq!(run["sides"], json!(["Sir Aldric", "Black Wat"]));
    assert!(run["log"].as_array().unwrap().len() > 5, "{run}");
    assert!(run["ending"]["reason"].is_string());
    assert_eq!(run["combatants"].as_array().unwrap().len(), 2);
    assert_eq!(run["step"], 1);
    let (status, secret) = app
        .post(
            &fights,
            Some(&gm),
            json!({"a": knight, "b": brigand, "surprised": "b", "secret": true, "run": true}),
        )
        .await;
    assert_eq!(status, 201, "{secret}");
    let player_view = lines(&app.log(&room, &player).await);
    for seq in [
        secret["fight"].as_i64().unwrap(),
        secret["seq"].as_i64().unwrap(),
    ] {
        let line = &player_view[seq as usize - 1];
        assert_eq!(
            (line["hidden"].as_bool(), &line["body"]),
            (Some(true), &Value::Null)
        );
    }
    // Bad fights are refused with what and where; nothing is written.
    let before = lines(&app.log(&room, &gm).await).len();
    for (body, needle) in [
        (
            json!({"a": knight, "b": "name = \"x\"\nthp = [oops"}),
            "side b",
        ),
        (json!({"a": knight}), "b"),
        (
            json!({"a": knight, "b": brigand, "max_turns": 5000}),
            "max_turns",
        ),
        (
            json!({"a": knight, "b": brigand, "surprised": "c"}),
            "surprised",
        ),
        (json!({"a": knight, "b": brigand, "odds": true}), "simulate"),
        (json!({"a": knight, "b": brigand, "bogus": 1}), "bogus"),
        (json!({"a": knight, "b": brigand, "run": "yes"}), "run"),
        (
            json!({"a": knight, "b": brigand, "client_seed": "x"}),
            "client_seed",
        ),
    ] {
        let (status, error) = app.post(&fights, Some(&player), body.clone()).await;
        assert_eq!(status, 400, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    }
    let (status, _) = app
        .post(
            &fights,
            Some(&player),
            json!({"a": knight, "b": brigand, "secret": true}),
        )
        .await;
    assert_eq!(status, 403);
    assert_eq!(lines(&app.log(&room, &gm).await).len(), before);
    // After the reveal every step is replayed from its seed, in order.
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = app.log(&room, &gm).await;
    let report = verify(&log).unwrap();
    let steps = lines(&log)
        .iter()
        .filter(|l| l["kind"] == "fight-step")
        .count();
    assert_eq!(report.rolls_verified, steps);
    assert_eq!(report.rolls_pending, 0);
    // A forged step, even with every hash recomputed, is caught by replaying
    // it: a combatant's health, or a line of the log.
    let third = answers[2]["seq"].as_i64().unwrap();
    let forged = reseal(&log, third, |body| {
        let chp = &mut body["result"]["state"]["combatants"][1]["chp"];
        *chp = json!(chp.as_i64().unwrap() + 5);
    });
    let failure = verify(&forged).unwrap_err();
    assert_eq!(failure.line, third as usize, "{failure}");
    assert!(failure.message.contains("does not follow"), "{failure}");
    let first_step = answers[0]["seq"].as_i64().unwrap();
    let forged = reseal(&log, first_step, |body| {
        body["result"]["lines"] = json!([]);
    });
    assert_eq!(verify(&forged).unwrap_err().line, first_step as usize);
    // A line's words rewritten, its faces and everything else left true:
    // the step verifies, and the note names its line and the words.
    let forged = reseal(&log, first_step, |body| {
        body["result"]["lines"][0]["text"] = json!("the forger's words");
    });
    let report = verify(&forged).unwrap();
    assert_eq!(report.rolls_verified, steps);
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert_eq!(report.notes[0].line, first_step as usize);
    assert!(
        report.notes[0].message.contains(
            "`result.lines[0].text` differ from today's: recorded \"the forger's words\""
        ),
        "{}",
        report.notes[0]
    );
    // A step removed from its fight (renumbered, the chain recomputed) is
    // caught too.
    let forged = reseal(&log, first_step, |body| body["step"] = json!(2));
    assert!(verify(&forged).is_err());
    // The player's view verifies too: the secret fight is only hidden.
    let seen = verify(&app.log(&room, &player).await).unwrap();
    assert_eq!(seen.rolls_hidden, 0, "revealed with its epoch");
}

/// docs/server.md, fights on a battle map: the fight event carries the map
/// as it began and every combatant's square and facing; each step's state
/// puts everyone where the log's `positions` last put them; a bad map is
/// refused naming the field and its line and column; verify replays it.
async fn a_fight_on_a_map_is_stepped_with_squares_and_facings_and_replayed(app: App) {
    let knight = include_str!("../../../examples/mls/duel/knight.toml");
    let brigand = include_str!("../../../examples/mls/duel/brigand.toml");
    let corridor = include_str!("../../../examples/mls/maps/corridor.toml");
    let (room, gm, player) = app.room_with_player().await;
    let fights = format!("/api/rooms/{room}/fights");
    let mut stream = app
        .client
        .get(format!("{}/api/rooms/{room}/events?after=2", app.base))
        .bearer_auth(&player)
        .send()
        .await
        .unwrap();
    // A bad map is refused with the field, line and column; nothing written.
    let before = lines(&app.log(&room, &gm).await).len();
    for (map, needle) in [
        (
            "name = \"x\"\nrows = '''\n###\n#x#\n###\n'''\n".to_string(),
            "`map`: map:4:2: unknown square `x`",
        ),
        ("rows = 3".to_string(), "`map`: map:1:"),
        (
            corridor.replace("Black Wat", "Nobody"),
            "`map`: map \"The guardroom door\": a start names \"Nobody\"",
        ),
    ] {
        let body = json!({"a": knight, "b": brigand, "map": map});
        let (status, error) = app.post(&fights, Some(&gm), body).await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["error"]["code"], "bad_fight", "{error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(needle), "{needle}: {message}");
    }
    assert_eq!(lines(&app.log(&room, &gm).await).len(), before);
    // The fight starts where the map places everyone, the map with it.
    let (status, started) = app
        .post(
            &fights,
            Some(&gm),
            json!({"a": knight, "b": brigand, "map": corridor}),
        )
        .await;
    assert_eq!(status, 201, "{started}");
    let id = started["fight"].as_i64().unwrap();
    assert_eq!(started["request"]["map"], corridor);
    assert_eq!(started["map"]["name"], "The guardroom door");
    assert_eq!(started["map"]["rows"][3], "#.....+......#");
    let pose = |state: &Value| -> Vec<(String, String, String)> {
        state["combatants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["square"].as_str().unwrap().to_string(),
                    c["facing"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let mut now: std::collections::HashMap<String, (String, String)> = pose(&started["state"])
        .into_iter()
        .map(|(name, square, facing)| (name, (square, facing)))
        .collect();
    assert_eq!(now["Sir Aldric"], ("C4".to_string(), "east".to_string()));
    assert_eq!(now["Black Wat"], ("M4".to_string(), "west".to_string()));
    // Stepped a round at a time, then to the end: every state's squares
    // are those of the log's positions so far.
    let step = format!("{fights}/{id}/step");
    let mut answers = Vec::new();
    for n in 1..=40 {
        let body = if n < 6 {
            json!({})
        } else {
            json!({"rounds": "end", "client_seed": "to the end"})
        };
        let (status, answer) = app.post(&step, Some(&gm), body).await;
        assert_eq!(status, 201, "{answer}");
        for line in answer["lines"].as_array().unwrap() {
            for p in line["positions"].as_array().into_iter().flatten() {
                now.insert(
                    p["name"].as_str().unwrap().to_string(),
                    (
                        p["square"].as_str().unwrap().to_string(),
                        p["facing"].as_str().unwrap().to_string(),
                    ),
                );
            }
        }
        for (name, square, facing) in pose(&answer["state"]) {
            assert_eq!(now[&name], (square, facing), "step {n}: {name}");
        }
        let over = answer["over"] == true;
        answers.push(answer);
        if over {
            break;
        }
    }
    let last = answers.last().unwrap();
    assert_eq!(last["over"], true, "{last}");
    assert_eq!(last["report"]["map"], started["map"]);
    assert_ne!(now["Sir Aldric"].0, "C4", "the knight moved");
    // The room saw the fight with its map and every step.
    let seen = read_events(&mut stream, 1 + answers.len()).await;
    assert_eq!(seen[0].1["body"]["fight"]["map"], started["map"]);
    for (answer, (_, event)) in answers.iter().zip(&seen[1..]) {
        assert_eq!(event["body"]["result"]["state"], answer["state"]);
    }
    // Verify replays every step after the reveal; a moved token is caught,
    // and so is a map redrawn in the fight's start.
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = app.log(&room, &gm).await;
    let report = verify(&log).unwrap();
    assert_eq!(report.rolls_verified, answers.len());
    let first_step = answers[0]["seq"].as_i64().unwrap();
    let forged = reseal(&log, first_step, |body| {
        body["result"]["state"]["combatants"][0]["square"] = json!("B4");
    });
    assert_eq!(verify(&forged).unwrap_err().line, first_step as usize);
    let forged = reseal(&log, id, |body| {
        body["fight"]["map"]["rows"][3] = json!("#...../......#");
    });
    assert_eq!(verify(&forged).unwrap_err().line, id as usize);
}

/// docs/server.md, simulating a fight: win rates with intervals and their
/// counts, reproducible by seed, batches that add up to one run, bad
/// requests refused, nothing written to the room.
async fn many_fights_are_simulated_in_batches_that_add_up(app: App) {
    let knight = include_str!("../../../examples/mls/duel/knight.toml");
    let brigand = include_str!("../../../examples/mls/duel/brigand.toml");
    let corridor = include_str!("../../../examples/mls/maps/corridor.toml");
    let (room, gm, player) = app.room_with_player().await;
    let path = format!("/api/rooms/{room}/simulate");
    let before = lines(&app.log(&room, &gm).await).len();
    let run = |first: u64, trials: u64| json!({"a": knight, "b": brigand, "map": corridor, "seed": 7, "first": first, "trials": trials});
    let (status, whole) = app.post(&path, Some(&player), run(0, 200)).await;
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["trials"], 200);
    assert_eq!(whole["complete"], true);
    assert_eq!(whole["sides"], json!(["Sir Aldric", "Black Wat"]));
    let count = |answer: &Value, k: usize| answer["wins"][k]["count"].as_u64().unwrap();
    assert_eq!(
        count(&whole, 0) + count(&whole, 1) + whole["draw"]["count"].as_u64().unwrap(),
        200
    );
    for k in 0..2 {
        let w = &whole["wins"][k];
        let p = w["probability"].as_f64().unwrap();
        assert!((p - count(&whole, k) as f64 / 200.0).abs() < 1e-12);
        assert!(w["low"].as_f64().unwrap() <= p && p <= w["high"].as_f64().unwrap());
    }
    // The same seed gives the same fights; two batches are the one run.
    let (_, again) = app.post(&path, Some(&gm), run(0, 200)).await;
    assert_eq!(again["wins"], whole["wins"]);
    let (_, half) = app.post(&path, Some(&gm), run(0, 100)).await;
    let (_, rest) = app.post(&path, Some(&gm), run(100, 100)).await;
    for k in 0..2 {
        assert_eq!(count(&half, k) + count(&rest, k), count(&whole, k));
    }
    // Without a seed one is drawn and answered.
    let (status, drawn) = app
        .post(
            &path,
            Some(&gm),
            json!({"a": knight, "b": brigand, "trials": 10}),
        )
        .await;
    assert_eq!(status, 200, "{drawn}");
    assert!(drawn["seed"].is_u64());
    for (body, needle) in [
        (json!({"a": knight, "b": brigand, "trials": 0}), "`trials`"),
        (
            json!({"a": knight, "b": brigand, "trials": 10_001}),
            "`trials`",
        ),
        (json!({"a": knight, "b": brigand, "seed": -1}), "`seed`"),
        (json!({"a": knight, "b": brigand, "bogus": 1}), "bogus"),
        (
            json!({"a": knight, "b": brigand, "map": "rows = 3"}),
            "`map`",
        ),
        (json!({"a": knight, "b": "name = "}), "side b"),
    ] {
        let (status, error) = app.post(&path, Some(&gm), body.clone()).await;
        assert_eq!(status, 400, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    }
    let (status, _) = app.post(&path, None, run(0, 10)).await;
    assert_eq!(status, 401);
    assert_eq!(lines(&app.log(&room, &gm).await).len(), before);
}

async fn character_sheets_are_made_kept_per_player_checked_and_verified(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let sheets = format!("/api/rooms/{room}/sheets");
    let (status, made) = app
        .post(
            &sheets,
            Some(&player),
            json!({"choices": BRANA, "client_seed": "b"}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["name"], "Brana");
    let sheet = made["sheet"].as_str().unwrap();
    assert!(sheet.contains("name = \"Brana\""), "{sheet}");
    // The GM makes a secret character: the player's list does not show it.
    let (status, npc) = app
        .post(
            &sheets,
            Some(&gm),
            json!({"choices": GRISHNAK, "secret": true}),
        )
        .await;
    assert_eq!(status, 201, "{npc}");
    let list = |key: String| {
        let app = &app;
        let sheets = sheets.clone();
        async move {
            let response = app
                .client
                .get(format!("{}{sheets}", app.base))
                .bearer_auth(key)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 200);
            response.json::<Value>().await.unwrap()
        }
    };
    let seen = list(player.clone()).await;
    assert_eq!(seen["sheets"].as_array().unwrap().len(), 1, "{seen}");
    assert_eq!(seen["sheets"][0]["owner"], "Ada");
    assert_eq!(seen["sheets"][0]["sheet"], made["sheet"]);
    assert_eq!(
        list(gm.clone()).await["sheets"].as_array().unwrap().len(),
        2
    );
    // The sheet made checks clean; a tampered one names its broken rule.
    let check = format!("/api/rooms/{room}/sheets/check");
    let (status, clean) = app
        .post(&check, Some(&player), json!({"sheet": sheet}))
        .await;
    assert_eq!(
        (status, clean["ok"].as_bool()),
        (200, Some(true)),
        "{clean}"
    );
    let tampered = include_str!("../../../examples/mls/characters/broken/overspent.toml");
    let (status, broken) = app
        .post(&check, Some(&player), json!({"sheet": tampered}))
        .await;
    assert_eq!(
        (status, broken["ok"].as_bool()),
        (200, Some(false)),
        "{broken}"
    );
    assert!(!broken["violations"].as_array().unwrap().is_empty());
    // Choices are priced and checked the same way, and nothing is written:
    // Brana spends 13 of her 66 CPs (docs/mls/characters.md, "What things
    // cost"); twenty Fate Points more (5 CPs each, mls, Character
    // Generation, Fate Points) overspend by 47, and the CPs are named as
    // broken.
    let (status, priced) = app
        .post(&check, Some(&player), json!({"choices": BRANA}))
        .await;
    assert_eq!(status, 200, "{priced}");
    assert_eq!(priced["ok"], true, "{priced}");
    assert_eq!(
        priced["cps"],
        json!({"budget": 66, "spent": 13, "left": 53}),
        "{priced}"
    );
    let over = BRANA.replace("age = 21", "fate_points_bought = 20\nage = 21");
    let (status, over) = app
        .post(&check, Some(&player), json!({"choices": over}))
        .await;
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["ok"], false, "{over}");
    assert_eq!(over["cps"]["left"], -47, "{over}");
    assert!(
        over["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["field"] == "character.cps"),
        "{over}"
    );
    // Too young to start (RULING P-42): named at the age, with no CPs.
    let young = BRANA.replace("age = 21", "age = 17");
    let (status, young) = app
        .post(&check, Some(&player), json!({"choices": young}))
        .await;
    assert_eq!(status, 200, "{young}");
    assert_eq!(
        (
            &young["ok"],
            &young["cps"],
            &young["violations"][0]["field"]
        ),
        (&json!(false), &Value::Null, &json!("character.age")),
        "{young}"
    );
    assert!(
        young["violations"][0]["problem"]
            .as_str()
            .unwrap()
            .contains("P-42"),
        "{young}"
    );
    let (status, both) = app
        .post(
            &check,
            Some(&player),
            json!({"choices": BRANA, "sheet": sheet}),
        )
        .await;
    assert_eq!(status, 400, "{both}");
    // Bad choices are refused with where; nothing is written.
    for (body, needle) in [
        (json!({"choices": "name = \"X\"\nage = [\n"}), "choices"),
        (json!({"choices": BRANA, "bogus": 1}), "bogus"),
        (json!({}), "choices"),
    ] {
        let (status, error) = app.post(&sheets, Some(&player), body.clone()).await;
        assert_eq!(status, 400, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert_eq!(lines(&app.log(&room, &gm).await).len(), 4);
    // After the reveal both sheets are made again from the seed and match.
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = app.log(&room, &gm).await;
    assert_eq!(verify(&log).unwrap().rolls_verified, 2);
}

async fn a_sheet_is_advanced_by_its_owner_with_the_ledger_and_replayed(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let sheets = format!("/api/rooms/{room}/sheets");
    let (status, made) = app
        .post(&sheets, Some(&player), json!({"choices": BRANA}))
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["seq"].as_i64().unwrap();
    let advance = format!("{sheets}/{id}/advance");
    // The owner: a major adventure in a major role (1d10 CPs, mls,
    // *Character Advancement*) and a year.
    let (status, first) = app
        .post(
            &advance,
            Some(&player),
            json!({"adventure": "major", "role": "major", "increments": 1, "client_seed": "after the mine"}),
        )
        .await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(
        (first["advances"].as_i64(), first["from"].as_i64()),
        (Some(id), Some(id))
    );
    let entries = first["entries"].as_array().unwrap();
    let adventure = &entries[0];
    assert_eq!(adventure["step"], "adventure", "{first}");
    let gained = adventure["cps"].as_i64().unwrap();
    assert!((1..=10).contains(&gained), "{adventure}");
    assert!(adventure["roll"].as_str().unwrap().starts_with("1d10 = "));
    assert!(entries.iter().any(|e| e["step"] == "income"), "{first}");
    assert_eq!(first["age"], 22);
    let new_sheet = first["sheet"].as_str().unwrap();
    assert_ne!(new_sheet, made["sheet"].as_str().unwrap());
    // The GM advances it on, from the version the first advance left.
    let (status, second) = app
        .post(&advance, Some(&gm), json!({"spend": ["money:1"]}))
        .await;
    assert_eq!(status, 201, "{second}");
    assert_eq!(second["from"], first["seq"]);
    assert_eq!(
        second["cps"].as_i64().unwrap(),
        first["cps"].as_i64().unwrap() - 1
    );
    // The list shows the latest version.
    let response = app
        .client
        .get(format!("{}{sheets}", app.base))
        .bearer_auth(&player)
        .send()
        .await
        .unwrap();
    let listed: Value = response.json().await.unwrap();
    let mine = &listed["sheets"][0];
    assert_eq!(
        (mine["seq"].as_i64(), mine["advances"].as_i64()),
        (Some(id), Some(2))
    );
    assert_eq!(mine["version"], second["seq"]);
    assert_eq!(mine["sheet"], second["sheet"]);
    // A player may not advance another's sheet, not even the GM's open one.
    let (status, npc) = app
        .post(&sheets, Some(&gm), json!({"choices": GRISHNAK}))
        .await;
    assert_eq!(status, 201, "{npc}");
    let (status, error) = app
        .post(
            &format!("{sheets}/{}/advance", npc["seq"]),
            Some(&player),
            json!({"increments": 1}),
        )
        .await;
    assert_eq!(status, 403, "{error}");
    // Bad options are refused naming the option; nothing is written.
    let before = lines(&app.log(&room, &gm).await).len();
    for (path, body, wanted, needle) in [
        (
            &advance,
            json!({"adventure": "epic", "role": "major"}),
            400,
            "`adventure`",
        ),
        (&advance, json!({"adventure": "major"}), 400, "`role`"),
        (&advance, json!({"role": "minor"}), 400, "`role`"),
        (
            &advance,
            json!({"increments": 1, "years": 1}),
            400,
            "`increments`",
        ),
        (&advance, json!({"increments": 1001}), 400, "`increments`"),
        (&advance, json!({"reduce": "wisdom"}), 400, "`reduce`"),
        (&advance, json!({"spend": "bogus"}), 400, "`spend`"),
        (&advance, json!({"spend": ["money:1000"]}), 400, "`spend`"),
        (&advance, json!({"check": 5}), 400, "check"),
        (&advance, json!({"bogus": 1}), 400, "bogus"),
        (&advance, json!({"secret": true}), 400, "secret"),
        (&advance, json!({"odds": true}), 400, "odds"),
        (
            &advance,
            json!({"increments": 10, "reduce": ["strength", "body", "mind", "aura", "agility", "dexterity"]}),
            400,
            "`reduce`",
        ),
        (&format!("{sheets}/999/advance"), json!({}), 404, "999"),
        (&format!("{sheets}/1/advance"), json!({}), 404, "no sheet 1"),
        (&format!("{sheets}/mine/advance"), json!({}), 400, "`mine`"),
    ] {
        let (status, error) = app.post(path, Some(&player), body.clone()).await;
        assert_eq!(status, wanted, "{body} -> {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert_eq!(lines(&app.log(&room, &gm).await).len(), before);
    // After the reveal each advance is replayed from its record and seed.
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = app.log(&room, &gm).await;
    let report = verify(&log).unwrap();
    assert_eq!(report.rolls_verified, 4, "two sheets made, two advances");
    // A forged outcome (more CPs), every hash recomputed: caught by replay.
    let at = first["seq"].as_i64().unwrap();
    let forged = reseal(&log, at, |body| {
        body["result"]["cps"] = json!(body["result"]["cps"].as_i64().unwrap() + 5);
    });
    let failure = verify(&forged).unwrap_err();
    assert_eq!(failure.line, at as usize, "{failure}");
    assert!(failure.message.contains("do not follow"), "{failure}");
    // An advance made from an older version of the sheet (the server
    // swapping in a better sheet) is caught by the sheet's custody.
    let at = second["seq"].as_i64().unwrap();
    let forged = reseal(&log, at, |body| {
        assert_eq!(body["action"]["record"]["from"], first["seq"]);
        body["action"]["record"]["from"] = json!(id);
    });
    let failure = verify(&forged).unwrap_err();
    assert_eq!(failure.line, at as usize, "{failure}");
    assert!(failure.message.contains("latest version"), "{failure}");
}

async fn keys_are_checked_on_every_request(app: App) {
    let (room, _gm, player) = app.room_with_player().await;
    let (other, other_gm, _) = app.room_with_player().await;
    let roll = json!({"expression": "1d20"});
    let path = format!("/api/rooms/{room}/rolls");
    // No key, a wrong key: 401 with a JSON error.
    let (status, body) = app.post(&path, None, roll.clone()).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("no_key"))
    );
    let (status, body) = app.post(&path, "not-a-key", roll.clone()).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("bad_key"))
    );
    // Another room's GM: 403.
    let (status, _) = app.post(&path, Some(&other_gm), roll.clone()).await;
    assert_eq!(status, 403);
    let (status, _) = app
        .get_text(&format!("/api/rooms/{room}/log"), Some(&other_gm))
        .await;
    assert_eq!(status, 403);
    // A player may not use GM actions or roll in secret.
    let (status, body) = app
        .post(
            &format!("/api/rooms/{room}/reveal"),
            Some(&player),
            json!({}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = app
        .post(
            &path,
            Some(&player),
            json!({"expression": "1d20", "secret": true}),
        )
        .await;
    assert_eq!(status, 403);
    // A wrong invite gets nothing.
    let (status, _) = app
        .post(
            &format!("/api/rooms/{other}/join"),
            None,
            json!({"invite": "guess", "name": "Eve"}),
        )
        .await;
    assert_eq!(status, 403);
    // None of it reached the log: room and join only.
    assert_eq!(lines(&app.log(&room, &player).await).len(), 2);
}

/// A player cannot pass for the GM or for another member: a join whose name
/// is a member's (trimmed, in any case; the GM's is `GM`) is refused with 409
/// and nothing is written. Every event body of a roll or a join names the
/// roller's role, so a client can mark the GM.
async fn a_join_under_a_members_or_the_gms_name_is_refused(app: App) {
    let (_, room) = app.post("/api/rooms", None, json!({})).await;
    let id = room["room"].as_str().unwrap();
    let gm = room["gm_key"].as_str().unwrap();
    let invite = room["invite"].as_str().unwrap();
    let join = format!("/api/rooms/{id}/join");
    let (status, ada) = app
        .post(&join, None, json!({"invite": invite, "name": "Ada"}))
        .await;
    assert_eq!(status, 201, "{ada}");
    for name in ["GM", "gm", " Gm ", "Ada", "ADA", "  ada"] {
        let (status, body) = app
            .post(&join, None, json!({"invite": invite, "name": name}))
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("name_taken")),
            "{name:?}: {body}"
        );
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("already a member's name"),
            "{body}"
        );
    }
    let (status, bob) = app
        .post(&join, None, json!({"invite": invite, "name": "Gmork"}))
        .await;
    assert_eq!(status, 201, "{bob}");
    let player = ada["player_key"].as_str().unwrap();
    let rolls = format!("/api/rooms/{id}/rolls");
    for key in [gm, player] {
        let (status, body) = app.post(&rolls, key, json!({"expression": "1d6"})).await;
        assert_eq!(status, 201, "{body}");
    }
    let log = lines(&app.log(id, gm).await);
    // room, Ada, Gmork, two rolls: the refused joins wrote nothing.
    assert_eq!(log.len(), 5);
    let roles: Vec<(&str, &str)> = log[1..]
        .iter()
        .map(|e| {
            (
                e["body"]["name"].as_str().unwrap(),
                e["body"]["role"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("Ada", "player"),
            ("Gmork", "player"),
            ("GM", "gm"),
            ("Ada", "player")
        ]
    );
    verify(&app.log(id, gm).await).unwrap();
}

async fn bad_requests_get_json_errors_and_change_nothing(app: App) {
    let (room, _gm, player) = app.room_with_player().await;
    let path = format!("/api/rooms/{room}/rolls");
    let (status, body) = app
        .post(&path, Some(&player), json!({"expression": "2d6 + * 3"}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "bad_expression");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains('^'),
        "the caret points at the bad character: {message}"
    );
    let (status, body) = app
        .post(&path, Some(&player), json!({"expresion": "1d6"}))
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "bad_json");
    let (status, body) = app
        .post(
            &path,
            Some(&player),
            json!({"expression": "1d6", "client_seed": "x".repeat(300)}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_client_seed"))
    );
    let response = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(&player)
        .header("content-type", "application/json")
        .body("{\"expression\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_json");
    // Exact odds go through the engine's limits.
    let (status, odds) = app
        .post(
            &format!("/api/rooms/{room}/odds"),
            Some(&player),
            json!({"expression": "2d6"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        odds["distribution"][5],
        json!({"value": 7, "probability": "1/6", "p": 1.0 / 6.0})
    );
    let (status, refused) = app
        .post(
            &format!("/api/rooms/{room}/odds"),
            Some(&player),
            json!({"expression": "100000d6"}),
        )
        .await;
    assert!(status == 422 || status == 400, "{status} {refused}");
    let (status, _) = app.get_text("/api/nothing-here", None).await;
    assert_eq!(status, 404);
    assert_eq!(lines(&app.log(&room, &player).await).len(), 2);
}

async fn a_secret_roll_never_reaches_a_player_before_it_is_revealed(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let mut stream = app
        .client
        .get(format!("{}/api/rooms/{room}/events", app.base))
        .bearer_auth(&player)
        .send()
        .await
        .unwrap();
    assert_eq!(read_events(&mut stream, 2).await.len(), 2);
    let (status, secret) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&gm),
            json!({"expression": "1d1000[trap]", "secret": true}),
        )
        .await;
    assert_eq!(status, 201);
    let total = secret["total"].as_i64().unwrap();
    let (_, public) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&player),
            json!({"expression": "1d4"}),
        )
        .await;
    let seen = read_events(&mut stream, 2).await;
    assert_eq!(seen[0].0, 3);
    assert_eq!(seen[0].1["hidden"], true);
    assert_eq!(seen[0].1["body"], Value::Null);
    assert_eq!(
        seen[0].1["body_hash"], secret["body_hash"],
        "the commitment is shown"
    );
    assert_eq!(seen[1].1["body"]["result"]["total"], public["total"]);
    // Nothing of the secret roll is in what the player received or can read.
    let player_log = app.log(&room, &player).await;
    for text in [player_log.as_str(), &seen[0].1.to_string()] {
        assert!(!text.contains("trap") && !text.contains("1d1000"), "{text}");
    }
    assert_eq!(verify(&player_log).unwrap().rolls_hidden, 1);
    let gm_log = lines(&app.log(&room, &gm).await);
    assert_eq!(gm_log[2]["body"]["result"]["total"], total);
    // The GM shows it: the player sees it now, and it verifies after the reveal.
    let (status, shown) = app
        .post(
            &format!("/api/rooms/{room}/rolls/3/reveal"),
            Some(&gm),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{shown}");
    let after_show = lines(&app.log(&room, &player).await);
    assert_eq!(after_show[2]["body"]["result"]["total"], total);
    let (status, _) = app
        .post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    assert_eq!(status, 200);
    let report = verify(&app.log(&room, &player).await).unwrap();
    assert_eq!((report.rolls_verified, report.rolls_hidden), (2, 0));
    // A second secret roll is revealed by the epoch's end alone.
    let (_, second) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&gm),
            json!({"expression": "1d8", "secret": true}),
        )
        .await;
    assert!(lines(&app.log(&room, &player).await).last().unwrap()["body"].is_null());
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = lines(&app.log(&room, &player).await);
    let line = log.iter().find(|l| l["seq"] == second["seq"]).unwrap();
    assert_eq!(line["body"]["result"]["total"], second["total"]);
    assert_eq!(
        verify(&app.log(&room, &player).await)
            .unwrap()
            .rolls_verified,
        3
    );
}

async fn a_reconnecting_reader_gets_exactly_what_it_missed(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    let roll = |n: i64| json!({"expression": format!("1d{}", n + 2)});
    for n in 0..5 {
        app.post(&format!("/api/rooms/{room}/rolls"), Some(&player), roll(n))
            .await;
    }
    // A reader that saw up to 4 reconnects: 5, 6, 7 from the log, then live.
    let mut stream = app
        .client
        .get(format!("{}/api/rooms/{room}/events", app.base))
        .bearer_auth(&gm)
        .header("Last-Event-ID", "4")
        .send()
        .await
        .unwrap();
    let backfilled = read_events(&mut stream, 3).await;
    assert_eq!(
        backfilled.iter().map(|e| e.0).collect::<Vec<_>>(),
        [5, 6, 7]
    );
    for n in 5..8 {
        app.post(&format!("/api/rooms/{room}/rolls"), Some(&player), roll(n))
            .await;
    }
    let live = read_events(&mut stream, 3).await;
    assert_eq!(live.iter().map(|e| e.0).collect::<Vec<_>>(), [8, 9, 10]);
    assert_eq!(live[2].1["body"]["action"]["expression"], "1d9");
    // `?after=` does the same for clients that cannot send the header; `key=`
    // stands in for the Authorization header (a browser's EventSource).
    let mut again = app
        .client
        .get(format!(
            "{}/api/rooms/{room}/events?after=8&key={player}",
            app.base
        ))
        .send()
        .await
        .unwrap();
    let rest = read_events(&mut again, 2).await;
    assert_eq!(rest.iter().map(|e| e.0).collect::<Vec<_>>(), [9, 10]);
    let bad = app
        .client
        .get(format!("{}/api/rooms/{room}/events", app.base))
        .bearer_auth(&gm)
        .header("Last-Event-ID", "seven")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400);
}

async fn the_log_survives_a_restart_and_the_chain_goes_on(mut app: App) {
    let (room, gm, player) = app.room_with_player().await;
    app.post(
        &format!("/api/rooms/{room}/rolls"),
        Some(&player),
        json!({"expression": "3d6"}),
    )
    .await;
    let before = app.log(&room, &gm).await;
    // A new server process on the same database.
    app.stop();
    let dir = app._dir.take();
    let restarted = start(&app.database, dir).await;
    assert_eq!(restarted.log(&room, &gm).await, before);
    let (status, roll) = restarted
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&player),
            json!({"expression": "3d6"}),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(roll["seq"], 4);
    restarted
        .post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&restarted.log(&room, &gm).await).unwrap();
    assert_eq!((report.events, report.rolls_verified), (5, 2));
}

async fn concurrent_joins_get_distinct_members_and_sequence_numbers(app: App) {
    let app = Arc::new(app);
    let (_, room) = app.post("/api/rooms", None, json!({})).await;
    let id = room["room"].as_str().unwrap().to_string();
    let invite = room["invite"].as_str().unwrap().to_string();
    let mut tasks = Vec::new();
    for i in 0..12 {
        let app = app.clone();
        let path = format!("/api/rooms/{id}/join");
        let body = json!({"invite": invite, "name": format!("player {i}")});
        tasks.push(tokio::spawn(
            async move { app.post(&path, None, body).await },
        ));
    }
    let mut members = Vec::new();
    let mut seqs = Vec::new();
    for task in tasks {
        let (status, joined) = task.await.unwrap();
        assert_eq!(status, 201, "{joined}");
        members.push(joined["member"].as_i64().unwrap());
        seqs.push(joined["seq"].as_i64().unwrap());
    }
    members.sort();
    seqs.sort();
    assert_eq!(members, (1..13).collect::<Vec<_>>());
    assert_eq!(seqs, (2..14).collect::<Vec<_>>());
    let gm = room["gm_key"].as_str().unwrap();
    assert_eq!(verify(&app.log(&id, gm).await).unwrap().events, 13);
}

/// Requests arriving together share a transaction on SQLite (group commit):
/// a refused one among them writes nothing and harms none of the others.
async fn concurrent_rolls_in_several_rooms_with_refusals_stay_gapless(app: App) {
    let app = Arc::new(app);
    let mut rooms = Vec::new();
    for _ in 0..3 {
        rooms.push(app.room_with_player().await);
    }
    let mut tasks = Vec::new();
    for i in 0..60 {
        let app = app.clone();
        let (room, _, player) = rooms[i % 3].clone();
        let expression = if i % 5 == 0 { "2d6 +" } else { "3d6" };
        tasks.push(tokio::spawn(async move {
            let answer = app
                .post(
                    &format!("/api/rooms/{room}/rolls"),
                    Some(&player),
                    json!({"expression": expression}),
                )
                .await;
            (i, answer)
        }));
    }
    let mut seqs = vec![Vec::new(); 3];
    for task in tasks {
        let (i, (status, answer)) = task.await.unwrap();
        if i % 5 == 0 {
            assert_eq!(status, 400, "{answer}");
            assert_eq!(answer["error"]["code"], "bad_expression");
        } else {
            assert_eq!(status, 201, "{answer}");
            seqs[i % 3].push(answer["seq"].as_i64().unwrap());
        }
    }
    for (index, (room, gm, _)) in rooms.iter().enumerate() {
        seqs[index].sort();
        assert_eq!(seqs[index], (3..19).collect::<Vec<_>>(), "room {index}");
        app.post(&format!("/api/rooms/{room}/reveal"), Some(gm), json!({}))
            .await;
        let report = verify(&app.log(room, gm).await).unwrap();
        assert_eq!((report.events, report.rolls_verified), (19, 16));
    }
}

async fn concurrent_rolls_get_distinct_sequence_numbers(app: App) {
    let app = Arc::new(app);
    let (room, gm, player) = app.room_with_player().await;
    let mut tasks = Vec::new();
    for i in 0..16 {
        let app = app.clone();
        let room = room.clone();
        let key = if i % 2 == 0 {
            gm.clone()
        } else {
            player.clone()
        };
        tasks.push(tokio::spawn(async move {
            app.post(
                &format!("/api/rooms/{room}/rolls"),
                Some(&key),
                json!({"expression": "1d20"}),
            )
            .await
        }));
    }
    let seqs = committed_seqs(tasks).await;
    assert_eq!(seqs, (3..19).collect::<Vec<_>>());
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    assert_eq!(
        verify(&app.log(&room, &gm).await).unwrap().rolls_verified,
        16
    );
}

async fn every_changed_byte_of_an_export_is_caught(app: App) {
    let (room, gm, player) = app.room_with_player().await;
    app.post(
        &format!("/api/rooms/{room}/rolls"),
        Some(&player),
        json!({"expression": "2d6! + 1", "client_seed": "é"}),
    )
    .await;
    app.post(
        &format!("/api/rooms/{room}/rolls"),
        Some(&gm),
        json!({"expression": "1d20", "secret": true}),
    )
    .await;
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    app.post(
        &format!("/api/rooms/{room}/rolls"),
        Some(&gm),
        json!({"expression": "1d6", "secret": true}),
    )
    .await;
    for key in [&gm, &player] {
        let log = app.log(&room, key).await;
        verify(&log).unwrap();
        let bytes = log.as_bytes();
        for i in 0..bytes.len() {
            let mut changed = bytes.to_vec();
            changed[i] ^= 1;
            let Ok(text) = String::from_utf8(changed) else {
                continue;
            };
            let line = bytes[..i].iter().filter(|&&b| b == b'\n').count() + 1;
            match verify(&text) {
                Ok(_) => panic!("byte {i} changed and the log still verifies:\n{text}"),
                Err(failure) => assert!(
                    failure.line == line || failure.line == line + 1,
                    "byte {i} (line {line}) changed, line {} named: {failure}",
                    failure.line
                ),
            }
        }
        // A deleted or repeated line is caught too.
        let all: Vec<&str> = log.lines().collect();
        let without = [&all[..2], &all[3..]].concat().join("\n");
        assert_eq!(verify(&without).unwrap_err().line, 3);
    }
}

/// The PostgreSQL connection cut while a server runs: requests fail at once
/// with a 503 and write nothing; once the database is back the server
/// recovers by itself (no restart): rolls go on gaplessly, the event stream
/// goes on, and the log verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_cut_and_back_fails_cleanly_and_recovers_without_a_restart() {
    let Some(url) = fresh_postgres("postgres_cut_and_back").await else {
        return;
    };
    // postgres://user@HOST:PORT/db: the proxy stands in for HOST:PORT.
    let (scheme_user, rest) = url.split_once('@').unwrap();
    let (upstream, database) = rest.split_once('/').unwrap();
    let proxy = CuttableProxy::start(upstream.to_string()).await;
    let app = start(&format!("{scheme_user}@{}/{database}", proxy.address), None).await;
    let (room, gm, player) = app.room_with_player().await;
    let rolls = format!("/api/rooms/{room}/rolls");
    let (status, first) = app
        .post(&rolls, Some(&player), json!({"expression": "1d6"}))
        .await;
    assert_eq!((status, first["seq"].as_i64()), (201, Some(3)), "{first}");
    let mut stream = app
        .client
        .get(format!("{}/api/rooms/{room}/events?after=3", app.base))
        .bearer_auth(&gm)
        .send()
        .await
        .unwrap();

    proxy.cut().await;
    for _ in 0..3 {
        let asked = std::time::Instant::now();
        let (status, error) = app
            .post(&rolls, Some(&player), json!({"expression": "1d6"}))
            .await;
        assert_eq!(status, 503, "{error}");
        assert_eq!(error["error"]["code"], "database_unavailable");
        assert!(asked.elapsed() < Duration::from_secs(15), "a request hung");
    }

    proxy.restore();
    let back = std::time::Instant::now();
    let second = loop {
        let (status, roll) = app
            .post(&rolls, Some(&player), json!({"expression": "1d8"}))
            .await;
        if status == 201 {
            break roll;
        }
        assert_eq!(status, 503, "{roll}");
        assert!(back.elapsed() < Duration::from_secs(20), "no recovery");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // Nothing was written while the database was away: no gap.
    assert_eq!(second["seq"], 4, "{second}");
    let (status, third) = app
        .post(&rolls, Some(&player), json!({"expression": "1d10"}))
        .await;
    assert_eq!((status, third["seq"].as_i64()), (201, Some(5)), "{third}");
    let seen = read_events(&mut stream, 2).await;
    assert_eq!(seen.iter().map(|e| e.0).collect::<Vec<_>>(), [4, 5]);
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&app.log(&room, &gm).await).unwrap();
    assert_eq!((report.events, report.rolls_verified), (6, 3));
}

/// Two server processes' worth of state (two routers, two hubs, two pools)
/// on one PostgreSQL database, as behind a load balancer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_share_rooms_events_and_one_sequence() {
    let Some(url) =
        fresh_postgres("two_servers_on_one_postgres_share_rooms_events_and_one_sequence").await
    else {
        return;
    };
    let a = start(&url, None).await;
    let b = start(&url, None).await;
    let (room, gm, player) = a.room_with_player().await;
    // A member reading from server B sees what is rolled on server A.
    let mut stream = b
        .client
        .get(format!("{}/api/rooms/{room}/events?after=2", b.base))
        .bearer_auth(&gm)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    let (status, first) = a
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(&player),
            json!({"expression": "1d6"}),
        )
        .await;
    assert_eq!(status, 201);
    let seen = read_events(&mut stream, 1).await;
    assert_eq!(seen[0].0, 3);
    assert_eq!(seen[0].1["body"]["result"]["total"], first["total"]);
    // Concurrent writers on both servers: one event per number, no gaps.
    let a = Arc::new(a);
    let b = Arc::new(b);
    let mut tasks = Vec::new();
    for i in 0..24 {
        let server = if i % 2 == 0 { a.clone() } else { b.clone() };
        let (room, key) = (room.clone(), player.clone());
        tasks.push(tokio::spawn(async move {
            server
                .post(
                    &format!("/api/rooms/{room}/rolls"),
                    Some(&key),
                    json!({"expression": "1d20"}),
                )
                .await
        }));
    }
    let seqs = committed_seqs(tasks).await;
    assert_eq!(seqs, (4..28).collect::<Vec<_>>());
    // Server B's reader got every one of them, in order, once.
    let live = read_events(&mut stream, 24).await;
    assert_eq!(
        live.iter().map(|e| e.0).collect::<Vec<_>>(),
        (4..28).collect::<Vec<_>>()
    );
    b.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&a.log(&room, &gm).await).unwrap();
    assert_eq!((report.events, report.rolls_verified), (28, 25));
}

/// Group commit on PostgreSQL: each process's batches hold the locks of
/// several rooms at once. Two servers writing to four rooms, with joins and
/// fight steps (their own transactions) mixed in, never deadlock, and every
/// room stays gapless and verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_batching_into_several_rooms_stay_gapless() {
    let Some(url) = fresh_postgres("two_servers_batching_into_several_rooms_stay_gapless").await
    else {
        return;
    };
    let a = Arc::new(start(&url, None).await);
    let b = Arc::new(start(&url, None).await);
    let knight = include_str!("../../../examples/mls/duel/knight.toml");
    let brigand = include_str!("../../../examples/mls/duel/brigand.toml");
    let mut rooms = Vec::new();
    for _ in 0..4 {
        let (room, gm, player) = a.room_with_player().await;
        let (status, fight) = a
            .post(
                &format!("/api/rooms/{room}/fights"),
                Some(&gm),
                json!({"a": knight, "b": brigand, "distance": 5}),
            )
            .await;
        assert_eq!((status, fight["fight"].as_i64()), (201, Some(3)), "{fight}");
        rooms.push((room, gm, player));
    }
    let mut tasks = Vec::new();
    for i in 0..96usize {
        let server = if i % 2 == 0 { a.clone() } else { b.clone() };
        let (room, gm, player) = rooms[i % 4].clone();
        tasks.push(tokio::spawn(async move {
            if i % 16 == 5 {
                // A fight step: the room's lock, in a transaction of its own.
                let path = format!("/api/rooms/{room}/fights/3/step");
                let (status, body) = server.post(&path, Some(&gm), json!({})).await;
                assert!(status == 201 || status == 409, "{status} {body}");
                return;
            }
            let (status, body) = server
                .post(
                    &format!("/api/rooms/{room}/rolls"),
                    Some(&player),
                    json!({"expression": "1d20", "client_seed": format!("{i}")}),
                )
                .await;
            assert_eq!(status, 201, "{body}");
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    for (room, gm, _) in &rooms {
        let log = b.log(room, gm).await;
        let seqs: Vec<i64> = lines(&log)
            .iter()
            .map(|l| l["seq"].as_i64().unwrap())
            .collect();
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
        // Room, join, fight, then 24 rolls (18 and up to 6 steps in room 1).
        assert!(seqs.len() >= 3 + 18, "{}", seqs.len());
        verify(&log).unwrap();
    }
}

/// `(status, the error's code, its message, the Allow header)` of an answer
/// that must be a JSON error in the API's shape.
async fn json_error(response: reqwest::Response) -> (u16, String, String, String) {
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let allow = response
        .headers()
        .get("allow")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = response.text().await.unwrap();
    assert!(
        kind.starts_with("application/json"),
        "{status} {kind}: {text:?}"
    );
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    let code = body["error"]["code"]
        .as_str()
        .expect("error.code")
        .to_string();
    let message = body["error"]["message"]
        .as_str()
        .expect("error.message")
        .to_string();
    (status, code, message, allow)
}

/// Every error the server sends is `{"error": {"code", "message"}}` with
/// the status that fits, the framework's own refusals included: a mistyped
/// field 400 (not 422), no JSON content type 415, a method a route does not
/// take 405 naming the one it does, a bad query 400, a body over the limit
/// 413 `too_large`. The auth scheme is read in any case.
#[tokio::test]
async fn every_error_is_json_with_the_status_that_fits() {
    let app = spawn_app(Backend::Sqlite, "errors").await.unwrap();
    let (room, gm, player) = app.room_with_player().await;
    let url = |path: &str| format!("{}/api/rooms/{room}{path}", app.base);
    let client = &app.client;

    let sent = client
        .post(url("/rolls"))
        .bearer_auth(&player)
        .json(&json!({"expresion": "1d6"}))
        .send()
        .await
        .unwrap();
    let (status, code, message, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (400, "bad_json"), "{message}");
    assert!(message.contains("unknown field `expresion`"), "{message}");

    let sent = client
        .post(url("/rolls"))
        .bearer_auth(&player)
        .body(r#"{"expression":"1d6"}"#)
        .send()
        .await
        .unwrap();
    let (status, code, message, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (415, "unsupported_media_type"));
    assert!(message.contains("application/json"), "{message}");

    let sent = client
        .get(url("/rolls"))
        .bearer_auth(&player)
        .send()
        .await
        .unwrap();
    let (status, code, message, allow) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (405, "method_not_allowed"));
    assert!(
        message.contains("GET") && message.contains("POST"),
        "{message}"
    );
    assert!(allow.contains("POST"), "{allow}");

    for path in ["/events?after=abc", "/log?after=abc"] {
        let sent = client
            .get(url(path))
            .bearer_auth(&player)
            .send()
            .await
            .unwrap();
        let (status, code, message, _) = json_error(sent).await;
        assert_eq!(
            (status, code.as_str()),
            (400, "bad_query"),
            "{path}: {message}"
        );
    }

    let big = json!({"expression": "1d6", "client_seed": "x".repeat(70 * 1024)});
    let sent = client
        .post(url("/rolls"))
        .bearer_auth(&player)
        .json(&big)
        .send()
        .await
        .unwrap();
    let (status, code, _, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (413, "too_large"));

    let sent = client
        .post(format!("{}/api/rooms", app.base))
        .header("content-type", "application/json")
        .body("{\"name\": ")
        .send()
        .await
        .unwrap();
    let (status, code, _, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (400, "bad_json"));

    let sent = client
        .get(format!("{}/api/nothing", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(json_error(sent).await.0, 404);

    // A fight's and a simulation's unknown field names every field taken.
    let sides = json!({"a": include_str!("../../../examples/mls/duel/knight.toml"),
                       "b": include_str!("../../../examples/mls/duel/brigand.toml"),
                       "distanse": 2});
    let sent = client
        .post(url("/fights"))
        .bearer_auth(&gm)
        .json(&sides)
        .send()
        .await
        .unwrap();
    let (status, code, message, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (400, "bad_fight"), "{message}");
    for field in ["`distance`", "`map`", "`run`", "`secret`", "`client_seed`"] {
        assert!(message.contains(field), "{field}: {message}");
    }
    let sent = client
        .post(url("/simulate"))
        .bearer_auth(&gm)
        .json(&sides)
        .send()
        .await
        .unwrap();
    let (status, _, message, _) = json_error(sent).await;
    assert_eq!(status, 400, "{message}");
    for field in ["`distance`", "`trials`", "`seed`", "`first`"] {
        assert!(message.contains(field), "{field}: {message}");
    }

    // `bearer`, `BEARER`: the scheme in any case.
    for scheme in ["bearer", "BEARER", "Bearer"] {
        let answer = client
            .get(url(""))
            .header("authorization", format!("{scheme} {player}"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status().as_u16(), 200, "{scheme}");
    }
    let sent = client
        .get(url(""))
        .header("authorization", format!("Basic {player}"))
        .send()
        .await
        .unwrap();
    let (status, code, _, _) = json_error(sent).await;
    assert_eq!((status, code.as_str()), (401, "no_key"));
    // Nothing of it was written: room and join only.
    assert_eq!(lines(&app.log(&room, &gm).await).len(), 2);
}

/// A server on `store` (connected to `url`, a file in `dir`) with the
/// engine's default limits and `rate`, serving with its clients' addresses.
async fn serve_store(store: Store, rate: RateLimit, url: String, dir: tempfile::TempDir) -> App {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let state = nutshell_server::state(store, Limits::default(), rate);
    let service = router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let server = tokio::spawn(async move { axum::serve(listener, service).await.unwrap() });
    App {
        base: format!("http://{address}"),
        client: reqwest::Client::new(),
        database: url,
        _dir: Some(dir),
        server: Some(server),
    }
}

#[tokio::test]
async fn a_key_over_its_rate_limit_gets_429_and_a_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let store = Store::connect(&url).await.unwrap();
    let app = serve_store(store, RateLimit::new(0.5, 3), url, dir).await;
    let (room, gm, player) = app.room_with_player().await;
    let path = format!("/api/rooms/{room}/rolls");
    for _ in 0..3 {
        let (status, _) = app
            .post(&path, Some(&player), json!({"expression": "1d6"}))
            .await;
        assert_eq!(status, 201);
    }
    let response = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(&player)
        .json(&json!({"expression": "1d6"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert_eq!(response.headers()["retry-after"], "2");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    // The refused roll was not written: room, join and three rolls (read
    // with the GM's key, which has its own bucket).
    assert_eq!(lines(&app.log(&room, &gm).await).len(), 5);
    // Creating rooms needs no key: it is limited by address (10 at once,
    // 30 an hour). This address created one room.
    for _ in 0..9 {
        let (status, _) = app.post("/api/rooms", None, json!({})).await;
        assert_eq!(status, 201);
    }
    let (status, refused) = app.post("/api/rooms", None, json!({})).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "rate_limited");
}

/// The web table is served by the same server: the page and its files, with
/// a policy that keeps every request on the server's own origin.
#[tokio::test]
async fn the_web_table_is_served_from_the_binary() {
    let app = spawn_app(Backend::Sqlite, "web").await.unwrap();
    for (path, kind, needle) in [
        (
            "/",
            "text/html",
            "<script type=\"module\" src=\"/web/app.js\">",
        ),
        ("/web/app.js", "text/javascript", "new EventSource("),
        ("/web/app.js", "text/javascript", "import \"./fights.js\""),
        (
            "/web/fights.js",
            "text/javascript",
            "export function fightStarted",
        ),
        (
            "/web/map.js",
            "text/javascript",
            "export function mapPicture",
        ),
        ("/web/style.css", "text/css", ".die.dropped"),
        ("/web/icon.svg", "image/svg+xml", "<svg"),
        ("/favicon.ico", "image/svg+xml", "<svg"),
    ] {
        let response = app
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let headers = response.headers().clone();
        assert!(headers["content-type"].to_str().unwrap().starts_with(kind));
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("default-src 'self'"), "{policy}");
        let text = response.text().await.unwrap();
        assert!(text.contains(needle), "{path}");
        // Nothing is loaded from another origin.
        assert!(!text.contains("https://"), "{path} reaches another origin");
    }
    // Only the page's own files are served under /web/.
    let missing = app
        .client
        .get(format!("{}/web/nothing.js", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);
}

/// Two servers on one SQLite file (docs/server.md: a second process on the
/// same file works): each server's writer keeps what its own commits
/// taught it (each room's chain end, each roller's count) only while the
/// other has not written (`PRAGMA data_version`). Rolls go to both at
/// once into the same rooms, with reveals between rounds; every roll is
/// committed, each room's numbers run 1, 2, 3 … without a gap or a
/// repeat, and the log verifies (chain, and every roll recomputed with the
/// roller's count it was keyed by).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_sqlite_file_keep_one_chain() {
    let (url, dir) = app::fresh_sqlite();
    let first = Arc::new(start(&url, Some(dir)).await);
    let second = Arc::new(start(&url, None).await);
    let mut rooms = Vec::new();
    for _ in 0..2 {
        let (room, gm, players) = first.room(&["Ann", "Bob"]).await;
        rooms.push((room, gm, players));
    }
    for round in 0..4 {
        let mut tasks = Vec::new();
        for (room, gm, players) in &rooms {
            for (i, key) in std::iter::once(gm).chain(players).enumerate() {
                for n in 0..3 {
                    let app = Arc::clone(if (i + n + round) % 2 == 0 {
                        &first
                    } else {
                        &second
                    });
                    let (room, key) = (room.clone(), key.clone());
                    tasks.push(tokio::spawn(async move {
                        app.post(
                            &format!("/api/rooms/{room}/rolls"),
                            key.as_str(),
                            json!({"expression": "1d20 + 5"}),
                        )
                        .await
                    }));
                }
            }
        }
        for task in tasks {
            let (status, roll) = task.await.unwrap();
            assert_eq!(status, 201, "round {round}: {roll}");
        }
        let (room, gm, _) = &rooms[round % 2];
        let revealer = if round % 2 == 0 { &second } else { &first };
        let (status, revealed) = revealer
            .post(&format!("/api/rooms/{room}/reveal"), gm.as_str(), json!({}))
            .await;
        assert_eq!(status, 200, "{revealed}");
    }
    for (room, gm, _) in &rooms {
        let (status, _) = first
            .post(&format!("/api/rooms/{room}/reveal"), gm.as_str(), json!({}))
            .await;
        assert_eq!(status, 200);
        let log = second.log(room, gm).await;
        let seqs: Vec<i64> = log
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["seq"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "{room}");
        let report = verify(&log).unwrap_or_else(|f| panic!("the log of {room} verifies: {f}"));
        assert_eq!(report.rolls_pending, 0);
        assert!(report.rolls_verified >= 4 * 3 * 3, "{report:?}");
    }
}

/// Appends a `note` event with `body` through the group-commit writer,
/// drawing `roller`'s dice (none drawn: the count only advances).
async fn append_note(
    store: &Store,
    room: &str,
    roller: Option<i64>,
    body: Value,
) -> Result<Arc<nutshell_server::store::Event>, nutshell_server::store::AppendError<()>> {
    store
        .append_with(room, roller, move |room, _slot| {
            let draft = nutshell_server::store::Draft {
                kind: "note",
                epoch: room.epoch,
                secret: false,
                body,
                thread: None,
                roller: None,
            };
            Ok((draft, ()))
        })
        .await
        .map(|(event, ())| event)
}

/// What the group-commit writer passed on, room by room.
#[derive(Default)]
struct Collected {
    passed: std::sync::Mutex<std::collections::HashMap<String, Vec<i64>>>,
}

impl nutshell_server::store::Readers for Collected {
    fn publish(&self, event: Arc<nutshell_server::store::Event>) {
        let mut passed = self.passed.lock().unwrap();
        passed
            .entry(event.room.clone())
            .or_default()
            .push(event.seq);
    }
}

impl Collected {
    fn has(&self, room: &str, seq: i64) -> bool {
        let passed = self.passed.lock().unwrap();
        passed.get(room).is_some_and(|seqs| seqs.contains(&seq))
    }

    fn count(&self) -> usize {
        self.passed.lock().unwrap().values().map(Vec::len).sum()
    }
}

/// The writer passes each committed event on to the room's readers itself,
/// in the log's order and before its request is answered (request handlers
/// waking in any order once passed them on out of order, and each gap sent
/// every reader back to the database), and an event whose request was
/// dropped while it waited (a client gone) reaches the readers all the same
/// (it once waited for the room's next event).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_passes_events_on_in_the_logs_order_even_for_dropped_requests() {
    use nutshell_server::store::Event;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let store = Store::connect(&url).await.unwrap();
    let collected = Arc::new(Collected::default());
    store.pass_to(collected.clone());
    // Rooms made through the API (its hub is not the store's readers now:
    // the first setting holds).
    let app = serve_store(store.clone(), RateLimit::new(0.0, 1), url, dir).await;
    let mut rooms = Vec::new();
    for _ in 0..4 {
        let (status, room) = app.post("/api/rooms", None, json!({})).await;
        assert_eq!(status, 201, "{room}");
        rooms.push(room["room"].as_str().unwrap().to_string());
    }
    let append = |store: Store, room: String, i: usize| async move {
        append_note(&store, &room, Some(1), json!({"i": i})).await
    };
    // Many appends at once, so that batches form; every tenth dropped as
    // soon as it is queued (its first poll sends it to the writer).
    let mut tasks = Vec::new();
    let mut dropped = 0;
    for i in 0..400 {
        let room = rooms[i % rooms.len()].clone();
        if i % 10 == 9 {
            let mut waiting = Box::pin(append(store.clone(), room, i));
            let mut context = std::task::Context::from_waker(std::task::Waker::noop());
            assert!(
                waiting.as_mut().poll(&mut context).is_pending(),
                "answered at once"
            );
            drop(waiting);
            dropped += 1;
            continue;
        }
        let (store, collected) = (store.clone(), collected.clone());
        tasks.push(tokio::spawn(async move {
            let event: Arc<Event> = append(store, room, i).await.expect("committed");
            assert!(
                collected.has(&event.room, event.seq),
                "event {} of {} was answered before it was passed on",
                event.seq,
                event.room
            );
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    // The dropped ones too, in time.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while collected.count() < 400 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(collected.count(), 400, "{dropped} dropped requests");
    // Each room's events passed on once each, in the log's order: after
    // the room's first event (its creation, written outside the writer).
    let passed = collected.passed.lock().unwrap().clone();
    for room in &rooms {
        let expected: Vec<i64> = (2..2 + 100).collect();
        assert_eq!(passed[room], expected, "room {room}");
    }
}

/// SQLite's log is checkpointed beside the writer (so that the commit that
/// finds it full has little left to copy) and still starts again from its
/// beginning: under appends that never pause it stays within a few times
/// the 8,192 pages (32 MiB) at which a commit checkpoints it. A checkpoint
/// beside the writer alone, racing it, once let the log grow without bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_s_log_stays_bounded_under_appends_that_never_pause() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.db");
    let url = format!("sqlite:{}", file.display());
    let store = Store::connect(&url).await.unwrap();
    let wal = dir.path().join("t.db-wal");
    let app = serve_store(store.clone(), RateLimit::new(0.0, 1), url, dir).await;
    let mut rooms = Vec::new();
    for _ in 0..50 {
        let (status, room) = app.post("/api/rooms", None, json!({})).await;
        assert_eq!(status, 201, "{room}");
        rooms.push(room["room"].as_str().unwrap().to_string());
    }
    let mut largest = 0u64;
    let mut written = 0u64;
    let filler = "x".repeat(2_000);
    // Appends from 64 tasks at once until 150 MiB of bodies went through
    // the log (about five times the size at which it is checkpointed).
    while written < 150 << 20 {
        let mut tasks = Vec::new();
        for task in 0..64 {
            let (store, room, filler) = (
                store.clone(),
                rooms[task % rooms.len()].clone(),
                filler.clone(),
            );
            tasks.push(tokio::spawn(async move {
                for _ in 0..20 {
                    append_note(&store, &room, None, json!({"filler": filler}))
                        .await
                        .expect("committed");
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        written += 64 * 20 * 2_000;
        largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
    }
    let bound = 3 * 8_192 * 4_096;
    assert!(
        largest <= bound,
        "the log reached {largest} bytes (bound {bound}) after {written} bytes of bodies"
    );
    drop(app);
}
