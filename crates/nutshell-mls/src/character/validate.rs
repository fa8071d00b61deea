//! Every rule a character sheet must keep. [`validate`] returns each
//! violation with the field, its line in the file and the rule it breaks,
//! quoted. The generation rules (budget, costs, the +2 limit, personality
//! choices, Fate Points, THP) apply while the ledger holds only the
//! generation; the limits of play apply always.

use super::costs::rules;
use super::generation::{
    self, at_plus_two, budget, plus_two_allowed, thp_base, thp_range, tmp_range,
};
use super::ledger::{balance, fresh};
use super::personality::{NOTICEABLE, TraitId};
use super::primary::{ALL, Primary};
use super::{Age, Character};
use crate::sheet::Combatant;
pub use crate::sheet::line_of_field;
use std::fmt;

/// One rule broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field, as a TOML path.
    pub field: String,
    /// Its line in the file, when found.
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: String,
    /// The rule, quoted (or a ruling).
    pub rule: Option<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        write!(f, "{}: {}", self.field, self.problem)?;
        if let Some(r) = &self.rule {
            write!(f, "\n    rule: {r}")?;
        }
        Ok(())
    }
}

/// `character.ledger[N]` -> N.
fn ledger_index(field: &str) -> Option<usize> {
    field
        .strip_prefix("character.ledger[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The line of the header of the ledger's entry `n` (from 0).
pub fn line_of_entry(text: &str, n: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[character.ledger]]")
        .nth(n)
        .map(|(i, _)| i + 1)
}

/// The lines of every ledger entry's header, in order.
fn entry_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[character.ledger]]")
        .map(|(i, _)| i + 1)
        .collect()
}

struct Out<'t> {
    text: Option<&'t str>,
    /// The ledger entries' lines, found once when the first is asked for
    /// (a line per violation would make thousands of them quadratic).
    entries: Option<Vec<usize>>,
    list: Vec<Violation>,
}

impl Out<'_> {
    fn push(&mut self, field: impl Into<String>, problem: impl Into<String>, rule: Option<&str>) {
        let field = field.into();
        let line = match (self.text, ledger_index(&field)) {
            (None, _) => None,
            (Some(t), Some(n)) => self
                .entries
                .get_or_insert_with(|| entry_lines(t))
                .get(n)
                .copied(),
            (Some(t), None) => line_of_field(t, &field),
        };
        self.list.push(Violation {
            field,
            line,
            problem: problem.into(),
            rule: rule.map(str::to_string),
        });
    }
}

/// Checks a sheet against every rule; `text` (the file) gives lines.
pub fn validate(sheet: &Combatant, text: Option<&str>) -> Vec<Violation> {
    let mut out = Out {
        text,
        entries: None,
        list: Vec::new(),
    };
    let Some(ch) = &sheet.character else {
        out.push(
            "character",
            "this sheet has no [character] table: it is a combatant, not a character",
            Some(
                "docs/mls/characters.md, The sheet: a character sheet is a combatant sheet with a [character] table",
            ),
        );
        return out.list;
    };
    let parsed = match ch.parsed() {
        Ok(p) => p,
        Err((field, problem)) => {
            let rule = default_rule(&field);
            out.push(field, problem, Some(rule));
            return out.list;
        }
    };
    let new = fresh(&ch.ledger);
    let race = ch.race;
    let row = race.row();
    let rav = race.average();
    if ch.age.0 < row.base_age {
        out.push(
            "character.age",
            format!(
                "{} is younger than the base age of {} ({})",
                ch.age,
                row.a(),
                Age(row.base_age)
            ),
            Some(rules::START_AGE),
        );
    }
    // Primary traits.
    for p in ALL {
        let v = p.get(&sheet.traits);
        if v > rav + 2 || v < rav - 2 {
            out.push(
                format!("traits.{p}"),
                format!("{v} is outside RAv-2..RAv+2 ({}..{})", rav - 2, rav + 2),
                Some(rules::LIMIT_PRIMARY),
            );
        }
    }
    if let (Some(p), Some(t)) = (parsed.training, &ch.training) {
        if p.get(&sheet.traits) + 1 > rav + 3 {
            out.push(
                "character.training",
                format!(
                    "{p} trained up to {} is above RAv+3",
                    p.get(&sheet.traits) + 1
                ),
                Some(rules::TRAINING),
            );
        }
        if t.since > ch.age || ch.age.0 >= t.since.0 + row.increment {
            out.push(
                "character.training.since",
                format!(
                    "training paid at {} does not last to age {}: it lasts one increment",
                    t.since, ch.age
                ),
                Some(rules::TRAINING),
            );
        }
    }
    // Secondary, occupation and negative traits.
    let top = if new { 4 } else { 6 };
    let level_rule = rules::LIMIT_SECONDARY;
    let check_level = |out: &mut Out, field: String, level: i64| {
        if level < 0 || level > top {
            out.push(
                field,
                format!(
                    "{} is outside base..base+{top}{}",
                    generation::level_name(level),
                    if new { " for a new character" } else { "" }
                ),
                Some(level_rule),
            );
        }
    };
    check_level(
        &mut out,
        "character.occupation.level".into(),
        ch.occupation.level,
    );
    if ch.occupation.name.trim().is_empty() {
        out.push(
            "character.occupation.name",
            "an occupation needs a name",
            Some(rules::OCCUPATION),
        );
    }
    if ch.secondary.contains_key(&ch.occupation.name) {
        out.push(
            format!("character.secondary.{}", ch.occupation.name),
            "has the occupation's name: the occupation is its own package skill",
            Some(rules::OCCUPATION),
        );
    }
    for (k, s) in &ch.secondary {
        if let Some(l) = s.level {
            check_level(&mut out, format!("character.secondary.{k}.level"), l);
        }
    }
    for (k, n) in &ch.negative {
        check_level(&mut out, format!("character.negative.{k}.level"), n.level);
        if ch.secondary.contains_key(k) || *k == ch.occupation.name {
            out.push(
                format!("character.negative.{k}"),
                format!("{k} is a secondary trait too: a trait is either secondary or negative"),
                Some(rules::NEGATIVE),
            );
        }
    }
    // Personality.
    for (id, v) in parsed.personality.all() {
        if !(0..=20).contains(&v) {
            let name = id.name();
            let field = if ch.personality.contains_key(name) {
                name
            } else {
                id.opposite().name()
            };
            out.push(
                format!("character.personality.{field}"),
                format!("{name} would be {v}"),
                Some(rules::LIMIT_PERSONALITY),
            );
        }
    }
    for c in &ch.checks {
        if TraitId::parse(c).is_none() && !ch.secondary.contains_key(c) && *c != ch.occupation.name
        {
            out.push(
                "character.checks",
                format!("{c:?} is neither a personality trait nor one of the secondary traits"),
                None,
            );
        }
    }
    // The ledger.
    if !ch.ledger.is_empty() && balance(&ch.ledger) != ch.cps {
        out.push(
            "character.cps",
            format!(
                "{} unspent CPs, but the ledger's entries add up to {}: every change goes through the ledger",
                ch.cps,
                balance(&ch.ledger)
            ),
            None,
        );
    }
    // The ledger is written in order: ages never go back, the generation comes
    // first, and its last age is the character's.
    let mut last: Option<(usize, &super::ledger::Entry)> = None;
    for (i, e) in ch.ledger.iter().enumerate() {
        if let Some((j, p)) = last {
            if e.age < p.age {
                out.push(
                    format!("character.ledger[{i}]"),
                    format!("entry {} is at age {} after entry {} at age {}: the ledger only grows, in order", i + 1, e.age, j + 1, p.age),
                    None,
                );
            }
            if e.step == super::ledger::Step::Generation
                && p.step != super::ledger::Step::Generation
            {
                out.push(
                    format!("character.ledger[{i}]"),
                    format!("entry {} is a generation entry after play began", i + 1),
                    None,
                );
            }
        }
        last = Some((i, e));
    }
    if let Some((_, e)) = last
        && e.age != ch.age
    {
        out.push(
            "character.age",
            format!("{}, but the ledger's last entry is at age {}: age changes only through the ledger (`nutshell mls advance --years`)", ch.age, e.age),
            None,
        );
    }
    if ch.cps < 0 {
        out.push(
            "character.cps",
            format!("{} CPs: more were spent than the character had", ch.cps),
            None,
        );
    }
    if new {
        generation_rules(sheet, ch, &parsed.personality, &mut out);
    }
    for f in super::replay::replay(sheet) {
        out.push(f.field, f.problem, f.rule.as_deref());
    }
    let mut list = out.list;
    for v in &mut list {
        if v.rule.is_none() {
            v.rule = Some(default_rule(&v.field).to_string());
        }
    }
    list
}

/// The rule of a violation found without one: every violation cites a rule.
fn default_rule(field: &str) -> &'static str {
    if field.starts_with("character.ledger") || field == "character.cps" || field == "character.age"
    {
        super::replay::REPLAY
    } else if field == "character.checks" {
        rules::SECONDARY_CHECK
    } else {
        "docs/mls/characters.md, The sheet: a character sheet is a combatant sheet with a [character] table"
    }
}

fn generation_rules(
    sheet: &Combatant,
    ch: &Character,
    personality: &super::personality::Personality,
    out: &mut Out,
) {
    let race = ch.race;
    let start = match budget(race, ch.age) {
        Ok(b) => Some(b),
        Err(e) => {
            out.push("character.age", e, None);
            None
        }
    };
    // The +2 limit.
    let plus_two = at_plus_two(race, &sheet.traits);
    let allowed = plus_two_allowed(race, ch.age, &sheet.traits);
    if plus_two.len() as i64 > allowed {
        let names: Vec<&str> = plus_two.iter().map(|p| p.name()).collect();
        out.push(
            format!("traits.{}", plus_two[plus_two.len() - 1]),
            format!(
                "{} traits at +2 ({}), but {} aged {} with {} trait(s) below RAv may have {allowed}",
                plus_two.len(),
                names.join(", "),
                race.row().a(),
                ch.age,
                ALL.iter().filter(|p| p.get(&sheet.traits) < race.average()).count()
            ),
            Some(rules::PLUS_TWO),
        );
    }
    // Costs.
    if let Ok(items) = generation::cost(ch, &sheet.traits) {
        let spent: i64 = items.iter().map(|c| c.cps).sum();
        if let Some(start) = start {
            if spent > start {
                out.push(
                    "character",
                    format!(
                        "the choices cost {spent} CPs, but {} aged {} has {start}: {} too many",
                        race.row().a(),
                        ch.age,
                        spent - start
                    ),
                    Some(rules::BUDGET),
                );
            } else if start - spent != ch.cps {
                out.push(
                        "character.cps",
                        format!(
                            "{} unspent CPs, but {start} CPs less the {spent} the choices cost leaves {}",
                            ch.cps,
                            start - spent
                        ),
                        Some(rules::BUDGET),
                    );
            }
        }
    }
    if ch.fate_points_bought < 0 {
        out.push(
            "character.fate_points_bought",
            "cannot be negative",
            Some(rules::FATE_POINTS),
        );
    }
    // Personality choices.
    let rolled: Vec<TraitId> = ch.rolled.iter().filter_map(|r| TraitId::parse(r)).collect();
    let mut at_16 = 0;
    for pair in 0..15 {
        let left = TraitId { pair, side: 0 };
        let v = personality.get(left);
        let name = if ch.personality.contains_key(left.opposite().name()) {
            left.opposite().name()
        } else {
            left.name()
        };
        let field = format!("character.personality.{name}");
        if rolled.iter().any(|r| r.pair == pair) {
            let r = personality.get(*rolled.iter().find(|r| r.pair == pair).unwrap_or(&left));
            if !(3..=18).contains(&r) {
                out.push(
                    field,
                    format!("{r} cannot be rolled on 3d6"),
                    Some(rules::PERSONALITY),
                );
            }
            continue;
        }
        let high = v.max(20 - v);
        if high == NOTICEABLE {
            at_16 += 1;
        } else if high > 15 {
            out.push(
                field,
                format!(
                    "{} is {}: chosen traits lie from 5 to 15, or at 16/4",
                    name,
                    personality.get(TraitId::parse(name).unwrap_or(left))
                ),
                Some(rules::PERSONALITY),
            );
        }
    }
    if at_16 > 5 {
        out.push(
            "character.personality",
            format!("{at_16} pairs at 16/4: up to 5 may be"),
            Some(rules::PERSONALITY),
        );
    }
    // Fate Points.
    let expected = personality.fate_points() + ch.fate_points_bought;
    if i64::from(sheet.fate_points) != expected {
        out.push(
            "fate_points",
            format!(
                "{} Fate Points, but the personality traits give {} and {} were bought: {expected}",
                sheet.fate_points,
                personality.fate_points(),
                ch.fate_points_bought
            ),
            Some(rules::FATE_POINTS),
        );
    }
    // THP and TMP.
    let base = thp_base(&sheet.traits);
    let (lo, hi) = thp_range(base);
    if !(lo..=hi).contains(&sheet.thp) {
        out.push(
            "thp",
            format!(
                "{} is not a roll of {base}d6 or base x 3: it lies from {lo} to {hi}",
                sheet.thp
            ),
            Some(rules::THP),
        );
    }
    if let Some(tmp) = ch.tmp {
        let aura = Primary::Aura.get(&sheet.traits);
        let (lo, hi) = tmp_range(aura);
        if !(lo..=hi).contains(&tmp) {
            out.push(
                "character.tmp",
                format!("{tmp} is not a roll of {aura}d6 or Aura x 3: it lies from {lo} to {hi}"),
                Some(rules::TMP),
            );
        }
    }
}

/// Reads a character sheet (one combatant with a `[character]` table) as
/// written, without making it ready to fight; errors name the field and line.
pub fn parse_sheet(file: &str, text: &str) -> Result<Combatant, crate::FightError> {
    let c: Combatant = crate::sheet::read(file, text)?;
    if c.character.is_none() {
        return Err(crate::FightError::File(format!(
            "{file}: no [character] table: this is a combatant sheet, not a character (docs/mls/characters.md)"
        )));
    }
    // The same checks a fight makes: the file must fight too (read once).
    crate::sheet::Side::of_one(file, text, c.clone())?;
    Ok(c)
}

/// The sheet as TOML, as `character new` and `advance` write it.
pub fn to_toml(sheet: &Combatant) -> Result<String, crate::FightError> {
    toml::to_string_pretty(sheet)
        .map_err(|e| crate::FightError::Invalid(format!("cannot write the sheet: {e}")))
}
