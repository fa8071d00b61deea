//! `nutshell serve` and `nutshell verify` as a user runs them: the real
//! binary on a free port with an SQLite file, spoken to over HTTP, its log
//! exported and checked offline, then tampered with.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use assert_cmd::cargo::cargo_bin;
use serde_json::Value;

struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `nutshell serve` on a free local port with `database`, no rate limit,
/// standard output discarded.
fn serve_command(database: &str) -> Command {
    let mut command = Command::new(cargo_bin("nutshell"));
    command
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(["--rate-limit", "0", "--database", database])
        .stdout(Stdio::null());
    command
}

/// Starts `nutshell serve` and waits for the line that names its address.
/// The pipe of its standard error is closed then: the server must go on
/// answering (and logging nowhere) with its standard error gone.
fn serve(database: &str) -> Server {
    serve_with(database, &[])
}

/// [`serve`] with more flags.
fn serve_with(database: &str, flags: &[&str]) -> Server {
    let mut child = serve_command(database)
        .args(flags)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let address = support::listening_address(&mut lines);
    Server { child, address }
}

/// One HTTP/1.1 request; (status, body).
fn request(
    address: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: &str,
) -> (u16, String) {
    try_request(address, method, path, key, body).expect("the server answers")
}

/// One HTTP/1.1 request, or `None` when the connection fails or breaks.
fn try_request(
    address: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: &str,
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(address).ok()?;
    let auth = key
        .map(|k| format!("Authorization: Bearer {k}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let (head, rest) = response.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        // A response cut off by a killed server is no answer.
        if !rest.ends_with("0\r\n\r\n") {
            return None;
        }
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Some((status, body))
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = text.split_once("\r\n").unwrap();
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.push_str(&rest[..size]);
        text = &rest[size + 2..];
    }
}

/// Reveals the room's seed as its GM and writes the exported log to
/// `room.jsonl` in `dir`: the log's text and the file.
fn reveal_and_export(
    address: &str,
    room: &str,
    gm: &str,
    dir: &std::path::Path,
) -> (String, std::path::PathBuf) {
    let (status, _) = request(
        address,
        "POST",
        &format!("/api/rooms/{room}/reveal"),
        Some(gm),
        "",
    );
    assert_eq!(status, 200);
    let (status, log) = request(
        address,
        "GET",
        &format!("/api/rooms/{room}/log"),
        Some(gm),
        "",
    );
    assert_eq!(status, 200);
    let file = dir.join("room.jsonl");
    std::fs::write(&file, &log).unwrap();
    (log, file)
}

/// `nutshell verify FILE` succeeds: its standard output.
fn verifies(file: &std::path::Path) -> String {
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn a_room_log_from_nutshell_serve_verifies_offline_and_tampering_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite:{}", dir.path().join("table.db").display());
    let server = serve(&database);
    let a = &server.address;
    let (status, room) = request(a, "POST", "/api/rooms", None, r#"{"name":"Crypt"}"#);
    assert_eq!(status, 201, "{room}");
    let room = json(&room);
    let id = room["room"].as_str().unwrap();
    let gm = room["gm_key"].as_str().unwrap();
    let join = format!(
        r#"{{"invite":"{}","name":"Ada"}}"#,
        room["invite"].as_str().unwrap()
    );
    let (status, player) = request(a, "POST", &format!("/api/rooms/{id}/join"), None, &join);
    assert_eq!(status, 201, "{player}");
    let player = json(&player);
    let player_key = player["player_key"].as_str().unwrap();
    let rolls = format!("/api/rooms/{id}/rolls");
    let (status, roll) = request(
        a,
        "POST",
        &rolls,
        Some(player_key),
        r#"{"expression":"3d6","client_seed":"42"}"#,
    );
    assert_eq!(status, 201, "{roll}");
    let (status, _) = request(
        a,
        "POST",
        &rolls,
        Some(gm),
        r#"{"expression":"1d20","secret":true}"#,
    );
    assert_eq!(status, 201);
    let (log, file) = reveal_and_export(a, id, gm, dir.path());
    let stdout = verifies(&file);
    assert!(stdout.contains("OK: room"), "{stdout}");
    assert!(stdout.contains("2 rolls recomputed"), "{stdout}");

    // `--head` with the room's latest event: the log ends there. A log cut
    // short (its last line removed) fails against the same head.
    let last = json(log.lines().last().unwrap());
    let head = format!("{}:{}", last["seq"], last["hash"].as_str().unwrap());
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&file)
        .args(["--head", &head])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let cut: String = log
        .lines()
        .take(log.lines().count() - 1)
        .map(|l| format!("{l}\n"))
        .collect();
    let short = dir.path().join("short.jsonl");
    std::fs::write(&short, &cut).unwrap();
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&short)
        .args(["--head", &head])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cut from its end"), "{stderr}");
    // Without the reveal, the rolls wait: every line checks, exit 3.
    let unrevealed: String = log
        .lines()
        .filter(|l| !l.contains("\"kind\":\"reveal\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&short, &unrevealed).unwrap();
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&short)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("not complete"), "{stdout}");

    // The roll's total changed by one: exit 1, naming line 3.
    let total = json(&roll)["total"].as_i64().unwrap();
    let forged = log.replacen(
        &format!("\"total\":{total}"),
        &format!("\"total\":{}", total % 18 + 1),
        1,
    );
    assert_ne!(forged, log);
    std::fs::write(&file, &forged).unwrap();
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 3"), "{stderr}");

    // A file that is not there is bad input (2), not a failed check.
    let output = Command::new(cargo_bin("nutshell"))
        .args(["verify", "no-such-log.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn serve_refuses_a_database_url_it_does_not_know() {
    let output = Command::new(cargo_bin("nutshell"))
        .args(["serve", "--database", "mysql://localhost/x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("expected a file for SQLite (`room.db`, also written `sqlite:room.db`)")
    );
}

/// Issue "The second hour": `--database room.db` (a plain path) is an
/// SQLite file, as `sqlite:room.db`; the rooms made go into it.
#[test]
fn serve_takes_a_plain_path_as_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("room.db");
    let server = serve(file.to_str().unwrap());
    let (status, body) = request(&server.address, "POST", "/api/rooms", None, "{}");
    assert_eq!(status, 201, "{body}");
    drop(server);
    let written = std::fs::metadata(&file).expect("the SQLite file is made");
    assert!(written.len() > 0);
    let head = std::fs::read(&file).unwrap();
    assert!(head.starts_with(b"SQLite format 3\0"));
}

/// SIGKILL in the middle of many clients' rolls: after a restart on the same
/// SQLite file, every roll the server acknowledged is in the log with the same
/// dice, the sequence has no gap and the chain verifies.
#[test]
fn every_acknowledged_roll_survives_a_sigkill() {
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite:{}", dir.path().join("table.db").display());
    let mut server = serve(&database);
    let a = server.address.clone();
    let (_, room) = request(&a, "POST", "/api/rooms", None, "{}");
    let room = json(&room);
    let id = room["room"].as_str().unwrap().to_string();
    let gm = room["gm_key"].as_str().unwrap().to_string();
    let acknowledged = Arc::new(Mutex::new(Vec::<(i64, i64)>::new()));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (a, id, gm, acknowledged) =
                (a.clone(), id.clone(), gm.clone(), acknowledged.clone());
            std::thread::spawn(move || {
                let path = format!("/api/rooms/{id}/rolls");
                while let Some((status, body)) =
                    try_request(&a, "POST", &path, Some(&gm), r#"{"expression":"3d6"}"#)
                {
                    // A body cut off by the kill does not parse: no answer.
                    if let (201, Ok(roll)) = (status, serde_json::from_str::<Value>(&body)) {
                        let entry = (
                            roll["seq"].as_i64().unwrap(),
                            roll["total"].as_i64().unwrap(),
                        );
                        acknowledged.lock().unwrap().push(entry);
                    }
                }
            })
        })
        .collect();
    while acknowledged.lock().unwrap().len() < 100 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    for client in clients {
        client.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();

    let server = serve(&database);
    let (status, log) = request(
        &server.address,
        "GET",
        &format!("/api/rooms/{id}/log"),
        Some(&gm),
        "",
    );
    assert_eq!(status, 200);
    let events: Vec<Value> = log.lines().map(json).collect();
    for (seq, total) in &acknowledged {
        let event = events
            .iter()
            .find(|e| e["seq"] == *seq)
            .unwrap_or_else(|| panic!("acknowledged roll {seq} is not in the log"));
        assert_eq!(event["body"]["result"]["total"], *total);
    }
    let file = dir.path().join("room.jsonl");
    std::fs::write(&file, &log).unwrap();
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    // Every line checks; the rolls wait for the reveal (exit 3, not 0).
    assert_eq!(
        output.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("wait for their epoch's seed"));
    // The sequence is gapless (verify checks it) and goes on after the restart.
    let (status, roll) = request(
        &server.address,
        "POST",
        &format!("/api/rooms/{id}/rolls"),
        Some(&gm),
        r#"{"expression":"1d6"}"#,
    );
    assert_eq!(status, 201);
    assert_eq!(
        json(&roll)["seq"].as_i64().unwrap(),
        events.len() as i64 + 1
    );
}

/// Issue 40, item 3: words of a log that differ from today's, what the dice
/// decided being the same (the `+ 0` of checks written before issue 27), do
/// not fail it: `verify` exits 0 and shows each as a note naming its line,
/// the recorded words and today's.
#[test]
fn verify_shows_words_that_differ_as_notes() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../nutshell-server/tests/data/plus-zero-room.jsonl");
    let stdout = verifies(&file);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].contains(": OK: room 4515d43a7afc9403, 7 events"),
        "{stdout}"
    );
    assert_eq!(
        lines[1],
        "6 note(s): words that differ from today's, what the dice decided being the same:",
        "{stdout}"
    );
    assert_eq!(
        lines[3],
        "  line 3: event 3: the words of `result.transcript[0].text` differ from today's: recorded \"3d6 5 + skill 12 + 0 = 17: success\", today \"3d6 5 + skill 12 = 17: success\"",
        "{stdout}"
    );
    assert_eq!(lines.len(), 8, "{stdout}");
}

/// A room's log is the user's own data: nine accepted `1000d6` rolls make
/// an export over 1 MiB (the default --max-file-size of other files), and
/// `verify` reads it, from a file and from standard input, a line at a time;
/// an explicit --max-file-size still bounds it. An empty log is refused.
#[test]
fn verify_reads_a_log_over_a_mebibyte_and_refuses_an_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite:{}", dir.path().join("table.db").display());
    let server = serve(&database);
    let a = &server.address;
    let (_, room) = request(a, "POST", "/api/rooms", None, "{}");
    let room = json(&room);
    let id = room["room"].as_str().unwrap();
    let gm = room["gm_key"].as_str().unwrap();
    // The server takes at most 1,000 dice a roll: nine rolls of 1000d6.
    for _ in 0..9 {
        let (status, roll) = request(
            a,
            "POST",
            &format!("/api/rooms/{id}/rolls"),
            Some(gm),
            r#"{"expression":"1000d6"}"#,
        );
        assert_eq!(status, 201, "{roll}");
    }
    let (log, file) = reveal_and_export(a, id, gm, dir.path());
    assert!(log.len() > 1 << 20, "{} bytes", log.len());
    let stdout = verifies(&file);
    assert!(stdout.contains("11 events from #1"), "{stdout}");
    assert!(stdout.contains("9 rolls recomputed"), "{stdout}");

    let mut child = Command::new(cargo_bin("nutshell"))
        .args(["verify", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(log.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("-: OK: room"));

    // A bound the user gives is kept: exit 2, naming it.
    let output = Command::new(cargo_bin("nutshell"))
        .args(["verify", "--max-file-size", "100000"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("longer than 100000 bytes"), "{stderr}");

    // An empty file holds no events: not OK, exit 1.
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let output = Command::new(cargo_bin("nutshell"))
        .arg("verify")
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&output.stdout).contains("OK"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no events"), "{stderr}");
}

/// The server logs one line per request to standard error (method, path,
/// status, time), never a key given in the query, and without colour codes
/// when standard error is a file.
#[test]
fn serve_logs_one_plain_line_per_request() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite:{}", dir.path().join("table.db").display());
    let log_path = dir.path().join("serve.log");
    let mut child = serve_command(&database)
        .env_remove("RUST_LOG")
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let address = loop {
        let text = std::fs::read_to_string(&log_path).unwrap();
        if let Some(rest) = text.split("listening on http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
        assert!(std::time::Instant::now() < deadline, "no address: {text}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (_, room) = request(&address, "POST", "/api/rooms", None, "{}");
    let room = json(&room);
    let id = room["room"].as_str().unwrap();
    let gm = room["gm_key"].as_str().unwrap();
    let (status, _) = request(
        &address,
        "GET",
        &format!("/api/rooms/{id}/log?after=0&key={gm}"),
        None,
        "",
    );
    assert_eq!(status, 200);
    let (status, _) = request(
        &address,
        "GET",
        &format!("/api/rooms/{id}/rolls"),
        Some(gm),
        "",
    );
    assert_eq!(status, 405);
    for _ in 0..20 {
        request(&address, "GET", "/api/health", None, "");
    }
    let stopped = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    child.wait().unwrap();
    let text = std::fs::read_to_string(&log_path).unwrap();
    assert!(!text.contains('\u{1b}'), "colour codes in a file: {text}");
    assert!(!text.contains(gm), "a key in the log: {text}");
    assert!(text.contains("POST /api/rooms 201"), "{text}");
    assert!(
        text.contains(&format!("GET /api/rooms/{id}/log?after=0&key=… 200")),
        "{text}"
    );
    assert!(
        text.contains(&format!("GET /api/rooms/{id}/rolls 405")),
        "{text}"
    );
    assert_eq!(text.matches("GET /api/health 200").count(), 20, "{text}");
}

/// The server's peak resident memory (`VmHWM`), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Issue 24, "a memory ceiling the server stays under" (docs/server.md,
/// "Memory"): with `--memory-limit 1` (MiB), six clients in six rooms ask
/// for the odds of `1d10000` (10,000 outcomes), again and again; each
/// answer is a few MB of heap while it is built and written, so the heap passes the
/// ceiling and new long work is refused with 503 `busy` naming the limit,
/// while a bystander's rolls are all answered. The server never aborts and
/// its peak stays under the stated bound.
#[test]
fn above_its_memory_limit_the_server_refuses_long_work_and_keeps_rolling() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite:{}", dir.path().join("table.db").display());
    let server = serve_with(&database, &["--memory-limit", "1"]);
    let a = server.address.clone();
    let room = |name: &str| {
        let (status, room) = request(
            &a,
            "POST",
            "/api/rooms",
            None,
            &format!(r#"{{"name":"{name}"}}"#),
        );
        assert_eq!(status, 201, "{room}");
        let room = json(&room);
        (
            room["room"].as_str().unwrap().to_string(),
            room["gm_key"].as_str().unwrap().to_string(),
        )
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (answered, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let clients: Vec<_> = (0..6)
        .map(|i| {
            let (id, key) = room(&format!("Heavy {i}"));
            let (a, stop, answered, refused) =
                (a.clone(), stop.clone(), answered.clone(), refused.clone());
            std::thread::spawn(move || {
                let path = format!("/api/rooms/{id}/odds");
                while !stop.load(Ordering::Relaxed) {
                    let (status, body) =
                        request(&a, "POST", &path, Some(&key), r#"{"expression":"1d10000"}"#);
                    match status {
                        200 => answered.fetch_add(1, Ordering::Relaxed),
                        503 => {
                            assert!(body.contains("memory limit of 1 MiB"), "{body}");
                            refused.fetch_add(1, Ordering::Relaxed)
                        }
                        429 => 0,
                        other => panic!("odds answered {other}: {body}"),
                    };
                }
            })
        })
        .collect();
    let (id, key) = room("Bystander");
    let rolls = format!("/api/rooms/{id}/rolls");
    let mut rolled = 0;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline
        && (refused.load(Ordering::Relaxed) < 20 || answered.load(Ordering::Relaxed) < 3)
    {
        let (status, body) = request(&a, "POST", &rolls, Some(&key), r#"{"expression":"3d6"}"#);
        assert_eq!(status, 201, "the bystander's roll: {body}");
        rolled += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    let (answered, refused) = (
        answered.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
    );
    eprintln!("odds answered {answered}, refused for memory {refused}; bystander rolls {rolled}");
    assert!(answered >= 1, "some long work ran");
    assert!(refused >= 1, "the ceiling refused long work");
    // Alive, and under the bound docs/server.md states for this setting.
    let (status, _) = request(&a, "GET", "/api/health", None, "");
    assert_eq!(status, 200);
    let peak = peak_kib(server.child.id());
    eprintln!("peak resident memory {} MiB", peak / 1024);
    assert!(peak < 256 * 1024, "peak {peak} KiB");
}
