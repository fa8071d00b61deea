use super::*;
use nutshell_rules::Outcome;
use nutshell_rules::fantasy::{Check, Effect, Reroll, Take, dc};

fn check(modifier: i64, dc: i64) -> Check {
    Check {
        modifier,
        dc,
        ..Default::default()
    }
}

/// "If the result is equal to or higher than the Difficulty Class, the task
/// succeeds. If not, it fails." (The Core Mechanic; RULING F-1)
#[test]
fn core_mechanic() {
    let r = check(3, 15).roll(&mut faces(&[12])).unwrap();
    assert_eq!(
        (r.outcome, r.total, r.natural),
        (Outcome::Success, Some(15), Some(12))
    );
    let r = check(3, 15).roll(&mut faces(&[11])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    cites(&r, "The Core Mechanic");
}

/// Difficulty Classes: the descriptor table (RULING F-1).
#[test]
fn dc_descriptors() {
    let table = [
        ("Laughable", 0),
        ("Trivial", 5),
        ("Routine", 10),
        ("Average", 15),
        ("Difficult", 20),
        ("Hard", 25),
        ("Extreme", 30),
        ("Godlike", 35),
        ("Impossible", 40),
    ];
    for (name, value) in table {
        assert_eq!(dc(name), Some(value), "{name}");
        assert_eq!(dc(&name.to_lowercase()), Some(value));
    }
    assert_eq!(dc("22"), Some(22));
    assert_eq!(dc("tough"), None);
}

/// "a result of a natural 20 on the die roll indicates an automatic success,
/// and a result of a natural 1 is an automatic failure" (Automatic Success or
/// Failure; RULING F-2).
#[test]
fn automatic_success_and_failure() {
    let r = check(0, 25).roll(&mut faces(&[20])).unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    cites(&r, "Automatic Success or Failure");
    let r = check(5, 5).roll(&mut faces(&[1])).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Failure,
        "6 would succeed, but a natural 1 fails"
    );
}

/// "this rule may not apply ... if even a roll of 25 would not be enough to
/// succeed, or a roll of -5 would still be enough" (RULING F-2).
#[test]
fn the_extreme_case_exception() {
    // modifier + 25 < DC: no automatic success.
    let r = check(0, 26).roll(&mut faces(&[20])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    let r = check(1, 26).roll(&mut faces(&[20])).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Success,
        "1 + 25 = 26 is enough: the rule applies"
    );
    // modifier - 5 >= DC: no automatic failure.
    let r = check(15, 10).roll(&mut faces(&[1])).unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    let r = check(14, 10).roll(&mut faces(&[1])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
}

/// "If the confirmation roll is a success, then a critical success has been
/// scored. If the confirmation check fails, then only a normal success has been
/// scored." (Critical Success or Failure; RULING F-3)
#[test]
fn critical_success_with_confirmation() {
    let c = Check {
        crit_success: true,
        ..check(5, 15)
    };
    let r = c.roll(&mut faces(&[20, 10])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.dice.len(), 2);
    assert_eq!(r.dice[1].purpose, "to confirm");
    let r = c.roll(&mut faces(&[20, 9])).unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    // No confirmation where critical success is not allowed.
    let r = check(5, 15).roll(&mut faces(&[20])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 1));
    // A natural 20 that fails (extreme case) is no threat.
    let c = Check {
        crit_success: true,
        ..check(0, 30)
    };
    let r = c.roll(&mut faces(&[20])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Failure, 1));
}

/// "If the confirmation roll fails, then a critical failure has resulted. If the
/// confirmation roll succeeds, then disaster has averted" (RULING F-3); and
/// criticals are allowed separately ("some rolls may allow critical success but
/// not failure, or vice versa").
#[test]
fn critical_failure_with_confirmation() {
    let c = Check {
        crit_failure: true,
        ..check(5, 15)
    };
    let r = c.roll(&mut faces(&[1, 3])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalFailure);
    let r = c.roll(&mut faces(&[1, 10])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    // Critical failure allowed, critical success not: a natural 20 is a plain success.
    let r = c.roll(&mut faces(&[20])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 1));
}

/// "The rules for automatic success and failure, or critical success or
/// failure, do not apply to confirmation rolls."
#[test]
fn confirmation_rolls_have_no_automatic_results() {
    let c = Check {
        crit_success: true,
        ..check(0, 15)
    };
    // The confirmation's natural 20 is just 20 (a success); its natural 1 with a
    // big modifier is not an automatic failure.
    assert_eq!(
        c.roll(&mut faces(&[20, 20])).unwrap().outcome,
        Outcome::CriticalSuccess
    );
    let c = Check {
        crit_success: true,
        ..check(14, 15)
    };
    assert_eq!(
        c.roll(&mut faces(&[20, 1])).unwrap().outcome,
        Outcome::CriticalSuccess
    );
}

/// Take-10, take-20, take-0 (RULING F-4).
#[test]
fn taking_results() {
    let take = |t, m, d| Check {
        take: Some(t),
        ..check(m, d)
    };
    let r = take(Take::Ten, 5, 15).roll(&mut faces(&[])).unwrap();
    assert_eq!(
        (r.outcome, r.total, r.natural),
        (Outcome::Success, Some(15), None)
    );
    let r = take(Take::Twenty, 2, 23).roll(&mut faces(&[])).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Failure,
        "take-20 is not a natural 20: no automatic success"
    );
    let r = take(Take::Zero, 12, 12).roll(&mut faces(&[])).unwrap();
    assert_eq!(r.outcome, Outcome::Success);
    // Take-0 is allowed at any time, even when stressful.
    let r = Check {
        stressful: true,
        ..take(Take::Zero, 12, 10)
    }
    .roll(&mut faces(&[]))
    .unwrap();
    assert_eq!(r.outcome, Outcome::Success);
}

/// "In stressful situations, such as combat, you will generally not be able to
/// take-10"; take-20 "cannot take-20 in stressful situations" and "only ...
/// where a retry would normally be permitted".
#[test]
fn taking_is_refused_where_the_rules_forbid_it() {
    let stressful = |t| Check {
        take: Some(t),
        stressful: true,
        ..check(0, 10)
    };
    let err = stressful(Take::Ten)
        .roll(&mut faces(&[]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("take-10 is not allowed in a stressful situation")
            && err.contains("fantasy, Take-10"),
        "{err}"
    );
    let err = stressful(Take::Twenty)
        .roll(&mut faces(&[]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cannot take-20 in stressful situations"),
        "{err}"
    );
    let no_retry = Check {
        take: Some(Take::Twenty),
        no_retry: true,
        ..check(0, 10)
    };
    let err = no_retry.roll(&mut faces(&[])).unwrap_err().to_string();
    assert!(
        err.contains("where a retry would normally be permitted"),
        "{err}"
    );
    assert!(no_retry.odds().is_err());
}

/// "the character must not only beat the Difficulty Class, but the value shown
/// on the die must also be an even number" (Natural Even; RULING F-5); taking
/// cannot pass it (RULING F-4).
#[test]
fn natural_even() {
    let c = Check {
        natural_even: true,
        ..check(5, 15)
    };
    assert_eq!(c.roll(&mut faces(&[12])).unwrap().outcome, Outcome::Success);
    let r = c.roll(&mut faces(&[13])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    cites(&r, "Natural Even");
    assert_eq!(
        c.roll(&mut faces(&[8])).unwrap().outcome,
        Outcome::Failure,
        "even but too low"
    );
    let taken = Check {
        take: Some(Take::Ten),
        ..c
    };
    assert_eq!(
        taken.roll(&mut faces(&[])).unwrap().outcome,
        Outcome::Failure
    );
}

fn with_effect(pool: &str, steps: i64, extra: u64, nominal: bool) -> Check {
    Check {
        crit_success: true,
        effect: Some(Effect {
            pool: pool.into(),
            steps,
            extra,
            nominal,
            double: false,
        }),
        ..check(0, 10)
    }
}

/// "if a Fighter attacks with his sword for 1d8+4 damage, on a glancing blow he
/// will do 5 damage ... if a Wizard throws a fireball for 5d6+12 damage, on a
/// nominal success he does 17 points of damage." (Nominal Success; RULING F-7)
#[test]
fn nominal_success_examples() {
    let r = with_effect("1d8+4", 0, 0, true)
        .roll(&mut faces(&[15]))
        .unwrap();
    assert_eq!(r.effect.unwrap().total, 5);
    let r = with_effect("5d6+12", 0, 0, true)
        .roll(&mut faces(&[15]))
        .unwrap();
    assert_eq!(r.effect.unwrap().total, 17);
    // "Note that even a critical success can be reduced to nominal success."
    let r = with_effect("1d8+4", 0, 0, true)
        .roll(&mut faces(&[20, 15]))
        .unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.effect.unwrap().expression, "nominal(2d8 + 8)");
}

/// Magnitude checks: on a success the pool is rolled; "a critical success will
/// have double the effect ... roll double the dice and add double the
/// modifiers", extra dice first (RULING F-8: `1d8+4` with 2 extra dice becomes
/// `6d8+8`).
#[test]
fn magnitude_on_success_and_critical() {
    let r = with_effect("1d6+2", 0, 0, false)
        .roll(&mut faces(&[15, 4]))
        .unwrap();
    assert_eq!(r.effect.as_ref().unwrap().total, 6);
    assert_eq!(r.dice.len(), 2);
    let r = with_effect("1d8+4", 0, 2, false)
        .roll(&mut faces(&[20, 12, 1, 2, 3, 4, 5, 6]))
        .unwrap();
    let effect = r.effect.unwrap();
    assert_eq!(effect.expression, "6d8 + 8");
    assert_eq!(effect.total, 21 + 8);
    // No effect on a failure.
    let r = with_effect("1d6", 0, 0, false)
        .roll(&mut faces(&[2]))
        .unwrap();
    assert!(r.effect.is_none());
}

/// "Any effect that does \"double damage\" or similar also applies double the
/// normal modifiers to the roll" (Modifiers, Step Changes, and Extra Dice): the
/// whole pool and every modifier doubled, after extra dice; a critical doubles
/// it again (P-78).
#[test]
fn double_damage_doubles_the_modifiers_too() {
    let double = |check: Check| Check {
        effect: check.effect.map(|e| Effect { double: true, ..e }),
        ..check
    };
    let r = double(with_effect("1d8+4", 0, 1, false))
        .roll(&mut faces(&[15, 1, 2, 3, 4]))
        .unwrap();
    let effect = r.effect.unwrap();
    assert_eq!(effect.expression, "4d8 + 8");
    assert_eq!(effect.total, 10 + 8);
    assert!(r.transcript.iter().any(|s| s.rule.contains("P-78")));
    let r = double(with_effect("1d6+1", 0, 0, false))
        .roll(&mut faces(&[20, 12, 1, 1, 1, 1]))
        .unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.effect.unwrap().expression, "4d6 + 4");
}

/// Step changes apply to the magnitude dice (RULING F-9): "the Weapon
/// Specialisation feat applies a 1 step increase".
#[test]
fn step_changes_on_magnitude() {
    let r = with_effect("1d6+1", 1, 0, false)
        .roll(&mut faces(&[15, 8]))
        .unwrap();
    assert_eq!(r.effect.unwrap().expression, "1d8 + 1");
    cites(
        &with_effect("1d12", 1, 0, false)
            .roll(&mut faces(&[15, 12]))
            .unwrap(),
        "RULING F-9",
    );
}

/// Rerolls (RULING F-11): the new result must be kept; a forced reroll can be
/// cancelled; no roll is rerolled twice; taken results cannot be rerolled.
#[test]
fn rerolls() {
    let own = Check {
        reroll: Reroll::Own,
        ..check(0, 15)
    };
    let r = own.roll(&mut faces(&[3, 16])).unwrap();
    assert_eq!((r.outcome, r.natural), (Outcome::Success, Some(16)));
    let r = own.roll(&mut faces(&[3, 2])).unwrap();
    assert_eq!(
        (r.outcome, r.natural),
        (Outcome::Failure, Some(2)),
        "the new result must be kept, even if worse"
    );
    let r = own.roll(&mut faces(&[17])).unwrap();
    assert_eq!(r.dice.len(), 1, "a success is not rerolled");
    let forced = Check {
        reroll: Reroll::Forced,
        ..check(0, 15)
    };
    let r = forced.roll(&mut faces(&[17, 4])).unwrap();
    assert_eq!((r.outcome, r.natural), (Outcome::Failure, Some(4)));
    let cancelled = Check {
        reroll: Reroll::ForcedCancelled,
        ..check(0, 15)
    };
    let r = cancelled.roll(&mut faces(&[17])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 1));
    let twice = Check {
        reroll: Reroll::OwnAndForced,
        ..check(0, 15)
    };
    let err = twice.roll(&mut faces(&[17, 4, 5])).unwrap_err().to_string();
    assert!(
        err.contains("No roll can be rerolled more than once"),
        "{err}"
    );
    let taken = Check {
        reroll: Reroll::Own,
        take: Some(Take::Ten),
        ..check(0, 15)
    };
    let err = taken.roll(&mut faces(&[])).unwrap_err().to_string();
    assert!(
        err.contains("you can only reroll, or force a reroll, when dice are actually rolled"),
        "{err}"
    );
}

#[test]
fn exact_odds() {
    let odds = check(5, 15).odds().unwrap();
    // Natural 10..20 succeed: 11/20.
    assert_eq!(odds.probability("success"), Some(&ratio(11, 20)));
    assert_eq!(odds.probability("failure"), Some(&ratio(9, 20)));
    // Criticals: threat 1/20, confirmed with 11/20.
    let c = Check {
        crit_success: true,
        crit_failure: true,
        ..check(5, 15)
    };
    let odds = c.odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(11, 400)));
    assert_eq!(odds.probability("critical-failure"), Some(&ratio(9, 400)));
    // A reroll spent on failure: 11/20 + 9/20 * 11/20.
    let own = Check {
        reroll: Reroll::Own,
        ..check(5, 15)
    };
    assert_eq!(
        own.odds().unwrap().probability("success"),
        Some(&ratio(319, 400))
    );
    // Effects: nominal is one value.
    let odds = with_effect("5d6+12", 0, 0, true).odds().unwrap();
    assert_eq!(odds.effects[0].distribution.len(), 1);
    assert_eq!(odds.effects[0].distribution[0].value, 17);
}

/// Project ruling P-1: a natural-even check's confirmation roll needs an even
/// die too ("exactly the same roll again").
#[test]
fn p1_confirmation_of_a_natural_even_check() {
    let c = Check {
        crit_success: true,
        natural_even: true,
        ..check(10, 15)
    };
    assert_eq!(
        c.roll(&mut faces(&[20, 7])).unwrap().outcome,
        Outcome::Success,
        "17 >= 15 but odd: not confirmed"
    );
    assert_eq!(
        c.roll(&mut faces(&[20, 8])).unwrap().outcome,
        Outcome::CriticalSuccess
    );
}

/// RULING F-6: "Magnitude checks default to 1d6 + the same ability modifier as
/// the check. Improvised tools: d4 or d3; superior: d8 or d12." (Degree of
/// Success and Magnitude Rolls; the five tools are named by P-30.)
#[test]
fn magnitude_defaults_to_1d6_plus_the_ability() {
    use nutshell_rules::fantasy::Tools;
    let c = Check {
        effect: Some(Effect::magnitude(Tools::Standard, 3)),
        ..check(3, 10)
    };
    let r = c.roll(&mut faces(&[15, 4])).unwrap();
    let effect = r.effect.unwrap();
    assert_eq!(effect.expression, "1d6 + 3");
    assert_eq!(effect.total, 7, "a 4 on the d6 + the check's modifier 3");
    // The odds carry the magnitude on each success: 1d6+3 has mean 13/2.
    let odds = c.odds().unwrap();
    assert_eq!(odds.effects[0].expression, "1d6 + 3");
    assert_eq!(odds.effects[0].mean, "13/2");
    assert_eq!(odds.effects[0].distribution.len(), 6);
    // P-30: improvised-poor d3, improvised d4, standard d6, superior d8,
    // superior tools and training d12.
    let dice: Vec<String> = [
        Tools::ImprovisedPoor,
        Tools::Improvised,
        Tools::Standard,
        Tools::Superior,
        Tools::SuperiorTrained,
    ]
    .into_iter()
    .map(|t| Effect::magnitude(t, -1).pool)
    .collect();
    assert_eq!(dice, ["1d3-1", "1d4-1", "1d6-1", "1d8-1", "1d12-1"]);
    assert_eq!(Tools::default(), Tools::Standard);
}

/// "In all cases, you apply the same ability score to magnitude checks as
/// applied to the original check for success or failure." (Degree of Success
/// and Magnitude Rolls; RULING F-6, project ruling P-30): the ability score is
/// given on its own; the check adds it and its other modifiers, the default
/// magnitude check adds the ability score alone.
#[test]
fn p30_magnitude_adds_the_ability_score_alone() {
    use nutshell_rules::request::{CheckRequest, FantasyCheck, FantasyDc, Rolled};
    let request = |ability: Option<i64>| {
        CheckRequest::Fantasy(FantasyCheck {
            modifier: vec![4].into(),
            ability,
            dc: Some(FantasyDc::Number(15)),
            magnitude: true,
            ..Default::default()
        })
    };
    // Skill +4 and Strength +2: 10 + 6 = 16 >= 15; the magnitude is 1d6 + 2.
    let Rolled::Check(r) = request(Some(2)).roll(&mut faces(&[10, 3])).unwrap() else {
        panic!("one check")
    };
    assert_eq!(r.total, Some(16));
    let effect = r.effect.unwrap();
    assert_eq!((effect.expression.as_str(), effect.total), ("1d6 + 2", 5));
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("same ability score as the check (+2)"))
    );
    // Without --ability, the magnitude adds nothing, and says so.
    let Rolled::Check(r) = request(None).roll(&mut faces(&[12, 3])).unwrap() else {
        panic!("one check")
    };
    assert_eq!(r.effect.unwrap().expression, "1d6");
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("no ability score"))
    );
}

/// The request layer refuses what a plain check refuses: a take without a DC
/// ("To take-10, simply treat the result of the die roll as '10'. Add the
/// modifiers as normal, and compare with the Difficulty Class"), and a pool
/// with a d20 ("the d20 will never be added to another dice pool").
#[test]
fn take_needs_a_dc_and_pools_never_hold_a_d20() {
    use nutshell_rules::request::{CheckRequest, FantasyCheck, FantasyDc};
    let e = CheckRequest::Fantasy(FantasyCheck {
        take: Some(10),
        ..Default::default()
    })
    .validate()
    .unwrap_err();
    assert!(e.to_string().contains("needs the DC"), "{e}");
    let c = CheckRequest::Fantasy(FantasyCheck {
        dc: Some(FantasyDc::Number(10)),
        effect: Some("1d20+2".into()),
        ..Default::default()
    });
    let e = c.validate().unwrap_err();
    assert!(e.to_string().contains("holds a d20"), "{e}");
    assert!(
        e.to_string()
            .contains("never be added to another dice pool"),
        "{e}"
    );
}

/// "In such cases, roll the check as normal. However, in order to pass the
/// check, the character must not only beat the Difficulty Class, but the value
/// shown on the die must also be an even number." (Natural Even; P-1): a failed
/// confirmation says why, the odd die or the low total.
#[test]
fn a_failed_confirmation_says_why() {
    let c = Check {
        natural_even: true,
        crit_success: true,
        ..check(10, 15)
    };
    let r = c.roll(&mut faces(&[20, 7])).unwrap();
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("the die is odd")),
        "{:?}",
        r.transcript
    );
    let r = c.roll(&mut faces(&[20, 2])).unwrap();
    let line = r
        .transcript
        .iter()
        .find(|s| s.text.starts_with("confirmation"))
        .unwrap();
    assert!(line.text.contains("failure (12 < 15)"), "{}", line.text);
    assert!(!line.text.contains("odd"));
}

/// "Taking-20 requires that the character expend 20 times the normal time, and
/// 20 times the normal resources ... If there are any negative consequences
/// associated with failure in a task, you will automatically suffer these
/// consequences if you take-20." (Take-20): the transcript reminds the player.
#[test]
fn taking_20_reminds_of_its_cost() {
    let r = Check {
        take: Some(Take::Twenty),
        ..check(3, 20)
    }
    .roll(&mut faces(&[]))
    .unwrap();
    let reminder = r
        .transcript
        .iter()
        .find(|s| s.rule == "fantasy, Take-20")
        .unwrap();
    assert!(reminder.text.contains("20 times the normal time"));
    assert!(reminder.text.contains("negative consequences"));
}

/// P-32, fantasy "When Not To Roll": "Typically, characters do not need to roll
/// for tasks with a DC of 10 or less. Occasionally, in high-stress situations,
/// the GM may require a roll". The engine rolls when asked and says so.
#[test]
fn p32_when_not_to_roll() {
    let note = |c: &Check| {
        c.roll(&mut faces(&[12]))
            .unwrap()
            .transcript
            .iter()
            .any(|s| s.rule.contains("When Not To Roll (P-32)"))
    };
    assert!(note(&check(0, 10)), "DC 10: no roll needed, noted");
    assert!(note(&check(0, 0)));
    assert!(!note(&check(0, 11)), "DC 11 needs a roll");
    assert!(
        !note(&Check {
            stressful: true,
            ..check(0, 10)
        }),
        "a high-stress situation may require the roll"
    );
    // The roll still decides: 12 + 0 against DC 10.
    assert_eq!(
        check(0, 10).roll(&mut faces(&[12])).unwrap().outcome,
        Outcome::Success
    );
}

/// P-33, fantasy "Critical Success or Failure": "In general, a critical failure
/// will have double the effect of a normal failure." A failure's effect is the
/// GM's narration: no dice are rolled for it, and the transcript says so.
#[test]
fn p33_critical_failure_has_double_the_effect() {
    let c = Check {
        crit_failure: true,
        effect: Some(Effect::magnitude(Default::default(), 0)),
        ..check(0, 15)
    };
    let r = c.roll(&mut faces(&[1, 3])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalFailure);
    assert!(r.effect.is_none(), "no magnitude on a failure");
    assert_eq!(r.dice.len(), 2, "the d20 and the confirmation only");
    assert!(
        r.transcript
            .iter()
            .any(|s| s.rule.contains("P-33")
                && s.text.contains("double the effect of a normal failure")),
        "{:#?}",
        r.transcript
    );
    // Not confirmed: a normal failure, no doubling.
    let r = c.roll(&mut faces(&[1, 18])).unwrap();
    assert_eq!(r.outcome, Outcome::Failure);
    assert!(!r.transcript.iter().any(|s| s.rule.contains("P-33")));
}

/// P-34, fantasy "Rerolls": "If you choose to reroll when you initially rolled
/// multiple dice, you may choose to reroll all of the dice, or only some. ...
/// if you made two rolls at the same time, such as rolling an attack and
/// damage roll together, these are still considered separate". A check is one
/// d20, so its reroll is that die; the magnitude is a separate roll, which the
/// check's reroll never touches (which of its dice to reroll is the roller's
/// choice at the table).
#[test]
fn p34_the_reroll_is_the_check_die_only() {
    let c = Check {
        reroll: Reroll::Own,
        effect: Some(Effect::magnitude(Default::default(), 0)),
        ..check(0, 15)
    };
    let r = c.roll(&mut faces(&[3, 16, 1])).unwrap();
    let purposes: Vec<&str> = r.dice.iter().map(|d| d.purpose.as_str()).collect();
    assert_eq!(purposes, ["for the check", "rerolled", "for the effect"]);
    assert_eq!(r.effect.unwrap().total, 1, "a poor magnitude stands");
}

/// Project ruling P-2: `--reroll` is spent when the check fails, before any
/// confirmation roll, and never on a success; the odds use the same policy.
#[test]
fn p2_the_reroll_is_spent_on_a_failure_before_confirmation() {
    let c = Check {
        reroll: Reroll::Own,
        crit_success: true,
        crit_failure: true,
        ..check(0, 15)
    };
    // A natural 1 fails: rerolled at once, with no confirmation of the 1.
    let r = c.roll(&mut faces(&[1, 16])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Success, 2));
    assert_eq!(r.dice[1].purpose, "rerolled");
    // A natural 20 succeeds: no reroll, the threat is confirmed.
    let r = c.roll(&mut faces(&[20, 15])).unwrap();
    assert_eq!(r.outcome, Outcome::CriticalSuccess);
    assert_eq!(r.dice[1].purpose, "to confirm");
    // Odds: success-or-better 6/20 first, else again: 6/20 + 14/20 * 6/20.
    let odds = c.odds().unwrap();
    let won = odds.probability("success").unwrap() + odds.probability("critical-success").unwrap();
    assert_eq!(won, ratio(6, 20) + ratio(14 * 6, 400));
}

/// Project ruling P-3: each step up beyond d12 adds +2 once for the roll (not
/// per die); a die off the ladder is not stepped, and the transcript says so.
#[test]
fn p3_steps_beyond_d12_add_two_once() {
    let r = with_effect("2d12", 1, 0, false)
        .roll(&mut faces(&[15, 1, 1]))
        .unwrap();
    assert_eq!(r.effect.unwrap().expression, "2d12 + 2", "not + 4");
    let r = with_effect("1d100+1", 1, 0, false)
        .roll(&mut faces(&[15, 50]))
        .unwrap();
    assert_eq!(r.effect.as_ref().unwrap().expression, "1d100 + 1");
    assert!(
        r.transcript
            .iter()
            .any(|s| s.text.contains("d100 is not on the step ladder"))
    );
}

/// Project ruling P-4: a natural 20 that fails (the extreme case of RULING F-2)
/// is no threat: no confirmation roll.
#[test]
fn p4_a_failing_natural_20_is_no_threat() {
    let c = Check {
        crit_success: true,
        ..check(0, 26)
    };
    let r = c.roll(&mut faces(&[20])).unwrap();
    assert_eq!((r.outcome, r.dice.len()), (Outcome::Failure, 1));
    let odds = c.odds().unwrap();
    assert_eq!(odds.probability("critical-success"), Some(&ratio(0, 1)));
    assert_eq!(odds.probability("failure"), Some(&ratio(1, 1)));
}
