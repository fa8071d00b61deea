//! `nutshell check`, `nutshell contest` and `nutshell table`: the rulesets.

use crate::exit::Failure;
use crate::fraction::percent;
use crate::rules_text::{dice_groups, side_outcome, winner_name};
use crate::source_args::SourceArgs;
use clap::{Args, ValueEnum};
use comfy_table::{CellAlignment, Table, presets};
use nutshell_rules::odds::OutcomeOdds;
use nutshell_rules::request::{
    CheckRequest, ContestRequest, ExplodingCheck, ExplodingContest, FantasyCheck, FantasyDc,
    FavorCheck, FavorContest, MlsCheck, MlsContest, Numbers, Odds, Rolled, TieredCheck, ToolsName,
    TurnOdds, TurnResult,
};
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
    /// The ability score's modifier: added to the check, and the only modifier of the default magnitude check
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub ability: Option<i64>,
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
    /// Spend a reroll if the check fails (also tiered-d20: one reroll of a d20, for the whole turn)
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
    /// Roll the default magnitude check on a success: 1d6 + the ability score (--ability)
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
    /// The effect does double damage: the whole magnitude pool and every modifier doubled (a critical doubles it again)
    #[arg(long)]
    pub double: bool,
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
    /// A bonus to the damage or healing roll of --effect, under its own stacking cap (repeatable)
    #[arg(long, value_name = "N")]
    pub effect_bonus: Vec<i64>,
    /// A penalty to the damage or healing roll of --effect, as a positive number, under the cap (repeatable)
    #[arg(long, value_name = "N")]
    pub effect_penalty: Vec<i64>,
    /// This is the K-th check of the round (-5 for each before it)
    #[arg(long, value_name = "K")]
    pub action: Option<u32>,
    /// Clearing a jammed item of this tier: DC 10 + tier
    #[arg(long, value_name = "TIER")]
    pub jam_tier: Option<i64>,
    /// The attempt to clear the jam (+5 per attempt after the first)
    #[arg(long, value_name = "K", requires = "jam_tier")]
    pub attempt: Option<u32>,
    /// A further check in the same round (repeatable), as SKILL:DC or with its own options: '--skill 3 --dc 15 --advantage'; the turn stops at a critical failure
    #[arg(long, value_name = "CHECK", allow_hyphen_values = true)]
    pub then: Vec<String>,
}

// The second side's flags repeat `SideArgs`'s with `vs-` names and their
// own help, as clap has no prefix for a flattened group.
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

// `--odds` and `--json` are written out in each command (as `check` and
// `contest` do), so that each one's help says what its odds are of.
#[derive(Debug, Clone, Args)]
pub struct TableArgs {
    /// A TOML table file (see docs/rulesets/exploding-d6.md)
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Each row's exact probability instead of a roll
    #[arg(long)]
    pub odds: bool,
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

/// The difficulty given as `--dc`, as a whole number (fantasy descriptors are
/// read by the ruleset's request).
fn difficulty(dc: &Option<String>) -> Result<Option<i64>, Failure> {
    dc.as_ref()
        .map(|text| {
            text.trim().parse().map_err(|_| {
                Failure::bad_input(format!("error: --dc {text}: expected a whole number"))
            })
        })
        .transpose()
}
fn validate(args: &CheckArgs) -> Result<(), Failure> {
    use Ruleset::*;
    let r = args.ruleset;
    let f = &args.fantasy;
    let fantasy_flags = [
        ("--ability", f.ability.is_some()),
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
        ("--double", f.double),
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
        ("--effect-bonus", !t.effect_bonus.is_empty()),
        ("--effect-penalty", !t.effect_penalty.is_empty()),
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
    Ok(())
}

/// The check the flags describe, as the ruleset's request (the same type a
/// JSON request deserializes into).
fn check_request(args: &CheckArgs) -> Result<CheckRequest, Failure> {
    let modifier = Numbers::from(args.side.modifier.clone());
    let f = &args.fantasy;
    let t = &args.tiered;
    Ok(match args.ruleset {
        Ruleset::Fantasy => CheckRequest::Fantasy(FantasyCheck {
            modifier,
            ability: f.ability,
            dc: args.dc.clone().map(FantasyDc::Text),
            crit_success: f.crit_success,
            crit_failure: f.crit_failure,
            natural_even: f.natural_even,
            take: f.take.map(|t| match t {
                TakeArg::Zero => 0,
                TakeArg::Ten => 10,
                TakeArg::Twenty => 20,
            }),
            stressful: f.stressful,
            no_retry: f.no_retry,
            reroll: f.reroll,
            forced_reroll: f.forced_reroll,
            cancel_reroll: f.cancel_reroll,
            effect: f.effect.clone(),
            magnitude: f.magnitude,
            tools: f.tools.map(Into::into),
            step: f.step,
            extra: f.extra,
            nominal: f.nominal,
            double: f.double,
        }),
        Ruleset::Mls => CheckRequest::Mls(MlsCheck {
            modifier,
            skill: args.side.skill,
        }),
        Ruleset::ExplodingD6 => CheckRequest::ExplodingD6(ExplodingCheck {
            modifier,
            score: args.side.score,
            dc: difficulty(&args.dc)?,
            rote: args.exploding.rote,
            helper: args.exploding.helper.clone().into(),
        }),
        Ruleset::TieredD20 => CheckRequest::TieredD20(TieredCheck {
            modifier,
            skill: args.side.skill,
            dc: difficulty(&args.dc)?,
            bonus: t.bonus.clone().into(),
            penalty: t.penalty.clone().into(),
            advantage: u32::from(t.advantage),
            disadvantage: u32::from(t.disadvantage),
            edge: t.edge,
            lose_edge: t.lose_edge,
            dc_edge: t.dc_edge,
            action: t.action,
            jam_tier: t.jam_tier,
            attempt: t.attempt,
            effect: f.effect.clone(),
            effect_bonus: t.effect_bonus.clone().into(),
            effect_penalty: t.effect_penalty.clone().into(),
            reroll: f.reroll,
            then: t
                .then
                .iter()
                .map(|spec| TieredCheck::parse_then(spec))
                .collect::<Result<_, _>>()
                .map_err(rules_error)?,
        }),
        Ruleset::Favor3d6 => CheckRequest::Favor3d6(FavorCheck {
            modifier,
            favor: args.side.favor,
            disfavor: args.side.disfavor,
            dc: difficulty(&args.dc)?,
        }),
    })
}

impl From<ToolsArg> for ToolsName {
    fn from(t: ToolsArg) -> ToolsName {
        match t {
            ToolsArg::ImprovisedPoor => ToolsName::ImprovisedPoor,
            ToolsArg::Improvised => ToolsName::Improvised,
            ToolsArg::Standard => ToolsName::Standard,
            ToolsArg::Superior => ToolsName::Superior,
            ToolsArg::SuperiorTrained => ToolsName::SuperiorTrained,
        }
    }
}

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    validate(args)?;
    let request = check_request(args)?;
    request.validate().map_err(rules_error)?;
    let mut out = anstream::stdout().lock();
    if args.odds {
        return match request.odds().map_err(rules_error)? {
            Odds::Check(odds) => print_odds(&mut out, &odds, args.json),
            Odds::Turn(turn) => print_turn_odds(&mut out, &turn, args.json),
        };
    }
    let mut source = args.source.source()?;
    let rolled = request.roll(source.dice()).map_err(rules_error)?;
    if let Some(warning) = source.leftover_warning() {
        Failure::other(warning).print();
    }
    match rolled {
        Rolled::Check(result) => print_check(&mut out, &result, args.json),
        Rolled::Turn(turn) => print_turn(&mut out, &turn, args.json),
    }
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
    if !r.dice.is_empty() {
        writeln!(out, "  rolled {}", dice_groups(&r.dice).join("; "))?;
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

fn print_turn(out: &mut impl Write, turn: &TurnResult, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, turn);
    }
    for (k, r) in turn.checks.iter().enumerate() {
        writeln!(out, "check {}:", k + 1)?;
        print_check(out, r, false)?;
    }
    Ok(())
}

fn print_turn_odds(out: &mut impl Write, turn: &TurnOdds, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, turn);
    }
    for (k, check) in turn.checks.iter().enumerate() {
        writeln!(
            out,
            "check {} (reached with probability {} = {}):",
            k + 1,
            check.reached,
            percent(&check.reached_exact)
        )?;
        print_odds(out, &check.odds, false)?;
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
    let request = match r {
        Fantasy | TieredD20 => unreachable!("refused above"),
        Mls => ContestRequest::Mls(MlsContest {
            modifier: s.modifier.clone().into(),
            skill: s.skill,
            vs_modifier: args.vs_modifier.clone().into(),
            vs_skill: args.vs_skill,
        }),
        ExplodingD6 => ContestRequest::ExplodingD6(ExplodingContest {
            modifier: s.modifier.clone().into(),
            score: s.score,
            vs_modifier: args.vs_modifier.clone().into(),
            vs_score: args.vs_score,
        }),
        Favor3d6 => ContestRequest::Favor3d6(FavorContest {
            modifier: s.modifier.clone().into(),
            favor: s.favor,
            disfavor: s.disfavor,
            pc: args.pc,
            defender: args.defender,
            level: args.level,
            vs_modifier: args.vs_modifier.clone().into(),
            vs_favor: args.vs_favor,
            vs_disfavor: args.vs_disfavor,
            vs_pc: args.vs_pc,
            vs_defender: args.vs_defender,
            vs_level: args.vs_level,
        }),
    };
    request.validate().map_err(rules_error)?;
    let mut out = anstream::stdout().lock();
    if args.odds {
        let mut odds = request.odds().map_err(rules_error)?;
        if !args.json {
            for o in &mut odds.outcomes {
                o.outcome = winner_name(odds.ruleset, &o.outcome).to_string();
            }
        }
        return print_odds(&mut out, &odds, args.json);
    }
    let mut source = args.source.source()?;
    let result = request.roll(source.dice()).map_err(rules_error)?;
    if let Some(warning) = source.leftover_warning() {
        Failure::other(warning).print();
    }
    print_contest(&mut out, &result, args.json)
}

fn print_contest(out: &mut impl Write, r: &ContestResult, json: bool) -> Result<(), Failure> {
    if json {
        return write_json(out, r);
    }
    for (i, (name, side)) in ["first", "second"].iter().zip(&r.sides).enumerate() {
        let mut rolled = dice_groups(&side.dice).join("; ");
        if rolled.is_empty() {
            rolled = "no dice".to_string();
        }
        writeln!(
            out,
            "{name}: {rolled}; total {}: {}",
            side.total.map_or("-".to_string(), |t| t.to_string()),
            side_outcome(r, i)
        )?;
        for e in &side.experience {
            let s = if e.points == 1 { "" } else { "s" };
            writeln!(out, "  {}: +{} experience point{s}", e.character, e.points)?;
        }
        write_steps(out, &side.transcript)?;
    }
    write_steps(out, &r.transcript)?;
    writeln!(out, "{}: {}", r.ruleset, winner_name(r.ruleset, r.winner))?;
    Ok(())
}

pub fn table(args: &TableArgs) -> Result<(), Failure> {
    let text = crate::files::read_text(&args.file)?;
    let table = nutshell_rules::table::Table::parse(&text)
        .map_err(|e| Failure::bad_input(format!("error: {}: {e}", args.file.display())))?;
    let mut out = anstream::stdout().lock();
    if args.odds {
        if args.source.seed.is_some() || args.source.faces.is_some() {
            return Err(Failure::bad_input(
                "error: --odds computes exact probabilities and rolls nothing: drop --seed and --faces",
            ));
        }
        let odds = table.odds();
        if args.json {
            let json = serde_json::json!({
                "title": table.title,
                "dice": format!("d{}", "6".repeat(table.digits as usize)),
                "rows": odds,
            });
            return write_json(&mut out, &json);
        }
        let mut grid = Table::new();
        grid.load_preset(presets::NOTHING);
        grid.set_header(vec!["roll", "result", "probability", "%"]);
        for o in &odds {
            let roll = if o.row.from == o.row.to {
                o.row.from.to_string()
            } else {
                format!("{}-{}", o.row.from, o.row.to)
            };
            grid.add_row(vec![
                roll,
                crate::shown::text(&o.row.result).into_owned(),
                o.probability.clone(),
                format!("{:.2}", o.percent),
            ]);
        }
        for column in grid.column_iter_mut().skip(2) {
            column.set_cell_alignment(CellAlignment::Right);
        }
        writeln!(out, "{}", crate::shown::text(&table.title))?;
        writeln!(out, "{grid}")?;
        return Ok(());
    }
    let mut source = args.source.source()?;
    let roll = table.roll(source.dice()).map_err(rules_error)?;
    if args.json {
        return write_json(&mut out, &roll);
    }
    writeln!(
        out,
        "{} ({}: {:?} = {}): {}",
        crate::shown::text(&roll.title),
        roll.dice,
        roll.faces,
        roll.roll,
        crate::shown::text(&roll.text)
    )?;
    for r in &roll.rolls {
        writeln!(out, "  {}", crate::shown::text(&r.roll.text))?;
    }
    if let Some(warning) = source.leftover_warning() {
        Failure::other(warning).print();
    }
    Ok(())
}
