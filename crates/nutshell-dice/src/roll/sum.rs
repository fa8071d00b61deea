//! The commonest expressions rolled without walking the plan.
//!
//! `4d6kh3+2`, `1d20+5`, `2d20kh1+3`, `8d6`, `8d10>=7`: a sum of constants
//! and dice terms that roll one face per die (no reroll, no explosion, no
//! digit roll, no computed count or sides). [`PlainSum::of`] recognises the
//! shape once per [`Roller`](super::Roller) and checks once what the
//! evaluator checks on every roll: the dice fit within `max_dice`, and no
//! total, partial or whole, can overflow.
//!
//! Such a sum records the same number of terms, dice and faces every roll,
//! each in the same place. The first roll records them as the evaluator
//! does; every later roll writes over them in place, record by record, with
//! no vector to clear or grow. Either way the faces drawn and the records
//! written are the evaluator's ([`roll_plain_dice`], [`plain_face`],
//! [`plain_die`], keep/drop and scoring are shared), and a roll that fails
//! leaves the transcript as the evaluator leaves it.

use super::eval::{Fail, make_room, mark_dropped, select_and_score, source_error};
use super::plain::{clamp_bounds, plain_die, plain_face, roll_plain_dice};
use super::transcript::{TermRecord, Transcript};
use crate::limits::Limits;
use crate::plan::{BinOp, DiceCount, DiceTerm, Faces, Node, NodeKind, Select};
use crate::source::{DiceSource, SourceError};

/// A plan that is a sum of plain dice terms and constants, ready to roll.
#[derive(Debug, Clone)]
pub(crate) struct PlainSum<'e> {
    /// The dice terms, in the order the evaluator rolls them.
    terms: Vec<PlainTerm<'e>>,
    /// The constants added and subtracted, summed.
    constant: i64,
    /// How many dice a roll records, each with one face.
    dice: usize,
}

/// One dice term of a [`PlainSum`], with what the evaluator would work out
/// from it on every roll.
#[derive(Debug, Clone)]
struct PlainTerm<'e> {
    node: &'e Node,
    term: &'e DiceTerm,
    faces: Faces<'e>,
    /// Its place among the transcript's terms.
    index: usize,
    /// The place of its first die among the transcript's dice, and of that
    /// die's face among the faces.
    first_die: usize,
    count: usize,
    /// What a face counts for at least and at most (`min`, `max`).
    bounds: (i64, i64),
    /// 1 when the term is added, -1 when it is subtracted.
    sign: i64,
    /// How its total comes from its dice.
    tally: Tally,
}

/// How the total of a [`PlainTerm`] comes from its dice.
#[derive(Debug, Clone, Copy)]
enum Tally {
    /// Every die's value, summed.
    Sum,
    /// The values of the dice that keep/drop keeps, summed.
    Keep(Select),
    /// Successes and failures counted, as the evaluator counts them.
    Count,
}

/// A source's failure to give the face of a term's die number `die`.
struct Failed {
    die: usize,
    error: SourceError,
}

impl<'e> PlainSum<'e> {
    /// The plan `root` as a plain sum, or `None` when it is anything else or
    /// could pass `limits.max_dice` or overflow.
    pub(crate) fn of(root: &'e Node, limits: &Limits) -> Option<PlainSum<'e>> {
        let mut sum = PlainSum {
            terms: Vec::new(),
            constant: 0,
            dice: 0,
        };
        // The largest magnitude any total or partial sum can reach.
        let mut bound: i128 = 0;
        for (sign, node) in addends(root)? {
            let magnitude = match &node.kind {
                NodeKind::Const(c) => {
                    sum.constant = sum.constant.checked_add(sign.checked_mul(*c)?)?;
                    i128::from(*c).abs()
                }
                NodeKind::Dice(term) => {
                    let plain = PlainTerm::of(node, term, sign, sum.terms.len(), sum.dice)?;
                    sum.dice = sum.dice.checked_add(plain.count)?;
                    let magnitude = plain.bound()?;
                    sum.terms.push(plain);
                    magnitude
                }
                _ => return None,
            };
            bound = bound.checked_add(magnitude)?;
        }
        let fits = bound <= i128::from(i64::MAX) && sum.dice as u64 <= limits.max_dice;
        fits.then_some(sum)
    }

    /// Rolls the sum into `transcript`, which holds the last roll of this
    /// sum, or anything else (it is then cleared); `order` is scratch for
    /// keep/drop.
    pub(crate) fn roll<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        transcript: &mut Transcript,
        order: &mut Vec<u32>,
    ) -> Result<i64, Fail> {
        if !self.recorded_in(transcript) {
            return self.roll_anew(source, transcript, order);
        }
        // No overflow: `of` bounded every sum.
        let mut total = self.constant;
        for plain in &self.terms {
            total += plain.sign * plain.roll_over(source, transcript, order)?;
        }
        Ok(total)
    }

    /// Rolls the sum into a transcript that does not hold its last roll:
    /// the transcript is cleared, and the records pushed as the evaluator
    /// pushes them.
    #[inline(never)]
    fn roll_anew<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        transcript: &mut Transcript,
        order: &mut Vec<u32>,
    ) -> Result<i64, Fail> {
        transcript.clear();
        let mut total = self.constant;
        for plain in &self.terms {
            total += plain.sign * plain.roll_anew(source, transcript, order)?;
        }
        Ok(total)
    }

    /// Whether `t` holds a whole roll of this sum, to be written over. A
    /// roller's transcript is written by its plain sum alone, which records
    /// no group, member or label: the number of records tells.
    #[inline]
    fn recorded_in(&self, t: &Transcript) -> bool {
        t.terms.len() == self.terms.len() && t.dice.len() == self.dice && t.faces.len() == self.dice
    }
}

impl<'e> PlainTerm<'e> {
    /// The term, when it rolls one face per die from faces known now
    /// ([`crate::plan::Die::faces`] gives none for digit rolls and computed
    /// sides), recorded as term `index` from die `first_die` on.
    fn of(
        node: &'e Node,
        term: &'e DiceTerm,
        sign: i64,
        index: usize,
        first_die: usize,
    ) -> Option<PlainTerm<'e>> {
        let DiceCount::Fixed(count) = term.count else {
            return None;
        };
        if term.reroll.is_some() || term.explode.is_some() {
            return None;
        }
        Some(PlainTerm {
            node,
            term,
            faces: term.die.faces()?,
            index,
            first_die,
            count: usize::try_from(count).ok()?,
            bounds: clamp_bounds(term),
            sign,
            tally: match term.select {
                _ if term.counting.is_active() => Tally::Count,
                Some(select) => Tally::Keep(select),
                None => Tally::Sum,
            },
        })
    }

    /// The largest magnitude of the term's total: every die at its largest
    /// value, or, when it counts successes, every die scoring one.
    fn bound(&self) -> Option<i128> {
        let count = i128::try_from(self.count).ok()?;
        if let Tally::Count = self.tally {
            return Some(count);
        }
        // Clamping is monotonic: the extreme values come from the extreme faces.
        let (lowest, highest) = self.bounds;
        let value = |face: i64| i128::from(face.max(lowest).min(highest));
        let largest = value(self.faces.min())
            .abs()
            .max(value(self.faces.max()).abs());
        largest.checked_mul(count)
    }

    /// Rolls the term as the evaluator does, its records pushed after the
    /// transcript's.
    fn roll_anew<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        t: &mut Transcript,
        order: &mut Vec<u32>,
    ) -> Result<i64, Fail> {
        let count = self.count as u64;
        make_room(t, self.node, count, count)?;
        let sum = roll_plain_dice(
            source,
            t,
            self.index as u32,
            &self.faces,
            count,
            self.bounds,
        )
        .map_err(|error| source_error(self.node, self.term, &self.faces, t, error))?;
        let total = self.tally(sum, t, order)?;
        t.terms.push(self.record(total));
        Ok(total)
    }

    /// Rolls the term over its records from the last roll. On a source's
    /// failure, the transcript is cut back to what the evaluator leaves:
    /// the terms before this one, and the dice drawn before the failure.
    #[inline]
    fn roll_over<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        t: &mut Transcript,
        order: &mut Vec<u32>,
    ) -> Result<i64, Fail> {
        let sum = self.draw_over(source, t).map_err(|Failed { die, error }| {
            t.terms.truncate(self.index);
            t.dice.truncate(self.first_die + die);
            t.faces.truncate(self.first_die + die);
            source_error(self.node, self.term, &self.faces, t, error)
        })?;
        let total = self.tally(sum, t, order)?;
        t.terms[self.index] = self.record(total);
        Ok(total)
    }

    /// Draws the term's faces and writes its dice and faces over the last
    /// roll's; returns the sum of their values.
    #[inline]
    fn draw_over<S: DiceSource + ?Sized>(
        &self,
        source: &mut S,
        t: &mut Transcript,
    ) -> Result<i64, Failed> {
        let (lowest, highest) = self.bounds;
        let places = self.first_die..self.first_die + self.count;
        let faces = &mut t.faces[places.clone()];
        let dice = &mut t.dice[places];
        let mut sum = 0;
        for die in 0..self.count {
            let natural = source
                .draw(&self.faces)
                .map_err(|error| Failed { die, error })?;
            let value = natural.max(lowest).min(highest);
            faces[die] = plain_face(natural, value);
            dice[die] = plain_die(self.index as u32, (self.first_die + die) as u32, value);
            sum += value;
        }
        Ok(sum)
    }

    /// The term's total from the sum of its dice's values, once its dice
    /// are recorded: keep/drop marks the dropped ones, counting scores them.
    #[inline(always)]
    fn tally(&self, sum: i64, t: &mut Transcript, order: &mut Vec<u32>) -> Result<i64, Fail> {
        let dice = self.first_die..self.first_die + self.count;
        match self.tally {
            Tally::Sum => Ok(sum),
            // What is kept is what was rolled less what was dropped.
            Tally::Keep(select) => Ok(sum - mark_dropped(&mut t.dice[dice], &select, order)),
            Tally::Count => self.count_successes(t, order),
        }
    }

    /// The term's success count, its dice scored as the evaluator scores them.
    #[inline(never)]
    fn count_successes(&self, t: &mut Transcript, order: &mut Vec<u32>) -> Result<i64, Fail> {
        let dice = self.first_die..self.first_die + self.count;
        select_and_score(t, order, self.node, self.term, dice)
    }

    /// The term's record, given its total.
    fn record(&self, total: i64) -> TermRecord {
        TermRecord {
            first_die: self.first_die as u32,
            dice: self.count as u32,
            sides: None,
            total,
            label: None,
            fixed: false,
        }
    }
}

/// The operands of a sum as `(sign, operand)`: a chain of `+` and `-`, or a
/// single node. `None` for a chain that multiplies or divides.
fn addends(root: &Node) -> Option<Vec<(i64, &Node)>> {
    let NodeKind::Chain(first, rest) = &root.kind else {
        return Some(vec![(1, root)]);
    };
    let mut addends = vec![(1, &**first)];
    for (op, operand) in rest {
        match op {
            BinOp::Add => addends.push((1, operand)),
            BinOp::Sub => addends.push((-1, operand)),
            BinOp::Mul | BinOp::Div => return None,
        }
    }
    Some(addends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RollError;
    use crate::roll::eval::Evaluator;
    use crate::{Expression, Scripted, Seeded};

    /// Sums of plain dice, of every tally, die and sign.
    const PLAIN: &[&str] = &[
        "4d6kh3+2",
        "1d20+5",
        "2d20kh1+3",
        "2d20kl1 - 1",
        "8d6",
        "3d6",
        "4d6dl1",
        "6d6kh3",
        "5d6dh2 - 2d4 + 7",
        "8d10>=7",
        "10d10>=8f1kh6",
        "3d6min2max5 + 2d8min9",
        "4dF",
        "2d{0,10,10,30}kh1",
        "1d% - 1d00",
        "3d{-5..5}dl1 - 3",
        "0d6 + 3",
        "7",
    ];

    /// What the plain sum leaves to the evaluator.
    const NOT_PLAIN: &[&str] = &[
        "2d6*2",
        "4d6r1",
        "10d6!",
        "1d66",
        "(1d4)d6",
        "1d(2+4)",
        "{3d6, 2d8}kh1",
        "1d20[fire] + 2",
        "maximize(2d6)",
        "-1d4 + 2",
    ];

    fn parse(text: &str) -> Expression {
        Expression::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The evaluator's roll of `expr`: its total or error, and its transcript.
    fn evaluated(
        expr: &Expression,
        source: &mut dyn DiceSource,
    ) -> (Result<i64, RollError>, Transcript) {
        let mut transcript = Transcript::default();
        let mut evaluator = Evaluator {
            source,
            limits: &expr.limits,
            transcript: &mut transcript,
            order: &mut Vec::new(),
            rolled: 0,
            fixed: None,
            label: None,
        };
        let result = evaluator.eval(&expr.root).map_err(|e| *e);
        (result, transcript)
    }

    #[test]
    fn plain_sums_are_recognised_and_nothing_else() {
        for text in PLAIN {
            let expr = parse(text);
            assert!(PlainSum::of(&expr.root, &expr.limits).is_some(), "{text}");
        }
        for text in NOT_PLAIN {
            let expr = parse(text);
            assert!(PlainSum::of(&expr.root, &expr.limits).is_none(), "{text}");
        }
        // Past the dice limit, or able to overflow: left to the evaluator.
        let few = crate::Limits {
            max_dice: 3,
            ..crate::Limits::default()
        };
        let expr = Expression::parse_with("2d6 + 2d6", &few).unwrap();
        assert!(PlainSum::of(&expr.root, &expr.limits).is_none());
        for text in ["2d{9223372036854775807}", "1d6 + 9223372036854775807"] {
            let expr = parse(text);
            assert!(PlainSum::of(&expr.root, &expr.limits).is_none(), "{text}");
        }
    }

    /// Roll after roll, the roller (which writes over its last roll) gives
    /// the evaluator's total and transcript, record for record.
    #[test]
    fn seeded_plain_sums_roll_as_the_evaluator_rolls() {
        for text in PLAIN {
            let expr = parse(text);
            let mut roller = expr.roller();
            let (mut ours, mut theirs) = (Seeded::new(11), Seeded::new(11));
            for _ in 0..300 {
                let total = roller.roll(&mut ours);
                let (expected, transcript) = evaluated(&expr, &mut theirs);
                assert_eq!(total, expected, "{text}");
                assert_eq!(roller.transcript(), &transcript, "{text}");
            }
        }
    }

    /// A source that fails at any face, first roll or roll over a previous
    /// one, leaves the evaluator's error and transcript; the next roll is
    /// whole again.
    #[test]
    fn a_failing_source_leaves_what_the_evaluator_leaves() {
        for text in PLAIN {
            let expr = parse(text);
            let mut reference = expr.roller();
            reference.roll(&mut Seeded::new(5)).unwrap();
            let naturals: Vec<i64> = reference
                .transcript()
                .faces
                .iter()
                .map(|f| f.natural)
                .collect();
            for given in 0..naturals.len() {
                for over in [false, true] {
                    let mut roller = expr.roller();
                    if over {
                        roller.roll(&mut Seeded::new(6)).unwrap();
                    }
                    // Out of faces after `given`, or a face the die cannot show.
                    let short = || Scripted::new(naturals[..given].iter().copied());
                    let wrong =
                        || Scripted::new(naturals[..given].iter().copied().chain([1 << 40]));
                    for mut script in [short(), wrong()] {
                        let result = roller.roll(&mut script.clone());
                        let (expected, transcript) = evaluated(&expr, &mut script);
                        assert!(expected.is_err(), "{text}");
                        assert_eq!(result, expected, "{text} {given} {over}");
                        assert_eq!(roller.transcript(), &transcript, "{text} {given} {over}");
                    }
                    let total = roller.roll(&mut Seeded::new(5));
                    assert_eq!(total, Ok(reference.roll(&mut Seeded::new(5)).unwrap()));
                    assert_eq!(roller.transcript(), reference.transcript(), "{text}");
                }
            }
        }
    }
}
