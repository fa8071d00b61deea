//! What damage does to a combatant: CHP against THP, shock rolls,
//! unconsciousness, death, certain death, Fate Points and minor NPCs (mls,
//! *CHP*, *Unconsciousness*, *Death*, *Certain Death*, *Minors*; RULING M-7).

/// What a combatant's new CHP calls for, after damage was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threshold {
    /// Nothing: CHP is at least half THP.
    Unhurt,
    /// A shock roll; failure: unconscious for 15 minus the score in turns.
    /// Major: CHP below 50% THP; minor: CHP at 50% THP or below.
    ShockOrUnconscious,
    /// Major, CHP below 0: a shock roll; failure: dead (a Fate Point makes it a
    /// success); success: unconscious until the end of the fight.
    ShockOrDeath,
    /// Major, CHP below -50% THP: dead, no roll (a Fate Point removes the damage).
    CertainDeath,
    /// Minor, CHP at 0 or below: effectively dead.
    MinorDead,
}

/// The threshold a CHP of `chp` out of `thp` has reached (RULING M-7).
/// Halves are compared exactly: 7 is below 50% of 15, and at 50% of 14.
///
/// ```
/// use nutshell_mls::health::{threshold, Threshold};
/// assert_eq!(threshold(false, 7, 14), Threshold::Unhurt);
/// assert_eq!(threshold(true, 7, 14), Threshold::ShockOrUnconscious);
/// assert_eq!(threshold(false, -8, 14), Threshold::CertainDeath);
/// ```
pub fn threshold(minor: bool, chp: i64, thp: i64) -> Threshold {
    if minor {
        // "Minor NPCs must make Shock Rolls when they fall TO 50% (rather than
        // below), and are considered effectively dead when they fall TO 0 CHP."
        if chp <= 0 {
            Threshold::MinorDead
        } else if 2 * chp <= thp {
            Threshold::ShockOrUnconscious
        } else {
            Threshold::Unhurt
        }
    } else if 2 * chp < -thp {
        Threshold::CertainDeath
    } else if chp < 0 {
        Threshold::ShockOrDeath
    } else if 2 * chp < thp {
        Threshold::ShockOrUnconscious
    } else {
        Threshold::Unhurt
    }
}

/// Turns unconscious after a failed shock roll with total `score`: "a number
/// of Turns equal to 15 minus the score", at least one (a natural 3 can fail
/// with a score of 15 or more).
pub fn unconscious_turns(score: i64) -> u32 {
    (15 - score).clamp(1, 1000) as u32
}

/// A combatant's state in a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// On its feet and fighting.
    Standing,
    /// Unconscious: for this many more turns, or (`None`) until the end of the fight.
    Unconscious(Option<u32>),
    /// Dead (or, for a minor NPC, effectively dead).
    Dead,
    /// Fled and got away.
    Escaped,
}

impl State {
    /// The name used in logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            State::Standing => "standing",
            State::Unconscious(_) => "unconscious",
            State::Dead => "dead",
            State::Escaped => "escaped",
        }
    }
}
