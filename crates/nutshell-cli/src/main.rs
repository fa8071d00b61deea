//! The `nutshell` command-line tool. It holds no rules: it reads flags, calls
//! the libraries and prints what they return.
//!
//! Its entry point is its own C `main` rather than the standard runtime's
//! (`#![no_main]`): the runtime's start reads `/proc/self/maps` to find the
//! main thread's stack, sets up a signal stack and handlers to report a stack
//! overflow, and checks the standard descriptors, about 50 µs of a process
//! that answers a small `odds` in under a millisecond. What of it the tool
//! needs is done here: SIGPIPE ignored (so a closed pipe is an error the
//! commands handle, and a server survives a client that goes away), a panic
//! caught and reported, standard output flushed at the end. The arguments
//! are read by the standard library as usual. A stack overflow, which the
//! limits on nesting prevent, ends the process without the runtime's message.
//!
//! # In detail
//!
//! The `nutshell` binary: flags, colour, tables, JSON, threads for
//! simulation; the grammar (`cli_args`: `Cli`, `Command`) below both its
//! readers, `cli` (clap, and `run`) and `odds_line`; an expression as the
//! first argument is a `roll` (`cli::implied_roll`); several `odds` side by
//! side (`odds_compare`); checks and contests read from the rules' results
//! (`rules_text`: dice grouped by purpose, outcomes named by the sides; the
//! results themselves unchanged, since `verify` recomputes them); the limits
//! of exact odds (`ExactLimitArgs`) only on `odds` and `serve`; `mls play`
//! (`mls_play`): a fight played by decisions at the terminal (questions on
//! stderr, answers on stdin, orders files, `--ask-faces`); what the `mls`
//! commands share below them: `scenario` (the sides, map and options a fight
//! is loaded from; `--record` writing to the character sheets among them) and
//! `fight_view` (the fighters' state table, the map as the log tells it, the
//! checks earned); `serve` and `verify` call the server crate; a plain `odds`
//! line is read by a hand parser (`odds_line`, start-up speed) and computed
//! on the main thread when short, clap answering everything else; a long
//! exact `odds` shows a progress bar of the engine's steps against its
//! measured job, then of the fractions written (`odds_progress`); its own C
//! `main` (`#![no_main]`: SIGPIPE and SIGXFSZ ignored, panics caught, output
//! flushed; the standard runtime's start costs 50 µs); `shown` escapes
//! control and bidirectional characters in user text printed to a terminal
//! (JSON keeps it exact); `files` reads within a size limit and writes files
//! respecting them (through links, mode, owner and hard links kept, read-only
//! refused, an unnamed temporary file renamed into place); `cargo dist`
//! (`.cargo/config.toml`) builds it static and non-PIE for shipping

#![cfg_attr(not(test), no_main)]

mod character_cmd;
mod character_json;
mod character_new;
mod character_play;
mod cli;
mod cli_args;
mod discord_cmd;
mod exit;
mod fight_view;
mod files;
mod fraction;
mod limits_args;
mod map_cmd;
mod mls_cmd;
mod mls_play;
mod odds_args;
mod odds_cmd;
mod odds_compare;
mod odds_line;
mod odds_progress;
mod odds_text;
mod roll_cmd;
mod rules_cmd;
mod rules_text;
mod scenario;
mod server_cmd;
mod sheet_file;
mod shown;
mod source_args;
mod style;

/// The system's allocator, counting the heap the process holds: `nutshell
/// serve` starts no new long work above its `--memory-limit`
/// (`nutshell_server::memory`).
#[global_allocator]
static HEAP: nutshell_server::memory::Counting = nutshell_server::memory::Counting;

/// Stack for the command's thread.
const STACK_BYTES: usize = 256 << 20;

/// The process's entry point (see the module doc); a test build has the
/// test harness's.
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" before any thread starts.
    // SIGXFSZ too: a write past the file size limit is then an error the
    // write reports (and cleans up after), not the end of the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let code = std::panic::catch_unwind(run).unwrap_or(exit::PANICKED);
    let _ = std::io::Write::flush(&mut std::io::stdout());
    std::ffi::c_int::from(code)
}

/// The command's exit code.
#[cfg_attr(test, allow(dead_code))]
fn run() -> u8 {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = error.print();
            return if error.use_stderr() {
                exit::BAD_INPUT
            } else {
                exit::OK
            };
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

#[cfg_attr(test, allow(dead_code))]
fn panicked() -> exit::Failure {
    exit::Failure::other("error: internal error (a bug): the command panicked")
}

/// The exit code of a command's result, its failure printed.
#[cfg_attr(test, allow(dead_code))]
fn finish(result: Result<(), exit::Failure>) -> u8 {
    match result {
        Ok(()) => exit::OK,
        Err(failure) => {
            failure.print();
            failure.code
        }
    }
}
