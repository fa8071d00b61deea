//! mls, Time and Motion, Time Costs of Actions.

use nutshell_mls::character::time::{ACTIONS, Unit, cost};

#[test]
fn every_action_of_the_table() {
    // mls, Time Costs of Actions.
    // "Open an unlocked door: 1 movement point."
    assert_eq!(cost("open-door", None), Ok((1, Unit::MovementPoint)));
    // "Quietly open an unlocked door: 1 turn (Stealth roll may be required)."
    assert_eq!(cost("open-door-quietly", None), Ok((1, Unit::Turn)));
    // "Close a door: 1 movement point."
    assert_eq!(cost("close-door", None), Ok((1, Unit::MovementPoint)));
    // "Quietly close a door: 1 turn (Stealth roll may be required)."
    assert_eq!(cost("close-door-quietly", None), Ok((1, Unit::Turn)));
    // "Move into a square and search a wall ...: 1 turn (Search roll required)."
    assert_eq!(cost("move-and-search", None), Ok((1, Unit::Turn)));
    // "Within the current square, search a wall ...: 1 turn (Search roll required)."
    assert_eq!(cost("search", None), Ok((1, Unit::Turn)));
    // "Cast an offensive spell: 1 combat action per 2 magic points expended or part thereof."
    assert_eq!(cost("cast-offensive", Some(4)), Ok((2, Unit::CombatAction)));
    assert_eq!(cost("cast-offensive", Some(5)), Ok((3, Unit::CombatAction)));
    assert_eq!(cost("cast-offensive", Some(1)), Ok((1, Unit::CombatAction)));
    // "Cast any other spell: 1 Turn per 2 magic points expended or part thereof."
    assert_eq!(cost("cast-other", Some(3)), Ok((2, Unit::Turn)));
    // "Climb a ladder within a square: 1 movement point per half metre."
    assert_eq!(cost("climb-ladder", Some(3)), Ok((3, Unit::MovementPoint)));
    // "Flick a switch, push a button or pull a lever: 1 combat action."
    assert_eq!(cost("switch", None), Ok((1, Unit::CombatAction)));
    assert_eq!(ACTIONS.len(), 10);
    assert!(cost("cast-other", None).is_err());
    assert!(cost("dance", None).unwrap_err().contains("open-door"));
    let rolls: Vec<_> = ACTIONS.iter().filter_map(|a| a.roll).collect();
    assert_eq!(rolls.iter().filter(|r| r.starts_with("Stealth")).count(), 2);
    assert_eq!(rolls.iter().filter(|r| r.starts_with("Search")).count(), 2);
}

#[test]
fn a_fixed_cost_takes_no_amount() {
    // mls, Time Costs of Actions: "Open an unlocked door: 1 movement point." has no
    // amount; `time open-door --amount 3` used to ignore it silently.
    let e = cost("open-door", Some(3)).unwrap_err();
    assert!(
        e.contains("open-door: its cost is fixed, so it takes no amount"),
        "{e}"
    );
}
