//! A played MLS fight at the web table, in three browsers (three WebDriver
//! sessions: three profiles, three seats): the GM starts it from the
//! page's fight form, two players each control their own combatant (one of
//! them on a phone's width), and every decision is made by clicks on the
//! page until the fight is over (issue 26, item 3; docs/web.md "Playing a
//! fight"). After each decision every page's tokens (square, facing) must
//! match the fight's `GET`, and a page shows options only to the member
//! whose decision is awaited.
//!
//! A test fails when `chromium` or `chromedriver` is missing (`.ci/browser`
//! installs them); `NUTSHELL_SKIP_BROWSER=1` skips it, saying so.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::{Browser, driver, server};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls");

async fn post(base: &str, path: &str, key: Option<&str>, body: Value) -> Value {
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status();
    let value: Value = answer.json().await.unwrap();
    assert!(status.is_success(), "POST {path}: {status} {value}");
    value
}

async fn get(base: &str, path: &str, key: &str) -> Value {
    let answer = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "GET {path}");
    answer.json().await.unwrap()
}

/// The tokens a page draws: name -> (square, facing).
const TOKENS: &str = "return Object.fromEntries([...document.querySelectorAll('#fight-svg .token')].map(t => [t.dataset.name, [t.dataset.square, t.dataset.facing]]))";

fn tokens_of(state: &Value) -> Value {
    let mut map = serde_json::Map::new();
    for c in state["combatants"].as_array().unwrap() {
        if c["square"].is_string() {
            map.insert(
                c["name"].as_str().unwrap().to_string(),
                json!([c["square"], c["facing"]]),
            );
        }
    }
    Value::Object(map)
}

/// Brings the element to the middle of the screen, then clicks it as a
/// person would.
async fn tap(page: &Browser<'_>, css: &str) {
    page.js(&format!(
        "document.querySelector({css:?}).scrollIntoView({{block: 'center', inline: 'center'}}); return true"
    ))
    .await;
    for _ in 0..5 {
        if page.try_click(css).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{css} was drawn again at every click");
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() as f64 - 1.0)).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gm_and_two_players_play_a_map_fight_to_the_end_by_clicks() {
    let Some(driver) = driver("a_gm_and_two_players_play_a_map_fight_to_the_end_by_clicks").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let room = post(&base, "/api/rooms", None, json!({"name": "The corridor"})).await;
    let (room_id, gm_key, invite) = (
        room["room"].as_str().unwrap().to_string(),
        room["gm_key"].as_str().unwrap().to_string(),
        room["invite"].as_str().unwrap().to_string(),
    );
    let mut players = Vec::new();
    for name in ["Ann", "Bob"] {
        let joined = post(
            &base,
            &format!("/api/rooms/{room_id}/join"),
            None,
            json!({"invite": invite, "name": name}),
        )
        .await;
        players.push((
            joined["member"].as_i64().unwrap(),
            joined["player_key"].as_str().unwrap().to_string(),
        ));
    }
    let knight = std::fs::read_to_string(format!("{EXAMPLES}/duel/knight.toml")).unwrap();
    let brigand = std::fs::read_to_string(format!("{EXAMPLES}/duel/brigand.toml")).unwrap();
    let map = std::fs::read_to_string(format!("{EXAMPLES}/maps/corridor.toml")).unwrap();

    // The GM on a desktop, Ann on a desktop, Bob on a phone (390 px).
    let gm = driver.browser(1280, 900).await;
    let ann = driver.browser(1280, 900).await;
    let bob = driver.browser(390, 844).await;
    let seat = |key: &str| format!("{base}/#room={room_id}&key={key}");
    gm.go(&seat(&gm_key)).await;
    ann.go(&seat(&players[0].1)).await;
    bob.go(&seat(&players[1].1)).await;
    for page in [&gm, &ann, &bob] {
        page.until(
            "return document.getElementById('status').textContent.includes('live')",
            Duration::from_secs(10),
            "the page is live",
        )
        .await;
    }

    // The GM sets the fight up: the sides and the map as TOML (the form's
    // "Advanced"), "Played by the players", Sir Aldric to Ann, Black Wat to
    // Bob, then "Start the fight".
    gm.js("document.getElementById('fights').open = true; document.getElementById('fight-advanced').open = true; return true")
        .await;
    gm.js(&format!(
        "for (const [id, text] of [['fight-a', {knight:?}], ['fight-b', {brigand:?}], ['fight-map', {map:?}]]) {{ const t = document.getElementById(id); t.value = text; t.dispatchEvent(new Event('input', {{bubbles: true}})); }} return true"
    ))
    .await;
    gm.until(
        "return document.querySelectorAll('#play-control select').length === 2",
        Duration::from_secs(5),
        "one controller a combatant",
    )
    .await;
    if gm
        .js("return document.getElementById('fight-played').checked")
        .await
        != json!(true)
    {
        gm.click("#fight-played").await;
    }
    gm.js(&format!(
        "const s = [...document.querySelectorAll('#play-control select')]; \
         s.find(x => x.dataset.name === 'Sir Aldric').value = '{}'; \
         s.find(x => x.dataset.name === 'Black Wat').value = '{}'; return true",
        players[0].0, players[1].0
    ))
    .await;
    gm.click("#fight-form button[type=submit]").await;
    gm.until(
        "return document.getElementById('fight-view').classList.contains('played') && document.getElementById('play-waiting')",
        Duration::from_secs(10),
        "the played fight is shown",
    )
    .await;
    let fight = gm
        .until(
            "return [...document.querySelectorAll('#feed li')].length && document.getElementById('fight-title').textContent.match(/#(\\d+)/)?.[1]",
            Duration::from_secs(5),
            "the fight's number",
        )
        .await;
    let fight: i64 = fight.as_str().unwrap().parse().unwrap();
    let path = format!("/api/rooms/{room_id}/fights/{fight}");
    let shown = get(&base, &path, &gm_key).await;
    assert_eq!(shown["played"], json!(true));
    assert_eq!(
        shown["controllers"],
        json!([
            {"name": "Sir Aldric", "controller": {"member": players[0].0, "name": "Ann"}},
            {"name": "Black Wat", "controller": {"member": players[1].0, "name": "Bob"}}
        ]),
        "the form's controllers are the fight's"
    );

    let pages: [(&Browser<'_>, Value, &str); 3] = [
        (&gm, json!("gm"), &gm_key),
        (
            &ann,
            json!({"member": players[0].0, "name": "Ann"}),
            &players[0].1,
        ),
        (
            &bob,
            json!({"member": players[1].0, "name": "Bob"}),
            &players[1].1,
        ),
    ];
    let mut latencies = Vec::new();
    let mut decisions = 0;
    let mut bob_moved = false;
    let mut shot = false;
    loop {
        let now = get(&base, &path, &gm_key).await;
        let step = now["step"].as_i64().unwrap();
        // Every page shows this step, its tokens as the fight's JSON has them.
        let want = tokens_of(&now["state"]);
        for (page, _, _) in &pages {
            page.until(
                &format!(
                    "return Number(document.getElementById('fight-view').dataset.step) >= {step}"
                ),
                Duration::from_secs(10),
                &format!("the page shows step {step}"),
            )
            .await;
            let mut drawn = page.js(TOKENS).await;
            for _ in 0..40 {
                if drawn == want {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                drawn = page.js(TOKENS).await;
            }
            assert_eq!(
                drawn, want,
                "step {step}: the page's tokens are the fight's"
            );
        }
        if now["over"] == json!(true) {
            for (page, _, _) in &pages {
                page.until(
                    "return document.getElementById('play-waiting')?.textContent.includes('over')",
                    Duration::from_secs(5),
                    "the page says the fight is over",
                )
                .await;
            }
            break;
        }
        assert!(decisions < 400, "the fight ends within 400 decisions");
        let waiting = &now["waiting"][0];
        let mut deciding = None;
        // Only the page of the member awaited shows options; the others say
        // whom they wait for.
        for (i, (page, controller, key)) in pages.iter().enumerate() {
            let has = page
                .js("return Boolean(document.getElementById('play-decision'))")
                .await;
            let theirs = &waiting["controller"] == controller;
            if theirs {
                page.until(
                    &format!("const d = document.getElementById('play-decision'); return d && d.dataset.who === {:?} && Number(document.getElementById('fight-view').dataset.step) === {step} && Number(document.getElementById('fight-view').dataset.events) >= {step}", waiting["who"].as_str().unwrap()),
                    Duration::from_secs(5),
                    "the controller's page shows the decision",
                )
                .await;
                deciding = Some((i, get(&base, &path, key).await));
            } else {
                assert_eq!(
                    has,
                    json!(false),
                    "step {step}: a page shows options that are not its member's"
                );
                let said = page
                    .js("return document.getElementById('play-waiting').textContent")
                    .await;
                assert!(
                    said.as_str()
                        .unwrap()
                        .contains(waiting["who"].as_str().unwrap()),
                    "step {step}: the page says whom it waits for: {said}"
                );
            }
        }
        let (index, mine) = deciding.expect("someone controls the combatant awaited");
        let decision = &mine["decision"];
        let page = pages[index].0;
        // The engine's default, picked by clicks: a square on the map (twice:
        // the way, then the move), else the option's button.
        let default = &decision["default"];
        let moved_to = default["path"]
            .as_array()
            .and_then(|p| p.last())
            .and_then(Value::as_str)
            .map(|s| s.split(':').next().unwrap().to_string());
        let option_square = moved_to.as_ref().filter(|square| {
            decision["options"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o["square"] == json!(square))
        });
        let before: f64 = page.js("return Date.now()").await.as_f64().unwrap();
        if let Some(square) = option_square {
            tap(page, &format!("#fight-svg rect[data-reach='{square}']")).await;
            page.until(
                &format!("return document.getElementById('play-path')?.textContent.startsWith('{square}:') && document.querySelector('#fight-svg .way')"),
                Duration::from_secs(5),
                "the first click shows the way and its cost",
            )
            .await;
            if index == 2 && !shot {
                // The screenshots of docs/web.md: mid-fight, Bob's way drawn.
                shot = true;
                gm.js("document.getElementById('fight-title').scrollIntoView(); return true")
                    .await;
                gm.screenshot("play-gm-desktop").await;
                bob.js("document.getElementById('fight-title').scrollIntoView(); return true")
                    .await;
                bob.screenshot("play-player-phone").await;
            }
            tap(page, &format!("#fight-svg rect[data-reach='{square}']")).await;
            if index == 2 {
                bob_moved = true;
            }
        } else {
            let buttons = page
                .js("return [...document.querySelectorAll('#play-decision .play-option')].map(b => b.dataset.choice)")
                .await;
            let buttons: Vec<Value> = buttons
                .as_array()
                .unwrap()
                .iter()
                .map(|b| serde_json::from_str(b.as_str().unwrap()).unwrap())
                .collect();
            assert!(
                !buttons.is_empty(),
                "step {step}: options as buttons: {decision}"
            );
            let at = buttons.iter().position(|b| b == default).unwrap_or(0);
            page.click(&format!(
                "#play-decision .play-option:nth-of-type({})",
                at + 1
            ))
            .await;
        }
        decisions += 1;
        // Every other page updated: the time from the click to the last of
        // them showing the next step (each page notes when it drew it).
        let mut latest: f64 = 0.0;
        for (i, (other, _, _)) in pages.iter().enumerate() {
            if i == index {
                continue;
            }
            let at = other
                .until(
                    &format!("return window.nutshellStepAt && Object.entries(window.nutshellStepAt).filter(([s]) => Number(s) > {step}).map(([, t]) => t).sort((a, b) => a - b)[0]"),
                    Duration::from_secs(10),
                    &format!("the page shows the step after {step}"),
                )
                .await;
            latest = latest.max(at.as_f64().unwrap());
        }
        latencies.push(latest - before);
    }
    assert!(
        bob_moved,
        "the phone's player moved his token by tapping squares"
    );
    latencies.sort_by(f64::total_cmp);
    eprintln!(
        "played fight: {decisions} decisions by clicks; decision click -> every other page updated: p50 {:.0} ms, p99 {:.0} ms (max {:.0} ms)",
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    gm.screenshot("play-gm-end").await;
    bob.screenshot("play-phone-end").await;
    for page in [gm, ann, bob] {
        page.close().await;
    }
}
