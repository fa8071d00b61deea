//! The web table on a phone in a real browser: every die drawn as its
//! transcript says, and no screen scrolling sideways.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::pages::{FITS, WAIT};
use browser::{close_all, log, set_up};

/// How many reveals the room's log holds.
async fn reveals(base: &str, room: &str, key: &str) -> usize {
    log(base, room, key)
        .await
        .lines()
        .filter(|l| l.contains("\"kind\":\"reveal\""))
        .count()
}

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
    let Some((driver, base, _server)) =
        set_up("the_table_on_a_phone_draws_every_die_and_fits_the_screen").await
    else {
        return;
    };

    // A GM on a phone: the start page fits.
    let gm = driver.browser(390, 844).await;
    gm.open_start(&base).await;
    assert_eq!(gm.js(FITS).await, json!(true), "the start page");
    assert_eq!(
        gm.js("return document.getElementById('no-seat').hidden")
            .await,
        json!(true),
        "no note without a room"
    );
    gm.create_room(Some("Phone night")).await;
    gm.until_table("the GM's table").await;
    let (room, key) = gm.seat().await;
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
        gm.roll(expression, false).await;
        gm.until(
            &format!(
                "return document.querySelectorAll('#feed .dice').length === {}",
                n + 1
            ),
            WAIT,
            expression,
        )
        .await;
    }
    let log = log(&base, &room, &key).await;
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
            WAIT,
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
    gm.roll(
        "4d6kh3 + 2d6 + 1d8 + 1d10 + 1d12 + 1d20 + 1d4 + 3d6 + q",
        false,
    )
    .await;
    let error = gm
        .until(
            "const e = document.getElementById('roll-error'); const ms = [...e.querySelectorAll('.message')]; const m = ms[0]; const q = e.querySelector('pre.quoted'); return !e.hidden && m && q && [ms.every(m => m.scrollWidth <= m.clientWidth && m.getBoundingClientRect().right <= document.documentElement.clientWidth), getComputedStyle(m).whiteSpace, ms.length, q.textContent]",
            WAIT,
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
            WAIT,
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
            WAIT,
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
            WAIT,
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
        WAIT,
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
            WAIT,
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
            WAIT,
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
    let deadline = Instant::now() + WAIT;
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
            WAIT,
            "the note: ask your GM for the invite",
        )
        .await;
    assert_eq!(other.js(FITS).await, json!(true), "the note");
    other.go("about:blank").await;
    other.go(invite.as_str().unwrap()).await;
    other
        .until(
            "return !document.getElementById('join').hidden && document.getElementById('join-table').textContent === 'Join the table “Phone night”'",
            WAIT,
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
            WAIT,
            "the invite on the GM's other device",
        )
        .await;
    assert_eq!(shown, invite);
    close_all([other, gm]).await;
}
