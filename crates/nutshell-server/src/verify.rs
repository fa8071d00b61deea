//! `nutshell verify`: checks an exported room log offline, with nothing but
//! the log: the hash chain, each revealed seed against the commitment
//! published before its epoch's first roll, and every roll whose seed is
//! revealed, recomputed from the seed and what the roller controls (their
//! count of rolls, their client seed, the action).
//!
//! A recomputed result is compared with the recorded one on what its dice
//! decided ([`crate::decided`]): every face, total, outcome and every other
//! value, exactly; a difference fails the line. Its words (a step's text, a
//! roll's text) may differ, as an earlier version wrote them: the line then
//! checks, and each differing word is a [`Note`] in the report, naming the
//! line and its place and showing both wordings, so that no change of a log
//! passes unseen and no rewording of today's texts needs a rule for the old
//! ones. Both wordings are shown escaped (`{:?}`), so that words cannot pass
//! for lines of verify's own.
//!
//! Every field of a line is covered: the body by its hash, everything else by
//! the event's hash, and `hidden` must agree with `body`; an unknown field, a
//! key given twice, or a body that does not have its kind's structure is
//! refused. A line that does not check is reported and the check goes on
//! with the next one, so one malformed or misplaced event (an old `roll`
//! that named itself an `advance`) never hides whether the rest holds; the
//! [`Report`] lists every failure ([`Report::failures`]).
//!
//! The epochs are checked as the server must have kept them: a roll belongs
//! to the epoch whose commitment is the latest published and whose seed is
//! not revealed yet. A roll in an epoch that was never committed (in a log
//! that starts at the room's creation), or in one whose seed is already
//! public, is a failure: its dice could have been chosen.
//!
//! A log is read a line at a time ([`verify_reader`], [`Verifier`]): a roll
//! is recomputed as soon as its epoch's seed is revealed, a fight's step as
//! soon as its seed and every earlier step are; until then a roll is held as
//! what its recomputation needs (its action, a hash of what its dice decided
//! and its words, not its result), so the memory a log takes is about that
//! of its unrevealed actions and their words, whatever dice their results
//! hold. A log with no event is refused.
//!
//! ```
//! use nutshell_server::verify::verify;
//! // An empty log proves nothing: refused, as the whole log (line 0).
//! assert_eq!(verify("").unwrap_err().line, 0);
//! let bad = verify("{not json}\n").unwrap_err();
//! assert_eq!(bad.line, 1);
//! ```
//!
//! # In detail
//!
//! Checks an exported log offline, a line at a time: chain, numbering, bodies
//! (strict JSON: a repeated key is refused), each action's structure, the
//! epoch in play (committed before, not yet revealed), each roller's count,
//! every roll recomputed as soon as its seed is revealed (held until then as
//! its action, a hash of what its dice decided and its words) and compared
//! on what its dice decided, its differing words noted, every fight built
//! from its request and its steps and decisions replayed in order (a
//! changed decision changes the dice and the rounds, and fails), every
//! decision of a played fight written by whoever controlled its combatant
//! then (a person's by that member or, the GM's, the GM; the engine's by
//! the GM), every advance checked against its sheet's latest version; every
//! failing line reported, the check going on; every differing word noted;
//! `--head`.

use std::collections::{HashMap, VecDeque};

use nutshell_dice::Limits;
use serde_json::Value;

use crate::action::Action;
use crate::decided;
use crate::fair::{self, Link, RollRecord};
use crate::fight::{self, Control, FightRequest, Rounds, Running};
use crate::replay::{self, legacy};

/// What a log holds, once checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The room.
    pub room: String,
    /// Lines checked.
    pub events: usize,
    /// The first sequence number (1 for a whole log).
    pub first_seq: i64,
    /// The last event's sequence number and hash: what `--head` compares.
    pub last_seq: i64,
    pub last_hash: String,
    /// Rolls (every event that draws dice: rolls, checks, contests, sheets,
    /// advances, fight steps) recomputed from their revealed seed: faces,
    /// totals and outcomes match.
    pub rolls_verified: usize,
    /// Of those, rolls of an earlier server, whose dice were keyed by the
    /// sequence number the server assigned (see `docs/server.md`).
    pub rolls_legacy: usize,
    /// Rolls of an epoch whose seed is not revealed yet: chained and
    /// committed, checkable after the next reveal (a fight's step also waits
    /// for every earlier step of its fight).
    pub rolls_pending: usize,
    /// Secret events the exporter may not see: only their commitment (body
    /// hash) is in the log.
    pub rolls_hidden: usize,
    /// Rolls recomputed from a seed whose commitment is before this export
    /// (an export `?after=`): the seed cannot be compared with it here.
    pub rolls_unanchored: usize,
    /// Epochs whose seed was revealed and matched its commitment.
    pub epochs_revealed: usize,
    /// Every line that does not check, in order (at most
    /// [`MAX_FAILURES`] kept; [`Report::failures_total`] counts them all).
    pub failures: Vec<Failure>,
    /// How many lines failed.
    pub failures_total: usize,
    /// Every word of a recomputed result that differs from the one the log
    /// records, what the dice decided being the same (see
    /// [`crate::decided`]): such a line checks, and is shown (at most
    /// [`MAX_NOTES`] kept; [`Report::notes_total`] counts them all).
    pub notes: Vec<Note>,
    /// How many words differ.
    pub notes_total: usize,
}

/// The most failures a [`Report`] keeps.
pub const MAX_FAILURES: usize = 1000;

/// The most notes a [`Report`] keeps.
pub const MAX_NOTES: usize = 1000;

impl Report {
    /// Whether everything checked and every roll was recomputed: nothing
    /// failed, nothing waits for a reveal, nothing is hidden or unanchored.
    pub fn complete(&self) -> bool {
        self.failures_total == 0
            && self.rolls_pending == 0
            && self.rolls_hidden == 0
            && self.rolls_unanchored == 0
    }

    /// Checks that the log ends at `head`, given as `SEQ:HASH` (the room's
    /// latest event as the page shows it): a log cut short, or one that
    /// goes on past it, is refused.
    pub fn check_head(&self, head: &str) -> Result<(), String> {
        let Some((seq, hash)) = head.split_once(':') else {
            return Err(format!(
                "--head `{head}`: expected SEQ:HASH, such as 12:3f0c... (the page shows it)"
            ));
        };
        let seq: i64 = seq
            .trim()
            .parse()
            .map_err(|_| format!("--head `{head}`: `{seq}` is not a sequence number"))?;
        let hash = hash.trim();
        if seq != self.last_seq {
            return Err(format!(
                "the log ends at event {}, not at event {seq} (--head): {}",
                self.last_seq,
                if self.last_seq < seq {
                    "events were cut from its end"
                } else {
                    "it goes on past the head given"
                }
            ));
        }
        if !hash.eq_ignore_ascii_case(&self.last_hash) {
            return Err(format!(
                "event {seq} has hash {}, not {hash} (--head): this is not the log whose head you noted",
                self.last_hash
            ));
        }
        Ok(())
    }
}

/// A thing that does not check.
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

/// Words of a line that differ from today's, what its dice decided being
/// the same: the line checks, and this says where and how its words
/// differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// 1-based line number in the file.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

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

/// The fields a body of this server's `roll` or `fight-step` event may have
/// (`advances` only an advance's; `fight`, `step`, `rounds` only a fight
/// step's, equal to its action's).
const ACTION_FIELDS: [&str; 15] = [
    "action",
    "advances",
    "client_seed",
    "count",
    "epoch",
    "fight",
    "kind",
    "name",
    "nonce",
    "result",
    "role",
    "roller",
    "rounds",
    "secret",
    "step",
];

/// What recomputing a roll needs, held until its seed is revealed: not its
/// result, only the SHA-256 of what its dice decided and its words.
struct Pending {
    line: usize,
    seq: i64,
    epoch: i64,
    roller: i64,
    client_seed: String,
    how: How,
    recorded: decided::Split,
}

impl Pending {
    /// The roll of the event at `at`, held with `body`'s result split.
    fn at(at: &At, roller: i64, client_seed: String, body: &Value, how: How) -> Pending {
        Pending {
            line: at.line,
            seq: at.seq,
            epoch: at.epoch,
            roller,
            client_seed,
            how,
            recorded: decided::split(body.get("result").unwrap_or(&Value::Null)),
        }
    }
}

/// How a held roll's dice are keyed.
enum How {
    /// This server's: the roller's count and the action.
    Action { count: i64, action: Box<Action> },
    /// An earlier server's: the sequence number and the record text.
    Legacy { expression: String },
}

/// A fight as its steps so far leave it (`None` once a step could not be
/// replayed, or its start did not check), and its steps waiting for a seed.
struct Replay {
    fight: Option<Running>,
    steps: i64,
    waiting: VecDeque<Pending>,
    /// A played fight's controllers as its events so far leave them (its
    /// start's `control`, then each change of control), by combatant name.
    control: Vec<(String, Control)>,
}

/// Checks the log `text` (JSON lines, as `GET /api/rooms/{room}/log` gives
/// it) with the engine's default limits for recomputing rolls: the report,
/// or the first failure.
pub fn verify(text: &str) -> Result<Report, Failure> {
    verify_with(text, &Limits::default())
}

/// [`verify`] with explicit engine limits (a server run with larger limits
/// needs the same to recompute its rolls).
pub fn verify_with(text: &str, limits: &Limits) -> Result<Report, Failure> {
    let report = verify_all(text, limits);
    match report.failures.first() {
        Some(first) => Err(first.clone()),
        None => Ok(report),
    }
}

/// Checks the whole log `text`, every line: the report lists every failure.
pub fn verify_all(text: &str, limits: &Limits) -> Report {
    let mut verifier = Verifier::new(limits);
    for (index, raw) in text.lines().enumerate() {
        verifier.line(index + 1, raw);
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
}

/// Checks a log read a line at a time from `reader` (a file, standard
/// input), holding only what later lines need. The report lists every
/// line that does not check.
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
        match std::str::from_utf8(&buffer) {
            Ok(text) => verifier.line(line, text),
            Err(e) => verifier.failed(Failure {
                line,
                message: format!("not UTF-8 text (byte {} is not valid)", e.valid_up_to() + 1),
            }),
        }
    }
    Ok(verifier.finish())
}

/// A line parsed with every object's keys checked: a key given twice is
/// refused (`serde_json` would keep the last, so a forged value could hide
/// behind the one a hash was computed over).
pub fn parse_strict(text: &str) -> Result<Value, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

struct Strict;

impl<'de> serde::de::DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Strict)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` is given twice"
                )));
            }
            let value = map.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// The state of a check in progress: [`Verifier::line`] for each line in
/// order, then [`Verifier::finish`].
pub struct Verifier<'l> {
    limits: &'l Limits,
    report: Report,
    previous: Option<(i64, String)>,
    commitments: HashMap<i64, String>,
    /// The epoch rolls go into now: the latest committed, not revealed.
    open: Option<i64>,
    /// Revealed seeds, and whether each matched a commitment in this log.
    seeds: HashMap<i64, (fair::Seed, bool)>,
    /// Rolls of epochs whose seed is not revealed yet.
    rolls: Vec<Pending>,
    fights: HashMap<i64, Replay>,
    sheets: crate::sheet::Custody,
    /// Each roller's last count, and the events seen unread then.
    counts: HashMap<i64, (i64, usize)>,
    /// Events whose body this check could not read: hidden from the
    /// exporter, or failed.
    hidden_seen: usize,
}

impl<'l> Verifier<'l> {
    /// A check of a log with the engine's `limits` for recomputing rolls.
    pub fn new(limits: &'l Limits) -> Verifier<'l> {
        Verifier {
            limits,
            report: Report::default(),
            previous: None,
            commitments: HashMap::new(),
            open: None,
            seeds: HashMap::new(),
            rolls: Vec::new(),
            fights: HashMap::new(),
            sheets: crate::sheet::Custody::default(),
            counts: HashMap::new(),
            hidden_seen: 0,
        }
    }

    /// Notes a failure and goes on.
    fn failed(&mut self, failure: Failure) {
        self.report.failures_total += 1;
        if self.report.failures.len() < MAX_FAILURES {
            self.report.failures.push(failure);
        }
    }

    /// Notes each word of `again`, the recomputation of `roll`, that
    /// differs from the one recorded (what the dice decided being the
    /// same).
    fn worded(&mut self, roll: &Pending, again: &Value) {
        let today = decided::words(again);
        for ((at, today), recorded) in today.iter().zip(&roll.recorded.words) {
            if today == recorded {
                continue;
            }
            let (recorded, today) = excerpts(recorded, today);
            self.report.notes_total += 1;
            if self.report.notes.len() < MAX_NOTES {
                self.report.notes.push(Note {
                    line: roll.line,
                    message: format!(
                        "event {}: the words of `{at}` differ from today's: recorded {recorded:?}, today {today:?}",
                        roll.seq
                    ),
                });
            }
        }
    }

    /// Checks line number `line` (1-based), `raw` without its newline. A
    /// blank line is skipped; a line that does not check is noted in the
    /// report.
    pub fn line(&mut self, line: usize, raw: &str) {
        if let Err(failure) = self.check_line(line, raw) {
            // What this line held is unknown, as a hidden event's is: a
            // roller's count may skip it without a second failure.
            self.hidden_seen += 1;
            self.failed(failure);
        }
    }

    fn check_line(&mut self, line: usize, raw: &str) -> Result<(), Failure> {
        if raw.trim().is_empty() {
            return Ok(());
        }
        let value: Value = match parse_strict(raw) {
            Ok(v) => v,
            Err(e) => {
                // A line that reads as JSON but for a repeated key: the
                // chain goes on from it (its hash is what the next line's
                // `prev` names), so the one bad line is the one failure.
                if let Ok(lenient) = serde_json::from_str::<Value>(raw)
                    && let (Some(seq), Some(hash)) =
                        (lenient["seq"].as_i64(), lenient["hash"].as_str())
                {
                    self.previous = Some((seq, hash.to_string()));
                    self.report.last_seq = seq;
                    self.report.last_hash = hash.to_string();
                    self.report.events += 1;
                }
                return fail(line, format!("not JSON: {e}"));
            }
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
        let body = object.get("body").unwrap_or(&Value::Null);

        // The chain. A line that breaks it is reported; the check goes on
        // from it (so one bad line is one failure).
        let mut broken = None;
        match &self.previous {
            None => {
                self.report.room = room.to_string();
                self.report.first_seq = seq;
                if seq == 1 && prev != fair::GENESIS {
                    broken = Some(
                        "the first event's `prev` is not the genesis hash (64 zeros)".to_string(),
                    );
                }
            }
            Some((last_seq, last_hash)) => {
                if room != self.report.room {
                    broken = Some(format!(
                        "room `{room}`, but the log is of room `{}`",
                        self.report.room
                    ));
                } else if seq != last_seq + 1 {
                    broken = Some(format!(
                        "sequence number {seq} after {last_seq}: an event is missing, repeated or moved"
                    ));
                } else if prev != last_hash {
                    broken =
                        Some("`prev` is not the previous event's hash: the chain is broken".into());
                }
            }
        }
        self.previous = Some((seq, hash.to_string()));
        self.report.last_seq = seq;
        self.report.last_hash = hash.to_string();
        self.report.events += 1;
        if let Some(message) = broken {
            return fail(line, message);
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

        // The body.
        if hidden != body.is_null() {
            return fail(line, "`hidden` does not agree with `body`");
        }
        if body.is_null() {
            if !(secret
                && matches!(
                    kind,
                    "roll" | "fight" | "fight-step" | "fight-decision" | "fight-control"
                ))
            {
                return fail(line, "only a secret roll or fight may be hidden");
            }
            self.report.rolls_hidden += 1;
            self.hidden_seen += 1;
            self.sheets.hidden(seq);
            return Ok(());
        }
        if fair::body_hash(body) != body_hash {
            return fail(
                line,
                format!("event {seq}: the body does not match `body_hash`"),
            );
        }
        if body.get("kind").and_then(Value::as_str) != Some(kind) {
            return fail(line, "the body's `kind` is not the event's");
        }
        let at = At {
            line,
            seq,
            epoch,
            secret,
        };
        match kind {
            "room" => self.room(&at, body),
            "reveal" => self.reveal(&at, body),
            "fight" => self.fight(&at, body),
            "fight-step" | "roll" => {
                if body.get("action").is_some() {
                    self.action(&at, kind, body)
                } else {
                    self.legacy(&at, kind, body)
                }
            }
            "fight-decision" => self.action(&at, kind, body),
            "fight-control" => self.fight_control(&at, body),
            _ => Ok(()),
        }
    }

    fn room(&mut self, at: &At, body: &Value) -> Result<(), Failure> {
        let commitment = body_str(body, "commitment", at.line)?;
        let epoch = body_int(body, "epoch", at.line)?;
        self.commitments.insert(epoch, commitment.to_string());
        self.open = Some(epoch);
        Ok(())
    }

    fn reveal(&mut self, at: &At, body: &Value) -> Result<(), Failure> {
        let line = at.line;
        let ended = body_int(body, "epoch", line)?;
        let seed_hex = body_str(body, "seed", line)?;
        let Some(seed) = fair::unhex(seed_hex).and_then(|b| <[u8; 32]>::try_from(b).ok()) else {
            return fail(line, "the revealed seed is not 64 hex digits");
        };
        if self.seeds.contains_key(&ended) {
            return fail(line, format!("epoch {ended} is revealed a second time"));
        }
        if let Some(open) = self.open
            && open != ended
        {
            return fail(
                line,
                format!("epoch {ended} is revealed, but the epoch in play is {open}"),
            );
        }
        let anchored = match self.commitments.get(&ended) {
            Some(c) if *c == fair::commitment(&seed) => {
                self.report.epochs_revealed += 1;
                true
            }
            Some(_) => {
                return fail(
                    line,
                    format!("the seed revealed for epoch {ended} does not match its commitment"),
                );
            }
            // The export starts after the commitment: nothing to compare.
            None => false,
        };
        self.seeds.insert(ended, (seed, anchored));
        let next = body_int(body, "next_epoch", line)?;
        if next != ended + 1 {
            return fail(line, "`next_epoch` is not the next epoch");
        }
        self.commitments
            .insert(next, body_str(body, "commitment", line)?.to_string());
        self.open = Some(next);
        // The epoch's rolls, waiting for this seed, recomputed now.
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.rolls)
            .into_iter()
            .partition(|roll| roll.epoch == ended);
        self.rolls = waiting;
        for roll in ready {
            if let Err(failure) = self.recompute(&roll, None) {
                self.failed(failure);
            }
        }
        let ids: Vec<i64> = self.fights.keys().copied().collect();
        for id in ids {
            self.drain(id);
        }
        Ok(())
    }

    fn fight(&mut self, at: &At, body: &Value) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        // Whatever goes wrong, the fight's steps are not replayed.
        self.fights.insert(
            seq,
            Replay {
                fight: None,
                steps: 0,
                waiting: VecDeque::new(),
                control: Vec::new(),
            },
        );
        // (A secret fight's start holds no dice and, from earlier servers,
        // no nonce: its body is not required to have one here; every step
        // of this server's is.)
        let request: FightRequest =
            serde_json::from_value(body["request"].clone()).map_err(|e| Failure {
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
        let running = if body["played"] == true {
            match fight::Played::from_start(body, fight) {
                Ok(played) => Running::Played(played),
                Err(e) => {
                    return fail(line, format!("event {seq}: not a played fight: {e}"));
                }
            }
        } else {
            Running::Stepped(fight)
        };
        if let Some(replay) = self.fights.get_mut(&seq) {
            if let Running::Played(played) = &running {
                replay.control = played
                    .play
                    .fight()
                    .fighters()
                    .iter()
                    .zip(&played.control)
                    .map(|(f, c)| (f.sheet.name.clone(), *c))
                    .collect();
            }
            replay.fight = Some(running);
        }
        Ok(())
    }

    /// A played fight's decision is written by whoever controlled its
    /// combatant then: a person's by that member (the GM's by the GM), the
    /// engine's by the GM, who writes the engine's decisions.
    fn decided_by(&self, at: &At, id: i64, action: &Action, roller: i64) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        let Action::FightDecision {
            decision: Some(made),
            ..
        } = action
        else {
            return Ok(());
        };
        let Some(replay) = self.fights.get(&id) else {
            return Ok(());
        };
        let Some((_, control)) = replay.control.iter().find(|(n, _)| *n == made.who) else {
            return Ok(());
        };
        let ok = match made.by {
            nutshell_mls::fight::Controller::Engine => roller == 0,
            nutshell_mls::fight::Controller::Person => match control {
                Control::Gm => roller == 0,
                Control::Member(member) => roller == *member,
                Control::Engine => false,
            },
        };
        if ok {
            return Ok(());
        }
        let by = match made.by {
            nutshell_mls::fight::Controller::Engine => "the engine's",
            nutshell_mls::fight::Controller::Person => "a person's",
        };
        fail(
            line,
            format!(
                "event {seq}: {}'s {} is written as {by} by member {roller}, who did not control {} then (their controller: {})",
                made.who,
                made.kind.name(),
                made.who,
                control.to_json()
            ),
        )
    }

    /// A played fight's change of control: it draws no dice and takes its
    /// number in the fight's thread (each decision's action names the
    /// combatants the engine controls, so the replay needs nothing else).
    fn fight_control(&mut self, at: &At, body: &Value) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        let id = body_int(body, "fight", line)?;
        let number = body_int(body, "step", line)?;
        let full = self.hidden_seen == 0 && self.report.first_seq == 1;
        if let (Some(replay), Some(name)) = (self.fights.get_mut(&id), body["who"].as_str()) {
            let control = Control::from_json(&body["controller"]).map_err(|e| Failure {
                line,
                message: format!("event {seq}: {e}"),
            })?;
            if let Some(entry) = replay.control.iter_mut().find(|(n, _)| n == name) {
                entry.1 = control;
            }
        }
        let Some(replay) = self.fights.get_mut(&id) else {
            if full {
                return fail(
                    line,
                    format!(
                        "event {seq}: a change of control in fight {id}, which is not in the log"
                    ),
                );
            }
            return Ok(());
        };
        if number != replay.steps + 1 {
            let after = replay.steps;
            replay.steps = number;
            replay.fight = None;
            if full {
                return fail(
                    line,
                    format!("event {seq}: step {number} of fight {id} after step {after}"),
                );
            }
            return Ok(());
        }
        replay.steps = number;
        Ok(())
    }

    /// Checks that a roll's epoch is the one in play: committed in this log
    /// (when it starts at the room's creation) and not revealed yet.
    fn epoch_in_play(&self, at: &At, body: &Value) -> Result<(), Failure> {
        let (line, seq, epoch) = (at.line, at.seq, at.epoch);
        if body_int(body, "epoch", line)? != epoch {
            return fail(line, "the body's epoch is not the event's");
        }
        if self.seeds.contains_key(&epoch) {
            return fail(
                line,
                format!(
                    "event {seq} draws dice in epoch {epoch}, whose seed was already revealed: its dice could be chosen"
                ),
            );
        }
        match self.open {
            Some(open) if open != epoch => fail(
                line,
                format!(
                    "event {seq} draws dice in epoch {epoch}, but the epoch committed before it is {open}"
                ),
            ),
            None if self.report.first_seq == 1 => fail(
                line,
                format!("event {seq} draws dice in epoch {epoch}, which was never committed"),
            ),
            _ => Ok(()),
        }
    }

    /// A `roll` or `fight-step` event of this server: its action typed, its
    /// fields those of its kind, its count the roller's next.
    fn action(&mut self, at: &At, kind: &str, body: &Value) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        let object = body
            .as_object()
            .expect("a body that is not null is checked");
        if let Some(extra) = object.keys().find(|k| !ACTION_FIELDS.contains(&k.as_str())) {
            return fail(
                line,
                format!("event {seq}: unexpected field `{extra}` in the body"),
            );
        }
        let action: Action =
            serde_json::from_value(body["action"].clone()).map_err(|e| Failure {
                line,
                message: format!("event {seq}: malformed action: {e}"),
            })?;
        if action.event_kind() != kind {
            return fail(
                line,
                format!(
                    "event {seq}: a `{}` action in a `{kind}` event: misplaced",
                    action.kind()
                ),
            );
        }
        if body["secret"].as_bool() != Some(at.secret) {
            return fail(
                line,
                format!("event {seq}: the body's `secret` is not the event's"),
            );
        }
        if at.secret {
            nonce(body, line)?;
        }
        let roller = body_int(body, "roller", line)?;
        let count = body_int(body, "count", line)?;
        let client_seed = body_str(body, "client_seed", line)?.to_string();
        body_str(body, "name", line)?;
        let role = body_str(body, "role", line)?;
        if role != if roller == 0 { "gm" } else { "player" } {
            return fail(
                line,
                format!("event {seq}: member {roller} is not a `{role}`: only member 0 is the GM"),
            );
        }
        if !body["advances"].is_null() && !matches!(action, Action::Advance { .. }) {
            return fail(
                line,
                format!("event {seq}: `advances` in a {} event", action.kind()),
            );
        }
        match &action {
            Action::FightDecision { fight, step, .. } => {
                if body["fight"] != *fight || body["step"] != *step || body.get("rounds").is_some()
                {
                    return fail(
                        line,
                        format!(
                            "event {seq}: the decision's `fight` or `step` is not its action's"
                        ),
                    );
                }
                self.decided_by(at, *fight, &action, roller)?;
            }
            Action::FightStep {
                fight,
                step,
                rounds,
            } => {
                if body["fight"] != *fight
                    || body["step"] != *step
                    || body["rounds"] != rounds.to_json()
                {
                    return fail(
                        line,
                        format!(
                            "event {seq}: the step's `fight`, `step` or `rounds` is not its action's"
                        ),
                    );
                }
            }
            _ => {
                if ["fight", "step", "rounds"]
                    .iter()
                    .any(|k| body.get(k).is_some())
                {
                    return fail(
                        line,
                        format!(
                            "event {seq}: a fight step's fields in a {} event",
                            action.kind()
                        ),
                    );
                }
            }
        }
        self.count(at, roller, count)?;
        self.epoch_in_play(at, body)?;
        match &action {
            Action::Sheet { .. } => self.sheets.made(seq, body),
            Action::Advance { record } => self
                .sheets
                .advanced(seq, record, body)
                .map_err(|message| Failure { line, message })?,
            _ => {}
        }
        let pending = Pending::at(
            at,
            roller,
            client_seed,
            body,
            How::Action {
                count,
                action: Box::new(action),
            },
        );
        self.hold(pending, body)
    }

    /// The roller's count must be their last plus one (in a player's export
    /// the GM's may skip the GM's hidden events).
    fn count(&mut self, at: &At, roller: i64, count: i64) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        let ok = match self.counts.get(&roller) {
            Some((last, hidden)) => {
                count == last + 1 || (count > last + 1 && self.hidden_seen > *hidden)
            }
            None => {
                count == 1 || (self.report.first_seq != 1 && count >= 1) || self.hidden_seen > 0
            }
        };
        let last = self.counts.get(&roller).map_or(0, |(last, _)| *last);
        self.counts.insert(roller, (count, self.hidden_seen));
        if !ok {
            return fail(
                line,
                format!(
                    "event {seq}: member {roller}'s roll number {count} after their roll number {last}"
                ),
            );
        }
        Ok(())
    }

    /// Holds a roll until its seed is known, or recomputes it now; a fight
    /// step goes to its fight's queue.
    fn hold(&mut self, pending: Pending, body: &Value) -> Result<(), Failure> {
        let step = match &pending.how {
            How::Action { action, .. } => match **action {
                Action::FightStep { fight, step, .. }
                | Action::FightDecision { fight, step, .. } => Some((fight, step)),
                _ => None,
            },
            How::Legacy { .. } => body_int(body, "fight", pending.line)
                .ok()
                .filter(|_| body["kind"] == "fight-step")
                .map(|fight| (fight, body["step"].as_i64().unwrap_or(0))),
        };
        let Some((id, number)) = step else {
            self.rolls.push(pending);
            return Ok(());
        };
        let (line, seq) = (pending.line, pending.seq);
        let full = self.hidden_seen == 0 && self.report.first_seq == 1;
        let Some(replay) = self.fights.get_mut(&id) else {
            if full {
                return fail(
                    line,
                    format!("event {seq}: a step of fight {id}, which is not in the log"),
                );
            }
            // The fight is before this export or hidden from the exporter.
            self.report.rolls_pending += 1;
            return Ok(());
        };
        if number != replay.steps + 1 {
            let after = replay.steps;
            replay.steps = number;
            if full {
                replay.fight = None;
                return fail(
                    line,
                    format!("event {seq}: step {number} of fight {id} after step {after}"),
                );
            }
            replay.fight = None;
        }
        replay.steps = number;
        replay.waiting.push_back(pending);
        self.drain(id);
        Ok(())
    }

    /// Replays the waiting steps of fight `id` whose seeds are known, in
    /// order.
    fn drain(&mut self, id: i64) {
        loop {
            let Some(replay) = self.fights.get_mut(&id) else {
                return;
            };
            let Some(front) = replay.waiting.front() else {
                return;
            };
            if replay.fight.is_none() {
                // Never replayable: counted as waiting, not failed (its
                // fight's failure, if any, is reported already).
                self.report.rolls_pending += replay.waiting.len();
                replay.waiting.clear();
                return;
            }
            if !self.seeds.contains_key(&front.epoch) {
                return;
            }
            let step = replay.waiting.pop_front().expect("a front");
            let mut fight = replay.fight.take();
            let done = self.recompute(&step, fight.as_mut());
            let replay = self.fights.get_mut(&id).expect("still there");
            match done {
                Ok(()) => replay.fight = fight,
                Err(failure) => self.failed(failure),
            }
        }
    }

    /// A `roll` or `fight-step` event of an earlier server (its kind named
    /// by a prefix of `expression`, its dice keyed by its sequence number).
    fn legacy(&mut self, at: &At, kind: &str, body: &Value) -> Result<(), Failure> {
        let (line, seq) = (at.line, at.seq);
        self.epoch_in_play(at, body)?;
        let roller = body_int(body, "roller", line)?;
        let client_seed = body_str(body, "client_seed", line)?.to_string();
        let expression = if kind == "fight-step" {
            let rounds = Rounds::from_json(&body["rounds"]).map_err(|message| Failure {
                line,
                message: format!("event {seq}: {message}"),
            })?;
            let id = body_int(body, "fight", line)?;
            fight::step_text(id, body_int(body, "step", line)?, rounds)
        } else {
            let expression = body_str(body, "expression", line)?;
            match legacy::read(expression) {
                Ok(legacy::Legacy::Action(Action::Sheet { .. })) => self.sheets.made(seq, body),
                Ok(legacy::Legacy::Action(Action::Advance { record })) => {
                    if body["advances"].is_null() {
                        return fail(
                            line,
                            format!(
                                "event {seq}: a roll whose text names an advance, without `advances`: not written by the advance route; not counted"
                            ),
                        );
                    }
                    self.sheets
                        .advanced(seq, &record, body)
                        .map_err(|message| Failure { line, message })?;
                }
                Ok(_) => {}
                Err(e) => return fail(line, format!("event {seq}: {e}")),
            }
            expression.to_string()
        };
        let pending = Pending::at(at, roller, client_seed, body, How::Legacy { expression });
        self.hold(pending, body)
    }

    /// Recomputes `roll` from its epoch's seed (on `fight` for a step): its
    /// faces, total and outcome must be what the log holds.
    fn recompute(&mut self, roll: &Pending, fight: Option<&mut Running>) -> Result<(), Failure> {
        let stepped = fight.is_some();
        let Some(&(seed, anchored)) = self.seeds.get(&roll.epoch) else {
            self.report.rolls_pending += 1;
            return Ok(());
        };
        let again = match &roll.how {
            How::Action { count, action } => {
                let canonical = action.canonical();
                let input = fair::DiceInput::new(
                    &self.report.room,
                    roll.epoch,
                    roll.roller,
                    *count,
                    &roll.client_seed,
                    &canonical,
                );
                replay::perform(action, &mut fair::dice(&seed, &input), self.limits, fight)
            }
            How::Legacy { expression } => {
                let record = RollRecord {
                    room: &self.report.room,
                    epoch: roll.epoch,
                    seq: roll.seq,
                    roller: roll.roller,
                    client_seed: &roll.client_seed,
                    expression,
                };
                match fight {
                    Some(Running::Stepped(fight)) => legacy::step(fight, &seed, &record),
                    Some(Running::Played(_)) => Err(replay::RollError::Rules(
                        "a step of an earlier server in a played fight".into(),
                    )),
                    None => legacy::perform(&seed, &record, self.limits),
                }
            }
        };
        let again = match again {
            Ok(result) => result,
            Err(e) => {
                return fail(
                    roll.line,
                    format!("event {}: does not replay: {e}", roll.seq),
                );
            }
        };
        // What the dice decided must be what the log holds; its words are
        // noted where they differ.
        let today = decided::split(&again);
        // A decision written before several decisions could be awaited at
        // once says only the first (`waiting`): its result is the same
        // without the others (`also_waiting`).
        let earlier = || {
            let mut without = again.clone();
            without
                .as_object_mut()
                .and_then(|o| o.remove("also_waiting"))
                .is_some()
                && decided::split(&without).decided == roll.recorded.decided
        };
        if today.decided != roll.recorded.decided && !(stepped && earlier()) {
            if stepped {
                return fail(
                    roll.line,
                    format!(
                        "event {}: the fight's step or decision does not follow from the revealed seed and the decisions (its lines or a combatant's state differ)",
                        roll.seq
                    ),
                );
            }
            let total = again.get("total").cloned().unwrap_or(Value::Null);
            return fail(
                roll.line,
                format!(
                    "event {}: the dice do not follow from the revealed seed (recomputed total {total})",
                    roll.seq
                ),
            );
        }
        if today.words != roll.recorded.words {
            self.worded(roll, &again);
        }
        self.report.rolls_verified += 1;
        if matches!(roll.how, How::Legacy { .. }) {
            self.report.rolls_legacy += 1;
        }
        if !anchored {
            self.report.rolls_unanchored += 1;
        }
        Ok(())
    }

    /// The end of the log: the rolls still waiting for their seed counted
    /// as pending. A log with no event is refused: there is nothing in it
    /// to trust.
    pub fn finish(mut self) -> Report {
        if self.report.events == 0 {
            self.failed(Failure {
                line: 0,
                message: "no events: a room's log holds at least the event that created the room \
                          (an export `?after=` its last event is empty and proves nothing)"
                    .into(),
            });
        }
        self.report.rolls_pending += self.rolls.len();
        for replay in self.fights.values() {
            self.report.rolls_pending += replay.waiting.len();
        }
        self.report
    }
}

/// Where an event is.
struct At {
    line: usize,
    seq: i64,
    epoch: i64,
    secret: bool,
}

/// A secret body's nonce: 64 hex digits (256 bits).
fn nonce(body: &Value, line: usize) -> Result<(), Failure> {
    match body.get("nonce").and_then(Value::as_str) {
        Some(n) if n.len() == 64 && fair::unhex(n).is_some() => Ok(()),
        _ => fail(
            line,
            "a secret event's body without a nonce of 64 hex digits: its hash could be matched by guessing",
        ),
    }
}

/// Two words as a note shows them: whole, or, when one is long, each from
/// a little before the first character where they differ (with `…` where
/// cut), so the difference is in sight.
fn excerpts(recorded: &str, today: &str) -> (String, String) {
    const MOST: usize = 160;
    let first = recorded
        .chars()
        .zip(today.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let long = recorded.chars().count() > MOST || today.chars().count() > MOST;
    let cut = |text: &str| {
        if !long {
            return text.to_string();
        }
        let start = first.saturating_sub(40);
        let shown: String = text.chars().skip(start).take(MOST).collect();
        let more = text.chars().count() > start + MOST;
        format!(
            "{}{shown}{}",
            if start > 0 { "…" } else { "" },
            if more { "…" } else { "" }
        )
    };
    (cut(recorded), cut(today))
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

    /// A log built line by line, every hash computed.
    struct Log {
        lines: Vec<String>,
        prev: String,
        seq: i64,
    }

    impl Log {
        /// A room whose epoch 0 is committed to `seed`.
        fn new(seed: &fair::Seed) -> Log {
            let mut log = Log {
                lines: Vec::new(),
                prev: fair::GENESIS.to_string(),
                seq: 0,
            };
            log.push(
                "room",
                0,
                json!({"kind": "room", "epoch": 0, "commitment": fair::commitment(seed)}),
            );
            log
        }

        fn push(&mut self, kind: &str, epoch: i64, body: Value) -> usize {
            self.seq += 1;
            let body_hash = fair::body_hash(&body);
            let hash = fair::chain_hash(&Link {
                at_ms: self.seq,
                body_hash: &body_hash,
                epoch,
                kind,
                prev: &self.prev,
                room: "r",
                secret: false,
                seq: self.seq,
            });
            let line = json!({"at_ms": self.seq, "body": body, "body_hash": body_hash,
                              "epoch": epoch, "hash": hash, "hidden": false, "kind": kind,
                              "prev": self.prev, "room": "r", "secret": false, "seq": self.seq});
            self.lines.push(fair::canonical(&line));
            self.prev = hash;
            self.lines.len()
        }

        /// A roll of this server by `roller` (their roll number `count`)
        /// under `seed` in `epoch`, its result passed through `edit`.
        fn roll_with(
            &mut self,
            seed: &fair::Seed,
            epoch: i64,
            roller: i64,
            count: i64,
            expression: &str,
            edit: impl FnOnce(&mut Value),
        ) -> usize {
            let action = Action::Roll {
                expression: expression.into(),
            };
            self.act(seed, epoch, roller, count, action, edit)
        }

        /// An event of this server's `action` (a roll, a check, a contest)
        /// by `roller` (their roll number `count`) under `seed` in `epoch`,
        /// its result passed through `edit`.
        fn act(
            &mut self,
            seed: &fair::Seed,
            epoch: i64,
            roller: i64,
            count: i64,
            action: Action,
            edit: impl FnOnce(&mut Value),
        ) -> usize {
            let canonical = action.canonical();
            let input = fair::DiceInput::new("r", epoch, roller, count, "c", &canonical);
            let mut result = replay::perform(
                &action,
                &mut fair::dice(seed, &input),
                &Limits::default(),
                None,
            )
            .unwrap();
            edit(&mut result);
            let role = if roller == 0 { "gm" } else { "player" };
            self.push(
                "roll",
                epoch,
                json!({"kind": "roll", "action": action.to_json(), "roller": roller,
                       "name": "n", "role": role, "epoch": epoch, "count": count,
                       "client_seed": "c", "secret": false, "result": result}),
            )
        }

        fn roll(&mut self, seed: &fair::Seed, epoch: i64, roller: i64, count: i64) -> usize {
            self.roll_with(seed, epoch, roller, count, "3d6 + 1d20", |_| {})
        }

        /// A roll of an earlier server: its kind named by the text, its dice
        /// keyed by its sequence number.
        fn legacy_roll(&mut self, seed: &fair::Seed, text: &str, extra: Value) -> usize {
            self.legacy_roll_with(seed, text, extra, |_| {})
        }

        /// [`Log::legacy_roll`], its result passed through `edit`.
        fn legacy_roll_with(
            &mut self,
            seed: &fair::Seed,
            text: &str,
            extra: Value,
            edit: impl FnOnce(&mut Value),
        ) -> usize {
            let record = RollRecord {
                room: "r",
                epoch: 0,
                seq: self.seq + 1,
                roller: 1,
                client_seed: "",
                expression: text,
            };
            // (A poisoned text's result is not recomputed: any will do.)
            let mut result =
                legacy::perform(seed, &record, &Limits::default()).unwrap_or(json!({}));
            edit(&mut result);
            let mut body = json!({"kind": "roll", "roller": 1, "name": "Ann", "epoch": 0,
                                  "client_seed": "", "expression": text, "secret": false,
                                  "result": result});
            if let Value::Object(extra) = extra {
                for (k, v) in extra {
                    body[k] = v;
                }
            }
            self.push("roll", 0, body)
        }

        fn reveal(&mut self, seed: &fair::Seed, epoch: i64, next: &fair::Seed) -> usize {
            self.push(
                "reveal",
                epoch,
                json!({"kind": "reveal", "epoch": epoch, "seed": fair::hex(seed),
                       "next_epoch": epoch + 1, "commitment": fair::commitment(next)}),
            )
        }

        fn text(&self) -> String {
            self.lines.iter().map(|l| format!("{l}\n")).collect()
        }
    }

    const S0: fair::Seed = [9u8; 32];
    const S1: fair::Seed = [8u8; 32];

    fn failures(log: &Log) -> Vec<(usize, String)> {
        verify_all(&log.text(), &Limits::default())
            .failures
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    /// A room's rolls by two members, revealed: every roll recomputed, the
    /// report complete.
    #[test]
    fn rolls_of_this_server_verify_and_the_report_is_complete() {
        let mut log = Log::new(&S0);
        log.roll(&S0, 0, 1, 1);
        log.roll(&S0, 0, 0, 1);
        log.roll(&S0, 0, 1, 2);
        let before = verify(&log.text()).unwrap();
        assert_eq!((before.rolls_verified, before.rolls_pending), (0, 3));
        assert!(!before.complete(), "rolls wait for the reveal");
        log.reveal(&S0, 0, &S1);
        log.roll(&S1, 1, 1, 3);
        log.reveal(&S1, 1, &[7; 32]);
        let report = verify(&log.text()).unwrap();
        assert_eq!((report.rolls_verified, report.rolls_pending), (4, 0));
        assert_eq!(report.epochs_revealed, 2);
        assert!(report.complete());
    }

    /// Issue 24, item 3: a roll in an epoch never committed, a roll in an
    /// epoch already revealed, a reveal of another epoch than the one in
    /// play, a count that skips or repeats, a duplicate key: each refused,
    /// and the rest of the log still checked.
    #[test]
    fn each_forged_log_is_refused() {
        // An epoch never committed (the operator's own seed, chosen late).
        let mut log = Log::new(&S0);
        let line = log.roll(&[1; 32], 5, 1, 1);
        log.reveal(&S0, 0, &S1);
        let found = failures(&log);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, line);
        assert!(found[0].1.contains("epoch 5"), "{found:?}");

        // A roll in an epoch already revealed: its dice were known.
        let mut log = Log::new(&S0);
        log.roll(&S0, 0, 1, 1);
        log.reveal(&S0, 0, &S1);
        let line = log.roll(&S0, 0, 1, 2);
        let found = failures(&log);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, line);
        assert!(found[0].1.contains("already revealed"), "{found:?}");

        // A reveal of an epoch that is not the one in play.
        let mut log = Log::new(&S0);
        let line = log.reveal(&S1, 1, &[2; 32]);
        let found = failures(&log);
        assert_eq!(found[0].0, line, "{found:?}");

        // A roll number skipped (a roll the server dropped and made again)
        // or given twice.
        for count in [3, 1] {
            let mut log = Log::new(&S0);
            log.roll(&S0, 0, 1, 1);
            let line = log.roll(&S0, 0, 1, count);
            let later = log.roll(&S0, 0, 1, count + 1);
            log.reveal(&S0, 0, &S1);
            let found = failures(&log);
            assert_eq!(found.len(), 1, "{count}: {found:?}");
            assert_eq!(found[0].0, line);
            assert!(found[0].1.contains("roll number"), "{found:?}");
            assert!(later > line);
        }

        // A key given twice: the hash covers the first value, the reader
        // would keep the forged second one.
        let mut log = Log::new(&S0);
        log.roll(&S0, 0, 1, 1);
        log.reveal(&S0, 0, &S1);
        let mut text = log.text();
        text = text.replacen("\"at_ms\":2,", "\"at_ms\":2,\"at_ms\":3,", 1);
        let report = verify_all(&text, &Limits::default());
        assert_eq!(report.failures_total, 1, "{:?}", report.failures);
        assert!(report.failures[0].message.contains("twice"), "{report:?}");
        assert_eq!(report.rolls_verified, 0);
    }

    /// Issue 24, item 2: a log holding an old poisoned event (a player's
    /// `/rolls` text that named an advance) reports that event and still
    /// verifies every other roll; so does a malformed action.
    #[test]
    fn a_poisoned_or_malformed_event_is_reported_and_the_rest_verifies() {
        let mut log = Log::new(&S0);
        log.legacy_roll(&S0, "2d6", json!({}));
        let advance = AdvanceRecordText::poisoned();
        let poisoned = log.legacy_roll(&S0, &advance, json!({}));
        log.legacy_roll(&S0, "1d20 + 5", json!({}));
        let malformed = log.push(
            "roll",
            0,
            json!({"kind": "roll", "action": {"kind": "teleport"}, "roller": 1, "name": "Ann",
                   "role": "player", "epoch": 0, "count": 1, "client_seed": "",
                   "secret": false, "result": {}}),
        );
        log.roll(&S0, 0, 1, 1);
        log.reveal(&S0, 0, &S1);
        let report = verify_all(&log.text(), &Limits::default());
        let lines: Vec<usize> = report.failures.iter().map(|f| f.line).collect();
        assert_eq!(lines, [poisoned, malformed], "{:?}", report.failures);
        assert!(report.failures[0].message.contains("advance"), "{report:?}");
        assert!(
            report.failures[1].message.contains("malformed action"),
            "{report:?}"
        );
        assert_eq!(report.rolls_verified, 3);
        assert_eq!(report.rolls_legacy, 2);
        assert!(!report.complete());
        assert!(verify(&log.text()).is_err());
    }

    struct AdvanceRecordText;
    impl AdvanceRecordText {
        /// The review's poisoning text: an advance, sent to `/rolls`.
        fn poisoned() -> String {
            let record = crate::sheet::AdvanceRecord {
                sheet: 4,
                from: 4,
                was: String::new(),
                options: Default::default(),
            };
            format!("advance {}", serde_json::to_string(&record).unwrap())
        }
    }

    /// A changed result (every hash recomputed) is caught when the seed is
    /// revealed, and named by its line.
    #[test]
    fn a_changed_result_is_caught_at_its_line() {
        let mut log = Log::new(&S0);
        let line = log.roll_with(&S0, 0, 1, 1, "4d6kh3", |r| r["total"] = json!(18));
        log.reveal(&S0, 0, &S1);
        let failure = verify(&log.text()).unwrap_err();
        assert_eq!(failure.line, line);
        assert!(failure.message.contains("do not follow"), "{failure}");
    }

    /// A forger's change of a result.
    type Edit = fn(&mut Value);

    /// An mls check of skill 12 without a modifier.
    fn mls_check() -> Action {
        serde_json::from_value(
            json!({"kind": "check", "request": {"ruleset": "mls", "skill": 12, "mod": []}}),
        )
        .unwrap()
    }

    /// An mls contest of skill 10 against 10.
    fn mls_contest() -> Action {
        serde_json::from_value(json!({"kind": "contest", "request":
            {"ruleset": "mls", "skill": 10, "mod": [], "vs_skill": 10, "vs_mod": []}}))
        .unwrap()
    }

    /// Issue 40, item 3, the adversary's first test: a result rewritten
    /// with every hash recomputed fails its line when anything its dice
    /// decided is changed: a face, a die kept or dropped, a total, a
    /// check's natural roll or outcome, a contest side's outcome or its
    /// winner, a step added; and so when its words change with it.
    #[test]
    fn a_forged_number_fails_its_line_wherever_it_is() {
        /// The first of `among` that `v[name]` is not.
        fn other(v: &Value, name: &str, among: &[&str]) -> Value {
            json!(among.iter().find(|o| v[name] != **o).unwrap())
        }
        const OUTCOMES: [&str; 4] = ["success", "failure", "critical-success", "fumble"];
        let roll = || Action::Roll {
            expression: "4d6kh3 + 1".into(),
        };
        let forgeries: [(&str, Action, Edit); 9] = [
            ("a face", roll(), |r| {
                let face = &mut r["dice"][0]["faces"][0]["face"];
                *face = json!(face.as_i64().unwrap() % 6 + 1);
            }),
            ("a die kept", roll(), |r| {
                for die in r["dice"].as_array_mut().unwrap() {
                    die["kept"] = json!(true);
                }
            }),
            ("a total", roll(), |r| {
                r["total"] = json!(r["total"].as_i64().unwrap() + 1)
            }),
            ("a total and its words", roll(), |r| {
                let total = r["total"].as_i64().unwrap();
                r["total"] = json!(total + 1);
                let text = r["text"].as_str().unwrap().to_string();
                r["text"] = json!(text.replace(&format!("= {total}"), &format!("= {}", total + 1)));
            }),
            ("a check's natural roll", mls_check(), |r| {
                r["natural"] = json!(r["natural"].as_i64().unwrap() + 1)
            }),
            ("a check's outcome", mls_check(), |r| {
                r["outcome"] = other(r, "outcome", &OUTCOMES)
            }),
            ("a step added", mls_check(), |r| {
                let step = r["transcript"][0].clone();
                r["transcript"].as_array_mut().unwrap().push(step);
            }),
            ("a contest side's outcome", mls_contest(), |r| {
                r["sides"][1]["outcome"] = other(&r["sides"][1], "outcome", &OUTCOMES)
            }),
            ("a contest's winner", mls_contest(), |r| {
                r["winner"] = other(r, "winner", &["first", "second", "none"])
            }),
        ];
        for (what, action, forge) in forgeries {
            let mut log = Log::new(&S0);
            let line = log.act(&S0, 0, 1, 1, action, forge);
            log.roll(&S0, 0, 1, 2);
            log.reveal(&S0, 0, &S1);
            let report = verify_all(&log.text(), &Limits::default());
            let failed: Vec<usize> = report.failures.iter().map(|f| f.line).collect();
            assert_eq!(failed, [line], "{what}: {report:?}");
            assert!(
                report.failures[0].message.contains("do not follow"),
                "{what}: {report:?}"
            );
            assert_eq!(report.rolls_verified, 1, "{what}: the other roll verifies");
            assert!(report.notes.is_empty(), "{what}: {:?}", report.notes);
        }
    }

    /// Issue 40, item 3, the adversary's second test: words rewritten with
    /// every number true (a roll's text, a check's step, a contest side's
    /// step) pass, each shown as a note that names its line and its place
    /// and quotes the recorded words and today's; the report is complete.
    #[test]
    fn forged_words_with_true_numbers_pass_with_a_note_naming_the_line() {
        let mut log = Log::new(&S0);
        let roll = log.roll_with(&S0, 0, 1, 1, "4d6kh3", |r| {
            r["text"] = json!("4d6kh3 = [6, 6, 6] = 18")
        });
        let honest = log.roll(&S0, 0, 1, 2);
        let check = log.act(&S0, 0, 1, 3, mls_check(), |r| {
            r["transcript"][0]["text"] = json!("a critical success, says the forger")
        });
        let contest = log.act(&S0, 0, 1, 4, mls_contest(), |r| {
            r["sides"][1]["transcript"][0]["rule"] = json!("mls, a rule of the forger's")
        });
        log.reveal(&S0, 0, &S1);
        let report = verify(&log.text()).unwrap();
        assert!(report.complete(), "{report:?}");
        assert_eq!(report.rolls_verified, 4);
        let noted: Vec<usize> = report.notes.iter().map(|n| n.line).collect();
        assert_eq!(noted, [roll, check, contest], "{:?}", report.notes);
        assert!(!noted.contains(&honest));
        assert_eq!(report.notes_total, 3);
        let shown: Vec<String> = report.notes.iter().map(ToString::to_string).collect();
        assert!(shown[0].starts_with(&format!("line {roll}: event {roll}: the words of `result.text` differ from today's: recorded \"4d6kh3 = [6, 6, 6] = 18\", today \"4d6kh3 = [")), "{shown:?}");
        assert!(
            shown[1].contains("`result.transcript[0].text`"),
            "{shown:?}"
        );
        assert!(
            shown[1].contains("recorded \"a critical success, says the forger\", today \"3d6 "),
            "{shown:?}"
        );
        assert!(
            shown[2].contains("`result.sides[1].transcript[0].rule`"),
            "{shown:?}"
        );
        assert!(shown[2].contains("today \"mls, "), "{shown:?}");
    }

    /// A note on long words shows where they differ, not all of them; words
    /// with a line break or a quote are shown escaped, so they cannot pass
    /// for verify's own lines.
    #[test]
    fn a_note_shows_where_long_words_differ() {
        let mut log = Log::new(&S0);
        let line = log.roll_with(&S0, 0, 1, 1, "300d6", |r| {
            let text = r["text"].as_str().unwrap().to_string();
            r["text"] = json!(format!("{text}\nroom.jsonl: OK \"all good\""));
        });
        log.reveal(&S0, 0, &S1);
        let report = verify(&log.text()).unwrap();
        assert_eq!(report.notes.len(), 1);
        let note = &report.notes[0];
        assert_eq!(note.line, line);
        assert!(note.message.len() < 600, "{}", note.message);
        assert!(
            note.message
                .contains("\\nroom.jsonl: OK \\\"all good\\\"\""),
            "{}",
            note.message
        );
        assert!(!note.to_string().contains('\n'));
        assert!(note.message.contains("recorded \"…"), "{}", note.message);
    }

    /// Issue 27, item 8: `--head SEQ:HASH` refuses a log cut short or one
    /// that goes past it.
    #[test]
    fn the_head_check_refuses_a_log_cut_short() {
        let mut log = Log::new(&S0);
        log.roll(&S0, 0, 1, 1);
        let whole = verify(&log.text()).unwrap();
        let head = format!("{}:{}", whole.last_seq, whole.last_hash);
        assert_eq!(whole.check_head(&head), Ok(()));
        let cut = verify(&log.lines[0]).unwrap();
        let error = cut.check_head(&head).unwrap_err();
        assert!(error.contains("cut from its end"), "{error}");
        log.roll(&S0, 0, 1, 2);
        let longer = verify(&log.text()).unwrap();
        assert!(longer.check_head(&head).unwrap_err().contains("past"));
        let forged = format!("{}:{}", whole.last_seq, "0".repeat(64));
        assert!(
            whole
                .check_head(&forged)
                .unwrap_err()
                .contains("not the log")
        );
        assert!(whole.check_head("12").is_err());
    }

    /// Rooms of earlier servers hold fights fought in one event: they still
    /// replay, and a changed outcome (every hash recomputed) is caught.
    #[test]
    fn a_fight_of_an_earlier_server_still_verifies() {
        let request = FightRequest {
            a: include_str!("../../../examples/mls/duel/knight.toml").to_string(),
            b: include_str!("../../../examples/mls/duel/brigand.toml").to_string(),
            distance: 1,
            surprised: None,
            max_turns: 100,
            map: None,
        };
        let mut log = Log::new(&S0);
        log.legacy_roll(&S0, &request.text(), json!({}));
        log.reveal(&S0, 0, &S1);
        let report = verify(&log.text()).unwrap();
        assert_eq!((report.events, report.rolls_verified), (3, 1));
        assert!(report.notes.is_empty(), "{:?}", report.notes);
        // Its turns changed: a failure. The ending's reason reworded (it
        // is words: the winner and turns are beside it): a note.
        let forges: [(Edit, bool); 2] = [
            (
                |r| r["ending"]["turns"] = json!(r["ending"]["turns"].as_i64().unwrap() + 1),
                true,
            ),
            (
                |r| r["ending"]["reason"] = json!("a reason of the forger's"),
                false,
            ),
        ];
        for (forge, fails) in forges {
            let mut log = Log::new(&S0);
            let line = log.legacy_roll_with(&S0, &request.text(), json!({}), forge);
            log.reveal(&S0, 0, &S1);
            let report = verify_all(&log.text(), &Limits::default());
            if fails {
                assert_eq!(report.failures.len(), 1, "{report:?}");
                assert_eq!(report.failures[0].line, line);
            } else {
                assert!(report.failures.is_empty(), "{report:?}");
                assert_eq!(report.notes.len(), 1, "{report:?}");
                assert!(report.notes[0].message.contains("`result.ending.reason`"));
            }
        }
    }

    /// One accepted `10000d6` makes a line over 1 MiB: read a line at a time,
    /// with no bound on the whole log by default, it verifies; the bounds
    /// given are kept.
    #[test]
    fn a_log_over_a_mebibyte_is_read_a_line_at_a_time() {
        let mut log = Log::new(&S0);
        log.roll_with(&S0, 0, 1, 1, "10000d6", |_| {});
        log.reveal(&S0, 0, &S1);
        let text = log.text();
        assert!(text.len() > 1 << 20, "{} bytes", text.len());
        let report =
            verify_reader(text.as_bytes(), &Limits::default(), ReadLimits::default()).unwrap();
        assert_eq!((report.events, report.rolls_verified), (3, 1));
        let capped = ReadLimits {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_total_bytes: Some(1 << 20),
        };
        let refused = verify_reader(text.as_bytes(), &Limits::default(), capped).unwrap_err();
        assert!(
            matches!(&refused, VerifyError::Read(m) if m.contains("more than 1048576 bytes")),
            "{refused}"
        );
        let short_lines = ReadLimits {
            max_line_bytes: 1000,
            max_total_bytes: None,
        };
        let refused = verify_reader(text.as_bytes(), &Limits::default(), short_lines).unwrap_err();
        assert!(
            matches!(&refused, VerifyError::Read(m) if m.contains("line 2 is longer than 1000 bytes")),
            "{refused}"
        );
    }

    /// Lines ending in CR LF read as lines; a byte that is not UTF-8 names
    /// its line, and the lines after it are still checked.
    #[test]
    fn a_streamed_log_names_its_failing_line() {
        let mut log = Log::new(&S0);
        log.roll(&S0, 0, 1, 1);
        log.reveal(&S0, 0, &S1);
        let text = log.text();
        let crlf = text.replace('\n', "\r\n");
        let read =
            |text: &[u8]| verify_reader(text, &Limits::default(), ReadLimits::default()).unwrap();
        assert_eq!(read(crlf.as_bytes()).rolls_verified, 1);
        let mut bytes = text.clone().into_bytes();
        let second = text.find('\n').unwrap() + 5;
        bytes[second] = 0xff;
        let report = read(&bytes);
        assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
        assert_eq!(report.failures[0].line, 2);
        assert!(report.failures[0].message.contains("not UTF-8"));
        // The next line's `prev` names the line that could not be read.
        assert_eq!(report.failures[1].line, 3);
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
                verify_reader(text.as_bytes(), &Limits::default(), ReadLimits::default()).unwrap();
            assert_eq!(streamed.failures_total, 1);
        }
    }

    /// Each epoch is revealed once: a second reveal of it (a seed swapped
    /// after the rolls were checked against the first) is refused.
    #[test]
    fn an_epoch_revealed_twice_is_refused() {
        let mut log = Log::new(&S0);
        log.reveal(&S0, 0, &S1);
        assert_eq!(verify(&log.text()).unwrap().events, 2);
        let line = log.reveal(&S0, 0, &S1);
        let failure = verify(&log.text()).unwrap_err();
        assert_eq!(failure.line, line, "{failure}");
        assert!(
            failure.message.contains("revealed a second time"),
            "{failure}"
        );
    }

    /// Strict parsing keeps every value and refuses only a repeated key.
    #[test]
    fn strict_parsing_refuses_only_repeated_keys() {
        let text = r#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"c":"\u00e9"}"#;
        assert_eq!(
            parse_strict(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        let error = parse_strict(r#"{"a":{"b":1,"b":2}}"#).unwrap_err();
        assert!(error.to_string().contains("`b` is given twice"), "{error}");
        assert!(parse_strict("{} x").is_err());
    }
}
