//! The API's error: [`ApiError`], a status and `{"error": {"code", "message"}}`,
//! and what each failure below the handlers (the store, the pool for long
//! work, a rejected body or query, a rate limit) answers as. Every error the
//! API gives is one of these: nothing here knows the routes.

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::store::StoreError;

/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// 413 `too_large`: a body over [`MAX_BODY_BYTES`].
pub(crate) fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("the body is over {MAX_BODY_BYTES} bytes, the most a request may send"),
    )
}

/// 415 `unsupported_media_type`: a body sent without `Content-Type:
/// application/json`.
pub(crate) fn unsupported_media_type() -> ApiError {
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
pub(crate) fn rate_limited(what: &str, wait: std::time::Duration) -> ApiError {
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
