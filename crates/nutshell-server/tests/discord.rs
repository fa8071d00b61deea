//! Issue 39: nutshell in Discord. A real server on a loopback port answers
//! `POST /discord/interactions`, each request signed with a key made here
//! exactly as Discord signs (Ed25519 over `X-Signature-Timestamp` + the raw
//! body); a stand-in for Discord's API on another port records what the
//! server sends it (deferred answers, command registration).

#[path = "support/postgres.rs"]
mod postgres;
#[path = "support/discord.rs"]
mod support;

use std::time::Duration;

use nutshell_server::rate::RateLimit;
use serde_json::{Value, json};
use support::*;

const CHANNEL: &str = "500000000000000001";

fn no_limits() -> RateLimit {
    RateLimit::new(0.0, 1)
}

async fn bot() -> Bot {
    // Answers never deferred here: nothing is sent to the stand-in.
    start("http://127.0.0.1:9", Duration::from_secs(20), no_limits()).await
}

/// A roll's total, from its answer's first line.
fn roll_total(content: &str) -> i64 {
    content
        .split("rolls **")
        .nth(1)
        .unwrap()
        .split("**")
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The link `/verify` gives, from its text.
fn log_link(content: &str) -> String {
    let start = content.find("<http").expect("a link") + 1;
    let end = start + content[start..].find('>').unwrap();
    content[start..end].to_string()
}

fn verified(log: &str) -> nutshell_server::verify::Report {
    nutshell_server::verify::verify_reader(
        std::io::Cursor::new(log.as_bytes()),
        &nutshell_dice::Limits::default(),
        nutshell_server::verify::ReadLimits::default(),
    )
    .unwrap()
}

#[tokio::test]
async fn a_ping_is_answered_pong() {
    let bot = bot().await;
    let ping = json!({"id": bot.id(), "application_id": APPLICATION, "type": 1, "token": "t", "version": 1});
    let answer = bot.send(&ping).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, json!({"type": 1}));
}

/// A request Discord did not sign, or signed long ago, is refused with 401
/// before anything is read: no room, no member, no event.
#[tokio::test]
async fn unsigned_forged_and_old_requests_are_refused_and_write_nothing() {
    let bot = bot().await;
    let roll = bot.interaction(CHANNEL, ALICE, "roll", vec![string("expression", "1d20")]);
    let body = serde_json::to_vec(&roll).unwrap();
    let now = now().to_string();
    // No signature header at all.
    let response = bot
        .client
        .post(format!("{}/discord/interactions", bot.base))
        .header("content-type", "application/json")
        .header("x-signature-timestamp", &now)
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let answer: Value = response.json().await.unwrap();
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no `X-Signature-Ed25519` header"),
        "{answer}"
    );
    // Not hex.
    let answer = bot
        .post_signed(&body, &bot.key, &now, Some("not-a-signature".into()))
        .await;
    assert_eq!(answer.status, 401);
    answer.refused_for("128 hex digits");
    // Signed by another key.
    let answer = bot.post_signed(&body, &new_key(), &now, None).await;
    assert_eq!(answer.status, 401);
    answer.refused_for("does not match");
    // The body changed after signing.
    let good = bot.post_signed(b"{}", &bot.key, &now, None).await;
    assert_eq!(
        good.status, 400,
        "a signed body that is no interaction is bad input"
    );
    let tampered_signature = nutshell_server::fair::hex(
        &ed25519_dalek::Signer::sign(
            &bot.key,
            &[now.as_bytes(), b"{\"type\":1}".as_slice()].concat(),
        )
        .to_bytes(),
    );
    let answer = bot
        .post_signed(&body, &bot.key, &now, Some(tampered_signature))
        .await;
    assert_eq!(answer.status, 401);
    // A genuine request replayed an hour later, and one from the future.
    let old = (support::now() - 3600).to_string();
    let answer = bot.post_signed(&body, &bot.key, &old, None).await;
    assert_eq!(answer.status, 401);
    answer.refused_for("from the server's clock");
    let future = (support::now() + 3600).to_string();
    assert_eq!(
        bot.post_signed(&body, &bot.key, &future, None).await.status,
        401
    );
    for table in [
        "rooms",
        "members",
        "events",
        "discord_channels",
        "discord_members",
    ] {
        assert_eq!(bot.rows(table).await, 0, "{table}");
    }
    // The same request signed now is answered, once: a replay of it, even
    // freshly timed, is refused.
    let first = bot.post_signed(&body, &bot.key, &now, None).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.body["type"], 4);
    assert_eq!(bot.rows("events").await, 2, "the room and the roll");
    let again = bot.post_signed(&body, &bot.key, &now, None).await;
    assert_eq!(again.status, 401);
    again.refused_for("already answered");
    assert_eq!(bot.rows("events").await, 2);
}

/// Every command's answer, its shape and its text; the rolls in the
/// channel's room; `nutshell verify` passing on the room's export.
#[tokio::test]
async fn a_game_in_a_channel_is_a_room_whose_log_verifies() {
    a_game_in_a_channel(bot().await).await;
}

#[tokio::test]
async fn a_game_in_a_channel_is_a_room_whose_log_verifies_on_postgres() {
    let Some(database) = postgres::fresh_postgres("discord_game").await else {
        return;
    };
    let bot = start_on(
        Some(database),
        "http://127.0.0.1:9",
        Duration::from_secs(20),
        no_limits(),
    )
    .await;
    a_game_in_a_channel(bot).await;
}

async fn a_game_in_a_channel(bot: Bot) {
    // Alice's first command makes the room; she is its GM.
    let roll = bot.roll(CHANNEL, ALICE, "4d6kh3 + 2 fire").await;
    assert_eq!(roll.status, 200);
    assert_eq!(roll.body["type"], 4);
    assert!(!roll.ephemeral());
    assert_eq!(roll.body["data"]["allowed_mentions"], json!({"parse": []}));
    let text = roll.content();
    let total = roll_total(text);
    assert!(
        text.starts_with(&format!(
            "🎲 **Alice** rolls **{total}**\n`(4d6kh3 + 2)[fire] = (["
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("] + 2)[fire] = {total}`\n")),
        "{text}"
    );
    assert!((5..=20).contains(&total), "{text}");
    assert!(
        text.contains("-# event #2 · epoch 0 · commitment `"),
        "{text}"
    );
    // Bob joins by rolling; a bad expression is answered to him alone.
    let bad = bot.roll(CHANNEL, BOB, "2d").await;
    assert_eq!(bad.status, 200);
    assert!(bad.ephemeral());
    assert!(bad.content().starts_with("⚠️ "), "{}", bad.content());
    assert!(
        bad.content()
            .ends_with("\n```\n  2d\n    ^ expected a number, `%`, `F`, `{` or `(`\n```"),
        "{}",
        bad.content()
    );
    let bob = bot.roll(CHANNEL, BOB, "1d20+5 to hit").await;
    let total = roll_total(bob.content());
    assert!(
        bob.content().contains(&format!(
            "\n`(1d20 + 5)[to hit] = ([{}] + 5)[to hit] = {total}`\n",
            total - 5
        )),
        "{}",
        bob.content()
    );
    // Checks and contests with typed options; the DC by name.
    let check = bot
        .check(
            CHANNEL,
            BOB,
            "fantasy",
            vec![
                string("dc_name", "hard"),
                integer("mod", 5),
                boolean("odds", true),
            ],
        )
        .await;
    let text = check.content();
    assert!(text.starts_with("🎯 **Bob** — fantasy check: **"), "{text}");
    assert!(
        text.contains(" vs 25)"),
        "hard is DC 25 (RULING F-1): {text}"
    );
    assert!(
        text.contains("— *fantasy, The Core Mechanic (RULING F-1)*"),
        "{text}"
    );
    assert!(text.contains("📊 exact odds: "), "{text}");
    assert!(
        text.contains("· Success 1/20 (5%) ·"),
        "d20 + 5 >= 25 is one face of 20: {text}"
    );
    let both = bot
        .check(
            CHANNEL,
            BOB,
            "fantasy",
            vec![integer("dc", 10), string("dc_name", "hard")],
        )
        .await;
    assert!(both.ephemeral());
    assert!(both.content().contains("not both"));
    let refused = bot
        .check(CHANNEL, BOB, "favor-3d6", vec![integer("mod", 1)])
        .await;
    assert!(refused.ephemeral(), "{:?}", refused.body);
    refused.says("`dc`");
    let contest = bot
        .command(
            CHANNEL,
            ALICE,
            "contest",
            vec![sub(
                "mls",
                vec![integer("skill", 12), integer("vs_skill", 10)],
            )],
        )
        .await;
    let text = contest.content();
    assert!(text.starts_with("⚔️ **Alice** — mls contest: **"), "{text}");
    assert!(
        text.contains("Side A: **") && text.contains("Side B: **"),
        "{text}"
    );
    assert!(text.contains(" — *"), "every step cites its rule: {text}");
    // Odds: a comparison, and a distribution.
    let odds = bot
        .command(
            CHANNEL,
            BOB,
            "odds",
            vec![string("expression", "1d20+5 >= 15")],
        )
        .await;
    assert_eq!(odds.content(), "📊 P(`1d20 + 5 >= 15`) = **11/20 (55%)**");
    let table = bot
        .command(CHANNEL, BOB, "odds", vec![string("expression", "2d6")])
        .await;
    assert!(
        table
            .content()
            .starts_with("📊 `2d6` · mean 7.0000 · standard deviation 2.4152\n```\n"),
        "{}",
        table.content()
    );
    assert!(
        table
            .content()
            .contains("\n 7    16.67%  ████████████████████  1/6\n"),
        "{}",
        table.content()
    );
    // A secret roll: the GM's, answered to her alone, hidden from players.
    let secret = bot.roll_in_secret(CHANNEL, ALICE, "1d100").await;
    assert!(secret.ephemeral());
    secret.says("in secret");
    let players = bot.roll_in_secret(CHANNEL, BOB, "1d6").await;
    assert!(players.ephemeral());
    assert!(players.content().contains("only the GM may roll in secret"));
    // Bob's view of the log: the secret roll is there, committed, hidden.
    let verify = bot.command(CHANNEL, BOB, "verify", vec![]).await;
    assert!(verify.ephemeral());
    let link = log_link(verify.content());
    assert!(
        verify
            .content()
            .contains("nutshell verify room.jsonl --head "),
        "{}",
        verify.content()
    );
    let (status, log) = bot.get_text(&link).await;
    assert_eq!(status, 200);
    let secret_seq = secret
        .content()
        .split("event #")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let hidden = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["seq"] == secret_seq.parse::<i64>().unwrap())
        .unwrap();
    assert_eq!(hidden["secret"], true);
    assert_eq!(hidden["body"], Value::Null);
    // Only the GM reveals; then everything recomputes.
    let not_gm = bot
        .command(CHANNEL, BOB, "table", vec![sub("reveal", vec![])])
        .await;
    assert!(not_gm.content().contains("only the room's GM"));
    let reveal = bot
        .command(CHANNEL, ALICE, "table", vec![sub("reveal", vec![])])
        .await;
    assert!(!reveal.ephemeral());
    assert!(
        reveal
            .content()
            .starts_with("🔓 The GM revealed the seed of epoch 0: `"),
        "{}",
        reveal.content()
    );
    let verify = bot.command(CHANNEL, BOB, "verify", vec![]).await;
    let (_, log) = bot.get_text(&log_link(verify.content())).await;
    let report = verified(&log);
    assert_eq!(report.failures_total, 0, "{:?}", report.failures);
    // Alice's roll, Bob's roll, his check, the contest, the secret roll.
    assert_eq!(report.rolls_verified, 5, "{report:?}");
    assert_eq!(report.rolls_pending + report.rolls_hidden, 0);
    assert_eq!(report.epochs_revealed, 1);
    // Each roll keyed like every roll's: the roller and their count, the
    // interaction's id as the client seed; Bob joined as a player.
    let events: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let bobs: Vec<&Value> = events
        .iter()
        .filter(|e| e["body"]["name"] == "Bob" && e["body"]["kind"] != "join")
        .collect();
    assert_eq!(bobs.len(), 2);
    assert_eq!(bobs[0]["body"]["count"], 1);
    assert_eq!(bobs[1]["body"]["count"], 2);
    assert!(
        bobs[0]["body"]["client_seed"]
            .as_str()
            .unwrap()
            .starts_with("discord:13")
    );
    assert!(
        events
            .iter()
            .any(|e| e["body"]["kind"] == "join" && e["body"]["name"] == "Bob")
    );
    assert_eq!(bot.rows("discord_members").await, 2);
    assert_eq!(bot.rows("discord_channels").await, 1);
    // Another channel is another room.
    let other = bot.roll("500000000000000002", BOB, "1d4").await;
    other.says("-# event #2 ");
    assert_eq!(bot.rows("rooms").await, 2);
}

/// A GM ties a channel to the room they made at the web table; the
/// channel's rolls are then that room's, seen live by the web page's event
/// stream. A stranger's key cannot take the channel over.
#[tokio::test]
async fn a_gm_links_a_channel_to_a_web_room_which_sees_its_rolls_live() {
    let bot = bot().await;
    let made = bot.web_room("Crossroads").await;
    let room = made["room"].as_str().unwrap();
    let gm_key = made["gm_key"].as_str().unwrap();
    let wrong = bot.link(CHANNEL, ALICE, room, "nope").await;
    assert!(wrong.ephemeral());
    assert!(wrong.content().contains("is not the GM key of a room"));
    let link = bot.link(CHANNEL, ALICE, room, gm_key).await;
    assert!(
        link.ephemeral(),
        "the key stays between the GM and nutshell"
    );
    link.says("now plays in room **Crossroads**");
    // The web page's live stream, opened before the roll.
    let mut stream = bot
        .client
        .get(format!("{}/api/rooms/{room}/events?key={gm_key}", bot.base))
        .send()
        .await
        .unwrap();
    let roll = bot.roll(CHANNEL, CAROL, "3d6").await;
    assert!(
        roll.content().starts_with("🎲 **Carol** rolls **"),
        "{}",
        roll.content()
    );
    let mut seen = String::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !seen.contains("\"kind\":\"roll\"") && std::time::Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(5), stream.chunk()).await {
            Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            _ => break,
        }
    }
    assert!(seen.contains("\"name\":\"Carol\""), "{seen}");
    assert!(seen.contains("\"kind\":\"roll\""), "{seen}");
    // Alice acts as the room's GM in the channel.
    let reveal = bot
        .command(CHANNEL, ALICE, "table", vec![sub("reveal", vec![])])
        .await;
    assert!(reveal.content().starts_with("🔓"), "{}", reveal.content());
    // Carol, a player, has her own room elsewhere: her GM key does not let
    // her take this channel.
    let hers = bot.web_room("Elsewhere").await;
    let takeover = bot
        .command(
            CHANNEL,
            CAROL,
            "table",
            vec![sub(
                "link",
                vec![
                    string("room", hers["room"].as_str().unwrap()),
                    string("key", hers["gm_key"].as_str().unwrap()),
                ],
            )],
        )
        .await;
    assert!(
        takeover
            .content()
            .contains("only its GM may tie it to another"),
        "{}",
        takeover.content()
    );
    let (_, log) = bot
        .get_text(&format!("{}/api/rooms/{room}/log?key={gm_key}", bot.base))
        .await;
    let report = verified(&log);
    assert_eq!(report.failures_total, 0, "{:?}", report.failures);
    assert_eq!(report.rolls_verified, 1);
}

/// A command whose work is not done within the time is answered "thinking"
/// (type 5) and its answer sent later by editing the original message at
/// Discord's API; a secret one stays private.
#[tokio::test]
async fn a_slow_answer_is_deferred_and_sent_to_discord() {
    let discord = StandIn::start().await;
    let bot = start(&discord.base, Duration::ZERO, no_limits()).await;
    let interaction = bot.interaction(
        CHANNEL,
        ALICE,
        "odds",
        vec![string("expression", "3d6 >= 10")],
    );
    let answer = bot.send(&interaction).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, json!({"type": 5}));
    let received = discord.wait_for(1).await;
    assert_eq!(received.len(), 1);
    let edit = &received[0];
    assert_eq!(edit.method, "PATCH");
    assert_eq!(
        edit.path,
        format!(
            "/webhooks/{APPLICATION}/{}/messages/@original",
            interaction["token"].as_str().unwrap()
        )
    );
    assert_eq!(
        edit.authorization, None,
        "the interaction's token is the authority"
    );
    assert_eq!(edit.body["content"], "📊 P(`3d6 >= 10`) = **5/8 (62.5%)**");
    assert_eq!(edit.body["allowed_mentions"], json!({"parse": []}));
    // A secret roll deferred: private from the first answer.
    let secret = bot.roll_in_secret(CHANNEL, ALICE, "1d8").await;
    assert_eq!(secret.body, json!({"type": 5, "data": {"flags": 64}}));
    let received = discord.wait_for(2).await;
    assert!(
        received[1].body["content"]
            .as_str()
            .unwrap()
            .contains("in secret")
    );
    assert_eq!(
        received[1].body.get("flags"),
        None,
        "the deferred answer's flags hold"
    );
}

/// Commands are limited per channel and per user, with the server's rate
/// limiter; a command over the limit is answered privately and writes
/// nothing.
#[tokio::test]
async fn commands_are_rate_limited_per_channel_and_user() {
    let bot = start(
        "http://127.0.0.1:9",
        Duration::from_secs(20),
        RateLimit::new(0.01, 2),
    )
    .await;
    for _ in 0..2 {
        let answer = bot.roll(CHANNEL, ALICE, "1d6").await;
        assert!(!answer.ephemeral(), "{}", answer.content());
    }
    let events = bot.rows("events").await;
    let over = bot.roll(CHANNEL, BOB, "1d6").await;
    assert!(over.ephemeral());
    over.says("too many commands in this channel");
    assert_eq!(bot.rows("events").await, events);
    // Alice has used her two elsewhere too.
    let elsewhere = bot.roll("500000000000000009", ALICE, "1d6").await;
    elsewhere.says("too many commands from you");
}

/// The command set against Discord's documented schema, and every option a
/// field the server's route takes.
#[test]
fn the_commands_are_valid_discord_json_whose_options_are_the_routes_fields() {
    use nutshell_server::discord::commands;
    let all = commands::all();
    assert_eq!(commands::check(&all), Vec::<String>::new());
    let name = regex_free_name;
    for command in &all {
        assert_eq!(command["type"], 1);
        assert!(name(command["name"].as_str().unwrap()));
        let described = command["description"].as_str().unwrap().chars().count();
        assert!((1..=100).contains(&described));
    }
    // Each ruleset's options, all given at once, are a request the rules
    // read (they refuse unknown fields): no option is misnamed.
    for (command, parse) in [
        ("check", parse_check as fn(Value) -> Result<(), String>),
        ("contest", parse_contest),
    ] {
        let set = all.iter().find(|c| c["name"] == command).unwrap();
        for ruleset in set["options"].as_array().unwrap() {
            let mut body = serde_json::Map::new();
            body.insert("ruleset".into(), ruleset["name"].clone());
            for option in ruleset["options"].as_array().unwrap() {
                let field = option["name"].as_str().unwrap();
                assert!(name(field));
                if field == "odds" {
                    continue;
                }
                let field = if field == commands::DC_NAME {
                    "dc"
                } else {
                    field
                };
                let value = match option["type"].as_u64().unwrap() {
                    commands::BOOLEAN => json!(true),
                    commands::INTEGER => option["choices"][0]["value"]
                        .clone()
                        .as_i64()
                        .map_or(json!(1), |v| json!(v)),
                    _ => option["choices"][0]["value"]
                        .clone()
                        .as_str()
                        .map_or(json!("1d6"), |v| json!(v)),
                };
                body.insert(field.to_string(), value);
            }
            parse(Value::Object(body))
                .unwrap_or_else(|e| panic!("/{command} {}: {e}", ruleset["name"]));
        }
    }
    // The DC names are the rules' descriptors.
    let fantasy = &all[2]["options"][0];
    let names: Vec<&str> = fantasy["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == commands::DC_NAME)
        .unwrap()["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), nutshell_rules::fantasy::DESCRIPTORS.len());
    for descriptor in names {
        assert!(
            nutshell_rules::fantasy::dc(descriptor).is_some(),
            "{descriptor}"
        );
    }
}

fn regex_free_name(name: &str) -> bool {
    (1..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn parse_check(body: Value) -> Result<(), String> {
    serde_json::from_value::<nutshell_rules::request::CheckRequest>(body)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn parse_contest(body: Value) -> Result<(), String> {
    serde_json::from_value::<nutshell_rules::request::ContestRequest>(body)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `nutshell discord register`'s call: the command set PUT to the
/// application's commands with the bot's token.
#[tokio::test]
async fn registering_puts_the_commands_with_the_bots_token() {
    let discord = StandIn::start().await;
    let base = discord.base.clone();
    let registered = tokio::task::spawn_blocking(move || {
        nutshell_server::discord::client::register_blocking(&base, APPLICATION, "bot-token")
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(registered.as_array().unwrap().len(), 6);
    let received = discord.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].method, "PUT");
    assert_eq!(
        received[0].path,
        format!("/applications/{APPLICATION}/commands")
    );
    assert_eq!(received[0].authorization.as_deref(), Some("Bot bot-token"));
    assert_eq!(
        received[0].body,
        json!(nutshell_server::discord::commands::all())
    );
}
