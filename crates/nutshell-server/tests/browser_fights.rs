//! Fights at the web table in a real browser: a fight on a map started and
//! stepped from the page, and a fight set up by picking, drawing and
//! dragging.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::pages::WAIT;
use browser::{Answered, close_all, set_up};

/// The fight view's tokens as the page draws them: name, square, facing,
/// state.
const TOKENS: &str = "return [...document.querySelectorAll('#fight-svg .token')].map(t => [t.dataset.name, t.dataset.square, t.dataset.facing, t.dataset.state])";

/// The map as the page draws it, one legend character a square.
const CELLS: &str = "const rows = []; for (const r of document.querySelectorAll('#fight-svg rect.cell')) { const c = {floor: '.', wall: '#', door: '+', 'open-door': '/', ladder: 'H'}[r.classList[1]]; const y = Number(r.getAttribute('y')); rows[y] = (rows[y] ?? '') + c; } return rows";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_on_a_map_is_started_and_stepped_from_the_page() {
    let Some((driver, base, _server)) =
        set_up("a_fight_on_a_map_is_started_and_stepped_from_the_page").await
    else {
        return;
    };

    // A GM and a player at a phone's width.
    let gm = driver.browser(1000, 1000).await;
    gm.open_start(&base).await;
    gm.create_room(Some("Guardroom")).await;
    let invite = gm.invite_link().await;
    let player = driver.browser(390, 844).await;
    player.open_invite(&invite).await;
    player.join_as("Ada").await;

    // The GM picks the corridor example (sides and map filled in) and
    // starts the fight; the player has no form.
    gm.js("document.getElementById('fights').open = true;")
        .await;
    gm.until(
        "return document.getElementById('fight-map').value.includes('The guardroom door') && document.getElementById('fight-example').options.length >= 3",
        WAIT,
        "the example fights",
    )
    .await;
    assert_eq!(
        player
            .js("return document.getElementById('fight-form').hidden")
            .await,
        true
    );
    // "Simulate 10,000": ten batches shown as they come, then the rates;
    // the counts are the API's for the same seed in one request.
    gm.js("document.getElementById('simulate').click();").await;
    gm.until(
        "return document.getElementById('simulation').dataset.trials === '10000' && document.querySelectorAll('#simulation-chart .bar').length === 3",
        Duration::from_secs(120),
        "10,000 simulated fights",
    )
    .await;
    let shown = gm
        .js("const d = document.getElementById('simulation').dataset; return [Number(d.seed), JSON.parse(d.wins), Number(d.draws), document.getElementById('simulation-progress').value]")
        .await;
    let room_now = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let gm_key = gm
        .js(&format!(
            "return window.nutshellSeats.get('{}').key",
            room_now.as_str().unwrap()
        ))
        .await;
    let whole: Value = reqwest::Client::new()
        .post(format!(
            "{base}/api/rooms/{}/simulate",
            room_now.as_str().unwrap()
        ))
        .bearer_auth(gm_key.as_str().unwrap())
        .json(&json!({
            "a": include_str!("../../../examples/mls/duel/knight.toml"),
            "b": include_str!("../../../examples/mls/duel/brigand.toml"),
            "map": include_str!("../../../examples/mls/maps/corridor.toml"),
            "seed": shown[0], "trials": 10_000,
        }))
        .answer()
        .await;
    assert_eq!(
        shown,
        json!([
            shown[0],
            [whole["wins"][0]["count"], whole["wins"][1]["count"]],
            whole["draw"]["count"],
            10_000
        ]),
        "{whole}"
    );
    gm.js("document.getElementById('simulation').scrollIntoView();")
        .await;
    gm.screenshot("fight-simulate").await;
    // The result names the fight it simulated and sits in the form that
    // set it up (issue 26, item 5); editing the form hides it.
    let title = gm
        .js("const s = document.getElementById('simulation'); return [s.closest('form') && s.closest('form').id, document.getElementById('simulation-title').textContent]")
        .await;
    assert_eq!(title[0], "fight-form");
    assert!(
        title[1]
            .as_str()
            .unwrap()
            .contains("“Duel at the guardroom door (corridor map)”"),
        "{title}"
    );
    // The chart's words are as large on a phone's width as anywhere (at
    // least 12 px drawn).
    let sizes = gm
        .js("const chart = document.getElementById('simulation-chart');
             chart.style.width = '358px';
             const sizes = [...chart.querySelectorAll('.rate-label')].map(t => parseFloat(getComputedStyle(t).fontSize) * t.getBoundingClientRect().width / t.offsetWidth);
             chart.style.width = '';
             return sizes")
        .await;
    let sizes = sizes.as_array().unwrap();
    assert_eq!(sizes.len(), 3, "a label a row");
    for size in sizes {
        assert!(size.as_f64().unwrap() >= 12.0, "{sizes:?}");
    }
    gm.js("const m = document.getElementById('fight-distance'); m.value = '2'; m.dispatchEvent(new Event('input', {bubbles: true}));")
        .await;
    assert_eq!(
        gm.js("return document.getElementById('simulation').hidden")
            .await,
        true,
        "a result for another setting is hidden"
    );
    gm.js("document.getElementById('fight-distance').value = '1';")
        .await;
    gm.js("document.querySelector('#fight-form button[type=submit]').click();")
        .await;
    for page in [&gm, &player] {
        page.until(
            "return document.querySelectorAll('#fight-svg .token').length === 2",
            WAIT,
            "the tokens on the map",
        )
        .await;
        assert_eq!(
            page.js(TOKENS).await,
            json!([
                ["Sir Aldric", "C4", "east", "standing"],
                ["Black Wat", "M4", "west", "standing"]
            ])
        );
    }
    // Stepped round by round with the button, then to the end; the player's
    // page follows every step.
    for n in 1..=3 {
        gm.js("document.getElementById('fight-step').click();")
            .await;
        let clock = format!("Step {n}:");
        for page in [&gm, &player] {
            page.until(
                &format!(
                    "return document.getElementById('fight-clock').textContent.includes({clock:?})"
                ),
                WAIT,
                "the step on the page",
            )
            .await;
        }
    }
    // The log beside the map: every line so far, the latest step's marked;
    // a round that logged nothing says so once, never as "turn 0".
    assert!(
        gm.js("return document.querySelectorAll('#fight-log li.latest').length")
            .await
            .as_u64()
            .unwrap()
            > 0
    );
    let log = gm
        .js("return [...document.querySelectorAll('#fight-log li')].map(l => l.textContent)")
        .await;
    let log: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        log.iter()
            .all(|l| !l.contains("Turn 0") && !l.contains("turn 0")),
        "{log:?}"
    );
    assert!(
        log.windows(2)
            .all(|w| !(w[0] == w[1] && w[0].contains("nothing to log"))),
        "{log:?}"
    );
    gm.js("document.getElementById('fight-end').click();").await;
    for page in [&gm, &player] {
        page.until(
            "return document.getElementById('fight-clock').textContent.includes('Over:')",
            WAIT,
            "the fight's end on the page",
        )
        .await;
    }
    // Over, nobody is "acting" any more (issue 26, item 5).
    let clock = gm
        .js("return document.getElementById('fight-clock').textContent")
        .await;
    assert!(!clock.as_str().unwrap().contains("acting"), "{clock}");
    // The steps do not flood the feed: one folded entry a turn, the lines
    // on demand (issue 26, item 5).
    let folds = player
        .js("return [...document.querySelectorAll('#feed li[data-kind=\"fight-step\"]')].map(li => [
               li.querySelectorAll('details.turn').length,
               [...li.querySelectorAll('.fight-line')].filter(l => l.checkVisibility()).length,
               li.querySelectorAll('details.turn[open]').length])")
        .await;
    let folds = folds.as_array().unwrap();
    assert!(folds.len() >= 4, "{folds:?}");
    assert!(
        folds.iter().any(|f| f[0].as_u64().unwrap() >= 1),
        "a turn a fold: {folds:?}"
    );
    for fold in folds {
        assert_eq!(fold[1], 0, "no fight line shown unasked: {folds:?}");
        assert_eq!(fold[2], 0, "{folds:?}");
    }
    let opened = player
        .js("const d = document.querySelector('#feed li[data-kind=\"fight-step\"] details.turn'); d.open = true;
             return [...d.querySelectorAll('.fight-line')].filter(l => l.checkVisibility()).length")
        .await;
    assert!(opened.as_u64().unwrap() >= 1, "the lines on demand");
    // The fight's events from the API: every token where the log's
    // `positions` last put it, the doors as the log's lines left them.
    let room = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let room = room.as_str().unwrap();
    let key = gm
        .js(&format!("return window.nutshellSeats.get('{room}').key"))
        .await;
    let log = reqwest::Client::new()
        .get(format!(
            "{base}/api/rooms/{room}/log?key={}",
            key.as_str().unwrap()
        ))
        .answer_text()
        .await;
    let events: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let start = events.iter().find(|e| e["kind"] == "fight").unwrap();
    let mut rows: Vec<Vec<char>> = start["body"]["fight"]["map"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect();
    let mut at: std::collections::BTreeMap<String, (String, String, String)> = Default::default();
    for c in start["body"]["fight"]["state"]["combatants"]
        .as_array()
        .unwrap()
    {
        let field = |k: &str| c[k].as_str().unwrap().to_string();
        at.insert(
            field("name"),
            (field("square"), field("facing"), field("state")),
        );
    }
    let steps: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "fight-step")
        .collect();
    assert!(steps.len() >= 4, "three steps and one to the end");
    for step in &steps {
        for line in step["body"]["result"]["lines"].as_array().unwrap() {
            for p in line["positions"].as_array().into_iter().flatten() {
                let field = |k: &str| p[k].as_str().unwrap().to_string();
                at.insert(
                    field("name"),
                    (field("square"), field("facing"), field("state")),
                );
            }
            for (key, mark) in [("opened", '/'), ("closed", '+')] {
                for square in line[key].as_array().into_iter().flatten() {
                    let square =
                        nutshell_mls::map::Square::parse(square.as_str().unwrap()).unwrap();
                    rows[square.y as usize][square.x as usize] = mark;
                }
            }
        }
    }
    let last = &steps.last().unwrap()["body"]["result"];
    assert_eq!(last["over"], true);
    // The state a line left may be older than the end's (a fall with no
    // move): the state of the last step names everyone's state.
    for c in last["state"]["combatants"].as_array().unwrap() {
        let entry = at.get_mut(c["name"].as_str().unwrap()).unwrap();
        assert_eq!(entry.0, c["square"].as_str().unwrap(), "{c}");
        entry.2 = c["state"].as_str().unwrap().to_string();
    }
    let logged: Vec<Value> = at
        .iter()
        .map(|(name, (square, facing, state))| json!([name, square, facing, state]))
        .collect();
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    for page in [&gm, &player] {
        let mut shown = page.js(TOKENS).await.as_array().unwrap().clone();
        shown.sort_by_key(|t| t[0].as_str().unwrap().to_string());
        assert_eq!(shown, logged);
        assert_eq!(page.js(CELLS).await, json!(rows));
        // The fallen are crossed out: told apart by more than colour.
        let down = logged.iter().filter(|t| t[3] != "standing").count();
        assert!(down >= 1, "the fight ended with someone down: {logged:?}");
        assert_eq!(
            page.js("return document.querySelectorAll('#fight-svg .token.fallen .cross').length")
                .await,
            json!(down)
        );
    }
    // Nothing overflows the phone's width, and no request left the origin.
    assert_eq!(
        player
            .js("return document.documentElement.scrollWidth <= 390")
            .await,
        true
    );
    let foreign = player
        .js(&format!(
            "return performance.getEntriesByType('resource').map(r => r.name).filter(n => !n.startsWith({base:?}))"
        ))
        .await;
    assert_eq!(foreign, json!([]));
    for (page, name) in [(&gm, "fight-desktop"), (&player, "fight-phone")] {
        page.js("document.getElementById('fight-view').scrollIntoView();")
            .await;
        page.screenshot(name).await;
    }
    // A reload replays the fight: drawn, but its panel stays closed (a
    // phone's roll box is not pushed down by every fight of the history).
    player
        .js("window.beforeReload = true; location.reload();")
        .await;
    player
        .until(
            "return window.beforeReload === undefined && !document.getElementById('table').hidden && document.querySelectorAll('#fight-svg .token').length === 2",
            WAIT,
            "the fight replayed after a reload",
        )
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        player
            .js("return document.getElementById('fights').open")
            .await,
        json!(false),
        "the fights panel closed after a reload"
    );
    close_all([player, gm]).await;
}

/// Issue 26, item 4: a fight set up without typing TOML. The GM picks the
/// sides from the room's sheets and the examples, draws a map (its size,
/// name, walls, a door), drags one token onto a square and places another
/// by clicks, turns it; the TOML under "Advanced" is what the page wrote
/// and sends; the fight starts where the tokens were put. Tokens are told
/// apart (initials and a number, the side's colour, the name on hover)
/// and the map zooms.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_is_set_up_by_picking_drawing_and_dragging() {
    let Some((driver, base, _server)) =
        set_up("a_fight_is_set_up_by_picking_drawing_and_dragging").await
    else {
        return;
    };
    let gm = driver.browser(1280, 1000).await;
    gm.open_start(&base).await;
    gm.create_room(None).await;
    gm.until_table("the table").await;
    let (room, key) = gm.seat().await;
    // A sheet of this table, made through the API.
    let made = reqwest::Client::new()
        .post(format!("{base}/api/rooms/{room}/sheets"))
        .bearer_auth(&key)
        .json(&json!({"choices": include_str!("../../../examples/mls/characters/choices/brana.choices.toml")}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        made.status().as_u16(),
        201,
        "{}",
        made.text().await.unwrap()
    );

    // The example is drawn as picked: its sides listed, its map drawn,
    // its starts as tokens (initials and a number, the name on hover).
    gm.js("document.getElementById('fights').open = true;")
        .await;
    let example = gm
        .until(
            "const t = [...document.querySelectorAll('#setup-svg .token[data-name]')]; return t.length === 2 && [
               [...document.querySelectorAll('#side-a-list li, #side-b-list li')].map(l => l.textContent.split(' remove')[0].trim()),
               t.map(x => [x.dataset.name, x.dataset.square, x.querySelector('text').textContent, x.querySelector('title').textContent.includes(x.dataset.name)])]",
            WAIT,
            "the example in the editor",
        )
        .await;
    assert_eq!(
        example,
        json!([
            ["SA1 Sir Aldric (12 THP)", "BW1 Black Wat (10 THP)"],
            [
                ["Sir Aldric", "C4", "SA1", true],
                ["Black Wat", "M4", "BW1", true]
            ]
        ])
    );
    // A new set-up: the example's combatants removed, Brana (a sheet of
    // this table) on side A, the example's Black Wat on side B.
    gm.until(
        "return [...document.getElementById('side-a-add').options].some(o => o.textContent.startsWith('Brana (a sheet'))",
        WAIT,
        "the room's sheet offered",
    )
    .await;
    gm.js("for (const b of [...document.querySelectorAll('#side-a-list button, #side-b-list button')]) b.click();
           const pick = (id, start) => { const s = document.getElementById(id); s.value = [...s.options].find(o => o.textContent.startsWith(start)).value; s.dispatchEvent(new Event('change')); };
           pick('side-a-add', 'Brana (a sheet');
           pick('side-b-add', 'Black Wat (example');")
        .await;
    // The map: 9 columns by 5 rows, named, a wall painted at E2 and E4 and
    // a door at E3 (clicks with the palette's tools).
    gm.js("const set = (id, v) => { const i = document.getElementById(id); i.value = v; i.dispatchEvent(new Event('change')); };
           set('map-width', '9'); set('map-height', '5'); set('map-name', 'The test hall');
           document.getElementById('map-clear').click();")
        .await;
    for (tool, squares) in [("#", ["E2", "E4"].as_slice()), ("+", ["E3"].as_slice())] {
        gm.js(&format!(
            "document.querySelector('#map-editor input[name=paint][value=\"{tool}\"]').click();"
        ))
        .await;
        for square in squares {
            gm.drag(
                &format!("#setup-svg rect.cell[data-square=\"{square}\"]"),
                &format!("#setup-svg rect.cell[data-square=\"{square}\"]"),
            )
            .await;
        }
    }
    gm.js("document.querySelector('#map-editor input[name=paint][value=\".\"]').click();")
        .await;
    // Brana is dragged from the tray onto B3; Black Wat placed by clicks
    // (token, then square) on H3 and turned west.
    gm.drag(
        "#map-tray .tray-token[data-name=\"Brana\"]",
        "#setup-svg rect.cell[data-square=\"B3\"]",
    )
    .await;
    gm.until(
        "return document.querySelector('#setup-svg .token[data-name=\"Brana\"]')",
        WAIT,
        "Brana dragged onto the map",
    )
    .await;
    gm.click("#map-tray .tray-token[data-name=\"Black Wat\"]")
        .await;
    gm.click("#setup-svg rect.cell[data-square=\"H3\"]").await;
    gm.until(
        "return document.querySelector('#setup-svg .token[data-name=\"Black Wat\"]')",
        WAIT,
        "Black Wat placed",
    )
    .await;
    gm.js("const f = document.getElementById('map-facing'); f.value = 'west'; f.dispatchEvent(new Event('change'));")
        .await;
    let map = gm
        .js("return document.getElementById('fight-map').value")
        .await;
    let map = map.as_str().unwrap();
    // The TOML under "Advanced" is the map drawn, read by the library.
    let parsed =
        nutshell_mls::map::BattleMap::parse("map", map).unwrap_or_else(|e| panic!("{e}\n{map}"));
    assert_eq!(parsed.name, "The test hall");
    assert_eq!(
        parsed.rows(),
        vec![
            "#########",
            "#...#...#",
            "#...+...#",
            "#...#...#",
            "#########"
        ],
        "{map}"
    );
    assert!(
        map.contains("who = \"Brana\"\nat = \"B3\"\nfacing = \"east\""),
        "{map}"
    );
    assert!(
        map.contains("who = \"Black Wat\"\nat = \"H3\"\nfacing = \"west\""),
        "{map}"
    );
    let side_a = gm
        .js("return document.getElementById('fight-a').value")
        .await;
    assert!(
        side_a
            .as_str()
            .unwrap()
            .starts_with("side = \"The Party\"\npcs = true\n\n[[combatant]]\nname = \"Brana\""),
        "{side_a}"
    );
    // The list of examples no longer names one; the squares apart (a
    // fight on a line's) are not asked on a map.
    assert_eq!(
        gm.js("const s = document.getElementById('fight-example'); return [s.value, s.selectedOptions[0].textContent, document.getElementById('fight-distance').hidden]")
            .await,
        json!(["", "(your own set-up)", true])
    );
    gm.screenshot("fight-setup").await;
    // The odds of this set-up are named by its sides and map.
    gm.js("document.getElementById('simulate').click();").await;
    let named = gm
        .until(
            "const t = document.getElementById('simulation-title').textContent; return !document.getElementById('simulation').hidden && t",
            WAIT,
            "the simulation's title",
        )
        .await;
    assert_eq!(
        named,
        json!("Who wins The Party against Black Wat on The test hall, over 10,000 fights")
    );

    // Started: the fight is the one set up, each where it was put.
    gm.js("document.querySelector('#fight-form button[type=submit]').click();")
        .await;
    gm.until(
        "return document.querySelectorAll('#fight-svg .token').length === 2",
        WAIT,
        "the fight's tokens",
    )
    .await;
    assert_eq!(
        gm.js(TOKENS).await,
        json!([
            ["Brana", "B3", "east", "standing"],
            ["Black Wat", "H3", "west", "standing"]
        ])
    );
    assert_eq!(gm.js(CELLS).await, json!(parsed.rows()));
    let labels = gm
        .js("return [...document.querySelectorAll('#fight-svg .token')].map(t => [t.querySelector('text').textContent, t.classList.contains('side-0') ? 0 : 1, t.querySelector('title').textContent.split(':').slice(0, 2).join(':')])")
        .await;
    // A combatant's side is named when it is another name than his.
    assert_eq!(
        labels,
        json!([
            ["B1", 0, "B1: Brana of The Party"],
            ["BW1", 1, "BW1: Black Wat"]
        ])
    );
    // The map zooms: twice as wide after two steps in, back with "fit".
    let width = "return document.getElementById('fight-svg').getBoundingClientRect().width";
    let before = gm.js(width).await.as_f64().unwrap();
    gm.js("const b = document.querySelector('#fight-map-view [aria-label=\"zoom in\"]'); b.click(); b.click();")
        .await;
    let after = gm.js(width).await.as_f64().unwrap();
    assert!((after / before - 2.0).abs() < 0.05, "{before} -> {after}");
    gm.js("document.querySelector('#fight-map-view [aria-label=\"fit the map to the page\"]').click();")
        .await;
    let back = gm.js(width).await.as_f64().unwrap();
    assert!((back - before).abs() < 1.0, "{before} -> {back}");
    gm.close().await;
}
