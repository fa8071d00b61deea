//! mls, Personality Traits; Fate Points; Behaviour.

use super::with_faces;
use nutshell_mls::character::behaviour::behave;
use nutshell_mls::character::personality::{PAIRS, Personality, TraitId};

#[test]
fn the_fifteen_pairs() {
    // mls, Personality Traits: "Personality Traits are Chaste/Lustful, Temperate/Indulgent,
    // Forgiving/Vengeful, Honest/Deceitful, Generous/Greedy, Kind/Selfish,
    // Consistent/Arbitrary, Lawful/Chaotic, Merciful/Cruel, Modest/Proud,
    // Conservative/Worldly, Cautious/Reckless, Trusting/Suspicious, Valorous/Cowardly,
    // Persistent/Irresolute."
    let text = PAIRS
        .iter()
        .map(|(a, b)| format!("{a}/{b}"))
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        text,
        "chaste/lustful, temperate/indulgent, forgiving/vengeful, honest/deceitful, generous/greedy, kind/selfish, consistent/arbitrary, lawful/chaotic, merciful/cruel, modest/proud, conservative/worldly, cautious/reckless, trusting/suspicious, valorous/cowardly, persistent/irresolute"
    );
}

#[test]
fn pairs_add_up_to_20() {
    // mls, Personality Traits: "Opposing traits are in pairs and always add up to 20."
    let mut p = Personality::default();
    let cowardly = TraitId::parse("Cowardly").unwrap();
    p.set(cowardly, 3);
    assert_eq!(p.get(cowardly.opposite()), 17);
    assert_eq!(cowardly.opposite().name(), "valorous");
    assert!(p.all().all(|(id, v)| v + p.get(id.opposite()) == 20));
}

#[test]
fn fate_points_from_traits() {
    // mls, Fate Points: "a number of Fate Points equal to the number of personality traits
    // at 16 or 17. A trait at 18 provides two Fate Points."
    let mut p = Personality::default();
    assert_eq!(p.fate_points(), 0);
    p.set(TraitId::parse("valorous").unwrap(), 16);
    assert_eq!(p.fate_points(), 1);
    p.set(TraitId::parse("proud").unwrap(), 17);
    assert_eq!(p.fate_points(), 2);
    p.set(TraitId::parse("greedy").unwrap(), 18);
    assert_eq!(p.fate_points(), 4);
    // A rolled 3 leaves the opposite at 17: one Fate Point.
    p.set(TraitId::parse("chaste").unwrap(), 3);
    assert_eq!(p.fate_points(), 5);
}

#[test]
fn behaviour_below_16_needs_no_roll() {
    // mls, Behaviour: "If a character has a Personality Trait of 15 or less he may behave
    // as he wishes."
    let b = with_faces(&[], |d| behave(15, d)).unwrap();
    assert!(!b.noticeable && b.acts_against && b.roll.is_none() && !b.checks_opposite);
}

#[test]
fn behaviour_against_a_noticeable_trait() {
    // mls, Behaviour: "If the trait is 16 or higher it is Noticeable, and the player must
    // roll higher than the trait on 1d20 if he wishes him to behave otherwise (an automatic
    // check on the opposing trait if it succeeds)."
    let b = with_faces(&[17], |d| behave(16, d)).unwrap();
    assert!(b.noticeable && b.acts_against && b.checks_opposite);
    assert_eq!(b.roll, Some(17));
    let b = with_faces(&[16], |d| behave(16, d)).unwrap();
    assert!(b.noticeable && !b.acts_against && !b.checks_opposite);
    // At 20 no roll is higher.
    let b = with_faces(&[20], |d| behave(20, d)).unwrap();
    assert!(!b.acts_against);
}
