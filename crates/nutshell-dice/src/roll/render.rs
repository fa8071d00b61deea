//! The transcript as one line of text, in the spirit of
//! `4d6kh3 = [6, 5, 3, (1)] = 14`.
//!
//! Each dice term is replaced by its dice. A die is written as its face, with:
//! `(3)` dropped; `6!+4` exploded (`!!` compounded, `!p` penetrating: added
//! faces show their value after the -1); `1→4` rerolled; `2↑3` raised by `min`,
//! `6↓4` lowered by `max`; `5✓` a success and `1✗` a failure; `…` a die that
//! reached the explosion or reroll limit. A group member is written as its
//! dice, `=` and its value.

use super::eval::{clamp, counts_each_face};
use super::transcript::*;
use crate::plan::precedence;
use crate::plan::*;
use std::fmt::Write;

/// What a piece of rendered text is, for styling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A die or member that keep/drop dropped, or a rerolled face.
    Dropped,
    /// A success.
    Success,
    /// A failure.
    Failure,
    /// A face showing the die's highest face.
    Highest,
    /// A face showing the die's lowest face.
    Lowest,
    /// The final total.
    Total,
    /// A label.
    Label,
}

/// Styles marked text: returns what to write before and after it. [`Plain`]
/// writes nothing; a terminal front end writes colour codes.
pub trait Painter {
    /// Text written before a piece marked `mark`.
    fn open(&self, mark: Mark) -> &str;
    /// Text written after it.
    fn close(&self, mark: Mark) -> &str;
}

/// No styling.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Painter for Plain {
    fn open(&self, _: Mark) -> &str {
        ""
    }
    fn close(&self, _: Mark) -> &str {
        ""
    }
}

pub(crate) fn render(
    expression: &Expression,
    t: &Transcript,
    total: i64,
    painter: &dyn Painter,
) -> String {
    let mut r = Renderer {
        t,
        painter,
        out: String::new(),
        term: 0,
        group: 0,
        label: 0,
        member: 0,
        pool_counting: None,
    };
    r.node(expression.root());
    let substituted = r.out;
    let mut line = String::new();
    line.push_str(expression.normalized());
    if substituted != expression.normalized() {
        line.push_str(" = ");
        line.push_str(&substituted);
    }
    line.push_str(" = ");
    line.push_str(painter.open(Mark::Total));
    let _ = write!(line, "{total}");
    line.push_str(painter.close(Mark::Total));
    line
}

struct Renderer<'a> {
    t: &'a Transcript,
    painter: &'a dyn Painter,
    out: String,
    term: usize,
    group: usize,
    label: usize,
    member: usize,
    /// While rendering the dice of a pooled group, the group's counting.
    pool_counting: Option<Counting>,
}

impl Renderer<'_> {
    fn marked(&mut self, mark: Mark, text: &str) {
        self.out.push_str(self.painter.open(mark));
        self.out.push_str(text);
        self.out.push_str(self.painter.close(mark));
    }

    fn child(&mut self, node: &Node, needs: u8) {
        if precedence(node) < needs {
            self.out.push('(');
            self.node(node);
            self.out.push(')');
        } else {
            self.node(node);
        }
    }

    fn node(&mut self, node: &Node) {
        match &node.kind {
            NodeKind::Const(n) => {
                let _ = write!(self.out, "{n}");
            }
            NodeKind::Dice(term) => self.dice(term),
            NodeKind::Group(group) => self.group(group),
            NodeKind::Negate(inner) => {
                self.out.push('-');
                self.child(inner, 3);
            }
            NodeKind::Chain(first, rest) => {
                let own = precedence(node);
                self.child(first, own + 1);
                for (op, operand) in rest {
                    let _ = write!(self.out, " {} ", op.symbol());
                    self.child(operand, own + 1);
                }
            }
            NodeKind::Compare(op, left, right) => {
                self.child(left, 1);
                let _ = write!(self.out, " {} ", op.symbol());
                self.child(right, 1);
            }
            NodeKind::Call(func, args) if crate::plan::rounding::rounds(*func) => {
                let _ = write!(self.out, "{}(", func.name());
                if matches!(args[1].kind, NodeKind::Const(1)) {
                    self.node(&args[0]);
                } else {
                    self.child(&args[0], 2);
                    self.out.push_str(" / ");
                    self.child(&args[1], 3);
                }
                self.out.push(')');
            }
            NodeKind::Call(func, args) => {
                let _ = write!(self.out, "{}(", func.name());
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.node(arg);
                }
                self.out.push(')');
            }
            NodeKind::Fixed(face, inner) => {
                self.out.push_str(match face {
                    FixedFace::Lowest => "nominal(",
                    FixedFace::Highest => "maximize(",
                });
                self.node(inner);
                self.out.push(')');
            }
            NodeKind::Labeled(inner, label) => {
                self.label += 1;
                self.child(inner, 5);
                self.marked(Mark::Label, &format!("[{label}]"));
            }
        }
    }

    fn dice(&mut self, term: &DiceTerm) {
        if let DiceCount::Computed(count) = &term.count {
            self.out.push('(');
            self.node(count);
            self.out.push(')');
        }
        if let Die::Computed(sides) = &term.die {
            if let DiceCount::Fixed(n) = term.count {
                let _ = write!(self.out, "{n}");
            }
            self.out.push_str("d(");
            self.node(sides);
            self.out.push(')');
        } else if matches!(term.count, DiceCount::Computed(_)) {
            let _ = write!(self.out, "d{}", term.die);
        }
        let Some(record) = self.t.terms.get(self.term).copied() else {
            return;
        };
        self.term += 1;
        let dice = self.t.dice_of(&record);
        let mut order: Vec<usize> = (0..dice.len()).collect();
        match term.sort {
            Some(SortOrder::Ascending) => order.sort_by_key(|&i| dice[i].value),
            Some(SortOrder::Descending) => order.sort_by_key(|&i| std::cmp::Reverse(dice[i].value)),
            None => {}
        }
        let (lowest, highest) = match (&term.die, record.sides) {
            (_, Some(sides)) => (1, sides),
            (Die::Digits(n), _) => {
                let faces = super::digit_faces(*n);
                (faces[0], faces[faces.len() - 1])
            }
            (die, None) => {
                let faces = die.faces().expect("static die");
                (faces.min(), faces.max())
            }
        };
        self.out.push('[');
        for (n, &i) in order.iter().enumerate() {
            if n > 0 {
                self.out.push_str(", ");
            }
            self.die(term, &dice[i], lowest, highest, record.fixed);
        }
        self.out.push(']');
    }

    fn die(&mut self, term: &DiceTerm, die: &DieRecord, lowest: i64, highest: i64, fixed: bool) {
        if !die.kept {
            self.out.push_str(self.painter.open(Mark::Dropped));
            self.out.push('(');
        }
        let per_face = counts_each_face(term);
        let counting = self.pool_counting.unwrap_or(term.counting);
        let faces = self.t.faces_of(die);
        for face in faces {
            if face.rerolled {
                self.marked(Mark::Dropped, &face.natural.to_string());
                self.out.push('→');
                continue;
            }
            let mark = if fixed || !die.kept {
                None
            } else if face.natural == highest {
                Some(Mark::Highest)
            } else if face.natural == lowest {
                Some(Mark::Lowest)
            } else {
                None
            };
            // What the face counts for, after `min`/`max` and a penetrating
            // die's -1: a clamp shows as `6↓3`, penetration alone as the value.
            let mut text = face.natural.to_string();
            let clamped = clamp(term, face.natural) != face.natural;
            if clamped && face.value != face.natural {
                let arrow = if face.value > face.natural {
                    '↑'
                } else {
                    '↓'
                };
                let _ = write!(text, "{arrow}{}", face.value);
            } else if !clamped && face.value != face.natural {
                text = face.value.to_string();
            }
            match mark {
                Some(mark) => self.marked(mark, &text),
                None => self.out.push_str(&text),
            }
            if per_face && die.kept && counting.is_active() {
                self.count_mark(&counting, face.value);
            }
            if face.exploded {
                let symbol = match term.explode.as_ref().map(|e| e.kind) {
                    Some(ExplodeKind::Compound) => "!!+",
                    Some(ExplodeKind::Penetrate) => "!p+",
                    _ => "!+",
                };
                self.out.push_str(symbol);
            }
        }
        if !per_face && die.kept && counting.is_active() {
            self.count_mark(&counting, die.value);
        }
        if die.limit_reached {
            self.out.push('…');
        }
        if !die.kept {
            self.out.push(')');
            self.out.push_str(self.painter.close(Mark::Dropped));
        }
    }

    fn count_mark(&mut self, counting: &Counting, value: i64) {
        match counting.classify(value) {
            (true, _) => self.marked(Mark::Success, "✓"),
            (false, true) => self.marked(Mark::Failure, "✗"),
            _ => {}
        }
    }

    fn group(&mut self, group: &GroupTerm) {
        let record = self.t.groups.get(self.group).copied();
        self.group += 1;
        self.out.push('{');
        if group.pooled {
            let saved = self.pool_counting.replace(group.counting);
            for (i, member) in group.members.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(" + ");
                }
                self.node(member);
            }
            self.pool_counting = saved;
        } else {
            let first = record.map_or(self.member, |r| r.first_member as usize);
            for (i, member) in group.members.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let rec = self.t.members.get(first + i).copied();
                let dropped = rec.is_some_and(|m| !m.kept);
                if dropped {
                    self.out.push_str(self.painter.open(Mark::Dropped));
                    self.out.push('(');
                }
                self.node(member);
                if let Some(m) = rec {
                    let _ = write!(self.out, " = {}", m.value);
                    if !dropped && group.counting.is_active() {
                        self.count_mark(&group.counting, m.value);
                    }
                }
                if dropped {
                    self.out.push(')');
                    self.out.push_str(self.painter.close(Mark::Dropped));
                }
            }
            self.member = first + group.members.len();
        }
        self.out.push('}');
    }
}
