//! Many fights: reproducible from a seed, the same however they are split
//! among workers, and sensible.

use super::{combatant, side};
use nutshell_mls::FightOptions;
use nutshell_mls::simulate::Tally;

fn sides() -> [nutshell_mls::sheet::Side; 2] {
    [
        side(&combatant("Ann", 10, 8, 14, "")),
        side(&combatant("Bob", 8, 6, 12, "")),
    ]
}

#[test]
fn a_seed_gives_the_same_tally_however_the_fights_are_split() {
    let options = FightOptions::default();
    let whole = Tally::run(&sides(), &options, 9, 0..400, &|| {}).unwrap();
    let a = Tally::run(&sides(), &options, 9, 0..150, &|| {}).unwrap();
    let b = Tally::run(&sides(), &options, 9, 150..400, &|| {}).unwrap();
    assert_eq!(a.merge(b), whole);
    assert_eq!(whole.fights, 400);
    assert_eq!(whole.wins[0] + whole.wins[1] + whole.draws, 400);
    let other = Tally::run(&sides(), &options, 10, 0..400, &|| {}).unwrap();
    assert_ne!(other, whole);
}

#[test]
fn the_better_fighter_wins_more_often() {
    let tally = Tally::run(&sides(), &FightOptions::default(), 1, 0..2000, &|| {}).unwrap();
    assert!(tally.wins[0] > 2 * tally.wins[1], "{tally:?}");
    // Every fight ends with the loser down: unconscious, dead or escaped.
    let down = tally.unconscious[1] + tally.dead[1] + tally.escaped[1];
    assert!(down >= tally.wins[0], "{tally:?}");
}
