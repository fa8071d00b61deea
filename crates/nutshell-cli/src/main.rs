//! The `nutshell` command-line tool. It holds no rules: it reads flags, calls
//! the libraries and prints what they return.

mod cli;
mod exit;
mod limits_args;
mod roll_cmd;
mod source_args;
mod style;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { exit::BAD_INPUT } else { exit::OK });
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::from(exit::OK),
        Err(failure) => {
            failure.print();
            ExitCode::from(failure.code)
        }
    }
}
