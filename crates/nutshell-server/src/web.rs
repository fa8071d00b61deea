//! The web table's static files, embedded in the binary (`web/` beside
//! `src/`), so `nutshell serve` alone serves the page. The page uses only
//! the JSON API and the event stream.

use axum::http::header;
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

/// `GET /web/app.js`.
pub async fn script() -> impl IntoResponse {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    )
}

/// `GET /web/style.css`.
pub async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", include_str!("../web/style.css"))
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
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        serde_json::Value::Array(list).to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
