//! Rolling: a plan and a dice source give a total and a transcript.

mod eval;
mod plain;
mod render;
#[cfg(feature = "serde")]
mod report;
mod sum;
pub mod transcript;

pub(crate) use eval::{clamp, counts_each_face, digit_faces, floor_div};
pub use render::{Mark, Painter, Plain};
#[cfg(feature = "serde")]
pub use report::{
    DieReport, FaceReport, GroupReport, LabelReport, MemberReport, RollReport, TermReport,
};
pub use transcript::Transcript;

use crate::error::RollError;
use crate::plan::Expression;
use crate::source::DiceSource;

/// One finished roll: the total and what happened to every die.
#[derive(Debug, Clone, PartialEq)]
pub struct Roll<'e> {
    /// The expression rolled.
    pub expression: &'e Expression,
    /// The result.
    pub total: i64,
    /// Every die, face and group, in order.
    pub transcript: Transcript,
}

impl<'e> Roll<'e> {
    /// The roll as one line of plain text: `4d6kh3 = [6, 5, 3, (1)] = 14`.
    pub fn render(&self) -> String {
        render::render(self.expression, &self.transcript, self.total, &Plain)
    }

    /// The roll as one line, with marks (dropped dice, successes, ...) styled by `painter`.
    pub fn render_with(&self, painter: &dyn Painter) -> String {
        render::render(self.expression, &self.transcript, self.total, painter)
    }

    /// The roll as a serializable report (the JSON form of the transcript).
    #[cfg(feature = "serde")]
    pub fn report(&self) -> RollReport {
        report::report(self.expression, &self.transcript, self.total)
    }
}

/// Rolls one expression again and again, reusing its buffers: no allocation per
/// roll once warm. The commonest expressions, sums of dice that roll one face
/// each and constants (`4d6kh3+2`, `1d20+5`, `8d6`), are recognised when the
/// roller is made and rolled without walking the plan, each roll writing over
/// the last one's records; the faces and the transcript are the same.
///
/// ```
/// use nutshell_dice::{Expression, Seeded};
/// let expr = Expression::parse("4d6kh3+2")?;
/// let mut roller = expr.roller();
/// let mut dice = Seeded::new(1);
/// for _ in 0..1000 {
///     let total = roller.roll(&mut dice)?;
///     assert!((5..=20).contains(&total));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Roller<'e> {
    expression: &'e Expression,
    transcript: Transcript,
    order: Vec<u32>,
    /// The expression as a plain sum (`4d6kh3+2`, `1d20+5`), rolled without
    /// walking the plan; `None` for every other shape.
    plain_sum: Option<sum::PlainSum<'e>>,
}

impl<'e> Roller<'e> {
    /// A roller for `expression`.
    pub fn new(expression: &'e Expression) -> Roller<'e> {
        Roller {
            plain_sum: sum::PlainSum::of(&expression.root, &expression.limits),
            ..Roller::walking(expression)
        }
    }

    /// A roller that walks the plan every roll, whatever its shape: for a
    /// single roll, where recognising a plain sum would gain nothing.
    fn walking(expression: &'e Expression) -> Roller<'e> {
        Roller {
            expression,
            transcript: Transcript::default(),
            order: Vec::new(),
            plain_sum: None,
        }
    }

    /// Rolls once and returns the total; the transcript of this roll is then in
    /// [`Roller::transcript`].
    pub fn roll<S: DiceSource + ?Sized>(&mut self, source: &mut S) -> Result<i64, RollError> {
        let total = match &self.plain_sum {
            // It writes over the last roll's records, or clears them.
            Some(plain_sum) => plain_sum.roll(source, &mut self.transcript, &mut self.order),
            None => {
                self.transcript.clear();
                let mut evaluator = eval::Evaluator {
                    source,
                    limits: &self.expression.limits,
                    transcript: &mut self.transcript,
                    order: &mut self.order,
                    rolled: 0,
                    fixed: None,
                    label: None,
                };
                evaluator.eval(&self.expression.root)
            }
        };
        total.map_err(|e| *e)
    }

    /// The transcript of the last roll.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The last roll as a [`Roll`], given its total.
    pub fn to_roll(&self, total: i64) -> Roll<'e> {
        Roll {
            expression: self.expression,
            total,
            transcript: self.transcript.clone(),
        }
    }
}

impl Expression {
    /// Rolls the expression once with `source`.
    ///
    /// ```
    /// use nutshell_dice::{Expression, Scripted};
    /// let expr = Expression::parse("2d6[fire] + 1d4[cold]")?;
    /// let roll = expr.roll(&mut Scripted::new([3, 5, 2]))?;
    /// assert_eq!(roll.total, 10);
    /// assert_eq!(roll.render(), "2d6[fire] + 1d4[cold] = [3, 5][fire] + [2][cold] = 10");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn roll<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<Roll<'_>, RollError> {
        let mut roller = Roller::walking(self);
        let total = roller.roll(source)?;
        Ok(Roll {
            expression: self,
            total,
            transcript: roller.transcript,
        })
    }

    /// A [`Roller`] that rolls this expression repeatedly without allocating.
    pub fn roller(&self) -> Roller<'_> {
        Roller::new(self)
    }
}
