//! Opposed rolls: "Re-roll ties on opposed rolls." (exploding-d6, Success
//! (S); RULING X-6)

use super::{Check, ID, RULE_OPPOSED, series};
use crate::dice::Dice;
use crate::error::RulesError;
use crate::odds::OutcomeOdds;
use crate::outcome::{CheckResult, ContestResult, Experience, Outcome, RolledDie, Step};
use num_rational::BigRational;
use num_traits::One;
use nutshell_dice::DiceSource;

/// The names of the two sides in transcripts and experience.
const SIDES: [&str; 2] = ["side A", "side B"];

/// Two characters' opposed rolls: the higher Result wins; a tie is re-rolled
/// by both until broken (RULING X-6). A botch is the lowest possible result:
/// it loses to any Result, and two botches are a tie (project ruling P-6).
/// Each botch, in any round, gives its character 1 experience point
/// (exploding-d6, Botch (1)).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contest {
    /// Side A.
    pub first: Check,
    /// Side B.
    pub second: Check,
}

impl Contest {
    /// Rolls both sides, re-rolling ties (within the dice limit).
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
        let checks = [&self.first, &self.second];
        let bonuses = [self.first.bonus()?, self.second.bonus()?];
        let mut dice = Dice::new(source);
        let mut owner: Vec<usize> = Vec::new();
        let mut botches = [0i64; 2];
        let mut transcript = Vec::new();
        for round in 1.. {
            if round > 1 {
                transcript.push(Step::new(RULE_OPPOSED, format!("re-roll {}", round - 1)));
            }
            let mut values = [None, None];
            let mut results = [None, None];
            for side in 0..2 {
                let roll = checks[side].roll_d6(&mut dice, SIDES[side])?;
                owner.resize(dice.rolled.len(), side);
                transcript.extend(roll.steps);
                if roll.value.is_none() {
                    botches[side] += 1;
                }
                values[side] = roll.value;
                results[side] = match roll.value {
                    Some(v) => Some(crate::error::add(v, bonuses[side], "the Result")?),
                    None => None,
                };
            }
            let shown = |r: Option<i64>| r.map_or("botch".to_string(), |r| r.to_string());
            transcript.push(Step::new(
                RULE_OPPOSED,
                format!("Results: A {}, B {}", shown(results[0]), shown(results[1])),
            ));
            if results[0] == results[1] {
                transcript.push(Step::new(RULE_OPPOSED, "a tie: both re-roll"));
                continue;
            }
            // None (a botch) orders below every Result.
            let a_wins = results[0] > results[1];
            transcript.push(Step::new(
                RULE_OPPOSED,
                format!(
                    "the higher Result wins: side {}",
                    if a_wins { "A" } else { "B" }
                ),
            ));
            let mut per_side: [Vec<RolledDie>; 2] = [Vec::new(), Vec::new()];
            for (die, side) in dice.rolled.into_iter().zip(owner) {
                per_side[side].push(die);
            }
            let [dice_a, dice_b] = per_side;
            let side = |k: usize, won: bool, dice: Vec<RolledDie>| CheckResult {
                ruleset: ID,
                outcome: match results[k] {
                    None => Outcome::Botch,
                    Some(_) if won => Outcome::Success,
                    _ => Outcome::Failure,
                },
                total: results[k],
                natural: values[k],
                difficulty: None,
                margin: None,
                dice,
                transcript: Vec::new(),
                effect: None,
                experience: if botches[k] > 0 {
                    vec![Experience::new(SIDES[k], botches[k])]
                } else {
                    Vec::new()
                },
            };
            return Ok(ContestResult {
                ruleset: ID,
                winner: if a_wins { "first" } else { "second" },
                sides: vec![side(0, a_wins, dice_a), side(1, !a_wins, dice_b)],
                transcript,
            });
        }
        unreachable!("the loop returns when a tie is broken")
    }

    /// The exact probability of each side winning, with no explosion limit.
    /// Ties are re-rolled, so P(A wins) = P(A > B) / (1 - P(tie)), and the
    /// chances of chains of 6s are summed in closed form ([`series`]).
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let (a_beats_b, tie) = series::compare(self.first.bonus()?, self.second.bonus()?)?;
        let decided = BigRational::one() - &tie;
        let first = &a_beats_b / &decided;
        let second = BigRational::one() - &first;
        Ok(OutcomeOdds::named(
            ID,
            vec![("second".to_string(), second), ("first".to_string(), first)],
        ))
    }
}
