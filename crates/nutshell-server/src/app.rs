//! The router, its shared state, authentication and errors. One module per
//! resource under `api/` holds the handlers.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use nutshell_dice::Limits;
use serde_json::json;

use crate::api;
use crate::events::Hub;
use crate::fair;
use crate::store::{Member, Role, Store, StoreError};

/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub hub: Arc<Hub>,
    /// The engine's limits for rolls and exact odds: no request can tie the
    /// server up for longer than `max_work` allows.
    pub limits: Limits,
    /// Requests per member key, and per address for what needs no key.
    pub rate: Arc<crate::rate::RateLimit>,
    /// Fights between steps.
    pub fights: Arc<api::fights::Cache>,
    /// How large an odds answer may be.
    pub answer: api::odds::AnswerLimits,
    /// Long work (odds, simulations), fair between rooms.
    pub pool: Arc<crate::work::WorkPool>,
    /// Rendering pages of the log for exports and event streams, off the
    /// threads that answer requests.
    pub render: Arc<crate::work::WorkPool>,
    /// How long a request may take from its head to its answer's head
    /// (reading its body included).
    pub request_timeout: std::time::Duration,
    /// Discord's interactions endpoint, when the server answers Discord
    /// (`--discord-public-key`).
    pub discord: Option<Arc<crate::discord::Discord>>,
}

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

/// 413 `too_large`: a body over [`MAX_BODY_BYTES`].
fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("the body is over {MAX_BODY_BYTES} bytes, the most a request may send"),
    )
}

/// 415 `unsupported_media_type`: a body sent without `Content-Type:
/// application/json`.
fn unsupported_media_type() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        "send the body as JSON, with `Content-Type: application/json`",
    )
}

/// An error as the API answers it: a status and
/// `{"error": {"code": "...", "message": "..."}}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Seconds for a `Retry-After` header (429).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<StoreError> for ApiError {
    /// A database that cannot be reached, or does not answer in time, is a
    /// 503 with `Retry-After` (the server reconnects by itself); a room over
    /// a quota is 403 `room_full`, an event over the size limit 413; any
    /// other store failure is a 500. The database's own words are logged,
    /// never answered: they can name the database, its tables and its host.
    fn from(error: StoreError) -> ApiError {
        match &error {
            StoreError::NameTaken(_) => {
                return ApiError::new(StatusCode::CONFLICT, "name_taken", error.to_string());
            }
            StoreError::Quota(_) => {
                return ApiError::new(StatusCode::FORBIDDEN, "room_full", error.to_string());
            }
            StoreError::TooLarge { .. } => {
                return ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "event_too_large",
                    error.to_string(),
                );
            }
            _ => {}
        }
        if error.is_unavailable() {
            tracing::warn!(%error, "database unavailable");
            let mut answer = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                error.unavailable_message(),
            );
            answer.retry_after = Some(1);
            return answer;
        }
        tracing::error!(%error, "database failure");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "store",
            "the database failed; nothing was written (the server's log has the details)",
        )
    }
}

impl From<crate::work::Busy> for ApiError {
    /// A room with its share of the pool for long work: 429 `busy`; a full
    /// pool or a stopping server: 503 `busy`; both with `Retry-After: 1`.
    fn from(busy: crate::work::Busy) -> ApiError {
        let status = match busy {
            crate::work::Busy::Room(_) => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::SERVICE_UNAVAILABLE,
        };
        let mut error = ApiError::new(status, "busy", busy.to_string());
        error.retry_after = Some(1);
        error
    }
}

/// 429 `rate_limited` with `Retry-After`: `what` says whose limit it is.
fn rate_limited(what: &str, wait: std::time::Duration) -> ApiError {
    let mut error = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("too many {what}: try again in {} s", wait.as_secs()),
    );
    error.retry_after = Some(wait.as_secs());
    error
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    /// A body that is not JSON, or not the JSON the route takes (a missing
    /// or mistyped field), is 400 `bad_json`; a body over the limit 413
    /// `too_large`; one without a JSON content type 415.
    fn from(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => unsupported_media_type(),
            StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
                ApiError::bad_request("bad_json", rejection.body_text())
            }
            status => ApiError::new(status, "bad_body", rejection.body_text()),
        }
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    /// A query string that does not parse (`?after=abc`): 400 `bad_query`.
    fn from(rejection: axum::extract::rejection::QueryRejection) -> ApiError {
        ApiError::bad_request("bad_query", rejection.body_text())
    }
}

/// The member a request's key names: `Authorization: Bearer KEY`, or
/// `?key=KEY` for clients that cannot set headers (a browser's EventSource).
/// Missing or unknown keys are refused with 401.
pub struct Caller(pub Member);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        // The scheme's name is case-insensitive (RFC 9110): `bearer` too.
        let from_header = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().split_once([' ', '\t']))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, key)| key.trim().to_string());
        let from_query = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("key="))
                .map(str::to_string)
        });
        let Some(key) = from_header.or(from_query) else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "no_key",
                "this needs a key: send `Authorization: Bearer KEY`",
            ));
        };
        let key_hash = fair::sha256_hex(key.as_bytes());
        // A key this process knows costs no database look-up; any other
        // (a wrong key, or a member's first request since the start) is
        // charged to the client's address before it is looked up, so made-up
        // keys are limited like everything else and never get a bucket.
        let member = match state.store.member_in_memory(&key_hash) {
            Some(member) => member,
            None => {
                if let Some(address) = ClientAddress::of(parts) {
                    state.rate.lookup(address).map_err(|wait| {
                        rate_limited(
                            "requests with keys this server does not know from this address",
                            wait,
                        )
                    })?;
                }
                state.store.member_by_key(&key_hash).await?.ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNAUTHORIZED,
                        "bad_key",
                        "this key belongs to no member of any room",
                    )
                })?
            }
        };
        state
            .rate
            .key(&key_hash)
            .map_err(|wait| rate_limited("requests with this key", wait))?;
        Ok(Caller(member))
    }
}

/// A caller checked against the room in the path: a key of another room is
/// refused with 403.
pub struct InRoom(pub Member);

impl FromRequestParts<AppState> for InRoom {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Path(params) =
            Path::<std::collections::HashMap<String, String>>::from_request_parts(parts, state)
                .await
                .map_err(|e| ApiError::bad_request("bad_path", e.body_text()))?;
        let room = params.get("room").cloned().unwrap_or_default();
        let Caller(member) = Caller::from_request_parts(parts, state).await?;
        if member.room != room {
            return Err(ApiError::forbidden("this key is for another room"));
        }
        Ok(InRoom(member))
    }
}

/// A caller who is the room's GM (403 for a player).
pub struct Gm(pub Member);

impl FromRequestParts<AppState> for Gm {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let InRoom(member) = InRoom::from_request_parts(parts, state).await?;
        if member.role != Role::Gm {
            return Err(ApiError::forbidden("only the room's GM may do this"));
        }
        Ok(Gm(member))
    }
}

/// The client's address, when the server runs with connect info (`nutshell
/// serve` does; a router served without it has none, and no address limit).
pub struct ClientAddress(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress(ClientAddress::of(parts)))
    }
}

impl ClientAddress {
    /// The address a request came from, if the server knows it.
    pub fn of(parts: &Parts) -> Option<std::net::IpAddr> {
        parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|info| info.0.ip())
    }

    /// Creating a room (it needs no key) is limited by the address it comes
    /// from. Behind a reverse proxy every client has the proxy's address:
    /// limit at the proxy then (`--rate-limit 0` turns the server's limits
    /// off).
    pub fn limit_rooms(&self, state: &AppState) -> Result<(), ApiError> {
        match self.0 {
            Some(address) => state
                .rate
                .room(address)
                .map_err(|wait| rate_limited("rooms created from this address", wait)),
            None => Ok(()),
        }
    }

    /// Joining is limited by the address (and, once the invite is found
    /// good, by the room: [`limit_room_joins`]).
    pub fn limit_joins(&self, state: &AppState) -> Result<(), ApiError> {
        match self.0 {
            Some(address) => state
                .rate
                .join(address)
                .map_err(|wait| rate_limited("joins from this address", wait)),
            None => Ok(()),
        }
    }
}

/// Joins of one room, whatever their addresses; charged only for a good
/// invite, so a stranger who knows the room's id cannot use up its joins.
pub fn limit_room_joins(state: &AppState, room: &str) -> Result<(), ApiError> {
    state
        .rate
        .join_room(room)
        .map_err(|wait| rate_limited("joins of this room", wait))
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
