//! The favor 3d6 rules (004): 3d6 + modifier against a Test Difficulty.
//!
//! Citations: "Rolls and Tests", "Test Difficulty", "Contesting", "Tie
//! Breakers", "Favor and Disfavor", "Critical Successes and Failures",
//! "Dice Nomenclature" (percentile dice: `d00` + `d10` in the notation);
//! RULINGS V-1..V-3.

use crate::dice::Dice;
use crate::error::{self, RulesError};
use crate::odds::{self, OutcomeOdds};
use crate::outcome::{CheckResult, ContestResult, Outcome, Step};
use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::DiceSource;
use std::collections::BTreeMap;

/// The ruleset id.
pub const ID: &str = "favor-3d6";

const RULE_TEST: &str = "favor-3d6, Test Difficulty (RULING V-2)";
const RULE_FAVOR: &str = "favor-3d6, Favor and Disfavor (RULING V-1)";
const RULE_CRIT: &str = "favor-3d6, Critical Successes and Failures (RULING V-2)";
const RULE_CONTEST: &str = "favor-3d6, Contesting (RULING V-3)";
const RULE_TIE: &str = "favor-3d6, Tie Breakers (RULING V-3)";
const RULE_RANK: &str =
    "favor-3d6, Favor and Disfavor, Critical Successes and Failures (project ruling P-11)";

/// The most dice a test may roll (favor beyond this is refused).
pub const MAX_DICE: i64 = 100;

/// One test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Test {
    /// The trait's modifier (plus any others), summed.
    pub modifier: i64,
    /// Points of favor: one more d6 each.
    pub favor: u32,
    /// Points of disfavor: one d6 fewer each.
    pub disfavor: u32,
    /// The Test Difficulty.
    pub td: i64,
}

/// What the dice of a test make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dice3 {
    /// Zero dice or fewer: automatic failure.
    NoDice,
    /// Three or more 6s: the sum, doubled before modifiers.
    CriticalSuccess(i64),
    /// Every die a 1: the result is 0.
    CriticalFailure,
    /// Anything else: the sum.
    Plain(i64),
}

impl Test {
    /// How many d6 are rolled (RULING V-1).
    pub fn dice_count(&self) -> i64 {
        3 + i64::from(self.favor) - i64::from(self.disfavor)
    }

    pub fn validate(&self) -> Result<(), RulesError> {
        if self.dice_count() > MAX_DICE {
            return Err(RulesError::Invalid(format!(
                "{} dice is too many for one test (at most {MAX_DICE})",
                self.dice_count()
            )));
        }
        // The highest total (a critical success doubles the sum of the
        // dice) must fit, so the refusal never depends on the dice rolled
        // (RULING N-1).
        let highest_doubled_sum = 12 * self.dice_count().max(0);
        crate::error::add(self.modifier, highest_doubled_sum, "the total")?;
        Ok(())
    }

    fn classify(faces: &[i64]) -> Dice3 {
        if faces.is_empty() {
            return Dice3::NoDice;
        }
        let sum: i64 = faces.iter().sum();
        if faces.iter().filter(|&&f| f == 6).count() >= 3 {
            Dice3::CriticalSuccess(sum)
        } else if faces.iter().all(|&f| f == 1) {
            Dice3::CriticalFailure
        } else {
            Dice3::Plain(sum)
        }
    }

    /// The total of a roll: the doubled sum plus the modifier on a critical
    /// success, 0 on a critical failure (modifiers ignored) or with no dice.
    /// Overflow is an error (RULING N-1).
    fn total(&self, dice: Dice3) -> Result<i64, RulesError> {
        match dice {
            Dice3::NoDice | Dice3::CriticalFailure => Ok(0),
            Dice3::CriticalSuccess(sum) => error::add(2 * sum, self.modifier, "the total"),
            Dice3::Plain(sum) => error::add(sum, self.modifier, "the total"),
        }
    }

    fn outcome(&self, dice: Dice3) -> Result<Outcome, RulesError> {
        Ok(match dice {
            Dice3::NoDice => Outcome::Failure,
            Dice3::CriticalFailure => Outcome::CriticalFailure,
            Dice3::CriticalSuccess(_) => Outcome::CriticalSuccess,
            Dice3::Plain(_) => {
                if self.total(dice)? >= self.td {
                    Outcome::Success
                } else {
                    Outcome::Failure
                }
            }
        })
    }

    /// How a roll ranks in a contest: a test failed automatically for want of
    /// dice ranks below every rolled test ("If you have enough disfavor to
    /// roll zero dice, the test is automatically failed"), a critical failure
    /// (value 0) below every other rolled total, even a negative one; then
    /// totals, higher first (project ruling P-11).
    fn rank(&self, dice: Dice3) -> Result<(u8, i64), RulesError> {
        Ok(match dice {
            Dice3::NoDice => (0, 0),
            Dice3::CriticalFailure => (1, 0),
            _ => (2, self.total(dice)?),
        })
    }

    fn roll_dice(
        &self,
        dice: &mut Dice<'_>,
        who: &str,
    ) -> Result<(Dice3, Vec<i64>, Vec<Step>), RulesError> {
        self.validate()?;
        let n = self.dice_count();
        let mut steps = Vec::new();
        if self.favor > 0 || self.disfavor > 0 {
            steps.push(Step::new(
                RULE_FAVOR,
                format!(
                    "{who}{} favor, {} disfavor: {} d6",
                    self.favor,
                    self.disfavor,
                    n.max(0)
                ),
            ));
        }
        let mut faces = Vec::new();
        for _ in 0..n.max(0) {
            faces.push(dice.roll(6, &format!("for {}the test", who))?);
        }
        let classified = Test::classify(&faces);
        match classified {
            Dice3::NoDice => steps.push(Step::new(RULE_FAVOR, format!("{who}zero dice to roll: the test fails automatically"))),
            Dice3::CriticalSuccess(sum) => steps.push(Step::new(
                RULE_CRIT,
                format!("{who}three or more 6s: critical success; the dice's {sum} is doubled to {} before modifiers", 2 * sum),
            )),
            Dice3::CriticalFailure => steps.push(Step::new(RULE_CRIT, format!("{who}every die is a 1: critical failure; the result is 0 and modifiers are ignored"))),
            Dice3::Plain(sum) if self.modifier == 0 => steps.push(Step::new(RULE_TEST, format!("{who}dice {faces:?} = {sum}"))),
            Dice3::Plain(sum) => steps.push(Step::new(RULE_TEST, format!("{who}dice {faces:?} = {sum}, {:+} = {}", self.modifier, self.total(classified)?))),
        }
        Ok((classified, faces, steps))
    }

    /// Rolls the test.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        let mut dice = Dice::new(source);
        let (classified, faces, mut transcript) = self.roll_dice(&mut dice, "")?;
        let outcome = self.outcome(classified)?;
        let total = self.total(classified)?;
        if matches!(classified, Dice3::Plain(_)) {
            transcript.push(Step::new(
                RULE_TEST,
                format!("{total} against TD {}: {}", self.td, outcome.id()),
            ));
        }
        Ok(CheckResult {
            ruleset: ID,
            outcome,
            total: Some(total),
            natural: (!faces.is_empty()).then(|| faces.iter().sum()),
            difficulty: Some(self.td),
            margin: None,
            dice: dice.rolled,
            transcript,
            effect: None,
            experience: Vec::new(),
        })
    }

    /// The exact distribution of the dice's classification, by dynamic
    /// programming over the dice (each die's probabilities from the engine).
    fn dice_odds(&self) -> Result<Vec<(Dice3, BigRational)>, RulesError> {
        self.validate()?;
        let n = self.dice_count();
        if n <= 0 {
            return Ok(vec![(Dice3::NoDice, BigRational::one())]);
        }
        let d6 = odds::die(6)?;
        // State: (sum, sixes capped at 3, all ones so far).
        let mut states: BTreeMap<(i64, u8, bool), BigRational> = BTreeMap::new();
        states.insert((0, 0, true), BigRational::one());
        for _ in 0..n {
            let mut next: BTreeMap<(i64, u8, bool), BigRational> = BTreeMap::new();
            for ((sum, sixes, ones), p) in &states {
                for (face, q) in &d6 {
                    let key = (
                        sum + face,
                        (*sixes + u8::from(*face == 6)).min(3),
                        *ones && *face == 1,
                    );
                    *next.entry(key).or_insert_with(BigRational::zero) += p * q;
                }
            }
            states = next;
        }
        Ok(states
            .into_iter()
            .map(|((sum, sixes, ones), p)| {
                let class = if sixes >= 3 {
                    Dice3::CriticalSuccess(sum)
                } else if ones {
                    Dice3::CriticalFailure
                } else {
                    Dice3::Plain(sum)
                };
                (class, p)
            })
            .collect())
    }

    /// The exact probability of each outcome.
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let order = [
            Outcome::CriticalFailure,
            Outcome::Failure,
            Outcome::Success,
            Outcome::CriticalSuccess,
        ];
        let mut events = Vec::new();
        for (d, p) in self.dice_odds()? {
            events.push((self.outcome(d)?, p));
        }
        Ok(OutcomeOdds::new(ID, odds::tally(&order, events)))
    }

    /// The exact distribution of the contest rank (see [`Test::rank`]).
    fn rank_odds(&self) -> Result<BTreeMap<(u8, i64), BigRational>, RulesError> {
        let mut ranks = BTreeMap::new();
        for (d, p) in self.dice_odds()? {
            *ranks.entry(self.rank(d)?).or_insert_with(BigRational::zero) += p;
        }
        Ok(ranks)
    }
}

/// One side of a contest, with what the tie-breakers need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Side {
    /// The test (its TD is not used).
    pub test: Test,
    /// A player character (else an NPC).
    pub pc: bool,
    /// This side is defending itself.
    pub defender: bool,
    /// Level or DR.
    pub level: i64,
}

/// A contest: the higher total wins, and ties go down the tie-breaker chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Contest {
    /// Side A.
    pub first: Side,
    /// Side B.
    pub second: Side,
}

/// How a tie is broken: `Some(true)` for side A, `Some(false)` for side B,
/// `None` for chance.
fn break_tie(a: &Side, b: &Side) -> (Option<bool>, &'static str) {
    if a.pc != b.pc {
        return (Some(a.pc), "a PC rolling against an NPC wins the tie");
    }
    if a.defender != b.defender {
        return (Some(a.defender), "the defending creature wins the tie");
    }
    if a.test.modifier != b.test.modifier {
        return (
            Some(a.test.modifier > b.test.modifier),
            "the creature with the better modifier wins the tie",
        );
    }
    if a.level != b.level {
        return (
            Some(a.level > b.level),
            "the creature of higher level or DR wins the tie",
        );
    }
    (None, "everything is equal: one is chosen at random")
}

impl Contest {
    /// Rolls both sides (A first) and resolves, breaking a tie.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<ContestResult, RulesError> {
        let mut dice = Dice::new(source);
        let (ca, _, sa) = self.first.test.roll_dice(&mut dice, "A: ")?;
        let a_dice: Vec<_> = dice.rolled.drain(..).collect();
        let (cb, _, sb) = self.second.test.roll_dice(&mut dice, "B: ")?;
        let ta = self.first.test.total(ca)?;
        let tb = self.second.test.total(cb)?;
        let ra = self.first.test.rank(ca)?;
        let rb = self.second.test.rank(cb)?;
        let mut transcript = Vec::new();
        let shown = |class: Dice3, total: i64| match class {
            Dice3::NoDice => "no dice (failed automatically)".to_string(),
            Dice3::CriticalFailure => "0 (critical failure)".to_string(),
            _ => total.to_string(),
        };
        transcript.push(Step::new(
            RULE_CONTEST,
            format!(
                "totals: A {}, B {}; the higher wins",
                shown(ca, ta),
                shown(cb, tb)
            ),
        ));
        let winner = if ra != rb {
            if ra.0 != rb.0 {
                let why = if ra.0.min(rb.0) == 0 {
                    "a test failed automatically never beats a rolled one"
                } else {
                    "a critical failure loses to any other rolled total"
                };
                transcript.push(Step::new(RULE_RANK, why));
            }
            Some(ra > rb)
        } else if ra.0 == 0 {
            transcript.push(Step::new(
                RULE_RANK,
                "both tests failed automatically: neither side wins",
            ));
            None
        } else {
            let (rule, why) = break_tie(&self.first, &self.second);
            transcript.push(Step::new(RULE_TIE, format!("a tie: {why}")));
            Some(match rule {
                Some(a) => a,
                None => {
                    let coin = dice.roll(2, "to break the tie (1: A, 2: B)")?;
                    transcript.push(Step::new(
                        RULE_TIE,
                        format!(
                            "the d2 shows {coin}: side {}",
                            if coin == 1 { "A" } else { "B" }
                        ),
                    ));
                    coin == 1
                }
            })
        };
        let side = |class: Dice3, total: i64, won: bool| CheckResult {
            ruleset: ID,
            outcome: match class {
                Dice3::CriticalSuccess(_) if won => Outcome::CriticalSuccess,
                Dice3::CriticalFailure => Outcome::CriticalFailure,
                Dice3::NoDice => Outcome::Failure,
                _ if won => Outcome::Success,
                _ => Outcome::Failure,
            },
            total: Some(total),
            natural: None,
            difficulty: None,
            margin: None,
            dice: Vec::new(),
            transcript: Vec::new(),
            effect: None,
            experience: Vec::new(),
        };
        let mut sides = vec![
            side(ca, ta, winner == Some(true)),
            side(cb, tb, winner == Some(false)),
        ];
        sides[0].dice = a_dice;
        sides[0].transcript = sa;
        sides[1].dice = dice.rolled;
        sides[1].transcript = sb;
        Ok(ContestResult {
            ruleset: ID,
            winner: match winner {
                Some(true) => "first",
                Some(false) => "second",
                None => "none",
            },
            sides,
            transcript,
        })
    }

    /// The exact probability of each side winning (and, when both sides
    /// would fail automatically, of neither).
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let a = self.first.test.rank_odds()?;
        let b = self.second.test.rank_odds()?;
        let (tie_rule, _) = break_tie(&self.first, &self.second);
        let mut a_wins = BigRational::zero();
        let mut neither = BigRational::zero();
        for (ra, p) in &a {
            for (rb, q) in &b {
                let pq = p * q;
                if ra > rb {
                    a_wins += pq;
                } else if ra == rb {
                    if ra.0 == 0 {
                        neither += pq;
                        continue;
                    }
                    match tie_rule {
                        Some(true) => a_wins += pq,
                        Some(false) => {}
                        None => a_wins += pq * odds::ratio(1, 2),
                    }
                }
            }
        }
        let b_wins = BigRational::one() - &a_wins - &neither;
        let mut outcomes = vec![
            ("second".to_string(), b_wins),
            ("first".to_string(), a_wins),
        ];
        if !neither.is_zero() {
            outcomes.insert(0, ("none".to_string(), neither));
        }
        Ok(OutcomeOdds::named(ID, outcomes))
    }
}
