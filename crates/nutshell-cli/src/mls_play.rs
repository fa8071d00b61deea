//! `nutshell mls play`: a fight played by its players at a terminal, the
//! referee answering each decision the text gives a character (or handing
//! the combatant to the engine); `--orders` takes decisions from a file,
//! `--json` writes the fight and every decision with who made it.

use crate::exit::Failure;
use crate::scenario::ScenarioArgs;
use crate::source_args::SourceArgs;
use clap::Args;
use nutshell_mls::fight::{Choice, Controller, Decision, Kind, Made, Next, Play};
use nutshell_mls::{Fight, FightError, Progress};
use serde::Deserialize;
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Hand this combatant (or every combatant of this side: its name, or
    /// `a` or `b` as `--surprised` names them) to the engine, which plays it
    /// by its tactic; repeat for more. Everyone else is asked
    #[arg(long, value_name = "NAME")]
    pub engine: Vec<String>,
    /// Take decisions from this file (JSON or TOML: `decisions`, a list as
    /// `--json` writes it); when they run out the prompt asks
    #[arg(long, value_name = "FILE")]
    pub orders: Option<PathBuf>,
    /// At the end print a JSON object: the fight (as `mls fight --json`) and
    /// every decision with who made it
    #[arg(long)]
    pub json: bool,
    /// Ask for each die's face at the prompt as it is rolled (physical dice
    /// rolled at the table)
    #[arg(long, conflicts_with_all = ["seed", "faces"])]
    pub ask_faces: bool,
    /// Write the checks earned in the fight to the character sheets
    /// fighting: checks on secondary traits, and on a personality trait
    /// when a choice against its Noticeable opposite succeeded (mls,
    /// Behaviour), with a ledger entry
    #[arg(long)]
    pub record: bool,
}

/// `--record`: each check earned goes to the `checks` of its combatant's
/// character sheet (a secondary trait once; a personality trait each time,
/// with a ledger entry as `mls behave --write` makes), the sheet rewritten
/// keeping its layout. Returns a line per sheet.
fn record(scenario: &ScenarioArgs, fight: &Fight) -> Result<Vec<String>, Failure> {
    use nutshell_mls::character::ledger::{Entry, Step};
    let earned = fight.earned_checks();
    let traits = fight.trait_checks();
    crate::scenario::record_on_sheets(scenario, false, |_, name, ch, _| {
        let mut added = Vec::new();
        for c in earned.iter().filter(|c| c.combatant == name) {
            let secondary = ch.secondary.contains_key(&c.skill) || ch.occupation.name == c.skill;
            if secondary && !ch.checks.contains(&c.skill) {
                ch.checks.push(c.skill.clone());
                added.push(c.skill.clone());
            }
        }
        for c in traits.iter().filter(|c| c.combatant == name) {
            ch.checks.push(c.checked.clone());
            ch.ledger.push(
                Entry::new(
                    ch.age,
                    Step::Behaviour,
                    format!(
                        "acted against {} {}: {} is checked",
                        c.against, c.value, c.checked
                    ),
                    0,
                    nutshell_mls::character::costs::rules::BEHAVIOUR,
                )
                .target(format!("personality.{}", c.checked))
                .roll(format!("1d20 = {}", c.roll)),
            );
            added.push(c.checked.clone());
        }
        added
    })
}

/// Faces typed at the prompt as each die is rolled (`--ask-faces`).
struct Asked<'t, R: BufRead, W: Write> {
    term: &'t std::cell::RefCell<Term<R, W>>,
}

impl<R: BufRead, W: Write> nutshell_dice::DiceSource for Asked<'_, R, W> {
    fn draw(
        &mut self,
        faces: &nutshell_dice::Faces<'_>,
    ) -> Result<i64, nutshell_dice::source::SourceError> {
        let mut term = self.term.borrow_mut();
        let n = faces.len();
        loop {
            let line = term
                .read(&format!("  roll a d{n} and type its face: "))
                .ok()
                .flatten();
            let Some(line) = line else {
                return Err(nutshell_dice::source::SourceError::Exhausted { given: 0 });
            };
            match line.trim().parse::<i64>() {
                Ok(v) if faces.contains(v) => return Ok(v),
                _ => term.say(&format!("  {} is not a face of a d{n}", line.trim())),
            }
        }
    }
}

/// An orders file: the decisions, in order.
#[derive(Debug, Deserialize)]
struct Orders {
    decisions: Vec<Made>,
}

fn bad(e: FightError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

fn read_orders(path: &std::path::Path) -> Result<Vec<Made>, Failure> {
    let text = crate::files::read_text(path)?;
    let shown = path.display();
    let is_toml = path.extension().is_some_and(|e| e == "toml");
    let orders: Orders = if is_toml {
        toml::from_str(&text).map_err(|e| Failure::bad_input(format!("error: {shown}: {e}")))?
    } else {
        serde_json::from_str(&text).map_err(|e| {
            Failure::bad_input(format!("error: {shown}:{}:{}: {e}", e.line(), e.column()))
        })?
    };
    Ok(orders.decisions)
}

/// The terminal: questions and the fight on stderr, answers from stdin.
struct Term<R: BufRead, W: Write> {
    input: R,
    out: W,
    /// Echo answers read from a pipe, so a transcript reads as a dialogue.
    echo: bool,
}

impl<R: BufRead, W: Write> Term<R, W> {
    /// Prints a line of the fight or a question; names in it are user
    /// text, so control and bidirectional characters are shown escaped.
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}", crate::shown::lines(text));
    }

    /// The next answer, or `None` at the end of the input.
    fn read(&mut self, prompt: &str) -> Result<Option<String>, Failure> {
        let _ = write!(self.out, "{}", crate::shown::text(prompt));
        let _ = self.out.flush();
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            let _ = writeln!(self.out);
            return Ok(None);
        }
        let answer = line.trim().to_string();
        if self.echo {
            let _ = writeln!(self.out, "{}", crate::shown::text(&answer));
        }
        Ok(Some(answer))
    }
}

/// What an answer at the prompt asks for.
enum Said {
    Answer(Choice),
    /// Explain the options (`?`) or one of them (`? 2`).
    Explain(Option<usize>),
    /// Hand the deciding combatant to the engine.
    Engine,
    /// Stop the fight here.
    Quit,
}

/// Reads an answer to `d`: a number, a name, squares, `?`, `engine`.
fn parse_answer(d: &Decision, text: &str) -> Result<Said, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Said::Answer(d.default.clone()));
    }
    if let Some(rest) = t.strip_prefix('?') {
        let rest = rest.trim();
        if rest.is_empty() {
            return Ok(Said::Explain(None));
        }
        return match rest.parse::<usize>() {
            Ok(n) if (1..=d.options.len()).contains(&n) => Ok(Said::Explain(Some(n - 1))),
            _ => Err(format!(
                "? takes an option's number, 1 to {}",
                d.options.len()
            )),
        };
    }
    match t {
        "engine" => return Ok(Said::Engine),
        "quit" => return Ok(Said::Quit),
        _ => {}
    }
    // On the line a movement is a number of squares: +3 closes three,
    // -2 withdraws two (a bare number is an option's).
    if on_the_line(d)
        && (t.starts_with('+') || t.starts_with('-'))
        && let Ok(n) = t.trim_start_matches('+').parse::<i64>()
    {
        return Ok(Said::Answer(Choice::Squares(n)));
    }
    if let Ok(n) = t.parse::<usize>() {
        return match d.options.get(n.wrapping_sub(1)) {
            Some(o) if d.kind != Kind::Movement || n >= 1 => Ok(Said::Answer(o.choice.clone())),
            _ => Err(format!("no option {n}: 1 to {}", d.options.len())),
        };
    }
    if d.kind == Kind::Movement && !on_the_line(d) {
        let squares: Vec<String> = t.split_whitespace().map(str::to_uppercase).collect();
        let squares = squares
            .into_iter()
            .map(|s| match s.split_once(':') {
                Some((sq, f)) => format!("{sq}:{}", f.to_lowercase()),
                None => s,
            })
            .collect();
        return Ok(Said::Answer(Choice::Path(squares)));
    }
    let lower = t.to_lowercase();
    let by_label = d
        .options
        .iter()
        .chain(std::iter::empty())
        .find(|o| o.label.to_lowercase() == lower)
        .map(|o| o.choice.clone());
    if let Some(c) = by_label {
        return Ok(Said::Answer(c));
    }
    if let Some(r) = d
        .ruled_out
        .iter()
        .find(|r| r.choice.to_string().to_lowercase() == lower)
    {
        return Ok(Said::Answer(r.choice.clone()));
    }
    if d.kind == Kind::Aim
        && let Some(l) = nutshell_mls::body::Location::ALL
            .into_iter()
            .find(|l| l.name() == lower || (lower == "throat" && l.name() == "neck"))
    {
        return Ok(Said::Answer(Choice::Aim(l)));
    }
    let yes_no = matches!(
        d.kind,
        Kind::Dodge | Kind::FatePoint | Kind::Reload | Kind::Advance | Kind::ShootBack
    );
    match (d.kind, lower.as_str()) {
        (_, "y" | "yes") if yes_no => Ok(Said::Answer(Choice::Yes(true))),
        (_, "n" | "no") if yes_no => Ok(Said::Answer(Choice::Yes(false))),
        (Kind::Target | Kind::Chain, _) => Ok(Said::Answer(Choice::Target(t.to_string()))),
        _ => Err(format!(
            "\"{t}\": answer with an option's number or name, ? to explain, engine to hand {} to the engine",
            d.name
        )),
    }
}

/// The log lines from `from` on, as `mls fight` prints them.
fn print_log(out: &mut impl Write, lines: &[nutshell_mls::log::Line]) {
    for line in lines {
        let indent = match (line.turn, line.round) {
            (0, _) => "",
            (_, 0) if line.text.starts_with("Turn ") => "",
            (_, 0) => "  ",
            _ => "    ",
        };
        let round = if line.round > 0 {
            format!("r{} ", line.round)
        } else {
            String::new()
        };
        // Names in the log are user text: shown escaped, as `mls fight` does.
        let text = crate::shown::text(&line.text);
        let _ = match line.rule {
            Some(rule) => writeln!(out, "{indent}{round}{text}  [{rule}]"),
            None => writeln!(out, "{indent}{round}{text}"),
        };
    }
}

/// A movement on the line (a fight without a map): squares, not a path.
fn on_the_line(d: &Decision) -> bool {
    d.kind == Kind::Movement
        && d.options
            .iter()
            .any(|o| matches!(o.choice, Choice::Squares(_)))
}

fn ask_text(d: &Decision) -> String {
    let mut s = format!(
        "\nTurn {}, {}: {} decides ({})\n{}\n",
        d.turn,
        if d.round == 0 {
            "movement phase".to_string()
        } else {
            format!("round {}", d.round)
        },
        d.name,
        d.kind.name(),
        d.question
    );
    if d.kind == Kind::Movement && !on_the_line(d) {
        s += &format!(
            "  squares within reach: {}\n  type a square (the cheapest way, its cost shown to confirm) or several (step by step), E5:north to end facing north\n",
            d.options
                .iter()
                .map(|o| o.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    } else {
        for (k, o) in d.options.iter().enumerate() {
            s += &format!("  {}. {}\n", k + 1, o.label);
        }
    }
    s += &format!(
        "  (Enter: the engine's pick, {}; ? explains; engine hands {} to the engine)",
        d.default, d.name
    );
    s
}

pub fn play(args: &PlayArgs) -> Result<(), Failure> {
    let (sides, options) = crate::scenario::load_scenario(&args.scenario, true)?;
    let fight = Fight::new(sides, options).map_err(bad)?;
    let names = fight.side_names().clone();
    let mut controllers = vec![Controller::Person; fight.fighters().len()];
    for name in &args.engine {
        let named = |f: &nutshell_mls::Fighter| &f.sheet.name == name || &names[f.side] == name;
        // A side as `--surprised` names it: `a` the first file, `b` the second.
        let letter = match name.to_ascii_lowercase().as_str() {
            "a" => Some(0),
            "b" => Some(1),
            _ => None,
        };
        let by_name = fight.fighters().iter().any(named);
        let mut found = false;
        for (i, f) in fight.fighters().iter().enumerate() {
            if named(f) || (!by_name && letter == Some(f.side)) {
                controllers[i] = Controller::Engine;
                found = true;
            }
        }
        if !found {
            return Err(Failure::bad_input(format!(
                "error: --engine {name}: no combatant or side of that name (combatants: {}; sides: {}, or a and b)",
                fight
                    .fighters()
                    .iter()
                    .map(|f| f.sheet.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                names.join(", ")
            )));
        }
    }
    let mut play = Play::new(fight, controllers);
    if let Some(path) = &args.orders {
        play.queue(read_orders(path)?);
    }
    let mut source = args.source.source()?;
    let stdin = std::io::stdin();
    let echo = !std::io::IsTerminal::is_terminal(&stdin);
    let term = std::cell::RefCell::new(Term {
        input: stdin.lock(),
        out: anstream::stderr(),
        echo,
    });
    let mut board = crate::fight_view::Board::new(play.fight());
    let mut shown = 0;
    let mut drawn_at = usize::MAX;
    let ending = loop {
        let next = if args.ask_faces {
            play.advance(&mut Asked { term: &term })
        } else {
            play.advance(source.dice())
        }
        .map_err(bad)?;
        let mut term = term.borrow_mut();
        let fight = play.fight();
        // The ending is printed once: with the result on standard output
        // (in the log on standard error when the result is JSON).
        let over = !args.json && matches!(next, Next::Step(Progress::Over(_)));
        let upto = fight.log().len() - usize::from(over && fight.log().len() > shown);
        print_log(&mut term.out, &fight.log()[shown..upto]);
        for line in &fight.log()[shown..] {
            board.update(line);
        }
        shown = fight.log().len();
        let d = match next {
            Next::Step(Progress::Over(e)) => break e,
            Next::Step(Progress::Round { .. }) => continue,
            Next::Decide(d) => d,
        };
        if fight.on_map() && drawn_at != shown {
            let _ = board.draw(&mut term.out, "The map now");
            drawn_at = shown;
        }
        term.say(&ask_text(&d));
        loop {
            let Some(text) = term.read("> ")? else {
                return Err(Failure::bad_input(format!(
                    "error: the answers ended while {} was to decide ({}, turn {}, round {})",
                    d.name,
                    d.kind.name(),
                    d.turn,
                    d.round
                )));
            };
            let said = match parse_answer(&d, &text) {
                Ok(s) => s,
                Err(why) => {
                    term.say(&format!("  {why}"));
                    continue;
                }
            };
            match said {
                Said::Explain(None) => {
                    for (k, o) in d.options.iter().enumerate() {
                        term.say(&format!("  {}. {}: {}", k + 1, o.label, o.rule));
                    }
                    for r in &d.ruled_out {
                        term.say(&format!("  not {}: {}", r.choice, r.why));
                    }
                }
                Said::Explain(Some(k)) => {
                    let o = &d.options[k];
                    term.say(&format!("  {}: {}", o.label, o.rule));
                }
                Said::Engine => {
                    play.set_controller(d.who, Controller::Engine)
                        .map_err(bad)?;
                    term.say(&format!("  {} is the engine's from now on", d.name));
                    break;
                }
                Said::Quit => {
                    return Err(Failure::bad_input(format!(
                        "error: stopped at {}'s decision (turn {}, round {}); {} decision(s) made",
                        d.name,
                        d.turn,
                        d.round,
                        play.decisions().len()
                    )));
                }
                Said::Answer(choice) => {
                    // One square: its cheapest cost, shown before it is taken.
                    if let Choice::Path(p) = &choice
                        && p.len() == 1
                        && !p[0].contains(':')
                        && let Some(o) = d
                            .options
                            .iter()
                            .find(|o| o.choice == Choice::Path(vec![p[0].clone()]))
                    {
                        term.say(&format!(
                            "  the cheapest way to {}: Enter or y to take it, n to choose again",
                            o.label
                        ));
                        match term.read("  > ")?.as_deref() {
                            Some("" | "y" | "yes") => {}
                            Some(_) => continue,
                            None => {
                                return Err(Failure::bad_input(
                                    "error: the answers ended at a movement's confirmation",
                                ));
                            }
                        }
                    }
                    match play.answer(choice) {
                        Ok(()) => break,
                        Err(FightError::Refused(why)) => term.say(&format!("  refused: {why}")),
                        Err(e) => return Err(bad(e)),
                    }
                }
            }
        }
    };
    let fight = play.fight();
    let recorded = if args.record {
        record(&args.scenario, fight)?
    } else {
        Vec::new()
    };
    let mut out = anstream::stdout().lock();
    if args.json {
        let mut object = serde_json::to_value(fight.report(&ending))
            .map_err(|e| Failure::other(format!("error: {e}")))?;
        object["recorded"] = json!(recorded);
        object["decisions"] = json!(play.decisions());
        object["controllers"] = json!(
            fight
                .fighters()
                .iter()
                .zip(play.controllers())
                .map(|(f, c)| (f.sheet.name.clone(), *c))
                .collect::<std::collections::BTreeMap<_, _>>()
        );
        writeln!(out, "{object}")?;
    } else {
        match ending.winner {
            Some(w) => writeln!(
                out,
                "Winner: {} ({})",
                crate::shown::text(&names[w]),
                crate::shown::text(&ending.reason)
            )?,
            None => writeln!(out, "A draw: {}", crate::shown::text(&ending.reason))?,
        }
        writeln!(out, "{}", crate::fight_view::state_table(fight))?;
        crate::fight_view::write_checks(
            &mut out,
            "Checks earned (mls, Checks on Secondary Traits; Behaviour):",
            &fight.earned_checks(),
        )?;
        for line in &recorded {
            writeln!(out, "{}", crate::shown::text(line))?;
        }
    }
    if play.queued() > 0 {
        let _ = writeln!(
            anstream::stderr(),
            "warning: {} decision(s) of the orders were not used",
            play.queued()
        );
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}
