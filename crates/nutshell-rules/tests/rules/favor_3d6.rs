use super::*;
use nutshell_rules::Outcome;
use nutshell_rules::favor_3d6::{Contest, Side, Test};

fn test(modifier: i64, td: i64) -> Test {
    Test {
        modifier,
        td,
        ..Default::default()
    }
}

/// "a player rolls #3d6 and adds their modifier ... The test difficulty is the
/// minimum roll needed to succeed" (Rolls and Tests, Test Difficulty; RULING V-2).
#[test]
fn three_d6_against_the_td() {
    let r = test(2, 10).roll(&mut faces(&[3, 2, 3])).unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::Success, Some(10)));
    let r = test(2, 10).roll(&mut faces(&[3, 2, 2])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    // The text's example: an Agility test with TD 10 succeeds on 10 or higher.
    assert_eq!(
        test(0, 10).roll(&mut faces(&[4, 3, 3])).unwrap().outcome,
        Outcome::Success
    );
}

/// "For each point of favor you have on a roll, you roll an additional 1d6. For
/// each point of disfavor ... you remove a d6. If you have enough disfavor to
/// roll zero dice, the test is automatically failed." (RULING V-1)
#[test]
fn favor_and_disfavor() {
    let r = Test {
        favor: 1,
        ..test(0, 10)
    }
    .roll(&mut faces(&[1, 2, 3, 4]))
    .unwrap();
    assert_eq!((r.total, r.dice.len()), (Some(10), 4));
    let r = Test {
        disfavor: 1,
        ..test(0, 5)
    }
    .roll(&mut faces(&[2, 3]))
    .unwrap();
    assert_eq!((r.total, r.dice.len()), (Some(5), 2));
    let r = Test {
        disfavor: 3,
        ..test(50, 0)
    }
    .roll(&mut faces(&[]))
    .unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Failure, 0));
    assert_eq!(
        Test {
            disfavor: 4,
            ..test(50, 0)
        }
        .odds()
        .unwrap()
        .probability("failure"),
        Some(&ratio(1, 1))
    );
}

/// "If three or more 6's are rolled during a test, it is considered a critical
/// success. Its roll's overall value, before modifiers, is doubled. So if you
/// roll 18 on a test using 3d6, treat it as if you rolled a 36." (RULING V-2)
#[test]
fn critical_success() {
    let r = test(1, 100).roll(&mut faces(&[6, 6, 6])).unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::CriticalSuccess, Some(37)));
    let r = Test {
        favor: 1,
        ..test(0, 100)
    }
    .roll(&mut faces(&[6, 2, 6, 6]))
    .unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::CriticalSuccess, Some(40)));
    // "Critical successes are ... impossible with disfavor".
    assert_eq!(
        Test {
            disfavor: 1,
            ..test(0, 5)
        }
        .odds()
        .unwrap()
        .probability("critical-success"),
        Some(&ratio(0, 1))
    );
}

/// "If every die rolled during a test is a 1, it is considered a critical
/// failure. The roll's value becomes 0 and ignores modifiers. If you had a point
/// of disfavor on a test and you rolled a 2, you would have rolled a critical
/// failure." (RULING V-2)
#[test]
fn critical_failure() {
    let r = test(20, 5).roll(&mut faces(&[1, 1, 1])).unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::CriticalFailure, Some(0)));
    let r = Test {
        disfavor: 1,
        ..test(10, 2)
    }
    .roll(&mut faces(&[1, 1]))
    .unwrap();
    assert_eq!(
        (r.outcome, r.natural),
        (Outcome::CriticalFailure, Some(2)),
        "with one disfavor, rolling 2 is a critical failure"
    );
}

fn side(modifier: i64) -> Side {
    Side {
        test: test(modifier, 0),
        ..Default::default()
    }
}

/// "your test will be compared to another's test, and the higher roll will win"
/// and the Tie Breakers (RULING V-3).
#[test]
fn contests_and_tie_breakers() {
    let c = Contest {
        first: side(0),
        second: side(0),
    };
    assert_eq!(
        c.roll(&mut faces(&[4, 4, 4, 3, 3, 3])).unwrap().winner,
        "first"
    );
    // PC beats NPC.
    let c = Contest {
        first: side(0),
        second: Side {
            pc: true,
            ..side(0)
        },
    };
    assert_eq!(
        c.roll(&mut faces(&[3, 3, 3, 3, 3, 3])).unwrap().winner,
        "second"
    );
    // Both NPCs: the defender wins.
    let c = Contest {
        first: Side {
            defender: true,
            ..side(0)
        },
        second: side(0),
    };
    assert_eq!(
        c.roll(&mut faces(&[3, 3, 3, 3, 3, 3])).unwrap().winner,
        "first"
    );
    // Neither defending: the better modifier (totals equal: 9+1 vs 10+0).
    let c = Contest {
        first: side(1),
        second: side(0),
    };
    assert_eq!(
        c.roll(&mut faces(&[3, 3, 3, 4, 3, 3])).unwrap().winner,
        "first"
    );
    // Same modifier: higher level or DR.
    let c = Contest {
        first: side(0),
        second: Side {
            level: 3,
            ..side(0)
        },
    };
    assert_eq!(
        c.roll(&mut faces(&[3, 3, 3, 3, 3, 3])).unwrap().winner,
        "second"
    );
    // All equal: chance, a d2 from the same dice.
    let c = Contest {
        first: side(0),
        second: side(0),
    };
    let r = c.roll(&mut faces(&[3, 3, 3, 3, 3, 3, 2])).unwrap();
    assert_eq!(r.winner, "second");
    assert!(r.transcript.iter().any(|s| s.rule.contains("Tie Breakers")));
    assert_eq!(c.odds().unwrap().probability("first"), Some(&ratio(1, 2)));
}

#[test]
fn exact_odds() {
    let odds = test(0, 10).odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(1, 216)));
    assert_eq!(odds.probability("critical-failure"), Some(&ratio(1, 216)));
    // 3d6 >= 10 is 135/216, less the 18 counted as a critical success.
    assert_eq!(odds.probability("success"), Some(&ratio(134, 216)));
    // With favor: P(three or more 6s on 4d6) = (1 + 4*5)/1296.
    assert_eq!(
        Test {
            favor: 1,
            ..test(0, 100)
        }
        .odds()
        .unwrap()
        .probability("critical-success"),
        Some(&ratio(21, 1296))
    );
}

/// "If you have enough disfavor to roll zero dice, the test is automatically
/// failed." (Favor and Disfavor; project ruling P-11): a failed test never
/// beats a rolled one, however low its total.
#[test]
fn p11_no_dice_never_beats_a_rolled_test() {
    let none = Side {
        test: Test {
            disfavor: 3,
            modifier: 5,
            ..test(0, 0)
        },
        ..Default::default()
    };
    let c = Contest {
        first: none,
        second: side(-15),
    };
    let r = c.roll(&mut faces(&[1, 2, 3])).unwrap();
    assert_eq!(r.winner, "second", "6 - 15 = -9 still beats no roll at all");
    assert_eq!(r.sides[0].outcome, Outcome::Failure);
    assert_eq!(r.sides[1].outcome, Outcome::Success);
    assert!(r.transcript.iter().any(|s| s.text.contains("never beats")));
    let odds = c.odds().unwrap();
    assert_eq!(odds.probability("second"), Some(&ratio(1, 1)));
    assert_eq!(odds.probability("first"), Some(&ratio(0, 1)));
    // Both without dice: neither wins.
    let c = Contest {
        first: none,
        second: none,
    };
    let r = c.roll(&mut faces(&[])).unwrap();
    assert_eq!(r.winner, "none");
    assert_eq!(c.odds().unwrap().probability("none"), Some(&ratio(1, 1)));
}

/// "If every die rolled during a test is a 1, it is considered a critical
/// failure. The roll's value becomes 0 and ignores modifiers." (Critical
/// Successes and Failures; project ruling P-11): a critical failure loses to
/// any other rolled total, even a negative one; two critical failures tie.
#[test]
fn p11_a_critical_failure_loses_to_a_negative_total() {
    let c = Contest {
        first: side(5),
        second: side(-40),
    };
    // A: 1, 1, 1 (critical failure, 0); B: 2, 2, 2 - 40 = -34.
    let r = c.roll(&mut faces(&[1, 1, 1, 2, 2, 2])).unwrap();
    assert_eq!(r.winner, "second");
    assert_eq!(r.sides[0].outcome, Outcome::CriticalFailure);
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("critical failure loses"))
    );
    // Exactly: A loses only on 1, 1, 1 (1/216) against any roll but B's 1, 1, 1;
    // B's every other roll totals at most 36 - 40 < 0 and A's at least 8, so A
    // wins the rest, and the tie of two critical failures goes to the better
    // modifier (A).
    let odds = c.odds().unwrap();
    assert_eq!(
        odds.probability("second"),
        Some(&(ratio(1, 216) * ratio(215, 216)))
    );
}

/// Project ruling P-12: "one is chosen at random" is a d2 from the same dice
/// source (1: the first side, 2: the second), so typed faces include it.
#[test]
fn p12_the_random_tie_breaker_is_a_d2() {
    let c = Contest {
        first: side(0),
        second: side(0),
    };
    let r = c.roll(&mut faces(&[3, 3, 3, 3, 3, 3, 2])).unwrap();
    assert_eq!(r.winner, "second");
    let last = r.sides[1].dice.last().unwrap();
    assert_eq!((last.die.as_str(), last.face), ("d2", 2));
    let r = c.roll(&mut faces(&[3, 3, 3, 3, 3, 3, 1])).unwrap();
    assert_eq!(r.winner, "first");
    // Exact odds: a tie is split evenly.
    assert_eq!(c.odds().unwrap().probability("first"), Some(&ratio(1, 2)));
}

/// Each side of a contest carries its own steps; the contest's transcript
/// holds the comparison and the tie-breakers (Contesting; RULING V-3).
#[test]
fn contest_sides_have_their_own_transcripts() {
    let c = Contest {
        first: side(1),
        second: Side {
            test: Test {
                favor: 1,
                ..test(0, 0)
            },
            ..Default::default()
        },
    };
    let r = c.roll(&mut faces(&[2, 3, 4, 6, 6, 6, 1])).unwrap();
    assert_eq!(r.sides[0].total, Some(10));
    assert_eq!(r.sides[1].total, Some(2 * 19), "three 6s: doubled");
    assert_eq!(r.winner, "second");
    let a = &r.sides[0].transcript;
    let b = &r.sides[1].transcript;
    assert!(a.iter().all(|s| s.text.starts_with("A: ")), "{a:#?}");
    assert!(b.iter().all(|s| s.text.starts_with("B: ")), "{b:#?}");
    assert!(b.iter().any(|s| s.rule.contains("Favor and Disfavor")));
    assert!(b.iter().any(|s| s.rule.contains("Critical Successes")));
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("totals: A 10, B 38"))
    );
}
