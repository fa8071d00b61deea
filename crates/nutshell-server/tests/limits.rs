//! Issue 24, the resource half: what one client may ask of the server.
//! Each limit is set low and crossed, and the refusal is checked: its
//! status and code, that the limit is named, and that nothing was written.

#[path = "support/limited.rs"]
mod limited;

use std::time::Duration;

use limited::{sqlite, test_limits};
use nutshell_server::rate::{Rate, RateConfig, RateLimit};
use serde_json::{Value, json};

/// The server's own engine limits are lower than the command line's: the
/// review's `10000d6` roll and `2000d25` odds are refused at once, and
/// nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reviews_big_roll_and_big_odds_are_refused() {
    let app = sqlite(test_limits(), RateLimit::off()).await;
    let (room, gm, _) = app.room().await;
    let (status, error) = app.roll(&room, &gm, "10000d6").await;
    assert_eq!(status, 400, "{error}");
    assert_message(&error, "limit is 1000");
    let asked = std::time::Instant::now();
    let (status, error) = app
        .post(
            &format!("/api/rooms/{room}/odds"),
            Some(&gm),
            json!({"expression": "2000d25"}),
        )
        .await;
    assert_eq!(status, 400, "{error}");
    assert_message(&error, "limit is 1000");
    assert!(asked.elapsed() < Duration::from_secs(10));
    // 300d20 is within the dice limit: its odds span 5,701 outcomes, each
    // a fraction of hundreds of digits: over the answer's 2 MiB.
    let (status, error) = app
        .post(
            &format!("/api/rooms/{room}/odds"),
            Some(&gm),
            json!({"expression": "300d20"}),
        )
        .await;
    assert_eq!(status, 422, "{error}");
    assert_eq!(error["error"]["code"], "answer_too_large", "{error}");
    let (status, odds) = app
        .post(
            &format!("/api/rooms/{room}/odds"),
            Some(&gm),
            json!({"expression": "3d6"}),
        )
        .await;
    assert_eq!(status, 200, "{odds}");
    assert_eq!(odds["distribution"][0]["probability"], "1/216");
    assert_eq!(
        app.log_lines(&room, &gm).await.len(),
        1,
        "only the room's event"
    );
}

/// An event over `max_event_bytes` is refused with 413 and not written;
/// a room over its events, bytes or members quota is refused with 403
/// `room_full`; the log stays as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_and_rooms_are_held_to_their_quotas() {
    let mut limits = test_limits();
    limits.store.max_event_bytes = 20_000;
    limits.store.max_room_events = 6;
    limits.store.max_members = 3;
    let app = sqlite(limits.clone(), RateLimit::off()).await;
    let (room, gm, invite) = app.room().await;
    let rolls = format!("/api/rooms/{room}/rolls");
    // 200d6 writes a transcript of about 28 KB.
    let (status, error) = app
        .post(&rolls, Some(&gm), json!({"expression": "200d6"}))
        .await;
    assert_eq!(status, 413, "{error}");
    assert_eq!(error["error"]["code"], "event_too_large");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("20000"),
        "{error}"
    );
    // Members: the GM and two players.
    assert_eq!(app.join(&room, &invite, "Ada").await.0, 201);
    assert_eq!(app.join(&room, &invite, "Bo").await.0, 201);
    let (status, error) = app.join(&room, &invite, "Cy").await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (403, Some("room_full")),
        "{error}"
    );
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("3 members"),
        "{error}"
    );
    // Events: room, two joins, then three rolls fill six.
    for _ in 0..3 {
        let (status, roll) = app
            .post(&rolls, Some(&gm), json!({"expression": "1d6"}))
            .await;
        assert_eq!(status, 201, "{roll}");
    }
    let (status, error) = app
        .post(&rolls, Some(&gm), json!({"expression": "1d6"}))
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (403, Some("room_full")),
        "{error}"
    );
    let (status, error) = app
        .post(&format!("/api/rooms/{room}/reveal"), Some(&gm), json!({}))
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (403, Some("room_full")),
        "{error}"
    );
    let log = app.log_lines(&room, &gm).await;
    assert_eq!(log.len(), 6);
    assert_eq!(
        nutshell_server::verify::verify(&log.iter().map(|l| format!("{l}\n")).collect::<String>())
            .unwrap()
            .events,
        6
    );

    // Bytes: a room of at most 6,000 bytes of bodies takes a few rolls of
    // 10d6 (about 1.7 KB each) and refuses the one that would pass it.
    limits.store.max_room_events = 1000;
    limits.store.max_room_bytes = 6_000;
    let app = sqlite(limits, RateLimit::off()).await;
    let (room, gm, _) = app.room().await;
    let rolls = format!("/api/rooms/{room}/rolls");
    let mut written = 0;
    let refusal = loop {
        let (status, answer) = app
            .post(&rolls, Some(&gm), json!({"expression": "10d6"}))
            .await;
        if status != 201 {
            break (status, answer);
        }
        written += 1;
        assert!(written < 10, "the byte quota never applied");
    };
    assert_eq!(refusal.0, 403, "{}", refusal.1);
    assert_eq!(refusal.1["error"]["code"], "room_full");
    assert!(written >= 2, "{written}");
    let bodies: usize = app
        .log_lines(&room, &gm)
        .await
        .iter()
        .map(|l| nutshell_server::fair::canonical(&l["body"]).len())
        .sum();
    assert!(bodies <= 6_000, "{bodies} bytes held");
    assert_eq!(app.log_lines(&room, &gm).await.len(), written + 1);
}

/// Long work waits its turn on the pool: a room with its share of the pool
/// is told 429 `busy`, another room still gets in, and the refusal says
/// when to come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_gets_its_share_of_the_pool_and_no_more() {
    let mut limits = test_limits();
    limits.pool.workers = 1;
    limits.pool.per_room = 1;
    limits.pool.queue = 4;
    let app = std::sync::Arc::new(sqlite(limits, RateLimit::off()).await);
    let (busy_room, busy_gm, _) = app.room().await;
    let (other_room, other_gm, _) = app.room().await;
    let scenarios: Value =
        serde_json::from_str(&app.get("/web/scenarios.json", None).await.1).unwrap();
    // The longest of the page's scenarios (a map skirmish of ten): its
    // 10,000 fights keep the one worker busy for seconds even in a release
    // build, long after the second request (a duel's were over before it).
    let first_scenario = scenarios
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str().unwrap_or("").contains("crossroads"))
        .expect("the crossroads scenario");
    let fight = json!({
        "a": first_scenario["a"],
        "b": first_scenario["b"],
        "distance": first_scenario["distance"],
        "map": first_scenario["map"],
    });
    let mut long = fight.clone();
    long["trials"] = json!(10_000);
    let first = {
        let app = app.clone();
        let path = format!("/api/rooms/{busy_room}/simulate");
        let key = busy_gm.clone();
        let long = long.clone();
        tokio::spawn(async move { app.post(&path, Some(&key), long).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let response = app
        .client
        .post(format!("{}/api/rooms/{busy_room}/simulate", app.base))
        .bearer_auth(&busy_gm)
        .json(&long)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert_eq!(response.headers()["retry-after"], "1");
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], "busy", "{error}");
    let mut short = fight;
    short["trials"] = json!(10);
    let (status, answer) = app
        .post(
            &format!("/api/rooms/{other_room}/simulate"),
            Some(&other_gm),
            short,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["trials"], 10);
    let (status, answer) = first.await.unwrap();
    assert_eq!(status, 200, "{answer}");
}

/// Issue 24's look-alike names (`GM\u200b`, Cyrillic `GМ`, fullwidth `ＧＭ`,
/// `\u202eMG`, `Ａnn`): the invisible and bidirectional ones are refused
/// as bad names, the others as a member's name; nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_cannot_join() {
    let app = sqlite(test_limits(), RateLimit::off()).await;
    let (room, gm, invite) = app.room().await;
    assert_eq!(app.join(&room, &invite, "Ann").await.0, 201);
    for hidden in ["GM\u{200b}", "\u{202e}MG", "A\u{2066}nn", "Ann\u{feff}"] {
        let (status, error) = app.join(&room, &invite, hidden).await;
        assert_eq!(
            (status, error["error"]["code"].as_str()),
            (400, Some("bad_name")),
            "{hidden:?}: {error}"
        );
    }
    for alike in [
        "G\u{41c}",
        "\u{ff27}\u{ff2d}",
        "gm",
        "\u{ff21}nn",
        "\u{410}nn",
        " ann ",
    ] {
        let (status, error) = app.join(&room, &invite, alike).await;
        assert_eq!(
            (status, error["error"]["code"].as_str()),
            (409, Some("name_taken")),
            "{alike:?}: {error}"
        );
    }
    assert_eq!(app.join(&room, &invite, "Anna").await.0, 201);
    let (status, error) = app
        .post("/api/rooms", None, json!({"name": "Crypt\u{202e}"}))
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (400, Some("bad_name")),
        "{error}"
    );
    assert_eq!(app.log_lines(&room, &gm).await.len(), 3);
}

/// A rate of `per_second` refilled, `burst` at once.
fn per_second(per_second: f64, burst: u32) -> Rate {
    Rate { per_second, burst }
}

fn rates(config: impl FnOnce(&mut RateConfig)) -> RateLimit {
    let mut rates = RateConfig::default();
    config(&mut rates);
    RateLimit::with(&rates)
}

/// Made-up keys are limited by the address they come from (429 after the
/// burst, before any database look-up), and never lock out a member whose
/// key the server knows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_keys_are_limited_by_address() {
    let rate = rates(|r| {
        r.lookups_per_address = per_second(0.01, 5);
        r.per_key = per_second(100.0, 100);
    });
    let app = sqlite(test_limits(), rate).await;
    let (room, gm, _) = app.room().await;
    // The GM's first request looks the key up (one of five).
    let (status, _) = app.get(&format!("/api/rooms/{room}"), Some(&gm)).await;
    assert_eq!(status, 200);
    let mut statuses = Vec::new();
    for i in 0..8 {
        let (status, _) = app
            .get(&format!("/api/rooms/{room}"), Some(&format!("made-up-{i}")))
            .await;
        statuses.push(status);
    }
    assert_eq!(statuses, [401, 401, 401, 401, 429, 429, 429, 429]);
    let (status, _) = app.get(&format!("/api/rooms/{room}"), Some(&gm)).await;
    assert_eq!(status, 200, "a known key is not charged to its address");
}

/// Rooms are limited per address, joins per address and per room; a
/// wrong invite costs the room nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_and_joins_are_limited_per_address_and_per_room() {
    let rate = rates(|r| {
        r.rooms_per_address = per_second(0.001, 2);
        r.joins_per_room = per_second(0.001, 2);
        r.joins_per_address = per_second(0.001, 5);
    });
    let app = sqlite(test_limits(), rate).await;
    let (room, _, invite) = app.room().await;
    let (other, _, other_invite) = app.room().await;
    let (status, error) = app.post("/api/rooms", None, json!({})).await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{error}"
    );
    assert_eq!(app.join(&room, "wrong", "Eve").await.0, 403);
    assert_eq!(app.join(&room, &invite, "Ada").await.0, 201);
    assert_eq!(app.join(&room, &invite, "Bo").await.0, 201);
    let (status, error) = app.join(&room, &invite, "Cy").await;
    assert_eq!(status, 429, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this room"),
        "{error}"
    );
    assert_eq!(app.join(&other, &other_invite, "Cy").await.0, 201);
    // Five joins from this address so far (one refused by the room's
    // limit, one with a wrong invite): the address's burst is spent.
    let (status, error) = app.join(&other, &other_invite, "Di").await;
    assert_eq!(status, 429, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("address"),
        "{error}"
    );
}

/// Asserts that an error answer's message says `text`.
fn assert_message(error: &Value, text: &str) {
    assert!(
        error["error"]["message"].as_str().unwrap().contains(text),
        "{error}"
    );
}
