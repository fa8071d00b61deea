//! Issue 24: `RUST_LOG=debug` never logs a member's key, whether it comes
//! in `Authorization: Bearer` or in `?key=` (for clients that cannot send
//! headers). Its own test binary: it installs the process's one tracing
//! subscriber, at `debug`, writing into memory.

#[path = "support/limited.rs"]
mod limited;

use std::io::Write;
use std::sync::{Arc, Mutex};

use limited::{sqlite, test_limits};
use nutshell_server::rate::RateLimit;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debug_logs_never_show_a_key() {
    let captured = Captured::default();
    let writer = captured.clone();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("debug"))
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();
    let app = sqlite(test_limits(), RateLimit::off()).await;
    let (room, gm, invite) = app.room().await;
    let (status, joined) = app.join(&room, &invite, "Ada").await;
    assert_eq!(status, 201);
    let player = joined["player_key"].as_str().unwrap().to_string();
    let (status, _) = app.roll(&room, &player, "1d6").await;
    assert_eq!(status, 201);
    for key in [&gm, &player] {
        let response = app
            .client
            .get(format!(
                "{}/api/rooms/{room}/log?after=0&key={key}",
                app.base
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let response = app
            .client
            .get(format!("{}/api/rooms/{room}?key={key}", app.base))
            .header("authorization", format!("Bearer {key}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
    }
    // A wrong key is not logged either.
    let (status, _) = app
        .get(&format!("/api/rooms/{room}?key=not-a-real-key-123"), None)
        .await;
    assert_eq!(status, 401);
    let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("/log?after=0&key=…"),
        "the path is logged, its key blanked:\n{log}"
    );
    assert!(log.contains("DEBUG"), "debug lines were written");
    for secret in [
        gm.as_str(),
        player.as_str(),
        invite.as_str(),
        "not-a-real-key-123",
    ] {
        assert!(!log.contains(secret), "a key or invite is in the debug log");
    }
}
