//! A hand-written recursive-descent parser from text to [`Expr`].
//!
//! Grammar, loosest binding first:
//!
//! ```text
//! expr     = sum [ cmp sum ]                    comparisons of totals, not chained
//! sum      = product { ("+" | "-") product }
//! product  = unary { ("*" | "/") unary }
//! unary    = ("-" | "+") unary | postfix
//! postfix  = primary [ "[" label "]" ]
//! primary  = number [ dice ] | dice | "(" expr ")" [ dice ] | group | func "(" args ")"
//! dice     = "d" sides { modifier }             no white space inside a dice term
//! ```
//!
//! A compare point written directly after a dice term or a group (`8d10>=7`) counts
//! successes; a comparison after anything else, or after white space
//! (`3d6 >= 15`), compares totals. Every recursion step is counted against
//! [`Limits::nesting`], so no input can overflow the stack.

use super::ast::*;
use crate::limits::Limits;
use crate::span::{NotationError, Span};

/// What `primary` may start with, for error messages.
const EXPECTED_OPERAND: &str = "a number, a die, `(`, `{` or a function";
/// What may follow `d`.
const EXPECTED_SIDES: &str = "expected a number, `%`, `F`, `{` or `(`";

/// Parses `text` into a syntax tree, enforcing the length and nesting limits.
pub fn parse(text: &str, limits: &Limits) -> Result<Expr, NotationError> {
    let length = text.chars().count();
    if length > limits.max_expression_chars {
        return Err(NotationError::new(
            Span::at(limits.max_expression_chars),
            format!(
                "the expression is {length} characters long; the limit is {} (max_expression_chars)",
                limits.max_expression_chars
            ),
        ));
    }
    let mut chars: Vec<char> = text.chars().map(normalize_char).collect();
    super::habits::unwrap_chat(&mut chars);
    let mut parser = Parser {
        chars,
        pos: 0,
        depth: 0,
        max_depth: limits.nesting(),
        negative_faces: false,
    };
    parser.skip_ws();
    if parser.at_end() {
        return Err(NotationError::new(Span::at(0), "the expression is empty")
            .with_label("expected a dice expression such as `4d6kh3`"));
    }
    let expr = parser.expr()?;
    parser.skip_ws();
    if !parser.at_end() {
        // Another tool's repetition (`6#4d6kh3`): one expression is one roll.
        let parses = |expression: &str| parse(expression, limits).is_ok();
        if let Some(error) = super::habits::repetition(&parser.chars, &expr, parser.pos, parses) {
            return Err(error);
        }
        // Flavour text after the roll is its label (`1d20+5 to hit`).
        let before: String = parser.chars[..parser.pos].iter().collect();
        return match super::habits::flavour(&parser.chars, parser.pos, &before) {
            None => Err(parser.unexpected_after_expression()),
            Some(Err(error)) => Err(error),
            Some(Ok(None)) => Ok(expr),
            Some(Ok(Some(label))) => {
                let span = expr.span.to(Span::new(parser.pos, parser.chars.len()));
                Ok(Expr {
                    kind: ExprKind::Labeled(Box::new(expr), label),
                    span,
                })
            }
        };
    }
    Ok(expr)
}

/// Folds the characters people type from other keyboards into ASCII operators.
fn normalize_char(c: char) -> char {
    match c {
        '\u{2212}' | '\u{2013}' | '\u{2014}' => '-', // minus sign, en and em dash
        '\u{00d7}' => '*',
        '\u{00f7}' => '/',
        '\u{2265}' => '≥',
        other => other,
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    max_depth: usize,
    /// The die whose modifiers are being read can show a negative face
    /// (`dF`, `d{-2..2}`): a `-` right after `r`, `!`, `cs` or `f` is then
    /// the face's sign (`4dFr-1` rerolls the -1s), not a subtraction.
    negative_faces: bool,
}

impl Parser {
    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Consumes `word` if the text continues with it (ASCII case-insensitive).
    fn eat_word(&mut self, word: &str) -> bool {
        let n = word.chars().count();
        let matches = word
            .chars()
            .enumerate()
            .all(|(i, w)| self.peek_at(i).is_some_and(|c| c.eq_ignore_ascii_case(&w)));
        if matches {
            self.pos += n;
        }
        matches
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn here(&self) -> Span {
        Span::at(self.pos)
    }

    /// The group opened at `open` is not closed where the parser stands.
    fn unclosed_group(&self, open: Span) -> NotationError {
        NotationError::new(
            self.here(),
            format!(
                "expected `}}` to close the `{{` at column {}",
                open.column()
            ),
        )
    }

    fn span_from(&self, start: usize) -> Span {
        Span::new(start, self.pos.max(start + 1))
    }

    /// Enters one nesting level, refusing beyond the limit.
    fn enter(&mut self, at: Span) -> Result<(), NotationError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(NotationError::new(
                at,
                format!(
                    "the expression nests deeper than {} levels (max_nesting)",
                    self.max_depth
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn describe_here(&self) -> String {
        match self.peek() {
            None => "the end of the expression".to_string(),
            Some(c) if c.is_control() => format!("control character U+{:04X}", u32::from(c)),
            Some(c) => format!("`{c}`"),
        }
    }

    fn unexpected_after_expression(&self) -> NotationError {
        let span = self.here();
        match self.peek() {
            Some(')') => NotationError::new(span, "unexpected `)`: there is no `(` to close"),
            Some('}') => NotationError::new(span, "unexpected `}`: there is no `{` to close"),
            Some(',') => NotationError::new(span, "unexpected `,` outside a group or a function"),
            Some(']') => NotationError::new(span, "unexpected `]`: there is no `[` to close"),
            Some('[') => NotationError::new(span, "a term has only one label"),
            Some('.') => NotationError::new(span, "unexpected `.`: numbers are whole numbers"),
            Some('@') => super::foreign::reference(&self.chars, self.pos),
            Some(c) if c.is_ascii_alphabetic() || c == '!' => {
                let before = self.pos.checked_sub(1).and_then(|i| self.chars.get(i));
                if before.is_some_and(|b| b.is_whitespace()) {
                    NotationError::new(span, format!("unexpected `{c}` after white space"))
                        .with_label("modifiers follow their dice with no space, as in `4d6kh3`")
                } else {
                    NotationError::new(span, format!("unexpected `{c}`"))
                        .with_label("expected an operator such as `+`")
                }
            }
            Some(c) if c.is_control() => NotationError::new(
                span,
                format!("unexpected control character U+{:04X}", u32::from(c)),
            )
            .with_label("expected an operator such as `+`"),
            Some(c) if c.is_ascii() => NotationError::new(span, format!("unexpected `{c}`"))
                .with_label("expected an operator such as `+`"),
            Some(c) => NotationError::new(span, format!("unexpected character `{c}`"))
                .with_label("expected an operator such as `+`"),
            None => NotationError::new(span, "unexpected end of the expression"),
        }
    }

    fn expr(&mut self) -> Result<Expr, NotationError> {
        let left = self.sum()?;
        self.skip_ws();
        let Some((op, op_span)) = self.comparison_operator().or_else(|| self.versus()) else {
            return Ok(left);
        };
        self.expect_operand(op.symbol())?;
        let right = self.sum()?;
        self.skip_ws();
        if let Some((_, again)) = self.comparison_operator() {
            return Err(NotationError::new(again, "comparisons cannot be chained")
                .with_label("compare two totals at a time, as in `3d6 >= 10`"));
        }
        let span = left.span.to(right.span);
        let _ = op_span;
        Ok(Expr {
            kind: ExprKind::Compare(op, Box::new(left), Box::new(right)),
            span,
        })
    }

    /// Reads `>=`, `>`, `<=`, `<`, `=` or `==` if present.
    fn comparison_operator(&mut self) -> Option<(CmpOp, Span)> {
        let start = self.pos;
        let op = match (self.peek()?, self.peek_at(1)) {
            ('>', Some('=')) => {
                self.pos += 2;
                CmpOp::Ge
            }
            ('<', Some('=')) => {
                self.pos += 2;
                CmpOp::Le
            }
            ('=', Some('=')) => {
                self.pos += 2;
                CmpOp::Eq
            }
            ('≥', _) => {
                self.pos += 1;
                CmpOp::Ge
            }
            ('≤', _) => {
                self.pos += 1;
                CmpOp::Le
            }
            ('>', _) => {
                self.pos += 1;
                CmpOp::Gt
            }
            ('<', _) => {
                self.pos += 1;
                CmpOp::Lt
            }
            ('=', _) => {
                self.pos += 1;
                CmpOp::Eq
            }
            _ => return None,
        };
        Some((op, self.span_from(start)))
    }

    /// `vs` (or `versus`) between white space and a number or a dice term
    /// (`1d20+5 vs 15`): the comparison `>=`, as a check against a target is
    /// read. Followed by anything else (`1d20 vs goblins`) it is flavour text.
    fn versus(&mut self) -> Option<(CmpOp, Span)> {
        let start = self.pos;
        if start == 0 || !self.chars[start - 1].is_whitespace() {
            return None;
        }
        let word = ["versus", "vs."].into_iter().chain(["vs"]).find(|w| {
            w.chars()
                .enumerate()
                .all(|(i, c)| self.peek_at(i).is_some_and(|x| x.eq_ignore_ascii_case(&c)))
        })?;
        let mut at = start + word.len();
        if !self.chars.get(at).is_some_and(|c| c.is_whitespace()) {
            return None;
        }
        while self.chars.get(at).is_some_and(|c| c.is_whitespace()) {
            at += 1;
        }
        let digit = |k: usize| self.chars.get(k).is_some_and(char::is_ascii_digit);
        let operand = match self.chars.get(at) {
            Some(c) if c.is_ascii_digit() => true,
            Some('(' | '{') => true,
            Some('-' | '+') => digit(at + 1),
            Some('d' | 'D') => digit(at + 1) || self.chars.get(at + 1) == Some(&'%'),
            _ => false,
        };
        if !operand {
            return None;
        }
        self.pos = start + word.len();
        Some((CmpOp::Ge, self.span_from(start)))
    }

    /// Checks that an operand follows an operator, with a clear error if not.
    fn expect_operand(&mut self, what: &str) -> Result<(), NotationError> {
        self.skip_ws();
        match self.peek() {
            None => Err(NotationError::new(
                self.here(),
                format!("expected {EXPECTED_OPERAND} after `{what}`"),
            )),
            Some(c @ (')' | ',' | '}' | ']' | '*' | '/' | '>' | '<' | '=')) => {
                Err(NotationError::new(
                    self.here(),
                    format!("expected {EXPECTED_OPERAND} after `{what}`, found `{c}`"),
                ))
            }
            Some(_) => Ok(()),
        }
    }

    fn sum(&mut self) -> Result<Expr, NotationError> {
        let first = self.product()?;
        let mut rest = Vec::new();
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('+') => BinOp::Add,
                Some('-') => BinOp::Sub,
                _ => break,
            };
            let op_span = self.here();
            self.pos += 1;
            self.expect_operand(op.symbol())?;
            let operand = self.product()?;
            rest.push((op, op_span, operand));
        }
        Ok(chain(first, rest))
    }

    // Written out like `sum` rather than shared: a helper between them would
    // add a stack frame to every level of nesting.
    fn product(&mut self) -> Result<Expr, NotationError> {
        let first = self.unary()?;
        let mut rest = Vec::new();
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('*') => BinOp::Mul,
                Some('/') => BinOp::Div,
                _ => break,
            };
            let op_span = self.here();
            self.pos += 1;
            self.expect_operand(op.symbol())?;
            let operand = self.unary()?;
            rest.push((op, op_span, operand));
        }
        Ok(chain(first, rest))
    }

    fn unary(&mut self) -> Result<Expr, NotationError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(sign @ ('-' | '+')) => {
                self.enter(self.here())?;
                self.pos += 1;
                self.expect_operand(&sign.to_string())?;
                let operand = self.unary()?;
                self.leave();
                if sign == '+' {
                    return Ok(operand);
                }
                let span = Span::new(start, operand.span.end);
                Ok(Expr {
                    kind: ExprKind::Negate(Box::new(operand)),
                    span,
                })
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Result<Expr, NotationError> {
        let expr = self.primary()?;
        let save = self.pos;
        self.skip_ws();
        if self.peek() != Some('[') {
            self.pos = save;
            return Ok(expr);
        }
        let open = self.pos;
        self.pos += 1;
        let label_start = self.pos;
        while let Some(c) = self.peek() {
            if c == ']' {
                break;
            }
            if c == '[' {
                return Err(NotationError::new(
                    self.here(),
                    "a label cannot contain `[`",
                ));
            }
            self.pos += 1;
        }
        if self.at_end() {
            return Err(
                NotationError::new(Span::at(open), "unclosed label: expected `]`")
                    .with_label("this `[` is never closed"),
            );
        }
        let label: String = self.chars[label_start..self.pos].iter().collect();
        self.pos += 1;
        let label = label.trim().to_string();
        if label.is_empty() {
            return Err(NotationError::new(
                self.span_from(open),
                "a label cannot be empty",
            ));
        }
        let span = expr.span.to(self.span_from(open));
        Ok(Expr {
            kind: ExprKind::Labeled(Box::new(expr), label),
            span,
        })
    }

    fn primary(&mut self) -> Result<Expr, NotationError> {
        self.skip_ws();
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(NotationError::new(
                self.here(),
                format!("expected {EXPECTED_OPERAND}"),
            ));
        };
        match c {
            '0'..='9' => {
                let (value, span) = self.number()?;
                if self.peek().is_some_and(|c| c == 'd' || c == 'D') {
                    return self.dice(start, Some(Count::Literal(value, span)));
                }
                let value = i64::try_from(value).map_err(|_| too_large(span))?;
                Ok(Expr {
                    kind: ExprKind::Number(value),
                    span,
                })
            }
            'd' | 'D' => self.dice(start, None),
            '(' => {
                let open = self.here();
                self.enter(open)?;
                self.pos += 1;
                let inner = self.inner_expr(open, ')')?;
                self.leave();
                if self.peek().is_some_and(|c| c == 'd' || c == 'D') {
                    return self.dice(start, Some(Count::Computed(inner)));
                }
                Ok(Expr {
                    kind: ExprKind::Paren(Box::new(inner)),
                    span: self.span_from(start),
                })
            }
            '{' => self.group(),
            '[' => Err(
                super::foreign::bracket(&self.chars, self.pos).unwrap_or_else(|| {
                    NotationError::new(self.here(), "a label must follow the term it names")
                        .with_label("as in `2d6[fire]`")
                }),
            ),
            '@' => Err(super::foreign::reference(&self.chars, self.pos)),
            c if c.is_ascii_alphabetic() => self.call(),
            ')' => Err(NotationError::new(
                self.here(),
                format!("expected {EXPECTED_OPERAND}, found `)`"),
            )),
            '.' => Err(NotationError::new(
                self.here(),
                "unexpected `.`: numbers are whole numbers",
            )),
            c if c.is_ascii() => Err(NotationError::new(
                self.here(),
                format!(
                    "expected {EXPECTED_OPERAND}, found {}",
                    self.describe_here()
                ),
            )),
            c => Err(
                NotationError::new(self.here(), format!("unexpected character `{c}`"))
                    .with_label(format!("expected {EXPECTED_OPERAND}")),
            ),
        }
    }

    /// An expression inside brackets opened at `open`, consuming the closing `close`.
    fn inner_expr(&mut self, open: Span, close: char) -> Result<Expr, NotationError> {
        self.skip_ws();
        if self.peek() == Some(close) {
            return Err(NotationError::new(
                self.here(),
                format!("expected {EXPECTED_OPERAND} inside the brackets"),
            ));
        }
        let inner = self.expr()?;
        self.skip_ws();
        if !self.eat(close) {
            if self.at_end() {
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected `{close}` to close the `{}` at column {}",
                        self.chars[open.start],
                        open.column()
                    ),
                ));
            }
            return Err(NotationError::new(
                self.here(),
                format!("expected `{close}`, found {}", self.describe_here()),
            ));
        }
        Ok(inner)
    }

    fn number(&mut self) -> Result<(u64, Span), NotationError> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut overflow = false;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                break;
            }
            self.pos += 1;
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
            {
                Some(v) => value = v,
                None => overflow = true,
            }
        }
        let span = self.span_from(start);
        if self.pos == start {
            return Err(NotationError::new(span, "expected a number"));
        }
        if overflow {
            return Err(too_large(span));
        }
        if self.peek() == Some('.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(NotationError::new(
                self.here(),
                "unexpected `.`: numbers are whole numbers",
            ));
        }
        Ok((value, span))
    }

    /// A signed integer, as in compare points and custom faces.
    fn signed(&mut self, after: &str) -> Result<(i64, Span), NotationError> {
        let start = self.pos;
        let negative = self.eat('-');
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(NotationError::new(
                self.here(),
                format!(
                    "expected a number after `{after}`, found {}",
                    self.describe_here()
                ),
            ));
        }
        let (magnitude, _) = self.number()?;
        let span = self.span_from(start);
        let value = i64::try_from(magnitude).map_err(|_| too_large(span))?;
        Ok((if negative { -value } else { value }, span))
    }

    fn dice(&mut self, start: usize, count: Option<Count>) -> Result<Expr, NotationError> {
        let d_span = self.here();
        self.pos += 1; // the `d`
        let sides_start = self.pos;
        let sides = match self.peek() {
            Some('%') => {
                self.pos += 1;
                Sides::Percent
            }
            Some('F' | 'f') => {
                self.pos += 1;
                Sides::Fate
            }
            Some('0'..='9') => {
                let digits_start = self.pos;
                let (value, span) = self.number()?;
                if value == 0 {
                    let written: String = self.chars[digits_start..self.pos].iter().collect();
                    if written == "00" {
                        Sides::Tens
                    } else {
                        return Err(NotationError::new(span, "a die needs at least one side"));
                    }
                } else {
                    Sides::Number(value)
                }
            }
            Some('{') => self.face_list()?,
            Some('(') => {
                let open = self.here();
                self.enter(open)?;
                self.pos += 1;
                let inner = self.inner_expr(open, ')')?;
                self.leave();
                Sides::Computed(inner)
            }
            _ => {
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected the sides of the die after `d`, found {}",
                        self.describe_here()
                    ),
                )
                .with_label(EXPECTED_SIDES));
            }
        };
        let _ = d_span;
        let sides_span = self.span_from(sides_start);
        self.negative_faces = match &sides {
            Sides::Fate => true,
            Sides::List(faces) => faces.iter().any(|&f| f < 0),
            Sides::Range(low, _) => *low < 0,
            _ => false,
        };
        let modifiers = self.modifiers(false);
        self.negative_faces = false;
        let modifiers = modifiers?;
        Ok(Expr {
            kind: ExprKind::Dice(Box::new(DiceTerm {
                count,
                sides,
                sides_span,
                modifiers,
            })),
            span: self.span_from(start),
        })
    }

    /// `{0,10,20}` or `{-2..2}` after `d`.
    fn face_list(&mut self) -> Result<Sides, NotationError> {
        let open = self.here();
        self.pos += 1;
        self.skip_ws();
        if self.eat('}') {
            return Err(NotationError::new(
                self.span_from(open.start),
                "a die needs at least one face",
            ));
        }
        let (first, first_span) = self.signed("{")?;
        self.skip_ws();
        if self.eat_word("..") {
            self.skip_ws();
            let (last, last_span) = self.signed("..")?;
            self.skip_ws();
            if !self.eat('}') {
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected `}}` after the range, found {}",
                        self.describe_here()
                    ),
                ));
            }
            if last < first {
                return Err(NotationError::new(
                    first_span.to(last_span),
                    format!("the range {first}..{last} runs backwards"),
                )
                .with_label("write the lowest face first"));
            }
            return Ok(Sides::Range(first, last));
        }
        let mut faces = vec![first];
        loop {
            self.skip_ws();
            if self.eat('}') {
                return Ok(Sides::List(faces));
            }
            if !self.eat(',') {
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected `,` or `}}` in the list of faces, found {}",
                        self.describe_here()
                    ),
                ));
            }
            self.skip_ws();
            let (face, _) = self.signed(",")?;
            faces.push(face);
        }
    }

    /// Modifiers after a dice term (`group == false`) or a group.
    fn modifiers(&mut self, group: bool) -> Result<Vec<Modifier>, NotationError> {
        let mut out = Vec::new();
        let mut deduct = None;
        loop {
            let start = self.pos;
            let Some(c) = self.peek() else { break };
            let kind = match c.to_ascii_lowercase() {
                'k' => {
                    self.pos += 1;
                    let which = if self.eat_word("l") {
                        Selection::KeepLowest
                    } else {
                        self.eat_word("h");
                        Selection::KeepHighest
                    };
                    ModifierKind::Select(which, self.optional_count()?)
                }
                // Foundry's deduct failures: `df=1`, `df<3` count each
                // failure as -1, as `f` does.
                'd' if self
                    .peek_at(1)
                    .is_some_and(|c| c.eq_ignore_ascii_case(&'f')) =>
                {
                    self.pos += 2;
                    deduct = Some(self.span_from(start));
                    match self.compare_point("df")? {
                        Some(point) => ModifierKind::Failure(point),
                        None => {
                            return Err(NotationError::new(
                                self.span_from(start),
                                "`df` (deduct failures) needs the failures' target here",
                            )
                            .with_label("as in `6d6cs>4df=1` or `6d6>=5df<2`: each failure counts -1 (also written `f1`, `f<2`)"));
                        }
                    }
                }
                'd' => {
                    self.pos += 1;
                    let which = if self.eat_word("h") {
                        Selection::DropHighest
                    } else {
                        self.eat_word("l");
                        Selection::DropLowest
                    };
                    ModifierKind::Select(which, self.optional_count()?)
                }
                '!' | 'x' if !group => self.explosion()?,
                // Avrae's reroll-and-add (`ra1`): answered with the fix.
                'r' if !group
                    && self
                        .peek_at(1)
                        .is_some_and(|c| c.eq_ignore_ascii_case(&'a')) =>
                {
                    return Err(super::habits::foreign_modifier(&self.chars, self.pos)
                        .unwrap_or_else(|| {
                            NotationError::new(self.span_from(start), "unknown modifier `ra`")
                                .with_label("Avrae's `ra1` (reroll once and add) is `!o1` here")
                        }));
                }
                'r' if !group => {
                    self.pos += 1;
                    let once = if self.eat_word("o") {
                        true
                    } else {
                        self.eat_word("r");
                        false
                    };
                    let when = self.compare_point("r")?.unwrap_or(ComparePoint {
                        op: CmpOp::Eq,
                        value: 1,
                    });
                    ModifierKind::Reroll { when, once }
                }
                'm' if !group && self.eat_word("min") => {
                    ModifierKind::Clamp(ClampKind::Min, self.signed("min")?.0)
                }
                'm' if !group && self.eat_word("max") => {
                    ModifierKind::Clamp(ClampKind::Max, self.signed("max")?.0)
                }
                'c' if self.eat_word("cs") => ModifierKind::Success(self.required_point("cs")?),
                'c' if self.eat_word("cf") => ModifierKind::Failure(self.required_point("cf")?),
                'f' => {
                    self.pos += 1;
                    ModifierKind::Failure(self.required_point("f")?)
                }
                's' if !group => {
                    self.pos += 1;
                    if self.eat_word("d") {
                        ModifierKind::Sort(SortOrder::Descending)
                    } else {
                        self.eat_word("a");
                        ModifierKind::Sort(SortOrder::Ascending)
                    }
                }
                '>' | '<' | '=' | '≥' | '≤' => {
                    let point = self.compare_point("")?.expect("starts with an operator");
                    ModifierKind::Success(point)
                }
                c if c.is_ascii_alphabetic() || c == '!' => {
                    if let Some(error) = super::habits::foreign_modifier(&self.chars, self.pos) {
                        return Err(error);
                    }
                    let what = if group { "a group" } else { "a dice term" };
                    let label = if group {
                        "groups take kh, kl, dh, dl and success or failure counts"
                    } else {
                        "expected kh, kl, dh, dl, !, r, min, max, cs, f, a comparison or a sort"
                    };
                    return Err(NotationError::new(
                        self.here(),
                        format!("unknown modifier `{c}` after {what}"),
                    )
                    .with_label(label));
                }
                _ => break,
            };
            out.push(Modifier {
                kind,
                span: self.span_from(start),
            });
        }
        // Foundry's `df` without a success count subtracts the failures from
        // the total of the other dice: not a count, and not what `f` does.
        if let Some(span) = deduct
            && !out
                .iter()
                .any(|m| matches!(m.kind, ModifierKind::Success(_)))
        {
            return Err(NotationError::new(
                span,
                "`df` deducts failures from a success count here",
            )
            .with_label("count the successes too, as in `6d6cs>4df=1`"));
        }
        Ok(out)
    }

    /// The optional count of a keep or drop; defaults to 1. A `-` and a digit
    /// right after it is refused (`2d6kh-1` is not `2d6kh1 - 1`): a count is
    /// never negative, and a subtraction is written with a space.
    fn optional_count(&mut self) -> Result<u64, NotationError> {
        if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(
                NotationError::new(self.here(), "a keep or drop count cannot be negative")
                    .with_label("to subtract, put a space before the `-`, as in `2d6kh1 - 1`"),
            );
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            Ok(self.number()?.0)
        } else {
            Ok(1)
        }
    }

    fn explosion(&mut self) -> Result<ModifierKind, NotationError> {
        let (kind, once, written) = if self.eat_word("!!") {
            (ExplodeKind::Compound, false, "!!")
        } else if self.eat_word("!p") {
            (ExplodeKind::Penetrate, false, "!p")
        } else if self.eat_word("!o") {
            (ExplodeKind::Standard, true, "!o")
        } else if self.eat_word("!") {
            (ExplodeKind::Standard, false, "!")
        } else if self.eat_word("xo") {
            (ExplodeKind::Standard, true, "xo")
        } else {
            self.pos += 1;
            (ExplodeKind::Standard, false, "x")
        };
        let when = self.compare_point(written)?;
        Ok(ModifierKind::Explode { kind, when, once })
    }

    fn required_point(&mut self, after: &str) -> Result<ComparePoint, NotationError> {
        match self.compare_point(after)? {
            Some(point) => Ok(point),
            None => Err(NotationError::new(
                self.here(),
                format!(
                    "expected a comparison such as `>=5` after `{after}`, found {}",
                    self.describe_here()
                ),
            )),
        }
    }

    /// `>=5`, `>5`, `<=1`, `<1`, `=6` or a bare number (`=`). `None` if neither follows.
    fn compare_point(&mut self, after: &str) -> Result<Option<ComparePoint>, NotationError> {
        let op_start = self.pos;
        let op = match self.comparison_operator() {
            Some((op, _)) => op,
            None => {
                let starts_number = match self.peek() {
                    Some(c) if c.is_ascii_digit() => true,
                    Some('-') => {
                        self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) && !after.is_empty()
                    }
                    _ => false,
                };
                if !starts_number || after.is_empty() {
                    return Ok(None);
                }
                // A bare `-` after `!` or `r` is subtraction, as in `1d6!-1`,
                // unless the die has negative faces (`4dFr-1`).
                if self.peek() == Some('-') && !self.negative_faces {
                    return Ok(None);
                }
                CmpOp::Eq
            }
        };
        let written: String = self.chars[op_start..self.pos].iter().collect();
        let label = if written.is_empty() {
            after.to_string()
        } else {
            format!("{after}{written}")
        };
        let (value, _) = self.signed(&label)?;
        Ok(Some(ComparePoint { op, value }))
    }

    fn group(&mut self) -> Result<Expr, NotationError> {
        let start = self.pos;
        let open = self.here();
        self.enter(open)?;
        self.pos += 1;
        self.skip_ws();
        if self.eat('}') {
            return Err(NotationError::new(
                self.span_from(start),
                "a group needs at least one member",
            )
            .with_label("as in `{3d6, 2d8}kh1`"));
        }
        let mut members = Vec::new();
        loop {
            self.skip_ws();
            if self.at_end() {
                return Err(self.unclosed_group(open));
            }
            members.push(self.expr()?);
            self.skip_ws();
            if self.eat('}') {
                break;
            }
            if !self.eat(',') {
                if self.at_end() {
                    return Err(self.unclosed_group(open));
                }
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected `,` or `}}` in the group, found {}",
                        self.describe_here()
                    ),
                ));
            }
        }
        self.leave();
        let modifiers = self.modifiers(true)?;
        Ok(Expr {
            kind: ExprKind::Group(Box::new(Group { members, modifiers })),
            span: self.span_from(start),
        })
    }

    fn call(&mut self) -> Result<Expr, NotationError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += 1;
        }
        let name: String = self.chars[start..self.pos].iter().collect();
        let name_span = self.span_from(start);
        let Some(func) = Func::from_name(&name) else {
            if let Some(error) = super::foreign::output(&self.chars, start, self.pos) {
                return Err(error);
            }
            return Err(
                NotationError::new(name_span, format!("unknown function `{name}`"))
                    .with_label("expected min, max, abs, floor, ceil, round, nominal or maximize"),
            );
        };
        self.skip_ws();
        if self.peek() != Some('(') {
            return Err(NotationError::new(
                self.here(),
                format!(
                    "expected `(` after `{name}`, found {}",
                    self.describe_here()
                ),
            ));
        }
        let open = self.here();
        self.enter(open)?;
        self.pos += 1;
        let mut args = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(')') && args.is_empty() {
                break;
            }
            if self.at_end() {
                return Err(NotationError::new(
                    self.here(),
                    format!("expected `)` to close the `(` at column {}", open.column()),
                ));
            }
            if matches!(self.peek(), Some(',' | ')')) {
                return Err(NotationError::new(
                    self.here(),
                    format!(
                        "expected an argument of `{name}`, found {}",
                        self.describe_here()
                    ),
                ));
            }
            args.push(self.expr()?);
            self.skip_ws();
            if self.eat(',') {
                continue;
            }
            if self.peek() == Some(')') {
                break;
            }
            if self.at_end() {
                return Err(NotationError::new(
                    self.here(),
                    format!("expected `)` to close the `(` at column {}", open.column()),
                ));
            }
            return Err(NotationError::new(
                self.here(),
                format!(
                    "expected `,` or `)` in the arguments of `{name}`, found {}",
                    self.describe_here()
                ),
            ));
        }
        self.pos += 1; // `)`
        self.leave();
        let span = self.span_from(start);
        let arity_ok = match func {
            Func::Min | Func::Max => !args.is_empty(),
            Func::Abs | Func::Nominal | Func::Maximize | Func::Floor | Func::Ceil | Func::Round => {
                args.len() == 1
            }
        };
        if !arity_ok {
            let wanted = match func {
                Func::Min | Func::Max => "one or more arguments",
                _ => "exactly one argument",
            };
            return Err(NotationError::new(
                span,
                format!("`{name}` takes {wanted}, but was given {}", args.len()),
            ));
        }
        Ok(Expr {
            kind: ExprKind::Call(func, args),
            span,
        })
    }
}

fn too_large(span: Span) -> NotationError {
    NotationError::new(span, "the number is too large")
        .with_label(format!("numbers may be at most {}", i64::MAX))
}

fn chain(first: Expr, rest: Vec<(BinOp, Span, Expr)>) -> Expr {
    if rest.is_empty() {
        return first;
    }
    let span = first.span.to(rest.last().expect("non-empty").2.span);
    Expr {
        kind: ExprKind::Chain(Box::new(first), rest),
        span,
    }
}
