//! What everything costs in Character Points, as the rule text prices it.
//! Each function quotes its rule; `rules` holds the quotes used in errors.

/// The rules, quoted, for errors and the ledger.
pub mod rules {
    /// mls, Character Generation, Primary Traits.
    pub const PRIMARY_COST: &str = "mls, Character Generation, Primary Traits: \"Primary Trait at Racial Average +1 costs 2 CPs, +2 costs 5 CPs. RAv-1 yields 3 CPs, -2 yields 7 CPs.\"";
    /// mls, Character Generation, Primary Traits: the +2 limit.
    pub const PLUS_TWO: &str = "mls, Character Generation, Primary Traits: \"May have up to 2 traits at +2, with one extra for each trait reduced below RAv. If 40 or older only 1 trait may be at +2, if 50 or older no trait may be at +2 (traits reduced still increase these limits).\"";
    /// mls, Character Generation, Primary Traits: the budget.
    pub const BUDGET: &str = "mls, Character Generation, Primary Traits: \"Players have 60 CPs with which to construct an 18-year-old character, +2 CPs per year after that (for humans).\"";
    /// mls, Character Generation, Primary Traits: starting age.
    pub const START_AGE: &str = "mls, Character Generation, Primary Traits: \"PCs must begin no younger than 18 and no older than 54.\"";
    /// mls, Character Generation, Occupation.
    pub const OCCUPATION: &str = "mls, Character Generation, Occupation: \"Choose Occupation, which acts as a Package Skill. This is at Base Level automatically, and costs double the costs of single skills.\"";
    /// mls, Character Generation, Secondary Traits: costs.
    pub const SECONDARY_COST: &str = "mls, Character Generation, Secondary Traits: \"Trained and Natural skills cost 1CP for base, 3CPs for base+1, 6CPs for base+2, 10CPs for base+3, and 15 CPs for base+4. Inherent skills cost 1CP less than these.\"";
    /// mls, Character Generation, Secondary Traits: availability.
    pub const SECONDARY_AVAILABLE: &str = "mls, Character Generation, Secondary Traits: \"Without acquiring them Secondary Traits are not available if Trained, available at base-2 if Natural, and available at base if Inherent.\"";
    /// mls, Character Generation, Negative Traits.
    pub const NEGATIVE: &str = "mls, Character Generation, Negative Traits: \"Negative traits can be acquired yielding CPs at the same rate as the cost for a Trained skill.\"";
    /// mls, Character Generation, Fate Points.
    pub const FATE_POINTS: &str = "mls, Character Generation, Fate Points: \"The character begins with a number of Fate Points equal to the number of personality traits at 16 or 17. A trait at 18 provides two Fate Points. Extra Fate Points may be bought at a cost of 5 CPs each.\"";
    /// mls, Character Generation, Total Hit Points.
    pub const THP: &str = "mls, Character Generation, Total Hit Points (THP): \"Uses a base of Size+Body-2. This is the number of d6s rolled. THP equals the roll OR the base x3, whichever is the greater.\"";
    /// mls, Character Generation, Total Magic Points.
    pub const TMP: &str = "mls, Character Generation, Total Magic Points (TMP): \"Calculated for those that require it and uses a base of Aura. It is otherwise calculated as per THP.\"";
    /// mls, Character Generation, Personality Traits.
    pub const PERSONALITY: &str = "mls, Character Generation, Personality Traits: \"May be chosen as desired from 5 to 15, the opposing trait must be 20 minus this. Up to 5 traits may be at 16/4. Opposing traits are in pairs and always add up to 20. Alternatively a player may roll 3d6 for a trait and take the value rolled\"";
    /// mls, Character Generation, Limits: primary traits.
    pub const LIMIT_PRIMARY: &str = "mls, Character Generation, Limits: \"No Primary Trait may ever naturally exceed the RAv+2, or drop below the RAv-2.\"";
    /// mls, Character Generation, Limits: secondary and negative traits.
    pub const LIMIT_SECONDARY: &str = "mls, Character Generation, Limits: \"No Secondary Trait or Negative trait may begin above base+4, or through play rise above base+6.\"";
    /// mls, Character Generation, Limits: personality.
    pub const LIMIT_PERSONALITY: &str = "mls, Character Generation, Limits: \"No Personality Trait may every rise above 20 or drop below 0, and the total of pairs always adds up to 20.\"";
    /// mls, Character Advancement, Character Points.
    pub const YEARLY: &str = "mls, Character Advancement, Character Points: \"A character receives 2 CPs per year up until the age of 40, after which only 1 CP is received.\"";
    /// mls, Racial Differences: the increment.
    pub const INCREMENT: &str = "mls, Racial Differences: \"Every time this period is completed the character gets 2 CPs, until Base Age + 22 increments, after which 1 CP is gained each increment.\"";
    /// mls, Character Advancement, Adventures.
    pub const ADVENTURE: &str = "mls, Character Advancement, Adventures: \"Minor Adventure: Minor Role 1 CP, Major Role 1d3 CPs. Average Adventure: Minor Role 1d3 CPs, Major Role 1d6 CPs. Major Adventure: Minor Role 1d6 CPs, Major Role 1d10 CPs.\"";
    /// mls, Character Advancement, Secondary Traits.
    pub const SECONDARY_ADVANCE: &str = "mls, Character Advancement, Secondary Traits: \"a cost of 1 CP to acquire at base, 2 CPs to go from base to +1, 3 CPs to go from +1 to +2, 4 CPs to go from +2 to +3, 5 CPs to go from +3 to +4, 6 CPs to go from +4 to +5 and 7 CPs to go from +5 to +6. Secondary traits may never rise above base +6. Traits may never be increased by more than one level each year through CPs.\"";
    /// mls, Character Advancement, Decrease Negative Traits.
    pub const NEGATIVE_DECREASE: &str = "mls, Character Advancement, Decrease Negative Traits: \"A Negative trait may be decreased from +4 to +3 at a cost of 5 CPs, +3 to +2 at a cost of 4 CPs, +2 to +1 at a cost of 3 CPs, +1 to base at a cost of 2 CPs, and removed from base level at a cost of 1 CP. Traits may never be decreased by more than one level each year through CPs.\"";
    /// mls, Character Advancement, Increase a Personality Trait.
    pub const PERSONALITY_INCREASE: &str = "mls, Character Advancement, Increase a Personality Trait: \"by one level to 15 or less at a cost of 1 CP, by one level to 16 or 17 at a cost of 5 CPs, and by one level to 18 or 19 at a cost of 10 CPs. Personality traits may NOT be increased to 20 by CPs. Each Personality trait may not be increased by more that one level each year through CPs.\"";
    /// mls, Character Advancement, Training Up an Attribute.
    pub const TRAINING: &str = "mls, Character Advancement, Training Up an Attribute: \"At a cost of 5 CPs one Primary Trait (and all Secondary traits based on it) may be temporarily increased by one level. This lasts for one year ... Traits may be increased to RAv+3. A trait cannot be increased by more than one level, and no more than one trait can be so increased at any time.\"";
    /// mls, Character Advancement, Acquiring Money.
    pub const MONEY: &str = "mls, Character Advancement, Acquiring Money: \"a character may convert CPs to money at a rate of 1d20 x 10 florins per CP\"";
    /// mls, Character Advancement, Prayer.
    pub const PRAYER: &str = "mls, Character Advancement, Prayer: \"A character with a Priest magic skill can spend his time in fervent prayer, and convert CPs to favor points at a rate of 5 favor points per CP.\"";
    /// mls, Character Advancement, Checks on Secondary Traits.
    pub const SECONDARY_CHECK: &str = "mls, Character Advancement, Checks on Secondary Traits: \"After an adventure is completed the player may roll 1d8 for each Secondary trait that has received a check. If the result is high enough the trait goes up one level. No more than one roll may be made per trait\"";
    /// mls, Character Advancement, Checks on Personality Traits.
    pub const PERSONALITY_CHECK: &str = "mls, Character Advancement, Checks on Personality Traits: \"After each adventure the player rolls 1d20 on every Personality trait that has been checked. If the roll is higher than the trait then it goes up by 1, the opposing trait is reduced by 1. ... Rolls may be made in any order the player wishes, and the result of each roll does affect future rolls.\"";
    /// mls, Character Advancement, Effects of Age.
    pub const AGEING: &str = "mls, Character Advancement, Effects of Age: \"When a character reaches the age of 40 he must reduce one Primary trait (and all Secondary traits based on it) except Size by one level. Every ten years after this he must do this again (it may be the same trait). Reductions may never fall below the racial average -2.\"";
    /// mls, Behaviour.
    pub const BEHAVIOUR: &str = "mls, Behaviour: \"If a character has a Personality Trait of 15 or less he may behave as he wishes. If the trait is 16 or higher it is Noticeable, and the player must roll higher than the trait on 1d20 if he wishes him to behave otherwise (an automatic check on the opposing trait if it succeeds).\"";
}

/// The citation of a quoted rule: the part before its quote ("mls,
/// Character Generation, Primary Traits").
pub fn cite(rule: &str) -> &str {
    rule.split_once(": \"").map(|(c, _)| c).unwrap_or(rule)
}

/// Starting CPs at the base age: "Players have 60 CPs".
pub const START_CPS: i64 = 60;
/// CPs per increment until Base Age + 22 increments, then 1.
pub const INCOME_YOUNG: i64 = 2;
/// CPs per increment after Base Age + 22 increments.
pub const INCOME_OLD: i64 = 1;
/// "Extra Fate Points may be bought at a cost of 5 CPs each."
pub const FATE_POINT_COST: i64 = 5;
/// "At a cost of 5 CPs one Primary Trait ... may be temporarily increased".
pub const TRAINING_COST: i64 = 5;
/// "5 favor points per CP".
pub const FAVOUR_PER_CP: i64 = 5;
/// "1d20 x 10 florins per CP": the die and the multiplier.
pub const FLORINS_DIE: u64 = 20;
/// The multiplier of the 1d20.
pub const FLORINS_PER_FACE: i64 = 10;

/// The CPs a primary trait at `offset` from the racial average costs
/// (negative: it yields CPs): +1 costs 2, +2 costs 5, -1 yields 3, -2 yields 7.
/// `None` outside -2..=+2.
pub fn primary(offset: i64) -> Option<i64> {
    match offset {
        -2 => Some(-7),
        -1 => Some(-3),
        0 => Some(0),
        1 => Some(2),
        2 => Some(5),
        _ => None,
    }
}

/// How a secondary trait is had without acquiring it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Not available until acquired.
    Trained,
    /// Available at base-2 until acquired.
    Natural,
    /// Available at base.
    Inherent,
}

impl Kind {
    /// The level (relative to base) it is had at without acquiring it; `None`
    /// for a Trained trait (not available).
    pub fn unacquired(self) -> Option<i64> {
        match self {
            Kind::Trained => None,
            Kind::Natural => Some(-2),
            Kind::Inherent => Some(0),
        }
    }
}

/// The generation cost of a secondary trait at `level` (base = 0): 1, 3, 6,
/// 10, 15 for Trained and Natural, 1 less for Inherent. `None` above +4 or
/// below base. A Natural trait left at base-2 is not bought (cost 0).
pub fn secondary(kind: Kind, level: i64) -> Option<i64> {
    let trained = match level {
        0 => 1,
        1 => 3,
        2 => 6,
        3 => 10,
        4 => 15,
        _ => return None,
    };
    Some(match kind {
        Kind::Inherent => trained - 1,
        _ => trained,
    })
}

/// The occupation's cost at `level`: "double the costs of single skills" (a
/// Trained skill's costs, doubled; RULING P-43).
pub fn occupation(level: i64) -> Option<i64> {
    secondary(Kind::Trained, level).map(|c| 2 * c)
}

/// The CPs a negative trait at `level` yields at generation: the Trained
/// costs, 1, 3, 6, 10, 15.
pub fn negative(level: i64) -> Option<i64> {
    secondary(Kind::Trained, level)
}

/// The CP cost in play of raising a secondary trait to `level` from the level
/// below: 1 to acquire at base, then 2, 3, 4, 5, 6, 7 up to +6.
pub fn secondary_step(level: i64) -> Option<i64> {
    match level {
        0..=6 => Some(level + 1),
        _ => None,
    }
}

/// The CP cost in play of decreasing a negative trait from `level` by one (a
/// negative trait at base is removed, level `None` after): +4 to +3 costs 5,
/// +3 to +2 4, +2 to +1 3, +1 to base 2, removal from base 1.
pub fn negative_decrease(level: i64) -> Option<i64> {
    match level {
        0..=4 => Some(level + 1),
        _ => None,
    }
}

/// The CP cost of raising a personality trait by one level to `to`: 1 up to
/// 15, 5 to 16 or 17, 10 to 18 or 19; never to 20 (`None`).
pub fn personality_step(to: i64) -> Option<i64> {
    match to {
        1..=15 => Some(1),
        16 | 17 => Some(5),
        18 | 19 => Some(10),
        _ => None,
    }
}

/// The die rolled for the CPs of an adventure, or a fixed 1 (`None`).
pub fn adventure(size: Adventure, role: Role) -> Option<u64> {
    match (size, role) {
        (Adventure::Minor, Role::Minor) => None,
        (Adventure::Minor, Role::Major) => Some(3),
        (Adventure::Average, Role::Minor) => Some(3),
        (Adventure::Average, Role::Major) => Some(6),
        (Adventure::Major, Role::Minor) => Some(6),
        (Adventure::Major, Role::Major) => Some(10),
    }
}

/// The kind of adventure completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adventure {
    /// "e.g. guard a caravan, go on a goblin hunt".
    Minor,
    /// "e.g. rescue a princess, slay a monster, acquire a powerful item".
    Average,
    /// "e.g. save the world, rescue a kingdom".
    Major,
}

/// The character's role in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A minor role.
    Minor,
    /// A major role.
    Major,
}

/// The lowest 1d8 roll that raises a secondary trait from `level` (the
/// table of *Checks on Secondary Traits*): -2 needs 2, base 3, +1 4, +2 5,
/// +3 6, +4 7, +5 8; `None` at +6 (and at levels the table lacks).
pub fn check_needs(level: i64) -> Option<i64> {
    match level {
        -2 => Some(2),
        0..=5 => Some(level + 3),
        _ => None,
    }
}

/// The level a successful check raises `level` to: -2 goes to base.
pub fn check_raises_to(level: i64) -> i64 {
    if level == -2 { 0 } else { level + 1 }
}
