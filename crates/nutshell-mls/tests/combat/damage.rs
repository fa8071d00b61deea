//! mls, *Damage* (RULING M-5), *Armor* and *Shields* (RULING M-6), *Aiming a
//! Shot* (RULING M-8), *Range* (RULING M-9): rolled and exact.

use num_bigint::BigInt;
use num_rational::BigRational;
use nutshell_dice::Scripted;
use nutshell_mls::body::{Coverage, HitKind, Location, effective_armour, landing};
use nutshell_mls::damage::{Damage, Hit, Protection};
use nutshell_mls::dice::Dice;
use nutshell_mls::fight::range_penalty;
use std::collections::BTreeMap;

fn dmg(dam: i64, critical: bool, minor: bool) -> Damage {
    Damage {
        dam,
        critical,
        minor,
    }
}

#[test]
fn one_d6_per_four_points_of_dam_and_a_d3_for_two_or_three_extra() {
    // RULING M-5: "floor(D / 4) d6, plus 1d3 when D mod 4 is 2 or 3".
    for (dam, expected) in [
        (3, (0, true)),
        (4, (1, false)),
        (5, (1, false)),
        (6, (1, true)),
        (7, (1, true)),
        (8, (2, false)),
        (11, (2, true)),
        (12, (3, false)),
    ] {
        assert_eq!(dmg(dam, false, false).dice(), expected, "Dam {dam}");
    }
    assert_eq!(dmg(10, false, false).expression(), "max(2d6 + 1d3, 10)");
    assert_eq!(dmg(1, false, false).expression(), "max(0, 1)");
}

#[test]
fn damage_is_the_roll_or_the_dam_whichever_is_greater() {
    // mls, Damage: "Damage done is the roll or the Dam, whichever is greater."
    let mut faces = Scripted::new([1, 2, 1]);
    let (d, f) = dmg(10, false, false)
        .roll(&mut Dice::new(&mut faces))
        .unwrap();
    assert_eq!((d, f), (10, vec![1, 2, 1]));
    let mut faces = Scripted::new([6, 5, 3]);
    assert_eq!(
        dmg(10, false, false)
            .roll(&mut Dice::new(&mut faces))
            .unwrap()
            .0,
        14
    );
}

#[test]
fn a_critical_doubles_dam_and_minor_npcs_deal_their_dam() {
    // mls, Damage: "A Critical roll doubles the attacker's Dam"; "Minor NPCs do
    // this number of damage points if they hit."
    assert_eq!(dmg(7, true, false).expression(), "max(3d6 + 1d3, 14)");
    let mut none = Scripted::new([]);
    assert_eq!(
        dmg(7, false, true).roll(&mut Dice::new(&mut none)).unwrap(),
        (7, vec![])
    );
    assert_eq!(
        dmg(7, true, true).roll(&mut Dice::new(&mut none)).unwrap(),
        (14, vec![])
    );
}

#[test]
fn armour_coverage_against_criticals_and_natural_18s() {
    // RULING M-6 / mls, Armor: "A Critical against Partial armor ignores armor,
    // as does a natural 18 against Full Armor. A natural 18 against Encased
    // armor ignores up to half the Dam rating in armor." Total is never ignored.
    let plain = HitKind::default();
    let crit = HitKind {
        critical: true,
        natural_18: false,
    };
    let n18 = HitKind {
        critical: true,
        natural_18: true,
    };
    assert_eq!(effective_armour(4, Coverage::Partial, plain, 8), 4);
    assert_eq!(effective_armour(4, Coverage::Partial, crit, 8), 0);
    assert_eq!(effective_armour(4, Coverage::Full, crit, 8), 4);
    assert_eq!(effective_armour(4, Coverage::Full, n18, 8), 0);
    assert_eq!(effective_armour(6, Coverage::Encased, crit, 8), 6);
    assert_eq!(effective_armour(6, Coverage::Encased, n18, 9), 2);
    assert_eq!(effective_armour(3, Coverage::Encased, n18, 9), 0);
    assert_eq!(effective_armour(6, Coverage::Total, n18, 40), 6);
}

#[test]
fn armour_and_shield_are_subtracted_never_below_zero() {
    // RULING M-6: "Armour value is subtracted from damage, never below 0";
    // "Shields ... subtract their armour value; a natural 18 ignores shields."
    let hit = |kind, armour, shield| Hit {
        damage: dmg(4, false, false),
        kind,
        protection: Protection { armour, shield },
    };
    let h = hit(HitKind::default(), Some((3, Coverage::Full)), Some(2));
    assert_eq!(h.absorbed(), 5);
    assert_eq!(h.expression(), "max(max(1d6, 4) - 5, 0)");
    let mut faces = Scripted::new([2]);
    assert_eq!(h.roll(&mut Dice::new(&mut faces)).unwrap(), (4, 0, vec![2]));
    let n18 = HitKind {
        critical: true,
        natural_18: true,
    };
    assert_eq!(hit(n18, Some((3, Coverage::Full)), Some(2)).absorbed(), 0);
}

/// The exact distribution by enumerating every face of every die.
fn enumerate(hit: &Hit) -> BTreeMap<i64, BigRational> {
    let d = hit.damage.effective_dam();
    let (d6, d3) = hit.damage.dice();
    let mut sums: BTreeMap<i64, u64> = BTreeMap::from([(0, 1)]);
    let mut total = 1u64;
    let mut add = |sides: i64, sums: &mut BTreeMap<i64, u64>| {
        let mut next = BTreeMap::new();
        for (s, c) in sums.iter() {
            for f in 1..=sides {
                *next.entry(s + f).or_insert(0) += c;
            }
        }
        *sums = next;
        total *= sides as u64;
    };
    if !hit.damage.minor {
        for _ in 0..d6 {
            add(6, &mut sums);
        }
        if d3 {
            add(3, &mut sums);
        }
    }
    let mut out = BTreeMap::new();
    for (s, c) in sums {
        let before = if hit.damage.minor { d } else { s.max(d) };
        let done = (before - hit.absorbed()).max(0);
        *out.entry(done)
            .or_insert_with(|| BigRational::from_integer(0.into())) +=
            BigRational::new(BigInt::from(c), BigInt::from(total));
    }
    out
}

#[test]
fn exact_damage_odds_match_enumeration() {
    // The exact engine's distribution of damage after armour (RULINGS M-5, M-6),
    // against brute force, across Dam values, criticals and coverages.
    let kinds = [
        HitKind::default(),
        HitKind {
            critical: true,
            natural_18: false,
        },
        HitKind {
            critical: true,
            natural_18: true,
        },
    ];
    for dam in [1, 3, 6, 7, 9, 10] {
        for kind in kinds {
            for coverage in [
                Coverage::Partial,
                Coverage::Full,
                Coverage::Encased,
                Coverage::Total,
            ] {
                for minor in [false, true] {
                    let hit = Hit {
                        damage: dmg(dam, kind.critical, minor),
                        kind,
                        protection: Protection {
                            armour: Some((4, coverage)),
                            shield: Some(1),
                        },
                    };
                    let dist = hit.distribution().unwrap();
                    let exact: BTreeMap<i64, BigRational> = dist
                        .outcomes()
                        .iter()
                        .map(|(v, _)| (*v, dist.probability(*v)))
                        .collect();
                    assert_eq!(exact, enumerate(&hit), "{}", hit.expression());
                }
            }
        }
    }
}

#[test]
fn aimed_locations_penalties_and_required_scores() {
    // RULING M-8: "Head -3 17+, Face -3 18+, Abdomen -1 16+, Leg -2 17+, Arm -2
    // 17+, Neck or Throat -3 19+, Wrist -4 17+"; a success below the required
    // score lands on the chest.
    let table = [
        (Location::Head, -3, 17),
        (Location::Face, -3, 18),
        (Location::Abdomen, -1, 16),
        (Location::Leg, -2, 17),
        (Location::Arm, -2, 17),
        (Location::Neck, -3, 19),
        (Location::Wrist, -4, 17),
    ];
    for (location, penalty, required) in table {
        assert_eq!(location.aim(), Some((penalty, required)), "{location}");
        assert_eq!(landing(location, required), location);
        assert_eq!(landing(location, required - 1), Location::Chest);
    }
    assert_eq!(Location::Chest.aim(), None);
}

#[test]
fn range_penalty_per_increment_begun_beyond_the_range() {
    // mls, Range: "Shooting outside of this range applies a penalty of -1 to
    // the roll for each increment of this range". RULING M-9 (corrected): -1
    // for each increment begun beyond the range (range 10: 11-20 squares -1,
    // 21-30 -2).
    assert_eq!(range_penalty(5, 10), 0);
    assert_eq!(range_penalty(10, 10), 0);
    assert_eq!(range_penalty(11, 10), -1);
    assert_eq!(range_penalty(19, 10), -1);
    assert_eq!(range_penalty(20, 10), -1);
    assert_eq!(range_penalty(21, 10), -2);
    assert_eq!(range_penalty(30, 10), -2);
    assert_eq!(range_penalty(31, 10), -3);
}
