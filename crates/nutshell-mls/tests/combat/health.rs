//! mls, *Unconsciousness*, *Death*, *Certain Death*, *Minors* (RULING M-7),
//! through fights with exact damage: a minor NPC attacker deals its Dam, no
//! dice, so every face below is a combat or shock roll.

use super::{combatant, fight, logged, round, who};
use nutshell_mls::health::{State, Threshold, threshold, unconscious_turns};

#[test]
fn thresholds_for_majors_and_minors() {
    // RULING M-7: majors roll below 50% THP and below 0, and die below -50%;
    // minors roll at 50% and die at 0.
    assert_eq!(threshold(false, 6, 12), Threshold::Unhurt);
    assert_eq!(threshold(false, 5, 12), Threshold::ShockOrUnconscious);
    assert_eq!(threshold(false, 0, 12), Threshold::ShockOrUnconscious);
    assert_eq!(threshold(false, -1, 12), Threshold::ShockOrDeath);
    assert_eq!(threshold(false, -6, 12), Threshold::ShockOrDeath);
    assert_eq!(threshold(false, -7, 12), Threshold::CertainDeath);
    assert_eq!(threshold(true, 7, 12), Threshold::Unhurt);
    assert_eq!(threshold(true, 6, 12), Threshold::ShockOrUnconscious);
    assert_eq!(threshold(true, 0, 12), Threshold::MinorDead);
    assert_eq!(unconscious_turns(8), 7);
    assert_eq!(unconscious_turns(20), 1);
}

/// A minor NPC with skill 10 and Dam `dam` against a major with THP 12, skill
/// 10, shock `shock` and `fate` Fate Points. Round 1: the minor rolls 19, the
/// major 16, so the minor hits for exactly `dam`.
fn hit_major_for(dam: i64, shock: i64, fate: u32) -> nutshell_mls::Fight {
    let a = combatant("Goblin", 10, dam, 10, "minor = true");
    let b = combatant(
        "Hero",
        10,
        4,
        12,
        &format!("shock = {shock}\nfate_points = {fate}"),
    );
    fight(&a, &b)
}

#[test]
fn below_half_a_failed_shock_roll_knocks_out_for_15_minus_the_score() {
    // mls, Unconsciousness: "If damage is taken and CHP falls below 50% THP then
    // the character must make a Shock Roll. Failure renders the character
    // unconscious for a number of Turns equal to 15 minus the score."
    let mut f = hit_major_for(7, 2, 0);
    // Goblin 3,3,3 = 19; Hero 2,2,2 = 16; shock roll 2,2,2 = 6 + 2 = 8: failure.
    round(&mut f, &[3, 3, 3, 2, 2, 2, 2, 2, 2]);
    let hero = who(&f, "Hero");
    assert_eq!(hero.chp, 5);
    assert_eq!(hero.state, State::Unconscious(Some(7)));
    logged(&f, "unconscious for 15 - 8 = 7 turn(s)");
}

#[test]
fn at_exactly_half_a_major_makes_no_shock_roll() {
    // "below 50%": CHP 6 of 12 is not below half, so no roll (no faces left).
    let mut f = hit_major_for(6, 2, 0);
    round(&mut f, &[3, 3, 3, 2, 2, 2]);
    assert_eq!(who(&f, "Hero").chp, 6);
    assert_eq!(who(&f, "Hero").state, State::Standing);
}

#[test]
fn below_zero_a_shock_roll_decides_death_or_unconsciousness() {
    // mls, Death: "If damage is taken and CHP falls below 0 then the character
    // must make a Shock Roll. Failure leaves the character Dead ... Success
    // leaves the character unconscious until the end of the fight."
    let mut f = hit_major_for(13, 2, 0);
    round(&mut f, &[3, 3, 3, 2, 2, 2, 5, 5, 5]); // shock 15 + 2 = 17
    assert_eq!(who(&f, "Hero").state, State::Unconscious(None));
    let mut f = hit_major_for(13, 2, 0);
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1, 2, 2]); // shock 5 + 2 = 7
    assert_eq!(who(&f, "Hero").state, State::Dead);
}

#[test]
fn a_fate_point_turns_a_failed_shock_roll_into_a_success() {
    // mls, Death: "if he has any Fate Points one of these can be expended after
    // a failed Shock Roll to make it a success."
    let mut f = hit_major_for(13, 2, 1);
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1, 2, 2]);
    let hero = who(&f, "Hero");
    assert_eq!(hero.state, State::Unconscious(None));
    assert_eq!(hero.fate_points, 0);
    logged(&f, "a Fate Point makes it a success");
}

#[test]
fn below_minus_half_is_certain_death_unless_a_fate_point_removes_the_damage() {
    // mls, Certain Death: "If damage is taken and CHP falls below -50% THP then
    // the character is Dead, no Shock Roll is required. A Fate Point may be used
    // to remove damage and thus prevent death."
    let mut f = hit_major_for(19, 2, 0); // 12 - 19 = -7 < -6
    round(&mut f, &[3, 3, 3, 2, 2, 2]); // no shock roll
    assert_eq!(who(&f, "Hero").state, State::Dead);
    assert_eq!(who(&f, "Hero").chp, -7);
    let mut f = hit_major_for(19, 2, 1);
    round(&mut f, &[3, 3, 3, 2, 2, 2]);
    let hero = who(&f, "Hero");
    assert_eq!(
        (hero.state, hero.chp, hero.fate_points),
        (State::Standing, 12, 0)
    );
}

/// A minor NPC target with THP 12 hit by a minor attacker for exactly `dam`.
fn hit_minor_for(dam: i64) -> nutshell_mls::Fight {
    let a = combatant("Goblin", 10, dam, 10, "minor = true");
    let b = combatant("Kobold", 10, 4, 12, "minor = true\nshock = 2");
    fight(&a, &b)
}

#[test]
fn a_minor_npc_rolls_shock_at_half_and_dies_at_zero() {
    // mls, Minors: "Minor NPCs must make Shock Rolls when they fall TO 50%
    // (rather than below), and are considered effectively dead when they fall
    // TO 0 CHP."
    let mut f = hit_minor_for(6);
    round(&mut f, &[3, 3, 3, 2, 2, 2, 4, 4, 4]); // shock 12 + 2 = 14: failure
    assert_eq!(who(&f, "Kobold").state, State::Unconscious(Some(1)));
    let mut f = hit_minor_for(12);
    round(&mut f, &[3, 3, 3, 2, 2, 2]);
    assert_eq!(who(&f, "Kobold").state, State::Dead);
    assert_eq!(who(&f, "Kobold").chp, 0);
}

#[test]
fn the_unconscious_come_round_after_their_turns() {
    // mls, Unconsciousness: unconscious "for a number of Turns"; project
    // ruling P-17: whole turns after the one he fell in, a turn being one
    // side's turn (mls, Party Turns and Turn Order: "two turns are effectively
    // acted upon, one for each side"). The Goblin attacks in the 3rd round
    // only; the Kobold's friend keeps the fight going.
    let a = combatant("Goblin", 2, 7, 10, "minor = true");
    let b = format!(
        "{}{}",
        combatant("Kobold", 0, 4, 12, "shock = 0"),
        combatant("Friend", 0, 4, 12, "position = 20")
    );
    let mut f = fight(&a, &b);
    round(&mut f, &[]);
    round(&mut f, &[]);
    // Goblin 4,5,6 = 15 + 2 = 17; Kobold's defence 1,1,2 = 4; shock 4,4,6 = 14.
    round(&mut f, &[4, 5, 6, 1, 1, 2, 4, 4, 6]);
    assert_eq!(who(&f, "Kobold").state, State::Unconscious(Some(1)));
    // The turn he fell in does not count: he misses all of turn 2 and comes
    // round at its end.
    round(&mut f, &[]);
    round(&mut f, &[]);
    assert_eq!(who(&f, "Kobold").state, State::Unconscious(Some(1)));
    for _ in 0..5 {
        round(&mut f, &[]);
    }
    assert_eq!(who(&f, "Kobold").state, State::Standing);
    logged(&f, "Kobold comes round");
}

#[test]
fn every_hit_below_half_calls_for_another_shock_roll() {
    // Project ruling P-16: "If damage is taken and CHP falls below 50% THP" is
    // read for every hit that leaves CHP below half, not only the first.
    // Two minor attackers (Dam 2 each) hit the Hero (THP 12, CHP 5) in one round.
    let gobs = format!(
        "{}{}",
        combatant("Gob1", 10, 2, 10, "minor = true"),
        combatant("Gob2", 10, 2, 10, "minor = true")
    );
    let hero = combatant("Hero", 10, 4, 12, "chp = 5\nshock = 2");
    let mut f = fight(&gobs, &hero);
    // Gob1 and Gob2 3,3,3 = 19; the Hero (-1 for the second attacker)
    // 2,2,2 = 6 + 10 - 1 = 15: both goblins hit. Shock rolls 5,5,5 = 17 and
    // 6,5,5 = 18: two rolls, both succeed.
    round(&mut f, &[3, 3, 3, 3, 3, 3, 2, 2, 2, 5, 5, 5, 6, 5, 5]);
    let hero = who(&f, "Hero");
    assert_eq!((hero.chp, hero.state), (1, State::Standing));
    let shocks = f
        .log()
        .iter()
        .filter(|l| l.text.contains("shock roll"))
        .count();
    assert_eq!(shocks, 2);
}
