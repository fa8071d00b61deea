//! Rolls: `roll`, `Expression`, `Roll` and `Die`.
//!
//! An expression is parsed once: `roll("4d6kh3")` keeps the parsed plan of
//! recent texts (with default limits), as d20's own parse cache does, so a
//! bot rolling the same text again pays only the roll.

use crate::limits::LimitArgs;
use crate::source::{FacesArg, Source};
use nutshell_dice::Transcript;
use nutshell_dice::roll::DieReport;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Most parsed expressions kept by `roll`; the cache starts afresh when full.
const CACHE_SIZE: usize = 512;

static CACHE: Mutex<Option<HashMap<String, Arc<nutshell_dice::Expression>>>> = Mutex::new(None);

/// `text` parsed with `limits` (from the cache when the limits are the defaults).
pub fn parse(
    py: Python<'_>,
    text: &str,
    limits: &LimitArgs,
) -> PyResult<Arc<nutshell_dice::Expression>> {
    let cached = limits.is_default();
    if cached {
        let guard = CACHE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(expr) = guard.as_ref().and_then(|m| m.get(text)) {
            return Ok(expr.clone());
        }
    }
    let expr = nutshell_dice::Expression::parse_with(text, &limits.limits()?)
        .map_err(|e| crate::errors::notation(py, &e, text))?;
    let expr = Arc::new(expr);
    if cached {
        let mut guard = CACHE.lock().unwrap_or_else(|p| p.into_inner());
        let map = guard.get_or_insert_with(HashMap::new);
        if map.len() >= CACHE_SIZE {
            map.clear();
        }
        map.insert(text.to_string(), expr.clone());
    }
    Ok(expr)
}

/// Rolls `expr` once with the dice `seed`/`faces` ask for.
fn roll_with(
    py: Python<'_>,
    expr: &Arc<nutshell_dice::Expression>,
    seed: Option<u64>,
    faces: Option<FacesArg>,
) -> PyResult<Roll> {
    let mut source = Source::new(seed, faces)?;
    let roll = one_roll(py, expr, &mut source)?;
    source.warn_leftover(py)?;
    Ok(roll)
}

/// One roll of `expr` with dice from `source`.
fn one_roll(
    py: Python<'_>,
    expr: &Arc<nutshell_dice::Expression>,
    source: &mut Source,
) -> PyResult<Roll> {
    let (total, transcript) = source.with(|dice| {
        expr.roll(dice)
            .map(|r| (r.total, r.transcript))
            .map_err(|e| crate::errors::roll(py, &e, expr.text()))
    })??;
    Ok(Roll {
        expr: expr.clone(),
        total,
        transcript,
    })
}

/// Rolls `expr` `repeat` times from one stream of dice (as the command
/// line's `--repeat`).
fn rolls_with(
    py: Python<'_>,
    expr: &Arc<nutshell_dice::Expression>,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    repeat: u64,
) -> PyResult<Vec<Roll>> {
    if !(1..=MAX_REPEAT).contains(&repeat) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "repeat={repeat}: from 1 to {MAX_REPEAT} rolls"
        )));
    }
    let mut source = Source::new(seed, faces)?;
    let mut rolls = Vec::with_capacity(repeat as usize);
    for _ in 0..repeat {
        rolls.push(one_roll(py, expr, &mut source)?);
    }
    source.warn_leftover(py)?;
    Ok(rolls)
}

/// The most rolls one `repeat=` may ask for (the command line's `--repeat`).
const MAX_REPEAT: u64 = 1_000_000;

/// One roll, or a list of `repeat` rolls.
fn one_or_many<'py>(
    py: Python<'py>,
    expr: &Arc<nutshell_dice::Expression>,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    repeat: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    match repeat {
        None => Ok(Bound::new(py, roll_with(py, expr, seed, faces)?)?.into_any()),
        Some(n) => Ok(rolls_with(py, expr, seed, faces, n)?
            .into_pyobject(py)?
            .into_any()),
    }
}

/// Rolls a dice expression once and returns the :class:`Roll`.
///
/// ``seed`` gives the same faces on every machine and in every version (the
/// command line's ``--seed``); ``faces`` are physical dice typed in, in the
/// order the transcript lists them (a list, or text such as ``"6,5,3,1"``);
/// without either, the dice come from the operating system's entropy.
/// ``max_dice``, ``max_explosions``, ``max_nesting`` and ``max_length`` are
/// the command line's limits of the same names.
///
/// >>> import nutshell
/// >>> r = nutshell.roll("4d6kh3 + 2", faces=[6, 5, 3, 1])
/// >>> r.total
/// 16
/// >>> r.text
/// '4d6kh3 + 2 = [6, 5, 3, (1)] + 2 = 16'
/// >>> [d.value for d in r.dice if d.kept]
/// [6, 5, 3]
/// >>> nutshell.roll("2d20kh1 + 5", seed=7).total == nutshell.roll("2d20kh1 + 5", seed=7).total
/// True
///
/// ``repeat=n`` rolls it ``n`` times from the same dice and returns the
/// list of rolls (the command line's ``--repeat``):
///
/// >>> [r.total for r in nutshell.roll("1d6", faces=[4, 1, 6], repeat=3)]
/// [4, 1, 6]
#[pyfunction]
#[pyo3(signature = (expression, *, seed=None, faces=None, repeat=None, max_dice=None, max_explosions=None, max_nesting=None, max_length=None))]
#[allow(clippy::too_many_arguments)]
pub fn roll<'py>(
    py: Python<'py>,
    expression: &str,
    seed: Option<u64>,
    faces: Option<FacesArg>,
    repeat: Option<u64>,
    max_dice: Option<u64>,
    max_explosions: Option<u32>,
    max_nesting: Option<usize>,
    max_length: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = LimitArgs::parsing(max_dice, max_explosions, max_nesting, max_length);
    let expr = parse(py, expression, &limits)?;
    one_or_many(py, &expr, seed, faces, repeat)
}

/// A dice expression parsed once, to roll many times.
///
/// >>> import nutshell
/// >>> e = nutshell.Expression("4d6k3+2")
/// >>> e.normalized
/// '4d6kh3 + 2'
/// >>> e.roll(faces="6,5,3,1").total
/// 16
/// >>> e.odds()[20]
/// Fraction(7, 432)
#[pyclass(frozen, module = "nutshell")]
pub struct Expression {
    pub expr: Arc<nutshell_dice::Expression>,
    /// The limits it was parsed with, which its `odds()` keeps.
    limits: LimitArgs,
}

#[pymethods]
impl Expression {
    #[new]
    #[pyo3(signature = (expression, *, max_dice=None, max_explosions=None, max_nesting=None, max_length=None))]
    fn new(
        py: Python<'_>,
        expression: &str,
        max_dice: Option<u64>,
        max_explosions: Option<u32>,
        max_nesting: Option<usize>,
        max_length: Option<usize>,
    ) -> PyResult<Expression> {
        let limits = LimitArgs::parsing(max_dice, max_explosions, max_nesting, max_length);
        Ok(Expression {
            expr: parse(py, expression, &limits)?,
            limits,
        })
    }

    /// The text as given.
    #[getter]
    fn text(&self) -> &str {
        self.expr.text()
    }

    /// The expression in normalized notation (it parses back to itself).
    #[getter]
    fn normalized(&self) -> &str {
        self.expr.normalized()
    }

    /// Rolls once, or ``repeat`` times as a list (see :func:`nutshell.roll`
    /// for ``seed``, ``faces`` and ``repeat``).
    #[pyo3(signature = (*, seed=None, faces=None, repeat=None))]
    fn roll<'py>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
        faces: Option<FacesArg>,
        repeat: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        one_or_many(py, &self.expr, seed, faces, repeat)
    }

    /// Its exact distribution: :func:`nutshell.odds` of its text with the
    /// limits it was parsed with (``tail``, ``max_work`` and
    /// ``max_outcomes`` as there).
    #[pyo3(signature = (*, tail=None, max_work=None, max_outcomes=None))]
    fn odds<'py>(
        &self,
        py: Python<'py>,
        tail: Option<f64>,
        max_work: Option<u64>,
        max_outcomes: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = pyo3::types::PyDict::new(py);
        if let Some(tail) = tail {
            kwargs.set_item("tail", tail)?;
        }
        kwargs.set_item("max_work", max_work)?;
        kwargs.set_item("max_outcomes", max_outcomes)?;
        kwargs.set_item("max_dice", self.limits.max_dice)?;
        kwargs.set_item("max_explosions", self.limits.max_explosions)?;
        kwargs.set_item("max_nesting", self.limits.max_nesting)?;
        kwargs.set_item("max_length", self.limits.max_length)?;
        py.import("nutshell")?
            .getattr("odds")?
            .call((self.expr.text(),), Some(&kwargs))
    }

    fn __repr__(&self) -> String {
        format!("Expression({:?})", self.expr.normalized())
    }

    fn __str__(&self) -> &str {
        self.expr.normalized()
    }
}

/// One roll: its ``total``, its ``dice`` and the transcript ``text``.
/// ``to_dict()`` is the command line's ``nutshell roll --json``.
#[pyclass(frozen, module = "nutshell")]
pub struct Roll {
    expr: Arc<nutshell_dice::Expression>,
    total: i64,
    transcript: Transcript,
}

impl Roll {
    fn as_roll(&self) -> nutshell_dice::Roll<'_> {
        nutshell_dice::Roll {
            expression: &self.expr,
            total: self.total,
            transcript: self.transcript.clone(),
        }
    }
}

#[pymethods]
impl Roll {
    /// The result.
    #[getter]
    fn total(&self) -> i64 {
        self.total
    }

    /// The expression rolled, normalized.
    #[getter]
    fn expression(&self) -> &str {
        self.expr.normalized()
    }

    /// The roll as one line: ``4d6kh3 = [6, 5, 3, (1)] = 14``.
    #[getter]
    fn text(&self) -> String {
        self.as_roll().render()
    }

    /// Every die in the order rolled (the order ``faces`` are consumed).
    #[getter]
    fn dice(&self) -> Vec<Die> {
        self.as_roll().report().dice.into_iter().map(Die).collect()
    }

    /// The whole transcript as JSON text: one line of ``nutshell roll --json``.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.as_roll().report())
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
    }

    /// The whole transcript as a dict, equal to ``nutshell roll --json``.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_json()?;
        py.import("json")?.call_method1("loads", (text,))
    }

    fn __int__(&self) -> i64 {
        self.total
    }

    fn __index__(&self) -> i64 {
        self.total
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("<Roll {}>", self.text())
    }
}

/// One die of a roll: the ``die`` (such as ``"d6"``), every face it
/// showed (``faces``, rerolled ones included), what it counts for
/// (``value``), and what happened to it (``kept``, ``exploded``,
/// ``rerolled``, ``successes``, ``failures``, ``limit_reached``).
#[pyclass(frozen, module = "nutshell")]
pub struct Die(DieReport);

#[pymethods]
impl Die {
    /// The die, such as ``"d6"`` or ``"d{0,10,20}"``.
    #[getter]
    fn die(&self) -> &str {
        &self.0.die
    }

    /// Index of its term in the roll's ``to_dict()["terms"]``.
    #[getter]
    fn term(&self) -> usize {
        self.0.term
    }

    /// Its label, if inside one.
    #[getter]
    fn label(&self) -> Option<&str> {
        self.0.label.as_deref()
    }

    /// Every face it showed, in order (rerolled and exploded ones included).
    #[getter]
    fn faces(&self) -> Vec<i64> {
        self.0.faces.iter().map(|f| f.face).collect()
    }

    /// What it counts for.
    #[getter]
    fn value(&self) -> i64 {
        self.0.value
    }

    /// False when keep/drop dropped it (or the group member it is in).
    #[getter]
    fn kept(&self) -> bool {
        self.0.kept
    }

    /// Whether any face exploded.
    #[getter]
    fn exploded(&self) -> bool {
        self.0.exploded
    }

    /// Whether any face was rerolled.
    #[getter]
    fn rerolled(&self) -> bool {
        self.0.rerolled
    }

    /// Successes counted on it.
    #[getter]
    fn successes(&self) -> u32 {
        self.0.successes
    }

    /// Failures counted on it.
    #[getter]
    fn failures(&self) -> u32 {
        self.0.failures
    }

    /// It reached the explosion limit.
    #[getter]
    fn limit_reached(&self) -> bool {
        self.0.limit_reached
    }

    fn __repr__(&self) -> String {
        let faces: Vec<String> = self.0.faces.iter().map(|f| f.face.to_string()).collect();
        format!(
            "<Die {} faces=[{}] value={}{}>",
            self.0.die,
            faces.join(", "),
            self.0.value,
            if self.0.kept { "" } else { " dropped" }
        )
    }
}
