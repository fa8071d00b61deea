//! The racial table (mls, *Racial Differences*) as data: base age, age
//! increment and the ages at which a primary trait is reduced.
//!
//! Ages are kept in months so that an Ork's 9-month increment and its
//! thresholds of 28½ and 43½ years are exact.

use serde::{Deserialize, Serialize};

/// A race of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Race {
    /// Human.
    Human,
    /// Elf or Halfling (one row of the table).
    #[serde(alias = "elf", alias = "halfling")]
    ElfOrHalfling,
    /// Dwarf or Gnome (one row of the table).
    #[serde(alias = "dwarf", alias = "gnome")]
    DwarfOrGnome,
    /// Ork.
    #[serde(alias = "orc")]
    Ork,
    /// Goblin.
    Goblin,
}

/// One row of the racial table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaceRow {
    /// The race.
    pub race: Race,
    /// Its name as the table spells it.
    pub name: &'static str,
    /// Base Age, in months: the age of a starting character with 60 CPs.
    pub base_age: i64,
    /// Age Increment, in months.
    pub increment: i64,
    /// The ages (months) of the first four reductions: the table's "-1 trait"
    /// to "-4 traits" columns. Later ones follow every 10 increments.
    pub reductions: [i64; 4],
}

const fn years(y: i64) -> i64 {
    y * 12
}

/// The table, row by row, as the rule text prints it.
pub const RACES: [RaceRow; 5] = [
    RaceRow {
        race: Race::Human,
        name: "Human",
        base_age: years(18),
        increment: 12,
        reductions: [years(40), years(50), years(60), years(70)],
    },
    RaceRow {
        race: Race::ElfOrHalfling,
        name: "Elf or Halfling",
        base_age: years(25),
        increment: 48,
        reductions: [years(113), years(153), years(193), years(233)],
    },
    RaceRow {
        race: Race::DwarfOrGnome,
        name: "Dwarf or Gnome",
        base_age: years(40),
        increment: 60,
        reductions: [years(150), years(200), years(250), years(300)],
    },
    RaceRow {
        race: Race::Ork,
        name: "Ork",
        base_age: years(12),
        increment: 9,
        reductions: [years(28) + 6, years(36), years(43) + 6, years(51)],
    },
    RaceRow {
        race: Race::Goblin,
        name: "Goblin",
        base_age: years(8),
        increment: 6,
        reductions: [years(19), years(24), years(29), years(34)],
    },
];

/// Increments after the base age at which CP income drops to 1 and the first
/// primary trait is reduced: "until Base Age + 22 increments".
pub const FULL_INCOME_INCREMENTS: i64 = 22;
/// The second reduction: "+32 increments (50 human years)".
pub const SECOND_REDUCTION_INCREMENTS: i64 = 32;
/// Later reductions: "every 10 increments thereafter".
pub const REDUCTION_EVERY: i64 = 10;
/// The oldest starting character, in increments after the base age: "PCs must
/// begin no younger than 18 and no older than 54" (36 human years; P-42).
pub const MAX_START_INCREMENTS: i64 = 36;

impl Race {
    /// Its row of the table.
    pub fn row(self) -> &'static RaceRow {
        match self {
            Race::Human => &RACES[0],
            Race::ElfOrHalfling => &RACES[1],
            Race::DwarfOrGnome => &RACES[2],
            Race::Ork => &RACES[3],
            Race::Goblin => &RACES[4],
        }
    }

    /// The racial average of every primary trait. The text gives only the
    /// human one ("all average 2 for humans"; "All stats given are for
    /// humans"), so every race averages 2 (RULING P-40).
    pub fn average(self) -> i64 {
        2
    }

    /// Parses a race as a player types it.
    pub fn parse(text: &str) -> Option<Race> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" => Some(Race::Human),
            "elf" | "halfling" | "elf-or-halfling" | "elf or halfling" => Some(Race::ElfOrHalfling),
            "dwarf" | "gnome" | "dwarf-or-gnome" | "dwarf or gnome" => Some(Race::DwarfOrGnome),
            "ork" | "orc" => Some(Race::Ork),
            "goblin" => Some(Race::Goblin),
            _ => None,
        }
    }
}

impl RaceRow {
    /// Whole increments completed at `age` (months) since the base age
    /// (negative when younger).
    pub fn increments_at(&self, age: i64) -> i64 {
        (age - self.base_age).div_euclid(self.increment)
    }

    /// The age (months) after `n` increments.
    pub fn age_after(&self, n: i64) -> i64 {
        self.base_age + n * self.increment
    }

    /// The age (months) of the `k`-th reduction of a primary trait (k from 1):
    /// Base Age + 22, + 32, then every 10 increments.
    pub fn reduction_age(&self, k: i64) -> i64 {
        let n = match k {
            1 => FULL_INCOME_INCREMENTS,
            _ => SECOND_REDUCTION_INCREMENTS + (k - 2) * REDUCTION_EVERY,
        };
        self.age_after(n)
    }

    /// How many reductions are due by `age` (months).
    pub fn reductions_by(&self, age: i64) -> i64 {
        let mut k = 0;
        while self.reduction_age(k + 1) <= age {
            k += 1;
        }
        k
    }

    /// The youngest and oldest starting ages (months).
    pub fn start_ages(&self) -> (i64, i64) {
        (self.base_age, self.age_after(MAX_START_INCREMENTS))
    }
}

/// An age in months as years, with a fraction where needed ("28½").
impl RaceRow {
    /// The race's name with its article: "a Human", "an Ork", "an Elf or Halfling".
    pub fn a(&self) -> String {
        let vowel = self
            .name
            .starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']);
        format!("{} {}", if vowel { "an" } else { "a" }, self.name)
    }
}

/// An age in months as years ("18", "28½").
pub fn show_age(months: i64) -> String {
    let (y, m) = (months.div_euclid(12), months.rem_euclid(12));
    match m {
        0 => y.to_string(),
        6 => format!("{y}½"),
        _ => format!("{y} years {m} months"),
    }
}
