//! Exact outcome odds, from the exact engine.

use crate::error::RulesError;
use crate::outcome::Outcome;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use nutshell_dice::{Distribution, Expression};
use serde::Serialize;

/// The exact probability of each outcome of a check or contest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeOdds {
    /// The ruleset id.
    pub ruleset: &'static str,
    /// Each outcome the ruleset can give, lowest first, with its probability.
    pub outcomes: Vec<OutcomeProbability>,
    /// Distributions of effects (magnitude or damage) by outcome, if asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectOdds>,
    /// The probability left out by the explosion limit (exploding-d6), as `p/q`.
    #[serde(skip_serializing_if = "is_zero_text")]
    pub tail: String,
}

fn is_zero_text(s: &String) -> bool {
    s == "0"
}

/// One outcome's probability. It prints as people read it:
/// `success: 37/324 (11.42%)` (`{}`), and `{:?}` shows the exact
/// probability the same way, not as a `Ratio`'s parts.
///
/// ```
/// use nutshell_rules::mls;
/// let odds = mls::Check { skill: 12, modifier: -2 }.odds()?;
/// assert_eq!(odds.outcomes[0].to_string(), "fumble: 1/216 (0.46%)");
/// assert!(format!("{:?}", odds.outcomes[0]).contains("probability: 1/216 (0.46%)"));
/// assert!(!format!("{odds:?}").contains("Ratio"));
/// assert_eq!(odds.to_string().lines().last(), Some("critical-success: 5/8 (62.5%)"));
/// # Ok::<(), nutshell_rules::RulesError>(())
/// ```
#[derive(Clone, PartialEq, Serialize)]
pub struct OutcomeProbability {
    /// The outcome id (or, for contests, the winner).
    pub outcome: String,
    /// The exact probability, `p/q` in lowest terms.
    pub probability: String,
    /// The same, as a number (for display).
    pub percent: f64,
    #[serde(skip)]
    /// The exact probability.
    pub exact: BigRational,
}

impl std::fmt::Display for OutcomeProbability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}",
            self.outcome,
            nutshell_dice::exact::probability_text(&self.exact)
        )
    }
}

impl std::fmt::Debug for OutcomeProbability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutcomeProbability")
            .field("outcome", &self.outcome)
            .field(
                "probability",
                &format_args!("{}", nutshell_dice::exact::probability_text(&self.exact)),
            )
            .finish()
    }
}

impl std::fmt::Display for OutcomeOdds {
    /// One outcome a line, lowest first: `success: 37/324 (11.42%)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, o) in self.outcomes.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{o}")?;
        }
        Ok(())
    }
}

/// An effect's distribution for one outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectOdds {
    /// The outcome it follows.
    pub outcome: String,
    /// The effect expression rolled on that outcome.
    pub expression: String,
    /// Its distribution: `{value, probability}` pairs.
    pub distribution: Vec<ValueProbability>,
    /// Its mean, `p/q`.
    pub mean: String,
}

/// A value with its exact probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueProbability {
    /// The value.
    pub value: i64,
    /// `p/q`.
    pub probability: String,
}

/// `p/q` in lowest terms (`0`, `1` for those).
pub fn fraction(r: &BigRational) -> String {
    if r.is_zero() {
        "0".to_string()
    } else if r.denom().is_one() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// The exact rational `n / d`.
pub fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

impl OutcomeOdds {
    /// Odds from `(outcome, probability)` pairs.
    pub fn new(ruleset: &'static str, pairs: Vec<(Outcome, BigRational)>) -> OutcomeOdds {
        OutcomeOdds::named(
            ruleset,
            pairs
                .into_iter()
                .map(|(o, p)| (o.id().to_string(), p))
                .collect(),
        )
    }

    /// Odds with outcome names given as text (contests name winners).
    pub fn named(ruleset: &'static str, pairs: Vec<(String, BigRational)>) -> OutcomeOdds {
        OutcomeOdds {
            ruleset,
            outcomes: pairs
                .into_iter()
                .map(|(outcome, p)| OutcomeProbability {
                    outcome,
                    probability: fraction(&p),
                    percent: nutshell_dice::exact::ratio_to_f64(&p) * 100.0,
                    exact: p,
                })
                .collect(),
            effects: Vec::new(),
            tail: "0".to_string(),
        }
    }

    /// The probability of outcome `id`, if listed.
    pub fn probability(&self, id: &str) -> Option<&BigRational> {
        self.outcomes
            .iter()
            .find(|o| o.outcome == id)
            .map(|o| &o.exact)
    }

    /// Adds the effect distribution of every successful outcome that can happen,
    /// with `expression_for` giving each outcome's effect expression (if any).
    pub fn add_effects(
        &mut self,
        expression_for: impl Fn(Outcome) -> Result<Option<String>, RulesError>,
    ) -> Result<(), RulesError> {
        for outcome in [Outcome::Success, Outcome::CriticalSuccess] {
            let possible = self.probability(outcome.id()).is_some_and(|p| !p.is_zero());
            if possible && let Some(expression) = expression_for(outcome)? {
                self.add_effect(outcome, &expression)?;
            }
        }
        Ok(())
    }

    /// Adds the distribution of `expression` as the effect of `outcome`.
    pub fn add_effect(&mut self, outcome: Outcome, expression: &str) -> Result<(), RulesError> {
        let dist = distribution(expression)?;
        self.effects.push(EffectOdds {
            outcome: outcome.id().to_string(),
            expression: Expression::parse(expression)?.normalized().to_string(),
            distribution: dist
                .outcomes()
                .iter()
                .map(|(v, _)| ValueProbability {
                    value: *v,
                    probability: fraction(&dist.probability(*v)),
                })
                .collect(),
            mean: fraction(&dist.mean()),
        });
        Ok(())
    }
}

/// The exact distribution of a dice expression.
pub fn distribution(expression: &str) -> Result<Distribution, RulesError> {
    Ok(Expression::parse(expression)?.distribution()?)
}

/// The exact probability of each face of a die (`1dN`), from the engine.
pub fn die(sides: u64) -> Result<Vec<(i64, BigRational)>, RulesError> {
    faces_of(&format!("1d{sides}"))
}

/// Every outcome of an expression with its exact probability.
pub fn faces_of(expression: &str) -> Result<Vec<(i64, BigRational)>, RulesError> {
    let d = distribution(expression)?;
    Ok(d.outcomes()
        .iter()
        .map(|(v, _)| (*v, d.probability(*v)))
        .collect())
}

/// Sums probabilities by outcome, lowest outcome first, keeping every listed
/// outcome (even at probability 0).
pub fn tally(
    order: &[Outcome],
    events: impl IntoIterator<Item = (Outcome, BigRational)>,
) -> Vec<(Outcome, BigRational)> {
    let mut totals: Vec<(Outcome, BigRational)> =
        order.iter().map(|o| (*o, BigRational::zero())).collect();
    for (o, p) in events {
        if let Some(entry) = totals.iter_mut().find(|(x, _)| *x == o) {
            entry.1 += p;
        }
    }
    totals
}
