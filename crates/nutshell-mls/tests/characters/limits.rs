//! mls, Character Generation: the limits a sheet must keep, as `check` reports
//! them (field, line, rule).

use super::{ok, one, sheet_text as s, violations};

#[test]
fn a_sheet_with_nothing_bought_is_valid() {
    // mls, Primary Traits: 60 CPs; mls, Occupation: 2 CPs at base. 58 left.
    ok(&s("", 58, "", ""));
}

#[test]
fn the_budget() {
    // mls, Primary Traits: "Players have 60 CPs with which to construct an 18-year-old
    // character, +2 CPs per year after that (for humans)."
    let v = one(&s("", 60, "", ""), "character.cps", "leaves 58");
    assert_eq!(v.line, Some(8));
    ok(&s("", 62, "", "").replace("age = 18", "age = 20"));
    // Overspending names the excess.
    let t = s(
        "strength = 4, dexterity = 4",
        0,
        "",
        "[character.secondary.a]\nkind = \"trained\"\nbase = \"mind\"\nlevel = 4\n[character.secondary.b]\nkind = \"trained\"\nbase = \"mind\"\nlevel = 4\n[character.secondary.c]\nkind = \"trained\"\nbase = \"mind\"\nlevel = 4\n[character.secondary.d]\nkind = \"trained\"\nbase = \"mind\"\nlevel = 3\n",
    );
    one(
        &t,
        "character",
        "67 CPs, but a Human aged 18 has 60: 7 too many",
    );
}

#[test]
fn income_after_base_age_plus_22_increments_is_1() {
    // RULING P-41, mls, Racial Differences: "the character gets 2 CPs, until Base Age + 22
    // increments, after which 1 CP is gained each increment." At 54: 60 + 44 + 14 = 118.
    use nutshell_mls::character::{Age, generation::budget, race::Race};
    assert_eq!(budget(Race::Human, Age::years(18)), Ok(60));
    assert_eq!(budget(Race::Human, Age::years(40)), Ok(104));
    assert_eq!(budget(Race::Human, Age::years(41)), Ok(105));
    assert_eq!(budget(Race::Human, Age::years(54)), Ok(118));
    // An Ork of 15 is 4 increments of 9 months past 12.
    assert_eq!(budget(Race::Ork, Age::years(15)), Ok(68));
    assert!(
        budget(Race::Ork, Age(15 * 12 + 1))
            .unwrap_err()
            .contains("whole increments")
    );
}

#[test]
fn starting_age() {
    // mls, Primary Traits: "PCs must begin no younger than 18 and no older than 54."
    let v = violations(&s("", 58, "", "").replace("age = 18", "age = 55"));
    assert!(
        v.iter().any(|v| v.problem.contains("no older than 54")),
        "{v:#?}"
    );
    let v = violations(&s("", 58, "", "").replace("age = 18", "age = 17"));
    assert!(v.iter().any(|v| v.field == "character.age"), "{v:#?}");
}

#[test]
fn primary_traits_stay_within_two_of_the_average() {
    // mls, Limits: "No Primary Trait may ever naturally exceed the RAv+2, or drop below
    // the RAv-2."
    let v = violations(&s("mind = 5", 58, "", ""));
    assert!(
        v.iter()
            .any(|v| v.field == "traits.mind" && v.rule.as_deref().unwrap().contains("RAv+2")),
        "{v:#?}"
    );
    let v = violations(&s("mind = -1", 58, "", ""));
    assert!(v.iter().any(|v| v.field == "traits.mind"), "{v:#?}");
}

#[test]
fn two_traits_at_plus_two() {
    // mls, Primary Traits: "May have up to 2 traits at +2"
    ok(&s("strength = 4, dexterity = 4", 48, "", ""));
    one(
        &s("strength = 4, dexterity = 4, mind = 4", 43, "", ""),
        "traits.mind",
        "3 traits at +2",
    );
}

#[test]
fn one_more_for_each_reduced_trait() {
    // mls, Primary Traits: "with one extra for each trait reduced below RAv"
    ok(&s(
        "strength = 4, dexterity = 4, mind = 4, aura = 1",
        46,
        "",
        "",
    ));
}

#[test]
fn fewer_at_40_and_50() {
    // mls, Primary Traits: "If 40 or older only 1 trait may be at +2, if 50 or older no
    // trait may be at +2 (traits reduced still increase these limits)."
    let at = |age: i64, traits: &str, cps: i64| {
        s(traits, cps, "", "").replace("age = 18", &format!("age = {age}"))
    };
    ok(&at(40, "strength = 4", 104 - 7));
    one(
        &at(40, "strength = 4, dexterity = 4", 104 - 12),
        "traits.dexterity",
        "may have 1",
    );
    one(
        &at(50, "strength = 4", 114 - 7),
        "traits.strength",
        "may have 0",
    );
    ok(&at(50, "strength = 4, aura = 1", 114 - 7 + 3));
}

#[test]
fn secondary_traits_begin_at_most_at_base_plus_4() {
    // mls, Limits: "No Secondary Trait or Negative trait may begin above base+4"
    let t = s(
        "",
        43,
        "",
        "[character.secondary.sword]\nkind = \"trained\"\nbase = \"dexterity\"\nlevel = 4\n",
    );
    ok(&t);
    let v = violations(&t.replace("level = 4", "level = 5"));
    assert!(
        v.iter()
            .any(|v| v.field == "character.secondary.sword.level" && v.problem.contains("base+5")),
        "{v:#?}"
    );
    let v = violations(&s("", 58, "", "[character.negative.fear]\nlevel = 5\n"));
    assert!(
        v.iter().any(|v| v.field == "character.negative.fear.level"),
        "{v:#?}"
    );
}

#[test]
fn negative_traits_yield_cps() {
    // mls, Negative Traits: yields 1/3/6/10/15.
    ok(&s("", 58 + 6, "", "[character.negative.fear]\nlevel = 2\n"));
}

#[test]
fn inherent_traits_cost_one_less() {
    // mls, Secondary Traits: "Inherent skills cost 1CP less than these."
    ok(&s(
        "",
        58 - 2,
        "",
        "[character.secondary.climb]\nkind = \"inherent\"\nbase = \"2-size\"\nlevel = 1\n",
    ));
}

#[test]
fn unacquired_traits_cost_nothing() {
    // mls, Secondary Traits: "Without acquiring them ... available at base-2 if Natural"
    let t = s(
        "",
        58,
        "",
        "[character.secondary.observe]\nkind = \"natural\"\nbase = \"awareness\"\n",
    );
    ok(&t);
    let c = super::sheet(&t);
    let scores = c.character.as_ref().unwrap().scores(&c.traits).unwrap();
    assert_eq!(scores["observe"], 0);
}

#[test]
fn base_formulas() {
    // mls, Secondary Traits: "Base is always a Primary Trait, or a Reverse Primary Trait
    // (2-the Primary Trait), or a combination of Primary Traits (average traits, round ALL
    // fractions DOWN)."
    let t = s(
        "strength = 3, size = 1, mind = 1",
        58,
        "",
        "[character.secondary.a]\nkind = \"trained\"\nbase = \"strength\"\nlevel = 0\n[character.secondary.b]\nkind = \"trained\"\nbase = \"2-size\"\nlevel = 0\n[character.secondary.c]\nkind = \"trained\"\nbase = \"strength+mind\"\nlevel = 0\n[character.secondary.d]\nkind = \"trained\"\nbase = \"2-strength+mind\"\nlevel = 0\n",
    );
    ok(&t);
    let c = super::sheet(&t);
    let scores = c.character.as_ref().unwrap().scores(&c.traits).unwrap();
    assert_eq!(scores["a"], 3);
    assert_eq!(scores["b"], 1);
    assert_eq!(scores["c"], 2); // (3 + 1) / 2
    assert_eq!(scores["d"], 0); // (-1 + 1) / 2
    // Rounded down, toward negative infinity (RULING N-1): (2-4 + 1) / 2 = -1/2 -> -1.
    use nutshell_mls::character::primary::Base;
    use nutshell_mls::sheet::Traits;
    let b = Base::parse("2-strength+mind").unwrap();
    let t = Traits {
        strength: 4,
        mind: 1,
        ..Traits::default()
    };
    assert_eq!(b.value(&t), -1);
    assert!(
        Base::parse("luck")
            .unwrap_err()
            .contains("not a primary trait")
    );
}

#[test]
fn personality_chosen_from_5_to_15() {
    // mls, Personality Traits: "May be chosen as desired from 5 to 15, the opposing trait
    // must be 20 minus this."
    ok(&s(
        "",
        58,
        "",
        "[character.personality]\nhonest = 5\nkind = 15\n",
    ));
    // RULING P-51: a pair left out is 10/10.
    let c = super::sheet(&s("", 58, "", ""));
    let p = c.character.as_ref().unwrap().parsed().unwrap().personality;
    assert!(p.all().all(|(_, v)| v == 10));
    let t = s("", 58, "", "[character.personality]\nhonest = 17\n")
        .replace("thp = 6", "thp = 6\nfate_points = 1");
    one(&t, "character.personality.honest", "5 to 15");
}

#[test]
fn up_to_five_at_16_4() {
    // mls, Personality Traits: "Up to 5 traits may be at 16/4." RULING P-51: giving a
    // trait 4 makes its opposite 16: a 16/4 pair too (chaste = 4 below).
    let five =
        "[character.personality]\nhonest = 16\nkind = 16\nchaste = 4\nlawful = 16\nmodest = 16\n";
    let mut t = s("", 58, "", five);
    t = t.replace("fate_points", "x");
    let t = t.replace("thp = 6", "thp = 6\nfate_points = 5");
    ok(&t);
    let t6 = t
        .replace("modest = 16", "modest = 16\ncautious = 16")
        .replace("fate_points = 5", "fate_points = 6");
    one(&t6, "character.personality", "6 pairs at 16/4");
}

#[test]
fn rolled_traits_may_lie_outside() {
    // mls, Personality Traits: "a player may roll 3d6 for a trait and take the value rolled
    // (thus may be 3, 4, 17 or 18, the opposite may be as low as 2)."
    let t = s(
        "",
        58,
        "rolled = [\"greedy\"]",
        "[character.personality]\ngreedy = 18\n",
    )
    .replace("thp = 6", "thp = 6\nfate_points = 2");
    ok(&t);
}

#[test]
fn pairs_add_up_to_20_when_both_are_given() {
    // mls, Limits: "the total of pairs always adds up to 20."
    let t = s(
        "",
        58,
        "",
        "[character.personality]\nvalorous = 12\ncowardly = 7\n",
    );
    let e = nutshell_mls::character::validate::parse_sheet("t.toml", &t)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 12") && e.contains("do not add up to 20") && e.contains("Limits"),
        "{e}"
    );
    ok(&s(
        "",
        58,
        "",
        "[character.personality]\nvalorous = 12\ncowardly = 8\n",
    ));
}

#[test]
fn personality_stays_within_0_and_20() {
    // mls, Limits: "No Personality Trait may every rise above 20 or drop below 0"
    let t = s("", 58, "", "[character.personality]\nvalorous = 21\n");
    let v = violations(&t);
    assert!(
        v.iter()
            .any(|v| v.rule.as_deref().unwrap_or("").contains("above 20")),
        "{v:#?}"
    );
}

#[test]
fn fate_points() {
    // mls, Fate Points: one per trait at 16 or 17, two at 18, and bought at 5 CPs each.
    let t = s(
        "",
        58 - 10,
        "fate_points_bought = 2",
        "[character.personality]\nproud = 16\n",
    )
    .replace("thp = 6", "thp = 6\nfate_points = 3");
    ok(&t);
    one(
        &t.replace("fate_points = 3", "fate_points = 2"),
        "fate_points",
        "give 1 and 2 were bought: 3",
    );
}

#[test]
fn thp_is_the_roll_or_base_times_3() {
    // mls, Total Hit Points: "Uses a base of Size+Body-2. This is the number of d6s rolled.
    // THP equals the roll OR the base x3, whichever is the greater." Base 2: 6..12.
    ok(&s("", 58, "", "").replace("thp = 6", "thp = 12"));
    one(
        &s("", 58, "", "").replace("thp = 6", "thp = 5"),
        "thp",
        "from 6 to 12",
    );
    one(
        &s("", 58, "", "").replace("thp = 6", "thp = 13"),
        "thp",
        "from 6 to 12",
    );
}

#[test]
fn thp_is_at_least_1() {
    // RULING P-44: with Size + Body - 2 at 0 or less, THP is 1.
    use nutshell_mls::character::generation::{thp_range, tmp_range};
    assert_eq!(thp_range(0), (1, 1));
    assert_eq!(thp_range(-2), (1, 1));
    assert_eq!(thp_range(3), (9, 18));
    // mls, Total Magic Points: "uses a base of Aura. It is otherwise calculated as per THP."
    assert_eq!(tmp_range(2), (6, 12));
    assert_eq!(tmp_range(0), (0, 0));
}

#[test]
fn tmp_from_aura() {
    // mls, Total Magic Points: base Aura 2 gives 6..12.
    ok(&s("", 58, "tmp = 7", ""));
    one(&s("", 58, "tmp = 13", ""), "character.tmp", "from 6 to 12");
}

#[test]
fn the_occupation_is_required_and_its_own_skill() {
    // mls, Occupation: "Choose Occupation, which acts as a Package Skill."
    let t = s("", 58, "", "").replace(
        "occupation = { name = \"soldier\", base = \"strength\" }\n",
        "",
    );
    let e = nutshell_mls::character::validate::parse_sheet("t.toml", &t)
        .unwrap_err()
        .to_string();
    assert!(e.contains("character: missing key `occupation`"), "{e}");
    let t = s(
        "",
        57,
        "",
        "[character.secondary.soldier]\nkind = \"trained\"\nbase = \"mind\"\nlevel = 0\n",
    );
    let v = violations(&t);
    assert!(
        v.iter().any(|v| v.problem.contains("occupation's name")),
        "{v:#?}"
    );
}

#[test]
fn lines_are_named() {
    // A bad field names its line.
    let t = s(
        "",
        58,
        "",
        "# the sword: its level is too high\n[character.secondary.sword]\nkind = \"trained\"\nbase = \"dexterity\"\nlevel = 7\n",
    );
    // Comments and words that are not keys are skipped.
    let v = violations(&t);
    let v = v
        .iter()
        .find(|v| v.field == "character.secondary.sword.level")
        .unwrap();
    assert_eq!(v.line, Some(15));
    let e = nutshell_mls::character::validate::parse_sheet("t.toml", &s("", 58, "luck = 3", ""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 10: character: unknown key `luck`"), "{e}");
}

#[test]
fn no_reductions_for_age_at_generation() {
    // RULING P-53: mls, Primary Traits: "If 40 or older only 1 trait may be at +2, if 50
    // or older no trait may be at +2": that is how age shows at generation; the
    // reductions of Effects of Age ("When a character reaches the age of 40") come in play.
    let t = s("", 116, "", "").replace("age = 18", "age = 54");
    ok(&t);
}
