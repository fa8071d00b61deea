//! `nutshell odds`: the exact distribution of an expression, or a Monte Carlo
//! estimate with `--simulate`.

use crate::exit::Failure;
use crate::fraction::{fraction, percent};
pub use crate::odds_args::OddsArgs;
use crate::odds_progress::{Progress, with_progress};
use crate::odds_text::{answer, bar, comparison_answer, short_fraction};
use comfy_table::{CellAlignment, Table, presets};
use num_rational::BigRational;
use nutshell_dice::exact::ratio_to_f64;
use nutshell_dice::simulate::{Estimate, simulate};
use nutshell_dice::{Distribution, Expression, Limits};
use serde_json::{Value, json};
use std::io::Write;

/// Most rows printed unless `--all`: the most likely outcomes are kept.
const DEFAULT_ROWS: usize = 60;
/// Rolls per simulation chunk (progress is reported per chunk).
const CHUNK: u64 = 100_000;

pub fn run(args: &OddsArgs, limits: &Limits) -> Result<(), Failure> {
    let limits = &args.exact.apply(limits);
    // Arguments that only parse together are one expression, as for `roll`:
    // `nutshell odds d20 + 5` is the odds of `d20 + 5`, not three columns.
    let given: Vec<String> = std::iter::once(args.expression.clone())
        .chain(args.more.iter().cloned())
        .collect();
    let (mut expressions, _) = crate::roll_cmd::joined(&given);
    let joined_args;
    let args = if expressions.len() < given.len() {
        joined_args = OddsArgs {
            expression: expressions.remove(0),
            more: expressions,
            ..args.clone()
        };
        &joined_args
    } else {
        args
    };
    if !args.more.is_empty() && args.json && args.simulate.is_none() {
        // One object per line, each as `nutshell odds EXPR --json` prints it.
        for text in std::iter::once(&args.expression).chain(&args.more) {
            let one = OddsArgs {
                expression: text.clone(),
                more: Vec::new(),
                ..args.clone()
            };
            run(&one, limits)?;
        }
        return Ok(());
    }
    if !args.more.is_empty() {
        return crate::odds_compare::run(args, limits);
    }
    let input;
    let text = if args.expression == "-" {
        input = crate::files::read_stdin()?;
        input.trim()
    } else {
        args.expression.as_str()
    };
    let expr =
        Expression::parse_with(text, limits).map_err(|e| Failure::bad_input(e.render(text)))?;
    for note in expr.notes() {
        let _ = writeln!(anstream::stderr(), "note: {note}");
    }
    match args.simulate {
        Some(n) => simulated(args, &expr, n),
        None => exact(args, &expr),
    }
}

/// The exact answer, with a progress bar on a terminal when it takes long
/// (`odds_progress`).
fn exact(args: &OddsArgs, expr: &Expression) -> Result<(), Failure> {
    with_progress(expr.limits(), |progress| exact_with(args, expr, progress))
}

fn exact_with(args: &OddsArgs, expr: &Expression, progress: &Progress) -> Result<(), Failure> {
    let refuse = |e: nutshell_dice::ExactError| Failure::bad_input(e.render(expr.text()));
    let dist = expr.distribution().map_err(refuse)?;
    // Threshold questions are answered from a capped distribution, which is
    // exact even where the full one has a tail.
    let at_least = match args.at_least {
        Some(t) => Some((t, expr.distribution_capped(t).map_err(refuse)?.at_least(t))),
        None => None,
    };
    let at_most = match args.at_most {
        Some(t) => Some((t, at_most_exact(expr, t).map_err(refuse)?)),
        None => None,
    };
    if args.json {
        progress.writing(dist.outcomes().len() as u64);
        // JSON has no styles to strip: straight to standard output.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        write_json(&mut w, expr, &dist, &at_least, &at_most, progress)?;
        w.flush()?;
        return Ok(());
    }
    progress.clear();
    let mut out = anstream::stdout().lock();
    if let Some(answer) = comparison_answer(expr, &dist) {
        writeln!(out, "{answer}")?;
        write_tail(&mut out, expr, &dist)?;
        return Ok(());
    }
    writeln!(out, "{}", crate::shown::text(expr.normalized()))?;
    write_table(&mut out, &dist, args.all)?;
    writeln!(
        out,
        "mean {}   standard deviation {:.4}",
        mean_text(&dist.mean()),
        dist.std_dev()
    )?;
    if let Some((lo, hi)) = dist.range() {
        writeln!(out, "range {lo} to {hi}")?;
    }
    write_tail(&mut out, expr, &dist)?;
    if let Some((t, p)) = &at_least {
        writeln!(out, "P(total >= {t}) = {}", answer(p))?;
    }
    if let Some((t, p)) = &at_most {
        writeln!(out, "P(total <= {t}) = {}", answer(p))?;
    }
    Ok(())
}

/// The line saying what the tail of exploding dice leaves out, if any.
fn write_tail(out: &mut impl Write, expr: &Expression, dist: &Distribution) -> Result<(), Failure> {
    if dist.tail() != BigRational::from_integer(0.into()) {
        let limits = expr.limits();
        let most = match limits.max_repeats_per_die {
            1 => "at most 1 explosion per die".to_string(),
            n => format!("at most {n} explosions per die"),
        };
        let depth = if limits.tail_digits > 0 {
            format!(
                "followed until the tail is below 1e-{}, {most}",
                limits.tail_digits
            )
        } else {
            most
        };
        writeln!(
            out,
            "tail {} ({}): rolls that explode further than the exact odds follow ({depth}) are not in the table",
            short_fraction(&dist.tail()),
            percent(&dist.tail()),
        )?;
    }
    Ok(())
}

/// The JSON answer, streamed: each outcome's fraction is reduced and written
/// in turn into a buffer sent out every 16 KiB (a larger one costs more in
/// fresh pages than it saves in writes), never the whole text held at
/// once. Keys in alphabetical order (as before streaming): `at_least`,
/// `at_most`, `distribution`, `expression`, `mean`, `std_dev`, `tail`,
/// `variance`.
fn write_json(
    w: &mut impl Write,
    expr: &Expression,
    dist: &Distribution,
    at_least: &Option<(i64, BigRational)>,
    at_most: &Option<(i64, BigRational)>,
    progress: &Progress,
) -> Result<(), Failure> {
    const FLUSH_AT: usize = 1 << 14;
    let mut buf: Vec<u8> = Vec::with_capacity(FLUSH_AT + 4096);
    buf.push(b'{');
    for (key, p) in [("at_least", at_least), ("at_most", at_most)] {
        if let Some((t, p)) = p {
            write!(
                buf,
                "\"{key}\":{{\"probability\":\"{}\",\"value\":{t}}},",
                fraction(p)
            )?;
        }
    }
    buf.extend_from_slice(b"\"distribution\":[");
    // Reduced in place and written as digits, a denominator shared with the
    // fraction before written from its text (see `FractionWriter`).
    let mut fractions = dist.fraction_writer();
    let mut unreported = 0;
    for (i, (v, weight)) in dist.outcomes().iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"probability\":\"");
        fractions.write(weight, &mut buf);
        write!(buf, "\",\"value\":{v}}}")?;
        unreported += 1;
        if buf.len() >= FLUSH_AT {
            w.write_all(&buf)?;
            buf.clear();
            progress.wrote(unreported);
            unreported = 0;
        }
    }
    let text = |s: &str| serde_json::to_string(s).unwrap_or_default();
    write!(
        buf,
        "],\"expression\":{},\"mean\":\"{}\",\"std_dev\":{},\"tail\":\"",
        text(expr.normalized()),
        fraction(&dist.mean()),
        serde_json::to_string(&dist.std_dev()).unwrap_or_else(|_| "null".into()),
    )?;
    fractions.write(dist.tail_weight(), &mut buf);
    writeln!(buf, "\",\"variance\":\"{}\"}}", fraction(&dist.variance()))?;
    w.write_all(&buf)?;
    Ok(())
}

/// P(total <= t) = 1 - P(total >= t + 1), from a distribution capped at t + 1.
fn at_most_exact(expr: &Expression, t: i64) -> Result<BigRational, nutshell_dice::ExactError> {
    match t.checked_add(1) {
        Some(cap) => {
            let d = expr.distribution_capped(cap)?;
            Ok(d.at_most(t))
        }
        None => Ok(expr.distribution()?.at_most(t)),
    }
}

fn mean_text(mean: &BigRational) -> String {
    let decimal = format!("{:.4}", ratio_to_f64(mean));
    let f = fraction(mean);
    if f.len() <= 24 && !f.contains('/') {
        f
    } else if f.len() <= 24 {
        format!("{f} ≈ {decimal}")
    } else {
        format!("≈ {decimal}")
    }
}

fn write_table(out: &mut impl Write, dist: &Distribution, all: bool) -> Result<(), Failure> {
    let outcomes = dist.outcomes();
    // Percentages need only floats: no fraction is reduced unless shown.
    let floats: Vec<f64> = outcomes.iter().map(|(_, w)| dist.float(w)).collect();
    // Which rows to show: all, or the most likely DEFAULT_ROWS as one run.
    let shown: std::ops::Range<usize> = if all || outcomes.len() <= DEFAULT_ROWS {
        0..outcomes.len()
    } else {
        let mut best = 0;
        let mut best_mass = -1.0;
        let mut window: f64 = floats[..DEFAULT_ROWS].iter().sum();
        for start in 0..=outcomes.len() - DEFAULT_ROWS {
            if start > 0 {
                window += floats[start + DEFAULT_ROWS - 1] - floats[start - 1];
            }
            if window > best_mass {
                best_mass = window;
                best = start;
            }
        }
        best..best + DEFAULT_ROWS
    };
    let probability = |i: usize| dist.probability(outcomes[i].0);
    let fractions: Vec<String> = shown.clone().map(|i| fraction(&probability(i))).collect();
    let fractions_fit = fractions.iter().all(|f| f.len() <= 24);
    let peak = floats.iter().cloned().fold(0.0, f64::max);
    // Cumulative weights (big integers, added), read as floats.
    let mut at_least_w = vec![num_bigint::BigUint::from(0u32); outcomes.len() + 1];
    for i in (0..outcomes.len()).rev() {
        at_least_w[i] = &at_least_w[i + 1] + &outcomes[i].1;
    }
    let total_w = &at_least_w[0];
    let pct = |x: f64, nonzero: bool| {
        if !nonzero {
            "0%".to_string()
        } else if x * 100.0 < 0.00005 {
            "<0.0001%".to_string()
        } else {
            format!("{:.4}%", x * 100.0)
        }
    };
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    let mut header = vec!["value"];
    if fractions_fit {
        header.push("probability");
    }
    header.extend(["%", "at least", "at most", ""]);
    table.set_header(header);
    for (row_index, i) in shown.clone().enumerate() {
        let mut row = vec![outcomes[i].0.to_string()];
        if fractions_fit {
            row.push(fractions[row_index].clone());
        }
        let at_most_w = total_w - &at_least_w[i + 1];
        row.push(pct(floats[i], true));
        row.push(pct(dist.float(&at_least_w[i]), true));
        row.push(pct(dist.float(&at_most_w), true));
        row.push(bar(floats[i] / peak.max(f64::MIN_POSITIVE)));
        table.add_row(row);
    }
    let columns = table.column_count();
    for (i, column) in table.column_iter_mut().enumerate() {
        if i > 0 && i + 1 < columns {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    writeln!(out, "{table}")?;
    if shown.len() < outcomes.len() {
        writeln!(
            out,
            "({} of {} outcomes shown, the most likely run; --all shows every outcome)",
            shown.len(),
            outcomes.len()
        )?;
    }
    if !fractions_fit {
        writeln!(
            out,
            "(exact fractions are too long to show here; --json prints them)"
        )?;
    }
    Ok(())
}

fn simulated(args: &OddsArgs, expr: &Expression, rolls: u64) -> Result<(), Failure> {
    use rayon::prelude::*;
    let chunks = rolls.div_ceil(CHUNK);
    let progress = indicatif::ProgressBar::new(rolls);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rolls, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if rolls < 20 * CHUNK {
        progress.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let parts: Result<Vec<Estimate>, nutshell_dice::RollError> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let n = CHUNK.min(rolls - chunk * CHUNK);
            let estimate = simulate(expr, n, args.seed, chunk);
            progress.inc(n);
            estimate
        })
        .collect();
    progress.finish_and_clear();
    let mut estimate = Estimate::default();
    for part in parts.map_err(|e| Failure::bad_input(e.render(expr.text())))? {
        estimate.merge(part);
    }
    let mut out = anstream::stdout().lock();
    let mean = estimate.mean();
    if args.json {
        let mut object = json!({
            "expression": expr.normalized(),
            "simulated": rolls,
            "seed": args.seed,
            "distribution": estimate.counts.iter().map(|(v, c)| {
                let p = estimate.proportion(*c);
                json!({"value": v, "probability": p.estimate, "low": p.low, "high": p.high})
            }).collect::<Vec<Value>>(),
            "mean": mean.estimate,
            "mean_interval": [mean.low, mean.high],
            "std_dev": estimate.std_dev(),
        });
        if let Some(t) = args.at_least {
            let p = estimate.at_least(t);
            object["at_least"] =
                json!({"value": t, "probability": p.estimate, "low": p.low, "high": p.high});
        }
        if let Some(t) = args.at_most {
            let p = estimate.at_most(t);
            object["at_most"] =
                json!({"value": t, "probability": p.estimate, "low": p.low, "high": p.high});
        }
        writeln!(out, "{object}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}  (estimated from {rolls} rolls, seed {}; 95% intervals)",
        crate::shown::text(expr.normalized()),
        args.seed
    )?;
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    table.set_header(vec!["value", "%", "95% interval", ""]);
    let peak = estimate.counts.values().copied().max().unwrap_or(1) as f64;
    let rows: Vec<(&i64, &u64)> = estimate.counts.iter().collect();
    let shown = if args.all || rows.len() <= DEFAULT_ROWS {
        rows.len()
    } else {
        DEFAULT_ROWS
    };
    let mut by_count = rows.clone();
    by_count.sort_by(|a, b| b.1.cmp(a.1));
    let mut keep: Vec<i64> = by_count.iter().take(shown).map(|(v, _)| **v).collect();
    keep.sort_unstable();
    for v in keep {
        let c = estimate.counts[&v];
        let p = estimate.proportion(c);
        table.add_row(vec![
            v.to_string(),
            format!("{:.4}%", p.estimate * 100.0),
            format!("{:.4}% .. {:.4}%", p.low * 100.0, p.high * 100.0),
            bar(c as f64 / peak),
        ]);
    }
    writeln!(out, "{table}")?;
    if shown < rows.len() {
        writeln!(
            out,
            "({shown} of {} outcomes seen shown; --all shows every one)",
            rows.len()
        )?;
    }
    writeln!(
        out,
        "mean {:.4} (95%: {:.4} .. {:.4})   standard deviation {:.4}",
        mean.estimate,
        mean.low,
        mean.high,
        estimate.std_dev()
    )?;
    if let Some(t) = args.at_least {
        let p = estimate.at_least(t);
        writeln!(
            out,
            "P(total >= {t}) ≈ {:.4}% (95%: {:.4}% .. {:.4}%)",
            p.estimate * 100.0,
            p.low * 100.0,
            p.high * 100.0
        )?;
    }
    if let Some(t) = args.at_most {
        let p = estimate.at_most(t);
        writeln!(
            out,
            "P(total <= {t}) ≈ {:.4}% (95%: {:.4}% .. {:.4}%)",
            p.estimate * 100.0,
            p.low * 100.0,
            p.high * 100.0
        )?;
    }
    Ok(())
}
