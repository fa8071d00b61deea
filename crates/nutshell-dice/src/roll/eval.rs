//! The sampler: interprets a plan with a dice source, recording a transcript.

use super::transcript::*;
use crate::error::RollError;
use crate::limits::Limits;
use crate::plan::*;
use crate::source::{DiceSource, SourceError};
use std::sync::OnceLock;

/// The evaluator's error: boxed, so the `Result`s on the hot path stay two words.
pub(crate) type Fail = Box<RollError>;

/// The faces a digit roll can show, as numbers: 11..66 or 111..666.
pub(crate) fn digit_faces(digits: u8) -> &'static [i64] {
    static TWO: OnceLock<Vec<i64>> = OnceLock::new();
    static THREE: OnceLock<Vec<i64>> = OnceLock::new();
    match digits {
        2 => TWO.get_or_init(|| Die::digit_values(2)),
        _ => THREE.get_or_init(|| Die::digit_values(3)),
    }
}

/// The value a face counts for after `min` and `max`.
#[inline]
pub(crate) fn clamp(term: &DiceTerm, natural: i64) -> i64 {
    let mut v = natural;
    if let Some(min) = term.clamp_min {
        v = v.max(min);
    }
    if let Some(max) = term.clamp_max {
        v = v.min(max);
    }
    v
}

/// Whether a term's success counting looks at each face of a die (`!`, `!p`)
/// rather than at the die's value.
#[inline]
pub(crate) fn counts_each_face(term: &DiceTerm) -> bool {
    matches!(
        term.explode,
        Some(Explode {
            kind: ExplodeKind::Standard | ExplodeKind::Penetrate,
            ..
        })
    )
}

/// Ranks `n` items for keep/drop into `order` and returns where the dropped
/// items start: they are `order[split..]` (empty when nothing is dropped). Items
/// rank by value, and among equal values the earlier item ranks first.
pub(crate) fn rank_for_select(
    n: usize,
    value: impl Fn(usize) -> i64,
    select: &Select,
    order: &mut Vec<u32>,
) -> usize {
    let keep = select.kept_of(n as u64) as usize;
    order.clear();
    if keep == n {
        return 0;
    }
    order.extend(0..n as u32);
    let high = select.keeps_high();
    // `better(a, b)`: item a ranks before item b.
    let better = |a: u32, b: u32| {
        let (va, vb) = (value(a as usize), value(b as usize));
        if high {
            va > vb || (va == vb && a < b)
        } else {
            va < vb || (va == vb && a < b)
        }
    };
    if n - keep == 1 {
        // One item dropped (4d6dl1, 2d20kl1 ...): find the worst in one pass.
        let mut worst = 0;
        for i in 1..n {
            if better(order[worst], order[i]) {
                worst = i;
            }
        }
        order.swap(worst, n - 1);
    } else if keep == 1 {
        let mut best = 0;
        for i in 1..n {
            if better(order[i], order[best]) {
                best = i;
            }
        }
        order.swap(best, 0);
    } else {
        order.sort_unstable_by(|&a, &b| {
            if better(a, b) {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            }
        });
    }
    keep
}

/// Marks the dice keep/drop drops. Dropping or keeping a single die, the common
/// case (`4d6dl1`, `2d20kh1`), is one pass with no sorting.
fn mark_dropped(dice: &mut [DieRecord], select: &Select, order: &mut Vec<u32>) {
    let n = dice.len();
    let keep = select.kept_of(n as u64) as usize;
    if keep == n {
        return;
    }
    let high = select.keeps_high();
    // `better(a, b)`: die a ranks before die b (ties: the earlier die).
    let better = |a: &DieRecord, b: &DieRecord| {
        if high {
            a.value > b.value
        } else {
            a.value < b.value
        }
    };
    if n - keep == 1 {
        let mut worst = n - 1;
        for i in (0..n - 1).rev() {
            if better(&dice[worst], &dice[i]) {
                worst = i;
            }
        }
        dice[worst].kept = false;
    } else if keep == 1 {
        let mut best = 0;
        for i in 1..n {
            if better(&dice[i], &dice[best]) {
                best = i;
            }
        }
        for (i, die) in dice.iter_mut().enumerate() {
            die.kept = i == best;
        }
    } else {
        let kept = rank_for_select(n, |i| dice[i].value, select, order);
        for &i in &order[kept..] {
            dice[i as usize].kept = false;
        }
    }
}

/// One roll in progress.
pub(crate) struct Evaluator<'a, S: ?Sized> {
    pub source: &'a mut S,
    pub limits: &'a Limits,
    pub transcript: &'a mut Transcript,
    pub order: &'a mut Vec<u32>,
    pub rolled: u64,
    pub fixed: Option<FixedFace>,
    pub label: Option<u32>,
}

impl<S: DiceSource + ?Sized> Evaluator<'_, S> {
    pub fn eval(&mut self, node: &Node) -> Result<i64, Fail> {
        let overflow = || Box::new(RollError::Overflow { span: node.span });
        match &node.kind {
            NodeKind::Const(n) => Ok(*n),
            NodeKind::Dice(term) => self.dice(node, term),
            NodeKind::Group(group) => self.group(group),
            NodeKind::Negate(inner) => self.eval(inner)?.checked_neg().ok_or_else(overflow),
            NodeKind::Chain(first, rest) => {
                let mut acc = self.eval(first)?;
                for (op, operand) in rest {
                    let v = self.eval(operand)?;
                    acc = match op {
                        BinOp::Add => acc.checked_add(v).ok_or_else(overflow)?,
                        BinOp::Sub => acc.checked_sub(v).ok_or_else(overflow)?,
                        BinOp::Mul => acc.checked_mul(v).ok_or_else(overflow)?,
                        BinOp::Div => {
                            if v == 0 {
                                return Err(Box::new(RollError::DivisionByZero {
                                    span: operand.span,
                                }));
                            }
                            floor_div(acc, v).ok_or_else(overflow)?
                        }
                    };
                }
                Ok(acc)
            }
            NodeKind::Compare(op, left, right) => {
                let l = self.eval(left)?;
                let r = self.eval(right)?;
                Ok(i64::from(op.holds(l, r)))
            }
            NodeKind::Call(func, args) => {
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.eval(arg)?);
                }
                match func {
                    f if crate::plan::rounding::rounds(*f) => {
                        if values[1] == 0 {
                            return Err(Box::new(RollError::DivisionByZero { span: args[1].span }));
                        }
                        crate::plan::rounding::round_div(*f, values[0], values[1])
                            .ok_or_else(overflow)
                    }
                    Func::Min => Ok(*values.iter().min().expect("min has arguments")),
                    Func::Max => Ok(*values.iter().max().expect("max has arguments")),
                    _ => values[0].checked_abs().ok_or_else(overflow),
                }
            }
            NodeKind::Fixed(face, inner) => {
                let saved = self.fixed.replace(*face);
                let result = self.eval(inner);
                self.fixed = saved;
                result
            }
            NodeKind::Labeled(inner, _) => {
                let index = self.transcript.labels.len();
                self.transcript.labels.push(LabelRecord { total: 0 });
                let saved = self.label.replace(index as u32);
                let result = self.eval(inner);
                self.label = saved;
                let total = result?;
                self.transcript.labels[index].total = total;
                Ok(total)
            }
        }
    }

    fn dice(&mut self, node: &Node, term: &DiceTerm) -> Result<i64, Fail> {
        let count = match &term.count {
            DiceCount::Fixed(n) => *n,
            DiceCount::Computed(c) => {
                let v = self.eval(c)?;
                u64::try_from(v).map_err(|_| {
                    Box::new(RollError::NegativeCount {
                        count: v,
                        span: c.span,
                    })
                })?
            }
        };
        let mut sides = None;
        let computed_faces;
        let (faces, digits) = match &term.die {
            Die::Computed(s) => {
                let v = self.eval(s)?;
                if v < 1 || v as u64 > MAX_FACES {
                    return Err(Box::new(RollError::BadSides {
                        sides: v,
                        span: s.span,
                    }));
                }
                computed_faces = Faces::standard(v as u64);
                if let Some(reason) = crate::plan::endless_roll_reason(term, &computed_faces) {
                    return Err(Box::new(RollError::Endless {
                        reason,
                        span: node.span,
                    }));
                }
                sides = Some(v);
                (computed_faces, None)
            }
            Die::Digits(n) => (Faces::List(digit_faces(*n)), Some(*n)),
            die => (die.faces().expect("static faces"), None),
        };
        if self.rolled.saturating_add(count) > self.limits.max_dice {
            return Err(Box::new(RollError::TooManyDice {
                limit: self.limits.max_dice,
                span: node.span,
            }));
        }
        let term_index = self.transcript.terms.len() as u32;
        let first_die = self.transcript.dice.len();
        let highest = faces.max();
        // Every die takes a record and at least one face: made room for now,
        // so that a count the machine cannot hold fails here, not in an abort.
        self.make_room(node, count, count)?;
        if term.reroll.is_none()
            && term.explode.is_none()
            && self.fixed.is_none()
            && digits.is_none()
        {
            self.plain_dice(node, term, &faces, count, term_index)?;
        } else {
            for _ in 0..count {
                self.die(node, term, &faces, highest, digits, term_index)?;
            }
        }
        let dice = &mut self.transcript.dice[first_die..];
        if let Some(select) = &term.select {
            mark_dropped(dice, select, self.order);
        }
        let total = score_dice(term, &term.counting, dice, &self.transcript.faces, node)?;
        self.transcript.terms.push(TermRecord {
            first_die: first_die as u32,
            dice: count as u32,
            sides,
            total,
            label: self.label,
            fixed: self.fixed.is_some(),
        });
        Ok(total)
    }

    /// Rolls `count` dice that neither reroll nor explode: one face each. The
    /// dice limit was checked for the whole term by the caller.
    fn plain_dice(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        count: u64,
        term_index: u32,
    ) -> Result<(), Fail> {
        self.rolled += count;
        let t = &mut *self.transcript;
        for _ in 0..count {
            let natural = match self.source.draw(faces) {
                Ok(face) => face,
                Err(error) => {
                    self.rolled -= count; // positions in the error count faces actually drawn
                    return Err(Box::new(self.source_error(node, term, faces, error)));
                }
            };
            let value = clamp(term, natural);
            let first_face = t.faces.len() as u32;
            t.faces.push(FaceRecord {
                natural,
                value,
                cause: FaceCause::Roll,
                rerolled: false,
                exploded: false,
            });
            t.dice.push(DieRecord {
                term: term_index,
                first_face,
                faces: 1,
                value,
                kept: true,
                successes: 0,
                failures: 0,
                limit_reached: false,
            });
        }
        Ok(())
    }

    /// Rolls one die of `term`: its first face, rerolls and explosions.
    fn die(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        highest: i64,
        digits: Option<u8>,
        term_index: u32,
    ) -> Result<(), Fail> {
        let first_face = self.transcript.faces.len() as u32;
        let overflow = || Box::new(RollError::Overflow { span: node.span });
        if let Some(fixed) = self.fixed {
            self.rolled += 1;
            let natural = match fixed {
                FixedFace::Lowest => faces.min(),
                FixedFace::Highest => highest,
            };
            let value = clamp(term, natural);
            self.transcript.faces.push(FaceRecord {
                natural,
                value,
                cause: FaceCause::Fixed,
                rerolled: false,
                exploded: false,
            });
            self.transcript.dice.push(DieRecord {
                term: term_index,
                first_face,
                faces: 1,
                value,
                kept: true,
                successes: 0,
                failures: 0,
                limit_reached: false,
            });
            return Ok(());
        }
        let mut value: i64 = 0;
        let mut cause = FaceCause::Roll;
        let mut explosions = 0u32;
        let mut limit_reached = false;
        loop {
            let natural = self.face(node, term, faces, digits, cause)?;
            let mut counted = clamp(term, natural);
            if cause == FaceCause::Explosion
                && term
                    .explode
                    .as_ref()
                    .is_some_and(|e| e.kind == ExplodeKind::Penetrate)
            {
                counted = counted.checked_sub(1).ok_or_else(overflow)?;
            }
            let last = self.transcript.faces.len() - 1;
            self.transcript.faces[last].value = counted;
            value = value.checked_add(counted).ok_or_else(overflow)?;
            let Some(explode) = &term.explode else { break };
            if !explode.matches(natural, highest) || (explode.once && explosions >= 1) {
                break;
            }
            if explosions >= self.limits.max_repeats_per_die {
                limit_reached = true;
                break;
            }
            self.transcript.faces[last].exploded = true;
            explosions += 1;
            cause = FaceCause::Explosion;
        }
        self.transcript.dice.push(DieRecord {
            term: term_index,
            first_face,
            faces: self.transcript.faces.len() as u32 - first_face,
            value,
            kept: true,
            successes: 0,
            failures: 0,
            limit_reached,
        });
        Ok(())
    }

    /// Makes room in the transcript for `dice` more dice and `faces` more
    /// faces, or fails with the bytes they need.
    fn make_room(&mut self, node: &Node, dice: u64, faces: u64) -> Result<(), Fail> {
        let t = &mut *self.transcript;
        let room = crate::memory::reserve(&mut t.dice, u128::from(dice))
            .and_then(|_| crate::memory::reserve(&mut t.faces, u128::from(faces)));
        room.map_err(|_| {
            let bytes = crate::memory::bytes_of::<DieRecord>(u128::from(dice))
                .saturating_add(crate::memory::bytes_of::<FaceRecord>(u128::from(faces)));
            Box::new(RollError::OutOfMemory {
                bytes,
                span: node.span,
            })
        })
    }

    /// Draws a face and rerolls it while it matches (`r`) or once (`ro`);
    /// returns the face that stands. Repeated rerolls have no limit of
    /// their own: only the roll's [`Limits::max_dice`] bounds them, so a
    /// roll follows the exact odds, which reroll without limit (a roll that
    /// would pass `max_dice` fails, and exact odds refuse an expression
    /// where that could happen more often than their tail threshold).
    fn face(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        digits: Option<u8>,
        mut cause: FaceCause,
    ) -> Result<i64, Fail> {
        loop {
            let natural = self.draw(node, term, faces, digits)?;
            if self.transcript.faces.len() == self.transcript.faces.capacity() {
                // Rerolls and explosions beyond the room made for the term:
                // the vector doubles, sized first.
                let more = self.transcript.faces.len().max(64) as u64;
                self.make_room(node, 0, more)?;
            }
            self.transcript.faces.push(FaceRecord {
                natural,
                value: natural,
                cause,
                rerolled: false,
                exploded: false,
            });
            let Some(reroll) = &term.reroll else {
                return Ok(natural);
            };
            if !reroll.matches(natural) || (reroll.once && cause == FaceCause::Reroll) {
                return Ok(natural);
            }
            let last = self.transcript.faces.len() - 1;
            self.transcript.faces[last].rerolled = true;
            cause = FaceCause::Reroll;
        }
    }

    /// One face from the source, counted against the dice limit.
    fn draw(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        digits: Option<u8>,
    ) -> Result<i64, Fail> {
        if self.rolled >= self.limits.max_dice {
            return Err(Box::new(RollError::TooManyDice {
                limit: self.limits.max_dice,
                span: node.span,
            }));
        }
        self.rolled += 1;
        let drawn = match digits {
            None => self.source.draw(faces),
            Some(n) => (0..n).try_fold(0i64, |acc, _| Ok(acc * 10 + self.source.draw(&DIGIT_DIE)?)),
        };
        drawn.map_err(|error| Box::new(self.source_error(node, term, faces, error)))
    }

    fn source_error(
        &self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        error: SourceError,
    ) -> RollError {
        let die = match &term.die {
            Die::Computed(_) => format!("d{}", faces.len()),
            die => format!("d{die}"),
        };
        RollError::Source {
            term: term.to_string(),
            die,
            position: self.transcript.faces.len() + 1,
            error,
            span: node.span,
        }
    }

    fn group(&mut self, group: &GroupTerm) -> Result<i64, Fail> {
        let index = self.transcript.groups.len();
        self.transcript.groups.push(GroupRecord {
            first_member: 0,
            member_count: 0,
            total: 0,
        });
        let total = if group.pooled {
            self.pooled_group(group)?
        } else {
            let mut values = Vec::with_capacity(group.members.len());
            for member in &group.members {
                values.push(self.eval(member)?);
            }
            let first = self.transcript.members.len();
            self.transcript
                .members
                .extend(values.iter().map(|&value| MemberRecord {
                    value,
                    kept: true,
                    score: 0,
                }));
            let members = &mut self.transcript.members[first..];
            if let Some(select) = &group.select {
                let kept = rank_for_select(members.len(), |i| values[i], select, self.order);
                for &i in &self.order[kept..] {
                    members[i as usize].kept = false;
                }
            }
            let mut total: i64 = 0;
            for member in members.iter_mut().filter(|m| m.kept) {
                let add = if group.counting.is_active() {
                    let score = group.counting.score(member.value);
                    member.score = score as i8;
                    score
                } else {
                    member.value
                };
                total = total.checked_add(add).ok_or_else(|| {
                    Box::new(RollError::Overflow {
                        span: group.members[0].span,
                    })
                })?;
            }
            self.transcript.groups[index].first_member = first as u32;
            self.transcript.groups[index].member_count = values.len() as u32;
            total
        };
        self.transcript.groups[index].total = total;
        Ok(total)
    }

    /// `{4d6+3d8}kh4`: keep/drop and counting act on the pooled dice.
    fn pooled_group(&mut self, group: &GroupTerm) -> Result<i64, Fail> {
        let mut pool: Vec<(u32, &DiceTerm)> = Vec::new(); // (term record index, term)
        for member in &group.members {
            self.eval(member)?;
            let NodeKind::Dice(term) = &member.kind else {
                unreachable!("pooled groups hold dice terms")
            };
            pool.push((self.transcript.terms.len() as u32 - 1, term));
        }
        let mut dice: Vec<(usize, &DiceTerm)> = Vec::new();
        for &(record, term) in &pool {
            let r = self.transcript.terms[record as usize];
            for d in r.first_die..r.first_die + r.dice {
                if self.transcript.dice[d as usize].kept {
                    dice.push((d as usize, term));
                }
            }
        }
        if let Some(select) = &group.select {
            let all = &self.transcript.dice;
            let kept = rank_for_select(dice.len(), |i| all[dice[i].0].value, select, self.order);
            for &i in &self.order[kept..] {
                self.transcript.dice[dice[i as usize].0].kept = false;
            }
        }
        let span = group.members[0].span;
        let overflow = || Box::new(RollError::Overflow { span });
        let mut total: i64 = 0;
        for &(d, term) in &dice {
            let die = self.transcript.dice[d];
            if !die.kept {
                continue;
            }
            let add = if group.counting.is_active() {
                let faces = &self.transcript.faces
                    [die.first_face as usize..(die.first_face + die.faces) as usize];
                let (s, f, score) = score_one(term, &group.counting, &die, faces);
                self.transcript.dice[d].successes = s;
                self.transcript.dice[d].failures = f;
                score
            } else {
                die.value
            };
            total = total.checked_add(add).ok_or_else(overflow)?;
        }
        // Each member term's own total now counts only the dice the group kept.
        for &(record, _) in &pool {
            let r = self.transcript.terms[record as usize];
            let kept_sum = self.transcript.dice
                [r.first_die as usize..(r.first_die + r.dice) as usize]
                .iter()
                .filter(|d| d.kept)
                .try_fold(0i64, |acc, d| acc.checked_add(d.value))
                .ok_or_else(overflow)?;
            self.transcript.terms[record as usize].total = kept_sum;
        }
        Ok(total)
    }
}

/// Successes, failures and the score of one die under `counting`.
fn score_one(
    term: &DiceTerm,
    counting: &Counting,
    die: &DieRecord,
    faces: &[FaceRecord],
) -> (u32, u32, i64) {
    let (mut successes, mut failures, mut score) = (0u32, 0u32, 0i64);
    let mut tally = |value: i64| {
        let (s, f) = counting.classify(value);
        successes += u32::from(s);
        failures += u32::from(f);
        score += counting.score(value);
    };
    if counts_each_face(term) {
        faces
            .iter()
            .filter(|f| !f.rerolled)
            .for_each(|f| tally(f.value));
    } else {
        tally(die.value);
    }
    (successes, failures, score)
}

/// The total of a term's dice: the sum of kept values, or the success count.
fn score_dice(
    term: &DiceTerm,
    counting: &Counting,
    dice: &mut [DieRecord],
    faces: &[FaceRecord],
    node: &Node,
) -> Result<i64, Fail> {
    let overflow = || Box::new(RollError::Overflow { span: node.span });
    let mut total: i64 = 0;
    for die in dice.iter_mut().filter(|d| d.kept) {
        let add = if counting.is_active() {
            let own = &faces[die.first_face as usize..(die.first_face + die.faces) as usize];
            let (s, f, score) = score_one(term, counting, die, own);
            die.successes = s;
            die.failures = f;
            score
        } else {
            die.value
        };
        total = total.checked_add(add).ok_or_else(overflow)?;
    }
    Ok(total)
}

/// Division rounding toward negative infinity (RULING N-1); `None` on overflow.
pub(crate) fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

#[cfg(test)]
mod tests {
    use super::floor_div;

    /// RULING N-1: "Division rounds down (toward negative infinity)".
    #[test]
    fn division_rounds_toward_negative_infinity() {
        assert_eq!(floor_div(7, 2), Some(3));
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_div(-7, -2), Some(3));
        assert_eq!(floor_div(-6, 2), Some(-3));
        assert_eq!(floor_div(i64::MIN, -1), None);
    }
}
