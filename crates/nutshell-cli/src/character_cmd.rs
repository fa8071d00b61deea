//! `nutshell mls character new|check|show`, `nutshell mls advance`,
//! `nutshell mls behave` and `nutshell mls time`: MLS characters. The rules
//! are in `nutshell_mls::character`; this file reads flags and stdin and
//! prints.

use crate::exit::Failure;
use crate::source_args::SourceArgs;
use clap::{Args, Subcommand, ValueEnum};
use nutshell_mls::character::costs::{self, Kind, rules};
use nutshell_mls::character::generation::{self, Choices, PersonalityChoice};
use nutshell_mls::character::ledger::Entry;
use nutshell_mls::character::personality::{PAIRS, TraitId};
use nutshell_mls::character::primary::{ALL, Base, Primary};
use nutshell_mls::character::race::{RACES, Race};
use nutshell_mls::character::validate::{parse_sheet, to_toml, validate};
use nutshell_mls::character::{Age, Negative, Occupation, Secondary, advancement, behaviour, time};
use nutshell_mls::dice::Dice;
use nutshell_mls::sheet::{Combatant, Traits, Weapon};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
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
}

fn bad(e: nutshell_mls::FightError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::bad_input(format!("error: {}: {e}", path.display())))
}

fn load(path: &Path) -> Result<(Combatant, String), Failure> {
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
        CharacterCommand::New(args) => new(args),
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
                    sheet.name
                )?;
            }
        }
        if !violations.is_empty() {
            let mut m = format!("error: {shown}: {} rule(s) broken", violations.len());
            for v in &violations {
                m.push_str(&format!("\n  {shown}: {v}"));
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
    write!(out, "{o}")?;
    Ok(())
}

fn entry_line(e: &Entry) -> String {
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

// ---------------------------------------------------------------- new

fn new(args: &NewArgs) -> Result<(), Failure> {
    if let Some(out) = &args.out
        && out.exists()
    {
        return Err(Failure::bad_input(format!(
            "error: {} exists: choose another file (a sheet is never overwritten by `new`)",
            out.display()
        )));
    }
    let mut source = args.source.source()?;
    let choices = if let Some(path) = &args.from {
        let text = read(path)?;
        Choices::parse(&path.display().to_string(), &text).map_err(bad)?
    } else if args.name.is_some() {
        choices_from_flags(args)?
    } else {
        let stdin = std::io::stdin();
        let echo = !std::io::IsTerminal::is_terminal(&stdin);
        let mut ask = Asker {
            input: stdin.lock(),
            err: anstream::stderr(),
            echo,
        };
        interactive(&mut ask)?
    };
    let mut dice = Dice::new(source.dice());
    let sheet = generation::generate(&choices, &mut dice).map_err(bad)?;
    let text = to_toml(&sheet).map_err(bad)?;
    // No lines: the sheet is not written when it breaks a rule, so a line of it
    // would point at nothing the player has seen; the field names the choice.
    let violations = validate(&sheet, None);
    if !violations.is_empty() {
        let mut m = format!("error: the character breaks {} rule(s):", violations.len());
        for v in &violations {
            m.push_str(&format!("\n  {v}"));
        }
        return Err(Failure::bad_input(m));
    }
    // Say what was rolled.
    if let Some(ch) = &sheet.character {
        for e in ch.ledger.iter().filter(|e| e.roll.is_some()) {
            let _ = writeln!(
                anstream::stderr(),
                "{} [{}]",
                e.change,
                e.roll.as_deref().unwrap_or("")
            );
        }
    }
    // The sheet must also be readable as a combatant.
    nutshell_mls::sheet::Side::parse("the new sheet", &text).map_err(bad)?;
    let header = "# An MLS character sheet (docs/mls/characters.md); it also fights: nutshell mls fight THIS OTHER\n";
    match &args.out {
        Some(path) => {
            std::fs::write(path, format!("{header}{text}"))
                .map_err(|e| Failure::other(format!("error: {}: {e}", path.display())))?;
            let _ = writeln!(anstream::stderr(), "wrote {}", path.display());
        }
        None => {
            let mut out = anstream::stdout().lock();
            write!(out, "{header}{text}")?;
        }
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

fn split_kv<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str), Failure> {
    text.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| Failure::bad_input(format!("error: --{flag} {text}: write NAME=VALUE")))
}

fn int(flag: &str, text: &str) -> Result<i64, Failure> {
    text.trim().parse().map_err(|_| {
        Failure::bad_input(format!("error: --{flag}: \"{text}\" is not a whole number"))
    })
}

fn kind(text: &str) -> Option<Kind> {
    match text.trim().to_ascii_lowercase().as_str() {
        "trained" | "t" => Some(Kind::Trained),
        "natural" | "n" => Some(Kind::Natural),
        "inherent" | "i" => Some(Kind::Inherent),
        _ => None,
    }
}

fn choices_from_flags(args: &NewArgs) -> Result<Choices, Failure> {
    let race = Race::parse(&args.race).ok_or_else(|| {
        Failure::bad_input(format!("error: --race {}: not a race of the table (human, elf, halfling, dwarf, gnome, ork, goblin)", args.race))
    })?;
    let age = match &args.age {
        Some(a) => Age::parse(a).map_err(|e| Failure::bad_input(format!("error: --age: {e}")))?,
        None => Age(race.row().base_age),
    };
    let mut traits = Traits::default();
    for t in &args.traits {
        let (k, v) = split_kv("trait", t)?;
        let p = Primary::parse(k).ok_or_else(|| {
            Failure::bad_input(format!(
                "error: --trait {t}: \"{k}\" is not a primary trait"
            ))
        })?;
        *p.get_mut(&mut traits) = int("trait", v)?;
    }
    let occupation = match &args.occupation {
        Some(o) => {
            let (name, rest) = split_kv("occupation", o)?;
            let (base, level) = match rest.split_once(':') {
                Some((b, l)) => (b, int("occupation", l)?),
                None => (rest, 0),
            };
            Occupation {
                name: name.into(),
                base: base.into(),
                level,
            }
        }
        None => {
            return Err(Failure::bad_input(
                "error: --occupation NAME=BASE is needed: \"Choose Occupation, which acts as a Package Skill\" (mls, Character Generation, Occupation)",
            ));
        }
    };
    let mut secondary = BTreeMap::new();
    for s in &args.secondary {
        let (name, rest) = split_kv("secondary", s)?;
        let parts: Vec<&str> = rest.split(':').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(Failure::bad_input(format!(
                "error: --secondary {s}: write NAME=BASE:KIND[:LEVEL]"
            )));
        }
        let k = kind(parts[1]).ok_or_else(|| {
            Failure::bad_input(format!(
                "error: --secondary {s}: \"{}\" is not trained, natural or inherent",
                parts[1]
            ))
        })?;
        let level = match parts.get(2) {
            Some(l) => Some(int("secondary", l)?),
            None => Some(0),
        };
        if secondary.contains_key(name) {
            return Err(Failure::bad_input(format!(
                "error: --secondary {s}: {name} was already given; give each secondary trait once"
            )));
        }
        secondary.insert(
            name.to_string(),
            Secondary {
                kind: k,
                base: parts[0].into(),
                level,
            },
        );
    }
    let mut negative = BTreeMap::new();
    for n in &args.negative {
        let (name, rest) = split_kv("negative", n)?;
        let (level, base) = match rest.split_once(':') {
            Some((l, b)) => (int("negative", l)?, Some(b.to_string())),
            None => (int("negative", rest)?, None),
        };
        if negative.contains_key(name) {
            return Err(Failure::bad_input(format!(
                "error: --negative {n}: {name} was already given; give each negative trait once"
            )));
        }
        if secondary.contains_key(name) {
            return Err(Failure::bad_input(format!(
                "error: --negative {n}: {name} is a secondary trait too; a trait is either secondary or negative"
            )));
        }
        negative.insert(name.to_string(), Negative { base, level });
    }
    let mut personality = BTreeMap::new();
    for p in &args.personality {
        let (name, v) = split_kv("personality", p)?;
        let choice = if v.eq_ignore_ascii_case("roll") {
            PersonalityChoice::Roll("roll".into())
        } else {
            PersonalityChoice::Value(int("personality", v)?)
        };
        if personality
            .insert(name.to_ascii_lowercase(), choice)
            .is_some()
        {
            return Err(Failure::bad_input(format!(
                "error: --personality {p}: {name} was already given; give each personality trait once"
            )));
        }
    }
    Ok(Choices {
        name: args.name.clone().unwrap_or_default(),
        race,
        age,
        traits,
        occupation,
        secondary,
        negative,
        personality,
        fate_points_bought: args.buy_fate_points,
        magic: args.magic,
        weapons: Vec::new(),
        armour: Vec::new(),
        shield: None,
        tactic: Default::default(),
    })
}

/// Questions on stderr, answers from stdin.
struct Asker<R: BufRead, W: Write> {
    input: R,
    err: W,
    /// Echo each answer: when the answers are piped, so a transcript reads
    /// like a dialogue; a terminal has echoed them already.
    echo: bool,
}

impl<R: BufRead, W: Write> Asker<R, W> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.err, "{text}");
    }

    /// Asks until `parse` accepts the answer; an empty answer is `default`.
    fn ask<T>(
        &mut self,
        question: &str,
        default: Option<&str>,
        mut parse: impl FnMut(&str) -> Result<T, String>,
    ) -> Result<T, Failure> {
        loop {
            match default {
                Some(d) => {
                    let _ = write!(self.err, "{question} [{d}]: ");
                }
                None => {
                    let _ = write!(self.err, "{question}: ");
                }
            }
            let _ = self.err.flush();
            let mut line = String::new();
            let n = self.input.read_line(&mut line)?;
            if n == 0 {
                let _ = writeln!(self.err);
                return Err(Failure::bad_input(format!(
                    "error: the answers ended at the question \"{question}\""
                )));
            }
            let mut answer = line.trim().to_string();
            if answer.is_empty()
                && let Some(d) = default
            {
                answer = d.to_string();
            }
            // Echo piped answers so a transcript reads like a dialogue.
            if self.echo {
                let _ = writeln!(self.err, "{answer}");
            }
            match parse(&answer) {
                Ok(v) => return Ok(v),
                Err(why) => self.say(&format!("  refused: {why}")),
            }
        }
    }
}

fn primary_cost_left(race: Race, age: Age, traits: &Traits, spent_other: i64) -> i64 {
    let start = generation::budget(race, age).unwrap_or(0);
    let primary: i64 = ALL
        .iter()
        .filter_map(|p| costs::primary(p.get(traits) - race.average()))
        .sum();
    start - primary - spent_other
}

fn interactive<R: BufRead, W: Write>(a: &mut Asker<R, W>) -> Result<Choices, Failure> {
    a.say("A new MLS character (mls, Character Generation). Press Enter to take the [default].");
    let name = a.ask("Name", None, |s| {
        if s.is_empty() {
            Err("a name is needed".into())
        } else {
            Ok(s.to_string())
        }
    })?;
    let races: Vec<&str> = RACES.iter().map(|r| r.name).collect();
    a.say(&format!("Races: {}", races.join(", ")));
    let race = a.ask("Race", Some("human"), |s| Race::parse(s).ok_or_else(|| format!("\"{s}\" is not a race of the table (human, elf, halfling, dwarf, gnome, ork, goblin)")))?;
    let row = race.row();
    let (young, old) = row.start_ages();
    let age = a.ask(
        &format!(
            "Age ({} to {}, in steps of {} months)",
            Age(young),
            Age(old),
            row.increment
        ),
        Some(&Age(row.base_age).to_string()),
        |s| {
            let age = Age::parse(s)?;
            generation::budget(race, age)?;
            Ok(age)
        },
    )?;
    let start = generation::budget(race, age).unwrap_or(0);
    a.say(&format!("{start} CPs to spend. {}", rules::BUDGET));
    // Primary traits.
    let mut traits;
    loop {
        traits = Traits::default();
        a.say(&format!(
            "Primary traits, racial average {}: +1 costs 2 CPs, +2 costs 5; -1 yields 3, -2 yields 7.",
            race.average()
        ));
        for p in ALL {
            let left = primary_cost_left(race, age, &traits, 0);
            let rav = race.average();
            let v = a.ask(
                &format!("{} ({left} CPs left)", p.name()),
                Some(&rav.to_string()),
                |s| {
                    let v: i64 = s
                        .parse()
                        .map_err(|_| format!("\"{s}\" is not a whole number"))?;
                    if v > rav + 2 || v < rav - 2 {
                        return Err(format!(
                            "{v} is outside {}..{}: {}",
                            rav - 2,
                            rav + 2,
                            rules::LIMIT_PRIMARY
                        ));
                    }
                    Ok(v)
                },
            )?;
            *p.get_mut(&mut traits) = v;
        }
        let at2 = generation::at_plus_two(race, &traits).len() as i64;
        let allowed = generation::plus_two_allowed(race, age, &traits);
        let left = primary_cost_left(race, age, &traits, 0);
        if at2 > allowed {
            a.say(&format!(
                "  refused: {at2} traits at +2, {allowed} allowed: {}. Again:",
                rules::PLUS_TWO
            ));
        } else if left < 0 {
            a.say(&format!(
                "  refused: the traits cost {} CPs more than the {start} there are: {}. Again:",
                -left,
                rules::BUDGET
            ));
        } else {
            break;
        }
    }
    let mut spent = 0;
    // Negative traits.
    let mut negative = BTreeMap::new();
    a.say("Negative traits yield 1 CP at base, 3 at +1, 6 at +2, 10 at +3, 15 at +4 (empty name to go on).");
    loop {
        let n = a.ask("Negative trait", Some(""), |s| Ok(s.to_string()))?;
        if n.is_empty() {
            break;
        }
        let level = a.ask("  level above base (0..4)", Some("0"), |s| {
            let l: i64 = s
                .parse()
                .map_err(|_| format!("\"{s}\" is not a whole number"))?;
            costs::negative(l)
                .map(|_| l)
                .ok_or_else(|| format!("base{l:+}: {}", rules::LIMIT_SECONDARY))
        })?;
        spent -= costs::negative(level).unwrap_or(0);
        negative.insert(n, Negative { base: None, level });
    }
    // Occupation.
    let left = |spent: i64, traits: &Traits| primary_cost_left(race, age, traits, spent);
    a.say(&format!("Occupation: a package skill at base, double the cost of a skill (2 CPs at base). {} CPs left.", left(spent, &traits)));
    let oname = a.ask("Occupation", None, |s| {
        if s.is_empty() {
            Err(rules::OCCUPATION.to_string())
        } else {
            Ok(s.to_string())
        }
    })?;
    let obase = a.ask(
        "  its base (a trait, 2-trait, or trait+trait averaged)",
        None,
        |s| Base::parse(s).map(|_| s.to_string()),
    )?;
    let l0 = left(spent, &traits);
    let olevel = a.ask(
        "  level above base (0..4; costs 2, 6, 12, 20, 30)",
        Some("0"),
        |s| {
            let l: i64 = s
                .parse()
                .map_err(|_| format!("\"{s}\" is not a whole number"))?;
            let c = costs::occupation(l)
                .ok_or_else(|| format!("base{l:+}: {}", rules::LIMIT_SECONDARY))?;
            if c > l0 {
                return Err(format!("costs {c} CPs, {l0} left: {}", rules::BUDGET));
            }
            Ok(l)
        },
    )?;
    spent += costs::occupation(olevel).unwrap_or(0);
    // Secondary traits.
    let mut secondary = BTreeMap::new();
    a.say("Secondary traits cost 1 CP at base, 3 at +1, 6 at +2, 10 at +3, 15 at +4; Inherent ones 1 less (empty name to go on).");
    loop {
        let n = a.ask(
            &format!("Secondary trait ({} CPs left)", left(spent, &traits)),
            Some(""),
            |s| {
                if s == oname {
                    Err("that is the occupation".into())
                } else {
                    Ok(s.to_string())
                }
            },
        )?;
        if n.is_empty() {
            break;
        }
        let k = a.ask("  trained, natural or inherent", Some("trained"), |s| {
            kind(s).ok_or_else(|| format!("\"{s}\": trained, natural or inherent"))
        })?;
        let base = a.ask("  its base", None, |s| {
            Base::parse(s).map(|_| s.to_string())
        })?;
        let l0 = left(spent, &traits);
        let level = a.ask("  level above base (0..4)", Some("0"), |s| {
            let l: i64 = s
                .parse()
                .map_err(|_| format!("\"{s}\" is not a whole number"))?;
            let c = costs::secondary(k, l)
                .ok_or_else(|| format!("base{l:+}: {}", rules::LIMIT_SECONDARY))?;
            if c > l0 {
                return Err(format!(
                    "costs {c} CPs, {l0} left: {}",
                    rules::SECONDARY_COST
                ));
            }
            Ok(l)
        })?;
        spent += costs::secondary(k, level).unwrap_or(0);
        secondary.insert(
            n,
            Secondary {
                kind: k,
                base,
                level: Some(level),
            },
        );
    }
    // Personality.
    a.say("Personality: for each pair give the first trait 5..15 (the other is 20 minus it), 16 or 4 for a 16/4 pair (up to 5), or \"roll\" for 3d6.");
    let mut personality = BTreeMap::new();
    let mut sixteens = 0;
    for (x, y) in PAIRS {
        let s16 = sixteens;
        let choice = a.ask(&format!("{x}/{y}"), Some("10"), |s| {
            if s.eq_ignore_ascii_case("roll") {
                return Ok(PersonalityChoice::Roll("roll".into()));
            }
            let v: i64 = s
                .parse()
                .map_err(|_| format!("\"{s}\" is not a number or \"roll\""))?;
            match v {
                5..=15 => Ok(PersonalityChoice::Value(v)),
                4 | 16 if s16 < 5 => Ok(PersonalityChoice::Value(v)),
                4 | 16 => Err(format!(
                    "five pairs are at 16/4 already: {}",
                    rules::PERSONALITY
                )),
                _ => Err(format!("{v}: {}", rules::PERSONALITY)),
            }
        })?;
        if matches!(choice, PersonalityChoice::Value(4 | 16)) {
            sixteens += 1;
        }
        if choice != PersonalityChoice::Value(10) {
            personality.insert(x.to_string(), choice);
        }
    }
    let l0 = left(spent, &traits);
    let fate = a.ask(
        &format!("Fate Points to buy at 5 CPs each ({l0} CPs left)"),
        Some("0"),
        |s| {
            let n: i64 = s
                .parse()
                .map_err(|_| format!("\"{s}\" is not a whole number"))?;
            if n < 0 || n * costs::FATE_POINT_COST > l0 {
                return Err(format!(
                    "{n} cost {} CPs, {l0} left: {}",
                    n * costs::FATE_POINT_COST,
                    rules::FATE_POINTS
                ));
            }
            Ok(n)
        },
    )?;
    let magic = a.ask(
        "Does the character use magic (roll TMP)? y/n",
        Some("n"),
        |s| match s {
            "y" | "yes" => Ok(true),
            "n" | "no" => Ok(false),
            _ => Err("y or n".into()),
        },
    )?;
    let mut skills: Vec<String> = vec![oname.clone()];
    skills.extend(secondary.keys().cloned());
    let mut weapons = Vec::new();
    a.say("A weapon to fight with (empty name for none).");
    let wname = a.ask("Weapon", Some(""), |s| Ok(s.to_string()))?;
    if !wname.is_empty() {
        let skill = a.ask(
            &format!("  used with ({})", skills.join(", ")),
            Some(&oname),
            |s| {
                if skills.iter().any(|k| k == s) {
                    Ok(s.to_string())
                } else {
                    Err(format!("not one of {}", skills.join(", ")))
                }
            },
        )?;
        let dam = a.ask("  Dam", None, |s| {
            s.parse::<i64>()
                .ok()
                .filter(|d| (0..=1000).contains(d))
                .ok_or_else(|| "a Dam from 0 to 1000".to_string())
        })?;
        weapons.push(Weapon {
            name: wname,
            skill,
            dam,
            kind: Default::default(),
            range: None,
            reload: 0,
            prepare: 0,
            spear: false,
        });
    }
    Ok(Choices {
        name,
        race,
        age,
        traits,
        occupation: Occupation {
            name: oname,
            base: obase,
            level: olevel,
        },
        secondary,
        negative,
        personality,
        fate_points_bought: fate,
        magic,
        weapons,
        armour: Vec::new(),
        shield: None,
        tactic: Default::default(),
    })
}

// ---------------------------------------------------------------- advance

/// Bad input listing the rules a sheet breaks, one a line.
fn broken_rules(headline: &str, violations: &[impl std::fmt::Display]) -> Failure {
    let mut m = format!("error: {headline}:");
    for v in violations {
        m.push_str(&format!("\n  {v}"));
    }
    Failure::bad_input(m)
}

pub fn advance(args: &AdvanceArgs) -> Result<(), Failure> {
    let (mut sheet, text) = load(&args.file)?;
    let shown = args.file.display().to_string();
    let violations = validate(&sheet, Some(&text));
    if !violations.is_empty() {
        return Err(broken_rules(
            &format!(
                "{shown} breaks {} rule(s); `nutshell mls character check` explains; nothing was changed",
                violations.len()
            ),
            &violations,
        ));
    }
    generation::open_ledger(&mut sheet).map_err(bad)?;
    let before = sheet
        .character
        .as_ref()
        .map(|c| c.ledger.len())
        .unwrap_or(0);
    let mut reduce = Vec::new();
    for r in &args.reduce {
        reduce.push(Primary::parse(r).ok_or_else(|| {
            Failure::bad_input(format!("error: --reduce {r}: not a primary trait"))
        })?);
    }
    let spends: Vec<advancement::Spend> = args
        .spend
        .iter()
        .map(|s| {
            advancement::Spend::parse(s)
                .map_err(|e| Failure::bad_input(format!("error: --spend {s}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    let mut source = args.source.source()?;
    let mut dice = Dice::new(source.dice());
    if let (Some(size), Some(role)) = (args.adventure, args.role) {
        let size = match size {
            AdventureArg::Minor => costs::Adventure::Minor,
            AdventureArg::Average => costs::Adventure::Average,
            AdventureArg::Major => costs::Adventure::Major,
        };
        let role = match role {
            RoleArg::Minor => costs::Role::Minor,
            RoleArg::Major => costs::Role::Major,
        };
        advancement::adventure(&mut sheet, size, role, &mut dice).map_err(bad)?;
    }
    let mut checks = sheet
        .character
        .as_ref()
        .map(|c| c.checks.clone())
        .unwrap_or_default();
    checks.extend(args.check.iter().cloned());
    if !checks.is_empty() {
        advancement::after_adventure(&mut sheet, &checks, &mut dice).map_err(bad)?;
    }
    let increments = match args.years {
        None => i64::from(args.increments),
        Some(y) => {
            let ch = sheet
                .character
                .as_ref()
                .ok_or_else(|| Failure::other("error: the sheet has no [character] table"))?;
            let row = ch.race.row();
            let months = i64::from(y) * 12;
            if months % row.increment != 0 {
                return Err(Failure::bad_input(format!(
                    "error: --years {y}: {} ages by increments of {}, and {y} years is not a whole number of them; give --increments N instead (mls, Racial Differences); nothing was changed",
                    row.a(),
                    if row.increment % 12 == 0 {
                        format!("{} year(s)", row.increment / 12)
                    } else {
                        format!("{} months", row.increment)
                    }
                )));
            }
            months / row.increment
        }
    };
    for _ in 0..increments {
        advancement::pass_increment(&mut sheet, &mut reduce).map_err(bad)?;
    }
    if !reduce.is_empty() {
        return Err(Failure::bad_input(format!(
            "error: --reduce given {} time(s) more than age demanded: nothing was changed",
            reduce.len()
        )));
    }
    for s in &spends {
        advancement::spend(&mut sheet, s, &mut dice).map_err(bad)?;
    }
    let new_text = to_toml(&sheet).map_err(bad)?;
    let after = validate(&sheet, Some(&new_text));
    if !after.is_empty() {
        return Err(broken_rules(
            &format!(
                "the result would break {} rule(s); nothing was changed",
                after.len()
            ),
            &after,
        ));
    }
    let ch = sheet
        .character
        .as_ref()
        .ok_or_else(|| Failure::other("error: the character vanished"))?;
    let added = &ch.ledger[before..];
    let mut out = anstream::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"entries": added, "cps": ch.cps, "age": ch.age, "written": args.write})
        )?;
    } else {
        for e in added {
            writeln!(out, "{}", entry_line(e))?;
            writeln!(out, "    rule: {}", e.rule)?;
        }
        writeln!(
            out,
            "{}: {} CP(s) unspent at age {}{}",
            sheet.name,
            ch.cps,
            ch.age,
            if args.write {
                "; saved"
            } else {
                " (not saved: add --write)"
            }
        )?;
    }
    if args.write {
        let header = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect::<String>();
        std::fs::write(&args.file, format!("{header}{new_text}"))
            .map_err(|e| Failure::other(format!("error: {shown}: {e}")))?;
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

// ---------------------------------------------------------------- behave

pub fn behave(args: &BehaveArgs) -> Result<(), Failure> {
    let mut source = args.source.source()?;
    let mut out = anstream::stdout().lock();
    let (b, name, opposite) = match &args.file {
        None => {
            let v: i64 = args.trait_.parse().map_err(|_| {
                Failure::bad_input(format!(
                    "error: --trait {}: without a sheet, give the trait's value (0..20)",
                    args.trait_
                ))
            })?;
            if !(0..=20).contains(&v) {
                return Err(Failure::bad_input(format!(
                    "error: --trait {v}: {}",
                    rules::LIMIT_PERSONALITY
                )));
            }
            let mut dice = Dice::new(source.dice());
            (behaviour::behave(v, &mut dice).map_err(bad)?, None, None)
        }
        Some(path) => {
            let (mut sheet, text) = load(path)?;
            let id = TraitId::parse(&args.trait_).ok_or_else(|| {
                Failure::bad_input(format!(
                    "error: --trait {}: not a personality trait",
                    args.trait_
                ))
            })?;
            let mut dice = Dice::new(source.dice());
            let b = behaviour::on_sheet(&mut sheet, id.name(), &mut dice).map_err(bad)?;
            if args.write && b.checks_opposite {
                let header = text
                    .lines()
                    .take_while(|l| l.starts_with('#'))
                    .map(|l| format!("{l}\n"))
                    .collect::<String>();
                let new_text = to_toml(&sheet).map_err(bad)?;
                std::fs::write(path, format!("{header}{new_text}"))
                    .map_err(|e| Failure::other(format!("error: {}: {e}", path.display())))?;
            }
            (b, Some(id.name()), Some(id.opposite().name()))
        }
    };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"trait": name, "value": b.value, "noticeable": b.noticeable, "roll": b.roll, "acts_against": b.acts_against, "checks_opposite": b.checks_opposite, "opposite": opposite})
        )?;
    } else {
        let what = name
            .map(|n| format!("{n} {}", b.value))
            .unwrap_or_else(|| format!("a trait of {}", b.value));
        match b.roll {
            None => writeln!(
                out,
                "{what}: 15 or less, the character behaves as the player wishes (no roll)"
            )?,
            Some(r) if b.acts_against => writeln!(
                out,
                "{what} is Noticeable: 1d20 = {r} > {}: the character may act against it; the opposing trait{} is checked",
                b.value,
                opposite.map(|o| format!(" ({o})")).unwrap_or_default()
            )?,
            Some(r) => writeln!(
                out,
                "{what} is Noticeable: 1d20 = {r}, not higher than {}: the character behaves by the trait",
                b.value
            )?,
        }
        writeln!(out, "  rule: {}", rules::BEHAVIOUR)?;
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

// ---------------------------------------------------------------- time

pub fn time_cost(args: &TimeArgs) -> Result<(), Failure> {
    let mut out = anstream::stdout().lock();
    let unit = |u: time::Unit| match u {
        time::Unit::MovementPoint => "movement point(s)",
        time::Unit::Turn => "turn(s)",
        time::Unit::CombatAction => "combat action(s)",
    };
    match &args.action {
        None => {
            for a in &time::ACTIONS {
                writeln!(out, "{:<20} {}", a.key, a.text)?;
            }
        }
        Some(key) => {
            let (n, u) = time::cost(key, args.amount)
                .map_err(|e| Failure::bad_input(format!("error: {e}")))?;
            let a = time::find(key)
                .map(|a| a.roll.map(|r| format!(" ({r})")).unwrap_or_default())
                .unwrap_or_default();
            writeln!(
                out,
                "{key}: {n} {}{a}  [mls, Time Costs of Actions]",
                unit(u)
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Asker;

    fn transcript(echo: bool) -> String {
        let mut err = Vec::new();
        let mut a = Asker {
            input: "Tess\n".as_bytes(),
            err: &mut err,
            echo,
        };
        let name: String = a.ask("Name", None, |s| Ok(s.to_string())).unwrap();
        assert_eq!(name, "Tess");
        String::from_utf8(err).unwrap()
    }

    #[test]
    fn answers_are_echoed_only_when_piped() {
        // A terminal shows what was typed: echoing it again printed each answer twice.
        assert_eq!(transcript(true), "Name: Tess\n");
        assert_eq!(transcript(false), "Name: ");
    }
}
