//! Verifiable dice: seeds, commitments, the derivation of a roll's dice from
//! them, and the canonical JSON that the hash chain covers. Shared by the
//! server and by `nutshell verify`, which recomputes everything offline.
//! This module knows dice and bytes only: what an action is, and how a
//! fight or a sheet uses the dice, is [`crate::action`]'s and
//! [`crate::replay`]'s.
//!
//! For each epoch of a room the server draws a 32-byte seed from the
//! operating system and publishes `commitment = SHA-256(seed)` before any roll
//! of that epoch. A roll's dice come from [`Seeded::from_key`] keyed with
//! `HMAC-SHA256(seed, input)`, where `input` is the JSON of [`DiceInput`]:
//! room, epoch, roller, the roller's own count of rolls, the client's own
//! seed and the action's canonical JSON. The server cannot pick the result
//! without changing the seed it already committed to, nor by numbering or
//! inserting events (the sequence number is not in the input); the player
//! cannot predict it without the seed.
//!
//! ```
//! use nutshell_server::fair::{commitment, dice_key, hex, DiceInput};
//! let seed = [1u8; 32];
//! let input = DiceInput::new("r1", 0, 1, 1, "lucky", r#"{"expression":"1d20","kind":"roll"}"#);
//! let key = dice_key(&seed, &input);
//! assert_eq!(key, dice_key(&seed, &input)); // the same input, the same dice
//! let second = DiceInput { count: 2, ..input.clone() };
//! assert_ne!(key, dice_key(&seed, &second)); // the roller's next roll
//! assert_eq!(commitment(&seed).len(), 64);    // hex of SHA-256
//! assert_eq!(hex(&[0, 255]), "00ff");
//! ```
//!
//! # In detail
//!
//! Logs of earlier servers keyed a roll's dice by its sequence number
//! ([`RollRecord`]); that derivation is kept so they still verify. A secret
//! body is sealed with a fresh nonce of its own.

use hmac::{Hmac, Mac};
use nutshell_dice::Seeded;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The bytes of one epoch's secret seed.
pub type Seed = [u8; 32];

/// A fresh seed from the operating system.
pub fn fresh_seed() -> Result<Seed, getrandom::Error> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)?;
    Ok(seed)
}

/// `n` random bytes from the operating system, as lowercase hex: keys and
/// invite codes.
pub fn random_token(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer)?;
    Ok(hex(&buffer))
}

/// Lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(DIGITS[usize::from(b >> 4)] as char);
        text.push(DIGITS[usize::from(b & 15)] as char);
    }
    text
}

/// The bytes of a hex string, or `None` if it is not one.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    text.as_bytes()
        .chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// SHA-256 of `bytes`, as hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The public commitment to a seed: SHA-256 of its 32 bytes, as hex.
pub fn commitment(seed: &Seed) -> String {
    sha256_hex(seed)
}

/// Everything a roll's dice depend on besides the epoch's seed, as the
/// roller controls it: the room, the epoch (whose seed was committed before
/// the roll), the roller, the roller's own count of dice-drawing events in
/// the room (1 for their first), the client's seed and the action's
/// canonical JSON. Nothing the server assigns after seeing the request (the
/// event's sequence number, the events of others) is in it, so no event the
/// server or another member inserts changes a roll's dice.
///
/// The HMAC message is this struct's JSON, fields in this order, with
/// `"v":2` first (a legacy [`RollRecord`] starts with `"room"`, so the two
/// never collide).
#[derive(Debug, Clone, Serialize)]
pub struct DiceInput<'a> {
    /// Always 2: the version of this derivation.
    pub v: u8,
    /// The room's id.
    pub room: &'a str,
    /// The epoch whose seed keys the dice.
    pub epoch: i64,
    /// The member who rolls.
    pub roller: i64,
    /// How many dice-drawing events the roller has in the room, this one
    /// included.
    pub count: i64,
    /// The client's own seed (the page sends 32 fresh random bytes).
    pub client_seed: &'a str,
    /// The canonical JSON of the action (a string in the message).
    pub action: &'a str,
}

impl<'a> DiceInput<'a> {
    /// The input of version 2.
    pub fn new(
        room: &'a str,
        epoch: i64,
        roller: i64,
        count: i64,
        client_seed: &'a str,
        action: &'a str,
    ) -> DiceInput<'a> {
        DiceInput {
            v: 2,
            room,
            epoch,
            roller,
            count,
            client_seed,
            action,
        }
    }
}

/// The key of a roll's dice: `HMAC-SHA256(seed, JSON of input)`.
pub fn dice_key(seed: &Seed, input: &DiceInput<'_>) -> [u8; 32] {
    let message = serde_json::to_string(input).expect("an input of strings and integers");
    hmac(seed, message.as_bytes())
}

/// The dice of a roll: ChaCha8 keyed by [`dice_key`].
pub fn dice(seed: &Seed, input: &DiceInput<'_>) -> Seeded {
    Seeded::from_key(dice_key(seed, input))
}

fn hmac(seed: &Seed, message: &[u8]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(seed).expect("HMAC takes any key length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// A fresh nonce for a secret event's body: 32 random bytes from the
/// operating system, as hex. The body's hash (public at once) covers it, so
/// the hash of a hidden body cannot be matched by guessing the body; the
/// nonce is shown with the body, never before.
pub fn fresh_nonce() -> Result<String, getrandom::Error> {
    random_token(32)
}

/// What the dice of an event of an earlier server depended on besides the
/// seed (the derivation before [`DiceInput`]): its canonical JSON (keys in
/// this order, no spaces) is the HMAC message. It holds the sequence number
/// the server assigned, which the server could steer by inserting events;
/// kept only so that old logs still verify.
#[derive(Debug, Clone, Serialize)]
pub struct RollRecord<'a> {
    /// The room's id.
    pub room: &'a str,
    /// The epoch whose seed keys the dice.
    pub epoch: i64,
    /// The sequence number the roll's event got.
    pub seq: i64,
    /// The member who rolled.
    pub roller: i64,
    /// The client's own seed.
    pub client_seed: &'a str,
    /// The record text: a dice expression, or a prefix (`check `, ...) and
    /// a request's JSON.
    pub expression: &'a str,
}

/// The key of a legacy roll's dice: `HMAC-SHA256(seed, canonical JSON of
/// record)`.
pub fn roll_key(seed: &Seed, record: &RollRecord<'_>) -> [u8; 32] {
    let message = serde_json::to_string(record).expect("a record of strings and integers");
    hmac(seed, message.as_bytes())
}

/// The canonical text of a JSON value: object keys sorted by their UTF-8
/// bytes, no whitespace, strings and numbers as `serde_json` writes them. The
/// hash chain covers these bytes, so a log can be re-serialized in any key
/// order or spacing and still verify; the web page computes the same text with
/// `JSON.stringify` over sorted keys.
pub fn canonical(value: &serde_json::Value) -> String {
    let mut out = Vec::with_capacity(256);
    write_canonical(value, &mut out);
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// Writes `value`'s canonical text, straight into `out`: each string and
/// number as `serde_json` writes it, no text made and dropped per key (the
/// body of every event is written so, on the path of every roll).
fn write_canonical(value: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            out.push(b'{');
            // serde_json's map is sorted by its keys' bytes already (a
            // BTreeMap); were a dependency to turn on its `preserve_order`,
            // the keys would be sorted here.
            let in_order = map.keys().zip(map.keys().skip(1)).all(|(a, b)| a < b);
            if in_order {
                for (i, (key, item)) in map.iter().enumerate() {
                    write_entry(i, key, item, out);
                }
            } else {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (i, (key, item)) in entries.into_iter().enumerate() {
                    write_entry(i, key, item, out);
                }
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        other => serde_json::to_writer(&mut *out, other).expect("a scalar serializes"),
    }
}

fn write_entry(i: usize, key: &str, item: &serde_json::Value, out: &mut Vec<u8>) {
    if i > 0 {
        out.push(b',');
    }
    serde_json::to_writer(&mut *out, key).expect("a string serializes");
    out.push(b':');
    write_canonical(item, out);
}

/// The hash of an event's body: SHA-256 of its canonical JSON, as hex. A
/// secret roll's body hash is its commitment: players see it at once and can
/// check the body against it once it is revealed.
pub fn body_hash(body: &serde_json::Value) -> String {
    sha256_hex(canonical(body).as_bytes())
}

/// Everything the hash of an event covers besides the body (through its
/// hash): the previous event's hash, so the events form a chain, and every
/// field of the event's line in the log.
#[derive(Debug, Clone, Serialize)]
pub struct Link<'a> {
    pub at_ms: i64,
    pub body_hash: &'a str,
    pub epoch: i64,
    pub kind: &'a str,
    pub prev: &'a str,
    pub room: &'a str,
    pub secret: bool,
    pub seq: i64,
}

/// The hash of the chain up to an event: SHA-256 of the canonical JSON of its
/// [`Link`] (fields in alphabetical order, as declared), with `prev` the
/// previous event's hash ([`GENESIS`] before a room's first event).
pub fn chain_hash(link: &Link<'_>) -> String {
    let text = serde_json::to_string(link).expect("a link of strings and integers");
    sha256_hex(text.as_bytes())
}

/// The `prev` of a room's first event.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[cfg(test)]
mod tests {
    use super::*;
    use nutshell_dice::Expression;

    fn record<'a>(expression: &'a str, client_seed: &'a str) -> RollRecord<'a> {
        RollRecord {
            room: "room",
            epoch: 0,
            seq: 3,
            roller: 1,
            client_seed,
            expression,
        }
    }

    fn faces(key: [u8; 32], expression: &str) -> Vec<i64> {
        let mut dice = Seeded::from_key(key);
        let parsed = Expression::parse(expression).unwrap();
        let roll = parsed.roll(&mut dice).unwrap();
        roll.report().dice.iter().map(|d| d.value).collect()
    }

    /// The golden vector of `docs/server.md`: any other verifier (the web
    /// page's, a bot's) checks itself against it. The key was computed
    /// independently with Python's `hmac` (`hmac.new(bytes(range(32)),
    /// message, "sha256")`); the faces pin the generator and its range
    /// reduction.
    #[test]
    fn golden_vector() {
        let seed: Seed = core::array::from_fn(|i| i as u8);
        assert_eq!(
            commitment(&seed),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let action = r#"{"expression":"4d6 + 1d20","kind":"roll"}"#;
        let input = DiceInput::new("golden", 0, 1, 1, "table", action);
        assert_eq!(
            serde_json::to_string(&input).unwrap(),
            r#"{"v":2,"room":"golden","epoch":0,"roller":1,"count":1,"client_seed":"table","action":"{\"expression\":\"4d6 + 1d20\",\"kind\":\"roll\"}"}"#
        );
        assert_eq!(hex(&dice_key(&seed, &input)), GOLDEN_KEY);
        assert_eq!(faces(dice_key(&seed, &input), "4d6 + 1d20"), GOLDEN_FACES);
    }

    const GOLDEN_KEY: &str = "5c7c0f47a840771bdeea97980d2c81692cdc5c83fdc2b2e882ddb44ab50c3f94";
    const GOLDEN_FACES: [i64; 5] = [1, 6, 2, 4, 18];

    /// The derivation of earlier servers still gives the faces it gave (old
    /// logs verify): its golden vector, unchanged.
    #[test]
    fn legacy_golden_vector() {
        let seed: Seed = core::array::from_fn(|i| i as u8);
        let record = RollRecord {
            room: "golden",
            epoch: 0,
            seq: 1,
            roller: 1,
            client_seed: "table",
            expression: "4d6 + 1d20",
        };
        assert_eq!(
            hex(&roll_key(&seed, &record)),
            "011574c3615952195de775fec1cc75ac0b9882eea499fdd42ae6bc1d1d95ec4c"
        );
        assert_eq!(
            faces(roll_key(&seed, &record), "4d6 + 1d20"),
            [2, 5, 4, 5, 20]
        );
    }

    #[test]
    fn hex_round_trips() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(unhex(&hex(&bytes)).unwrap(), bytes);
        assert_eq!(unhex("0g"), None);
        assert_eq!(unhex("abc"), None);
    }

    #[test]
    fn commitment_is_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes, a published test value.
        assert_eq!(
            commitment(&[0; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn the_legacy_record_is_canonical_json_in_field_order() {
        let text = serde_json::to_string(&record("1d20", "x")).unwrap();
        assert_eq!(
            text,
            r#"{"room":"room","epoch":0,"seq":3,"roller":1,"client_seed":"x","expression":"1d20"}"#
        );
    }

    /// Every part of the input changes the dice; nothing else is in it.
    #[test]
    fn every_part_of_the_input_changes_the_dice() {
        let seed = [9u8; 32];
        let base = DiceInput::new("r", 0, 1, 1, "a", "{}");
        let key = dice_key(&seed, &base);
        for other in [
            DiceInput {
                room: "s",
                ..base.clone()
            },
            DiceInput {
                epoch: 1,
                ..base.clone()
            },
            DiceInput {
                roller: 2,
                ..base.clone()
            },
            DiceInput {
                count: 2,
                ..base.clone()
            },
            DiceInput {
                client_seed: "b",
                ..base.clone()
            },
            DiceInput {
                action: "{ }",
                ..base.clone()
            },
        ] {
            assert_ne!(key, dice_key(&seed, &other), "{other:?}");
        }
        assert_ne!(key, dice_key(&[8u8; 32], &base));
        assert_eq!(key, dice_key(&seed, &base.clone()));
    }

    #[test]
    fn nonces_are_fresh_and_256_bits() {
        let a = fresh_nonce().unwrap();
        let b = fresh_nonce().unwrap();
        assert_eq!((a.len(), b.len()), (64, 64));
        assert_ne!(a, b);
    }

    /// The canonical text as it was first written: every object's keys
    /// collected and sorted, each key and scalar made as a text of its own.
    fn canonical_as_first_written(value: &serde_json::Value) -> String {
        use serde_json::Value;
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                let parts: Vec<String> = keys
                    .into_iter()
                    .map(|k| {
                        format!(
                            "{}:{}",
                            serde_json::to_string(k).unwrap(),
                            canonical_as_first_written(&map[k])
                        )
                    })
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(canonical_as_first_written).collect();
                format!("[{}]", parts.join(","))
            }
            other => serde_json::to_string(other).unwrap(),
        }
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            // Fractions that read back exactly (serde_json's parser rounds
            // some long decimals by one unit in the last place).
            any::<i32>().prop_map(|n| Value::from(f64::from(n) / 8.0)),
            // Keys and strings as people write them: quotes, escapes,
            // control characters, accents, emoji, keys that differ by case.
            "[a-zA-Z0-9 \"\\\\\n\t\u{1}\u{7f}é漢😀]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map("[a-zA-Z_é😀\"]{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// The canonical text written straight is the text first written
        /// key by key, and it reads back as the same value.
        #[test]
        fn canonical_text_matches_the_first_way_of_writing_it(value in json_value()) {
            let text = canonical(&value);
            proptest::prop_assert_eq!(&text, &canonical_as_first_written(&value));
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            proptest::prop_assert_eq!(back, value);
        }
    }

    #[test]
    fn canonical_json_sorts_keys_and_drops_spaces() {
        let value: serde_json::Value =
            serde_json::from_str(r#"{ "b": [1, {"z": true, "a": null}], "a": "x\"y" }"#).unwrap();
        assert_eq!(
            canonical(&value),
            r#"{"a":"x\"y","b":[1,{"a":null,"z":true}]}"#
        );
    }

    #[test]
    fn the_chain_hash_covers_the_previous_hash_and_the_sequence_number() {
        let body = body_hash(&serde_json::json!({"kind": "join"}));
        let link = Link {
            at_ms: 1,
            body_hash: &body,
            epoch: 0,
            kind: "join",
            prev: GENESIS,
            room: "r",
            secret: false,
            seq: 1,
        };
        let first = chain_hash(&link);
        assert_ne!(
            first,
            chain_hash(&Link {
                seq: 2,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                prev: &first,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                at_ms: 2,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                secret: true,
                ..link.clone()
            })
        );
        assert_eq!(first.len(), 64);
        // The link is canonical JSON already: its fields are declared sorted.
        let text = serde_json::to_string(&link).unwrap();
        assert_eq!(canonical(&serde_json::from_str(&text).unwrap()), text);
    }
}
