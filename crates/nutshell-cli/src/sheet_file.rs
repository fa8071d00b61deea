//! Rewriting a file a person edits by hand (a character sheet) without losing
//! what they wrote: the new content is merged into the old document with
//! `toml_edit`, so every comment, blank line, key order and layout of the keys
//! that did not change survives; then the file is written atomically.
//!
//! ```text
//! # My dwarf: remember the debt to Ulfa!     <- kept
//! name = "Brana"
//! cps = 53          # after the mine         <- the comment stays, 53 becomes 41
//! ```

use crate::exit::Failure;
use std::path::Path;
use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// `new_text` laid out like `old_text`: the values of `new_text`, the comments
/// and formatting of `old_text` wherever a key is in both. Keys only in
/// `new_text` are added at the end of their table; keys only in `old_text`
/// are removed (with their comments, which described them).
///
/// Either text that is not TOML is an error (the caller parsed both already).
pub fn merged(old_text: &str, new_text: &str) -> Result<String, String> {
    let mut old: DocumentMut = old_text
        .parse()
        .map_err(|e| format!("the old sheet is not TOML: {e}"))?;
    let new: DocumentMut = new_text
        .parse()
        .map_err(|e| format!("the new sheet is not TOML: {e}"))?;
    merge_table(old.as_table_mut(), new.as_table());
    Ok(old.to_string())
}

/// Rewrites the sheet at `path`, read as `old_text`, with `new_text`'s values,
/// keeping its comments and layout; atomically.
pub fn rewrite(path: &Path, old_text: &str, new_text: &str) -> Result<(), Failure> {
    let text = merged(old_text, new_text).map_err(|e| {
        Failure::other(format!(
            "error: {}: {e} (nothing was written)",
            path.display()
        ))
    })?;
    crate::files::write_atomic(path, &text)
}

/// Removes from `old` the keys `new` no longer has.
fn remove_gone(old: &mut dyn TableLike, new: &dyn TableLike) {
    let gone: Vec<String> = old
        .iter()
        .filter(|(k, _)| !new.contains_key(k))
        .map(|(k, _)| k.to_string())
        .collect();
    for key in gone {
        old.remove(&key);
    }
}

fn merge_table(old: &mut Table, new: &Table) {
    remove_gone(old, new);
    for (key, item) in new.iter() {
        match old.get_mut(key) {
            Some(existing) => merge_item(existing, item),
            None => {
                old.insert(key, fresh(item));
            }
        }
    }
}

fn merge_item(old: &mut Item, new: &Item) {
    match (old, new) {
        (Item::Table(o), Item::Table(n)) => merge_table(o, n),
        (Item::ArrayOfTables(o), Item::ArrayOfTables(n)) => {
            for (i, table) in n.iter().enumerate() {
                match o.get_mut(i) {
                    Some(existing) => merge_table(existing, table),
                    None => {
                        let mut t = table.clone();
                        unplace(&mut t);
                        o.push(t);
                    }
                }
            }
            while o.len() > n.len() {
                o.remove(o.len() - 1);
            }
        }
        (Item::Value(o), Item::Value(n)) => merge_value(o, n),
        (o, n) => *o = fresh(n),
    }
}

fn merge_value(old: &mut Value, new: &Value) {
    if let (Value::InlineTable(o), Value::InlineTable(n)) = (&mut *old, new) {
        merge_inline(o, n);
        return;
    }
    if bare(old) == bare(new) {
        return;
    }
    let decor = old.decor().clone();
    *old = new.clone();
    *old.decor_mut() = decor;
}

fn merge_inline(old: &mut InlineTable, new: &InlineTable) {
    remove_gone(old, new);
    for (key, value) in new.iter() {
        match old.get_mut(key) {
            Some(existing) => merge_value(existing, value),
            None => {
                old.insert(key, value.clone());
            }
        }
    }
}

/// A value's text without its surrounding whitespace and comments.
fn bare(value: &Value) -> String {
    let mut v = value.clone();
    v.decor_mut().clear();
    v.to_string()
}

/// An item from the new document, made to sit after its neighbours in the old
/// one (its position in the new document means nothing there).
fn fresh(item: &Item) -> Item {
    let mut item = item.clone();
    match &mut item {
        Item::Table(t) => unplace(t),
        Item::ArrayOfTables(a) => a.iter_mut().for_each(unplace),
        _ => {}
    }
    item
}

fn unplace(table: &mut Table) {
    table.set_position(None);
    for (_, item) in table.iter_mut() {
        match item {
            Item::Table(t) => unplace(t),
            Item::ArrayOfTables(a) => a.iter_mut().for_each(unplace),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_layout_survive_a_change_of_values() {
        let old = "# My dwarf: remember the debt to Ulfa!\nname = \"Brana\"\ncps = 53   # after the mine\n\n[traits]\n# strong as an ox\nstrength = 3\nbody = 3\n";
        let new = "name = \"Brana\"\ncps = 41\n\n[traits]\nstrength = 4\nbody = 3\n";
        assert_eq!(
            merged(old, new).unwrap(),
            "# My dwarf: remember the debt to Ulfa!\nname = \"Brana\"\ncps = 41   # after the mine\n\n[traits]\n# strong as an ox\nstrength = 4\nbody = 3\n"
        );
    }

    #[test]
    fn new_entries_are_appended_and_removed_keys_go() {
        let old = "name = \"B\"\nrolled = [\"honest\"]\n\n[[ledger]]\n# the first\nchange = \"a\"\n\n# notes at the end\n";
        let new = "name = \"B\"\n\n[[ledger]]\nchange = \"a\"\n\n[[ledger]]\nchange = \"b\"\n";
        let text = merged(old, new).unwrap();
        let doc: toml::Value = toml::from_str(&text).unwrap();
        let expected: toml::Value = toml::from_str(new).unwrap();
        assert_eq!(doc, expected, "{text}");
        assert!(text.contains("# the first"), "{text}");
        assert!(!text.contains("rolled"), "{text}");
    }
}
