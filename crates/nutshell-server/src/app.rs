//! The router, its shared state, authentication and errors. One module per
//! resource under `api/` holds the handlers.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
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
    /// Requests per member key.
    pub rate: Arc<crate::rate::RateLimit>,
    /// Fights between steps.
    pub fights: Arc<api::fights::Cache>,
}

/// The whole API.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(crate::web::index))
        .route("/web/app.js", get(crate::web::script))
        .route("/web/style.css", get(crate::web::style))
        .route("/web/scenarios.json", get(crate::web::scenarios))
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
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
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
    /// A database that cannot be reached is a 503 with `Retry-After` (the
    /// server reconnects by itself); any other store failure is a 500.
    fn from(error: StoreError) -> ApiError {
        if let StoreError::NameTaken(_) = error {
            return ApiError::new(StatusCode::CONFLICT, "name_taken", error.to_string());
        }
        if error.is_unavailable() {
            let mut answer = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                format!("the database cannot be reached; nothing was written: {error}"),
            );
            answer.retry_after = Some(1);
            return answer;
        }
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "store",
            error.to_string(),
        )
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
        ApiError::new(rejection.status(), "bad_json", rejection.body_text())
    }
}

/// The member a request's key names: `Authorization: Bearer KEY`, or
/// `?key=KEY` for clients that cannot set headers (a browser's EventSource).
/// Missing or unknown keys are refused with 401.
pub struct Caller(pub Member);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let from_header = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .map(str::to_string);
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
        if let Err(wait) = state.rate.check(&key_hash) {
            let mut error = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "too many requests with this key: try again in {} s",
                    wait.as_secs()
                ),
            );
            error.retry_after = Some(wait.as_secs());
            return Err(error);
        }
        match state.store.member_by_key(&key_hash).await? {
            Some(member) => Ok(Caller(member)),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "bad_key",
                "this key belongs to no member of any room",
            )),
        }
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
        Ok(ClientAddress(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|info| info.0.ip()),
        ))
    }
}

impl ClientAddress {
    /// Takes a token from the address's bucket (the same rate as a key's):
    /// creating rooms and joining need no key, so they are limited by the
    /// address they come from. Behind a reverse proxy every client has the
    /// proxy's address: limit at the proxy then (`--rate-limit 0` turns both
    /// limits off).
    pub fn limit(&self, state: &AppState) -> Result<(), ApiError> {
        let Some(address) = self.0 else {
            return Ok(());
        };
        state
            .rate
            .check(&format!("address {address}"))
            .map_err(|wait| {
                let mut error = ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!(
                        "too many rooms created or joined from this address: try again in {} s",
                        wait.as_secs()
                    ),
                );
                error.retry_after = Some(wait.as_secs());
                error
            })
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
