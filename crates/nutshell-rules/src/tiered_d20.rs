//! The tiered d20 rules (003): d20 + skill against a DC, four tiers.
//!
//! Citations: "Rolling Dice", "Advantage & Disadvantage", "Gaining Edge/Losing
//! Edge", "Bonuses & Penalties", "Critical Failure/Success", "Rolling a Natural
//! 1", "Rolling a Natural 20"; RULINGS T-1..T-8.

use crate::dice::Dice;
use crate::effect::roll_effect;
use crate::error::{self, RulesError};
use crate::odds::{self, OutcomeOdds};
use crate::outcome::{CheckResult, Outcome, Step};
use num_rational::BigRational;
use num_traits::Zero;
use nutshell_dice::DiceSource;
use serde::Serialize;

/// The ruleset id.
pub const ID: &str = "tiered-d20";

const RULE_TIERS: &str = "tiered-d20, Critical Failure/Success (RULING T-1)";
const RULE_NAT20: &str = "tiered-d20, Rolling a Natural 20 (RULING T-2)";
const RULE_NAT1: &str = "tiered-d20, Rolling a Natural 1 (RULING T-2)";
const RULE_ADV: &str = "tiered-d20, Advantage & Disadvantage (RULING T-3)";
const RULE_EDGE: &str = "tiered-d20, Gaining Edge/Losing Edge (RULING T-4)";
const RULE_STACK: &str = "tiered-d20, Bonuses & Penalties (RULING T-5)";
const RULE_ROUND: &str = "tiered-d20, Rolling Dice (RULING T-6)";
const RULE_MAX: &str = "tiered-d20, Critical Failure/Success (RULING T-7)";
const RULE_JAM: &str = "tiered-d20, Critical Failure/Success (RULING T-8)";
const RULE_REROLL: &str = "tiered-d20, Advantage & Disadvantage (P-31)";

/// The largest modifier or DC a check takes (a quarter of the 64-bit range),
/// so that no total, DC or margin can overflow (RULING N-1).
const SAFE: u64 = (i64::MAX / 4) as u64;

/// The edge die for a net number of edges (RULING T-4): 1..5 edges are a d4,
/// d6, d8, d10, d12; more stays d12.
pub fn edge_die(net: u32) -> Option<u64> {
    match net {
        0 => None,
        n => Some([4, 6, 8, 10, 12][(n.min(5) - 1) as usize]),
    }
}

/// Bonuses stack to at most twice the largest; penalties likewise; then they
/// cancel (RULING T-5). Values are magnitudes: penalties are given positive.
///
/// ```
/// // "three +1 bonuses, two +2 bonuses, and a +3 bonus ... equal to +6"
/// assert_eq!(nutshell_rules::tiered_d20::stack(&[1, 1, 1, 2, 2, 3], &[]), 6);
/// ```
pub fn stack(bonuses: &[i64], penalties: &[i64]) -> i64 {
    let capped = |values: &[i64]| {
        let largest = values.iter().copied().max().unwrap_or(0);
        values.iter().sum::<i64>().min(2 * largest)
    };
    capped(bonuses) - capped(penalties)
}

/// The operator that adds `n` to an expression.
fn sign(n: i64) -> char {
    if n < 0 { '-' } else { '+' }
}

/// One tiered-d20 check.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// The skill modifier.
    pub skill: i64,
    /// Other modifiers outside the stacking cap (summed), such as `--mod`.
    pub modifier: i64,
    /// Bonuses (each counted under the cap).
    pub bonuses: Vec<i64>,
    /// Penalties, as positive magnitudes (under the cap).
    pub penalties: Vec<i64>,
    /// The DC.
    pub dc: i64,
    /// Sources of advantage (several do not stack).
    pub advantage: u32,
    /// Sources of disadvantage.
    pub disadvantage: u32,
    /// Edges gained on the roll.
    pub edges: u32,
    /// Edges lost on the roll.
    pub lost_edges: u32,
    /// Net edges on the DC (positive raises the DC by half the die, negative lowers it).
    pub dc_edges: i32,
    /// Which check of the round this is (1 for the first): -5 for each before it.
    pub action: u32,
    /// A jam: the check to clear it has DC 10 + tier, and this is attempt
    /// `jam.1` (+5 per attempt after the first).
    pub jam: Option<(i64, u32)>,
    /// Damage or healing dice of the action, maximized on a critical success.
    pub effect: Option<String>,
    /// Bonuses to the damage or healing roll, under their own stacking cap
    /// ("a bonus or penalty to a d20 roll or damage roll", RULING T-5).
    pub effect_bonuses: Vec<i64>,
    /// Penalties to the damage or healing roll, as positive magnitudes (under the cap).
    pub effect_penalties: Vec<i64>,
    /// Something in the game lets the roller reroll the d20 once. It is spent
    /// on a failure or critical failure; with advantage or disadvantage only
    /// one of the dice is rerolled, the lower one ("Advantage & Disadvantage";
    /// project ruling P-31).
    pub reroll: bool,
}

/// What the dice showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Roll {
    /// The d20 kept (after advantage or disadvantage).
    d20: i64,
    /// The edge die, if any.
    edge: Option<i64>,
}

impl Check {
    fn net_edges(&self) -> i64 {
        i64::from(self.edges) - i64::from(self.lost_edges)
    }

    /// Advantage or disadvantage after cancelling: +1, -1 or 0.
    fn advantage_net(&self) -> i32 {
        match (self.advantage > 0, self.disadvantage > 0) {
            (true, false) => 1,
            (false, true) => -1,
            _ => 0,
        }
    }

    /// The DC after jam rules and edges on the DC.
    pub fn effective_dc(&self) -> i64 {
        let base = match self.jam {
            Some((tier, _)) => 10 + tier,
            None => self.dc,
        };
        let half = edge_die(self.dc_edges.unsigned_abs()).map_or(0, |d| d as i64 / 2);
        base + half * i64::from(self.dc_edges.signum())
    }

    /// Modifiers: skill, capped bonuses and penalties, the round's action
    /// penalty, the jam's attempt bonus and the rest.
    pub fn total_modifier(&self) -> i64 {
        let action = -5 * (i64::from(self.action.max(1)) - 1);
        let jam = self
            .jam
            .map_or(0, |(_, attempt)| 5 * (i64::from(attempt.max(1)) - 1));
        self.skill + stack(&self.bonuses, &self.penalties) + action + jam + self.modifier
    }

    /// The natural result and the total of a roll (RULING T-4: a gained edge
    /// die higher than the d20 is the natural result; a lost edge subtracts).
    fn natural_and_total(&self, roll: Roll) -> (i64, i64) {
        let m = self.total_modifier();
        match (roll.edge, self.net_edges()) {
            (Some(e), net) if net > 0 => (roll.d20.max(e), roll.d20 + e + m),
            (Some(e), _) => (roll.d20, roll.d20 - e + m),
            (None, _) => (roll.d20, roll.d20 + m),
        }
    }

    /// The tier by margin alone (RULING T-1).
    fn base_tier(&self, total: i64) -> Outcome {
        let dc = self.effective_dc();
        if total >= dc + 10 {
            Outcome::CriticalSuccess
        } else if total >= dc {
            Outcome::Success
        } else if total <= dc - 10 {
            Outcome::CriticalFailure
        } else {
            Outcome::Failure
        }
    }

    /// The tier of a roll: by margin, then one step for a natural 20 or 1
    /// (RULING T-2).
    fn tier(&self, roll: Roll) -> Outcome {
        let (natural, total) = self.natural_and_total(roll);
        shift(self.base_tier(total), natural)
    }

    /// The tier of a roll with the steps that explain it.
    fn tier_of(&self, roll: Roll) -> (Outcome, i64, i64, Vec<Step>) {
        let (natural, total) = self.natural_and_total(roll);
        let dc = self.effective_dc();
        let mut steps = Vec::new();
        let base = self.base_tier(total);
        steps.push(Step::new(
            RULE_TIERS,
            format!(
                "total {total} against DC {dc} (margin {}): {}",
                total - dc,
                base.id()
            ),
        ));
        let tier = shift(base, natural);
        if natural == 20 {
            steps.push(Step::new(
                RULE_NAT20,
                format!("natural 20: one tier better: {}", tier.id()),
            ));
        } else if natural == 1 {
            steps.push(Step::new(
                RULE_NAT1,
                format!("natural 1: one tier worse: {}", tier.id()),
            ));
        }
        (tier, natural, total, steps)
    }

    /// Rolls the check.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<CheckResult, RulesError> {
        Ok(self.roll_spending(source)?.0)
    }

    /// Rolls the check, and says whether the reroll was spent.
    fn roll_spending(
        &self,
        source: &mut dyn DiceSource,
    ) -> Result<(CheckResult, bool), RulesError> {
        self.validate()?;
        let mut dice = Dice::new(source);
        let mut transcript = Vec::new();
        self.describe_modifiers(&mut transcript);
        let first = dice.roll(20, "for the check")?;
        let mut other = None;
        let d20 = match self.advantage_net() {
            0 => {
                if self.advantage > 0 && self.disadvantage > 0 {
                    transcript.push(Step::new(
                        RULE_ADV,
                        "advantage and disadvantage cancel: one d20",
                    ));
                }
                first
            }
            net => {
                let second = dice.roll(
                    20,
                    if net > 0 {
                        "for advantage"
                    } else {
                        "for disadvantage"
                    },
                )?;
                let kept = if net > 0 {
                    first.max(second)
                } else {
                    first.min(second)
                };
                other = Some(first + second - kept);
                transcript.push(Step::new(
                    RULE_ADV,
                    format!(
                        "{}: d20s {first} and {second}, keep {kept}{}",
                        if net > 0 { "advantage" } else { "disadvantage" },
                        if self.advantage > 1 || self.disadvantage > 1 {
                            " (several do not stack)"
                        } else {
                            ""
                        }
                    ),
                ));
                kept
            }
        };
        let net = self.net_edges();
        let edge = match edge_die(net.unsigned_abs() as u32) {
            None => None,
            Some(sides) => {
                let e = dice.roll(
                    sides,
                    if net > 0 {
                        "for the edge gained"
                    } else {
                        "for the edge lost"
                    },
                )?;
                if net > 0 {
                    let note = if e > d20 {
                        format!(
                            "{net} edge(s) gained: d{sides} shows {e}, more than the d20's {d20}: natural {e}, the d20 is the bonus"
                        )
                    } else {
                        format!(
                            "{net} edge(s) gained: d{sides} shows {e}, added to the d20's {d20}"
                        )
                    };
                    transcript.push(Step::new(RULE_EDGE, note));
                } else {
                    transcript.push(Step::new(RULE_EDGE, format!("{} edge(s) lost: d{sides} shows {e}, subtracted; the d20 stays the natural result", -net)));
                }
                Some(e)
            }
        };
        let (mut outcome, mut natural, mut total, mut steps) = self.tier_of(Roll { d20, edge });
        transcript.append(&mut steps);
        let spent = self.reroll && !outcome.succeeded();
        if spent {
            let lower = other.map_or(d20, |o| o.min(d20));
            let r = dice.roll(20, "rerolled")?;
            let kept = self.after_reroll(d20, other, r);
            transcript.push(Step::new(
                RULE_REROLL,
                if other.is_some() {
                    format!("{}: the reroll is spent on one d20 only, the lower ({lower}): it shows {r}, keep {kept}", outcome.id())
                } else {
                    format!("{}: the reroll is spent: the d20 shows {r}", outcome.id())
                },
            ));
            (outcome, natural, total, steps) = self.tier_of(Roll { d20: kept, edge });
            transcript.append(&mut steps);
        }
        if outcome == Outcome::CriticalFailure {
            transcript.push(Step::new(RULE_JAM, "critical failure: the turn ends, and a weapon or tool jams (a DC 10 + Tier check clears it)"));
        }
        let effect = match self.effect_expression(outcome) {
            Some(expr) => {
                if outcome == Outcome::CriticalSuccess {
                    transcript.push(Step::new(
                        RULE_MAX,
                        "critical success: damage or healing dice are maximized",
                    ));
                }
                let roll = roll_effect(&mut dice, &expr)?;
                transcript.push(Step::new(
                    "tiered-d20, Rolling Dice",
                    format!("effect: {}", roll.text),
                ));
                Some(roll)
            }
            None => None,
        };
        let result = CheckResult {
            ruleset: ID,
            outcome,
            total: Some(total),
            natural: Some(natural),
            difficulty: Some(self.effective_dc()),
            margin: Some(total - self.effective_dc()),
            dice: dice.rolled,
            transcript,
            effect,
            experience: Vec::new(),
        };
        Ok((result, spent))
    }

    /// Refuses numbers whose sums would overflow (RULING N-1): every total
    /// this check can make, from the lowest die to the highest, is checked
    /// once here, so the arithmetic of a roll cannot wrap.
    pub fn validate(&self) -> Result<(), RulesError> {
        let sum = |values: &[i64], what: &str| -> Result<i64, RulesError> {
            let mut total = 0i64;
            for v in values {
                total = error::add(total, *v, what)?;
            }
            Ok(total)
        };
        sum(&self.bonuses, "the bonuses")?;
        sum(&self.penalties, "the penalties")?;
        let largest = |v: &[i64]| v.iter().copied().max().unwrap_or(0);
        error::mul(2, largest(&self.bonuses), "the bonuses' cap")?;
        error::mul(2, largest(&self.penalties), "the penalties' cap")?;
        sum(&self.effect_bonuses, "the damage roll's bonuses")?;
        sum(&self.effect_penalties, "the damage roll's penalties")?;
        error::mul(
            2,
            largest(&self.effect_bonuses),
            "the damage roll's bonuses' cap",
        )?;
        error::mul(
            2,
            largest(&self.effect_penalties),
            "the damage roll's penalties' cap",
        )?;
        let action = error::mul(-5, i64::from(self.action.max(1)) - 1, "the round's penalty")?;
        let jam = match self.jam {
            Some((tier, attempt)) => {
                error::add(10, tier, "the jam's DC")?;
                error::mul(5, i64::from(attempt.max(1)) - 1, "the jam's bonus")?
            }
            None => 0,
        };
        let m = error::sum(
            [
                self.skill,
                stack(&self.bonuses, &self.penalties),
                action,
                jam,
                self.modifier,
            ],
            "the modifiers",
        )?;
        // Within a quarter of the range each, every total (d20 and edge die
        // plus the modifiers), DC (with edges and the tiers' +-10) and margin
        // fits.
        let dc = self.jam.map_or(self.dc, |(tier, _)| 10 + tier);
        for (value, what) in [(m, "the modifiers"), (dc, "the DC")] {
            if value.unsigned_abs() > SAFE {
                return Err(error::overflow(what));
            }
        }
        Ok(())
    }

    /// The d20 kept after rerolling the lower of the dice (P-31): `kept` and
    /// `other` are the dice before, `r` the new face.
    fn after_reroll(&self, kept: i64, other: Option<i64>, r: i64) -> i64 {
        match (self.advantage_net(), other) {
            (1, Some(_)) => kept.max(r),
            (-1, Some(high)) => high.min(r),
            _ => r,
        }
    }

    fn describe_modifiers(&self, transcript: &mut Vec<Step>) {
        if !self.bonuses.is_empty() || !self.penalties.is_empty() {
            transcript.push(Step::new(
                RULE_STACK,
                format!(
                    "bonuses {:?} and penalties {:?} stack to at most twice the largest each: {:+}",
                    self.bonuses,
                    self.penalties,
                    stack(&self.bonuses, &self.penalties)
                ),
            ));
        }
        if self.action > 1 {
            transcript.push(Step::new(
                RULE_ROUND,
                format!(
                    "check {} of the round: {}",
                    self.action,
                    -5 * (i64::from(self.action) - 1)
                ),
            ));
        }
        if let Some((tier, attempt)) = self.jam {
            transcript.push(Step::new(
                RULE_JAM,
                format!(
                    "clearing a jam: DC 10 + Tier {tier}, attempt {attempt}: +{}",
                    5 * (i64::from(attempt.max(1)) - 1)
                ),
            ));
        }
        if self.dc_edges != 0 {
            transcript.push(Step::new(
                RULE_EDGE,
                format!(
                    "edges on the DC: {} half the die",
                    if self.dc_edges > 0 { "add" } else { "subtract" }
                ),
            ));
        }
    }

    /// The effect expression for an outcome: the dice on a success, maximized
    /// on a critical success (RULING T-7), none on a failure.
    ///
    /// Bonuses and penalties to the damage roll stack under the cap of RULING
    /// T-5 and are added after the dice (a critical maximizes the dice only):
    ///
    /// ```
    /// use nutshell_rules::{Outcome, tiered_d20::Check};
    /// let check = Check {
    ///     effect: Some("2d6".into()),
    ///     effect_bonuses: vec![1, 1, 1, 2],
    ///     ..Check::default()
    /// };
    /// assert_eq!(check.effect_expression(Outcome::Success).as_deref(), Some("(2d6) + 4"));
    /// assert_eq!(check.effect_expression(Outcome::CriticalSuccess).as_deref(), Some("maximize(2d6) + 4"));
    /// assert_eq!(check.effect_expression(Outcome::Failure), None);
    /// ```
    pub fn effect_expression(&self, outcome: Outcome) -> Option<String> {
        let effect = self.effect.as_ref()?;
        let dice = match outcome {
            Outcome::CriticalSuccess => format!("maximize({effect})"),
            Outcome::Success => effect.clone(),
            _ => return None,
        };
        Some(match stack(&self.effect_bonuses, &self.effect_penalties) {
            0 => dice,
            n if outcome == Outcome::CriticalSuccess => format!("{dice} {} {}", sign(n), n.abs()),
            n => format!("({dice}) {} {}", sign(n), n.abs()),
        })
    }

    /// The exact probability of each tier (and the effect's distribution on
    /// successes), counting every combination of the dice: the d20s, the edge
    /// die and, when the reroll is spent, the new d20 (P-31).
    pub fn odds(&self) -> Result<OutcomeOdds, RulesError> {
        self.validate()?;
        let pairs: Vec<(i64, Option<i64>)> = match self.advantage_net() {
            0 => (1..=20).map(|a| (a, None)).collect(),
            net => (1..=20)
                .flat_map(|a| (1..=20).map(move |b| (a, b)))
                .map(|(a, b)| {
                    let kept = if net > 0 { a.max(b) } else { a.min(b) };
                    (kept, Some(a + b - kept))
                })
                .collect(),
        };
        let net = self.net_edges();
        let edges: Vec<Option<i64>> = match edge_die(net.unsigned_abs() as u32) {
            Some(sides) => (1..=sides as i64).map(Some).collect(),
            None => vec![None],
        };
        let rerolls: i64 = if self.reroll { 20 } else { 1 };
        // Each combination of the first dice weighs `rerolls`: split evenly
        // over the new d20 when the reroll is spent.
        let mut counts = [0i64; 4];
        let index = |o: Outcome| TIERS.iter().position(|t| *t == o).expect("a tier");
        for &(d20, other) in &pairs {
            for &edge in &edges {
                let tier = self.tier(Roll { d20, edge });
                if self.reroll && !tier.succeeded() {
                    for r in 1..=20 {
                        let kept = self.after_reroll(d20, other, r);
                        counts[index(self.tier(Roll { d20: kept, edge }))] += 1;
                    }
                } else {
                    counts[index(tier)] += rerolls;
                }
            }
        }
        let whole = pairs.len() as i64 * edges.len() as i64 * rerolls;
        let events = TIERS
            .iter()
            .zip(counts)
            .map(|(o, c)| (*o, odds::ratio(c, whole)));
        let mut result = OutcomeOdds::new(ID, odds::tally(&TIERS, events));
        result.add_effects(|o| Ok(self.effect_expression(o)))?;
        Ok(result)
    }
}

const TIERS: [Outcome; 4] = [
    Outcome::CriticalFailure,
    Outcome::Failure,
    Outcome::Success,
    Outcome::CriticalSuccess,
];

/// A natural 20 moves the tier one step up, a natural 1 one step down, within
/// the four tiers (RULING T-2).
fn shift(base: Outcome, natural: i64) -> Outcome {
    let index = TIERS.iter().position(|o| *o == base).expect("a tier");
    match natural {
        20 => TIERS[(index + 1).min(3)],
        1 => TIERS[index.saturating_sub(1)],
        _ => base,
    }
}

/// Several checks in one round (RULING T-6): the k-th takes -5 x (k - 1), and a
/// critical failure ends the turn before the remaining checks. Each check
/// carries its own options (skill, DC, advantage, edges, bonuses, jam,
/// effect); a reroll belongs to the turn and is spent once, on the first
/// check that fails (P-31).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Turn {
    /// The checks, in order (their `action` is set by position, their own
    /// `reroll` is not used).
    pub checks: Vec<Check>,
    /// The turn has one reroll of a d20.
    pub reroll: bool,
}

/// The odds of one check of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnCheckOdds {
    /// The probability that the turn reaches this check, `p/q`.
    pub reached: String,
    /// The outcome odds of the check when it is reached.
    #[serde(flatten)]
    pub odds: OutcomeOdds,
    /// The probability that the turn reaches this check, exact.
    #[serde(skip)]
    pub reached_exact: BigRational,
}

impl Turn {
    /// Check `k` (from 0) as rolled in the turn: its place in the round, and
    /// the turn's reroll if it is still there.
    fn check(&self, k: usize, reroll: bool) -> Check {
        Check {
            action: k as u32 + 1,
            reroll,
            ..self.checks[k].clone()
        }
    }

    /// Rolls the checks in order, stopping at the first critical failure.
    pub fn roll(&self, source: &mut dyn DiceSource) -> Result<Vec<CheckResult>, RulesError> {
        let mut results = Vec::new();
        let mut reroll = self.reroll;
        for k in 0..self.checks.len() {
            let (mut result, spent) = self.check(k, reroll).roll_spending(source)?;
            if spent {
                reroll = false;
            } else if reroll {
                result.transcript.push(Step::new(
                    RULE_REROLL,
                    "the turn's reroll is not spent: it is kept for a later check",
                ));
            }
            let ended = result.outcome == Outcome::CriticalFailure;
            if ended && k + 1 < self.checks.len() {
                result.transcript.push(Step::new(
                    RULE_ROUND,
                    format!(
                        "the turn ends: {} remaining check(s) are not taken",
                        self.checks.len() - k - 1
                    ),
                ));
            }
            results.push(result);
            if ended {
                break;
            }
        }
        Ok(results)
    }

    /// The exact odds of every check: the probability of reaching it, and its
    /// outcomes when reached, the turn's reroll being still there or already
    /// spent with their exact probabilities.
    pub fn odds(&self) -> Result<Vec<TurnCheckOdds>, RulesError> {
        let one = || odds::ratio(1, 1);
        let tier = |o: &OutcomeOdds, t: Outcome| o.probability(t.id()).cloned().unwrap_or_default();
        let mut out = Vec::new();
        // Probabilities of reaching the next check with the reroll kept, or spent.
        let mut kept = if self.reroll {
            one()
        } else {
            odds::ratio(0, 1)
        };
        let mut spent = one() - &kept;
        for k in 0..self.checks.len() {
            let plain = self.check(k, false).odds()?;
            let with = if self.reroll {
                self.check(k, true).odds()?
            } else {
                plain.clone()
            };
            let reached = &kept + &spent;
            let mut mixed = Vec::new();
            for t in TIERS {
                let p = if reached.is_zero() {
                    odds::ratio(0, 1)
                } else {
                    (&kept * tier(&with, t) + &spent * tier(&plain, t)) / &reached
                };
                mixed.push((t, p));
            }
            let mut odds = OutcomeOdds::new(ID, mixed);
            odds.effects = plain.effects.clone();
            out.push(TurnCheckOdds {
                reached: odds::fraction(&reached),
                odds,
                reached_exact: reached,
            });
            // The reroll is spent when the first roll does not succeed; the
            // turn goes on unless the final result is a critical failure.
            let first_fails =
                tier(&plain, Outcome::Failure) + tier(&plain, Outcome::CriticalFailure);
            let next_spent = &spent * (one() - tier(&plain, Outcome::CriticalFailure))
                + &kept * (first_fails - tier(&with, Outcome::CriticalFailure));
            kept = &kept
                * (one() - tier(&plain, Outcome::Failure) - tier(&plain, Outcome::CriticalFailure));
            spent = next_spent;
        }
        Ok(out)
    }
}
