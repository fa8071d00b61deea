//! The exploding-d6 rules (002): `[d6 roll + Score ± Modifiers] = Result`
//! against a Difficulty `#`.
//!
//! Citations: "Difficulty (#)", "Success (S)", "Rote Actions", "Cooperation",
//! "Fail (F)", "Explode (6)", "Botch (1)"; RULINGS X-1..X-6.

use crate::dice::Dice;
use crate::error::RulesError;
use crate::odds::{self, OutcomeOdds};
use crate::outcome::{CheckResult, ContestResult, Outcome, Step};
use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::{DiceSource, Expression, Limits};

/// The ruleset id.
pub const ID: &str = "exploding-d6";

const RULE_RESULT: &str = "exploding-d6, Success (S) (RULING X-1)";
const RULE_EXPLODE: &str = "exploding-d6, Explode (6) (RULING X-2)";
const RULE_BOTCH: &str = "exploding-d6, Botch (1) (RULING X-3)";
const RULE_ROTE: &str = "exploding-d6, Rote Actions (RULING X-4)";
const RULE_COOP: &str = "exploding-d6, Cooperation (RULING X-5)";
const RULE_OPPOSED: &str = "exploding-d6, Success (S) (RULING X-6)";

/// One character's roll.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// The Trait, Instinct or Skill score.
    pub score: i64,
    /// Modifiers, summed.
    pub modifier: i64,
    /// The Difficulty `#`.
    pub difficulty: i64,
    /// The character can take their time (a rote action succeeds without a roll
    /// when Score + Modifiers >= #).
    pub rote: bool,
    /// Helpers' Score + Modifiers, for cooperation: everyone rolls, the best
    /// Result is used, unless anyone botches.
    pub helpers: Vec<i64>,
    /// Most explosions of one die (the engine's limit by default).
    pub max_explosions: u32,
}

/// The d6 roll of one character: the dice and what they make.
#[derive(Debug, Clone, PartialEq, Eq)]
struct D6Roll {
    /// The d6 roll (the sum of exploded dice), or None for a botch.
    value: Option<i64>,
    steps: Vec<Step>,
    limit_reached: bool,
}

impl Check {
    fn explosions(&self) -> u32 {
        if self.max_explosions == 0 {
            Limits::default().max_repeats_per_die
        } else {
            self.max_explosions
        }
    }

    /// Rolls the d6 (with its botch check and explosions) for `who`.
    fn roll_d6(&self, dice: &mut Dice<'_>, who: &str) -> Result<D6Roll, RulesError> {
        let mut steps = Vec::new();
        let first = dice.roll(6, &format!("for {who}"))?;
        if first == 1 {
            let check = dice.roll(6, &format!("botch check for {who}"))?;
            if check == 1 {
                steps.push(Step::new(RULE_BOTCH, format!("{who}: a 1, and the botch check is another 1: a botch (+1 experience point)")));
                return Ok(D6Roll {
                    value: None,
                    steps,
                    limit_reached: false,
                });
            }
            steps.push(Step::new(
                RULE_BOTCH,
                format!("{who}: a 1, the botch check shows {check}: the d6 roll is just 1"),
            ));
            return Ok(D6Roll {
                value: Some(1),
                steps,
                limit_reached: false,
            });
        }
        let mut total = first;
        let mut last = first;
        let mut explosions = 0;
        let mut limit_reached = false;
        while last == 6 {
            if explosions == self.explosions() {
                limit_reached = true;
                steps.push(Step::new(
                    RULE_EXPLODE,
                    format!("{who}: the explosion limit of {explosions} is reached"),
                ));
                break;
            }
            last = dice.roll(6, &format!("explosion for {who}"))?;
            explosions += 1;
            total += last;
            steps.push(Step::new(RULE_EXPLODE, format!("{who}: a 6 explodes: rolled {last}, the d6 roll is now {total} (bonus dice do not botch)")));
        }
        Ok(D6Roll {
            value: Some(total),
            steps,
            limit_reached,
        })
    }

    /// Resolves the roll (and every helper's) with dice from `source`.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        let mut dice = Dice::new(source);
        let mut transcript = Vec::new();
        let base = self.score + self.modifier;
        if self.rote && self.helpers.is_empty() {
            if base >= self.difficulty {
                transcript.push(Step::new(
                    RULE_ROTE,
                    format!("Score + Modifiers = {base} >= # {}, and there is time: success without a roll", self.difficulty),
                ));
                return Ok(self.result(Outcome::Success, None, Some(base), dice, transcript, None));
            }
            transcript.push(Step::new(
                RULE_ROTE,
                format!(
                    "Score + Modifiers = {base} < # {}: no rote success, roll",
                    self.difficulty
                ),
            ));
        }
        let mut rollers = vec![("the roller".to_string(), base)];
        for (i, h) in self.helpers.iter().enumerate() {
            rollers.push((format!("helper {}", i + 1), *h));
        }
        let mut best: Option<(i64, i64)> = None; // (result, natural)
        let mut botched = false;
        for (who, bonus) in &rollers {
            let roll = self.roll_d6(&mut dice, who)?;
            transcript.extend(roll.steps);
            match roll.value {
                None => botched = true,
                Some(v) => {
                    let result = v + bonus;
                    transcript.push(Step::new(
                        RULE_RESULT,
                        format!("{who}: d6 roll {v} + {bonus} = Result {result}"),
                    ));
                    if best.is_none_or(|(b, _)| result > b) {
                        best = Some((result, v));
                    }
                }
            }
        }
        if botched {
            if rollers.len() > 1 {
                transcript.push(Step::new(
                    RULE_COOP,
                    "someone botched: the group's roll is the botch",
                ));
            }
            transcript.push(Step::new(
                RULE_BOTCH,
                "a botch is a failure, and the character gains 1 experience point",
            ));
            return Ok(self.result(Outcome::Botch, Some(1), None, dice, transcript, Some(1)));
        }
        let (result, natural) = best.expect("someone rolled");
        if rollers.len() > 1 {
            transcript.push(Step::new(
                RULE_COOP,
                format!("the best Result is used: {result}"),
            ));
        }
        let outcome = if result >= self.difficulty {
            Outcome::Success
        } else {
            Outcome::Failure
        };
        transcript.push(Step::new(
            RULE_RESULT,
            format!(
                "Result {result} {} # {}: {} (margin {})",
                if outcome.succeeded() { ">=" } else { "<" },
                self.difficulty,
                outcome.id(),
                result - self.difficulty
            ),
        ));
        Ok(self.result(outcome, Some(natural), Some(result), dice, transcript, None))
    }

    fn result(
        &self,
        outcome: Outcome,
        natural: Option<i64>,
        total: Option<i64>,
        dice: Dice<'_>,
        transcript: Vec<Step>,
        experience: Option<i64>,
    ) -> CheckResult {
        CheckResult {
            ruleset: ID,
            outcome,
            total,
            natural,
            difficulty: Some(self.difficulty),
            margin: total.map(|t| t - self.difficulty),
            dice: dice.rolled,
            transcript,
            effect: None,
            experience,
        }
    }

    /// The d6 roll's distribution: P(botch), and the exploding d6 value given
    /// no botch (as a sub-distribution; its missing mass is the tail). Values
    /// at or above `cap` are merged into `cap`, which needs no tail.
    fn d6_odds(&self, cap: Option<i64>) -> Result<D6Odds, RulesError> {
        let limits = Limits {
            max_repeats_per_die: self.explosions(),
            ..Limits::default()
        };
        let expr = Expression::parse_with("1d6!", &limits)?;
        let dist = match cap {
            Some(c) => expr.distribution_capped(c.max(1))?,
            None => expr.distribution()?,
        };
        // A first face of 1 (probability 1/6) is a botch when the check die is
        // also 1: 1/36 botch, 5/36 a d6 roll of 1.
        let botch = odds::ratio(1, 36);
        let values = dist
            .outcomes()
            .iter()
            .map(|(v, _)| {
                let p = dist.probability(*v);
                if *v == 1 { (1, p - &botch) } else { (*v, p) }
            })
            .collect();
        Ok((botch, values, dist.tail()))
    }

    /// The exact probability of botch, failure and success, for the roller and
    /// any helpers. Exact without a tail: explosions are followed only until
    /// the Result reaches #.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let base = self.score + self.modifier;
        if self.rote && self.helpers.is_empty() && base >= self.difficulty {
            return Ok(OutcomeOdds::new(
                ID,
                vec![
                    (Outcome::Botch, BigRational::zero()),
                    (Outcome::Failure, BigRational::zero()),
                    (Outcome::Success, BigRational::one()),
                ],
            ));
        }
        let mut bonuses = vec![base];
        bonuses.extend(&self.helpers);
        // P(no botch), and P(no botch and Result < #), per roller.
        let mut no_botch = BigRational::one();
        let mut all_below = BigRational::one();
        for bonus in bonuses {
            let (botch, values, _) = self.d6_odds(Some(self.difficulty - bonus))?;
            no_botch *= BigRational::one() - &botch;
            let below: BigRational = values
                .iter()
                .filter(|(v, _)| v + bonus < self.difficulty)
                .map(|(_, p)| p.clone())
                .sum();
            all_below *= below;
        }
        let botch = BigRational::one() - &no_botch;
        let success = &no_botch - &all_below;
        Ok(OutcomeOdds::new(
            ID,
            vec![
                (Outcome::Botch, botch),
                (Outcome::Failure, all_below),
                (Outcome::Success, success),
            ],
        ))
    }
}

/// P(x > y) for independent results sorted lowest first, a botch (`None`)
/// below every Result and ties counting neither way: the sum over x of
/// P(x) * P(y < x), with P(y < x) kept as a running sum.
fn beats(x: &[(Option<i64>, BigRational)], y: &[(Option<i64>, BigRational)]) -> BigRational {
    let mut below = BigRational::zero();
    let mut total = BigRational::zero();
    let mut j = 0;
    for (rx, p) in x {
        while j < y.len() && y[j].0 < *rx {
            below += &y[j].1;
            j += 1;
        }
        total += p * &below;
    }
    total
}

/// P(botch), the d6 roll's values with their probabilities (no botch), and the tail.
type D6Odds = (BigRational, Vec<(i64, BigRational)>, BigRational);

/// Two characters' opposed rolls: the higher Result wins; a tie is re-rolled
/// by both until broken (RULING X-6). A botch is the lowest possible result:
/// it loses to any Result, and two botches are a tie.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contest {
    /// Side A.
    pub first: Check,
    /// Side B.
    pub second: Check,
}

impl Contest {
    /// Rolls both sides, re-rolling ties (at most the dice limit).
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
        let mut dice = Dice::new(source);
        let mut transcript = Vec::new();
        loop {
            let a = self.first.roll_d6(&mut dice, "side A")?;
            let b = self.second.roll_d6(&mut dice, "side B")?;
            transcript.extend(a.steps.clone());
            transcript.extend(b.steps.clone());
            let ra = a.value.map(|v| v + self.first.score + self.first.modifier);
            let rb = b
                .value
                .map(|v| v + self.second.score + self.second.modifier);
            transcript.push(Step::new(
                RULE_OPPOSED,
                format!(
                    "Results: A {}, B {}",
                    ra.map_or("botch".to_string(), |r| r.to_string()),
                    rb.map_or("botch".to_string(), |r| r.to_string())
                ),
            ));
            if ra == rb {
                transcript.push(Step::new(RULE_OPPOSED, "a tie: both re-roll"));
                continue;
            }
            let a_wins = match (ra, rb) {
                (Some(x), Some(y)) => x > y,
                (Some(_), None) => true,
                _ => false,
            };
            transcript.push(Step::new(
                RULE_OPPOSED,
                format!(
                    "the higher Result wins: side {}",
                    if a_wins { "A" } else { "B" }
                ),
            ));
            let side = |r: Option<i64>, won: bool, nat: Option<i64>| CheckResult {
                ruleset: ID,
                outcome: match r {
                    None => Outcome::Botch,
                    Some(_) if won => Outcome::Success,
                    _ => Outcome::Failure,
                },
                total: r,
                natural: nat,
                difficulty: None,
                margin: None,
                dice: Vec::new(),
                transcript: Vec::new(),
                effect: None,
                experience: r.is_none().then_some(1),
            };
            let mut sides = vec![side(ra, a_wins, a.value), side(rb, !a_wins, b.value)];
            sides[0].dice = dice.rolled;
            return Ok(ContestResult {
                ruleset: ID,
                winner: if a_wins { "first" } else { "second" },
                sides,
                transcript,
            });
        }
    }

    /// The exact probability of each side winning. Ties are re-rolled, so
    /// P(A wins) = P(A > B) / (P(A > B) + P(B > A)).
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let results = |check: &Check| -> Result<Vec<(Option<i64>, BigRational)>, RulesError> {
            let (botch, values, _) = check.d6_odds(None)?;
            let bonus = check.score + check.modifier;
            let mut out = vec![(None, botch)];
            out.extend(values.into_iter().map(|(v, p)| (Some(v + bonus), p)));
            out.sort_by_key(|(r, _)| *r);
            Ok(out)
        };
        let a = results(&self.first)?;
        let b = results(&self.second)?;
        let a_wins = beats(&a, &b);
        let b_wins = beats(&b, &a);
        let decided = &a_wins + &b_wins;
        Ok(OutcomeOdds::named(
            ID,
            vec![
                ("second".to_string(), &b_wins / &decided),
                ("first".to_string(), &a_wins / &decided),
            ],
        ))
    }
}
