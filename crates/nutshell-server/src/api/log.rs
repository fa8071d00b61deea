//! The room's log as JSON lines and its live stream as server-sent events.

use std::convert::Infallible;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;

use crate::error::ApiError;
use crate::extract::InRoom;
use crate::state::AppState;

/// `?after=SEQ`: only events after this sequence number.
#[derive(Debug, Deserialize)]
pub struct After {
    #[serde(default)]
    pub after: Option<i64>,
    /// The key, for clients that cannot send headers (read by the extractor).
    #[serde(default)]
    pub key: Option<String>,
}

/// Events an export reads from the database at a time: an export holds at
/// most this many events in memory (each at most the store's
/// `max_event_bytes`), whatever the room's size, and takes a database
/// connection only while it reads a page.
pub const EXPORT_PAGE: i64 = 32;

/// `GET /api/rooms/{room}/log`: every event after `after`, one JSON object a
/// line, as the caller may see them. The GM's export verifies completely with
/// `nutshell verify`; a player's verifies everything but the faces of secret
/// rolls not yet revealed. Streamed: read from the database a page
/// ([`EXPORT_PAGE`] events) at a time as the client takes it. A database
/// failure after the first page ends the answer early (its chunked encoding
/// unfinished, so the client sees a broken transfer, never a short log).
pub async fn log(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    after: Result<Query<After>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(after) = after?;
    let after = after.after.unwrap_or(0);
    // The first page is read before the answer starts, so a database that
    // is down is a clean 503.
    let first = crate::events::page(&state.store, &state.render, &me, after, EXPORT_PAGE)
        .await
        .map_err(page_error)?;
    let pages = futures_util::stream::unfold(
        (Some(first), after, state, me),
        |(page, last, state, me)| async move {
            let page = match page {
                Some(page) => page,
                None => {
                    match crate::events::page(&state.store, &state.render, &me, last, EXPORT_PAGE)
                        .await
                    {
                        Ok(page) => page,
                        Err(error) => {
                            tracing::warn!(%error, "an export stopped");
                            let error =
                                std::io::Error::other("the log could not be read to its end");
                            // An empty page next: the stream ends after the error.
                            return Some((Err(error), (Some(Vec::new()), last, state, me)));
                        }
                    }
                }
            };
            let (last, text) = match page.last() {
                None => return None,
                Some((seq, _)) => {
                    let mut text = String::new();
                    for (_, line) in &page {
                        text.push_str(line);
                        text.push('\n');
                    }
                    (*seq, text)
                }
            };
            Some((Ok(bytes::Bytes::from(text)), (None, last, state, me)))
        },
    );
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::from_stream(pages),
    ))
}

/// A page that could not be read, as the API answers it.
fn page_error(error: crate::events::PageError) -> ApiError {
    match error {
        crate::events::PageError::Store(error) => error.into(),
        crate::events::PageError::Busy(busy) => busy.into(),
    }
}

/// `GET /api/rooms/{room}/events`: server-sent events, one per log event
/// (`id` = sequence number, `data` = the event as the caller may see it).
/// A client that reconnects with `Last-Event-ID` (or `?after=`) gets exactly
/// what it missed, from the log, then the live events.
pub async fn events(
    State(state): State<AppState>,
    InRoom(me): InRoom,
    after: Result<Query<After>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let Query(after) = after?;
    let from_header = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.trim().parse::<i64>().map_err(|_| {
                ApiError::bad_request(
                    "bad_last_event_id",
                    format!("Last-Event-ID `{v}` is not a sequence number"),
                )
            })
        })
        .transpose()?;
    let start = from_header.or(after.after).unwrap_or(0);
    let receiver = state
        .hub
        .stream(state.store.clone(), state.render.clone(), me, start);
    let stream = tokio_stream::wrappers::ReceiverStream::new(receiver);
    let stream = futures_util::StreamExt::map(stream, |(seq, line)| {
        Ok(SseEvent::default().id(seq.to_string()).data(line))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
