//! A table for tests of played fights: a server (in this process, or a real
//! `nutshell serve`: [`app`]), a GM and players, each member's live event
//! stream.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "app.rs"]
pub mod app;
pub use app::{App, at, start};

/// A member: their key and id.
#[derive(Clone, Debug)]
pub struct Who {
    pub key: String,
    pub id: i64,
    pub name: String,
}

impl App {
    /// A room with its GM and players named `players`: (room, gm, players).
    pub async fn table(&self, players: &[&str]) -> (String, Who, Vec<Who>) {
        let (id, gm_key, invite) = self.create_room("Crossroads").await;
        let gm = Who {
            key: gm_key,
            id: 0,
            name: "GM".into(),
        };
        let mut joined = Vec::new();
        for name in players {
            let member = self.join(&id, &invite, name).await;
            joined.push(Who {
                key: member["player_key"].as_str().unwrap().to_string(),
                id: member["member"].as_i64().unwrap(),
                name: name.to_string(),
            });
        }
        (id, gm, joined)
    }

    /// Starts a fight in `room` as `who` (`POST .../fights` with `body`),
    /// which must be made: the answer.
    pub async fn start_fight(&self, room: &str, who: &Who, body: Value) -> Value {
        let (status, fight) = self
            .post(&format!("/api/rooms/{room}/fights"), &who.key, body)
            .await;
        assert_eq!(status, 201, "{fight}");
        fight
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
                let mut seen = out.lock().unwrap();
                for (seq, data) in app::take_events(&mut buffer) {
                    seen.push(Seen { seq, data, at });
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
