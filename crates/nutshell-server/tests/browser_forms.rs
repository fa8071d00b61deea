//! The web table's forms in a real browser: what the page checked, said in
//! the form's own words.
//!
//! A test fails when `chromium` or `chromedriver` is not installed (the
//! README's test command, `.ci/test`, installs both with `.ci/browser`): it
//! never passes without running. `NUTSHELL_SKIP_BROWSER=1` skips them
//! instead, each saying so. Screenshots go to `target/web-screens/`.

use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
use browser::pages::{WAIT, count};
use browser::{Answered, set_up};

/// Issue 26, item 5: what a newcomer read wrong. The GM is "the GM" (not
/// "GM (the GM)"); the check form offers the ruleset's own DC descriptors
/// and its errors use the form's words, not the command line's flags; a
/// reveal's marks say what the browser checked (the chain and the
/// commitments) and how to check the dice (`nutshell verify`); the page
/// has an icon its policy allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_reads_what_the_page_checked_in_the_forms_words() {
    let Some((driver, base, _server)) =
        set_up("a_newcomer_reads_what_the_page_checked_in_the_forms_words").await
    else {
        return;
    };
    let gm = driver.browser(1280, 900).await;
    gm.open_start(&base).await;
    gm.create_room(None).await;
    let who = gm
        .until(
            "const t = document.getElementById('who').textContent; return t.startsWith('You are') && t",
            WAIT,
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
            WAIT,
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
            WAIT,
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
    let (room, key) = gm.seat().await;
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
            .answer()
            .await;
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
        WAIT,
        "the check rolled",
    )
    .await;
    gm.roll("2d6", false).await;
    gm.until(&count("2d6"), WAIT, "the roll").await;

    // After a reveal, each roll's mark says what this browser checked and
    // what it did not: the dice are `nutshell verify`'s.
    gm.js("document.getElementById('reveal').click();").await;
    gm.js("document.getElementById('reveal-yes').click();")
        .await;
    let marks = gm
        .until(
            "const m = [...document.querySelectorAll('#feed .verified')].map(v => v.textContent); return m.length >= 2 && document.getElementById('verified').textContent.startsWith('✓') && m",
            WAIT,
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
