//! The table's promises against its players and its operator (issue 24,
//! the review's attacks): a hidden body's hash cannot be matched by
//! guessing, every answer about a hidden event is the same, no roll can
//! pass for another kind of event, and no event the server inserts changes
//! a player's dice. A real server on a loopback port, SQLite and PostgreSQL
//! where the database matters.

use std::collections::HashSet;

use nutshell_dice::{Expression, Limits, Scripted};
use nutshell_server::fair::{self, DiceInput, RollRecord};
use nutshell_server::verify::{verify, verify_all};
use serde_json::{Value, json};

#[path = "support/app.rs"]
mod app;
use app::{App, Backend, lines, start, with_a_server_on_both_databases};

with_a_server_on_both_databases!(
    the_guessing_attack_recovers_no_secret_roll,
    every_answer_about_a_hidden_event_is_the_same,
    a_roll_cannot_pass_for_another_kind_of_event,
    a_players_rolls_are_numbered_by_the_player_alone,
    a_roll_meant_for_an_ended_epoch_is_refused,
    migration_0004_fills_each_rollers_counts,
);

/// The expressions the review guessed, each with the number of dice and
/// sides to enumerate.
const GUESSES: [(&str, usize, i64); 6] = [
    ("1d20", 1, 20),
    ("2d6", 2, 6),
    ("1d100", 1, 100),
    ("4d6kh3", 4, 6),
    ("1d20 + 5", 1, 20),
    ("3d6", 3, 6),
];

/// Every body the attacker can build for a secret roll of the GM with an
/// empty client seed: each likely expression with every face combination,
/// at each roll number up to `counts`, with `nonce` if the attacker had it.
fn candidates(epoch: i64, counts: i64, nonce: Option<&str>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (expression, dice, sides) in GUESSES {
        let parsed = Expression::parse(expression).unwrap();
        let total = (sides as usize).pow(dice as u32);
        for index in 0..total {
            let mut faces = Vec::with_capacity(dice);
            let mut rest = index;
            for _ in 0..dice {
                faces.push((rest % sides as usize) as i64 + 1);
                rest /= sides as usize;
            }
            let roll = parsed.roll(&mut Scripted::new(faces)).unwrap();
            let result = serde_json::to_value(roll.report()).unwrap();
            for count in 1..=counts {
                let mut body = json!({
                    "kind": "roll",
                    "action": {"kind": "roll", "expression": expression},
                    "roller": 0, "name": "GM", "role": "gm", "epoch": epoch,
                    "count": count, "client_seed": "", "secret": true, "result": result,
                });
                if let Some(nonce) = nonce {
                    body["nonce"] = json!(nonce);
                }
                found.push((fair::body_hash(&body), expression.to_string()));
            }
        }
    }
    found
}

/// Issue 24, item 1: the GM's six secret rolls without a client seed, as
/// the review made them; a player's export holds their body hashes. Every
/// likely expression with every face combination (at every roll number)
/// matches none of them. The same search given each body's nonce finds all
/// six: the search is right, and the nonce is what defeats it.
async fn the_guessing_attack_recovers_no_secret_roll(app: App) {
    let (room, gm, players) = app.room(&["Ada"]).await;
    let mut nonces = Vec::new();
    for (expression, _, _) in GUESSES {
        let answer = app
            .roll(
                &room,
                &gm,
                json!({"expression": expression, "secret": true}),
            )
            .await;
        assert_eq!(answer["count"].as_i64().unwrap(), nonces.len() as i64 + 1);
        nonces.push(answer["seq"].as_i64().unwrap());
    }
    let seen = lines(&app.log(&room, &players[0]).await);
    let hidden: HashSet<String> = seen
        .iter()
        .filter(|e| e["hidden"] == true)
        .map(|e| e["body_hash"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(hidden.len(), 6);
    let guesses = candidates(0, 8, None);
    assert!(guesses.len() > 10_000, "{} candidates", guesses.len());
    let recovered: Vec<&String> = guesses
        .iter()
        .filter(|(hash, _)| hidden.contains(hash))
        .map(|(_, expression)| expression)
        .collect();
    assert!(recovered.is_empty(), "recovered {recovered:?}");

    // The control: with each body's nonce (which only the GM's view shows
    // before a reveal), the same search recovers every roll.
    let gm_view = lines(&app.log(&room, &gm).await);
    for (seq, (expression, _, _)) in nonces.iter().zip(GUESSES) {
        let event = &gm_view[*seq as usize - 1];
        let nonce = event["body"]["nonce"].as_str().unwrap();
        assert_eq!(nonce.len(), 64, "256 bits of nonce");
        let hash = event["body_hash"].as_str().unwrap();
        let found: Vec<String> = candidates(0, 8, Some(nonce))
            .into_iter()
            .filter(|(h, _)| h == hash)
            .map(|(_, e)| e)
            .collect();
        assert_eq!(found, [expression.to_string()], "event {seq}");
    }
}

/// Issue 24, item 1: a player asking about a hidden event gets one answer,
/// whatever it hides (a secret roll, a secret sheet, a secret fight) and
/// whether there is an event at all: one status, one body (the number aside).
async fn every_answer_about_a_hidden_event_is_the_same(app: App) {
    let (room, gm, players) = app.room(&["Ada"]).await;
    let player = &players[0];
    let roll = app
        .roll(&room, &gm, json!({"expression": "1d20", "secret": true}))
        .await["seq"]
        .as_i64()
        .unwrap();
    let choices = include_str!("../../../examples/mls/characters/choices/grishnak.choices.toml");
    let (status, sheet) = app
        .post(
            &format!("/api/rooms/{room}/sheets"),
            Some(&gm),
            json!({"choices": choices, "secret": true}),
        )
        .await;
    assert_eq!(status, 201, "{sheet}");
    let sheet = sheet["seq"].as_i64().unwrap();
    let a = include_str!("../../../examples/mls/duel/knight.toml");
    let b = include_str!("../../../examples/mls/duel/brigand.toml");
    let (status, fight) = app
        .post(
            &format!("/api/rooms/{room}/fights"),
            Some(&gm),
            json!({"a": a, "b": b, "secret": true}),
        )
        .await;
    assert_eq!(status, 201, "{fight}");
    let fight = fight["seq"].as_i64().unwrap();
    let missing = fight + 1;
    assert!(missing < 10, "one digit each, so the bodies compare whole");
    for route in ["sheets/{}/advance", "fights/{}/step"] {
        let mut answers = HashSet::new();
        for seq in [roll, sheet, fight, missing] {
            let path = format!(
                "/api/rooms/{room}/{}",
                route.replace("{}", &seq.to_string())
            );
            let body = if route.starts_with("sheets") {
                json!({"adventure": "minor", "role": "minor"})
            } else {
                json!({})
            };
            let (status, text) = app.post_text(&path, Some(player), body).await;
            answers.insert((status, text.replace(&seq.to_string(), "N")));
        }
        assert_eq!(answers.len(), 1, "{route}: {answers:?}");
        let (status, _) = answers.into_iter().next().unwrap();
        assert_eq!(status, 404, "{route}");
    }
    // The GM, who sees them, is answered by what they are.
    let (status, _) = app
        .post_text(
            &format!("/api/rooms/{room}/fights/{roll}/step"),
            Some(&gm),
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    let (status, text) = app
        .post_text(
            &format!("/api/rooms/{room}/fights/{fight}/step"),
            Some(&gm),
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{text}");
}

/// Issue 24, item 2: `/rolls` makes only rolls. The review's poisoning
/// texts (an advance, a check, a fight, a sheet by their old prefixes) are
/// refused as dice expressions; nothing is written, and the log verifies.
async fn a_roll_cannot_pass_for_another_kind_of_event(app: App) {
    let (room, gm, players) = app.room(&["Ada"]).await;
    let player = &players[0];
    for text in [
        r#"advance {"sheet":4,"from":4,"was":"","options":{}}"#,
        r#"check {"ruleset":"fantasy","mod":5}"#,
        r#"contest {"ruleset":"mls","a":10,"b":12}"#,
        r#"fight {"a":"","b":""}"#,
        r#"character {"choices":""}"#,
    ] {
        let (status, answer) = app
            .post(
                &format!("/api/rooms/{room}/rolls"),
                Some(player),
                json!({"expression": text}),
            )
            .await;
        assert_eq!(status, 400, "{text}: {answer}");
        assert_eq!(answer["error"]["code"], "bad_expression", "{answer}");
    }
    // Nor can a request name a kind: the body has no such field.
    let (status, _) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(player),
            json!({"expression": "1d6", "action": {"kind": "advance"}}),
        )
        .await;
    assert_eq!(status, 400);
    let roll = app.roll(&room, player, json!({"expression": "1d6"})).await;
    let log = app.log(&room, &gm).await;
    let events = lines(&log);
    assert_eq!(events.len(), 3, "room, join, one roll: {log}");
    assert_eq!(
        events[2]["body"]["action"],
        json!({"kind": "roll", "expression": "1d6"})
    );
    assert_eq!(roll["count"], 1);
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&app.log(&room, &gm).await).unwrap();
    assert!(report.complete(), "{report:?}");
    assert_eq!(report.rolls_verified, 1);
}

/// Issue 24, item 3: each member's rolls are numbered 1, 2, 3, ... in the
/// room whatever others do; the answer and the log carry the number, and
/// `verify` recomputes every roll from it.
async fn a_players_rolls_are_numbered_by_the_player_alone(app: App) {
    let (room, gm, players) = app.room(&["Ada", "Bo"]).await;
    let mut expected = [0i64; 3];
    for (i, who) in [1usize, 0, 2, 1, 1, 0, 2, 1].into_iter().enumerate() {
        let key = if who == 0 { &gm } else { &players[who - 1] };
        let answer = app
            .roll(
                &room,
                key,
                json!({"expression": "1d6", "client_seed": format!("s{i}")}),
            )
            .await;
        expected[who] += 1;
        assert_eq!(answer["count"], expected[who], "roll {i}");
    }
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let report = verify(&app.log(&room, &players[0]).await).unwrap();
    assert_eq!(report.rolls_verified, 8);
    assert!(report.complete());
    // The room's view gives its latest event, which the export ends at.
    let (_, view) = app.get(&format!("/api/rooms/{room}"), &players[1]).await;
    let head = format!(
        "{}:{}",
        view["last_seq"],
        view["last_hash"].as_str().unwrap()
    );
    assert_eq!(report.check_head(&head), Ok(()));
    assert_eq!(view["last_seq"], 12);
}

/// Issue 24, item 3, the grinding attack: an operator with the database
/// forks the room (a copy of its SQLite file) before a player's roll, and
/// in the copy inserts filler events (the GM's rolls, another player's)
/// before the player's request arrives, hoping for another result. The
/// player's faces are the same in every fork, and each fork's log verifies.
/// Under the earlier derivation (keyed by the sequence number) the same
/// fillers moved the result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_grinding_attack_changes_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("room.db");
    let (room, gm, players) = {
        let app = start(&format!("sqlite:{}", original.display()), None).await;
        let made = app.room(&["Ada", "Bo"]).await;
        drop(app);
        made
    };
    // Let the first server's connections go before copying the file.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mut results = Vec::new();
    let mut sequence_numbers = Vec::new();
    for fillers in 0..4 {
        let fork = dir.path().join(format!("fork{fillers}.db"));
        std::fs::copy(&original, &fork).unwrap();
        for suffix in ["-wal", "-shm"] {
            let side = dir.path().join(format!("room.db{suffix}"));
            if side.exists() {
                std::fs::copy(&side, dir.path().join(format!("fork{fillers}.db{suffix}"))).unwrap();
            }
        }
        let app = start(&format!("sqlite:{}", fork.display()), None).await;
        for n in 0..fillers {
            let key = if n % 2 == 0 { &gm } else { &players[1] };
            app.roll(
                &room,
                key,
                json!({"expression": "1d20", "client_seed": "filler"}),
            )
            .await;
        }
        let answer = app
            .roll(
                &room,
                &players[0],
                json!({"expression": "4d20", "client_seed": "ada's own"}),
            )
            .await;
        let faces: Vec<i64> = answer["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["value"].as_i64().unwrap())
            .collect();
        results.push(faces);
        sequence_numbers.push(answer["seq"].as_i64().unwrap());
        app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
            .await;
        let log = app.log(&room, &gm).await;
        let report = verify(&log).unwrap();
        assert!(report.complete(), "{report:?}");
        assert_eq!(report.rolls_verified, fillers + 1);
    }
    assert_eq!(sequence_numbers, [4, 5, 6, 7]);
    assert!(results.windows(2).all(|w| w[0] == w[1]), "{results:?}");

    // The control: the earlier derivation at those sequence numbers.
    let seed = [5u8; 32];
    let legacy: HashSet<Vec<i64>> = sequence_numbers
        .iter()
        .map(|&seq| {
            let record = RollRecord {
                room: &room,
                epoch: 0,
                seq,
                roller: 1,
                client_seed: "ada's own",
                expression: "4d20",
            };
            faces(fair::roll_key(&seed, &record), "4d20")
        })
        .collect();
    assert!(
        legacy.len() > 1,
        "the old key moved with the sequence number"
    );
    let action = r#"{"expression":"4d20","kind":"roll"}"#;
    let input = DiceInput::new(&room, 0, 1, 1, "ada's own", action);
    assert_eq!(
        faces(fair::dice_key(&seed, &input), "4d20").len(),
        4,
        "the new key has no sequence number to move"
    );
}

fn faces(key: [u8; 32], expression: &str) -> Vec<i64> {
    let mut dice = nutshell_dice::Seeded::from_key(key);
    let parsed = Expression::parse(expression).unwrap();
    let roll = parsed.roll(&mut dice).unwrap();
    roll.report().dice.iter().map(|d| d.value).collect()
}

/// A log whose poisoned or malformed line is reported goes on being
/// checked: the server's export with one line forged (its hashes left as
/// they were) names that line only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_names_a_bad_line_and_checks_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(
        &format!("sqlite:{}", dir.path().join("t.db").display()),
        None,
    )
    .await;
    let (room, gm, players) = app.room(&["Ada"]).await;
    for i in 0..4 {
        app.roll(
            &room,
            &players[0],
            json!({"expression": "2d6", "client_seed": format!("{i}")}),
        )
        .await;
    }
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let log = app.log(&room, &gm).await;
    let forged: String = log
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let line = if i == 3 {
                line.replace(
                    "{\"expression\":\"2d6\",\"kind\":\"roll\"}",
                    "{\"expression\":\"2d6\",\"kind\":\"advance\"}",
                )
            } else {
                line.to_string()
            };
            format!("{line}\n")
        })
        .collect();
    assert_ne!(forged, log, "the forgery changed the line");
    let report = verify_all(&forged, &Limits::default());
    let lines: Vec<usize> = report.failures.iter().map(|f| f.line).collect();
    assert_eq!(lines, [4], "{:?}", report.failures);
    assert_eq!(report.rolls_verified, 3);
}

/// Issue 24, item 2: a room's log made by the server before typed actions
/// (`tests/data/legacy-room.jsonl`: a roll, a secret roll, a check, a sheet
/// and its advance, a fight and a step, then the review's poisoning: a
/// player's `/rolls` text naming an advance, which that server accepted,
/// and more rolls over two revealed epochs). The new verifier reports the
/// poisoned line alone and recomputes every other roll with the earlier
/// derivation.
#[test]
fn an_old_log_with_a_poisoned_event_verifies_everything_else() {
    let log = include_str!("data/legacy-room.jsonl");
    let report = verify_all(log, &Limits::default());
    let failures: Vec<(usize, &str)> = report
        .failures
        .iter()
        .map(|f| (f.line, f.message.as_str()))
        .collect();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0].0, 10);
    assert!(failures[0].1.contains("names an advance"), "{failures:?}");
    assert_eq!(report.events, 14);
    assert_eq!((report.rolls_verified, report.rolls_legacy), (8, 8));
    assert_eq!((report.rolls_pending, report.rolls_hidden), (0, 0));
    assert_eq!(report.epochs_revealed, 2);
    // The same log with a later roll's total changed (hashes left): that
    // line is named too; the poisoned one still is.
    let events = lines(log);
    let total = events[10]["body"]["result"]["total"].as_i64().unwrap();
    let forged: String = log
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = if i == 10 {
                l.replace(
                    &format!("\"total\":{total}"),
                    &format!("\"total\":{}", total + 1),
                )
            } else {
                l.to_string()
            };
            format!("{l}\n")
        })
        .collect();
    let report = verify_all(&forged, &Limits::default());
    let lines: Vec<usize> = report.failures.iter().map(|f| f.line).collect();
    assert_eq!(lines, [10, 11], "{:?}", report.failures);
}

/// docs/server.md, "What a player can be sure of": a roll that names the
/// commitment of the epoch it means is refused (409, nothing written) when
/// the GM revealed meanwhile, rather than rolled with the next epoch's seed;
/// so are a check and a fight's step.
async fn a_roll_meant_for_an_ended_epoch_is_refused(app: App) {
    let (room, gm, players) = app.room(&["Ada"]).await;
    let player = &players[0];
    let (_, view) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(player),
            json!({"expression": "1d6"}),
        )
        .await;
    let first = view["commitment"].as_str().unwrap().to_string();
    let answer = app
        .roll(
            &room,
            player,
            json!({"expression": "1d6", "commitment": first}),
        )
        .await;
    assert_eq!(answer["epoch"], 0);
    app.post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    let before = lines(&app.log(&room, &gm).await).len();
    for (path, body) in [
        ("rolls", json!({"expression": "1d6", "commitment": first})),
        (
            "checks",
            json!({"ruleset": "fantasy", "mod": 1, "dc": "hard", "commitment": first}),
        ),
    ] {
        let (status, answer) = app
            .post(&format!("/api/rooms/{room}/{path}"), Some(player), body)
            .await;
        assert_eq!(status, 409, "{path}: {answer}");
        assert_eq!(answer["error"]["code"], "epoch_changed", "{answer}");
    }
    assert_eq!(
        lines(&app.log(&room, &gm).await).len(),
        before,
        "nothing written"
    );
    // With the new epoch's commitment, or none, it rolls.
    let (_, now) = app
        .post(
            &format!("/api/rooms/{room}/rolls"),
            Some(player),
            json!({"expression": "1d6"}),
        )
        .await;
    assert_eq!(now["epoch"], 1);
    let next = now["commitment"].as_str().unwrap();
    assert_ne!(next, first);
    let answer = app
        .roll(
            &room,
            player,
            json!({"expression": "1d6", "commitment": next}),
        )
        .await;
    assert_eq!(answer["epoch"], 1);
}

/// Migration 0004 fills `roll_count` for events written under 0003 (their
/// roller known, not their count): each event gets its roller's number of
/// dice-drawing events up to it, as its body says. Run on the rows of a real
/// room whose counts were cleared.
async fn migration_0004_fills_each_rollers_counts(app: App) {
    let (room, gm, players) = app.room(&["Ada", "Bo"]).await;
    for who in [1usize, 0, 2, 1, 1, 0] {
        let key = if who == 0 { &gm } else { &players[who - 1] };
        app.roll(&room, key, json!({"expression": "1d6"})).await;
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database).await.unwrap();
    sqlx::query("UPDATE events SET roll_count = NULL")
        .execute(&pool)
        .await
        .unwrap();
    let migration = include_str!("../migrations/0004_event_roll_counts.sql");
    let update = &migration[migration.find("UPDATE events").unwrap()..];
    sqlx::query(sqlx::AssertSqlSafe(update.to_string()))
        .execute(&pool)
        .await
        .unwrap();
    use sqlx::Row;
    let rows = sqlx::query(
        "SELECT body, roll_count FROM events WHERE room = $1 AND roller IS NOT NULL ORDER BY seq",
    )
    .bind(&room)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), 6);
    for row in rows {
        let body: Value = serde_json::from_str(&row.get::<String, _>("body")).unwrap();
        assert_eq!(
            Some(row.get::<i64, _>("roll_count")),
            body["count"].as_i64()
        );
    }
    // The next roll goes on from there.
    let answer = app
        .roll(&room, &players[0], json!({"expression": "1d6"}))
        .await;
    assert_eq!(answer["count"], 4);
    pool.close().await;
}
