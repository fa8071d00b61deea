//! The room in a real browser (the web table's start page, seats, rolls and
//! feed): a GM and a player sharing a table, a room made and a roll rolled
//! with the keyboard alone, a browser keeping every seat it held.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/proxy.rs"]
mod proxy;
use proxy::CuttableProxy;

#[path = "support/browser.rs"]
mod browser;
use browser::pages::{FITS, WAIT, count};
use browser::{Answered, close_all, log, set_up};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_and_a_player_share_a_table_in_the_browser() {
    let Some((driver, base, _server)) =
        set_up("a_gm_and_a_player_share_a_table_in_the_browser").await
    else {
        return;
    };
    let second = Duration::from_secs(1);

    // The GM creates a room through the form.
    let gm = driver.browser(1000, 1000).await;
    gm.open_start(&base).await;
    gm.create_room(Some("Crypt crawl")).await;
    let invite = gm.invite_link().await;
    gm.until(&count("created"), WAIT, "the room event").await;

    // The player opens the invite link and joins with a name.
    // The player's page reaches the server through a proxy the test can cut.
    let proxy = CuttableProxy::start(base.trim_start_matches("http://").to_string()).await;
    let player_base = format!("http://{}", proxy.address);
    let player = driver.browser(390, 844).await;
    player
        .open_invite(&invite.replace(&base, &player_base))
        .await;
    player.join_as("Ada").await;
    gm.until(&count("Ada joined"), WAIT, "the join on the GM's page")
        .await;

    // The player rolls: the GM's page shows it within a second; and back.
    player.roll("3d6 + 2", false).await;
    player
        .until(&count("3d6 + 2"), WAIT, "the player's own roll")
        .await;
    gm.until(
        &count("3d6 + 2"),
        second,
        "the player's roll on the GM's page",
    )
    .await;
    gm.roll("1d20 + 7", false).await;
    player
        .until(
            &count("1d20 + 7"),
            second,
            "the GM's roll on the player's page",
        )
        .await;

    // Kept and dropped dice differ by more than colour.
    player.roll("4d6kh3", false).await;
    player.until(&count("4d6kh3"), WAIT, "4d6kh3").await;
    let dropped = player
        .js("return [...document.querySelectorAll('#feed .die.dropped')].map(d => getComputedStyle(d).borderStyle + ' ' + getComputedStyle(d).textDecorationLine)")
        .await;
    assert!(
        dropped[0].as_str().unwrap().contains("dashed line-through"),
        "{dropped}"
    );

    // A bad expression: the error and its caret at the bad character, and
    // nothing sent to the room.
    let before = player
        .js("return document.querySelectorAll('#feed li').length")
        .await;
    player.roll("4d6kh3 + d", false).await;
    let error = player
        .until("return !document.getElementById('roll-error').hidden && document.getElementById('roll-error').innerText", WAIT, "the error")
        .await;
    let error = error.as_str().unwrap();
    let lines: Vec<&str> = error.lines().collect();
    let echo = lines.iter().find(|l| l.contains("4d6kh3 + d")).unwrap();
    let caret = lines
        .iter()
        .find(|l| l.trim_start().starts_with('^'))
        .unwrap();
    assert_eq!(
        caret.find('^').unwrap(),
        echo.find("4d6kh3").unwrap() + "4d6kh3 + d".len(),
        "the caret is under the end of the expression:\n{error}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        player
            .js("return document.querySelectorAll('#feed li').length")
            .await,
        before
    );
    assert_eq!(player.js("return window.innerWidth").await, json!(390));
    // Nothing is wider than the phone's screen.
    assert_eq!(player.js(FITS).await, json!(true));
    player.screenshot("player-phone").await;

    // A secret GM roll: the player's page shows only that it happened, and
    // nothing the player's browser received holds its expression; revealed,
    // it appears.
    gm.roll("2d10 + 99", true).await;
    gm.until(
        &count("2d10 + 99"),
        WAIT,
        "the GM's secret roll on the GM's page",
    )
    .await;
    player
        .until(&count("rolled in secret"), WAIT, "the secret roll's notice")
        .await;
    let leaked = player
        .js("return document.documentElement.outerHTML.includes('2d10 + 99') || performance.getEntries().some(e => e.name.includes('2d10'))")
        .await;
    assert_eq!(leaked, json!(false));
    gm.screenshot("gm-desktop").await;
    // The GM's own page says the roll is secret, with its "show" button.
    const GM_SECRET: &str = "return [...document.querySelectorAll('#feed li')].some(li => li.textContent.includes('players do not see it yet') || li.querySelector('.show-button'))";
    assert_eq!(gm.js(GM_SECRET).await, json!(true));
    gm.js(
        "document.getElementById('reveal').click(); document.getElementById('reveal-yes').click();",
    )
    .await;
    player
        .until(
            &count("2d10 + 99"),
            WAIT,
            "the secret roll shown after the reveal",
        )
        .await;
    // After the reveal the GM's page no longer calls it secret, nor offers
    // to show it.
    gm.until(
        &GM_SECRET.replace("return ", "return !"),
        WAIT,
        "the GM's page says the roll is shown",
    )
    .await;
    assert_ne!(gm.js(&count("2d10 + 99")).await, json!(0));

    // Reload: the whole history, in order, nothing twice.
    const HISTORY: &str =
        "return [...document.querySelectorAll('#feed li')].map(li => Number(li.dataset.seq))";
    let seen = player.js(HISTORY).await;
    // A marker the old page holds and a reloaded one does not.
    player
        .js("window.beforeReload = true; location.reload();")
        .await;
    player
        .until(
            "return window.beforeReload === undefined && !document.getElementById('table').hidden",
            WAIT,
            "the reloaded page",
        )
        .await;
    player
        .until(
            &format!(
                "return document.querySelectorAll('#feed li').length >= {}",
                seen.as_array().unwrap().len()
            ),
            WAIT,
            "the history after a reload",
        )
        .await;
    let again = player.js(HISTORY).await;
    let mut expected: Vec<i64> = seen
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    let again: Vec<i64> = again
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(again, expected, "newest first, each once");
    assert_eq!(again.len(), *expected.first().unwrap() as usize, "no gap");

    // A dropped connection: the player's page is cut off while the GM rolls
    // twice; when the connection is back the stream resumes after the last
    // event the page had: both rolls, once each, in order.
    proxy.cut().await;
    player
        .until(
            "return document.getElementById('status').textContent.includes('reconnecting')",
            WAIT,
            "the page noticing the cut",
        )
        .await;
    gm.roll("7d7", false).await;
    gm.until(&count("7d7"), WAIT, "the first roll while cut off")
        .await;
    gm.roll("8d8", false).await;
    gm.until(&count("8d8"), WAIT, "the second roll while cut off")
        .await;
    proxy.restore();
    player
        .until(
            &count("8d8"),
            Duration::from_secs(20),
            "the rolls missed while cut off",
        )
        .await;
    let after: Vec<i64> = player
        .js(HISTORY)
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(
        after,
        (1..=after[0]).rev().collect::<Vec<_>>(),
        "each event once, in order"
    );

    // The odds of a roll: the chart with the rolled total marked.
    player
        .js("document.querySelector('#feed .odds-button').click();")
        .await;
    let odds = player
        .until("const c = document.querySelector('#feed .chart'); return c && c.textContent.includes('as high or higher') && c.textContent", WAIT, "the odds chart")
        .await;
    assert!(odds.as_str().unwrap().contains("% of the time"), "{odds}");
    assert_eq!(
        player
            .js("return document.querySelectorAll('#feed .chart rect.hit').length")
            .await,
        json!(1)
    );

    // Each ruleset's form makes a check; the page shows the outcome the
    // rules give for the dice the server rolled (recomputed here with the
    // library the command line uses, from the logged faces).
    let key = player
        .js("return window.nutshellSeats.get(new URLSearchParams(location.hash.slice(1)).get('room')).key")
        .await;
    let key = key.as_str().unwrap().to_string();
    let room = invite
        .split("room=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string();
    player
        .js("document.getElementById('rules').open = true;")
        .await;
    for (ruleset, fields) in [
        (
            "fantasy",
            json!({"mod": 5, "dc": "hard", "crit_success": true}),
        ),
        ("mls", json!({"skill": 12, "mod": 1})),
        ("exploding-d6", json!({"score": 3, "dc": 4})),
        ("tiered-d20", json!({"skill": 4, "dc": 14, "edge": 1})),
        ("favor-3d6", json!({"mod": 2, "favor": 1, "dc": 12})),
    ] {
        player
            .js(&format!(
                "document.getElementById('rules-kind').value = 'check';
                 document.getElementById('rules-kind').dispatchEvent(new Event('change'));
                 document.getElementById('rules-set').value = {ruleset:?};
                 document.getElementById('rules-set').dispatchEvent(new Event('change'));
                 document.getElementById('rules-result').replaceChildren();
                 const fields = {fields};
                 for (const [name, value] of Object.entries(fields)) {{
                   const input = document.getElementById('rule-' + name);
                   if (input.type === 'checkbox') input.checked = value; else input.value = value;
                 }}
                 document.querySelector('#rules-form button[type=submit]').click();"
            ))
            .await;
        let shown = player
            .until("const t = document.querySelector('#rules-result .total'); return t && t.textContent", WAIT, ruleset)
            .await;
        let odds_rows = player
            .js("return document.querySelectorAll('#rules-result table.odds tr').length")
            .await;
        assert!(
            odds_rows.as_u64().unwrap() >= 3,
            "{ruleset}: the odds table"
        );
        let log = log(&base, &room, &key).await;
        let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
        assert_eq!(last["body"]["action"]["kind"], "check");
        let request: nutshell_rules::request::CheckRequest =
            serde_json::from_value(last["body"]["action"]["request"].clone()).unwrap();
        assert_eq!(request.ruleset(), ruleset);
        let result = &last["body"]["result"];
        let faces: Vec<i64> = result["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["face"].as_i64().unwrap())
            .collect();
        let again = request
            .roll(&mut nutshell_dice::Scripted::new(faces))
            .unwrap();
        let again = serde_json::to_value(again).unwrap();
        assert_eq!(again["outcome"], result["outcome"], "{ruleset}");
        assert_eq!(
            shown, result["outcome"],
            "{ruleset}: the page shows the outcome"
        );
    }
    player.screenshot("player-check").await;

    // The dice panel: every die seen, with the exact odds of such a run.
    player
        .js("document.getElementById('dice-panel').open = true;")
        .await;
    let panel = player
        .until("const rows = [...document.querySelectorAll('#dice-panel-rows tr')]; return rows.length && rows.every(r => r.lastChild.textContent !== '') && rows.map(r => r.textContent).join(' | ')", WAIT, "the dice panel")
        .await;
    let panel = panel.as_str().unwrap();
    assert!(panel.contains("Ada") && panel.contains("d6"), "{panel}");
    assert!(
        panel.contains("sessions") || panel.contains("about average"),
        "{panel}"
    );

    // A character built with the guided form: the table prices the choices
    // as they change (POST .../sheets/check), names each rule broken next
    // to its field, and the sheet made is one the rules accept (checked
    // with the library `nutshell mls character check` uses).
    player
        .js("document.getElementById('characters').open = true;")
        .await;
    let start = player
        .until(
            "const t = document.getElementById('char-cps').textContent; return t.includes('spent') && t",
            WAIT,
            "the CPs of the form's choices",
        )
        .await;
    let start = start.as_str().unwrap().to_string();
    assert!(start.contains("the rules accept"), "{start}");
    // A third primary trait at RAv+2 (dexterity is at +2 already): the
    // count changes and the limit is named next to a trait.
    player
        .js("for (const t of ['strength', 'body']) {
               const s = document.getElementById('cf-trait-' + t);
               s.value = '4'; s.dispatchEvent(new Event('change', {bubbles: true}));
             }")
        .await;
    let plus_two = player
        .until(
            &format!(
                "const t = document.getElementById('char-cps').textContent;
                 const p = [...document.querySelectorAll('.traits .problem')].map(n => n.textContent).join(' ');
                 return t !== {} && p && [t, p]",
                json!(start)
            ),
            WAIT,
            "the +2 limit named at the traits",
        )
        .await;
    assert_ne!(plus_two[0], json!(start), "{plus_two}");
    // Over budget: twenty Fate Points bought (100 CPs).
    player
        .js("for (const t of ['strength', 'body']) {
               const s = document.getElementById('cf-trait-' + t);
               s.value = '3'; s.dispatchEvent(new Event('change', {bubbles: true}));
             }
             const f = document.getElementById('cf-fate');
             f.value = '20'; f.dispatchEvent(new Event('input', {bubbles: true}));")
        .await;
    let over = player
        .until(
            "const t = document.getElementById('char-cps');
             const v = [...document.querySelectorAll('#char-violations li')].map(n => n.textContent);
             return t.classList.contains('over') && v.some(x => x.startsWith('character.cps')) && [t.textContent, v.join(' | ')]",
            WAIT,
            "the over-budget choice named",
        )
        .await;
    assert!(over[0].as_str().unwrap().contains("-"), "{over}");
    player
        .js("document.getElementById('char-guided').scrollIntoView();")
        .await;
    player.screenshot("player-character-form").await;
    // Issue 26, item 5, on the phone: every input and list of the form has
    // a visible label of its own; the occupation's base shows its whole
    // value ("strength+dexterity", not "strength+dexteri"), its level sits
    // under its label; no legend runs out of its border or over two lines.
    let unlabelled = player
        .js("return [...document.querySelectorAll('#char-guided input, #char-guided select')].filter(c => {
               const label = c.closest('label') || document.querySelector(`label[for=\"${c.id}\"]`);
               return !label || !label.innerText.trim() || label.getBoundingClientRect().height === 0;
             }).map(c => c.id || c.getAttribute('aria-label'))")
        .await;
    assert_eq!(unlabelled, json!([]), "controls without a visible label");
    let occupation = player
        .js("const b = document.getElementById('cf-occ-base');
             const c = document.createElement('canvas').getContext('2d');
             const s = getComputedStyle(b); c.font = `${s.fontSize} ${s.fontFamily}`;
             const room = b.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
             return [b.value, c.measureText(b.value).width <= room, Math.round(c.measureText(b.value).width), room]")
        .await;
    assert_eq!(occupation[0], "strength+dexterity");
    assert_eq!(occupation[1], true, "the base is cut: {occupation}");
    let level = player
        .js("const s = document.getElementById('cf-occ-level'); const l = s.closest('label').querySelector('span').getBoundingClientRect(); const r = s.getBoundingClientRect();
             return [Math.round(r.left - l.left), r.top >= l.bottom - 1, r.height < 60]")
        .await;
    assert_eq!(level, json!([0, true, true]), "the level under its label");
    let tall = player
        .js("return [...document.querySelectorAll('#char-guided label.cell input, #char-guided label.cell select')].filter(c => c.getBoundingClientRect().height > 60).map(c => c.id || c.getAttribute('aria-label'))")
        .await;
    assert_eq!(tall, json!([]), "controls a line high");
    let legends = player
        .js("return [...document.querySelectorAll('#characters legend')].filter(l => {
               const f = l.parentElement.getBoundingClientRect(); const r = l.getBoundingClientRect();
               const line = parseFloat(getComputedStyle(l).lineHeight) || 1.45 * parseFloat(getComputedStyle(l).fontSize);
               return r.right > f.right + 0.5 || r.left < f.left - 0.5 || r.height > 1.5 * line;
             }).map(l => l.textContent)")
        .await;
    assert_eq!(legends, json!([]), "legends out of their border on a phone");
    assert_eq!(
        player
            .js("return document.documentElement.scrollWidth <= 390")
            .await,
        true
    );
    player
        .js("const f = document.getElementById('cf-fate');
             f.value = '0'; f.dispatchEvent(new Event('input', {bubbles: true}));")
        .await;
    player
        .until(
            "const t = document.getElementById('char-cps').textContent;
             return t.includes('the rules accept') && !document.querySelector('#char-violations li')",
            WAIT,
            "the valid choices again",
        )
        .await;
    // The GM has the list of the table's sheets open: another member's new
    // sheet joins it live, without a reload.
    gm.js("document.getElementById('characters').open = true;")
        .await;
    player
        .js("document.querySelector('#sheet-form button[type=submit]').click();")
        .await;
    gm.until(
        "return [...document.querySelectorAll('#sheets li summary')].some(s => s.textContent.startsWith('Brana '))",
        WAIT,
        "the player's new sheet in the GM's open list, live",
    )
    .await;
    let sheet = player
        .until(
            "const p = document.querySelector('#sheets pre'); return p && p.textContent",
            WAIT,
            "the new sheet",
        )
        .await;
    let sheet = sheet.as_str().unwrap();
    let parsed = nutshell_mls::character::validate::parse_sheet("sheet", sheet).unwrap();
    assert_eq!(parsed.name, "Brana");
    // The sheet is shown as a sheet (issue 26, item 5): traits, skills,
    // weapons, armour, health and Fate Points as the sheet has them, the
    // ledger and the TOML folded.
    let shown = player
        .until(
            "const v = document.querySelector('#sheets .sheet'); return v && [
               [...v.querySelectorAll('.sheet-traits .trait-name')].map(t => t.textContent),
               [...v.querySelectorAll('.sheet-traits .trait-value')].map(t => Number(t.textContent)),
               [...v.querySelectorAll('.sheet-skills tr')].slice(1).map(r => r.cells[0].textContent + ' ' + r.cells[3].textContent),
               [...v.querySelectorAll('.sheet-weapons td')].slice(0, 3).map(t => t.textContent),
               [...v.querySelectorAll('.sheet-armour td')].slice(0, 3).map(t => t.textContent),
               [...v.querySelectorAll('.sheet-facts span')].map(t => t.textContent).slice(0, 2),
               v.querySelector('details.ledger').open, v.querySelector('details.toml').open,
               /Ledger \\(\\d+ entries\\)/.test(v.querySelector('details.ledger summary').textContent)]",
            WAIT,
            "the sheet as a sheet",
        )
        .await;
    let t = &parsed.traits;
    let traits = [
        t.strength,
        t.body,
        t.size,
        t.dexterity,
        t.agility,
        t.mind,
        t.aura,
        t.awareness,
    ];
    assert_eq!(
        shown[0],
        json!([
            "strength",
            "body",
            "size",
            "dexterity",
            "agility",
            "mind",
            "aura",
            "awareness"
        ])
    );
    assert_eq!(shown[1], json!(traits), "{shown}");
    assert_eq!(
        shown[2],
        json!([
            "climb base+1",
            "dodge base+1",
            "observe not acquired",
            "sword base+2"
        ]),
        "{shown}"
    );
    assert_eq!(shown[3], json!(["arming sword", "sword", "8"]), "{shown}");
    assert_eq!(shown[4], json!(["gambeson", "2", "partial"]), "{shown}");
    assert_eq!(
        shown[5],
        json!([
            format!("Health: {} THP", parsed.thp),
            format!("Fate Points: {}", parsed.fate_points)
        ]),
        "{shown}"
    );
    assert_eq!(
        &shown.as_array().unwrap()[6..],
        &[json!(false), json!(false), json!(true)],
        "{shown}"
    );
    // The feed says what was done: "Ada made a character: Brana".
    let made = player
        .until(
            "const li = [...document.querySelectorAll('#feed li')].find(li => li.textContent.includes('made a character')); return li && li.innerText",
            WAIT,
            "the new character in the feed",
        )
        .await;
    let made = made.as_str().unwrap();
    assert!(
        made.contains("Ada made a character:") && made.contains("Brana"),
        "{made}"
    );
    assert!(
        !made.contains("rolled") && !made.contains("New character"),
        "{made}"
    );
    let violations = nutshell_mls::character::validate::validate(&parsed, Some(sheet));
    assert!(violations.is_empty(), "{violations:?}");
    // The GM sees every sheet of the table.
    gm.js("document.getElementById('characters').open = true;")
        .await;
    gm.until(
        "return document.querySelectorAll('#sheets li').length === 1",
        WAIT,
        "the GM's list of sheets",
    )
    .await;

    // The player advances the character from its form: a major adventure
    // in a major role and a year passed; the ledger's new entries on the
    // page are the advance the log holds.
    // A trait checked with no adventure: refused in the form's words, not
    // the command line's (issue 26, item 5).
    player
        .js("document.querySelector('#sheets details').open = true;
             const form = document.querySelector('#sheets .advance-form');
             form.querySelector('[id$=-check]').value = 'strength';
             form.querySelector('button[type=submit]').click();")
        .await;
    let refused = player
        .until(
            "const e = document.querySelector('#sheets .advance-form .error'); return e && !e.hidden && e.innerText",
            WAIT,
            "the advance refused",
        )
        .await;
    let refused = refused.as_str().unwrap();
    assert!(
        refused.contains("“adventure”") && !refused.contains("--"),
        "{refused}"
    );
    player
        .js("document.querySelector('#sheets .advance-form [id$=-check]').value = '';")
        .await;
    player
        .js("document.querySelector('#sheets details').open = true;
             const form = document.querySelector('#sheets .advance-form');
             form.querySelector('[id$=-adventure]').value = 'major';
             form.querySelector('[id$=-role]').value = 'major';
             form.querySelector('[id$=-years]').value = '1';
             form.querySelector('button[type=submit]').click();")
        .await;
    let entries = player
        .until(
            "const items = [...document.querySelectorAll('#sheets .advance-result li')]; return items.length && items.map(li => li.textContent)",
            WAIT,
            "the advance's ledger entries",
        )
        .await;
    let log = log(&base, &room, &key).await;
    let advance = log
        .lines()
        .rev()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["body"]["action"]["kind"] == "advance")
        .expect("the advance is in the log");
    let logged: Vec<String> = advance["body"]["result"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let roll = entry["roll"]
                .as_str()
                .map(|r| format!(" [{r}]"))
                .unwrap_or_default();
            format!("{}{roll}", entry["change"].as_str().unwrap())
        })
        .collect();
    assert_eq!(entries, json!(logged));
    assert!(
        logged.iter().any(|e| e.contains("major adventure")),
        "{logged:?}"
    );
    player
        .js("document.querySelector('#sheets .advance-form').scrollIntoView();")
        .await;
    player.screenshot("player-advance").await;

    // The GM shows one secret roll to everyone from the feed.
    gm.roll("5d4 + 55", true).await;
    player
        .until(&count("rolled in secret"), WAIT, "another secret roll")
        .await;
    gm.until(
        "return document.querySelector('#feed .show-button')",
        WAIT,
        "the show button",
    )
    .await;
    gm.js("document.querySelector('#feed .show-button').click();")
        .await;
    player
        .until(&count("5d4 + 55"), WAIT, "the shown secret roll")
        .await;

    // A fight stepped through the API shows on both pages round by round,
    // with each step's lines and every combatant's health and position.
    let http = reqwest::Client::new();
    let knight = include_str!("../../../examples/mls/duel/knight.toml");
    let brigand = include_str!("../../../examples/mls/duel/brigand.toml");
    let fight: Value = http
        .post(format!("{base}/api/rooms/{room}/fights"))
        .bearer_auth(&key)
        .json(&json!({"a": knight, "b": brigand, "distance": 3}))
        .answer()
        .await;
    let id = fight["fight"].as_i64().unwrap();
    let step: Value = http
        .post(format!("{base}/api/rooms/{room}/fights/{id}/step"))
        .bearer_auth(&key)
        .answer()
        .await;
    assert_eq!(step["step"], 1, "{step}");
    let knight_now = &step["state"]["combatants"][0];
    // Each combatant named once (a side of one is named after him).
    let expected = format!(
        "Sir Aldric: {}/12 HP, {}, square {}",
        knight_now["chp"],
        knight_now["state"].as_str().unwrap(),
        knight_now["position"]
    );
    for page in [&gm, &player] {
        let shown = page
            .until(
                &format!(
                    "const item = [...document.querySelectorAll('#feed li')].find(li => li.textContent.includes('Fight #{id}, step 1')); return item && item.textContent"
                ),
                WAIT,
                "the fight's first step",
            )
            .await;
        let shown = shown.as_str().unwrap();
        assert!(shown.contains(&expected), "{expected} in {shown}");
        assert!(shown.contains("Turn 1: Sir Aldric"), "{shown}");
        assert!(!shown.contains("Sir Aldric (Sir Aldric)"), "{shown}");
    }

    close_all([player, gm]).await;
}

/// issue 12: "Works ... with the keyboard alone": a room made and a roll
/// rolled with Tab, letters and Enter only (real key events, no script
/// touching the page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_made_and_a_roll_rolled_with_the_keyboard_alone() {
    let Some((driver, base, _server)) =
        set_up("a_room_is_made_and_a_roll_rolled_with_the_keyboard_alone").await
    else {
        return;
    };
    let page = driver.browser(1000, 900).await;
    page.open_start(&base).await;
    page.tab_to("create-name", 30).await;
    // Type after the name the field offers, press Enter.
    page.keys(" Keyboard night\u{E007}").await;
    page.until(
        "return !document.getElementById('table').hidden && document.getElementById('room-name') && document.body.innerText.includes('Keyboard night')",
        WAIT,
        "the room, made with the keyboard",
    )
    .await;
    page.tab_to("expression", 80).await;
    page.keys("2d6+1\u{E007}").await;
    page.until(
        &count("2d6 + 1"),
        WAIT,
        "the roll, rolled with the keyboard",
    )
    .await;
    // issue 12: "Replayed history (after a reload or reconnect) is shown
    // without re-announcing": the new roll is announced; after a reload
    // the same roll is in the feed again but nothing is announced.
    page.until(
        "return document.getElementById('announce').textContent.includes('2d6 + 1')",
        WAIT,
        "the roll announced",
    )
    .await;
    page.js("window.beforeReload = true; location.reload();")
        .await;
    page.until(
        "return window.beforeReload === undefined && !document.getElementById('table').hidden",
        WAIT,
        "the reloaded page",
    )
    .await;
    page.until(&count("2d6 + 1"), WAIT, "the history after a reload")
        .await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        page.js("return document.getElementById('announce').textContent")
            .await,
        json!(""),
        "old rolls are not announced again"
    );
    page.close().await;
}

/// Issue 24, items 6 and 7 (issue 27, item 8): a browser keeps every seat it
/// has held in a room. The GM opens a player's seat link: the page takes
/// the player's seat, the GM's key and invite stay, and the seat switcher
/// takes the GM back. The GM's rolls carry the GM mark by their role; a
/// player named "The GM" never does. The page shows the room's latest
/// event (`SEQ:HASH`) that `nutshell verify --head` checks, and sends a
/// fresh 32-byte client seed with each roll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_keeps_every_seat_and_marks_the_gm_by_role() {
    let Some((driver, base, _server)) =
        set_up("a_browser_keeps_every_seat_and_marks_the_gm_by_role").await
    else {
        return;
    };
    let gm = driver.browser(1000, 900).await;
    gm.open_start(&base).await;
    gm.create_room(Some("Seats")).await;
    gm.until(
        "return document.getElementById('invite-link').href.includes('invite=')",
        WAIT,
        "the invite link",
    )
    .await;
    let room = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let room = room.as_str().unwrap().to_string();
    let seat = gm
        .js(&format!("return window.nutshellSeats.get('{room}')"))
        .await;
    let gm_key = seat["key"].as_str().unwrap().to_string();
    let invite = seat["invite"].as_str().unwrap().to_string();
    assert_eq!(seat["role"], "gm");

    // A player named to look like the GM joins through the API and rolls.
    let client = reqwest::Client::new();
    let joined: Value = client
        .post(format!("{base}/api/rooms/{room}/join"))
        .json(&json!({"invite": invite, "name": "The GM"}))
        .answer()
        .await;
    let player_key = joined["player_key"].as_str().unwrap().to_string();
    let rolled = client
        .post(format!("{base}/api/rooms/{room}/rolls"))
        .bearer_auth(&player_key)
        .json(&json!({"expression": "1d12 + 3"}))
        .send()
        .await
        .unwrap();
    assert_eq!(rolled.status(), 201);
    gm.roll("1d10 + 1", false).await;
    gm.until(&count("1d10 + 1"), WAIT, "the GM's roll").await;
    gm.until(&count("1d12 + 3"), WAIT, "the player's roll")
        .await;
    let marks = gm
        .js("return [...document.querySelectorAll('#feed li')].filter(li => li.querySelector('.gm-mark')).map(li => li.textContent)")
        .await;
    let marks: Vec<&str> = marks
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert!(marks[0].contains("1d10 + 1"), "{marks:?}");

    // The page sent a 32-byte client seed; the head is the room's last event.
    let log = client
        .get(format!("{base}/api/rooms/{room}/log"))
        .bearer_auth(&gm_key)
        .answer_text()
        .await;
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["body"]["client_seed"].as_str().unwrap().len(), 64);
    let head = format!("{}:{}", last["seq"], last["hash"].as_str().unwrap());
    gm.until(
        &format!("return document.getElementById('head').textContent === {head:?}"),
        WAIT,
        "the head shown",
    )
    .await;
    let report = nutshell_server::verify::verify(&log).unwrap();
    assert_eq!(report.check_head(&head), Ok(()));

    // The GM opens the player's seat link in the same browser.
    gm.go(&format!("{base}/#room={room}&key={player_key}"))
        .await;
    gm.until(
        "return document.getElementById('who').textContent.includes('You are The GM (a player)')",
        WAIT,
        "the player's seat",
    )
    .await;
    let list = gm
        .js(&format!("return window.nutshellSeats.list('{room}')"))
        .await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    let kept = list
        .iter()
        .find(|s| s["role"] == "gm")
        .expect("the GM's seat");
    assert_eq!(kept["key"], gm_key.as_str());
    assert_eq!(kept["invite"], invite.as_str());
    assert_eq!(
        gm.js("return document.getElementById('seats-row').hidden")
            .await,
        json!(false)
    );
    // Forgetting a seat the server refused never drops the GM's.
    gm.js(&format!(
        "window.nutshellSeats.forget('{room}', {gm_key:?}); return 0"
    ))
    .await;
    assert_eq!(
        gm.js(&format!(
            "return window.nutshellSeats.list('{room}').length"
        ))
        .await,
        json!(2)
    );

    // Back to the GM's seat with the switcher.
    gm.js(&format!(
        "const s = document.getElementById('seat-switch'); s.value = {gm_key:?};
         s.dispatchEvent(new Event('change')); return 0"
    ))
    .await;
    gm.until(
        "return document.getElementById('who').textContent.includes('the GM') && !document.getElementById('table').hidden",
        WAIT,
        "the GM's seat again",
    )
    .await;
    gm.until(
        "return document.getElementById('invite-link').href.includes('invite=')",
        WAIT,
        "the GM's invite link, still known",
    )
    .await;
    gm.close().await;
}
