//! `floor`, `ceil` and `round`: an argument made whole only at the end.
//!
//! Everywhere else `/` rounds down (RULING N-1), so `7/2` is 3. Inside these
//! functions division is exact, as Roll20 and Foundry compute it, and only
//! the function rounds: `ceil(7/2)` is 4, `round(7/2)` is 4, `floor(7/2)` is
//! 3. Lowering rewrites the argument as one fraction `numerator /
//! denominator` of ordinary whole-number plan nodes, each die used once, and
//! keeps the two as the call's arguments: `ceil(1d6/2 + 1)` becomes
//! `ceil((1d6 + 2) / 2)`. Every back end then only divides once, rounding as
//! the function says ([`round_div`]). A sum whose parts divide by dice
//! (`ceil(10/1d4 + 1)`) cannot be one fraction without rolling a die twice,
//! and is refused.

use super::{BinOp, Node, NodeKind};
use crate::span::{NotationError, Span};
use crate::syntax::ast::Func;

/// `a / b` rounded as `func` says: `floor` down, `ceil` up, `round` to the
/// nearest, halves up (as JavaScript's `Math.round`, which Roll20 and Foundry
/// use). `None` when `b` is 0 or the quotient does not fit.
///
/// ```
/// use nutshell_dice::plan::rounding::round_div;
/// use nutshell_dice::plan::Func;
/// assert_eq!(round_div(Func::Ceil, 7, 2), Some(4));
/// assert_eq!(round_div(Func::Floor, -7, 2), Some(-4));
/// assert_eq!(round_div(Func::Round, -7, 2), Some(-3));
/// assert_eq!(round_div(Func::Round, 5, 3), Some(2));
/// ```
pub fn round_div(func: Func, a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    // Over i128 with a positive divisor, nothing below can overflow.
    let (a, b) = if b < 0 {
        (-i128::from(a), -i128::from(b))
    } else {
        (i128::from(a), i128::from(b))
    };
    let q = match func {
        Func::Ceil => -(-a).div_euclid(b),
        Func::Round => (2 * a + b).div_euclid(2 * b),
        _ => a.div_euclid(b),
    };
    i64::try_from(q).ok()
}

/// Whether `func` is one of the rounding functions.
pub fn rounds(func: Func) -> bool {
    matches!(func, Func::Floor | Func::Ceil | Func::Round)
}

/// The argument as `(numerator, denominator)`, whole-number nodes whose
/// quotient is the argument's exact value.
pub(super) fn fraction(node: Node) -> Result<(Node, Node), NotationError> {
    let span = node.span;
    match node.kind {
        NodeKind::Chain(first, rest) => {
            let (mut p, mut q) = fraction(*first)?;
            for (op, operand) in rest {
                let (px, qx) = fraction(operand)?;
                match op {
                    BinOp::Add | BinOp::Sub => {
                        if !(is_const(&q) && is_const(&qx)) {
                            return Err(NotationError::new(
                                span,
                                "inside floor, ceil and round a sum can only divide by numbers",
                            )
                            .with_label(
                                "divide the whole sum by the dice instead: ceil((10 + 1d4) / 1d4)",
                            ));
                        }
                        let left = product(p, qx.clone(), span)?;
                        let right = product(px, q.clone(), span)?;
                        p = Node {
                            kind: NodeKind::Chain(Box::new(left), vec![(op, right)]),
                            span,
                        };
                        q = product(q, qx, span)?;
                    }
                    BinOp::Mul => {
                        p = product(p, px, span)?;
                        q = product(q, qx, span)?;
                    }
                    BinOp::Div => {
                        p = product(p, qx, span)?;
                        q = product(q, px, span)?;
                    }
                }
            }
            Ok((p, q))
        }
        NodeKind::Negate(inner) => {
            let (p, q) = fraction(*inner)?;
            Ok((
                Node {
                    kind: NodeKind::Negate(Box::new(p)),
                    span,
                },
                q,
            ))
        }
        kind => Ok((Node { kind, span }, constant(1, span))),
    }
}

fn constant(value: i64, span: Span) -> Node {
    Node {
        kind: NodeKind::Const(value),
        span,
    }
}

fn is_const(node: &Node) -> bool {
    matches!(node.kind, NodeKind::Const(_))
}

/// `a * b`, folding constants (1 disappears).
fn product(a: Node, b: Node, span: Span) -> Result<Node, NotationError> {
    Ok(match (&a.kind, &b.kind) {
        (NodeKind::Const(x), NodeKind::Const(y)) => {
            let value = x.checked_mul(*y).ok_or_else(|| {
                NotationError::new(span, "the divisors inside this function multiply past 2^63")
            })?;
            constant(value, span)
        }
        (NodeKind::Const(1), _) => b,
        (_, NodeKind::Const(1)) => a,
        _ => Node {
            kind: NodeKind::Chain(Box::new(a), vec![(BinOp::Mul, b)]),
            span,
        },
    })
}
