//! Exit codes and the one error type every command returns.

use std::io::Write;

/// Success.
pub const OK: u8 = 0;
/// Something went wrong that is not the user's input (an I/O error, say).
pub const FAILURE: u8 = 1;
/// The input was bad: notation, flags, faces, files. The message is on stderr.
pub const BAD_INPUT: u8 = 2;
/// A bug: the command panicked outside the places that report it as a
/// failure (the code the standard runtime gives a panicking `main`).
#[cfg_attr(test, allow(dead_code))]
pub const PANICKED: u8 = 101;

/// A failed command: the text for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    /// Bad input, exit code 2.
    pub fn bad_input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: BAD_INPUT,
        }
    }

    /// Any other failure, exit code 1.
    pub fn other(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: FAILURE,
        }
    }

    pub fn print(&self) {
        if self.message.is_empty() {
            return;
        }
        let mut err = anstream::stderr();
        // Errors quote names and files' text: shown escaped (crate::shown).
        let styled = crate::style::error_prefix(&crate::shown::lines(&self.message));
        let _ = writeln!(err, "{styled}");
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Failure {
        // A reader that stops early (`nutshell odds 1000d6 | head`) is not an error.
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure {
                message: String::new(),
                code: OK,
            };
        }
        Failure::other(format!("error: {error}"))
    }
}
