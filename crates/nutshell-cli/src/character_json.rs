//! `nutshell mls character show --json`: the sheet as a program reads it, with
//! every score worked out (the same figures the text view prints).

use nutshell_mls::character::costs::Kind;
use nutshell_mls::character::generation;
use nutshell_mls::character::personality::{PAIRS, TraitId};
use nutshell_mls::character::primary::ALL;
use nutshell_mls::character::{Character, Parsed};
use nutshell_mls::sheet::Combatant;
use serde_json::{Value, json};

/// The JSON object of a sheet; `ledger` adds the whole ledger (else its length).
pub fn sheet(sheet: &Combatant, ch: &Character, parsed: &Parsed, ledger: bool) -> Value {
    let race = ch.race;
    let effective = ch.effective_traits(&sheet.traits);
    let primary: Vec<Value> = ALL
        .iter()
        .map(|p| {
            let v = p.get(&sheet.traits);
            json!({
                "trait": p.name(),
                "value": v,
                "effective": p.get(&effective),
                "relative_to_average": v - race.average(),
            })
        })
        .collect();
    let ob = parsed.occupation.value(&effective);
    let secondary: Vec<Value> = ch
        .secondary
        .iter()
        .map(|(k, s)| {
            let b = parsed.secondary[k].value(&effective);
            json!({
                "trait": k,
                "kind": generation::kind_name(s.kind),
                "base": s.base,
                "base_value": b,
                "level": s.level,
                "acquired": s.level.is_some(),
                "score": s.effective().map(|l| b + l),
                "available": s.level.is_some() || s.kind != Kind::Trained,
            })
        })
        .collect();
    let negative: Vec<Value> = ch
        .negative
        .iter()
        .map(|(k, n)| {
            let base = parsed.negative[k].as_ref().map(|b| b.value(&effective));
            json!({
                "trait": k,
                "level": n.level,
                "base_value": base,
                "score": base.map(|b| b + n.level),
            })
        })
        .collect();
    let personality: Vec<Value> = PAIRS
        .iter()
        .enumerate()
        .map(|(pair, (a, b))| {
            let va = parsed.personality.get(TraitId { pair, side: 0 });
            json!({
                "trait": a, "value": va, "noticeable": va >= 16,
                "opposite": b, "opposite_value": 20 - va, "opposite_noticeable": 20 - va >= 16,
            })
        })
        .collect();
    let mut out = json!({
        "name": sheet.name,
        "race": race.row().name,
        "age": ch.age,
        "thp": sheet.thp,
        "tmp": ch.tmp,
        "fate_points": sheet.fate_points,
        "cps": ch.cps,
        "florins": ch.florins,
        "favour": ch.favour,
        "racial_average": race.average(),
        "primary": primary,
        "occupation": {
            "name": ch.occupation.name,
            "base": ch.occupation.base,
            "base_value": ob,
            "level": ch.occupation.level,
            "score": ob + ch.occupation.level,
        },
        "secondary": secondary,
        "negative": negative,
        "personality": personality,
        "training": ch.training.as_ref().map(|t| json!({"primary": t.primary, "since": t.since})),
        "checks": ch.checks,
        "ledger_entries": ch.ledger.len(),
    });
    if ledger {
        out["ledger"] = serde_json::to_value(&ch.ledger).unwrap_or(Value::Null);
    }
    out
}
