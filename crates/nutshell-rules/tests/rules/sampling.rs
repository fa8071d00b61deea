//! The exact odds of every ruleset against seeded sampling, as properties over
//! each ruleset's parameters (skill, DC, criticals, rerolls, advantage, edges,
//! favor, tie-breakers...). Each case draws its own seed, so it is reproducible;
//! proptest's own generator is pinned, so every run checks the same cases.

use nutshell_dice::Seeded;
use nutshell_rules::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::collections::BTreeMap;

/// Rolls per case: a few thousand keeps the whole file to a few seconds in a
/// debug build.
const ROLLS: u32 = 6_000;

/// How many standard deviations a count may stray from its expectation (plus
/// half a roll). Outcomes of probability 0 or 1 must be exact.
const BAND: f64 = 4.5;

fn config() -> Config {
    Config {
        cases: 32,
        rng_seed: RngSeed::Fixed(20_240_601),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Rolls `ROLLS` times from `seed` and compares each outcome's count with the
/// exact odds; every outcome rolled must be listed in the odds.
fn agrees(
    odds: &OutcomeOdds,
    seed: u64,
    mut roll: impl FnMut(&mut Seeded) -> String,
) -> Result<(), TestCaseError> {
    let mut dice = Seeded::new(seed);
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..ROLLS {
        *counts.entry(roll(&mut dice)).or_default() += 1;
    }
    let n = f64::from(ROLLS);
    for o in &odds.outcomes {
        let p = o.percent / 100.0;
        let seen = f64::from(counts.get(&o.outcome).copied().unwrap_or(0));
        let expected = p * n;
        let slack = if o.probability == "0" || o.probability == "1" {
            0.0
        } else {
            BAND * (expected * (1.0 - p)).sqrt() + 0.5
        };
        prop_assert!(
            (seen - expected).abs() <= slack,
            "{}: {} seen {seen} times in {ROLLS}, expected {expected:.1} (p = {})",
            odds.ruleset,
            o.outcome,
            o.probability
        );
    }
    for k in counts.keys() {
        prop_assert!(
            odds.outcomes.iter().any(|o| &o.outcome == k),
            "{k} rolled but not in the odds"
        );
    }
    Ok(())
}

fn fantasy_reroll() -> impl Strategy<Value = fantasy::Reroll> {
    prop_oneof![
        Just(fantasy::Reroll::None),
        Just(fantasy::Reroll::Own),
        Just(fantasy::Reroll::Forced),
        Just(fantasy::Reroll::ForcedCancelled),
    ]
}

fn favor_side() -> impl Strategy<Value = favor_3d6::Side> {
    (
        -3i64..=5,
        0u32..=2,
        0u32..=4,
        any::<bool>(),
        any::<bool>(),
        0i64..=2,
    )
        .prop_map(
            |(modifier, favor, disfavor, pc, defender, level)| favor_3d6::Side {
                test: favor_3d6::Test {
                    modifier,
                    favor,
                    disfavor,
                    td: 0,
                },
                pc,
                defender,
                level,
            },
        )
}

proptest! {
    #![proptest_config(config())]

    /// fantasy: DC, modifier, criticals with confirmation, natural even, rerolls.
    #[test]
    fn fantasy_checks(
        modifier in -5i64..=15,
        dc in 0i64..=35,
        crit_success: bool,
        crit_failure: bool,
        natural_even: bool,
        reroll in fantasy_reroll(),
        seed: u64,
    ) {
        let c = fantasy::Check {
            modifier, dc, crit_success, crit_failure, natural_even, reroll,
            ..Default::default()
        };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().outcome.id().into())?;
    }

    /// mls: skill and difficulty modifiers (natural 18s and 3s included).
    #[test]
    fn mls_checks(skill in -5i64..=20, modifier in -5i64..=5, seed: u64) {
        let c = mls::Check { skill, modifier };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().outcome.id().into())?;
    }

    /// mls opposed rolls.
    #[test]
    fn mls_contests(a in 0i64..=15, o in 0i64..=15, seed: u64) {
        let c = mls::Contest {
            active: mls::Check { skill: a, modifier: 0 },
            opponent: mls::Check { skill: o, modifier: 0 },
        };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().winner.into())?;
    }

    /// exploding-d6: Score, #, rote, helpers (botches and explosions).
    #[test]
    fn exploding_d6_checks(
        score in -2i64..=6,
        difficulty in 0i64..=14,
        rote: bool,
        helpers in prop::collection::vec(-1i64..=4, 0..=2),
        seed: u64,
    ) {
        let c = exploding_d6::Check { score, difficulty, rote, helpers, ..Default::default() };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().outcome.id().into())?;
    }

    /// exploding-d6 opposed rolls (ties re-rolled).
    #[test]
    fn exploding_d6_contests(a in -1i64..=5, b in -1i64..=5, seed: u64) {
        let c = exploding_d6::Contest {
            first: exploding_d6::Check { score: a, ..Default::default() },
            second: exploding_d6::Check { score: b, ..Default::default() },
        };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().winner.into())?;
    }

    /// tiered-d20: skill, DC, advantage and disadvantage, edges on the roll and
    /// the DC, capped bonuses and penalties, the round's action, the reroll.
    #[test]
    fn tiered_d20_checks(
        skill in -2i64..=8,
        dc in 5i64..=25,
        advantage in 0u32..=2,
        disadvantage in 0u32..=2,
        edges in 0u32..=6,
        lost_edges in 0u32..=6,
        dc_edges in -3i32..=3,
        bonuses in prop::collection::vec(1i64..=3, 0..=3),
        penalties in prop::collection::vec(1i64..=3, 0..=3),
        action in 1u32..=3,
        reroll: bool,
        seed: u64,
    ) {
        let c = tiered_d20::Check {
            skill, dc, advantage, disadvantage, edges, lost_edges, dc_edges,
            bonuses, penalties, action, reroll,
            ..Default::default()
        };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().outcome.id().into())?;
    }

    /// favor-3d6: modifier, favor, disfavor (down to no dice), TD.
    #[test]
    fn favor_3d6_tests(
        modifier in -3i64..=5,
        favor in 0u32..=3,
        disfavor in 0u32..=4,
        td in 5i64..=20,
        seed: u64,
    ) {
        let t = favor_3d6::Test { modifier, favor, disfavor, td };
        agrees(&t.odds().unwrap(), seed, |d| t.roll(d).unwrap().outcome.id().into())?;
    }

    /// favor-3d6 contests, down the tie-breaker chain to the d2.
    #[test]
    fn favor_3d6_contests(first in favor_side(), second in favor_side(), seed: u64) {
        let c = favor_3d6::Contest { first, second };
        agrees(&c.odds().unwrap(), seed, |d| c.roll(d).unwrap().winner.into())?;
    }
}
