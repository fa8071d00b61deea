//! The fight's log: what happened, turn by turn and round by round, with the
//! rule behind each line.

use serde::Serialize;

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Line {
    /// The turn (1-based; each side's turn counts as one).
    pub turn: u32,
    /// The round (1..=5), or 0 for the movement phase and the end of a turn.
    pub round: usize,
    /// What happened.
    pub text: String,
    /// The rule applied, as `mls, Heading` and/or a ruling id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The faces of the dice this line rolled, in order (none for most lines).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<i64>,
    /// On a battle map: where the combatants this line moved or turned now
    /// stand, so a viewer can replay the fight on the map.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<Placement>,
    /// On a battle map: the doors this line opened, by square.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opened: Vec<String>,
    /// On a battle map: the doors this line closed, by square.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<String>,
}

/// Where a combatant stands on a battle map after a line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// The combatant's name.
    pub name: String,
    /// Its square, such as `E5`.
    pub square: String,
    /// The side of the square it faces: `north`, `east`, `south` or `west`.
    pub facing: &'static str,
    /// `standing`, `unconscious`, `dead` or `escaped`.
    pub state: &'static str,
}

/// Rule citations used in the log.
pub mod rule {
    /// Set actions.
    pub const SET_ACTIONS: &str = "mls, Set Actions";
    /// Turn order.
    pub const TURN_ORDER: &str = "mls, Party Turns and Turn Order";
    /// Movement.
    pub const MOVEMENT: &str = "mls, 1. Movement";
    /// Attacks per skill.
    pub const ROUNDS: &str = "mls, Combat Rounds (RULING M-4)";
    /// Close combat.
    pub const CLOSE: &str = "mls, Close Combat";
    /// Normal attacks, one against several.
    pub const NORMAL: &str = "mls, Normal Attacks";
    /// Defensive rounds.
    pub const DEFENSIVE: &str = "mls, Defensive Rounds";
    /// Shields.
    pub const SHIELDS: &str = "mls, Shields (RULING M-6)";
    /// Opposed rolls: both critical.
    pub const OPPOSED: &str = "mls, Opposed Rolls (RULING M-3)";
    /// Natural 18s.
    pub const NATURAL_18: &str = "mls, Natural 18s (RULING M-2)";
    /// Natural 3s.
    pub const NATURAL_3: &str = "mls, Natural 3s (RULING M-2)";
    /// Damage.
    pub const DAMAGE: &str = "mls, Damage (RULING M-5)";
    /// Armour.
    pub const ARMOUR: &str = "mls, Armor (RULING M-6)";
    /// Shock and unconsciousness.
    pub const UNCONSCIOUS: &str = "mls, Unconsciousness (RULING M-7)";
    /// Death.
    pub const DEATH: &str = "mls, Death (RULING M-7)";
    /// Certain death.
    pub const CERTAIN_DEATH: &str = "mls, Certain Death (RULING M-7)";
    /// Minor NPCs.
    pub const MINORS: &str = "mls, Minors (RULING M-7)";
    /// Shooting.
    pub const SHOOTING: &str = "mls, Shooting";
    /// Range.
    pub const RANGE: &str = "mls, Range (RULING M-9)";
    /// Aiming.
    pub const AIMING: &str = "mls, Aiming a Shot (RULING M-8)";
    /// Reloading.
    pub const RELOADING: &str = "mls, Reloading";
    /// Preparing spells.
    pub const PREPARING: &str = "mls, Preparing Spells";
    /// Full-turn actions take effect at the turn's end.
    pub const TURN_ACTIONS: &str = "mls, 3. Turn Actions";
    /// Spells spend magic points.
    pub const MAGIC_POINTS: &str = "mls, Total Magic Points (TMP)";
    /// Total attack.
    pub const TOTAL_ATTACK: &str = "mls, Total Attack";
    /// Total defence.
    pub const TOTAL_DEFENCE: &str = "mls, Total Defence";
    /// Foregoing.
    pub const FOREGO: &str = "mls, Foregoing Attacks";
    /// Delaying.
    pub const DELAY: &str = "mls, Delaying Attacks";
    /// Rushing.
    pub const RUSH: &str = "mls, Rushing Attacks";
    /// Breaking off.
    pub const BREAK_OFF: &str = "mls, Breaking Off";
    /// Charge.
    pub const CHARGE: &str = "mls, Charge";
    /// Move and shoot.
    pub const MOVE_AND_SHOOT: &str = "mls, Move and Shoot";
    /// Flee.
    pub const FLEE: &str = "mls, Flee!";
    /// Pursue.
    pub const PURSUE: &str = "mls, Pursue";
    /// Following up a total attack.
    pub const FOLLOW_UP: &str = "mls, Following Up a Total Attack";
    /// Who may shoot.
    pub const WHO_MAY_SHOOT: &str = "mls, Who May Shoot";
    /// Fate points.
    pub const FATE: &str = "mls, Death (a Fate Point; RULING M-7)";
    /// Squares and facings on a battle map.
    pub const MAP: &str = "mls, Forward Movement";
    /// Movement on the map: forward, turning, diagonal, sideways, backwards.
    pub const MAP_MOVEMENT: &str =
        "mls, 1. Movement; Forward, Diagonal, Sideways and Rearward Movement";
    /// A Fight action's step and free turn.
    pub const FIGHTING_MOVEMENT: &str = "mls, Fighting Movement";
    /// A person's decision with no choice left: the rules decide (P-89).
    pub const DECISIONS: &str = "mls, Set Actions (RULING P-89)";
    /// The square in front; a free turn to face an attacker.
    pub const WHO_MAY_ATTACK: &str = "mls, Who May Attack (P-67)";
    /// Moving into a fallen opponent's square.
    pub const KILLING: &str = "mls, Killing an Opponent";
    /// Every shot of a turn into one arc.
    pub const CLOSE_TARGETS: &str = "mls, Close Targets";
    /// Closing a door.
    pub const CLOSE_DOOR: &str = "mls, Time Costs of Actions (close a door)";
    /// Spells only into the Forward arc.
    pub const WHO_MAY_CAST: &str = "mls, Who May Cast";
}
