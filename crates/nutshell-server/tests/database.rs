//! Issue 24: database trouble is always a clean answer within the store's
//! timeout: 503 `database_unavailable` with `Retry-After` when the database
//! cannot serve (a partition that keeps connections open and silent, a
//! locked SQLite file), 500 `store` when it refuses (a renamed table), and
//! never the database's own words. Then the server recovers by itself.

#[path = "support/limited.rs"]
mod limited;
#[path = "support/postgres.rs"]
mod postgres;
#[path = "support/proxy.rs"]
mod proxy;

use std::time::{Duration, Instant};

use limited::{Limited, test_limits};
use nutshell_server::rate::RateLimit;
use serde_json::{Value, json};

fn one_second_store() -> nutshell_server::ServerLimits {
    let mut limits = test_limits();
    limits.store.timeout = Duration::from_secs(1);
    limits
}

/// Asks for a roll and checks the answer is a 503 with `Retry-After`
/// within `limit`, and says nothing of the database.
async fn unavailable_within(app: &Limited, room: &str, key: &str, limit: Duration) {
    let asked = Instant::now();
    let response = app
        .client
        .post(format!("{}/api/rooms/{room}/rolls", app.base))
        .bearer_auth(key)
        .json(&json!({"expression": "1d6"}))
        .send()
        .await
        .unwrap();
    let took = asked.elapsed();
    assert_eq!(response.status().as_u16(), 503);
    assert_eq!(response.headers()["retry-after"], "1");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "database_unavailable", "{body}");
    says_nothing_of_the_database(&body);
    assert!(took < limit, "answered after {took:?}");
}

fn says_nothing_of_the_database(body: &Value) {
    let message = body["error"]["message"].as_str().unwrap().to_lowercase();
    for word in [
        "sqlite",
        "postgres",
        "relation",
        "table",
        "events",
        "127.0.0.1",
        "pool",
        "sqlstate",
    ] {
        assert!(!message.contains(word), "{word:?} in {message:?}");
    }
}

/// A partition: the proxy to PostgreSQL keeps every connection open and
/// passes nothing. Every request gets its 503 within the one-second store
/// timeout (plus a margin for the machine); after the partition, rolls go
/// on where they stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partition_from_postgres_is_a_503_within_the_timeout() {
    let Some(url) = postgres::fresh_postgres("a_partition_from_postgres").await else {
        return;
    };
    let (scheme_user, rest) = url.split_once('@').unwrap();
    let (upstream, database) = rest.split_once('/').unwrap();
    let proxy = proxy::CuttableProxy::start(upstream.to_string()).await;
    let through = format!("{scheme_user}@{}/{database}", proxy.address);
    let app = limited::start(&through, one_second_store(), RateLimit::off(), None).await;
    let (room, gm, _) = app.room().await;
    let (status, _) = app.roll(&room, &gm, "1d6").await;
    assert_eq!(status, 201);
    proxy.stall();
    for _ in 0..3 {
        unavailable_within(&app, &room, &gm, Duration::from_secs(4)).await;
    }
    let asked = Instant::now();
    let (status, body) = app.get(&format!("/api/rooms/{room}/log"), Some(&gm)).await;
    assert_eq!(status, 503, "{body}");
    assert!(asked.elapsed() < Duration::from_secs(4));
    proxy.restore();
    let back = Instant::now();
    let roll = loop {
        let (status, roll) = app.roll(&room, &gm, "1d6").await;
        if status == 201 {
            break roll;
        }
        assert_eq!(status, 503, "{roll}");
        assert!(back.elapsed() < Duration::from_secs(20), "no recovery");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        roll["seq"], 3,
        "nothing was written during the partition: {roll}"
    );
}

/// The writer holds its connection from batch to batch (group_commit.rs):
/// a database that dropped every connection while the table was quiet (a
/// restart, an idle timeout) costs the next roll nothing: the held
/// connection, idle for over a second, is tested and replaced before its
/// batch, so that roll is written, not answered 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_dropped_while_idle_do_not_fail_the_next_roll() {
    let Some(url) = postgres::fresh_postgres("connections_dropped_while_idle").await else {
        return;
    };
    let app = limited::start(&url, one_second_store(), RateLimit::off(), None).await;
    let (room, gm, _) = app.room().await;
    let (status, _) = app.roll(&room, &gm, "1d6").await;
    assert_eq!(status, 201);
    let database = url.rsplit('/').next().unwrap().to_string();
    let admin = sqlx::PgPool::connect(&postgres::postgres_admin_url())
        .await
        .unwrap();
    let dropped: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    )
    .bind(&database)
    .fetch_all(&admin)
    .await
    .unwrap();
    assert!(
        !dropped.is_empty(),
        "the server's connections to {database}"
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (status, roll) = app.roll(&room, &gm, "1d6").await;
    assert_eq!((status, roll["seq"].as_i64()), (201, Some(3)), "{roll}");
}

/// A SQLite file locked by another writer: a roll waits the store timeout
/// for the lock, then is a 503; once the lock is gone it is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_sqlite_file_is_a_503_within_the_timeout() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let app = limited::start(&url, one_second_store(), RateLimit::off(), None).await;
    let (room, gm, _) = app.room().await;
    let mut locker = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut locker)
        .await
        .unwrap();
    for _ in 0..2 {
        unavailable_within(&app, &room, &gm, Duration::from_secs(4)).await;
    }
    sqlx::query("ROLLBACK").execute(&mut locker).await.unwrap();
    let (status, roll) = app.roll(&room, &gm, "1d6").await;
    assert_eq!((status, roll["seq"].as_i64()), (201, Some(2)), "{roll}");
    drop(dir);
}

/// A database that refuses a statement (its table renamed under the
/// server) is a 500 `store` that names nothing of the database, on both
/// databases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusing_database_is_a_500_without_its_words() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite:{}", dir.path().join("t.db").display());
    let mut urls = vec![sqlite];
    if let Some(url) = postgres::fresh_postgres("a_refusing_database").await {
        urls.push(url);
    }
    for url in urls {
        let app = limited::start(&url, one_second_store(), RateLimit::off(), None).await;
        let (room, gm, _) = app.room().await;
        let (status, _) = app.get(&format!("/api/rooms/{room}"), Some(&gm)).await;
        assert_eq!(status, 200);
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        sqlx::query("ALTER TABLE events RENAME TO events_gone")
            .execute(&pool)
            .await
            .unwrap();
        let (status, body) = app.roll(&room, &gm, "1d6").await;
        assert_eq!(status, 500, "{url}: {body}");
        assert_eq!(body["error"]["code"], "store");
        says_nothing_of_the_database(&body);
        let (status, body) = app.get(&format!("/api/rooms/{room}/log"), Some(&gm)).await;
        assert_eq!(status, 500, "{body}");
        assert!(!body.contains("events_gone"), "{body}");
    }
}
