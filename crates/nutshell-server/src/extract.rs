//! Who is asking: the extractors a handler names to get the member its
//! request's key belongs to ([`Caller`]), checked against the room in the
//! path ([`InRoom`]) or as its GM ([`Gm`]), and the client's address
//! ([`ClientAddress`]) with the address and room limits it is charged to.
//! A request is refused here before its handler runs.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};

use crate::error::{ApiError, rate_limited};
use crate::fair;
use crate::state::AppState;
use crate::store::{Member, Role};

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
