//! The `[character]` table of a sheet as data (`Character` and its parts),
//! with the reading of its formulas and the scores they give. Below both the
//! sheet, which holds it, and the character rules, which change it: it uses
//! neither.

use super::Age;
use super::costs::{self, Kind};
use super::ledger::Entry;
use super::personality::{self, Personality, TraitId};
use super::primary::{Base, Primary, Traits};
use super::race::Race;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
}
