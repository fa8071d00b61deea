//! Played MLS fights at the web table, in real browsers (WebDriver
//! sessions: a profile and a seat each; docs/web.md "Playing a fight"):
//!
//! - the corridor: the GM starts it from the page's fight form, two players
//!   each control their own combatant (one of them on a phone's width) and
//!   play it to the end by clicks; one player's page is reloaded at his
//!   movement and shades his squares again;
//! - the crossroads skirmish: the GM and two players, several combatants
//!   each, to the end by clicks;
//! - the corridor again by two players with the keyboard alone;
//! - several decisions awaited at once: every one named, a box each.
//!
//! After each decision every page's tokens (square, facing) must match the
//! fight's `GET`, a page shows options only for its own member's combatants
//! awaited, the deciding page marks the targets the server names, and every
//! page walks each move along the server's way, square by square.
//!
//! A test fails when `chromium` or `chromedriver` is missing (`.ci/browser`
//! installs them); `NUTSHELL_SKIP_BROWSER=1` skips it, saying so.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::pages::{seated, start_crossroads_by_two, tokens_of};
use browser::{Browser, close_all, driver, get, post, server, set_up, start_corridor, table};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls");

/// The tokens a page draws: name -> (square, facing).
const TOKENS: &str = "return Object.fromEntries([...document.querySelectorAll('#fight-svg .token')].map(t => [t.dataset.name, [t.dataset.square, t.dataset.facing]]))";

/// Whether no fallen token is drawn after (over) a standing one on his
/// square, and whether any square holds both.
const TOKENS_OVER: &str = "const standing = new Set(); let both = false; for (const t of document.querySelectorAll('#fight-svg .token')) { const sq = t.dataset.square; if (t.dataset.state === 'standing') { standing.add(sq); continue; } if (standing.has(sq)) return [false, true]; if ([...document.querySelectorAll('#fight-svg .token')].some(o => o.dataset.square === sq && o.dataset.state === 'standing')) both = true; } return [true, both]";

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

/// The browser tests of this file one at a time: each drives two or three
/// Chromiums, and the machine's cores are shared.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// WebDriver's Enter key.
const ENTER: &str = "\u{E007}";

/// A member's page at the table.
struct Seat<'a> {
    page: &'a Browser<'a>,
    /// As the fight's `controllers` and `waiting` name this member.
    controller: Value,
    key: String,
}

impl<'a> Seat<'a> {
    /// The GM's seat, on `page`.
    fn gm(page: &'a Browser<'a>, key: &str) -> Seat<'a> {
        Seat {
            page,
            controller: json!("gm"),
            key: key.to_string(),
        }
    }

    /// The seat of player `name`, (member id, key) `member`, on `page`.
    fn player(page: &'a Browser<'a>, name: &str, member: &(i64, String)) -> Seat<'a> {
        Seat {
            page,
            controller: json!({"member": member.0, "name": name}),
            key: member.1.clone(),
        }
    }
}

/// How the decisions are made.
#[derive(Clone, Copy, PartialEq, Eq)]
enum By {
    Clicks,
    Keys,
}

/// What a fight played to its end showed.
#[derive(Default)]
struct Played {
    decisions: usize,
    /// Decision (click or key) to every other page showing the next step, ms.
    latencies: Vec<f64>,
    /// Decisions on a map square, by the index of the seat that made them.
    moves: Vec<usize>,
    /// Targets checked as marked (class and reason) on the deciding page.
    targets: usize,
    /// Squares walked along the server's way, summed over the pages.
    walked: usize,
    reloaded: bool,
    /// Squares picked whose facings were offered as buttons.
    facings: usize,
    /// Steps at which a page drew a fallen combatant and a standing one on
    /// one square (the standing one over him).
    shared: usize,
    /// The kinds of decision made.
    kinds: std::collections::BTreeSet<String>,
}

/// Notes every square a token walks (its `data-moving`), with the events
/// the page had taken in then (one move's walk, one number).
const WATCH_WALKS: &str = "window.nutshellWalks = []; new MutationObserver((changes) => { for (const c of changes) if (c.target.dataset.moving) window.nutshellWalks.push([c.target.dataset.name, c.target.dataset.moving, document.getElementById('fight-view').dataset.events]); }).observe(document.getElementById('fight-map-view'), {subtree: true, attributes: true, attributeFilter: ['data-moving']}); return true";

/// Every walk a page showed went square by square (each square next to the
/// one before) and never onto a wall.
async fn walks_keep_to_the_floor(page: &Browser<'_>) {
    let walks = page.js("return window.nutshellWalks ?? []").await;
    let walls = page
        .js("return [...document.querySelectorAll('#fight-svg rect.cell.wall')].map(r => r.dataset.square)")
        .await;
    let walls: Vec<&str> = walls
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let walks = walks.as_array().unwrap();
    let xy = |s: &str| {
        let letters: String = s.chars().take_while(char::is_ascii_uppercase).collect();
        let x = letters
            .chars()
            .fold(0i64, |n, c| n * 26 + i64::from(c as u8 - b'A' + 1));
        let y: i64 = s[letters.len()..].parse().unwrap();
        (x, y)
    };
    let mut last: std::collections::HashMap<(String, String), (i64, i64)> = Default::default();
    for w in walks {
        let square = w[1].as_str().unwrap();
        assert!(
            !walls.contains(&square),
            "a token walked onto the wall {square}: {walks:?}"
        );
        let at = xy(square);
        let key = (w[0].to_string(), w[2].to_string());
        if let Some(before) = last.insert(key, at) {
            assert!(
                (before.0 - at.0).abs() <= 1 && (before.1 - at.1).abs() <= 1,
                "a walk jumped to {square}: {walks:?}"
            );
        }
    }
}

/// The names of the decision boxes a page shows.
async fn boxes(page: &Browser<'_>) -> Vec<String> {
    let names = page
        .js("return [...document.querySelectorAll('#play-panel .play-decision')].map(d => d.dataset.who)")
        .await;
    let mut names: Vec<String> = names
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

/// Plays the fight at `path` to its end from the seats' pages: whoever is
/// awaited picks the engine's default, by clicks (a square on the map, twice,
/// else the option's button) or by keys only. After every step each page's
/// tokens (square, facing) must be the fight's, each page must show the
/// decision boxes of its own member's combatants awaited and no other, the
/// status line must name every combatant awaited, and the deciding page
/// must mark the targets the server names (in the front arc, in sight).
/// `reload`: once, the page of a player awaited for a movement is reloaded
/// and must shade the squares again. `shoot`: screenshots for docs/web.md.
async fn play_to_end(
    base: &str,
    path: &str,
    gm_key: &str,
    seats: &[Seat<'_>],
    by: By,
    reload: bool,
    shoot: bool,
) -> Played {
    for seat in seats {
        seat.page.js(WATCH_WALKS).await;
    }
    let mut played = Played::default();
    let mut shot = false;
    // The ways of the moves decided and not yet made, by mover.
    let mut ways: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    loop {
        let now = get(base, path, gm_key).await;
        let step = now["step"].as_i64().unwrap();
        // Every page shows this step, its tokens as the fight's JSON has them.
        let want = tokens_of(&now["state"]);
        for seat in seats {
            let page = seat.page;
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
            for seat in seats {
                seat.page
                    .until(
                        "return document.getElementById('play-waiting')?.textContent.includes('over')",
                        Duration::from_secs(5),
                        "the page says the fight is over",
                    )
                    .await;
            }
            break;
        }
        assert!(
            played.decisions < 400,
            "the fight ends within 400 decisions"
        );
        let waiting = now["waiting"].as_array().unwrap().clone();
        assert!(!waiting.is_empty(), "step {step}: someone is awaited");
        // Each page shows a box for each decision awaited of its own
        // member, and only those; its status line names every one awaited.
        let mut deciding = None;
        for (i, seat) in seats.iter().enumerate() {
            let page = seat.page;
            let mut theirs: Vec<String> = waiting
                .iter()
                .filter(|w| w["controller"] == seat.controller)
                .map(|w| w["who"].as_str().unwrap().to_string())
                .collect();
            theirs.sort();
            let mut shown = boxes(page).await;
            for _ in 0..100 {
                if shown == theirs {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                shown = boxes(page).await;
            }
            assert_eq!(
                shown, theirs,
                "step {step}: a page shows the options of its member's combatants awaited, and no other's"
            );
            let said = page
                .js("return document.getElementById('play-waiting').textContent")
                .await;
            for w in &waiting {
                assert!(
                    said.as_str().unwrap().contains(w["who"].as_str().unwrap()),
                    "step {step}: the page says whom it waits for: {said}"
                );
            }
            // The clock: the turn and round of the decisions awaited (the
            // state being the last step's), each of them named.
            let first = &waiting[0];
            let round = first["round"].as_u64().unwrap();
            let when = format!(
                "turn {}, {}",
                first["turn"],
                if round == 0 {
                    "the movement phase".to_string()
                } else {
                    format!("round {round}")
                }
            );
            let read = "return document.getElementById('fight-clock').textContent";
            let mut clock = page.js(read).await;
            for _ in 0..40 {
                if clock.as_str().unwrap().contains(&when) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                clock = page.js(read).await;
            }
            let clock = clock.as_str().unwrap();
            assert!(clock.contains(&when), "step {step}: {when}: {clock}");
            for w in &waiting {
                assert!(
                    clock.contains(&format!("{}'s", w["who"].as_str().unwrap())),
                    "step {step}: the clock names every decision awaited: {clock}"
                );
            }
            // A fallen token is drawn under a standing one on his square.
            let order = page.js(TOKENS_OVER).await;
            assert_eq!(
                order[0],
                json!(true),
                "step {step}: the fallen under the standing"
            );
            if i == 0 && order[1] == json!(true) {
                played.shared += 1;
            }
            if deciding.is_none() && !theirs.is_empty() {
                page.until(
                    &format!("return Number(document.getElementById('fight-view').dataset.step) === {step} && Number(document.getElementById('fight-view').dataset.events) >= {step}"),
                    Duration::from_secs(5),
                    "the controller's page has taken in the step",
                )
                .await;
                deciding = Some((i, theirs[0].clone()));
            }
        }
        let (index, who) = deciding.expect("someone at the table controls a combatant awaited");
        let page = seats[index].page;
        let mine = get(base, path, &seats[index].key).await;
        let decisions = mine["decisions"]
            .as_array()
            .cloned()
            .unwrap_or_else(|| vec![mine["decision"].clone()]);
        let decision = decisions
            .iter()
            .find(|d| d["name"] == json!(who))
            .expect("the decision is in the controller's GET")
            .clone();
        let kind = decision["kind"].as_str().unwrap();
        played.kinds.insert(kind.to_string());
        let boxed = format!(".play-decision[data-who={who:?}]");
        // The targets the server names for a set action or a movement are
        // marked on the deciding page, with their reason on hover.
        if kind == "set-action" || kind == "movement" {
            for target in mine["targets"][&who].as_array().into_iter().flatten() {
                let name = target["name"].as_str().unwrap();
                let why = if target["front_arc"] == json!(true) {
                    "in your front arc"
                } else {
                    "in sight"
                };
                let marked = page
                    .js(&format!(
                        "const t = document.querySelector('#fight-svg .token[data-name={name:?}]'); return Boolean(t && t.classList.contains('target') && t.querySelector('title').textContent.includes({why:?}) && getComputedStyle(t).pointerEvents !== 'none')"
                    ))
                    .await;
                assert_eq!(
                    marked,
                    json!(true),
                    "step {step}: {name} is marked as {who}'s target ({why})"
                );
                played.targets += 1;
            }
        }
        // The engine's default, picked: a square (twice: the way, then the
        // move), else the option's button.
        let default = &decision["default"];
        let options = decision["options"].as_array().unwrap();
        let moved_to = default["path"]
            .as_array()
            .and_then(|p| p.last())
            .and_then(Value::as_str)
            .map(|s| s.split(':').next().unwrap().to_string());
        let square = moved_to
            .filter(|square| options.iter().any(|o| o["square"] == json!(square)))
            .or_else(|| {
                // A movement whose default is no square of its own: the
                // first square offered.
                (!options.iter().any(|o| o["square"].is_null()))
                    .then(|| options.iter().find_map(|o| o["square"].as_str()))
                    .flatten()
                    .map(str::to_string)
            });
        if reload && !played.reloaded && index != 0 && square.is_some() {
            // The page reloaded in the middle of the fight, at this member's
            // movement: it shades the squares again.
            played.reloaded = true;
            page.js("location.reload(); return true").await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            page.live().await;
            // Every question asked as the server asks it (these tests answer each).
            page.ask_each_question().await;
            let squares: std::collections::BTreeSet<&str> = options
                .iter()
                .filter_map(|o| o["square"].as_str())
                .collect();
            page.until(
                &format!("const r = document.querySelectorAll('#fight-svg rect[data-reach]'); return r.length === {} && r[0].checkVisibility() && document.querySelector('{}')", squares.len(), boxed.replace('\'', "\\'")),
                Duration::from_secs(15),
                "the reloaded page shows the squares of its movement shaded",
            )
            .await;
            page.js(WATCH_WALKS).await;
        }
        // The server's way to the square: once the move is made (when the
        // phase's moves are all decided), every page walks the token along
        // it, square by square.
        if let Some(square) = &square {
            let way = options
                .iter()
                .filter(|o| o["square"] == json!(square))
                .min_by_key(|o| o["cost"].as_i64())
                .and_then(|o| o["path"].as_array().cloned())
                .unwrap_or_default();
            ways.insert(who.clone(), way);
        }
        for seat in seats {
            seat.page
                .js("window.nutshellWalks = window.nutshellWalks ?? []; window.nutshellWalked = window.nutshellWalks.length; return true")
                .await;
        }
        let before: f64 = page.js("return Date.now()").await.as_f64().unwrap();
        if let Some(square) = &square {
            let reach = format!("#fight-svg rect[data-reach='{square}']");
            let button = format!("{boxed} .play-squares button[data-square='{square}']");
            match by {
                By::Clicks => tap(page, &reach).await,
                By::Keys => {
                    page.keys_to(&button).await;
                    page.keys(ENTER).await;
                }
            }
            page.until(
                &format!("return document.querySelector('{} .play-path')?.textContent.startsWith('{square}:') && document.querySelector('#fight-svg .way')", boxed.replace('\'', "\\'")),
                Duration::from_secs(5),
                "the first pick shows the way and its cost",
            )
            .await;
            if shoot && index == 2 && !shot {
                // The screenshots of docs/web.md: mid-fight, Bob's way drawn.
                shot = true;
                let gm = seats[0].page;
                gm.js("document.getElementById('fight-title').scrollIntoView(); return true")
                    .await;
                gm.screenshot("play-gm-desktop").await;
                page.js("document.getElementById('fight-title').scrollIntoView(); return true")
                    .await;
                page.screenshot("play-player-phone").await;
            }
            // One button picked (one a square), and the way in words: a
            // square not left reads "stay".
            let here: Vec<&Value> = options
                .iter()
                .filter(|o| o["square"] == json!(square))
                .collect();
            let said = page
                .js(&format!(
                    "return [[...document.querySelectorAll('{0} .play-squares button.picked')].map(b => b.dataset.square), document.querySelector('{0} .play-path').textContent]",
                    boxed.replace('\'', "\\'")
                ))
                .await;
            assert_eq!(said[0], json!([square]), "step {step}: one square picked");
            let way_said = said[1].as_str().unwrap();
            assert!(!way_said.contains("by ."), "{way_said}");
            if here.iter().all(|o| o["path"] == json!([])) {
                assert!(
                    way_said.starts_with(&format!("{square}: stay (")),
                    "step {step}: {way_said}"
                );
            }
            // A square with several facings (a Fight action's): its facings
            // are buttons, the current one marked; the default's facing is
            // taken (by a second tap on the square when it is the current
            // one, else by its button).
            let facing_of = |o: &Value| {
                o["choice"]["path"]
                    .as_array()
                    .and_then(|p| p.last())
                    .and_then(Value::as_str)
                    .and_then(|p| p.split_once(':'))
                    .map(|(_, f)| f.to_string())
            };
            let facings: Vec<String> = here.iter().filter_map(|o| facing_of(o)).collect();
            let mut facing_button = None;
            if facings.len() > 1 {
                played.facings += 1;
                let facing_now = now["state"]["combatants"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["name"] == json!(who))
                    .map(|c| c["facing"].as_str().unwrap().to_string())
                    .unwrap();
                let words: Vec<String> = facings
                    .iter()
                    .map(|f| {
                        if *f == facing_now {
                            format!("face {f} (as now)")
                        } else {
                            format!("face {f}")
                        }
                    })
                    .collect();
                assert_eq!(
                    page.js(&format!(
                        "return [...document.querySelectorAll('{} .play-facing')].map(b => b.textContent)",
                        boxed.replace('\'', "\\'")
                    ))
                    .await,
                    json!(words),
                    "step {step}: the facings of {square} as buttons"
                );
                let want = facing_of(default)
                    .filter(|f| facings.contains(f))
                    .unwrap_or_else(|| facings[0].clone());
                if played.facings == 1 {
                    page.screenshot("play-facings").await;
                }
                if want != facing_now {
                    facing_button = Some(format!("{boxed} .play-facing[data-facing='{want}']"));
                }
            }
            match (by, facing_button) {
                (By::Clicks, Some(css)) => page.click(&css).await,
                (By::Keys, Some(css)) => {
                    page.keys_to(&css).await;
                    page.keys(ENTER).await;
                }
                (By::Clicks, None) => tap(page, &reach).await,
                (By::Keys, None) => {
                    // The page keeps the focus on the square picked.
                    page.keys_to(&button).await;
                    page.keys(ENTER).await;
                }
            }
            played.moves.push(index);
        } else {
            let buttons: Vec<Value> = page
                .js(&format!("return [...document.querySelectorAll('{} .play-option')].map(b => b.dataset.choice)", boxed.replace('\'', "\\'")))
                .await
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
            let css = format!("{boxed} .play-option:nth-of-type({})", at + 1);
            match by {
                By::Clicks => page.click(&css).await,
                By::Keys => {
                    page.keys_to(&css).await;
                    page.keys(ENTER).await;
                }
            }
        }
        played.decisions += 1;
        // Every other page updated: the time from the decision to the last
        // of them showing the next step (each page notes when it drew it).
        let mut latest: f64 = 0.0;
        for (i, other) in seats.iter().enumerate() {
            if i == index {
                continue;
            }
            let at = other
                .page
                .until(
                    &format!("return window.nutshellStepAt && Object.entries(window.nutshellStepAt).filter(([s]) => Number(s) > {step}).map(([, t]) => t).sort((a, b) => a - b)[0]"),
                    Duration::from_secs(10),
                    &format!("the page shows the step after {step}"),
                )
                .await;
            latest = latest.max(at.as_f64().unwrap());
        }
        if seats.len() > 1 {
            played.latencies.push(latest - before);
        }
        // The moves this step made: each page walked each person's move
        // along the server's way (the mover's page from the answer to its
        // decision, the others from the log's lines), never in a line of
        // its own through a wall.
        let after = get(base, path, gm_key).await;
        let moved: Vec<(String, Vec<Value>)> = ways
            .iter()
            .filter(|(name, way)| {
                way.last().is_some_and(|end| {
                    after["state"]["combatants"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|c| &c["name"] == *name && c["square"] == *end)
                })
            })
            .map(|(name, way)| (name.clone(), way.clone()))
            .collect();
        for (name, way) in moved {
            ways.remove(&name);
            for seat in seats {
                let script = format!(
                    "return (window.nutshellWalks ?? []).slice(window.nutshellWalked).filter(x => x[0] === {name:?}).map(x => x[1])"
                );
                let mut walked = seat.page.js(&script).await;
                for _ in 0..100 {
                    if walked == json!(way) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    walked = seat.page.js(&script).await;
                }
                assert_eq!(
                    walked,
                    json!(way),
                    "step {step}: the page walks {name} along the server's way"
                );
                played.walked += way.len();
            }
        }
    }
    for seat in seats {
        walks_keep_to_the_floor(seat.page).await;
    }
    played
}

fn report(what: &str, played: &Played) {
    let mut latencies = played.latencies.clone();
    latencies.sort_by(f64::total_cmp);
    eprintln!(
        "{what}: {} decisions ({:?}), {} squares walked on the pages, {} targets marked, {} squares with their facings as buttons, {} steps with a fallen and a standing token on one square; decision -> every other page updated: p50 {:.0} ms, p99 {:.0} ms (max {:.0} ms)",
        played.decisions,
        played.kinds,
        played.walked,
        played.targets,
        played.facings,
        played.shared,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gm_and_two_players_play_a_map_fight_to_the_end_by_clicks() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some((driver, base, _server)) =
        set_up("a_gm_and_two_players_play_a_map_fight_to_the_end_by_clicks").await
    else {
        return;
    };
    let (room_id, gm_key, players) = table(&base, &["Ann", "Bob"]).await;
    let knight = std::fs::read_to_string(format!("{EXAMPLES}/duel/knight.toml")).unwrap();
    let brigand = std::fs::read_to_string(format!("{EXAMPLES}/duel/brigand.toml")).unwrap();
    let map = std::fs::read_to_string(format!("{EXAMPLES}/maps/corridor.toml")).unwrap();

    // The GM on a desktop, Ann on a desktop, Bob on a phone (390 px).
    // Every question asked as the server asks it (these tests answer each).
    let [gm, ann, bob] = seated(
        &driver,
        &base,
        &room_id,
        [
            (1280, 900, &gm_key),
            (1280, 900, &players[0].1),
            (390, 844, &players[1].1),
        ],
    )
    .await;

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
    // Started: the play view (the set-up form and the rest of the table
    // folded away, a button brings them back) and the GM's page shows the
    // map.
    gm.until(
        "const v = document.getElementById('fight-map-view').getBoundingClientRect(); return document.body.classList.contains('playing') && getComputedStyle(document.getElementById('fight-form')).display === 'none' && document.getElementById('play-fold').checkVisibility() && v.top >= -5 && v.top < innerHeight / 2",
        Duration::from_secs(5),
        "the set-up folded and the map in view",
    )
    .await;
    gm.screenshot("play-gm-started").await;
    // The phone's map fits its width, Bob's own token in view.
    bob.until(
        "const t = document.querySelector('#fight-svg .token.own'); const s = document.querySelector('#fight-map-view .zoom-scroll'); if (!t || !s) return false; const a = t.getBoundingClientRect(); return s.scrollWidth <= s.clientWidth + 1 && a.left >= 0 && a.right <= innerWidth && a.top >= 0 && a.bottom <= innerHeight",
        Duration::from_secs(5),
        "the phone's map fits, Bob's token in view",
    )
    .await;
    // Bob's page comes to his decision: its buttons in the window, nothing
    // over them, without a tap.
    if shown["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["who"] == json!("Black Wat"))
    {
        bob.until(
            "const b = [...document.querySelectorAll('#play-panel .play-decision button')]; return b.length > 0 && b.every(x => { const r = x.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return r.top >= 0 && r.bottom <= innerHeight && (at === x || x.contains(at)); })",
            Duration::from_secs(5),
            "Bob's decision in view",
        )
        .await;
        bob.screenshot("play-phone-decision").await;
    } else {
        panic!("Bob is awaited at the start: {}", shown["waiting"]);
    }

    let seats = [
        Seat::gm(&gm, &gm_key),
        Seat::player(&ann, "Ann", &players[0]),
        Seat::player(&bob, "Bob", &players[1]),
    ];
    let played = play_to_end(&base, &path, &gm_key, &seats, By::Clicks, true, true).await;
    assert!(
        played.moves.contains(&2),
        "the phone's player moved his token by tapping squares"
    );
    assert!(
        played.reloaded,
        "a player's page was reloaded at his movement"
    );
    assert!(played.walked > 0, "the pages walked the moves");
    report("corridor, by clicks", &played);
    gm.screenshot("play-gm-end").await;
    bob.screenshot("play-phone-end").await;
    drop(seats);
    for page in [gm, ann, bob] {
        page.close().await;
    }
}

/// The crossroads skirmish (examples/mls/skirmish/ on the crossroads map),
/// played: Brenna and Tamsin are Ada's, Corwin Bo's, Master Odo and Goblin
/// 1 the GM's, the other goblins the engine's. Started through the API; every
/// decision is made by clicks in three browsers, the GM's deciding for two
/// combatants of two sides.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gm_and_two_players_play_the_crossroads_to_the_end_by_clicks() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(driver) =
        driver("a_gm_and_two_players_play_the_crossroads_to_the_end_by_clicks").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let (room_id, gm_key, players) = table(&base, &["Ada", "Bo"]).await;
    // Every question asked as the server asks it (these tests answer each).
    let [gm, ada, bo] = seated(
        &driver,
        &base,
        &room_id,
        [
            (1280, 900, &gm_key),
            (1280, 900, &players[0].1),
            (1280, 900, &players[1].1),
        ],
    )
    .await;
    let path = start_crossroads_by_two(&base, &room_id, &gm_key, &players).await;
    let seats = [
        Seat::gm(&gm, &gm_key),
        Seat::player(&ada, "Ada", &players[0]),
        Seat::player(&bo, "Bo", &players[1]),
    ];
    let played = play_to_end(&base, &path, &gm_key, &seats, By::Clicks, false, false).await;
    for (i, who) in [(0, "the GM"), (1, "Ada"), (2, "Bo")] {
        assert!(
            played.moves.contains(&i),
            "{who} moved a token by clicks on the map"
        );
    }
    assert!(played.walked > 0, "the pages walked the moves");
    report("crossroads, by clicks", &played);
    gm.screenshot("play-crossroads-end").await;
    drop(seats);
    for page in [gm, ada, bo] {
        page.close().await;
    }
}

/// The corridor fight played to its end by two players with the keyboard
/// alone (Tab, the arrow keys and Enter; no click at all): every kind of
/// decision the fight asks (set actions, a movement's square then its
/// confirmation, the round's options) can be made without a mouse.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_players_play_the_corridor_to_the_end_by_keyboard_only() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some((driver, base, _server)) =
        set_up("two_players_play_the_corridor_to_the_end_by_keyboard_only").await
    else {
        return;
    };
    let (room_id, gm_key, players) = table(&base, &["Ann", "Bob"]).await;
    let ann = driver.browser(1280, 900).await;
    let bob = driver.browser(1280, 900).await;
    let seat = |key: &str| format!("{base}/#room={room_id}&key={key}");
    ann.go(&seat(&players[0].1)).await;
    bob.go(&seat(&players[1].1)).await;
    for page in [&ann, &bob] {
        page.live().await;
        // Every question asked as the server asks it (these tests answer each).
        page.ask_each_question().await;
    }
    let started = start_corridor(
        &base,
        &room_id,
        &gm_key,
        json!({"Sir Aldric": players[0].0, "Black Wat": players[1].0}),
    )
    .await;
    let path = format!("/api/rooms/{room_id}/fights/{}", started["fight"]);
    let seats = [
        Seat::player(&ann, "Ann", &players[0]),
        Seat::player(&bob, "Bob", &players[1]),
    ];
    let played = play_to_end(&base, &path, &gm_key, &seats, By::Keys, false, false).await;
    assert!(
        played.moves.contains(&0) && played.moves.contains(&1),
        "both players moved by keys"
    );
    for kind in ["set-action", "movement", "attack"] {
        assert!(
            played.kinds.contains(kind),
            "a {kind} decision was made by keys: {:?}",
            played.kinds
        );
    }
    report("corridor, by keyboard", &played);
    drop(seats);
    close_all([ann, bob]).await;
}

/// The pair: Ann, with a sword and a bow, and Bob, with a sword, side by
/// side.
// A side of the same shape as nutshell-cli's tests/play.rs ones: test
// data, each crate's tests build alone.
const PAIR: &str = r#"side = "The pair"
pcs = true

[[combatant]]
name = "Ann"
thp = 12
skills = { sword = 10, bow = 10 }
weapons = [{ name = "sword", skill = "sword", dam = 6 }, { name = "bow", skill = "bow", dam = 6, range = 20, kind = "missile" }]

[[combatant]]
name = "Bob"
thp = 12
skills = { sword = 10 }
weapons = [{ name = "sword", skill = "sword", dam = 6 }]
"#;
/// Their foe, Cid, with a sword.
const FOE: &str = r#"name = "Cid"
thp = 12
skills = { sword = 10 }
weapons = [{ name = "sword", skill = "sword", dam = 6 }]
"#;
/// A small room: Ann faces Cid, Bob stands beside her facing the same way.
const ROOM: &str = r#"name = "A room"
rows = """
......
......
......
"""
[[start]]
who = "Ann"
at = "B2"
facing = "east"
[[start]]
who = "Bob"
at = "B3"
facing = "east"
[[start]]
who = "Cid"
at = "C2"
facing = "west"
"#;

/// Several decisions awaited at once: the GM plays both members of the
/// side acting first, who declare in any order (the issue: "the active
/// side's members may declare in any order"; mls, Party Turns and Turn
/// Order), so the server's GET lists both in `waiting` and gives both in
/// `decisions`. The page names every one awaited, rings every token
/// awaited, and shows a box a decision, labelled with its combatant, each
/// sending its own `who` and `kind`; the target of the set actions is
/// marked (mls, Who May Attack, Who May Shoot).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_page_shows_every_decision_awaited_and_a_box_for_each_of_its_own() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(driver) =
        driver("a_page_shows_every_decision_awaited_and_a_box_for_each_of_its_own").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let (room_id, gm_key, _) = table(&base, &[]).await;
    let gm = driver.browser(1280, 900).await;
    gm.go(&format!("{base}/#room={room_id}&key={gm_key}")).await;
    gm.live().await;
    // Every question asked as the server asks it (these tests answer each).
    gm.js("localStorage.setItem('nutshell:grouped', 'off'); return null")
        .await;
    // Each POST of a decision is noted.
    gm.js(r#"
        const real = window.fetch;
        window.nutshellPosted = [];
        window.fetch = async (url, options) => {
          if (options?.method === 'POST' && String(url).endsWith('/decisions')) window.nutshellPosted.push(JSON.parse(options.body));
          return real(url, options);
        };
        return true"#)
        .await;
    let started = post(
        &base,
        &format!("/api/rooms/{room_id}/fights"),
        Some(&gm_key),
        json!({
            "a": PAIR, "b": FOE, "map": ROOM, "played": true,
            "control": {"Ann": "gm", "Bob": "gm", "Cid": "engine"},
        }),
    )
    .await;
    let path = format!("/api/rooms/{room_id}/fights/{}", started["fight"]);
    let now = get(&base, &path, &gm_key).await;
    let awaited: Vec<&str> = now["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["who"].as_str().unwrap())
        .collect();
    assert_eq!(awaited, ["Ann", "Bob"], "the server awaits both: {now}");
    assert_eq!(now["decisions"].as_array().map(Vec::len), Some(2), "{now}");
    gm.until(
        "return document.querySelectorAll('#play-panel .play-decision').length === 2",
        Duration::from_secs(10),
        "a box for each of the GM's decisions",
    )
    .await;
    assert_eq!(boxes(&gm).await, ["Ann", "Bob"]);
    let said = gm
        .js("return document.getElementById('play-waiting').textContent")
        .await;
    let said = said.as_str().unwrap();
    assert!(
        said.contains("Ann's set action") && said.contains("Bob's set action"),
        "the status line names every decision awaited: {said}"
    );
    let labels = gm
        .js("return [...document.querySelectorAll('.play-decision .play-who')].map(p => p.textContent)")
        .await;
    assert_eq!(
        labels,
        json!(["Ann: set action", "Bob: set action"]),
        "each box is labelled with its combatant"
    );
    let ringed = gm
        .js("return [...document.querySelectorAll('#fight-svg .token.yours')].map(t => t.dataset.name).sort()")
        .await;
    assert_eq!(
        ringed,
        json!(["Ann", "Bob"]),
        "every token awaited is ringed"
    );
    // Cid stands in Ann's front arc, and her bow sees him.
    let titles = gm
        .js("return Object.fromEntries([...document.querySelectorAll('#fight-svg .token.target')].map(t => [t.dataset.name, t.dataset.why]))")
        .await;
    assert_eq!(
        titles["Cid"]
            .as_str()
            .map(|w| w.contains("in your front arc") && w.contains("in sight")),
        Some(true),
        "the target marked with its reasons: {titles}"
    );
    // Bob's box answers first: it posts Bob's who and kind, the server
    // takes it (Bob declared first), and Ann's box stays.
    gm.click(".play-decision[data-who=\"Bob\"] .play-option")
        .await;
    let posted = gm
        .until(
            "return window.nutshellPosted.length === 1 && window.nutshellPosted.map(p => [p.who, p.kind])",
            Duration::from_secs(5),
            "Bob's box posted",
        )
        .await;
    assert_eq!(posted, json!([["Bob", "set-action"]]));
    let mut after = get(&base, &path, &gm_key).await;
    for _ in 0..100 {
        if after["step"].as_i64() > now["step"].as_i64() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        after = get(&base, &path, &gm_key).await;
    }
    assert!(
        after["step"].as_i64() > now["step"].as_i64(),
        "Bob's decision was taken: {after}"
    );
    let made = after["state"].to_string();
    assert!(
        after["waiting"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w["who"] != "Bob" || w["kind"] != "set-action"),
        "Bob's set action is no longer awaited: {made}"
    );
    gm.until(
        "return [...document.querySelectorAll('#play-panel .play-decision')].some(d => d.dataset.who === 'Ann' || d.dataset.who === 'Bob')",
        Duration::from_secs(10),
        "the next decision's box",
    )
    .await;
    gm.close().await;
}
