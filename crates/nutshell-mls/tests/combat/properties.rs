//! Random sides fight to the end from random seeds: no panic, no endless
//! fight, and the invariants of the rules hold at every step.

use nutshell_dice::Seeded;
use nutshell_mls::health::State;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions, Progress};
use proptest::prelude::*;

fn combatant() -> impl Strategy<Value = String> {
    (
        (0i64..16, 1i64..14, 1i64..25, any::<bool>(), 0u32..3),
        (0usize..4, 0usize..3, 0i64..5, prop::option::of(0usize..4), 0u32..3),
        (any::<bool>(), 0u32..2, 0u32..2, prop::option::of(1i64..8), 0i64..12),
    )
        .prop_map(
            |((skill, dam, thp, minor, fate), (mode, kind, armour, coverage, delay), (rush, reload, prepare, break_off, position))| {
                let mode = ["normal", "total-attack", "total-defence", "forego"][mode];
                let weapon = match kind {
                    0 => format!("{{ name = \"w\", skill = \"s\", dam = {dam} }}"),
                    1 => format!("{{ name = \"w\", skill = \"s\", dam = {dam}, kind = \"missile\", range = 6, reload = {reload} }}"),
                    _ => format!("{{ name = \"w\", skill = \"s\", dam = {dam}, kind = \"spell\", range = 6, prepare = {prepare} }}, {{ name = \"k\", skill = \"s\", dam = 2 }}"),
                };
                let armour = match coverage {
                    Some(c) => format!("armour = [{{ value = {armour}, coverage = \"{}\" }}]\n", ["partial", "full", "encased", "total"][c]),
                    None => String::new(),
                };
                let break_off = break_off.map(|b| format!(", break_off_below = {b}")).unwrap_or_default();
                format!(
                    "[[combatant]]\nname = \"NAME\"\nthp = {thp}\nminor = {minor}\nfate_points = {fate}\nskills = {{ s = {skill} }}\nweapons = [{weapon}]\n{armour}position = {position}\ntactic = {{ mode = \"{mode}\", delay = {delay}, rush = {rush}{break_off} }}\n"
                )
            },
        )
}

fn side(prefix: &str, members: &[String]) -> Side {
    let text: String = members
        .iter()
        .enumerate()
        .map(|(i, m)| m.replace("NAME", &format!("{prefix}{i}")))
        .collect();
    Side::parse("random.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn random_fights_end_and_keep_the_rules(
        a in prop::collection::vec(combatant(), 1..4),
        b in prop::collection::vec(combatant(), 1..4),
        seed in any::<u64>(),
    ) {
        let sides = [side("A", &a), side("B", &b)];
        let thp: Vec<i64> = sides.iter().flat_map(|s| s.combatants.iter().map(|c| c.thp)).collect();
        let mut fight = Fight::new(sides, FightOptions { max_turns: 30, ..FightOptions::default() }).unwrap();
        let mut dice = Seeded::new(seed);
        let mut steps = 0;
        loop {
            let progress = fight.step(&mut dice).unwrap();
            steps += 1;
            prop_assert!(steps <= 30 * 5 + 1, "the fight did not end");
            for (f, thp) in fight.fighters().iter().zip(&thp) {
                // mls, CHP: "can never rise above it".
                prop_assert!(f.chp <= *thp);
                // RULING M-7: a minor NPC at 0 CHP is dead; a major below -50% too,
                // unless a Fate Point removed the damage.
                if f.sheet.minor && f.chp <= 0 {
                    prop_assert_eq!(f.state, State::Dead);
                }
                if !f.sheet.minor && 2 * f.chp < -thp {
                    prop_assert_eq!(f.state, State::Dead);
                }
            }
            if let Progress::Over(ending) = progress {
                let standing = |s: usize| fight.fighters().iter().any(|f| f.side == s && f.standing());
                match ending.winner {
                    Some(w) => {
                        prop_assert!(!standing(1 - w));
                        // Standing, or the only side with survivors when all are down.
                        let survivors = |s: usize| fight.fighters().iter().any(|f| f.side == s && matches!(f.state, State::Unconscious(_)));
                        prop_assert!(standing(w) || (survivors(w) && !survivors(1 - w)));
                    }
                    None => prop_assert!(ending.turns == 30 || (!standing(0) && !standing(1))),
                }
                break;
            }
        }
    }
}
