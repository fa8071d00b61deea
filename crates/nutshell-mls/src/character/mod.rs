//! MLS characters (rule text 001, from "Behaviour" to "Racial Differences"):
//! the character table of a sheet, generation with every cost and limit,
//! advancement with an append-only ledger, personality and behaviour, ageing,
//! and the time costs of actions.
//!
//! A character sheet is a combatant sheet (`crate::sheet`) with a
//! `[character]` table, so the same file fights: its secondary traits become
//! the combatant's skills (see [`Character::fighting`]).
//!
//! | module | owns |
//! |---|---|
//! | [`race`] | the racial table as data: base age, increment, reductions |
//! | [`primary`] | the eight primary traits; base formulas of secondary traits |
//! | [`costs`] | every CP cost and yield; the rules quoted |
//! | [`personality`] | the fifteen pairs; Fate Points from traits |
//! | [`ledger`] | the append-only ledger and its balance |
//! | [`generation`] | the budget, the cost of a sheet, choices to a new sheet |
//! | [`replay`] | `check` replays the ledger and compares it with the sheet |
//! | [`validate`] | every rule a sheet must keep, as violations naming field and line |
//! | [`advancement`] | income, adventures, spending, checks after an adventure |
//! | [`plan`] | one advance as asked (adventure, checks, time, spends), for every front end |
//! | [`ageing`] | reductions of primary traits at the racial thresholds |
//! | [`behaviour`] | acting against a noticeable personality trait |
//! | [`time`] | time costs of actions as data |

pub mod advancement;
pub mod ageing;
pub mod behaviour;
pub mod costs;
pub mod generation;
pub mod ledger;
pub mod personality;
pub mod plan;
pub mod primary;
pub mod race;
pub mod replay;
pub mod time;
pub mod validate;

use crate::sheet::{Combatant, Traits};
use costs::Kind;
use ledger::Entry;
use personality::{Personality, TraitId};
use primary::{Base, Primary};
use race::Race;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// An age, kept in months; written in sheets as years (`18`, or `28.5` for an
/// Ork's 9-month increments: a whole number of months).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Age(pub i64);

impl Age {
    /// From years and months.
    pub fn years(years: i64) -> Age {
        Age(years * 12)
    }

    /// Parses `18`, `28.5`, `12.75`.
    pub fn parse(text: &str) -> Result<Age, String> {
        let t = text.trim().replace('½', ".5");
        let y: f64 = t
            .parse()
            .map_err(|_| format!("{text:?} is not an age in years"))?;
        Age::from_years(y)
    }

    fn from_years(y: f64) -> Result<Age, String> {
        let months = y * 12.0;
        if !(0.0..=12_000.0).contains(&months) || (months - months.round()).abs() > 1e-6 {
            return Err(format!(
                "{y} is not an age from 0 to 1000 years in whole months"
            ));
        }
        Ok(Age(months.round() as i64))
    }
}

impl fmt::Display for Age {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&race::show_age(self.0))
    }
}

impl Serialize for Age {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 12 == 0 {
            s.serialize_i64(self.0 / 12)
        } else {
            s.serialize_f64(self.0 as f64 / 12.0)
        }
    }
}

impl<'de> Deserialize<'de> for Age {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Age, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Age;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an age in years (18, or 28.5)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Age, E> {
                Age::from_years(v as f64).map_err(E::custom)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Age, E> {
                Age::from_years(v as f64).map_err(E::custom)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Age, E> {
                Age::from_years(v).map_err(E::custom)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Age, E> {
                Age::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// The occupation: "acts as a Package Skill. This is at Base Level
/// automatically, and costs double the costs of single skills."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Occupation {
    /// Its name ("soldier"); also its skill's name in fights.
    pub name: String,
    /// Its base formula (`dexterity`, `2-size`, `mind+awareness`).
    pub base: String,
    /// Its level above base (0 = base).
    #[serde(default, deserialize_with = "crate::bounds::level")]
    pub level: i64,
}

/// A secondary trait (a skill).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secondary {
    /// Trained, natural or inherent.
    pub kind: Kind,
    /// Its base formula.
    pub base: String,
    /// Its level relative to base (0 = base, 2 = base+2); left out when not
    /// acquired (then a Natural trait is had at base-2, an Inherent one at
    /// base, a Trained one not at all).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::bounds::level_option"
    )]
    pub level: Option<i64>,
}

impl Secondary {
    /// The level it is had at, acquired or not; `None` for an unacquired
    /// Trained trait.
    pub fn effective(&self) -> Option<i64> {
        self.level.or(self.kind.unacquired())
    }
}

/// A negative trait: it yields CPs at generation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Negative {
    /// Its base formula, if it has one (its score is then base + level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Its level relative to base.
    #[serde(default, deserialize_with = "crate::bounds::level")]
    pub level: i64,
}

/// A primary trait trained up for one increment (mls, *Training Up an
/// Attribute*).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Training {
    /// The trait.
    #[serde(rename = "trait")]
    pub primary: String,
    /// The age it was paid for; it lasts one increment.
    pub since: Age,
}

/// The `[character]` table of a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Race (a row of the racial table).
    pub race: Race,
    /// Age in years.
    pub age: Age,
    /// Unspent Character Points.
    #[serde(default, deserialize_with = "crate::bounds::points")]
    pub cps: i64,
    /// Total Magic Points, for those that require them.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::bounds::magic_points_option"
    )]
    pub tmp: Option<i64>,
    /// Fate Points bought at generation (5 CPs each).
    #[serde(
        default,
        skip_serializing_if = "is_zero",
        deserialize_with = "crate::bounds::points"
    )]
    pub fate_points_bought: i64,
    /// The occupation.
    pub occupation: Occupation,
    /// Secondary traits by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secondary: BTreeMap<String, Secondary>,
    /// Negative traits by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub negative: BTreeMap<String, Negative>,
    /// Personality traits: one trait of each pair (the other is 20 minus it);
    /// a pair left out is 10/10.
    #[serde(default, deserialize_with = "crate::bounds::personality")]
    pub personality: BTreeMap<String, i64>,
    /// Personality traits rolled on 3d6 at generation (so they may lie outside
    /// 5..15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolled: Vec<String>,
    /// A primary trait trained up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<Training>,
    /// Money made with CPs, in florins.
    #[serde(
        default,
        skip_serializing_if = "is_zero",
        deserialize_with = "crate::bounds::points"
    )]
    pub florins: i64,
    /// Favour points gained in prayer.
    #[serde(
        default,
        skip_serializing_if = "is_zero",
        deserialize_with = "crate::bounds::points"
    )]
    pub favour: i64,
    /// Traits checked during the current adventure (secondary or
    /// personality), rolled for by `advance` in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// Every change, with its rule and its cost: append-only.
    #[serde(default)]
    pub ledger: Vec<Entry>,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// A character table's parts, parsed: bases and personality.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The occupation's base.
    pub occupation: Base,
    /// Secondary traits' bases, by name.
    pub secondary: BTreeMap<String, Base>,
    /// Negative traits' bases, by name.
    pub negative: BTreeMap<String, Option<Base>>,
    /// The fifteen pairs.
    pub personality: Personality,
    /// The trait trained up.
    pub training: Option<Primary>,
}

impl Character {
    /// Parses the formulas and personality names; an error names the field.
    pub fn parsed(&self) -> Result<Parsed, (String, String)> {
        let occupation = Base::parse(&self.occupation.base)
            .map_err(|e| ("character.occupation.base".to_string(), e))?;
        let mut secondary = BTreeMap::new();
        for (k, s) in &self.secondary {
            let b =
                Base::parse(&s.base).map_err(|e| (format!("character.secondary.{k}.base"), e))?;
            secondary.insert(k.clone(), b);
        }
        let mut negative = BTreeMap::new();
        for (k, n) in &self.negative {
            let b = match &n.base {
                Some(t) => {
                    Some(Base::parse(t).map_err(|e| (format!("character.negative.{k}.base"), e))?)
                }
                None => None,
            };
            negative.insert(k.clone(), b);
        }
        let mut personality = Personality::default();
        let mut seen: [Option<(&str, TraitId, i64)>; 15] = [None; 15];
        for (k, v) in &self.personality {
            let id = TraitId::parse(k).ok_or_else(|| {
                (
                    format!("character.personality.{k}"),
                    "is not a personality trait (the fifteen pairs: chaste/lustful, temperate/indulgent, forgiving/vengeful, honest/deceitful, generous/greedy, kind/selfish, consistent/arbitrary, lawful/chaotic, merciful/cruel, modest/proud, conservative/worldly, cautious/reckless, trusting/suspicious, valorous/cowardly, persistent/irresolute)".to_string(),
                )
            })?;
            if let Some((other, other_id, other_v)) = seen[id.pair]
                && (other_id == id || other_v + v != personality::PAIR_SUM)
            {
                return Err((
                    format!("character.personality.{k}"),
                    format!(
                        "{other} = {other_v} and {k} = {v} do not add up to 20: {}",
                        costs::rules::LIMIT_PERSONALITY
                    ),
                ));
            }
            seen[id.pair] = Some((k.as_str(), id, *v));
            personality.set(id, *v);
        }
        for r in &self.rolled {
            if TraitId::parse(r).is_none() {
                return Err((
                    "character.rolled".into(),
                    format!("{r:?} is not a personality trait"),
                ));
            }
        }
        let training = match &self.training {
            Some(t) => Some(Primary::parse(&t.primary).ok_or_else(|| {
                (
                    "character.training.trait".to_string(),
                    format!("{:?} is not a primary trait", t.primary),
                )
            })?),
            None => None,
        };
        Ok(Parsed {
            occupation,
            secondary,
            negative,
            personality,
            training,
        })
    }

    /// The primary traits in effect: the natural ones plus one for a trait
    /// trained up.
    pub fn effective_traits(&self, natural: &Traits) -> Traits {
        let mut t = *natural;
        if let Some(p) = self
            .training
            .as_ref()
            .and_then(|t| Primary::parse(&t.primary))
        {
            *p.get_mut(&mut t) += 1;
        }
        t
    }

    /// The scores of the occupation and every secondary trait the character
    /// has (an unacquired Trained trait has none): base + level.
    pub fn scores(&self, natural: &Traits) -> Result<BTreeMap<String, i64>, (String, String)> {
        let parsed = self.parsed()?;
        let traits = self.effective_traits(natural);
        let mut out = BTreeMap::new();
        out.insert(
            self.occupation.name.clone(),
            parsed.occupation.value(&traits) + self.occupation.level,
        );
        for (k, s) in &self.secondary {
            if let Some(level) = s.effective() {
                out.insert(k.clone(), parsed.secondary[k].value(&traits) + level);
            }
        }
        Ok(out)
    }

    /// Makes `combatant` ready to fight: the occupation and secondary traits
    /// become skills (a skill the sheet also gives must agree), and a trait
    /// trained up counts one higher.
    pub fn fighting(&self, combatant: &mut Combatant) -> Result<(), (String, String)> {
        let scores = self.scores(&combatant.traits)?;
        for (k, v) in scores {
            // Traits and levels are bounded when read, so the score is
            // exact; it must still be a skill (RULING N-1).
            if let Err(why) = crate::bounds::SKILL.check(v) {
                let field = if k == self.occupation.name {
                    "character.occupation.level".to_string()
                } else {
                    format!("character.secondary.{k}.level")
                };
                return Err((field, format!("{k} = base + level = {why}")));
            }
            match combatant.skills.get(&k) {
                Some(given) if *given != v => {
                    return Err((
                        format!("skills.{k}"),
                        format!(
                            "is {given}, but the character's trait {k} is {v} (base + level): leave it out of skills"
                        ),
                    ));
                }
                _ => {
                    combatant.skills.insert(k, v);
                }
            }
        }
        combatant.traits = self.effective_traits(&combatant.traits);
        Ok(())
    }
}
