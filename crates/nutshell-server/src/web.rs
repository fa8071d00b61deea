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
