//! The exact odds of every ruleset against seeded sampling.

use nutshell_dice::Seeded;
use nutshell_rules::OutcomeOdds;
use std::collections::BTreeMap;

#[track_caller]
fn agrees(odds: &OutcomeOdds, mut roll: impl FnMut(&mut Seeded) -> String, n: u32) {
    let mut dice = Seeded::new(99);
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..n {
        *counts.entry(roll(&mut dice)).or_default() += 1;
    }
    for o in &odds.outcomes {
        let p = o.percent / 100.0;
        let expected = p * f64::from(n);
        let sd = (expected * (1.0 - p)).sqrt();
        let seen = f64::from(counts.get(&o.outcome).copied().unwrap_or(0));
        assert!(
            (seen - expected).abs() <= 5.0 * sd + 3.0,
            "{}: {} seen {seen}, expected {expected:.1}",
            odds.ruleset,
            o.outcome
        );
    }
    for k in counts.keys() {
        assert!(
            odds.outcomes.iter().any(|o| &o.outcome == k),
            "{k} rolled but not in the odds"
        );
    }
}

#[test]
fn every_ruleset_agrees_with_sampling() {
    use nutshell_rules::*;
    let f = fantasy::Check {
        modifier: 4,
        dc: 15,
        crit_success: true,
        crit_failure: true,
        reroll: fantasy::Reroll::Own,
        ..Default::default()
    };
    agrees(
        &f.odds().unwrap(),
        |d| f.roll(d).unwrap().outcome.id().into(),
        40_000,
    );
    let m = mls::Check {
        skill: 6,
        modifier: -1,
    };
    agrees(
        &m.odds().unwrap(),
        |d| m.roll(d).unwrap().outcome.id().into(),
        40_000,
    );
    let mc = mls::Contest {
        active: mls::Check {
            skill: 8,
            modifier: 0,
        },
        opponent: mls::Check {
            skill: 6,
            modifier: 0,
        },
    };
    agrees(
        &mc.odds().unwrap(),
        |d| mc.roll(d).unwrap().winner.into(),
        40_000,
    );
    let x = exploding_d6::Check {
        score: 2,
        difficulty: 8,
        helpers: vec![1],
        ..Default::default()
    };
    agrees(
        &x.odds().unwrap(),
        |d| x.roll(d).unwrap().outcome.id().into(),
        40_000,
    );
    let xc = exploding_d6::Contest {
        first: exploding_d6::Check {
            score: 2,
            ..Default::default()
        },
        second: exploding_d6::Check {
            score: 1,
            ..Default::default()
        },
    };
    agrees(
        &xc.odds().unwrap(),
        |d| xc.roll(d).unwrap().winner.into(),
        40_000,
    );
    let t = tiered_d20::Check {
        skill: 3,
        dc: 14,
        edges: 2,
        advantage: 1,
        bonuses: vec![1, 2],
        ..Default::default()
    };
    agrees(
        &t.odds().unwrap(),
        |d| t.roll(d).unwrap().outcome.id().into(),
        40_000,
    );
    let v = favor_3d6::Test {
        modifier: 1,
        td: 12,
        favor: 2,
        ..Default::default()
    };
    agrees(
        &v.odds().unwrap(),
        |d| v.roll(d).unwrap().outcome.id().into(),
        40_000,
    );
    let vc = favor_3d6::Contest {
        first: favor_3d6::Side {
            test: favor_3d6::Test {
                modifier: 1,
                ..Default::default()
            },
            ..Default::default()
        },
        second: favor_3d6::Side::default(),
    };
    agrees(
        &vc.odds().unwrap(),
        |d| vc.roll(d).unwrap().winner.into(),
        40_000,
    );
}
