//! `nutshell mls character new`: a character from questions, flags or a file of choices.

use crate::character_cmd::*;
use crate::exit::Failure;
use nutshell_mls::character::costs::{self, Kind, rules};
use nutshell_mls::character::generation::{self, Choices, PersonalityChoice};
use nutshell_mls::character::personality::PAIRS;
use nutshell_mls::character::primary::{ALL, Base, Primary};
use nutshell_mls::character::race::{RACES, Race};
use nutshell_mls::character::validate::{to_toml, validate};
use nutshell_mls::character::{Age, Negative, Occupation, Secondary};
use nutshell_mls::dice::Dice;
use nutshell_mls::sheet::{Launcher, Traits, Weapon, WeaponKind};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

// ---------------------------------------------------------------- new

pub(crate) fn new(args: &NewArgs) -> Result<(), Failure> {
    if let Some(out) = &args.out
        && out.exists()
    {
        return Err(Failure::bad_input(format!(
            "error: {} exists: choose another file (a sheet is never overwritten by `new`)",
            out.display()
        )));
    }
    let mut source = args.source.source()?;
    let stdin = std::io::stdin();
    // Questions only when neither a file of choices nor flags give them.
    let mut asker = (args.from.is_none() && args.name.is_none()).then(|| Asker {
        echo: !std::io::IsTerminal::is_terminal(&stdin),
        input: stdin.lock(),
        err: anstream::stderr(),
    });
    let choices = if let Some(path) = &args.from {
        let text = read(path)?;
        Choices::parse(&path.display().to_string(), &text).map_err(bad)?
    } else if let Some(ask) = asker.as_mut() {
        interactive(ask)?
    } else {
        choices_from_flags(args)?
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
                crate::shown::text(&e.change),
                crate::shown::text(e.roll.as_deref().unwrap_or(""))
            );
        }
    }
    // The sheet must also be readable as a combatant. Its errors name the
    // choice (weapons[0] (axe).dam), not a line of a sheet never written.
    let origin = args
        .from
        .as_ref()
        .map_or_else(|| "the choices".to_string(), |p| p.display().to_string());
    nutshell_mls::sheet::Side::parse(&origin, &text).map_err(|e| {
        let m = e.to_string();
        let rest = m.strip_prefix(&format!("{origin}: ")).unwrap_or(&m);
        let rest = match rest.strip_prefix("line ") {
            Some(r) => r
                .split_once(": ")
                .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                .map_or(rest, |(_, r)| r),
            None => rest,
        };
        Failure::bad_input(format!(
            "error: {origin}: the sheet these choices make cannot fight: {rest}"
        ))
    })?;
    let header = "# An MLS character sheet (docs/mls/characters.md); it also fights: nutshell mls fight THIS OTHER\n";
    // Asked, the builder ends by offering to save the sheet: a newcomer
    // does not know `--out` beforehand.
    let out = match (&args.out, asker.as_mut()) {
        (Some(path), _) => Some(path.clone()),
        // Answers that end before this question (piped ones written for
        // the builder before it asked it) print the sheet, as it did.
        (None, Some(ask)) => save_where(ask).unwrap_or(None),
        (None, None) => None,
    };
    match &out {
        Some(path) => {
            crate::files::write_atomic(path, &format!("{header}{text}"))?;
            let _ = writeln!(anstream::stderr(), "wrote {}", path.display());
        }
        None => {
            // To a terminal, the sheet is for reading: names shown escaped
            // (crate::shown). Redirected, it is the file, exact.
            let mut out = anstream::stdout().lock();
            let text = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                crate::shown::lines(&text)
            } else {
                std::borrow::Cow::Borrowed(text.as_str())
            };
            write!(out, "{header}{text}")?;
        }
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

/// The file to save an asked-for sheet to, or none to print it.
fn save_where<R: BufRead, W: Write>(
    a: &mut Asker<R, W>,
) -> Result<Option<std::path::PathBuf>, Failure> {
    a.ask(
        "Save the sheet to a file (a new file name such as ada.toml; nothing to print it here)",
        Some(""),
        |s| {
            if s.is_empty() {
                return Ok(None);
            }
            let path = std::path::PathBuf::from(s);
            if path.exists() {
                Err(format!(
                    "{s} exists: a sheet is never overwritten by `new`; choose another name"
                ))
            } else {
                Ok(Some(path))
            }
        },
    )
}

/// mls, *Range*: "Each weapon has a range according to its type and often
/// the Strength of the user": the text gives no table of ranges, so the
/// player gives it.
const RANGE_NOTE: &str = "  mls, Range: \"Each weapon has a range according to its type and often the Strength of the user\" (the text gives no table: give the weapon's range in squares; beyond it each increment begun costs -1)";

/// One weapon from questions: its kind (melee or missile), skill and Dam,
/// and for a missile weapon its sort, range and reloading.
fn ask_weapon<R: BufRead, W: Write>(
    a: &mut Asker<R, W>,
    name: String,
    skills: &[String],
    default_skill: &str,
) -> Result<Weapon, Failure> {
    let kind = a.ask("  kind (melee or missile)", Some("melee"), |s| {
        match s.to_ascii_lowercase().as_str() {
            "melee" | "m" => Ok(WeaponKind::Melee),
            "missile" | "ranged" | "r" => Ok(WeaponKind::Missile),
            _ => Err("melee (a close-combat weapon) or missile (a bow, a sling, a thrown weapon, a crossbow, a gun)".into()),
        }
    })?;
    let skill = a.ask(
        &format!("  used with ({})", skills.join(", ")),
        Some(default_skill),
        |s| {
            if skills.iter().any(|k| k == s) {
                Ok(s.to_string())
            } else {
                Err(format!("not one of {}", skills.join(", ")))
            }
        },
    )?;
    let dam = a.ask("  Dam (0 to 1000, such as 8)", None, |s| {
        s.parse::<i64>()
            .ok()
            .filter(|d| (0..=1000).contains(d))
            .ok_or_else(|| "a Dam from 0 to 1000".to_string())
    })?;
    let (range, missile, reload) = if kind == WeaponKind::Missile {
        let sort = a.ask(
            "  sort (bow, thrown, or other such as a crossbow or gun, which also shoots to the right)",
            Some("bow"),
            |s| match s.to_ascii_lowercase().as_str() {
                "bow" | "b" => Ok(Launcher::Bow),
                "thrown" | "t" => Ok(Launcher::Thrown),
                "other" | "o" | "crossbow" | "gun" => Ok(Launcher::Other),
                _ => Err("bow, thrown or other".into()),
            },
        )?;
        a.say(RANGE_NOTE);
        let range = a.ask("  range in squares (1 to 1000, such as 20)", None, |s| {
            s.parse::<i64>()
                .ok()
                .filter(|r| (1..=1000).contains(r))
                .ok_or_else(|| "a range from 1 to 1000 squares".to_string())
        })?;
        let reload = a.ask(
            "  attacks spent reloading after each shot (0 to 10, such as 1 for a crossbow)",
            Some("0"),
            |s| {
                s.parse::<u32>()
                    .ok()
                    .filter(|r| *r <= 10)
                    .ok_or_else(|| "a number of attacks from 0 to 10".to_string())
            },
        )?;
        (Some(range), Some(sort), reload)
    } else {
        (None, None, 0)
    };
    Ok(Weapon {
        name,
        skill,
        dam,
        kind,
        range,
        reload,
        prepare: 0,
        mp: None,
        spear: false,
        missile,
    })
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

/// Questions on stderr, answers from stdin. Every question says what it
/// accepts, with an example, in brackets; an empty answer takes the default
/// when there is one and is otherwise asked again with what is needed (never
/// a rule's quotation), and a refusal repeated word for word is not printed
/// again in full.
struct Asker<R: BufRead, W: Write> {
    input: R,
    err: W,
    /// Echo each answer: when the answers are piped, so a transcript reads
    /// like a dialogue; a terminal has echoed them already.
    echo: bool,
}

/// What a base formula may be, with examples.
const BASE_HINT: &str =
    "a primary trait such as mind, a reversed one such as 2-size, or an average such as mind+aura";

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
        // What the question accepts: the part in brackets, which every
        // question has (the tests walk through them all).
        debug_assert!(question.ends_with(')'), "{question}");
        let accepts = question
            .rsplit_once('(')
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .unwrap_or("an answer")
            .to_string();
        let mut last_refusal: Option<String> = None;
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
            if answer.is_empty() && default.is_none() {
                self.say(&format!("  an answer is needed: {accepts}"));
                continue;
            }
            match parse(&answer) {
                Ok(v) => return Ok(v),
                Err(why) if last_refusal.as_deref() == Some(why.as_str()) => {
                    self.say("  refused again, as above")
                }
                Err(why) => {
                    self.say(&format!("  refused: {why}"));
                    last_refusal = Some(why);
                }
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
    let name = a.ask(
        "Name (any text, such as Brana)",
        None,
        |s| Ok(s.to_string()),
    )?;
    let races: Vec<&str> = RACES.iter().map(|r| r.name).collect();
    a.say(&format!("Races: {}", races.join(", ")));
    let race = a.ask("Race (one of the races above, such as elf)", Some("human"), |s| Race::parse(s).ok_or_else(|| format!("\"{s}\" is not a race of the table (human, elf, halfling, dwarf, gnome, ork, goblin)")))?;
    let row = race.row();
    let (young, old) = row.start_ages();
    let age = a.ask(
        &format!(
            "Age (years from {} to {}, in steps of {} months, such as {})",
            Age(young),
            Age(old),
            row.increment,
            Age(young)
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
                &format!(
                    "{} ({} to {}, such as {}; {left} CPs left)",
                    p.name(),
                    rav - 2,
                    rav + 2,
                    rav + 1
                ),
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
        let n = a.ask(
            "Negative trait (a name such as greedy; nothing to go on)",
            Some(""),
            |s| Ok(s.to_string()),
        )?;
        if n.is_empty() {
            break;
        }
        let level = a.ask("  level above base (0 to 4, such as 1)", Some("0"), |s| {
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
    let oname = a.ask(
        "Occupation (a name such as scholar: every character has one)",
        None,
        |s| Ok(s.to_string()),
    )?;
    let obase = a.ask(&format!("  its base ({BASE_HINT})"), None, |s| {
        Base::parse(s).map(|_| s.to_string())
    })?;
    let l0 = left(spent, &traits);
    let olevel = a.ask(
        "  level above base (0 to 4, such as 1; costs 2, 6, 12, 20, 30 CPs)",
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
            &format!(
                "Secondary trait (a name such as sword; nothing to go on; {} CPs left)",
                left(spent, &traits)
            ),
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
        let k = a.ask(
            "  its kind (trained, natural or inherent)",
            Some("trained"),
            |s| kind(s).ok_or_else(|| format!("\"{s}\": trained, natural or inherent")),
        )?;
        let base = a.ask(&format!("  its base ({BASE_HINT})"), None, |s| {
            Base::parse(s).map(|_| s.to_string())
        })?;
        let l0 = left(spent, &traits);
        let level = a.ask("  level above base (0 to 4, such as 1)", Some("0"), |s| {
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
        let choice = a.ask(
            &format!("{x}/{y} (5 to 15, 16 or 4, or roll)"),
            Some("10"),
            |s| {
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
            },
        )?;
        if matches!(choice, PersonalityChoice::Value(4 | 16)) {
            sixteens += 1;
        }
        if choice != PersonalityChoice::Value(10) {
            personality.insert(x.to_string(), choice);
        }
    }
    let l0 = left(spent, &traits);
    let fate = a.ask(
        &format!("Fate Points to buy at 5 CPs each (a number such as 1; {l0} CPs left)"),
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
        "Does the character use magic, rolling TMP? (y or n)",
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
    a.say("Weapons to fight with, one at a time (an empty name when done).");
    loop {
        let question = if weapons.is_empty() {
            "Weapon (a name such as sword; nothing for none)"
        } else {
            "Another weapon (a name such as bow; nothing when done)"
        };
        let wname = a.ask(question, Some(""), |s| Ok(s.to_string()))?;
        if wname.is_empty() {
            break;
        }
        weapons.push(ask_weapon(a, wname, &skills, &oname)?);
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
        let name: String = a
            .ask("Name (any text)", None, |s| Ok(s.to_string()))
            .unwrap();
        assert_eq!(name, "Tess");
        String::from_utf8(err).unwrap()
    }

    #[test]
    fn answers_are_echoed_only_when_piped() {
        // A terminal shows what was typed: echoing it again printed each answer twice.
        assert_eq!(transcript(true), "Name (any text): Tess\n");
        assert_eq!(transcript(false), "Name (any text): ");
    }

    /// Issue "A newcomer's first hour", item 6: an empty answer is asked
    /// again with what the question accepts, and a refusal is not repeated.
    #[test]
    fn empty_answers_and_repeated_refusals_are_answered_briefly() {
        let mut err = Vec::new();
        let mut a = Asker {
            input: "\n\nx\nx\ny\n".as_bytes(),
            err: &mut err,
            echo: true,
        };
        let got: String = a
            .ask("Occupation (a name such as scholar)", None, |s| {
                if s == "x" {
                    Err("\"Choose Occupation\" (a long quotation of the rule)".into())
                } else {
                    Ok(s.to_string())
                }
            })
            .unwrap();
        assert_eq!(got, "y");
        let text = String::from_utf8(err).unwrap();
        assert_eq!(
            text.matches("  an answer is needed: a name such as scholar\n")
                .count(),
            2,
            "{text}"
        );
        assert_eq!(text.matches("a long quotation").count(), 1, "{text}");
        assert!(text.contains("  refused again, as above\n"), "{text}");
    }

    /// Every question of the whole dialogue says what it accepts (the
    /// debug assertion in `ask`), and the docs' answers make a character.
    #[test]
    fn the_whole_dialogue_says_what_each_question_accepts() {
        let answers = include_str!("../tests/docs/character-new-answers.txt");
        let mut err = Vec::new();
        let mut a = Asker {
            input: answers.as_bytes(),
            err: &mut err,
            echo: true,
        };
        let choices = super::interactive(&mut a).unwrap();
        assert_eq!(choices.name, "Ada");
        assert_eq!(choices.occupation.name, "scholar");
        let text = String::from_utf8(err).unwrap();
        assert!(!text.contains("refused"), "{text}");
        assert!(
            text.contains("Occupation (a name such as scholar"),
            "{text}"
        );
    }
}
