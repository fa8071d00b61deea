//! Damage from a Dam rating (mls, *Damage*; RULING M-5), through armour and
//! shield (mls, *Armor*, *Shields*; RULING M-6), rolled or as an exact
//! distribution.

use crate::body::{Coverage, HitKind, effective_armour};
use crate::dice::Dice;
use crate::error::FightError;
use nutshell_dice::{Distribution, Expression};

/// A hit's damage before protection: the Dam rating, whether a critical
/// doubles it, and whether the attacker is a minor NPC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Damage {
    /// The Dam rating, after any Strength added by a total attack.
    pub dam: i64,
    /// "A Critical roll doubles the attacker's Dam."
    pub critical: bool,
    /// "Minor NPCs do this number of damage points if they hit."
    pub minor: bool,
}

/// What stands between a hit and the body: the armour on the location hit,
/// and a shield that blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Protection {
    /// The armour covering the location hit: value and coverage.
    pub armour: Option<(i64, Coverage)>,
    /// The armour value of a shield that blocked ("a successful but losing
    /// roll means that the shield has blocked the attack").
    pub shield: Option<i64>,
}

impl Damage {
    /// The Dam the roll uses: doubled by a critical.
    pub fn effective_dam(&self) -> i64 {
        if self.critical {
            self.dam.saturating_mul(2)
        } else {
            self.dam
        }
    }

    /// The dice rolled for it (RULING M-5): "1d6 for every 4 points of Dam,
    /// plus an extra 1d3 if there are 2 or 3 extra points of Dam". `(d6s, d3)`.
    ///
    /// ```
    /// use nutshell_mls::damage::Damage;
    /// let d = Damage { dam: 11, critical: false, minor: false };
    /// assert_eq!(d.dice(), (2, true));
    /// ```
    pub fn dice(&self) -> (i64, bool) {
        let d = self.effective_dam().max(0);
        (d / 4, d % 4 >= 2)
    }

    /// The damage as dice notation, before protection: `max(2d6 + 1d3, 11)`,
    /// or the plain Dam for a minor NPC.
    pub fn expression(&self) -> String {
        let d = self.effective_dam();
        if self.minor {
            return d.to_string();
        }
        let (d6, d3) = self.dice();
        let dice = match (d6, d3) {
            (0, false) => "0".to_string(),
            (0, true) => "1d3".to_string(),
            (n, false) => format!("{n}d6"),
            (n, true) => format!("{n}d6 + 1d3"),
        };
        format!("max({dice}, {d})")
    }

    /// Rolls the damage before protection: "Damage done is the roll or the
    /// Dam, whichever is greater." Returns the damage and the faces rolled.
    pub fn roll(&self, dice: &mut Dice<'_>) -> Result<(i64, Vec<i64>), FightError> {
        let d = self.effective_dam();
        if self.minor {
            return Ok((d, Vec::new()));
        }
        let (d6, d3) = self.dice();
        if d6 > 10_000 {
            return Err(FightError::Invalid(format!(
                "Dam {d} would roll {d6}d6: more than 10000 dice"
            )));
        }
        let mut faces = Vec::with_capacity(d6 as usize + 1);
        for _ in 0..d6 {
            faces.push(dice.die(6, &|| "for damage".to_string())?);
        }
        if d3 {
            faces.push(dice.die(3, &|| "for damage".to_string())?);
        }
        Ok((faces.iter().sum::<i64>().max(d), faces))
    }
}

impl Protection {
    /// The points this protection takes off a hit of `dam` rolled as `hit`
    /// (RULING M-6): the armour as the hit leaves it, plus the shield unless a
    /// natural 18 ignores it ("Shields are ignored").
    pub fn absorbs(&self, hit: HitKind, dam: i64) -> i64 {
        let armour = self
            .armour
            .map(|(value, coverage)| effective_armour(value, coverage, hit, dam))
            .unwrap_or(0);
        let shield = if hit.natural_18 {
            0
        } else {
            self.shield.unwrap_or(0)
        };
        armour + shield
    }
}

/// A hit through protection, as a whole: what the damage roll and the armour
/// make of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The damage before protection.
    pub damage: Damage,
    /// How it was rolled (critical, natural 18).
    pub kind: HitKind,
    /// What stands in the way.
    pub protection: Protection,
}

impl Hit {
    /// The points protection takes off.
    pub fn absorbed(&self) -> i64 {
        self.protection.absorbs(self.kind, self.damage.dam)
    }

    /// The damage done as dice notation: `max(max(2d6 + 1d3, 11) - 3, 0)`:
    /// "The value of the armor is subtracted from the damage done", never
    /// below 0.
    pub fn expression(&self) -> String {
        let absorbed = self.absorbed();
        let before = self.damage.expression();
        if absorbed == 0 {
            before
        } else {
            format!("max({before} - {absorbed}, 0)")
        }
    }

    /// The exact distribution of the damage done, from the exact engine.
    ///
    /// ```
    /// use nutshell_mls::damage::{Damage, Hit, Protection};
    /// use nutshell_mls::body::HitKind;
    /// let hit = Hit {
    ///     damage: Damage { dam: 8, critical: false, minor: false },
    ///     kind: HitKind::default(),
    ///     protection: Protection::default(),
    /// };
    /// // max(2d6, 8): 8 or more, 8 with probability 21/36.
    /// let dist = hit.distribution()?;
    /// assert_eq!(dist.range(), Some((8, 12)));
    /// # Ok::<(), nutshell_mls::FightError>(())
    /// ```
    pub fn distribution(&self) -> Result<Distribution, FightError> {
        let expr =
            Expression::parse(&self.expression()).map_err(|e| FightError::Engine(e.to_string()))?;
        expr.distribution()
            .map_err(|e| FightError::Engine(e.to_string()))
    }

    /// Rolls the damage done: `(before protection, done, faces)`.
    pub fn roll(&self, dice: &mut Dice<'_>) -> Result<(i64, i64, Vec<i64>), FightError> {
        let (before, faces) = self.damage.roll(dice)?;
        Ok((before, (before - self.absorbed()).max(0), faces))
    }
}
