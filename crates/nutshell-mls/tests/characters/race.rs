//! mls, Racial Differences: the table as data.

use nutshell_mls::character::race::{RACES, Race, show_age};

#[test]
fn the_table_row_by_row() {
    // mls, Racial Differences: "Race | Base Age | Increment | -1 trait | -2 traits | -3 traits | -4 traits"
    let rows: Vec<_> = RACES
        .iter()
        .map(|r| {
            (
                r.name,
                show_age(r.base_age),
                r.increment,
                r.reductions.map(show_age),
            )
        })
        .collect();
    let y = |a: [&str; 4]| a.map(String::from);
    assert_eq!(
        rows,
        vec![
            // "Human | 18 | 1 year | 40 | 50 | 60 | 70"
            ("Human", "18".into(), 12, y(["40", "50", "60", "70"])),
            // "Elf or Halfling | 25 | 4 years | 113 | 153 | 193 | 233"
            (
                "Elf or Halfling",
                "25".into(),
                48,
                y(["113", "153", "193", "233"])
            ),
            // "Dwarf or Gnome | 40 | 5 years | 150 | 200 | 250 | 300"
            (
                "Dwarf or Gnome",
                "40".into(),
                60,
                y(["150", "200", "250", "300"])
            ),
            // "Ork | 12 | 9 months | 28½ | 36 | 43½ | 51"
            ("Ork", "12".into(), 9, y(["28½", "36", "43½", "51"])),
            // "Goblin | 8 | 6 months | 19 | 24 | 29 | 34"
            ("Goblin", "8".into(), 6, y(["19", "24", "29", "34"])),
        ]
    );
}

#[test]
fn the_thresholds_follow_the_increments() {
    // mls, Racial Differences: "Reduction in Primary Traits is done at Base Age + 22
    // increments (40 human years), +32 increments (50 human years), and every 10
    // increments thereafter (10 human years)."
    for r in &RACES {
        for k in 1..=4 {
            assert_eq!(
                r.reduction_age(k as i64),
                r.reductions[k - 1],
                "{} -{k}",
                r.name
            );
        }
        assert_eq!(r.reduction_age(5), r.reductions[3] + 10 * r.increment);
    }
}

#[test]
fn reductions_due_by_age() {
    // mls, Effects of Age: "When a character reaches the age of 40 he must reduce one
    // Primary trait ... Every ten years after this he must do this again"
    let h = Race::Human.row();
    assert_eq!(h.reductions_by(39 * 12 + 11), 0);
    assert_eq!(h.reductions_by(40 * 12), 1);
    assert_eq!(h.reductions_by(50 * 12), 2);
    assert_eq!(h.reductions_by(80 * 12), 5);
    let ork = Race::Ork.row();
    assert_eq!(ork.reductions_by(28 * 12 + 5), 0);
    assert_eq!(ork.reductions_by(28 * 12 + 6), 1);
}

#[test]
fn races_parse_by_either_name_of_a_row() {
    // mls, Racial Differences: the rows "Elf or Halfling", "Dwarf or Gnome".
    assert_eq!(Race::parse("Halfling"), Some(Race::ElfOrHalfling));
    assert_eq!(Race::parse("elf"), Some(Race::ElfOrHalfling));
    assert_eq!(Race::parse("gnome"), Some(Race::DwarfOrGnome));
    assert_eq!(Race::parse("Ork"), Some(Race::Ork));
    assert_eq!(Race::parse("troll"), None);
}

#[test]
fn every_race_averages_2() {
    // RULING P-40: "all average 2 for humans"; "All stats given are for humans".
    for r in &RACES {
        assert_eq!(r.race.average(), 2);
    }
}

#[test]
fn starting_ages_scale_with_the_increment() {
    // RULING P-42: "PCs must begin no younger than 18 and no older than 54": base age to
    // base age + 36 increments.
    assert_eq!(Race::Human.row().start_ages(), (18 * 12, 54 * 12));
    assert_eq!(
        Race::ElfOrHalfling.row().start_ages(),
        (25 * 12, (25 + 144) * 12)
    );
    assert_eq!(Race::Ork.row().start_ages(), (12 * 12, 12 * 12 + 36 * 9));
}

#[test]
fn races_take_their_article() {
    // "an Ork", "an Elf or Halfling", not "a Ork" (review item 11).
    use nutshell_mls::character::race::Race;
    assert_eq!(Race::Ork.row().a(), "an Ork");
    assert_eq!(Race::ElfOrHalfling.row().a(), "an Elf or Halfling");
    assert_eq!(Race::Human.row().a(), "a Human");
    let e = nutshell_mls::character::generation::budget(
        Race::Ork,
        nutshell_mls::character::Age::years(60),
    )
    .unwrap_err();
    assert!(e.starts_with("an Ork starts no younger than 12"), "{e}");
}
