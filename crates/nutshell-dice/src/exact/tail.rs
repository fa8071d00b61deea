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

/// The tail allowed to each exploding die: `10^-digits / dice`, the whole
/// expression's threshold shared equally among its exploding dice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Share {
    /// `Limits::tail_digits`.
    pub digits: u32,
    /// The exploding dice in the expression (at least 1).
    pub dice: u64,
}

impl Share {
    /// The share as a probability.
    pub fn to_f64(self) -> f64 {
        10f64.powi(-(self.digits.min(300) as i32)) / self.dice as f64
    }
}

/// The share of the tail each exploding die may leave out (`None`: no
/// threshold, follow chains to the explosion limit).
pub(crate) fn per_die(digits: u32, exploding: u64) -> Option<Share> {
    (digits > 0).then_some(Share {
        digits,
        dice: exploding.max(1),
    })
}

/// Chains longer than this are not checked exactly (the powers would be too
/// large to be worth it): the floating-point estimate plus one is used.
const EXACT_UP_TO: u32 = 100_000;

/// How many further explosions to follow: the least `L` with
/// `p_first · p_go^L <= share`, exactly (never past `limit`), where
/// `p_first = first / denom` is the chance the first face explodes and
/// `p_go = go / denom` the chance each added face does.
///
/// The tail this leaves, `p_first · p_go^L`, is then at most the share, and
/// following one explosion fewer would leave more.
///
/// ```ignore
/// // a d6 (first face and added faces explode 1 in 6), a share of 1e-12:
/// // (1/6)^(L+1) <= 1e-12 first at L = 15, a tail of 6^-16
/// assert_eq!(depth(1, 1, &6u32.into(), 6.0, Some(share), 100), 15);
/// ```
pub(crate) fn depth(
    first: u128,
    go: u128,
    denom: &num_bigint::BigUint,
    denom_f64: f64,
    share: Option<Share>,
    limit: u32,
) -> u32 {
    use num_bigint::BigUint;
    let Some(share) = share else {
        return limit;
    };
    // p_first · p_go^L <= 10^-digits / dice  ⇔
    // first · go^L · 10^digits · dice <= denom^(L+1).
    let holds = |l: u32| {
        let left = BigUint::from(first)
            * BigUint::from(go).pow(l)
            * BigUint::from(10u32).pow(share.digits)
            * BigUint::from(share.dice);
        left <= denom.pow(l + 1)
    };
    if first == 0 || holds(0) {
        // The first explosion alone is within the share: followed once all
        // the same (at least one explosion is always followed).
        return limit.min(1);
    }
    if go == 0 {
        // No added face explodes: one explosion ends every chain.
        return limit.min(1);
    }
    let (p_first, p_go) = (first as f64 / denom_f64, go as f64 / denom_f64);
    if p_go >= 1.0 {
        return limit;
    }
    // The estimate in floating point, then the exact least L near it.
    let estimate = ((share.to_f64() / p_first).ln() / p_go.ln()).ceil();
    if !estimate.is_finite() || estimate >= f64::from(limit) {
        return limit;
    }
    let estimate = estimate.max(1.0) as u32;
    if estimate > EXACT_UP_TO {
        return (estimate + 1).min(limit);
    }
    let mut l = estimate;
    while !holds(l) {
        l += 1;
    }
    while l > 1 && holds(l - 1) {
        l -= 1;
    }
    l.min(limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn share(digits: u32, dice: u64) -> Option<Share> {
        per_die(digits, dice)
    }

    #[test]
    fn a_d6_chain_stops_at_the_least_depth_whose_tail_is_within_the_share() {
        let six = BigUint::from(6u32);
        // (1/6)^(L+1) <= 1e-12 first at L = 15: 6^16 = 2.8e12, 6^15 = 4.7e11.
        assert_eq!(depth(1, 1, &six, 6.0, share(12, 1), 100), 15);
        // With ten exploding dice each gets 1e-13: 6^17 = 1.7e13, so L = 16.
        assert_eq!(depth(1, 1, &six, 6.0, share(12, 10), 100), 16);
        // Never past the explosion limit, and the full limit with no threshold.
        assert_eq!(depth(1, 1, &six, 6.0, share(300, 1), 100), 100);
        assert_eq!(depth(1, 1, &six, 6.0, None, 100), 100);
        assert_eq!(depth(1, 1, &six, 6.0, share(12, 1), 3), 3);
    }

    #[test]
    fn the_depth_is_exact_where_floating_point_rounds() {
        // 10^-12 on a d10: (1/10)^(L+1) <= 10^-12 exactly at L = 11, where
        // floating point may land on either side.
        let ten = BigUint::from(10u32);
        assert_eq!(depth(1, 1, &ten, 10.0, share(12, 1), 100), 11);
        // A d6 exploding on 5 and 6: (1/3)^(L+1) <= 1e-12 first at L = 25
        // (3^26 = 2.5e12, 3^25 = 8.5e11).
        assert_eq!(
            depth(2, 2, &BigUint::from(6u32), 6.0, share(12, 1), 100),
            25
        );
    }

    #[test]
    fn the_threshold_is_shared_among_the_exploding_dice() {
        assert_eq!(
            per_die(12, 10),
            Some(Share {
                digits: 12,
                dice: 10
            })
        );
        assert!((per_die(12, 10).unwrap().to_f64() - 1e-13).abs() < 1e-25);
        assert_eq!(per_die(0, 10), None);
    }
}
