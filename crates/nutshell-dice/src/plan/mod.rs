//! The plan: one canonical program that every interpreter reads.
//!
//! [`lower`] turns a syntax tree into a [`Node`] tree: spellings are normalized
//! (`d%` is `d100`, `k` is `kh1`, `x` is `!`), modifiers are sorted into the
//! fixed order they act in, and everything that can be refused before a die is
//! rolled is refused (dice that would explode or reroll forever, counts beyond
//! the limits). [`Node`]'s `Display` writes the normalized expression, which
//! parses back to the same plan.
//!
//! The order in which a dice term's modifiers act, whatever order they were
//! written in:
//!
//! 1. each face rolled is rerolled while it matches `r` (once for `ro`);
//! 2. the face that stands explodes if it matches `!` (on the highest face by
//!    default): another face is rolled, itself rerolled and tested again;
//! 3. `min`/`max` clamp every face; `!p` then takes one from each added face;
//! 4. a die's value is the sum of its faces; keep/drop select dice by value;
//! 5. success and failure counts look at the kept dice (at each face of a `!`
//!    or `!p` chain, at the sum for `!!`);
//! 6. sorting only orders the transcript.

mod die;
mod display;
mod lower;
pub mod rounding;

pub use die::{Faces, MAX_FACES};
pub(crate) use display::precedence;
pub(crate) use lower::endless_roll as endless_roll_reason;
pub use lower::lower;

use crate::span::Span;
pub use crate::syntax::ast::{BinOp, CmpOp, ComparePoint, ExplodeKind, Func, Selection, SortOrder};

/// A node of the plan with the span of the text it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the node computes.
    pub kind: NodeKind,
    /// Where it was written.
    pub span: Span,
}

/// What a node computes.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A constant.
    Const(i64),
    /// A dice term.
    Dice(Box<DiceTerm>),
    /// A group with keep/drop or counting over its members.
    Group(Box<GroupTerm>),
    /// Negation.
    Negate(Box<Node>),
    /// `first op1 x1 op2 x2 ...`, folded from the left; the operators share a
    /// precedence (all additive or all multiplicative).
    Chain(Box<Node>, Vec<(BinOp, Node)>),
    /// 1 if `left op right`, else 0.
    Compare(CmpOp, Box<Node>, Box<Node>),
    /// `min`, `max` (one or more arguments) or `abs` (one).
    Call(Func, Vec<Node>),
    /// Every die inside shows a fixed face: `nominal` (lowest) or `maximize` (highest).
    Fixed(FixedFace, Box<Node>),
    /// A value with a name, such as a damage type.
    Labeled(Box<Node>, String),
}

/// Which face `nominal` and `maximize` fix every die to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum FixedFace {
    /// Every die shows its lowest face (fantasy, "Nominal Success and Imperfect Defences").
    Lowest,
    /// Every die shows its highest face (tiered-d20, "Critical Failure/Success").
    Highest,
}

/// `NdX` with its modifiers, in the order they act.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceTerm {
    /// How many dice.
    pub count: DiceCount,
    /// What each die shows.
    pub die: Die,
    /// `r` / `ro`: which faces are rerolled.
    pub reroll: Option<Reroll>,
    /// `!`, `!!`, `!p`, `!o`.
    pub explode: Option<Explode>,
    /// `min N`: a face below N counts as N.
    pub clamp_min: Option<i64>,
    /// `max N`: a face above N counts as N.
    pub clamp_max: Option<i64>,
    /// `kh`, `kl`, `dh`, `dl` with how many dice.
    pub select: Option<Select>,
    /// Success and failure counts.
    pub counting: Counting,
    /// Sorting of the transcript.
    pub sort: Option<SortOrder>,
}

/// The number of dice in a term.
#[derive(Debug, Clone, PartialEq)]
pub enum DiceCount {
    /// A literal count.
    Fixed(u64),
    /// A count computed when rolled, from a parenthesized expression.
    Computed(Box<Node>),
}

/// The kind of die in a term.
#[derive(Debug, Clone, PartialEq)]
pub enum Die {
    /// `dN`: 1..=N.
    Standard(u64),
    /// `d66`, `d666`: one d6 per digit, read as a number (RULING N-2).
    Digits(u8),
    /// `dF`: -1, 0, 1.
    Fate,
    /// `d00`: the percentile tens die 0, 10, ..., 90 (RULING N-3).
    Tens,
    /// `d{a,b,c}`: listed faces.
    List(Vec<i64>),
    /// `d{a..b}`: every integer from a to b.
    Range(i64, i64),
    /// `d(expr)`: 1..=N with N computed when rolled.
    Computed(Box<Node>),
}

/// The faces of one digit of a digit roll: a d6.
pub const DIGIT_DIE: Faces<'static> = Faces::Run {
    first: 1,
    step: 1,
    count: 6,
};

impl Die {
    /// The faces of this die, unless its sides are computed when rolled. Digit
    /// rolls are described by [`Die::digit_faces`] and their composed value set.
    pub fn faces(&self) -> Option<Faces<'_>> {
        Some(match self {
            Die::Standard(n) => Faces::standard(*n),
            Die::Digits(_) => return None,
            Die::Fate => Faces::Run {
                first: -1,
                step: 1,
                count: 3,
            },
            Die::Tens => Faces::Run {
                first: 0,
                step: 10,
                count: 10,
            },
            Die::List(list) => Faces::List(list),
            Die::Range(lo, hi) => Faces::Run {
                first: *lo,
                step: 1,
                count: (hi - lo) as u64 + 1,
            },
            Die::Computed(_) => return None,
        })
    }

    /// For a digit roll, the faces it can show as a number (11..66 with digits 1..6).
    pub fn digit_values(digits: u8) -> Vec<i64> {
        let mut values = vec![0i64];
        for _ in 0..digits {
            values = values
                .iter()
                .flat_map(|v| (1..=6).map(move |d| v * 10 + d))
                .collect();
        }
        values
    }
}

/// Reroll rule: any face matching one of the points is rerolled.
#[derive(Debug, Clone, PartialEq)]
pub struct Reroll {
    /// The faces to reroll; a face matching any of them is rerolled.
    pub when: Vec<ComparePoint>,
    /// `ro`: at most one reroll per face rolled.
    pub once: bool,
}

impl Reroll {
    /// Whether `face` is rerolled.
    pub fn matches(&self, face: i64) -> bool {
        self.when.iter().any(|p| p.matches(face))
    }
}

/// Explosion rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Explode {
    /// How extra faces add up.
    pub kind: ExplodeKind,
    /// When a face explodes; `None` is "on the highest face".
    pub when: Option<ComparePoint>,
    /// At most one explosion per die.
    pub once: bool,
}

impl Explode {
    /// Whether a die with highest face `max` explodes on `face`.
    pub fn matches(&self, face: i64, max: i64) -> bool {
        match &self.when {
            Some(point) => point.matches(face),
            None => face == max,
        }
    }
}

/// Keep or drop some dice (or group members).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Select {
    /// Which ones.
    pub which: Selection,
    /// How many.
    pub count: u64,
}

impl Select {
    /// How many of `n` dice are kept.
    pub fn kept_of(&self, n: u64) -> u64 {
        match self.which {
            Selection::KeepHighest | Selection::KeepLowest => self.count.min(n),
            Selection::DropHighest | Selection::DropLowest => n - self.count.min(n),
        }
    }

    /// Whether the kept dice are the highest ones.
    pub fn keeps_high(&self) -> bool {
        matches!(self.which, Selection::KeepHighest | Selection::DropLowest)
    }
}

/// Success and failure counting. With neither, dice are summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counting {
    /// A die matching this is a success (+1).
    pub success: Option<ComparePoint>,
    /// A die matching this is a failure: -1 after a success count, else +1.
    pub failure: Option<ComparePoint>,
}

impl Counting {
    /// Whether the term counts instead of summing.
    pub fn is_active(&self) -> bool {
        self.success.is_some() || self.failure.is_some()
    }

    /// Whether `value` is a success, and whether it is a failure. A value
    /// matching both is a success only.
    pub fn classify(&self, value: i64) -> (bool, bool) {
        let success = self.success.is_some_and(|p| p.matches(value));
        let failure = !success && self.failure.is_some_and(|p| p.matches(value));
        (success, failure)
    }

    /// What one die (or face) showing `value` adds to the count: +1 for a
    /// success; for a failure -1 after a success count (`>=7f1`), else +1
    /// (`cf<=2` alone counts failures).
    pub fn score(&self, value: i64) -> i64 {
        match self.classify(value) {
            (true, _) => 1,
            (false, true) if self.success.is_some() => -1,
            (false, true) => 1,
            _ => 0,
        }
    }
}

/// `{a, b}` with modifiers.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupTerm {
    /// The members.
    pub members: Vec<Node>,
    /// `{4d6+3d8}`: a single sum of dice terms pools the dice, and keep/drop and
    /// counting act on the dice themselves (as in Roll20). Otherwise each member
    /// counts as one value.
    pub pooled: bool,
    /// Keep or drop.
    pub select: Option<Select>,
    /// Counting over members (or dice, when pooled).
    pub counting: Counting,
}

/// A parsed and lowered expression: parse once, roll or analyse many times.
///
/// ```
/// use nutshell_dice::{Expression, Scripted};
/// let expr = Expression::parse("4d6k3")?;
/// assert_eq!(expr.normalized(), "4d6kh3");
/// let roll = expr.roll(&mut Scripted::new([6, 5, 3, 1]))?;
/// assert_eq!(roll.total, 14);
/// assert_eq!(roll.render(), "4d6kh3 = [6, 5, 3, (1)] = 14");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    pub(crate) root: Node,
    pub(crate) text: String,
    pub(crate) normalized: String,
    pub(crate) limits: crate::Limits,
    pub(crate) notes: Vec<String>,
}

impl Expression {
    /// Parses `text` with the default [`crate::Limits`].
    pub fn parse(text: &str) -> Result<Expression, crate::NotationError> {
        Expression::parse_with(text, &crate::Limits::default())
    }

    /// Parses `text`, enforcing `limits` now and whenever it is rolled.
    pub fn parse_with(
        text: &str,
        limits: &crate::Limits,
    ) -> Result<Expression, crate::NotationError> {
        let ast = crate::syntax::parse(text, limits)?;
        let root = lower(&ast, limits)?;
        let normalized = root.to_string();
        Ok(Expression {
            root,
            text: text.to_string(),
            normalized,
            limits: limits.clone(),
            notes: crate::syntax::habits::notes(&ast, text),
        })
    }

    /// Where the expression reads differently from what a user of another
    /// tool may expect, one sentence each, for a front end to show at the
    /// roll: a success count added to other terms (`1d20cs20+5` adds the
    /// number of 20s to 5; Roll20's `cs20` only marks a critical).
    ///
    /// ```
    /// use nutshell_dice::Expression;
    /// let expr = Expression::parse("1d20cs20+5")?;
    /// assert!(expr.notes()[0].contains("write `1d20+5`"));
    /// assert!(Expression::parse("1d20+5")?.notes().is_empty());
    /// # Ok::<(), nutshell_dice::NotationError>(())
    /// ```
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The plan's root node.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The text as the user wrote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The normalized expression: canonical spelling, which parses back to the same plan.
    pub fn normalized(&self) -> &str {
        &self.normalized
    }

    /// The limits this expression was parsed with, and is rolled with.
    pub fn limits(&self) -> &crate::Limits {
        &self.limits
    }
}
