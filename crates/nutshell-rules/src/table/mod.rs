//! Random tables (exploding-d6, "Tables"): "Number column headers (d6, d66,
//! d666) indicate that you must roll one, two, or three d6s (one per number
//! column) to get a random row" (RULING N-2).
//!
//! A table is a TOML file:
//!
//! ```toml
//! title = "Wilderness encounters"
//! dice = "d66"            # d6, d66 or d666
//!
//! [[rows]]
//! roll = "11-16"          # one roll ("23") or a range ("11-16")
//! result = "A wandering merchant"
//! ```
//!
//! Every possible roll must be covered by exactly one row. Dice written in a
//! result ("Goblin scouts, 1d6 of them", or any expression as `[[4d6kh3]]`)
//! are rolled when the row comes up ([`inline`]).

pub mod inline;

use crate::dice::Dice;
use crate::error::RulesError;
use crate::odds::{fraction, ratio};
use nutshell_dice::DiceSource;
use serde::{Deserialize, Serialize};

/// A random table, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Its title.
    pub title: String,
    /// How many d6 are read as digits: 1, 2 or 3.
    pub digits: u8,
    /// The rows: the rolls each covers (inclusive, as digit numbers) and the result.
    pub rows: Vec<Row>,
}

/// One row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The lowest roll it covers.
    pub from: i64,
    /// The highest roll it covers.
    pub to: i64,
    /// What the row says.
    pub result: String,
    /// The dice expressions written in the result, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<String>,
}

/// A roll on a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRoll {
    /// The table's title.
    pub title: String,
    /// The dice, such as `d66`.
    pub dice: String,
    /// Each d6, in order (tens first).
    pub faces: Vec<i64>,
    /// The roll, read as digits.
    pub roll: i64,
    /// The row it lands on.
    pub row: Row,
    /// The row's result with each dice expression replaced by its total.
    pub text: String,
    /// Those expressions, rolled with the same dice source, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<inline::InlineRoll>,
}

/// One row's exact probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowOdds {
    /// The row.
    #[serde(flatten)]
    pub row: Row,
    /// How many of the equally likely rolls land on it.
    pub rolls: usize,
    /// Its probability, `p/q` in lowest terms.
    pub probability: String,
    /// The same, in percent.
    pub percent: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    title: Option<String>,
    dice: toml::Spanned<String>,
    rows: Vec<RowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowFile {
    roll: toml::Spanned<toml::Value>,
    result: String,
}

/// Whether every digit of `n` (with `digits` digits) is 1..6.
fn is_digit_roll(n: i64, digits: u8) -> bool {
    let s = n.to_string();
    s.len() == digits as usize && s.chars().all(|c| ('1'..='6').contains(&c))
}

/// Every possible roll of `digits` d6 read as digits, ascending.
pub fn all_rolls(digits: u8) -> Vec<i64> {
    nutshell_dice::plan::Die::digit_values(digits)
}

impl Table {
    /// Reads and checks a table; errors name the line.
    pub fn parse(text: &str) -> Result<Table, RulesError> {
        let lines = crate::toml_file::Lines::new(text);
        let line_of = |offset: usize| lines.line(offset);
        let file: File =
            crate::toml_file::from_str(text).map_err(|e| RulesError::Invalid(e.to_string()))?;
        let digits = match file.dice.get_ref().as_str() {
            "d6" => 1,
            "d66" => 2,
            "d666" => 3,
            other => {
                return Err(RulesError::Invalid(format!(
                    "line {}: dice = {other:?}: a table is rolled on \"d6\", \"d66\" or \"d666\"",
                    line_of(file.dice.span().start)
                )));
            }
        };
        let mut rows = Vec::new();
        for row in &file.rows {
            let line = line_of(row.roll.span().start);
            let bad = |why: String| {
                RulesError::Invalid(format!("line {line}: roll = {}: {why}", row.roll.get_ref()))
            };
            let (from, to) = match row.roll.get_ref() {
                toml::Value::Integer(n) => (*n, *n),
                toml::Value::String(s) => {
                    let parts: Vec<&str> = s.split(['-', '–']).map(str::trim).collect();
                    let parse = |p: &str| {
                        p.parse::<i64>()
                            .map_err(|_| bad(format!("`{p}` is not a roll")))
                    };
                    match parts.as_slice() {
                        [one] => (parse(one)?, parse(one)?),
                        [a, b] => (parse(a)?, parse(b)?),
                        _ => return Err(bad("write one roll or a range such as \"11-16\"".into())),
                    }
                }
                _ => return Err(bad("write one roll or a range such as \"11-16\"".into())),
            };
            for end in [from, to] {
                if !is_digit_roll(end, digits) {
                    return Err(bad(format!(
                        "{end} is not a roll of {}: every digit is a d6 (1 to 6)",
                        file.dice.get_ref()
                    )));
                }
            }
            if from > to {
                return Err(bad(format!("the range {from}-{to} runs backwards")));
            }
            let dice = inline::find(&row.result)
                .map_err(|why| RulesError::Invalid(format!("line {line}: result: {why}")))?
                .into_iter()
                .map(|f| f.source)
                .collect();
            rows.push((
                line,
                Row {
                    from,
                    to,
                    result: row.result.clone(),
                    dice,
                },
            ));
        }
        // Each roll's covering rows, found in one pass over the rows (a
        // roll is one of at most 216).
        let all = all_rolls(digits);
        let mut covering: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
        for (line, r) in &rows {
            let first = all.partition_point(|&x| x < r.from);
            for (i, _) in all[first..]
                .iter()
                .enumerate()
                .take_while(|(_, x)| **x <= r.to)
            {
                covering[first + i].push(*line);
            }
        }
        for (roll, lines) in all.iter().zip(&covering) {
            match lines.as_slice() {
                [] => {
                    return Err(RulesError::Invalid(format!(
                        "no row covers the roll {roll}"
                    )));
                }
                [_] => {}
                lines => {
                    return Err(RulesError::Invalid(format!(
                        "the roll {roll} is covered by {} rows (lines {})",
                        lines.len(),
                        crate::toml_file::listed(lines.iter().map(|l| l.to_string()))
                    )));
                }
            }
        }
        Ok(Table {
            title: file.title.unwrap_or_else(|| "table".to_string()),
            digits,
            rows: rows.into_iter().map(|(_, r)| r).collect(),
        })
    }

    /// Each row's exact probability: the number of digit rolls it covers
    /// over 6, 36 or 216.
    ///
    /// ```
    /// use nutshell_rules::table::Table;
    /// let t = Table::parse("dice = \"d6\"\n[[rows]]\nroll = \"1-2\"\nresult = \"a\"\n[[rows]]\nroll = \"3-6\"\nresult = \"b\"")?;
    /// let odds: Vec<String> = t.odds().into_iter().map(|r| r.probability).collect();
    /// assert_eq!(odds, ["1/3", "2/3"]);
    /// # Ok::<(), nutshell_rules::RulesError>(())
    /// ```
    pub fn odds(&self) -> Vec<RowOdds> {
        let all = all_rolls(self.digits);
        self.rows
            .iter()
            .map(|row| {
                let n = all
                    .iter()
                    .filter(|r| (row.from..=row.to).contains(r))
                    .count();
                let exact = ratio(n as i64, all.len() as i64);
                RowOdds {
                    row: row.clone(),
                    rolls: n,
                    probability: fraction(&exact),
                    percent: 100.0 * n as f64 / all.len() as f64,
                }
            })
            .collect()
    }

    /// Rolls on the table: one d6 per digit, then the dice written in the
    /// row's result, with the same source.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<TableRoll, RulesError> {
        let mut dice = Dice::new(source);
        let mut roll = 0;
        let mut faces = Vec::new();
        for i in 0..self.digits {
            let f = dice.roll(6, &format!("for digit {} of the table roll", i + 1))?;
            faces.push(f);
            roll = roll * 10 + f;
        }
        drop(dice);
        let row = self
            .rows
            .iter()
            .find(|r| (r.from..=r.to).contains(&roll))
            .cloned()
            .expect("a checked table covers every roll");
        let (text, rolls) = inline::roll(&row.result, source)?;
        Ok(TableRoll {
            title: self.title.clone(),
            dice: format!("d{}", "6".repeat(self.digits as usize)),
            faces,
            roll,
            row,
            text,
            rolls,
        })
    }
}
