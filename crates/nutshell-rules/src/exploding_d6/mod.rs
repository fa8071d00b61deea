//! The exploding-d6 rules (002): `[d6 roll + Score ± Modifiers] = Result`
//! against a Difficulty `#`.
//!
//! Citations: "Difficulty (#)", "Success (S)", "Rote Actions", "Cooperation",
//! "Fail (F)", "Explode (6)", "Botch (1)"; RULINGS X-1..X-6.
//!
//! [`Check`] is one character's roll (with any helpers), [`Contest`] two
//! characters' opposed rolls; [`series`] holds the closed forms that make the
//! contest's odds exact although explosions never end.

mod contest;
pub mod series;

pub use contest::Contest;

use crate::dice::Dice;
use crate::error::{self, RulesError};
use crate::odds::OutcomeOdds;
use crate::outcome::{CheckResult, Experience, Outcome, Step};
use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::{DiceSource, Limits};

/// The ruleset id.
pub const ID: &str = "exploding-d6";

const RULE_RESULT: &str = "exploding-d6, Success (S) (RULING X-1)";
const RULE_EXPLODE: &str = "exploding-d6, Explode (6) (RULING X-2)";
const RULE_BOTCH: &str = "exploding-d6, Botch (1) (RULING X-3)";
const RULE_ROTE: &str = "exploding-d6, Rote Actions (RULING X-4)";
const RULE_COOP: &str = "exploding-d6, Cooperation (RULING X-5)";
const RULE_OPPOSED: &str = "exploding-d6, Success (S) (RULING X-6)";

/// The range of a check's score, modifiers, Difficulty and helpers'
/// Score + Modifiers: far beyond any character, and small enough that a
/// Result (a d6 roll of any length the explosion limit allows, plus Score
/// and Modifiers) and its margin never leave the 64-bit range (RULING N-1).
pub const NUMBERS: std::ops::RangeInclusive<i64> = -1_000_000_000_000..=1_000_000_000_000;

/// The character who rolls a check, as results name them.
pub const ROLLER: &str = "the roller";

/// The name of helper `k` (from 1) in transcripts and experience.
pub fn helper_name(k: usize) -> String {
    format!("helper {k}")
}

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
pub(crate) struct D6Roll {
    /// The d6 roll (the sum of exploded dice), or None for a botch.
    pub(crate) value: Option<i64>,
    pub(crate) steps: Vec<Step>,
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
    pub(crate) fn roll_d6(&self, dice: &mut Dice<'_>, who: &str) -> Result<D6Roll, RulesError> {
        let mut steps = Vec::new();
        let first = dice.roll(6, &format!("for {who}"))?;
        if first == 1 {
            let check = dice.roll(6, &format!("botch check for {who}"))?;
            if check == 1 {
                steps.push(Step::new(RULE_BOTCH, format!("{who}: a 1, and the botch check is another 1: a botch (+1 experience point)")));
                return Ok(D6Roll { value: None, steps });
            }
            steps.push(Step::new(
                RULE_BOTCH,
                format!("{who}: a 1, the botch check shows {check}: the d6 roll is just 1"),
            ));
            return Ok(D6Roll {
                value: Some(1),
                steps,
            });
        }
        let mut total = first;
        let mut last = first;
        let mut explosions = 0;
        while last == 6 {
            if explosions == self.explosions() {
                steps.push(Step::new(
                    RULE_EXPLODE,
                    format!("{who}: the explosion limit of {explosions} is reached"),
                ));
                break;
            }
            last = dice.roll(6, &format!("explosion for {who}"))?;
            explosions += 1;
            total = error::add(total, last, "the d6 roll")?;
            steps.push(Step::new(RULE_EXPLODE, format!("{who}: a 6 explodes: rolled {last}, the d6 roll is now {total} (bonus dice do not botch)")));
        }
        Ok(D6Roll {
            value: Some(total),
            steps,
        })
    }

    /// Score + Modifiers, checked (RULING N-1): every number of the check
    /// within [`NUMBERS`] first, so that rolling and exact odds refuse the
    /// same checks.
    pub fn bonus(&self) -> Result<i64, RulesError> {
        self.check_numbers()?;
        error::add(self.score, self.modifier, "Score + Modifiers")
    }

    /// Refuses a score, modifier, difficulty or helper outside [`NUMBERS`],
    /// naming it (RULING N-1: "Overflow is an error, never a wrap").
    fn check_numbers(&self) -> Result<(), RulesError> {
        let named = [
            ("the score", self.score),
            ("the modifiers", self.modifier),
            ("the Difficulty #", self.difficulty),
        ];
        let helpers = self
            .helpers
            .iter()
            .enumerate()
            .map(|(i, &h)| (i, h))
            .map(|(i, h)| (helper_name(i + 1), h));
        for (what, value) in named
            .into_iter()
            .map(|(w, v)| (w.to_string(), v))
            .chain(helpers)
        {
            if !NUMBERS.contains(&value) {
                return Err(RulesError::Invalid(format!(
                    "{what} {value} is too large: a check's numbers lie from {} to {}, so that no Result or margin overflows (RULING N-1)",
                    NUMBERS.start(),
                    NUMBERS.end()
                )));
            }
        }
        Ok(())
    }

    /// Whether the rote rule decides the check without a roll: "If your
    /// [(Score + Modifiers) >= #] before the d6 roll, and you can take your
    /// time, you Succeed automatically." Helpers change nothing: the roller
    /// already succeeds (RULING X-4, P-7).
    fn rote_success(&self) -> Result<bool, RulesError> {
        Ok(self.rote && self.bonus()? >= self.difficulty)
    }

    /// Resolves the roll (and every helper's) with dice from `source`.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        let mut dice = Dice::new(source);
        let mut transcript = Vec::new();
        let base = self.bonus()?;
        if self.rote {
            if self.rote_success()? {
                let helpers = if self.helpers.is_empty() {
                    ""
                } else {
                    " (the helpers need not roll)"
                };
                transcript.push(Step::new(
                    RULE_ROTE,
                    format!(
                        "rote action: Score + Modifiers = {base} >= # {}, and there is time: success without a roll{helpers}",
                        self.difficulty
                    ),
                ));
                return Ok(self.result(
                    Outcome::Success,
                    None,
                    Some(base),
                    dice,
                    transcript,
                    Vec::new(),
                ));
            }
            transcript.push(Step::new(
                RULE_ROTE,
                format!(
                    "rote action: Score + Modifiers = {base} < # {}: no rote success, roll",
                    self.difficulty
                ),
            ));
        }
        let mut rollers = vec![(ROLLER.to_string(), base)];
        for (i, h) in self.helpers.iter().enumerate() {
            rollers.push((helper_name(i + 1), *h));
        }
        let mut best: Option<(i64, i64)> = None; // (result, natural)
        let mut experience = Vec::new();
        for (who, bonus) in &rollers {
            let roll = self.roll_d6(&mut dice, who)?;
            transcript.extend(roll.steps);
            match roll.value {
                None => experience.push(Experience::new(who, 1)),
                Some(v) => {
                    let result = error::add(v, *bonus, "the Result")?;
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
        if !experience.is_empty() {
            if rollers.len() > 1 {
                transcript.push(Step::new(
                    RULE_COOP,
                    "someone botched: the group's roll is the botch",
                ));
            }
            let who: Vec<&str> = experience.iter().map(|e| e.character.as_str()).collect();
            transcript.push(Step::new(
                RULE_BOTCH,
                format!(
                    "a botch is a failure; whoever botched gains 1 experience point: {}",
                    who.join(", ")
                ),
            ));
            return Ok(self.result(Outcome::Botch, Some(1), None, dice, transcript, experience));
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
        let margin = error::add(
            result,
            self.difficulty
                .checked_neg()
                .ok_or_else(|| error::overflow("the margin"))?,
            "the margin",
        )?;
        transcript.push(Step::new(
            RULE_RESULT,
            format!(
                "Result {result} {} # {}: {} (margin {margin})",
                if outcome.succeeded() { ">=" } else { "<" },
                self.difficulty,
                outcome.id(),
            ),
        ));
        Ok(self.result(
            outcome,
            Some(natural),
            Some(result),
            dice,
            transcript,
            Vec::new(),
        ))
    }

    fn result(
        &self,
        outcome: Outcome,
        natural: Option<i64>,
        total: Option<i64>,
        dice: Dice<'_>,
        transcript: Vec<Step>,
        experience: Vec<Experience>,
    ) -> CheckResult {
        CheckResult {
            ruleset: ID,
            outcome,
            total,
            natural,
            difficulty: Some(self.difficulty),
            margin: total.and_then(|t| t.checked_sub(self.difficulty)),
            dice: dice.rolled,
            transcript,
            effect: None,
            experience,
        }
    }

    /// The exact probability of botch, failure and success, for the roller and
    /// any helpers. Exact without a tail and without an explosion limit: the
    /// chances of a chain of 6s are summed in closed form ([`series`]).
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        let base = self.bonus()?;
        if self.rote_success()? {
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
        let (botch, _) = series::head();
        let mut no_botch = BigRational::one();
        let mut all_below = BigRational::one();
        for bonus in bonuses {
            no_botch *= BigRational::one() - &botch;
            all_below *= series::roll_below(i128::from(self.difficulty) - i128::from(bonus))?;
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
