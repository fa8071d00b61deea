//! Effect rolls (magnitude and damage) and how outcomes change them.
//!
//! A pool is written as dice and a modifier, such as `1d8+4` or `2d6+1d4+3`.

use crate::error::{self, RulesError};
use nutshell_dice::Expression;
use nutshell_dice::plan::{BinOp, DiceCount, Die, NodeKind};

/// A pool of dice plus a modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// `(count, sides)` per die type, in the order written.
    pub dice: Vec<(u64, u64)>,
    /// The modifier.
    pub modifier: i64,
}

/// The step ladder of fantasy, "Modifiers, Step Changes, and Extra Dice":
/// "d3, d4, d6, d8, d12" (RULING F-9).
pub const LADDER: [u64; 5] = [3, 4, 6, 8, 12];

impl Pool {
    /// Reads a pool such as `1d8+4` (dice terms and whole numbers joined by
    /// `+` or `-`; dice may not be subtracted).
    ///
    /// ```
    /// let pool = nutshell_rules::effect::Pool::parse("1d8+4").unwrap();
    /// assert_eq!(pool.dice, vec![(1, 8)]);
    /// assert_eq!(pool.modifier, 4);
    /// ```
    pub fn parse(text: &str) -> Result<Pool, RulesError> {
        let expr = Expression::parse(text)?;
        let bad = || {
            RulesError::Invalid(format!(
                "`{text}` is not a pool of dice plus a modifier, such as `1d8+4`"
            ))
        };
        let mut pool = Pool {
            dice: Vec::new(),
            modifier: 0,
        };
        let root = expr.root();
        let terms: Vec<(BinOp, &nutshell_dice::plan::Node)> = match &root.kind {
            NodeKind::Chain(first, rest) => std::iter::once((BinOp::Add, first.as_ref()))
                .chain(rest.iter().map(|(op, n)| (*op, n)))
                .collect(),
            _ => vec![(BinOp::Add, root)],
        };
        for (op, node) in terms {
            match (&node.kind, op) {
                (NodeKind::Const(n), BinOp::Add) => {
                    pool.modifier = error::add(pool.modifier, *n, "the pool's modifier")?
                }
                (NodeKind::Const(n), BinOp::Sub) => {
                    let negated = n
                        .checked_neg()
                        .ok_or_else(|| error::overflow("the pool's modifier"))?;
                    pool.modifier = error::add(pool.modifier, negated, "the pool's modifier")?
                }
                (NodeKind::Dice(term), BinOp::Add) => {
                    let plain = term.reroll.is_none()
                        && term.explode.is_none()
                        && term.select.is_none()
                        && !term.counting.is_active()
                        && term.clamp_min.is_none()
                        && term.clamp_max.is_none();
                    match (&term.count, &term.die, plain) {
                        (DiceCount::Fixed(c), Die::Standard(s), true) => pool.dice.push((*c, *s)),
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(pool)
    }

    /// The pool in dice notation.
    pub fn notation(&self) -> String {
        let mut parts: Vec<String> = self
            .dice
            .iter()
            .filter(|(c, _)| *c > 0)
            .map(|(c, s)| format!("{c}d{s}"))
            .collect();
        if self.modifier != 0 || parts.is_empty() {
            parts.push(self.modifier.to_string());
        }
        parts.join(" + ").replace("+ -", "- ")
    }

    /// Applies `steps` step changes (positive up, negative down) to every die
    /// (RULING F-9): along d3, d4, d6, d8, d12; a step down from d3 is ignored;
    /// each step up from d12 adds +2 instead; a d10 steps up to d12 and down to
    /// d8; a d20 is never stepped. Returns notes on what happened.
    pub fn step(&mut self, steps: i64) -> Result<Vec<String>, RulesError> {
        let mut notes = Vec::new();
        if steps == 0 {
            return Ok(notes);
        }
        // The ladder has five rungs: more steps than the range can hold are
        // refused rather than wrapped (RULING N-1).
        if steps.unsigned_abs() > (i64::MAX / 4) as u64 {
            return Err(error::overflow("the step changes"));
        }
        let mut overflow = 0;
        for (_, sides) in &mut self.dice {
            let before = *sides;
            if *sides == 20 {
                notes.push("the d20 is never stepped".to_string());
                continue;
            }
            let target: i64 = match LADDER.iter().position(|&s| s == *sides) {
                Some(p) => p as i64 + steps,
                // A d10 sits between d8 and d12: one step up is d12, one down d8.
                None if *sides == 10 => {
                    if steps > 0 {
                        4 + (steps - 1)
                    } else {
                        3 + (steps + 1)
                    }
                }
                None => {
                    notes.push(format!(
                        "a d{before} is not on the step ladder and is not stepped"
                    ));
                    continue;
                }
            };
            if target < 0 {
                notes.push(format!("steps down from d3 are ignored (d{before})"));
            }
            overflow = overflow.max(target - 4);
            *sides = LADDER[target.clamp(0, 4) as usize];
            notes.push(format!("d{before} steps to d{sides}"));
        }
        let bonus = 2 * overflow.max(0);
        if bonus > 0 {
            notes.push(format!("steps up from d12 add +{bonus} instead"));
            self.modifier = error::add(self.modifier, bonus, "the pool's modifier")?;
        }
        Ok(notes)
    }

    /// Adds `n` extra dice of the largest type already in the pool (RULING
    /// F-10); the d20 never receives extra dice (RULING F-9).
    pub fn add_extra(&mut self, n: u64) -> Result<(), RulesError> {
        if n == 0 {
            return Ok(());
        }
        let largest = self
            .dice
            .iter()
            .map(|(_, s)| *s)
            .filter(|&s| s != 20)
            .max()
            .ok_or_else(|| {
                RulesError::forbidden(
                    "extra dice need a die in the pool other than a d20",
                    "fantasy, Modifiers, Step Changes, and Extra Dice",
                    "The d20 is never affected by extra dice.",
                )
            })?;
        match self.dice.iter_mut().find(|(_, s)| *s == largest) {
            Some(entry) => {
                entry.0 = entry
                    .0
                    .checked_add(n)
                    .ok_or_else(|| error::overflow("the number of dice"))?
            }
            None => self.dice.push((n, largest)),
        }
        Ok(())
    }

    /// Doubles every die and the modifier (RULING F-8: "the whole pool and
    /// every modifier are doubled").
    pub fn double(&mut self) -> Result<(), RulesError> {
        for (count, _) in &mut self.dice {
            *count = count
                .checked_mul(2)
                .ok_or_else(|| error::overflow("the number of dice"))?;
        }
        self.modifier = error::mul(self.modifier, 2, "the pool's modifier")?;
        Ok(())
    }
}

/// Rolls an effect expression with the check's dice, recording its dice.
pub fn roll_effect(
    dice: &mut crate::dice::Dice<'_>,
    expression: &str,
) -> Result<crate::outcome::EffectRoll, RulesError> {
    let expr = Expression::parse(expression)?;
    let roll = expr.roll(dice.source())?;
    for die in roll.report().dice {
        for face in die.faces {
            if face.cause != nutshell_dice::roll::transcript::FaceCause::Fixed {
                dice.rolled.push(crate::outcome::RolledDie {
                    die: die.die.clone(),
                    face: face.face,
                    purpose: "for the effect".to_string(),
                });
            }
        }
    }
    Ok(crate::outcome::EffectRoll {
        expression: expr.normalized().to_string(),
        total: roll.total,
        text: roll.render(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fantasy, "Modifiers, Step Changes, and Extra Dice"; RULING F-9.
    #[test]
    fn step_changes_follow_the_ladder() {
        let mut pool = Pool::parse("1d6+1").unwrap();
        pool.step(1).unwrap();
        assert_eq!(pool.notation(), "1d8 + 1");
        pool.step(2).unwrap();
        assert_eq!(
            pool.notation(),
            "1d12 + 3",
            "d8 -> d12, then +2 instead of a step up from d12"
        );
        let mut pool = Pool::parse("1d3").unwrap();
        pool.step(-2).unwrap();
        assert_eq!(pool.notation(), "1d3", "steps down from d3 are ignored");
        let mut pool = Pool::parse("1d10").unwrap();
        pool.step(1).unwrap();
        assert_eq!(pool.notation(), "1d12");
        let mut pool = Pool::parse("1d10").unwrap();
        pool.step(-1).unwrap();
        assert_eq!(pool.notation(), "1d8");
        let mut pool = Pool::parse("1d20+2").unwrap();
        pool.step(1).unwrap();
        assert_eq!(pool.notation(), "1d20 + 2", "the d20 is never stepped");
    }

    /// RULING F-10: "Extra dice without a named type are of the largest type
    /// already in the pool."
    #[test]
    fn extra_dice_are_of_the_largest_type() {
        let mut pool = Pool::parse("1d8+1d4+2").unwrap();
        pool.add_extra(2).unwrap();
        assert_eq!(pool.notation(), "3d8 + 1d4 + 2");
        let mut d20 = Pool::parse("1d20").unwrap();
        assert!(
            d20.add_extra(1)
                .unwrap_err()
                .to_string()
                .contains("never affected by extra dice")
        );
    }

    /// RULING F-8: "`1d8+4` with 2 extra dice becomes `6d8+8`."
    #[test]
    fn critical_doubling_comes_after_extra_dice() {
        let mut pool = Pool::parse("1d8+4").unwrap();
        pool.add_extra(2).unwrap();
        pool.double().unwrap();
        assert_eq!(pool.notation(), "6d8 + 8");
    }

    #[test]
    fn pools_are_dice_and_a_modifier() {
        assert_eq!(Pool::parse("2d6-1").unwrap().notation(), "2d6 - 1");
        assert!(Pool::parse("2d6!").is_err());
        assert!(Pool::parse("1d6*2").is_err());
        assert!(Pool::parse("3 - 1d6").is_err());
    }
}
