//! Which combat rounds a character attacks in (mls, *Combat Rounds*;
//! RULING M-4), and how delaying and rushing move those attacks (mls,
//! *Delaying Attacks*, *Rushing Attacks*).

/// The rounds of a turn: "Turns are broken into five Combat Rounds".
pub const ROUNDS: usize = 5;

/// The number of attacks a skill gives in a turn: half the skill rounded
/// down, at most five (RULING M-4).
///
/// ```
/// assert_eq!(nutshell_mls::schedule::attacks(7), 3);
/// assert_eq!(nutshell_mls::schedule::attacks(14), 5);
/// ```
pub fn attacks(skill: i64) -> usize {
    (skill.max(0) / 2).min(ROUNDS as i64) as usize
}

/// The rounds (1..=5) of a number of attacks: "One attack: 3rd, Two attacks:
/// 2nd and 4th, Three attacks: 1st, 3rd and 5th, Four attacks: 1st, 2nd, 4th
/// and 5th, and Five attacks all rounds."
///
/// ```
/// assert_eq!(nutshell_mls::schedule::rounds(3), vec![1, 3, 5]);
/// ```
pub fn rounds(attacks: usize) -> Vec<usize> {
    match attacks {
        0 => vec![],
        1 => vec![3],
        2 => vec![2, 4],
        3 => vec![1, 3, 5],
        4 => vec![1, 2, 4, 5],
        _ => vec![1, 2, 3, 4, 5],
    }
}

/// One scheduled attack: its round and its modifier to hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attack {
    /// The round, 1..=5.
    pub round: usize,
    /// +n for an attack delayed n rounds, -2 for a rushed one, else 0.
    pub modifier: i64,
}

/// A turn's attacks: at most one in each round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Schedule {
    slots: [Option<i64>; ROUNDS],
}

impl Schedule {
    /// No attacks.
    pub fn none() -> Schedule {
        Schedule::default()
    }

    /// The attacks of a skill, as RULING M-4 places them.
    pub fn for_skill(skill: i64) -> Schedule {
        Schedule::from_rounds(&rounds(attacks(skill)))
    }

    /// Attacks in exactly these rounds (1..=5; others are ignored).
    pub fn from_rounds(rounds: &[usize]) -> Schedule {
        let mut s = Schedule::none();
        for &r in rounds {
            if (1..=ROUNDS).contains(&r) {
                s.slots[r - 1] = Some(0);
            }
        }
        s
    }

    /// Delays the first attack by `by` rounds for +`by` to hit: "If an attack
    /// is delayed then all future attacks are also moved forward the same
    /// number of rounds, but without the bonus. Any attack that moves beyond
    /// the 5th round is lost." (mls, *Delaying Attacks*)
    ///
    /// ```
    /// use nutshell_mls::schedule::Schedule;
    /// let s = Schedule::for_skill(6).delayed(1); // 1st, 3rd, 5th -> 2nd (+1), 4th
    /// assert_eq!(s.rounds(), vec![2, 4]);
    /// assert_eq!(s.modifier(2), Some(1));
    /// ```
    pub fn delayed(self, by: usize) -> Schedule {
        if by == 0 {
            return self;
        }
        let mut out = Schedule::none();
        let mut first = true;
        for (i, slot) in self.slots.iter().enumerate() {
            if let Some(m) = slot {
                let to = i + by;
                if to < ROUNDS {
                    out.slots[to] = Some(if first { m + by as i64 } else { *m });
                }
                first = false;
            }
        }
        out
    }

    /// Rushes the first attack one round early at -2: "This does not affect
    /// future attacks, and cannot be done more than 1 round in advance." An
    /// attack already in the 1st round, or one whose earlier round holds an
    /// attack, cannot be rushed; the schedule is then unchanged.
    pub fn rushed(self) -> Schedule {
        let mut out = self;
        if let Some(i) = self.slots.iter().position(Option::is_some)
            && i > 0
            && self.slots[i - 1].is_none()
        {
            out.slots[i - 1] = self.slots[i].map(|m| m - 2);
            out.slots[i] = None;
        }
        out
    }

    /// Whether there is an attack in `round` (1..=5).
    pub fn has(&self, round: usize) -> bool {
        self.modifier(round).is_some()
    }

    /// The attack's modifier in `round`, if there is one.
    pub fn modifier(&self, round: usize) -> Option<i64> {
        round
            .checked_sub(1)
            .and_then(|i| self.slots.get(i))
            .copied()
            .flatten()
    }

    /// The rounds with an attack, ascending.
    pub fn rounds(&self) -> Vec<usize> {
        (1..=ROUNDS).filter(|&r| self.has(r)).collect()
    }

    /// The attacks, in round order.
    pub fn attacks(&self) -> Vec<Attack> {
        (1..=ROUNDS)
            .filter_map(|r| {
                self.modifier(r)
                    .map(|modifier| Attack { round: r, modifier })
            })
            .collect()
    }

    /// Removes the attack in `round` (spent, or not allowed).
    pub fn remove(&mut self, round: usize) {
        if let Some(slot) = round.checked_sub(1).and_then(|i| self.slots.get_mut(i)) {
            *slot = None;
        }
    }
}
