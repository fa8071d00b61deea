//! A server as `nutshell serve` runs it (its own accept loop with the
//! connection limits and timeouts, client addresses known), on a free
//! loopback port, with the limits a test gives.

#![allow(dead_code)]

use std::time::Duration;

use nutshell_server::rate::RateLimit;
use nutshell_server::{ServerLimits, Store};
use serde_json::{Value, json};

/// A running server and a client for it.
pub struct Limited {
    pub base: String,
    pub address: std::net::SocketAddr,
    pub client: reqwest::Client,
    pub store: Store,
    _dir: Option<tempfile::TempDir>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for Limited {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Limits for tests: the server's defaults, rate limits off unless the
/// test sets them.
pub fn test_limits() -> ServerLimits {
    let mut limits = ServerLimits::default();
    limits.rates.per_key.per_second = 0.0;
    limits
}

/// A server on a fresh SQLite file with `limits` and `rate`.
pub async fn sqlite(limits: ServerLimits, rate: RateLimit) -> Limited {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    start(&url, limits, rate, Some(dir)).await
}

/// A server on the database at `url`.
pub async fn start(
    url: &str,
    limits: ServerLimits,
    rate: RateLimit,
    dir: Option<tempfile::TempDir>,
) -> Limited {
    let store = Store::connect_with(url, limits.store.clone())
        .await
        .expect("connect");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = nutshell_server::router(nutshell_server::state_with(store.clone(), &limits, rate));
    let connections = limits.connections.clone();
    let server = tokio::spawn(async move {
        nutshell_server::serve::serve(listener, app, connections, std::future::pending())
            .await
            .unwrap();
    });
    Limited {
        base: format!("http://{address}"),
        address,
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap(),
        store,
        _dir: dir,
        server,
    }
}

impl Limited {
    pub async fn post(&self, path: &str, key: Option<&str>, body: Value) -> (u16, Value) {
        let mut request = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, key: Option<&str>) -> (u16, String) {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// A room: (id, GM key, invite).
    pub async fn room(&self) -> (String, String, String) {
        let (status, room) = self
            .post("/api/rooms", None, json!({"name": "Crypt"}))
            .await;
        assert_eq!(status, 201, "{room}");
        (
            room["room"].as_str().unwrap().to_string(),
            room["gm_key"].as_str().unwrap().to_string(),
            room["invite"].as_str().unwrap().to_string(),
        )
    }

    /// Joins `room` as `name`: the status and the answer.
    pub async fn join(&self, room: &str, invite: &str, name: &str) -> (u16, Value) {
        self.post(
            &format!("/api/rooms/{room}/join"),
            None,
            json!({"invite": invite, "name": name}),
        )
        .await
    }

    /// Rolls `expression` in `room` with `key`: the status and the answer.
    pub async fn roll(&self, room: &str, key: &str, expression: &str) -> (u16, Value) {
        self.post(
            &format!("/api/rooms/{room}/rolls"),
            Some(key),
            json!({"expression": expression}),
        )
        .await
    }

    /// The room's log lines as the key sees them.
    pub async fn log_lines(&self, room: &str, key: &str) -> Vec<Value> {
        let (status, text) = self.get(&format!("/api/rooms/{room}/log"), Some(key)).await;
        assert_eq!(status, 200, "{text}");
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}
