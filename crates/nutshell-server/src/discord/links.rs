//! Where Discord meets the table: the room each channel plays in
//! (`discord_channels`), and the member each Discord user is in a room
//! (`discord_members`, with the member's key, which `/verify` hands to that
//! user alone). Rooms and members themselves are the store's: a channel's
//! room is made by the rooms route, a user joins as any player does.

use sqlx::Row;

use crate::store::{Store, StoreError, Within};

/// The room `channel` plays in, if it has one.
pub async fn room_of(store: &Store, channel: &str) -> Result<Option<String>, StoreError> {
    let (pool, timeout) = store.pool_within();
    let row = sqlx::query("SELECT room FROM discord_channels WHERE channel = $1")
        .bind(channel)
        .fetch_optional(pool)
        .within(timeout)
        .await?;
    Ok(row.map(|row| row.try_get("room")).transpose()?)
}

/// Ties `channel` to `room`: replacing its room when `replace`, else only if
/// it has none (then whether this call tied it: of two first commands sent at
/// once, one room wins).
pub async fn tie(
    store: &Store,
    channel: &str,
    room: &str,
    replace: bool,
) -> Result<bool, StoreError> {
    let (pool, timeout) = store.pool_within();
    let statement = if replace {
        "INSERT INTO discord_channels (channel, room, linked_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (channel) DO UPDATE SET room = excluded.room, linked_ms = excluded.linked_ms"
    } else {
        "INSERT INTO discord_channels (channel, room, linked_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (channel) DO NOTHING"
    };
    let done = sqlx::query(statement)
        .bind(channel)
        .bind(room)
        .bind(crate::store::now_ms())
        .execute(pool)
        .within(timeout)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The member `user` is in `room`, and their key, if they have a seat.
pub async fn seat_of(
    store: &Store,
    room: &str,
    user: &str,
) -> Result<Option<(i64, String)>, StoreError> {
    let (pool, timeout) = store.pool_within();
    let row = sqlx::query(
        "SELECT member, member_key FROM discord_members WHERE room = $1 AND user_id = $2",
    )
    .bind(room)
    .bind(user)
    .fetch_optional(pool)
    .within(timeout)
    .await?;
    Ok(row
        .map(|row| -> Result<(i64, String), sqlx::Error> {
            Ok((row.try_get("member")?, row.try_get("member_key")?))
        })
        .transpose()?)
}

/// Seats `user` in `room` as `member` with `key` (a GM who links their room
/// takes the GM's seat, replacing any seat they had).
pub async fn seat(
    store: &Store,
    room: &str,
    user: &str,
    member: i64,
    key: &str,
) -> Result<(), StoreError> {
    let (pool, timeout) = store.pool_within();
    sqlx::query(
        "INSERT INTO discord_members (room, user_id, member, member_key) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (room, user_id) DO UPDATE SET member = excluded.member, member_key = excluded.member_key",
    )
    .bind(room)
    .bind(user)
    .bind(member)
    .bind(key)
    .execute(pool)
    .within(timeout)
    .await?;
    Ok(())
}
