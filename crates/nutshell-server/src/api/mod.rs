//! The handlers, one module per resource.

pub mod checks;
pub mod fights;
pub mod log;
pub mod odds;
pub mod rolls;
pub mod rooms;
pub mod sheets;
pub mod simulate;

use axum::http::header;
use axum::response::IntoResponse;

use crate::app::ApiError;

/// The OpenAPI description of every route.
pub async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("../openapi.json"),
    )
}

/// `{"ok": true, "version": "..."}`: the server is up.
pub async fn health() -> impl IntoResponse {
    axum::Json(serde_json::json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}))
}

/// Every unknown route.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such route: see /api/openapi.json")
}

/// Checks a display name: 1 to 64 characters after trimming, no control
/// characters.
pub(crate) fn display_name(name: &str, field: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "bad_name",
            format!("`{field}` must be 1 to 64 characters without control characters"),
        ));
    }
    Ok(name.to_string())
}

/// An event's number in a path (`/fights/{fight}/step`), or a JSON error
/// naming the segment.
pub(crate) fn seq_param(text: &str, what: &str) -> Result<i64, ApiError> {
    text.parse::<i64>().map_err(|_| {
        ApiError::bad_request(
            "bad_path",
            format!("`{text}` is not a {what} number (the sequence number of its event)"),
        )
    })
}
