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

    /// Delays the first attack by `by` rounds for +`by` to hit (see
    /// [`Schedule::delay_attack`]).
    ///
    /// ```
    /// use nutshell_mls::schedule::Schedule;
    /// let s = Schedule::for_skill(6).delayed(1); // 1st, 3rd, 5th -> 2nd (+1), 4th
    /// assert_eq!(s.rounds(), vec![2, 4]);
    /// assert_eq!(s.modifier(2), Some(1));
    /// ```
    pub fn delayed(self, by: usize) -> Schedule {
        self.delay_attack(0, by)
    }

    /// Delays the `k`-th attack of the turn (0 for the first) by `by` rounds
    /// for +`by` to hit: "A character may delay an attack by one round and
    /// gain +1 to his chance to hit ... If an attack is delayed then all future
    /// attacks are also moved forward the same number of rounds, but without
    /// the bonus. Any attack that moves beyond the 5th round is lost." (mls,
    /// *Delaying Attacks*) Attacks before the `k`-th stay where they are.
    ///
    /// ```
    /// use nutshell_mls::schedule::Schedule;
    /// // Skill 10: every round. Delaying the 3rd attack by 1: 1, 2, 4 (+1), 5.
    /// let s = Schedule::for_skill(10).delay_attack(2, 1);
    /// assert_eq!(s.rounds(), vec![1, 2, 4, 5]);
    /// assert_eq!((s.modifier(4), s.modifier(5)), (Some(1), Some(0)));
    /// ```
    pub fn delay_attack(self, k: usize, by: usize) -> Schedule {
        if by == 0 {
            return self;
        }
        let mut out = Schedule::none();
        for (n, (i, m)) in self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| slot.map(|m| (i, m)))
            .enumerate()
        {
            if n < k {
                out.slots[i] = Some(m);
                continue;
            }
            let to = i + by;
            if to < ROUNDS {
                out.slots[to] = Some(if n == k { m + by as i64 } else { m });
            }
        }
        out
    }

    /// Rushes the first attack (see [`Schedule::rush_attack`]); an attack that
    /// cannot be rushed leaves the schedule unchanged.
    pub fn rushed(self) -> Schedule {
        self.rush_attack(0).unwrap_or(self)
    }

    /// Rushes the `k`-th attack (0 for the first) one round early at -2: "A
    /// character may perform an attack 1 round in advance, at a penalty of -2
    /// to his roll. This does not affect future attacks, and cannot be done
    /// more than 1 round in advance." (mls, *Rushing Attacks*) An attack in
    /// the 1st round, or one whose earlier round holds an attack, cannot be
    /// rushed: the error says why.
    ///
    /// ```
    /// use nutshell_mls::schedule::Schedule;
    /// let s = Schedule::for_skill(6); // 1st, 3rd, 5th
    /// assert_eq!(s.rush_attack(1).unwrap().rounds(), vec![1, 2, 5]);
    /// assert!(s.rush_attack(0).is_err()); // already in the 1st round
    /// ```
    pub fn rush_attack(self, k: usize) -> Result<Schedule, String> {
        let Some(i) = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.is_some())
            .map(|(i, _)| i)
            .nth(k)
        else {
            return Err(format!("there is no attack {} this turn", k + 1));
        };
        if i == 0 {
            return Err(format!(
                "attack {} is in the 1st round: there is no earlier round",
                k + 1
            ));
        }
        if self.slots[i - 1].is_some() {
            return Err(format!(
                "attack {} is in round {}, and round {} already holds an attack",
                k + 1,
                i + 1,
                i
            ));
        }
        let mut out = self;
        out.slots[i - 1] = self.slots[i].map(|m| m - 2);
        out.slots[i] = None;
        Ok(out)
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
