//! A server in this process on a free loopback port, on a fresh database of
//! either backend (SQLite in a temporary folder, PostgreSQL on the server
//! at 127.0.0.1:5432 or `NUTSHELL_TEST_POSTGRES`), a client for it, and a
//! room with its members: the set-up every end-to-end test starts from.

#![allow(dead_code)]

use nutshell_dice::Limits;
use nutshell_server::rate::RateLimit;
use nutshell_server::{Store, router};
use serde_json::{Value, json};

#[path = "postgres.rs"]
pub mod pg;

/// Which database a test runs on.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs each named `async fn NAME(backend: Backend)` of the calling file as
/// two tests, `sqlite::NAME` and `postgres::NAME`.
#[allow(unused_macros)]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Backend::Postgres).await })*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_databases;

/// Runs each named `async fn NAME(app: App)` of the calling file as two
/// tests, `sqlite::NAME` and `postgres::NAME`, each given a server of its
/// own on a fresh database of that backend (a PostgreSQL test skipped as
/// [`spawn_app`] says).
#[allow(unused_macros)]
macro_rules! with_a_server_on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let app = super::app::spawn_app(super::Backend::Sqlite, stringify!($name)).await;
                super::$name(app.expect("SQLite is always there")).await
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                if let Some(app) = super::app::spawn_app(super::Backend::Postgres, stringify!($name)).await {
                    super::$name(app).await
                }
            })*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use with_a_server_on_both_databases;

/// A server on a free local port (stopped on drop) and a client for it.
pub struct App {
    pub base: String,
    pub client: reqwest::Client,
    /// The database's URL (empty for a server run by someone else).
    pub database: String,
    /// The SQLite file's folder, kept as long as the server.
    pub _dir: Option<tempfile::TempDir>,
    /// The server's task (none for a server run by someone else).
    pub server: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for App {
    fn drop(&mut self) {
        if let Some(server) = &self.server {
            server.abort();
        }
    }
}

/// A server in this process on `database` (default limits, no rate limits).
pub async fn start(database: &str, dir: Option<tempfile::TempDir>) -> App {
    let store = Store::connect(database).await.expect("connect");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let state = nutshell_server::state(store, Limits::default(), RateLimit::new(0.0, 1));
    let server = tokio::spawn(async move {
        axum::serve(listener, router(state)).await.unwrap();
    });
    App {
        base: format!("http://{address}"),
        client: reqwest::Client::new(),
        database: database.to_string(),
        _dir: dir,
        server: Some(server),
    }
}

/// A server at `base` run by someone else (a `nutshell serve` process).
pub fn at(base: String) -> App {
    App {
        base,
        client: reqwest::Client::new(),
        database: String::new(),
        _dir: None,
        server: None,
    }
}

/// A fresh SQLite file in a temporary folder: its URL and the folder.
pub fn fresh_sqlite() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    (url, dir)
}

/// A server with a fresh database of the backend, or `None` when the test
/// is skipped (PostgreSQL unreachable and not required).
pub async fn spawn_app(backend: Backend, test: &str) -> Option<App> {
    match backend {
        Backend::Sqlite => {
            let (url, dir) = fresh_sqlite();
            Some(start(&url, Some(dir)).await)
        }
        Backend::Postgres => Some(start(&pg::fresh_postgres(test).await?, None).await),
    }
}

/// A member's key as a request sends it (`Authorization: Bearer`): `&str`,
/// `&String`, or `Some(&key)` and `None` (no key).
pub trait Key {
    fn key(&self) -> Option<&str>;
}

impl Key for &str {
    fn key(&self) -> Option<&str> {
        Some(self)
    }
}

impl Key for &String {
    fn key(&self) -> Option<&str> {
        Some(self.as_str())
    }
}

impl Key for Option<&String> {
    fn key(&self) -> Option<&str> {
        self.map(String::as_str)
    }
}

impl App {
    /// Stops the server (as a process that ends would), keeping its
    /// database.
    pub fn stop(&self) {
        if let Some(server) = &self.server {
            server.abort();
        }
    }

    /// `POST path` with `body` as `key`: the status and the JSON answer
    /// (null when the answer is not JSON).
    pub async fn post(&self, path: &str, key: impl Key, body: Value) -> (u16, Value) {
        let (status, text) = self.post_text(path, key, body).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `POST path` with `body` as `key`: the status and the answer's text.
    pub async fn post_text(&self, path: &str, key: impl Key, body: Value) -> (u16, String) {
        let mut request = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(key) = key.key() {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// `GET path` as `key`: the status and the JSON answer (null when it is
    /// not JSON).
    pub async fn get(&self, path: &str, key: impl Key) -> (u16, Value) {
        let (status, text) = self.get_text(path, key).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `GET path` as `key`: the status and the answer's text.
    pub async fn get_text(&self, path: &str, key: impl Key) -> (u16, String) {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(key) = key.key() {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// The room's exported log as `key` sees it (which must be given).
    pub async fn log(&self, room: &str, key: &str) -> String {
        let (status, text) = self.get_text(&format!("/api/rooms/{room}/log"), key).await;
        assert_eq!(status, 200, "{text}");
        text
    }

    /// Creates a room named `name`: (room, GM key, invite).
    pub async fn create_room(&self, name: &str) -> (String, String, String) {
        let (status, room) = self.post("/api/rooms", None, json!({"name": name})).await;
        assert_eq!(status, 201, "{room}");
        (
            room["room"].as_str().unwrap().to_string(),
            room["gm_key"].as_str().unwrap().to_string(),
            room["invite"].as_str().unwrap().to_string(),
        )
    }

    /// Joins `room` with `invite` as `name`: the answer (`player_key`,
    /// `member`).
    pub async fn join(&self, room: &str, invite: &str, name: &str) -> Value {
        let (status, joined) = self
            .post(
                &format!("/api/rooms/{room}/join"),
                None,
                json!({"invite": invite, "name": name}),
            )
            .await;
        assert_eq!(status, 201, "{joined}");
        joined
    }

    /// A room "Crypt" with a GM and players: (room, GM key, player keys).
    pub async fn room(&self, players: &[&str]) -> (String, String, Vec<String>) {
        let (id, gm, invite) = self.create_room("Crypt").await;
        let mut keys = Vec::new();
        for name in players {
            let joined = self.join(&id, &invite, name).await;
            keys.push(joined["player_key"].as_str().unwrap().to_string());
        }
        (id, gm, keys)
    }

    /// A room with a GM and one player, Ada: (room, GM key, player key).
    pub async fn room_with_player(&self) -> (String, String, String) {
        let (id, gm, mut players) = self.room(&["Ada"]).await;
        (id, gm, players.remove(0))
    }

    /// A roll in `room` as `key` (`body` as `POST .../rolls` takes it),
    /// which must be committed: the answer.
    pub async fn roll(&self, room: &str, key: &str, body: Value) -> Value {
        let (status, answer) = self
            .post(&format!("/api/rooms/{room}/rolls"), key, body)
            .await;
        assert_eq!(status, 201, "{answer}");
        answer
    }
}

/// An exported log's lines, each as JSON.
pub fn lines(log: &str) -> Vec<Value> {
    log.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Takes the complete server-sent events out of the front of `buffer` (what
/// a stream has sent so far): each event's (id, data), in order; a partial
/// event stays in the buffer for the next chunk.
pub fn take_events(buffer: &mut String) -> Vec<(i64, Value)> {
    let mut events = Vec::new();
    while let Some(end) = buffer.find("\n\n") {
        let block: String = buffer.drain(..end + 2).collect();
        let mut id = None;
        let mut data = None;
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("id:") {
                id = Some(v.trim().parse::<i64>().unwrap());
            }
            if let Some(v) = line.strip_prefix("data:") {
                data = Some(serde_json::from_str::<Value>(v.trim()).unwrap());
            }
        }
        if let (Some(id), Some(data)) = (id, data) {
            events.push((id, data));
        }
    }
    events
}
