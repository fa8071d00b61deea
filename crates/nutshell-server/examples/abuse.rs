//! The abusive neighbour (run by `bench/server/abuse`): issue 24's review
//! attacks one server from one address while a bystander in another room,
//! from another address, rolls `1d6` and measures how long each roll takes.
//!
//! Phases, each printed as one JSON line:
//!
//! - `quiet`: the bystander alone.
//! - `abuse`: the bystander while the attacker, in rooms of its own, asks
//!   for the odds of `2000d25` and `300d20` (4 at a time), rolls `10000d6`
//!   and `1000d6` (4 at a time), exports its room of big rolls (6 at a
//!   time), holds 6 event streams from sequence 0 that it never reads, and
//!   runs 40 simulations of 10,000 fights at once, again and again.
//! - `silent`: the attacker opens `--silent` connections (20,000) that never
//!   send a byte, keeping every one the server leaves open, while the
//!   bystander asks for `/health`.
//! - `keys`: the bystander's rolls after the attacker sent `--keys`
//!   (150,000) requests with random keys.
//!
//! With `--pid`, each line also has the server's peak resident memory so far
//! (`VmHWM`, MiB). The attacker's address is `--attacker` (default
//! 127.0.0.2; Linux routes all of 127.0.0.0/8 to the machine itself).
//!
//! ```text
//! cargo run --release -p nutshell-server --example abuse -- --url http://127.0.0.1:8080 --pid 1234
//! ```

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

struct Options {
    url: String,
    seconds: f64,
    pid: Option<u32>,
    attacker: IpAddr,
    silent: usize,
    keys: usize,
    big_rolls: usize,
    /// The last phase to run (`--until "engine fights"`); all when `None`.
    until: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        url: "http://127.0.0.1:8080".to_string(),
        seconds: 20.0,
        pid: None,
        attacker: "127.0.0.2".parse().unwrap(),
        silent: 20_000,
        keys: 150_000,
        big_rolls: 150,
        until: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |what: &str| format!("{flag}: `{value}` is not {what}");
        match flag.as_str() {
            "--url" => options.url = value.trim_end_matches('/').to_string(),
            "--seconds" => options.seconds = value.parse().map_err(|_| bad("a number"))?,
            "--pid" => options.pid = Some(value.parse().map_err(|_| bad("a process id"))?),
            "--attacker" => options.attacker = value.parse().map_err(|_| bad("an address"))?,
            "--silent" => options.silent = value.parse().map_err(|_| bad("a count"))?,
            "--keys" => options.keys = value.parse().map_err(|_| bad("a count"))?,
            "--big-rolls" => options.big_rolls = value.parse().map_err(|_| bad("a count"))?,
            "--until" => options.until = Some(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

/// The server's peak resident memory so far, in MiB.
fn peak_mib(pid: Option<u32>) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kib / 1024.0 * 10.0).round() / 10.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn post(
    client: &reqwest::Client,
    url: String,
    key: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut request = client.post(url).json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    match request.send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            (status, response.json().await.unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

/// A room made by `client`: (id, GM key).
async fn room(client: &reqwest::Client, url: &str) -> (String, String) {
    let (status, made) = post(
        client,
        format!("{url}/api/rooms"),
        None,
        json!({"name": "abuse"}),
    )
    .await;
    assert_eq!(status, 201, "cannot create a room: {made}");
    (
        made["room"].as_str().unwrap().to_string(),
        made["gm_key"].as_str().unwrap().to_string(),
    )
}

/// One request of an attack, counted in `tally` as `what`: posted as `key`,
/// and a moment's pause after an answer other than `ok`.
async fn attack(
    attacker: &reqwest::Client,
    tally: &Tally,
    what: &str,
    url: String,
    key: &str,
    body: Value,
    ok: u16,
) {
    let (status, _) = post(attacker, url, Some(key), body).await;
    tally.add(what, status);
    pause_unless(status, ok).await;
}

/// Waits a moment after an attack's request that was not answered `ok`.
async fn pause_unless(status: u16, ok: u16) {
    if status != ok {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The bystander's rolls while `seconds` pass (and whatever else runs
/// meanwhile): their latencies and failures; `stop` is set at the end.
async fn measure(
    client: &reqwest::Client,
    url: &str,
    (room, key): &(String, String),
    stop: &Arc<AtomicBool>,
    seconds: f64,
) -> (Vec<f64>, u64) {
    let measuring = tokio::spawn(bystander(
        client.clone(),
        url.to_string(),
        room.clone(),
        key.clone(),
        stop.clone(),
    ));
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    measuring.await.unwrap()
}

/// The bystander rolls `1d6` every 60 ms (16 a second, under the per-key
/// rate) until `stop`: each roll's milliseconds, and how many failed.
async fn bystander(
    client: reqwest::Client,
    url: String,
    room: String,
    key: String,
    stop: Arc<AtomicBool>,
) -> (Vec<f64>, u64) {
    let mut latencies = Vec::new();
    let mut failed = 0;
    let mut ticker = tokio::time::interval(Duration::from_millis(60));
    while !stop.load(Ordering::Relaxed) {
        ticker.tick().await;
        let sent = Instant::now();
        let (status, _) = post(
            &client,
            format!("{url}/api/rooms/{room}/rolls"),
            Some(&key),
            json!({"expression": "1d6", "client_seed": "bystander"}),
        )
        .await;
        if status == 201 {
            latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
        } else {
            failed += 1;
        }
    }
    (latencies, failed)
}

fn report(phase: &str, mut latencies: Vec<f64>, failed: u64, extra: Value, pid: Option<u32>) {
    latencies.sort_by(f64::total_cmp);
    let round = |v: f64| (v * 10.0).round() / 10.0;
    let mut line = json!({
        "phase": phase,
        "bystander_rolls": latencies.len(),
        "bystander_failed": failed,
        "p50_ms": round(percentile(&latencies, 0.5)),
        "p99_ms": round(percentile(&latencies, 0.99)),
        "max_ms": round(latencies.last().copied().unwrap_or(f64::NAN)),
        "server_peak_mib": peak_mib(pid),
    });
    if let (Value::Object(line), Value::Object(extra)) = (&mut line, extra) {
        line.extend(extra);
    }
    println!("{line}");
}

/// Counts answers by status.
#[derive(Default)]
struct Tally {
    counts: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
}

impl Tally {
    fn add(&self, what: &str, status: u16) {
        *self
            .counts
            .lock()
            .unwrap()
            .entry(format!("{what} {status}"))
            .or_insert(0) += 1;
    }

    fn value(&self) -> Value {
        json!(*self.counts.lock().unwrap())
    }
}

/// Repeats `job` until `stop`, `width` at a time.
fn repeat<F, Fut>(width: usize, stop: &Arc<AtomicBool>, job: F) -> Vec<tokio::task::JoinHandle<()>>
where
    F: Fn() -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    (0..width)
        .map(|_| {
            let stop = stop.clone();
            let job = job.clone();
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    job().await;
                }
            })
        })
        .collect()
}

/// An event stream from sequence 0 that is never read: the request is
/// sent, then nothing is taken from the socket.
async fn stuck_stream(
    attacker: IpAddr,
    address: SocketAddr,
    room: &str,
    key: &str,
) -> Option<tokio::net::TcpStream> {
    use tokio::io::AsyncWriteExt;
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(attacker, 0)).ok()?;
    socket.set_recv_buffer_size(4096).ok()?;
    let mut stream = socket.connect(address).await.ok()?;
    let request = format!(
        "GET /api/rooms/{room}/events?after=0 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    Some(stream)
}

#[tokio::main]
async fn main() {
    let options = match options() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("abuse: {message}");
            std::process::exit(2);
        }
    };
    let url = options.url.clone();
    let address: SocketAddr = url
        .trim_start_matches("http://")
        .parse()
        .expect("--url http://ADDRESS:PORT");
    let client = reqwest::Client::builder()
        .local_address(IpAddr::from([127, 0, 0, 1]))
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let attacker = reqwest::Client::builder()
        .local_address(options.attacker)
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let quiet = room(&client, &url).await;
    let (quiet_room, _) = &quiet;

    // Quiet.
    let stop = Arc::new(AtomicBool::new(false));
    let (latencies, failed) = measure(&client, &url, &quiet, &stop, options.seconds).await;
    report("quiet", latencies, failed, json!({}), options.pid);
    if options.until.as_deref() == Some("quiet") {
        return;
    }

    // Played fights with every combatant on the engine, started again and
    // again in the attacker's room (far apart, up to 1,000 turns): the
    // engine's runs go on the pool for long work, outside the database's
    // write transaction, so the bystander's rolls do not wait for them.
    let (fight_room, fight_gm) = room(&attacker, &url).await;
    let fight_tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let starters = repeat(2, &stop, {
        let (attacker, url, room, key, tally) = (
            attacker.clone(),
            url.clone(),
            fight_room.clone(),
            fight_gm.clone(),
            fight_tally.clone(),
        );
        move || {
            // Each run of the attack takes its own copies, as every attack
            // here does: the same clones, written out where they are taken.
            let (attacker, url, room, key, tally) = (
                attacker.clone(),
                url.clone(),
                room.clone(),
                key.clone(),
                tally.clone(),
            );
            async move {
                let body = json!({
                    "a": include_str!("../../../examples/mls/skirmish/party.toml"),
                    "b": include_str!("../../../examples/mls/skirmish/goblins.toml"),
                    "distance": 10000, "max_turns": 1000, "played": true,
                    "control": {
                        "Brenna": "engine", "Corwin": "engine", "Tamsin": "engine",
                        "Master Odo": "engine", "Goblin 1": "engine", "Goblin 2": "engine",
                        "Goblin 3": "engine", "Goblin 4": "engine",
                        "Goblin archer 1": "engine", "Goblin archer 2": "engine",
                    },
                });
                let (what, url) = (
                    "all-engine played fight",
                    format!("{url}/api/rooms/{room}/fights"),
                );
                attack(&attacker, &tally, what, url, &key, body, 201).await;
            }
        }
    });
    let (latencies, failed) = measure(&client, &url, &quiet, &stop, options.seconds).await;
    for s in starters {
        let _ = s.await;
    }
    report(
        "engine fights",
        latencies,
        failed,
        json!({"attacker": fight_tally.value()}),
        options.pid,
    );
    if options.until.as_deref() == Some("engine fights") {
        return;
    }

    // The attacker's rooms: one filled with the biggest rolls allowed
    // (players join to share the rolling), and more for simulations.
    let (big_room, big_gm) = room(&attacker, &url).await;
    let tally = Arc::new(Tally::default());
    let filled = Arc::new(AtomicU64::new(0));
    let mut fillers = Vec::new();
    for _ in 0..4 {
        let attacker = attacker.clone();
        let url = url.clone();
        let room = big_room.clone();
        let key = big_gm.clone();
        let filled = filled.clone();
        let tally = tally.clone();
        let target = options.big_rolls as u64;
        fillers.push(tokio::spawn(async move {
            let started = Instant::now();
            while filled.load(Ordering::Relaxed) < target
                && started.elapsed() < Duration::from_secs(120)
            {
                let (status, _) = post(
                    &attacker,
                    format!("{url}/api/rooms/{room}/rolls"),
                    Some(&key),
                    json!({"expression": "1000d6"}),
                )
                .await;
                tally.add("fill 1000d6", status);
                if status == 201 {
                    filled.fetch_add(1, Ordering::Relaxed);
                } else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }
    for filler in fillers {
        filler.await.unwrap();
    }
    let mut sim_rooms = Vec::new();
    for _ in 0..6 {
        let (status, made) = post(
            &attacker,
            format!("{url}/api/rooms"),
            None,
            json!({"name": "sims"}),
        )
        .await;
        tally.add("create room", status);
        if status == 201 {
            sim_rooms.push((
                made["room"].as_str().unwrap().to_string(),
                made["gm_key"].as_str().unwrap().to_string(),
            ));
        }
    }
    let scenarios: Value = attacker
        .get(format!("{url}/web/scenarios.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let fight = json!({
        "a": scenarios[0]["a"], "b": scenarios[0]["b"], "map": scenarios[0]["map"],
        "distance": scenarios[0]["distance"], "trials": 10_000,
    });

    // Abuse.
    let stop = Arc::new(AtomicBool::new(false));
    let mut attacks = Vec::new();
    // Odds and rolls: the review's, and the largest the server takes.
    for (route, expression) in [
        ("odds", "2000d25"),
        ("odds", "300d20"),
        ("rolls", "10000d6"),
        ("rolls", "1000d6"),
    ] {
        let (attacker, url, room, key, tally) = (
            attacker.clone(),
            url.clone(),
            big_room.clone(),
            big_gm.clone(),
            tally.clone(),
        );
        attacks.extend(repeat(2, &stop, move || {
            // Each run of the attack takes its own copies, as every attack
            // here does: the same clones, written out where they are taken.
            let (attacker, url, room, key, tally) = (
                attacker.clone(),
                url.clone(),
                room.clone(),
                key.clone(),
                tally.clone(),
            );
            async move {
                let (status, _) = post(
                    &attacker,
                    format!("{url}/api/rooms/{room}/{route}"),
                    Some(&key),
                    json!({"expression": expression}),
                )
                .await;
                tally.add(&format!("{route} {expression}"), status);
                if status == 429 || status == 503 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }));
    }
    let exported = Arc::new(AtomicU64::new(0));
    {
        let (attacker, url, room, key, tally, exported) = (
            attacker.clone(),
            url.clone(),
            big_room.clone(),
            big_gm.clone(),
            tally.clone(),
            exported.clone(),
        );
        attacks.extend(repeat(6, &stop, move || {
            let (attacker, url, room, key, tally, exported) = (
                attacker.clone(),
                url.clone(),
                room.clone(),
                key.clone(),
                tally.clone(),
                exported.clone(),
            );
            async move {
                match attacker
                    .get(format!("{url}/api/rooms/{room}/log"))
                    .bearer_auth(&key)
                    .send()
                    .await
                {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        let bytes = response.bytes().await.map(|b| b.len()).unwrap_or(0);
                        exported.fetch_add(bytes as u64, Ordering::Relaxed);
                        tally.add("export", status);
                        if status == 429 {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                    }
                    Err(_) => tally.add("export", 0),
                }
            }
        }));
    }
    let mut stuck = Vec::new();
    let stuck_since = Instant::now();
    for _ in 0..6 {
        if let Some(stream) = stuck_stream(options.attacker, address, &big_room, &big_gm).await {
            stuck.push(stream);
        }
    }
    for index in 0..40 {
        let (room, key) = sim_rooms[index % sim_rooms.len()].clone();
        let (attacker, url, tally, fight) =
            (attacker.clone(), url.clone(), tally.clone(), fight.clone());
        attacks.extend(repeat(1, &stop, move || {
            // Each run of the attack takes its own copies, as every attack
            // here does: the same clones, written out where they are taken.
            let (attacker, url, tally, fight, room, key) = (
                attacker.clone(),
                url.clone(),
                tally.clone(),
                fight.clone(),
                room.clone(),
                key.clone(),
            );
            async move {
                let (what, url) = (
                    "simulate 10,000",
                    format!("{url}/api/rooms/{room}/simulate"),
                );
                attack(&attacker, &tally, what, url, &key, fight, 200).await;
            }
        }));
    }
    let (latencies, failed) = measure(&client, &url, &quiet, &stop, options.seconds).await;
    for attack in attacks {
        attack.abort();
    }
    // Did the stuck streams' connections get closed by the server (its
    // write timeout is 30 s)?
    let mut closed = 0;
    for mut stream in stuck {
        let mut buffer = vec![0u8; 1 << 16];
        let deadline = tokio::time::Instant::from_std(stuck_since) + Duration::from_secs(40);
        loop {
            match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => {
                    closed += 1;
                    break;
                }
                Ok(Ok(_)) => continue,
                Err(_) => break,
            }
        }
    }
    report(
        "abuse",
        latencies,
        failed,
        json!({
            "big_rolls_in_room": filled.load(Ordering::Relaxed),
            "exported_mib": (exported.load(Ordering::Relaxed) as f64 / 1048576.0).round(),
            "stuck_streams_closed_by_server": closed,
            "attacker_answers": tally.value(),
        }),
        options.pid,
    );

    // Silent connections.
    let stop = Arc::new(AtomicBool::new(false));
    let held = Arc::new(AtomicU64::new(0));
    let refused = Arc::new(AtomicU64::new(0));
    let opener = {
        let (stop, held, refused) = (stop.clone(), held.clone(), refused.clone());
        let count = options.silent;
        let from = options.attacker;
        tokio::spawn(async move {
            let mut open = Vec::new();
            for _ in 0..count {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
                    break;
                };
                if socket.bind(SocketAddr::new(from, 0)).is_err() {
                    break;
                }
                match socket.connect(address).await {
                    Ok(stream) => open.push(stream),
                    Err(_) => {
                        refused.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                }
                // Keep only what the server keeps open.
                let mut buffer = [0u8; 256];
                open.retain_mut(|s| s.try_read(&mut buffer).is_err());
                held.store(open.len() as u64, Ordering::Relaxed);
            }
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            drop(open);
        })
    };
    let mut health = Vec::new();
    let mut health_failed = 0;
    let started = Instant::now();
    let mut most_held = 0;
    while started.elapsed() < Duration::from_secs_f64(options.seconds) {
        let sent = Instant::now();
        match client.get(format!("{url}/health")).send().await {
            Ok(r) if r.status().is_success() => health.push(sent.elapsed().as_secs_f64() * 1000.0),
            _ => health_failed += 1,
        }
        most_held = most_held.max(held.load(Ordering::Relaxed));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.store(true, Ordering::Relaxed);
    opener.await.unwrap();
    report(
        "silent",
        health,
        health_failed,
        json!({"silent_connections_tried": options.silent, "most_held_open": most_held, "connect_errors": refused.load(Ordering::Relaxed), "measured": "GET /health"}),
        options.pid,
    );

    // Random keys.
    let sent_keys = Arc::new(AtomicU64::new(0));
    let keys_tally = Arc::new(Tally::default());
    let mut senders = Vec::new();
    let per = options.keys / 16;
    for worker in 0..16 {
        let (attacker, url, room, sent_keys, keys_tally) = (
            attacker.clone(),
            url.clone(),
            quiet_room.clone(),
            sent_keys.clone(),
            keys_tally.clone(),
        );
        senders.push(tokio::spawn(async move {
            for i in 0..per {
                let key = format!("random-{worker}-{i}-{}", i.wrapping_mul(2654435761));
                let status = match attacker
                    .get(format!("{url}/api/rooms/{room}"))
                    .bearer_auth(&key)
                    .send()
                    .await
                {
                    Ok(r) => r.status().as_u16(),
                    Err(_) => 0,
                };
                if i % 1000 == 0 {
                    keys_tally.add("random key", status);
                }
                sent_keys.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for sender in senders {
        sender.await.unwrap();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (latencies, failed) =
        measure(&client, &url, &quiet, &stop, options.seconds.min(10.0)).await;
    report(
        "keys",
        latencies,
        failed,
        json!({"random_keys_sent": sent_keys.load(Ordering::Relaxed), "sampled_answers": keys_tally.value()}),
        options.pid,
    );
}
