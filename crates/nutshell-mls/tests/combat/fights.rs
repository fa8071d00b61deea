//! Fights resolved round by round with typed faces: each situation the rule
//! text describes, from "Tactical Actions" to "Total Attacks".

use super::{combatant, fight, fight_apart, fight_with, logged, round, text, who};
use nutshell_dice::Scripted;
use nutshell_mls::health::State;
use nutshell_mls::{Fight, FightOptions, Progress};

#[test]
fn one_against_one_the_higher_success_hits() {
    // mls, Close Combat: "To hit a character must succeed with his roll AND
    // roll higher than all his opponents." Both attack every round (skill 10).
    let a = combatant("Ann", 10, 8, 14, "");
    let b = combatant("Bob", 10, 6, 12, "");
    let mut f = fight(&a, &b);
    // Ann 3,3,3 = 19; Bob 2,2,2 = 16; Ann's Dam 8: 2d6 1,2 -> max(3, 8) = 8;
    // Bob CHP 12 -> 4, below half: shock 5,5,5 = 15 + 2 = 17 succeeds.
    let p = round(&mut f, &[3, 3, 3, 2, 2, 2, 1, 2, 5, 5, 5]);
    assert_eq!(p, Progress::Round { turn: 1, round: 1 });
    assert_eq!(who(&f, "Bob").chp, 4);
    assert_eq!(who(&f, "Ann").chp, 14);
    assert_eq!(who(&f, "Bob").state, State::Standing);
    logged(&f, "Bob does not beat Ann: blocked");
}

#[test]
fn a_success_that_is_not_higher_does_not_hit() {
    // mls, Opposed Rolls: "if equal or less it fails"; both 16: nobody hits.
    let mut f = fight(
        &combatant("Ann", 10, 8, 14, ""),
        &combatant("Bob", 10, 6, 12, ""),
    );
    round(&mut f, &[2, 2, 2, 2, 2, 2]);
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (14, 12));
}

#[test]
fn one_against_three_takes_minus_two_and_must_beat_them_all() {
    // mls, Close Combat: "Each enemy in excess of the first making an attack
    // causes penalty of -1 to the single character's roll. To hit a character
    // must succeed with his roll AND roll higher than all his opponents."
    let mut f = fight(&combatant("Ann", 8, 8, 20, ""), &band(3, 8, 6, 20));
    // Ann 4,4,4 = 12 + 8 - 2 = 18; Gob1 17, Gob2 16, Gob3 14 (failure).
    // Ann beats all three and hits Gob1 (her target): 2d6 1,1 -> Dam 8.
    round(&mut f, &[4, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1]);
    logged(&f, "Ann faces 3 attackers: -2");
    logged(&f, "3d6 [4, 4, 4] = 12 + 8 - 2 (extra attackers) = 18");
    assert_eq!(who(&f, "Gob1").chp, 12);
    assert_eq!(who(&f, "Ann").chp, 20);
}

#[test]
fn blocks_and_hits_in_the_same_round() {
    // mls, Normal Attacks: "If he rolls higher than some he blocks their
    // attacks and is hit by the others." Project ruling P-18: an attacker hits
    // only when he beats every opponent he faces.
    let mut f = fight(&combatant("Ann", 8, 8, 20, ""), &band(2, 8, 6, 20));
    // Ann 3,3,3 = 9 + 8 - 1 = 16; Gob1 3,3,4 = 18 hits her; Gob2 2,2,3 = 15 is
    // blocked; Ann beats Gob2 but not Gob1, so she hits no one.
    // Gob1's Dam 6: 1d6 + 1d3 = 1,1 -> 6; Ann 20 -> 14.
    round(&mut f, &[3, 3, 3, 3, 3, 4, 2, 2, 3, 1, 1]);
    assert_eq!(who(&f, "Ann").chp, 14);
    assert_eq!(who(&f, "Gob1").chp, 20);
    assert_eq!(who(&f, "Gob2").chp, 20);
    logged(&f, "Gob2 does not beat Ann: blocked");
    logged(&f, "Ann does not beat Gob1: blocked");
}

#[test]
fn a_character_attacked_must_attack_one_of_his_attackers() {
    // mls, Close Combat: "A character must attack an enemy who is attacking him
    // that round, and can only attack another enemy if none are attacking him."
    // Ann prefers the weakest, Gob2 (10 CHP), but only Gob1 attacks her: Gob2
    // has no attack this round (skill 2: 3rd round only).
    let gobs = format!(
        "{}{}",
        combatant("Gob1", 8, 6, 20, ""),
        combatant("Gob2", 2, 6, 10, "")
    );
    let ann = combatant("Ann", 8, 8, 20, "tactic = { target = \"weakest\" }");
    let mut f = fight(&ann, &gobs);
    // Ann 3,3,3 = 17 on Gob1; Gob1 2,2,2 = 14; Ann hits Gob1: 2d6 1,1 -> 8.
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1, 1]);
    logged(&f, "Ann rolls attack on Gob1");
    assert_eq!(who(&f, "Gob1").chp, 12);
    assert_eq!(who(&f, "Gob2").chp, 10);
}

#[test]
fn a_defender_without_an_attack_only_blocks() {
    // mls, Defensive Rounds: "If a character is unable to attack this round he
    // still rolls against attacks, however a success merely blocks an attack,
    // it does not cause damage." Bob (skill 4) attacks in rounds 2 and 4 only.
    let mut f = fight(
        &combatant("Ann", 10, 8, 20, ""),
        &combatant("Bob", 4, 8, 20, ""),
    );
    // Round 1: Ann 2,2,2 = 16; Bob's defence 6,5,5 = 16 + 4 = 20: blocked, and
    // Bob does no damage.
    round(&mut f, &[2, 2, 2, 6, 5, 5]);
    logged(&f, "Bob rolls defence");
    logged(&f, "Bob blocks Ann's attack");
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (20, 20));
}

#[test]
fn both_critical_the_higher_is_a_normal_success_and_normal_dam() {
    // mls, Opposed Rolls: "If both get a Critical success then the higher roll
    // is reduced to a normal success"; mls, Damage: "an enemy Critical may
    // reduce this to a normal success and thus normal Dam".
    let mut f = fight(
        &combatant("Ann", 10, 8, 30, ""),
        &combatant("Bob", 10, 8, 30, ""),
    );
    // Ann 4,4,4 = 22, Bob 4,3,3 = 20: Ann hits with Dam 8 (2d6 1,1), not 16.
    round(&mut f, &[4, 4, 4, 4, 3, 3, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 22);
    logged(&f, "reduced to a normal success");
}

#[test]
fn a_critical_doubles_dam_and_ignores_partial_armour() {
    // mls, Damage: "A Critical roll doubles the attacker's Dam"; mls, Armor: "A
    // Critical against Partial armor ignores armor".
    let bob = combatant(
        "Bob",
        4,
        8,
        40,
        "armour = [{ value = 3, coverage = \"partial\" }]",
    );
    let mut f = fight(&combatant("Ann", 10, 8, 30, ""), &bob);
    // Ann 4,4,4 = 22 critical; Bob's defence 1,2,2 = 9. Dam 16: 4d6 1,1,1,1 -> 16.
    round(&mut f, &[4, 4, 4, 1, 2, 2, 1, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 24);
}

#[test]
fn a_natural_18_against_encased_armour_and_a_shield() {
    // mls, Natural 18s: "the result is treated as a Critical against a Failure
    // even if the other character rolled a success or a critical. Shields are
    // ignored, and Partial and Full armor is ignored. Encased armor is reduced
    // by half the attacker's Dam rating." (RULING M-6; project ruling P-15: the
    // Dam before doubling.)
    let bob = combatant(
        "Bob",
        10,
        6,
        30,
        "armour = [{ value = 6, coverage = \"encased\" }]\nshield = { value = 3 }",
    );
    let mut f = fight(&combatant("Ann", 10, 8, 30, ""), &bob);
    // Ann 6,6,6 natural 18; Bob 5,5,4 = 24, a critical, beaten all the same.
    // Dam 8 doubled: 4d6 1,1,1,1 -> 16; encased 6 - 8/2 = 2; shield ignored.
    round(&mut f, &[6, 6, 6, 5, 5, 4, 1, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 16);
    logged(&f, "natural 18");
}

#[test]
fn both_natural_18s_the_scores_apply_as_normal() {
    // mls, Natural 18s: "If both roll a natural 18 then the score applies as
    // normal." Ann 18 + 10 = 28 beats Bob 18 + 8 = 26; both critical, so the
    // higher is reduced to a normal success: Dam 8, 2d6 1,1 -> 8.
    let mut f = fight(
        &combatant("Ann", 10, 8, 30, ""),
        &combatant("Bob", 8, 8, 30, ""),
    );
    round(&mut f, &[6, 6, 6, 6, 6, 6, 1, 1]);
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (30, 22));
}

#[test]
fn a_natural_3_is_a_fumble_against_a_success() {
    // mls, Natural 3s: "the score is ignored and the result is treated as a
    // Fumble against a Success even if the other character rolled a failure or
    // a fumble." Ann (skill 20) rolls 1,1,1: Bob's 2,2,3 = 7 + 4 = 11, a
    // failure, still beats her in the defensive round; Bob does no damage.
    let mut f = fight(
        &combatant("Ann", 20, 8, 30, ""),
        &combatant("Bob", 4, 8, 30, ""),
    );
    round(&mut f, &[1, 1, 1, 2, 2, 3]);
    assert_eq!(who(&f, "Bob").chp, 30);
    logged(&f, "Ann misses Bob");
}

#[test]
fn a_shield_blocks_on_a_successful_but_losing_roll() {
    // mls, Shields: "If using a shield or parrying weapon a successful but
    // losing roll means that the shield has blocked the attack. The armor value
    // of the shield is subtracted from the damage done."
    let bob = combatant("Bob", 8, 6, 30, "shield = { value = 2 }");
    let mut f = fight(&combatant("Ann", 8, 8, 30, ""), &bob);
    // Ann 3,3,4 = 18; Bob 3,3,3 = 17, a success that loses: Dam 8 (2d6 1,1)
    // - 2 = 6.
    round(&mut f, &[3, 3, 4, 3, 3, 3, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 24);
    logged(&f, "the shield blocks");
    // A failing roll gets no shield: Bob 2,2,2 = 14.
    let mut f = fight(
        &combatant("Ann", 8, 8, 30, ""),
        &combatant("Bob", 8, 6, 30, "shield = { value = 2 }"),
    );
    round(&mut f, &[3, 3, 4, 2, 2, 2, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 22);
}

#[test]
fn armour_by_location_and_an_aimed_blow() {
    // mls, Aiming an Attack: "Close Combat attacks may also be aimed at specific
    // locations in exactly the same way" (RULING M-8: Head -3 17+); mls, Armor
    // Effect: "If an unarmored location is successfully hit then armor is
    // ignored." Bob's mail covers the chest only.
    let bob = combatant(
        "Bob",
        4,
        6,
        30,
        "armour = [{ value = 3, coverage = \"full\", locations = [\"chest\"] }]",
    );
    let ann = combatant("Ann", 10, 8, 30, "tactic = { aim = \"head\" }");
    let mut f = fight(&ann, &bob);
    // Ann 3,3,4 = 10 + 10 - 3 = 17 reaches 17+: the head, unarmoured: 8.
    round(&mut f, &[3, 3, 4, 1, 1, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 22);
    logged(&f, "on the head");
    // 16 is a success below 17: a normal hit on the chest, through the mail.
    let mut f = fight(&ann, &bob);
    round(&mut f, &[3, 3, 3, 1, 1, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 25);
    logged(&f, "on the chest");
}

/// `n` combatants named Gob1.. with the same skill, Dam and THP.
fn band(n: usize, skill: i64, dam: i64, thp: i64) -> String {
    (1..=n)
        .map(|i| combatant(&format!("Gob{i}"), skill, dam, thp, ""))
        .collect()
}

/// Ann: skill 10, Dam 8, Strength 3, every attack a Total Attack, THP 40.
fn total_attacker_ann() -> String {
    combatant(
        "Ann",
        10,
        8,
        40,
        "traits = { strength = 3 }\ntactic = { mode = \"total-attack\" }",
    )
}

/// [`total_attacker_ann`] against Gob1 and Gob2 (skill 8, Dam 6, THP 30).
fn total_attacker_against_two() -> Fight {
    fight(&total_attacker_ann(), &band(2, 8, 6, 30))
}

#[test]
fn a_total_attack_chain_adds_strength_and_goes_on() {
    // mls, Total Attack: "If this attack is successful the character increases
    // his Dam for that attack by his Strength. In addition the total attacker
    // may now make a second attack against a second opponent ... continuing to
    // attack until he has hit all enemies".
    let mut f = total_attacker_against_two();
    // Ann 4,4,3 = 21 vs Gob1 2,2,2 = 14: critical, Dam (8 + 3) x 2 = 22.
    // Ann 3,3,3 = 19 vs Gob2 3,3,2 = 16: Dam 11.
    // Gob1 takes 5d6 + 1d3 (all 1s) -> 22: 30 -> 8, below half: shock 6,6,6.
    // Gob2 takes 2d6 + 1d3 (1s) -> 11: 30 -> 19.
    round(
        &mut f,
        &[
            4, 4, 3, 2, 2, 2, 3, 3, 3, 3, 3, 2, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1,
        ],
    );
    assert_eq!(who(&f, "Gob1").chp, 8);
    assert_eq!(who(&f, "Gob2").chp, 19);
    assert_eq!(who(&f, "Ann").chp, 40);
    logged(&f, "Ann goes on to attack Gob2");
    logged(&f, "Dam 8 + Strength 3 = 11");
}

#[test]
fn a_failed_total_attack_gives_the_enemy_his_strength_and_unopposed_attacks() {
    // mls, Total Attack: "If (and when) the attack fails and the enemy hits ...
    // the enemy adds the total attacker's Strength to his own Dam. In addition
    // any opponents able to attack who have not yet rolled make unopposed
    // attacks against him, but without the Strength addition."
    // mls, Following Up a Total Attack: a critical hit against a total attacker
    // may follow up. Project ruling P-20: the unopposed attacks come whether or
    // not the enemy hit.
    let mut f = total_attacker_against_two();
    // Ann 2,2,2 = 16 vs Gob1 4,4,4 = 20 critical: Dam (6 + 3) x 2 = 18.
    // Gob2's unopposed attack 3,3,3 = 17 succeeds: Dam 6.
    // Damage: 4d6 + 1d3 (1s) -> 18: 40 -> 22; 1d6 + 1d3 (1s) -> 6: 22 -> 16,
    // below half: shock 5,5,5 = 17.
    round(
        &mut f,
        &[2, 2, 2, 4, 4, 4, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 5, 5, 5],
    );
    assert_eq!(who(&f, "Ann").chp, 16);
    logged(&f, "Gob2 rolls unopposed attack on Ann");
    logged(&f, "follows up");
}

#[test]
fn after_a_failed_total_attack_the_others_roll_and_their_hits_land() {
    // mls, Total Attacks: "When a character makes a Total Attack only the two
    // characters involved roll. If the Total Attack fails, or if it succeeds
    // and no other attacks are selected, then all other characters roll."
    // Project ruling P-20 (changed): an ally attacking the same enemy rolls
    // after the exchange, against the enemy's roll in it, and his hit lands.
    let tom = combatant(
        "Tom",
        10,
        8,
        40,
        "traits = { strength = 3 }\ntactic = { mode = \"total-attack\" }",
    );
    let allies = format!("{tom}{}", combatant("Ann", 10, 8, 40, ""));
    let mut f = fight(&allies, &combatant("Gob", 8, 6, 30, ""));
    // Tom 1,1,2 = 14 fails; Gob 2,2,2 = 14 fails too: nobody hits in the
    // exchange. Ann 3,3,3 = 19 beats Gob's 14: Dam 8, 2d6 1,1 -> 8.
    round(&mut f, &[1, 1, 2, 2, 2, 2, 3, 3, 3, 1, 1]);
    logged(&f, "Tom's total attack on Gob fails");
    logged(&f, "Ann hits Gob");
    assert_eq!(who(&f, "Gob").chp, 22);
    assert!(!text(&f).contains("taken up"));
}

#[test]
fn a_total_attacker_may_stop_his_chain_and_the_others_roll() {
    // mls, Total Attack: "continuing to attack until he has hit all enemies,
    // voluntarily stops his attacks or fails an attack"; mls, Total Attacks:
    // "if it succeeds and no other attacks are selected, then all other
    // characters roll". Ann stops after one hit (`stop_after = 1`): Gob2 rolls
    // a normal attack against her roll of the exchange (P-20).
    let ann = combatant(
        "Ann",
        10,
        8,
        40,
        "traits = { strength = 3 }\ntactic = { mode = \"total-attack\", stop_after = 1 }",
    );
    let mut f = fight(&ann, &band(2, 8, 6, 30));
    // Ann 2,2,3 = 17 vs Gob1 2,2,2 = 14: Dam 8 + 3 = 11 (2d6 + 1d3, 1,1,1).
    // Gob2 3,3,4 = 18 beats Ann's 17: Dam 6 (1d6 + 1d3, 1,1), no Strength.
    round(&mut f, &[2, 2, 3, 2, 2, 2, 3, 3, 4, 1, 1, 1, 1, 1]);
    logged(&f, "Ann stops the total attack voluntarily after 1 hit(s)");
    assert_eq!(who(&f, "Gob1").chp, 19);
    assert_eq!(who(&f, "Gob2").chp, 30);
    assert_eq!(who(&f, "Ann").chp, 34);
}

#[test]
fn total_defence_against_a_total_attack_hits_with_his_strength() {
    // mls, Total Defence: "Against a Total Attack the total defender also gains
    // +2 to his roll, and gets to hit if he succeeds and rolls higher, adding
    // the total attacker's Strength to his own Dam."
    let ann = total_attacker_ann();
    let bob = combatant("Bob", 10, 5, 40, "tactic = { mode = \"total-defence\" }");
    let mut f = fight(&ann, &bob);
    // Ann 3,3,3 = 19; Bob 2,2,3 = 7 + 10 + 2 = 19: a tie, nobody hits.
    round(&mut f, &[3, 3, 3, 2, 2, 3]);
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (40, 40));
    logged(&f, "3d6 [2, 2, 3] = 7 + 10 + 2 (total defence) = 19");
    // Round 2: Ann 2,2,2 = 16; Bob 2,2,3 = 19: Bob hits, Dam 5 + 3 = 8 (2d6 1,1).
    round(&mut f, &[2, 2, 2, 2, 2, 3, 1, 1]);
    assert_eq!(who(&f, "Ann").chp, 32);
}

#[test]
fn total_defence_against_a_normal_attack_does_no_damage() {
    // mls, Total Defence: "Against a normal attack the total defender gains +2
    // to his roll, but does no damage if he wins."
    let bob = combatant("Bob", 10, 5, 40, "tactic = { mode = \"total-defence\" }");
    let mut f = fight(&combatant("Ann", 10, 8, 40, ""), &bob);
    round(&mut f, &[2, 2, 2, 3, 3, 3]); // Ann 16, Bob 9 + 12 = 21
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (40, 40));
    logged(&f, "Bob wins a Total Defence: no damage");
}

#[test]
fn total_defence_against_total_defence_rolls_nothing() {
    // mls, Total Defence: "Against another Total Defence no rolls are made by
    // either character."
    let td = "tactic = { mode = \"total-defence\" }";
    let mut f = fight(
        &combatant("Ann", 10, 8, 40, td),
        &combatant("Bob", 10, 5, 40, td),
    );
    round(&mut f, &[]);
    logged(&f, "both make a Total Defence: no rolls");
}

#[test]
fn foregoing_rolls_but_does_no_harm() {
    // mls, Foregoing Attacks: "he still rolls if he is being attacked that
    // round, but does no harm if he hits."
    let bob = combatant("Bob", 10, 5, 40, "tactic = { mode = \"forego\" }");
    let mut f = fight(&combatant("Ann", 10, 8, 40, ""), &bob);
    round(&mut f, &[2, 2, 2, 5, 5, 5]);
    assert_eq!(who(&f, "Ann").chp, 40);
    logged(&f, "foregoes the attack");
}

#[test]
fn a_delayed_attack_gains_plus_one() {
    // mls, Delaying Attacks: delay by one round and gain +1 (skill 2: the 3rd
    // round moves to the 4th).
    let ann = combatant("Ann", 2, 8, 40, "tactic = { delay = 1 }");
    let mut f = fight(&ann, &combatant("Bob", 0, 5, 40, ""));
    for _ in 0..3 {
        round(&mut f, &[]);
    }
    // 17 + 2 + 1 = 20, a critical: Dam 16, 4d6 1,1,1,1.
    round(&mut f, &[6, 6, 5, 1, 1, 2, 1, 1, 1, 1]);
    logged(&f, "3d6 [6, 6, 5] = 17 + 2 + 1 (delayed) = 20");
    assert_eq!(who(&f, "Bob").chp, 24);
}

#[test]
fn a_rush_that_cannot_be_made_is_said() {
    // mls, Rushing Attacks: "cannot be done more than 1 round in advance":
    // skill 10 attacks in every round, so no attack has a free round before it.
    let ann = combatant(
        "Ann",
        10,
        8,
        40,
        "tactic = { rush = true, rush_attack = 3 }",
    );
    let mut f = fight(&ann, &combatant("Bob", 0, 5, 40, ""));
    round(&mut f, &[1, 1, 2, 1, 1, 2]);
    logged(
        &f,
        "Ann cannot rush: attack 3 is in round 3, and round 2 already holds an attack",
    );
}

#[test]
fn breaking_off_disengages_and_then_flees() {
    // mls, Breaking Off: "He makes a normal attack, but if successful does no
    // damage. However he is considered to have disengaged (backed away)."
    // mls, Flee!: the next turn he flees with a double move; project ruling
    // P-19: out of every enemy's pursuit, he escapes.
    let bob = combatant(
        "Bob",
        10,
        5,
        20,
        "chp = 5\ntactic = { break_off_below = 10 }\ntraits = { agility = 5 }",
    );
    let mut f = fight(
        &combatant("Ann", 10, 8, 40, "traits = { agility = 1 }"),
        &bob,
    );
    round(&mut f, &[2, 2, 2, 4, 4, 4]); // Ann 16, Bob 22: Bob breaks off
    logged(&f, "Bob breaks off");
    assert_eq!(who(&f, "Ann").chp, 40);
    // Rounds 2-5: they are no longer adjacent: no rolls.
    for _ in 0..4 {
        round(&mut f, &[]);
    }
    // Turn 2, Bob's: he flees 12 squares, out of Ann's reach (Agl 1: pursuit 4).
    let p = round(&mut f, &[]);
    assert_eq!(who(&f, "Bob").state, State::Escaped);
    assert!(
        matches!(p, Progress::Over(ref e) if e.winner == Some(0)),
        "{p:?}"
    );
}

#[test]
fn a_charge_attacks_once_in_the_fifth_round() {
    // mls, Charge: "regardless of skill he may only make on attack, in the
    // fifth round. Likewise he may only be attacked in the 5th round."
    let ann = combatant("Ann", 10, 8, 40, "traits = { agility = 3 }");
    let bob = combatant("Bob", 10, 5, 40, "position = 4");
    let mut f = fight(&ann, &bob);
    for _ in 0..4 {
        round(&mut f, &[]); // adjacent after the move, but nobody may attack the charger yet
    }
    logged(&f, "Ann chooses Charge");
    // Round 5: Ann 16 vs Bob's natural 3; Dam 8: 2d6 1,1 -> 8.
    round(&mut f, &[2, 2, 2, 1, 1, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 32);
}

fn archer(name: &str) -> String {
    format!(
        "[[combatant]]\nname = \"{name}\"\nthp = 30\nskills = {{ bow = 10 }}\nweapons = [{{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 20 }}]\n"
    )
}

#[test]
fn shots_are_simultaneous_and_each_hits_on_a_success() {
    // mls, Shooting: "He may also choose to shoot back if he has chosen a Shoot
    // action. Two characters shooting at each other in the same round both roll
    // to hit, and if successful both hit. A successful shot does not stop a
    // successful shot by the enemy." Bob, on the side acting second, stands
    // ready to shoot from the start (project ruling P-22).
    let mut f = fight_apart(&archer("Ann"), &archer("Bob"), 10);
    // Ann 3,3,3 = 19 and Bob 3,3,3 = 19: both hit, Dam 4 (1d6: 1) each.
    round(&mut f, &[3, 3, 3, 3, 3, 3, 1, 1]);
    assert_eq!((who(&f, "Ann").chp, who(&f, "Bob").chp), (26, 26));
    logged(&f, "Bob stands ready to Shoot");
    logged(&f, "shoot at each other");
}

#[test]
fn a_knowing_target_that_is_not_attacking_dodges() {
    // mls, Shooting: "A knowing enemy may choose to Dodge provided he is not
    // attacking." Bob has only a sword and Ann is 10 squares off: he dodges with
    // his dodge skill (Agility 2 without one), and Ann must beat his roll
    // (project ruling P-21).
    let mut f = fight_apart(&archer("Ann"), &combatant("Bob", 10, 5, 30, ""), 10);
    // Ann 3,3,3 = 19; Bob's dodge 6,6,5 = 17 + 2 = 19: not beaten, a miss.
    round(&mut f, &[3, 3, 3, 6, 6, 5]);
    assert_eq!(who(&f, "Bob").chp, 30);
    logged(&f, "Bob rolls dodge");
    // Ann 3,3,3 = 19; Bob's dodge 2,2,2 = 8: a hit, 1d6 1 -> 4.
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1]);
    assert_eq!(who(&f, "Bob").chp, 26);
}

#[test]
fn reloading_spends_attacks() {
    // mls, Reloading: "This requires a number of "attacks" to be spent
    // reloading instead of shooting." Skill 10, reload 1: rounds 1, 3, 5.
    let xbow = "[[combatant]]\nname = \"Ann\"\nthp = 30\nskills = { xbow = 10 }\nweapons = [{ name = \"crossbow\", skill = \"xbow\", dam = 4, kind = \"missile\", range = 20, reload = 1 }]\n";
    let target = combatant("Bob", 0, 4, 99, "tactic = { dodge = false }");
    let mut f = fight_apart(xbow, &target, 10);
    round(&mut f, &[1, 1, 2]); // round 1: shoots (fumbles)
    round(&mut f, &[]); // round 2: reloads
    round(&mut f, &[1, 1, 2]); // round 3: shoots
    logged(&f, "spends the attack reloading");
}

#[test]
fn a_surprised_target_does_not_know_of_the_shooter_and_cannot_dodge() {
    // mls, Shooting: "A knowing enemy may choose to Dodge provided he is not
    // attacking." Project ruling P-61: a surprised side knows of no enemy in
    // the first turn (the surprisers'), so its members do not dodge then.
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 30\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 20 }]\n";
    let bob = combatant("Bob", 0, 4, 30, "");
    let mut f = fight_with(
        ann,
        &bob,
        FightOptions {
            distance: 5,
            surprised: Some(1),
            ..FightOptions::default()
        },
    );
    // Ann 1,1,5 = 7 + 10 = 17 hits without a dodge roll: Dam 4, 1d6 1 -> 4.
    round(&mut f, &[1, 1, 5, 1]);
    logged(&f, "Bob is surprised and does not know of Ann: no dodge");
    assert_eq!(who(&f, "Bob").chp, 26);
    // Not surprised, Bob dodges the same shot (his dodge roll 1,1,1 fails).
    let mut f = fight_apart(ann, &bob, 5);
    round(&mut f, &[1, 1, 5, 1, 1, 1, 1]);
    logged(&f, "Bob rolls dodge");
}

#[test]
fn a_full_turn_action_takes_effect_at_the_end_unless_an_attack_interrupts_it() {
    // mls, Set Actions: "The result of any action outside of these occurs at
    // the end of the Turn, and events within the Turn can prevent them."
    // mls, 3. Turn Actions: "All full turn actions, assuming they have not been
    // interrupted by attacks, now take effect." (project ruling P-62)
    let ann = combatant(
        "Ann",
        0,
        4,
        30,
        "tactic = { turn_action = \"picking the lock\" }",
    );
    // Far from Bob: nobody attacks her, and the lock is picked.
    let mut f = fight_apart(&ann, &combatant("Bob", 0, 4, 30, ""), 10);
    for _ in 0..5 {
        round(&mut f, &[]);
    }
    logged(&f, "Ann chooses a full-turn action");
    logged(&f, "Ann's picking the lock takes effect");
    // Beside Bob, who attacks her in every round (all rolls fail): lost.
    let mut f = fight(&ann, &combatant("Bob", 10, 4, 30, ""));
    for _ in 0..5 {
        round(&mut f, &[1, 1, 2, 1, 1, 2]);
    }
    logged(
        &f,
        "Ann's picking the lock is interrupted by an attack: lost",
    );
}

#[test]
fn the_pcs_act_first_unless_surprised() {
    // mls, Party Turns and Turn Order: "one side performs its actions first,
    // normally the PC's unless surprised."
    let npcs = combatant("Orc", 10, 5, 20, "");
    let pcs = format!(
        "side = \"Heroes\"\npcs = true\n{}",
        combatant("Ann", 10, 5, 20, "")
    );
    let f = fight(&npcs, &pcs);
    assert_eq!(f.first_side(), 1);
    let f = fight_with(
        &npcs,
        &pcs,
        FightOptions {
            surprised: Some(1),
            ..FightOptions::default()
        },
    );
    assert_eq!(f.first_side(), 0);
}

/// Ann and Bob, neither able to attack (skill 0), in a fight that is a
/// draw after `max_turns`.
fn two_who_cannot_attack(max_turns: u32) -> Fight {
    fight_with(
        &combatant("Ann", 0, 5, 20, ""),
        &combatant("Bob", 0, 5, 20, ""),
        FightOptions {
            max_turns,
            ..FightOptions::default()
        },
    )
}

#[test]
fn a_fight_can_be_stepped_round_by_round_and_ends_in_a_draw_at_the_limit() {
    // Nobody can attack (skill 0): five empty rounds a turn until max_turns.
    let mut f = two_who_cannot_attack(2);
    let mut dice = Scripted::new([]);
    for r in 1..=5 {
        assert_eq!(
            f.step(&mut dice).unwrap(),
            Progress::Round { turn: 1, round: r }
        );
    }
    let mut last = Progress::Round { turn: 0, round: 0 };
    for _ in 0..5 {
        last = f.step(&mut dice).unwrap();
    }
    match last {
        Progress::Over(e) => assert_eq!((e.winner, e.turns), (None, 2), "{}", text(&f)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn too_few_faces_names_the_die() {
    let mut f = fight(
        &combatant("Ann", 10, 8, 14, ""),
        &combatant("Bob", 10, 6, 12, ""),
    );
    let err = f.step(&mut Scripted::new([3, 3, 3, 2])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ran out of faces: die 5 (a d6 for Bob's attack on Ann) needs a face, but only 4 were given"
    );
}

#[test]
fn move_and_shoot_moves_then_shoots_once_in_the_round_of_the_movement() {
    // mls, Move and Shoot: "he may attack in any single round from any point
    // during his movement ... normally the round will be where the movement
    // point expended - 3rd movement point means 3rd round".
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 30\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 20 }]\ntactic = { action = \"move-and-shoot\" }\n";
    let mut f = fight_apart(ann, &combatant("Bob", 0, 4, 30, ""), 10);
    round(&mut f, &[]);
    round(&mut f, &[]);
    // Agl 2 + 1 = 3 squares: the shot comes in round 3; Bob dodges (2,2,2 = 8).
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1]);
    round(&mut f, &[]);
    round(&mut f, &[]);
    assert_eq!(who(&f, "Ann").position, 3);
    assert_eq!(who(&f, "Bob").chp, 26);
    logged(&f, "Ann chooses Move and Shoot");
}

#[test]
fn flee_and_pursue() {
    // mls, Flee!: a double move away; mls, Pursue: "a double move ... directly
    // after a character who chose Flee! in the opposing side's last Turn ... IF,
    // and only if, he finishes his move adjacent to ... the fleeing character he
    // may make a single unopposed attack in the fifth round." Project ruling
    // P-19: within reach of a pursuit, the fleer has not escaped.
    let ann = combatant("Ann", 0, 4, 30, "traits = { agility = 5 }");
    let bob = combatant(
        "Bob",
        2,
        4,
        20,
        "chp = 5\ntraits = { agility = 1 }\ntactic = { break_off_below = 10 }",
    );
    let mut f = fight(&ann, &bob);
    // Turn 1: Bob's attack in round 3 (17 against Ann's 4) breaks off; the
    // rolls come in file order, Ann's first.
    round(&mut f, &[]);
    round(&mut f, &[]);
    round(&mut f, &[1, 1, 2, 5, 5, 5]);
    round(&mut f, &[]);
    round(&mut f, &[]);
    logged(&f, "Bob breaks off");
    // Turn 2, Bob's: he flees 4 squares, but Ann (pursuit 12) can reach him.
    for _ in 0..5 {
        round(&mut f, &[]);
    }
    logged(&f, "Bob flees 4 square(s)");
    assert_eq!(who(&f, "Bob").state, State::Standing);
    // Turn 3, Ann's: she pursues and ends adjacent, behind him: the fleer does
    // not attack. Round 5: her unopposed attack 16 hits: 1d6 1 -> Dam 4; Bob
    // 5 -> 1, below half: shock 6,6,6.
    for _ in 0..4 {
        round(&mut f, &[]);
    }
    round(&mut f, &[5, 5, 6, 1, 6, 6, 6]);
    logged(&f, "Ann chooses Pursue");
    logged(&f, "Ann rolls unopposed attack on Bob");
    assert_eq!(who(&f, "Bob").chp, 1);
}

#[test]
fn total_attack_against_total_attack_adds_both_strengths() {
    // mls, Total Attack: "A Total Attack against a Total Attack is treated as a
    // normal Total Attack, however if one hits the other then Dam is increased
    // by the Strengths of BOTH characters."
    let ta =
        |s: i64| format!("traits = {{ strength = {s} }}\ntactic = {{ mode = \"total-attack\" }}");
    let mut f = fight(
        &combatant("Ann", 10, 8, 40, &ta(3)),
        &combatant("Bob", 10, 6, 40, &ta(2)),
    );
    // Ann 3,3,3 = 19 beats Bob 2,2,2 = 16: Dam 8 + 3 + 2 = 13, 3d6 (1s) -> 13.
    round(&mut f, &[3, 3, 3, 2, 2, 2, 1, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 27);
    logged(&f, "Dam 8 + Strength 3 + Bob's Strength 2 = 13");
}

#[test]
fn an_offensive_spell_is_a_missile_that_may_need_preparing() {
    // mls, Offensive Spells: "treated as missile weapons, but use the
    // appropriate Sphere or Deity skill for their score"; mls, Preparing
    // Spells: "a number of "attacks" to be spent preparing instead of casting".
    let odo = "[[combatant]]\nname = \"Odo\"\nthp = 20\nskills = { fire = 10 }\nweapons = [{ name = \"fire bolt\", skill = \"fire\", dam = 6, kind = \"spell\", range = 10, prepare = 1 }]\n";
    let bob = combatant("Bob", 0, 4, 30, "tactic = { dodge = false }");
    let mut f = fight_apart(odo, &bob, 5);
    round(&mut f, &[]); // preparing
    logged(&f, "Odo chooses Cast Offensive Spells");
    logged(&f, "Odo spends the attack preparing fire bolt (1/1)");
    // Cast: 3,3,3 = 9 + fire 10 = 19, unopposed (Bob does not dodge): Dam 6,
    // 1d6 + 1d3 (1s) -> 6.
    round(&mut f, &[3, 3, 3, 1, 1]);
    assert_eq!(who(&f, "Bob").chp, 24);
    round(&mut f, &[]); // preparing again
}

#[test]
fn spells_spend_magic_points_and_a_caster_without_enough_cannot_cast() {
    // mls, Total Magic Points (TMP); Time Costs of Actions: "Cast an offensive
    // spell: 1 combat action per 2 magic points expended or part thereof."
    // A 3-point bolt takes two attacks (one preparing, one casting); Odo has
    // 5 magic points: one cast, then 2 left, not enough for another.
    let odo = "[[combatant]]\nname = \"Odo\"\nthp = 20\ntmp = 5\nskills = { fire = 10 }\nweapons = [{ name = \"fire bolt\", skill = \"fire\", dam = 6, kind = \"spell\", range = 10, mp = 3 }]\n";
    let bob = combatant("Bob", 0, 4, 30, "tactic = { dodge = false }");
    let mut f = fight_apart(odo, &bob, 5);
    round(&mut f, &[]);
    logged(&f, "Odo spends the attack preparing fire bolt (1/1)");
    // 3,3,3 = 19 hits: Dam 6, 1d6 + 1d3 (1s) -> 6.
    round(&mut f, &[3, 3, 3, 1, 1]);
    logged(&f, "Odo spends 3 magic point(s) on fire bolt: 2 left");
    assert_eq!(who(&f, "Bob").chp, 24);
    round(&mut f, &[]);
    logged(
        &f,
        "Odo cannot cast fire bolt: it needs 3 magic point(s), Odo has 2",
    );
    assert_eq!(who(&f, "Odo").mp, Some(2));
    // A spell with a cost and a caster with no magic points is refused.
    let nobody = odo.replace("tmp = 5\n", "");
    let e = nutshell_mls::sheet::Side::parse("odo.toml", &nobody)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("give the caster's magic points (tmp = N)"),
        "{e}"
    );
}

#[test]
fn no_shooting_while_attacked_by_an_adjacent_enemy() {
    // mls, Who May Shoot: "Any active or inactive character who is not being
    // attacked by an adjacent opponent may shoot"; mls, Charge: "he may only
    // make on attack, in the fifth round. Likewise he may only be attacked in
    // the 5th round." A charger reaches the archer but attacks only in the 5th
    // round: in rounds 1 to 4 she shoots at Carl, coming up behind him (the
    // charger himself may not be attacked yet); in the 5th she is attacked and
    // cannot shoot, and only defends (her dodge score, Agility 2). (P-60)
    let band = format!(
        "{}{}",
        combatant("Bob", 10, 8, 30, "traits = { agility = 3 }"),
        combatant("Carl", 2, 8, 30, "position = 6\ntactic = { dodge = false }")
    );
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 30\nposition = 4\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 20 }]\n";
    let mut f = fight(&band, ann);
    for _ in 0..4 {
        // Ann's shot 1,1,2 = 4 + 10 = 14 misses.
        round(&mut f, &[1, 1, 2]);
    }
    logged(&f, "Bob chooses Charge");
    logged(&f, "Ann rolls shot (bow) at Carl");
    // Round 5: Bob 3,3,3 = 19; Ann's defence 1,1,2 = 4 + 2 = 6; 2d6 1,1 -> 8.
    round(&mut f, &[3, 3, 3, 1, 1, 2, 1, 1]);
    logged(
        &f,
        "Ann cannot shoot: Bob attacks Ann from an adjacent square this round",
    );
    assert_eq!(who(&f, "Ann").chp, 22);
    assert_eq!(
        text(&f).matches("Ann rolls shot").count(),
        4,
        "one shot in each of rounds 1 to 4"
    );
}

#[test]
fn shooting_beyond_the_range_costs_one_per_increment_begun() {
    // mls, Range: "Shooting outside of this range applies a penalty of -1 to
    // the roll for each increment of this range" (RULING M-9, corrected: each
    // increment begun beyond the range).
    let ann = "[[combatant]]\nname = \"Ann\"\nthp = 30\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 4, kind = \"missile\", range = 5 }]\n";
    let bob = combatant("Bob", 0, 4, 30, "tactic = { dodge = false }");
    let mut f = fight_apart(ann, &bob, 16);
    // 16 squares with a range of 5: 11 beyond, three increments begun, -3.
    round(&mut f, &[3, 3, 3, 1]);
    logged(&f, "16 squares with a range of 5: -3");
    logged(&f, "3d6 [3, 3, 3] = 9 + 10 - 3 (range) = 16");
}

#[test]
fn at_most_eight_enemies_attack_one_combatant() {
    // Project ruling P-23: the eight squares around a combatant hold at most
    // eight attackers; mls, Close Combat: "-1 to the single character's roll"
    // for each beyond the first. Ten goblins, all adjacent on the line.
    let mut f = fight(&combatant("Ann", 10, 8, 40, ""), &band(10, 10, 4, 20));
    // Everyone rolls 1,1,2 and fails: Ann and eight goblins, 27 faces.
    let faces: Vec<i64> = std::iter::repeat_n([1, 1, 2], 9).flatten().collect();
    round(&mut f, &faces);
    logged(&f, "Ann faces 8 attackers: -7");
    logged(&f, "3d6 [1, 1, 2] = 4 + 10 - 7 (extra attackers) = 7");
}

#[test]
fn a_move_heads_for_the_nearest_enemy() {
    // mls, 1. Movement: Move and Charge head for the nearest enemy, whatever
    // the tactic's preference among enemies at the same distance.
    let gobs = format!(
        "{}{}",
        combatant("Far", 4, 4, 20, "position = 10"),
        combatant("Near", 4, 4, 20, "")
    );
    let mut f = fight_apart(&combatant("Ann", 4, 8, 40, ""), &gobs, 8);
    round(&mut f, &[]);
    logged(&f, "Ann moves 3 square(s) toward Near");
    assert_eq!(who(&f, "Far").position, 18);
    assert_eq!(who(&f, "Ann").position, 3);
}

#[test]
fn the_last_turn_before_the_limit_is_played_in_full() {
    // max_turns 2: turn 2 has all five rounds, and the draw comes after them.
    let mut f = two_who_cannot_attack(2);
    let mut dice = Scripted::new([]);
    for turn in 1..=2 {
        for r in 1..=4 {
            assert_eq!(
                f.step(&mut dice).unwrap(),
                Progress::Round { turn, round: r }
            );
        }
        let fifth = f.step(&mut dice).unwrap();
        if turn == 1 {
            assert_eq!(fifth, Progress::Round { turn, round: 5 });
        } else {
            assert!(
                matches!(fifth, Progress::Over(ref e) if e.winner.is_none() && e.turns == 2),
                "{fifth:?}"
            );
        }
    }
}

#[test]
fn checks_on_combat_traits_are_earned_by_three_turns_of_use_or_a_critical() {
    // mls, Checks on Secondary Traits: "any Combat trait (including casting
    // offensive spells) is used for at least 3 turns, that trait receives a
    // check. Whenever a Critical is rolled on any Secondary trait it receives
    // a check."
    let mut f = fight(
        &combatant("Ann", 10, 8, 40, ""),
        &combatant("Bob", 10, 8, 40, ""),
    );
    // Round 1: Ann 6,6,6 = 28, a critical; Bob 1,1,2 = 14 fails. Dam 16: 4d6 1s.
    round(&mut f, &[6, 6, 6, 1, 1, 2, 1, 1, 1, 1]);
    let checks = f.earned_checks();
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(
        (
            checks[0].combatant.as_str(),
            checks[0].skill.as_str(),
            checks[0].why.as_str()
        ),
        ("Ann", "blade", "a critical in turn 1")
    );
    // Both roll blade in every round; after turns 1 and 2 Bob has used it in
    // two turns (no check yet), after turn 3 in three.
    for _ in 0..9 {
        round(&mut f, &[1, 1, 2, 1, 1, 2]);
    }
    assert!(!f.earned_checks().iter().any(|c| c.combatant == "Bob"));
    for _ in 0..5 {
        round(&mut f, &[1, 1, 2, 1, 1, 2]);
    }
    let bob: Vec<String> = f
        .earned_checks()
        .into_iter()
        .filter(|c| c.combatant == "Bob")
        .map(|c| format!("{}: {}", c.skill, c.why))
        .collect();
    assert_eq!(bob, ["blade: used in 3 turns (1, 2, 3)"]);
}
