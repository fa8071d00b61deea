//! Where a blow lands and what covers it: hit locations with their aiming
//! penalties and required scores (mls, *Aiming a Shot*; RULING M-8), armour
//! coverage (mls, *Armor*; RULING M-6) and armour by location (mls, *Armor
//! Effect*).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hit location. An attack that is not aimed lands on the chest: "Aiming a
/// shot or a spell is normally regarded as at the centre of mass (i.e. the
/// Chest)."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Location {
    /// The head.
    Head,
    /// The face.
    Face,
    /// The neck or throat.
    #[serde(alias = "throat")]
    Neck,
    /// The chest: the centre of mass, where unaimed attacks land.
    #[default]
    Chest,
    /// The abdomen.
    Abdomen,
    /// An arm.
    Arm,
    /// A leg.
    Leg,
    /// A wrist.
    Wrist,
}

impl Location {
    /// Every location.
    pub const ALL: [Location; 8] = [
        Location::Head,
        Location::Face,
        Location::Neck,
        Location::Chest,
        Location::Abdomen,
        Location::Arm,
        Location::Leg,
        Location::Wrist,
    ];

    /// The penalty to the roll and the score required to hit this location
    /// when aiming at it (RULING M-8): "Head -3 17+, Face -3 18+, Abdomen -1
    /// 16+, Leg -2, 17+, Arm -2 17+, Neck or Throat -3, 19+, Wrist -4, 17+".
    /// `None` for the chest, which needs no aim.
    ///
    /// ```
    /// use nutshell_mls::body::Location;
    /// assert_eq!(Location::Neck.aim(), Some((-3, 19)));
    /// assert_eq!(Location::Chest.aim(), None);
    /// ```
    pub fn aim(self) -> Option<(i64, i64)> {
        match self {
            Location::Head => Some((-3, 17)),
            Location::Face => Some((-3, 18)),
            Location::Abdomen => Some((-1, 16)),
            Location::Leg => Some((-2, 17)),
            Location::Arm => Some((-2, 17)),
            Location::Neck => Some((-3, 19)),
            Location::Wrist => Some((-4, 17)),
            Location::Chest => None,
        }
    }

    /// The name, as files and logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Location::Head => "head",
            Location::Face => "face",
            Location::Neck => "neck",
            Location::Chest => "chest",
            Location::Abdomen => "abdomen",
            Location::Arm => "arm",
            Location::Leg => "leg",
            Location::Wrist => "wrist",
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where an aimed attack lands, given its total (the aiming penalty already
/// applied): "If a success is rolled but less than the required number then a
/// normal hit occurs" (on the chest).
///
/// ```
/// use nutshell_mls::body::{landing, Location};
/// assert_eq!(landing(Location::Head, 17), Location::Head);
/// assert_eq!(landing(Location::Head, 16), Location::Chest);
/// ```
pub fn landing(aimed: Location, total: i64) -> Location {
    match aimed.aim() {
        Some((_, required)) if total < required => Location::Chest,
        _ => aimed,
    }
}

/// Armour coverage: "Armor has a numerical value and a coverage which is
/// Partial, Full, Encased or Total."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Ignored by a critical.
    Partial,
    /// Ignored by a natural 18.
    Full,
    /// Lowered by up to half the attacker's Dam on a natural 18.
    Encased,
    /// Never ignored.
    Total,
}

impl Coverage {
    /// The name, as files and logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Coverage::Partial => "partial",
            Coverage::Full => "full",
            Coverage::Encased => "encased",
            Coverage::Total => "total",
        }
    }
}

/// How the hit that meets the armour was rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HitKind {
    /// A critical (after any reduction by the defender's own critical).
    pub critical: bool,
    /// A natural 18 that decided the roll.
    pub natural_18: bool,
}

/// The armour value that counts against a hit (RULING M-6): "A Critical
/// against Partial armor ignores armor, as does a natural 18 against Full
/// Armor. A natural 18 against Encased armor ignores up to half the Dam rating
/// in armor." Total armour is never ignored. `dam` is the attacker's Dam
/// rating before any critical doubling (project ruling P-15).
///
/// ```
/// use nutshell_mls::body::{effective_armour, Coverage, HitKind};
/// let n18 = HitKind { critical: true, natural_18: true };
/// assert_eq!(effective_armour(6, Coverage::Encased, n18, 8), 2);
/// assert_eq!(effective_armour(6, Coverage::Full, n18, 8), 0);
/// assert_eq!(effective_armour(6, Coverage::Total, n18, 8), 6);
/// ```
pub fn effective_armour(value: i64, coverage: Coverage, hit: HitKind, dam: i64) -> i64 {
    let natural_18 = hit.natural_18;
    let critical = hit.critical || natural_18;
    match coverage {
        Coverage::Partial if critical => 0,
        Coverage::Full if natural_18 => 0,
        Coverage::Encased if natural_18 => (value - dam.max(0) / 2).max(0),
        _ => value,
    }
}
