//! Generation and validation agree: any choices within the per-item limits
//! make a sheet that keeps every rule exactly when they fit the budget and the
//! +2 limit; its ledger always sums to its unspent CPs.

use nutshell_mls::character::generation::{
    Choices, PersonalityChoice, at_plus_two, budget, cost, generate, plus_two_allowed,
};
use nutshell_mls::character::ledger::balance;
use nutshell_mls::character::validate::{to_toml, validate};
use nutshell_mls::character::{Age, Occupation, Secondary, costs::Kind, race::Race};
use nutshell_mls::dice::Dice;
use nutshell_mls::sheet::{Side, Traits};
use proptest::prelude::*;

fn choices(traits: [i64; 8], skills: Vec<(u8, i64)>, pers: Vec<i64>, age: i64) -> Choices {
    let t = Traits {
        strength: traits[0],
        body: traits[1],
        size: traits[2],
        dexterity: traits[3],
        agility: traits[4],
        mind: traits[5],
        aura: traits[6],
        awareness: traits[7],
    };
    let kinds = [Kind::Trained, Kind::Natural, Kind::Inherent];
    let bases = [
        "dexterity",
        "2-size",
        "mind+awareness",
        "strength+agility+body",
    ];
    let secondary = skills
        .iter()
        .enumerate()
        .map(|(i, (k, l))| {
            (
                format!("skill{i}"),
                Secondary {
                    kind: kinds[*k as usize % 3],
                    base: bases[i % 4].into(),
                    level: Some(*l),
                },
            )
        })
        .collect();
    let names = ["honest", "kind", "valorous", "proud", "greedy"];
    let personality = pers
        .iter()
        .zip(names)
        .map(|(v, n)| {
            let c = if *v == 0 {
                PersonalityChoice::Roll("roll".into())
            } else {
                PersonalityChoice::Value(*v)
            };
            (n.to_string(), c)
        })
        .collect();
    Choices {
        name: "P".into(),
        race: Race::Human,
        age: Age::years(age),
        traits: t,
        occupation: Occupation {
            name: "job".into(),
            base: "mind".into(),
            level: 0,
        },
        secondary,
        negative: Default::default(),
        personality,
        fate_points_bought: 0,
        magic: true,
        weapons: vec![],
        armour: vec![],
        shield: None,
        tactic: Default::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn generation_and_check_agree(
        traits in prop::array::uniform8(0i64..=4),
        skills in prop::collection::vec((0u8..3, 0i64..=4), 0..5),
        pers in prop::collection::vec(prop_oneof![Just(0i64), 5i64..=15], 0..5),
        age in 18i64..=54,
        seed in any::<u64>(),
    ) {
        let c = choices(traits, skills, pers, age);
        let mut source = nutshell_dice::Seeded::new(seed);
        let mut dice = Dice::new(&mut source);
        let sheet = generate(&c, &mut dice).unwrap();
        let ch = sheet.character.as_ref().unwrap();
        prop_assert_eq!(balance(&ch.ledger), ch.cps);
        let spent: i64 = cost(ch, &sheet.traits).unwrap().iter().map(|c| c.cps).sum();
        let fits = spent <= budget(Race::Human, c.age).unwrap()
            && at_plus_two(Race::Human, &sheet.traits).len() as i64
                <= plus_two_allowed(Race::Human, c.age, &sheet.traits);
        let text = to_toml(&sheet).unwrap();
        let v = validate(&sheet, Some(&text));
        prop_assert_eq!(v.is_empty(), fits, "{:#?}", v);
        // Every generated sheet reads back and fights.
        let side = Side::parse("p.toml", &text).unwrap();
        prop_assert_eq!(side.combatants[0].thp, sheet.thp);
    }
}

/// One step of play, chosen at random.
#[derive(Debug, Clone)]
enum Op {
    Year(Option<u8>),
    Adventure(u8, bool),
    Spend(u8, u8),
    Check(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        prop::option::of(0u8..8).prop_map(Op::Year),
        (0u8..3, any::<bool>()).prop_map(|(a, r)| Op::Adventure(a, r)),
        (0u8..6, 0u8..4).prop_map(|(k, w)| Op::Spend(k, w)),
        (0u8..6).prop_map(Op::Check),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    #[test]
    fn play_keeps_the_ledger_and_the_rules(ops in prop::collection::vec(op(), 0..60), seed in any::<u64>()) {
        use nutshell_mls::character::advancement::{Spend, adventure, after_adventure, pass_increment, spend};
        use nutshell_mls::character::costs::{Adventure, Role};
        use nutshell_mls::character::primary::ALL;
        let c = choices([3, 2, 2, 3, 2, 1, 2, 2], vec![(0, 1), (1, 0), (2, 0)], vec![12, 16], 18);
        let mut source = nutshell_dice::Seeded::new(seed);
        let mut dice = Dice::new(&mut source);
        let mut sheet = generate(&c, &mut dice).unwrap();
        prop_assert!(validate(&sheet, None).is_empty());
        let names = ["skill0", "skill1", "skill2", "job", "honest", "cowardly"];
        for o in ops {
            let before = sheet.clone();
            let result = match &o {
                Op::Year(r) => pass_increment(&mut sheet, &mut r.map(|i| vec![ALL[i as usize]]).unwrap_or_default()),
                Op::Adventure(a, major) => {
                    let size = [Adventure::Minor, Adventure::Average, Adventure::Major][*a as usize];
                    let role = if *major { Role::Major } else { Role::Minor };
                    adventure(&mut sheet, size, role, &mut dice).map(|_| ())
                }
                Op::Spend(k, w) => {
                    let what = match k {
                        0 => Spend::Secondary(names[*w as usize].into()),
                        1 => Spend::Personality(names[4 + (*w as usize % 2)].into()),
                        2 => Spend::Train(ALL[*w as usize]),
                        3 => Spend::Money(1 + *w as i64),
                        4 => Spend::Prayer(1),
                        _ => Spend::Secondary("job".into()),
                    };
                    spend(&mut sheet, &what, &mut dice)
                }
                Op::Check(n) => after_adventure(&mut sheet, &[names[*n as usize].to_string()], &mut dice),
            };
            if result.is_err() {
                // A refused change leaves no trace.
                prop_assert_eq!(&sheet, &before, "{:?}", o);
            }
            let ch = sheet.character.as_ref().unwrap();
            prop_assert_eq!(balance(&ch.ledger), ch.cps);
            prop_assert!(ch.ledger.starts_with(&before.character.as_ref().unwrap().ledger));
            let v = validate(&sheet, None);
            prop_assert!(v.is_empty(), "{:?}: {:#?}", o, v);
        }
    }
}
