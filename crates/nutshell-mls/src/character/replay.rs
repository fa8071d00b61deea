//! Replaying the ledger (RULING P-55): `check` rebuilds the character from
//! its generation entries, applies every later entry in order, checking each
//! against its rule (its cost, its limits, one level per increment), and
//! compares what it rebuilt with the sheet, field by field. Anything the
//! sheet holds that the ledger does not explain was "changed outside the
//! ledger".
//!
//! Every entry that changes something names it (`target`) and says what it
//! was (`from`) and became (`to`); see docs/mls/characters.md, "The ledger".

use super::costs::{self, Kind, rules};
use super::generation::{
    at_plus_two, budget, level_name, plus_two_allowed, thp_base, thp_range, tmp_range,
};
use super::ledger::{Entry, Step, key};
use super::personality::{NOTICEABLE, Personality, TraitId};
use super::primary::{ALL, Primary};
use super::race::FULL_INCOME_INCREMENTS;
use super::{Age, Character};
use crate::sheet::{Combatant, Traits};
use std::collections::{BTreeMap, BTreeSet};

/// One difference or broken rule found by the replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The field (`traits.strength`) or entry (`character.ledger[12]`).
    pub field: String,
    /// What is wrong.
    pub problem: String,
    /// The rule, quoted (or a ruling).
    pub rule: Option<String>,
}

const OUTSIDE: &str = "changed outside the ledger";
/// The ruling `check` replays the ledger by.
pub const REPLAY: &str = "RULING P-55: the sheet is what its ledger makes it; every change is an entry naming its target, from and to";

#[derive(Default)]
struct State {
    age: Age,
    cps: i64,
    traits: Traits,
    occupation: Option<i64>,
    /// Secondary traits acquired (level), by name.
    secondary: BTreeMap<String, i64>,
    /// Negative traits (level), by name; removed ones are taken out.
    negative: BTreeMap<String, i64>,
    personality: Personality,
    rolled: BTreeSet<TraitId>,
    chosen_16: BTreeSet<usize>,
    thp: Option<i64>,
    tmp: Option<i64>,
    fate_points: Option<i64>,
    bought: i64,
    training: Option<(Primary, Age)>,
    florins: i64,
    favour: i64,
    /// Reductions for age due and not yet made.
    reductions: i64,
    /// The index of the last adventure entry, and the secondary traits
    /// rolled for since.
    adventure: Option<(usize, Age)>,
    rolled_since: BTreeSet<String>,
    /// (age, key) changed by generation or CPs.
    changed: BTreeSet<(Age, String)>,
}

struct Replay<'c> {
    ch: &'c Character,
    out: Vec<Finding>,
}

impl Replay<'_> {
    fn bad(&mut self, i: usize, problem: impl Into<String>, rule: Option<&str>) {
        self.out.push(Finding {
            field: format!("character.ledger[{i}]"),
            problem: format!("entry {}: {}", i + 1, problem.into()),
            rule: rule.map(str::to_string),
        });
    }

    fn differs(&mut self, field: impl Into<String>, sheet: String, ledger: String) {
        self.out.push(Finding {
            field: field.into(),
            problem: format!("{sheet} on the sheet, but the ledger makes it {ledger}: {OUTSIDE}"),
            rule: Some(REPLAY.to_string()),
        });
    }
}

fn show(v: Option<i64>) -> String {
    v.map_or("nothing".to_string(), |v| v.to_string())
}

fn show_level(v: Option<i64>) -> String {
    v.map_or("not had".to_string(), level_name)
}

/// The number a roll text ends with ("1d8 = 5" -> 5), and its die ("1d8" -> 8).
fn roll_of(e: &Entry) -> Option<(i64, i64)> {
    let r = e.roll.as_deref()?;
    let (die, value) = r.split_once('=')?;
    let die = die.trim().strip_prefix("1d")?.parse().ok()?;
    let value = value.trim().parse().ok()?;
    Some((die, value))
}

/// Replays the ledger of `sheet` and compares; empty when the ledger is empty.
pub fn replay(sheet: &Combatant) -> Vec<Finding> {
    let Some(ch) = &sheet.character else {
        return Vec::new();
    };
    if ch.ledger.is_empty() {
        return Vec::new();
    }
    let mut r = Replay {
        ch,
        out: Vec::new(),
    };
    let mut st = State::default();
    let rav = ch.race.average();
    for p in ALL {
        *p.get_mut(&mut st.traits) = rav;
    }
    let occupation = ch.occupation.name.as_str();
    let generation_ends = ch
        .ledger
        .iter()
        .position(|e| e.step != Step::Generation)
        .unwrap_or(ch.ledger.len());
    for (i, e) in ch.ledger.iter().enumerate() {
        if i == generation_ends {
            end_of_generation(&mut r, &st, i);
        }
        if e.step == Step::Generation {
            generation_entry(&mut r, &mut st, i, e, occupation);
        } else {
            play_entry(&mut r, &mut st, i, e, occupation);
        }
        st.cps += e.cps;
        if e.step == Step::Generation {
            st.age = e.age;
        }
    }
    if generation_ends == ch.ledger.len() {
        end_of_generation(&mut r, &st, ch.ledger.len());
    }
    if st.reductions > 0 {
        r.out.push(Finding {
            field: "character.ledger".into(),
            problem: format!(
                "{} reduction(s) for age at {} are not in the ledger",
                st.reductions, st.age
            ),
            rule: Some(rules::AGEING.into()),
        });
    }
    compare(&mut r, &st, sheet);
    r.out
}

fn generation_entry(r: &mut Replay, st: &mut State, i: usize, e: &Entry, occupation: &str) {
    let ch = r.ch;
    let race = ch.race;
    if i == 0 {
        if e.target.is_some() {
            r.bad(
                i,
                "the ledger begins with the starting CPs, without a target",
                Some(rules::BUDGET),
            );
        }
        match budget(race, e.age) {
            Ok(b) if b != e.cps => r.bad(
                i,
                format!(
                    "{} starting CPs, but {} aged {} has {b}",
                    e.cps,
                    race.row().a(),
                    e.age
                ),
                Some(rules::BUDGET),
            ),
            Ok(_) => {}
            Err(m) => r.bad(i, m, Some(rules::START_AGE)),
        }
        return;
    }
    if e.age != st.age {
        r.bad(
            i,
            format!(
                "a generation entry at age {}, but the character was made at {}",
                e.age, st.age
            ),
            None,
        );
    }
    let Some(target) = e.target.as_deref() else {
        r.bad(
            i,
            "a generation entry after the first must name what it bought (target)",
            None,
        );
        return;
    };
    let Some(to) = e.to else {
        r.bad(
            i,
            format!("does not say what {target} was set to (to): the ledger cannot be replayed"),
            Some(REPLAY),
        );
        return;
    };
    let k = key(target, occupation);
    st.changed.insert((e.age, k.clone()));
    let price = |r: &mut Replay, cost: Option<i64>, rule: &str, what: &str| match cost {
        Some(c) if -c == e.cps => {}
        Some(c) => r.bad(
            i,
            format!("{what} costs {c} CPs, but the entry says {}", -e.cps),
            Some(rule),
        ),
        None => r.bad(
            i,
            format!("{what} cannot be bought at generation"),
            Some(rule),
        ),
    };
    if let Some(p) = k.strip_prefix("primary.") {
        let Some(p) = Primary::parse(p) else {
            r.bad(i, format!("{p:?} is not a primary trait"), None);
            return;
        };
        price(
            r,
            costs::primary(to - rav_of(ch)),
            rules::PRIMARY_COST,
            &format!("{p} {to}"),
        );
        *p.get_mut(&mut st.traits) = to;
    } else if k == "occupation" {
        price(
            r,
            costs::occupation(to),
            rules::OCCUPATION,
            &format!("the occupation at {}", level_name(to)),
        );
        st.occupation = Some(to);
    } else if let Some(name) = k.strip_prefix("secondary.") {
        let Some(s) = ch.secondary.get(name) else {
            r.bad(
                i,
                format!("{name} is not one of the sheet's secondary traits"),
                None,
            );
            return;
        };
        price(
            r,
            costs::secondary(s.kind, to),
            rules::SECONDARY_COST,
            &format!("{name} at {}", level_name(to)),
        );
        if to > 4 {
            r.bad(
                i,
                format!("{name} at {}", level_name(to)),
                Some(rules::LIMIT_SECONDARY),
            );
        }
        st.secondary.insert(name.to_string(), to);
    } else if let Some(name) = k.strip_prefix("negative.") {
        price(
            r,
            costs::negative(to).map(|y| -y),
            rules::NEGATIVE,
            &format!("negative trait {name} at {}", level_name(to)),
        );
        st.negative.insert(name.to_string(), to);
    } else if k == "fate_points_bought" {
        price(
            r,
            (to >= 0).then_some(costs::FATE_POINT_COST * to),
            rules::FATE_POINTS,
            &format!("{to} Fate Point(s)"),
        );
        st.bought = to;
    } else if k.starts_with("personality.") {
        let id = target.strip_prefix("personality.").and_then(TraitId::parse);
        let Some(id) = id else { return };
        if e.cps != 0 {
            r.bad(
                i,
                "personality traits cost no CPs",
                Some(rules::PERSONALITY),
            );
        }
        if e.roll.is_some() {
            if !(3..=18).contains(&to) {
                r.bad(
                    i,
                    format!("{to} cannot be rolled on 3d6"),
                    Some(rules::PERSONALITY),
                );
            }
            st.rolled.insert(id);
        } else {
            let high = to.max(20 - to);
            if high == NOTICEABLE {
                st.chosen_16.insert(id.pair);
            } else if !(5..=15).contains(&to) {
                r.bad(
                    i,
                    format!(
                        "{} chosen at {to}: chosen traits lie from 5 to 15, or at 16/4",
                        id.name()
                    ),
                    Some(rules::PERSONALITY),
                );
            }
        }
        st.personality.set(id, to);
    } else if k == "thp" {
        st.thp = Some(to);
    } else if k == "tmp" {
        st.tmp = Some(to);
    } else if k == "fate_points" {
        st.fate_points = Some(to);
    } else {
        r.bad(i, format!("{target} is nothing generation buys"), None);
    }
}

fn rav_of(ch: &Character) -> i64 {
    ch.race.average()
}

/// The generation rules on the character as generation left it.
fn end_of_generation(r: &mut Replay, st: &State, next: usize) {
    let ch = r.ch;
    let at = next.saturating_sub(1);
    if st.cps < 0 {
        r.bad(
            at,
            format!(
                "generation spent {} CPs more than the character had",
                -st.cps
            ),
            Some(rules::BUDGET),
        );
    }
    let plus_two = at_plus_two(ch.race, &st.traits);
    let allowed = plus_two_allowed(ch.race, st.age, &st.traits);
    if plus_two.len() as i64 > allowed {
        r.bad(
            at,
            format!(
                "generation put {} traits at +2, but {allowed} may be",
                plus_two.len()
            ),
            Some(rules::PLUS_TWO),
        );
    }
    if st.chosen_16.len() > 5 {
        r.bad(
            at,
            format!(
                "generation chose {} pairs at 16/4: up to 5 may be",
                st.chosen_16.len()
            ),
            Some(rules::PERSONALITY),
        );
    }
    if st.occupation.is_none() {
        r.bad(at, "generation did not record the occupation", Some(REPLAY));
    }
    let base = thp_base(&st.traits);
    let (lo, hi) = thp_range(base);
    match st.thp {
        Some(t) if (lo..=hi).contains(&t) => {}
        Some(t) => r.bad(
            at,
            format!("THP {t} is not a roll of {base}d6 or base x 3: it lies from {lo} to {hi}"),
            Some(rules::THP),
        ),
        None => r.bad(at, "generation did not record THP", Some(rules::THP)),
    }
    if let Some(t) = st.tmp {
        let aura = Primary::Aura.get(&st.traits);
        let (lo, hi) = tmp_range(aura);
        if !(lo..=hi).contains(&t) {
            r.bad(
                at,
                format!("TMP {t} is not a roll of {aura}d6 or Aura x 3"),
                Some(rules::TMP),
            );
        }
    }
    let expected = st.personality.fate_points() + st.bought;
    match st.fate_points {
        Some(f) if f == expected => {}
        Some(f) => r.bad(
            at,
            format!(
                "{f} Fate Points, but the personality traits give {} and {} were bought: {expected}",
                st.personality.fate_points(),
                st.bought
            ),
            Some(rules::FATE_POINTS),
        ),
        None => r.bad(
            at,
            "generation did not record the Fate Points",
            Some(rules::FATE_POINTS),
        ),
    }
}

fn play_entry(r: &mut Replay, st: &mut State, i: usize, e: &Entry, occupation: &str) {
    let ch = r.ch;
    let row = ch.race.row();
    if e.step == Step::Income {
        let next = Age(st.age.0 + row.increment);
        if e.age != next {
            r.bad(
                i,
                format!(
                    "income at age {}, but the next increment after {} ends at {next}",
                    e.age, st.age
                ),
                Some(rules::INCREMENT),
            );
        }
        let cps = if row.increments_at(e.age.0) > FULL_INCOME_INCREMENTS {
            costs::INCOME_OLD
        } else {
            costs::INCOME_YOUNG
        };
        if e.cps != cps {
            r.bad(
                i,
                format!(
                    "{} CP(s) of income, but the increment to {} gives {cps}",
                    e.cps, e.age
                ),
                Some(rules::INCREMENT),
            );
        }
        if st.reductions > 0 {
            r.bad(
                i,
                format!(
                    "{} reduction(s) for age at {} were not made",
                    st.reductions, st.age
                ),
                Some(rules::AGEING),
            );
        }
        st.reductions = super::ageing::due(ch.race, st.age, e.age);
        st.age = e.age;
        return;
    }
    if e.age != st.age {
        r.bad(
            i,
            format!(
                "at age {}, but the ledger has the character at {}: only income moves age on",
                e.age, st.age
            ),
            None,
        );
    }
    match e.step {
        Step::Adventure => {
            match (roll_of(e), e.roll.is_some()) {
                (Some((die, value)), _)
                    if ![3, 6, 10].contains(&die)
                        || !(1..=die).contains(&value)
                        || e.cps != value =>
                {
                    r.bad(
                        i,
                        format!(
                            "{} CP(s) from a roll of {}",
                            e.cps,
                            e.roll.as_deref().unwrap_or("")
                        ),
                        Some(rules::ADVENTURE),
                    );
                }
                (Some(_), _) => {}
                (None, true) => r.bad(i, "its roll cannot be read", Some(rules::ADVENTURE)),
                (None, false) if e.cps != 1 => r.bad(
                    i,
                    format!("{} CP(s) without a roll: only 1 is", e.cps),
                    Some(rules::ADVENTURE),
                ),
                _ => {}
            }
            st.adventure = Some((i, e.age));
            st.rolled_since.clear();
            return;
        }
        Step::Behaviour => return,
        _ => {}
    }
    if e.cps > 0 {
        r.bad(i, "only income and adventures give CPs", None);
    }
    let Some(target) = e.target.as_deref() else {
        if e.step == Step::Ageing && st.reductions > 0 {
            // "none is reduced": every trait but Size at RAv-2.
            st.reductions -= 1;
        } else if e.step != Step::Ageing {
            r.bad(
                i,
                "does not say what it changed (target, from, to): the ledger cannot be replayed",
                Some(REPLAY),
            );
        }
        return;
    };
    let k = key(target, occupation);
    let rule = match e.step {
        Step::Check => rules::SECONDARY_CHECK,
        Step::Ageing => rules::AGEING,
        _ => rules::SECONDARY_ADVANCE,
    };
    if e.to.is_none() && e.from.is_none() {
        r.bad(
            i,
            format!("does not say what {target} was and became (from, to): the ledger cannot be replayed"),
            Some(REPLAY),
        );
        return;
    }
    if e.step == Step::Spend {
        if st.changed.contains(&(e.age, k.clone())) {
            r.bad(
                i,
                format!(
                    "{target} was already changed at age {} (by generation or CPs): one level per increment",
                    e.age
                ),
                Some(rule_for(&k)),
            );
        }
        if !k.starts_with("training.") && k != "florins" && k != "favour" {
            st.changed.insert((e.age, k.clone()));
        }
    }
    let cost = -e.cps;
    let expect_cost = |r: &mut Replay, c: Option<i64>, rule: &str| {
        if c != Some(cost) {
            r.bad(
                i,
                format!(
                    "{target} {} -> {} costs {}, but the entry says {cost}",
                    show(e.from),
                    show(e.to),
                    c.map_or("nothing: it is not allowed".into(), |c| c.to_string())
                ),
                Some(rule),
            );
        }
    };
    if k == "occupation" || k.starts_with("secondary.") {
        let name = k.strip_prefix("secondary.").unwrap_or(occupation);
        let kind = ch.secondary.get(name).map(|s| s.kind);
        let had = if k == "occupation" {
            st.occupation
        } else {
            st.secondary.get(name).copied()
        };
        let effective = had.or(kind.and_then(Kind::unacquired));
        let from_ok = if e.step == Step::Check {
            e.from == effective
        } else {
            e.from == had
        };
        if !from_ok {
            r.bad(
                i,
                format!(
                    "says {name} was {}, but the ledger has it at {}",
                    show_level(e.from),
                    show_level(if e.step == Step::Check {
                        effective
                    } else {
                        had
                    })
                ),
                Some(REPLAY),
            );
        }
        let Some(to) = e.to else {
            r.bad(i, format!("{name} cannot be lost"), Some(rule));
            return;
        };
        match e.step {
            Step::Spend => {
                let expected = match (had, kind) {
                    (None, Some(Kind::Inherent)) => 1,
                    (None, _) => 0,
                    (Some(l), _) => l + 1,
                };
                if to != expected || to > 6 {
                    r.bad(
                        i,
                        format!(
                            "{name} {} -> {}: CPs raise a trait one level, to base+6 at most",
                            show_level(had),
                            level_name(to)
                        ),
                        Some(rules::SECONDARY_ADVANCE),
                    );
                }
                let step = costs::secondary_step(to);
                let step = if k == "occupation" {
                    step.map(|s| 2 * s)
                } else {
                    step
                };
                expect_cost(r, step, rules::SECONDARY_ADVANCE);
            }
            Step::Check => {
                let adv_age = st.adventure.map(|(_, a)| a);
                if adv_age.is_none() {
                    r.bad(
                        i,
                        format!("{name} was rolled for with no adventure before it"),
                        Some(rules::SECONDARY_CHECK),
                    );
                } else if let Some(adv_age) = adv_age
                    && adv_age != e.age
                {
                    r.bad(
                        i,
                        format!(
                            "{name} was rolled for at age {}, but the last adventure was at {adv_age}",
                            e.age
                        ),
                        Some(rules::SECONDARY_CHECK),
                    );
                }
                if !st.rolled_since.insert(name.to_string()) {
                    r.bad(
                        i,
                        format!("{name} was rolled for twice after one adventure"),
                        Some(rules::SECONDARY_CHECK),
                    );
                }
                let level = effective.unwrap_or(0);
                let expected = match (costs::check_needs(level), roll_of(e)) {
                    (None, _) => Some(level),
                    (Some(needs), Some((8, roll))) if (1..=8).contains(&roll) => {
                        Some(if roll >= needs {
                            costs::check_raises_to(level)
                        } else {
                            level
                        })
                    }
                    _ => None,
                };
                if expected != Some(to) {
                    r.bad(
                        i,
                        format!(
                            "{name} {} -> {} does not follow from the roll {}",
                            level_name(level),
                            level_name(to),
                            e.roll.as_deref().unwrap_or("(none)")
                        ),
                        Some(rules::SECONDARY_CHECK),
                    );
                }
                if e.cps != 0 {
                    r.bad(i, "checks cost no CPs", Some(rules::SECONDARY_CHECK));
                }
            }
            _ => r.bad(
                i,
                format!("a {:?} entry cannot change {name}", e.step),
                None,
            ),
        }
        // A failed check leaves the trait as it was: one never acquired (a
        // natural trait at base-2 with no level written) stays unwritten.
        let unchanged = e.step == Step::Check && Some(to) == effective && had.is_none();
        if k == "occupation" {
            st.occupation = Some(to);
        } else if !unchanged {
            st.secondary.insert(name.to_string(), to);
        }
    } else if let Some(name) = k.strip_prefix("negative.") {
        let had = st.negative.get(name).copied();
        if e.step != Step::Spend || had.is_none() || e.from != had {
            r.bad(
                i,
                format!(
                    "says {name} was {}, but the ledger has it at {}",
                    show_level(e.from),
                    show_level(had)
                ),
                Some(rules::NEGATIVE_DECREASE),
            );
        }
        let l = had.unwrap_or(0);
        let expected = (l > 0).then_some(l - 1);
        if e.to != expected {
            r.bad(
                i,
                format!(
                    "{name} decreases one level a time, from {} to {}",
                    level_name(l),
                    show_level(expected)
                ),
                Some(rules::NEGATIVE_DECREASE),
            );
        }
        expect_cost(r, costs::negative_decrease(l), rules::NEGATIVE_DECREASE);
        match e.to {
            Some(t) => st.negative.insert(name.to_string(), t),
            None => st.negative.remove(name),
        };
    } else if k.starts_with("personality.") {
        let Some(id) = target.strip_prefix("personality.").and_then(TraitId::parse) else {
            return;
        };
        let v = st.personality.get(id);
        if e.from != Some(v) {
            r.bad(
                i,
                format!(
                    "says {} was {}, but the ledger has it at {v}",
                    id.name(),
                    show(e.from)
                ),
                Some(REPLAY),
            );
        }
        let to = e.to.unwrap_or(v);
        match e.step {
            Step::Spend => {
                if to != v + 1 {
                    r.bad(
                        i,
                        format!("{} {v} -> {to}: CPs raise a trait one level", id.name()),
                        Some(rules::PERSONALITY_INCREASE),
                    );
                }
                expect_cost(r, costs::personality_step(to), rules::PERSONALITY_INCREASE);
            }
            Step::Check => {
                let expected = match roll_of(e) {
                    Some((20, roll)) if (1..=20).contains(&roll) => {
                        Some(if roll > v { v + 1 } else { v })
                    }
                    _ => None,
                };
                if expected != Some(to) {
                    r.bad(
                        i,
                        format!(
                            "{} {v} -> {to} does not follow from the roll {}",
                            id.name(),
                            e.roll.as_deref().unwrap_or("(none)")
                        ),
                        Some(rules::PERSONALITY_CHECK),
                    );
                }
            }
            _ => r.bad(
                i,
                format!("a {:?} entry cannot change {}", e.step, id.name()),
                None,
            ),
        }
        st.personality.set(id, to);
    } else if let Some(p) = k.strip_prefix("primary.") {
        let Some(p) = Primary::parse(p) else { return };
        let v = p.get(&st.traits);
        let ok = e.step == Step::Ageing
            && e.from == Some(v)
            && e.to == Some(v - 1)
            && p != Primary::Size
            && v > rav_of(ch) - 2
            && st.reductions > 0;
        if !ok {
            r.bad(
                i,
                format!(
                    "{p} {} -> {}: primary traits change only by a reduction for age that falls due ({p} is {v} in the ledger)",
                    show(e.from),
                    show(e.to)
                ),
                Some(rules::AGEING),
            );
        }
        st.reductions -= 1;
        if let Some(t) = e.to {
            *p.get_mut(&mut st.traits) = t;
        }
    } else if let Some(p) = k.strip_prefix("training.") {
        let Some(p) = Primary::parse(p) else { return };
        let v = p.get(&st.traits);
        match e.step {
            Step::Spend => {
                if st.training.is_some()
                    || e.from != Some(v)
                    || e.to != Some(v + 1)
                    || v + 1 > rav_of(ch) + 3
                {
                    r.bad(
                        i,
                        format!("{p} trained up {} -> {} ({p} is {v} in the ledger; one trait at a time, one level, to RAv+3)", show(e.from), show(e.to)),
                        Some(rules::TRAINING),
                    );
                }
                expect_cost(r, Some(costs::TRAINING_COST), rules::TRAINING);
                st.training = Some((p, e.age));
            }
            _ => {
                let due = st
                    .training
                    .is_some_and(|(q, since)| q == p && since.0 + row.increment <= e.age.0);
                if !due {
                    r.bad(
                        i,
                        format!("{p} was not trained up, or its year is not over"),
                        Some(rules::TRAINING),
                    );
                }
                st.training = None;
            }
        }
    } else if k == "florins" || k == "favour" {
        let had = if k == "florins" {
            st.florins
        } else {
            st.favour
        };
        let gained = e.to.unwrap_or(had) - e.from.unwrap_or(had);
        let ok = e.from == Some(had)
            && if k == "florins" {
                gained % costs::FLORINS_PER_FACE == 0
                    && (cost * costs::FLORINS_PER_FACE..=cost * 20 * costs::FLORINS_PER_FACE)
                        .contains(&gained)
            } else {
                gained == cost * costs::FAVOUR_PER_CP
            };
        if !ok || cost < 1 {
            r.bad(
                i,
                format!(
                    "{cost} CP(s) cannot make {k} {} -> {} (the ledger has {had})",
                    show(e.from),
                    show(e.to)
                ),
                Some(if k == "florins" {
                    rules::MONEY
                } else {
                    rules::PRAYER
                }),
            );
        }
        if k == "florins" {
            st.florins = had + gained;
        } else {
            st.favour = had + gained;
        }
    } else {
        r.bad(i, format!("{target} is nothing play changes"), None);
    }
}

fn rule_for(k: &str) -> &'static str {
    if k.starts_with("negative.") {
        rules::NEGATIVE_DECREASE
    } else if k.starts_with("personality.") {
        rules::PERSONALITY_INCREASE
    } else {
        rules::SECONDARY_ADVANCE
    }
}

/// The replayed character against the sheet, field by field.
fn compare(r: &mut Replay, st: &State, sheet: &Combatant) {
    let ch = r.ch;
    for p in ALL {
        let (a, b) = (p.get(&sheet.traits), p.get(&st.traits));
        if a != b {
            r.differs(format!("traits.{p}"), a.to_string(), b.to_string());
        }
    }
    if st.occupation.is_some() && Some(ch.occupation.level) != st.occupation {
        r.differs(
            "character.occupation.level",
            level_name(ch.occupation.level),
            show_level(st.occupation),
        );
    }
    let names: BTreeSet<&String> = ch.secondary.keys().chain(st.secondary.keys()).collect();
    for name in names {
        let a = ch.secondary.get(name).and_then(|s| s.level);
        let b = st.secondary.get(name).copied();
        if a != b {
            let field = if ch.secondary.contains_key(name) {
                format!("character.secondary.{name}.level")
            } else {
                format!("character.secondary.{name}")
            };
            r.differs(field, show_level(a), show_level(b));
        }
    }
    let names: BTreeSet<&String> = ch.negative.keys().chain(st.negative.keys()).collect();
    for name in names {
        let a = ch.negative.get(name).map(|n| n.level);
        let b = st.negative.get(name).copied();
        if a != b {
            let field = if ch.negative.contains_key(name) {
                format!("character.negative.{name}.level")
            } else {
                format!("character.negative.{name}")
            };
            r.differs(field, show_level(a), show_level(b));
        }
    }
    if let Ok(parsed) = ch.parsed() {
        for pair in 0..15 {
            let left = TraitId { pair, side: 0 };
            let (a, b) = (parsed.personality.get(left), st.personality.get(left));
            if a != b {
                let name = if ch.personality.contains_key(left.opposite().name()) {
                    left.opposite()
                } else {
                    left
                };
                r.differs(
                    format!("character.personality.{}", name.name()),
                    parsed.personality.get(name).to_string(),
                    st.personality.get(name).to_string(),
                );
            }
        }
    }
    let rolled: BTreeSet<TraitId> = ch.rolled.iter().filter_map(|n| TraitId::parse(n)).collect();
    let rolled_pairs: BTreeSet<usize> = rolled.iter().map(|t| t.pair).collect();
    let replayed_pairs: BTreeSet<usize> = st.rolled.iter().map(|t| t.pair).collect();
    if rolled_pairs != replayed_pairs {
        r.differs(
            "character.rolled",
            format!("{:?}", ch.rolled),
            format!(
                "{:?}",
                st.rolled.iter().map(|t| t.name()).collect::<Vec<_>>()
            ),
        );
    }
    if st.thp.is_some() && Some(sheet.thp) != st.thp {
        r.differs("thp", sheet.thp.to_string(), show(st.thp));
    }
    if ch.tmp != st.tmp {
        r.differs("character.tmp", show(ch.tmp), show(st.tmp));
    }
    let fp = i64::from(sheet.fate_points);
    if st.fate_points.is_some() && Some(fp) != st.fate_points {
        r.differs("fate_points", fp.to_string(), show(st.fate_points));
    }
    if ch.fate_points_bought != st.bought {
        r.differs(
            "character.fate_points_bought",
            ch.fate_points_bought.to_string(),
            st.bought.to_string(),
        );
    }
    let training = ch
        .training
        .as_ref()
        .map(|t| (Primary::parse(&t.primary), t.since));
    let replayed = st.training.map(|(p, since)| (Some(p), since));
    if training != replayed {
        let s = |t: Option<(Option<Primary>, Age)>| match t {
            None => "none".to_string(),
            Some((p, since)) => format!("{} since {since}", p.map_or("?", |p| p.name())),
        };
        r.differs("character.training", s(training), s(replayed));
    }
    if ch.florins != st.florins {
        r.differs(
            "character.florins",
            ch.florins.to_string(),
            st.florins.to_string(),
        );
    }
    if ch.favour != st.favour {
        r.differs(
            "character.favour",
            ch.favour.to_string(),
            st.favour.to_string(),
        );
    }
}
