//! The eight primary traits: by name (`Primary`), a combatant's values of
//! them (`Traits`, which every sheet holds), and the base formulas of secondary
//! traits (mls, *Secondary Traits*): "Base is always a Primary Trait, or a
//! Reverse Primary Trait (2-the Primary Trait), or a combination of Primary
//! Traits (average traits, round ALL fractions DOWN)."

use serde::{Deserialize, Serialize};
use std::fmt;

/// The eight primary traits: "Strength, Body, Size, Dexterity, Agility, Mind,
/// Aura, Awareness; all average 2 for humans." A trait left out is 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traits {
    /// Added to Dam by a successful total attack.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub strength: i64,
    /// Body.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub body: i64,
    /// Size.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub size: i64,
    /// Dexterity.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub dexterity: i64,
    /// Movement: Agl+1 squares a turn.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub agility: i64,
    /// Mind.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub mind: i64,
    /// Aura.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub aura: i64,
    /// Awareness.
    #[serde(default = "average", deserialize_with = "crate::bounds::primary")]
    pub awareness: i64,
}

fn average() -> i64 {
    2
}

impl Default for Traits {
    fn default() -> Traits {
        Traits {
            strength: 2,
            body: 2,
            size: 2,
            dexterity: 2,
            agility: 2,
            mind: 2,
            aura: 2,
            awareness: 2,
        }
    }
}

/// A primary trait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Primary {
    /// Strength.
    Strength,
    /// Body.
    Body,
    /// Size.
    Size,
    /// Dexterity.
    Dexterity,
    /// Agility.
    Agility,
    /// Mind.
    Mind,
    /// Aura.
    Aura,
    /// Awareness.
    Awareness,
}

/// All eight, in the rule text's order.
pub const ALL: [Primary; 8] = [
    Primary::Strength,
    Primary::Body,
    Primary::Size,
    Primary::Dexterity,
    Primary::Agility,
    Primary::Mind,
    Primary::Aura,
    Primary::Awareness,
];

impl Primary {
    /// The lower-case name used in sheets.
    pub fn name(self) -> &'static str {
        match self {
            Primary::Strength => "strength",
            Primary::Body => "body",
            Primary::Size => "size",
            Primary::Dexterity => "dexterity",
            Primary::Agility => "agility",
            Primary::Mind => "mind",
            Primary::Aura => "aura",
            Primary::Awareness => "awareness",
        }
    }

    /// Parses a name (any case; the first three letters are enough).
    pub fn parse(text: &str) -> Option<Primary> {
        let t = text.trim().to_ascii_lowercase();
        if t.len() < 3 {
            return None;
        }
        ALL.into_iter().find(|p| p.name().starts_with(&t))
    }

    /// Its value in `traits`.
    pub fn get(self, traits: &Traits) -> i64 {
        match self {
            Primary::Strength => traits.strength,
            Primary::Body => traits.body,
            Primary::Size => traits.size,
            Primary::Dexterity => traits.dexterity,
            Primary::Agility => traits.agility,
            Primary::Mind => traits.mind,
            Primary::Aura => traits.aura,
            Primary::Awareness => traits.awareness,
        }
    }

    /// Its value in `traits`, to change.
    pub fn get_mut(self, traits: &mut Traits) -> &mut i64 {
        match self {
            Primary::Strength => &mut traits.strength,
            Primary::Body => &mut traits.body,
            Primary::Size => &mut traits.size,
            Primary::Dexterity => &mut traits.dexterity,
            Primary::Agility => &mut traits.agility,
            Primary::Mind => &mut traits.mind,
            Primary::Aura => &mut traits.aura,
            Primary::Awareness => &mut traits.awareness,
        }
    }
}

impl fmt::Display for Primary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One term of a base: a primary trait or its reverse (`2 - trait`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// The trait.
    pub primary: Primary,
    /// `2 - trait` instead of the trait.
    pub reverse: bool,
}

/// A base formula: one term, or the average of several, rounded down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base {
    /// The terms, averaged.
    pub terms: Vec<Term>,
}

impl Base {
    /// Parses `dexterity`, `2-size` (a reverse trait), or `mind+awareness`
    /// (the average, rounded down); terms are separated by `+`.
    pub fn parse(text: &str) -> Result<Base, String> {
        let mut terms = Vec::new();
        for part in text.split('+') {
            let part = part.trim();
            let (reverse, name) = match part.strip_prefix('2') {
                Some(rest) => match rest.trim_start().strip_prefix('-') {
                    Some(name) => (true, name.trim()),
                    None => return Err(format!("{part:?} is not a trait or 2-trait")),
                },
                None => (false, part),
            };
            let primary = Primary::parse(name).ok_or_else(|| {
                format!(
                    "{name:?} is not a primary trait (strength, body, size, dexterity, agility, mind, aura, awareness)"
                )
            })?;
            terms.push(Term { primary, reverse });
        }
        if terms.len() > 8 {
            return Err("a base averages at most 8 traits".into());
        }
        Ok(Base { terms })
    }

    /// Its value for `traits`: "average traits, round ALL fractions DOWN"
    /// (RULING N-1: toward negative infinity).
    pub fn value(&self, traits: &Traits) -> i64 {
        let sum: i64 = self
            .terms
            .iter()
            .map(|t| {
                let v = t.primary.get(traits);
                if t.reverse { 2 - v } else { v }
            })
            .sum();
        sum.div_euclid(self.terms.len().max(1) as i64)
    }

    /// Whether it reads `primary` (so a change of `primary` changes it).
    pub fn uses(&self, primary: Primary) -> bool {
        self.terms.iter().any(|t| t.primary == primary)
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            if t.reverse {
                f.write_str("2-")?;
            }
            f.write_str(t.primary.name())?;
        }
        Ok(())
    }
}
