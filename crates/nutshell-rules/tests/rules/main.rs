//! The rulesets, rule by rule: each test cites the rule text's heading or the
//! ruling it checks, and the texts' worked examples are tests.

mod exploding_d6;
mod fantasy;
mod favor_3d6;
mod mls;
mod overflow;
mod sampling;
mod table;
mod tiered_d20;

use num_bigint::BigInt;
use num_rational::BigRational;
use nutshell_dice::Scripted;

pub fn faces(f: &[i64]) -> Scripted {
    Scripted::new(f.iter().copied())
}

pub fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Asserts that a transcript cites `rule` in some step.
#[track_caller]
pub fn cites(result: &nutshell_rules::CheckResult, rule: &str) {
    assert!(
        result.transcript.iter().any(|s| s.rule.contains(rule)),
        "no step cites {rule}: {:#?}",
        result.transcript
    );
}
