//! The range of every number a sheet, a side or a file of choices holds, in
//! one place. RULING N-1: "Overflow is an error, never a wrap": rather than
//! check every sum the rules make (Dam + Strength, twice Agl + 1, a base's
//! average, a ledger's balance), every number is held to a range when the
//! file is read, wide enough for any creature the rules describe and small
//! enough that no sum of them leaves the 64-bit range. A value outside its
//! range is refused with the key the file wrote, its line and the range.
//!
//! | number | range |
//! |---|---|
//! | primary traits (`traits.strength`, ...) | [`PRIMARY`] |
//! | skills, and scores a character's traits make | [`SKILL`] |
//! | levels of secondary, occupation and negative traits | [`LEVEL`] |
//! | the Shock trait | [`SHOCK`] |
//! | THP; CHP and `break_off_below` | [`THP`]; [`HIT_POINTS`] |
//! | Dam, armour and shield values | [`DAM`] |
//! | ranges, positions | [`SQUARES`], [`POSITION`] |
//! | magic points (`tmp`, a spell's `mp`) | [`MAGIC_POINTS`] |
//! | personality traits | [`PERSONALITY`] |
//! | CPs, florins, favour, a ledger entry's CPs and values | [`POINTS`] |
//!
//! ```
//! use nutshell_mls::sheet::Side;
//! let e = Side::parse("hero.toml", "name = \"Hero\"\nthp = 10\n[traits]\nstrength = 9223372036854775807\n").unwrap_err();
//! assert_eq!(e.to_string(), "hero.toml: line 4: traits.strength: 9223372036854775807 is outside -100..100, the range of a primary trait");
//! ```

use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// One number's range and its name in errors.
#[derive(Debug, Clone)]
pub struct Bound {
    /// The values allowed.
    pub range: RangeInclusive<i64>,
    /// What the number is, for errors ("a primary trait").
    pub what: &'static str,
}

impl Bound {
    /// `value`, or why it is refused: "`value` is outside lo..hi, the range
    /// of what".
    pub fn check(&self, value: i64) -> Result<i64, String> {
        if self.range.contains(&value) {
            Ok(value)
        } else {
            Err(format!(
                "{value} is outside {}..{}, the range of {}",
                self.range.start(),
                self.range.end(),
                self.what
            ))
        }
    }

    fn read<'de, D: Deserializer<'de>>(&self, d: D) -> Result<i64, D::Error> {
        self.check(i64::deserialize(d)?)
            .map_err(serde::de::Error::custom)
    }
}

/// Primary traits: "all average 2 for humans"; the racial table's
/// averages lie from -2 to 6.
pub const PRIMARY: Bound = Bound {
    range: -100..=100,
    what: "a primary trait",
};
/// Skills (a sheet's `skills`, and what a character's traits make).
pub const SKILL: Bound = Bound {
    range: -100..=100,
    what: "a skill",
};
/// Levels of secondary, occupation and negative traits, relative to base.
pub const LEVEL: Bound = Bound {
    range: -100..=100,
    what: "a level relative to base",
};
/// The Shock trait.
pub const SHOCK: Bound = Bound {
    range: -100..=100,
    what: "the Shock trait",
};
/// Total Hit Points.
pub const THP: Bound = Bound {
    range: 1..=10_000,
    what: "hit points",
};
/// Current hit points and thresholds of them (`chp`, `break_off_below`).
pub const HIT_POINTS: Bound = Bound {
    range: -10_000..=10_000,
    what: "hit points",
};
/// Dam, armour and shield values.
pub const DAM: Bound = Bound {
    range: 0..=1000,
    what: "a Dam or armour value",
};
/// A weapon's range in squares.
pub const SQUARES: Bound = Bound {
    range: 1..=10_000,
    what: "a range in squares",
};
/// Squares behind a side's line.
pub const POSITION: Bound = Bound {
    range: 0..=10_000,
    what: "squares behind the side's line",
};
/// Magic points (`tmp`).
pub const MAGIC_POINTS: Bound = Bound {
    range: 0..=10_000,
    what: "magic points",
};
/// Personality traits (the rules keep each pair 0..20; this range only
/// keeps their sums exact, and `check` reports the rule).
pub const PERSONALITY: Bound = Bound {
    range: -1000..=1000,
    what: "a personality trait",
};
/// Character Points, florins, favour, Fate Points bought, and a ledger
/// entry's CPs and values.
pub const POINTS: Bound = Bound {
    range: -1_000_000_000..=1_000_000_000,
    what: "points",
};

macro_rules! reader {
    ($bound:ident, $one:ident, $option:ident) => {
        #[doc = concat!("Reads one number within [`", stringify!($bound), "`] (serde's `deserialize_with`).")]
        pub fn $one<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
            $bound.read(d)
        }
        #[doc = concat!("Reads a number within [`", stringify!($bound), "`], or none.")]
        pub fn $option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
            struct Within(i64);
            impl<'de> Deserialize<'de> for Within {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Within, D::Error> {
                    $bound.read(d).map(Within)
                }
            }
            Ok(Option::<Within>::deserialize(d)?.map(|w| w.0))
        }
    };
}

reader!(PRIMARY, primary, primary_option);
reader!(LEVEL, level, level_option);
reader!(SHOCK, shock, shock_option);
reader!(HIT_POINTS, hit_points, hit_points_option);
reader!(MAGIC_POINTS, magic_points, magic_points_option);
reader!(POINTS, points, points_option);

/// Reads personality traits by name, each within [`PERSONALITY`].
pub fn personality<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, i64>, D::Error> {
    struct Within(i64);
    impl<'de> Deserialize<'de> for Within {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Within, D::Error> {
            PERSONALITY.read(d).map(Within)
        }
    }
    Ok(BTreeMap::<String, Within>::deserialize(d)?
        .into_iter()
        .map(|(k, v)| (k, v.0))
        .collect())
}
