//! Each slash command, a thin call into the server's own routes: the
//! caller's seat (their channel's room, made on its first command, and
//! their member in it, joined on their first command), then the route's
//! handler with the options as its body, then [`super::text`] for what
//! Discord shows. A refusal of any kind is answered to the caller alone.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Map, Value, json};

use super::{Discord, Interaction, Reply, User, links, text};
use crate::api;
use crate::error::ApiError;
use crate::extract::{ClientAddress, Gm, InRoom};
use crate::fair;
use crate::state::AppState;
use crate::store::{Draft, Member, Role, StoreError};

/// Whether a command's answer is for its caller alone (decided before it
/// runs: a deferred answer keeps the first answer's flags).
pub(super) fn is_private(interaction: &Interaction) -> bool {
    let Some(data) = &interaction.data else {
        return true;
    };
    match data.name.as_str() {
        "verify" => true,
        "roll" => values(&data.options)
            .get("secret")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        "table" => data.options.first().is_some_and(|sub| sub.name == "link"),
        _ => false,
    }
}

/// Runs a command and says what to show.
pub(super) async fn command(
    state: AppState,
    discord: Arc<Discord>,
    interaction: Interaction,
    base: String,
) -> Reply {
    match dispatch(&state, &discord, &interaction, &base).await {
        Ok(reply) => reply,
        Err(reply) => reply,
    }
}

/// A refusal, to the caller alone.
fn refused(error: ApiError) -> Reply {
    Reply::private(text::refusal(&error.message))
}

fn store_failed(error: StoreError) -> Reply {
    refused(error.into())
}

fn say(message: &str) -> Reply {
    Reply::private(text::refusal(message))
}

/// The options' values by name.
fn values(options: &[super::CommandOption]) -> Map<String, Value> {
    options
        .iter()
        .filter_map(|o| o.value.clone().map(|v| (o.name.clone(), v)))
        .collect()
}

/// The client seed of the dice: the interaction's id, which Discord
/// chooses, not the server.
fn client_seed(interaction: &Interaction) -> String {
    format!("discord:{}", interaction.id)
}

async fn dispatch(
    state: &AppState,
    discord: &Discord,
    interaction: &Interaction,
    base: &str,
) -> Result<Reply, Reply> {
    let data = interaction
        .data
        .as_ref()
        .ok_or_else(|| say("the interaction names no command"))?;
    let user = interaction
        .user()
        .ok_or_else(|| say("the interaction names no user"))?;
    let channel = interaction
        .channel_id
        .as_deref()
        .ok_or_else(|| say("the interaction names no channel"))?;
    // Per channel and per user, with the buckets of member keys.
    state
        .rate
        .key(&format!("discord-channel:{channel}"))
        .map_err(|wait| {
            say(&format!(
                "too many commands in this channel: try again in {} s",
                wait.as_secs()
            ))
        })?;
    state
        .rate
        .key(&format!("discord-user:{}", user.id))
        .map_err(|wait| {
            say(&format!(
                "too many commands from you: try again in {} s",
                wait.as_secs()
            ))
        })?;
    let options = values(&data.options);
    if data.name == "table" && data.options.first().is_some_and(|s| s.name == "link") {
        let link = values(&data.options[0].options);
        return link_table(state, channel, user, &link).await;
    }
    let (me, key) = seat(state, discord, interaction, channel, user).await?;
    let name = interaction.shown_name();
    match data.name.as_str() {
        "roll" => roll(state, interaction, me, &name, &options).await,
        "odds" => odds(state, me, &options).await,
        "check" | "contest" => rules(state, interaction, me, &name, &data.name, data).await,
        "verify" => verify(state, &me, &key, base).await,
        "table" => {
            let sub = data.options.first().map(|s| s.name.as_str()).unwrap_or("");
            let inner = data
                .options
                .first()
                .map(|s| values(&s.options))
                .unwrap_or_default();
            table(state, me, sub, &inner).await
        }
        other => Err(say(&format!("nutshell has no command /{other}"))),
    }
}

/// The caller's member in their channel's room, and its key.
async fn seat(
    state: &AppState,
    discord: &Discord,
    interaction: &Interaction,
    channel: &str,
    user: &User,
) -> Result<(Member, String), Reply> {
    let room = match links::room_of(&state.store, channel)
        .await
        .map_err(store_failed)?
    {
        Some(room) => room,
        None => new_room(state, discord, interaction, channel, user).await?,
    };
    if let Some(seated) = seated(state, &room, user).await? {
        return Ok(seated);
    }
    join(state, &room, interaction, user).await
}

/// The member `user` already is in `room`, if any.
async fn seated(
    state: &AppState,
    room: &str,
    user: &User,
) -> Result<Option<(Member, String)>, Reply> {
    let Some((_, key)) = links::seat_of(&state.store, room, &user.id)
        .await
        .map_err(store_failed)?
    else {
        return Ok(None);
    };
    let member = state
        .store
        .member_by_key(&fair::sha256_hex(key.as_bytes()))
        .await
        .map_err(store_failed)?
        .ok_or_else(|| say("your seat in this room is gone: ask the GM"))?;
    Ok(Some((member, key)))
}

/// A room for a channel's first command, made by the rooms route, its
/// caller seated as its GM.
async fn new_room(
    state: &AppState,
    discord: &Discord,
    interaction: &Interaction,
    channel: &str,
    user: &User,
) -> Result<String, Reply> {
    let _one_at_a_time = discord.creating.lock().await;
    if let Some(room) = links::room_of(&state.store, channel)
        .await
        .map_err(store_failed)?
    {
        return Ok(room);
    }
    let name = interaction
        .channel
        .as_ref()
        .and_then(|c| c.name.as_ref())
        .map(|n| format!("#{n}"))
        .filter(|n| api::display_name(n, "name").is_ok())
        .unwrap_or_else(|| "Discord channel".to_string());
    let (_, Json(created)) = api::rooms::create(
        State(state.clone()),
        ClientAddress(None),
        Ok(Some(Json(api::rooms::CreateRoom { name: Some(name) }))),
    )
    .await
    .map_err(refused)?;
    let room = created["room"].as_str().unwrap_or_default().to_string();
    let gm_key = created["gm_key"].as_str().unwrap_or_default().to_string();
    if !links::tie(&state.store, channel, &room, false)
        .await
        .map_err(store_failed)?
    {
        // Another server process tied the channel first: its room it is
        // (this one stays empty).
        return links::room_of(&state.store, channel)
            .await
            .map_err(store_failed)?
            .ok_or_else(|| say("the channel's room could not be read"));
    }
    links::seat(&state.store, &room, &user.id, 0, &gm_key)
        .await
        .map_err(store_failed)?;
    Ok(room)
}

/// The names a Discord user may join under: their shown name, then with
/// the end of their id, then their id.
fn candidate_names(interaction: &Interaction, user: &User) -> Vec<String> {
    let shown = interaction.shown_name();
    let tail: String = user
        .id
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    [
        shown.clone(),
        format!("{shown} ({tail})"),
        format!("discord {}", user.id),
    ]
    .into_iter()
    .filter_map(|name| api::display_name(&name, "name").ok())
    .collect()
}

/// Joins `user` to `room` as a player, as the join route does (a `join`
/// event), and seats them.
async fn join(
    state: &AppState,
    room: &str,
    interaction: &Interaction,
    user: &User,
) -> Result<(Member, String), Reply> {
    crate::extract::limit_room_joins(state, room).map_err(refused)?;
    let key = fair::random_token(32).map_err(|e| say(&format!("no random bytes: {e}")))?;
    let key_hash = fair::sha256_hex(key.as_bytes());
    for name in candidate_names(interaction, user) {
        let draft = Draft {
            kind: "join",
            epoch: 0,
            secret: false,
            body: json!({"kind": "join", "name": name, "role": Role::Player.as_str()}),
            thread: None,
            roller: None,
        };
        match state.store.join(room, &name, &key_hash, draft).await {
            Ok((member, event)) => {
                state.hub.publish(event);
                links::seat(&state.store, room, &user.id, member.id, &key)
                    .await
                    .map_err(store_failed)?;
                return Ok((member, key));
            }
            Err(StoreError::NameTaken(_)) => {
                // The same user's other first command may have joined.
                if let Some(seated) = seated(state, room, user).await? {
                    return Ok(seated);
                }
            }
            Err(error) => return Err(store_failed(error)),
        }
    }
    Err(say(
        "no name of yours is free in this room: ask the GM to rename the member who has it",
    ))
}

fn text_option(options: &Map<String, Value>, name: &str) -> Result<String, Reply> {
    options
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| say(&format!("give the `{name}` option")))
}

/// `/roll expression: [secret:]`: the rolls route.
async fn roll(
    state: &AppState,
    interaction: &Interaction,
    me: Member,
    name: &str,
    options: &Map<String, Value>,
) -> Result<Reply, Reply> {
    let expression = text_option(options, "expression")?;
    let secret = options
        .get("secret")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let request = api::rolls::RollRequest {
        expression,
        client_seed: client_seed(interaction),
        secret,
        commitment: None,
    };
    let (_, Json(answer)) = api::rolls::roll(State(state.clone()), InRoom(me), Ok(Json(request)))
        .await
        .map_err(refused)?;
    let content = text::roll(name, &answer);
    Ok(if secret {
        Reply::private(content)
    } else {
        Reply::public(content)
    })
}

/// The comparison an expression is, if it is one (labels around it left
/// out), as the engine prints it.
fn comparison(expression: &str, limits: &nutshell_dice::Limits) -> Option<String> {
    let parsed = nutshell_dice::Expression::parse_with(expression, limits).ok()?;
    let mut node = parsed.root();
    while let nutshell_dice::plan::NodeKind::Labeled(inner, _) = &node.kind {
        node = inner;
    }
    matches!(node.kind, nutshell_dice::plan::NodeKind::Compare(..)).then(|| node.to_string())
}

/// `/odds expression:`: the odds route (on the pool for long work).
async fn odds(state: &AppState, me: Member, options: &Map<String, Value>) -> Result<Reply, Reply> {
    let expression = text_option(options, "expression")?;
    let response = api::odds::odds(
        State(state.clone()),
        InRoom(me),
        Ok(Json(api::odds::OddsRequest {
            expression: expression.clone(),
        })),
    )
    .await
    .map_err(refused)?;
    let bytes = axum::body::to_bytes(response.into_body(), state.answer.max_bytes + 1024)
        .await
        .map_err(|_| say("the odds could not be read"))?;
    let answer: Value =
        serde_json::from_slice(&bytes).map_err(|_| say("the odds could not be read"))?;
    let comparison = comparison(&expression, &state.limits);
    Ok(Reply::public(text::odds(&answer, comparison.as_deref())))
}

/// `/check RULESET …` and `/contest RULESET …`: the checks and contests
/// routes, the subcommand's options as the body.
async fn rules(
    state: &AppState,
    interaction: &Interaction,
    me: Member,
    name: &str,
    command: &str,
    data: &super::CommandData,
) -> Result<Reply, Reply> {
    let sub = data
        .options
        .first()
        .filter(|o| o.kind == super::commands::SUB_COMMAND)
        .ok_or_else(|| say(&format!("/{command} needs a ruleset")))?;
    let mut body = values(&sub.options);
    if let Some(named) = body.remove(super::commands::DC_NAME) {
        if body.contains_key("dc") {
            return Err(say(
                "give the DC as a number (`dc`) or by name (`dc_name`), not both",
            ));
        }
        body.insert("dc".into(), named);
    }
    body.insert("ruleset".into(), json!(sub.name));
    body.insert("client_seed".into(), json!(client_seed(interaction)));
    let body = Ok(Json(Value::Object(body)));
    let (_, Json(answer)) = if command == "check" {
        api::checks::check(State(state.clone()), InRoom(me), body).await
    } else {
        api::checks::contest(State(state.clone()), InRoom(me), body).await
    }
    .map_err(refused)?;
    Ok(Reply::public(if command == "check" {
        text::check(name, &answer)
    } else {
        text::contest(name, &answer)
    }))
}

/// `/verify`: the room's log and web table with the caller's own key, and
/// the offline check, for the caller alone.
async fn verify(state: &AppState, me: &Member, key: &str, base: &str) -> Result<Reply, Reply> {
    let room = &me.room;
    let next = state.store.next_seq(room).await.map_err(store_failed)?;
    let head = state
        .store
        .event(room, next - 1)
        .await
        .map_err(store_failed)?
        .map(|event| format!(" --head {}:{}", event.seq, event.hash))
        .unwrap_or_default();
    let log = format!("{base}/api/rooms/{room}/log?key={key}");
    Ok(Reply::private(format!(
        "🔎 **This channel's dice** (room `{room}`; only you see this, and the key in it is yours alone)\n\
         • the log: <{log}>\n\
         • the web table, live: <{base}/#room={room}&key={key}>\n\
         • check it offline:\n```\ncurl -s '{log}' > room.jsonl\nnutshell verify room.jsonl{head}\n```\n\
         A roll can be recomputed once its epoch's seed is revealed (the GM's `/table reveal`)."
    )))
}

/// `/table link room: key:`: the GM ties the channel to their room.
async fn link_table(
    state: &AppState,
    channel: &str,
    user: &User,
    options: &Map<String, Value>,
) -> Result<Reply, Reply> {
    let room = text_option(options, "room")?;
    let key = text_option(options, "key")?;
    let not_gm = || say(&format!("this key is not the GM key of a room `{room}`"));
    let gm = state
        .store
        .member_by_key(&fair::sha256_hex(key.trim().as_bytes()))
        .await
        .map_err(store_failed)?
        .filter(|m| m.room == room && m.role == Role::Gm)
        .ok_or_else(not_gm)?;
    if let Some(current) = links::room_of(&state.store, channel)
        .await
        .map_err(store_failed)?
        .filter(|current| *current != room)
    {
        let is_gm_there = seated(state, &current, user)
            .await?
            .is_some_and(|(member, _)| member.role == Role::Gm);
        if !is_gm_there {
            return Err(say(&format!(
                "this channel plays in room `{current}`: only its GM may tie it to another"
            )));
        }
    }
    links::tie(&state.store, channel, &room, true)
        .await
        .map_err(store_failed)?;
    links::seat(&state.store, &room, &user.id, gm.id, key.trim())
        .await
        .map_err(store_failed)?;
    let shown = state
        .store
        .room(&room)
        .await
        .map_err(store_failed)?
        .map(|r| r.name)
        .unwrap_or_default();
    Ok(Reply::private(format!(
        "🔗 This channel now plays in room **{}** (`{room}`): its rolls go to that room's log and show live at its web table. You are its GM here.",
        text::escape(&shown)
    )))
}

/// `/table reveal` and `/table show event:` (the GM's): the reveal routes.
async fn table(
    state: &AppState,
    me: Member,
    sub: &str,
    options: &Map<String, Value>,
) -> Result<Reply, Reply> {
    if me.role != Role::Gm {
        return Err(say("only the room's GM may do this"));
    }
    match sub {
        "reveal" => {
            let Json(answer) = api::rolls::reveal(State(state.clone()), Gm(me))
                .await
                .map_err(refused)?;
            Ok(Reply::public(format!(
                "🔓 The GM revealed the seed of epoch {}: `{}`\nEvery roll of it can now be recomputed (`/verify`); epoch {} is committed to `{}`.",
                answer["epoch"],
                answer["seed"].as_str().unwrap_or(""),
                answer["next_epoch"],
                answer["commitment"].as_str().unwrap_or("")
            )))
        }
        "show" => {
            let event = options
                .get("event")
                .and_then(Value::as_i64)
                .ok_or_else(|| say("give the `event` option"))?;
            let room = me.room.clone();
            let Json(answer) = api::rolls::show(
                State(state.clone()),
                Gm(me),
                Path((room, event.to_string())),
            )
            .await
            .map_err(refused)?;
            let body = &answer["roll"];
            let mut shown = body["result"].clone();
            for field in ["epoch", "secret"] {
                shown[field] = Value::Null;
            }
            shown["seq"] = json!(event);
            shown["epoch"] = body["epoch"].clone();
            let name = body["name"].as_str().unwrap_or("GM");
            let content = match body["action"]["kind"].as_str() {
                Some("check") => text::check(name, &shown),
                Some("contest") => text::contest(name, &shown),
                _ => text::roll(name, &shown),
            };
            Ok(Reply::public(format!(
                "👁️ The GM shows secret event #{event}:\n{content}"
            )))
        }
        other => Err(say(&format!("/table has no `{other}`"))),
    }
}
