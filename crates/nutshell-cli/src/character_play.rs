//! `nutshell mls advance`, `behave` and `time`: a character in play.

use crate::character_cmd::*;
use crate::exit::Failure;
use nutshell_mls::character::costs::{self, rules};
use nutshell_mls::character::personality::TraitId;
use nutshell_mls::character::plan::{self, AdvancePlan, Ageing, PlanError};
use nutshell_mls::character::primary::Primary;
use nutshell_mls::character::validate::to_toml;
use nutshell_mls::character::{advancement, behaviour, time};
use nutshell_mls::dice::Dice;
use serde_json::json;
use std::io::Write;

// ---------------------------------------------------------------- advance

/// Bad input listing the rules a sheet breaks, one a line.
fn broken_rules(headline: &str, violations: &[impl std::fmt::Display]) -> Failure {
    let mut m = format!("error: {headline}:");
    for v in violations {
        m.push_str(&format!("\n  {v}"));
    }
    Failure::bad_input(m)
}

pub fn advance(args: &AdvanceArgs) -> Result<(), Failure> {
    let (sheet, text) = load(&args.file)?;
    let shown = args.file.display().to_string();
    let mut reduce = Vec::new();
    for r in &args.reduce {
        reduce.push(Primary::parse(r).ok_or_else(|| {
            Failure::bad_input(format!("error: --reduce {r}: not a primary trait"))
        })?);
    }
    let spends: Vec<(advancement::Spend, String)> = args
        .spend
        .iter()
        .map(|s| {
            advancement::Spend::parse(s)
                .map(|spend| (spend, s.clone()))
                .map_err(|e| Failure::bad_input(format!("error: --spend {s}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    let adventure = match (args.adventure, args.role) {
        (Some(size), Some(role)) => Some((
            match size {
                AdventureArg::Minor => costs::Adventure::Minor,
                AdventureArg::Average => costs::Adventure::Average,
                AdventureArg::Major => costs::Adventure::Major,
            },
            match role {
                RoleArg::Minor => costs::Role::Minor,
                RoleArg::Major => costs::Role::Major,
            },
        )),
        _ => None,
    };
    let plan = AdvancePlan {
        adventure,
        checks: args.check.clone(),
        ageing: match args.years {
            Some(y) => Ageing::Years(y),
            None => Ageing::Increments(args.increments),
        },
        reduce,
        spends,
    };
    let mut source = args.source.source()?;
    let mut dice = Dice::new(source.dice());
    let advanced = plan::advance(sheet, &text, &plan, &mut dice).map_err(|e| match e {
        PlanError::Broken(v) => broken_rules(
            &format!(
                "{shown} breaks {} rule(s); `nutshell mls character check` explains; nothing was changed",
                v.len()
            ),
            &v,
        ),
        PlanError::WouldBreak(v) => broken_rules(
            &format!(
                "the result would break {} rule(s); nothing was changed",
                v.len()
            ),
            &v,
        ),
        PlanError::Years { years, .. } => Failure::bad_input(format!(
            "error: --years {years}: {e}; give --increments N instead; nothing was changed"
        )),
        PlanError::ExtraReduce(n) => Failure::bad_input(format!(
            "error: --reduce given {n} time(s) more than age demanded: nothing was changed"
        )),
        PlanError::Step(_, e) => bad(e),
        PlanError::NoCharacter => Failure::other("error: the sheet has no [character] table"),
    })?;
    let (sheet, new_text) = (&advanced.sheet, &advanced.text);
    let ch = sheet
        .character
        .as_ref()
        .ok_or_else(|| Failure::other("error: the character vanished"))?;
    let added = advanced.added();
    // Saved before anything is printed: "saved" is said only once it is true.
    if args.write {
        crate::sheet_file::rewrite(&args.file, &text, new_text)?;
    }
    let mut out = anstream::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"entries": added, "cps": ch.cps, "age": ch.age, "written": args.write})
        )?;
    } else {
        for e in added {
            writeln!(out, "{}", crate::shown::text(&entry_line(e)))?;
            writeln!(out, "    rule: {}", crate::shown::text(&e.rule))?;
        }
        writeln!(
            out,
            "{}: {} CP(s) unspent at age {}{}",
            crate::shown::text(&sheet.name),
            ch.cps,
            ch.age,
            if args.write {
                "; saved"
            } else {
                " (not saved: add --write)"
            }
        )?;
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

// ---------------------------------------------------------------- behave

pub fn behave(args: &BehaveArgs) -> Result<(), Failure> {
    let mut source = args.source.source()?;
    let mut out = anstream::stdout().lock();
    let (b, name, opposite) = match &args.file {
        None => {
            let v: i64 = args.trait_.parse().map_err(|_| {
                Failure::bad_input(format!(
                    "error: --trait {}: without a sheet, give the trait's value (0..20)",
                    args.trait_
                ))
            })?;
            if !(0..=20).contains(&v) {
                return Err(Failure::bad_input(format!(
                    "error: --trait {v}: {}",
                    rules::LIMIT_PERSONALITY
                )));
            }
            let mut dice = Dice::new(source.dice());
            (behaviour::behave(v, &mut dice).map_err(bad)?, None, None)
        }
        Some(path) => {
            let (mut sheet, text) = load(path)?;
            let id = TraitId::parse(&args.trait_).ok_or_else(|| {
                Failure::bad_input(format!(
                    "error: --trait {}: not a personality trait",
                    args.trait_
                ))
            })?;
            let mut dice = Dice::new(source.dice());
            let b = behaviour::on_sheet(&mut sheet, id.name(), &mut dice).map_err(bad)?;
            if args.write && b.checks_opposite {
                let new_text = to_toml(&sheet).map_err(bad)?;
                crate::sheet_file::rewrite(path, &text, &new_text)?;
            }
            (b, Some(id.name()), Some(id.opposite().name()))
        }
    };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"trait": name, "value": b.value, "noticeable": b.noticeable, "roll": b.roll, "acts_against": b.acts_against, "checks_opposite": b.checks_opposite, "opposite": opposite})
        )?;
    } else {
        let what = name
            .map(|n| format!("{n} {}", b.value))
            .unwrap_or_else(|| format!("a trait of {}", b.value));
        match b.roll {
            None => writeln!(
                out,
                "{what}: 15 or less, the character behaves as the player wishes (no roll)"
            )?,
            Some(r) if b.acts_against => writeln!(
                out,
                "{what} is Noticeable: 1d20 = {r} > {}: the character may act against it; the opposing trait{} is checked",
                b.value,
                opposite.map(|o| format!(" ({o})")).unwrap_or_default()
            )?,
            Some(r) => writeln!(
                out,
                "{what} is Noticeable: 1d20 = {r}, not higher than {}: the character behaves by the trait",
                b.value
            )?,
        }
        writeln!(out, "  rule: {}", rules::BEHAVIOUR)?;
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

// ---------------------------------------------------------------- time

pub fn time_cost(args: &TimeArgs) -> Result<(), Failure> {
    let mut out = anstream::stdout().lock();
    let unit = |u: time::Unit| match u {
        time::Unit::MovementPoint => "movement point(s)",
        time::Unit::Turn => "turn(s)",
        time::Unit::CombatAction => "combat action(s)",
    };
    match &args.action {
        None if args.json => {
            let list = serde_json::to_string(&time::ACTIONS)
                .map_err(|e| Failure::other(format!("error: {e}")))?;
            writeln!(out, "{list}")?;
        }
        None => {
            for a in &time::ACTIONS {
                writeln!(out, "{:<20} {}", a.key, a.text)?;
            }
        }
        Some(key) => {
            let (n, u) = time::cost(key, args.amount)
                .map_err(|e| Failure::bad_input(format!("error: {e}")))?;
            let a = time::find(key)
                .map(|a| a.roll.map(|r| format!(" ({r})")).unwrap_or_default())
                .unwrap_or_default();
            if args.json {
                let roll = time::find(key).and_then(|a| a.roll);
                writeln!(
                    out,
                    "{}",
                    json!({"action": key, "amount": args.amount, "cost": n, "unit": u, "roll": roll, "rule": "mls, Time Costs of Actions"})
                )?;
                return Ok(());
            }
            writeln!(
                out,
                "{key}: {n} {}{a}  [mls, Time Costs of Actions]",
                unit(u)
            )?;
        }
    }
    Ok(())
}
