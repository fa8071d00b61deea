//! The docs are tests: every `$ nutshell ...` command of a console block in
//! README.md and docs/ runs here, as typed, and its shown output is compared
//! with what it prints.
//!
//! How a page is run:
//! - Each page runs in a fresh folder of its own holding a copy of
//!   `examples/`, its commands in page order in a POSIX shell (so a file one
//!   command writes is there for the next), `nutshell` first on the `PATH`,
//!   standard error merged into standard output as a terminal shows them,
//!   `HOME` a folder that prints as `/home/ann`, `NO_COLOR` set, standard
//!   input empty.
//! - A command with output shown under it must print that output (see
//!   `compare` for what is masked and the wildcards `...` and `[..]`), and
//!   exit 0 unless the output shows an `error:`; a command with none shown
//!   must exit 0.
//! - `nutshell serve` is started on a free port, its lines are read up to
//!   the one that says where it listens (the port printed as 8080), and it
//!   is stopped.
//! - A block that also holds other commands (`curl`, `jq`) is a session of
//!   `docs/server.md` and runs in `session.rs` against a real server.
//!
//! `NUTSHELL_BLESS=1 cargo test -p nutshell-cli --test docs` rewrites the
//! shown output of every command whose output differs with what it printed
//! (a `...` shortening is lost: put it back by hand). Commands with no output
//! shown are never given one.

mod compare;
mod markdown;
mod session;

use markdown::{Block, Shown};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a documented command may run.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(600);

/// What a documented interactive command reads from its standard input: the
/// command exactly (with a comment after two spaces), or with any arguments
/// when the second field is true.
/// (The interactive `mls character new` asks its questions in order; these
/// are the answers a newcomer types, one per line.)
const STDIN: &[(&str, bool, &str)] = &[
    (
        "nutshell mls character new",
        false,
        include_str!("character-new-answers.txt"),
    ),
    // `mls play` asks whoever controls a combatant; an empty answer takes
    // the engine's pick, so the documented fights play to their end.
    ("nutshell mls play", true, ENTER_EVERY_TIME),
];

/// Enter pressed at every prompt (more prompts than a documented fight asks).
const ENTER_EVERY_TIME: &str = concat!(
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
);

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn nutshell() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_nutshell"))
}

/// README.md and every page under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    let mut stack = vec![repo().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// A fresh folder for one page: a copy of `examples/` and a home folder.
pub struct Play {
    pub dir: tempfile::TempDir,
}

impl Default for Play {
    fn default() -> Play {
        Play::new()
    }
}

impl Play {
    pub fn new() -> Play {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&repo().join("examples"), &dir.path().join("examples"));
        std::fs::create_dir_all(dir.path().join("home/ann")).unwrap();
        Play { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A shell running `script` in the folder, as the docs' reader would.
    pub fn shell(&self, script: &str) -> Command {
        self.shell_with("sh", script)
    }

    /// `script` run by the shell `program` (`sh`, or `bash` for a session
    /// that needs `pipefail`), as [`Play::shell`].
    pub fn shell_with(&self, program: &str, script: &str) -> Command {
        let mut command = Command::new(program);
        command
            .arg("-c")
            .arg(format!("exec 2>&1\n{script}"))
            .current_dir(self.path())
            .env("PATH", path_with_nutshell())
            .env("HOME", self.path().join("home/ann"))
            .env_remove("XDG_DATA_HOME")
            .env_remove("NUTSHELL_DATA")
            .env_remove("NUTSHELL_DATABASE_URL")
            .env("NUTSHELL_LISTEN", "127.0.0.1:0")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        command
    }

    /// What the page would show: the folder's own path removed, so the
    /// home folder prints as `/home/ann`.
    pub fn shown(&self, text: &str) -> String {
        text.replace(&self.path().display().to_string(), "")
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn path_with_nutshell() -> String {
    let bin = nutshell().parent().unwrap().to_path_buf();
    let rest = std::env::var("PATH").unwrap_or_default();
    format!("{}:{rest}", bin.display())
}

/// (exit code, output) of one command, stopped after the timeout.
fn run(play: &Play, shown: &Shown) -> (Option<i32>, String) {
    let stdin = STDIN
        .iter()
        .find(|(command, any_arguments, _)| {
            shown.command.trim_end() == *command
                || shown.command.starts_with(&format!("{command}  "))
                || (*any_arguments && shown.command.starts_with(&format!("{command} ")))
        })
        .map(|(_, _, input)| *input);
    let mut child = play
        .shell(&shown.command)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(input.as_bytes()).unwrap();
    }
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        out.read_to_string(&mut text).unwrap();
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > COMMAND_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, play.shown(&reader.join().unwrap()))
}

/// `nutshell serve` as documented: its lines up to where it listens (the
/// port shown as 8080), then stopped.
fn run_serve(play: &Play, shown: &Shown) -> (Option<i32>, String) {
    let (mut child, lines, _port) = session::start_server(play, &shown.command);
    let _ = child.kill();
    let _ = child.wait();
    (Some(0), lines)
}

/// What went wrong with one command, if anything.
fn check(play: &Play, page: &Path, shown: &Shown) -> (Option<String>, Option<Vec<String>>) {
    let is_serve = shown.command.starts_with("nutshell serve");
    let (code, output) = if is_serve {
        run_serve(play, shown)
    } else {
        run(play, shown)
    };
    let actual: Vec<String> = output.lines().map(|l| l.trim_end().to_string()).collect();
    let where_ = format!(
        "{}:{}: `{}`",
        page.strip_prefix(repo()).unwrap_or(page).display(),
        shown.line,
        shown.command
    );
    let shows_error = shown.output.iter().any(|l| l.starts_with("error:"));
    let status_ok = match code {
        None => {
            return (
                Some(format!("{where_}: did not end within {COMMAND_TIMEOUT:?}")),
                None,
            );
        }
        Some(0) => !shows_error,
        Some(_) => shows_error,
    };
    if shown.output.is_empty() {
        if status_ok {
            return (None, None);
        }
        return (
            Some(format!(
                "{where_}: exit code {code:?}\n--- printed:\n{}",
                actual.join("\n")
            )),
            None,
        );
    }
    if status_ok && compare::matches(&shown.output, &actual) {
        return (None, None);
    }
    (
        Some(format!(
            "{where_}: exit code {code:?}\n--- shown:\n{}\n--- printed:\n{}",
            shown.output.join("\n"),
            actual.join("\n")
        )),
        Some(actual),
    )
}

/// Whether every command of the block is `nutshell`'s.
fn nutshell_only(block: &Block) -> bool {
    block
        .commands
        .iter()
        .all(|c| c.command.starts_with("nutshell ") || c.command == "nutshell")
}

#[test]
fn every_console_block_runs_as_shown() {
    let bless = std::env::var_os("NUTSHELL_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let (mut blocks_run, mut commands_run, mut compared, mut in_sessions) = (0, 0, 0, 0);
    let mut expected_lines = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        expected_lines += markdown::nutshell_lines(&text);
        for line in markdown::bad_closing_fences(&text) {
            failures.push(format!(
                "{}:{line}: a closing fence with text after it: the rest of the page reads as code",
                page.display()
            ));
        }
        let play = Play::new();
        let mut replacements: Vec<(std::ops::Range<usize>, Vec<String>)> = Vec::new();
        for block in markdown::console_blocks(&text) {
            if !nutshell_only(&block) {
                in_sessions += block
                    .commands
                    .iter()
                    .filter(|c| c.command.starts_with("nutshell "))
                    .count();
                continue;
            }
            blocks_run += 1;
            for shown in &block.commands {
                commands_run += 1;
                if !shown.output.is_empty() {
                    compared += 1;
                }
                let (failure, actual) = check(&play, &page, shown);
                if let Some(failure) = failure {
                    match (bless, actual) {
                        (true, Some(actual)) => {
                            replacements.push((shown.output_at.clone(), actual))
                        }
                        _ => failures.push(failure),
                    }
                }
            }
        }
        if !replacements.is_empty() {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for (at, actual) in replacements.into_iter().rev() {
                lines.splice(at, actual);
            }
            std::fs::write(&page, lines.join("\n") + "\n").unwrap();
            eprintln!("blessed {}", page.display());
        }
    }
    eprintln!(
        "docs: {blocks_run} console blocks of nutshell commands, {commands_run} commands run, \
         {compared} outputs compared; {in_sessions} nutshell commands in curl sessions (session.rs)"
    );
    assert_eq!(
        commands_run + in_sessions,
        expected_lines,
        "every `$ nutshell` line of the docs is in a console block the harness runs"
    );
    assert!(
        failures.is_empty(),
        "{} documented command(s) differ (NUTSHELL_BLESS=1 rewrites the shown output):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The lines of a child's output, read in a thread up to a line that
/// matches, with everything read so far.
pub fn read_until(
    out: impl Read + Send + 'static,
    until: impl Fn(&str) -> bool + Send + 'static,
) -> Vec<String> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            let done = until(&line);
            lines.push(line);
            if done {
                break;
            }
        }
        let _ = send.send(lines);
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("the server says where it listens within a minute")
}

/// A library example in the docs is an example program of the crate, which
/// `cargo test` builds: a `rust` block (or `rust,ignore`, on a page that is
/// also compiled as doctests, since the program reads files relative to the
/// repository) whose first line names the file
/// (`// crates/nutshell-rules/examples/check.rs`) shows that file as it is,
/// its `//!` heading left out.
#[test]
fn library_examples_in_the_docs_are_the_crates_example_programs() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if !matches!(lines[i].trim(), "```rust" | "```rust,ignore") {
                i += 1;
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].starts_with("```") {
                end += 1;
            }
            i = end + 1;
            let Some(file) = lines
                .get(start)
                .and_then(|l| l.strip_prefix("// "))
                .filter(|f| f.contains("/examples/") && f.ends_with(".rs"))
            else {
                continue;
            };
            let source = std::fs::read_to_string(repo().join(file))
                .unwrap_or_else(|e| panic!("{}: {file}: {e}", page.display()));
            let program: Vec<&str> = source
                .lines()
                .skip_while(|l| l.starts_with("//!"))
                .skip_while(|l| l.is_empty())
                .collect();
            assert_eq!(
                lines[start + 1..end].to_vec(),
                program,
                "{}: the example differs from {file}",
                page.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "library examples checked: {checked}");
}
