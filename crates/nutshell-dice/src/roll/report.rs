//! The transcript as a serializable report: the JSON a front end prints.

use super::eval::counts_each_face;
use super::transcript::*;
use crate::plan::*;
use serde::Serialize;

/// One roll, ready to serialize.
///
/// ```
/// use nutshell_dice::{Expression, Scripted};
/// let expr = Expression::parse("4d6kh3")?;
/// let report = expr.roll(&mut Scripted::new([6, 5, 3, 1]))?.report();
/// assert_eq!(report.total, 14);
/// assert_eq!(report.dice.len(), 4);
/// assert!(!report.dice[3].kept);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollReport {
    /// The normalized expression.
    pub expression: String,
    /// The result.
    pub total: i64,
    /// The roll as one line of text.
    pub text: String,
    /// Every die in the order rolled (the order scripted faces are consumed).
    pub dice: Vec<DieReport>,
    /// Every dice term in evaluation order.
    pub terms: Vec<TermReport>,
    /// Every group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupReport>,
    /// Every label with the value of what it names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<LabelReport>,
}

/// One die.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DieReport {
    /// Index of its term in [`RollReport::terms`].
    pub term: usize,
    /// The die, such as `d6` or `d{0,10,20}`.
    pub die: String,
    /// Its label, if inside one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Every face it showed, rerolled ones included.
    pub faces: Vec<FaceReport>,
    /// What it counts for.
    pub value: i64,
    /// Whether it was kept: false when keep/drop dropped it, or the group
    /// member it is in.
    pub kept: bool,
    /// Whether any face exploded.
    pub exploded: bool,
    /// Whether any face was rerolled.
    pub rerolled: bool,
    /// Successes counted on it.
    #[serde(skip_serializing_if = "is_zero")]
    pub successes: u32,
    /// Failures counted on it.
    #[serde(skip_serializing_if = "is_zero")]
    pub failures: u32,
    /// It reached the explosion or reroll limit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub limit_reached: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One face.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceReport {
    /// What the die showed.
    pub face: i64,
    /// What it counts for (after `min`/`max` and `!p`); 0 if rerolled.
    pub value: i64,
    /// Why it was rolled.
    pub cause: FaceCause,
    /// It was rerolled away.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rerolled: bool,
    /// It exploded.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exploded: bool,
    /// `min` or `max` changed it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub clamped: bool,
    /// `success` or `failure`, when counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted: Option<&'static str>,
}

/// One dice term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermReport {
    /// The term in normalized notation.
    pub expression: String,
    /// How many dice it rolled.
    pub count: u32,
    /// Its value.
    pub total: i64,
    /// Its label, if inside one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// One group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupReport {
    /// The group in normalized notation.
    pub expression: String,
    /// Its value.
    pub total: i64,
    /// Its members, unless it pools dice.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberReport>,
}

/// One member of a group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemberReport {
    /// The member in normalized notation.
    pub expression: String,
    /// Its value.
    pub value: i64,
    /// Whether it was kept.
    pub kept: bool,
}

/// One labelled part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelReport {
    /// The label.
    pub label: String,
    /// The value of what it names.
    pub total: i64,
}

/// The plan's dice terms, groups and labels in the order the sampler records them.
#[derive(Default)]
struct Order<'p> {
    /// Each term with the counting that scores its dice (a pooled group's own).
    terms: Vec<(&'p Node, &'p DiceTerm, Counting)>,
    groups: Vec<(&'p Node, &'p GroupTerm)>,
    /// The terms of each member of a group that is not pooled: `(group,
    /// member, first term, end of its terms)`.
    members: Vec<(usize, usize, usize, usize)>,
    labels: Vec<&'p str>,
}

impl<'p> Order<'p> {
    fn walk(&mut self, node: &'p Node) {
        match &node.kind {
            NodeKind::Const(_) => {}
            NodeKind::Dice(term) => {
                if let DiceCount::Computed(c) = &term.count {
                    self.walk(c);
                }
                if let Die::Computed(s) = &term.die {
                    self.walk(s);
                }
                self.terms.push((node, term, term.counting));
            }
            NodeKind::Group(group) => {
                let index = self.groups.len();
                self.groups.push((node, group));
                for (member, m) in group.members.iter().enumerate() {
                    let start = self.terms.len();
                    self.walk(m);
                    if !group.pooled {
                        self.members.push((index, member, start, self.terms.len()));
                    }
                }
                if group.pooled {
                    let pooled = group.members.len();
                    let start = self.terms.len() - pooled;
                    for entry in &mut self.terms[start..] {
                        entry.2 = group.counting;
                    }
                }
            }
            NodeKind::Negate(inner) | NodeKind::Fixed(_, inner) => self.walk(inner),
            NodeKind::Chain(first, rest) => {
                self.walk(first);
                rest.iter().for_each(|(_, n)| self.walk(n));
            }
            NodeKind::Compare(_, l, r) => {
                self.walk(l);
                self.walk(r);
            }
            NodeKind::Call(_, args) => args.iter().for_each(|a| self.walk(a)),
            NodeKind::Labeled(inner, label) => {
                self.labels.push(label);
                self.walk(inner);
            }
        }
    }
}

pub(crate) fn report(expression: &Expression, t: &Transcript, total: i64) -> RollReport {
    let mut order = Order::default();
    order.walk(expression.root());
    let label_of = |index: Option<u32>| {
        index
            .and_then(|i| order.labels.get(i as usize))
            .map(|s| s.to_string())
    };
    // The terms inside a group member that was dropped: their dice count
    // for nothing, whatever keep/drop did inside the member.
    let mut dropped_term = vec![false; order.terms.len()];
    for &(group, member, start, end) in &order.members {
        let dropped = t
            .groups
            .get(group)
            .and_then(|record| t.members_of(record).get(member))
            .is_some_and(|r| !r.kept);
        if dropped {
            dropped_term[start..end].iter_mut().for_each(|d| *d = true);
        }
    }
    let mut dice = Vec::with_capacity(t.dice.len());
    let mut terms = Vec::with_capacity(t.terms.len());
    for (index, record) in t.terms.iter().enumerate() {
        let Some(&(node, term, counting)) = order.terms.get(index) else {
            break;
        };
        let die_name = match record.sides {
            Some(sides) => format!("d{sides}"),
            None => format!("d{}", term.die),
        };
        terms.push(TermReport {
            expression: node.to_string(),
            count: record.dice,
            total: record.total,
            label: label_of(record.label),
        });
        let in_dropped_member = dropped_term.get(index).copied().unwrap_or(false);
        for die in t.dice_of(record) {
            let kept = die.kept && !in_dropped_member;
            let faces = t.faces_of(die);
            let per_face = counts_each_face(term);
            let counted = |value: i64, kept: bool| -> Option<&'static str> {
                if !kept || !counting.is_active() {
                    return None;
                }
                match counting.classify(value) {
                    (true, _) => Some("success"),
                    (false, true) => Some("failure"),
                    _ => None,
                }
            };
            let mut face_reports: Vec<FaceReport> = faces
                .iter()
                .map(|f| FaceReport {
                    face: f.natural,
                    value: if f.rerolled { 0 } else { f.value },
                    cause: f.cause,
                    rerolled: f.rerolled,
                    exploded: f.exploded,
                    clamped: super::clamp(term, f.natural) != f.natural,
                    counted: if per_face && !f.rerolled {
                        counted(f.value, kept)
                    } else {
                        None
                    },
                })
                .collect();
            if !per_face && let Some(last) = face_reports.iter_mut().rev().find(|f| !f.rerolled) {
                last.counted = counted(die.value, kept);
            }
            dice.push(DieReport {
                term: index,
                die: die_name.clone(),
                label: label_of(record.label),
                faces: face_reports,
                value: die.value,
                kept,
                exploded: faces.iter().any(|f| f.exploded),
                rerolled: faces.iter().any(|f| f.rerolled),
                successes: die.successes,
                failures: die.failures,
                limit_reached: die.limit_reached,
            });
        }
    }
    let groups = order
        .groups
        .iter()
        .zip(&t.groups)
        .map(|(&(node, group), record)| GroupReport {
            expression: node.to_string(),
            total: record.total,
            members: if group.pooled {
                Vec::new()
            } else {
                group
                    .members
                    .iter()
                    .zip(t.members_of(record))
                    .map(|(m, r)| MemberReport {
                        expression: m.to_string(),
                        value: r.value,
                        kept: r.kept,
                    })
                    .collect()
            },
        })
        .collect();
    let labels = order
        .labels
        .iter()
        .zip(&t.labels)
        .map(|(label, record)| LabelReport {
            label: label.to_string(),
            total: record.total,
        })
        .collect();
    RollReport {
        expression: expression.normalized().to_string(),
        total,
        text: super::render::render(expression, t, total, &super::Plain),
        dice,
        terms,
        groups,
        labels,
    }
}
