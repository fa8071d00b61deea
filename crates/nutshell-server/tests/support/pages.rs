//! Page objects of the web table: one helper for each action a browser test
//! takes on a screen, so a test reads as the story it checks. Screens: the
//! start page (make a room, join by an invite), the room (its seat, its
//! invite), the roll form with the feed, and the play view of a fight.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Browser, Driver};

/// How long a page is given to show what a test waits for.
pub const WAIT: Duration = Duration::from_secs(10);

/// A script counting the rolls with `text` in the feed.
pub fn count(text: &str) -> String {
    format!(
        "return [...document.querySelectorAll('#feed li')].filter(li => li.textContent.includes({text:?})).length"
    )
}

/// Whether the page scrolls sideways: it must not, at any width. (Measured
/// against the layout viewport: on a phone's emulation `innerWidth` grows
/// with a page that overflows, so comparing with it proves nothing.)
pub const FITS: &str = "return document.scrollingElement.scrollWidth <= document.documentElement.clientWidth && window.innerWidth === document.documentElement.clientWidth";

/// A script true once the room's table is shown and its stream is live.
pub const TABLE_LIVE: &str = "return !document.getElementById('table').hidden && document.getElementById('status').textContent.includes('live')";

/// The start page.
impl Browser<'_> {
    /// Opens the server's page at `base` and waits for its start form.
    pub async fn open_start(&self, base: &str) {
        self.go(&format!("{base}/")).await;
        self.until(
            "return !document.getElementById('start').hidden",
            WAIT,
            "the start form",
        )
        .await;
    }

    /// Makes a room from the start form, named `name` (or the name the form
    /// offers).
    pub async fn create_room(&self, name: Option<&str>) {
        let named = match name {
            Some(name) => format!("document.getElementById('create-name').value = {name:?};"),
            None => String::new(),
        };
        self.js(&format!(
            "{named} document.querySelector('#create-form button').click();"
        ))
        .await;
    }

    /// Opens an invite link and waits for the join form.
    pub async fn open_invite(&self, invite: &str) {
        self.go(invite).await;
        self.until_join_form().await;
    }

    /// Waits for the join form.
    pub async fn until_join_form(&self) {
        self.until(
            "return !document.getElementById('join').hidden",
            WAIT,
            "the join form",
        )
        .await;
    }

    /// Joins from the join form as `name`, and waits for the table, live.
    pub async fn join_as(&self, name: &str) {
        self.js(&format!(
            "document.getElementById('join-name').value = {name:?};
             document.querySelector('#join-form button').click();"
        ))
        .await;
        self.until(TABLE_LIVE, WAIT, "the player's table").await;
    }
}

/// Any screen.
impl Browser<'_> {
    /// What `script` returns, a list of numbers.
    pub async fn numbers(&self, script: &str) -> Vec<f64> {
        let value = self.js(script).await;
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    }
}

/// The room: its invite, its seat, its log.
impl Browser<'_> {
    /// The room's invite link, once the GM's page shows it.
    pub async fn invite_link(&self) -> String {
        self.until(
            "return document.getElementById('invite-link').href.includes('invite=') && document.getElementById('invite-link').href",
            WAIT,
            "the invite link",
        )
        .await
        .as_str()
        .unwrap()
        .to_string()
    }

    /// Waits for the room's table, live; `what` names it in a failure.
    pub async fn until_table(&self, what: &str) {
        self.until(TABLE_LIVE, WAIT, what).await;
    }

    /// The room the page is in and the key of its seat there.
    pub async fn seat(&self) -> (String, String) {
        let room = self
            .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
            .await;
        let room = room.as_str().unwrap().to_string();
        let key = self
            .js(&format!("return window.nutshellSeats.get('{room}').key"))
            .await;
        (room, key.as_str().unwrap().to_string())
    }
}

/// The roll form and the feed.
impl Browser<'_> {
    /// Rolls `expression` from the roll form (hidden from the players when
    /// `secret`).
    pub async fn roll(&self, expression: &str, secret: bool) {
        self.js(&format!(
            "document.getElementById('expression').value = {expression:?};
             document.getElementById('secret').checked = {secret};
             document.querySelector('#roll-form button[type=submit]').click();"
        ))
        .await;
    }

    /// Waits until the feed shows a roll with `text`; `what` names it.
    pub async fn until_in_feed(&self, text: &str, within: Duration, what: &str) -> Value {
        self.until(&count(text), within, what).await
    }
}

/// Windows of the given sizes (width, height), each at its seat (`key`) in
/// `room`, live, and putting every question one at a time
/// ([`Browser::ask_each_question`]).
pub async fn seated<'d, const N: usize>(
    driver: &'d Driver,
    base: &str,
    room: &str,
    seats: [(u32, u32, &str); N],
) -> [Browser<'d>; N] {
    let mut pages = Vec::new();
    for (width, height, _) in seats {
        pages.push(driver.browser(width, height).await);
    }
    for (page, (_, _, key)) in pages.iter().zip(seats) {
        page.go(&format!("{base}/#room={room}&key={key}")).await;
    }
    for page in &pages {
        page.live().await;
        page.ask_each_question().await;
    }
    pages.try_into().unwrap_or_else(|_| unreachable!())
}

/// The play view of a fight.
impl Browser<'_> {
    /// Asks the page to put every question as the server asks it, one box
    /// each (not grouped), as tests that answer each one want.
    pub async fn ask_each_question(&self) {
        self.js("localStorage.setItem('nutshell:grouped', 'off'); return null")
            .await;
    }
}

/// The control of the crossroads skirmish most play tests use: Brenna and
/// Tamsin are the first player's, Corwin the second's, Master Odo and
/// Goblin 1 the GM's, the other goblins the engine's.
pub fn crossroads_control(first: i64, second: i64) -> Value {
    json!({
        "Brenna": first, "Tamsin": first, "Corwin": second,
        "Master Odo": "gm", "Goblin 1": "gm", "Goblin 2": "engine", "Goblin 3": "engine",
        "Goblin 4": "engine", "Goblin archer 1": "engine", "Goblin archer 2": "engine",
    })
}

/// Starts, as the GM, the played crossroads skirmish in `room` between the
/// first two `players` ([`crossroads_control`]): the fight's path.
pub async fn start_crossroads_by_two(
    base: &str,
    room: &str,
    gm_key: &str,
    players: &[(i64, String)],
) -> String {
    let control = crossroads_control(players[0].0, players[1].0);
    let started = super::start_crossroads(base, room, gm_key, control).await;
    format!("/api/rooms/{room}/fights/{}", started["fight"])
}

/// Where a fight's `GET` puts each combatant on the map: name -> [square,
/// facing] (as the page's tokens are read).
pub fn tokens_of(state: &Value) -> Value {
    let mut map = serde_json::Map::new();
    for c in state["combatants"].as_array().unwrap() {
        if c["square"].is_string() {
            map.insert(
                c["name"].as_str().unwrap().to_string(),
                json!([c["square"], c["facing"]]),
            );
        }
    }
    Value::Object(map)
}
