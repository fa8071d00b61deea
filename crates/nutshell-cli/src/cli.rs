//! The command line read ([`parse`]: a plain `odds` line by `odds_line`,
//! everything else by clap, an expression first read as a `roll`) and run
//! ([`run`]: each subcommand's module). The grammar itself is `cli_args`.

use crate::cli_args::{Cli, Command};
use crate::exit::Failure;
use clap::{CommandFactory, Parser};

/// Parses the command line: a plain `odds` line by its own small parser
/// ([`crate::odds_line`]), everything else by [`Cli`].
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if let Some(cli) = crate::odds_line::read(&args) {
        return Ok(cli);
    }
    Cli::try_parse_from(implied_roll(args))
}

/// `args` with `roll` put before an expression given as the first argument
/// (`nutshell 1d20+5`).
fn implied_roll(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args
        .get(1)
        .is_some_and(|first| rolls_without_subcommand(first))
    {
        args.insert(1, "roll".into());
    }
    args
}

/// The subcommands' names (and clap's `help`).
const SUBCOMMANDS: &[&str] = &[
    "roll",
    "odds",
    "check",
    "contest",
    "table",
    "mls",
    "serve",
    "verify",
    "discord",
    "completions",
    "help",
];

/// Whether the first argument is an expression to roll rather than a
/// subcommand: `nutshell 1d20+5` is `nutshell roll 1d20+5`. A word that is
/// no subcommand and no expression (`nutshell rol`) is left to clap, which
/// names the subcommand meant.
fn rolls_without_subcommand(first: &std::ffi::OsStr) -> bool {
    let Some(first) = first.to_str() else {
        return false;
    };
    if SUBCOMMANDS.contains(&first) {
        return false;
    }
    let mut chars = first.chars();
    match chars.next() {
        None => false,
        // `-1d4+5`; a flag is letters after the dash.
        Some('-') => chars.next().is_some_and(|c| c.is_ascii_digit() || c == '('),
        Some(_) => {
            first.chars().any(|c| c.is_ascii_digit())
                || first.starts_with("[[")
                || nutshell_dice::Expression::parse(first).is_ok()
        }
    }
}

/// Longest expression text (in bytes) run on the main thread: it nests at
/// most this deep, which the main thread's stack (8 MiB on Linux, 1 MiB at
/// the least on the platforms Rust supports) holds even in a debug build.
const MAIN_STACK_EXPRESSION_BYTES: usize = 64;

/// Whether `cli` is an `odds` of a short expression (all it reads), which
/// the main thread's stack holds (see `main`).
pub fn fits_main_stack(cli: &Cli) -> bool {
    match &cli.command {
        Command::Odds(args) => {
            args.more.is_empty() && args.expression.len() <= MAIN_STACK_EXPRESSION_BYTES
        }
        _ => false,
    }
}

pub fn run(cli: Cli) -> Result<(), Failure> {
    let limits = cli.limits.limits();
    crate::files::set_max_bytes(cli.limits.max_file_size);
    match cli.command {
        Command::Roll(args) => crate::roll_cmd::run(&args, &limits),
        Command::Odds(args) => crate::odds_cmd::run(&args, &limits),
        Command::Check(args) => crate::rules_cmd::check(&args),
        Command::Contest(args) => crate::rules_cmd::contest(&args),
        Command::Table(args) => crate::rules_cmd::table(&args),
        Command::Mls(command) => crate::mls_cmd::run(&command, &limits),
        Command::Serve(args) => crate::server_cmd::serve(&args, &limits),
        Command::Verify(args) => crate::server_cmd::verify(&args, &limits),
        Command::Discord(command) => crate::discord_cmd::run(&command),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "nutshell",
                &mut std::io::stdout(),
            );
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_name<'a>(line: &[&'a str]) -> Vec<&'a str> {
        std::iter::once("nutshell")
            .chain(line.iter().copied())
            .collect()
    }

    /// The small `odds` parser reads every line it takes as the full one
    /// does, and leaves to the full one whatever it does not take (help,
    /// version, mistakes), so results and messages are the full parser's.
    #[test]
    fn odds_parses_as_with_the_full_parser() {
        let lines: &[&[&str]] = &[
            &["odds", "3d6"],
            &["odds", "4d6kh3", "--json"],
            &["odds", "10d10!kh5", "--json", "--max-explosions", "9"],
            &[
                "odds",
                "--max-work",
                "1000000000000",
                "1000d6kh500",
                "--json",
            ],
            &["odds", "1d4-5", "--at-least", "-2", "--at-most", "3"],
            &["odds", "100d6!", "--simulate", "1000", "--seed", "7"],
            &["odds", "20d20!", "--tail", "1e-15", "--all"],
            &["odds", "20d20!", "--tail", "5e-13", "--max-nesting", "1000"],
            &["--max-dice", "50", "odds", "3d6"],
            &["--max-length", "9", "odds", "--max-outcomes", "7", "3d6"],
            &["odds", "odds"],
            &["odds", "3d6", "--at-least=3"],
            &["odds", "--", "-1d6"],
            &["odds", "-1d6"],
            &["odds", "-1d4+5", "--json"],
            &["odds", "3d6", "--max-file-size", "10", "--max-dice", "0"],
            &["odds", "3d6", "--at-least", "+3"],
            &["odds", "3d6", "--max-work", "007"],
            &["roll", "odds"],
            &["odds", "3d6", "4d6"],
        ];
        for line in lines {
            let args = with_name(line);
            let full = Cli::try_parse_from(&args).expect("valid");
            let small = parse(&args).expect("valid");
            assert_eq!(format!("{small:?}"), format!("{full:?}"), "{line:?}");
            // The plain lines are the small parser's own.
            let os: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            let odd = [
                "--simulate",
                "--at-least=3",
                "--",
                "+3",
                "roll",
                "-1d6",
                "-1d4+5",
                "4d6",
            ];
            if !line.iter().any(|w| odd.contains(w)) {
                assert!(crate::odds_line::read(&os).is_some(), "{line:?}");
            }
        }
        for wrong in [
            &["odds"][..],
            &["odds", "3d6", "--bogus"],
            &["odds", "--help"],
            &["odds", "3d6", "--seed", "2"],
            &["--version"],
            &["odds", "3d6", "--simulate", "0"],
            &["odds", "3d6", "--json", "--json"],
            &["--json", "odds", "3d6"],
            &["odds", "3d6", "--max-nesting", "0"],
            &["odds", "3d6", "--max-nesting", "1001"],
            &["odds", "3d6", "--max-explosions", "99999999999"],
            &["odds", "3d6", "--max-dice", "-1"],
            &["odds", "3d6", "--tail", "2"],
            &["odds", "3d6", "--at-least"],
            &["odds", "3d6", "--at-least", "1.5"],
            &["odds", "3d6", "--at-most", "3", "--at-most", "4"],
        ] {
            let args = with_name(wrong);
            let full = Cli::try_parse_from(&args).expect_err("refused");
            let ours = parse(&args).expect_err("refused");
            assert_eq!(ours.kind(), full.kind(), "{wrong:?}");
            assert_eq!(ours.to_string(), full.to_string(), "{wrong:?}");
        }
    }

    /// Every arrangement of the flags the small parser reads, with values
    /// plain and odd, gives what the full parser gives, or is left to it.
    #[test]
    fn odds_lines_of_every_shape_parse_as_with_the_full_parser() {
        let flags: &[&[&str]] = &[
            &["--json"],
            &["--all"],
            &["--at-least", "-4"],
            &["--at-most", "12"],
            &["--max-explosions", "3"],
            &["--tail", "0"],
            &["--max-work", "18446744073709551615"],
            &["--max-work", "18446744073709551616"],
            &["--max-nesting", "2"],
            &["--max-dice", "x"],
            &["--json"],
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..400 {
            let mut line: Vec<&str> = Vec::new();
            let mut odds_at = None;
            for _ in 0..5 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let pick = (state % (flags.len() as u64 + 2)) as usize;
                match pick {
                    p if p < flags.len() => line.extend_from_slice(flags[p]),
                    p if p == flags.len() && odds_at.is_none() => {
                        odds_at = Some(line.len());
                        line.push("odds");
                    }
                    _ => line.push("2d6+1"),
                }
            }
            if odds_at.is_none() {
                line.insert(0, "odds");
            }
            let args = with_name(&line);
            let full = implied_roll(args.iter().map(Into::into).collect());
            match (Cli::try_parse_from(full), parse(&args)) {
                (Ok(full), Ok(small)) => {
                    assert_eq!(format!("{small:?}"), format!("{full:?}"), "{line:?}")
                }
                (Err(full), Err(ours)) => {
                    assert_eq!(ours.to_string(), full.to_string(), "{line:?}")
                }
                (full, small) => panic!("{line:?}: full {full:?}, small {small:?}"),
            }
        }
    }
}
