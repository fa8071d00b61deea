//! The MLS tactical layer: a `Fight` stepped round by round or run to the
//! end, and `_simulate`, many fights on the machine's cores. Sides and maps
//! arrive as TOML text with the name their errors cite (the package reads
//! files); answers are the JSON of `nutshell mls fight --json` and
//! `nutshell mls simulate --json`.

use crate::source::{FacesArg, Source};
use nutshell_dice::simulate::wilson;
use nutshell_mls::map::BattleMap;
use nutshell_mls::sheet::Side;
use nutshell_mls::simulate::Tally;
use nutshell_mls::{Ending, FightError, FightOptions, Progress};
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::sync::Arc;

fn fight_error(py: Python<'_>, e: FightError) -> PyErr {
    match e {
        FightError::Dice(m) => crate::errors::dice(py, m),
        other => crate::errors::rule(py, other.to_string()),
    }
}

/// What the package passes for a fight, as a tuple: each side's `(name,
/// text)` (the name is what its errors cite), the battle map's likewise or
/// None, the distance, the surprised side (0 or 1) or None, and the most
/// turns.
#[derive(Debug, Clone, FromPyObject)]
pub struct Setting(
    [(String, String); 2],
    Option<(String, String)>,
    i64,
    Option<usize>,
    u32,
);

impl Setting {
    fn load(&self, py: Python<'_>, log: bool) -> PyResult<([Side; 2], FightOptions)> {
        let side = |(name, text): &(String, String)| {
            Side::parse(name, text).map_err(|e| fight_error(py, e))
        };
        let Setting(files, map, distance, surprised, max_turns) = self;
        let (distance, surprised, max_turns) = (*distance, *surprised, *max_turns);
        let sides = [side(&files[0])?, side(&files[1])?];
        let map = match map {
            Some((name, text)) => Some(Arc::new(
                BattleMap::parse(name, text).map_err(|e| fight_error(py, e))?,
            )),
            None => None,
        };
        if !(1..=10_000).contains(&distance) {
            return Err(crate::errors::rule(
                py,
                format!("distance={}: it must be from 1 to 10000", distance),
            ));
        }
        if !(1..=100_000).contains(&max_turns) {
            return Err(crate::errors::rule(
                py,
                format!("max_turns={}: it must be from 1 to 100000", max_turns),
            ));
        }
        if surprised.is_some_and(|s| s > 1) {
            return Err(crate::errors::rule(py, "surprised: \"a\" or \"b\""));
        }
        let options = FightOptions {
            max_turns,
            log,
            distance,
            surprised,
            map,
        };
        Ok((sides, options))
    }
}

/// One fight, stepped round by round (`step`) or run to its end (`run`).
#[pyclass(module = "nutshell._nutshell")]
pub struct Fight {
    fight: nutshell_mls::Fight,
    source: Source,
    ending: Option<Ending>,
}

impl Fight {
    fn ending_json(&self, ending: &Ending) -> Value {
        let names = self.fight.side_names();
        json!({
            "winner": ending.winner.map(|w| names[w].clone()),
            "turns": ending.turns,
            "reason": ending.reason,
        })
    }
}

#[pymethods]
impl Fight {
    #[new]
    #[pyo3(signature = (setting, *, seed=None, faces=None))]
    fn new(
        py: Python<'_>,
        setting: Setting,
        seed: Option<u64>,
        faces: Option<FacesArg>,
    ) -> PyResult<Fight> {
        let (sides, options) = setting.load(py, true)?;
        let fight = nutshell_mls::Fight::new(sides, options).map_err(|e| fight_error(py, e))?;
        Ok(Fight {
            fight,
            source: Source::new(seed, faces)?,
            ending: None,
        })
    }

    /// Resolves the next round: `{"over": false, "turn", "round"}`, or
    /// `{"over": true, "ending": {...}}` once the fight has ended.
    fn step(&mut self, py: Python<'_>) -> PyResult<String> {
        if let Some(ending) = &self.ending {
            return Ok(json!({"over": true, "ending": self.ending_json(ending)}).to_string());
        }
        let fight = &mut self.fight;
        let progress = self.source.with(|dice| fight.step(dice))?;
        match progress.map_err(|e| fight_error(py, e))? {
            Progress::Round { turn, round } => {
                Ok(json!({"over": false, "turn": turn, "round": round}).to_string())
            }
            Progress::Over(ending) => {
                let answer = json!({"over": true, "ending": self.ending_json(&ending)});
                self.ending = Some(ending);
                Ok(answer.to_string())
            }
        }
    }

    /// Runs the fight to its end (with the interpreter detached) and returns
    /// the ending.
    fn run(&mut self, py: Python<'_>) -> PyResult<String> {
        if self.ending.is_none() {
            let Fight { fight, source, .. } = self;
            let ending = py.detach(|| source.with(|dice| fight.run(dice)))?;
            self.ending = Some(ending.map_err(|e| fight_error(py, e))?);
        }
        let ending = self.ending.as_ref().expect("set above");
        Ok(self.ending_json(ending).to_string())
    }

    /// Whether the fight has ended.
    #[getter]
    fn over(&self) -> bool {
        self.ending.is_some()
    }

    /// The log's lines from `start` on, as a JSON list.
    #[pyo3(signature = (start=0))]
    fn log_json(&self, py: Python<'_>, start: usize) -> PyResult<String> {
        let log = self.fight.log();
        let lines = &log[start.min(log.len())..];
        serde_json::to_string(lines).map_err(|e| crate::errors::rule(py, e.to_string()))
    }

    /// Every combatant now, as a JSON list.
    fn state_json(&self) -> String {
        let names = self.fight.side_names();
        let fighters: Vec<Value> = self
            .fight
            .fighters()
            .iter()
            .map(|f| {
                json!({
                    "name": f.sheet.name,
                    "side": names[f.side],
                    "chp": f.chp,
                    "thp": f.sheet.thp,
                    "state": f.state.name(),
                    "fate_points": f.fate_points,
                })
            })
            .collect();
        Value::Array(fighters).to_string()
    }

    /// The whole fight as `nutshell mls fight --json` prints it (once over).
    fn report_json(&self, py: Python<'_>) -> PyResult<String> {
        let Some(ending) = &self.ending else {
            return Err(crate::errors::rule(
                py,
                "the fight is not over: step() or run() it to its end first",
            ));
        };
        let mut object = serde_json::to_value(self.fight.report(ending))
            .map_err(|e| crate::errors::rule(py, e.to_string()))?;
        object["recorded"] = json!([]);
        Ok(object.to_string())
    }

    /// A warning's text when typed-in faces were left over, or None.
    fn leftover(&self) -> Option<String> {
        self.source.leftover()
    }
}

/// Many fights, each from its own seed (`fight_seed`), over `threads`
/// threads with the interpreter detached: the JSON of `nutshell mls simulate
/// --json` (the same counts for the same seed, however many threads).
#[pyfunction(name = "_simulate")]
#[pyo3(signature = (setting, *, trials, seed=1, threads=None))]
pub fn simulate_native(
    py: Python<'_>,
    setting: Setting,
    trials: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<String> {
    if !(1..=1_000_000_000).contains(&trials) {
        return Err(crate::errors::rule(
            py,
            format!("trials={trials}: it must be from 1 to 1000000000"),
        ));
    }
    let (sides, options) = setting.load(py, false)?;
    let template =
        nutshell_mls::Fight::new(sides.clone(), options.clone()).map_err(|e| fight_error(py, e))?;
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256) as u64;
    let started = std::time::Instant::now();
    let tally = py.detach(|| {
        let share = trials.div_ceil(threads);
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let range = (t * share).min(trials)..((t + 1) * share).min(trials);
                    let (sides, options) = (&sides, &options);
                    scope.spawn(move || Tally::run(sides, options, seed, range, &|| {}))
                })
                .collect();
            let mut total = Tally::default();
            for worker in workers {
                let part = worker.join().unwrap_or_else(|_| {
                    Err(FightError::Invalid("a simulation thread failed".into()))
                })?;
                total = total.merge(part);
            }
            Ok::<Tally, FightError>(total)
        })
    });
    let tally = tally.map_err(|e| fight_error(py, e))?;
    let seconds = started.elapsed().as_secs_f64();
    let names = template.side_names();
    let n = tally.fights;
    let est = |c: u64| {
        let i = wilson(c, n);
        json!({"probability": i.estimate, "low": i.low, "high": i.high})
    };
    let object = json!({
        "trials": n,
        "seed": seed,
        "sides": names,
        "wins": [est(tally.wins[0]), est(tally.wins[1])],
        "draw": est(tally.draws),
        "mean_turns": tally.turns as f64 / n.max(1) as f64,
        "combatants": template.fighters().iter().enumerate().map(|(i, f)| json!({
            "name": f.sheet.name,
            "side": names[f.side],
            "unconscious": est(tally.unconscious.get(i).copied().unwrap_or(0)),
            "dead": est(tally.dead.get(i).copied().unwrap_or(0)),
            "escaped": est(tally.escaped.get(i).copied().unwrap_or(0)),
        })).collect::<Vec<Value>>(),
        "fights_per_second": n as f64 / seconds.max(1e-9),
    });
    Ok(object.to_string())
}
