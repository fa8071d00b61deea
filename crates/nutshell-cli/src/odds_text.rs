//! How odds are written: a comparison's answer, a probability as a short
//! fraction and a percentage, a bar of eighths. Used by `odds_cmd` and
//! `odds_compare`.

use crate::fraction::fraction;
use num_rational::BigRational;
use nutshell_dice::exact::ratio_to_f64;
use nutshell_dice::{Distribution, Expression};

/// Width of the histogram bars, in characters.
const BAR_WIDTH: usize = 30;

/// `P(expression) = p (percent)` when the whole expression is a comparison
/// of totals (1 when it holds, else 0): its answer, not a table of 0 and 1;
/// a label around it follows (`P(1d20 + 5 >= 15) = 11/20 (55%) [to hit]`).
pub fn comparison_answer(expr: &Expression, dist: &Distribution) -> Option<String> {
    let mut node = expr.root();
    let mut labels = Vec::new();
    while let nutshell_dice::plan::NodeKind::Labeled(inner, label) = &node.kind {
        labels.push(format!(" [{label}]"));
        node = inner;
    }
    if !matches!(node.kind, nutshell_dice::plan::NodeKind::Compare(..)) {
        return None;
    }
    labels.reverse();
    Some(format!(
        "P({node}) = {}{}",
        answer(&dist.probability(1)),
        labels.concat()
    ))
}

/// A probability as `37/324 (11.42%)`: the exact fraction when short, and
/// the percentage to two decimals (trailing zeros dropped: `11/20 (55%)`).
pub fn answer(p: &BigRational) -> String {
    format!(
        "{} ({})",
        short_fraction(p),
        crate::fraction::short_percent(p)
    )
}

/// A fraction if it is short enough to read, else its decimal value.
pub fn short_fraction(p: &BigRational) -> String {
    let f = fraction(p);
    if f.len() <= 24 {
        f
    } else {
        format!("≈ {:.6e}", ratio_to_f64(p))
    }
}

/// A horizontal bar of `fraction` (0..=1) of the full width, in eighths.
pub fn bar(fraction: f64) -> String {
    bar_of_width(fraction, BAR_WIDTH)
}

/// A horizontal bar of `fraction` (0..=1) of `width` characters, in eighths.
pub fn bar_of_width(fraction: f64, width: usize) -> String {
    const EIGHTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
    let eighths = (fraction.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push(EIGHTHS[eighths % 8 - 1]);
    }
    s
}
