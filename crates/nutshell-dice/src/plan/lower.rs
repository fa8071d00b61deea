//! Syntax tree to plan: normalize, order the modifiers, refuse what can never work.

use super::*;
use crate::limits::Limits;
use crate::span::NotationError;
use crate::syntax::ast::{self, ClampKind, Count, Expr, ExprKind, ModifierKind, Sides};

/// Lowers a syntax tree into a plan, checking every static limit.
///
/// Refused here, before any die is rolled: a fixed dice count above
/// [`Limits::max_dice`], a die with more than [`MAX_FACES`] faces, a die whose
/// every face explodes (`1d1!`), is rerolled (`1d6r<=6`) or, not rerolled,
/// explodes (`1d6r<6!`), and modifiers given twice.
pub fn lower(expr: &Expr, limits: &Limits) -> Result<Node, NotationError> {
    Lowerer { limits }.node(expr)
}

struct Lowerer<'a> {
    limits: &'a Limits,
}

impl Lowerer<'_> {
    fn node(&self, expr: &Expr) -> Result<Node, NotationError> {
        let kind = match &expr.kind {
            ExprKind::Number(n) => NodeKind::Const(*n),
            ExprKind::Paren(inner) => {
                // The node keeps the span of the brackets, so errors point at them.
                let mut node = self.node(inner)?;
                node.span = expr.span;
                return Ok(node);
            }
            ExprKind::Negate(inner) => NodeKind::Negate(Box::new(self.node(inner)?)),
            ExprKind::Chain(first, rest) => {
                let first = self.node(first)?;
                let rest = rest
                    .iter()
                    .map(|(op, _, e)| Ok((*op, self.node(e)?)))
                    .collect::<Result<Vec<_>, NotationError>>()?;
                NodeKind::Chain(Box::new(first), rest)
            }
            ExprKind::Compare(op, l, r) => {
                NodeKind::Compare(*op, Box::new(self.node(l)?), Box::new(self.node(r)?))
            }
            ExprKind::Call(func, args) => {
                let mut lowered = args
                    .iter()
                    .map(|a| self.node(a))
                    .collect::<Result<Vec<_>, _>>()?;
                match func {
                    Func::Nominal => {
                        NodeKind::Fixed(FixedFace::Lowest, Box::new(lowered.remove(0)))
                    }
                    Func::Maximize => {
                        NodeKind::Fixed(FixedFace::Highest, Box::new(lowered.remove(0)))
                    }
                    f if rounding::rounds(*f) => {
                        let (numerator, denominator) = rounding::fraction(lowered.remove(0))?;
                        NodeKind::Call(*func, vec![numerator, denominator])
                    }
                    _ => NodeKind::Call(*func, lowered),
                }
            }
            ExprKind::Labeled(inner, label) => {
                NodeKind::Labeled(Box::new(self.node(inner)?), label.clone())
            }
            ExprKind::Dice(term) => NodeKind::Dice(Box::new(self.dice(term, expr)?)),
            ExprKind::Group(group) => NodeKind::Group(Box::new(self.group(group, expr)?)),
        };
        Ok(Node {
            kind,
            span: expr.span,
        })
    }

    fn dice(&self, term: &ast::DiceTerm, expr: &Expr) -> Result<DiceTerm, NotationError> {
        let count = match &term.count {
            None => DiceCount::Fixed(1),
            Some(Count::Literal(n, span)) => {
                if *n > self.limits.max_dice {
                    return Err(NotationError::new(
                        *span,
                        format!(
                            "{n} dice is too many: the limit is {} dice per roll (max_dice)",
                            self.limits.max_dice
                        ),
                    ));
                }
                DiceCount::Fixed(*n)
            }
            Some(Count::Computed(e)) => DiceCount::Computed(Box::new(self.node(e)?)),
        };
        let too_many_faces = |faces: u128| {
            NotationError::new(
                term.sides_span,
                format!(
                    "a die with {faces} faces is too large: a die has at most {MAX_FACES} faces"
                ),
            )
        };
        let die = match &term.sides {
            Sides::Number(66) => Die::Digits(2),
            Sides::Number(666) => Die::Digits(3),
            Sides::Number(n) if *n > MAX_FACES => return Err(too_many_faces(*n as u128)),
            Sides::Number(n) => Die::Standard(*n),
            Sides::Percent => Die::Standard(100),
            Sides::Tens => Die::Tens,
            Sides::Fate => Die::Fate,
            Sides::List(faces) => Die::List(faces.clone()),
            Sides::Range(lo, hi) => {
                let faces = (*hi as i128 - *lo as i128 + 1) as u128;
                if faces > MAX_FACES as u128 {
                    return Err(too_many_faces(faces));
                }
                Die::Range(*lo, *hi)
            }
            Sides::Computed(e) => Die::Computed(Box::new(self.node(e)?)),
        };
        let mut out = DiceTerm {
            count,
            die,
            reroll: None,
            explode: None,
            clamp_min: None,
            clamp_max: None,
            select: None,
            counting: Counting::default(),
            sort: None,
        };
        let mut min_span = None;
        for modifier in &term.modifiers {
            let span = modifier.span;
            let twice =
                |what: &str| NotationError::new(span, format!("a dice term takes only one {what}"));
            match &modifier.kind {
                ModifierKind::Select(which, n) => {
                    if out.select.is_some() {
                        return Err(twice("keep or drop"));
                    }
                    out.select = Some(Select {
                        which: *which,
                        count: *n,
                    });
                }
                ModifierKind::Explode { kind, when, once } => {
                    if out.explode.is_some() {
                        return Err(twice("explosion"));
                    }
                    out.explode = Some(Explode {
                        kind: *kind,
                        when: *when,
                        once: *once,
                    });
                }
                ModifierKind::Reroll { when, once } => match &mut out.reroll {
                    None => {
                        out.reroll = Some(Reroll {
                            when: vec![*when],
                            once: *once,
                        })
                    }
                    Some(existing) if existing.once == *once => existing.when.push(*when),
                    Some(_) => {
                        return Err(NotationError::new(
                            span,
                            "a dice term cannot mix `r` and `ro`",
                        )
                        .with_label("reroll either again while it matches (`r`) or once (`ro`)"));
                    }
                },
                ModifierKind::Clamp(ClampKind::Min, n) => {
                    if out.clamp_min.is_some() {
                        return Err(twice("`min`"));
                    }
                    out.clamp_min = Some(*n);
                    min_span = Some(span);
                }
                ModifierKind::Clamp(ClampKind::Max, n) => {
                    if out.clamp_max.is_some() {
                        return Err(twice("`max`"));
                    }
                    out.clamp_max = Some(*n);
                    if let Some(min) = out.clamp_min.filter(|min| min > n) {
                        return Err(NotationError::new(
                            min_span.unwrap_or(span).to(span),
                            format!("`min{min}` is above `max{n}`"),
                        ));
                    }
                }
                ModifierKind::Success(point) => {
                    if out.counting.success.is_some() {
                        return Err(twice("success count").with_label(
                            "to compare a total, put a space before the comparison, as in `2d6>=5 >= 2`",
                        ));
                    }
                    out.counting.success = Some(*point);
                }
                ModifierKind::Failure(point) => {
                    if out.counting.failure.is_some() {
                        return Err(twice("failure count"));
                    }
                    out.counting.failure = Some(*point);
                }
                ModifierKind::Sort(order) => {
                    if out.sort.is_some() {
                        return Err(twice("sort"));
                    }
                    out.sort = Some(*order);
                }
            }
        }
        if let Some(min) = out.clamp_min
            && out.clamp_max.is_some_and(|max| min > max)
        {
            return Err(NotationError::new(expr.span, "`min` is above `max`"));
        }
        check_termination(&out, expr)?;
        Ok(out)
    }

    fn group(&self, group: &ast::Group, expr: &Expr) -> Result<GroupTerm, NotationError> {
        let mut select = None;
        let mut counting = Counting::default();
        for modifier in &group.modifiers {
            let span = modifier.span;
            let twice =
                |what: &str| NotationError::new(span, format!("a group takes only one {what}"));
            match &modifier.kind {
                ModifierKind::Select(which, n) => {
                    if select.is_some() {
                        return Err(twice("keep or drop"));
                    }
                    select = Some(Select {
                        which: *which,
                        count: *n,
                    });
                }
                ModifierKind::Success(point) => {
                    if counting.success.is_some() {
                        return Err(twice("success count"));
                    }
                    counting.success = Some(*point);
                }
                ModifierKind::Failure(point) => {
                    if counting.failure.is_some() {
                        return Err(twice("failure count"));
                    }
                    counting.failure = Some(*point);
                }
                _ => unreachable!("the parser only reads keep, drop and counting after a group"),
            }
        }
        let _ = expr;
        let pooled_dice = match group.members.as_slice() {
            [only] => pooled_dice(only),
            _ => None,
        };
        if let Some(dice) = &pooled_dice
            && (select.is_some() || counting.is_active())
        {
            for d in dice {
                if let ExprKind::Dice(term) = &d.kind
                    && let Some(m) = term.modifiers.iter().find(|m| {
                        matches!(m.kind, ModifierKind::Success(_) | ModifierKind::Failure(_))
                    })
                {
                    return Err(NotationError::new(
                        m.span,
                        "dice pooled in a group are counted by the group, not by their own term",
                    )
                    .with_label("move the comparison after the `}`"));
                }
            }
        }
        let (members, pooled) = match pooled_dice {
            Some(dice) => (
                dice.into_iter()
                    .map(|d| self.node(d))
                    .collect::<Result<Vec<_>, _>>()?,
                true,
            ),
            None => (
                group
                    .members
                    .iter()
                    .map(|m| self.node(m))
                    .collect::<Result<Vec<_>, _>>()?,
                false,
            ),
        };
        Ok(GroupTerm {
            members,
            pooled,
            select,
            counting,
        })
    }
}

/// The dice terms of a member that is only dice terms joined by `+`.
fn pooled_dice(member: &Expr) -> Option<Vec<&Expr>> {
    match &member.kind {
        ExprKind::Dice(_) => Some(vec![member]),
        ExprKind::Paren(inner) => pooled_dice(inner),
        ExprKind::Chain(first, rest) => {
            let mut dice = vec![first.as_ref()];
            for (op, _, e) in rest {
                if *op != BinOp::Add {
                    return None;
                }
                dice.push(e);
            }
            dice.iter()
                .all(|d| matches!(d.kind, ExprKind::Dice(_)))
                .then_some(dice)
        }
        _ => None,
    }
}

/// Refuses dice that would never stop rolling (see [`endless_roll`]).
fn check_termination(term: &DiceTerm, expr: &Expr) -> Result<(), NotationError> {
    let digit_values;
    let faces = match &term.die {
        Die::Digits(n) => {
            digit_values = Die::digit_values(*n);
            Faces::List(&digit_values)
        }
        die => match die.faces() {
            Some(faces) => faces,
            None => return Ok(()), // computed sides: checked when rolled
        },
    };
    if let Some(error) = endless_roll(term, &faces) {
        return Err(NotationError::new(expr.span, error));
    }
    Ok(())
}

/// Why rolling `term` with `faces` would never end, if it would not: every
/// face explodes (`1d1!`), every face is rerolled again and again
/// (`1d6r<=6`), or every face that is not rerolled explodes (`1d6r<6!`:
/// only a 6 stands, and it explodes).
pub(crate) fn endless_roll(term: &DiceTerm, faces: &Faces<'_>) -> Option<String> {
    let reroll = term.reroll.as_ref().filter(|r| !r.once);
    let explode = term.explode.as_ref().filter(|e| !e.once);
    if reroll.is_none() && explode.is_none() {
        return None;
    }
    let highest = faces.max();
    let rerolled = |f: i64| reroll.is_some_and(|r| r.matches(f));
    let explodes = |f: i64| explode.is_some_and(|e| e.matches(f, highest));
    let mut points: Vec<i64> = reroll
        .map(|r| r.when.iter().map(|p| p.value).collect())
        .unwrap_or_default();
    if let Some(e) = explode {
        points.push(e.when.map_or(highest, |p| p.value));
    }
    let any_face = |matches: &dyn Fn(i64) -> bool| some_face(faces, &points, matches);
    if any_face(&|f| !rerolled(f) && !explodes(f)) {
        return None;
    }
    Some(if !any_face(&|f| !explodes(f)) {
        "this roll would explode forever: every face of the die explodes".to_string()
    } else if !any_face(&|f| !rerolled(f)) {
        "this roll would reroll forever: every face of the die is rerolled".to_string()
    } else {
        "this roll would roll forever: every face that is not rerolled explodes".to_string()
    })
}

/// Whether some face satisfies `matches`, a predicate made of compare points
/// at `points`: one face of each run that no comparison there tells apart
/// is enough ([`Faces::segments`]), so a die of four billion faces costs a
/// few dozen tests.
fn some_face(faces: &Faces<'_>, points: &[i64], matches: &dyn Fn(i64) -> bool) -> bool {
    faces
        .segments(points)
        .iter()
        .any(|&(face, _)| matches(face))
}
