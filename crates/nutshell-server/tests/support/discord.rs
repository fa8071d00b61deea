//! Discord for tests: a server answering interactions with a public key
//! made here, requests signed exactly as Discord signs them (Ed25519 over
//! the timestamp and the raw body), and a stand-in for Discord's API that
//! records every request it receives.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri};
use ed25519_dalek::{Signer, SigningKey};
use nutshell_dice::Limits;
use nutshell_server::discord::{Discord, DiscordConfig};
use nutshell_server::rate::RateLimit;
use nutshell_server::{Store, router};
use serde_json::{Value, json};

pub const APPLICATION: &str = "1100000000000000001";

/// One request Discord's stand-in received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    pub body: Value,
}

/// A stand-in for Discord's API on a local port.
pub struct StandIn {
    pub base: String,
    pub received: Arc<Mutex<Vec<Received>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn record(
    State(received): State<Arc<Mutex<Vec<Received>>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> axum::Json<Value> {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let answer = if method == Method::PUT {
        // Discord answers the commands as registered, each with an id.
        let mut commands = body.clone();
        for (index, command) in commands.as_array_mut().into_iter().flatten().enumerate() {
            command["id"] = json!(format!("9{index:03}"));
        }
        commands
    } else {
        json!({"id": "42", "content": body["content"]})
    };
    received.lock().unwrap().push(Received {
        method: method.to_string(),
        path: uri.path().to_string(),
        authorization: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        body,
    });
    axum::Json(answer)
}

impl StandIn {
    pub async fn start() -> StandIn {
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let app = axum::Router::new()
            .route(
                "/webhooks/{application}/{token}/messages/@original",
                axum::routing::patch(|state, method, uri, headers, body| async move {
                    record(state, method, uri, headers, body).await
                }),
            )
            .route(
                "/applications/{application}/commands",
                axum::routing::put(|state, method, uri, headers, body| async move {
                    record(state, method, uri, headers, body).await
                }),
            )
            .with_state(received.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        StandIn {
            base: format!("http://{address}"),
            received,
            server,
        }
    }

    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits (at most 20 s) until `count` requests have come.
    pub async fn wait_for(&self, count: usize) -> Vec<Received> {
        let start = Instant::now();
        loop {
            let now = self.received();
            if now.len() >= count || start.elapsed() > Duration::from_secs(20) {
                return now;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A server answering Discord, and the key that signs for Discord.
pub struct Bot {
    pub base: String,
    pub client: reqwest::Client,
    pub key: SigningKey,
    pub database: String,
    pub _dir: tempfile::TempDir,
    server: tokio::task::JoinHandle<()>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// A fresh Ed25519 key, as an application's.
pub fn new_key() -> SigningKey {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).unwrap();
    SigningKey::from_bytes(&seed)
}

/// A server on a fresh SQLite file answering Discord at `api` (answers
/// deferred after `answer_within`), with `rate` limits.
pub async fn start(api: &str, answer_within: Duration, rate: RateLimit) -> Bot {
    start_on(None, api, answer_within, rate).await
}

/// [`start`] on `database` (a fresh SQLite file when none).
pub async fn start_on(
    database: Option<String>,
    api: &str,
    answer_within: Duration,
    rate: RateLimit,
) -> Bot {
    let dir = tempfile::tempdir().unwrap();
    let database =
        database.unwrap_or_else(|| format!("sqlite:{}", dir.path().join("discord.db").display()));
    let store = Store::connect(&database).await.unwrap();
    let key = new_key();
    let mut config =
        DiscordConfig::new(&nutshell_server::fair::hex(key.verifying_key().as_bytes()));
    config.api_base = api.to_string();
    config.answer_within = answer_within;
    let mut state = nutshell_server::state(store, Limits::default(), rate);
    state.discord = Some(Arc::new(Discord::new(&config).unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        axum::serve(listener, router(state)).await.unwrap();
    });
    Bot {
        base: format!("http://{address}"),
        client: reqwest::Client::new(),
        key,
        database,
        _dir: dir,
        server,
        next_id: std::sync::atomic::AtomicU64::new(1_300_000_000_000_000_000),
    }
}

/// Someone on Discord: their user id and name.
#[derive(Debug, Clone, Copy)]
pub struct Person {
    pub id: &'static str,
    pub name: &'static str,
}

pub const ALICE: Person = Person {
    id: "200000000000000001",
    name: "Alice",
};
pub const BOB: Person = Person {
    id: "200000000000000002",
    name: "Bob",
};
pub const CAROL: Person = Person {
    id: "200000000000000003",
    name: "Carol",
};

/// A slash command option with a value.
pub fn value(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

pub fn string(name: &str, text: &str) -> Value {
    value(name, 3, json!(text))
}

pub fn integer(name: &str, number: i64) -> Value {
    value(name, 4, json!(number))
}

pub fn boolean(name: &str, on: bool) -> Value {
    value(name, 5, json!(on))
}

/// A subcommand with its options.
pub fn sub(name: &str, options: Vec<Value>) -> Value {
    json!({"name": name, "type": 1, "options": options})
}

/// An answer as Discord receives it: status, JSON, and how long it took.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub took: Duration,
}

impl Answer {
    /// The message's content.
    pub fn content(&self) -> &str {
        self.body["data"]["content"].as_str().unwrap_or("")
    }

    /// Whether only its user sees it.
    pub fn ephemeral(&self) -> bool {
        self.body["data"]["flags"].as_u64() == Some(64)
    }

    /// Asserts that the answer is an error whose message says `text`.
    pub fn refused_for(&self, text: &str) {
        let message = self.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(text), "{message}");
    }

    /// Asserts that the message says `text` (showing it when it does not).
    pub fn says(&self, text: &str) {
        assert!(self.content().contains(text), "{}", self.content());
    }
}

impl Bot {
    /// The next interaction id (Discord's are unique).
    pub fn id(&self) -> String {
        self.next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .to_string()
    }

    /// A slash command interaction, as Discord sends it.
    pub fn interaction(
        &self,
        channel: &str,
        who: Person,
        name: &str,
        options: Vec<Value>,
    ) -> Value {
        let id = self.id();
        json!({
            "id": id,
            "application_id": APPLICATION,
            "type": 2,
            "token": format!("token-{id}"),
            "version": 1,
            "guild_id": "300000000000000001",
            "channel_id": channel,
            "channel": {"id": channel, "name": "dice", "type": 0},
            "member": {
                "user": {"id": who.id, "username": who.name.to_lowercase(), "global_name": who.name, "discriminator": "0"},
                "nick": null,
                "roles": [],
                "permissions": "0",
            },
            "data": {"id": "400000000000000001", "name": name, "type": 1, "options": options},
            "locale": "en-US",
        })
    }

    /// Posts `body` signed at `timestamp` with `key`; `headers` false
    /// leaves the signature headers out.
    pub async fn post_signed(
        &self,
        body: &[u8],
        key: &SigningKey,
        timestamp: &str,
        signature_header: Option<String>,
    ) -> Answer {
        let signature = signature_header.unwrap_or_else(|| {
            nutshell_server::fair::hex(&key.sign(&[timestamp.as_bytes(), body].concat()).to_bytes())
        });
        let started = Instant::now();
        let response = self
            .client
            .post(format!("{}/discord/interactions", self.base))
            .header("content-type", "application/json")
            .header("x-signature-ed25519", signature)
            .header("x-signature-timestamp", timestamp)
            // As a reverse proxy says the client came in over plain HTTP
            // (the links `/verify` gives follow it).
            .header("x-forwarded-proto", "http")
            .body(body.to_vec())
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.json().await.unwrap_or(Value::Null);
        Answer {
            status,
            body,
            took: started.elapsed(),
        }
    }

    /// Sends an interaction signed now with the application's key.
    pub async fn send(&self, interaction: &Value) -> Answer {
        let body = serde_json::to_vec(interaction).unwrap();
        self.post_signed(&body, &self.key, &now().to_string(), None)
            .await
    }

    /// Sends a slash command by `who` in `channel`.
    pub async fn command(
        &self,
        channel: &str,
        who: Person,
        name: &str,
        options: Vec<Value>,
    ) -> Answer {
        let typed = typed(name, &options);
        let interaction = self.interaction(channel, who, name, options);
        let answer = self.send(&interaction).await;
        // The session as Discord shows it (`--nocapture` prints it).
        let shown = match answer.body["type"].as_u64() {
            Some(4) => answer.content().to_string(),
            Some(5) => "(nutshell is thinking…)".to_string(),
            _ => format!("HTTP {}: {}", answer.status, answer.body),
        };
        let private = if answer.ephemeral() {
            " [only you can see this]"
        } else {
            ""
        };
        println!(
            "{} used {typed}   ({:.1} ms){private}\n{shown}\n",
            who.name,
            answer.took.as_secs_f64() * 1000.0
        );
        answer
    }

    /// `/roll expression: EXPRESSION` by `who` in `channel`.
    pub async fn roll(&self, channel: &str, who: Person, expression: &str) -> Answer {
        self.command(channel, who, "roll", vec![string("expression", expression)])
            .await
    }

    /// `/roll expression: EXPRESSION secret: True` by `who` in `channel`.
    pub async fn roll_in_secret(&self, channel: &str, who: Person, expression: &str) -> Answer {
        let options = vec![string("expression", expression), boolean("secret", true)];
        self.command(channel, who, "roll", options).await
    }

    /// `/check RULESET OPTIONS...` by `who` in `channel`.
    pub async fn check(
        &self,
        channel: &str,
        who: Person,
        ruleset: &str,
        options: Vec<Value>,
    ) -> Answer {
        self.command(channel, who, "check", vec![sub(ruleset, options)])
            .await
    }

    /// A room made at the web table (`POST /api/rooms`), named `name`: the
    /// answer (its id, GM key and invite).
    pub async fn web_room(&self, name: &str) -> Value {
        self.client
            .post(format!("{}/api/rooms", self.base))
            .json(&serde_json::json!({"name": name}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// `/table link room: ROOM key: KEY` by `who` in `channel`.
    pub async fn link(&self, channel: &str, who: Person, room: &str, key: &str) -> Answer {
        let options = vec![string("room", room), string("key", key)];
        self.command(channel, who, "table", vec![sub("link", options)])
            .await
    }

    /// A count of rows in one of the database's tables.
    pub async fn rows(&self, table: &str) -> i64 {
        use sqlx::Row;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self.database).await.unwrap();
        // The table names are this file's own.
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) AS n FROM {table}"
        )))
        .fetch_one(&pool)
        .await
        .unwrap();
        let n: i64 = row.try_get("n").unwrap();
        pool.close().await;
        n
    }

    /// GETs a path of the server (a link from `/verify`).
    pub async fn get_text(&self, url: &str) -> (u16, String) {
        let response = self.client.get(url).send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }
}

pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A command as its sender typed it: `/check fantasy dc: 15 mod: 5`.
fn typed(name: &str, options: &[Value]) -> String {
    let mut out = format!("/{name}");
    for option in options {
        if option["type"] == 1 {
            out.push_str(&format!(" {}", option["name"].as_str().unwrap_or("")));
            for inner in option["options"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    " {}: {}",
                    inner["name"].as_str().unwrap_or(""),
                    shown_value(&inner["value"])
                ));
            }
        } else {
            out.push_str(&format!(
                " {}: {}",
                option["name"].as_str().unwrap_or(""),
                shown_value(&option["value"])
            ));
        }
    }
    out
}

fn shown_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        other => other.to_string(),
    }
}
