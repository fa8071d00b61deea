//! Character advancement (mls, *Character Advancement*): CPs for age and for
//! adventures, spending them, and the rolls for checked traits after an
//! adventure. Every change appends an entry to the sheet's ledger.

use super::ageing;
use super::costs::{self, Adventure, Role, rules};
use super::generation::level_name;
use super::ledger::{Entry, Step};
use super::personality::TraitId;
use super::primary::Primary;
use super::race::FULL_INCOME_INCREMENTS;
use super::{Age, Character, Training};
use crate::dice::Dice;
use crate::error::FightError;
use crate::sheet::Combatant;

fn invalid(m: impl Into<String>) -> FightError {
    FightError::Invalid(m.into())
}

/// The sheet's character table, or an error.
pub fn character(sheet: &mut Combatant) -> Result<&mut Character, FightError> {
    sheet
        .character
        .as_mut()
        .ok_or_else(|| invalid("the sheet has no [character] table"))
}

/// CPs for the increment that ends at `age`: 2, or 1 once Base Age + 22
/// increments have passed.
pub fn income(character: &Character, age: Age) -> i64 {
    let row = character.race.row();
    if row.increments_at(age.0) > FULL_INCOME_INCREMENTS {
        costs::INCOME_OLD
    } else {
        costs::INCOME_YOUNG
    }
}

/// Passes one age increment: the character ages, gains its CPs, a trained-up
/// trait drops back, and a reduction for age falls due; `reduce` gives the
/// player's choice of trait when one does (taken from its front).
pub fn pass_increment(sheet: &mut Combatant, reduce: &mut Vec<Primary>) -> Result<(), FightError> {
    all_or_nothing(sheet, reduce, increment)
}

/// Runs `change`; on an error, puts the sheet and the list back as they were,
/// so a refused change leaves no trace.
fn all_or_nothing<T: Clone>(
    sheet: &mut Combatant,
    extra: &mut T,
    change: impl FnOnce(&mut Combatant, &mut T) -> Result<(), FightError>,
) -> Result<(), FightError> {
    let (before, extra_before) = (sheet.clone(), extra.clone());
    let result = change(sheet, extra);
    if result.is_err() {
        *sheet = before;
        *extra = extra_before;
    }
    result
}

fn increment(sheet: &mut Combatant, reduce: &mut Vec<Primary>) -> Result<(), FightError> {
    let natural = sheet.traits;
    let ch = character(sheet)?;
    let row = ch.race.row();
    let race = ch.race;
    let from = ch.age;
    let to = Age(from.0 + row.increment);
    ch.age = to;
    let cps = income(ch, to);
    let rule = if race == super::race::Race::Human {
        rules::YEARLY
    } else {
        rules::INCREMENT
    };
    ch.cps += cps;
    ch.ledger.push(Entry::new(
        to,
        Step::Income,
        format!("{cps} CP(s) for the increment to age {to}"),
        cps,
        rule,
    ));
    if let Some(t) = &ch.training
        && t.since.0 + row.increment <= to.0
    {
        let entry = Entry::new(
            to,
            Step::Ageing,
            format!(
                "{} trained up at {} drops back to its normal level",
                t.primary, t.since
            ),
            0,
            rules::TRAINING,
        )
        .target(format!("training.{}", t.primary));
        let entry = match Primary::parse(&t.primary) {
            Some(p) => entry
                .from(Some(p.get(&natural) + 1))
                .to(Some(p.get(&natural))),
            None => entry,
        };
        ch.ledger.push(entry);
        ch.training = None;
    }
    for _ in 0..ageing::due(race, from, to) {
        if !ageing::any_allowed(sheet, race) {
            let ch = character(sheet)?;
            ch.ledger.push(Entry::new(
                to,
                Step::Ageing,
                "no primary trait but Size is above the racial average -2: none is reduced",
                0,
                rules::AGEING,
            ));
            continue;
        }
        if reduce.is_empty() {
            return Err(invalid(format!(
                "at age {to} a primary trait other than Size must be reduced: name it (--reduce TRAIT). {}",
                rules::AGEING
            )));
        }
        let p = reduce.remove(0);
        let entry = ageing::reduce(sheet, race, to, p).map_err(invalid)?;
        character(sheet)?.ledger.push(entry);
    }
    Ok(())
}

/// CPs for an adventure successfully completed: 1, 1d3, 1d6 or 1d10 by its
/// size and the character's role.
pub fn adventure(
    sheet: &mut Combatant,
    size: Adventure,
    role: Role,
    dice: &mut Dice,
) -> Result<i64, FightError> {
    let (cps, roll) = match costs::adventure(size, role) {
        None => (1, None),
        Some(d) => {
            let r = dice.die(d, &|| "for the adventure's CPs".into())?;
            (r, Some(format!("1d{d} = {r}")))
        }
    };
    let ch = character(sheet)?;
    ch.cps += cps;
    let mut e = Entry::new(
        ch.age,
        Step::Adventure,
        format!(
            "{cps} CP(s): {} adventure, {} role",
            format!("{size:?}").to_lowercase(),
            format!("{role:?}").to_lowercase()
        ),
        cps,
        rules::ADVENTURE,
    );
    if let Some(r) = roll {
        e = e.roll(r);
    }
    ch.ledger.push(e);
    Ok(cps)
}

/// A way to spend CPs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spend {
    /// Acquire a secondary trait (or the occupation) at base, or raise it a level.
    Secondary(String),
    /// Decrease a negative trait a level (or remove it from base).
    Negative(String),
    /// Raise a personality trait a level.
    Personality(String),
    /// Train a primary trait up for an increment.
    Train(Primary),
    /// Convert this many CPs to money.
    Money(i64),
    /// Convert this many CPs to favour points.
    Prayer(i64),
}

impl Spend {
    /// Parses `secondary:NAME`, `negative:NAME`, `personality:NAME`,
    /// `train:TRAIT`, `money:N`, `prayer:N`.
    pub fn parse(text: &str) -> Result<Spend, String> {
        let (kind, what) = text.split_once(':').ok_or_else(|| {
            format!("{text:?}: write KIND:WHAT (secondary:sword, negative:greed, personality:valorous, train:strength, money:2, prayer:1)")
        })?;
        let what = what.trim();
        let n = || {
            what.parse::<i64>()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| format!("{what:?} is not a number of CPs from 1 to 1000"))
        };
        Ok(match kind.trim() {
            "secondary" | "skill" => Spend::Secondary(what.to_string()),
            "negative" => Spend::Negative(what.to_string()),
            "personality" => Spend::Personality(what.to_string()),
            "train" => Spend::Train(
                Primary::parse(what).ok_or_else(|| format!("{what:?} is not a primary trait"))?,
            ),
            "money" => Spend::Money(n()?),
            "prayer" => Spend::Prayer(n()?),
            k => {
                return Err(format!(
                    "{k:?} is not a way to spend CPs (secondary, negative, personality, train, money, prayer)"
                ));
            }
        })
    }
}

fn once_a_year(ch: &Character, target: &str, rule: &str) -> Result<(), FightError> {
    match super::ledger::changed_at(&ch.ledger, ch.age, target, &ch.occupation.name) {
        Some(Step::Generation) => Err(invalid(format!(
            "{target} was bought at generation at age {}, and that is this increment's change (RULING P-54): {rule}",
            ch.age
        ))),
        Some(_) => Err(invalid(format!(
            "{target} was already changed with CPs at age {}: {rule}",
            ch.age
        ))),
        None => Ok(()),
    }
}

fn pay(ch: &mut Character, cps: i64, what: &str, rule: &str) -> Result<(), FightError> {
    if cps > ch.cps {
        return Err(invalid(format!(
            "{what} costs {cps} CP(s), but only {} are left: {rule}",
            ch.cps
        )));
    }
    ch.cps -= cps;
    Ok(())
}

/// Spends CPs, with its entry in the ledger.
pub fn spend(sheet: &mut Combatant, what: &Spend, dice: &mut Dice) -> Result<(), FightError> {
    all_or_nothing(sheet, &mut (), |s, _| spend_now(s, what, dice))
}

fn spend_now(sheet: &mut Combatant, what: &Spend, dice: &mut Dice) -> Result<(), FightError> {
    let natural = sheet.traits;
    let ch = character(sheet)?;
    let age = ch.age;
    let rav = ch.race.average();
    let entry = match what {
        Spend::Secondary(name) => {
            let target = format!("secondary.{name}");
            let rule = rules::SECONDARY_ADVANCE;
            let (from, is_occupation) = if *name == ch.occupation.name {
                (Some(ch.occupation.level), true)
            } else {
                let s = ch.secondary.get(name).ok_or_else(|| {
                    invalid(format!(
                        "{name:?} is not one of the secondary traits: add it to [character.secondary] with its kind and base first"
                    ))
                })?;
                (s.level, false)
            };
            let to = match from {
                None => 0,
                Some(l) => l + 1,
            };
            let step = costs::secondary_step(to)
                .ok_or_else(|| invalid(format!("{name} is at base+6, the most: {rule}")))?;
            // An inherent trait is had at base without acquiring it.
            let (to, step) = match (from, ch.secondary.get(name).map(|s| s.kind)) {
                (None, Some(costs::Kind::Inherent)) => (1, costs::secondary_step(1).unwrap_or(2)),
                _ => (to, step),
            };
            let step = if is_occupation { 2 * step } else { step };
            once_a_year(ch, &target, rule)?;
            pay(ch, step, name, rule)?;
            if is_occupation {
                ch.occupation.level = to;
            } else if let Some(s) = ch.secondary.get_mut(name) {
                s.level = Some(to);
            }
            let change = match from {
                None => format!("{name} acquired at {}", level_name(to)),
                Some(f) => format!("{name} {} -> {}", level_name(f), level_name(to)),
            };
            let rule = if is_occupation {
                format!("{rule} {}", rules::OCCUPATION)
            } else {
                rule.to_string()
            };
            Entry::new(age, Step::Spend, change, -step, &rule)
                .target(target)
                .from(from)
                .to(Some(to))
        }
        Spend::Negative(name) => {
            let target = format!("negative.{name}");
            let rule = rules::NEGATIVE_DECREASE;
            let n = ch
                .negative
                .get(name)
                .ok_or_else(|| invalid(format!("{name:?} is not one of the negative traits")))?;
            let level = n.level;
            let cost = costs::negative_decrease(level).ok_or_else(|| {
                invalid(format!(
                    "{name} at {} has no price to decrease: {rule}",
                    level_name(level)
                ))
            })?;
            once_a_year(ch, &target, rule)?;
            pay(ch, cost, name, rule)?;
            let to = (level > 0).then_some(level - 1);
            let change = if level == 0 {
                ch.negative.remove(name);
                format!("{name} removed from base")
            } else {
                if let Some(n) = ch.negative.get_mut(name) {
                    n.level -= 1;
                }
                format!("{name} {} -> {}", level_name(level), level_name(level - 1))
            };
            Entry::new(age, Step::Spend, change, -cost, rule)
                .target(target)
                .from(Some(level))
                .to(to)
        }
        Spend::Personality(name) => {
            let rule = rules::PERSONALITY_INCREASE;
            let id = TraitId::parse(name)
                .ok_or_else(|| invalid(format!("{name:?} is not a personality trait")))?;
            let target = format!("personality.{}", id.name());
            let values = ch
                .parsed()
                .map_err(|(f, e)| invalid(format!("{f}: {e}")))?
                .personality;
            let from = values.get(id);
            let cost = costs::personality_step(from + 1).ok_or_else(|| {
                invalid(format!(
                    "{} is {from}: personality traits may NOT be increased to 20 by CPs. {rule}",
                    id.name()
                ))
            })?;
            once_a_year(ch, &target, rule)?;
            pay(ch, cost, id.name(), rule)?;
            set_personality(ch, id, from + 1);
            Entry::new(
                age,
                Step::Spend,
                format!(
                    "{} {from} -> {}, {} {} -> {}",
                    id.name(),
                    from + 1,
                    id.opposite().name(),
                    20 - from,
                    19 - from
                ),
                -cost,
                rule,
            )
            .target(target)
            .from(Some(from))
            .to(Some(from + 1))
        }
        Spend::Train(p) => {
            let rule = rules::TRAINING;
            if let Some(t) = &ch.training {
                return Err(invalid(format!(
                    "{} is already trained up (since age {}): {rule}",
                    t.primary, t.since
                )));
            }
            let v = p.get(&natural);
            if v + 1 > rav + 3 {
                return Err(invalid(format!(
                    "{p} is {v}: traits may be increased to RAv+3 ({}). {rule}",
                    rav + 3
                )));
            }
            pay(ch, costs::TRAINING_COST, p.name(), rule)?;
            ch.training = Some(Training {
                primary: p.name().to_string(),
                since: age,
            });
            Entry::new(
                age,
                Step::Spend,
                format!("{p} trained up {v} -> {} for one increment", v + 1),
                -costs::TRAINING_COST,
                rule,
            )
            .target(format!("training.{p}"))
            .from(Some(v))
            .to(Some(v + 1))
        }
        Spend::Money(n) => {
            let rule = rules::MONEY;
            pay(ch, *n, "money", rule)?;
            let mut faces = Vec::new();
            for i in 0..*n {
                faces.push(dice.die(costs::FLORINS_DIE, &|| {
                    format!("for money ({} of {n} CPs)", i + 1)
                })?);
            }
            let florins: i64 = faces.iter().sum::<i64>() * costs::FLORINS_PER_FACE;
            let ch = character(sheet)?;
            let before = ch.florins;
            ch.florins += florins;
            Entry::new(
                age,
                Step::Spend,
                format!("{n} CP(s) to {florins} florins"),
                -n,
                rule,
            )
            .target("florins")
            .from(Some(before))
            .to(Some(before + florins))
            .roll(format!("{n}d20 = {faces:?}, x 10"))
        }
        Spend::Prayer(n) => {
            let rule = rules::PRAYER;
            if !ch
                .secondary
                .keys()
                .any(|k| k.to_ascii_lowercase().contains("priest"))
                && !ch.occupation.name.to_ascii_lowercase().contains("priest")
            {
                return Err(invalid(format!(
                    "prayer needs a Priest magic skill (a secondary trait whose name has \"priest\", RULING P-46): {rule}"
                )));
            }
            pay(ch, *n, "prayer", rule)?;
            let favour = n * costs::FAVOUR_PER_CP;
            let before = ch.favour;
            ch.favour += favour;
            Entry::new(
                age,
                Step::Spend,
                format!("{n} CP(s) to {favour} favour points"),
                -n,
                rule,
            )
            .target("favour")
            .from(Some(before))
            .to(Some(before + favour))
        }
    };
    character(sheet)?.ledger.push(entry);
    Ok(())
}

/// Writes a personality value into the sheet's table under the name the
/// sheet already uses for the pair.
fn set_personality(ch: &mut Character, id: TraitId, value: i64) {
    let mine = id.name().to_string();
    let theirs = id.opposite().name().to_string();
    if ch.personality.contains_key(&theirs) && !ch.personality.contains_key(&mine) {
        ch.personality.insert(theirs, 20 - value);
    } else {
        ch.personality.insert(mine.clone(), value);
        if ch.personality.contains_key(&theirs) {
            ch.personality.insert(theirs, 20 - value);
        }
    }
}

/// A secondary trait is rolled for once per completed adventure: the
/// ledger's last adventure must be at this age, with no roll for `name`
/// since (RULING P-56).
fn adventure_for_check(ch: &Character, name: &str) -> Result<(), FightError> {
    let rule = rules::SECONDARY_CHECK;
    let Some(j) = ch.ledger.iter().rposition(|e| e.step == Step::Adventure) else {
        return Err(invalid(format!(
            "{name} cannot be rolled for: no adventure was completed (give --adventure and --role in the same command). {rule}"
        )));
    };
    let adventure = &ch.ledger[j];
    if adventure.age != ch.age {
        return Err(invalid(format!(
            "{name} cannot be rolled for: the last adventure was at age {}, and the character is {} (give --adventure and --role in the same command). {rule}",
            adventure.age, ch.age
        )));
    }
    let target = format!("secondary.{name}");
    if ch.ledger[j + 1..]
        .iter()
        .any(|e| e.step == Step::Check && e.target.as_deref() == Some(target.as_str()))
    {
        return Err(invalid(format!(
            "{name} was already rolled for after this adventure (age {}): one roll per trait per adventure. {rule}",
            adventure.age
        )));
    }
    Ok(())
}

/// Rolls for checked traits after an adventure, in the order given: 1d8 on
/// the table for a secondary trait (at most one roll each), 1d20 for a
/// personality trait (any number). The sheet's pending checks are cleared.
pub fn after_adventure(
    sheet: &mut Combatant,
    checks: &[String],
    dice: &mut Dice,
) -> Result<(), FightError> {
    all_or_nothing(sheet, &mut (), |s, _| roll_checks(s, checks, dice))
}

fn roll_checks(
    sheet: &mut Combatant,
    checks: &[String],
    dice: &mut Dice,
) -> Result<(), FightError> {
    let mut rolled_secondary: Vec<&str> = Vec::new();
    for name in checks {
        let ch = character(sheet)?;
        let age = ch.age;
        if let Some(id) = TraitId::parse(name) {
            let rule = rules::PERSONALITY_CHECK;
            let values = ch
                .parsed()
                .map_err(|(f, e)| invalid(format!("{f}: {e}")))?
                .personality;
            let v = values.get(id);
            let r = dice.die(20, &|| format!("for the check on {}", id.name()))?;
            let to = if r > v { v + 1 } else { v };
            let change = if r > v {
                set_personality(ch, id, v + 1);
                format!(
                    "{} {v} -> {}, {} {} -> {}",
                    id.name(),
                    v + 1,
                    id.opposite().name(),
                    20 - v,
                    19 - v
                )
            } else {
                format!("{} stays {v} (the roll must be higher)", id.name())
            };
            ch.ledger.push(
                Entry::new(age, Step::Check, change, 0, rule)
                    .target(format!("personality.{}", id.name()))
                    .from(Some(v))
                    .to(Some(to))
                    .roll(format!("1d20 = {r}")),
            );
            continue;
        }
        let rule = rules::SECONDARY_CHECK;
        if rolled_secondary.contains(&name.as_str()) {
            return Err(invalid(format!("{name} was checked twice: {rule}")));
        }
        rolled_secondary.push(name);
        adventure_for_check(ch, name)?;
        let is_occupation = *name == ch.occupation.name;
        let level = if is_occupation {
            Some(ch.occupation.level)
        } else {
            ch.secondary
                .get(name)
                .ok_or_else(|| {
                    invalid(format!(
                        "{name:?} is neither a personality trait nor a secondary trait of the sheet"
                    ))
                })?
                .effective()
        };
        let Some(level) = level else {
            return Err(invalid(format!(
                "{name} is Trained and not acquired, so not available and never used: {}",
                rules::SECONDARY_AVAILABLE
            )));
        };
        let Some(needs) = costs::check_needs(level) else {
            ch.ledger.push(
                Entry::new(
                    age,
                    Step::Check,
                    format!(
                        "{name} is at {}: the table goes no higher, no roll",
                        level_name(level)
                    ),
                    0,
                    rule,
                )
                .target(format!("secondary.{name}"))
                .from(Some(level))
                .to(Some(level)),
            );
            continue;
        };
        let r = dice.die(8, &|| format!("for the check on {name}"))?;
        let ch = character(sheet)?;
        let after = if r >= needs {
            costs::check_raises_to(level)
        } else {
            level
        };
        let change = if r >= needs {
            let to = after;
            if is_occupation {
                ch.occupation.level = to;
            } else if let Some(s) = ch.secondary.get_mut(name) {
                s.level = Some(to);
            }
            format!(
                "{name} {} -> {} (needs {needs}+)",
                level_name(level),
                level_name(to)
            )
        } else {
            format!("{name} stays at {} (needs {needs}+)", level_name(level))
        };
        ch.ledger.push(
            Entry::new(age, Step::Check, change, 0, rule)
                .target(format!("secondary.{name}"))
                .from(Some(level))
                .to(Some(after))
                .roll(format!("1d8 = {r}")),
        );
    }
    character(sheet)?.checks.clear();
    Ok(())
}
