//! The fifteen personality trait pairs (mls, *Personality Traits*): each pair
//! always adds up to 20, so a sheet gives one trait of each pair and the other
//! is 20 minus it.

/// "Personality Traits are Chaste/Lustful, Temperate/Indulgent, ...": the
/// pairs in the text's order.
pub const PAIRS: [(&str, &str); 15] = [
    ("chaste", "lustful"),
    ("temperate", "indulgent"),
    ("forgiving", "vengeful"),
    ("honest", "deceitful"),
    ("generous", "greedy"),
    ("kind", "selfish"),
    ("consistent", "arbitrary"),
    ("lawful", "chaotic"),
    ("merciful", "cruel"),
    ("modest", "proud"),
    ("conservative", "worldly"),
    ("cautious", "reckless"),
    ("trusting", "suspicious"),
    ("valorous", "cowardly"),
    ("persistent", "irresolute"),
];

/// "Opposing traits are in pairs and always add up to 20."
pub const PAIR_SUM: i64 = 20;
/// A trait of 16 or more is Noticeable (mls, *Behaviour*).
pub const NOTICEABLE: i64 = 16;

/// Where a trait sits: its pair and side (0 left, 1 right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TraitId {
    /// Index into [`PAIRS`].
    pub pair: usize,
    /// 0 for the first name of the pair, 1 for the second.
    pub side: usize,
}

impl TraitId {
    /// Finds a trait by name (any case).
    pub fn parse(name: &str) -> Option<TraitId> {
        let n = name.trim().to_ascii_lowercase();
        PAIRS.iter().enumerate().find_map(|(pair, (a, b))| {
            if *a == n {
                Some(TraitId { pair, side: 0 })
            } else if *b == n {
                Some(TraitId { pair, side: 1 })
            } else {
                None
            }
        })
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        let (a, b) = PAIRS[self.pair];
        if self.side == 0 { a } else { b }
    }

    /// The opposing trait.
    pub fn opposite(self) -> TraitId {
        TraitId {
            pair: self.pair,
            side: 1 - self.side,
        }
    }
}

/// The values of all fifteen pairs, by the first trait of each pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Personality {
    /// The first trait of each pair; the second is 20 minus it.
    pub left: [i64; 15],
}

impl Default for Personality {
    fn default() -> Personality {
        Personality { left: [10; 15] }
    }
}

impl Personality {
    /// A trait's value.
    pub fn get(&self, id: TraitId) -> i64 {
        let v = self.left[id.pair];
        if id.side == 0 { v } else { PAIR_SUM - v }
    }

    /// Sets a trait; its opposite becomes 20 minus it.
    pub fn set(&mut self, id: TraitId, value: i64) {
        self.left[id.pair] = if id.side == 0 {
            value
        } else {
            PAIR_SUM - value
        };
    }

    /// Every trait with its value, both sides of each pair.
    pub fn all(&self) -> impl Iterator<Item = (TraitId, i64)> + '_ {
        (0..15).flat_map(move |pair| {
            (0..2).map(move |side| {
                let id = TraitId { pair, side };
                (id, self.get(id))
            })
        })
    }

    /// Fate Points the traits give at generation: one for each trait at 16 or
    /// 17, two for a trait at 18 (mls, *Fate Points*). (3d6 gives at most 18
    /// and a rolled 3 leaves its opposite at 17, so no trait starts above 18.)
    pub fn fate_points(&self) -> i64 {
        self.all()
            .map(|(_, v)| match v {
                16 | 17 => 1,
                18 => 2,
                _ => 0,
            })
            .sum()
    }
}
