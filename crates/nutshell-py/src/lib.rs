//! # nutshell-py
//!
//! The native module `nutshell._nutshell` behind the Python package
//! `nutshell` (in `python/`): a thin layer over the libraries, with no rules
//! of its own. Each front-end concern has its module:
//!
//! | module | what Python sees |
//! |---|---|
//! | [`dice`] | `roll`, `Expression`, `Roll`, `Die`: rolls with a transcript |
//! | [`odds`] | `_odds` and `_Dist`: exact distributions, wrapped by the package's `Distribution` |
//! | [`combine`] | distributions given by weights (icepool dice) combined outcome by outcome |
//! | [`rules`] | `_check`, `_contest`: the rulesets' requests as JSON, as the server takes them |
//! | [`mls`] | `Fight` and `_simulate`: the MLS tactical layer |
//! | [`errors`] | the libraries' errors as the package's exceptions |
//!
//! Long computations (exact odds, rulesets' odds, fights, simulations) run
//! with the interpreter detached, so other Python threads go on meanwhile.
//!
//! # In detail
//!
//! The Python module `nutshell` (PyO3, an abi3 wheel built by maturin): a
//! native part (`src/`: rolls, exact distributions, the rulesets' JSON
//! requests, fights and simulations; errors as the package's exceptions,
//! their flags named as keywords; `combine`: distributions given by weights
//! (icepool dice) combined outcome by outcome; the GIL released around long
//! computations) and a Python part (`python/nutshell`: `Distribution` as a
//! mapping of `Fraction`s with icepool's arithmetic (the text of the combined
//! expression computed by the engine; no truth value), its table and SVG
//! chart, results, `mls`, the exceptions, stubs); tested by pytest against
//! icepool and the CLI (`.ci/python`).

use pyo3::prelude::*;

pub mod combine;
pub mod dice;
pub mod errors;
pub mod limits;
pub mod mls;
pub mod odds;
pub mod rules;
pub mod source;

#[pymodule]
fn _nutshell(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dice::roll, m)?)?;
    m.add_class::<dice::Expression>()?;
    m.add_class::<dice::Roll>()?;
    m.add_class::<dice::Die>()?;
    m.add_function(wrap_pyfunction!(odds::odds_native, m)?)?;
    m.add_class::<odds::Dist>()?;
    m.add_function(wrap_pyfunction!(rules::check_native, m)?)?;
    m.add_function(wrap_pyfunction!(rules::contest_native, m)?)?;
    m.add_class::<mls::Fight>()?;
    m.add_function(wrap_pyfunction!(mls::simulate_native, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
