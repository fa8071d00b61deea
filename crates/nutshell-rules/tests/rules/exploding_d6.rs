use super::*;
use num_bigint::BigInt;
use num_rational::BigRational;
use nutshell_rules::Outcome;
use nutshell_rules::exploding_d6::{Check, Contest};

fn check(score: i64, difficulty: i64) -> Check {
    Check {
        score,
        difficulty,
        ..Default::default()
    }
}

/// "[d6 roll + Score ± Modifiers] = Result ... The Result of your roll must equal
/// or exceed to the Difficulty number to be successful." (RULING X-1)
#[test]
fn result_against_difficulty() {
    let r = Check {
        modifier: -1,
        ..check(3, 6)
    }
    .roll(&mut faces(&[4]))
    .unwrap();
    assert_eq!(
        (r.outcome, r.total, r.margin),
        (Outcome::Success, Some(6), Some(0))
    );
    let r = check(3, 7).roll(&mut faces(&[3])).unwrap();
    assert_eq!((r.outcome, r.margin), (Outcome::Failure, Some(-1)));
    cites(&r, "Success (S)");
}

/// "If a 6 is rolled, re-roll it again and again as long as 6's continue. Add
/// all of these d6 rolls together" (Explode (6); RULING X-2)
#[test]
fn sixes_explode() {
    let r = check(0, 20).roll(&mut faces(&[6, 6, 3])).unwrap();
    assert_eq!((r.natural, r.total), (Some(15), Some(15)));
    cites(&r, "Explode (6)");
}

/// "If you roll 1 on a die, re-roll to check for a Botch. If a 1 is rolled again,
/// you Botch ... For any other number, your d6 roll is just a 1. Bonus rolls
/// from Exploding dice do not Botch. ... Whenever a Character Botches, they get
/// +1 Experience Point" (Botch (1); RULING X-3)
#[test]
fn botches() {
    let r = check(10, 5).roll(&mut faces(&[1, 1])).unwrap();
    assert_eq!(
        (r.outcome, r.experience_of("the roller")),
        (Outcome::Botch, 1)
    );
    let r = check(4, 5).roll(&mut faces(&[1, 5])).unwrap();
    assert_eq!(
        (r.outcome, r.natural, r.total),
        (Outcome::Success, Some(1), Some(5)),
        "the check die is not added"
    );
    let r = check(0, 0).roll(&mut faces(&[6, 1])).unwrap();
    assert_eq!(
        (r.outcome, r.natural, r.dice.len()),
        (Outcome::Success, Some(7), 2),
        "an exploded 1 does not botch"
    );
}

/// "If your [(Score + Modifiers) >= #] before the d6 roll, and you can take your
/// time, you Succeed automatically." (Rote Actions; RULING X-4)
#[test]
fn rote_actions() {
    let r = Check {
        rote: true,
        ..check(5, 5)
    }
    .roll(&mut faces(&[]))
    .unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 0));
    cites(&r, "Rote Actions");
    let r = Check {
        rote: true,
        ..check(4, 5)
    }
    .roll(&mut faces(&[2]))
    .unwrap();
    assert_eq!(
        (r.outcome, r.dice.len()),
        (Outcome::Success, 1),
        "no rote success: rolled"
    );
    let odds = Check {
        rote: true,
        ..check(5, 5)
    }
    .odds()
    .unwrap();
    assert_eq!(odds.probability("success"), Some(&ratio(1, 1)));
}

/// "they all roll at once but only the best roll is used, unless someone
/// Botches ... in which case the Botch is used." (Cooperation; RULING X-5)
#[test]
fn cooperation() {
    let coop = Check {
        helpers: vec![1, 2],
        ..check(3, 9)
    };
    let r = coop.roll(&mut faces(&[2, 5, 4])).unwrap();
    // Results 5, 6, 6: best 6 < 9.
    assert_eq!((r.outcome, r.total), (Outcome::Failure, Some(6)));
    let r = coop.roll(&mut faces(&[6, 2, 3, 5])).unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::Success, Some(11)));
    let r = coop.roll(&mut faces(&[6, 3, 1, 1, 5])).unwrap();
    assert_eq!(r.outcome, Outcome::Botch, "a helper's botch is the group's");
    cites(&r, "Cooperation");
}

/// "Re-roll ties on opposed rolls." (RULING X-6)
#[test]
fn opposed_rolls_reroll_ties() {
    let c = Contest {
        first: check(2, 0),
        second: check(3, 0),
    };
    let r = c.roll(&mut faces(&[4, 3, 5, 2])).unwrap();
    // 6 vs 6: tie, re-roll; 7 vs 5: A wins.
    assert_eq!(r.winner, "first");
    assert!(r.transcript.iter().any(|s| s.text.contains("tie")));
    let r = c.roll(&mut faces(&[1, 1, 2])).unwrap();
    assert_eq!(r.winner, "second", "a botch loses");
}

#[test]
fn exact_odds() {
    // Score 0 vs # 4: d6 roll >= 4: faces 4, 5 (2/6) and 6 (always >= 4): 1/2.
    let odds = check(0, 4).odds().unwrap();
    assert_eq!(odds.probability("success"), Some(&ratio(1, 2)));
    assert_eq!(odds.probability("botch"), Some(&ratio(1, 36)));
    assert_eq!(odds.probability("failure"), Some(&ratio(17, 36)));
    // # 8 with score 0: a 6, then anything but a 1 (a 6 explodes on past 8):
    // 1/6 * 5/6, exact without a tail.
    let odds = check(0, 8).odds().unwrap();
    assert_eq!(odds.probability("success"), Some(&ratio(5, 36)));
    assert_eq!(odds.tail, "0");
    // Cooperation: a botch by anyone.
    let odds = Check {
        helpers: vec![0],
        ..check(0, 4)
    }
    .odds()
    .unwrap();
    assert_eq!(
        odds.probability("botch"),
        Some(&(ratio(1, 1) - ratio(35 * 35, 36 * 36)))
    );
    // Opposed: equal sides win half the time.
    let odds = Contest {
        first: check(2, 0),
        second: check(2, 0),
    }
    .odds()
    .unwrap();
    assert_eq!(odds.probability("first"), Some(&ratio(1, 2)));
}

/// "If your [(Score + Modifiers) >= #] before the d6 roll, and you can take your
/// time, you Succeed automatically." (Rote Actions; project ruling P-7): helpers
/// do not turn a rote success into a roll that can botch.
#[test]
fn p7_rote_success_with_helpers() {
    let c = Check {
        rote: true,
        helpers: vec![0, 2],
        ..check(9, 5)
    };
    let r = c.roll(&mut faces(&[])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 0));
    cites(&r, "Rote Actions");
    assert!(
        r.transcript[0].text.contains("rote action"),
        "{:?}",
        r.transcript
    );
    let odds = c.odds().unwrap();
    assert_eq!(odds.probability("success"), Some(&ratio(1, 1)));
    assert_eq!(odds.probability("botch"), Some(&ratio(0, 1)));
    // Short of #: everyone rolls, and the transcript still says why.
    let c = Check {
        rote: true,
        helpers: vec![0],
        ..check(4, 5)
    };
    let r = c.roll(&mut faces(&[2, 3])).unwrap();
    assert_eq!(r.dice.len(), 2);
    assert!(r.transcript[0].text.contains("no rote success"));
}

/// "Whenever a Character Botches, they get +1 Experience Point" (Botch (1)): the
/// experience goes to whoever botched, the roller or a helper, each of them.
#[test]
fn experience_goes_to_whoever_botched() {
    let coop = Check {
        helpers: vec![1, 2],
        ..check(3, 9)
    };
    // The roller rolls 4; helper 1 botches (1, 1); helper 2 botches (1, 1).
    let r = coop.roll(&mut faces(&[4, 1, 1, 1, 1])).unwrap();
    assert_eq!(r.outcome, Outcome::Botch);
    assert_eq!(r.experience_of("the roller"), 0);
    assert_eq!(r.experience_of("helper 1"), 1);
    assert_eq!(r.experience_of("helper 2"), 1);
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("helper 1, helper 2")),
        "{:?}",
        r.transcript
    );
    // Nobody botches: no experience.
    let r = coop.roll(&mut faces(&[4, 2, 3])).unwrap();
    assert!(r.experience.is_empty());
}

/// "Whenever a Character Botches, they get +1 Experience Point" and "Re-roll
/// ties on opposed rolls" (RULING X-6, P-6): two botches are a tie, and both
/// sides keep their point; each side lists its own dice.
#[test]
fn contest_experience_and_dice_per_side() {
    let c = Contest {
        first: check(0, 0),
        second: check(0, 0),
    };
    // Both botch (a tie), then A botches again and B rolls 3.
    let r = c.roll(&mut faces(&[1, 1, 1, 1, 1, 1, 3])).unwrap();
    assert_eq!(r.winner, "second");
    assert_eq!(r.sides[0].experience_of("side A"), 2);
    assert_eq!(r.sides[1].experience_of("side B"), 1);
    let a: Vec<i64> = r.sides[0].dice.iter().map(|d| d.face).collect();
    let b: Vec<i64> = r.sides[1].dice.iter().map(|d| d.face).collect();
    assert_eq!((a, b), (vec![1, 1, 1, 1], vec![1, 1, 3]));
}

/// Project ruling P-5: a rolled die stops at the explosion limit, reported; the
/// exact odds of a check have no limit and no tail.
#[test]
fn p5_the_explosion_limit() {
    let c = Check {
        max_explosions: 2,
        ..check(0, 100)
    };
    let r = c.roll(&mut faces(&[6, 6, 6])).unwrap();
    assert_eq!((r.natural, r.dice.len()), (Some(18), 3));
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("explosion limit of 2 is reached"))
    );
    // # 30: five 6s in a row (24 + at most 5 is 29): 1/6^5, exactly, no tail.
    let odds = check(0, 30).odds().unwrap();
    assert_eq!(odds.probability("success"), Some(&ratio(1, 7776)));
    assert_eq!(odds.tail, "0");
    // # 600, far past the explosion limit of rolled dice: still exact. A first
    // 6 (1/6), then E >= 594 for the bonus dice: 6^-98 * 1/6. In all 6^-100.
    let odds = check(0, 600).odds().unwrap();
    let p = odds.probability("success").unwrap();
    assert_eq!(p.denom(), &BigInt::from(6).pow(100));
    // Far beyond any exact answer: refused, not truncated.
    let e = check(0, 1_000_000).odds().unwrap_err();
    assert!(e.to_string().contains("chain of"), "{e}");
}

/// Contest odds are exact in closed form (P-5, RULING X-6): they lie within a
/// direct sum over chains of at most 20 explosions and that sum plus the
/// probability it leaves out.
#[test]
fn contest_odds_in_closed_form() {
    use nutshell_rules::exploding_d6::series;
    for (a, b) in [(0, 0), (3, 2), (-4, 9), (13, 0), (0, 13), (2, 40)] {
        let (wins, ties) = series::compare(a, b).unwrap();
        let (lo_wins, lo_ties, left_out) = truncated_compare(a, b, 20);
        assert!(
            wins >= lo_wins && wins <= &lo_wins + &left_out,
            "{a} vs {b}"
        );
        assert!(
            ties >= lo_ties && ties <= &lo_ties + &left_out,
            "{a} vs {b}"
        );
    }
    // The odds of equal sides are 1/2; of 3 against 2, a small rational.
    let c = |a, b| {
        Contest {
            first: check(a, 0),
            second: check(b, 0),
        }
        .odds()
        .unwrap()
    };
    assert_eq!(c(5, 5).probability("first"), Some(&ratio(1, 2)));
    let p = c(3, 2).probability("first").unwrap().clone();
    assert!(p.denom() < &BigInt::from(10_000_000), "{p}");
    assert!(c(3, 2).tail == "0");
}

/// The d6 roll of one character, by direct enumeration of chains of at most
/// `depth` explosions: (value or botch, probability), and the mass left out.
fn d6_roll_by_chains(depth: u32) -> (Vec<(Option<i64>, BigRational)>, BigRational) {
    let mut out = vec![(None, ratio(1, 36)), (Some(1), ratio(5, 36))];
    for v in 2..=5 {
        out.push((Some(v), ratio(1, 6)));
    }
    for k in 1..=depth {
        let p = BigRational::new(1.into(), BigInt::from(6).pow(k + 1));
        for t in 1..=5 {
            out.push((Some(6 * i64::from(k) + t), p.clone()));
        }
    }
    let left_out = BigRational::new(1.into(), BigInt::from(6).pow(depth + 1));
    (out, left_out)
}

fn truncated_compare(a: i64, b: i64, depth: u32) -> (BigRational, BigRational, BigRational) {
    let (rolls, left_out) = d6_roll_by_chains(depth);
    let mut wins = ratio(0, 1);
    let mut ties = ratio(0, 1);
    for (x, p) in &rolls {
        for (y, q) in &rolls {
            let rx = x.map(|v| v + a);
            let ry = y.map(|v| v + b);
            if rx > ry {
                wins += p * q;
            } else if rx == ry {
                ties += p * q;
            }
        }
    }
    // Either side's missing chains: at most twice the mass left out.
    (wins, ties, &left_out + &left_out)
}

/// Project ruling P-6: in opposed rolls a botch is the lowest result: it loses
/// to any Result, and two botches are a tie, re-rolled.
#[test]
fn p6_a_botch_is_the_lowest_result() {
    let c = Contest {
        first: check(0, 0),
        second: check(-10, 0),
    };
    // A botches; B's Result is 2 - 10 = -8, and still wins.
    let r = c.roll(&mut faces(&[1, 1, 2])).unwrap();
    assert_eq!(r.winner, "second");
    assert_eq!(r.sides[0].outcome, Outcome::Botch);
    // Both botch: a tie, re-rolled: then 5 against 4 - 10.
    let r = c.roll(&mut faces(&[1, 1, 1, 1, 5, 4])).unwrap();
    assert_eq!(r.winner, "first");
    assert!(r.transcript.iter().any(|s| s.text.contains("tie")));
}
