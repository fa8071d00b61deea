//! Time costs of actions (mls, *Time and Motion*, *Time Costs of Actions*) as
//! data, with a lookup.

use serde::Serialize;

/// The unit an action costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Movement points.
    MovementPoint,
    /// Whole turns.
    Turn,
    /// Combat actions: "an allowed attack - the attack is converted to the
    /// action required".
    CombatAction,
}

/// How the cost grows with an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// A fixed cost.
    Fixed,
    /// One unit per 2 magic points expended "or part thereof" (rounded up).
    PerTwoMagicPoints,
    /// One unit per half metre climbed.
    PerHalfMetre,
}

/// One action of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Action {
    /// A short key for the lookup.
    pub key: &'static str,
    /// The text's words.
    pub text: &'static str,
    /// Units (per step of the scale).
    pub cost: i64,
    /// The unit.
    pub unit: Unit,
    /// How it scales.
    pub scale: Scale,
    /// A roll it may need.
    pub roll: Option<&'static str>,
}

const fn fixed(
    key: &'static str,
    text: &'static str,
    cost: i64,
    unit: Unit,
    roll: Option<&'static str>,
) -> Action {
    Action {
        key,
        text,
        cost,
        unit,
        scale: Scale::Fixed,
        roll,
    }
}

/// The table, in the text's order.
pub const ACTIONS: [Action; 10] = [
    fixed(
        "open-door",
        "Open an unlocked door",
        1,
        Unit::MovementPoint,
        None,
    ),
    fixed(
        "open-door-quietly",
        "Quietly open an unlocked door",
        1,
        Unit::Turn,
        Some("Stealth roll may be required"),
    ),
    fixed("close-door", "Close a door", 1, Unit::MovementPoint, None),
    fixed(
        "close-door-quietly",
        "Quietly close a door",
        1,
        Unit::Turn,
        Some("Stealth roll may be required"),
    ),
    fixed(
        "move-and-search",
        "Move into a square and search a wall on one edge, OR the floor, OR the ceiling",
        1,
        Unit::Turn,
        Some("Search roll required"),
    ),
    fixed(
        "search",
        "Within the current square, search a wall on one edge, OR the floor, OR the ceiling",
        1,
        Unit::Turn,
        Some("Search roll required"),
    ),
    Action {
        key: "cast-offensive",
        text: "Cast an offensive spell: 1 combat action per 2 magic points expended or part thereof. May be done over a series of Turns",
        cost: 1,
        unit: Unit::CombatAction,
        scale: Scale::PerTwoMagicPoints,
        roll: None,
    },
    Action {
        key: "cast-other",
        text: "Cast any other spell: 1 Turn per 2 magic points expended or part thereof",
        cost: 1,
        unit: Unit::Turn,
        scale: Scale::PerTwoMagicPoints,
        roll: None,
    },
    Action {
        key: "climb-ladder",
        text: "Climb a ladder within a square: 1 movement point per half metre",
        cost: 1,
        unit: Unit::MovementPoint,
        scale: Scale::PerHalfMetre,
        roll: None,
    },
    fixed(
        "switch",
        "Flick a switch, push a button or pull a lever",
        1,
        Unit::CombatAction,
        None,
    ),
];

/// The amounts an action that scales takes: magic points (a caster has at
/// most [`crate::bounds::MAGIC_POINTS`]) or half metres climbed. Bounded so
/// that no cost overflows (RULING N-1).
pub const AMOUNT: std::ops::RangeInclusive<i64> = 1..=10_000;

/// Finds an action by key.
pub fn find(key: &str) -> Option<&'static Action> {
    ACTIONS.iter().find(|a| a.key == key)
}

/// The time an action takes: `amount` is the magic points expended or the
/// half metres climbed (ignored for fixed costs). `Err` for an unknown key or
/// a missing amount.
pub fn cost(key: &str, amount: Option<i64>) -> Result<(i64, Unit), String> {
    let a = find(key).ok_or_else(|| {
        let keys: Vec<&str> = ACTIONS.iter().map(|a| a.key).collect();
        format!("{key:?} is not an action: {}", keys.join(", "))
    })?;
    let n = match a.scale {
        Scale::Fixed if amount.is_some() => {
            return Err(format!(
                "{}: its cost is fixed, so it takes no amount (--amount is for casting and climbing)",
                a.key
            ));
        }
        Scale::Fixed => 1,
        Scale::PerTwoMagicPoints | Scale::PerHalfMetre => {
            let amount = amount.ok_or_else(|| {
                format!(
                    "{}: give the amount (magic points or half metres), {} to {}",
                    a.key,
                    AMOUNT.start(),
                    AMOUNT.end()
                )
            })?;
            if !AMOUNT.contains(&amount) {
                return Err(format!(
                    "{}: the amount {amount} is outside {}..{} (magic points or half metres)",
                    a.key,
                    AMOUNT.start(),
                    AMOUNT.end()
                ));
            }
            if a.scale == Scale::PerTwoMagicPoints {
                (amount + 1) / 2
            } else {
                amount
            }
        }
    };
    Ok((a.cost * n, a.unit))
}
