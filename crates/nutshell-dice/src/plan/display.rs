//! The normalized expression: the plan written back as canonical notation.

use super::*;
use std::fmt::{self, Display, Formatter, Write};

/// Binding strength, loosest first; a child binding more loosely than its place
/// requires is parenthesized.
pub(crate) fn precedence(node: &Node) -> u8 {
    match &node.kind {
        NodeKind::Compare(..) => 0,
        NodeKind::Chain(_, rest) => match rest.first().map(|(op, _)| op) {
            Some(BinOp::Add | BinOp::Sub) => 1,
            _ => 2,
        },
        NodeKind::Negate(_) => 3,
        NodeKind::Labeled(..) => 4,
        _ => 5,
    }
}

fn child(f: &mut Formatter<'_>, node: &Node, needs: u8) -> fmt::Result {
    if precedence(node) < needs {
        write!(f, "({node})")
    } else {
        write!(f, "{node}")
    }
}

impl Display for Node {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            NodeKind::Const(n) => write!(f, "{n}"),
            NodeKind::Dice(term) => write!(f, "{term}"),
            NodeKind::Group(group) => write!(f, "{group}"),
            NodeKind::Negate(inner) => {
                f.write_char('-')?;
                child(f, inner, 3)
            }
            NodeKind::Chain(first, rest) => {
                let own = precedence(self);
                child(f, first, own + 1)?;
                for (op, operand) in rest {
                    write!(f, " {} ", op.symbol())?;
                    child(f, operand, own + 1)?;
                }
                Ok(())
            }
            NodeKind::Compare(op, left, right) => {
                child(f, left, 1)?;
                write!(f, " {} ", op.symbol())?;
                child(f, right, 1)
            }
            NodeKind::Call(func, args) if super::rounding::rounds(*func) => {
                write!(f, "{}(", func.name())?;
                if matches!(args[1].kind, NodeKind::Const(1)) {
                    write!(f, "{}", args[0])?;
                } else {
                    child(f, &args[0], 2)?;
                    f.write_str(" / ")?;
                    child(f, &args[1], 3)?;
                }
                f.write_char(')')
            }
            NodeKind::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{arg}")?;
                }
                f.write_char(')')
            }
            NodeKind::Fixed(face, inner) => {
                let name = match face {
                    FixedFace::Lowest => "nominal",
                    FixedFace::Highest => "maximize",
                };
                write!(f, "{name}({inner})")
            }
            NodeKind::Labeled(inner, label) => {
                child(f, inner, 5)?;
                write!(f, "[{label}]")
            }
        }
    }
}

/// How a compare point is written after a given modifier.
#[derive(Clone, Copy, PartialEq)]
enum PointStyle {
    /// After `!`, `r` or `f`: equality is a bare number (`r1`).
    BareEquality,
    /// A success count: always an operator (`=6`, `>=5`).
    Operator,
}

/// Writes a compare point, turning `>N` into `>=N+1` and `<N` into `<=N-1` so the
/// reader sees exactly which faces count (RULING N-5: `>` is strictly greater).
fn point(f: &mut Formatter<'_>, p: &ComparePoint, style: PointStyle) -> fmt::Result {
    let (op, value) = match p.op {
        CmpOp::Gt => match p.value.checked_add(1) {
            Some(v) => (CmpOp::Ge, v),
            None => (CmpOp::Gt, p.value),
        },
        CmpOp::Lt => match p.value.checked_sub(1) {
            Some(v) => (CmpOp::Le, v),
            None => (CmpOp::Lt, p.value),
        },
        op => (op, p.value),
    };
    if op == CmpOp::Eq && style == PointStyle::BareEquality && value >= 0 {
        write!(f, "{value}")
    } else {
        write!(f, "{}{value}", op.symbol())
    }
}

fn select(f: &mut Formatter<'_>, s: &Option<Select>) -> fmt::Result {
    if let Some(s) = s {
        let name = match s.which {
            Selection::KeepHighest => "kh",
            Selection::KeepLowest => "kl",
            Selection::DropHighest => "dh",
            Selection::DropLowest => "dl",
        };
        write!(f, "{name}{}", s.count)?;
    }
    Ok(())
}

/// Writes success and failure counts. `explicit` writes `cs` before a success
/// count, needed right after an explosion without a compare point (`3d6!cs>=5`),
/// where a bare `>=5` would be read as the explosion's compare point.
fn counting(f: &mut Formatter<'_>, c: &Counting, explicit: bool) -> fmt::Result {
    if let Some(p) = &c.success {
        if explicit {
            f.write_str("cs")?;
        }
        point(f, p, PointStyle::Operator)?;
    }
    if let Some(p) = &c.failure {
        f.write_char('f')?;
        point(f, p, PointStyle::BareEquality)?;
    }
    Ok(())
}

impl Display for Die {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Die::Standard(n) => write!(f, "{n}"),
            Die::Digits(n) => f.write_str(&"6".repeat(*n as usize)),
            Die::Fate => f.write_char('F'),
            Die::Tens => f.write_str("00"),
            Die::List(faces) => {
                f.write_char('{')?;
                for (i, face) in faces.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{face}")?;
                }
                f.write_char('}')
            }
            Die::Range(lo, hi) => write!(f, "{{{lo}..{hi}}}"),
            Die::Computed(node) => write!(f, "({node})"),
        }
    }
}

impl Display for DiceTerm {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.count {
            DiceCount::Fixed(n) => write!(f, "{n}")?,
            DiceCount::Computed(node) => write!(f, "({node})")?,
        }
        write!(f, "d{}", self.die)?;
        if let Some(reroll) = &self.reroll {
            for p in &reroll.when {
                f.write_str(if reroll.once { "ro" } else { "r" })?;
                point(f, p, PointStyle::BareEquality)?;
            }
        }
        if let Some(explode) = &self.explode {
            f.write_str(match (explode.kind, explode.once) {
                (ExplodeKind::Standard, false) => "!",
                (ExplodeKind::Standard, true) => "!o",
                (ExplodeKind::Compound, _) => "!!",
                (ExplodeKind::Penetrate, _) => "!p",
            })?;
            if let Some(p) = &explode.when {
                point(f, p, PointStyle::BareEquality)?;
            }
        }
        if let Some(min) = self.clamp_min {
            write!(f, "min{min}")?;
        }
        if let Some(max) = self.clamp_max {
            write!(f, "max{max}")?;
        }
        select(f, &self.select)?;
        let after_bare_explosion = self.explode.as_ref().is_some_and(|e| e.when.is_none())
            && self.clamp_min.is_none()
            && self.clamp_max.is_none()
            && self.select.is_none();
        counting(f, &self.counting, after_bare_explosion)?;
        match self.sort {
            Some(SortOrder::Ascending) => f.write_str("sa"),
            Some(SortOrder::Descending) => f.write_str("sd"),
            None => Ok(()),
        }
    }
}

impl Display for GroupTerm {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('{')?;
        let separator = if self.pooled { " + " } else { ", " };
        for (i, member) in self.members.iter().enumerate() {
            if i > 0 {
                f.write_str(separator)?;
            }
            write!(f, "{member}")?;
        }
        f.write_char('}')?;
        select(f, &self.select)?;
        counting(f, &self.counting, false)
    }
}
