//! Fights on a battle map: every sentence of the rule text on movement,
//! facing, who may attack and who may shoot, as a fight plays it (rule text
//! 001, *1. Movement* to *Pursue*; project rulings P-63 to P-75).

use super::{combatant, logged, on_map, open, side, text, who};
use nutshell_dice::{Scripted, Seeded};
use nutshell_mls::map::{BattleMap, Facing, Square};
use nutshell_mls::{Fight, FightOptions, Progress};
use std::sync::Arc;

fn rows(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).collect()
}

/// Where `name` stands: `E5 east`.
fn at(fight: &Fight, name: &str) -> String {
    let pose = who(fight, name).pose.expect("on the map");
    format!("{} {}", pose.square, pose.facing)
}

/// A combatant who stands and does something else all turn (no moves, no
/// attacks): a target.
fn dummy(name: &str, thp: i64, extra: &str) -> String {
    combatant(
        name,
        10,
        4,
        thp,
        &format!("tactic = {{ turn_action = \"pray\", dodge = false }}\n{extra}"),
    )
}

/// One step (movement and the first round) with seeded dice.
fn first_round(fight: &mut Fight, seed: u64) -> Progress {
    fight
        .step(&mut Seeded::new(seed))
        .unwrap_or_else(|e| panic!("{e}\n{}", text(fight)))
}

#[test]
fn a_move_goes_agl_plus_one_movement_points_and_the_other_side_stands() {
    // mls, 1. Movement: "Any characters who chose a Move ... may move up to
    // their Agl+1 in squares ... No other active characters may move.
    // Inactive characters may not move." Forward Movement: "forward into the
    // square he faces at a cost of 1 movement point".
    let map = open(14, 3);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "B2", "east"), ("Bob", "M2", "west")],
        &combatant("Ann", 10, 6, 12, "traits = { agility = 2 }"),
        &combatant("Bob", 10, 6, 12, ""),
    );
    first_round(&mut f, 1);
    assert_eq!(at(&f, "Ann"), "E2 east");
    assert_eq!(at(&f, "Bob"), "M2 west");
    logged(&f, "Ann chooses Move");
    logged(
        &f,
        "Ann moves toward the enemy (up to Agl+1 = 3 MP): B2 to C2, forward, 1 MP; C2 to D2, forward, 1 MP; D2 to E2, forward, 1 MP (3 MP)",
    );
    // The log carries the new square and facing for a viewer.
    let line = f
        .log()
        .iter()
        .find(|l| l.text.starts_with("Ann moves"))
        .unwrap();
    assert_eq!(line.positions[0].square, "E2");
    assert_eq!(line.positions[0].facing, "east");
}

#[test]
fn a_charge_reaches_the_square_in_front_and_attacks_only_in_the_fifth_round() {
    // mls, Charge: "may move normally during the movement portion ... he may
    // only make on attack, in the fifth round." Turning costs 1 (Forward
    // Movement), so Ann turns north once and goes up.
    let map = open(5, 6);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "C5", "east"), ("Bob", "C2", "south")],
        &combatant("Ann", 10, 6, 12, ""),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 2);
    logged(&f, "Ann chooses Charge");
    logged(
        &f,
        "Ann charges at Bob (up to Agl+1 = 3 MP): turns to face north, 1 MP; C5 to C4, forward, 1 MP; C4 to C3, forward, 1 MP (3 MP)",
    );
    logged(&f, "Ann attacks in round(s) [5]");
    assert_eq!(at(&f, "Ann"), "C3 north");
}

#[test]
fn diagonal_steps_cost_two_then_one() {
    // mls, Diagonal Movement: "diagonally into a square adjacent to that in
    // front of him at a cost of 2 movement points. If diagonal movement
    // continues the second square only costs 1". Agility 4: 5 MP.
    let map = open(8, 8);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "A8", "north"), ("Bob", "H1", "south")],
        &combatant("Ann", 10, 6, 12, "traits = { agility = 4 }"),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 3);
    logged(
        &f,
        "A8 to B7, diagonal, 2 MP; B7 to C6, diagonal, 1 MP; C6 to D5, diagonal, 2 MP",
    );
}

#[test]
fn who_may_attack_only_the_square_in_front() {
    // mls, Who May Attack: "Any inactive character ... may attack any enemy
    // in the hex in front of him" (P-67: the square in front). Bob stands
    // beside Ann, facing away: he cannot strike her, and she does not
    // attack (a full-turn action).
    let map = open(5, 5);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "C3", "north"), ("Bob", "D3", "north")],
        &dummy("Ann", 20, ""),
        &combatant("Bob", 10, 6, 12, ""),
    );
    first_round(&mut f, 4);
    assert!(
        !f.log().iter().any(|l| l.text.contains("rolls attack")),
        "{}",
        text(&f)
    );
    // Facing her, he strikes.
    let mut g = on_map(
        &rows(&map),
        &[("Ann", "C3", "north"), ("Bob", "D3", "west")],
        &dummy("Ann", 20, ""),
        &combatant("Bob", 10, 6, 12, ""),
    );
    first_round(&mut g, 4);
    logged(&g, "Bob rolls attack on Ann");
}

#[test]
fn a_spear_reaches_a_diagonal_square_in_front() {
    // mls, Who May Attack: "A character with a spear may attack one of the
    // diagonal squares in front of him."
    let map = open(5, 5);
    let spear = "weapons = [{ name = \"spear\", skill = \"blade\", dam = 6, spear = true }]";
    let with = |weapon: &str| {
        let mut f = on_map(
            &rows(&map),
            &[("Cid", "D2", "south"), ("Ann", "C3", "north")],
            &dummy("Cid", 30, ""),
            &format!("name = \"Ann\"\nthp = 12\nskills = {{ blade = 10 }}\n{weapon}\n"),
        );
        first_round(&mut f, 5);
        f.log()
            .iter()
            .any(|l| l.text.contains("Ann rolls attack on Cid"))
    };
    assert!(with(spear));
    assert!(!with(
        "weapons = [{ name = \"sword\", skill = \"blade\", dam = 6 }]"
    ));
}

#[test]
fn an_attacked_character_turns_free_to_face_his_attacker() {
    // mls, Who May Attack: "If any character is being attacked this round he
    // may turn at no cost to face (and thus attack) his attacker. If a
    // character is being attacked this round he MUST attack a character that
    // is attacking him." Bob faces north with Ann at his side; Ann attacks.
    let map = open(5, 5);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "C3", "east"), ("Bob", "D3", "north")],
        &combatant("Ann", 10, 6, 30, ""),
        &combatant("Bob", 10, 6, 30, ""),
    );
    first_round(&mut f, 6);
    logged(&f, "Bob is attacked by Ann and turns to face west (free)");
    logged(&f, "Bob rolls attack on Ann");
    assert_eq!(at(&f, "Bob"), "D3 west");
}

#[test]
fn a_fight_action_steps_one_square_to_face_an_enemy() {
    // mls, 1. Movement: "Any characters who chose a Fight action may move up
    // to 1 square (turning to face any direction for free whether they move
    // or not), but must end up adjacent to an enemy." Fighting Movement:
    // "Movement is in any direction." Bob is diagonal to Ann: no turn puts
    // him in front, so she steps.
    let map = open(5, 5);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "B2", "north"), ("Bob", "C3", "north")],
        &combatant("Ann", 10, 6, 30, ""),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 7);
    logged(&f, "Ann chooses Fight");
    let line = f
        .log()
        .iter()
        .find(|l| l.text.starts_with("Ann steps from B2 to "))
        .unwrap_or_else(|| panic!("{}", text(&f)));
    assert!(line.text.ends_with("toward Bob"), "{}", line.text);
    // Where she stands now, Bob is in the square in front of her.
    let ann = who(&f, "Ann").pose.unwrap();
    assert_eq!(
        ann.square.step(ann.facing),
        Some(Square::parse("C3").unwrap())
    );
    // With Bob beside her, a free turn does it.
    let mut g = on_map(
        &rows(&map),
        &[("Ann", "B2", "north"), ("Bob", "C2", "north")],
        &combatant("Ann", 10, 6, 30, ""),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut g, 7);
    logged(
        &g,
        "Ann turns to face east (free in a Fight action), toward Bob",
    );
    assert_eq!(at(&g, "Ann"), "B2 east");
}

/// An archer on the second side (she stands ready to shoot from where she
/// is: P-22), with `weapon` and `extra` lines, and Bob, a target, at `bob`.
fn archer_at(bob: &str, weapon: &str, extra: &str, rows_: &[&str]) -> Fight {
    let ann = format!(
        "name = \"Ann\"\nthp = 12\nskills = {{ bow = 10 }}\nweapons = [{{ name = \"missile\", skill = \"bow\", dam = 6, range = 20, {weapon} }}]\n{extra}\n"
    );
    let mut f = on_map(
        rows_,
        &[("Bob", bob, "north"), ("Ann", "D4", "north")],
        &dummy("Bob", 40, ""),
        &ann,
    );
    first_round(&mut f, 8);
    f
}

fn shot(f: &Fight) -> bool {
    f.log().iter().any(|l| l.text.contains("Ann rolls shot"))
}

#[test]
fn the_four_arcs_decide_who_may_be_shot() {
    // mls, Who May Shoot: "The target must be within the shooter's arc of
    // fire ... All characters on foot may use throwing weapons and bows to
    // front and left (substitute right if left-handed), and all other weapons
    // (such as guns) also include the right. Trained horse archers will
    // usually be able to fire to the rear". Ann faces north from D4.
    let map = open(7, 7);
    let m = rows(&map);
    let bow = "kind = \"missile\"";
    // Forward (a front diagonal included) and Left: a bow shoots.
    assert!(shot(&archer_at("D1", bow, "", &m)));
    assert!(shot(&archer_at("A1", bow, "", &m)));
    assert!(shot(&archer_at("A4", bow, "", &m)));
    // Right: not with a bow...
    let f = archer_at("G4", bow, "", &m);
    assert!(!shot(&f));
    logged(
        &f,
        "Ann has no target: no enemy open to attack in sight in an arc it may shoot into",
    );
    // ... but left-handed, or with a gun, yes; and then not to the left.
    assert!(shot(&archer_at("G4", bow, "left_handed = true", &m)));
    assert!(!shot(&archer_at("A4", bow, "left_handed = true", &m)));
    let gun = "kind = \"missile\", missile = \"other\"";
    assert!(shot(&archer_at("G4", gun, "", &m)));
    assert!(shot(&archer_at("A4", gun, "", &m)));
    // The rear: only a mounted horse archer.
    assert!(!shot(&archer_at("D7", gun, "", &m)));
    assert!(shot(&archer_at("D7", bow, "horse_archer = true", &m)));
}

#[test]
fn a_spell_is_cast_only_forward() {
    // mls, Who May Cast: "only a target in the Forward arc can be cast at."
    let map = open(7, 7);
    let m = rows(&map);
    let spell = "kind = \"spell\"";
    let cast = |bob: &str| {
        archer_at(bob, spell, "", &m)
            .log()
            .iter()
            .any(|l| l.text.contains("Ann rolls shot"))
    };
    assert!(cast("B2"));
    assert!(!cast("A4"));
    assert!(!cast("G4"));
}

#[test]
fn walls_doors_and_other_combatants_block_a_shot() {
    // mls, Who May Shoot: "so long as he can see the target at which he is
    // shooting, and nothing is blocking his shot" (P-68).
    let bow = "kind = \"missile\"";
    let walled = ["..#....", "..#....", "..#....", ".......", "......."];
    assert!(!shot(&archer_at("A2", bow, "", &walled)));
    let door = [".......", ".......", "...+...", ".......", "......."];
    assert!(!shot(&archer_at("D1", bow, "", &door)));
    let open_door = [".......", ".......", ".../...", ".......", "......."];
    assert!(shot(&archer_at("D1", bow, "", &open_door)));
    // Cid stands in the line.
    let map = open(7, 7);
    let ann = "name = \"Ann\"\nthp = 12\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 20, kind = \"missile\" }]\n";
    let side_a = format!("{}{}", dummy("Bob", 40, ""), dummy("Cid", 40, ""));
    let mut f = on_map(
        &rows(&map),
        &[
            ("Bob", "D1", "north"),
            ("Cid", "D2", "north"),
            ("Ann", "D4", "north"),
        ],
        &side_a,
        ann,
    );
    first_round(&mut f, 9);
    assert!(
        !f.log().iter().any(|l| l.text.contains("shot (bow) at Bob")),
        "{}",
        text(&f)
    );
}

#[test]
fn after_the_first_shot_every_shot_of_the_turn_goes_into_the_same_arc() {
    // mls, Close Targets: "Once a character has selected a target to shoot at
    // he is not bound to make future shots at this same target, however he
    // must make all future shots for the remainder of this Turn into the
    // same arc." Ann (weakest first) shoots Cid, to her left, dead; Bob,
    // straight ahead, is then in another arc for the rest of the turn.
    let map = open(7, 7);
    let ann = "name = \"Ann\"\nthp = 12\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 20, kind = \"missile\" }]\ntactic = { target = \"weakest\" }\n";
    let side_a = format!(
        "{}{}",
        dummy("Bob", 40, ""),
        dummy("Cid", 1, "minor = true")
    );
    let mut f = on_map(
        &rows(&map),
        &[
            ("Bob", "D1", "north"),
            ("Cid", "A4", "north"),
            ("Ann", "D4", "north"),
        ],
        &side_a,
        ann,
    );
    // Round 1: Ann 6,6,5 = 17 + 10 = 27, a critical, hits Cid (no dodge):
    // doubled Dam 12, 3d6 1,1,1 -> 12, and Cid, a minor NPC, is dead.
    super::round(&mut f, &[6, 6, 5, 1, 1, 1]);
    logged(
        &f,
        "Ann shoots into its left arc: its other shots this turn go there too",
    );
    logged(&f, "Ann rolls shot (bow) at Cid");
    // Round 2: Bob is in the Forward arc: no shot.
    super::round(&mut f, &[]);
    let last = f.log().last().unwrap();
    assert_eq!(
        last.text,
        "Ann has no target: no enemy open to attack in sight in an arc it may shoot into",
        "{}",
        text(&f)
    );
}

#[test]
fn range_is_counted_in_squares_on_the_grid() {
    // mls, Range: "Shooting outside of this range applies a penalty of -1 to
    // the roll for each increment of this range" (RULING M-9), the distance
    // counted on the grid with every second diagonal square counting two
    // (P-66): D4 to H8 is 4 diagonally, range 6.
    let map = open(9, 9);
    let ann = "name = \"Ann\"\nthp = 12\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 5, kind = \"missile\" }]\n";
    let mut f = on_map(
        &rows(&map),
        &[("Bob", "H8", "north"), ("Ann", "D4", "east")],
        &dummy("Bob", 40, ""),
        ann,
    );
    first_round(&mut f, 10);
    logged(&f, "6 squares with a range of 5: -1");
}

#[test]
fn move_and_shoot_shoots_in_the_round_of_the_movement_point() {
    // mls, Move and Shoot: "he may attack in any single round from any point
    // during his movement ... (normally the round will be where the movement
    // point expended - 3rd movement point means 3rd round)." Behind the wall
    // Ann must walk 3 squares to see Bob (D3: straight up past the wall's end).
    let wall = ["......", "###...", "......"];
    let ann = "name = \"Ann\"\nthp = 12\ntraits = { agility = 3 }\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 20, kind = \"missile\" }]\ntactic = { action = \"move-and-shoot\" }\n";
    let mut f = on_map(
        &wall,
        &[("Ann", "A3", "east"), ("Bob", "D1", "south")],
        ann,
        &dummy("Bob", 40, ""),
    );
    first_round(&mut f, 11);
    logged(&f, "Ann chooses Move and Shoot");
    logged(&f, "Ann moves to shoot in round 3");
    logged(&f, "Ann attacks in round(s) [3]");
}

#[test]
fn a_moving_shooter_is_shot_where_his_movement_had_taken_him() {
    // mls, Move and Shoot: "he may be shot at only once per opponent, although
    // this may be at any point in his movement" (P-71: in round r he is
    // where his r-th movement point took him). Ann walks 4 squares east; in
    // round 1 Bob shoots her one square from her start.
    let map = open(12, 3);
    let ann = "name = \"Ann\"\nthp = 30\ntraits = { agility = 3 }\nskills = { bow = 4 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 3, kind = \"missile\" }]\ntactic = { action = \"move-and-shoot\", dodge = false }\n";
    let bob = "name = \"Bob\"\nthp = 30\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 6, range = 2, kind = \"missile\" }]\n";
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "A2", "east"), ("Bob", "L2", "west")],
        ann,
        bob,
    );
    first_round(&mut f, 12);
    // Ann's range 3: from C2 (2 MP) and from E2 (4 MP) alike she shoots
    // at -2 (7 to 9 squares), so she takes the cheaper, and shoots in round 2.
    assert_eq!(at(&f, "Ann"), "C2 east");
    logged(&f, "Ann attacks in round(s) [2]");
    // Bob's shot in round 1 is at Ann's square after 1 MP, B2: 10 squares,
    // range 2: -4 (RULING M-9).
    logged(&f, "10 squares with a range of 2: -4");
}

#[test]
fn a_fleer_runs_his_whole_double_move_away_and_a_pursuer_follows() {
    // mls, Flee!: "may move with a double movement allowance ... must avoid
    // contact with all hostile characters. Motion should generally be away
    // from the combat ... MUST use ALL of his movement allowance" (P-70).
    // Pursue: "may only move directly after a character who chose Flee! in
    // the opposing side's last Turn ... IF, and only if, he finishes his move
    // adjacent to ... the fleeing character he may make a single unopposed
    // attack in the fifth round."
    let hall = [
        "####################",
        "....................",
        "####################",
    ];
    let mut f = on_map(
        &hall,
        &[("Ann", "F2", "west"), ("Bob", "D2", "east")],
        &combatant("Ann", 10, 6, 30, "tactic = { action = \"flee\" }"),
        &combatant("Bob", 10, 6, 30, ""),
    );
    // Turn 1: Ann turns (1 MP) and runs 5 squares east: K2, seven from Bob.
    let mut dice = Seeded::new(13);
    for _ in 0..5 {
        f.step(&mut dice).unwrap();
    }
    assert_eq!(f.clock(), (1, 0), "{}", text(&f));
    logged(&f, "Ann chooses Flee");
    logged(
        &f,
        "Ann flees (twice Agl+1 = 6 MP): turns to face east, 1 MP; F2 to G2, forward, 1 MP",
    );
    assert_eq!(at(&f, "Ann"), "K2 east");
    assert_eq!(who(&f, "Ann").state.name(), "standing");
    // Turn 2: Bob pursues with his double move and ends behind her, in reach.
    f.step(&mut dice).unwrap();
    logged(&f, "Bob chooses Pursue");
    logged(&f, "Bob pursues Ann (twice Agl+1 = 6 MP)");
    assert_eq!(at(&f, "Bob"), "J2 east");
    logged(&f, "Bob attacks in round(s) [5]");
}

#[test]
fn a_fleer_who_reaches_the_edge_leaves_the_map() {
    // P-70: a fleer escapes when he reaches the map's edge (he leaves the
    // battlefield) or no enemy could reach him with a pursuit next turn.
    let map = open(12, 5);
    let mut f = on_map(
        &rows(&map),
        &[("Ann", "I3", "east"), ("Bob", "G3", "east")],
        &combatant("Ann", 10, 6, 30, "tactic = { action = \"flee\" }"),
        &combatant("Bob", 10, 6, 30, ""),
    );
    let progress = first_round(&mut f, 14);
    logged(&f, "Ann leaves the map and escapes");
    assert_eq!(who(&f, "Ann").state.name(), "escaped");
    assert!(matches!(progress, Progress::Over(_)));
}

#[test]
fn a_fleer_never_passes_next_to_an_enemy() {
    // mls, Flee!: "must avoid contact with all hostile characters". Ann is
    // boxed in a corridor with Bob at its mouth: the only way out passes next
    // to him, so she goes to the far end instead.
    let corridor = ["#######", "#.....#", "#.#####", "#.#####"];
    let mut f = on_map(
        &corridor,
        &[("Ann", "C2", "west"), ("Bob", "B4", "north")],
        &combatant("Ann", 10, 6, 30, "tactic = { action = \"flee\" }"),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 15);
    let line = f
        .log()
        .iter()
        .find(|l| l.text.starts_with("Ann flees"))
        .unwrap_or_else(|| panic!("{}", text(&f)));
    for step in ["B2", "B3", "A3", "C3"] {
        assert!(!line.text.contains(&format!("to {step},")), "{}", line.text);
    }
    assert!(at(&f, "Ann").starts_with("F2 "), "{}", text(&f));
}

#[test]
fn opening_a_door_costs_a_movement_point_and_it_stays_open() {
    // mls, Time Costs of Actions: "Open an unlocked door: 1 movement point"
    // (P-65): the step into the door costs 2; the door is open afterwards.
    let map = ["......", "..+...", "......"];
    let mut f = on_map(
        &map,
        &[("Ann", "A2", "east"), ("Bob", "F2", "west")],
        &combatant("Ann", 10, 6, 30, "traits = { agility = 4 }"),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 16);
    logged(&f, "B2 to C2, forward, opening the door, 2 MP");
    let line = f
        .log()
        .iter()
        .find(|l| l.text.contains("opening the door"))
        .unwrap();
    assert_eq!(line.opened, ["C2"]);
    assert_eq!(
        f.map().unwrap().terrain(Square::parse("C2").unwrap()),
        Some(nutshell_mls::map::Terrain::OpenDoor)
    );
}

/// The first seed (under 2,000) whose fight's log, stepped `steps` times,
/// has a line containing `part`.
fn seed_with(make: &dyn Fn() -> Fight, steps: usize, part: &str) -> Fight {
    for seed in 0..2000 {
        let mut f = make();
        let mut dice = Seeded::new(seed);
        for _ in 0..steps {
            if let Ok(Progress::Over(_)) = f.step(&mut dice) {
                break;
            }
        }
        if f.log().iter().any(|l| l.text.contains(part)) {
            return f;
        }
    }
    panic!("no seed gives {part:?}");
}

#[test]
fn a_killer_may_move_into_his_opponents_square_even_diagonally() {
    // mls, Killing an Opponent: "If a character kills or knocks unconscious an
    // opponent with his attack he may move into the square occupied by his
    // opponent (even if this is a diagonal)." Ann's spear kills Bob, diagonal
    // in front of her; Cid waits beyond.
    let map = open(8, 5);
    let make = || {
        on_map(
            &rows(&map),
            &[
                ("Bob", "D2", "south"),
                ("Cid", "H1", "west"),
                ("Ann", "C3", "north"),
            ],
            &format!(
                "{}{}",
                dummy("Bob", 1, "minor = true"),
                dummy("Cid", 30, "")
            ),
            "name = \"Ann\"\nthp = 30\nskills = { blade = 10 }\nweapons = [{ name = \"spear\", skill = \"blade\", dam = 6, spear = true }]\n",
        )
    };
    let f = seed_with(&make, 1, "Ann moves into Bob's square, D2");
    assert_eq!(at(&f, "Ann"), "D2 north");
}

#[test]
fn a_critical_against_a_total_attack_trades_squares() {
    // mls, Following Up a Total Attack: "He moves into the square occupied by
    // the enemy, and may change facing as he wishes. The enemy in that square
    // is moved into the square occupied by the total attacker and may not
    // change his facing."
    let map = open(6, 3);
    let make = || {
        on_map(
            &rows(&map),
            &[("Ann", "C2", "east"), ("Bob", "D2", "west")],
            &combatant("Ann", 10, 1, 200, "tactic = { mode = \"total-attack\" }"),
            &combatant("Bob", 12, 1, 200, ""),
        )
    };
    let f = seed_with(&make, 1, "follows up, trading squares with Ann");
    // Bob in Ann's square, facing her again; Ann in his, still facing east:
    // her back to him.
    assert_eq!(at(&f, "Bob"), "C2 east");
    assert_eq!(at(&f, "Ann"), "D2 east");
}

#[test]
fn a_long_creature_covers_the_squares_behind_it() {
    // mls, Forward Movement: "Long creatures taking up more than one square";
    // a dragon 3 squares long facing west from E2 covers E2, F2 and G2: no
    // one may stand there.
    let map = open(8, 3);
    let dragon = combatant("Dragon", 10, 12, 60, "length = 3");
    let err = Fight::new(
        [side(&dragon), side(&dummy("Bob", 10, ""))],
        FightOptions {
            map: Some(Arc::new(
                BattleMap::parse(
                    "lair.toml",
                    &format!(
                        "rows = '''\n{}\n'''\n[[start]]\nwho = \"Dragon\"\nat = \"E2\"\nfacing = \"west\"\n[[start]]\nwho = \"Bob\"\nat = \"G2\"\nfacing = \"west\"\n",
                        map.join("\n")
                    ),
                )
                .unwrap(),
            )),
            ..FightOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("\"Bob\" cannot stand there: G2 is taken by \"Dragon\""),
        "{err}"
    );
    let f = on_map(
        &rows(&map),
        &[("Dragon", "E2", "west"), ("Bob", "A2", "east")],
        &dragon,
        &dummy("Bob", 10, ""),
    );
    let tokens = f.tokens();
    assert_eq!(tokens.len(), 4);
    assert!(
        tokens
            .iter()
            .any(|t| t.square == Square::parse("G2").unwrap() && t.mark == '=')
    );
    assert_eq!(who(&f, "Dragon").pose.unwrap().facing, Facing::West);
}

#[test]
fn unplaced_and_misplaced_combatants_are_refused() {
    let map = open(5, 5);
    let a = combatant("Ann", 10, 6, 12, "");
    let b = combatant("Bob", 10, 6, 12, "");
    let place = |starts: &str| {
        let m = BattleMap::parse(
            "m.toml",
            &format!("rows = '''\n{}\n'''\n{starts}", map.join("\n")),
        )
        .unwrap();
        Fight::new(
            [side(&a), side(&b)],
            FightOptions {
                map: Some(Arc::new(m)),
                ..FightOptions::default()
            },
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        place("[[start]]\nwho = \"Ann\"\nat = \"A1\"\nfacing = \"east\"\n"),
        "map \"m.toml\": \"Bob\" has no start: add a [[start]] with who = \"Bob\" or side = \"Bob\""
    );
    assert_eq!(
        place("[[start]]\nwho = \"Zed\"\nat = \"A1\"\nfacing = \"east\"\n"),
        "map \"m.toml\": a start names \"Zed\", who is in neither side"
    );
    assert_eq!(
        place("[[start]]\nside = \"Goblins\"\nat = \"A1\"\nfacing = \"east\"\n"),
        "map \"m.toml\": m.toml:10:6: a start names the side \"Goblins\", which is not in the fight (the sides are \"Ann\" and \"Bob\")"
    );
}

#[test]
fn a_side_starts_in_ranks() {
    // A side placed as a block: `width` a rank, ranks toward the rear.
    let map = open(8, 8);
    let band = (1..=5)
        .map(|k| combatant(&format!("Gob{k}"), 8, 5, 6, ""))
        .collect::<String>();
    let m = BattleMap::parse(
        "m.toml",
        &format!(
            "rows = '''\n{}\n'''\n[[start]]\nwho = \"Ann\"\nat = \"A1\"\nfacing = \"south\"\n[[start]]\nside = \"test.toml\"\nat = \"C6\"\nfacing = \"north\"\nwidth = 3\n",
            map.join("\n")
        ),
    )
    .unwrap();
    let mut band_side = side(&band);
    band_side.name = "test.toml".into();
    let f = Fight::new(
        [side(&combatant("Ann", 10, 6, 12, "")), band_side],
        FightOptions {
            map: Some(Arc::new(m)),
            ..FightOptions::default()
        },
    )
    .unwrap();
    let squares: Vec<String> = (1..=5).map(|k| at(&f, &format!("Gob{k}"))).collect();
    assert_eq!(
        squares,
        ["C6 north", "D6 north", "E6 north", "C7 north", "D7 north"]
    );
}

#[test]
fn the_example_maps_fight_to_the_end() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls/");
    let load = |p: &str| {
        let path = format!("{root}{p}");
        let text = std::fs::read_to_string(&path).unwrap();
        (path, text)
    };
    for (map, a, b) in [
        (
            "maps/corridor.toml",
            "duel/knight.toml",
            "duel/brigand.toml",
        ),
        (
            "maps/crossroads.toml",
            "skirmish/party.toml",
            "skirmish/goblins.toml",
        ),
        (
            "maps/pillars.toml",
            "archers/left.toml",
            "archers/right.toml",
        ),
        ("maps/crypt.toml", "duel/knight.toml", "duel/brigand.toml"),
    ] {
        let (mp, mt) = load(map);
        let (ap, at_) = load(a);
        let (bp, bt) = load(b);
        for seed in 0..20 {
            let mut f = Fight::new(
                [
                    nutshell_mls::sheet::Side::parse(&ap, &at_).unwrap(),
                    nutshell_mls::sheet::Side::parse(&bp, &bt).unwrap(),
                ],
                FightOptions {
                    map: Some(Arc::new(BattleMap::parse(&mp, &mt).unwrap())),
                    ..FightOptions::default()
                },
            )
            .unwrap();
            let ending = f.run(&mut Seeded::new(seed)).unwrap();
            assert!(ending.turns >= 1, "{map} seed {seed}");
            // Nobody ever stands on another's square or on a wall.
            let mut seen = std::collections::HashSet::new();
            for fighter in f.fighters().iter().filter(|x| x.standing()) {
                let p = fighter.pose.unwrap();
                assert!(
                    seen.insert(p.square),
                    "{map} seed {seed}: two on {}",
                    p.square
                );
                assert!(f.map().unwrap().terrain(p.square).unwrap().passable());
            }
        }
    }
}

#[test]
fn scripted_faces_replay_a_map_fight() {
    // The same faces give the same fight on a map, as on the line.
    let map = open(8, 3);
    let make = || {
        on_map(
            &rows(&map),
            &[("Ann", "A2", "east"), ("Bob", "H2", "west")],
            &combatant("Ann", 10, 6, 14, ""),
            &combatant("Bob", 9, 7, 12, ""),
        )
    };
    let mut a = make();
    a.run(&mut Seeded::new(99)).unwrap();
    let faces: Vec<i64> = a
        .log()
        .iter()
        .flat_map(|l| l.faces.iter().copied())
        .collect();
    let mut b = make();
    b.run(&mut Scripted::new(faces)).unwrap();
    assert_eq!(a.log(), b.log());
}

#[test]
fn no_shot_while_an_adjacent_enemy_attacks() {
    // mls, Who May Shoot: "Any active or inactive character who is not being
    // attacked by an adjacent opponent may shoot" (P-60). Cid charges to the
    // square in front of Ann; his one attack is in the 5th round (*Charge*):
    // she shoots Bob in rounds 1 to 4, not in the 5th. (A charger himself
    // "may only be attacked in the 5th round": she does not shoot him.)
    let map = open(7, 7);
    let ann = "name = \"Ann\"\nthp = 40\nskills = { bow = 10 }\nweapons = [{ name = \"bow\", skill = \"bow\", dam = 1, range = 20, kind = \"missile\" }]\n";
    let cid = combatant("Cid", 10, 1, 400, "tactic = { dodge = false }");
    let mut f = on_map(
        &rows(&map),
        &[
            ("Bob", "A1", "north"),
            ("Cid", "D1", "south"),
            ("Ann", "D4", "north"),
        ],
        &format!("{}{cid}", dummy("Bob", 400, "")),
        ann,
    );
    let mut dice = Seeded::new(17);
    for _ in 0..5 {
        f.step(&mut dice).unwrap();
    }
    logged(&f, "Cid charges at Ann");
    let shots: Vec<usize> = f
        .log()
        .iter()
        .filter(|l| l.text.starts_with("Ann rolls shot"))
        .map(|l| l.round)
        .collect();
    assert_eq!(shots, [1, 2, 3, 4], "{}", text(&f));
    logged(
        &f,
        "Ann cannot shoot: Cid attacks Ann from an adjacent square this round",
    );
}

#[test]
fn a_fleer_closes_the_door_behind_him() {
    // mls, Time Costs of Actions: "Close a door: 1 movement point". Ann runs
    // through the door (1 MP to open it) with 2 MP to spare and shuts it.
    let corridor = ["######", "#..+.#", "######"];
    let mut f = on_map(
        &corridor,
        &[("Ann", "C2", "west"), ("Bob", "B2", "east")],
        &combatant("Ann", 10, 6, 30, "tactic = { action = \"flee\" }"),
        &dummy("Bob", 30, ""),
    );
    first_round(&mut f, 18);
    logged(&f, "Ann closes the door at D2 behind him, 1 MP");
    assert_eq!(at(&f, "Ann").split(' ').next(), Some("E2"));
    assert_eq!(
        f.map().unwrap().terrain(Square::parse("D2").unwrap()),
        Some(nutshell_mls::map::Terrain::ClosedDoor)
    );
    let line = f.log().iter().find(|l| !l.closed.is_empty()).unwrap();
    assert_eq!(line.closed, ["D2"]);
}

#[test]
fn climbing_a_ladder_costs_a_movement_point_per_half_metre() {
    // mls, Time Costs of Actions: "Climb a ladder within a square: 1 movement
    // point per half metre." A ladder of 1.2 m is two whole half metres and
    // a part, rounded down (RULINGS N-1: "When a rule involves a fraction,
    // always round down"; P-84): 2 MP on top of the step.
    let map = BattleMap::parse("m.toml", "ladder_height = 1.2\nrows = '''\n.H.\n'''\n").unwrap();
    let start = nutshell_mls::map::Pose {
        square: Square::parse("A1").unwrap(),
        facing: Facing::East,
    };
    let goal = Square::parse("C1").unwrap();
    let path =
        nutshell_mls::map::cheapest_path(&map, start, 1, 20, &|_| false, &|p| p.square == goal)
            .unwrap();
    assert_eq!(path.cost, 4);
    assert_eq!(
        path.describe(&map)[0],
        "A1 to B1, forward, climbing the ladder, 3 MP"
    );
    // 3 m when the map does not say: 6 MP.
    let map = BattleMap::parse("m.toml", "rows = '''\n.H.\n'''\n").unwrap();
    let path =
        nutshell_mls::map::cheapest_path(&map, start, 1, 20, &|_| false, &|p| p.square == goal)
            .unwrap();
    assert_eq!(path.cost, 8);
    let err = BattleMap::parse("m.toml", "ladder_height = 0\nrows = '''\n.H.\n'''\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "m.toml:1:17: ladder_height 0: a ladder is 0.5 to 100 metres high"
    );
}

/// Every line of the fight's five rounds, with seeded dice.
fn whole_turn(fight: &mut Fight, seed: u64) {
    let mut dice = Seeded::new(seed);
    for _ in 0..5 {
        if let Progress::Over(_) = fight
            .step(&mut dice)
            .unwrap_or_else(|e| panic!("{e}\n{}", text(fight)))
        {
            break;
        }
    }
}

/// A spearman's total attack on a front diagonal.
fn spearman(name: &str) -> String {
    format!(
        "[[combatant]]\nname = \"{name}\"\nthp = 40\nskills = {{ spear = 12 }}\nweapons = [{{ name = \"spear\", skill = \"spear\", dam = 5, spear = true }}]\ntactic = {{ mode = \"total-attack\" }}\n"
    )
}

#[test]
fn one_who_can_face_no_attacker_only_defends_against_a_total_attack() {
    // mls, Who May Attack: "If a character is being attacked this round he
    // MUST attack a character that is attacking him" (P-75: one he cannot
    // face he cannot strike back); Defensive Rounds: "a success merely
    // blocks an attack" (P-86). Tom's spear reaches Xan on his front diagonal; Xan,
    // without a spear, faces Eve and cannot face Tom: he only defends,
    // rolls no attack on Tom and never hits him.
    let map = open(5, 5);
    for seed in 0..12 {
        let mut f = on_map(
            &rows(&map),
            &[
                ("Tom", "B2", "east"),
                ("Eve", "C2", "north"),
                ("Xan", "C3", "north"),
            ],
            &format!("{}{}", spearman("Tom"), dummy("Eve", 40, "")),
            &combatant("Xan", 14, 9, 40, ""),
        );
        whole_turn(&mut f, seed);
        let log = text(&f);
        assert!(
            log.contains("Xan must fight an attacker but can face none of them: it only defends"),
            "{log}"
        );
        assert!(!log.contains("Xan rolls attack on Tom"), "{log}");
        assert!(!log.contains("Xan rolls total attack"), "{log}");
        assert!(!log.contains("Xan hits Tom"), "{log}");
        assert!(!log.contains("Xan hits Eve"), "{log}");
    }
    // Xan fights Yul in front of him, who attacks him; Tom's total attack
    // comes from the diagonal: Xan keeps fighting Yul, and against Tom his
    // roll only blocks: no attack on Tom, no hit on him.
    let mut blocked = 0;
    for seed in 0..20 {
        let mut f = on_map(
            &rows(&map),
            &[
                ("Tom", "B2", "east"),
                ("Yul", "C2", "south"),
                ("Xan", "C3", "north"),
            ],
            &format!("{}{}", spearman("Tom"), combatant("Yul", 10, 3, 40, "")),
            &combatant("Xan", 14, 9, 40, ""),
        );
        whole_turn(&mut f, seed);
        let log = text(&f);
        assert!(log.contains("Tom rolls total attack on Xan"), "{log}");
        assert!(!log.contains("Xan rolls attack on Tom"), "{log}");
        assert!(!log.contains("Xan hits Tom"), "{log}");
        if log.contains("Tom's total attack on Xan fails") {
            blocked += 1;
        }
    }
    assert!(blocked > 0, "Xan never blocked Tom's total attack");
}

#[test]
fn a_long_creature_turns_to_an_attacker_only_where_its_body_fits() {
    // mls, Who May Attack: "he may turn at no cost to face (and thus
    // attack) his attacker"; Forward Movement: a long creature takes up
    // the squares behind it (P-82). The wyrm (2 squares, C2 and B2, facing
    // east) is attacked by Bob from the south; facing south would put its
    // tail on C1, where Cid stands: it cannot turn, keeps facing east, and
    // strikes no one.
    let map = open(6, 5);
    let wyrm = combatant("Wyrm", 12, 9, 60, "length = 2");
    for seed in 0..6 {
        let mut f = on_map(
            &rows(&map),
            &[
                ("Bob", "C3", "north"),
                ("Cid", "C1", "west"),
                ("Wyrm", "C2", "east"),
            ],
            &format!(
                "{}{}",
                combatant("Bob", 10, 4, 40, ""),
                dummy("Cid", 40, "")
            ),
            &wyrm,
        );
        whole_turn(&mut f, seed);
        let log = text(&f);
        assert!(log.contains("Bob rolls attack on Wyrm"), "{log}");
        assert!(!log.contains("Wyrm is attacked by Bob and turns"), "{log}");
        assert!(!log.contains("Wyrm rolls attack"), "{log}");
        assert!(!log.contains("Wyrm hits"), "{log}");
        assert_eq!(at(&f, "Wyrm"), "C2 east");
    }
}

#[test]
fn a_total_attack_goes_on_only_to_an_enemy_it_can_strike() {
    // mls, Total Attack: "the total attacker may now make a second attack
    // against a second opponent ... He may attack an opponent who is unable
    // to attack this round only if he has hit all opponents who are able to
    // attack"; Who May Attack: "may attack any enemy in the hex in front of
    // him" (P-85). Tom hits Xan in front; Yul, behind him and not attacking
    // him, and Zed, beyond the end of the dragon's tail, are not in front:
    // the chain stops.
    let map = open(5, 7);
    let mut succeeded = 0;
    for seed in 0..30 {
        for (attacker, toml, at_, length) in [
            (
                "Tom",
                combatant("Tom", 16, 6, 60, "tactic = { mode = \"total-attack\" }"),
                "C3",
                1,
            ),
            (
                "Dragon",
                combatant(
                    "Dragon",
                    16,
                    6,
                    60,
                    "length = 3\ntactic = { mode = \"total-attack\" }",
                ),
                "C2",
                3,
            ),
        ] {
            let behind = if length == 1 { "C4" } else { "C5" };
            let front = if length == 1 { "C2" } else { "C1" };
            let mut f = on_map(
                &rows(&map),
                &[
                    (attacker, at_, "north"),
                    ("Xan", front, "south"),
                    ("Yul", behind, "south"),
                ],
                &toml,
                &format!(
                    "{}{}",
                    combatant("Xan", 4, 4, 8, ""),
                    combatant("Yul", 4, 4, 8, "")
                ),
            );
            whole_turn(&mut f, seed);
            let log = text(&f);
            if log.contains(&format!("{attacker}'s total attack succeeds")) {
                succeeded += 1;
            }
            assert!(
                !log.contains(&format!("{attacker} goes on to attack Yul")),
                "{log}"
            );
            assert!(
                !log.contains(&format!("{attacker} rolls total attack on Yul")),
                "{log}"
            );
        }
    }
    assert!(succeeded > 0, "no total attack succeeded");
}

#[test]
fn no_one_pursues_in_the_first_turn_a_character_who_only_stands_ready_to_flee() {
    // mls, Pursue: "may only move directly after a character who chose
    // Flee! in the opposing side's last Turn" (P-81): standing ready to flee
    // before his side's first turn (P-22) is not a Flee! chosen in a turn.
    let knight = combatant("Knight", 12, 8, 20, "traits = { agility = 3 }");
    let coward = combatant("Coward", 8, 4, 10, "tactic = { action = \"flee\" }");
    for (distance, map) in [(3, None), (1, Some(()))] {
        let mut f = match map {
            None => Fight::new(
                [side(&knight), side(&coward)],
                FightOptions {
                    distance,
                    ..FightOptions::default()
                },
            )
            .unwrap(),
            Some(()) => on_map(
                &rows(&open(12, 3)),
                &[("Knight", "B2", "east"), ("Coward", "F2", "west")],
                &knight,
                &coward,
            ),
        };
        first_round(&mut f, 5);
        let log = text(&f);
        assert!(log.contains("Coward stands ready to Flee"), "{log}");
        assert!(!log.contains("Knight chooses Pursue"), "{log}");
        assert!(!log.contains("unopposed attack"), "{log}");
    }
}

#[test]
fn a_pursuer_who_cannot_reach_the_fleer_ends_nearest_him() {
    // mls, Pursue: "must use all of his movement allowance in trying to
    // catch the opponent" (P-83): a pursuer who ends without the fleer in
    // front stands where no square his allowance reaches is fewer steps from
    // the fleer, or as few and nearer by range or in a straight line
    // (checked against every pose his double allowance reaches).
    use nutshell_mls::map::{Distances, explore, range};
    let rows_ = [
        "................",
        "................",
        "................",
        "......#.........",
        "......#.........",
        "......#.........",
        "................",
        "................",
        "................",
        "................",
    ];
    let mut chases = 0;
    let mut starts = Vec::new();
    for x in 1..8u32 {
        for y in 1..9u32 {
            starts.push((x, y));
        }
    }
    for (x, y) in starts {
        let bob_at = Square::new(x, y).to_string();
        let ann_at = "I5";
        if bob_at == "G4" || bob_at == "G5" || bob_at == "G6" {
            continue;
        }
        for (facing, agility) in ["north", "east", "south", "west"]
            .into_iter()
            .flat_map(|f| [(f, 0), (f, 1), (f, 2), (f, 4)])
        {
            let bob_sheet = combatant(
                "Bob",
                10,
                4,
                30,
                &format!("traits = {{ agility = {agility} }}"),
            );
            let mut f = on_map(
                &rows_,
                &[("Ann", ann_at, "west"), ("Bob", bob_at.as_str(), facing)],
                &combatant(
                    "Ann",
                    8,
                    4,
                    30,
                    "tactic = { action = \"flee\" }\ntraits = { agility = 0 }",
                ),
                &bob_sheet,
            );
            whole_turn(&mut f, 1);
            let ann = who(&f, "Ann");
            if !ann.standing() {
                continue;
            }
            let (ann_sq, bob_start) = (ann.pose.unwrap().square, who(&f, "Bob").pose.unwrap());
            let mut dice = Seeded::new(1);
            f.step(&mut dice).unwrap();
            if !text(&f).contains("Bob chooses Pursue") {
                continue;
            }
            let bob = who(&f, "Bob").pose.unwrap();
            if nutshell_mls::map::attackable(bob, false).contains(&ann_sq) {
                continue; // caught
            }
            chases += 1;
            let map = f.map().unwrap();
            let steps = Distances::from(map, [ann_sq]);
            let key = |s: Square| {
                let (dx, dy) = (s.x.abs_diff(ann_sq.x), s.y.abs_diff(ann_sq.y));
                (
                    steps.get(s).unwrap_or(u32::MAX),
                    range(s, ann_sq),
                    dx * dx + dy * dy,
                )
            };
            let budget = 2 * (agility + 1);
            let reach = explore(map, bob_start, 1, budget, &|s| s == ann_sq);
            let best = reach
                .poses()
                .into_iter()
                .map(|(p, _)| key(p.square))
                .filter(|k| k.0 >= 1)
                .min()
                .unwrap();
            assert_eq!(
                key(bob.square),
                best,
                "Bob at {} from {bob_start:?}, Ann at {ann_sq}\n{}",
                bob.square,
                text(&f)
            );
        }
    }
    assert!(chases > 0, "no position gave a chase");
}
