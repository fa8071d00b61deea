//! Sums of many independent parts in near-linear time.
//!
//! A sum is read as a flat list of parts, whatever its shape: a chain of `+`
//! and `-`, negations, labels and groups that only add their members
//! (`{1d6, {1d6, {1d6}}}`, however deep) are all one list ([`parts`]). Every
//! part rolls its own dice, so the parts are independent and their order
//! does not change the distribution. Two things make the sum cheap:
//!
//! - **identical parts are one power**: a thousand `1d6` are computed as
//!   `1000d6` is, by Miller's recurrence (O(n·d) per lane instead of the
//!   O(n²·d²) of adding them one at a time);
//! - **the rest are merged smallest first** (a Huffman order over their
//!   lengths), so no partial sum is convolved again and again with small
//!   parts while it is long.
//!
//! A cap (`min(total, c)`, asked by comparisons) is pushed into the parts as
//! the chain did before: a part that is added may be capped at what the
//! others leave room for, and a partial sum at `c` less the least the parts
//! not yet in it add ([`Merge`]).
//!
//! The result is the same distribution as adding the parts in their written
//! order: the engine's tests compare the two over generated expressions
//! (`Expression::distribution_in_order`). Only one thing depends on the
//! order: a partial sum that overflows 64 bits in the written order is a
//! failure of the roll. When no order can overflow (the sum of every part's
//! largest magnitude fits in 64 bits, always so for dice), the order is free;
//! otherwise the written order is kept ([`order_is_free`]).

use super::dist::Dist;
use super::{Ctx, ExactError};
use crate::plan::{BinOp, GroupTerm, Node, NodeKind};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One part of a sum: a node, added or taken away.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part<'n> {
    pub node: &'n Node,
    pub negated: bool,
}

/// Whether a group's value is the plain sum of its members: nothing kept or
/// dropped, nothing counted, members that are values (not pooled dice).
pub(crate) fn adds_members(group: &GroupTerm) -> bool {
    group.select.is_none() && !group.counting.is_active() && !group.pooled
}

/// Whether `node` is a sum that [`parts`] reads as more than itself.
pub(crate) fn is_sum(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Chain(_, rest) => rest
            .iter()
            .all(|(op, _)| matches!(op, BinOp::Add | BinOp::Sub)),
        NodeKind::Group(group) => adds_members(group),
        _ => false,
    }
}

/// The parts of the sum `node` in written order: through additive chains,
/// negations, labels and groups that add their members.
///
/// ```ignore
/// // `1d6 - (2d8 + -3)` is 1d6, -2d8, +3
/// ```
pub(crate) fn parts(node: &Node) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    // An explicit stack: a sum nested a thousand deep is read without
    // recursion. Pushed in reverse so parts come out in written order.
    let mut stack = vec![Part {
        node,
        negated: false,
    }];
    while let Some(part) = stack.pop() {
        let Part { node, negated } = part;
        match &node.kind {
            NodeKind::Chain(first, rest)
                if rest
                    .iter()
                    .all(|(op, _)| matches!(op, BinOp::Add | BinOp::Sub)) =>
            {
                for (op, operand) in rest.iter().rev() {
                    stack.push(Part {
                        node: operand,
                        negated: negated ^ (*op == BinOp::Sub),
                    });
                }
                stack.push(Part {
                    node: first,
                    negated,
                });
            }
            NodeKind::Group(group) if adds_members(group) => {
                for member in group.members.iter().rev() {
                    stack.push(Part {
                        node: member,
                        negated,
                    });
                }
            }
            NodeKind::Negate(inner) => stack.push(Part {
                node: inner,
                negated: !negated,
            }),
            NodeKind::Labeled(inner, _) => stack.push(Part {
                node: inner,
                negated,
            }),
            _ => out.push(part),
        }
    }
    out
}

/// Whether the parts may be added in any order: no partial sum of any
/// order can pass 64 bits when the largest magnitudes of all the parts add
/// up within them.
pub(crate) fn order_is_free(dists: &[Dist]) -> bool {
    dists
        .iter()
        .try_fold(0u64, |acc, d| {
            let magnitude = d.min.unsigned_abs().max(d.max().unsigned_abs());
            acc.checked_add(magnitude)
        })
        .is_some_and(|total| total <= i64::MAX as u64)
}

/// Identical parts gathered: the index of each distinct part's first
/// occurrence and how many times it occurs. Parts are identical when their
/// normalized text and sign are the same and so are their distributions
/// (the text keeps the grouping the same in the measuring pass, whose large
/// results are placeholders of one shape).
pub(crate) fn identical(keys: &[(bool, String)], dists: &[Dist]) -> Vec<(usize, u64)> {
    let mut groups: Vec<(usize, u64)> = Vec::new();
    let mut by_key: std::collections::HashMap<&(bool, String), Vec<usize>> =
        std::collections::HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        let candidates = by_key.entry(key).or_default();
        match candidates.iter().find(|&&g| dists[groups[g].0] == dists[i]) {
            Some(&g) => groups[g].1 += 1,
            None => {
                candidates.push(groups.len());
                groups.push((i, 1));
            }
        }
    }
    groups
}

/// Partial sums waiting to be merged, smallest first, with what each adds
/// at the least (for caps).
pub(crate) struct Merge {
    /// The sum's cap and the least total of all its parts, when both are known.
    cap: Option<(i64, i64)>,
    heap: BinaryHeap<Reverse<(usize, usize)>>,
    /// Merged in the order pushed, each into the sum of those before it
    /// (the tests' reference, `Ctx::one_by_one`), not smallest first.
    in_order: bool,
    items: Vec<Option<(Dist, Option<i64>)>>,
}

impl Merge {
    /// A merge for a sum capped at `cap` whose parts add at least `least`
    /// in all (`None` when either is unknown: nothing is capped).
    pub fn new(cap: Option<(i64, i64)>, in_order: bool) -> Merge {
        Merge {
            cap,
            in_order,
            heap: BinaryHeap::new(),
            items: Vec::new(),
        }
    }

    /// Adds a partial sum that adds at least `least` (`None`: unknown, and
    /// then no sum it is part of is capped before the end).
    pub fn push(&mut self, dist: Dist, least: Option<i64>) {
        self.heap.push(Reverse((dist.len, self.items.len())));
        self.items.push(Some((dist, least)));
    }

    /// The cap a partial sum adding at least `least` may take: the sum's cap
    /// less the least the other parts add.
    pub fn cap_of(&self, least: Option<i64>) -> Option<i64> {
        let (c, total) = self.cap?;
        c.checked_sub(total.checked_sub(least?)?)
    }

    /// Merges everything, the two shortest first each time.
    pub fn finish(mut self, ctx: &mut Ctx<'_>) -> Result<Dist, ExactError> {
        if self.in_order {
            let mut items = std::mem::take(&mut self.items).into_iter().flatten();
            let Some((mut acc, mut least)) = items.next() else {
                return Ok(ctx.point(0));
            };
            for (d, l) in items {
                let sum = ctx.add(&acc, &d)?;
                least = least.zip(l).and_then(|(a, b)| a.checked_add(b));
                acc = ctx.cap(sum, self.cap_of(least))?;
            }
            return Ok(acc);
        }
        loop {
            let Some(Reverse((_, i))) = self.heap.pop() else {
                return Ok(ctx.point(0));
            };
            let (a, least_a) = self.items[i].take().expect("queued once");
            let Some(Reverse((_, j))) = self.heap.pop() else {
                return Ok(a);
            };
            let (b, least_b) = self.items[j].take().expect("queued once");
            let sum = ctx.add(&a, &b)?;
            let least = least_a.zip(least_b).and_then(|(a, b)| a.checked_add(b));
            let sum = ctx.cap(sum, self.cap_of(least))?;
            self.push(sum, least);
        }
    }
}
