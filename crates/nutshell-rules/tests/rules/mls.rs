use super::*;
use nutshell_rules::Outcome;
use nutshell_rules::mls::{Check, Contest};

fn skill(s: i64) -> Check {
    Check {
        skill: s,
        modifier: 0,
    }
}

/// "A result of 15 or higher is a success, 20 or higher a critical success. 14
/// or less is a failure, 9 or less is a fumble." (Use of Skills; RULING M-1)
#[test]
fn four_outcomes_by_total() {
    let cases = [
        (&[1, 2, 3][..], 3, Outcome::Fumble),
        (&[2, 2, 2], 4, Outcome::Failure),
        (&[3, 3, 3], 6, Outcome::Success),
        (&[5, 5, 4], 6, Outcome::CriticalSuccess),
    ];
    for (f, s, expected) in cases {
        let r = skill(s).roll(&mut faces(f)).unwrap();
        assert_eq!(r.outcome, expected, "{f:?} + {s}");
    }
    // Boundaries: 9 fumble, 10 failure, 14 failure, 15 success, 19 success, 20 critical.
    for (total, expected) in [
        (9, Outcome::Fumble),
        (10, Outcome::Failure),
        (14, Outcome::Failure),
        (15, Outcome::Success),
        (19, Outcome::Success),
        (20, Outcome::CriticalSuccess),
    ] {
        assert_eq!(nutshell_rules::mls::tier(total), expected, "{total}");
    }
    let r = Check {
        skill: 10,
        modifier: -3,
    }
    .roll(&mut faces(&[2, 3, 4]))
    .unwrap();
    assert_eq!(r.total, Some(16));
    cites(&r, "Use of Skills");
}

/// "If a natural 18 is rolled (three 6s) then the score is ignored and the
/// result is treated as a Critical"; a natural 3 "as a Fumble" (RULING M-2).
#[test]
fn natural_18s_and_3s() {
    let r = Check {
        skill: -10,
        modifier: 0,
    }
    .roll(&mut faces(&[6, 6, 6]))
    .unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    cites(&r, "Natural 18s");
    let r = skill(20).roll(&mut faces(&[1, 1, 1])).unwrap();
    assert_eq!(r.outcome, Outcome::Fumble);
    cites(&r, "Natural 3s");
}

fn contest(a: i64, o: i64) -> Contest {
    Contest {
        active: skill(a),
        opponent: skill(o),
    }
}

/// "If the active roll is a success and higher than the opponent's roll the
/// action succeeds, if equal or less it fails." (Opposed Rolls; RULING M-3)
#[test]
fn opposed_rolls() {
    // Active 10+6 = 16 success vs 10+5 = 15: succeeds.
    let r = contest(6, 5).roll(&mut faces(&[3, 3, 4, 3, 3, 4])).unwrap();
    assert_eq!(r.winner, "first");
    // Equal totals: fails.
    let r = contest(5, 5).roll(&mut faces(&[3, 3, 4, 3, 3, 4])).unwrap();
    assert_eq!(r.winner, "none");
    // Higher but not a success (14 vs 10): fails.
    let r = contest(4, 0).roll(&mut faces(&[3, 3, 4, 3, 3, 4])).unwrap();
    assert_eq!(r.winner, "none");
}

/// "If both get a Critical success then the higher roll is reduced to a normal
/// success." (RULING M-3)
#[test]
fn both_critical_reduces_the_higher() {
    let r = contest(12, 11)
        .roll(&mut faces(&[3, 3, 4, 3, 3, 4]))
        .unwrap();
    // 22 vs 21: both critical; the active's 22 is reduced to a success and still wins.
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[0].outcome, Outcome::Success);
    assert_eq!(r.sides[1].outcome, Outcome::CriticalSuccess);
}

/// "A natural 18 beats any opponent result except another natural 18; a natural
/// 3 loses to any opponent result except another natural 3" (RULINGS M-2, M-3).
#[test]
fn naturals_in_opposed_rolls() {
    // Active natural 18 with a poor skill beats a big total.
    let r = contest(-10, 10)
        .roll(&mut faces(&[6, 6, 6, 5, 5, 5]))
        .unwrap();
    assert_eq!(r.winner, "first");
    // Opponent natural 18 beats the active critical.
    let r = contest(10, -10)
        .roll(&mut faces(&[5, 5, 5, 6, 6, 6]))
        .unwrap();
    assert_eq!(r.winner, "none");
    // Both natural 18: totals apply as normal (higher skill wins).
    let r = contest(2, 1).roll(&mut faces(&[6, 6, 6, 6, 6, 6])).unwrap();
    assert_eq!(r.winner, "first");
    let r = contest(1, 2).roll(&mut faces(&[6, 6, 6, 6, 6, 6])).unwrap();
    assert_eq!(r.winner, "none");
    // Active natural 3 loses even against a fumble.
    let r = contest(20, -10)
        .roll(&mut faces(&[1, 1, 1, 2, 1, 1]))
        .unwrap();
    assert_eq!(r.winner, "none");
    // Opponent natural 3: the active side wins even with a failure.
    let r = contest(0, 20)
        .roll(&mut faces(&[2, 2, 2, 1, 1, 1]))
        .unwrap();
    assert_eq!(r.winner, "first");
}

#[test]
fn exact_odds() {
    // Skill 5: a critical needs 3d6 >= 15 (10 + 6 + 3 + 1 ways); a success
    // 3d6 10..14 (27 + 27 + 25 + 21 + 15 ways).
    let odds = skill(5).odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(20, 216)));
    assert_eq!(odds.probability("success"), Some(&ratio(115, 216)));
    // Fumble: total <= 9 means 3d6 <= 4 (4 ways), plus nothing else.
    assert_eq!(odds.probability("fumble"), Some(&ratio(4, 216)));
    let sum: BigRational = odds.outcomes.iter().map(|o| o.exact.clone()).sum();
    assert_eq!(sum, ratio(1, 1));
    // A natural 3 fumbles even with skill 20; a natural 18 is critical with skill -20.
    assert_eq!(
        skill(20).odds().unwrap().probability("fumble"),
        Some(&ratio(1, 216))
    );
    assert_eq!(
        skill(-20).odds().unwrap().probability("critical-success"),
        Some(&ratio(1, 216))
    );
    let contest_odds = contest(5, 5).odds().unwrap();
    assert!(contest_odds.probability("first").unwrap() < &ratio(1, 2));
}

/// "If the active roll is a success and higher than the opponent's roll the
/// action succeeds, if equal or less it fails. Fumbles still apply." (Opposed
/// Rolls; RULING M-3): a side that fumbles keeps its fumble in the contest.
#[test]
fn fumbles_still_apply_in_opposed_rolls() {
    // Active 2+2+2 = 6: a fumble; opponent 5+5+5 = 15.
    let r = contest(0, 0).roll(&mut faces(&[2, 2, 2, 5, 5, 5])).unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(r.sides[0].outcome, Outcome::Fumble);
    // The opponent fumbles (2+2+3 = 7) and the active side succeeds (16).
    let r = contest(0, 0).roll(&mut faces(&[6, 5, 5, 2, 2, 3])).unwrap();
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[1].outcome, Outcome::Fumble);
}

/// "If a natural 18 is rolled ... the result is treated as a Critical against a
/// Failure ... If the enemy rolled a Fumble this still applies." (Natural 18s;
/// RULING M-3): the natural 18 wins, and the enemy's fumble stands.
#[test]
fn a_natural_18_against_a_fumble() {
    let r = contest(0, 0).roll(&mut faces(&[6, 6, 6, 1, 2, 2])).unwrap();
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[0].outcome, Outcome::CriticalSuccess);
    assert_eq!(r.sides[1].outcome, Outcome::Fumble);
}

/// "If a natural 3 is rolled ... the result is treated as a Fumble against a
/// Success ... If the enemy rolled a Critical this still applies." (Natural 3s;
/// RULING M-3): against a natural 3 the enemy's critical stands and wins.
#[test]
fn a_natural_3_against_a_critical() {
    // The active side rolls a natural 3; the opponent 6+6+5 + 5 = 22, a critical.
    let r = contest(0, 5).roll(&mut faces(&[1, 1, 1, 6, 6, 5])).unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(r.sides[0].outcome, Outcome::Fumble);
    assert_eq!(r.sides[1].outcome, Outcome::CriticalSuccess);
    // The opponent rolls the natural 3; the active side's critical (5+5+6 + 5
    // = 21) stands and succeeds.
    let r = contest(5, 0).roll(&mut faces(&[5, 5, 6, 1, 1, 1])).unwrap();
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[0].outcome, Outcome::CriticalSuccess);
    assert_eq!(r.sides[1].outcome, Outcome::Fumble);
}

/// "the result is treated as a Critical against a Failure even if the other
/// character rolled a success or a critical" (mls, Natural 18s): the other
/// side of a natural 18 counts as a failure, whichever side rolled it.
#[test]
fn the_other_side_of_a_natural_18_counts_as_a_failure() {
    // Active natural 18 against the opponent's 4+4+4 + 5 = 17, a success.
    let r = contest(0, 5).roll(&mut faces(&[6, 6, 6, 4, 4, 4])).unwrap();
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[1].outcome, Outcome::Failure);
    // Active 5+5+5 + 10 = 25, a critical, against the opponent's natural 18.
    let r = contest(10, 0)
        .roll(&mut faces(&[5, 5, 5, 6, 6, 6]))
        .unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(r.sides[0].outcome, Outcome::Failure);
    assert_eq!(r.sides[1].outcome, Outcome::CriticalSuccess);
}

/// "the result is treated as a Fumble against a Success even if the other
/// character rolled a failure or a fumble" (mls, Natural 3s): the other side
/// of a natural 3 counts as a success, whichever side rolled it.
#[test]
fn the_other_side_of_a_natural_3_counts_as_a_success() {
    // Active natural 3 against the opponent's 1+1+2 + 0 = 4, a fumble by its
    // total: it still counts as a success.
    let r = contest(10, 0)
        .roll(&mut faces(&[1, 1, 1, 1, 1, 2]))
        .unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(r.sides[0].outcome, Outcome::Fumble);
    assert_eq!(r.sides[1].outcome, Outcome::Success);
    // The opponent's natural 3 against the active side's 1+2+2 + 0 = 5, a fumble
    // by its total: the active side counts as a success and wins.
    let r = contest(0, 10)
        .roll(&mut faces(&[1, 2, 2, 1, 1, 1]))
        .unwrap();
    assert_eq!(r.winner, "first");
    assert_eq!(r.sides[0].outcome, Outcome::Success);
}

/// "If both get a Critical success then the higher roll is reduced to a normal
/// success" (mls, Opposed Rolls; RULING M-3). With equal totals neither roll is
/// higher: both stay critical, and the active side, not higher, fails.
#[test]
fn equal_critical_totals_reduce_neither_side() {
    let r = contest(10, 10)
        .roll(&mut faces(&[4, 4, 4, 4, 4, 4]))
        .unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(r.sides[0].outcome, Outcome::CriticalSuccess);
    assert_eq!(r.sides[1].outcome, Outcome::CriticalSuccess);
    let said: Vec<_> = r.transcript.iter().map(|s| s.text.as_str()).collect();
    assert!(
        said.iter().any(|t| t.contains("neither is reduced")),
        "{said:?}"
    );
}

/// Project ruling P-13: the contest's result is the active side's: it succeeds
/// (`first`) or nothing happens (`none`); the opponent never "wins".
#[test]
fn p13_the_result_is_the_active_sides() {
    // The opponent's 18 (6+6+6) beats the active 10 (4+3+3).
    let r = contest(0, 0).roll(&mut faces(&[4, 3, 3, 6, 6, 6])).unwrap();
    assert_eq!(r.winner, "none");
    let odds = contest(5, 5).odds().unwrap();
    let names: Vec<&str> = odds.outcomes.iter().map(|o| o.outcome.as_str()).collect();
    assert_eq!(names, ["none", "first"]);
}
