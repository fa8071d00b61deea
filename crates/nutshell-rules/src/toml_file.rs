//! TOML files read as written: the one way every file of tables, sheets,
//! sides, maps and choices is read.
//!
//! serde, left alone, reads a struct from a list by position, so
//! `traits = [3, 3, 2]` would set Strength, Body and Size, and a table's row
//! `[2, "a result"]` would be a row. A file is read as written instead: where a
//! table is expected (`traits = { strength = 3 }`, a `[traits]` section, a
//! `[[rows]]` entry), a list is refused. Errors speak the file's words: the
//! key's path (`traits.strength`, `rows[3].roll`), its line, and what was
//! expected in TOML's terms ("a whole number", "a table", "a list"), never
//! the program's (`expected struct StartFile`, `expected i64`).
//!
//! ```
//! use serde::Deserialize;
//! #[derive(Deserialize)]
//! struct Point { x: i64, y: i64 }
//! #[derive(Deserialize)]
//! struct File { at: Point }
//! let ok: File = nutshell_rules::toml_file::from_str("at = { x = 1, y = 2 }").unwrap();
//! assert_eq!(ok.at.y, 2);
//! let e = nutshell_rules::toml_file::from_str::<File>("\nat = [1, 2]").err().unwrap();
//! assert_eq!(e.to_string(), "line 2: at: a list where a table is expected (write `{ key = value, ... }` or a [section])");
//! let e = nutshell_rules::toml_file::from_str::<File>("at = { x = 1, y = \"2\" }").err().unwrap();
//! assert_eq!(e.to_string(), "line 1: at.y: found the text \"2\", expected a whole number");
//! ```

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use std::fmt;
use std::ops::Range;

/// Why a file could not be read: where (the key's path and the byte span of
/// the value) and what, in the file's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The key's path (`traits.strength`, `rows[3].roll`); empty at the top.
    pub path: String,
    /// The bytes of the file the error points at, when known.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// The line of the span's start (from 1), when known.
    pub line: Option<usize>,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for FileError {}

/// The line of byte `offset` in `text`, counting from 1 (one pass over the
/// text: for many offsets, use [`Lines`]).
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The lines of a text, found once, so that the line of any offset costs a
/// binary search: checks that name the line of every row or entry stay
/// linear in the file's size.
///
/// ```
/// use nutshell_rules::toml_file::Lines;
/// let lines = Lines::new("a\nbb\nc");
/// assert_eq!([lines.line(0), lines.line(2), lines.line(4), lines.line(6)], [1, 2, 2, 3]);
/// ```
#[derive(Debug, Clone)]
pub struct Lines {
    /// The offset of every newline, ascending.
    newlines: Vec<usize>,
}

impl Lines {
    /// Finds the lines of `text`.
    pub fn new(text: &str) -> Lines {
        Lines {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// The line of byte `offset`, counting from 1.
    pub fn line(&self, offset: usize) -> usize {
        self.newlines.partition_point(|&n| n < offset) + 1
    }
}

/// The most problems of one kind an error lists; the rest are counted.
pub const MAX_LISTED: usize = 10;

/// `items` joined with `, `, at most [`MAX_LISTED`] of them, then how many
/// more there are.
///
/// ```
/// use nutshell_rules::toml_file::listed;
/// assert_eq!(listed((1..=3).map(|n| n.to_string())), "1, 2, 3");
/// assert_eq!(listed((1..=25).map(|n| n.to_string())), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 15 more");
/// ```
pub fn listed(items: impl IntoIterator<Item = String>) -> String {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for item in items {
        if shown.len() < MAX_LISTED {
            shown.push(item);
        } else {
            more += 1;
        }
    }
    let mut text = shown.join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// Reads `text` as a `T`, strictly: a list where a table is expected is
/// refused, and every error names the key's path and line in the file's
/// words.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, FileError> {
    Document::parse(text)?.read()
}

/// A TOML document parsed once: its top-level keys can be looked at before
/// it is read as one type or another (parsing is most of the time a large
/// file takes).
pub struct Document<'i> {
    text: &'i str,
    root: toml::Spanned<toml::de::DeTable<'i>>,
}

impl<'i> Document<'i> {
    /// Parses `text`; a syntax error names its line.
    pub fn parse(text: &'i str) -> Result<Document<'i>, FileError> {
        let root =
            toml::de::DeTable::parse(text).map_err(|e| file_error(text, e, String::new()))?;
        Ok(Document { text, root })
    }

    /// Whether the document has `key` at its top level.
    pub fn has_key(&self, key: &str) -> bool {
        self.root.get_ref().keys().any(|k| k.get_ref() == key)
    }

    /// Reads the document as a `T`, strictly (see [`from_str`]).
    pub fn read<T: DeserializeOwned>(self) -> Result<T, FileError> {
        let text = self.text;
        let document = toml::Deserializer::from(self.root);
        serde_path_to_error::deserialize(Strict(document)).map_err(|e| {
            // An unknown key's path ends in the key, which the message names.
            let unknown = e.inner().message().starts_with("unknown field");
            let path = key_path(e.path(), unknown);
            file_error(text, e.into_inner(), path)
        })
    }
}

fn file_error(text: &str, e: toml::de::Error, path: String) -> FileError {
    let span = e.span();
    FileError {
        path,
        line: span.as_ref().map(|s| line_of(text, s.start)),
        span,
        message: plain(e.message()),
    }
}

/// The path as the file writes it: `combatant[1].tactic.delay`, without the
/// private keys of serde's helpers (a value's span).
fn key_path(path: &serde_path_to_error::Path, drop_last: bool) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    let segments: Vec<&Segment> = path.iter().collect();
    let keep = segments.len() - usize::from(drop_last && !segments.is_empty());
    for segment in &segments[..keep] {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } if key.starts_with("$__") => {}
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
}

/// serde's words for what it expected or found, in a TOML file's words.
///
/// ```
/// use nutshell_rules::toml_file::plain;
/// assert_eq!(plain("invalid type: string \"a\", expected i64"), "found the text \"a\", expected a whole number");
/// assert_eq!(plain("invalid value: integer `-1`, expected u32"), "found -1, expected a whole number from 0 to 4294967295");
/// assert_eq!(plain("invalid type: sequence, expected struct StartFile"), "found a list, expected a table");
/// assert_eq!(plain("missing field `thp`"), "missing key `thp`");
/// // What the file holds is quoted with its control characters escaped,
/// // so the message stays one line.
/// assert_eq!(plain("unknown variant `a\nb`, expected `c`"), "unknown value `a\\nb`, expected `c`");
/// ```
pub fn plain(message: &str) -> String {
    one_line(&words(message))
}

/// `text` with its control characters (line feeds, carriage returns,
/// escapes, C1 controls) written as Rust escapes (`\n`, `\u{1b}`).
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

fn words(message: &str) -> String {
    let message = message.trim_end();
    let (found, expected) = if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
    {
        match rest.rsplit_once(", expected ") {
            Some((found, expected)) => (Some(found), expected),
            None => return message.to_string(),
        }
    } else if let Some(rest) = message.strip_prefix("invalid length ") {
        match rest.split_once(", expected ") {
            Some((n, expected)) => {
                return format!("found a list of {n}, expected {}", expected_words(expected));
            }
            None => return message.to_string(),
        }
    } else {
        return message
            .replace("missing field", "missing key")
            .replace("unknown field", "unknown key")
            .replace("duplicate field", "duplicate key")
            .replace("unknown variant", "unknown value");
    };
    let found = found.map(found_words).unwrap_or_default();
    format!("found {found}, expected {}", expected_words(expected))
}

/// serde's `Unexpected` in the file's words.
fn found_words(found: &str) -> String {
    let unquote = |s: &str| s.trim_matches('`').to_string();
    if let Some(v) = found.strip_prefix("integer ") {
        unquote(v)
    } else if let Some(v) = found.strip_prefix("floating point ") {
        format!("the decimal number {}", unquote(v))
    } else if let Some(v) = found.strip_prefix("boolean ") {
        unquote(v)
    } else if let Some(v) = found.strip_prefix("string ") {
        format!("the text {v}")
    } else if let Some(v) = found.strip_prefix("character ") {
        format!("the text {:?}", unquote(v))
    } else {
        match found {
            "sequence" => "a list".into(),
            "map" => "a table".into(),
            "unit value" | "unit" => "nothing".into(),
            other => other.into(),
        }
    }
}

/// serde's "expected ..." in the file's words.
fn expected_words(expected: &str) -> String {
    let whole = |range: &str| format!("a whole number {range}");
    match expected {
        "i8" => whole("from -128 to 127"),
        "i16" => whole("from -32768 to 32767"),
        "i32" => whole("from -2147483648 to 2147483647"),
        "i64" | "i128" | "isize" => "a whole number".into(),
        "u8" => whole("from 0 to 255"),
        "u16" => whole("from 0 to 65535"),
        "u32" => whole("from 0 to 4294967295"),
        "u64" | "u128" | "usize" => whole("from 0 up"),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list".into(),
        "a map" => "a table".into(),
        "a string" | "a borrowed string" => "text in quotes".into(),
        "a character" => "one character in quotes".into(),
        e if e.starts_with("struct ") || e.starts_with("tuple struct ") => "a table".into(),
        e if e.starts_with("enum ") => "one of the names the documentation lists".into(),
        e => e.into(),
    }
}

const LIST_FOR_TABLE: &str =
    "a list where a table is expected (write `{ key = value, ... }` or a [section])";

/// A deserializer that refuses a list where a struct is asked for, and
/// passes everything else through (wrapping every nested value likewise).
struct Strict<D>(D);

/// A visitor wrapped so that what it visits is read strictly; `table` when
/// it reads a struct (a list is then refused).
struct Wrap<V> {
    inner: V,
    table: bool,
}

impl<V> Wrap<V> {
    fn any(inner: V) -> Wrap<V> {
        Wrap {
            inner,
            table: false,
        }
    }
}

struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

macro_rules! forward {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap::any(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap::any(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap::any(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap::any(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Wrap::any(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(
            name,
            fields,
            Wrap {
                inner: visitor,
                table: true,
            },
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Wrap::any(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! visit {
    ($($method:ident: $t:ty),*) => {$(
        fn $method<E: de::Error>(self, v: $t) -> Result<V::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    visit!(
        visit_bool: bool,
        visit_i8: i8,
        visit_i16: i16,
        visit_i32: i32,
        visit_i64: i64,
        visit_i128: i128,
        visit_u8: u8,
        visit_u16: u16,
        visit_u32: u32,
        visit_u64: u64,
        visit_u128: u128,
        visit_f32: f32,
        visit_f64: f64,
        visit_char: char,
        visit_str: &str,
        visit_borrowed_str: &'de str,
        visit_string: String,
        visit_bytes: &[u8],
        visit_borrowed_bytes: &'de [u8],
        visit_byte_buf: Vec<u8>
    );

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.table {
            return Err(de::Error::custom(LIST_FOR_TABLE));
        }
        self.inner.visit_seq(Seq(seq))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(Map(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(Enum(data))
    }
}

struct Seq<A>(A);

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Seq<A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct Map<A>(A);

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Map<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct Enum<A>(A);

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Enum<A> {
    type Error = A::Error;
    type Variant = Variant<A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(Seed(seed))
            .map(|(value, variant)| (value, Variant(variant)))
    }
}

struct Variant<A>(A);

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Variant<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::any(visitor))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(
            fields,
            Wrap {
                inner: visitor,
                table: true,
            },
        )
    }
}
