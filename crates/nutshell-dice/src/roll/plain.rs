//! Plain dice: one face each, standing as rolled (no reroll, no explosion,
//! no fixed face, no digit roll). Their records and how they are rolled,
//! shared by the evaluator and by [`super::sum::PlainSum`], so that both
//! record the same dice the same way.

use super::transcript::{DieRecord, FaceCause, FaceRecord, Transcript};
use crate::plan::{DiceTerm, Faces};
use crate::source::{DiceSource, SourceError};

/// The bounds `min` and `max` clamp a face to: `(lowest, highest)`, each
/// face counting for `face.max(lowest).min(highest)`.
#[inline]
pub(crate) fn clamp_bounds(term: &DiceTerm) -> (i64, i64) {
    (
        term.clamp_min.unwrap_or(i64::MIN),
        term.clamp_max.unwrap_or(i64::MAX),
    )
}

/// Rolls `count` plain dice of the term at `term_index` into the transcript:
/// one face each, standing as rolled, counting for its value clamped to
/// `bounds` (see [`clamp_bounds`]). Returns the sum of the dice's values,
/// wrapping on overflow; on a source's failure, the dice drawn before it
/// stay recorded.
#[inline]
pub(crate) fn roll_plain_dice<S: DiceSource + ?Sized>(
    source: &mut S,
    t: &mut Transcript,
    term_index: u32,
    faces: &Faces<'_>,
    count: u64,
    (lowest, highest): (i64, i64),
) -> Result<i64, SourceError> {
    let mut sum = 0i64;
    for _ in 0..count {
        let natural = source.draw(faces)?;
        let value = natural.max(lowest).min(highest);
        push_plain_die(t, term_index, natural, value);
        sum = sum.wrapping_add(value);
    }
    Ok(sum)
}

/// Records one plain die of the term at `term_index`: one face, rolled and
/// standing, that counts for `value`.
#[inline(always)]
fn push_plain_die(t: &mut Transcript, term_index: u32, natural: i64, value: i64) {
    let first_face = t.faces.len() as u32;
    t.faces.push(plain_face(natural, value));
    t.dice.push(plain_die(term_index, first_face, value));
}

/// The record of the one face of a plain die: rolled, standing, counting for
/// `value`.
#[inline(always)]
pub(crate) fn plain_face(natural: i64, value: i64) -> FaceRecord {
    FaceRecord {
        natural,
        value,
        cause: FaceCause::Roll,
        rerolled: false,
        exploded: false,
    }
}

/// The record of a plain die of the term at `term_index`, whose one face is
/// at `first_face`, before keep/drop and counting.
#[inline(always)]
pub(crate) fn plain_die(term_index: u32, first_face: u32, value: i64) -> DieRecord {
    DieRecord {
        term: term_index,
        first_face,
        faces: 1,
        value,
        kept: true,
        successes: 0,
        failures: 0,
        limit_reached: false,
    }
}
