//! `nutshell odds A B C`: several exact distributions side by side, a
//! column each (as AnyDice and icepool users compare them); several
//! comparisons of totals as one answer a line.

use crate::exit::Failure;
use crate::odds_args::OddsArgs;
use comfy_table::{CellAlignment, Table, presets};
use nutshell_dice::{Distribution, Expression, Limits};
use std::collections::BTreeSet;
use std::io::Write;

/// Most rows shown unless `--all`.
const DEFAULT_ROWS: usize = 60;

/// The table (or the answers) of several expressions side by side; with
/// `--json`, `odds_cmd` prints each on its own line instead.
pub fn run(args: &OddsArgs, limits: &Limits) -> Result<(), Failure> {
    if args.simulate.is_some() {
        return Err(Failure::bad_input(
            "error: --simulate estimates one expression at a time; give one, or drop --simulate for exact odds side by side",
        ));
    }
    let texts: Vec<&String> = std::iter::once(&args.expression)
        .chain(&args.more)
        .collect();
    let mut exprs = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        if *text == "-" {
            return Err(Failure::bad_input(
                "error: `-` (standard input) reads one expression: give it alone",
            ));
        }
        let expr = Expression::parse_with(text, limits).map_err(|e| {
            let message = e.render(text);
            let rest = message.strip_prefix("error: ").unwrap_or(&message);
            Failure::bad_input(format!(
                "error: expression {} (nothing computed): {rest}",
                i + 1
            ))
        })?;
        exprs.push(expr);
    }
    let mut dists = Vec::with_capacity(exprs.len());
    for expr in &exprs {
        for note in expr.notes() {
            let _ = writeln!(anstream::stderr(), "note: {note}");
        }
        dists.push(
            expr.distribution()
                .map_err(|e| Failure::bad_input(e.render(expr.text())))?,
        );
    }
    let mut out = anstream::stdout().lock();
    let answers: Option<Vec<String>> = exprs
        .iter()
        .zip(&dists)
        .map(|(expr, dist)| crate::odds_text::comparison_answer(expr, dist))
        .collect();
    if let Some(answers) = answers {
        for line in answers {
            writeln!(out, "{line}")?;
        }
        return Ok(());
    }
    write_side_by_side(&mut out, &exprs, &dists, args)?;
    Ok(())
}

fn write_side_by_side(
    out: &mut impl Write,
    exprs: &[Expression],
    dists: &[Distribution],
    args: &OddsArgs,
) -> Result<(), Failure> {
    let values: Vec<i64> = dists
        .iter()
        .flat_map(|d| d.outcomes().iter().map(|(v, _)| *v))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // Each value's probability in each distribution, as a float for the
    // percentages and bars (the exact fractions: --json).
    let floats: Vec<Vec<f64>> = dists
        .iter()
        .map(|d| {
            let by_value: std::collections::HashMap<i64, f64> =
                d.outcomes().iter().map(|(v, w)| (*v, d.float(w))).collect();
            values
                .iter()
                .map(|v| by_value.get(v).copied().unwrap_or(0.0))
                .collect()
        })
        .collect();
    let shown = if args.all || values.len() <= DEFAULT_ROWS {
        0..values.len()
    } else {
        // The run of rows holding the most of the distributions' mass.
        let mass = |i: usize| floats.iter().map(|f| f[i]).sum::<f64>();
        let mut window: f64 = (0..DEFAULT_ROWS).map(mass).sum();
        let (mut best, mut best_mass) = (0, window);
        for start in 1..=values.len() - DEFAULT_ROWS {
            window += mass(start + DEFAULT_ROWS - 1) - mass(start - 1);
            if window > best_mass {
                best_mass = window;
                best = start;
            }
        }
        best..best + DEFAULT_ROWS
    };
    let peak = floats
        .iter()
        .flatten()
        .copied()
        .fold(f64::MIN_POSITIVE, f64::max);
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    let mut header = vec!["value".to_string()];
    header.extend(exprs.iter().map(|e| e.normalized().to_string()));
    table.set_header(header);
    let percent = |x: f64| {
        if x == 0.0 {
            String::new()
        } else if x * 100.0 < 0.00005 {
            "<0.0001%".to_string()
        } else {
            format!("{:.4}%", x * 100.0)
        }
    };
    for i in shown.clone() {
        let mut row = vec![values[i].to_string()];
        row.extend(floats.iter().map(|f| {
            let p = percent(f[i]);
            if p.is_empty() {
                p
            } else {
                format!("{p} {}", bar_of(f[i] / peak))
            }
        }));
        table.add_row(row);
    }
    let mut summary = |name: &str, cell: &dyn Fn(&Distribution) -> String| {
        let mut row = vec![name.to_string()];
        row.extend(dists.iter().map(cell));
        table.add_row(row);
    };
    summary("mean", &|d| {
        format!("{:.4}", nutshell_dice::exact::ratio_to_f64(&d.mean()))
    });
    summary("sd", &|d| format!("{:.4}", d.std_dev()));
    if let Some(t) = args.at_least {
        summary(&format!(">= {t}"), &|d| {
            crate::fraction::short_percent(&d.at_least(t))
        });
    }
    if let Some(t) = args.at_most {
        summary(&format!("<= {t}"), &|d| {
            crate::fraction::short_percent(&d.at_most(t))
        });
    }
    if dists
        .iter()
        .any(|d| d.tail() != num_rational::BigRational::from_integer(0.into()))
    {
        summary("tail", &|d| crate::fraction::short_percent(&d.tail()));
    }
    for column in table.column_iter_mut().skip(1) {
        column.set_cell_alignment(CellAlignment::Left);
    }
    writeln!(out, "{table}")?;
    if shown.len() < values.len() {
        writeln!(
            out,
            "({} of {} values shown, the most likely run; --all shows every one)",
            shown.len(),
            values.len()
        )?;
    }
    writeln!(
        out,
        "(each column: the chance of each value; exact fractions: nutshell odds EXPR --json)"
    )?;
    Ok(())
}

/// A bar a third of the single table's width.
fn bar_of(fraction: f64) -> String {
    crate::odds_text::bar_of_width(fraction, 10)
}
