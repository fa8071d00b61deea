//! A table for tests of played fights: a server (in this process, or a real
//! `nutshell serve`), a GM and players, each member's live event stream.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nutshell_dice::Limits;
use nutshell_server::rate::RateLimit;
use nutshell_server::{Store, router};
use serde_json::{Value, json};

/// A server on a free local port.
pub struct App {
    pub base: String,
    pub client: reqwest::Client,
    pub _dir: Option<tempfile::TempDir>,
    server: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for App {
    fn drop(&mut self) {
        if let Some(server) = &self.server {
            server.abort();
        }
    }
}

/// A server in this process on `database`.
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
        _dir: dir,
        server: Some(server),
    }
}

/// A server at `base` run by someone else (a `nutshell serve` process).
pub fn at(base: String) -> App {
    App {
        base,
        client: reqwest::Client::new(),
        _dir: None,
        server: None,
    }
}

/// A member: their key and id.
#[derive(Clone, Debug)]
pub struct Who {
    pub key: String,
    pub id: i64,
    pub name: String,
}

impl App {
    pub async fn post(&self, path: &str, key: &str, body: Value) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(key)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, key: &str) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn log(&self, room: &str, key: &str) -> String {
        let response = self
            .client
            .get(format!("{}/api/rooms/{room}/log", self.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        response.text().await.unwrap()
    }

    /// A room with its GM and players named `players`: (room, gm, players).
    pub async fn table(&self, players: &[&str]) -> (String, Who, Vec<Who>) {
        let response = self
            .client
            .post(format!("{}/api/rooms", self.base))
            .json(&json!({"name": "Crossroads"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 201);
        let room: Value = response.json().await.unwrap();
        let id = room["room"].as_str().unwrap().to_string();
        let gm = Who {
            key: room["gm_key"].as_str().unwrap().to_string(),
            id: 0,
            name: "GM".into(),
        };
        let invite = room["invite"].as_str().unwrap().to_string();
        let mut joined = Vec::new();
        for name in players {
            let response = self
                .client
                .post(format!("{}/api/rooms/{id}/join", self.base))
                .json(&json!({"invite": invite, "name": name}))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 201);
            let member: Value = response.json().await.unwrap();
            joined.push(Who {
                key: member["player_key"].as_str().unwrap().to_string(),
                id: member["member"].as_i64().unwrap(),
                name: name.to_string(),
            });
        }
        (id, gm, joined)
    }
}

/// An event as a member's stream delivered it, and when.
#[derive(Clone, Debug)]
pub struct Seen {
    pub seq: i64,
    pub data: Value,
    pub at: Instant,
}

/// A member's live event stream, read in the background.
pub struct Stream {
    pub seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Stream {
    /// Reads `room`'s events for `key` from `after` on.
    pub async fn open(app: &App, room: &str, key: &str, after: i64) -> Stream {
        let mut response = app
            .client
            .get(format!(
                "{}/api/rooms/{room}/events?after={after}",
                app.base
            ))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let out = seen.clone();
        let task = tokio::spawn(async move {
            let mut buffer = String::new();
            while let Ok(Some(chunk)) = response.chunk().await {
                let at = Instant::now();
                buffer.push_str(std::str::from_utf8(&chunk).unwrap());
                while let Some(end) = buffer.find("\n\n") {
                    let block: String = buffer.drain(..end + 2).collect();
                    let mut id = None;
                    let mut data = None;
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("id:") {
                            id = v.trim().parse::<i64>().ok();
                        } else if let Some(v) = line.strip_prefix("data:") {
                            data = serde_json::from_str::<Value>(v.trim()).ok();
                        }
                    }
                    if let (Some(seq), Some(data)) = (id, data) {
                        out.lock().unwrap().push(Seen { seq, data, at });
                    }
                }
            }
        });
        Stream { seen, task }
    }

    /// Waits (10 s at most) until event `seq` has arrived: when it did.
    pub async fn wait_for(&self, seq: i64) -> Seen {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(s) = self.seen.lock().unwrap().iter().find(|s| s.seq == seq) {
                return s.clone();
            }
            assert!(Instant::now() < deadline, "event {seq} within 10 s");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    pub fn all(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// The value at fraction `p` of sorted `values`.
pub fn percentile(values: &mut [Duration], p: f64) -> Duration {
    values.sort();
    let i = ((values.len() as f64 - 1.0) * p).round() as usize;
    values[i.min(values.len() - 1)]
}
