//! `nutshell mls character new|check|show`, `nutshell mls advance`,
//! `nutshell mls behave` and `nutshell mls time`: MLS characters. The rules
//! are in `nutshell_mls::character`; this file holds the flags, `check` and
//! `show`; `character_new` builds a character, `character_play` advances it.

use crate::exit::Failure;
use crate::source_args::SourceArgs;
use clap::{Args, Subcommand, ValueEnum};
use nutshell_mls::character::costs::Kind;
use nutshell_mls::character::generation::{self, Choices};
use nutshell_mls::character::ledger::Entry;
use nutshell_mls::character::personality::{PAIRS, TraitId};
use nutshell_mls::character::primary::ALL;
use nutshell_mls::character::validate::{parse_sheet, validate};
use nutshell_mls::sheet::Combatant;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum CharacterCommand {
    /// Build a character: step by step from stdin, or from flags, or from a file of choices
    New(Box<NewArgs>),
    /// Check a character sheet against every cost and limit; explain each violation with its rule
    Check(CheckArgs),
    /// Print a character sheet for reading
    Show(ShowArgs),
}

#[derive(Debug, Clone, Args)]
pub struct NewArgs {
    /// Read the choices from a TOML file (docs/mls/characters.md) instead of asking
    #[arg(long, value_name = "FILE", conflicts_with = "name")]
    pub from: Option<PathBuf>,
    /// The name: with it, the choices come from these flags instead of questions
    #[arg(long)]
    pub name: Option<String>,
    /// Race: human, elf, halfling, dwarf, gnome, ork, goblin
    #[arg(long, default_value = "human")]
    pub race: String,
    /// Starting age in years (the race's base age when left out)
    #[arg(long)]
    pub age: Option<String>,
    /// A primary trait: NAME=VALUE (strength=3); repeat
    #[arg(long = "trait", value_name = "NAME=VALUE")]
    pub traits: Vec<String>,
    /// The occupation: NAME=BASE[:LEVEL] (soldier=strength+dexterity)
    #[arg(long, value_name = "NAME=BASE[:LEVEL]")]
    pub occupation: Option<String>,
    /// A secondary trait: NAME=BASE:KIND[:LEVEL] (sword=dexterity:trained:2); repeat
    #[arg(long, value_name = "NAME=BASE:KIND[:LEVEL]")]
    pub secondary: Vec<String>,
    /// A negative trait: NAME=LEVEL[:BASE] (phobia=1); repeat
    #[arg(long, value_name = "NAME=LEVEL[:BASE]")]
    pub negative: Vec<String>,
    /// A personality trait: NAME=VALUE or NAME=roll (valorous=16); repeat
    #[arg(long, value_name = "NAME=VALUE|roll")]
    pub personality: Vec<String>,
    /// Fate Points to buy at 5 CPs each
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub buy_fate_points: i64,
    /// Roll TMP too (for those that use magic)
    #[arg(long)]
    pub magic: bool,
    /// Write the sheet here (refuses to overwrite) instead of printing it
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Character sheets (TOML)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print a JSON object per file
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// A character sheet (TOML)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the whole ledger too
    #[arg(long)]
    pub ledger: bool,
    /// Print a JSON object: every field and score (with --ledger, the ledger)
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AdventureArg {
    Minor,
    Average,
    Major,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RoleArg {
    Minor,
    Major,
}

#[derive(Debug, Clone, Args)]
pub struct AdvanceArgs {
    /// A character sheet (TOML)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// An adventure completed: its CPs come first
    #[arg(long, value_enum, requires = "role")]
    pub adventure: Option<AdventureArg>,
    /// The character's role in the adventure
    #[arg(long, value_enum, requires = "adventure")]
    pub role: Option<RoleArg>,
    /// A trait checked during the adventure (secondary or personality); rolled after the
    /// sheet's own pending checks, in the order given; repeat
    #[arg(long, value_name = "TRAIT")]
    pub check: Vec<String>,
    /// Age increments of the race to pass (a year for a human, 9 months for an Ork, 4 years
    /// for an Elf): CPs, training ending, ageing
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000), conflicts_with = "years")]
    pub increments: u32,
    /// Years to pass: a whole number of the race's increments (an Elf ages 4 years an
    /// increment, so --years 5 is refused)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub years: Option<u32>,
    /// The primary trait to reduce when age demands it, in order; repeat
    #[arg(long, value_name = "TRAIT")]
    pub reduce: Vec<String>,
    /// Spend CPs, after the increments: secondary:NAME, negative:NAME, personality:NAME,
    /// train:TRAIT, money:N, prayer:N; repeat, in order
    #[arg(long, value_name = "KIND:WHAT")]
    pub spend: Vec<String>,
    /// Save the sheet back to FILE (otherwise only the new ledger entries are printed)
    #[arg(long)]
    pub write: bool,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print the new ledger entries as JSON
    #[arg(long)]
    pub json: bool,
}

// The dice and `--json` flags are written out in each command (as
// `advance` does), so that each one's help says what its JSON holds.
#[derive(Debug, Clone, Args)]
pub struct BehaveArgs {
    /// A character sheet: --trait then names one of its personality traits
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The trait's value (16 or more is Noticeable), or its name with FILE
    #[arg(long = "trait", value_name = "N|NAME")]
    pub trait_: String,
    /// With FILE: save the check on the opposing trait into the sheet
    #[arg(long, requires = "file")]
    pub write: bool,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print a JSON object
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct TimeArgs {
    /// The action (open-door, open-door-quietly, close-door, close-door-quietly,
    /// move-and-search, search, cast-offensive, cast-other, climb-ladder, switch); none lists all
    pub action: Option<String>,
    /// Magic points expended, or half metres climbed
    #[arg(long, value_name = "N")]
    pub amount: Option<i64>,
    /// Print JSON (the table as a list, or one action's cost as an object)
    #[arg(long)]
    pub json: bool,
}

/// The most violations `check` prints for a sheet; the rest are counted.
const MAX_SHOWN: usize = 10;

pub(crate) fn bad(e: nutshell_mls::FightError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

pub(crate) fn read(path: &Path) -> Result<String, Failure> {
    crate::files::read_text(path)
}

pub(crate) fn load(path: &Path) -> Result<(Combatant, String), Failure> {
    let text = read(path)?;
    let shown = path.display().to_string();
    let sheet = parse_sheet(&shown, &text).map_err(|e| {
        // A file of choices is not a sheet: say what it is for.
        if Choices::parse(&shown, &text).is_ok() {
            Failure::bad_input(format!(
                "error: {shown} is a file of choices, not a character sheet: make the sheet with `nutshell mls character new --from {shown} --out SHEET.toml`"
            ))
        } else {
            bad(e)
        }
    })?;
    Ok((sheet, text))
}

pub fn run(command: &CharacterCommand) -> Result<(), Failure> {
    match command {
        CharacterCommand::New(args) => crate::character_new::new(args),
        CharacterCommand::Check(args) => check(args),
        CharacterCommand::Show(args) => show(args),
    }
}

// ---------------------------------------------------------------- check

fn check(args: &CheckArgs) -> Result<(), Failure> {
    let mut out = anstream::stdout().lock();
    let mut failed = Vec::new();
    for path in &args.files {
        let shown = path.display().to_string();
        let (sheet, text) = match load(path) {
            Ok(x) => x,
            Err(f) => {
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({"file": shown, "ok": false, "error": f.message.trim_start_matches("error: ")})
                    )?;
                }
                failed.push(f.message);
                continue;
            }
        };
        let violations = validate(&sheet, Some(&text));
        if args.json {
            let list: Vec<_> = violations
                .iter()
                .map(|v| json!({"field": v.field, "line": v.line, "problem": v.problem, "rule": v.rule}))
                .collect();
            writeln!(
                out,
                "{}",
                json!({"file": shown, "ok": violations.is_empty(), "violations": list})
            )?;
        } else if violations.is_empty() {
            let ch = sheet
                .character
                .as_ref()
                .map(|c| (c.age, c.race.row().name, c.cps));
            if let Some((age, race, cps)) = ch {
                writeln!(
                    out,
                    "{shown}: ok: {}, {race} aged {age}, {cps} CP(s) unspent",
                    crate::shown::text(&sheet.name)
                )?;
            }
        }
        if !violations.is_empty() {
            // A screenful at most: the first violations, then a count of the
            // rest (`--json` lists them all).
            let mut m = format!("error: {shown}: {} rule(s) broken", violations.len());
            for v in violations.iter().take(MAX_SHOWN) {
                m.push_str(&format!("\n  {shown}: {v}"));
            }
            if violations.len() > MAX_SHOWN {
                m.push_str(&format!(
                    "\n  ... and {} more (--json lists every one)",
                    violations.len() - MAX_SHOWN
                ));
            }
            failed.push(m);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::bad_input(failed.join("\n")))
    }
}

// ---------------------------------------------------------------- show

fn show(args: &ShowArgs) -> Result<(), Failure> {
    let (sheet, _) = load(&args.file)?;
    let ch = sheet
        .character
        .as_ref()
        .ok_or_else(|| Failure::bad_input("error: no [character] table"))?;
    let parsed = ch
        .parsed()
        .map_err(|(f, e)| Failure::bad_input(format!("error: {f}: {e}")))?;
    if args.json {
        let value = crate::character_json::sheet(&sheet, ch, &parsed, args.ledger);
        let mut out = anstream::stdout().lock();
        writeln!(out, "{value}")?;
        return Ok(());
    }
    let race = ch.race;
    let mut o = String::new();
    let w = &mut o;
    use std::fmt::Write as _;
    let _ = writeln!(w, "{}: {}, aged {}", sheet.name, race.row().name, ch.age);
    let _ = writeln!(
        w,
        "THP {}  TMP {}  Fate Points {}  CPs unspent {}",
        sheet.thp,
        ch.tmp.map(|t| t.to_string()).unwrap_or_else(|| "-".into()),
        sheet.fate_points,
        ch.cps
    );
    if ch.florins != 0 || ch.favour != 0 {
        let _ = writeln!(w, "florins {}  favour points {}", ch.florins, ch.favour);
    }
    let effective = ch.effective_traits(&sheet.traits);
    let _ = writeln!(w, "\nPrimary traits (racial average {}):", race.average());
    for p in ALL {
        let v = p.get(&sheet.traits);
        let e = p.get(&effective);
        let trained = if e != v {
            format!("  trained up to {e}")
        } else {
            String::new()
        };
        let _ = writeln!(
            w,
            "  {:<10} {v:>2}  (RAv{:+}){trained}",
            p.name(),
            v - race.average()
        );
    }
    let _ = writeln!(w, "\nOccupation (package skill):");
    let ob = parsed.occupation.value(&effective);
    let _ = writeln!(
        w,
        "  {:<16} {:>2}  (base {} = {ob}), {}",
        ch.occupation.name,
        ob + ch.occupation.level,
        ch.occupation.base,
        generation::level_name(ch.occupation.level)
    );
    if !ch.secondary.is_empty() {
        let _ = writeln!(w, "\nSecondary traits:");
        for (k, s) in &ch.secondary {
            let b = parsed.secondary[k].value(&effective);
            let score = match s.effective() {
                Some(l) => format!("{:>2}", b + l),
                None => " -".into(),
            };
            let how = match s.level {
                Some(l) => generation::level_name(l),
                None => match s.kind {
                    Kind::Trained => "not acquired: not available".into(),
                    Kind::Natural => "not acquired: base-2".into(),
                    Kind::Inherent => "not acquired: base".into(),
                },
            };
            let _ = writeln!(
                w,
                "  {k:<16} {score}  ({}, base {} = {b}), {how}",
                generation::kind_name(s.kind),
                s.base
            );
        }
    }
    if !ch.negative.is_empty() {
        let _ = writeln!(w, "\nNegative traits:");
        for (k, n) in &ch.negative {
            let base = parsed.negative[k].as_ref().map(|b| b.value(&effective));
            match base {
                Some(b) => {
                    let _ = writeln!(
                        w,
                        "  {k:<16} {:>2}  (base {b}, {})",
                        b + n.level,
                        generation::level_name(n.level)
                    );
                }
                None => {
                    let _ = writeln!(w, "  {k:<16} {}", generation::level_name(n.level));
                }
            }
        }
    }
    let _ = writeln!(w, "\nPersonality (16 or more is Noticeable: *):");
    for (pair, (a, b)) in PAIRS.iter().enumerate() {
        let va = parsed.personality.get(TraitId { pair, side: 0 });
        let mark = |v: i64| if v >= 16 { "*" } else { " " };
        let _ = writeln!(
            w,
            "  {a:>12} {va:>2}{} / {:<2}{} {b}",
            mark(va),
            20 - va,
            mark(20 - va)
        );
    }
    if let Some(t) = &ch.training {
        let _ = writeln!(
            w,
            "\nTrained up: {} since age {} (one increment)",
            t.primary, t.since
        );
    }
    if !ch.checks.is_empty() {
        let _ = writeln!(
            w,
            "\nChecked, to roll after the adventure: {}",
            ch.checks.join(", ")
        );
    }
    let _ = writeln!(w, "\nLedger: {} entries", ch.ledger.len());
    if args.ledger {
        for e in &ch.ledger {
            let _ = writeln!(w, "  {}", entry_line(e));
        }
    }
    let mut out = anstream::stdout().lock();
    // The sheet quotes names and the ledger's words: shown escaped.
    write!(out, "{}", crate::shown::lines(&o))?;
    Ok(())
}

pub(crate) fn entry_line(e: &Entry) -> String {
    let roll = e
        .roll
        .as_ref()
        .map(|r| format!(" [{r}]"))
        .unwrap_or_default();
    let step = serde_json::to_value(e.step)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!(
        "age {:<4} {:<10} {:>+4} CP  {}{roll}",
        e.age.to_string(),
        step,
        e.cps,
        e.change
    )
}
