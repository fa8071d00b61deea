//! The web table's static files, embedded in the binary (`web/` beside
//! `src/`), so `nutshell serve` alone serves the page. The page uses only
//! the JSON API and the event stream.
//!
//! # In detail
//!
//! The web table's page, style, icon and script, embedded with `include_str!`
//! and served as they are (no build step): the script is ES modules by screen
//! (`app.js` the entry and the room, `feed.js`, `rolls.js`, `checks.js`,
//! `characters.js` (the character form, its weapons and armour as rows that
//! write the sheet's TOML), `setup.js` (a fight set up by picking, drawing
//! and dragging; it writes the TOML the page sends), `fights.js`, `play.js`
//! (a fight played by its players: every decision awaited, a box for each of
//! the member's own from the server's `GET`, the targets it names marked,
//! each step's moves walked square by square along the squares its log lines
//! name, every decision made by keyboard too, costs and ways as the server
//! gives them, never computed in the page; the questions a member asked not
//! to be asked answered with the engine's default; the optional follow-ups
//! (timing, aim, advance) offered in the box of the question they follow, the
//! pick kept and sent when the server asks them if it is among the options
//! offered; one's own token dragged to a square), `tracker.js` (the play
//! view's turn tracker: every combatant with its side's colour, health, set
//! action, controller and place in the turn, the GM's hand-over in its rows),
//! `map.js`, `toml.js` (reads and writes the TOML of sheets, sides and maps
//! for showing and setting up only: the server checks everything it is sent),
//! `verify.js`, over `shared.js`), each opening with what it owns, each a
//! file of `web::FILES` (a test checks that every import is served); the
//! example fights it offers (`/web/scenarios.json`: the example sides and
//! battle maps) and the rules' DC descriptors for the check form
//! (`/web/rulesets.json`, from `nutshell_rules`); the page talks only to the
//! JSON API and the event stream

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;

/// Only the server's own origin: no CDN, font or analytics request leaves.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /`: the page.
pub async fn index() -> impl IntoResponse {
    asset(
        "text/html; charset=utf-8",
        include_str!("../web/index.html"),
    )
}

/// The page's files under `/web/`, served as they are (no build step): the
/// style sheet, the icon, and the script as ES modules, one a screen of the
/// page (each says at its top what it owns). `index.html` loads `app.js`,
/// which imports the rest; `script-src 'self'` allows every one.
pub const FILES: [(&str, &str, &str); 15] = [
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    ),
    (
        "shared.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/shared.js"),
    ),
    (
        "feed.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/feed.js"),
    ),
    (
        "rolls.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/rolls.js"),
    ),
    (
        "checks.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/checks.js"),
    ),
    (
        "characters.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/characters.js"),
    ),
    (
        "fights.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/fights.js"),
    ),
    (
        "map.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/map.js"),
    ),
    (
        "play.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/play.js"),
    ),
    (
        "tracker.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/tracker.js"),
    ),
    (
        "setup.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/setup.js"),
    ),
    (
        "toml.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/toml.js"),
    ),
    (
        "verify.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/verify.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    ("icon.svg", "image/svg+xml", include_str!("../web/icon.svg")),
];

/// `GET /web/{file}`: one of [`FILES`] (`scenarios.json` is built by
/// [`scenarios`], `rulesets.json` by [`rulesets`]); any other name is 404.
pub async fn file(Path(name): Path<String>) -> axum::response::Response {
    if name == "scenarios.json" {
        return scenarios().await.into_response();
    }
    if name == "rulesets.json" {
        return json_asset(rulesets().to_string()).into_response();
    }
    match FILES.iter().find(|(file, _, _)| *file == name) {
        Some((_, content_type, body)) => asset(content_type, body).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// What the check form offers that the rules define (`GET
/// /web/rulesets.json`): each ruleset's DC descriptors, from the rules
/// crate (only `fantasy` has them, RULING F-1), as `{"fantasy":
/// {"dc_descriptors": [{"name": "laughable", "dc": 0}, ...]}}`.
pub fn rulesets() -> serde_json::Value {
    let descriptors: Vec<serde_json::Value> = nutshell_rules::fantasy::DESCRIPTORS
        .iter()
        .map(|(name, dc)| serde_json::json!({"name": name, "dc": dc}))
        .collect();
    serde_json::json!({ nutshell_rules::fantasy::ID: {"dc_descriptors": descriptors} })
}

fn json_asset(body: String) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /favicon.ico`: browsers ask for it whatever the page says; it is
/// the SVG icon the page names.
pub async fn favicon() -> impl IntoResponse {
    asset("image/svg+xml", include_str!("../web/icon.svg"))
}

/// The example fights the page offers (the project's example sides and
/// battle maps, `examples/mls/`): each its name, the two sides' TOML and
/// its map's TOML (none: on a line).
const SCENARIOS: [(&str, &str, &str, Option<&str>); 5] = [
    (
        "Duel at the guardroom door (corridor map)",
        include_str!("../../../examples/mls/duel/knight.toml"),
        include_str!("../../../examples/mls/duel/brigand.toml"),
        Some(include_str!("../../../examples/mls/maps/corridor.toml")),
    ),
    (
        "Duel in the crypt (crypt map)",
        include_str!("../../../examples/mls/duel/knight.toml"),
        include_str!("../../../examples/mls/duel/brigand.toml"),
        Some(include_str!("../../../examples/mls/maps/crypt.toml")),
    ),
    (
        "Skirmish at the crossroads (crossroads map)",
        include_str!("../../../examples/mls/skirmish/party.toml"),
        include_str!("../../../examples/mls/skirmish/goblins.toml"),
        Some(include_str!("../../../examples/mls/maps/crossroads.toml")),
    ),
    (
        "Archers in the pillared hall (pillars map)",
        include_str!("../../../examples/mls/archers/left.toml"),
        include_str!("../../../examples/mls/archers/right.toml"),
        Some(include_str!("../../../examples/mls/maps/pillars.toml")),
    ),
    (
        "Duel on a line, 3 squares apart (no map)",
        include_str!("../../../examples/mls/duel/knight.toml"),
        include_str!("../../../examples/mls/duel/brigand.toml"),
        None,
    ),
];

/// `GET /web/scenarios.json`: [`SCENARIOS`] as `[{"name", "a", "b", "map",
/// "distance"}]`.
pub async fn scenarios() -> impl IntoResponse {
    let list: Vec<serde_json::Value> = SCENARIOS
        .iter()
        .map(|(name, a, b, map)| {
            let distance = if map.is_some() { 1 } else { 3 };
            serde_json::json!({"name": name, "a": a, "b": b, "map": map, "distance": distance})
        })
        .collect();
    json_asset(serde_json::Value::Array(list).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every module a served script imports is served too, and every
    /// script served is imported by one (or is the entry `index.html`
    /// loads): no build step stands between the files and the browser.
    #[test]
    fn every_imported_module_is_served() {
        let served: Vec<&str> = FILES.iter().map(|(name, _, _)| *name).collect();
        let mut imported = vec!["app.js".to_string()];
        for (name, _, body) in FILES {
            if !name.ends_with(".js") {
                continue;
            }
            assert!(
                body.starts_with(&format!("// {name}: ")),
                "{name} opens with what it owns"
            );
            for line in body.lines().filter(|l| l.starts_with("import ")) {
                let from = line.rsplit('"').nth(1).expect("an import names its file");
                let file = from.strip_prefix("./").expect("imports are relative");
                assert!(
                    served.contains(&file),
                    "{name} imports {file}, which is not served"
                );
                imported.push(file.to_string());
            }
        }
        for name in served.iter().filter(|n| n.ends_with(".js")) {
            assert!(
                imported.iter().any(|i| i == name),
                "{name} is served but never imported"
            );
        }
        let index = include_str!("../web/index.html");
        assert!(index.contains(r#"<script type="module" src="/web/app.js">"#));
        assert!(index.contains(r#"<link rel="icon" href="/web/icon.svg" type="image/svg+xml">"#));
    }

    /// Every example the page offers is a fight the server starts (the
    /// map places everyone in the sides).
    #[test]
    fn every_offered_scenario_builds() {
        for (name, a, b, map) in SCENARIOS {
            let request = crate::fight::FightRequest {
                a: a.to_string(),
                b: b.to_string(),
                distance: if map.is_some() { 1 } else { 3 },
                surprised: None,
                max_turns: 100,
                map: map.map(str::to_string),
            };
            let fight = request.build().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(fight.map_at_start().is_some(), map.is_some(), "{name}");
        }
    }
}
