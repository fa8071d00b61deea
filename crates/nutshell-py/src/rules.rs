//! The rulesets: a check or a contest as the JSON request the server takes
//! (`nutshell_rules::request`: the command line's option names, unknown
//! ones refused), rolled or given its exact odds, answered as the JSON the
//! command line prints with `--json`.

use crate::source::{FacesArg, Source};
use nutshell_rules::RulesError;
use nutshell_rules::request::{CheckRequest, ContestRequest, Odds, Rolled, TieredCheck};
use pyo3::prelude::*;
use serde_json::Value;

/// A ruleset's error as `RuleError` (a dice source's as `DiceError`).
fn rules_error(py: Python<'_>, e: RulesError) -> PyErr {
    match e {
        RulesError::Dice(m) => crate::errors::dice(py, m),
        other => crate::errors::rule(py, other.to_string()),
    }
}

/// The request's JSON with `then`'s command-line texts (`"3:12"`, `"--skill
/// 3 --dc 15 --advantage"`) read as the command line reads them.
fn read_then(py: Python<'_>, mut request: Value) -> PyResult<Value> {
    if let Some(Value::Array(items)) = request.get_mut("then") {
        for item in items.iter_mut() {
            if let Value::String(spec) = item {
                let check = TieredCheck::parse_then(spec).map_err(|e| rules_error(py, e))?;
                *item = serde_json::to_value(check)
                    .map_err(|e| crate::errors::rule(py, e.to_string()))?;
            }
        }
    }
    Ok(request)
}

/// What `roll` gives with the dice `seed` and `faces` ask for (faces left
/// over are warned of), a ruleset's error as the package's.
fn roll_request<T>(
    py: Python<'_>,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    roll: impl FnOnce(&mut dyn nutshell_dice::DiceSource) -> Result<T, RulesError>,
) -> PyResult<T> {
    let mut source = Source::new(seed, faces)?;
    let rolled = source.with(roll)?.map_err(|e| rules_error(py, e))?;
    source.warn_leftover(py)?;
    Ok(rolled)
}

fn to_json(py: Python<'_>, value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| crate::errors::rule(py, e.to_string()))
}

/// Reads a request, refusing an unknown option with the ruleset's words
/// and a value of the wrong type with the option's name.
fn request<T: serde::de::DeserializeOwned>(py: Python<'_>, json: &str) -> PyResult<T> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| crate::errors::rule(py, e.to_string()))?;
    let value = read_then(py, value)?;
    serde_json::from_value::<T>(value.clone()).map_err(|e| {
        let message = match culprit::<T>(&value) {
            Some(option) => format!("option `{option}`: {e}"),
            None => e.to_string(),
        };
        crate::errors::rule(py, message)
    })
}

/// The option whose value alone makes the request unreadable (serde's
/// message for a value of the wrong type does not name the field): each
/// option is tried alone with the ruleset.
fn culprit<T: serde::de::DeserializeOwned>(request: &Value) -> Option<String> {
    let object = request.as_object()?;
    let ruleset = object.get("ruleset")?;
    // An unknown ruleset is no option's fault.
    serde_json::from_value::<T>(serde_json::json!({ "ruleset": ruleset })).ok()?;
    object
        .iter()
        .filter(|(key, _)| key.as_str() != "ruleset")
        .find(|(key, value)| {
            let alone = serde_json::json!({"ruleset": ruleset, key.as_str(): value});
            serde_json::from_value::<T>(alone).is_err()
        })
        .map(|(key, _)| key.clone())
}

/// A check: rolled (`nutshell check ... --json`) or its exact odds
/// (`--odds --json`), as JSON text.
#[pyfunction(name = "_check")]
#[pyo3(signature = (request_json, *, seed=None, faces=None, odds=false))]
pub fn check_native(
    py: Python<'_>,
    request_json: &str,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    odds: bool,
) -> PyResult<String> {
    let request: CheckRequest = request(py, request_json)?;
    request.validate().map_err(|e| rules_error(py, e))?;
    if odds {
        let answer = py.detach(|| request.odds());
        return match answer.map_err(|e| rules_error(py, e))? {
            Odds::Check(odds) => to_json(py, &odds),
            Odds::Turn(turn) => to_json(py, &turn),
        };
    }
    let rolled = roll_request(py, seed, faces, |dice| request.roll(dice))?;
    match rolled {
        Rolled::Check(result) => to_json(py, &result),
        Rolled::Turn(turn) => to_json(py, &turn),
    }
}

/// A contest: rolled (`nutshell contest ... --json`) or its exact odds.
// The same keywords and steps as `_check`'s, over a request of another type.
#[pyfunction(name = "_contest")]
#[pyo3(signature = (request_json, *, seed=None, faces=None, odds=false))]
pub fn contest_native(
    py: Python<'_>,
    request_json: &str,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    odds: bool,
) -> PyResult<String> {
    let request: ContestRequest = request(py, request_json)?;
    request.validate().map_err(|e| rules_error(py, e))?;
    if odds {
        let answer = py.detach(|| request.odds());
        return to_json(py, &answer.map_err(|e| rules_error(py, e))?);
    }
    let rolled = roll_request(py, seed, faces, |dice| request.roll(dice))?;
    to_json(py, &rolled)
}
