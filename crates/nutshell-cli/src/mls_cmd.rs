//! `nutshell mls`: the MLS tactical layer: fights, simulations, the attack
//! schedule and damage odds.

use crate::exit::Failure;
use crate::scenario::{ScenarioArgs, load_scenario};
use crate::source_args::SourceArgs;
use clap::{Args, Subcommand, ValueEnum};
use comfy_table::{CellAlignment, Table, presets};
use nutshell_dice::Limits;
use nutshell_dice::simulate::wilson;
use nutshell_mls::Fight;
use nutshell_mls::body::{Coverage, HitKind};
use nutshell_mls::damage::{Damage, Hit, Protection};
use nutshell_mls::dice::Dice;
use nutshell_mls::schedule::Schedule;
use nutshell_mls::simulate::Tally;
use serde_json::{Value, json};
use std::io::Write;

/// The most fights in one simulation chunk (progress is reported per chunk;
/// a run has at least about 200 chunks, so slow fights still show progress).
const CHUNK: u64 = 1_000;

#[derive(Debug, Subcommand)]
pub enum MlsCommand {
    /// Resolve one fight between two sides and print its log, turn by turn and round by round
    Fight(FightArgs),
    /// Play a fight at the terminal: every decision the text gives a character is asked, checked and logged
    Play(Box<crate::mls_play::PlayArgs>),
    /// Run many fights on every core: who wins, how often, with 95% intervals
    Simulate(SimulateArgs),
    /// The combat rounds a skill attacks in
    Attacks(AttacksArgs),
    /// Roll the damage of a hit, or its exact distribution with --odds
    Damage(DamageArgs),
    /// MLS characters: build one (new), check a sheet against the rules, show it
    #[command(subcommand)]
    Character(crate::character_cmd::CharacterCommand),
    /// After an adventure or with age: CPs earned, checks rolled, CPs spent, ageing; all in the ledger
    Advance(Box<crate::character_cmd::AdvanceArgs>),
    /// Act against a personality trait: 16 or more needs 1d20 higher than the trait
    Behave(crate::character_cmd::BehaveArgs),
    /// Time costs of actions (mls, Time and Motion)
    Time(crate::character_cmd::TimeArgs),
    /// Battle maps: draw one (with the sides on it), check it, paths and arcs on it
    Map(crate::map_cmd::MapArgs),
    /// The cheapest movement on a map from one square and facing to another, step by step
    Path(crate::map_cmd::PathArgs),
    /// The four arcs of fire around a square and facing on a map
    Arcs(crate::map_cmd::ArcsArgs),
}

#[derive(Debug, Clone, Args)]
pub struct FightArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print a JSON object: the log, the ending and every combatant's state
    #[arg(long)]
    pub json: bool,
    /// Draw the map after each side's movement (with --map)
    #[arg(long, requires = "map", conflicts_with = "json")]
    pub show_map: bool,
    /// Write the checks on secondary traits earned in the fight to the
    /// character sheets fighting (their `checks`, rolled by `mls advance`)
    #[arg(long)]
    pub record: bool,
}

#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// How many fights
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub trials: u64,
    /// Seed of the run (default 1, so results are reproducible)
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print a JSON object
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct AttacksArgs {
    /// The combat (or magic) skill used offensively
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub skill: i64,
    /// Delay the first attack by N rounds (+N to hit; later attacks move too)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub delay: u32,
    /// Rush the first attack one round early (-2)
    #[arg(long)]
    pub rush: bool,
    /// Print a JSON object
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CoverageArg {
    Partial,
    Full,
    Encased,
    Total,
}

#[derive(Debug, Clone, Args)]
pub struct DamageArgs {
    /// The Dam rating of the hit (Strength already added for a total attack)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(i64).range(0..=10_000))]
    pub dam: i64,
    /// A critical: Dam is doubled
    #[arg(long)]
    pub critical: bool,
    /// A natural 18 (a critical that also ignores shields, Partial and Full armour)
    #[arg(long = "natural-18")]
    pub natural_18: bool,
    /// The attacker is a minor NPC: damage is the Dam, no roll
    #[arg(long)]
    pub minor: bool,
    /// The armour value on the location hit
    #[arg(long, alias = "armour", value_name = "V", value_parser = clap::value_parser!(i64).range(0..=10_000), requires = "coverage")]
    pub armor: Option<i64>,
    /// The armour's coverage
    #[arg(long, value_enum, requires = "armor")]
    pub coverage: Option<CoverageArg>,
    /// A shield's armour value (the defender's roll succeeded but lost)
    #[arg(long, value_name = "V", value_parser = clap::value_parser!(i64).range(0..=10_000))]
    pub shield: Option<i64>,
    /// The exact distribution of the damage done, instead of a roll
    #[arg(long)]
    pub odds: bool,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print JSON (with --odds: the same object as `nutshell odds --json`)
    #[arg(long)]
    pub json: bool,
}

pub fn run(command: &MlsCommand, limits: &Limits) -> Result<(), Failure> {
    match command {
        MlsCommand::Fight(args) => fight(args),
        MlsCommand::Play(args) => crate::mls_play::play(args),
        MlsCommand::Simulate(args) => simulate(args),
        MlsCommand::Attacks(args) => attacks(args),
        MlsCommand::Damage(args) => damage(args, limits),
        MlsCommand::Character(command) => crate::character_cmd::run(command),
        MlsCommand::Advance(args) => crate::character_play::advance(args),
        MlsCommand::Behave(args) => crate::character_play::behave(args),
        MlsCommand::Time(args) => crate::character_play::time_cost(args),
        MlsCommand::Map(args) => crate::map_cmd::run(args),
        MlsCommand::Path(args) => crate::map_cmd::run_path(args),
        MlsCommand::Arcs(args) => crate::map_cmd::run_arcs(args),
    }
}

fn bad(e: nutshell_mls::FightError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

fn fight(args: &FightArgs) -> Result<(), Failure> {
    let (sides, options) = load_scenario(&args.scenario, true)?;
    let mut fight = Fight::new(sides, options).map_err(bad)?;
    let mut source = args.source.source()?;
    let ending = fight.run(source.dice()).map_err(bad)?;
    let checks = fight.earned_checks();
    let recorded = if args.record {
        record_checks(&args.scenario, &checks)?
    } else {
        Vec::new()
    };
    let mut out = anstream::stdout().lock();
    if args.json {
        let mut object = serde_json::to_value(fight.report(&ending))
            .map_err(|e| Failure::bad_input(format!("error: {e}")))?;
        object["recorded"] = json!(recorded);
        writeln!(out, "{object}")?;
    } else {
        let (mut turn, mut round) = (0, usize::MAX);
        let mut board = args.show_map.then(|| crate::fight_view::Board::new(&fight));
        for line in fight.log() {
            if let Some(board) = &mut board {
                // After a turn's movement phase: its first round, or its end.
                if (line.turn != turn && turn > 0 && round == 0) || (line.round > 0 && round == 0) {
                    board.draw(&mut out, &format!("The map after turn {turn}'s movement"))?;
                }
                board.update(line);
            }
            if line.turn != turn {
                turn = line.turn;
                round = 0;
                writeln!(out)?;
            }
            if line.round != round {
                round = line.round;
                if round > 0 {
                    writeln!(out, "  Round {round}")?;
                }
            }
            let indent = if line.round > 0 { "    " } else { "  " };
            let indent = if line.turn == 0 || line.text.starts_with("Turn ") {
                ""
            } else {
                indent
            };
            // A log line quotes names from the sides' files: shown escaped.
            let text = crate::shown::text(&line.text);
            match line.rule {
                Some(rule) => writeln!(out, "{indent}{text}  [{rule}]")?,
                None => writeln!(out, "{indent}{text}")?,
            }
        }
        if let Some(board) = &board
            && round == 0
            && turn > 0
        {
            board.draw(&mut out, "The map at the end")?;
        }
        writeln!(out)?;
        writeln!(out, "{}", crate::fight_view::state_table(&fight))?;
        crate::fight_view::write_checks(
            &mut out,
            "Checks earned (mls, Checks on Secondary Traits):",
            &checks,
        )?;
        for line in &recorded {
            writeln!(out, "{}", crate::shown::lines(line))?;
        }
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}

/// `--record`: adds each earned check to the `checks` of its combatant's
/// character sheet, in the files fought with. A file that is not one
/// character sheet, or a skill that is not one of its secondary traits, is
/// said and skipped. Returns what was done, one line each.
fn record_checks(
    scenario: &ScenarioArgs,
    checks: &[nutshell_mls::fight::EarnedCheck],
) -> Result<Vec<String>, Failure> {
    crate::scenario::record_on_sheets(scenario, true, |shown, name, ch, done| {
        let mut added = Vec::new();
        for c in checks.iter().filter(|c| c.combatant == name) {
            if !ch.secondary.contains_key(&c.skill) && ch.occupation.name != c.skill {
                done.push(format!(
                    "{shown}: {} is not a secondary trait of {name}: not recorded",
                    c.skill
                ));
                continue;
            }
            if !ch.checks.contains(&c.skill) {
                ch.checks.push(c.skill.clone());
                added.push(c.skill.clone());
            }
        }
        added
    })
}

fn simulate(args: &SimulateArgs) -> Result<(), Failure> {
    use rayon::prelude::*;
    let (sides, options) = load_scenario(&args.scenario, false)?;
    let template = Fight::new(sides.clone(), options.clone()).map_err(bad)?;
    let trials = args.trials;
    let progress = indicatif::ProgressBar::new(trials);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} fights, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // indicatif draws nothing when stderr is not a terminal; a quick run
    // clears the bar when it finishes.
    let chunk_size = (trials / 200).clamp(1, CHUNK);
    let started = std::time::Instant::now();
    let parts: Result<Vec<Tally>, nutshell_mls::FightError> = (0..trials.div_ceil(chunk_size))
        .into_par_iter()
        .map(|chunk| {
            let range = chunk * chunk_size..(chunk * chunk_size + chunk_size).min(trials);
            let n = range.end - range.start;
            let tally = Tally::run(&sides, &options, args.seed, range, &|| {});
            progress.inc(n);
            tally
        })
        .collect();
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let tally = parts
        .map_err(bad)?
        .into_iter()
        .fold(Tally::default(), Tally::merge);
    let names = template.side_names();
    let n = tally.fights;
    let mean_turns = tally.turns as f64 / n.max(1) as f64;
    let mut out = anstream::stdout().lock();
    let est = |c: u64| {
        let i = wilson(c, n);
        json!({"probability": i.estimate, "low": i.low, "high": i.high})
    };
    if args.json {
        let object = json!({
            "trials": n,
            "seed": args.seed,
            "sides": names,
            "wins": [est(tally.wins[0]), est(tally.wins[1])],
            "draw": est(tally.draws),
            "mean_turns": mean_turns,
            "combatants": template.fighters().iter().enumerate().map(|(i, f)| json!({
                "name": f.sheet.name,
                "side": names[f.side],
                "unconscious": est(tally.unconscious[i]),
                "dead": est(tally.dead[i]),
                "escaped": est(tally.escaped[i]),
            })).collect::<Vec<Value>>(),
            "fights_per_second": n as f64 / seconds.max(1e-9),
        });
        writeln!(out, "{object}")?;
        return Ok(());
    }
    let pct = |c: u64| {
        let i = wilson(c, n);
        format!(
            "{:6.2}%  (95%: {:.2}% .. {:.2}%)",
            i.estimate * 100.0,
            i.low * 100.0,
            i.high * 100.0
        )
    };
    let rate = n as f64 / seconds.max(1e-9);
    writeln!(
        out,
        "{} fights, seed {} ({} fights/s on {} threads)",
        n,
        args.seed,
        if rate < 100.0 {
            format!("{rate:.2}")
        } else {
            format!("{rate:.0}")
        },
        rayon::current_num_threads()
    )?;
    let labels = [
        format!("{} win", crate::shown::text(&names[0])),
        format!("{} win", crate::shown::text(&names[1])),
        "draw".to_string(),
    ];
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (label, count) in labels
        .iter()
        .zip([tally.wins[0], tally.wins[1], tally.draws])
    {
        writeln!(out, "{label:<width$}  {}", pct(count))?;
    }
    writeln!(out, "mean turns {mean_turns:.2}")?;
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    let escapes = tally.escaped.iter().any(|&e| e > 0);
    let mut header = vec![
        "combatant",
        "side",
        "unconscious at the end",
        "dead at the end",
    ];
    if escapes {
        header.push("escaped");
    }
    table.set_header(header);
    for (i, f) in template.fighters().iter().enumerate() {
        let mut row = vec![
            crate::shown::text(&f.sheet.name).into_owned(),
            crate::shown::text(&names[f.side]).into_owned(),
            pct(tally.unconscious[i]),
            pct(tally.dead[i]),
        ];
        if escapes {
            row.push(pct(tally.escaped[i]));
        }
        table.add_row(row);
    }
    for column in 2..5 {
        if let Some(c) = table.column_mut(column) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    Ok(())
}

fn attacks(args: &AttacksArgs) -> Result<(), Failure> {
    let mut schedule = Schedule::for_skill(args.skill).delayed(args.delay as usize);
    if args.rush {
        schedule = schedule.rushed();
    }
    let rounds = schedule.rounds();
    let mut out = anstream::stdout().lock();
    if args.json {
        let attacks: Vec<Value> = schedule
            .attacks()
            .iter()
            .map(|a| json!({"round": a.round, "modifier": a.modifier}))
            .collect();
        writeln!(
            out,
            "{}",
            json!({"skill": args.skill, "rounds": rounds, "attacks": attacks})
        )?;
        return Ok(());
    }
    let base = nutshell_mls::schedule::attacks(args.skill);
    writeln!(
        out,
        "skill {}: {base} attack(s) a turn (half the skill, at most 5); rounds {}",
        args.skill,
        if rounds.is_empty() {
            "none".to_string()
        } else {
            schedule
                .attacks()
                .iter()
                .map(|a| match a.modifier {
                    0 => a.round.to_string(),
                    m => format!("{} ({m:+})", a.round),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
    )?;
    Ok(())
}

fn damage(args: &DamageArgs, limits: &Limits) -> Result<(), Failure> {
    let coverage = args.coverage.map(|c| match c {
        CoverageArg::Partial => Coverage::Partial,
        CoverageArg::Full => Coverage::Full,
        CoverageArg::Encased => Coverage::Encased,
        CoverageArg::Total => Coverage::Total,
    });
    let kind = HitKind {
        critical: args.critical || args.natural_18,
        natural_18: args.natural_18,
    };
    let hit = Hit {
        damage: Damage {
            dam: args.dam,
            critical: kind.critical,
            minor: args.minor,
        },
        kind,
        protection: Protection {
            armour: args.armor.zip(coverage),
            shield: args.shield,
        },
    };
    if args.odds {
        let odds = crate::odds_cmd::OddsArgs {
            expression: hit.expression(),
            more: Vec::new(),
            at_least: None,
            at_most: None,
            simulate: None,
            seed: 1,
            all: true,
            json: args.json,
            exact: Default::default(),
        };
        return crate::odds_cmd::run(&odds, limits);
    }
    let mut source = args.source.source()?;
    let mut dice = Dice::new(source.dice());
    let (before, done, faces) = hit.roll(&mut dice).map_err(bad)?;
    let absorbed = hit.absorbed();
    let mut out = anstream::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "expression": hit.expression(),
                "faces": faces,
                "before_protection": before,
                "absorbed": absorbed,
                "damage": done,
            })
        )?;
    } else {
        writeln!(
            out,
            "{} = {faces:?} -> {before}; protection {absorbed}; damage {done}",
            hit.damage.expression()
        )?;
    }
    if let Some(w) = source.leftover_warning() {
        let _ = writeln!(anstream::stderr(), "{w}");
    }
    Ok(())
}
