//! Every cost and yield, with its rule.

use nutshell_mls::character::costs::*;

#[test]
fn primary_traits() {
    // mls, Character Generation, Primary Traits: "Primary Trait at Racial Average +1
    // costs 2 CPs, +2 costs 5 CPs. RAv-1 yields 3 CPs, -2 yields 7 CPs."
    assert_eq!(primary(1), Some(2));
    assert_eq!(primary(2), Some(5));
    assert_eq!(primary(-1), Some(-3));
    assert_eq!(primary(-2), Some(-7));
    assert_eq!(primary(0), Some(0));
    // mls, Limits: "No Primary Trait may ever naturally exceed the RAv+2, or drop below the RAv-2."
    assert_eq!(primary(3), None);
    assert_eq!(primary(-3), None);
}

#[test]
fn secondary_traits_at_generation() {
    // mls, Secondary Traits: "Trained and Natural skills cost 1CP for base, 3CPs for
    // base+1, 6CPs for base+2, 10CPs for base+3, and 15 CPs for base+4."
    for kind in [Kind::Trained, Kind::Natural] {
        let c: Vec<_> = (0..=4).map(|l| secondary(kind, l)).collect();
        assert_eq!(c, [Some(1), Some(3), Some(6), Some(10), Some(15)]);
    }
    // "Inherent skills cost 1CP less than these."
    let c: Vec<_> = (0..=4).map(|l| secondary(Kind::Inherent, l)).collect();
    assert_eq!(c, [Some(0), Some(2), Some(5), Some(9), Some(14)]);
    // mls, Limits: "No Secondary Trait ... may begin above base+4"
    assert_eq!(secondary(Kind::Trained, 5), None);
    assert_eq!(secondary(Kind::Trained, -1), None);
}

#[test]
fn availability_without_acquiring() {
    // mls, Secondary Traits: "Without acquiring them Secondary Traits are not available if
    // Trained, available at base-2 if Natural, and available at base if Inherent."
    assert_eq!(Kind::Trained.unacquired(), None);
    assert_eq!(Kind::Natural.unacquired(), Some(-2));
    assert_eq!(Kind::Inherent.unacquired(), Some(0));
}

#[test]
fn occupation_costs_double() {
    // mls, Occupation: "This is at Base Level automatically, and costs double the costs
    // of single skills." RULING P-43: above base at double the Trained costs.
    assert_eq!(occupation(0), Some(2));
    assert_eq!(occupation(1), Some(6));
    assert_eq!(occupation(2), Some(12));
    assert_eq!(occupation(3), Some(20));
    assert_eq!(occupation(4), Some(30));
    assert_eq!(occupation(5), None);
}

#[test]
fn negative_traits_yield_the_trained_costs() {
    // mls, Negative Traits: "Negative traits can be acquired yielding CPs at the same rate
    // as the cost for a Trained skill."
    let y: Vec<_> = (0..=4).map(negative).collect();
    assert_eq!(y, [Some(1), Some(3), Some(6), Some(10), Some(15)]);
    assert_eq!(negative(5), None);
}

#[test]
fn fate_points_and_starting_cps() {
    // mls, Fate Points: "Extra Fate Points may be bought at a cost of 5 CPs each."
    assert_eq!(FATE_POINT_COST, 5);
    // mls, Primary Traits: "Players have 60 CPs with which to construct an 18-year-old character"
    assert_eq!(START_CPS, 60);
    // mls, Character Points: "2 CPs per year up until the age of 40, after which only 1 CP"
    assert_eq!((INCOME_YOUNG, INCOME_OLD), (2, 1));
}

#[test]
fn secondary_traits_in_play() {
    // mls, Character Advancement, Secondary Traits: "a cost of 1 CP to acquire at base, 2
    // CPs to go from base to +1, 3 CPs to go from +1 to +2, 4 CPs to go from +2 to +3, 5
    // CPs to go from +3 to +4, 6 CPs to go from +4 to +5 and 7 CPs to go from +5 to +6."
    let c: Vec<_> = (0..=6).map(secondary_step).collect();
    assert_eq!(
        c,
        [
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            Some(7)
        ]
    );
    // "Secondary traits may never rise above base +6."
    assert_eq!(secondary_step(7), None);
    // The play costs add up to the generation costs.
    for l in 0..=4 {
        let sum: i64 = (0..=l).map(|s| secondary_step(s).unwrap()).sum();
        assert_eq!(Some(sum), secondary(Kind::Trained, l));
    }
}

#[test]
fn decreasing_negative_traits() {
    // mls, Decrease Negative Traits: "from +4 to +3 at a cost of 5 CPs, +3 to +2 at a cost
    // of 4 CPs, +2 to +1 at a cost of 3 CPs, +1 to base at a cost of 2 CPs, and removed
    // from base level at a cost of 1 CP."
    let c: Vec<_> = (0..=4).map(negative_decrease).collect();
    assert_eq!(c, [Some(1), Some(2), Some(3), Some(4), Some(5)]);
    assert_eq!(negative_decrease(5), None);
}

#[test]
fn increasing_personality_traits() {
    // mls, Increase a Personality Trait: "by one level to 15 or less at a cost of 1 CP, by
    // one level to 16 or 17 at a cost of 5 CPs, and by one level to 18 or 19 at a cost of
    // 10 CPs. Personality traits may NOT be increased to 20 by CPs."
    assert_eq!(personality_step(6), Some(1));
    assert_eq!(personality_step(15), Some(1));
    assert_eq!(personality_step(16), Some(5));
    assert_eq!(personality_step(17), Some(5));
    assert_eq!(personality_step(18), Some(10));
    assert_eq!(personality_step(19), Some(10));
    assert_eq!(personality_step(20), None);
}

#[test]
fn adventures() {
    // mls, Adventures: "Minor Adventure: ... Minor Role 1 CP, Major Role 1d3 CPs."
    assert_eq!(adventure(Adventure::Minor, Role::Minor), None);
    assert_eq!(adventure(Adventure::Minor, Role::Major), Some(3));
    // "Average Adventure: ... Minor Role 1d3 CPs, Major Role 1d6 CPs."
    assert_eq!(adventure(Adventure::Average, Role::Minor), Some(3));
    assert_eq!(adventure(Adventure::Average, Role::Major), Some(6));
    // "Major Adventure: ... Minor Role 1d6 CPs, Major Role 1d10 CPs."
    assert_eq!(adventure(Adventure::Major, Role::Minor), Some(6));
    assert_eq!(adventure(Adventure::Major, Role::Major), Some(10));
}

#[test]
fn training_money_and_prayer() {
    // mls, Training Up an Attribute: "At a cost of 5 CPs one Primary Trait ..."
    assert_eq!(TRAINING_COST, 5);
    // mls, Acquiring Money: "1d20 x 10 florins per CP"
    assert_eq!((FLORINS_DIE, FLORINS_PER_FACE), (20, 10));
    // mls, Prayer: "5 favor points per CP"
    assert_eq!(FAVOUR_PER_CP, 5);
}

#[test]
fn the_check_table() {
    // mls, Checks on Secondary Traits: "Trait is currently at: -2 | base | +1 | +2 | +3 |
    // +4 | +5; requires a roll of: 2-8 | 3-8 | 4-8 | 5-8 | 6-8 | 7-8 | 8; to go up to:
    // base | +1 | +2 | +3 | +4 | +5 | +6"
    let rows: Vec<_> = [-2, 0, 1, 2, 3, 4, 5]
        .iter()
        .map(|&l| (l, check_needs(l), check_raises_to(l)))
        .collect();
    assert_eq!(
        rows,
        [
            (-2, Some(2), 0),
            (0, Some(3), 1),
            (1, Some(4), 2),
            (2, Some(5), 3),
            (3, Some(6), 4),
            (4, Some(7), 5),
            (5, Some(8), 6)
        ]
    );
    assert_eq!(check_needs(6), None);
}

#[test]
fn citations_are_the_text_before_the_quote() {
    assert_eq!(
        cite(rules::PRIMARY_COST),
        "mls, Character Generation, Primary Traits"
    );
}
