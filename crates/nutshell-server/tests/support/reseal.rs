//! A log rewritten as a forger who controls the server would: one event's
//! body edited, its body hash and every hash of the chain after it
//! recomputed, so that only replaying the dice can tell.

use serde_json::{Value, json};

/// The export `log` with event `seq`'s body changed by `edit` and every hash
/// recomputed.
pub fn reseal(log: &str, seq: i64, edit: impl FnOnce(&mut Value)) -> String {
    use nutshell_server::fair::{self, Link};
    let mut edit = Some(edit);
    let mut prev: Option<String> = None;
    let mut out = String::new();
    for line in log.lines() {
        let mut line: Value = serde_json::from_str(line).unwrap();
        if line["seq"] == seq {
            (edit.take().unwrap())(&mut line["body"]);
            line["body_hash"] = json!(fair::body_hash(&line["body"]));
        }
        if let Some(prev) = &prev {
            line["prev"] = json!(prev);
        }
        let hash = fair::chain_hash(&Link {
            at_ms: line["at_ms"].as_i64().unwrap(),
            body_hash: line["body_hash"].as_str().unwrap(),
            epoch: line["epoch"].as_i64().unwrap(),
            kind: line["kind"].as_str().unwrap(),
            prev: line["prev"].as_str().unwrap(),
            room: line["room"].as_str().unwrap(),
            secret: line["secret"].as_bool().unwrap(),
            seq: line["seq"].as_i64().unwrap(),
        });
        line["hash"] = json!(hash);
        prev = Some(hash);
        out.push_str(&fair::canonical(&line));
        out.push('\n');
    }
    assert!(edit.is_none(), "no event {seq} in the log");
    out
}
