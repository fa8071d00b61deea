//! The web table in a real browser: Debian's Chromium, headless, driven
//! through chromedriver's WebDriver protocol (a few JSON calls, made here
//! with reqwest), against a real server on a loopback port.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/proxy.rs"]
mod proxy;
use proxy::CuttableProxy;

#[path = "support/browser.rs"]
mod browser;
use browser::{Browser, driver, server};

/// The number of rolls with `text` in the feed.
fn count(text: &str) -> String {
    format!(
        "return [...document.querySelectorAll('#feed li')].filter(li => li.textContent.includes({text:?})).length"
    )
}

async fn roll(browser: &Browser<'_>, expression: &str, secret: bool) {
    browser
        .js(&format!(
            "document.getElementById('expression').value = {expression:?};
             document.getElementById('secret').checked = {secret};
             document.querySelector('#roll-form button[type=submit]').click();"
        ))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gm_and_a_player_share_a_table_in_the_browser() {
    let Some(driver) = driver("a_gm_and_a_player_share_a_table_in_the_browser").await else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let second = Duration::from_secs(1);
    let wait = Duration::from_secs(10);

    // The GM creates a room through the form.
    let gm = driver.browser(1000, 1000).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    gm.js(
        "document.getElementById('create-name').value = 'Crypt crawl';
           document.querySelector('#create-form button').click();",
    )
    .await;
    let invite = gm
        .until("return document.getElementById('invite-link').href.includes('invite=') && document.getElementById('invite-link').href", wait, "the invite link")
        .await;
    gm.until(&count("created"), wait, "the room event").await;

    // The player opens the invite link and joins with a name.
    // The player's page reaches the server through a proxy the test can cut.
    let proxy = CuttableProxy::start(base.trim_start_matches("http://").to_string()).await;
    let player_base = format!("http://{}", proxy.address);
    let player = driver.browser(390, 844).await;
    player
        .go(&invite.as_str().unwrap().replace(&base, &player_base))
        .await;
    player
        .until(
            "return !document.getElementById('join').hidden",
            wait,
            "the join form",
        )
        .await;
    player
        .js("document.getElementById('join-name').value = 'Ada';
             document.querySelector('#join-form button').click();")
        .await;
    player
        .until("return !document.getElementById('table').hidden && document.getElementById('status').textContent.includes('live')", wait, "the player's table")
        .await;
    gm.until(&count("Ada joined"), wait, "the join on the GM's page")
        .await;

    // The player rolls: the GM's page shows it within a second; and back.
    roll(&player, "3d6 + 2", false).await;
    player
        .until(&count("3d6 + 2"), wait, "the player's own roll")
        .await;
    gm.until(
        &count("3d6 + 2"),
        second,
        "the player's roll on the GM's page",
    )
    .await;
    roll(&gm, "1d20 + 7", false).await;
    player
        .until(
            &count("1d20 + 7"),
            second,
            "the GM's roll on the player's page",
        )
        .await;

    // Kept and dropped dice differ by more than colour.
    roll(&player, "4d6kh3", false).await;
    player.until(&count("4d6kh3"), wait, "4d6kh3").await;
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
    roll(&player, "4d6kh3 + d", false).await;
    let error = player
        .until("return !document.getElementById('roll-error').hidden && document.getElementById('roll-error').innerText", wait, "the error")
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
    roll(&gm, "2d10 + 99", true).await;
    gm.until(
        &count("2d10 + 99"),
        wait,
        "the GM's secret roll on the GM's page",
    )
    .await;
    player
        .until(&count("rolled in secret"), wait, "the secret roll's notice")
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
            wait,
            "the secret roll shown after the reveal",
        )
        .await;
    // After the reveal the GM's page no longer calls it secret, nor offers
    // to show it.
    gm.until(
        &GM_SECRET.replace("return ", "return !"),
        wait,
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
            wait,
            "the reloaded page",
        )
        .await;
    player
        .until(
            &format!(
                "return document.querySelectorAll('#feed li').length >= {}",
                seen.as_array().unwrap().len()
            ),
            wait,
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
            wait,
            "the page noticing the cut",
        )
        .await;
    roll(&gm, "7d7", false).await;
    gm.until(&count("7d7"), wait, "the first roll while cut off")
        .await;
    roll(&gm, "8d8", false).await;
    gm.until(&count("8d8"), wait, "the second roll while cut off")
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
        .until("const c = document.querySelector('#feed .chart'); return c && c.textContent.includes('as high or higher') && c.textContent", wait, "the odds chart")
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
        .as_str()
        .unwrap()
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
            .until("const t = document.querySelector('#rules-result .total'); return t && t.textContent", wait, ruleset)
            .await;
        let odds_rows = player
            .js("return document.querySelectorAll('#rules-result table.odds tr').length")
            .await;
        assert!(
            odds_rows.as_u64().unwrap() >= 3,
            "{ruleset}: the odds table"
        );
        let log = reqwest::Client::new()
            .get(format!("{base}/api/rooms/{room}/log"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
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
        .until("const rows = [...document.querySelectorAll('#dice-panel-rows tr')]; return rows.length && rows.every(r => r.lastChild.textContent !== '') && rows.map(r => r.textContent).join(' | ')", wait, "the dice panel")
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
            wait,
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
            wait,
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
            wait,
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
            wait,
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
        wait,
        "the player's new sheet in the GM's open list, live",
    )
    .await;
    let sheet = player
        .until(
            "const p = document.querySelector('#sheets pre'); return p && p.textContent",
            wait,
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
            wait,
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
            wait,
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
        wait,
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
            wait,
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
            wait,
            "the advance's ledger entries",
        )
        .await;
    let log = reqwest::Client::new()
        .get(format!("{base}/api/rooms/{room}/log"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    roll(&gm, "5d4 + 55", true).await;
    player
        .until(&count("rolled in secret"), wait, "another secret roll")
        .await;
    gm.until(
        "return document.querySelector('#feed .show-button')",
        wait,
        "the show button",
    )
    .await;
    gm.js("document.querySelector('#feed .show-button').click();")
        .await;
    player
        .until(&count("5d4 + 55"), wait, "the shown secret roll")
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
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = fight["fight"].as_i64().unwrap();
    let step: Value = http
        .post(format!("{base}/api/rooms/{room}/fights/{id}/step"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
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
                wait,
                "the fight's first step",
            )
            .await;
        let shown = shown.as_str().unwrap();
        assert!(shown.contains(&expected), "{expected} in {shown}");
        assert!(shown.contains("Turn 1: Sir Aldric"), "{shown}");
        assert!(!shown.contains("Sir Aldric (Sir Aldric)"), "{shown}");
    }

    player.close().await;
    gm.close().await;
}

/// The fight view's tokens as the page draws them: name, square, facing,
/// state.
const TOKENS: &str = "return [...document.querySelectorAll('#fight-svg .token')].map(t => [t.dataset.name, t.dataset.square, t.dataset.facing, t.dataset.state])";

/// The map as the page draws it, one legend character a square.
const CELLS: &str = "const rows = []; for (const r of document.querySelectorAll('#fight-svg rect.cell')) { const c = {floor: '.', wall: '#', door: '+', 'open-door': '/', ladder: 'H'}[r.classList[1]]; const y = Number(r.getAttribute('y')); rows[y] = (rows[y] ?? '') + c; } return rows";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_on_a_map_is_started_and_stepped_from_the_page() {
    let Some(driver) = driver("a_fight_on_a_map_is_started_and_stepped_from_the_page").await else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);

    // A GM and a player at a phone's width.
    let gm = driver.browser(1000, 1000).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    gm.js("document.getElementById('create-name').value = 'Guardroom';
         document.querySelector('#create-form button').click();")
        .await;
    let invite = gm
        .until("return document.getElementById('invite-link').href.includes('invite=') && document.getElementById('invite-link').href", wait, "the invite link")
        .await;
    let player = driver.browser(390, 844).await;
    player.go(invite.as_str().unwrap()).await;
    player
        .until(
            "return !document.getElementById('join').hidden",
            wait,
            "the join form",
        )
        .await;
    player
        .js("document.getElementById('join-name').value = 'Ada';
             document.querySelector('#join-form button').click();")
        .await;
    player
        .until("return !document.getElementById('table').hidden && document.getElementById('status').textContent.includes('live')", wait, "the player's table")
        .await;

    // The GM picks the corridor example (sides and map filled in) and
    // starts the fight; the player has no form.
    gm.js("document.getElementById('fights').open = true;")
        .await;
    gm.until(
        "return document.getElementById('fight-map').value.includes('The guardroom door') && document.getElementById('fight-example').options.length >= 3",
        wait,
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
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
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
            wait,
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
                wait,
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
            wait,
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
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
            wait,
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
    player.close().await;
    gm.close().await;
}

/// issue 12: "Works ... with the keyboard alone": a room made and a roll
/// rolled with Tab, letters and Enter only (real key events, no script
/// touching the page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_is_made_and_a_roll_rolled_with_the_keyboard_alone() {
    let Some(driver) = driver("a_room_is_made_and_a_roll_rolled_with_the_keyboard_alone").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let page = driver.browser(1000, 900).await;
    page.go(&format!("{base}/")).await;
    page.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    page.tab_to("create-name", 30).await;
    // Type after the name the field offers, press Enter.
    page.keys(" Keyboard night\u{E007}").await;
    page.until(
        "return !document.getElementById('table').hidden && document.getElementById('room-name') && document.body.innerText.includes('Keyboard night')",
        wait,
        "the room, made with the keyboard",
    )
    .await;
    page.tab_to("expression", 80).await;
    page.keys("2d6+1\u{E007}").await;
    page.until(
        &count("2d6 + 1"),
        wait,
        "the roll, rolled with the keyboard",
    )
    .await;
    // issue 12: "Replayed history (after a reload or reconnect) is shown
    // without re-announcing": the new roll is announced; after a reload
    // the same roll is in the feed again but nothing is announced.
    page.until(
        "return document.getElementById('announce').textContent.includes('2d6 + 1')",
        wait,
        "the roll announced",
    )
    .await;
    page.js("window.beforeReload = true; location.reload();")
        .await;
    page.until(
        "return window.beforeReload === undefined && !document.getElementById('table').hidden",
        wait,
        "the reloaded page",
    )
    .await;
    page.until(&count("2d6 + 1"), wait, "the history after a reload")
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

/// How many reveals the room's log holds.
async fn reveals(base: &str, room: &str, key: &str) -> usize {
    reqwest::Client::new()
        .get(format!("{base}/api/rooms/{room}/log"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"kind\":\"reveal\""))
        .count()
}

/// Whether the page scrolls sideways: it must not, at any width. (Measured
/// against the layout viewport: on a phone's emulation `innerWidth` grows
/// with a page that overflows, so comparing with it proves nothing.)
const FITS: &str = "return document.scrollingElement.scrollWidth <= document.documentElement.clientWidth && window.innerWidth === document.documentElement.clientWidth";

/// Every die of a roll as the page draws it: its value, dropped, success,
/// failure, its struck-out (rerolled) faces, its explosions, and the faces
/// that count.
fn drawn_dice(seq: i64) -> String {
    format!(
        "const li = document.querySelector('#feed li[data-seq=\"{seq}\"]');
         return li && [...li.querySelectorAll('.dice .die')].map(d => [
           Number(d.dataset.value), d.classList.contains('dropped'), d.classList.contains('success'),
           d.classList.contains('failure'), d.querySelectorAll('.face.rerolled').length,
           d.querySelectorAll('.bang').length,
           [...d.querySelectorAll('.face:not(.rerolled)')].map(f => f.textContent).join('+')])"
    )
}

/// The same from the roll's JSON transcript (`nutshell roll --json`).
fn logged_dice(result: &Value) -> Value {
    let dice: Vec<Value> = result["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let faces = d["faces"].as_array().unwrap();
            let rerolled = faces.iter().filter(|f| f["rerolled"] == true).count();
            let exploded = faces.iter().filter(|f| f["exploded"] == true).count();
            let counted: Vec<String> = faces
                .iter()
                .filter(|f| f["rerolled"] != true)
                .map(|f| f["face"].to_string())
                .collect();
            json!([
                d["value"],
                d["kept"] == false,
                d["successes"].as_u64().unwrap_or(0) > 0,
                d["failures"].as_u64().unwrap_or(0) > 0,
                rerolled,
                exploded,
                counted.join("+")
            ])
        })
        .collect();
    json!(dice)
}

/// The review of the web table: rerolled, exploded, compounded, dropped
/// and counted dice drawn as their transcript says; a phone never scrolls
/// sideways (the dice panel, the example fights, errors); errors wrap;
/// checkboxes sit beside their labels; an exploding roll's chart is cut
/// where the odds vanish; contests name their sides; the seat link takes
/// a GM's invite along; the log verifies without `crypto.subtle`; the
/// reveal asks first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_on_a_phone_draws_every_die_and_fits_the_screen() {
    let Some(driver) = driver("the_table_on_a_phone_draws_every_die_and_fits_the_screen").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);

    // A GM on a phone: the start page fits.
    let gm = driver.browser(390, 844).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    assert_eq!(gm.js(FITS).await, json!(true), "the start page");
    assert_eq!(
        gm.js("return document.getElementById('no-seat').hidden")
            .await,
        json!(true),
        "no note without a room"
    );
    gm.js(
        "document.getElementById('create-name').value = 'Phone night';
           document.querySelector('#create-form button').click();",
    )
    .await;
    gm.until(
        "return !document.getElementById('table').hidden && document.getElementById('status').textContent.includes('live')",
        wait,
        "the GM's table",
    )
    .await;
    let room = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let room = room.as_str().unwrap().to_string();
    let key = gm
        .js(&format!("return window.nutshellSeats.get('{room}').key"))
        .await;
    let key = key.as_str().unwrap().to_string();
    assert_eq!(gm.js(FITS).await, json!(true), "the table");

    // Rerolls, explosions, compounding, keep/drop and counted pools: one
    // box a die, as many as the transcript has, each as it says.
    let rolls = [
        "30d6r<3",
        "60d6!",
        "60d6!!",
        "6d6kh3",
        "6d6kl2",
        "30d10>=6f<=4",
        "3d6!",
    ];
    for (n, expression) in rolls.iter().enumerate() {
        roll(&gm, expression, false).await;
        gm.until(
            &format!(
                "return document.querySelectorAll('#feed .dice').length === {}",
                n + 1
            ),
            wait,
            expression,
        )
        .await;
    }
    let log = reqwest::Client::new()
        .get(format!("{base}/api/rooms/{room}/log"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let events: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e["kind"] == "roll")
        .collect();
    assert_eq!(events.len(), rolls.len());
    let mut seq_of = std::collections::BTreeMap::new();
    for (event, expression) in events.iter().zip(rolls) {
        let result = &event["body"]["result"];
        let seq = event["seq"].as_i64().unwrap();
        seq_of.insert(expression, (seq, result["total"].as_i64().unwrap()));
        let expected = logged_dice(result);
        let drawn = gm.js(&drawn_dice(seq)).await;
        assert_eq!(drawn, expected, "{expression}: {}", result["text"]);
        let count = expression
            .split('d')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap();
        assert_eq!(
            drawn.as_array().unwrap().len(),
            count,
            "{expression}: one box a die"
        );
        let sum = |column: usize| -> u64 {
            expected
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d[column].as_u64().unwrap_or(u64::from(d[column] == true)))
                .sum()
        };
        // What each roll is there to show happened (the chance it does not
        // is below 1 in 50,000 for each).
        match expression {
            "30d6r<3" => assert!(sum(4) > 0, "a reroll: {}", result["text"]),
            "60d6!" | "60d6!!" => assert!(sum(5) > 0, "an explosion: {}", result["text"]),
            "6d6kh3" => assert_eq!(sum(1), 3),
            "6d6kl2" => assert_eq!(sum(1), 4),
            "30d10>=6f<=4" => assert!(sum(2) > 0 && sum(3) > 0, "{}", result["text"]),
            _ => {}
        }
    }
    // A rerolled face is struck out, never drawn as a die of its own.
    let struck = gm
        .js(&format!(
            "const f = document.querySelector('#feed li[data-seq=\"{}\"] .face.rerolled'); return f && getComputedStyle(f).textDecorationLine",
            seq_of["30d6r<3"].0
        ))
        .await;
    assert_eq!(struck, json!("line-through"));
    // Successes and failures differ by a mark, not colour alone.
    let marks = gm
        .js(&format!(
            "const li = document.querySelector('#feed li[data-seq=\"{}\"]'); return [li.querySelector('.die.success .mark').textContent, li.querySelector('.die.failure .mark').textContent]",
            seq_of["30d10>=6f<=4"].0
        ))
        .await;
    assert_eq!(marks, json!(["✓", "✗"]));
    assert_eq!(gm.js(FITS).await, json!(true), "the rolls");
    gm.js(&format!(
        "document.querySelector('#feed li[data-seq=\"{}\"]').scrollIntoView();",
        seq_of["30d10>=6f<=4"].0
    ))
    .await;
    gm.screenshot("phone-dice").await;

    // The odds of 3d6!: not drawn to 303, cut where the rest is too rare to
    // see, the total rolled still drawn, and the cut said.
    let (seq, total) = seq_of["3d6!"];
    gm.js(&format!(
        "document.querySelector('#feed li[data-seq=\"{seq}\"] .odds-button').click();"
    ))
    .await;
    let chart = gm
        .until(
            &format!(
                "const c = document.querySelector('#feed li[data-seq=\"{seq}\"] .chart'); return c && c.querySelector('.chart-cut') && [[...c.querySelectorAll('rect.bar')].map(r => Number(r.dataset.value)), c.querySelector('rect.hit') && Number(c.querySelector('rect.hit').dataset.value), c.querySelector('.chart-cut').textContent]"
            ),
            wait,
            "the chart of 3d6!",
        )
        .await;
    let bars: Vec<i64> = chart[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(bars[0], 3, "{chart}");
    let highest = *bars.last().unwrap();
    assert!((20..=100).contains(&highest), "drawn to {highest}: {chart}");
    assert_eq!(chart[1], json!(total), "the total rolled is drawn");
    let note = chart[2].as_str().unwrap();
    assert!(
        // Each die followed to 16 explosions (docs/odds.md's depth: the
        // least L with p_first·p_go^L ≤ P/n): 3 × (16 × 6 + 5) = 303.
        note.contains(&format!("values beyond {highest} (to 303): < 0.0001%")),
        "{note}"
    );
    gm.js(&format!(
        "document.querySelector('#feed li[data-seq=\"{seq}\"]').scrollIntoView();"
    ))
    .await;
    gm.screenshot("phone-odds").await;

    // A bad expression: the message wraps on the phone, the expression and
    // its caret keep their columns in a box of their own.
    roll(
        &gm,
        "4d6kh3 + 2d6 + 1d8 + 1d10 + 1d12 + 1d20 + 1d4 + 3d6 + q",
        false,
    )
    .await;
    let error = gm
        .until(
            "const e = document.getElementById('roll-error'); const ms = [...e.querySelectorAll('.message')]; const m = ms[0]; const q = e.querySelector('pre.quoted'); return !e.hidden && m && q && [ms.every(m => m.scrollWidth <= m.clientWidth && m.getBoundingClientRect().right <= document.documentElement.clientWidth), getComputedStyle(m).whiteSpace, ms.length, q.textContent]",
            wait,
            "the roll's error",
        )
        .await;
    assert_eq!(error[0], json!(true), "the message wraps: {error}");
    assert_eq!(error[1], json!("pre-wrap"));
    assert!(error[2].as_u64().unwrap() >= 1, "{error}");
    let quoted = error[3].as_str().unwrap();
    assert!(
        quoted
            .lines()
            .last()
            .unwrap()
            .trim()
            .chars()
            .all(|c| c == '^'),
        "the caret line, its words wrapped under it: {quoted}"
    );
    assert_eq!(gm.js(FITS).await, json!(true), "the roll's error");

    // The check form: a checkbox on its label's line; an error that wraps.
    gm.js("document.getElementById('rules').open = true;
           document.getElementById('rules-kind').value = 'check';
           document.getElementById('rules-kind').dispatchEvent(new Event('change'));
           document.getElementById('rules-set').value = 'fantasy';
           document.getElementById('rules-set').dispatchEvent(new Event('change'));")
        .await;
    let inline = gm
        .js("const box = document.getElementById('rule-crit_success');
             const label = box.closest('label');
             const range = document.createRange();
             range.selectNodeContents(label.lastChild);
             const words = range.getClientRects()[0];
             const b = box.getBoundingClientRect();
             return [b.width < 40, words.left >= b.right, words.top < b.bottom && words.bottom > b.top]")
        .await;
    assert_eq!(
        inline,
        json!([true, true, true]),
        "the checkbox beside its words"
    );
    gm.js("document.getElementById('rule-dc').value = 'no-such-difficulty-at-all-anywhere-in-the-rules';
           document.querySelector('#rules-form button[type=submit]').click();")
        .await;
    let error = gm
        .until(
            "const e = document.getElementById('rules-error'); const m = e.querySelector('.message'); return !e.hidden && m && [m.scrollWidth <= m.clientWidth, m.getBoundingClientRect().right <= document.documentElement.clientWidth, e.textContent]",
            wait,
            "the check's error",
        )
        .await;
    assert_eq!(error[0], json!(true), "{error}");
    assert_eq!(error[1], json!(true), "{error}");
    assert_eq!(gm.js(FITS).await, json!(true), "the check's error");
    gm.js("document.getElementById('rules').scrollIntoView();")
        .await;
    gm.screenshot("phone-check-error").await;

    // A contest names its sides, in the form's answer, its odds and the feed.
    gm.js("document.getElementById('rules-kind').value = 'contest';
           document.getElementById('rules-kind').dispatchEvent(new Event('change'));
           document.getElementById('rules-set').value = 'mls';
           document.getElementById('rules-set').dispatchEvent(new Event('change'));
           document.getElementById('rule-skill').value = '12';
           document.getElementById('rule-vs_skill').value = '10';
           document.getElementById('rules-result').replaceChildren();
           document.querySelector('#rules-form button[type=submit]').click();")
        .await;
    let contest = gm
        .until(
            "const r = document.getElementById('rules-result'); return r.querySelector('table.odds') && [r.querySelector('.total').textContent, [...r.querySelectorAll('.contest-side')].map(s => s.textContent), [...r.querySelectorAll('table.odds td:first-child')].map(t => t.textContent)]",
            wait,
            "the contest",
        )
        .await;
    let winner = contest[0].as_str().unwrap();
    assert!(
        winner == "your side (the active side)" || winner == "no one (the action fails)",
        "{contest}"
    );
    let sides = contest[1].as_array().unwrap();
    assert_eq!(sides.len(), 2, "{contest}");
    assert!(
        sides[0]
            .as_str()
            .unwrap()
            .starts_with("your side (the active side): ")
            && sides[0].as_str().unwrap().contains("total ")
            && sides[1].as_str().unwrap().starts_with("the opponent: "),
        "{contest}"
    );
    assert_eq!(
        contest[2],
        json!([
            "winner: no one (the action fails)",
            "winner: your side (the active side)"
        ])
    );
    let item = gm
        .until(
            "const li = [...document.querySelectorAll('#feed li')].find(li => li.textContent.includes('contest, winner')); return li && [...li.querySelectorAll('.contest-side')].map(s => s.textContent)",
            wait,
            "the contest in the feed",
        )
        .await;
    assert!(
        item[0]
            .as_str()
            .unwrap()
            .contains("'s side (the active side): "),
        "{item}"
    );
    assert!(
        item[1].as_str().unwrap().starts_with("the opponent: "),
        "{item}"
    );
    gm.js("document.getElementById('rules').open = false;")
        .await;

    // Every panel open: the characters, the fights (the GM's form with the
    // example fights), the dice panel, the seat link. Nothing scrolls
    // sideways.
    gm.js("document.getElementById('characters').open = true;
           document.getElementById('fights').open = true;")
        .await;
    gm.until(
        "return document.getElementById('fight-example').options.length >= 3",
        wait,
        "the example fights",
    )
    .await;
    assert_eq!(gm.js(FITS).await, json!(true), "characters and fights");
    gm.js("document.getElementById('characters').open = false;
           document.getElementById('fight-example').scrollIntoView();")
        .await;
    gm.screenshot("phone-fight-form").await;
    gm.js("document.getElementById('fights').open = false;
           document.getElementById('dice-panel').open = true;
           for (const d of document.querySelectorAll('details')) if (d.querySelector('#seat-link')) d.open = true;")
        .await;
    gm.until(
        "const rows = [...document.querySelectorAll('#dice-panel-rows tr')]; return rows.length >= 2 && rows.every(r => r.lastChild.textContent !== '')",
        Duration::from_secs(30),
        "the dice panel",
    )
    .await;
    assert_eq!(gm.js(FITS).await, json!(true), "the dice panel");
    let panel = gm
        .js("const t = document.querySelector('#dice-panel table'); return t.getBoundingClientRect().right <= document.documentElement.clientWidth")
        .await;
    assert_eq!(panel, json!(true), "the dice panel's table fits");
    gm.js("document.getElementById('dice-panel').scrollIntoView();")
        .await;
    gm.screenshot("phone-dice-panel").await;

    // The log verifies in a browser without `crypto.subtle` (plain http on
    // a network address): the page's own SHA-256 agrees with the browser's.
    let agree = gm
        .js("return (async () => {
             const sizes = [0, 1, 3, 31, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 4097];
             const out = [];
             for (const n of sizes) {
               const bytes = new Uint8Array(n);
               for (let i = 0; i < n; i++) bytes[i] = (i * 151 + n * 7 + 13) & 255;
               const want = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), b => b.toString(16).padStart(2, '0')).join('');
               out.push([n, want === window.nutshellSha256Plain(bytes)]);
             }
             const text = new TextEncoder().encode('{\"body\":\"ü → ✓\"}');
             const want = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', text)), b => b.toString(16).padStart(2, '0')).join('');
             out.push(['utf8', want === window.nutshellSha256Plain(text)]);
             return out;
           })();")
        .await;
    for pair in agree.as_array().unwrap() {
        assert_eq!(pair[1], json!(true), "SHA-256 of {}", pair[0]);
    }
    assert_eq!(
        gm.js("return window.nutshellSha256Plain(new TextEncoder().encode('abc'))")
            .await,
        json!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
    gm.js(
        "Object.defineProperty(window.crypto, 'subtle', {value: undefined, configurable: true});
           document.getElementById('verify').click();",
    )
    .await;
    let verified = gm
        .until(
            "const t = document.getElementById('verified').textContent; return t !== 'checking…' && t",
            wait,
            "the log verified without crypto.subtle",
        )
        .await;
    assert!(
        verified
            .as_str()
            .unwrap()
            .starts_with("✓ Checked in this browser"),
        "{verified}"
    );
    // A log that cannot be read says so, never "checking…" for ever.
    gm.js("window.realFetch = window.fetch;
           window.fetch = () => Promise.reject(new Error('the network is down'));
           document.getElementById('verify').click();")
        .await;
    let failed = gm
        .until(
            "const t = document.getElementById('verified').textContent; return t !== 'checking…' && t.startsWith('✗') && t",
            wait,
            "a clear failure",
        )
        .await;
    assert!(
        failed.as_str().unwrap().contains("the network is down"),
        "{failed}"
    );
    gm.js("window.fetch = window.realFetch;").await;

    // The reveal asks first: "not now" reveals nothing.
    gm.js("document.getElementById('reveal').click();").await;
    assert_eq!(
        gm.js(
            "return !document.getElementById('reveal-confirm').hidden && document.activeElement.id"
        )
        .await,
        json!("reveal-no")
    );
    gm.js("document.getElementById('reveal-confirm').scrollIntoView();")
        .await;
    gm.screenshot("phone-reveal-confirm").await;
    gm.js("document.getElementById('reveal-no').click();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(reveals(&base, &room, &key).await, 0, "nothing revealed");
    gm.js(
        "document.getElementById('reveal').click(); document.getElementById('reveal-yes').click();",
    )
    .await;
    let deadline = Instant::now() + wait;
    while reveals(&base, &room, &key).await == 0 {
        assert!(Instant::now() < deadline, "the reveal");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The seat link, opened in another browser: the GM's seat there, with
    // the invite (carried after the `#`, never sent to the server).
    let seat = gm
        .js("return document.getElementById('seat-link').href")
        .await;
    let seat = seat.as_str().unwrap().to_string();
    let fragment = seat.split_once('#').unwrap();
    assert!(
        !fragment.0.contains("invite") && fragment.1.contains("invite="),
        "{seat}"
    );
    let invite = gm
        .js("return document.getElementById('invite-link').href")
        .await;
    let other = driver.browser(390, 844).await;
    other.go(&format!("{base}/#room={room}")).await;
    other
        .until(
            "return !document.getElementById('start').hidden && !document.getElementById('no-seat').hidden && document.getElementById('no-seat').textContent",
            wait,
            "the note: ask your GM for the invite",
        )
        .await;
    assert_eq!(other.js(FITS).await, json!(true), "the note");
    other.go("about:blank").await;
    other.go(invite.as_str().unwrap()).await;
    other
        .until(
            "return !document.getElementById('join').hidden && document.getElementById('join-table').textContent === 'Join the table “Phone night”'",
            wait,
            "the join page names the table",
        )
        .await;
    assert_eq!(other.js(FITS).await, json!(true), "the join page");
    other.screenshot("phone-join").await;
    other.go("about:blank").await;
    other.go(&seat).await;
    let shown = other
        .until(
            "return !document.getElementById('table').hidden && document.getElementById('invite-link').href.includes('invite=') && document.getElementById('invite-link').href",
            wait,
            "the invite on the GM's other device",
        )
        .await;
    assert_eq!(shown, invite);
    other.close().await;
    gm.close().await;
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
    let Some(driver) = driver("a_browser_keeps_every_seat_and_marks_the_gm_by_role").await else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let gm = driver.browser(1000, 900).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    gm.js("document.getElementById('create-name').value = 'Seats';
           document.querySelector('#create-form button').click();")
        .await;
    gm.until(
        "return document.getElementById('invite-link').href.includes('invite=')",
        wait,
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
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let player_key = joined["player_key"].as_str().unwrap().to_string();
    let rolled = client
        .post(format!("{base}/api/rooms/{room}/rolls"))
        .bearer_auth(&player_key)
        .json(&json!({"expression": "1d12 + 3"}))
        .send()
        .await
        .unwrap();
    assert_eq!(rolled.status(), 201);
    roll(&gm, "1d10 + 1", false).await;
    gm.until(&count("1d10 + 1"), wait, "the GM's roll").await;
    gm.until(&count("1d12 + 3"), wait, "the player's roll")
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
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["body"]["client_seed"].as_str().unwrap().len(), 64);
    let head = format!("{}:{}", last["seq"], last["hash"].as_str().unwrap());
    gm.until(
        &format!("return document.getElementById('head').textContent === {head:?}"),
        wait,
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
        wait,
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
        wait,
        "the GM's seat again",
    )
    .await;
    gm.until(
        "return document.getElementById('invite-link').href.includes('invite=')",
        wait,
        "the GM's invite link, still known",
    )
    .await;
    gm.close().await;
}

/// Issue 26, item 5: what a newcomer read wrong. The GM is "the GM" (not
/// "GM (the GM)"); the check form offers the ruleset's own DC descriptors
/// and its errors use the form's words, not the command line's flags; a
/// reveal's marks say what the browser checked (the chain and the
/// commitments) and how to check the dice (`nutshell verify`); the page
/// has an icon its policy allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_reads_what_the_page_checked_in_the_forms_words() {
    let Some(driver) = driver("a_newcomer_reads_what_the_page_checked_in_the_forms_words").await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let gm = driver.browser(1280, 900).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    gm.js("document.querySelector('#create-form button').click();")
        .await;
    let who = gm
        .until(
            "const t = document.getElementById('who').textContent; return t.startsWith('You are') && t",
            wait,
            "who the GM is",
        )
        .await;
    assert!(
        who.as_str().unwrap().starts_with("You are the GM."),
        "{who}"
    );

    // The DC offers the rules' descriptors, read from the rules crate.
    gm.js("document.getElementById('rules').open = true;
           const k = document.getElementById('rules-kind'); k.value = 'check'; k.dispatchEvent(new Event('change'));
           const s = document.getElementById('rules-set'); s.value = 'fantasy'; s.dispatchEvent(new Event('change'));")
        .await;
    let offered = gm
        .until(
            "const d = document.getElementById('rule-dc'); return d && d.list && d.list.options.length && [...d.list.options].map(o => o.value)",
            wait,
            "the DC's descriptors",
        )
        .await;
    let descriptors: Vec<&str> = nutshell_rules::fantasy::DESCRIPTORS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(offered, json!(descriptors));
    let label = gm
        .js("return document.querySelector('label[for=rule-dc]').innerText")
        .await;
    assert!(!label.as_str().unwrap().contains("medium"), "{label}");
    // "medium" is no descriptor: the error names the form's DC and the
    // real descriptors, and no command-line flag.
    gm.js("document.getElementById('rule-dc').value = 'medium';
           document.getElementById('rule-mod').value = '3';
           document.querySelector('#rules-form button[type=submit]').click();")
        .await;
    let error = gm
        .until(
            "const e = document.getElementById('rules-error'); return !e.hidden && e.innerText",
            wait,
            "the DC refused",
        )
        .await;
    let error = error.as_str().unwrap();
    assert!(error.starts_with("DC “medium”: expected"), "{error}");
    assert!(
        error.contains("laughable") && error.contains("impossible"),
        "{error}"
    );
    assert!(!error.contains("--"), "{error}");
    // The API itself names the JSON field.
    let room = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let room = room.as_str().unwrap().to_string();
    let key = gm
        .js(&format!("return window.nutshellSeats.get('{room}').key"))
        .await;
    let key = key.as_str().unwrap().to_string();
    let client = reqwest::Client::new();
    for (body, field) in [
        (
            json!({"ruleset": "fantasy", "mod": 1, "dc": "medium"}),
            "`dc` \"medium\"",
        ),
        (json!({"ruleset": "fantasy", "mod": 1}), "(`dc`: a number)"),
    ] {
        let answer: Value = client
            .post(format!("{base}/api/rooms/{room}/checks"))
            .bearer_auth(&key)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message}");
        assert!(!message.contains("--"), "{message}");
    }
    // A descriptor the rules know is rolled.
    gm.js("document.getElementById('rule-dc').value = 'hard';
           document.querySelector('#rules-form button[type=submit]').click();")
        .await;
    gm.until(
        "return document.getElementById('rules-error').hidden && document.querySelector('#rules-result .total')",
        wait,
        "the check rolled",
    )
    .await;
    roll(&gm, "2d6", false).await;
    gm.until(&count("2d6"), wait, "the roll").await;

    // After a reveal, each roll's mark says what this browser checked and
    // what it did not: the dice are `nutshell verify`'s.
    gm.js("document.getElementById('reveal').click();").await;
    gm.js("document.getElementById('reveal-yes').click();")
        .await;
    let marks = gm
        .until(
            "const m = [...document.querySelectorAll('#feed .verified')].map(v => v.textContent); return m.length >= 2 && document.getElementById('verified').textContent.startsWith('✓') && m",
            wait,
            "the marks after the reveal",
        )
        .await;
    for mark in marks.as_array().unwrap() {
        let mark = mark.as_str().unwrap();
        assert!(mark.contains("chained in the log"), "{mark}");
        assert!(mark.contains("commitment"), "{mark}");
        assert!(mark.contains("not recomputed here"), "{mark}");
        assert!(mark.contains("nutshell verify"), "{mark}");
        assert!(!mark.contains("verified"), "{mark}");
    }
    let summary = gm
        .js("return document.getElementById('verified').textContent")
        .await;
    assert!(
        summary.as_str().unwrap().contains("nutshell verify"),
        "{summary}"
    );

    // The icon: named by the page, served as SVG under the page's policy.
    let icon = gm
        .js("return document.querySelector('link[rel=icon]').href")
        .await;
    let response = client.get(icon.as_str().unwrap()).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert!(response.text().await.unwrap().starts_with("<svg"));
    gm.close().await;
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
    let Some(driver) = driver("a_fight_is_set_up_by_picking_drawing_and_dragging").await else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let gm = driver.browser(1280, 1000).await;
    gm.go(&format!("{base}/")).await;
    gm.until(
        "return !document.getElementById('start').hidden",
        wait,
        "the start form",
    )
    .await;
    gm.js("document.querySelector('#create-form button').click();")
        .await;
    gm.until(
        "return !document.getElementById('table').hidden && document.getElementById('status').textContent.includes('live')",
        wait,
        "the table",
    )
    .await;
    let room = gm
        .js("return new URLSearchParams(location.hash.slice(1)).get('room')")
        .await;
    let room = room.as_str().unwrap().to_string();
    let key = gm
        .js(&format!("return window.nutshellSeats.get('{room}').key"))
        .await;
    let key = key.as_str().unwrap().to_string();
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
            wait,
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
        wait,
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
        wait,
        "Brana dragged onto the map",
    )
    .await;
    gm.click("#map-tray .tray-token[data-name=\"Black Wat\"]")
        .await;
    gm.click("#setup-svg rect.cell[data-square=\"H3\"]").await;
    gm.until(
        "return document.querySelector('#setup-svg .token[data-name=\"Black Wat\"]')",
        wait,
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
            wait,
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
        wait,
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
    let Some(driver) =
        driver("a_played_fight_is_the_centre_of_the_page_with_its_log_and_the_rolls_beside_it")
            .await
    else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let post = reqwest::Method::POST;
    let room = call(
        post.clone(),
        &format!("{base}/api/rooms"),
        None,
        Some(json!({"name": "The corridor"})),
    )
    .await;
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
            wait,
            "the page is live",
        )
        .await;
    }
    // Without a fight the rolls are in their own place.
    roll(&desk, "2d6", false).await;
    for page in [&desk, &phone] {
        page.until(&count("2d6"), wait, "the roll in the feed")
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
        Some(json!({
            "a": include_str!("../../../examples/mls/duel/knight.toml"),
            "b": include_str!("../../../examples/mls/duel/brigand.toml"),
            "map": include_str!("../../../examples/mls/maps/corridor.toml"),
            "played": true,
            "control": {"Sir Aldric": ann_id, "Black Wat": "gm"},
            "client_seed": "6c61796f7574",
        })),
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
                wait,
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
                    wait,
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
            wait,
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
                wait,
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
            wait,
            "the rolls in their own place",
        )
        .await;
    phone
        .js("document.getElementById('fights').open = true; return true")
        .await;
    phone
        .until(
            "return document.getElementById('rolls-box').parentElement.id === 'fight-side'",
            wait,
            "the rolls beside the map again",
        )
        .await;
    desk.close().await;
    phone.close().await;
}

/// The round in progress of a played fight (docs/web.md, "Playing a
/// fight", step 7): while a decision in the middle of a round is awaited,
/// the log ends with "Turn T, round R so far:" and the lines the server's
/// `so_far` gives; once the round's event comes they are its own lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_fights_log_shows_the_round_so_far() {
    let Some(driver) = driver("a_played_fights_log_shows_the_round_so_far").await else {
        return;
    };
    let (base, _dir, _server) = server().await;
    let wait = Duration::from_secs(10);
    let post = reqwest::Method::POST;
    let get = reqwest::Method::GET;
    let room = call(
        post.clone(),
        &format!("{base}/api/rooms"),
        None,
        Some(json!({"name": "The corridor"})),
    )
    .await;
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
        Some(json!({
            "a": include_str!("../../../examples/mls/duel/knight.toml"),
            "b": include_str!("../../../examples/mls/duel/brigand.toml"),
            "map": include_str!("../../../examples/mls/maps/corridor.toml"),
            "played": true,
            "control": {"Sir Aldric": "gm", "Black Wat": "gm"},
        })),
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
                wait,
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
                wait,
                "the round's own lines in place of the round so far",
            )
            .await;
            return;
        }
    }
    panic!("the fight went on past 500 decisions");
}
