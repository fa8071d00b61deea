//! `nutshell verify`: checks an exported room log offline, with nothing but
//! the log: the hash chain, each revealed seed against the commitment
//! published before its epoch's first roll, and every roll whose seed is
//! revealed, recomputed from seed, record and expression.
//!
//! Every field of a line is covered: the body by its hash, everything else by
//! the event's hash, and `hidden` must agree with `body`; an unknown field is
//! refused. So one changed byte anywhere makes a line fail, and the first
//! failing line is named.
//!
//! A log is read a line at a time ([`verify_reader`], [`Verifier`]): a roll is
//! recomputed as soon as its epoch's seed is revealed, so what is held is the
//! chain's end, the seeds and commitments, the rolls of epochs not revealed
//! yet and the fights' steps (replayed in order at the end). A log with no
//! event is refused.
//!
//! ```
//! use nutshell_server::verify::verify;
//! // An empty log proves nothing: refused, as the whole log (line 0).
//! assert_eq!(verify("").unwrap_err().line, 0);
//! let bad = verify("{not json}\n").unwrap_err();
//! assert_eq!(bad.line, 1);
//! ```

use std::collections::HashMap;

use nutshell_dice::Limits;
use serde_json::Value;

use crate::fair::{self, Link, RollRecord};
use crate::fight::{self, FightRequest};

/// What a log holds, once it checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The room.
    pub room: String,
    /// Lines checked.
    pub events: usize,
    /// The first sequence number (1 for a whole log).
    pub first_seq: i64,
    /// Rolls (every event that draws dice: rolls, checks, contests, sheets,
    /// advances, fight steps) recomputed from their revealed seed: faces,
    /// totals and outcomes match.
    pub rolls_verified: usize,
    /// Rolls of an epoch whose seed is not revealed yet: chained and
    /// committed, checkable after the next reveal (a fight's step also waits
    /// for every earlier step of its fight).
    pub rolls_pending: usize,
    /// Secret events the exporter may not see: only their commitment (body
    /// hash) is in the log.
    pub rolls_hidden: usize,
    /// Epochs whose seed was revealed and matched its commitment.
    pub epochs_revealed: usize,
}

/// The first thing that does not check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1-based line number in the file (0: the log as a whole, such as an
    /// empty one).
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            line => write!(f, "line {line}: {}", self.message),
        }
    }
}

impl std::error::Error for Failure {}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure {
        line,
        message: message.into(),
    })
}

const FIELDS: [&str; 11] = [
    "at_ms",
    "body",
    "body_hash",
    "epoch",
    "hash",
    "hidden",
    "kind",
    "prev",
    "room",
    "secret",
    "seq",
];

/// A fight as its steps so far leave it (`None` once a step could not be
/// replayed: an unrevealed seed or a step the exporter may not see).
struct Replay {
    fight: Option<nutshell_mls::Fight>,
    steps: i64,
}

/// A roll waiting for its epoch's seed.
struct PendingRoll {
    line: usize,
    seq: i64,
    epoch: i64,
    body: Value,
}

/// Checks the log `text` (JSON lines, as `GET /api/rooms/{room}/log` gives
/// it) with the engine's default limits for recomputing rolls.
pub fn verify(text: &str) -> Result<Report, Failure> {
    verify_with(text, &Limits::default())
}

/// [`verify`] with explicit engine limits (a server run with larger limits
/// needs the same to recompute its rolls).
pub fn verify_with(text: &str, limits: &Limits) -> Result<Report, Failure> {
    let mut verifier = Verifier::new(limits);
    for (index, raw) in text.lines().enumerate() {
        verifier.line(index + 1, raw)?;
    }
    verifier.finish()
}

/// The longest line [`verify_reader`] reads by default: 64 MiB, far above
/// any event a server with the default limits writes (a `10000d6` roll, the
/// most dice one roll may have, is a line of about 1.4 MB).
pub const DEFAULT_MAX_LINE_BYTES: u64 = 64 << 20;

/// How much [`verify_reader`] reads: a log is the user's own data and is
/// read a line at a time, so by default only one line is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most bytes of one line (its newline not counted).
    pub max_line_bytes: u64,
    /// The most bytes of the whole input, if any.
    pub max_total_bytes: Option<u64>,
}

impl Default for ReadLimits {
    fn default() -> ReadLimits {
        ReadLimits {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_total_bytes: None,
        }
    }
}

/// Why [`verify_reader`] gave no report.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The input could not be read, or is over a [`ReadLimits`] bound: the
    /// log was not checked to its end.
    #[error("{0}")]
    Read(String),
    /// The log does not check.
    #[error("{0}")]
    Log(#[from] Failure),
}

/// Checks a log read a line at a time from `reader` (a file, standard
/// input), holding only what later lines need: the chain's end, the
/// commitments and seeds, the rolls of epochs not yet revealed (each is
/// recomputed as soon as its seed is revealed) and the fights' steps.
pub fn verify_reader(
    mut reader: impl std::io::BufRead,
    limits: &Limits,
    read: ReadLimits,
) -> Result<Report, VerifyError> {
    use std::io::{BufRead, Read};
    let mut verifier = Verifier::new(limits);
    let mut buffer = Vec::new();
    let mut total: u64 = 0;
    let mut line = 0;
    loop {
        buffer.clear();
        let got = (&mut reader)
            .take(read.max_line_bytes.saturating_add(1))
            .read_until(b'\n', &mut buffer)
            .map_err(|e| VerifyError::Read(format!("line {}: {e}", line + 1)))?;
        if got == 0 {
            break;
        }
        line += 1;
        total += got as u64;
        if buffer.last() == Some(&b'\n') {
            buffer.pop();
            if buffer.last() == Some(&b'\r') {
                buffer.pop();
            }
        } else if buffer.len() as u64 > read.max_line_bytes {
            return Err(VerifyError::Read(format!(
                "line {line} is longer than {} bytes, the most one line may have (--max-file-size BYTES raises it)",
                read.max_line_bytes
            )));
        }
        if let Some(most) = read.max_total_bytes
            && total > most
        {
            return Err(VerifyError::Read(format!(
                "more than {most} bytes (the --max-file-size given); lines 1 to {} checked",
                line - 1
            )));
        }
        let text = match std::str::from_utf8(&buffer) {
            Ok(text) => text,
            Err(e) => {
                return Err(Failure {
                    line,
                    message: format!("not UTF-8 text (byte {} is not valid)", e.valid_up_to() + 1),
                }
                .into());
            }
        };
        verifier.line(line, text)?;
    }
    Ok(verifier.finish()?)
}

/// The state of a check in progress: [`Verifier::line`] for each line in
/// order, then [`Verifier::finish`].
pub struct Verifier<'l> {
    limits: &'l Limits,
    report: Report,
    previous: Option<(i64, String)>,
    commitments: HashMap<i64, String>,
    seeds: HashMap<i64, fair::Seed>,
    /// Rolls of epochs whose seed is not revealed yet.
    rolls: Vec<PendingRoll>,
    /// Fight steps, replayed in order at the end.
    steps: Vec<PendingRoll>,
    fights: HashMap<i64, Replay>,
    sheets: crate::sheet::Custody,
    hidden_seen: bool,
}

impl<'l> Verifier<'l> {
    /// A check of a log with the engine's `limits` for recomputing rolls.
    pub fn new(limits: &'l Limits) -> Verifier<'l> {
        Verifier {
            limits,
            report: Report::default(),
            previous: None,
            commitments: HashMap::new(),
            seeds: HashMap::new(),
            rolls: Vec::new(),
            steps: Vec::new(),
            fights: HashMap::new(),
            sheets: crate::sheet::Custody::default(),
            hidden_seen: false,
        }
    }

    /// Checks line number `line` (1-based), `raw` without its newline. A
    /// blank line is skipped.
    pub fn line(&mut self, line: usize, raw: &str) -> Result<(), Failure> {
        if raw.trim().is_empty() {
            return Ok(());
        }
        let value: Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => return fail(line, format!("not JSON: {e}")),
        };
        let Some(object) = value.as_object() else {
            return fail(line, "not a JSON object");
        };
        if let Some(extra) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return fail(line, format!("unexpected field `{extra}`"));
        }
        let string = |name: &str| -> Result<&str, Failure> {
            match object.get(name).and_then(Value::as_str) {
                Some(s) => Ok(s),
                None => fail(line, format!("`{name}` is missing or not a string")),
            }
        };
        let integer = |name: &str| -> Result<i64, Failure> {
            match object.get(name).and_then(Value::as_i64) {
                Some(n) => Ok(n),
                None => fail(line, format!("`{name}` is missing or not an integer")),
            }
        };
        let boolean = |name: &str| -> Result<bool, Failure> {
            match object.get(name).and_then(Value::as_bool) {
                Some(b) => Ok(b),
                None => fail(line, format!("`{name}` is missing or not true/false")),
            }
        };
        let room = string("room")?;
        let seq = integer("seq")?;
        let kind = string("kind")?;
        let epoch = integer("epoch")?;
        let at_ms = integer("at_ms")?;
        let secret = boolean("secret")?;
        let hidden = boolean("hidden")?;
        let body_hash = string("body_hash")?;
        let prev = string("prev")?;
        let hash = string("hash")?;
        let body = object.get("body").cloned().unwrap_or(Value::Null);
        let report = &mut self.report;

        // The chain.
        match &self.previous {
            None => {
                report.room = room.to_string();
                report.first_seq = seq;
                if seq == 1 && prev != fair::GENESIS {
                    return fail(
                        line,
                        "the first event's `prev` is not the genesis hash (64 zeros)",
                    );
                }
            }
            Some((last_seq, last_hash)) => {
                if room != report.room {
                    return fail(
                        line,
                        format!("room `{room}`, but the log is of room `{}`", report.room),
                    );
                }
                if seq != last_seq + 1 {
                    return fail(
                        line,
                        format!(
                            "sequence number {seq} after {last_seq}: an event is missing, repeated or moved"
                        ),
                    );
                }
                if prev != last_hash {
                    return fail(
                        line,
                        "`prev` is not the previous event's hash: the chain is broken",
                    );
                }
            }
        }
        let expected = fair::chain_hash(&Link {
            at_ms,
            body_hash,
            epoch,
            kind,
            prev,
            room,
            secret,
            seq,
        });
        if hash != expected {
            return fail(
                line,
                format!("event {seq}: `hash` does not match the event (expected {expected})"),
            );
        }
        self.previous = Some((seq, hash.to_string()));
        report.events += 1;

        // The body.
        if hidden != body.is_null() {
            return fail(line, "`hidden` does not agree with `body`");
        }
        if body.is_null() {
            if !(secret && matches!(kind, "roll" | "fight" | "fight-step")) {
                return fail(line, "only a secret roll or fight may be hidden");
            }
            report.rolls_hidden += 1;
            self.hidden_seen = true;
            self.sheets.hidden(seq);
            return Ok(());
        }
        if fair::body_hash(&body) != body_hash {
            return fail(
                line,
                format!("event {seq}: the body does not match `body_hash`"),
            );
        }
        if body.get("kind").and_then(Value::as_str) != Some(kind) {
            return fail(line, "the body's `kind` is not the event's");
        }
        match kind {
            "room" => {
                let commitment = body_str(&body, "commitment", line)?;
                self.commitments
                    .insert(body_int(&body, "epoch", line)?, commitment.to_string());
            }
            "reveal" => {
                let ended = body_int(&body, "epoch", line)?;
                let seed_hex = body_str(&body, "seed", line)?;
                let Some(seed) = fair::unhex(seed_hex).and_then(|b| <[u8; 32]>::try_from(b).ok())
                else {
                    return fail(line, "the revealed seed is not 64 hex digits");
                };
                if self.seeds.contains_key(&ended) {
                    return fail(line, format!("epoch {ended} is revealed a second time"));
                }
                match self.commitments.get(&ended) {
                    Some(c) if *c == fair::commitment(&seed) => report.epochs_revealed += 1,
                    Some(_) => {
                        return fail(
                            line,
                            format!(
                                "the seed revealed for epoch {ended} does not match its commitment"
                            ),
                        );
                    }
                    // The export starts after the commitment: nothing to compare.
                    None => {}
                }
                self.seeds.insert(ended, seed);
                let next = body_int(&body, "next_epoch", line)?;
                if next != ended + 1 {
                    return fail(line, "`next_epoch` is not the next epoch");
                }
                self.commitments
                    .insert(next, body_str(&body, "commitment", line)?.to_string());
                // The epoch's rolls, waiting for this seed, recomputed now.
                let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.rolls)
                    .into_iter()
                    .partition(|roll| roll.epoch == ended);
                self.rolls = waiting;
                for roll in ready {
                    self.recompute(&seed, &roll)?;
                }
            }
            "fight" => {
                let request: FightRequest = serde_json::from_value(body["request"].clone())
                    .map_err(|e| Failure {
                        line,
                        message: format!("event {seq}: not a fight request: {e}"),
                    })?;
                let fight = match request.build() {
                    Ok(fight) => fight,
                    Err(e) => return fail(line, format!("event {seq}: not a fight: {e}")),
                };
                if body.get("fight") != Some(&fight::start(&fight)) {
                    return fail(
                        line,
                        format!("event {seq}: the fight's start is not what its request makes"),
                    );
                }
                self.fights.insert(
                    seq,
                    Replay {
                        fight: Some(fight),
                        steps: 0,
                    },
                );
            }
            "fight-step" => {
                if body_int(&body, "epoch", line)? != epoch {
                    return fail(line, "the step's epoch is not the event's");
                }
                self.steps.push(PendingRoll {
                    line,
                    seq,
                    epoch,
                    body,
                });
            }
            "roll" => {
                if body_int(&body, "epoch", line)? != epoch {
                    return fail(line, "the roll's epoch is not the event's");
                }
                self.sheets
                    .follow(seq, &body)
                    .map_err(|message| Failure { line, message })?;
                let roll = PendingRoll {
                    line,
                    seq,
                    epoch,
                    body,
                };
                match self.seeds.get(&epoch) {
                    Some(seed) => {
                        let seed = *seed;
                        self.recompute(&seed, &roll)?;
                    }
                    None => self.rolls.push(roll),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Recomputes `roll` from its epoch's `seed`: its faces, total and
    /// outcome must be what the log holds.
    fn recompute(&mut self, seed: &fair::Seed, roll: &PendingRoll) -> Result<(), Failure> {
        let record = RollRecord {
            room: &self.report.room,
            epoch: roll.epoch,
            seq: roll.seq,
            roller: body_int(&roll.body, "roller", roll.line)?,
            client_seed: body_str(&roll.body, "client_seed", roll.line)?,
            expression: body_str(&roll.body, "expression", roll.line)?,
        };
        let again = match fair::perform(seed, &record, self.limits) {
            Ok(result) => result,
            Err(e) => {
                return fail(
                    roll.line,
                    format!("event {}: the expression does not roll: {e}", roll.seq),
                );
            }
        };
        if roll.body.get("result") != Some(&again) {
            let total = again.get("total").cloned().unwrap_or(Value::Null);
            return fail(
                roll.line,
                format!(
                    "event {}: the dice do not follow from the revealed seed (recomputed total {total})",
                    roll.seq
                ),
            );
        }
        self.report.rolls_verified += 1;
        Ok(())
    }

    /// The end of the log: every fight step replayed in order, the rolls
    /// still waiting for their seed counted as pending. A log with no event
    /// is refused: there is nothing in it to trust.
    pub fn finish(self) -> Result<Report, Failure> {
        let Verifier {
            mut report,
            rolls,
            steps,
            mut fights,
            seeds,
            hidden_seen,
            ..
        } = self;
        if report.events == 0 {
            return fail(
                0,
                "no events: a room's log holds at least the event that created the room \
                 (an export `?after=` its last event is empty and proves nothing)",
            );
        }
        report.rolls_pending += rolls.len();
        replay_steps(&mut report, steps, &mut fights, &seeds, hidden_seen)?;
        Ok(report)
    }
}

/// Every fight step, in order, on its fight as the earlier steps left it.
fn replay_steps(
    report: &mut Report,
    steps: Vec<PendingRoll>,
    fights: &mut HashMap<i64, Replay>,
    seeds: &HashMap<i64, fair::Seed>,
    hidden_seen: bool,
) -> Result<(), Failure> {
    for step in steps {
        let id = body_int(&step.body, "fight", step.line)?;
        let number = body_int(&step.body, "step", step.line)?;
        let Some(replay) = fights.get_mut(&id) else {
            if !hidden_seen && report.first_seq == 1 {
                return fail(
                    step.line,
                    format!(
                        "event {}: a step of fight {id}, which is not in the log",
                        step.seq
                    ),
                );
            }
            // The fight is before this export or hidden from the exporter.
            report.rolls_pending += 1;
            continue;
        };
        if number != replay.steps + 1 {
            if !hidden_seen {
                return fail(
                    step.line,
                    format!(
                        "event {}: step {number} of fight {id} after step {}",
                        step.seq, replay.steps
                    ),
                );
            }
            replay.fight = None;
        }
        replay.steps = number;
        let (Some(fight), Some(seed)) = (replay.fight.as_mut(), seeds.get(&step.epoch)) else {
            replay.fight = None;
            report.rolls_pending += 1;
            continue;
        };
        let rounds = fight::Rounds::from_json(&step.body["rounds"]).map_err(|message| Failure {
            line: step.line,
            message: format!("event {}: {message}", step.seq),
        })?;
        let text = fight::step_text(id, number, rounds);
        let record = RollRecord {
            room: &report.room,
            epoch: step.epoch,
            seq: step.seq,
            roller: body_int(&step.body, "roller", step.line)?,
            client_seed: body_str(&step.body, "client_seed", step.line)?,
            expression: &text,
        };
        let again = match fight::step(fight, seed, &record, rounds) {
            Ok(result) => result,
            Err(e) => {
                return fail(
                    step.line,
                    format!(
                        "event {}: step {number} of fight {id} does not replay: {e}",
                        step.seq
                    ),
                );
            }
        };
        if step.body.get("result") != Some(&again) {
            return fail(
                step.line,
                format!(
                    "event {}: step {number} of fight {id} does not follow from the revealed seed",
                    step.seq
                ),
            );
        }
        report.rolls_verified += 1;
    }
    Ok(())
}

fn body_str<'a>(body: &'a Value, name: &str, line: usize) -> Result<&'a str, Failure> {
    match body.get(name).and_then(Value::as_str) {
        Some(s) => Ok(s),
        None => fail(
            line,
            format!("the body's `{name}` is missing or not a string"),
        ),
    }
}

fn body_int(body: &Value, name: &str, line: usize) -> Result<i64, Failure> {
    match body.get(name).and_then(Value::as_i64) {
        Some(n) => Ok(n),
        None => fail(
            line,
            format!("the body's `{name}` is missing or not an integer"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A log line for `body`, chained to `prev`.
    fn line(seq: i64, kind: &str, epoch: i64, prev: &str, body: Value) -> (String, String) {
        let body_hash = fair::body_hash(&body);
        let hash = fair::chain_hash(&Link {
            at_ms: seq,
            body_hash: &body_hash,
            epoch,
            kind,
            prev,
            room: "r",
            secret: false,
            seq,
        });
        let line = json!({"at_ms": seq, "body": body, "body_hash": body_hash, "epoch": epoch,
                          "hash": hash, "hidden": false, "kind": kind, "prev": prev, "room": "r",
                          "secret": false, "seq": seq});
        (fair::canonical(&line), hash)
    }

    /// A log with a fight of an earlier server (one roll event, the whole
    /// fight in it), `result` as its outcome.
    fn legacy_log(edit: impl FnOnce(&mut Value)) -> String {
        let request = FightRequest {
            a: include_str!("../../../examples/mls/duel/knight.toml").to_string(),
            b: include_str!("../../../examples/mls/duel/brigand.toml").to_string(),
            distance: 1,
            surprised: None,
            max_turns: 100,
            map: None,
        };
        roll_log([7u8; 32], &request.text(), edit)
    }

    /// A log of one roll of `expression` by the GM, then the reveal.
    fn one_roll_log(expression: &str) -> String {
        roll_log([9u8; 32], expression, |_| {})
    }

    /// The room's opening, one roll of `expression` by the GM under `seed`
    /// (its result passed through `edit`), then the reveal.
    fn roll_log(seed: [u8; 32], expression: &str, edit: impl FnOnce(&mut Value)) -> String {
        let record = RollRecord {
            room: "r",
            epoch: 0,
            seq: 2,
            roller: 0,
            client_seed: "",
            expression,
        };
        let mut result = fair::perform(&seed, &record, &Limits::default()).unwrap();
        edit(&mut result);
        let (first, prev) = line(
            1,
            "room",
            0,
            fair::GENESIS,
            json!({"kind": "room", "epoch": 0, "commitment": fair::commitment(&seed)}),
        );
        let roll = json!({"kind": "roll", "roller": 0, "name": "GM", "epoch": 0, "client_seed": "",
                          "expression": expression, "secret": false, "result": result});
        let (second, prev) = line(2, "roll", 0, &prev, roll);
        let reveal = json!({"kind": "reveal", "epoch": 0, "seed": fair::hex(&seed),
                            "next_epoch": 1, "commitment": fair::commitment(&[8u8; 32])});
        let (third, _) = line(3, "reveal", 0, &prev, reveal);
        format!("{first}\n{second}\n{third}\n")
    }

    /// Rooms of earlier servers hold fights fought in one event: they still
    /// replay, and a changed outcome (every hash recomputed) is caught.
    #[test]
    fn a_fight_of_an_earlier_server_still_verifies() {
        let report = verify(&legacy_log(|_| {})).unwrap();
        assert_eq!((report.events, report.rolls_verified), (3, 1));
        let forged = legacy_log(|result| result["ending"]["reason"] = json!("the brigand fled"));
        let failure = verify(&forged).unwrap_err();
        assert_eq!(failure.line, 2, "{failure}");
        assert!(failure.message.contains("do not follow"), "{failure}");
    }

    /// One accepted `10000d6` makes a line over 1 MiB: read a line at a time,
    /// with no bound on the whole log by default, it verifies; the bounds
    /// given are kept.
    #[test]
    fn a_log_over_a_mebibyte_is_read_a_line_at_a_time() {
        let log = one_roll_log("10000d6");
        assert!(log.len() > 1 << 20, "{} bytes", log.len());
        let report =
            verify_reader(log.as_bytes(), &Limits::default(), ReadLimits::default()).unwrap();
        assert_eq!((report.events, report.rolls_verified), (3, 1));
        let capped = ReadLimits {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_total_bytes: Some(1 << 20),
        };
        let refused = verify_reader(log.as_bytes(), &Limits::default(), capped).unwrap_err();
        assert!(
            matches!(&refused, VerifyError::Read(m) if m.contains("more than 1048576 bytes")),
            "{refused}"
        );
        let short_lines = ReadLimits {
            max_line_bytes: 1000,
            max_total_bytes: None,
        };
        let refused = verify_reader(log.as_bytes(), &Limits::default(), short_lines).unwrap_err();
        assert!(
            matches!(&refused, VerifyError::Read(m) if m.contains("line 2 is longer than 1000 bytes")),
            "{refused}"
        );
    }

    /// Lines ending in CR LF read as lines; a byte that is not UTF-8 names
    /// its line; a forged roll is named when its seed is revealed.
    #[test]
    fn a_streamed_log_names_its_failing_line() {
        let log = one_roll_log("3d6 + 1d20");
        let crlf = log.replace('\n', "\r\n");
        let read = |text: &[u8]| verify_reader(text, &Limits::default(), ReadLimits::default());
        assert_eq!(read(crlf.as_bytes()).unwrap().rolls_verified, 1);
        let mut bytes = log.clone().into_bytes();
        let second = log.find('\n').unwrap() + 5;
        bytes[second] = 0xff;
        match read(&bytes).unwrap_err() {
            VerifyError::Log(failure) => {
                assert_eq!(failure.line, 2, "{failure}");
                assert!(failure.message.contains("not UTF-8"), "{failure}");
            }
            other => panic!("{other}"),
        }
    }

    /// An empty log, or one of blank lines only, holds nothing to trust: it
    /// is refused, not reported OK with 0 events.
    #[test]
    fn an_empty_log_is_refused() {
        for text in ["", "\n", "  \n\n"] {
            let failure = verify(text).unwrap_err();
            assert_eq!(failure.line, 0);
            assert!(failure.to_string().starts_with("no events"), "{failure}");
            let streamed =
                verify_reader(text.as_bytes(), &Limits::default(), ReadLimits::default());
            assert!(matches!(streamed, Err(VerifyError::Log(_))));
        }
    }

    /// Each epoch is revealed once: a second reveal of it (a seed swapped
    /// after the rolls were checked against the first) is refused.
    #[test]
    fn an_epoch_revealed_twice_is_refused() {
        let seed = [3u8; 32];
        let (first, prev) = line(
            1,
            "room",
            0,
            fair::GENESIS,
            json!({"kind": "room", "epoch": 0, "commitment": fair::commitment(&seed)}),
        );
        let reveal = json!({"kind": "reveal", "epoch": 0, "seed": fair::hex(&seed),
                            "next_epoch": 1, "commitment": fair::commitment(&[4u8; 32])});
        let (second, prev) = line(2, "reveal", 0, &prev, reveal.clone());
        let (third, _) = line(3, "reveal", 0, &prev, reveal);
        assert_eq!(verify(&format!("{first}\n{second}\n")).unwrap().events, 2);
        let failure = verify(&format!("{first}\n{second}\n{third}\n")).unwrap_err();
        assert_eq!(failure.line, 3, "{failure}");
        assert!(
            failure.message.contains("revealed a second time"),
            "{failure}"
        );
    }
}
