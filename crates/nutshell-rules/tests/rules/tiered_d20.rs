use super::*;
use nutshell_rules::Outcome;
use nutshell_rules::tiered_d20::{Check, Turn, edge_die, stack};

fn check(skill: i64, dc: i64) -> Check {
    Check {
        skill,
        dc,
        ..Default::default()
    }
}

/// Tiers by margin (RULING T-1): "If you beat the DC by 10 or more ... critical
/// success. If you fail the DC by 10 or more, you get a critical failure."
#[test]
fn four_tiers_by_margin() {
    // (DC, natural, tier) with skill 0: margins 10, 9, 0, -1, -9, -10.
    let cases = [
        (5, 15, Outcome::CriticalSuccess),
        (5, 14, Outcome::Success),
        (12, 12, Outcome::Success),
        (12, 11, Outcome::Failure),
        (12, 3, Outcome::Failure),
        (12, 2, Outcome::CriticalFailure),
    ];
    for (dc, n, expected) in cases {
        assert_eq!(
            check(0, dc).roll(&mut faces(&[n])).unwrap().outcome,
            expected,
            "natural {n} against {dc}"
        );
    }
    assert_eq!(
        check(0, 15).roll(&mut faces(&[5])).unwrap().outcome,
        Outcome::CriticalFailure
    );
    assert_eq!(
        check(10, 15).roll(&mut faces(&[15])).unwrap().outcome,
        Outcome::CriticalSuccess
    );
}

/// "A natural 20 on the d20 treats your result as 1 tier better ... A natural 1
/// ... as 1 tier worse" (Rolling a Natural 20 / 1; RULING T-2).
#[test]
fn natural_20_and_1_shift_tiers() {
    let r = check(0, 30).roll(&mut faces(&[20])).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Failure,
        "critical failure (margin -10) one better"
    );
    assert!(r.transcript.iter().any(
        |s| s.rule == "tiered-d20, Rolling a Natural 20 (RULING T-2)"
            && s.text.contains("one tier better")
    ));
    assert_eq!(
        check(0, 15).roll(&mut faces(&[20])).unwrap().outcome,
        Outcome::CriticalSuccess
    );
    assert_eq!(
        check(0, 5).roll(&mut faces(&[20])).unwrap().outcome,
        Outcome::CriticalSuccess,
        "at most critical success"
    );
    assert_eq!(
        check(20, 10).roll(&mut faces(&[1])).unwrap().outcome,
        Outcome::Success
    );
    assert_eq!(
        check(0, 20).roll(&mut faces(&[1])).unwrap().outcome,
        Outcome::CriticalFailure,
        "at least critical failure"
    );
}

/// Advantage and disadvantage (RULING T-3): roll a second d20, keep the higher
/// or lower; several do not stack; advantage and disadvantage cancel.
#[test]
fn advantage_and_disadvantage() {
    let adv = Check {
        advantage: 1,
        ..check(0, 10)
    };
    assert_eq!(adv.roll(&mut faces(&[3, 12])).unwrap().natural, Some(12));
    let dis = Check {
        disadvantage: 2,
        ..check(0, 10)
    };
    assert_eq!(dis.roll(&mut faces(&[3, 12])).unwrap().natural, Some(3));
    let both = Check {
        advantage: 2,
        disadvantage: 1,
        ..check(0, 10)
    };
    let r = both.roll(&mut faces(&[3])).unwrap();
    assert_eq!((r.natural, r.dice.len()), (Some(3), 1));
    assert_eq!(
        adv.odds().unwrap(),
        Check {
            advantage: 3,
            ..check(0, 10)
        }
        .odds()
        .unwrap(),
        "several do not stack"
    );
}

/// "if you had three edges (1d8) and rolled a 7 on the d8 and 4 on the d20, then
/// you would treat your roll as a natural 7 with a +4 bonus ... (for a total of
/// 11)" (Gaining Edge/Losing Edge; RULING T-4)
#[test]
fn edges_the_worked_example() {
    let c = Check {
        edges: 3,
        ..check(0, 10)
    };
    let r = c.roll(&mut faces(&[4, 7])).unwrap();
    assert_eq!((r.natural, r.total), (Some(7), Some(11)));
    assert_eq!(r.dice[1].die, "d8");
}

#[test]
fn edge_dice_and_cancelling() {
    assert_eq!(
        [1, 2, 3, 4, 5, 6, 9].map(edge_die),
        [
            Some(4),
            Some(6),
            Some(8),
            Some(10),
            Some(12),
            Some(12),
            Some(12)
        ]
    );
    // Gaining and losing cancel: 2 gained, 2 lost: no edge die.
    let r = Check {
        edges: 2,
        lost_edges: 2,
        ..check(0, 10)
    }
    .roll(&mut faces(&[12]))
    .unwrap();
    assert_eq!(r.dice.len(), 1);
    // A lost edge subtracts; the d20 stays the natural result.
    let r = Check {
        lost_edges: 1,
        ..check(0, 10)
    }
    .roll(&mut faces(&[12, 3]))
    .unwrap();
    assert_eq!((r.natural, r.total), (Some(12), Some(9)));
    // An edge die cannot be a natural 20, and a d20 of 1 under a higher edge die is not a natural 1.
    let r = Check {
        edges: 1,
        ..check(0, 10)
    }
    .roll(&mut faces(&[1, 3]))
    .unwrap();
    assert_eq!(r.natural, Some(3));
    assert_eq!(
        r.outcome,
        Outcome::Failure,
        "total 4 against 10: failure, no natural-1 shift"
    );
}

/// "If you gain/lose edge on a DC rather than a roll, you merely add/subtract
/// half the die to your DC (d4=+2, d6=+3, d8=+4, d10=+5, d12=+6)."
#[test]
fn edges_on_the_dc() {
    for (edges, dc) in [
        (1, 12),
        (2, 13),
        (3, 14),
        (4, 15),
        (5, 16),
        (-1, 8),
        (-5, 4),
    ] {
        assert_eq!(
            Check {
                dc_edges: edges,
                ..check(0, 10)
            }
            .effective_dc(),
            dc,
            "{edges}"
        );
    }
}

/// "if you had three +1 bonuses, two +2 bonuses, and a +3 bonus to a single
/// action, this would not add up to +10 ... the greatest they can stack to
/// equal to +6" (Bonuses & Penalties; RULING T-5)
#[test]
fn bonus_stacking_cap() {
    assert_eq!(stack(&[1, 1, 1, 2, 2, 3], &[]), 6);
    assert_eq!(stack(&[], &[2, 2, 2]), -4);
    assert_eq!(stack(&[3], &[1, 1]), 1, "they cancel after each is capped");
    let c = Check {
        bonuses: vec![1, 1, 1, 2, 2, 3],
        ..check(0, 10)
    };
    assert_eq!(c.roll(&mut faces(&[5])).unwrap().total, Some(11));
}

/// "4 checks with the second check taking a -5 penalty, third taking a -10
/// penalty, and fourth taking a -15 penalty. If you critically fail any of these
/// checks, your turn ends" (Rolling Dice; RULING T-6).
#[test]
fn several_checks_in_a_round() {
    let turn = Turn {
        checks: vec![check(5, 10); 4],
        reroll: false,
    };
    let results = turn.roll(&mut faces(&[10, 15, 15, 19])).unwrap();
    let totals: Vec<_> = results.iter().map(|r| r.total.unwrap()).collect();
    assert_eq!(totals, [15, 15, 10, 9]);
    // A critical failure on the second check ends the turn.
    let results = turn.roll(&mut faces(&[10, 1])).unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[1].outcome, Outcome::CriticalFailure);
    assert!(
        results[1]
            .transcript
            .iter()
            .any(|s| s.text.contains("the turn ends"))
    );
    let odds = turn.odds().unwrap();
    assert_eq!(odds[0].reached_exact, ratio(1, 1));
    // Check k is reached unless an earlier one fails critically (a natural 1, or
    // a total 10 below the DC: the k-th check takes -5 x (k - 1)).
    assert_eq!(odds[1].reached_exact, ratio(19, 20));
    assert!(odds[3].reached_exact < odds[2].reached_exact);
}

/// "Choose a course of action you could reasonably accomplish in 1 round ...
/// this requires 4 checks with the second check taking a -5 penalty, third
/// taking a -10 penalty, and fourth taking a -15 penalty. If you critically
/// fail any of these checks, your turn ends" (Rolling Dice; RULING T-6): each
/// check of a turn has its own options; none inherits the first's.
#[test]
fn each_check_of_a_turn_has_its_own_options() {
    use nutshell_rules::request::{CheckRequest, Rolled, TieredCheck};
    // A jam check first (DC 10 + tier 2), then a plain check against DC 5 with
    // advantage, then one with an edge: the text's shove, charge, shoot.
    let request = CheckRequest::TieredD20(TieredCheck {
        jam_tier: Some(2),
        then: vec![
            TieredCheck::parse_then("--skill 0 --dc 5 --advantage").unwrap(),
            TieredCheck::parse_then("0:5").unwrap(),
            TieredCheck::parse_then("--skill 3 --dc 12 --edge 1").unwrap(),
        ],
        ..Default::default()
    });
    // Jam: 12 vs DC 12. Then 9 and 16 with advantage (16 - 5 = 11 vs 5). Then
    // 15 - 10 = 5 vs 5. Then 14 + 3 + edge d4 2 - 15 = 4 vs 12.
    let Rolled::Turn(turn) = request.roll(&mut faces(&[12, 9, 16, 15, 14, 2])).unwrap() else {
        panic!("a turn")
    };
    let dcs: Vec<_> = turn.checks.iter().map(|c| c.difficulty.unwrap()).collect();
    assert_eq!(dcs, [12, 5, 5, 12], "no check inherits the jam's DC");
    let totals: Vec<_> = turn.checks.iter().map(|c| c.total.unwrap()).collect();
    assert_eq!(totals, [12, 11, 5, 4]);
    assert_eq!(
        turn.checks[1].dice.len(),
        2,
        "advantage on the second check only"
    );
    assert_eq!(turn.checks[2].dice.len(), 1);
    assert_eq!(
        turn.checks[3].dice.len(),
        2,
        "the edge die on the fourth only"
    );
}

/// "When you have advantage or disadvantage and something in the game, lets you
/// reroll the d20" (Advantage & Disadvantage; P-31): a turn's reroll is one
/// reroll, spent on the first check that fails, and never again.
#[test]
fn a_turns_reroll_is_spent_once() {
    let turn = Turn {
        checks: vec![check(0, 10); 3],
        reroll: true,
    };
    // Check 1: 15 succeeds (kept). Check 2: 3 - 5 fails, rerolled 19 - 5 = 14.
    // Check 3: 4 - 10 = -6 fails, critically; no reroll left.
    let results = turn.roll(&mut faces(&[15, 3, 19, 4])).unwrap();
    let dice: Vec<_> = results.iter().map(|r| r.dice.len()).collect();
    assert_eq!(dice, [1, 2, 1]);
    assert_eq!(results[2].outcome, Outcome::CriticalFailure);
    // The odds agree: the third check's chance of success mixes "reroll kept"
    // and "reroll spent" by their probabilities, below a check with its own
    // reroll and above one without.
    let turn = Turn {
        checks: vec![check(10, 10); 3],
        reroll: true,
    };
    let odds = turn.odds().unwrap();
    let p = |o: &nutshell_rules::OutcomeOdds| o.probability("success").unwrap().clone();
    let with = p(&Check {
        action: 3,
        reroll: true,
        ..check(10, 10)
    }
    .odds()
    .unwrap());
    let without = p(&Check {
        action: 3,
        ..check(10, 10)
    }
    .odds()
    .unwrap());
    let mixed = p(&odds[2].odds);
    assert!(
        without < mixed && mixed < with,
        "{without} < {mixed} < {with}"
    );
}

/// The request layer refuses what the rules cannot resolve: a jam check's DC
/// is 10 + Tier (RULING T-8), so `--dc` with `--jam-tier` is refused, not
/// ignored; a reroll belongs to the turn.
#[test]
fn turn_requests_refuse_contradictions() {
    use nutshell_rules::request::{CheckRequest, TieredCheck};
    let e = CheckRequest::TieredD20(TieredCheck {
        jam_tier: Some(2),
        dc: Some(14),
        ..Default::default()
    })
    .validate()
    .unwrap_err();
    assert!(e.to_string().contains("not both"), "{e}");
    let e = TieredCheck::parse_then("--skill 3 --dc 12 --reroll").unwrap_err();
    assert!(e.to_string().contains("belongs to the turn"), "{e}");
    let e = TieredCheck::parse_then("--skill 3 --sneaky 2").unwrap_err();
    assert!(e.to_string().contains("--sneaky is not an option"), "{e}");
}

/// "A critical success automatically maximizes your damage/healing dice"
/// (RULING T-7).
#[test]
fn critical_success_maximizes_effect_dice() {
    let c = Check {
        effect: Some("2d6+1".into()),
        ..check(10, 10)
    };
    let r = c.roll(&mut faces(&[15])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.effect.unwrap().total, 13);
    let r = c.roll(&mut faces(&[5, 3, 4])).unwrap();
    assert_eq!(r.effect.unwrap().total, 8);
    let odds = c.odds().unwrap();
    let crit = odds
        .effects
        .iter()
        .find(|e| e.outcome == "critical-success")
        .unwrap();
    assert_eq!(crit.distribution.len(), 1);
}

/// "Sometimes a special ability or circumstance gives you a bonus or penalty to
/// a d20 roll or damage roll ... multiple bonuses and penalties can only stack
/// to a maximum amount equal to twice the single highest one" (Bonuses &
/// Penalties; RULING T-5): the damage roll's bonuses have their own cap, and a
/// critical maximizes the dice, not the bonus (RULING T-7).
#[test]
fn damage_roll_bonuses_stack_under_their_own_cap() {
    let c = Check {
        effect: Some("2d6".into()),
        // Three +1 and a +2: capped at +4 (twice the +2), less one penalty of 1.
        effect_bonuses: vec![1, 1, 1, 2],
        effect_penalties: vec![1],
        // The d20 roll's bonuses are capped apart: +1 here.
        bonuses: vec![1],
        ..check(0, 10)
    };
    let r = c.roll(&mut faces(&[9, 5, 3])).unwrap();
    assert_eq!(r.total, Some(10), "9 + the d20 roll's own bonus of 1");
    assert_eq!(r.outcome, Outcome::Success);
    assert_eq!(r.effect.unwrap().total, 5 + 3 + 3);
    let r = c.roll(&mut faces(&[19])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.effect.unwrap().total, 12 + 3);
    let odds = c.odds().unwrap();
    let success = odds
        .effects
        .iter()
        .find(|e| e.outcome == "success")
        .unwrap();
    assert_eq!(success.expression, "2d6 + 3");
    let lowest = success.distribution.iter().map(|p| p.value).min().unwrap();
    assert_eq!(lowest, 2 + 3);
}

/// "requiring a DC10+Tier check to get it working again. Multiple attempts to
/// get the same item working again get a +5 cumulative bonus per attempt after
/// the first." (RULING T-8)
#[test]
fn jams() {
    let first = Check {
        jam: Some((2, 1)),
        ..check(0, 0)
    };
    assert_eq!(first.effective_dc(), 12);
    assert_eq!(
        first.roll(&mut faces(&[11])).unwrap().outcome,
        Outcome::Failure
    );
    let third = Check {
        jam: Some((2, 3)),
        ..check(0, 0)
    };
    assert_eq!(third.roll(&mut faces(&[11])).unwrap().total, Some(21));
}

#[test]
fn exact_odds() {
    // Skill 0, DC 11: naturals 11..19 success (9), 20 critical (1 + shift), 2..10 failure...
    let odds = check(0, 11).odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(1, 20)));
    assert_eq!(odds.probability("success"), Some(&ratio(9, 20)));
    assert_eq!(
        odds.probability("critical-failure"),
        Some(&ratio(1, 20)),
        "only the natural 1"
    );
    // With three edges the d8 can lift the natural: exact over 160 pairs.
    let odds = Check {
        edges: 3,
        ..check(0, 10)
    }
    .odds()
    .unwrap();
    let sum: BigRational = odds.outcomes.iter().map(|o| o.exact.clone()).sum();
    assert_eq!(sum, ratio(1, 1));
}

/// "When you have advantage or disadvantage and something in the game, lets
/// you reroll the d20, you can reroll only one of the dice. You choose which
/// one." (Advantage & Disadvantage; project ruling P-31: the reroll is spent on
/// a failure or critical failure, on the lower d20, and the new die must be
/// kept.)
#[test]
fn p31_a_reroll_rerolls_one_d20() {
    let plain = Check {
        reroll: true,
        ..check(0, 11)
    };
    let r = plain.roll(&mut faces(&[5, 14])).unwrap();
    assert_eq!((r.outcome, r.natural), (Outcome::Success, Some(14)));
    let r = plain.roll(&mut faces(&[12])).unwrap();
    assert_eq!(r.dice.len(), 1, "a success keeps the reroll");
    // Advantage: 3 and 5 keep 5 and fail; the lower (3) is rerolled to 12.
    let adv = Check {
        advantage: 1,
        ..plain.clone()
    };
    let r = adv.roll(&mut faces(&[3, 5, 12])).unwrap();
    assert_eq!(
        (r.outcome, r.natural, r.dice.len()),
        (Outcome::Success, Some(12), 3)
    );
    cites(&r, "P-31");
    // Disadvantage: 3 and 15 keep 3; the lower (3) is rerolled to 18, and the
    // lower of 15 and 18 is kept.
    let dis = Check {
        disadvantage: 1,
        ..plain.clone()
    };
    let r = dis.roll(&mut faces(&[3, 15, 18])).unwrap();
    assert_eq!((r.outcome, r.natural), (Outcome::Success, Some(15)));
    // The new result must be kept, even when worse.
    let r = dis.roll(&mut faces(&[8, 15, 2])).unwrap();
    assert_eq!((r.outcome, r.natural), (Outcome::Failure, Some(2)));
    // An edge die stays as rolled: d20 4 + d4 2 = 6 fails; the d20 is
    // rerolled to 9: 9 + 2 = 11.
    let edged = Check {
        edges: 1,
        ..plain.clone()
    };
    let r = edged.roll(&mut faces(&[4, 2, 9])).unwrap();
    assert_eq!((r.outcome, r.total), (Outcome::Success, Some(11)));
}

/// Exact odds with the reroll (P-31). Plain, DC 11: crit 1/20, success 9/20,
/// failure 9/20, crit failure 1/20 at first; a failure rolls again (1/2).
/// With advantage: success-or-better 3/4 at first, and a failure (both dice
/// under 11) succeeds when the lower die is rerolled to 11+: 3/4 + 1/4 * 1/2.
#[test]
fn p31_exact_odds_with_a_reroll() {
    let plain = Check {
        reroll: true,
        ..check(0, 11)
    };
    let odds = plain.odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(3, 40)));
    assert_eq!(odds.probability("success"), Some(&ratio(27, 40)));
    assert_eq!(odds.probability("failure"), Some(&ratio(9, 40)));
    assert_eq!(odds.probability("critical-failure"), Some(&ratio(1, 40)));
    let adv = Check {
        advantage: 1,
        ..plain
    }
    .odds()
    .unwrap();
    let won = adv.probability("success").unwrap() + adv.probability("critical-success").unwrap();
    assert_eq!(won, ratio(7, 8));
}

/// Project ruling P-8: with advantage the kept d20 meets the edge die; an edge
/// die higher than the d20 is the natural result, so a d20 of 1 under it is no
/// natural 1.
#[test]
fn p8_advantage_then_edge() {
    let c = Check {
        advantage: 1,
        edges: 1,
        ..check(0, 4)
    };
    // d20s 1 and 1 keep 1; the d4 shows 3: natural 3, total 4, a success (a
    // natural 1 would have made it a failure).
    let r = c.roll(&mut faces(&[1, 1, 3])).unwrap();
    assert_eq!(
        (r.outcome, r.natural, r.total),
        (Outcome::Success, Some(3), Some(4))
    );
    assert!(!r.transcript.iter().any(|s| s.rule.contains("Natural 1")));
}

/// Project ruling P-9: the jam's +5 per attempt, like the round's action
/// penalty, is outside the bonus stacking cap (RULING T-5).
#[test]
fn p9_the_jam_bonus_is_outside_the_cap() {
    let c = Check {
        bonuses: vec![1, 1, 1],
        jam: Some((2, 2)),
        ..check(0, 0)
    };
    // Three +1s cap at +2; the second attempt adds +5 outside the cap: +7
    // (inside it, +1 +1 +1 +5 would be +8).
    assert_eq!(c.total_modifier(), 7);
    assert_eq!(c.effective_dc(), 12, "DC 10 + Tier 2");
}

/// Project ruling P-10: edges on the DC are one net number; negative lowers
/// the DC by half the die (d4 = 2 ... d12 = 6).
#[test]
fn p10_net_edges_on_the_dc() {
    let dc = |net: i32| {
        Check {
            dc_edges: net,
            ..check(0, 15)
        }
        .effective_dc()
    };
    assert_eq!(dc(-2), 12, "two edges lost on the DC: d6, -3");
    assert_eq!(dc(1), 17, "d4: +2");
    assert_eq!(dc(7), 21, "more than five stays d12: +6");
    assert_eq!(dc(0), 15);
}

/// The turn's odds (reaching each check, its outcomes with the reroll kept or
/// spent) against rolling every sequence of d20 faces (RULING T-6, P-31).
#[test]
fn turn_odds_match_enumeration() {
    let turn = Turn {
        checks: vec![check(4, 12), check(9, 8)],
        reroll: true,
    };
    let odds = turn.odds().unwrap();
    // Each sequence of four faces is one equally likely world; a check uses
    // one or two of them, and the faces it leaves unused do not matter.
    let mut reached = 0i64;
    let mut success = 0i64;
    let mut worlds = 0i64;
    for a in 1..=20 {
        for b in 1..=20 {
            for c in 1..=20 {
                for d in 1..=20 {
                    worlds += 1;
                    let results = turn.roll(&mut faces(&[a, b, c, d])).unwrap();
                    if results.len() == 2 {
                        reached += 1;
                        if results[1].outcome == Outcome::Success {
                            success += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(odds[1].reached_exact, ratio(reached, worlds));
    assert_eq!(
        &odds[1].reached_exact * odds[1].odds.probability("success").unwrap(),
        ratio(success, worlds)
    );
}
