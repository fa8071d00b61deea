//! Where dice come from: `seed=` (the pinned ChaCha8 stream, the same faces
//! as `--seed` everywhere), `faces=` (physical dice typed in, as
//! `--faces`), or else the operating system's entropy, keyed once per
//! process (and again in a child after `fork`, so two processes never share
//! a stream).

use nutshell_dice::source::{DiceSource, Entropy, Scripted, Seeded};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::Mutex;

/// `faces=`: a list of integers, or the command line's text `"6,5,3,1"`.
#[derive(Debug, Clone)]
pub struct FacesArg(pub Scripted);

impl<'a, 'py> FromPyObject<'a, 'py> for FacesArg {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<FacesArg> {
        if ob.is_instance_of::<PyString>() {
            let text: String = ob.extract()?;
            let scripted = Scripted::parse_list(&text)
                .map_err(|e| PyValueError::new_err(format!("faces: {e}")))?;
            return Ok(FacesArg(scripted));
        }
        let faces: Vec<i64> = ob.extract().map_err(|_| {
            PyTypeError::new_err("faces: a list of whole numbers, or text such as \"6,5,3,1\"")
        })?;
        Ok(FacesArg(Scripted::new(faces)))
    }
}

/// One call's dice.
pub enum Source {
    Seeded(Seeded),
    Scripted(Scripted),
    Shared,
}

/// The process's entropy-keyed dice, with the process id that keyed them.
static SHARED: Mutex<Option<(u32, Entropy)>> = Mutex::new(None);

impl Source {
    /// The source `seed=` and `faces=` ask for (both at once is refused, as
    /// on the command line).
    pub fn new(seed: Option<u64>, faces: Option<FacesArg>) -> PyResult<Source> {
        match (seed, faces) {
            (Some(_), Some(_)) => Err(PyValueError::new_err(
                "seed and faces cannot be given together: faces are the dice",
            )),
            (Some(seed), None) => Ok(Source::Seeded(Seeded::new(seed))),
            (None, Some(faces)) => Ok(Source::Scripted(faces.0)),
            (None, None) => Ok(Source::Shared),
        }
    }

    /// Runs `f` with the dice.
    pub fn with<T>(&mut self, f: impl FnOnce(&mut dyn DiceSource) -> T) -> PyResult<T> {
        match self {
            Source::Seeded(s) => Ok(f(s)),
            Source::Scripted(s) => Ok(f(s)),
            Source::Shared => {
                let mut guard = SHARED.lock().unwrap_or_else(|p| p.into_inner());
                let pid = std::process::id();
                if guard.as_ref().is_none_or(|(p, _)| *p != pid) {
                    let entropy = Entropy::new().map_err(|e| {
                        PyValueError::new_err(format!("the operating system gave no entropy: {e}"))
                    })?;
                    *guard = Some((pid, entropy));
                }
                let (_, entropy) = guard.as_mut().expect("keyed above");
                Ok(f(entropy))
            }
        }
    }

    /// A warning when typed-in faces were left over (as the command line's).
    pub fn leftover(&self) -> Option<String> {
        match self {
            Source::Scripted(s) if s.remaining() > 0 => Some(format!(
                "{} of the faces given {} not used (the roll needed {})",
                s.remaining(),
                if s.remaining() == 1 { "was" } else { "were" },
                s.used()
            )),
            _ => None,
        }
    }

    /// Warns (Python's `UserWarning`) about leftover faces.
    pub fn warn_leftover(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(message) = self.leftover() {
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            let text = std::ffi::CString::new(message).unwrap_or_default();
            PyErr::warn(py, &category, &text, 1)?;
        }
        Ok(())
    }
}
