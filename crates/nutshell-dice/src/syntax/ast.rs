//! The syntax tree: what the user wrote, with a [`Span`] on every piece.
//!
//! The tree keeps the user's spelling (`d%` stays `d%`, `k3` stays `k3`) so that
//! errors found later can point at the right characters. [`crate::plan`] lowers
//! it into the canonical form the interpreters consume.

use crate::span::Span;

/// An expression with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it stands in the text.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Number(i64),
    /// A dice term such as `4d6kh3`.
    Dice(Box<DiceTerm>),
    /// A group such as `{3d6, 2d8+1}kh1`.
    Group(Box<Group>),
    /// `-x` (or `+x`, which is `x`).
    Negate(Box<Expr>),
    /// A left-associative chain of operators of one precedence: `a + b - c` or
    /// `a * b / c`. Kept flat so long sums never make a deep tree.
    Chain(Box<Expr>, Vec<(BinOp, Span, Expr)>),
    /// `a >= b`: 1 when true, 0 when false.
    Compare(CmpOp, Box<Expr>, Box<Expr>),
    /// `min(a, b)`, `max(a, b)`, `abs(x)`, `nominal(x)`, `maximize(x)`.
    Call(Func, Vec<Expr>),
    /// `(x)`.
    Paren(Box<Expr>),
    /// `x[label]`.
    Labeled(Box<Expr>, String),
}

/// Binary arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`: division rounding toward negative infinity (RULING N-1).
    Div,
}

impl BinOp {
    /// The operator as written in normalized notation.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

/// Comparison operators, with their mathematical meaning (RULING N-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CmpOp {
    /// `=` (also `==`)
    Eq,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

impl CmpOp {
    /// The operator as written in normalized notation.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
        }
    }

    /// Whether `left op right` holds.
    pub fn holds(self, left: i64, right: i64) -> bool {
        match self {
            CmpOp::Eq => left == right,
            CmpOp::Gt => left > right,
            CmpOp::Ge => left >= right,
            CmpOp::Lt => left < right,
            CmpOp::Le => left <= right,
        }
    }
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// The smallest argument.
    Min,
    /// The largest argument.
    Max,
    /// The absolute value.
    Abs,
    /// Every die inside shows its lowest face (fantasy, "Nominal Success").
    Nominal,
    /// Every die inside shows its highest face (tiered-d20, "Critical Failure/Success").
    Maximize,
    /// Rounds down; division inside is exact until then (`floor(7/2)` is 3).
    Floor,
    /// Rounds up; division inside is exact until then (`ceil(7/2)` is 4).
    Ceil,
    /// Rounds to the nearest, halves up; division inside is exact until then
    /// (`round(7/2)` is 4, `round(-7/2)` is -3).
    Round,
}

impl Func {
    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Abs => "abs",
            Func::Nominal => "nominal",
            Func::Maximize => "maximize",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
        }
    }

    /// Looks a function up by name (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<Func> {
        [
            Func::Min,
            Func::Max,
            Func::Abs,
            Func::Nominal,
            Func::Maximize,
            Func::Floor,
            Func::Ceil,
            Func::Round,
        ]
        .into_iter()
        .find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

/// A dice term: an optional count, `d`, the sides, and modifiers.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceTerm {
    /// How many dice; `None` for `d6`, which rolls one.
    pub count: Option<Count>,
    /// What the dice are.
    pub sides: Sides,
    /// Where the sides are written.
    pub sides_span: Span,
    /// Modifiers in the order written.
    pub modifiers: Vec<Modifier>,
}

/// The count before `d`.
#[derive(Debug, Clone, PartialEq)]
pub enum Count {
    /// A literal, `4` in `4d6`.
    Literal(u64, Span),
    /// A parenthesized expression, `(1d4)` in `(1d4)d6`.
    Computed(Expr),
}

/// The part after `d`.
#[derive(Debug, Clone, PartialEq)]
pub enum Sides {
    /// `d6`, `d20`, `d100`; `d66` and `d666` are digit rolls (RULING N-2).
    Number(u64),
    /// `d%`: 1..100 (RULING N-3).
    Percent,
    /// `d00`: the percentile tens die 0, 10, ..., 90 (RULING N-3).
    Tens,
    /// `dF`: Fate dice, -1, 0, +1.
    Fate,
    /// `d{0,10,20,30}`: listed faces.
    List(Vec<i64>),
    /// `d{-2..2}`: every integer from the first to the last.
    Range(i64, i64),
    /// `d(3*2)`: computed when rolled.
    Computed(Expr),
}

/// A modifier attached to a dice term or a group.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// What it does.
    pub kind: ModifierKind,
    /// Where it is written.
    pub span: Span,
}

/// Which dice a keep or drop selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Selection {
    /// `kh`, `k`
    KeepHighest,
    /// `kl`
    KeepLowest,
    /// `dh`
    DropHighest,
    /// `dl`, `d`
    DropLowest,
}

/// How an explosion adds its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ExplodeKind {
    /// `!`: each extra roll is a further face of the same die; success counting
    /// looks at every face.
    Standard,
    /// `!!`: extra rolls are added into one value; success counting looks at the sum.
    Compound,
    /// `!p`: like `!`, but every extra roll counts one less.
    Penetrate,
}

/// A compare point such as `>=5` or `=1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ComparePoint {
    /// The operator.
    pub op: CmpOp,
    /// The number compared with.
    pub value: i64,
}

impl ComparePoint {
    /// Whether `face` matches.
    pub fn matches(&self, face: i64) -> bool {
        self.op.holds(face, self.value)
    }
}

/// Sorting of the dice in the transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SortOrder {
    /// `s`, `sa`
    Ascending,
    /// `sd`
    Descending,
}

/// Per-die value bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClampKind {
    /// `min N`: a die showing less counts as N.
    Min,
    /// `max N`: a die showing more counts as N.
    Max,
}

/// The modifiers.
#[derive(Debug, Clone, PartialEq)]
pub enum ModifierKind {
    /// `kh3`, `dl1`, ...; the count defaults to 1.
    Select(Selection, u64),
    /// `!`, `!!`, `!p`, `!o`, `x`, `xo`, with an optional compare point
    /// (default: the highest face). `once` limits it to one explosion.
    Explode {
        /// How extra dice add up.
        kind: ExplodeKind,
        /// When a face explodes; `None` means on the highest face.
        when: Option<ComparePoint>,
        /// At most one explosion per die.
        once: bool,
    },
    /// `r`, `rr` (again while it matches) and `ro` (once).
    Reroll {
        /// Which faces are rerolled.
        when: ComparePoint,
        /// Only once.
        once: bool,
    },
    /// `min N`, `max N`.
    Clamp(ClampKind, i64),
    /// `>=5`, `cs>=5`: count dice that match.
    Success(ComparePoint),
    /// `f<=1`, `cf<=1`: count (or, after a success count, subtract) dice that match.
    Failure(ComparePoint),
    /// `s`, `sa`, `sd`.
    Sort(SortOrder),
}

/// `{a, b, ...}` with modifiers.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The comma-separated members.
    pub members: Vec<Expr>,
    /// Modifiers in the order written (keep/drop and counting only).
    pub modifiers: Vec<Modifier>,
}
