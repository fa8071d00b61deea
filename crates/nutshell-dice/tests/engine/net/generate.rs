//! Expressions as people write them (docs/notation.md): flat chains such as
//! `1d20 + 5 - 2 >= 10` with or without spaces, unary minus, every dice
//! modifier alone and combined and in any order, groups, functions,
//! rounding, comparisons of every operator against constants and dice,
//! success counts, explosions, rerolls, negative and listed faces, `d66`,
//! `dF`, `d%`, `d00`. Parentheses only where a person needs them.
//!
//! Each generated piece carries a rough range of its value, so that
//! comparisons get thresholds people would ask about (inside the range).

use super::rng::Rng;

/// A comparison operator, with its canonical spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

impl Op {
    pub const ALL: [Op; 5] = [Op::Ge, Op::Gt, Op::Le, Op::Lt, Op::Eq];

    pub fn text(self) -> &'static str {
        match self {
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Eq => "=",
        }
    }

    /// The ways people write it.
    fn spellings(self) -> &'static [&'static str] {
        match self {
            Op::Ge => &[">=", ">=", ">=", "≥"],
            Op::Gt => &[">"],
            Op::Le => &["<=", "<=", "≤"],
            Op::Lt => &["<"],
            Op::Eq => &["=", "=", "=="],
        }
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Ge => a >= b,
            Op::Gt => a > b,
            Op::Le => a <= b,
            Op::Lt => a < b,
            Op::Eq => a == b,
        }
    }

    /// The operator true exactly when this one is false, if the notation has it.
    pub fn complement(self) -> Option<Op> {
        match self {
            Op::Ge => Some(Op::Lt),
            Op::Lt => Some(Op::Ge),
            Op::Gt => Some(Op::Le),
            Op::Le => Some(Op::Gt),
            Op::Eq => None,
        }
    }
}

/// `sum op right`, as the case wrote it.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub op: Op,
    /// The right side as written.
    pub right: String,
    /// The right side, when it is a constant.
    pub constant: Option<i64>,
}

/// One generated case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The whole expression as a person would type it.
    pub text: String,
    /// The part that is a total (the left side of a comparison, or the whole).
    pub sum: String,
    pub comparison: Option<Comparison>,
    /// Whether the case is meant to be small enough to enumerate.
    pub small: bool,
}

/// A piece of an expression with a rough range of its value.
#[derive(Debug, Clone)]
struct Piece {
    text: String,
    lo: i64,
    hi: i64,
    /// Whether the piece ends with a dice term or a group, which would read
    /// a comparison written right after it as its own success count.
    ends_with_dice: bool,
    /// Whether it is a chain of `+`/`-` (needs brackets inside a product).
    is_sum: bool,
}

impl Piece {
    fn number(n: i64) -> Piece {
        Piece {
            text: n.to_string(),
            lo: n,
            hi: n,
            ends_with_dice: false,
            is_sum: false,
        }
    }
}

/// A die people use, with its faces (distinct, ascending).
struct DieKind {
    text: &'static str,
    faces: Vec<i64>,
}

fn die_kinds(small: bool) -> Vec<DieKind> {
    let run = |a: i64, b: i64| (a..=b).collect::<Vec<i64>>();
    let tens = (0..10).map(|i| i * 10).collect::<Vec<i64>>();
    let digits = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a * 10 + b))
        .collect::<Vec<i64>>();
    let mut kinds = vec![
        DieKind {
            text: "2",
            faces: run(1, 2),
        },
        DieKind {
            text: "3",
            faces: run(1, 3),
        },
        DieKind {
            text: "4",
            faces: run(1, 4),
        },
        DieKind {
            text: "6",
            faces: run(1, 6),
        },
        DieKind {
            text: "F",
            faces: run(-1, 1),
        },
        DieKind {
            text: "{0,10,20}",
            faces: vec![0, 10, 20],
        },
        DieKind {
            text: "{-2..2}",
            faces: run(-2, 2),
        },
        DieKind {
            text: "{1,1,3}",
            faces: vec![1, 3],
        },
        DieKind {
            text: "{-1,0,0,2}",
            faces: vec![-1, 0, 2],
        },
    ];
    if !small {
        kinds.retain(|k| !matches!(k.text, "2" | "3"));
        for (text, faces) in [
            ("6", run(1, 6)),
            ("8", run(1, 8)),
            ("10", run(1, 10)),
            ("12", run(1, 12)),
            ("20", run(1, 20)),
            ("20", run(1, 20)),
            ("100", run(1, 100)),
            ("%", run(1, 100)),
            ("00", tens),
            ("66", digits),
        ] {
            kinds.push(DieKind { text, faces });
        }
    }
    kinds
}

/// The generator for one case: its choices, its size and its spacing.
pub struct Generator {
    rng: Rng,
    small: bool,
    /// `1d20 + 5` or `1d20+5`.
    spaced: bool,
    /// Dice terms left to write (keeps cases within reach of the oracles).
    budget: u32,
}

impl Generator {
    pub fn new(seed: u64) -> Generator {
        let mut rng = Rng::new(seed);
        let small = rng.chance(55);
        let spaced = rng.chance(65);
        Generator {
            rng,
            small,
            spaced,
            budget: if small { 3 } else { 4 },
        }
    }

    /// One expression, as a person would type it.
    pub fn case(mut self) -> Case {
        let shape = self.rng.weighted(&[55, 40, 5]);
        if shape == 2 {
            // Summed checks: `(1d20 + 5 >= 12) + (1d20 + 5 >= 12)`.
            let a = self.comparison_text();
            let b = if self.rng.chance(50) {
                a.clone()
            } else {
                self.comparison_text()
            };
            let plus = self.op_text("+");
            let text = format!("({a}){plus}({b})");
            return Case {
                sum: text.clone(),
                text,
                comparison: None,
                small: self.small,
            };
        }
        let sum = self.sum();
        if shape == 0 {
            return Case {
                text: sum.text.clone(),
                sum: sum.text,
                comparison: None,
                small: self.small,
            };
        }
        let (text, comparison) = self.compare(&sum);
        Case {
            text,
            sum: sum.text,
            comparison: Some(comparison),
            small: self.small,
        }
    }

    fn comparison_text(&mut self) -> String {
        self.budget = self.budget.min(2);
        let sum = self.sum();
        self.compare(&sum).0
    }

    /// `sum op right` with a threshold inside the sum's rough range, or dice
    /// on the right.
    fn compare(&mut self, sum: &Piece) -> (String, Comparison) {
        let op = *self.rng.pick(&Op::ALL);
        let written = *self.rng.pick(op.spellings());
        let (right, constant) = if self.rng.chance(75) || self.budget == 0 {
            let t = self.rng.range(sum.lo - 1, sum.hi + 1);
            (t.to_string(), Some(t))
        } else {
            self.budget = self.budget.max(1);
            let terms = 1 + self.rng.below(2) as usize;
            let right = self.sum_of(terms);
            (right.text, None)
        };
        // A comparison right after dice would count successes: people put a
        // space there (`3d6 >= 10`), and often everywhere.
        let gap = if self.spaced || sum.ends_with_dice {
            " "
        } else {
            ""
        };
        let text = format!("{}{gap}{written}{gap}{right}", sum.text);
        (
            text,
            Comparison {
                op,
                right,
                constant,
            },
        )
    }

    fn op_text(&self, op: &str) -> String {
        if self.spaced {
            format!(" {op} ")
        } else {
            op.to_string()
        }
    }

    fn comma(&self) -> &'static str {
        if self.spaced { ", " } else { "," }
    }

    /// A flat chain of 1 to 5 terms joined by `+` and `-`.
    fn sum(&mut self) -> Piece {
        let terms = 1 + self.rng.weighted(&[25, 35, 25, 10, 5]);
        self.sum_of(terms)
    }

    fn sum_of(&mut self, terms: usize) -> Piece {
        let mut acc = self.term();
        if self.rng.chance(5) {
            acc = self.negate(acc);
        }
        for _ in 1..terms {
            let next = self.term();
            let minus = self.rng.chance(30);
            let op = self.op_text(if minus { "-" } else { "+" });
            let (lo, hi) = if minus {
                (acc.lo - next.hi, acc.hi - next.lo)
            } else {
                (acc.lo + next.lo, acc.hi + next.hi)
            };
            acc = Piece {
                text: format!("{}{op}{}", acc.text, next.text),
                lo,
                hi,
                ends_with_dice: next.ends_with_dice,
                is_sum: true,
            };
        }
        acc
    }

    /// `-1d4` or `-(2d6 + 1)`.
    fn negate(&mut self, piece: Piece) -> Piece {
        let text = if piece.is_sum {
            format!("-({})", piece.text)
        } else {
            format!("-{}", piece.text)
        };
        Piece {
            text,
            lo: -piece.hi,
            hi: -piece.lo,
            ends_with_dice: piece.ends_with_dice && !piece.is_sum,
            is_sum: false,
        }
    }

    fn term(&mut self) -> Piece {
        if self.budget == 0 {
            return Piece::number(self.rng.range(1, 6));
        }
        match self.rng.weighted(&[62, 18, 6, 5, 5, 3, 1]) {
            0 => self.dice(),
            1 => Piece::number(self.constant()),
            2 => self.function(),
            3 => self.group(),
            4 => self.product(),
            5 => {
                let mut d = self.dice();
                let label = *self.rng.pick(&["fire", "cold", "x", "slashing"]);
                d.text = format!("{}[{label}]", d.text);
                d.ends_with_dice = false;
                d
            }
            _ => {
                // `1d20 / 2`
                let d = self.dice();
                let by = self.rng.range(2, 3);
                let op = self.op_text("/");
                Piece {
                    text: format!("{}{op}{by}", d.text),
                    lo: d.lo.div_euclid(by),
                    hi: d.hi.div_euclid(by),
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
        }
    }

    fn constant(&mut self) -> i64 {
        match self.rng.weighted(&[70, 20, 10]) {
            0 => self.rng.range(1, 5),
            1 => self.rng.range(6, 12),
            _ => self.rng.range(0, 20),
        }
    }

    /// `1d6 * 3`, `2 * 1d4`, `1d6 * 1d4`.
    fn product(&mut self) -> Piece {
        let a = self.dice();
        let times = self.op_text("*");
        if self.rng.chance(20) && self.budget > 0 {
            let b = self.dice();
            let products = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
            return Piece {
                text: format!("{}{times}{}", a.text, b.text),
                lo: *products.iter().min().unwrap(),
                hi: *products.iter().max().unwrap(),
                ends_with_dice: b.ends_with_dice,
                is_sum: false,
            };
        }
        let c = self.rng.range(2, 4);
        let (lo, hi) = (a.lo * c, a.hi * c);
        if self.rng.chance(50) {
            Piece {
                text: format!("{}{times}{c}", a.text),
                lo,
                hi,
                ends_with_dice: false,
                is_sum: false,
            }
        } else {
            Piece {
                text: format!("{c}{times}{}", a.text),
                lo,
                hi,
                ends_with_dice: a.ends_with_dice,
                is_sum: false,
            }
        }
    }

    fn function(&mut self) -> Piece {
        let comma = self.comma();
        let small_sum = |g: &mut Generator| {
            let n = 1 + g.rng.below(2) as usize;
            g.sum_of(n)
        };
        match self.rng.below(8) {
            0 | 1 => {
                let name = if self.rng.chance(50) { "max" } else { "min" };
                let a = small_sum(self);
                let b = if self.rng.chance(40) {
                    Piece::number(self.constant())
                } else {
                    small_sum(self)
                };
                let (lo, hi) = if name == "max" {
                    (a.lo.max(b.lo), a.hi.max(b.hi))
                } else {
                    (a.lo.min(b.lo), a.hi.min(b.hi))
                };
                Piece {
                    text: format!("{name}({}{comma}{})", a.text, b.text),
                    lo,
                    hi,
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
            2 => {
                let a = self.dice();
                let b = self.dice();
                let minus = self.op_text("-");
                Piece {
                    text: format!("abs({}{minus}{})", a.text, b.text),
                    lo: 0,
                    hi: (a.hi - b.lo).abs().max((a.lo - b.hi).abs()),
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
            3..=5 => {
                let name = *self.rng.pick(&["floor", "ceil", "round"]);
                let a = small_sum(self);
                let by = self.rng.range(2, 4);
                let over = self.op_text("/");
                let inner = if a.is_sum {
                    format!("({}){over}{by}", a.text)
                } else {
                    format!("{}{over}{by}", a.text)
                };
                Piece {
                    text: format!("{name}({inner})"),
                    lo: a.lo.div_euclid(by),
                    hi: a.hi.div_euclid(by) + 1,
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
            6 => {
                let a = small_sum(self);
                let v = a.lo;
                Piece {
                    text: format!("nominal({})", a.text),
                    lo: v,
                    hi: v.max(a.lo),
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
            _ => {
                let a = small_sum(self);
                Piece {
                    text: format!("maximize({})", a.text),
                    lo: a.hi,
                    hi: a.hi,
                    ends_with_dice: false,
                    is_sum: false,
                }
            }
        }
    }

    /// `{1d20 + 5, 1d20 + 5}kh1`, `{3d6, 2d8 + 1}kh1`, `{4d6+3d8}kh4`,
    /// `{1d6, 1d6, 1d6}>=4`.
    fn group(&mut self) -> Piece {
        let comma = self.comma();
        if self.rng.chance(30) {
            // Pooled dice: keep/drop and counts act on the dice.
            let a = self.plain_dice();
            let b = self.plain_dice();
            let plus = self.op_text("+");
            let dice = a.1 + b.1;
            let (modifier, lo, hi) = self.group_modifier(dice, a.0.lo + b.0.lo, a.0.hi + b.0.hi);
            return Piece {
                text: format!("{{{}{plus}{}}}{modifier}", a.0.text, b.0.text),
                lo,
                hi,
                ends_with_dice: true,
                is_sum: false,
            };
        }
        let members = 2 + self.rng.below(2) as usize;
        let first = {
            let n = 1 + self.rng.below(2) as usize;
            self.sum_of(n)
        };
        let mut texts = vec![first.text.clone()];
        for _ in 1..members {
            if self.rng.chance(50) {
                texts.push(first.text.clone()); // advantage: the same roll twice
            } else {
                let n = 1 + self.rng.below(2) as usize;
                texts.push(self.sum_of(n).text);
            }
        }
        let (modifier, lo, hi) =
            self.group_modifier(members as u64, first.lo * members as i64, first.hi * 2);
        Piece {
            text: format!("{{{}}}{modifier}", texts.join(comma)),
            lo,
            hi,
            ends_with_dice: true,
            is_sum: false,
        }
    }

    fn group_modifier(&mut self, members: u64, lo: i64, hi: i64) -> (String, i64, i64) {
        match self.rng.below(6) {
            0 | 1 => {
                let k = self.rng.range(1, members as i64 - 1);
                (format!("kh{k}"), lo / members as i64, hi)
            }
            2 => ("kl1".to_string(), lo / members as i64, hi),
            3 => ("dl1".to_string(), lo / members as i64, hi),
            4 => {
                let t = self.rng.range(lo / members as i64, hi / members as i64 + 1);
                (format!(">={t}"), 0, members as i64)
            }
            _ => ("".to_string(), lo, hi),
        }
    }

    /// `NdX` with no modifiers (for pooled groups): the piece and its count.
    fn plain_dice(&mut self) -> (Piece, u64) {
        self.budget = self.budget.saturating_sub(1);
        let kinds = die_kinds(self.small);
        let kind = self.rng.pick(&kinds);
        let n = self.rng.range(1, if self.small { 2 } else { 4 }) as u64;
        let (lo, hi) = (kind.faces[0], *kind.faces.last().unwrap());
        (
            Piece {
                text: format!("{n}d{}", kind.text),
                lo: lo * n as i64,
                hi: hi * n as i64,
                ends_with_dice: true,
                is_sum: false,
            },
            n,
        )
    }

    /// A dice term with modifiers.
    fn dice(&mut self) -> Piece {
        self.budget = self.budget.saturating_sub(1);
        let kinds = die_kinds(self.small);
        let kind = self.rng.pick(&kinds);
        let faces = &kind.faces;
        let (lo, hi) = (faces[0], *faces.last().unwrap());
        let most = if self.small { 3 } else { 6 };
        // Now and then a big pool (`24d6kh12`), where keep/drop takes
        // its other methods.
        let big_pool = !self.small && self.rng.chance(3);
        let mut n: i64 = match self.rng.weighted(&[15, 70, 15]) {
            _ if big_pool => self.rng.range(12, 40),
            0 => 1,
            1 => self.rng.range(1, most),
            _ => self.rng.range(1, most + 4),
        };
        // The count as written: `d20` for one die, sometimes computed.
        let mut count_text = match n {
            1 if self.rng.chance(40) => String::new(),
            _ => n.to_string(),
        };
        let mut sides_text = kind.text.to_string();
        if self.rng.chance(5) {
            if self.rng.chance(50) {
                count_text = "(1d3)".to_string();
                n = 3;
            } else if hi >= 4 && !kind.text.starts_with(['{', 'F', '%', '0']) && kind.text != "66" {
                let plus = self.op_text("+");
                sides_text = format!("(1d4{plus}{})", hi - 4);
            }
        }
        let mut tokens: Vec<Token> = Vec::new();
        let rerolled = self.rng.chance(15);
        if rerolled {
            tokens.push(self.reroll(faces, kind.text == "F"));
        }
        let exploding = self.rng.chance(if self.small { 15 } else { 10 });
        if exploding {
            tokens.push(self.explode(faces));
        }
        if self.rng.chance(8) {
            tokens.push(self.clamp(faces));
        }
        let mut kept = n;
        if n >= 2 && (big_pool || self.rng.chance(30)) {
            let (token, k) = self.keep(n);
            kept = k;
            tokens.push(token);
        }
        let mut counting = false;
        let mut signed_counts = false;
        if self.rng.chance(15) {
            counting = true;
            let t = *self.rng.pick(faces);
            let op = *self.rng.pick(&[">=", ">=", ">", "=", "<=", "<"]);
            tokens.push(Token::Success(format!("{op}{t}")));
            if self.rng.chance(30) {
                signed_counts = true;
                let f = faces[0];
                let failure = match self.rng.below(3) {
                    0 => format!("f{f}"),
                    1 => format!("cf<={f}"),
                    _ => format!("df={f}"),
                };
                tokens.push(Token::Plain(failure));
            }
        } else if self.rng.chance(3) {
            counting = true;
            tokens.push(Token::Plain(format!("cf<={}", faces[0])));
        }
        if self.rng.chance(4) {
            tokens.push(Token::Plain(self.rng.pick(&["s", "sa", "sd"]).to_string()));
        }
        if tokens.len() > 1 && self.rng.chance(30) {
            // People write modifiers in any order.
            for i in (1..tokens.len()).rev() {
                let j = self.rng.below(i as u64 + 1) as usize;
                tokens.swap(i, j);
            }
        }
        let mut text = format!("{count_text}d{sides_text}");
        let mut after_bare = false;
        for token in &tokens {
            match token {
                Token::Success(point) => {
                    // Right after a bare `!` or `r` a compare point would be
                    // theirs: people spell the count `cs` there.
                    if after_bare || self.rng.chance(30) {
                        text.push_str("cs");
                    }
                    text.push_str(point);
                    after_bare = false;
                }
                Token::Bare(t) => {
                    text.push_str(t);
                    after_bare = true;
                }
                Token::Plain(t) => {
                    text.push_str(t);
                    after_bare = false;
                }
            }
        }
        if self.rng.chance(4) {
            text = text.to_uppercase().replace("DF", "dF");
        }
        let growth = if exploding { 3 } else { 1 };
        let (lo, hi) = if counting {
            (if signed_counts { -kept } else { 0 }, kept * growth)
        } else {
            (kept * lo.min(0) + kept * lo.max(0), kept * hi * growth)
        };
        Piece {
            text,
            lo,
            hi,
            ends_with_dice: true,
            is_sum: false,
        }
    }

    fn reroll(&mut self, faces: &[i64], fate: bool) -> Token {
        let lo = faces[0];
        let second = faces[1.min(faces.len() - 1)];
        let heavy = !self.small && faces.len() >= 6 && self.rng.chance(15);
        if heavy {
            // Reroll all but the lowest face: `10d%r>1`.
            return Token::Plain(format!("r>{lo}"));
        }
        match self.rng.below(8) {
            0 if lo == 1 => Token::Bare(if self.rng.chance(50) { "r" } else { "rr" }.to_string()),
            1 => Token::Plain(format!("ro{lo}")),
            2 => Token::Plain(format!("r<{second}")),
            3 => Token::Plain(format!("ro<={lo}")),
            4 if faces.len() >= 3 => Token::Plain(format!("r{lo}r{second}")),
            5 if fate => Token::Plain("r-1".to_string()),
            6 => Token::Plain(format!("rr{lo}")),
            _ => Token::Plain(format!("r{lo}")),
        }
    }

    fn explode(&mut self, faces: &[i64]) -> Token {
        let hi = *faces.last().unwrap();
        let below = faces[faces.len().saturating_sub(2)];
        match self.rng.below(9) {
            0 => Token::Bare("!!".to_string()),
            1 => Token::Bare("!p".to_string()),
            2 => Token::Bare("!o".to_string()),
            3 => Token::Bare("x".to_string()),
            4 => Token::Bare("xo".to_string()),
            5 if faces.len() >= 3 => Token::Plain(format!("!>={below}")),
            6 if faces.len() >= 3 => Token::Plain(format!("!>{below}")),
            7 => Token::Plain(format!("!={hi}")),
            _ => Token::Bare("!".to_string()),
        }
    }

    fn clamp(&mut self, faces: &[i64]) -> Token {
        let second = faces[1.min(faces.len() - 1)];
        let below = faces[faces.len().saturating_sub(2)];
        Token::Plain(match self.rng.below(3) {
            0 => format!("min{second}"),
            1 => format!("max{below}"),
            _ => format!("min{}max{}", second.min(below), below.max(second)),
        })
    }

    /// A keep or drop of `n` dice, and how many it keeps.
    fn keep(&mut self, n: i64) -> (Token, i64) {
        let k = self.rng.range(1, n - 1);
        match self.rng.below(8) {
            0 => (Token::Plain(format!("kh{k}")), k),
            1 => (Token::Plain(format!("k{k}")), k),
            2 => (Token::Plain("k".to_string()), 1),
            3 => (Token::Plain(format!("kl{k}")), k),
            4 => (Token::Plain(format!("dh{k}")), n - k),
            5 => (Token::Plain(format!("d{k}")), n - k),
            _ => (Token::Plain(format!("dl{k}")), n - k),
        }
    }
}

/// A modifier as written.
enum Token {
    /// A success count's compare point (`>=5`), spelled with `cs` where needed.
    Success(String),
    /// A modifier whose compare point is optional and left out (`!`, `r`):
    /// a compare point written right after it would be its own.
    Bare(String),
    Plain(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use nutshell_dice::Expression;

    /// The generator writes what the notation accepts (most of the time:
    /// a few combinations, such as a die whose every face is rerolled, are
    /// refused on purpose), flat chains without brackets among them.
    #[test]
    fn generated_cases_mostly_parse_and_include_flat_chains() {
        let (mut parsed, mut flat) = (0, 0);
        for seed in 0..2000 {
            let case = Generator::new(seed).case();
            if Expression::parse(&case.text).is_ok() {
                parsed += 1;
            }
            let c = &case.text;
            if !c.contains('(') && (c.matches('+').count() + c.matches('-').count()) >= 2 {
                flat += 1;
            }
        }
        assert!(parsed > 1900, "{parsed} of 2000 parse");
        assert!(flat > 300, "{flat} flat chains of three terms or more");
    }
}
