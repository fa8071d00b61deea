//! The exact interpreter: walks the plan and combines distributions.
//!
//! Every sub-expression of a plan rolls its own dice, so the parts of an
//! expression are independent and combine by convolution or outcome by
//! outcome. A `cap` asks for the distribution of `min(value, cap)`; it is
//! pushed down through sums to explosions, which can then stop following a
//! chain as soon as it reaches the cap.

use super::denom::Denom;
use super::dist::Dist;
use super::draws::{DieDraws, Draws};
use super::keep::PoolType;
use super::sum::{self, Merge};
use super::{Ctx, ExactError};
use crate::plan::*;
use crate::roll::{clamp, digit_faces};

pub(crate) struct Walker<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    fixed: Option<FixedFace>,
}

/// What a die counts for: its value, or its score under success counting.
#[derive(Clone, Copy)]
enum Contribution {
    Value,
    Score(Counting),
}

impl Contribution {
    fn of(&self, v: i64) -> i64 {
        match self {
            Contribution::Value => v,
            Contribution::Score(c) => c.score(v),
        }
    }
}

impl<'c, 'a> Walker<'c, 'a> {
    pub fn new(ctx: &'c mut Ctx<'a>) -> Walker<'c, 'a> {
        Walker { ctx, fixed: None }
    }

    fn unsupported(&self, what: &str, span: crate::Span) -> ExactError {
        ExactError::Unsupported {
            what: what.to_string(),
            span,
        }
    }

    fn may_fail(&self, reason: String, span: crate::Span) -> ExactError {
        ExactError::MayFail { reason, span }
    }

    pub fn node(&mut self, node: &Node, cap: Option<i64>) -> Result<Dist, ExactError> {
        let saved = self.ctx.span;
        self.ctx.span = node.span;
        let result = self.node_inner(node, cap);
        self.ctx.span = saved;
        result
    }

    fn node_inner(&mut self, node: &Node, cap: Option<i64>) -> Result<Dist, ExactError> {
        let d = match &node.kind {
            NodeKind::Const(v) => self.ctx.point(*v),
            NodeKind::Dice(term) => self.dice(node, term, cap)?,
            NodeKind::Group(_) | NodeKind::Chain(..) if !self.ctx.in_order && sum::is_sum(node) => {
                self.sum(node, cap)?
            }
            NodeKind::Group(group) => self.group(group)?,
            NodeKind::Negate(inner) => {
                let d = self.node(inner, None)?;
                self.ctx.map(&d, |v| v.checked_neg())?
            }
            NodeKind::Chain(first, rest) => self.chain(first, rest, cap)?,
            NodeKind::Compare(op, left, right) => self.compare(*op, left, right)?,
            NodeKind::Call(func, args) if crate::plan::rounding::rounds(*func) => {
                let numerator = self.node(&args[0], None)?;
                let d = self.node(&args[1], None)?;
                if d.min <= 0 && d.max() >= 0 && !d.is_zero_at((0 - d.min) as usize, self.ctx.k) {
                    return Err(self.may_fail("the divisor can be 0".to_string(), args[1].span));
                }
                let overflow = self.ctx.overflow();
                let func = *func;
                self.ctx.combine(&numerator, &d, |a, b| {
                    crate::plan::rounding::round_div(func, a, b).ok_or_else(|| overflow.clone())
                })?
            }
            NodeKind::Call(func, args) => {
                let mut acc = self.node(&args[0], None)?;
                if *func == Func::Abs {
                    acc = self.ctx.map(&acc, |v| v.checked_abs())?;
                }
                for arg in &args[1..] {
                    let d = self.node(arg, None)?;
                    acc = match func {
                        Func::Min => self.ctx.combine(&acc, &d, |a, b| Ok(a.min(b)))?,
                        _ => self.ctx.combine(&acc, &d, |a, b| Ok(a.max(b)))?,
                    };
                }
                acc
            }
            NodeKind::Fixed(face, inner) => {
                let saved = self.fixed.replace(*face);
                let d = self.node(inner, cap);
                self.fixed = saved;
                d?
            }
            NodeKind::Labeled(inner, _) => self.node(inner, cap)?,
        };
        self.ctx.cap(d, cap)
    }

    /// A sum of independent parts (an additive chain, a group that adds its
    /// members, however nested): identical parts as one power, the rest
    /// merged smallest first (see [`super::sum`]). A cap passes into the
    /// parts and partial sums as in [`Walker::chain`].
    fn sum(&mut self, node: &Node, cap: Option<i64>) -> Result<Dist, ExactError> {
        let parts = sum::parts(node);
        // What each part adds at the least (a part taken away: minus the
        // most it takes), when a cap asks and every bound is known.
        let bounds: Option<Vec<i64>> = match cap {
            Some(_) => parts
                .iter()
                .map(|p| match p.negated {
                    true => self.upper_bound(p.node)?.checked_neg(),
                    false => self.lower_bound(p.node),
                })
                .collect(),
            None => None,
        };
        let total_bound = least_total(bounds.as_deref());
        if let (Some(c), Some(total)) = (cap, total_bound)
            && total >= c
        {
            // Certain to reach the cap; the dice are rolled all the same.
            for part in &parts {
                self.note_static_draws(part.node)?;
            }
            return Ok(self.ctx.point(c));
        }
        let draws_before = self.ctx.draws.clone();
        let mut dists = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            // A part that is added may be capped at what the others leave
            // room for; one taken away is needed whole.
            let part_cap = match (cap, &bounds, total_bound) {
                (Some(c), Some(b), Some(total)) if !part.negated => total
                    .checked_sub(b[i])
                    .and_then(|others| c.checked_sub(others)),
                _ => None,
            };
            let mut d = self.node(part.node, part_cap)?;
            if part.negated {
                d = self.ctx.map(&d, |v| v.checked_neg())?;
            }
            dists.push(d);
        }
        if !sum::order_is_free(&dists) {
            // A partial sum could pass 64 bits in some order: the written
            // order decides whether the roll fails.
            self.ctx.draws = draws_before;
            self.ctx.in_order = true;
            let result = match &node.kind {
                NodeKind::Chain(first, rest) => self.chain(first, rest, cap),
                NodeKind::Group(group) => self.group(group),
                _ => unreachable!("a sum is a chain or a group"),
            };
            self.ctx.in_order = false;
            return result;
        }
        let keys: Vec<(bool, String)> = match self.ctx.one_by_one {
            true => Vec::new(),
            false => parts
                .iter()
                .map(|p| (p.negated, p.node.to_string()))
                .collect(),
        };
        let groups = match self.ctx.one_by_one {
            true => (0..dists.len()).map(|i| (i, 1)).collect(),
            false => sum::identical(&keys, &dists),
        };
        let mut dists: Vec<Option<Dist>> = dists.into_iter().map(Some).collect();
        let mut merge = Merge::new(cap.zip(total_bound), self.ctx.one_by_one);
        for (first, count) in groups {
            let d = dists[first]
                .take()
                .expect("each part's first occurrence once");
            let power = if count == 1 {
                d
            } else {
                self.ctx.power(&d, count)?
            };
            let least = bounds
                .as_ref()
                .and_then(|b| b[first].checked_mul(i64::try_from(count).ok()?));
            let power = self.ctx.cap(power, merge.cap_of(least))?;
            merge.push(power, least);
        }
        // The whole sum is capped by `node_inner`.
        merge.finish(self.ctx)
    }

    fn chain(
        &mut self,
        first: &Node,
        rest: &[(BinOp, Node)],
        cap: Option<i64>,
    ) -> Result<Dist, ExactError> {
        let additive = rest
            .iter()
            .all(|(op, _)| matches!(op, BinOp::Add | BinOp::Sub));
        if additive {
            // A cap passes into a sum: min(X + Y, c) is
            // min(min(X, c - min Y) + min(Y, c - min X), c). A subtracted
            // term adds at the least minus its highest value.
            let operands: Vec<&Node> = std::iter::once(first)
                .chain(rest.iter().map(|(_, n)| n))
                .collect();
            let subtracted = |i: usize| i > 0 && rest[i - 1].0 == BinOp::Sub;
            let bounds: Option<Vec<i64>> = match cap {
                Some(_) => operands
                    .iter()
                    .enumerate()
                    .map(|(i, n)| match subtracted(i) {
                        true => self.upper_bound(n)?.checked_neg(),
                        false => self.lower_bound(n),
                    })
                    .collect(),
                None => None,
            };
            let total_bound = least_total(bounds.as_deref());
            // The caps below split `cap` among the terms; that is only right when
            // the cap is at least the least total. Below it, the answer is certain.
            if let (Some(c), Some(total)) = (cap, total_bound)
                && total >= c
            {
                // Their dice are rolled all the same.
                for operand in &operands {
                    self.note_static_draws(operand)?;
                }
                return Ok(self.ctx.point(c));
            }
            let mut acc: Option<Dist> = None;
            // What the terms after the i-th add at the least: a partial sum may
            // be capped at `cap - later[i]` and no more, because
            // min(min(S, c - m) + R, c) = min(S + R, c) only when R >= m. A
            // later subtraction lowers m by the most it takes away (capping
            // `1d20 + 5` at 10 before `- 2` would turn every 10 into 8); with a
            // term whose bound is unknown, nothing is capped.
            let later: Option<Vec<i64>> = bounds.as_ref().and_then(|b| {
                let mut later = vec![0i64; b.len()];
                for i in (0..b.len().saturating_sub(1)).rev() {
                    later[i] = later[i + 1].checked_add(b[i + 1])?;
                }
                Some(later)
            });
            for (i, operand) in operands.iter().enumerate() {
                // A term that is added may be capped at what the others leave
                // room for; a subtracted one is needed whole.
                let op_cap = match (cap, &bounds, total_bound) {
                    (Some(c), Some(b), Some(total)) if !subtracted(i) => total
                        .checked_sub(b[i])
                        .and_then(|others| c.checked_sub(others)),
                    _ => None,
                };
                let mut d = self.node(operand, op_cap)?;
                if subtracted(i) {
                    d = self.ctx.map(&d, |v| v.checked_neg())?;
                }
                let partial_cap = match (cap, &later) {
                    (Some(c), Some(later)) => c.checked_sub(later[i]),
                    _ => None,
                };
                acc = Some(match acc {
                    None => d,
                    Some(a) => {
                        let sum = self.ctx.add(&a, &d)?;
                        self.ctx.cap(sum, partial_cap)?
                    }
                });
            }
            // The whole sum is capped by `node_inner`.
            return Ok(acc.expect("a chain has operands"));
        }
        let mut acc = self.node(first, None)?;
        for (op, operand) in rest {
            let d = self.node(operand, None)?;
            let span = operand.span;
            acc = match op {
                BinOp::Add => self.ctx.add(&acc, &d)?,
                BinOp::Sub => {
                    let neg = self.ctx.map(&d, |v| v.checked_neg())?;
                    self.ctx.add(&acc, &neg)?
                }
                BinOp::Mul => {
                    let overflow = self.ctx.overflow();
                    self.ctx.combine(&acc, &d, |a, b| {
                        a.checked_mul(b).ok_or_else(|| overflow.clone())
                    })?
                }
                BinOp::Div => {
                    if d.min <= 0 && d.max() >= 0 && !d.is_zero_at((0 - d.min) as usize, self.ctx.k)
                    {
                        return Err(self.may_fail("the divisor can be 0".to_string(), span));
                    }
                    let overflow = self.ctx.overflow();
                    self.ctx.combine(&acc, &d, |a, b| {
                        crate::roll::floor_div(a, b).ok_or_else(|| overflow.clone())
                    })?
                }
            };
        }
        Ok(acc)
    }

    fn compare(&mut self, op: CmpOp, left: &Node, right: &Node) -> Result<Dist, ExactError> {
        // With a constant on one side, the other side only matters up to the
        // threshold: compute it capped, so explosions need not be cut off.
        let r = self.node(right, None)?;
        if r.len == 1 {
            let t = r.min;
            let cap = match op {
                CmpOp::Ge | CmpOp::Lt => Some(t),
                CmpOp::Gt | CmpOp::Le | CmpOp::Eq => t.checked_add(1),
            };
            let l = self.node(left, cap)?;
            let mut out = self.ctx.map(&l, |v| Some(i64::from(op.holds(v, t))))?;
            // r's weight is its certainty (1 over its denominator).
            out.denom = out.denom.mul(&r.denom);
            self.ctx.check_denominator(&out.denom)?;
            let rw = r.w.clone();
            let k = self.ctx.k;
            for i in 0..out.len {
                for (l, f) in self.ctx.lanes.iter().enumerate() {
                    out.w[i * k + l] = f.mul(out.w[i * k + l], rw[l]);
                }
            }
            return Ok(out);
        }
        let l = self.node(left, None)?;
        self.ctx
            .combine(&l, &r, |a, b| Ok(i64::from(op.holds(a, b))))
    }

    /// A static lower bound of a node's value, where one is easy to see.
    fn lower_bound(&self, node: &Node) -> Option<i64> {
        match &node.kind {
            NodeKind::Const(v) => Some(*v),
            NodeKind::Labeled(inner, _) => self.lower_bound(inner),
            NodeKind::Chain(first, rest) if rest.iter().all(|(op, _)| *op == BinOp::Add) => {
                let mut acc = self.lower_bound(first)?;
                for (_, n) in rest {
                    acc = acc.checked_add(self.lower_bound(n)?)?;
                }
                Some(acc)
            }
            NodeKind::Dice(term) if self.fixed.is_none() => {
                let DiceCount::Fixed(count) = term.count else {
                    return None;
                };
                let kept = term.select.map_or(count, |s| s.kept_of(count));
                let per_die = if term.counting.is_active() {
                    if term.counting.success.is_some() && term.counting.failure.is_some() {
                        return None;
                    }
                    0
                } else {
                    let faces = match &term.die {
                        Die::Digits(n) => Faces::List(digit_faces(*n)),
                        Die::Computed(_) => return None,
                        die => die.faces()?,
                    };
                    let lowest = clamp(term, faces.min());
                    if term.explode.is_some() {
                        // Every added face must add something non-negative.
                        let penalty = i64::from(
                            term.explode
                                .as_ref()
                                .is_some_and(|e| e.kind == ExplodeKind::Penetrate),
                        );
                        if lowest - penalty < 0 {
                            return None;
                        }
                    }
                    lowest
                };
                per_die.checked_mul(kept as i64)
            }
            _ => None,
        }
    }

    /// A static upper bound of a node's value, where one is easy to see:
    /// constants, and dice terms that do not explode.
    fn upper_bound(&self, node: &Node) -> Option<i64> {
        match &node.kind {
            NodeKind::Const(v) => Some(*v),
            NodeKind::Labeled(inner, _) => self.upper_bound(inner),
            NodeKind::Dice(term) if self.fixed.is_none() && term.explode.is_none() => {
                let DiceCount::Fixed(count) = term.count else {
                    return None;
                };
                let kept = term.select.map_or(count, |s| s.kept_of(count));
                let per_die = if term.counting.is_active() {
                    1 // a die scores -1, 0 or 1
                } else {
                    let faces = match &term.die {
                        Die::Digits(n) => Faces::List(digit_faces(*n)),
                        Die::Computed(_) => return None,
                        die => die.faces()?,
                    };
                    clamp(term, faces.max())
                };
                per_die.checked_mul(i64::try_from(kept).ok()?)
            }
            _ => None,
        }
    }

    // ---- dice ----

    /// Notes the faces `count` dice of `term` draw (see [`super::draws`]),
    /// refusing at once when rolls would pass `max_dice` (every roll, or
    /// some with a chance above the tail threshold; more dice only make
    /// that chance larger, so the first term to cross it is refused).
    fn note_draws(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        count: u64,
        faces: &Faces<'_>,
    ) -> Result<(), ExactError> {
        let die = match self.fixed {
            Some(_) => DieDraws::plain(),
            None => DieDraws::of(term, faces, self.ctx.limits),
        };
        self.ctx.draws.add(count, &die);
        self.ctx.draws.check(self.ctx.limits, node.span)
    }

    /// Notes the draws of a part that is not computed because the answer is
    /// settled without it: one that [`Walker::lower_bound`] reads (constants,
    /// sums, dice with a fixed count and static faces).
    fn note_static_draws(&mut self, node: &Node) -> Result<(), ExactError> {
        match &node.kind {
            NodeKind::Labeled(inner, _) => self.note_static_draws(inner),
            NodeKind::Chain(first, rest) => {
                self.note_static_draws(first)?;
                rest.iter()
                    .try_for_each(|(_, operand)| self.note_static_draws(operand))
            }
            NodeKind::Dice(term)
                if let (DiceCount::Fixed(count), Some(faces)) =
                    (&term.count, static_faces(term)) =>
            {
                self.note_draws(node, term, *count, &faces)
            }
            NodeKind::Const(_) => Ok(()),
            // Anything else is computed, for its draws (and its failures).
            _ => self.node(node, None).map(|_| ()),
        }
    }

    fn dice(&mut self, node: &Node, term: &DiceTerm, cap: Option<i64>) -> Result<Dist, ExactError> {
        match &term.count {
            DiceCount::Fixed(n) => self.dice_with_count(node, term, *n, cap),
            DiceCount::Computed(count) => {
                let counts = self.node(count, None)?.trim(self.ctx.k);
                if counts.min < 0 {
                    return Err(
                        self.may_fail("the dice count can be negative".to_string(), count.span)
                    );
                }
                let mut parts = Vec::new();
                let before = self.ctx.draws.clone();
                let mut worst: Option<Draws> = None;
                for i in 0..counts.len {
                    if counts.is_zero_at(i, self.ctx.k) {
                        continue;
                    }
                    self.ctx.draws = before.clone();
                    let n = (counts.min + i as i64) as u64;
                    if n > self.ctx.limits.max_dice {
                        return Err(self.may_fail(
                            format!(
                                "the dice count can be {n}, above the limit of {} dice (max_dice)",
                                self.ctx.limits.max_dice
                            ),
                            count.span,
                        ));
                    }
                    parts.push((i, self.dice_with_count(node, term, n, cap)?));
                    worst = Some(worst_of(worst, &self.ctx.draws));
                }
                self.ctx.draws = worst.unwrap_or(before);
                self.ctx.mixture(&counts, parts)
            }
        }
    }

    fn dice_with_count(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        count: u64,
        cap: Option<i64>,
    ) -> Result<Dist, ExactError> {
        match &term.die {
            Die::Computed(sides) => {
                let sides_dist = self.node(sides, None)?.trim(self.ctx.k);
                let mut parts = Vec::new();
                let before = self.ctx.draws.clone();
                let mut worst: Option<Draws> = None;
                for i in 0..sides_dist.len {
                    if sides_dist.is_zero_at(i, self.ctx.k) {
                        continue;
                    }
                    self.ctx.draws = before.clone();
                    let s = sides_dist.min + i as i64;
                    if s < 1 || s as u64 > MAX_FACES {
                        return Err(
                            self.may_fail(format!("the number of sides can be {s}"), sides.span)
                        );
                    }
                    let faces = Faces::standard(s as u64);
                    if let Some(reason) = crate::plan::endless_roll_reason(term, &faces) {
                        return Err(self.may_fail(reason, node.span));
                    }
                    parts.push((i, self.term_given(node, term, count, faces)?));
                    worst = Some(worst_of(worst, &self.ctx.draws));
                }
                self.ctx.draws = worst.unwrap_or(before);
                let d = self.ctx.mixture(&sides_dist, parts)?;
                self.ctx.cap(d, cap)
            }
            Die::Digits(n) => {
                let faces = Faces::List(digit_faces(*n));
                self.term_given_capped(node, term, count, faces, cap)
            }
            die => {
                let faces = die.faces().expect("static die");
                self.term_given_capped(node, term, count, faces, cap)
            }
        }
    }

    fn term_given(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        count: u64,
        faces: Faces<'_>,
    ) -> Result<Dist, ExactError> {
        self.term_given_capped(node, term, count, faces, None)
    }

    /// The distribution of `count` dice of `term` with these faces.
    fn term_given_capped(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        count: u64,
        faces: Faces<'_>,
        cap: Option<i64>,
    ) -> Result<Dist, ExactError> {
        self.note_draws(node, term, count, &faces)?;
        if let Some(fixed) = self.fixed {
            let natural = match fixed {
                FixedFace::Lowest => faces.min(),
                FixedFace::Highest => faces.max(),
            };
            let v = clamp(term, natural);
            let each = if term.counting.is_active() {
                term.counting.score(v)
            } else {
                v
            };
            let kept = term.select.map_or(count, |s| s.kept_of(count));
            let total = each.checked_mul(kept as i64).ok_or(self.ctx.overflow())?;
            return Ok(self.ctx.point(total));
        }
        let per_face_count = term.counting.is_active() && crate::roll::counts_each_face(term);
        let kept = term.select.map_or(count, |s| s.kept_of(count));
        if kept < count {
            let select = term.select.expect("kept < count means a selection");
            if per_face_count {
                return Err(self.unsupported(
                    "keeping some exploding dice while counting successes on every face",
                    node.span,
                ));
            }
            let die = self.die_dist(node, term, &faces, Contribution::Value, None)?;
            let g = match term.counting.is_active() {
                true => Contribution::Score(term.counting),
                false => Contribution::Value,
            };
            let pool = [PoolType { dist: die, count }];
            let d = if select.keeps_high() {
                self.ctx.keep_highest(&pool, kept, &|v| g.of(v))?
            } else {
                self.ctx.keep_lowest(&pool, kept, &|v| g.of(v))?
            };
            return self.ctx.cap(d, cap);
        }
        let contribution = if term.counting.is_active() {
            Contribution::Score(term.counting)
        } else {
            Contribution::Value
        };
        // Cap each die at what the total cap leaves room for.
        let die_floor = self.contribution_floor(term, &faces, contribution);
        if let (Some(c), Some(floor)) = (cap, die_floor)
            && floor
                .checked_mul(count as i64)
                .is_some_and(|least| least >= c)
        {
            // Every roll reaches the cap.
            return Ok(self.ctx.point(c));
        }
        let die_cap = match cap {
            Some(c) if count > 0 => die_floor
                .and_then(|m| m.checked_mul(count as i64 - 1))
                .and_then(|rest| c.checked_sub(rest)),
            _ => None,
        };
        let die = self.die_dist(node, term, &faces, contribution, die_cap)?;
        let total = self.ctx.power(&die, count)?;
        self.ctx.cap(total, cap)
    }

    /// Every face of a die with its multiplicity, ascending: a run face by
    /// face (its room asked for first: `max_outcomes` may have been raised
    /// past what the machine holds), a list grouped.
    fn natural_faces(&self, node: &Node, faces: &Faces<'_>) -> Result<Vec<(i64, u64)>, ExactError> {
        match faces {
            Faces::List(_) => Ok(faces.segments(&[])),
            Faces::Run { .. } => {
                let mut natural = Vec::new();
                crate::memory::reserve(&mut natural, u128::from(faces.len())).map_err(|bytes| {
                    ExactError::OutOfMemory {
                        bytes,
                        span: node.span,
                    }
                })?;
                natural.extend(faces.iter().map(|f| (f, 1)));
                Ok(natural)
            }
        }
    }

    /// The least a die of `term` can contribute, if every added face adds
    /// something non-negative (so a cap on the total caps each die).
    fn contribution_floor(
        &self,
        term: &DiceTerm,
        faces: &Faces<'_>,
        contribution: Contribution,
    ) -> Option<i64> {
        let penalty = i64::from(
            term.explode
                .as_ref()
                .is_some_and(|e| e.kind == ExplodeKind::Penetrate),
        );
        match contribution {
            Contribution::Value => {
                // Clamping never reorders faces: the lowest face clamped.
                let lowest = clamp(term, faces.min());
                (term.explode.is_none() || lowest - penalty >= 0).then_some(lowest)
            }
            Contribution::Score(_)
                if term
                    .explode
                    .as_ref()
                    .is_some_and(|e| e.kind == ExplodeKind::Compound) =>
            {
                // A compounded die is scored on its sum, not on any one face:
                // no face tells the least score.
                None
            }
            Contribution::Score(c) => {
                // A penetrating chain's later dice show one less (see
                // `die_dist`), which may score lower (a failure at 0).
                // One face of each run that comparisons tell apart.
                let lowest = faces
                    .segments(&telling_points(term, faces))
                    .into_iter()
                    .map(|(f, _)| clamp(term, f))
                    .flat_map(|v| [c.score(v), c.score(v - penalty)])
                    .min()?;
                (lowest >= 0).then_some(lowest)
            }
        }
    }

    /// The distribution of what one die of `term` contributes: its faces after
    /// rerolls, clamps and explosions, as values or success scores.
    fn die_dist(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        contribution: Contribution,
        cap: Option<i64>,
    ) -> Result<Dist, ExactError> {
        let n = faces.len();
        // Natural faces with their multiplicities, ascending. A die counted
        // for successes face by face only needs its faces told apart where a
        // comparison tells them apart: a few runs, however many faces
        // (`1d4294967295=7`). Otherwise every face is an outcome.
        let by_runs = matches!(contribution, Contribution::Score(_))
            && !term
                .explode
                .as_ref()
                .is_some_and(|e| e.kind == ExplodeKind::Compound);
        let natural: Vec<(i64, u64)> = if by_runs {
            faces.segments(&telling_points(term, faces))
        } else {
            if n as u128 > self.ctx.limits.max_outcomes as u128 {
                return Err(ExactError::TooManyOutcomes {
                    outcomes: n as u128,
                    limit: self.ctx.limits.max_outcomes,
                    span: node.span,
                });
            }
            self.natural_faces(node, faces)?
        };
        self.ctx.charge(natural.len() as u64)?;
        // Rerolls change how likely each natural face is to stand.
        let (standing, denom): (Vec<(i64, u64)>, Denom) = match &term.reroll {
            None => (natural, Denom::of(n)),
            Some(reroll) => {
                let rerolled: u64 = natural
                    .iter()
                    .filter(|(f, _)| reroll.matches(*f))
                    .map(|(_, c)| c)
                    .sum();
                if reroll.once {
                    // P(f) = P(first = f, kept) + P(first rerolled) P(second = f).
                    let w = natural
                        .into_iter()
                        .map(|(f, c)| {
                            (
                                f,
                                c * (if reroll.matches(f) { 0 } else { n }) + c * rerolled,
                            )
                        })
                        .collect();
                    (w, Denom::of(n).pow(2))
                } else {
                    // Rerolled again while it matches: uniform over the faces that
                    // do not match (rolls reroll without limit too, up to
                    // max_dice; see docs/odds.md).
                    let w = natural
                        .into_iter()
                        .map(|(f, c)| (f, if reroll.matches(f) { 0 } else { c }))
                        .collect();
                    (w, Denom::of(n - rerolled))
                }
            }
        };
        let highest = faces.max();
        let Some(explode) = &term.explode else {
            let outcomes: Vec<(i64, u64)> = standing
                .into_iter()
                .filter(|(_, c)| *c > 0)
                .map(|(f, c)| (contribution.of(clamp(term, f)), c))
                .collect();
            let d = self.ctx.counts_dist(&outcomes, denom)?;
            return self.ctx.cap(d, cap);
        };
        // Explosions: first faces and added faces, split into those that explode
        // and those that stop the chain.
        let per_face =
            matches!(contribution, Contribution::Score(_)) && explode.kind != ExplodeKind::Compound;
        let first_value = |f: i64| clamp(term, f);
        let added_value =
            |f: i64| clamp(term, f) - i64::from(explode.kind == ExplodeKind::Penetrate);
        let score = |v: i64| if per_face { contribution.of(v) } else { v };
        let split = |value: &dyn Fn(i64) -> i64, exploding: bool| -> Vec<(i64, u64)> {
            standing
                .iter()
                .filter(|&&(f, c)| c > 0 && explode.matches(f, highest) == exploding)
                .map(|&(f, c)| (score(value(f)), c))
                .collect()
        };
        let first_stop = split(&first_value, false);
        let first_go = split(&first_value, true);
        let added_stop = split(&added_value, false);
        let added_go = split(&added_value, true);
        let chain = self.explosion_chain(
            [first_stop, first_go, added_stop, added_go],
            denom,
            explode.once,
            // The chain's values are what the die contributes only when they
            // are values, or scored face by face; a compounding die counted
            // for successes is scored on its whole sum, which a cap on the
            // score must not cut short (`2d{1,1,3}!!cs=1 >= 1`).
            cap.filter(|_| per_face || matches!(contribution, Contribution::Value)),
        )?;
        // A compounding die counted for successes is scored on its sum.
        if let (Contribution::Score(c), false) = (contribution, per_face) {
            let d = self.ctx.map(&chain, |v| Some(c.score(v)))?;
            return self.ctx.cap(d, cap);
        }
        self.ctx.cap(chain, cap)
    }

    /// The distribution of an exploding die's total: faces are added while they
    /// explode, up to [`crate::Limits::max_repeats_per_die`] explosions; chains
    /// that would explode further are left out (the tail). With a cap, a chain
    /// that has reached it stops being followed (when added faces never
    /// subtract, its final value is at least the cap anyway).
    fn explosion_chain(
        &mut self,
        [first_stop, first_go, added_stop, added_go]: [Vec<(i64, u64)>; 4],
        denom: Denom,
        once: bool,
        cap: Option<i64>,
    ) -> Result<Dist, ExactError> {
        let ctx = &mut *self.ctx;
        let monotone = added_stop.iter().chain(&added_go).all(|&(v, _)| v >= 0);
        let cap = cap.filter(|_| monotone);
        let limit = if once {
            1
        } else {
            // Deep enough for the tail threshold, never past the limit.
            let mass = |v: &[(i64, u64)]| v.iter().map(|&(_, c)| u128::from(c)).sum::<u128>();
            let by_tail = super::tail::depth(
                mass(&first_go),
                mass(&added_go),
                &denom.to_biguint(),
                denom.to_f64(),
                ctx.tail_per_die,
                ctx.limits.max_repeats_per_die,
            );
            // With a cap, deep enough that every chain reaches it, as far as
            // the explosion limit allows: within the limit nothing is left in
            // the tail; past it, only the chains the limit cuts short.
            let to_cap = cap.and_then(|c| {
                let first_least = first_go.iter().map(|&(v, _)| v).min()?;
                let step = added_go.iter().map(|&(v, _)| v).min()?;
                if first_least >= c {
                    return Some(0);
                }
                if step <= 0 {
                    return None;
                }
                let needed = (i128::from(c) - i128::from(first_least) + i128::from(step) - 1)
                    / i128::from(step);
                Some(u32::try_from(needed).unwrap_or(u32::MAX))
            });
            match to_cap {
                Some(needed) => by_tail.max(needed.min(ctx.limits.max_repeats_per_die)),
                None => by_tail,
            }
        };
        let mut acc = ctx.counts_dist(&first_stop, denom.clone())?;
        if first_go.is_empty() {
            return Ok(acc);
        }
        let mut cur = ctx.counts_dist(&first_go, denom.clone())?;
        let all_added: Vec<(i64, u64)> = added_stop.iter().chain(&added_go).copied().collect();
        let stop = ctx.counts_dist(if once { &all_added } else { &added_stop }, denom.clone())?;
        let go = if once || added_go.is_empty() {
            None
        } else {
            Some(ctx.counts_dist(&added_go, denom.clone())?)
        };
        for _ in 0..limit {
            let ended = ctx.add(&cur, &stop)?;
            acc = ctx.union(acc, ended)?;
            let Some(go) = &go else { break };
            cur = ctx.add(&cur, go)?;
            if let Some(c) = cap
                && cur.max() >= c
            {
                // Chains already at the cap end there, whatever follows.
                let (below, above) = split_at(ctx, &cur, c)?;
                acc = ctx.union(acc, above)?;
                cur = below;
            }
            if cur.is_empty(ctx.k) {
                break;
            }
        }
        // Whatever is left in `cur` would explode past the limit: the tail.
        Ok(acc)
    }

    // ---- groups ----

    fn group(&mut self, group: &GroupTerm) -> Result<Dist, ExactError> {
        let contribution = if group.counting.is_active() {
            Contribution::Score(group.counting)
        } else {
            Contribution::Value
        };
        // The pool: one type per distinct distribution.
        let mut pool: Vec<PoolType> = Vec::new();
        let add_type = |pool: &mut Vec<PoolType>, dist: Dist, count: u64| match pool
            .iter_mut()
            .find(|t| t.dist == dist)
        {
            Some(t) => t.count += count,
            None => pool.push(PoolType { dist, count }),
        };
        if group.pooled {
            for member in &group.members {
                let NodeKind::Dice(term) = &member.kind else {
                    unreachable!("pooled groups hold dice terms")
                };
                let DiceCount::Fixed(count) = term.count else {
                    return Err(
                        self.unsupported("a pooled group with a computed dice count", member.span)
                    );
                };
                if term.select.is_some() {
                    return Err(self.unsupported(
                        "a pooled group whose dice keep or drop on their own",
                        member.span,
                    ));
                }
                if group.counting.is_active() && crate::roll::counts_each_face(term) {
                    return Err(self.unsupported(
                        "counting every face of exploding dice in a pooled group",
                        member.span,
                    ));
                }
                let faces_store;
                let faces = match &term.die {
                    Die::Digits(n) => Faces::List(digit_faces(*n)),
                    Die::Computed(_) => {
                        return Err(
                            self.unsupported("a pooled group with computed sides", member.span)
                        );
                    }
                    die => {
                        faces_store = die.faces().expect("static die");
                        faces_store
                    }
                };
                self.note_draws(member, term, count, &faces)?;
                let dist = if let Some(fixed) = self.fixed {
                    let natural = match fixed {
                        FixedFace::Lowest => faces.min(),
                        FixedFace::Highest => faces.max(),
                    };
                    self.ctx.point(clamp(term, natural))
                } else {
                    self.die_dist(member, term, &faces, Contribution::Value, None)?
                };
                add_type(&mut pool, dist, count);
            }
        } else {
            for member in &group.members {
                let dist = self.node(member, None)?;
                add_type(&mut pool, dist, 1);
            }
        }
        let total: u64 = pool.iter().map(|t| t.count).sum();
        let kept = group.select.map_or(total, |s| s.kept_of(total));
        if kept < total {
            let select = group.select.expect("a selection");
            return if select.keeps_high() {
                self.ctx.keep_highest(&pool, kept, &|v| contribution.of(v))
            } else {
                self.ctx.keep_lowest(&pool, kept, &|v| contribution.of(v))
            };
        }
        let mut acc = self.ctx.point(0);
        for t in &pool {
            let each = self.ctx.map(&t.dist, |v| Some(contribution.of(v)))?;
            let sum = self.ctx.power(&each, t.count)?;
            acc = self.ctx.add(&acc, &sum)?;
        }
        Ok(acc)
    }
}

/// The values where a die's modifiers compare or clamp its faces: rerolls,
/// explosions (the highest face by default), clamps, success and failure
/// counts. Faces that no comparison near them tells apart act alike.
fn telling_points(term: &DiceTerm, faces: &Faces<'_>) -> Vec<i64> {
    let mut points: Vec<i64> = term
        .reroll
        .iter()
        .flat_map(|r| r.when.iter().map(|p| p.value))
        .collect();
    if let Some(e) = &term.explode {
        points.push(e.when.map_or(faces.max(), |p| p.value));
    }
    points.extend(term.clamp_min);
    points.extend(term.clamp_max);
    points.extend(term.counting.success.map(|p| p.value));
    points.extend(term.counting.failure.map(|p| p.value));
    points
}

/// The faces of a die whose sides are not computed.
fn static_faces(term: &DiceTerm) -> Option<Faces<'_>> {
    match &term.die {
        Die::Digits(n) => Some(Faces::List(digit_faces(*n))),
        die => die.faces(),
    }
}

/// The worst of the draws of the branches seen so far and this one.
fn worst_of(worst: Option<Draws>, this: &Draws) -> Draws {
    match worst {
        Some(w) => w.worst(this.clone()),
        None => this.clone(),
    }
}

/// Splits a distribution into the part below `c` and the part at or above it
/// (the latter moved onto `c`).
fn split_at(ctx: &mut Ctx<'_>, d: &Dist, c: i64) -> Result<(Dist, Dist), ExactError> {
    let k = ctx.k;
    let mut below = d.clone();
    let mut above = ctx.zeros(c, c, d.denom.clone())?;
    for i in 0..d.len {
        let v = d.min + i as i64;
        if v >= c {
            for (l, f) in ctx.lanes.iter().enumerate() {
                above.w[l] = f.add(above.w[l], d.w[i * k + l]);
                below.w[i * k + l] = 0;
            }
        }
    }
    Ok((below.trim(k), above))
}

/// The least total of parts whose least values are `bounds`, if it fits.
fn least_total(bounds: Option<&[i64]>) -> Option<i64> {
    bounds?.iter().try_fold(0i64, |a, &x| a.checked_add(x))
}
