//! `nutshell check`, `nutshell contest` and `nutshell table`: the rulesets.

use crate::exit::Failure;
use crate::fraction::percent;
use crate::source_args::SourceArgs;
use clap::{Args, ValueEnum};
use comfy_table::{CellAlignment, Table, presets};
use nutshell_rules::odds::OutcomeOdds;
use nutshell_rules::{
    CheckResult, ContestResult, exploding_d6, fantasy, favor_3d6, mls, tiered_d20,
};
use std::io::Write;

/// The five rulesets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Ruleset {
    /// Nutshell Fantasy: d20 + modifiers vs a DC
    Fantasy,
    /// The Nutshell MLS: 3d6 + skill, 15 success, 20 critical, 9 fumble
    Mls,
    /// One exploding d6 + Score vs #
    #[value(name = "exploding-d6")]
    ExplodingD6,
    /// d20 + skill vs DC with four tiers, advantage and edges
    #[value(name = "tiered-d20")]
    TieredD20,
    /// 3d6 + modifier vs TD with favor and disfavor dice
    #[value(name = "favor-3d6")]
    Favor3d6,
}

impl Ruleset {
    fn id(self) -> &'static str {
        match self {
            Ruleset::Fantasy => fantasy::ID,
            Ruleset::Mls => mls::ID,
            Ruleset::ExplodingD6 => exploding_d6::ID,
            Ruleset::TieredD20 => tiered_d20::ID,
            Ruleset::Favor3d6 => favor_3d6::ID,
        }
    }
}

/// fantasy: the tools for the magnitude check, choosing its die (P-30).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ToolsArg {
    /// Poor, improvised tools: d3
    ImprovisedPoor,
    /// Improvised tools: d4
    Improvised,
    /// The standard tools for the job: d6
    Standard,
    /// Superior tools: d8
    Superior,
    /// Superior tools and training: d12
    SuperiorTrained,
}

impl From<ToolsArg> for fantasy::Tools {
    fn from(t: ToolsArg) -> fantasy::Tools {
        match t {
            ToolsArg::ImprovisedPoor => fantasy::Tools::ImprovisedPoor,
            ToolsArg::Improvised => fantasy::Tools::Improvised,
            ToolsArg::Standard => fantasy::Tools::Standard,
            ToolsArg::Superior => fantasy::Tools::Superior,
            ToolsArg::SuperiorTrained => fantasy::Tools::SuperiorTrained,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TakeArg {
    #[value(name = "0")]
    Zero,
    #[value(name = "10")]
    Ten,
    #[value(name = "20")]
    Twenty,
}

/// Options of one side of a check.
#[derive(Debug, Clone, Args, Default)]
pub struct SideArgs {
    /// A modifier (repeatable, summed; negative as --mod=-2)
    #[arg(long = "mod", value_name = "N", allow_hyphen_values = true)]
    pub modifier: Vec<i64>,
    /// mls, tiered-d20: the trait or skill
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub skill: Option<i64>,
    /// exploding-d6: the Score
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub score: Option<i64>,
    /// favor-3d6: points of favor
    #[arg(long, value_name = "N")]
    pub favor: Option<u32>,
    /// favor-3d6: points of disfavor
    #[arg(long, value_name = "N")]
    pub disfavor: Option<u32>,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The ruleset
    pub ruleset: Ruleset,
    #[command(flatten)]
    pub side: SideArgs,
    /// The difficulty: DC, TD or # (fantasy also takes names: hard, routine, ...)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub dc: Option<String>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print the exact odds of each outcome instead of rolling
    #[arg(long)]
    pub odds: bool,
    /// Print JSON
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub fantasy: FantasyArgs,
    #[command(flatten)]
    pub exploding: ExplodingArgs,
    #[command(flatten)]
    pub tiered: TieredArgs,
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "fantasy")]
pub struct FantasyArgs {
    /// The check allows critical success (a natural 20 threatens; confirm)
    #[arg(long)]
    pub crit_success: bool,
    /// The check allows critical failure
    #[arg(long)]
    pub crit_failure: bool,
    /// Only a natural even result passes
    #[arg(long)]
    pub natural_even: bool,
    /// Take a result instead of rolling
    #[arg(long, value_name = "0|10|20")]
    pub take: Option<TakeArg>,
    /// A stressful situation (no take-10 or take-20)
    #[arg(long)]
    pub stressful: bool,
    /// No retry is allowed (no take-20)
    #[arg(long)]
    pub no_retry: bool,
    /// Spend a reroll if the check fails (also tiered-d20: reroll one d20)
    #[arg(long)]
    pub reroll: bool,
    /// Another forces a reroll
    #[arg(long)]
    pub forced_reroll: bool,
    /// Cancel the forced reroll by spending your own
    #[arg(long, requires = "forced_reroll")]
    pub cancel_reroll: bool,
    /// The magnitude (or damage) pool rolled on a success, such as 1d8+4 (also tiered-d20)
    #[arg(long, value_name = "POOL", conflicts_with_all = ["magnitude", "tools"])]
    pub effect: Option<String>,
    /// Roll the default magnitude check on a success: 1d6 + the check's modifier
    #[arg(long)]
    pub magnitude: bool,
    /// The tools for the magnitude check, choosing its die (implies --magnitude)
    #[arg(long, value_name = "TOOLS")]
    pub tools: Option<ToolsArg>,
    /// Step changes to the magnitude dice (negative steps down)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub step: Option<i64>,
    /// Extra magnitude dice of the largest type
    #[arg(long, value_name = "N")]
    pub extra: Option<u64>,
    /// A nominal success: every magnitude die counts as 1
    #[arg(long)]
    pub nominal: bool,
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "exploding-d6")]
pub struct ExplodingArgs {
    /// The character can take their time: a rote action succeeds without a roll if Score + mods >= #
    #[arg(long)]
    pub rote: bool,
    /// A helper's Score + modifiers, for cooperation (repeatable)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub helper: Vec<i64>,
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "tiered-d20")]
pub struct TieredArgs {
    /// A bonus under the stacking cap (repeatable)
    #[arg(long, value_name = "N")]
    pub bonus: Vec<i64>,
    /// A penalty under the stacking cap, as a positive number (repeatable)
    #[arg(long, value_name = "N")]
    pub penalty: Vec<i64>,
    /// A source of advantage (repeatable; several do not stack)
    #[arg(long, action = clap::ArgAction::Count)]
    pub advantage: u8,
    /// A source of disadvantage (repeatable)
    #[arg(long, action = clap::ArgAction::Count)]
    pub disadvantage: u8,
    /// Edges gained on the roll
    #[arg(long, value_name = "N")]
    pub edge: Option<u32>,
    /// Edges lost on the roll
    #[arg(long, value_name = "N")]
    pub lose_edge: Option<u32>,
    /// Net edges on the DC (negative lowers it)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub dc_edge: Option<i32>,
    /// This is the K-th check of the round (-5 for each before it)
    #[arg(long, value_name = "K")]
    pub action: Option<u32>,
    /// Clearing a jammed item of this tier: DC 10 + tier
    #[arg(long, value_name = "TIER")]
    pub jam_tier: Option<i64>,
    /// The attempt to clear the jam (+5 per attempt after the first)
    #[arg(long, value_name = "K", requires = "jam_tier")]
    pub attempt: Option<u32>,
    /// A further check in the same round, as SKILL:DC (repeatable); the turn stops at a critical failure
    #[arg(long, value_name = "SKILL:DC", allow_hyphen_values = true)]
    pub then: Vec<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ContestArgs {
    /// The ruleset
    pub ruleset: Ruleset,
    /// The first side (the active side in mls)
    #[command(flatten)]
    pub side: SideArgs,
    /// The second side's modifier (repeatable)
    #[arg(long = "vs-mod", value_name = "N", allow_hyphen_values = true)]
    pub vs_modifier: Vec<i64>,
    /// The second side's skill
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub vs_skill: Option<i64>,
    /// The second side's Score
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub vs_score: Option<i64>,
    /// The second side's favor
    #[arg(long, value_name = "N")]
    pub vs_favor: Option<u32>,
    /// The second side's disfavor
    #[arg(long, value_name = "N")]
    pub vs_disfavor: Option<u32>,
    /// favor-3d6: the first side is a PC (else an NPC)
    #[arg(long)]
    pub pc: bool,
    /// favor-3d6: the second side is a PC
    #[arg(long)]
    pub vs_pc: bool,
    /// favor-3d6: the first side is defending itself
    #[arg(long)]
    pub defender: bool,
    /// favor-3d6: the second side is defending itself
    #[arg(long)]
    pub vs_defender: bool,
    /// favor-3d6: the first side's level or DR
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub level: Option<i64>,
    /// favor-3d6: the second side's level or DR
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub vs_level: Option<i64>,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print the exact odds of each side winning instead of rolling
    #[arg(long)]
    pub odds: bool,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct TableArgs {
    /// A TOML table file (see docs/rulesets/exploding-d6.md)
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

fn rules_error(e: nutshell_rules::RulesError) -> Failure {
    Failure::bad_input(format!("error: {e}"))
}

/// Refuses an option that the ruleset does not have.
fn only_for(ruleset: Ruleset, allowed: &[Ruleset], flag: &str, given: bool) -> Result<(), Failure> {
    if given && !allowed.contains(&ruleset) {
        let names: Vec<&str> = allowed.iter().map(|r| r.id()).collect();
        return Err(Failure::bad_input(format!(
            "error: {flag} is not an option of {} (it belongs to {})",
            ruleset.id(),
            names.join(", ")
        )));
    }
    Ok(())
}

fn difficulty(ruleset: Ruleset, dc: &Option<String>, required: bool) -> Result<i64, Failure> {
    let Some(text) = dc else {
        if required {
            let name = match ruleset {
                Ruleset::ExplodingD6 => "the Difficulty # (--dc N)",
                Ruleset::Favor3d6 => "the Test Difficulty (--dc N)",
                _ => "the DC (--dc N)",
            };
            return Err(Failure::bad_input(format!(
                "error: {} needs {name}",
                ruleset.id()
            )));
        }
        return Ok(0);
    };
    let parsed = if ruleset == Ruleset::Fantasy {
        fantasy::dc(text)
    } else {
        text.trim().parse().ok()
    };
    parsed.ok_or_else(|| {
        let hint = if ruleset == Ruleset::Fantasy {
            " or a descriptor (laughable, trivial, routine, average, difficult, hard, extreme, godlike, impossible)"
        } else {
            ""
        };
        Failure::bad_input(format!("error: --dc {text}: expected a whole number{hint}"))
    })
}

fn validate(args: &CheckArgs) -> Result<(), Failure> {
    use Ruleset::*;
    let r = args.ruleset;
    let f = &args.fantasy;
    let fantasy_flags = [
        ("--crit-success", f.crit_success),
        ("--crit-failure", f.crit_failure),
        ("--natural-even", f.natural_even),
        ("--take", f.take.is_some()),
        ("--stressful", f.stressful),
        ("--no-retry", f.no_retry),
        ("--forced-reroll", f.forced_reroll),
        ("--magnitude", f.magnitude),
        ("--tools", f.tools.is_some()),
        ("--step", f.step.is_some()),
        ("--extra", f.extra.is_some()),
        ("--nominal", f.nominal),
    ];
    for (flag, given) in fantasy_flags {
        only_for(r, &[Fantasy], flag, given)?;
    }
    only_for(r, &[Fantasy, TieredD20], "--effect", f.effect.is_some())?;
    only_for(r, &[Fantasy, TieredD20], "--reroll", f.reroll)?;
    if r == Mls && args.dc.is_some() {
        return Err(Failure::bad_input(
            "error: --dc is not an option of mls: its difficulty is fixed (15 or more succeeds, 20 or more is a critical: mls, Use of Skills); give the ref's difficulty as --mod",
        ));
    }
    only_for(r, &[Mls, TieredD20], "--skill", args.side.skill.is_some())?;
    only_for(r, &[ExplodingD6], "--score", args.side.score.is_some())?;
    only_for(r, &[ExplodingD6], "--rote", args.exploding.rote)?;
    only_for(
        r,
        &[ExplodingD6],
        "--helper",
        !args.exploding.helper.is_empty(),
    )?;
    only_for(r, &[Favor3d6], "--favor", args.side.favor.is_some())?;
    only_for(r, &[Favor3d6], "--disfavor", args.side.disfavor.is_some())?;
    let t = &args.tiered;
    let tiered_flags = [
        ("--bonus", !t.bonus.is_empty()),
        ("--penalty", !t.penalty.is_empty()),
        ("--advantage", t.advantage > 0),
        ("--disadvantage", t.disadvantage > 0),
        ("--edge", t.edge.is_some()),
        ("--lose-edge", t.lose_edge.is_some()),
        ("--dc-edge", t.dc_edge.is_some()),
        ("--action", t.action.is_some()),
        ("--jam-tier", t.jam_tier.is_some()),
        ("--then", !t.then.is_empty()),
    ];
    for (flag, given) in tiered_flags {
        only_for(r, &[TieredD20], flag, given)?;
    }
    if t.penalty.iter().chain(&t.bonus).any(|&v| v < 0) {
        return Err(Failure::bad_input(
            "error: --bonus and --penalty take positive numbers (a penalty of 2 is --penalty 2)",
        ));
    }
    Ok(())
}

fn fantasy_check(args: &CheckArgs) -> Result<fantasy::Check, Failure> {
    let f = &args.fantasy;
    let reroll = match (f.reroll, f.forced_reroll, f.cancel_reroll) {
        (false, false, _) => fantasy::Reroll::None,
        (true, false, _) => fantasy::Reroll::Own,
        (false, true, false) => fantasy::Reroll::Forced,
        (_, true, true) => fantasy::Reroll::ForcedCancelled,
        (true, true, false) => fantasy::Reroll::OwnAndForced,
    };
    let modifier: i64 = args.side.modifier.iter().sum();
    let pool = match (&f.effect, f.magnitude || f.tools.is_some()) {
        (Some(pool), _) => Some(pool.clone()),
        // RULING F-6: by default 1d6 + the check's ability modifier.
        (None, true) => Some(
            fantasy::Effect::magnitude(
                f.tools.map_or(fantasy::Tools::Standard, Into::into),
                modifier,
            )
            .pool,
        ),
        (None, false) => None,
    };
    let effect = match pool {
        Some(pool) => Some(fantasy::Effect {
            pool,
            steps: f.step.unwrap_or(0),
            extra: f.extra.unwrap_or(0),
            nominal: f.nominal,
        }),
        None if f.step.is_some() || f.extra.is_some() || f.nominal => {
            return Err(Failure::bad_input(
                "error: --step, --extra and --nominal change the magnitude pool: ask for it with --magnitude or --effect POOL",
            ));
        }
        None => None,
    };
    Ok(fantasy::Check {
        modifier,
        dc: difficulty(
            Ruleset::Fantasy,
            &args.dc,
            f.take.is_none() || args.dc.is_some(),
        )?,
        crit_success: f.crit_success,
        crit_failure: f.crit_failure,
        natural_even: f.natural_even,
        take: f.take.map(|t| match t {
            TakeArg::Zero => fantasy::Take::Zero,
            TakeArg::Ten => fantasy::Take::Ten,
            TakeArg::Twenty => fantasy::Take::Twenty,
        }),
        stressful: f.stressful,
        no_retry: f.no_retry,
        reroll,
        effect,
    })
}

fn tiered_check(args: &CheckArgs, skill: i64, dc: i64) -> tiered_d20::Check {
    let t = &args.tiered;
    tiered_d20::Check {
        skill,
        modifier: args.side.modifier.iter().sum(),
        bonuses: t.bonus.clone(),
        penalties: t.penalty.clone(),
        dc,
        advantage: u32::from(t.advantage),
        disadvantage: u32::from(t.disadvantage),
        edges: t.edge.unwrap_or(0),
        lost_edges: t.lose_edge.unwrap_or(0),
        dc_edges: t.dc_edge.unwrap_or(0),
        action: t.action.unwrap_or(1),
        jam: t.jam_tier.map(|tier| (tier, t.attempt.unwrap_or(1))),
        effect: args.fantasy.effect.clone(),
        reroll: args.fantasy.reroll,
    }
}

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    validate(args)?;
    let mut out = anstream::stdout().lock();
    let modifier: i64 = args.side.modifier.iter().sum();
    let odds: OutcomeOdds;
    let results: Vec<CheckResult>;
    let mut source = if args.odds {
        None
    } else {
        Some(args.source.source()?)
    };
    macro_rules! run {
        ($check:expr) => {{
            let c = $check;
            if args.odds {
                odds = c.odds().map_err(rules_error)?;
                results = Vec::new();
            } else {
                odds = OutcomeOdds::named("", Vec::new());
                results = vec![
                    c.roll(source.as_mut().expect("a source").dice())
                        .map_err(rules_error)?,
                ];
            }
        }};
    }
    match args.ruleset {
        Ruleset::Fantasy => run!(fantasy_check(args)?),
        Ruleset::Mls => run!(mls::Check {
            skill: args.side.skill.unwrap_or(0),
            modifier
        }),
        Ruleset::ExplodingD6 => run!(exploding_d6::Check {
            score: args.side.score.unwrap_or(0),
            modifier,
            difficulty: difficulty(args.ruleset, &args.dc, true)?,
            rote: args.exploding.rote,
            helpers: args.exploding.helper.clone(),
            max_explosions: 0,
        }),
        Ruleset::TieredD20 => {
            let dc = difficulty(args.ruleset, &args.dc, args.tiered.jam_tier.is_none())?;
            let first = tiered_check(args, args.side.skill.unwrap_or(0), dc);
            if args.tiered.then.is_empty() {
                run!(first);
            } else {
                let mut checks = vec![first];
                for spec in &args.tiered.then {
                    let (skill, dc) = spec
                        .split_once(':')
                        .and_then(|(s, d)| Some((s.trim().parse().ok()?, d.trim().parse().ok()?)))
                        .ok_or_else(|| {
                            Failure::bad_input(format!(
                                "error: --then {spec}: expected SKILL:DC, such as 3:15"
                            ))
                        })?;
                    checks.push(tiered_d20::Check {
                        action: 1,
                        ..tiered_check(args, skill, dc)
                    });
                }
                let turn = tiered_d20::Turn { checks };
                if args.odds {
                    return print_turn_odds(&mut out, &turn, args.json);
                }
                let results = turn
                    .roll(source.as_mut().expect("a source").dice())
                    .map_err(rules_error)?;
                return print_turn(&mut out, &results, args.json);
            }
        }
        Ruleset::Favor3d6 => run!(favor_3d6::Test {
            modifier,
            favor: args.side.favor.unwrap_or(0),
            disfavor: args.side.disfavor.unwrap_or(0),
            td: difficulty(args.ruleset, &args.dc, true)?,
        }),
    }
    if args.odds {
        return print_odds(&mut out, &odds, args.json);
    }
    if let Some(warning) = source.as_ref().and_then(|s| s.leftover_warning()) {
        Failure::other(warning).print();
    }
    print_check(&mut out, &results[0], args.json)
}

fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string(value).map_err(|e| Failure::other(format!("error: {e}")))?;
    writeln!(out, "{text}")?;
    Ok(())
}

fn print_check(out: &mut impl Write, r: &CheckResult, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, r);
    }
    write_steps(out, &r.transcript)?;
    let mut summary = format!("{}: {}", r.ruleset, r.outcome.id());
    let mut details = Vec::new();
    if let Some(t) = r.total {
        details.push(format!("total {t}"));
    }
    if let Some(n) = r.natural {
        details.push(format!("natural {n}"));
    }
    if let Some(m) = r.margin {
        details.push(format!("margin {m:+}"));
    }
    for e in &r.experience {
        let s = if e.points == 1 { "" } else { "s" };
        details.push(format!(
            "{}: +{} experience point{s}",
            e.character, e.points
        ));
    }
    if !details.is_empty() {
        summary.push_str(&format!(" ({})", details.join(", ")));
    }
    writeln!(out, "{summary}")?;
    if let Some(e) = &r.effect {
        writeln!(out, "effect: {}", e.text)?;
    }
    Ok(())
}

fn write_steps(out: &mut impl Write, steps: &[nutshell_rules::Step]) -> Result<(), Failure> {
    for step in steps {
        writeln!(out, "  {}  ({})", step.text, step.rule)?;
    }
    Ok(())
}

fn print_turn(out: &mut impl Write, results: &[CheckResult], json: bool) -> Result<(), Failure> {
    if json {
        return write_json(
            out,
            &serde_json::json!({"ruleset": tiered_d20::ID, "checks": results}),
        );
    }
    for (k, r) in results.iter().enumerate() {
        writeln!(out, "check {}:", k + 1)?;
        print_check(out, r, false)?;
    }
    Ok(())
}

fn print_turn_odds(
    out: &mut impl Write,
    turn: &tiered_d20::Turn,
    json: bool,
) -> Result<(), Failure> {
    let reach = turn.reach_odds().map_err(rules_error)?;
    let mut all = Vec::new();
    for (k, check) in turn.checks.iter().enumerate() {
        let c = tiered_d20::Check {
            action: k as u32 + 1,
            ..check.clone()
        };
        all.push(c.odds().map_err(rules_error)?);
    }
    if json {
        let checks: Vec<_> = all
            .iter()
            .zip(&reach)
            .map(|(o, r)| serde_json::json!({"reached": nutshell_rules::odds::fraction(r), "outcomes": o.outcomes}))
            .collect();
        return write_json(
            out,
            &serde_json::json!({"ruleset": tiered_d20::ID, "checks": checks}),
        );
    }
    for (k, (o, r)) in all.iter().zip(&reach).enumerate() {
        writeln!(
            out,
            "check {} (reached with probability {} = {}):",
            k + 1,
            nutshell_rules::odds::fraction(r),
            percent(r)
        )?;
        print_odds(out, o, false)?;
    }
    Ok(())
}

fn print_odds(out: &mut impl Write, odds: &OutcomeOdds, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, odds);
    }
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    table.set_header(vec!["outcome", "probability", "%"]);
    for o in &odds.outcomes {
        table.add_row(vec![
            o.outcome.clone(),
            o.probability.clone(),
            percent(&o.exact),
        ]);
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    writeln!(out, "{table}")?;
    if odds.tail != "0" {
        writeln!(out, "tail {} (rolls past the explosion limit)", odds.tail)?;
    }
    for e in &odds.effects {
        writeln!(
            out,
            "effect on {}: {}  (mean {})",
            e.outcome, e.expression, e.mean
        )?;
        let line: Vec<String> = e
            .distribution
            .iter()
            .map(|v| format!("{}: {}", v.value, v.probability))
            .collect();
        let text = line.join(", ");
        if text.len() <= 400 {
            writeln!(out, "  {text}")?;
        } else {
            writeln!(
                out,
                "  ({} values; `nutshell odds '{}'` shows them)",
                e.distribution.len(),
                e.expression
            )?;
        }
    }
    Ok(())
}

pub fn contest(args: &ContestArgs) -> Result<(), Failure> {
    use Ruleset::*;
    let r = args.ruleset;
    // Before the flags: no flag makes a contest of these.
    match r {
        Fantasy => {
            return Err(Failure::bad_input(
                "error: fantasy has no contests: the target's defence is the DC of the attacker's check (fantasy, Difficulty Classes)",
            ));
        }
        TieredD20 => {
            return Err(Failure::bad_input(
                "error: tiered-d20 has no contests: the target sets the DC (tiered-d20, Rolling Dice)",
            ));
        }
        _ => {}
    }
    let s = &args.side;
    only_for(
        r,
        &[Mls],
        "--skill/--vs-skill",
        s.skill.is_some() || args.vs_skill.is_some(),
    )?;
    only_for(
        r,
        &[ExplodingD6],
        "--score/--vs-score",
        s.score.is_some() || args.vs_score.is_some(),
    )?;
    let favor_flags = s.favor.is_some()
        || s.disfavor.is_some()
        || args.vs_favor.is_some()
        || args.vs_disfavor.is_some();
    only_for(r, &[Favor3d6], "--favor/--disfavor", favor_flags)?;
    let ties = args.pc
        || args.vs_pc
        || args.defender
        || args.vs_defender
        || args.level.is_some()
        || args.vs_level.is_some();
    only_for(r, &[Favor3d6], "--pc/--defender/--level", ties)?;
    let m1: i64 = s.modifier.iter().sum();
    let m2: i64 = args.vs_modifier.iter().sum();
    let mut out = anstream::stdout().lock();
    macro_rules! run {
        ($c:expr) => {{
            let c = $c;
            if args.odds {
                return print_odds(&mut out, &c.odds().map_err(rules_error)?, args.json);
            }
            let mut source = args.source.source()?;
            let result = c.roll(source.dice()).map_err(rules_error)?;
            if let Some(warning) = source.leftover_warning() {
                Failure::other(warning).print();
            }
            return print_contest(&mut out, &result, args.json);
        }};
    }
    match r {
        Fantasy | TieredD20 => unreachable!("refused above"),
        Mls => run!(mls::Contest {
            active: mls::Check {
                skill: s.skill.unwrap_or(0),
                modifier: m1
            },
            opponent: mls::Check {
                skill: args.vs_skill.unwrap_or(0),
                modifier: m2
            },
        }),
        ExplodingD6 => run!(exploding_d6::Contest {
            first: exploding_d6::Check {
                score: s.score.unwrap_or(0),
                modifier: m1,
                ..Default::default()
            },
            second: exploding_d6::Check {
                score: args.vs_score.unwrap_or(0),
                modifier: m2,
                ..Default::default()
            },
        }),
        Favor3d6 => run!(favor_3d6::Contest {
            first: favor_3d6::Side {
                test: favor_3d6::Test {
                    modifier: m1,
                    favor: s.favor.unwrap_or(0),
                    disfavor: s.disfavor.unwrap_or(0),
                    td: 0
                },
                pc: args.pc,
                defender: args.defender,
                level: args.level.unwrap_or(0),
            },
            second: favor_3d6::Side {
                test: favor_3d6::Test {
                    modifier: m2,
                    favor: args.vs_favor.unwrap_or(0),
                    disfavor: args.vs_disfavor.unwrap_or(0),
                    td: 0
                },
                pc: args.vs_pc,
                defender: args.vs_defender,
                level: args.vs_level.unwrap_or(0),
            },
        }),
    }
}

fn print_contest(out: &mut impl Write, r: &ContestResult, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, r);
    }
    for (name, side) in ["first", "second"].iter().zip(&r.sides) {
        let dice: Vec<String> = side.dice.iter().map(|d| d.face.to_string()).collect();
        writeln!(
            out,
            "{name}: dice [{}], total {}, {}",
            dice.join(", "),
            side.total.map_or("-".to_string(), |t| t.to_string()),
            side.outcome.id()
        )?;
        for e in &side.experience {
            let s = if e.points == 1 { "" } else { "s" };
            writeln!(out, "  {}: +{} experience point{s}", e.character, e.points)?;
        }
        write_steps(out, &side.transcript)?;
    }
    write_steps(out, &r.transcript)?;
    let winner = match r.winner {
        "first" if r.ruleset == mls::ID => "the active side succeeds",
        "none" => "the active side fails",
        "first" => "the first side wins",
        _ => "the second side wins",
    };
    writeln!(out, "{}: {winner}", r.ruleset)?;
    Ok(())
}

pub fn table(args: &TableArgs) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| {
        Failure::bad_input(format!("error: cannot read {}: {e}", args.file.display()))
    })?;
    let table = nutshell_rules::table::Table::parse(&text)
        .map_err(|e| Failure::bad_input(format!("error: {}: {e}", args.file.display())))?;
    let mut source = args.source.source()?;
    let roll = table.roll(source.dice()).map_err(rules_error)?;
    let mut out = anstream::stdout().lock();
    if args.json {
        return write_json(&mut out, &roll);
    }
    writeln!(
        out,
        "{} ({}: {:?} = {}): {}",
        roll.title, roll.dice, roll.faces, roll.roll, roll.row.result
    )?;
    Ok(())
}
