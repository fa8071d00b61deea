//! mls, *Combat Rounds* (RULING M-4), *Delaying Attacks*, *Rushing Attacks*.

use nutshell_mls::schedule::{Schedule, attacks, rounds};

#[test]
fn attacks_are_half_the_skill_rounded_down_at_most_five() {
    // RULING M-4: "Attacks in a turn = min(5, floor(skill / 2))".
    for (skill, expected) in [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 1),
        (7, 3),
        (9, 4),
        (10, 5),
        (17, 5),
        (-3, 0),
    ] {
        assert_eq!(attacks(skill), expected, "skill {skill}");
    }
}

#[test]
fn the_rounds_of_each_number_of_attacks() {
    // mls, Combat Rounds: "One attack: 3rd, Two attacks: 2nd and 4th, Three
    // attacks: 1st, 3rd and 5th, Four attacks: 1st, 2nd, 4th and 5th, and Five
    // attacks all rounds."
    assert_eq!(rounds(0), Vec::<usize>::new());
    assert_eq!(rounds(1), vec![3]);
    assert_eq!(rounds(2), vec![2, 4]);
    assert_eq!(rounds(3), vec![1, 3, 5]);
    assert_eq!(rounds(4), vec![1, 2, 4, 5]);
    assert_eq!(rounds(5), vec![1, 2, 3, 4, 5]);
    assert_eq!(Schedule::for_skill(7).rounds(), vec![1, 3, 5]);
}

#[test]
fn delaying_moves_every_attack_and_loses_those_past_the_fifth() {
    // mls, Delaying Attacks: "delay an attack by one round and gain +1 ... by
    // two rounds and gain +2 ... all future attacks are also moved forward the
    // same number of rounds, but without the bonus. Any attack that moves
    // beyond the 5th round is lost."
    let s = Schedule::for_skill(6).delayed(2); // 1, 3, 5 -> 3 (+2), 5
    assert_eq!(s.rounds(), vec![3, 5]);
    assert_eq!(s.modifier(3), Some(2));
    assert_eq!(s.modifier(5), Some(0));
    let s = Schedule::for_skill(2).delayed(1); // 3 -> 4 (+1)
    assert_eq!(s.rounds(), vec![4]);
    assert_eq!(s.modifier(4), Some(1));
    assert_eq!(
        Schedule::for_skill(2).delayed(3).rounds(),
        Vec::<usize>::new()
    );
}

#[test]
fn rushing_moves_the_first_attack_one_round_early_at_minus_two() {
    // mls, Rushing Attacks: "perform an attack 1 round in advance, at a penalty
    // of -2 ... This does not affect future attacks, and cannot be done more
    // than 1 round in advance."
    let s = Schedule::for_skill(4).rushed(); // 2, 4 -> 1 (-2), 4
    assert_eq!(s.rounds(), vec![1, 4]);
    assert_eq!(s.modifier(1), Some(-2));
    assert_eq!(s.modifier(4), Some(0));
    // Already in the 1st round: nothing earlier to rush into.
    assert_eq!(Schedule::for_skill(6).rushed(), Schedule::for_skill(6));
}

#[test]
fn any_attack_may_be_delayed_or_rushed() {
    // mls, Delaying Attacks: "A character may delay an attack by one round and
    // gain +1 to his chance to hit ... If an attack is delayed then all future
    // attacks are also moved forward the same number of rounds, but without
    // the bonus." Any attack, not only the first: skill 10 attacks every
    // round; delaying the 2nd by 2 puts it in the 4th (+2) and the 3rd in the 5th.
    let s = Schedule::for_skill(10).delay_attack(1, 2);
    assert_eq!(s.rounds(), vec![1, 4, 5]);
    assert_eq!(
        (s.modifier(1), s.modifier(4), s.modifier(5)),
        (Some(0), Some(2), Some(0))
    );
    // mls, Rushing Attacks: "A character may perform an attack 1 round in
    // advance, at a penalty of -2 to his roll. This does not affect future
    // attacks". Skill 6 attacks in the 1st, 3rd, 5th: rushing the 3rd puts it in the 4th.
    let s = Schedule::for_skill(6).rush_attack(2).unwrap();
    assert_eq!(s.rounds(), vec![1, 3, 4]);
    assert_eq!(s.modifier(4), Some(-2));
    // A rush that cannot be made says why.
    let why = Schedule::for_skill(10).rush_attack(1).unwrap_err();
    assert!(why.contains("round 1 already holds an attack"), "{why}");
    let why = Schedule::for_skill(2).rush_attack(1).unwrap_err();
    assert!(why.contains("no attack 2"), "{why}");
}
