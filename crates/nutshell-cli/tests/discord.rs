//! Issue 39: `nutshell discord commands`, `nutshell discord register`'s
//! refusals, and `nutshell serve --discord-public-key` answering a PING
//! signed as Discord signs it (the real binary on a free port).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use assert_cmd::cargo::cargo_bin;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{Value, json};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn commands_prints_the_command_set_as_discords_json() {
    let output = Command::new(cargo_bin("nutshell"))
        .args(["discord", "commands"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed, json!(nutshell_server::discord::commands::all()));
    assert_eq!(
        nutshell_server::discord::commands::check(printed.as_array().unwrap()),
        Vec::<String>::new()
    );
}

#[test]
fn register_needs_the_bots_token() {
    let output = Command::new(cargo_bin("nutshell"))
        .args(["discord", "register", "--application-id", "1"])
        .env_remove("DISCORD_BOT_TOKEN")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("set DISCORD_BOT_TOKEN"), "{error}");
}

#[test]
fn serve_refuses_a_public_key_that_is_not_one() {
    let output = Command::new(cargo_bin("nutshell"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--discord-public-key",
            "abc",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--discord-public-key: the Discord public key must be 64 hex digits"),
        "{error}"
    );
}

/// One signed POST to `/discord/interactions`: (status, body).
fn post(address: &str, body: &str, signature: &str, timestamp: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /discord/interactions HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\nX-Signature-Ed25519: {signature}\r\nX-Signature-Timestamp: {timestamp}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, rest) = response.split_once("\r\n\r\n").unwrap();
    (
        head.split(' ').nth(1).unwrap().parse().unwrap(),
        rest.to_string(),
    )
}

#[test]
fn serve_with_a_public_key_answers_discords_ping_and_refuses_a_forged_one() {
    let dir = tempfile::tempdir().unwrap();
    let key = SigningKey::from_bytes(&[9; 32]);
    let public = nutshell_server::fair::hex(key.verifying_key().as_bytes());
    let mut child = Command::new(cargo_bin("nutshell"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(format!("sqlite:{}", dir.path().join("t.db").display()))
        .env("NUTSHELL_DISCORD_PUBLIC_KEY", &public)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let server = Server(child);
    let address = support::listening_address(&mut lines);
    let body = r#"{"id":"1","application_id":"2","type":1,"token":"t","version":1}"#;
    let timestamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        .to_string();
    let signature = nutshell_server::fair::hex(
        &key.sign(&[timestamp.as_bytes(), body.as_bytes()].concat())
            .to_bytes(),
    );
    let forged = nutshell_server::fair::hex(
        &SigningKey::from_bytes(&[8; 32])
            .sign(&[timestamp.as_bytes(), body.as_bytes()].concat())
            .to_bytes(),
    );
    let (status, answer) = post(&address, body, &forged, &timestamp);
    assert_eq!(status, 401, "{answer}");
    let (status, answer) = post(&address, body, &signature, &timestamp);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        serde_json::from_str::<Value>(&answer).unwrap(),
        json!({"type": 1})
    );
    drop(server);
}
