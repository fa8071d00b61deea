//! The play view of a played fight in a real browser: the fight at the
//! centre of the page with its log and the rolls beside it, and the round
//! so far in its log.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::pages::{FITS, WAIT, count};
use browser::{close_all, set_up};

/// The example duel in the corridor, played, each combatant controlled as
/// `control` says, with the request's `more` fields.
fn corridor_duel(control: Value, more: Value) -> Value {
    let mut body = json!({
        "a": include_str!("../../../examples/mls/duel/knight.toml"),
        "b": include_str!("../../../examples/mls/duel/brigand.toml"),
        "map": include_str!("../../../examples/mls/maps/corridor.toml"),
        "played": true,
        "control": control,
    });
    for (key, value) in more.as_object().unwrap() {
        body[key] = value.clone();
    }
    body
}

/// A room named "The corridor": the answer (id, GM key, invite).
async fn corridor_room(base: &str) -> Value {
    let url = format!("{base}/api/rooms");
    let name = json!({"name": "The corridor"});
    call(reqwest::Method::POST, &url, None, Some(name)).await
}

/// A JSON call to the room's API (`key` as the bearer); panics unless it
/// succeeds.
async fn call(method: reqwest::Method, url: &str, key: Option<&str>, body: Option<Value>) -> Value {
    let mut request = reqwest::Client::new().request(method, url);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.unwrap();
    let status = answer.status();
    let value: Value = answer.json().await.unwrap();
    assert!(status.is_success(), "{url}: {status} {value}");
    value
}

/// The box of the element `css` selects: [left, top, right, bottom].
fn rect(css: &str) -> String {
    format!(
        "const r = document.querySelector({css:?}).getBoundingClientRect(); return [r.left, r.top + scrollY, r.right, r.bottom + scrollY]"
    )
}

fn edges(value: &Value) -> [f64; 4] {
    let v: Vec<f64> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// A decision's answer as the fight's log writes it, for the kinds this
/// test checks word for word (a set action, a move).
fn choice_words(choice: &Value) -> Option<String> {
    if let Some(action) = choice["action"].as_str() {
        let name = match action {
            "fight" => "Fight",
            "charge" => "Charge",
            "move" => "Move",
            "respond" => "Respond",
            "flee" => "Flee",
            _ => return None,
        };
        return Some(name.to_string());
    }
    let path = choice["path"].as_array()?;
    if path.is_empty() {
        return Some("stays".into());
    }
    let squares: Vec<String> = path
        .iter()
        .map(|s| {
            let s = s.as_str().unwrap();
            match s.split_once(':') {
                Some((at, facing)) => format!("{at} (facing {facing})"),
                None => s.to_string(),
            }
        })
        .collect();
    Some(format!("moves {}", squares.join(" → ")))
}

/// The issue's words: "The map is the centre of the screen on a desktop
/// (large, as wide as the window allows, tokens readable), the log and the
/// room's rolls beside it; on a phone the map first, full width,
/// scrollable." "Everyone sees whose decision is awaited, each
/// declaration, each move animated square by square, and each roll." "The
/// page marks the GM's events by the events' `role`." A played fight (Sir
/// Aldric Ann's, Black Wat the GM's), decided through the API, on the GM's
/// desktop (1280x800) and Ann's phone (390x844).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_fight_is_the_centre_of_the_page_with_its_log_and_the_rolls_beside_it() {
    let Some((driver, base, _server)) =
        set_up("a_played_fight_is_the_centre_of_the_page_with_its_log_and_the_rolls_beside_it")
            .await
    else {
        return;
    };
    let post = reqwest::Method::POST;
    let room = corridor_room(&base).await;
    let (room, gm_key, invite) = (
        room["room"].as_str().unwrap().to_string(),
        room["gm_key"].as_str().unwrap().to_string(),
        room["invite"].as_str().unwrap().to_string(),
    );
    let ann = call(
        post.clone(),
        &format!("{base}/api/rooms/{room}/join"),
        None,
        Some(json!({"invite": invite, "name": "Ann"})),
    )
    .await;
    let (ann_id, ann_key) = (
        ann["member"].as_i64().unwrap(),
        ann["player_key"].as_str().unwrap().to_string(),
    );
    let desk = driver.browser(1280, 800).await;
    let phone = driver.browser(390, 844).await;
    desk.go(&format!("{base}/#room={room}&key={gm_key}")).await;
    phone
        .go(&format!("{base}/#room={room}&key={ann_key}"))
        .await;
    for page in [&desk, &phone] {
        page.until(
            "return document.getElementById('status').textContent.includes('live')",
            WAIT,
            "the page is live",
        )
        .await;
    }
    // Without a fight the rolls are in their own place.
    desk.roll("2d6", false).await;
    for page in [&desk, &phone] {
        page.until(&count("2d6"), WAIT, "the roll in the feed")
            .await;
        assert_eq!(
            page.js("return document.getElementById('rolls-box').parentElement.id")
                .await,
            json!("rolls-home")
        );
    }

    let fights = format!("{base}/api/rooms/{room}/fights");
    let started = call(
        post.clone(),
        &fights,
        Some(&gm_key),
        Some(corridor_duel(
            json!({"Sir Aldric": ann_id, "Black Wat": "gm"}),
            json!({"client_seed": "6c61796f7574"}),
        )),
    )
    .await;
    let id = started["seq"]
        .as_i64()
        .unwrap_or_else(|| panic!("the fight's number: {started}"));
    let path = format!("{fights}/{id}");

    // Decisions by both, through the API, each as the engine would (its
    // default), until each has made a set action and a move.
    let mut made: Vec<(String, Value, bool)> = Vec::new(); // (who, choice, by the GM)
    for _ in 0..40 {
        let view = call(reqwest::Method::GET, &path, Some(&gm_key), None).await;
        let step = view["step"].as_i64().unwrap();
        for page in [&desk, &phone] {
            page.until(
                &format!("return Number(document.getElementById('fight-view').dataset.step) >= {step} && Number(document.getElementById('fight-view').dataset.events) >= {step}"),
                WAIT,
                &format!("the page shows step {step}"),
            )
            .await;
        }
        let kinds = |gm: bool, kind: &str| {
            made.iter()
                .filter(|(_, c, by)| {
                    *by == gm
                        && (if kind == "path" {
                            c.get("path").is_some()
                        } else {
                            c.get("action").is_some()
                        })
                })
                .count()
        };
        let done = [true, false]
            .iter()
            .all(|gm| kinds(*gm, "path") >= 1 && kinds(*gm, "action") >= 1);
        if view["over"] == json!(true) || done {
            break;
        }
        let waiting = &view["waiting"][0];
        let by_gm = waiting["controller"] == json!("gm");
        let who = waiting["who"].as_str().unwrap().to_string();
        // Both pages say whose decision is awaited, never "acting".
        let awaited = format!(
            "waiting for {}: {who}'s",
            if by_gm { "the GM" } else { "Ann" }
        );
        for page in [&desk, &phone] {
            let clock = page
                .until(
                    &format!("const c = document.getElementById('fight-clock').textContent; return c.includes({awaited:?}) && c"),
                    WAIT,
                    &format!("the clock says {awaited}"),
                )
                .await;
            assert!(!clock.as_str().unwrap().contains("acting"), "{clock}");
        }
        let key = if by_gm { &gm_key } else { &ann_key };
        let mine = call(reqwest::Method::GET, &path, Some(key), None).await;
        let decision = &mine["decision"];
        let choice = decision["default"].clone();
        call(
            post.clone(),
            &format!("{path}/decisions"),
            Some(key),
            Some(json!({"step": step, "who": who, "kind": decision["kind"], "choice": choice, "client_seed": "6c61796f7574"})),
        )
        .await;
        made.push((who, choice, by_gm));
    }
    assert!(made.len() >= 4, "decisions by both: {made:?}");
    let last = call(reqwest::Method::GET, &path, Some(&gm_key), None).await;
    let step = last["step"].as_i64().unwrap();
    for page in [&desk, &phone] {
        page.until(
            &format!("return Number(document.getElementById('fight-view').dataset.events) >= {step} && document.querySelectorAll('#fight-log .decision').length === {}", made.len()),
            WAIT,
            "every decision in the fight's log",
        )
        .await;
        // Each decision a line in words: the combatant, who decided (the
        // GM marked by the event's role), the answer; no "turn 0" and no
        // line for a step that logged nothing.
        let lines = page
            .js("return [...document.querySelectorAll('#fight-log .decision')].map(d => [d.textContent, Boolean(d.querySelector('.gm-mark'))])")
            .await;
        let lines = lines.as_array().unwrap();
        for ((who, choice, by_gm), line) in made.iter().zip(lines) {
            let text = line[0].as_str().unwrap();
            // The GM's member name, then the mark "GM".
            let by = if *by_gm { "GM" } else { "Ann" };
            assert!(text.starts_with(&format!("{who} (")), "{text}");
            assert!(text.contains(&format!("{by}): ")), "{text}");
            if let Some(words) = choice_words(choice) {
                assert!(text.ends_with(&format!(": {words}")), "{text} for {choice}");
            }
            assert!(!text.contains('{'), "{text}");
            assert_eq!(line[1], json!(*by_gm), "the GM's mark: {text}");
        }
        let log = page
            .js("return document.getElementById('fight-log').textContent")
            .await;
        let log = log.as_str().unwrap();
        for never in ["nothing to log", "Turn 0", "turn 0"] {
            assert!(!log.contains(never), "{never:?} in the log: {log}");
        }
        // The rolls of the fight's rounds are lines of the log too.
        assert!(
            log.contains("Sir Aldric moves") || log.contains("Black Wat moves"),
            "{log}"
        );
        // The roster names each once, with who plays it.
        let roster = page
            .js("return document.getElementById('fight-roster').textContent")
            .await;
        let roster = roster.as_str().unwrap();
        assert!(!roster.contains("Sir Aldric (Sir Aldric)"), "{roster}");
        assert!(roster.contains("Sir Aldric (Ann): "), "{roster}");
        assert!(roster.contains("Black Wat (the GM): "), "{roster}");
        // The feed's decisions in the same words.
        let feed = page
            .js("return [...document.querySelectorAll('#feed li[data-kind=\"fight-decision\"] .decision')].map(d => d.textContent)")
            .await;
        let feed = feed.as_array().unwrap();
        assert_eq!(feed.len(), made.len(), "{feed:?}");
        for line in feed {
            assert!(!line.as_str().unwrap().contains('{'), "{line}");
        }
    }

    // The desktop: the map as wide as the window allows, the rolls (and
    // the log) beside it, not under it; nothing wider than the window.
    desk.js("document.getElementById('fight-title').scrollIntoView(); return true")
        .await;
    assert_eq!(
        desk.js("return document.getElementById('rolls-box').parentElement.id")
            .await,
        json!("fight-side")
    );
    let map = edges(&desk.js(&rect("#fight-svg")).await);
    let width = desk
        .js("return document.documentElement.clientWidth")
        .await
        .as_f64()
        .unwrap();
    assert!(
        map[2] - map[0] >= 0.6 * width,
        "the map is large: {map:?} of {width}"
    );
    // The play view's side column is beside the map, as tall as the
    // window, and holds the log and the rolls (it scrolls as a whole).
    let column = edges(&desk.js(&rect("#fight-side")).await);
    assert!(
        column[1] < map[3] && column[3] > map[1],
        "the side column {column:?} is beside the map {map:?}"
    );
    for beside in ["#feed", "#fight-log"] {
        let other = edges(&desk.js(&rect(beside)).await);
        let side_by_side = other[0] >= map[2] - 1.0 || other[2] <= map[0] + 1.0;
        let inside = desk
            .js(&format!(
                "return document.getElementById('fight-side').contains(document.querySelector('{beside}'))"
            ))
            .await;
        assert!(
            side_by_side && inside == json!(true),
            "{beside} {other:?} is beside the map {map:?}, in the side column"
        );
    }
    desk.screenshot("layout-desktop").await;
    assert_eq!(
        desk.js(
            "return document.scrollingElement.scrollWidth <= document.documentElement.clientWidth"
        )
        .await,
        json!(true),
        "nothing wider than the window"
    );

    // The phone: the map first, the page's full width; the log and the
    // rolls under it.
    phone
        .js("document.getElementById('fight-title').scrollIntoView(); return true")
        .await;
    let map = edges(&phone.js(&rect("#fight-map-view")).await);
    let width = phone
        .js("return document.documentElement.clientWidth")
        .await
        .as_f64()
        .unwrap();
    assert!(
        map[0].abs() <= 1.0 && (map[2] - width).abs() <= 1.0,
        "the map is the page's width: {map:?} of {width}"
    );
    for after in ["#feed", "#fight-log", "#fight-clock"] {
        let other = edges(&phone.js(&rect(after)).await);
        assert!(
            other[1] >= map[3] - 1.0,
            "{after} {other:?} comes after the map {map:?}"
        );
    }
    phone.screenshot("layout-phone").await;
    // The map fits the phone's width at first; zoomed in, it is wider
    // than the phone and scrolls in its box, and stays where it was
    // scrolled to as the fight goes on (unless the token awaited is out of
    // view: then it is brought into view).
    let fits = phone
        .js("const s = document.querySelector('#fight-map-view .zoom-scroll'); return s.scrollWidth <= s.clientWidth + 1")
        .await;
    assert_eq!(fits, json!(true), "the phone's map fits its width at first");
    phone
        .click("#fight-map-view button[aria-label='zoom in']")
        .await;
    phone
        .click("#fight-map-view button[aria-label='zoom in']")
        .await;
    let wider = phone
        .js("const s = document.querySelector('#fight-map-view .zoom-scroll'); return s.scrollWidth > s.clientWidth")
        .await;
    assert_eq!(
        wider,
        json!(true),
        "the phone's map, zoomed in, scrolls sideways"
    );
    phone
        .js("document.querySelector('#fight-map-view .zoom-scroll').scrollLeft = 120; return true")
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let view = call(reqwest::Method::GET, &path, Some(&gm_key), None).await;
    if view["over"] != json!(true) {
        let step = view["step"].as_i64().unwrap();
        let waiting = &view["waiting"][0];
        let key = if waiting["controller"] == json!("gm") {
            &gm_key
        } else {
            &ann_key
        };
        let mine = call(reqwest::Method::GET, &path, Some(key), None).await;
        call(
            post.clone(),
            &format!("{path}/decisions"),
            Some(key),
            Some(json!({"step": step, "who": waiting["who"], "kind": mine["decision"]["kind"], "choice": mine["decision"]["default"]})),
        )
        .await;
        phone
            .until(
                &format!(
                    "return Number(document.getElementById('fight-view').dataset.step) > {step}"
                ),
                WAIT,
                "the next step on the phone",
            )
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let kept = phone
            .js("const s = document.querySelector('#fight-map-view .zoom-scroll'); const t = document.querySelector('#fight-svg .token.yours, #fight-svg .token.awaited');                  const b = s.getBoundingClientRect(); const r = t ? t.getBoundingClientRect() : null;                  return [s.scrollLeft, Boolean(r && r.left >= b.left && r.right <= b.right)]")
            .await;
        assert!(
            kept[0] == json!(120) || kept[1] == json!(true),
            "the map kept its scroll or shows the token awaited: {kept}"
        );
    }
    assert_eq!(
        phone.js(FITS).await,
        json!(true),
        "nothing wider than the phone"
    );

    // The fights panel closed: the rolls go back to their own place.
    phone
        .js("document.getElementById('fights').open = false; return true")
        .await;
    phone
        .until(
            "return document.getElementById('rolls-box').parentElement.id === 'rolls-home' && document.getElementById('feed').checkVisibility()",
            WAIT,
            "the rolls in their own place",
        )
        .await;
    phone
        .js("document.getElementById('fights').open = true; return true")
        .await;
    phone
        .until(
            "return document.getElementById('rolls-box').parentElement.id === 'fight-side'",
            WAIT,
            "the rolls beside the map again",
        )
        .await;
    close_all([desk, phone]).await;
}

/// The round in progress of a played fight (docs/web.md, "Playing a
/// fight", step 7): while a decision in the middle of a round is awaited,
/// the log ends with "Turn T, round R so far:" and the lines the server's
/// `so_far` gives; once the round's event comes they are its own lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_fights_log_shows_the_round_so_far() {
    let Some((driver, base, _server)) = set_up("a_played_fights_log_shows_the_round_so_far").await
    else {
        return;
    };
    let post = reqwest::Method::POST;
    let get = reqwest::Method::GET;
    let room = corridor_room(&base).await;
    let (room, gm_key) = (
        room["room"].as_str().unwrap().to_string(),
        room["gm_key"].as_str().unwrap().to_string(),
    );
    let page = driver.browser(1280, 800).await;
    page.go(&format!("{base}/#room={room}&key={gm_key}")).await;
    page.live().await;
    let started = call(
        post.clone(),
        &format!("{base}/api/rooms/{room}/fights"),
        Some(&gm_key),
        Some(corridor_duel(
            json!({"Sir Aldric": "gm", "Black Wat": "gm"}),
            json!({}),
        )),
    )
    .await;
    let path = format!("{base}/api/rooms/{room}/fights/{}", started["fight"]);
    const SO_FAR: &str =
        "[...document.querySelectorAll('#fight-log li.so-far')].map(li => li.textContent)";
    const LOGGED: &str =
        "[...document.querySelectorAll('#fight-log li:not(.so-far)')].map(li => li.textContent)";
    let mut shown: Option<Vec<String>> = None;
    for _ in 0..500 {
        let view = call(get.clone(), &path, Some(&gm_key), None).await;
        assert!(view["over"] != true, "no decision in a round's middle");
        let so_far = view["so_far"].as_array().unwrap();
        if shown.is_none() && so_far.iter().any(|l| l["round"].as_u64() > Some(0)) {
            let w = &view["waiting"][0];
            let lines: Vec<String> = so_far
                .iter()
                .map(|l| l["text"].as_str().unwrap().to_string())
                .collect();
            let mut want = vec![format!("Turn {}, round {} so far:", w["turn"], w["round"])];
            want.extend(lines.clone());
            let want = serde_json::to_string(&want).unwrap();
            page.until(
                &format!("return JSON.stringify({SO_FAR}) === {want:?}"),
                WAIT,
                "the round so far at the log's end",
            )
            .await;
            let last = page
                .js("return document.querySelector('#fight-log li:last-child').textContent")
                .await;
            assert_eq!(last.as_str(), lines.last().map(String::as_str));
            shown = Some(lines);
        }
        let d = &view["decision"];
        let done = call(
            post.clone(),
            &format!("{path}/decisions"),
            Some(&gm_key),
            Some(json!({"step": view["step"], "who": d["name"], "kind": d["kind"], "choice": d["default"]})),
        )
        .await;
        let completed = !done["result"]["lines"].as_array().unwrap().is_empty();
        if let (Some(before), true) = (&shown, completed) {
            // The round's event came: its own lines are in the log (the
            // shown ones among them, in order), shown as so far no more.
            let before = serde_json::to_string(before).unwrap();
            let old = format!("const old = {before:?};");
            page.until(
                &format!(
                    "{old} const want = JSON.parse(old); const l = {LOGGED}; const s = {SO_FAR}; \
                     return l.some((_, i) => want.every((t, j) => l[i + j] === t)) && !want.every((t, j) => s[j + 1] === t)"
                ),
                WAIT,
                "the round's own lines in place of the round so far",
            )
            .await;
            return;
        }
    }
    panic!("the fight went on past 500 decisions");
}
