//! The router on top: every route to its handler (one module per resource
//! under `api/`), the request timeout, logging and the rewriting of the
//! framework's own errors into the API's JSON shape. The handlers' state,
//! errors and extractors are below it (`state`, `error`, `extract`).

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::api;
use crate::error::{ApiError, MAX_BODY_BYTES, too_large, unsupported_media_type};
use crate::state::AppState;

/// The whole API.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/", get(crate::web::index))
        .route("/web/{file}", get(crate::web::file))
        .route("/favicon.ico", get(crate::web::favicon))
        .route("/api/openapi.json", get(api::openapi))
        .route("/api/health", get(api::health))
        .route("/health", get(api::health))
        .route("/api/rooms", post(api::rooms::create))
        .route("/api/rooms/{room}", get(api::rooms::show))
        .route("/api/rooms/{room}/join", post(api::rooms::join))
        .route("/api/rooms/{room}/rolls", post(api::rolls::roll))
        .route(
            "/api/rooms/{room}/rolls/{seq}/reveal",
            post(api::rolls::show),
        )
        .route("/api/rooms/{room}/reveal", post(api::rolls::reveal))
        .route("/api/rooms/{room}/checks", post(api::checks::check))
        .route("/api/rooms/{room}/contests", post(api::checks::contest))
        .route("/api/rooms/{room}/fights", post(api::fights::create))
        .route("/api/rooms/{room}/simulate", post(api::simulate::simulate))
        .route(
            "/api/rooms/{room}/fights/{fight}/step",
            post(api::fights::step_route),
        )
        .route("/api/rooms/{room}/fights/{fight}", get(api::played::show))
        .route(
            "/api/rooms/{room}/fights/{fight}/decisions",
            post(api::played::decide),
        )
        .route(
            "/api/rooms/{room}/fights/{fight}/control",
            post(api::played::control),
        )
        .route(
            "/api/rooms/{room}/sheets",
            post(api::sheets::create).get(api::sheets::list),
        )
        .route("/api/rooms/{room}/sheets/check", post(api::sheets::check))
        .route(
            "/api/rooms/{room}/sheets/{sheet}/advance",
            post(api::sheets::advance),
        )
        .route("/api/rooms/{room}/odds", post(api::odds::odds))
        .route("/api/rooms/{room}/log", get(api::log::log))
        .route("/api/rooms/{room}/events", get(api::log::events))
        .route("/discord/interactions", post(crate::discord::interactions))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // A request must be read and answered (its head; a stream goes on)
        // within the timeout: 408 otherwise, and its work is dropped. The
        // body must also keep coming: a pause of the same length between
        // two of its pieces ends it.
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            state.request_timeout,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            state.request_timeout,
        ))
        .layer(
            tower_http::trace::TraceLayer::new_for_http().make_span_with(|request: &Request| {
                // The path as the log shows it: never a key (`RUST_LOG=debug`
                // shows this span; headers are not shown).
                tracing::debug_span!(
                    "request",
                    method = %request.method(),
                    path = %shown_path(request.uri()),
                )
            }),
        )
        .with_state(state);
    // Around the whole router rather than each route, so they see its final
    // answers (a 405's `Allow` header is added after the route's layers).
    Router::new()
        .fallback_service(api)
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::from_fn(log_request))
}

/// Logs one line per request at `info`: method, path (a `key` in the query
/// is blanked out), status and the time to the answer's head.
async fn log_request(request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let path = shown_path(request.uri());
    let response = next.run(request).await;
    tracing::info!(
        "{method} {path} {} {:.1} ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

/// A request's path and query for the log, the value of `key=` (a member's
/// key, for clients that cannot send headers) replaced by `…`.
fn shown_path(uri: &axum::http::Uri) -> String {
    let path = uri.path();
    match uri.query() {
        None => path.to_string(),
        Some(query) => {
            let query: Vec<&str> = query
                .split('&')
                .map(|pair| {
                    if pair.starts_with("key=") {
                        "key=…"
                    } else {
                        pair
                    }
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
    }
}

/// Makes every error answer JSON in the API's shape: the ones the handlers
/// give already are; the router's and the framework's own (405 for a method
/// a route does not take, a rejected query or path, a body over the limit)
/// come as text or empty and are rewritten here with the same status (a
/// 422 of the framework's becomes 400: every bad input is 400).
async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let allow = parts
        .headers
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let error = match status {
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            status,
            "method_not_allowed",
            format!("{path} does not take {method}; it takes {allow}"),
        ),
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        StatusCode::REQUEST_TIMEOUT => ApiError::new(
            status,
            "timeout",
            "the request was not sent and answered in time: send it again (a long job: ask for less)",
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => unsupported_media_type(),
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
            ApiError::bad_request("bad_request", or_reason(text, status))
        }
        StatusCode::NOT_FOUND => ApiError::not_found(or_reason(text, status)),
        _ if status.is_server_error() => ApiError::new(status, "internal", or_reason(text, status)),
        _ => ApiError::new(status, "error", or_reason(text, status)),
    };
    let mut answer = error.into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

fn or_reason(text: String, status: StatusCode) -> String {
    if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    /// Every route the router serves is described in `openapi.json`.
    #[test]
    fn every_route_is_in_the_openapi_description() {
        let description: serde_json::Value =
            serde_json::from_str(include_str!("openapi.json")).expect("openapi.json is JSON");
        let paths = description["paths"].as_object().expect("paths");
        let source = include_str!("app.rs");
        let routes: Vec<&str> = source
            .split(".route(")
            .skip(1)
            .filter_map(|rest| rest.trim_start().strip_prefix('"')?.split('"').next())
            .filter(|route| route.starts_with("/api/"))
            .collect();
        assert!(routes.len() >= 12, "{routes:?}");
        for route in routes {
            assert!(paths.contains_key(route), "{route} is not in openapi.json");
        }
    }
}
