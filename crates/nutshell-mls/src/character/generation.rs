//! Character generation (mls, *Character Generation*): the CP budget, what a
//! sheet's choices cost, the +2 limit, THP and TMP rolls, Fate Points, and
//! [`generate`], which turns a player's choices into a sheet with its ledger.

use super::costs::{self, Kind, rules};
use super::ledger::{Entry, Step};
use super::personality::{PAIRS, Personality, TraitId};
use super::primary::{ALL, Primary};
use super::race::{FULL_INCOME_INCREMENTS, Race};
use super::{Age, Character, Negative, Occupation, Secondary};
use crate::dice::Dice;
use crate::error::FightError;
use crate::sheet::{Armour, Combatant, Shield, Tactic, Traits, Weapon};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The CPs a character starts with at `age`: 60 at the base age, then 2 per
/// increment until Base Age + 22 increments and 1 per increment after that
/// (RULING P-41). `Err` quotes the rule when the age is not a starting age.
pub fn budget(race: Race, age: Age) -> Result<i64, String> {
    let row = race.row();
    let (young, old) = row.start_ages();
    if age.0 < young || age.0 > old {
        return Err(format!(
            "{} starts no younger than {} and no older than {} (RULING P-42): {}",
            row.a(),
            Age(young),
            Age(old),
            rules::START_AGE
        ));
    }
    if (age.0 - row.base_age) % row.increment != 0 {
        return Err(format!(
            "{age} is not the base age {} plus whole increments of {} months (RULING P-42)",
            Age(row.base_age),
            row.increment
        ));
    }
    let n = row.increments_at(age.0);
    let young_n = n.min(FULL_INCOME_INCREMENTS);
    Ok(costs::START_CPS + costs::INCOME_YOUNG * young_n + costs::INCOME_OLD * (n - young_n))
}

/// How many primary traits may be at +2: 2, 1 from Base Age + 22 increments
/// ("40 or older"), 0 from Base Age + 32 ("50 or older"), plus one for each
/// trait reduced below the racial average.
pub fn plus_two_allowed(race: Race, age: Age, traits: &Traits) -> i64 {
    let row = race.row();
    let base = match age.0 {
        a if a >= row.reduction_age(2) => 0,
        a if a >= row.reduction_age(1) => 1,
        _ => 2,
    };
    let reduced = ALL
        .iter()
        .filter(|p| p.get(traits) < race.average())
        .count() as i64;
    base + reduced
}

/// The primary traits at +2.
pub fn at_plus_two(race: Race, traits: &Traits) -> Vec<Primary> {
    ALL.into_iter()
        .filter(|p| p.get(traits) - race.average() == 2)
        .collect()
}

/// One line of what a sheet cost at generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cost {
    /// The field ("traits.strength", "character.secondary.sword").
    pub field: String,
    /// What was bought, in words.
    pub what: String,
    /// CPs spent (negative: yielded).
    pub cps: i64,
    /// The value bought (a trait's value, a level, a number of Fate Points).
    pub to: i64,
    /// The rule.
    pub rule: &'static str,
}

/// What the choices on a sheet cost at generation, item by item. `Err` names
/// a field whose value has no price (outside the generation limits).
pub fn cost(character: &Character, traits: &Traits) -> Result<Vec<Cost>, (String, String)> {
    let race = character.race;
    let mut out = Vec::new();
    for p in ALL {
        let offset = p.get(traits) - race.average();
        let cps = costs::primary(offset).ok_or_else(|| {
            (
                format!("traits.{p}"),
                format!(
                    "{} is RAv{offset:+}: {}",
                    p.get(traits),
                    rules::LIMIT_PRIMARY
                ),
            )
        })?;
        if cps != 0 {
            out.push(Cost {
                field: format!("traits.{p}"),
                what: format!("{p} {} (RAv{offset:+})", p.get(traits)),
                cps,
                to: p.get(traits),
                rule: rules::PRIMARY_COST,
            });
        }
    }
    let o = &character.occupation;
    let cps = costs::occupation(o.level).ok_or_else(|| {
        (
            "character.occupation.level".to_string(),
            format!(
                "base{:+} is outside base..base+4: {}",
                o.level,
                rules::LIMIT_SECONDARY
            ),
        )
    })?;
    out.push(Cost {
        field: "character.occupation".into(),
        what: format!("occupation {} at {}", o.name, level_name(o.level)),
        cps,
        to: o.level,
        rule: rules::OCCUPATION,
    });
    for (k, s) in &character.secondary {
        let Some(level) = s.level else { continue };
        let cps = costs::secondary(s.kind, level).ok_or_else(|| {
            (
                format!("character.secondary.{k}.level"),
                format!(
                    "base{level:+} is outside base..base+4: {}",
                    rules::LIMIT_SECONDARY
                ),
            )
        })?;
        out.push(Cost {
            field: format!("character.secondary.{k}"),
            what: format!("{k} ({}) at {}", kind_name(s.kind), level_name(level)),
            cps,
            to: level,
            rule: rules::SECONDARY_COST,
        });
    }
    for (k, n) in &character.negative {
        let yields = costs::negative(n.level).ok_or_else(|| {
            (
                format!("character.negative.{k}.level"),
                format!(
                    "base{:+} is outside base..base+4: {}",
                    n.level,
                    rules::LIMIT_SECONDARY
                ),
            )
        })?;
        out.push(Cost {
            field: format!("character.negative.{k}"),
            what: format!("negative trait {k} at {}", level_name(n.level)),
            cps: -yields,
            to: n.level,
            rule: rules::NEGATIVE,
        });
    }
    if character.fate_points_bought != 0 {
        out.push(Cost {
            field: "character.fate_points_bought".into(),
            what: format!("{} Fate Point(s) bought", character.fate_points_bought),
            cps: costs::FATE_POINT_COST * character.fate_points_bought,
            to: character.fate_points_bought,
            rule: rules::FATE_POINTS,
        });
    }
    Ok(out)
}

/// "base", "base+2".
pub fn level_name(level: i64) -> String {
    if level == 0 {
        "base".into()
    } else {
        format!("base{level:+}")
    }
}

/// "trained", "natural", "inherent".
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Trained => "trained",
        Kind::Natural => "natural",
        Kind::Inherent => "inherent",
    }
}

/// The THP base: Size + Body - 2.
pub fn thp_base(traits: &Traits) -> i64 {
    traits.size + traits.body - 2
}

/// The range of THP a roll can give for `base`: from `base x 3` to `base x 6`,
/// and at least 1 (RULING P-44).
pub fn thp_range(base: i64) -> (i64, i64) {
    let low = (3 * base).max(1);
    (low, (6 * base).max(low))
}

/// The range of TMP for an Aura of `aura`: as THP, but 0 with no Aura
/// (RULING P-44).
pub fn tmp_range(aura: i64) -> (i64, i64) {
    let low = (3 * aura).max(0);
    (low, (6 * aura).max(low))
}

/// Rolls `base` d6 and takes the roll or `base x 3`, whichever is greater
/// (at least `floor`): THP or TMP. Returns the value and the roll in words.
pub fn roll_points(
    base: i64,
    floor: i64,
    what: &str,
    dice: &mut Dice,
) -> Result<(i64, String), FightError> {
    let n = base.clamp(0, 1000);
    let mut faces = Vec::new();
    for i in 0..n {
        faces.push(dice.die(6, &|| format!("for {what} ({} of {n})", i + 1))?);
    }
    let roll: i64 = faces.iter().sum();
    let value = roll.max(3 * base).max(floor);
    Ok((
        value,
        format!("{n}d6 = {faces:?} = {roll}; base x 3 = {}", 3 * base),
    ))
}

/// A personality choice: a value, or `"roll"` for 3d6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PersonalityChoice {
    /// Chosen: 5..15, or 16 (16/4) for up to five pairs.
    Value(i64),
    /// `"roll"`: 3d6.
    Roll(String),
}

/// A player's choices: what `character new` asks for, or reads from a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choices {
    /// The character's name.
    pub name: String,
    /// Race.
    pub race: Race,
    /// Starting age in years.
    pub age: Age,
    /// Primary traits (2 when left out).
    #[serde(default)]
    pub traits: Traits,
    /// The occupation.
    pub occupation: Occupation,
    /// Secondary traits bought.
    #[serde(default)]
    pub secondary: BTreeMap<String, Secondary>,
    /// Negative traits taken.
    #[serde(default)]
    pub negative: BTreeMap<String, Negative>,
    /// Personality: a value or "roll", for one trait of any pair (others 10/10).
    #[serde(default)]
    pub personality: BTreeMap<String, PersonalityChoice>,
    /// Fate Points bought at 5 CPs.
    #[serde(default, deserialize_with = "crate::bounds::points")]
    pub fate_points_bought: i64,
    /// Roll TMP (for those that require it).
    #[serde(default)]
    pub magic: bool,
    /// Weapons, as in a combatant sheet.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Armour, as in a combatant sheet.
    #[serde(default, alias = "armor")]
    pub armour: Vec<Armour>,
    /// A shield.
    #[serde(default)]
    pub shield: Option<Shield>,
    /// The tactic.
    #[serde(default)]
    pub tactic: Tactic,
}

/// Turns choices into a sheet: rolls the personality traits asked for (3d6
/// each, in the text's order of the pairs), THP (and TMP with `magic`),
/// counts Fate Points, and writes the ledger. The sheet is not validated:
/// call [`super::validate::validate`] on it.
pub fn generate(choices: &Choices, dice: &mut Dice) -> Result<Combatant, FightError> {
    let age = choices.age;
    let mut ledger = Vec::new();
    let start = budget(choices.race, age).map_err(FightError::Invalid)?;
    ledger.push(Entry::new(
        age,
        Step::Generation,
        format!("{start} CPs to build {} aged {age}", choices.race.row().a()),
        start,
        rules::BUDGET,
    ));
    let mut personality = BTreeMap::new();
    let mut rolled = Vec::new();
    let mut values = Personality::default();
    for k in choices.personality.keys() {
        if TraitId::parse(k).is_none() {
            return Err(FightError::Invalid(format!(
                "personality.{k}: not a personality trait"
            )));
        }
    }
    for (pair, names) in PAIRS.iter().enumerate() {
        for name in [names.0, names.1] {
            let Some(choice) = choices
                .personality
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
            else {
                continue;
            };
            let id = TraitId {
                pair,
                side: if name == names.0 { 0 } else { 1 },
            };
            let value = match choice {
                PersonalityChoice::Value(v) => *v,
                PersonalityChoice::Roll(r) if r.eq_ignore_ascii_case("roll") => {
                    let r = dice.three_d6(&|| format!("for the personality trait {name}"))?;
                    ledger.push(
                        Entry::new(
                            age,
                            Step::Generation,
                            format!(
                                "{name} rolled: {}, {} {}",
                                r.natural(),
                                id.opposite().name(),
                                20 - r.natural()
                            ),
                            0,
                            rules::PERSONALITY,
                        )
                        .target(format!("personality.{name}"))
                        .to(Some(r.natural()))
                        .roll(format!(
                            "3d6 = {:?} = {}",
                            r.faces,
                            r.natural()
                        )),
                    );
                    rolled.push(name.to_string());
                    r.natural()
                }
                PersonalityChoice::Roll(r) => {
                    return Err(FightError::Invalid(format!(
                        "personality.{name}: {r:?} is neither a number nor \"roll\""
                    )));
                }
            };
            values.set(id, value);
            personality.insert(name.to_string(), value);
        }
    }
    let mut character = Character {
        race: choices.race,
        age,
        cps: 0,
        tmp: None,
        fate_points_bought: choices.fate_points_bought,
        occupation: choices.occupation.clone(),
        secondary: choices.secondary.clone(),
        negative: choices.negative.clone(),
        personality,
        rolled,
        training: None,
        florins: 0,
        favour: 0,
        checks: Vec::new(),
        ledger: Vec::new(),
    };
    if let Ok(items) = cost(&character, &choices.traits) {
        for c in items {
            ledger.push(
                Entry::new(age, Step::Generation, c.what, -c.cps, c.rule)
                    .target(c.field)
                    .to(Some(c.to)),
            );
        }
    }
    ledger.extend(chosen_personality(&character, age));
    let base = thp_base(&choices.traits);
    let (thp, roll) = roll_points(base, 1, "THP", dice)?;
    ledger.push(
        Entry::new(age, Step::Generation, format!("THP {thp}"), 0, rules::THP)
            .target("thp")
            .to(Some(thp))
            .roll(roll),
    );
    if choices.magic {
        let aura = choices.traits.aura;
        let (tmp, roll) = roll_points(aura, 0, "TMP", dice)?;
        ledger.push(
            Entry::new(age, Step::Generation, format!("TMP {tmp}"), 0, rules::TMP)
                .target("character.tmp")
                .to(Some(tmp))
                .roll(roll),
        );
        character.tmp = Some(tmp);
    }
    let from_traits = values.fate_points();
    let fate_points = from_traits + choices.fate_points_bought;
    ledger.push(
        Entry::new(
            age,
            Step::Generation,
            format!(
                "{fate_points} Fate Point(s): {from_traits} from personality traits at 16 to 18, {} bought",
                choices.fate_points_bought
            ),
            0,
            rules::FATE_POINTS,
        )
        .target("fate_points")
        .to(Some(fate_points)),
    );
    character.cps = super::ledger::balance(&ledger);
    character.ledger = ledger;
    Ok(Combatant {
        name: choices.name.clone(),
        minor: false,
        traits: choices.traits,
        skills: BTreeMap::new(),
        thp,
        chp: None,
        shock: None,
        fate_points: u32::try_from(fate_points.max(0)).unwrap_or(0),
        tmp: None,
        weapons: choices.weapons.clone(),
        armour: choices.armour.clone(),
        shield: choices.shield.clone(),
        tactic: choices.tactic.clone(),
        position: None,
        length: None,
        left_handed: false,
        horse_archer: false,
        character: Some(character),
    })
}

/// Opens the ledger of a sheet written by hand (with none): the starting CPs
/// and what each choice cost, so that advancement appends to a complete
/// record. Does nothing when the ledger has entries.
pub fn open_ledger(sheet: &mut Combatant) -> Result<(), FightError> {
    let traits = sheet.traits;
    let (thp, fate_points) = (sheet.thp, sheet.fate_points);
    let Some(ch) = sheet.character.as_mut() else {
        return Ok(());
    };
    if !ch.ledger.is_empty() {
        return Ok(());
    }
    let start = budget(ch.race, ch.age).map_err(FightError::Invalid)?;
    let mut ledger = vec![Entry::new(
        ch.age,
        Step::Generation,
        format!(
            "{start} CPs to build {} aged {} (ledger opened from the sheet)",
            ch.race.row().a(),
            ch.age
        ),
        start,
        rules::BUDGET,
    )];
    let items = cost(ch, &traits).map_err(|(f, e)| FightError::Invalid(format!("{f}: {e}")))?;
    for c in items {
        ledger.push(
            Entry::new(ch.age, Step::Generation, c.what, -c.cps, c.rule)
                .target(c.field)
                .to(Some(c.to)),
        );
    }
    let age = ch.age;
    ledger.extend(chosen_personality(ch, age));
    let written = "as written on the sheet";
    for r in &ch.rolled {
        if let (Some(id), Some(v)) = (TraitId::parse(r), ch.personality.get(r)) {
            ledger.push(
                Entry::new(
                    age,
                    Step::Generation,
                    format!("{} rolled: {v} ({written})", id.name()),
                    0,
                    rules::PERSONALITY,
                )
                .target(format!("personality.{}", id.name()))
                .to(Some(*v))
                .roll(format!("3d6 ({written})")),
            );
        }
    }
    ledger.push(
        Entry::new(
            age,
            Step::Generation,
            format!("THP {thp} ({written})"),
            0,
            rules::THP,
        )
        .target("thp")
        .to(Some(thp)),
    );
    if let Some(tmp) = ch.tmp {
        ledger.push(
            Entry::new(
                age,
                Step::Generation,
                format!("TMP {tmp} ({written})"),
                0,
                rules::TMP,
            )
            .target("character.tmp")
            .to(Some(tmp)),
        );
    }
    ledger.push(
        Entry::new(
            age,
            Step::Generation,
            format!("{fate_points} Fate Point(s) ({written})"),
            0,
            rules::FATE_POINTS,
        )
        .target("fate_points")
        .to(Some(i64::from(fate_points))),
    );
    ch.ledger = ledger;
    Ok(())
}

/// The generation entries of the personality traits chosen (not rolled)
/// away from 10/10: each names the trait as the sheet does, and its value.
pub fn chosen_personality(ch: &Character, age: Age) -> Vec<Entry> {
    ch.personality
        .iter()
        .filter(|(k, v)| **v != 10 && !ch.rolled.iter().any(|r| r.eq_ignore_ascii_case(k)))
        .filter_map(|(k, v)| {
            let id = TraitId::parse(k)?;
            // A pair written twice (both sides) gets one entry.
            if ch.personality.contains_key(id.opposite().name()) && id.side == 1 {
                return None;
            }
            Some(
                Entry::new(
                    age,
                    Step::Generation,
                    format!(
                        "{} chosen: {v}, {} {}",
                        id.name(),
                        id.opposite().name(),
                        20 - v
                    ),
                    0,
                    rules::PERSONALITY,
                )
                .target(format!("personality.{}", id.name()))
                .to(Some(*v)),
            )
        })
        .collect()
}

impl Choices {
    /// Reads choices from TOML; errors name the field and line.
    pub fn parse(file: &str, text: &str) -> Result<Choices, FightError> {
        crate::sheet::read(file, text)
    }
}
