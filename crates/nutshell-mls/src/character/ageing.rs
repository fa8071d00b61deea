//! Effects of age (mls, *Effects of Age*; *Racial Differences*): at Base
//! Age plus 22 increments (40 human years), plus 32 (50), and every 10
//! increments after, the player reduces one primary trait other than Size by one level, never
//! below the racial average -2.

use super::Age;
use super::costs::rules;
use super::ledger::{Entry, Step};
use super::primary::Primary;
use super::race::Race;
use crate::sheet::Combatant;

/// How many reductions fall due after `from` up to and including `to`.
pub fn due(race: Race, from: Age, to: Age) -> i64 {
    let row = race.row();
    row.reductions_by(to.0) - row.reductions_by(from.0)
}

/// Whether `primary` may be reduced on `sheet`: `Err` quotes the rule.
pub fn allowed(sheet: &Combatant, race: Race, primary: Primary) -> Result<(), String> {
    if primary == Primary::Size {
        return Err(format!("Size is never reduced by age: {}", rules::AGEING));
    }
    let v = primary.get(&sheet.traits);
    if v - 1 < race.average() - 2 {
        return Err(format!(
            "{primary} is {v}, the racial average -2 already: {}",
            rules::AGEING
        ));
    }
    Ok(())
}

/// Whether any trait can still be reduced (all but Size at RAv-2: none can).
pub fn any_allowed(sheet: &Combatant, race: Race) -> bool {
    super::primary::ALL
        .into_iter()
        .any(|p| allowed(sheet, race, p).is_ok())
}

/// Reduces `primary` by one level for age, with its ledger entry (the
/// secondary traits based on it follow, as their scores are computed from it).
pub fn reduce(
    sheet: &mut Combatant,
    race: Race,
    age: Age,
    primary: Primary,
) -> Result<Entry, String> {
    allowed(sheet, race, primary)?;
    let v = primary.get_mut(&mut sheet.traits);
    *v -= 1;
    Ok(Entry::new(
        age,
        Step::Ageing,
        format!("{primary} {} -> {} (age {age})", *v + 1, *v),
        0,
        rules::AGEING,
    )
    .target(format!("primary.{primary}"))
    .from(Some(*v + 1))
    .to(Some(*v)))
}
