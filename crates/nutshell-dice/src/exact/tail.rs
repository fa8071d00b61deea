//! How deep exact odds follow explosion chains: until the probability left out
//! (the tail) is below the threshold of [`crate::Limits::tail_digits`], never
//! past [`crate::Limits::max_repeats_per_die`].
//!
//! The tail of one exploding die after `L` further explosions is exactly
//! `p_first · p_go^L`: the chance its first face explodes, times the chance
//! each added face explodes again. The expression's tail is at most the sum of
//! its dice's tails, so each die gets an equal share of the threshold: with
//! `n` exploding dice in the expression, a die stops at the least `L` with
//! `p_first · p_go^L <= 10^-digits / n`. A chain of ten d6 (`10d6!`) stops
//! after 17 explosions instead of 100, with a tail near 10^-13.

use crate::plan::{DiceCount, Node, NodeKind};

/// The largest number of exploding dice in `node` (a computed count counts
/// as `max_dice`, its largest possible value).
pub(crate) fn exploding_dice(node: &Node, max_dice: u64) -> u64 {
    let here = |n: &Node| exploding_dice(n, max_dice);
    match &node.kind {
        NodeKind::Const(_) => 0,
        NodeKind::Dice(term) => {
            let own = if term.explode.is_some() {
                match &term.count {
                    DiceCount::Fixed(n) => *n,
                    DiceCount::Computed(_) => max_dice,
                }
            } else {
                0
            };
            let inner = match &term.count {
                DiceCount::Computed(c) => here(c),
                DiceCount::Fixed(_) => 0,
            };
            own.saturating_add(inner)
        }
        NodeKind::Group(group) => group
            .members
            .iter()
            .fold(0u64, |acc, m| acc.saturating_add(here(m))),
        NodeKind::Negate(inner) | NodeKind::Fixed(_, inner) | NodeKind::Labeled(inner, _) => {
            here(inner)
        }
        NodeKind::Chain(first, rest) => rest
            .iter()
            .fold(here(first), |acc, (_, n)| acc.saturating_add(here(n))),
        NodeKind::Compare(_, l, r) => here(l).saturating_add(here(r)),
        NodeKind::Call(_, args) => args.iter().fold(0u64, |acc, a| acc.saturating_add(here(a))),
    }
}

/// The tail allowed to each exploding die, as a probability (`None`: no
/// threshold, follow chains to the explosion limit).
pub(crate) fn per_die(digits: u32, exploding: u64) -> Option<f64> {
    if digits == 0 {
        return None;
    }
    Some(10f64.powi(-(digits.min(300) as i32)) / exploding.max(1) as f64)
}

/// How many further explosions to follow so that `p_first · p_go^L` is at
/// most `target`, at most `limit`.
///
/// ```ignore
/// // a d6: first face explodes 1/6, each added face 1/6
/// assert_eq!(depth(1.0 / 6.0, 1.0 / 6.0, 1e-13, 100), 16);
/// ```
pub(crate) fn depth(p_first: f64, p_go: f64, target: Option<f64>, limit: u32) -> u32 {
    let Some(target) = target else {
        return limit;
    };
    if p_first <= target || p_go <= 0.0 {
        return limit.min(1);
    }
    if p_go >= 1.0 {
        return limit;
    }
    // Smallest L with ln(p_first) + L ln(p_go) <= ln(target); one more for
    // the rounding of floating point, so the bound is never missed.
    let needed = ((target / p_first).ln() / p_go.ln()).ceil();
    if !needed.is_finite() || needed >= f64::from(limit) {
        return limit;
    }
    (needed as u32 + 1).clamp(1, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_d6_chain_stops_when_its_tail_is_below_the_share() {
        // (1/6)^(L+1) <= 1e-13 first at L = 16; one more for safety.
        assert_eq!(depth(1.0 / 6.0, 1.0 / 6.0, Some(1e-13), 100), 17);
        let tail = (1.0f64 / 6.0).powi(18);
        assert!(tail <= 1e-13);
        // Never past the explosion limit, and the full limit with no threshold.
        assert_eq!(depth(1.0 / 6.0, 1.0 / 6.0, Some(1e-300), 100), 100);
        assert_eq!(depth(1.0 / 6.0, 1.0 / 6.0, None, 100), 100);
        assert_eq!(depth(1.0 / 6.0, 1.0 / 6.0, Some(1e-13), 3), 3);
    }

    #[test]
    fn the_threshold_is_shared_among_the_exploding_dice() {
        assert_eq!(per_die(12, 10), Some(1e-13));
        assert_eq!(per_die(0, 10), None);
    }
}
