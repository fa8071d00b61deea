//! What the `nutshell` binary's tests do, one helper an action, so that a
//! test reads as the story it checks: run the binary ([`nutshell`],
//! [`nutshell_in`], [`run`] with a command line), take what it printed
//! ([`printed`], [`stdout_of`]) or its JSON ([`json_of`], [`odds_of`],
//! [`json_printed`]), what it says refusing ([`refusal`]), an outcome of a
//! check's odds ([`outcome`]); copy an example into a folder of its own
//! ([`folder`], [`copy_example`]); find where a server listens
//! ([`listening_address`]).

// Each test file is a crate of its own and uses a share of these.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The checkout's root, where the binary runs: the examples are
/// `examples/...` from there.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The example duel's two sides (`examples/mls/duel`), as arguments.
pub const DUEL: &str = "examples/mls/duel/knight.toml examples/mls/duel/brigand.toml";

/// The duel's first side alone.
pub const KNIGHT: &str = "examples/mls/duel/knight.toml";

/// The example skirmish's two sides (`examples/mls/skirmish`), as
/// arguments.
pub const SKIRMISH: &str = "examples/mls/skirmish/party.toml examples/mls/skirmish/goblins.toml";

/// The binary, colour off, run in the checkout's root.
pub fn nutshell() -> Command {
    let mut cmd = Command::cargo_bin("nutshell").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd.current_dir(ROOT);
    cmd
}

/// The binary run in `dir` (colour off).
pub fn nutshell_in(dir: impl AsRef<Path>) -> Command {
    let mut cmd = nutshell();
    cmd.current_dir(dir);
    cmd
}

/// Standard output and standard error of `command`, which must succeed.
#[track_caller]
pub fn printed(command: &mut Command) -> (String, String) {
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{command:?}: {err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

/// What `command` says on standard error when it refuses (exit code 2).
#[track_caller]
pub fn refusal(command: &mut Command) -> String {
    let out = command.assert().code(2).get_output().stderr.clone();
    String::from_utf8(out).unwrap()
}

/// The JSON `command` prints, which must succeed.
#[track_caller]
pub fn json_printed(command: &mut Command) -> Value {
    let (out, _) = printed(command);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The binary with the arguments of `line`, split at white space (an
/// argument holding a space is given with `nutshell().args([...])`).
pub fn run(line: &str) -> Command {
    let mut cmd = nutshell();
    cmd.args(line.split_whitespace());
    cmd
}

/// What `nutshell LINE` prints on standard output; it must succeed.
#[track_caller]
pub fn stdout_of(line: &str) -> String {
    printed(&mut run(line)).0
}

/// The JSON of `nutshell LINE --json`.
#[track_caller]
pub fn json_of(line: &str) -> Value {
    json_printed(run(line).arg("--json"))
}

/// The JSON of `nutshell odds LINE --json`.
#[track_caller]
pub fn odds_of(line: &str) -> Value {
    json_printed(
        nutshell()
            .arg("odds")
            .args(line.split_whitespace())
            .arg("--json"),
    )
}

/// The outcome named `name` among the `outcomes` of a check's or a
/// contest's odds.
#[track_caller]
pub fn outcome<'v>(json: &'v Value, name: &str) -> &'v Value {
    json["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == name)
        .unwrap_or_else(|| panic!("no outcome {name}: {json}"))
}

/// A fresh folder of its own for each call (tests run in parallel on the
/// same examples), named after `name`.
pub fn folder(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "nutshell-cli-{}-{call}-{}",
        std::process::id(),
        name.replace(['.', '/'], "-")
    ));
    // Its paths go into command lines split at white space (`run`).
    assert!(
        !dir.to_string_lossy().contains(char::is_whitespace),
        "{dir:?}: set TMPDIR to a folder without spaces"
    );
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the example `path` (under `examples/`) in a fresh folder.
pub fn copy_example(path: &str) -> PathBuf {
    let to = folder(path).join(Path::new(path).file_name().unwrap());
    std::fs::copy(Path::new(ROOT).join("examples").join(path), &to).unwrap();
    to
}

/// The text of the example `path` (under `examples/`).
pub fn example_text(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join("examples").join(path)).unwrap()
}

/// `path` as an argument.
pub fn arg(path: &Path) -> String {
    path.display().to_string()
}

/// The address (`host:port`) a starting `nutshell serve` names on its
/// standard error, whose `lines` are read up to that one.
pub fn listening_address(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> String {
    loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            return rest.split('/').next().unwrap().to_string();
        }
    }
}
