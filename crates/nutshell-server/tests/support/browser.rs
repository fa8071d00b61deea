//! The web table in a real browser, for test files of their own: Debian's
//! Chromium, headless, driven through chromedriver's WebDriver protocol (a
//! few JSON calls, made with reqwest), against a real server on a loopback
//! port. Used by the `tests/browser_*.rs` files; [`pages`] holds the page
//! objects, one helper for each action a test takes on a screen.

#![allow(dead_code)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nutshell_dice::Limits;
use nutshell_server::rate::RateLimit;
use nutshell_server::{Store, router};
use serde_json::{Value, json};

#[path = "pages.rs"]
pub mod pages;

pub const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver on a free port, stopped on drop.
pub struct Driver {
    child: Child,
    base: String,
    http: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn which(program: &str) -> Option<String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .ok()?;
    let path = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (!path.is_empty()).then_some(path)
}

pub async fn driver(test: &str) -> Option<Driver> {
    let chromedriver = which("chromedriver");
    if chromedriver.is_none() || !std::path::Path::new(CHROMIUM).exists() {
        if std::env::var_os("NUTSHELL_SKIP_BROWSER").is_none() {
            panic!(
                "browser::{test} cannot run: chromium (/usr/bin/chromium) or chromedriver is missing; .ci/browser installs them (.ci/test runs it), NUTSHELL_SKIP_BROWSER=1 skips the browser tests"
            );
        }
        eprintln!(
            "SKIPPED browser::{test}: chromium or chromedriver is missing and NUTSHELL_SKIP_BROWSER is set"
        );
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(chromedriver.unwrap())
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        base: format!("http://127.0.0.1:{port}"),
        http: reqwest::Client::new(),
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while driver
        .http
        .get(format!("{}/status", driver.base))
        .send()
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Some(driver)
}

/// One browser window (its own profile: its own localStorage).
pub struct Browser<'d> {
    driver: &'d Driver,
    session: String,
    _profile: tempfile::TempDir,
}

impl Driver {
    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer: Value = request.send().await.unwrap().json().await.unwrap();
        if answer["value"].get("error").is_some() {
            panic!("webdriver {path}: {answer}");
        }
        answer["value"].clone()
    }

    pub async fn browser(&self, width: u32, height: u32) -> Browser<'_> {
        let profile = tempfile::tempdir().unwrap();
        let args = json!([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            format!("--user-data-dir={}", profile.path().display()),
            format!("--window-size={width},{height}"),
        ]);
        let mut options = json!({"binary": CHROMIUM, "args": args});
        if width < 500 {
            // Chromium's windows are at least ~500 px wide: a phone's width
            // is emulated instead.
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0}});
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let session = self
            .call(reqwest::Method::POST, "/session", Some(capabilities))
            .await;
        Browser {
            driver: self,
            session: session["sessionId"].as_str().unwrap().to_string(),
            _profile: profile,
        }
    }
}

impl Browser<'_> {
    /// Sizes the window so that its viewport (`innerWidth` ×
    /// `innerHeight`) is `width` × `height` (a window's size includes what
    /// the browser draws around the page).
    pub async fn viewport(&self, width: u32, height: u32) {
        for _ in 0..3 {
            let now = self
                .js("return [outerWidth, outerHeight, innerWidth, innerHeight]")
                .await;
            let n: Vec<i64> = now
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            if n[2] == i64::from(width) && n[3] == i64::from(height) {
                return;
            }
            let body = json!({"width": n[0] + i64::from(width) - n[2], "height": n[1] + i64::from(height) - n[3]});
            self.command("/window/rect", body).await;
        }
    }

    pub async fn go(&self, url: &str) {
        self.command("/url", json!({"url": url})).await;
    }

    /// Posts a WebDriver command to this window's session (`path` after
    /// `/session/{id}`): its value.
    async fn command(&self, path: &str, body: Value) -> Value {
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}{path}", self.session),
                Some(body),
            )
            .await
    }

    /// Runs `script` in the page (its `return` value comes back).
    pub async fn js(&self, script: &str) -> Value {
        self.command("/execute/sync", json!({"script": script, "args": []}))
            .await
    }

    /// Waits until `script` returns something truthy (at most `within`).
    pub async fn until(&self, script: &str, within: Duration, what: &str) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let value = self.js(script).await;
            if !(value.is_null()
                || value == json!(false)
                || value == json!("")
                || value == json!(0))
            {
                return value;
            }
            if Instant::now() >= deadline {
                let page = self
                    .js("return location.href + ' | ' + document.body.innerText")
                    .await;
                panic!(
                    "not within {within:?}: {what}: {}",
                    page.as_str().unwrap_or("")
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    pub async fn screenshot(&self, name: &str) {
        let png = self
            .driver
            .call(
                reqwest::Method::GET,
                &format!("/session/{}/screenshot", self.session),
                None,
            )
            .await;
        use base64_decode as decode;
        let bytes = decode(png.as_str().unwrap());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/web-screens");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), bytes).unwrap();
    }

    /// Presses keys as a person would, one after another (WebDriver key
    /// actions: real key events, `\u{E004}` Tab, `\u{E007}` Enter).
    pub async fn keys(&self, text: &str) {
        let actions: Vec<Value> = text
            .chars()
            .flat_map(|c| {
                let c = c.to_string();
                [
                    json!({"type": "keyDown", "value": c}),
                    json!({"type": "keyUp", "value": c}),
                ]
            })
            .collect();
        self.command(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        )
        .await;
    }

    /// The WebDriver reference of the element `css` selects.
    pub async fn element(&self, css: &str) -> Value {
        self.command("/element", json!({"using": "css selector", "value": css}))
            .await
    }

    /// The WebDriver id of the element `css` selects.
    async fn element_id(&self, css: &str) -> String {
        let element = self.element(css).await;
        element
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_string()
    }

    /// Clicks the element `css` selects as a person would (WebDriver's
    /// element click: real pointer events at its middle).
    pub async fn click(&self, css: &str) {
        let id = self.element_id(css).await;
        self.command(&format!("/element/{id}/click"), json!({}))
            .await;
    }

    /// Clicks the element `css` selects, as [`Browser::click`]; false when
    /// the page drew it again between finding and clicking it (WebDriver's
    /// "element click intercepted" by its own new copy).
    pub async fn try_click(&self, css: &str) -> bool {
        let id = self.element_id(css).await;
        let answer: Value = self
            .driver
            .http
            .post(format!(
                "{}/session/{}/element/{id}/click",
                self.driver.base, self.session
            ))
            .json(&json!({}))
            .answer()
            .await;
        match answer["value"].get("error").and_then(Value::as_str) {
            None => true,
            Some("element click intercepted" | "stale element reference") => false,
            Some(_) => panic!("webdriver click {css}: {answer}"),
        }
    }

    /// Drags with the mouse as a person would (real pointer events): from
    /// the middle of `from` to the middle of `to`.
    pub async fn drag(&self, from: &str, to: &str) {
        let from = self.element(from).await;
        let to = self.element(to).await;
        let actions = json!([
            {"type": "pointerMove", "origin": from, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerMove", "origin": from, "x": 4, "y": 4, "duration": 50},
            {"type": "pointerMove", "origin": to, "x": 0, "y": 0, "duration": 100},
            {"type": "pointerUp", "button": 0}
        ]);
        self.command("/actions", json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}]})).await;
    }

    /// Presses Tab until the element `id` has the focus (at most `most`
    /// times); panics if it never does.
    pub async fn tab_to(&self, id: &str, most: usize) {
        for _ in 0..most {
            let here = self
                .js("return document.activeElement && document.activeElement.id")
                .await;
            if here == json!(id) {
                return;
            }
            self.keys("\u{E004}").await;
        }
        panic!("Tab never reached #{id}");
    }

    /// Waits until the page's status says it is live (in its room, the
    /// event stream open).
    pub async fn live(&self) {
        self.until(
            "return document.getElementById('status').textContent.includes('live')",
            Duration::from_secs(10),
            "the page is live",
        )
        .await;
    }

    /// Presses Tab (or, within the row or list of buttons the element `css`
    /// selects is in, the right arrow) until that element has the keyboard's
    /// focus; panics if it never does.
    pub async fn keys_to(&self, css: &str) {
        let script = format!(
            "const t = document.querySelector({css:?}); const a = document.activeElement; \
             if (!t) return 'missing'; if (a === t) return 'there'; \
             return a && a.parentElement === t.parentElement ? 'row' : 'away'"
        );
        for _ in 0..300 {
            match self.js(&script).await.as_str().unwrap() {
                "there" => return,
                "row" => self.keys("\u{E014}").await,
                "missing" => tokio::time::sleep(Duration::from_millis(50)).await,
                _ => self.keys("\u{E004}").await,
            }
        }
        panic!("the keyboard never reached {css}");
    }

    pub async fn close(self) {
        self.driver
            .call(
                reqwest::Method::DELETE,
                &format!("/session/{}", self.session),
                None,
            )
            .await;
    }
}

/// Standard base64 (the screenshot's encoding), decoded.
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => 0,
        }
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| *c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= value(*c) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

/// A request's answer, read whatever its status: as JSON, or as text.
pub trait Answered {
    async fn answer(self) -> Value;
    async fn answer_text(self) -> String;
}

impl Answered for reqwest::RequestBuilder {
    async fn answer(self) -> Value {
        self.send().await.unwrap().json().await.unwrap()
    }

    async fn answer_text(self) -> String {
        self.send().await.unwrap().text().await.unwrap()
    }
}

/// Closes every window of a test.
pub async fn close_all<const N: usize>(windows: [Browser<'_>; N]) {
    for window in windows {
        window.close().await;
    }
}

/// What keeps a test's server running: its database's folder and its task.
pub struct Served {
    _dir: tempfile::TempDir,
    _server: tokio::task::JoinHandle<()>,
}

/// The browser driver and a fresh server (its address) for the browser
/// test `test`, or none when the browser tests are skipped.
pub async fn set_up(test: &str) -> Option<(Driver, String, Served)> {
    let driver = driver(test).await?;
    let (base, _dir, _server) = server().await;
    Some((driver, base, Served { _dir, _server }))
}

/// The room's exported log as `key` sees it.
pub async fn log(base: &str, room: &str, key: &str) -> String {
    let path = format!("/api/rooms/{room}/log");
    fetched(base, &path, key).await.text().await.unwrap()
}

/// A server in this process on a fresh SQLite file: its address, the
/// file's folder and its task.
pub async fn server() -> (String, tempfile::TempDir, tokio::task::JoinHandle<()>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("t.db").display());
    let store = Store::connect(&url).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let state = nutshell_server::state(store, Limits::default(), RateLimit::new(0.0, 1));
    let handle = tokio::spawn(async move {
        axum::serve(listener, router(state)).await.unwrap();
    });
    (format!("http://{address}"), dir, handle)
}

/// `POST path` as `key` (or none): the answer, which must be a success.
pub async fn post(base: &str, path: &str, key: Option<&str>, body: Value) -> Value {
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status();
    let value: Value = answer.json().await.unwrap();
    assert!(status.is_success(), "POST {path}: {status} {value}");
    value
}

/// `GET path` as `key`: the answer, which must be a success.
pub async fn get(base: &str, path: &str, key: &str) -> Value {
    fetched(base, path, key).await.json().await.unwrap()
}

/// `GET path` as `key`, which must succeed.
async fn fetched(base: &str, path: &str, key: &str) -> reqwest::Response {
    let answer = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "GET {path}");
    answer
}

/// Starts, as the GM (`gm_key`), a played fight of the example skirmish on
/// the crossroads map in `room`, each combatant controlled as `control`
/// says (name → a member's id, `"gm"` or `"engine"`): the server's answer.
pub async fn start_crossroads(base: &str, room: &str, gm_key: &str, control: Value) -> Value {
    let files = [
        "skirmish/party.toml",
        "skirmish/goblins.toml",
        "maps/crossroads.toml",
    ];
    start_example(base, room, gm_key, files, control).await
}

/// Starts, as the GM (`gm_key`), a played fight of the example duel on the
/// corridor map in `room`, each combatant controlled as `control` says: the
/// server's answer.
pub async fn start_corridor(base: &str, room: &str, gm_key: &str, control: Value) -> Value {
    let files = [
        "duel/knight.toml",
        "duel/brigand.toml",
        "maps/corridor.toml",
    ];
    start_example(base, room, gm_key, files, control).await
}

/// Starts, as the GM, a played fight of the examples' sides `a`, `b` on map
/// `map` (`examples/mls/` files).
async fn start_example(
    base: &str,
    room: &str,
    gm_key: &str,
    [a, b, map]: [&str; 3],
    control: Value,
) -> Value {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls");
    let read = |file: &str| std::fs::read_to_string(format!("{examples}/{file}")).unwrap();
    post(
        base,
        &format!("/api/rooms/{room}/fights"),
        Some(gm_key),
        serde_json::json!({
            "a": read(a), "b": read(b), "map": read(map), "played": true,
            "control": control,
        }),
    )
    .await
}

/// A room with a GM and the players `names`: its id, the GM's key, and
/// each player's (member id, key).
pub async fn table(base: &str, names: &[&str]) -> (String, String, Vec<(i64, String)>) {
    let room = post(base, "/api/rooms", None, json!({"name": "The table"})).await;
    let (room_id, gm_key, invite) = (
        room["room"].as_str().unwrap().to_string(),
        room["gm_key"].as_str().unwrap().to_string(),
        room["invite"].as_str().unwrap().to_string(),
    );
    let mut players = Vec::new();
    for name in names {
        let joined = post(
            base,
            &format!("/api/rooms/{room_id}/join"),
            None,
            json!({"invite": invite, "name": name}),
        )
        .await;
        players.push((
            joined["member"].as_i64().unwrap(),
            joined["player_key"].as_str().unwrap().to_string(),
        ));
    }
    (room_id, gm_key, players)
}
