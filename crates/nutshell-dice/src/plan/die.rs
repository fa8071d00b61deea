//! What a single die can show.

/// The faces of one die, as the dice sources see it.
///
/// Every die the notation can write is one of these shapes: an arithmetic run of
/// faces (`d6` is 1, 2, ..., 6; `dF` is -1, 0, 1; the tens die `d00` is 0, 10, ...,
/// 90) or an explicit list (`d{0,10,20,30}`, where a repeated face is more likely).
///
/// ```
/// use nutshell_dice::Faces;
/// let tens = Faces::Run { first: 0, step: 10, count: 10 };
/// assert_eq!(tens.nth(9), 90);
/// assert!(tens.contains(40) && !tens.contains(45));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Faces<'a> {
    /// `first, first + step, ..., first + step * (count - 1)`; `step >= 1`.
    Run {
        /// The lowest face.
        first: i64,
        /// The distance between neighbouring faces.
        step: i64,
        /// How many faces; at least 1.
        count: u64,
    },
    /// Faces listed one by one, each equally likely to come up.
    List(&'a [i64]),
}

/// The largest number of faces a die may have. Dice sources draw a face with one
/// 32-bit random word, so a die has at most 2^32 - 1 faces.
pub const MAX_FACES: u64 = u32::MAX as u64;

impl Faces<'_> {
    /// The standard die `dN`: faces 1..=N.
    pub fn standard(sides: u64) -> Faces<'static> {
        Faces::Run {
            first: 1,
            step: 1,
            count: sides,
        }
    }

    /// How many faces (a repeated listed face counts each time).
    pub fn len(&self) -> u64 {
        match self {
            Faces::Run { count, .. } => *count,
            Faces::List(list) => list.len() as u64,
        }
    }

    /// Whether the die has no faces (never true of a die the notation accepts).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The face at position `index` (0-based, in the die's own order).
    pub fn nth(&self, index: u64) -> i64 {
        match self {
            Faces::Run { first, step, .. } => first + step * index as i64,
            Faces::List(list) => list[index as usize],
        }
    }

    /// Whether the die has a face showing `value`.
    pub fn contains(&self, value: i64) -> bool {
        match *self {
            Faces::Run { first, step, count } => {
                let offset = value as i128 - first as i128;
                offset >= 0 && offset % step as i128 == 0 && offset / (step as i128) < count as i128
            }
            Faces::List(list) => list.contains(&value),
        }
    }

    /// The lowest face.
    pub fn min(&self) -> i64 {
        match self {
            Faces::Run { first, .. } => *first,
            Faces::List(list) => *list.iter().min().expect("a die has faces"),
        }
    }

    /// The highest face.
    pub fn max(&self) -> i64 {
        match self {
            Faces::Run { first, step, count } => first + step * (*count as i64 - 1),
            Faces::List(list) => *list.iter().max().expect("a die has faces"),
        }
    }

    /// Every face in the die's order, repeated faces repeated.
    pub fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.len()).map(move |i| self.nth(i))
    }

    /// How many faces satisfy `predicate` (counting repeats), without listing a
    /// huge die face by face when the predicate is a compare point.
    pub fn count_matching(&self, point: &crate::syntax::ast::ComparePoint) -> u64 {
        use crate::syntax::ast::CmpOp;
        match *self {
            Faces::List(list) => list.iter().filter(|&&f| point.matches(f)).count() as u64,
            Faces::Run { first, step, count } => {
                // Faces are first + step*i for i in 0..count, increasing.
                let v = point.value as i128;
                let (first, step, count) = (first as i128, step as i128, count as i128);
                // Number of i in [0, count) with first + step*i <= x.
                let at_most = |x: i128| -> i128 {
                    if x < first {
                        0
                    } else {
                        ((x - first) / step + 1).min(count)
                    }
                };
                let n = match point.op {
                    CmpOp::Le => at_most(v),
                    CmpOp::Lt => at_most(v - 1),
                    CmpOp::Ge => count - at_most(v - 1),
                    CmpOp::Gt => count - at_most(v),
                    CmpOp::Eq => at_most(v) - at_most(v - 1),
                };
                n as u64
            }
        }
    }
}

impl Faces<'_> {
    /// How many faces match at least one of `points` (counting repeats),
    /// without listing a run face by face: each point picks out an interval
    /// of values, and the intervals' union is counted on the run's grid.
    pub fn count_matching_any(&self, points: &[crate::syntax::ast::ComparePoint]) -> u64 {
        use crate::syntax::ast::CmpOp;
        match *self {
            Faces::List(list) => list
                .iter()
                .filter(|&&f| points.iter().any(|p| p.matches(f)))
                .count() as u64,
            Faces::Run { first, step, count } => {
                let (first, step) = (first as i128, step as i128);
                let last = first + step * (count as i128 - 1);
                let mut intervals: Vec<(i128, i128)> = points
                    .iter()
                    .map(|p| {
                        let v = p.value as i128;
                        match p.op {
                            CmpOp::Eq => (v, v),
                            CmpOp::Le => (first, v),
                            CmpOp::Lt => (first, v - 1),
                            CmpOp::Ge => (v, last),
                            CmpOp::Gt => (v + 1, last),
                        }
                    })
                    .map(|(a, b)| (a.max(first), b.min(last)))
                    .filter(|(a, b)| a <= b)
                    .collect();
                intervals.sort_unstable();
                // Faces at or below x: those first + step*i <= x.
                let at_most =
                    |x: i128| -> i128 { if x < first { 0 } else { (x - first) / step + 1 } };
                let mut total = 0i128;
                let mut covered_to = first - 1; // values up to here are counted
                for (a, b) in intervals {
                    let a = a.max(covered_to + 1);
                    if a > b {
                        continue;
                    }
                    total += at_most(b) - at_most(a - 1);
                    covered_to = b;
                }
                total as u64
            }
        }
    }
}

impl Faces<'_> {
    /// The faces as runs that no comparison near `points` tells apart:
    /// `(a face of the run, how many faces)`, ascending. Within one run
    /// every face is below, at or above each value within 2 of a point in
    /// the same way, so compare points at those values, `min`/`max` clamps
    /// there, and a penetrating die's one less, treat its faces alike. A die
    /// of four billion faces becomes a few dozen runs; a listed die, its
    /// distinct faces with their multiplicities.
    ///
    /// ```
    /// use nutshell_dice::Faces;
    /// // A d20 against `>=15`: 1..=12 alike, then 13..=17 one by one, then 18..=20.
    /// let runs = Faces::standard(20).segments(&[15]);
    /// assert_eq!(runs.first(), Some(&(1, 12)));
    /// assert_eq!(runs.len(), 7);
    /// assert_eq!(runs.iter().map(|r| r.1).sum::<u64>(), 20);
    /// ```
    pub fn segments(&self, points: &[i64]) -> Vec<(i64, u64)> {
        match *self {
            Faces::List(list) => {
                let mut sorted = list.to_vec();
                sorted.sort_unstable();
                let mut runs: Vec<(i64, u64)> = Vec::new();
                for f in sorted {
                    match runs.last_mut() {
                        Some((v, c)) if *v == f => *c += 1,
                        _ => runs.push((f, 1)),
                    }
                }
                runs
            }
            Faces::Run { first, step, count } => {
                let (first, step, count) = (first as i128, step as i128, count as i128);
                // How many faces are at most x.
                let at_most = |x: i128| -> i128 {
                    if x < first {
                        0
                    } else {
                        ((x - first) / step + 1).min(count)
                    }
                };
                let mut cuts = vec![0, count];
                for &p in points {
                    for v in p as i128 - 2..=p as i128 + 2 {
                        cuts.push(at_most(v - 1));
                        cuts.push(at_most(v));
                    }
                }
                cuts.sort_unstable();
                cuts.dedup();
                cuts.windows(2)
                    .map(|w| ((first + step * w[0]) as i64, (w[1] - w[0]) as u64))
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{CmpOp, ComparePoint};

    #[test]
    fn runs_count_matching_faces_like_listing_them() {
        let dice = [
            Faces::standard(6),
            Faces::Run {
                first: -1,
                step: 1,
                count: 3,
            },
            Faces::Run {
                first: 0,
                step: 10,
                count: 10,
            },
            Faces::List(&[0, 10, 10, 30]),
        ];
        for die in dice {
            for op in [CmpOp::Eq, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le] {
                for value in -3..100 {
                    let point = ComparePoint { op, value };
                    let listed = die.iter().filter(|&f| point.matches(f)).count() as u64;
                    assert_eq!(die.count_matching(&point), listed, "{die:?} {op:?} {value}");
                }
            }
        }
    }

    /// A d6, the tens die and a run through zero.
    fn some_runs() -> [Faces<'static>; 3] {
        [
            Faces::standard(6),
            Faces::Run {
                first: 0,
                step: 10,
                count: 10,
            },
            Faces::Run {
                first: -2,
                step: 1,
                count: 5,
            },
        ]
    }

    #[test]
    fn runs_count_faces_matching_any_point_like_listing_them() {
        let ops = [CmpOp::Eq, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le];
        let dice = some_runs();
        for die in dice {
            for a in ops {
                for b in ops {
                    for (x, y) in [(1, 2), (3, 3), (-1, 40), (50, 5), (2, 0)] {
                        let points = [
                            ComparePoint { op: a, value: x },
                            ComparePoint { op: b, value: y },
                        ];
                        let listed = die
                            .iter()
                            .filter(|&f| points.iter().any(|p| p.matches(f)))
                            .count() as u64;
                        assert_eq!(
                            die.count_matching_any(&points),
                            listed,
                            "{die:?} {points:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every face of a run compares with the values near the points as the
    /// run's first face does, and the runs cover the die once.
    #[test]
    fn segments_keep_apart_only_what_comparisons_near_the_points_tell_apart() {
        let mut dice = some_runs().to_vec();
        dice.push(Faces::standard(4_294_967_295));
        for die in dice {
            for points in [
                vec![],
                vec![3],
                vec![1, 6],
                vec![15, -1, 4_294_967_295],
                vec![50],
            ] {
                let runs = die.segments(&points);
                assert_eq!(runs.iter().map(|r| r.1).sum::<u64>(), die.len());
                assert!(runs.len() <= 2 + 10 * points.len(), "{die:?} {points:?}");
                let mut index = 0u64;
                for &(face, n) in &runs {
                    assert_eq!(face, die.nth(index));
                    // The run's last face (a run's faces are between its ends).
                    let last = die.nth(index + n - 1);
                    for &p in &points {
                        for v in p - 2..=p + 2 {
                            assert_eq!(face.cmp(&v), last.cmp(&v), "{die:?} {points:?} {v}");
                        }
                    }
                    index += n;
                }
            }
        }
    }

    #[test]
    fn contains_respects_the_step() {
        let tens = Faces::Run {
            first: 0,
            step: 10,
            count: 10,
        };
        assert!(tens.contains(0) && tens.contains(90));
        assert!(!tens.contains(100) && !tens.contains(-10) && !tens.contains(5));
    }
}
