//! docs/mls/sentences.md holds every sentence of the combat chapter of rule
//! text 001 (from *Set Actions* to *Behaviour*, copied in
//! docs/mls/combat-chapter.txt), in the text's order, each with the tests
//! that check it. This check fails when a sentence is missing, out of order
//! or misquoted, when a row names a test function that does not exist, or
//! when a row has neither a test nor a word saying why ("flavour", a ruling,
//! or "no test yet").

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A heading of the chapter: a short line (six words at most) that starts
/// with a capital or a digit and ends in a colon or a full stop.
fn is_heading(line: &str) -> bool {
    (line.ends_with(':') || line.ends_with('.'))
        && line.chars().count() <= 40
        && line.split_whitespace().count() <= 6
        && line
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
}

/// A paragraph cut into sentences: each ends at `.`, `!` or `?` (a closing
/// bracket may follow) before white space and a capital letter, a bracket
/// or a quotation mark.
fn split(paragraph: &str) -> Vec<String> {
    let chars: Vec<char> = paragraph.chars().collect();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < chars.len() {
        if matches!(chars[i], '.' | '!' | '?') {
            let mut end = i + 1;
            if chars.get(end) == Some(&')') {
                end += 1;
            }
            let mut next = end;
            while next < chars.len() && chars[next].is_whitespace() {
                next += 1;
            }
            if next > end
                && chars
                    .get(next)
                    .is_some_and(|&c| c.is_ascii_uppercase() || c == '"' || c == '(')
            {
                out.push(
                    chars[start..end]
                        .iter()
                        .collect::<String>()
                        .trim()
                        .to_string(),
                );
                start = next;
                i = next;
                continue;
            }
        }
        i += 1;
    }
    let rest: String = chars[start..].iter().collect();
    if !rest.trim().is_empty() {
        out.push(rest.trim().to_string());
    }
    out
}

/// The chapter's sentences, each with its heading, in order. A line is a
/// heading only where the text before it ended a sentence.
fn sentences(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut body: Vec<&str> = Vec::new();
    let flush = |heading: &Option<String>, body: &[&str], out: &mut Vec<(String, String)>| {
        if let Some(h) = heading
            && !body.is_empty()
        {
            for s in split(&body.join(" ")) {
                out.push((h.clone(), s));
            }
        }
    };
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let after_a_sentence = body
            .last()
            .is_none_or(|l| l.ends_with('.') || l.ends_with(':'));
        if is_heading(line) && after_a_sentence {
            flush(&heading, &body, &mut out);
            heading = Some(line.trim_end_matches([':', '.']).to_string());
            body.clear();
        } else {
            body.push(line);
        }
    }
    flush(&heading, &body, &mut out);
    out
}

/// Every test function of the repository's sources: a `fn` with `#[test]`
/// among the attributes just before it.
fn test_functions() -> std::collections::HashSet<String> {
    let mut names = std::collections::HashSet::new();
    let mut stack = vec![repo().join("crates")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut from = 0;
            while let Some(at) = text[from..].find("fn ") {
                let at = from + at;
                from = at + 3;
                let name: String = text[at + 3..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let start = text[..at]
                    .char_indices()
                    .rev()
                    .nth(160)
                    .map_or(0, |(i, _)| i);
                if text[start..at].contains("#[test]") {
                    names.insert(name);
                }
            }
        }
    }
    names
}

/// One row of the table: its sentence (unquoted), tests and notes.
struct Row {
    number: String,
    sentence: String,
    tests: Vec<String>,
    notes: String,
}

fn rows(table: &str) -> Vec<Row> {
    table
        .lines()
        .filter(|l| {
            l.starts_with("| ") && l[2..].chars().next().is_some_and(|c| c.is_ascii_digit())
        })
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 6, "a row has six cells: {l}");
            let tests = cells[4]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            Row {
                number: cells[0].to_string(),
                sentence: cells[2]
                    .strip_prefix('"')
                    .and_then(|s| s.strip_suffix('"'))
                    .unwrap_or_else(|| panic!("row {}: the sentence is quoted", cells[0]))
                    .to_string(),
                tests,
                notes: cells[5].to_string(),
            }
        })
        .collect()
}

/// The sentence table covers the whole chapter, in order, word for word,
/// and every test it names exists.
#[test]
fn every_sentence_of_the_combat_chapter_is_in_the_table() {
    let chapter = std::fs::read_to_string(repo().join("docs/mls/combat-chapter.txt")).unwrap();
    let table = std::fs::read_to_string(repo().join("docs/mls/sentences.md")).unwrap();
    let sentences = sentences(&chapter);
    assert!(
        sentences.first().is_some_and(|(h, _)| h == "Set Actions")
            && sentences.last().is_some_and(|(h, _)| h == "Behaviour"),
        "the chapter runs from Set Actions to Behaviour"
    );
    let rows = rows(&table);
    for (k, (heading, sentence)) in sentences.iter().enumerate() {
        let row = rows.get(k).unwrap_or_else(|| {
            panic!(
                "sentence {} ({heading}) is missing from the table: {sentence:?}",
                k + 1
            )
        });
        assert_eq!(
            &row.sentence,
            sentence,
            "row {} is not sentence {} of {heading}",
            row.number,
            k + 1
        );
    }
    assert_eq!(
        rows.len(),
        sentences.len(),
        "rows beyond the chapter's sentences"
    );
    let tests = test_functions();
    for row in &rows {
        for t in &row.tests {
            assert!(
                tests.contains(t),
                "row {} names `{t}`, which is no test function of the repository",
                row.number
            );
        }
        if row.tests.is_empty() {
            assert!(
                ["flavour", "P-", "no test yet"]
                    .iter()
                    .any(|w| row.notes.contains(w)),
                "row {} has no test and does not say why: {:?}",
                row.number,
                row.notes
            );
        }
    }
}

/// The check catches what it is for: a sentence dropped, a test renamed.
#[test]
fn the_sentence_check_fails_on_a_missing_sentence_or_test() {
    let text = "Set Actions:\nOne sentence here. Another one (with a bracket.) Last.\nBehaviour.\nAt the very end of it all, a sentence.\n";
    let s = sentences(text);
    assert_eq!(
        s.iter().map(|(_, x)| x.as_str()).collect::<Vec<_>>(),
        [
            "One sentence here.",
            "Another one (with a bracket.)",
            "Last.",
            "At the very end of it all, a sentence."
        ]
    );
    assert_eq!(s[3].0, "Behaviour");
    let table = "| 1 | Set Actions | \"One sentence here.\" | x | `no_such_test_fn` | |\n";
    let r = rows(table);
    assert_eq!(r[0].tests, ["no_such_test_fn"]);
    assert!(!test_functions().contains("no_such_test_fn"));
    assert!(test_functions().contains("every_sentence_of_the_combat_chapter_is_in_the_table"));
}
