//! RULING N-1: "Overflow is an error, never a wrap." Extreme numbers are fed to
//! every ruleset's checks and contests, as requests (the command line's flags
//! and the server's JSON alike): each roll and each odds computation either
//! answers with totals that are the true sums, or refuses with an error that
//! names the overflow. A wrap would panic here (tests check arithmetic) or
//! show as a wrong total.

use nutshell_dice::Seeded;
use nutshell_rules::request::*;
use nutshell_rules::{CheckResult, RulesError};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config() -> Config {
    Config {
        cases: 256,
        rng_seed: RngSeed::Fixed(20_261_124),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Numbers at the edges of the 64-bit range, and some ordinary ones.
fn extreme() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(i64::MAX / 2),
        Just(i64::MIN / 2),
        Just(i64::MAX / 4),
        Just(-(i64::MAX / 4)),
        -30i64..30,
    ]
}

/// An answer or a refusal that says what overflowed.
fn acceptable<T>(r: &Result<T, RulesError>) -> Result<(), TestCaseError> {
    if let Err(e) = r {
        let text = e.to_string();
        prop_assert!(
            text.contains("overflow")
                || text.contains("too large")
                || text.contains("too far apart"),
            "an error that is not about the numbers' size: {text}"
        );
    }
    Ok(())
}

/// The total of a check is its natural result plus `modifiers`, in exact
/// arithmetic (no wrap), where the ruleset adds them plainly.
fn total_is_true_sum(r: &CheckResult, modifiers: i128) -> Result<(), TestCaseError> {
    if let (Some(total), Some(natural)) = (r.total, r.natural) {
        prop_assert_eq!(i128::from(total), i128::from(natural) + modifiers);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fantasy(m in extreme(), ability in extreme(), dc in extreme(), seed: u64) {
        let request = CheckRequest::Fantasy(FantasyCheck {
            modifier: Numbers::One(m),
            ability: Some(ability),
            dc: Some(FantasyDc::Number(dc)),
            magnitude: true,
            ..Default::default()
        });
        let rolled = request.roll(&mut Seeded::new(seed));
        acceptable(&rolled)?;
        if let Ok(Rolled::Check(r)) = &rolled {
            total_is_true_sum(r, i128::from(m) + i128::from(ability))?;
        }
        acceptable(&request.odds())?;
    }

    #[test]
    fn mls(skill in extreme(), m in extreme(), vs in extreme(), seed: u64) {
        let request = CheckRequest::Mls(MlsCheck { modifier: Numbers::One(m), skill: Some(skill) });
        let rolled = request.roll(&mut Seeded::new(seed));
        acceptable(&rolled)?;
        if let Ok(Rolled::Check(r)) = &rolled {
            total_is_true_sum(r, i128::from(m) + i128::from(skill))?;
        }
        acceptable(&request.odds())?;
        let contest = ContestRequest::Mls(MlsContest {
            modifier: Numbers::Many(vec![m, m]),
            skill: Some(skill),
            vs_modifier: Numbers::One(vs),
            vs_skill: Some(vs),
        });
        acceptable(&contest.roll(&mut Seeded::new(seed)))?;
        acceptable(&contest.odds())?;
    }

    #[test]
    fn exploding_d6(score in extreme(), m in extreme(), dc in extreme(), helper in extreme(), seed: u64) {
        let request = CheckRequest::ExplodingD6(ExplodingCheck {
            modifier: Numbers::One(m),
            score: Some(score),
            dc: Some(dc),
            rote: true,
            helper: Numbers::One(helper),
        });
        let rolled = request.roll(&mut Seeded::new(seed));
        acceptable(&rolled)?;
        acceptable(&request.odds())?;
        let contest = ContestRequest::ExplodingD6(ExplodingContest {
            modifier: Numbers::One(m),
            score: Some(score),
            vs_modifier: Numbers::One(helper),
            vs_score: Some(dc),
        });
        acceptable(&contest.roll(&mut Seeded::new(seed)))?;
        acceptable(&contest.odds())?;
    }

    #[test]
    fn tiered_d20(skill in extreme(), m in extreme(), dc in extreme(), bonus in extreme(), tier in extreme(), seed: u64) {
        let request = CheckRequest::TieredD20(TieredCheck {
            modifier: Numbers::One(m),
            skill: Some(skill),
            dc: Some(dc),
            bonus: Numbers::Many(vec![bonus.saturating_abs(), bonus.saturating_abs() / 2]),
            edge: Some(2),
            then: vec![TieredCheck { jam_tier: Some(tier), attempt: Some(u32::MAX), ..Default::default() }],
            ..Default::default()
        });
        acceptable(&request.roll(&mut Seeded::new(seed)))?;
        acceptable(&request.odds())?;
    }

    #[test]
    fn favor_3d6(m in extreme(), dc in extreme(), vs in extreme(), favor in 0u32..4, seed: u64) {
        let request = CheckRequest::Favor3d6(FavorCheck {
            modifier: Numbers::Many(vec![m, vs]),
            favor: Some(favor),
            disfavor: None,
            dc: Some(dc),
        });
        let rolled = request.roll(&mut Seeded::new(seed));
        acceptable(&rolled)?;
        acceptable(&request.odds())?;
        let contest = ContestRequest::Favor3d6(FavorContest {
            modifier: Numbers::One(m),
            vs_modifier: Numbers::One(vs),
            level: Some(dc),
            ..Default::default()
        });
        acceptable(&contest.roll(&mut Seeded::new(seed)))?;
        acceptable(&contest.odds())?;
    }
}

/// The issue's own case: `check fantasy --mod 9223372036854775807 --dc 5` is
/// refused, not wrapped into a negative total and odds of 7/20.
#[test]
fn the_largest_modifier_is_refused() {
    let request = CheckRequest::Fantasy(FantasyCheck {
        modifier: Numbers::One(i64::MAX),
        dc: Some(FantasyDc::Number(5)),
        ..Default::default()
    });
    let e = request.odds().unwrap_err();
    assert!(e.to_string().contains("overflows"), "{e}");
    assert!(request.roll(&mut Seeded::new(1)).is_err());
}

/// RULING N-1: whether a favor-3d6 test overflows does not depend on the
/// dice. A modifier that overflows with the highest roll is refused before
/// any die is rolled, even when the dice would all show 1 (a critical
/// failure ignores modifiers, so a roll of 1s used to slip through).
#[test]
fn a_favor_test_that_could_overflow_is_refused_whatever_the_dice() {
    let request = CheckRequest::Favor3d6(FavorCheck {
        modifier: Numbers::One(i64::MAX),
        dc: Some(5),
        ..FavorCheck::default()
    });
    let error = request.validate().unwrap_err();
    assert!(error.to_string().contains("overflow"), "{error}");
    let all_ones = request.roll(&mut nutshell_dice::Scripted::new([1, 1, 1]));
    assert!(all_ones.is_err());
    // The largest modifier that cannot overflow is accepted.
    let fits = CheckRequest::Favor3d6(FavorCheck {
        modifier: Numbers::One(i64::MAX - 36),
        dc: Some(5),
        ..FavorCheck::default()
    });
    assert!(fits.validate().is_ok());
}
