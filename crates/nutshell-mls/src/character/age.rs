//! An age (`Age`): kept in months, written in sheets as years, so that an
//! Ork's 9-month increments are exact.

use super::race;
use serde::{Deserialize, Serialize};
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
