//! A load generator for `nutshell serve` (run by `bench/server/run`).
//!
//! Creates `--rooms` rooms, fills them with `--clients` members (a GM and
//! players), opens one event stream per room (on the next server of `--url`
//! when there are several, so delivery crosses processes), then lets every
//! member roll as fast as the server answers for `--seconds`. Prints one JSON
//! line: acknowledged rolls per second, latency from request to
//! acknowledgement, and from acknowledgement to delivery on the stream.
//!
//! Without `--rate` every client rolls again as soon as it is answered (a
//! closed loop: the latency is then about clients / throughput, by Little's
//! law). With `--rate R` the clients together offer R rolls a second, each
//! on its own fixed schedule (an open loop, as players at tables roll), and
//! the latency is what a roll waits at that load; a client whose previous
//! roll is still unanswered at its next turn skips it (counted as `skipped`).
//!
//! ```text
//! cargo run --release -p nutshell-server --example load -- \
//!     --url http://127.0.0.1:8080 --clients 1000 --rooms 200 --seconds 10
//! ```

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;

struct Options {
    urls: Vec<String>,
    clients: usize,
    rooms: usize,
    seconds: f64,
    expression: String,
    /// Offered rolls per second over all clients (open loop), or `None` for
    /// as fast as the server answers (closed loop).
    rate: Option<f64>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        urls: vec!["http://127.0.0.1:8080".to_string()],
        clients: 1000,
        rooms: 200,
        seconds: 10.0,
        expression: "1d20 + 5".to_string(),
        rate: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |what: &str| {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| *v > 0.0)
                .ok_or_else(|| format!("{what} must be a positive number, not {value:?}"))
        };
        match flag.as_str() {
            "--url" => options.urls = value.split(',').map(str::to_string).collect(),
            "--clients" => options.clients = number("--clients")? as usize,
            "--rooms" => options.rooms = number("--rooms")? as usize,
            "--seconds" => options.seconds = number("--seconds")?,
            "--expression" => options.expression = value,
            "--rate" => options.rate = Some(number("--rate")?),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if options.rooms > options.clients {
        return Err("--rooms must not exceed --clients".to_string());
    }
    Ok(options)
}

/// One member: the room, its key, the server it talks to.
struct Member {
    room: usize,
    id: String,
    key: String,
    url: String,
}

async fn post(client: &reqwest::Client, url: String, key: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{status}: {value}");
    value
}

/// Creates the rooms and their members, a few at a time.
async fn set_up(
    client: &reqwest::Client,
    options: &Options,
) -> (Vec<Member>, Vec<(String, String)>) {
    let per_room = options.clients / options.rooms;
    let mut members = Vec::new();
    let mut streams = Vec::new();
    for room in 0..options.rooms {
        let url = &options.urls[room % options.urls.len()];
        let made = post(
            client,
            format!("{url}/api/rooms"),
            None,
            json!({"name": "bench"}),
        )
        .await;
        let id = made["room"].as_str().unwrap().to_string();
        let gm = made["gm_key"].as_str().unwrap().to_string();
        let invite = made["invite"].as_str().unwrap().to_string();
        let extra = usize::from(room < options.clients % options.rooms);
        let mut joins = Vec::new();
        for player in 1..per_room + extra {
            let url = options.urls[(room + player) % options.urls.len()].clone();
            let body = json!({"invite": invite, "name": format!("p{player}")});
            let path = format!("{url}/api/rooms/{id}/join");
            let client = client.clone();
            joins.push(tokio::spawn(async move {
                (url, post(&client, path, None, body).await)
            }));
        }
        for join in joins {
            let (url, joined) = join.await.unwrap();
            members.push(Member {
                room,
                id: id.clone(),
                key: joined["player_key"].as_str().unwrap().to_string(),
                url,
            });
        }
        let stream_url = options.urls[(room + 1) % options.urls.len()].clone();
        streams.push((
            format!("{stream_url}/api/rooms/{id}/events?after=0"),
            gm.clone(),
        ));
        members.push(Member {
            room,
            id,
            key: gm,
            url: url.clone(),
        });
    }
    (members, streams)
}

/// Reads one room's stream, sending (room, seq, arrival) for every roll.
async fn listen(
    client: reqwest::Client,
    room: usize,
    url: String,
    key: String,
    arrivals: mpsc::UnboundedSender<(usize, i64, Instant)>,
    ready: mpsc::Sender<()>,
) {
    let mut response = client
        .get(url)
        .bearer_auth(key)
        .send()
        .await
        .expect("the stream opens");
    assert!(response.status().is_success());
    ready.send(()).await.ok();
    let mut buffer = String::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let now = Instant::now();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let is_roll = block.contains("\"kind\":\"roll\"");
            let id = block
                .lines()
                .find_map(|l| l.strip_prefix("id:"))
                .and_then(|v| v.trim().parse::<i64>().ok());
            if let (true, Some(seq)) = (is_roll, id)
                && arrivals.send((room, seq, now)).is_err()
            {
                return;
            }
        }
    }
}

/// The errors seen, by kind ("503 busy", "the request timed out", ...).
type ErrorKinds = Arc<std::sync::Mutex<std::collections::BTreeMap<String, u64>>>;

fn note_error(kinds: &ErrorKinds, kind: String) {
    *kinds.lock().unwrap().entry(kind).or_default() += 1;
}

/// A failed request's kind, in a few words.
fn kind_of(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "the request timed out".to_string()
    } else if error.is_connect() {
        "the connection failed".to_string()
    } else if error.is_body() || error.is_decode() {
        "the answer was cut off".to_string()
    } else {
        "the request failed".to_string()
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

#[tokio::main]
async fn main() {
    let options = match options() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("load: {message}");
            std::process::exit(2);
        }
    };
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(usize::MAX)
        .build()
        .unwrap();
    let (members, streams) = set_up(&client, &options).await;

    let (arrivals_tx, mut arrivals_rx) = mpsc::unbounded_channel();
    let (ready_tx, mut ready_rx) = mpsc::channel(streams.len());
    for (room, (url, key)) in streams.into_iter().enumerate() {
        tokio::spawn(listen(
            client.clone(),
            room,
            url,
            key,
            arrivals_tx.clone(),
            ready_tx.clone(),
        ));
    }
    drop(ready_tx);
    for _ in 0..options.rooms {
        ready_rx.recv().await;
    }

    let stop = Arc::new(AtomicBool::new(false));
    let errors = Arc::new(AtomicU64::new(0));
    let error_kinds: ErrorKinds = Arc::default();
    let skipped = Arc::new(AtomicU64::new(0));
    let interval = options
        .rate
        .map(|rate| Duration::from_secs_f64(options.clients as f64 / rate));
    let (acks_tx, mut acks_rx) = mpsc::unbounded_channel::<(usize, i64, Instant, f64)>();
    let started = Instant::now();
    let mut workers = Vec::new();
    for (index, member) in members.into_iter().enumerate() {
        let client = client.clone();
        let stop = stop.clone();
        let errors = errors.clone();
        let error_kinds = error_kinds.clone();
        let skipped = skipped.clone();
        // Spread the clients' schedules evenly over one interval.
        let mut ticker = interval.map(|every| {
            let phase = every.mul_f64(index as f64 / options.clients as f64);
            let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + phase, every);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            ticker
        });
        let acks = acks_tx.clone();
        let body = json!({"expression": options.expression, "client_seed": "bench"});
        workers.push(tokio::spawn(async move {
            let path = format!("{}/api/rooms/{}/rolls", member.url, member.id);
            while !stop.load(Ordering::Relaxed) {
                if let Some(ticker) = ticker.as_mut() {
                    let due = ticker.tick().await;
                    if due.elapsed() > ticker.period() {
                        skipped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
                let sent = Instant::now();
                let answer = client
                    .post(&path)
                    .bearer_auth(&member.key)
                    .json(&body)
                    .send()
                    .await;
                let answer = match answer {
                    Ok(r) if r.status().as_u16() == 201 => r.json::<Value>().await.ok(),
                    Ok(r) => {
                        let status = r.status().as_u16();
                        let text = r.text().await.unwrap_or_default();
                        let code = serde_json::from_str::<Value>(&text)
                            .ok()
                            .and_then(|v| v["error"]["code"].as_str().map(str::to_string))
                            .unwrap_or_default();
                        note_error(&error_kinds, format!("{status} {code}"));
                        None
                    }
                    Err(e) => {
                        note_error(&error_kinds, kind_of(&e));
                        None
                    }
                };
                let acked = Instant::now();
                match answer.and_then(|a| a["seq"].as_i64()) {
                    Some(seq) => {
                        let latency = (acked - sent).as_secs_f64() * 1000.0;
                        acks.send((member.room, seq, acked, latency)).ok();
                    }
                    None => {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    drop(acks_tx);
    tokio::time::sleep(Duration::from_secs_f64(options.seconds)).await;
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.await.unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    // Give the streams a moment to deliver the last rolls.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let mut acked: HashMap<(usize, i64), Instant> = HashMap::new();
    let mut latencies = Vec::new();
    while let Ok((room, seq, at, latency)) = acks_rx.try_recv() {
        acked.insert((room, seq), at);
        latencies.push(latency);
    }
    let mut deliveries = Vec::new();
    while let Ok((room, seq, at)) = arrivals_rx.try_recv() {
        if let Some(ack) = acked.get(&(room, seq)) {
            deliveries.push(at.saturating_duration_since(*ack).as_secs_f64() * 1000.0);
        }
    }
    latencies.sort_by(f64::total_cmp);
    deliveries.sort_by(f64::total_cmp);
    let rolls = latencies.len();
    let report = json!({
        "servers": options.urls.len(),
        "clients": options.clients,
        "rooms": options.rooms,
        "seconds": (elapsed * 100.0).round() / 100.0,
        "acknowledged": rolls,
        "errors": errors.load(Ordering::Relaxed),
        "error_kinds": *error_kinds.lock().unwrap(),
        "offered_per_second": options.rate,
        "skipped": skipped.load(Ordering::Relaxed),
        "rolls_per_second": (rolls as f64 / elapsed).round(),
        "ack_p50_ms": (percentile(&latencies, 0.50) * 10.0).round() / 10.0,
        "ack_p99_ms": (percentile(&latencies, 0.99) * 10.0).round() / 10.0,
        "delivered": deliveries.len(),
        "delivery_p50_ms": (percentile(&deliveries, 0.50) * 10.0).round() / 10.0,
        "delivery_p99_ms": (percentile(&deliveries, 0.99) * 10.0).round() / 10.0,
    });
    println!("{report}");
}
