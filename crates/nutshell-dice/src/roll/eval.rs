//! The sampler: interprets a plan with a dice source, recording a transcript.

use super::plain::{clamp_bounds, plain_die, roll_plain_dice};
use super::transcript::*;
use crate::error::RollError;
use crate::limits::Limits;
use crate::plan::*;
use crate::source::{DiceSource, SourceError};
use std::ops::Range;
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

/// The value a face counts for after `min` and `max` (`max` wins when the
/// two cross).
#[inline]
pub(crate) fn clamp(term: &DiceTerm, natural: i64) -> i64 {
    let (lowest, highest) = clamp_bounds(term);
    natural.max(lowest).min(highest)
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

/// Marks the dice keep/drop drops and returns the sum of their values,
/// wrapping on overflow. Dropping or keeping a single die, the common case
/// (`4d6dl1`, `2d20kh1`), is one pass with no sorting and no branch on the
/// faces.
#[inline]
pub(crate) fn mark_dropped(dice: &mut [DieRecord], select: &Select, order: &mut Vec<u32>) -> i64 {
    let n = dice.len();
    let keep = select.kept_of(n as u64) as usize;
    let high = select.keeps_high();
    if keep == n {
        0
    } else if n - keep == 1 {
        let worst = worst_die(dice, high);
        dice[worst].kept = false;
        dice[worst].value
    } else if keep == 1 {
        let best = best_die(dice, high);
        let mut dropped = 0i64;
        for (i, die) in dice.iter_mut().enumerate() {
            die.kept = i == best;
            dropped = dropped.wrapping_add(if die.kept { 0 } else { die.value });
        }
        dropped
    } else {
        mark_ranked(dice, select, order)
    }
}

/// [`mark_dropped`] for any number of dice kept and dropped: the dice are
/// ranked, and the sum of the dropped dice's values returned, wrapping.
fn mark_ranked(dice: &mut [DieRecord], select: &Select, order: &mut Vec<u32>) -> i64 {
    let kept = rank_for_select(dice.len(), |i| dice[i].value, select, order);
    let mut dropped = 0i64;
    for &i in &order[kept..] {
        let die = &mut dice[i as usize];
        die.kept = false;
        dropped = dropped.wrapping_add(die.value);
    }
    dropped
}

/// A die's value as keep/drop ranks it: the higher, the better. Keeping the
/// lowest dice ranks by the value's bitwise complement, which reverses the
/// order of every `i64` without overflow.
#[inline(always)]
fn rank_key(value: i64, keeps_high: bool) -> i64 {
    value ^ if keeps_high { 0 } else { -1 }
}

/// The index of the worst die: the lowest when the highest are kept, the
/// highest otherwise; among equals the last one, which keep/drop drops
/// first (ties keep the earlier die).
fn worst_die(dice: &[DieRecord], keeps_high: bool) -> usize {
    let (mut worst, mut worst_key) = (0, rank_key(dice[0].value, keeps_high));
    for (i, die) in dice.iter().enumerate().skip(1) {
        let key = rank_key(die.value, keeps_high);
        let later_is_worse = key <= worst_key;
        worst = if later_is_worse { i } else { worst };
        worst_key = if later_is_worse { key } else { worst_key };
    }
    worst
}

/// The index of the best die: the highest when the highest are kept, the
/// lowest otherwise; among equals the first one.
fn best_die(dice: &[DieRecord], keeps_high: bool) -> usize {
    let (mut best, mut best_key) = (0, rank_key(dice[0].value, keeps_high));
    for (i, die) in dice.iter().enumerate().skip(1) {
        let key = rank_key(die.value, keeps_high);
        let later_is_better = key > best_key;
        best = if later_is_better { i } else { best };
        best_key = if later_is_better { key } else { best_key };
    }
    best
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
        if term.reroll.is_none()
            && term.explode.is_none()
            && self.fixed.is_none()
            && digits.is_none()
        {
            return self.plain_term(node, term, &faces, count, sides);
        }
        let first_die = self.transcript.dice.len();
        // Every die takes a record and at least one face: made room for now,
        // so that a count the machine cannot hold fails here, not in an abort.
        make_room(self.transcript, node, count, count)?;
        let highest = faces.max();
        let term_index = self.transcript.terms.len() as u32;
        for _ in 0..count {
            self.die(node, term, &faces, highest, digits, term_index)?;
        }
        self.finish_term(node, term, first_die, sides)
    }

    /// Rolls a term of plain dice, one face each: no reroll, no explosion, no
    /// fixed face, no digit roll. The caller has checked `count` against the
    /// dice limit. `sides` is the number of sides when computed at roll time.
    fn plain_term(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        faces: &Faces<'_>,
        count: u64,
        sides: Option<i64>,
    ) -> Result<i64, Fail> {
        let first_die = self.transcript.dice.len();
        // As for any term: room for every die first, or an error, never an abort.
        make_room(self.transcript, node, count, count)?;
        self.plain_dice(node, term, faces, count)?;
        self.finish_term(node, term, first_die, sides)
    }

    /// Ends a term whose dice are the transcript's from `first_die` on: keeps
    /// or drops them, scores the kept ones and records the term.
    fn finish_term(
        &mut self,
        node: &Node,
        term: &DiceTerm,
        first_die: usize,
        sides: Option<i64>,
    ) -> Result<i64, Fail> {
        let dice = first_die..self.transcript.dice.len();
        let total = select_and_score(self.transcript, self.order, node, term, dice)?;
        self.transcript.terms.push(TermRecord {
            first_die: first_die as u32,
            dice: (self.transcript.dice.len() - first_die) as u32,
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
    ) -> Result<(), Fail> {
        let term_index = self.transcript.terms.len() as u32;
        self.rolled += count;
        let bounds = clamp_bounds(term);
        match roll_plain_dice(
            self.source,
            self.transcript,
            term_index,
            faces,
            count,
            bounds,
        ) {
            Ok(_) => Ok(()),
            Err(error) => {
                self.rolled -= count; // positions in the error count faces actually drawn
                Err(source_error(node, term, faces, self.transcript, error))
            }
        }
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
            self.transcript
                .dice
                .push(plain_die(term_index, first_face, value));
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
                make_room(self.transcript, node, 0, more)?;
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
        drawn.map_err(|error| source_error(node, term, faces, self.transcript, error))
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

/// Makes room in the transcript for `dice` more dice and `faces` more faces,
/// or fails with the bytes they need. A reused transcript mostly has the
/// room already: that is checked first, in line.
#[inline]
pub(crate) fn make_room(
    t: &mut Transcript,
    node: &Node,
    dice: u64,
    faces: u64,
) -> Result<(), Fail> {
    let spare = |len: usize, capacity: usize| (capacity - len) as u64;
    if spare(t.dice.len(), t.dice.capacity()) >= dice
        && spare(t.faces.len(), t.faces.capacity()) >= faces
    {
        return Ok(());
    }
    grow(t, node, dice, faces)
}

/// [`make_room`] when the room is not there yet.
#[cold]
fn grow(t: &mut Transcript, node: &Node, dice: u64, faces: u64) -> Result<(), Fail> {
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

/// A dice source's failure, placed: the term, the die and the position of
/// the face it could not give (the transcript holds the faces before it).
#[cold]
pub(crate) fn source_error(
    node: &Node,
    term: &DiceTerm,
    faces: &Faces<'_>,
    t: &Transcript,
    error: SourceError,
) -> Fail {
    let die = match &term.die {
        Die::Computed(_) => format!("d{}", faces.len()),
        die => format!("d{die}"),
    };
    Box::new(RollError::Source {
        term: term.to_string(),
        die,
        position: t.faces.len() + 1,
        error,
        span: node.span,
    })
}

/// Keeps or drops a term's dice (the transcript's `dice`) and returns the
/// term's total: the sum of the kept dice, or their success count.
#[inline]
pub(crate) fn select_and_score(
    t: &mut Transcript,
    order: &mut Vec<u32>,
    node: &Node,
    term: &DiceTerm,
    dice: Range<usize>,
) -> Result<i64, Fail> {
    let dice = &mut t.dice[dice];
    if let Some(select) = &term.select {
        mark_dropped(dice, select, order);
    }
    score_dice(term, &term.counting, dice, &t.faces, node)
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
#[inline]
fn score_dice(
    term: &DiceTerm,
    counting: &Counting,
    dice: &mut [DieRecord],
    faces: &[FaceRecord],
    node: &Node,
) -> Result<i64, Fail> {
    if counting.is_active() {
        count_dice(term, counting, dice, faces, node)
    } else {
        sum_kept(dice).ok_or_else(|| Box::new(RollError::Overflow { span: node.span }))
    }
}

/// The success count of a term's kept dice, each die's successes and
/// failures recorded. (`score_dice`'s parameters, to which it answers.)
fn count_dice(
    term: &DiceTerm,
    counting: &Counting,
    dice: &mut [DieRecord],
    faces: &[FaceRecord],
    node: &Node,
) -> Result<i64, Fail> {
    let overflow = || Box::new(RollError::Overflow { span: node.span });
    let mut total: i64 = 0;
    for die in dice.iter_mut().filter(|d| d.kept) {
        let own = &faces[die.first_face as usize..(die.first_face + die.faces) as usize];
        let (s, f, score) = score_one(term, counting, die, own);
        die.successes = s;
        die.failures = f;
        total = total.checked_add(score).ok_or_else(overflow)?;
    }
    Ok(total)
}

/// The sum of the kept dice's values; `None` on overflow.
#[inline]
fn sum_kept(dice: &[DieRecord]) -> Option<i64> {
    dice.iter().try_fold(0i64, |sum, die| {
        sum.checked_add(if die.kept { die.value } else { 0 })
    })
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
