//! The `nutshell` command-line tool. It holds no rules: it reads flags, calls
//! the libraries and prints what they return.

mod character_cmd;
mod character_json;
mod character_new;
mod character_play;
mod cli;
mod exit;
mod files;
mod fraction;
mod limits_args;
mod map_cmd;
mod mls_cmd;
mod odds_cmd;
mod odds_line;
mod roll_cmd;
mod rules_cmd;
mod server_cmd;
mod sheet_file;
mod source_args;
mod style;

use std::process::ExitCode;

/// Stack for the command's thread.
const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() {
                exit::BAD_INPUT
            } else {
                exit::OK
            });
        }
    };
    // Parsing and rolling recurse once per nesting level; a large stack keeps
    // the deepest nesting the limits allow (1000 levels) safe even in debug
    // builds. A short `odds` expression (all the command reads) cannot nest
    // that deep: it runs on the main thread, which saves starting a thread
    // (about a tenth of a millisecond, a tenth of a small `odds`).
    if cli::fits_main_stack(&cli) {
        let run = std::panic::AssertUnwindSafe(move || cli::run(cli));
        return finish(std::panic::catch_unwind(run).unwrap_or_else(|_| Err(panicked())));
    }
    let worker = std::thread::Builder::new()
        .name("nutshell".into())
        .stack_size(STACK_BYTES)
        .spawn(move || cli::run(cli));
    finish(match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| Err(panicked())),
        Err(e) => Err(exit::Failure::other(format!("error: could not start: {e}"))),
    })
}

fn panicked() -> exit::Failure {
    exit::Failure::other("error: internal error (a bug): the command panicked")
}

/// The exit code of a command's result, its failure printed.
fn finish(result: Result<(), exit::Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::from(exit::OK),
        Err(failure) => {
            failure.print();
            ExitCode::from(failure.code)
        }
    }
}
