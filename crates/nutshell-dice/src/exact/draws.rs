//! How many faces a roll draws, against [`crate::Limits::max_dice`].
//!
//! A roll that would draw more faces than `max_dice` (rerolls and explosions
//! included) fails, so exact odds, which reroll without limit and follow
//! explosions to their own limit, describe the rolls that do not fail. This
//! module bounds the chance that one fails and refuses the expression
//! (`MayFail`) when it could exceed the tail threshold
//! ([`crate::Limits::tail_digits`]), or at once when every roll draws too
//! many (`{1d6, 1d6, ...}` with a hundred thousand members).
//!
//! The bound is Chernoff's: for any `t > 0`,
//! `P(T > B) <= E[e^(tT)] e^(-t(B+1))`, where `T`, the faces drawn, is a sum
//! of independent dice. For one die, with `q` the chance that a drawn face is
//! rerolled and `p` the chance that a standing face explodes (at most `L`
//! times), the faces drawn for one standing face have the generating function
//! `g(t) = (1-q)e^t / (1 - q e^t)` (`r`), `e^t (1 - q + q e^t)` (`ro`) or
//! `e^t`, and the die's is `Σ_j P(N = j) g(t)^j` over its `N` standing
//! faces. `ln E[e^(tT)]` is kept on a fixed grid of `t`; the least bound over
//! the grid is used (any `t` gives a valid one). Where the count or the
//! sides of dice are computed, the worst case over the possible values is
//! taken, which only makes the bound larger.

use super::ExactError;
use crate::limits::Limits;
use crate::plan::{DiceTerm, Faces};

/// The grid of `t`: from 1e-4 (dice rerolled 99.99% of the time) to 20
/// (dice that draw a fixed number of faces), evenly in `ln t`.
const GRID: usize = 48;

fn grid() -> [f64; GRID] {
    let (lo, hi) = (1e-4f64.ln(), 20f64.ln());
    std::array::from_fn(|i| (lo + (hi - lo) * i as f64 / (GRID - 1) as f64).exp())
}

/// What the dice of an expression draw, accumulated as the exact engine walks
/// it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draws {
    /// The fewest faces any roll draws.
    least: u64,
    /// The most faces a roll can draw (`None`: no limit, rerolls).
    most: Option<u64>,
    /// `ln E[e^(tT)]` at each `t` of the grid.
    log_mgf: [f64; GRID],
}

impl Default for Draws {
    fn default() -> Draws {
        Draws {
            least: 0,
            most: Some(0),
            log_mgf: [0.0; GRID],
        }
    }
}

/// How one die of a term draws its faces.
pub(crate) struct DieDraws {
    /// The chance a drawn face is rerolled.
    pub reroll: f64,
    /// Whether that is again and again (`r`) or once (`ro`).
    pub reroll_once: bool,
    /// The chance a standing face explodes.
    pub explode: f64,
    /// How many times a die explodes at most.
    pub explosions: u64,
}

impl DieDraws {
    /// How a die of `term` with `faces` draws, under `limits`. Counting the
    /// faces that reroll or explode costs one test per face of a listed die,
    /// a few for a run (see [`Faces::count_matching_any`]).
    pub fn of(term: &DiceTerm, faces: &Faces<'_>, limits: &Limits) -> DieDraws {
        let n = faces.len() as f64;
        let highest = faces.max();
        let (reroll, reroll_once) = match &term.reroll {
            Some(r) => (faces.count_matching_any(&r.when) as f64 / n, r.once),
            None => (0.0, false),
        };
        let explode = match &term.explode {
            None => 0.0,
            Some(e) => {
                let point = e.when.unwrap_or(crate::plan::ComparePoint {
                    op: crate::plan::CmpOp::Eq,
                    value: highest,
                });
                let exploding = faces.count_matching(&point) as f64 / n;
                // The chance a standing face explodes is at most the
                // exploding share of the faces that can stand (`r`), or that
                // share raised by the faces rolled twice (`ro`).
                match &term.reroll {
                    Some(r) if !r.once => (exploding / (1.0 - reroll)).min(1.0),
                    Some(_) => (exploding * (1.0 + reroll)).min(1.0),
                    None => exploding,
                }
            }
        };
        let explosions = match &term.explode {
            None => 0,
            Some(e) if e.once => 1,
            Some(_) => u64::from(limits.max_repeats_per_die),
        };
        DieDraws {
            reroll,
            reroll_once,
            explode,
            explosions,
        }
    }

    /// A die that draws one face: fixed (`nominal`), or plain.
    pub fn plain() -> DieDraws {
        DieDraws {
            reroll: 0.0,
            reroll_once: false,
            explode: 0.0,
            explosions: 0,
        }
    }

    /// The most faces one die draws, if bounded.
    fn most(&self) -> Option<u64> {
        let per_face = match (self.reroll > 0.0, self.reroll_once) {
            (false, _) => 1,
            (true, true) => 2,
            (true, false) => return None,
        };
        let faces = if self.explode > 0.0 {
            self.explosions.saturating_add(1)
        } else {
            1
        };
        Some(faces.saturating_mul(per_face))
    }

    /// `ln E[e^(tD)]` for one die.
    fn log_mgf(&self, t: f64) -> f64 {
        let (q, et) = (self.reroll, t.exp());
        // Faces drawn for one standing face.
        let g = if q == 0.0 {
            et
        } else if self.reroll_once {
            et * (1.0 - q + q * et)
        } else if q * et >= 1.0 {
            return f64::INFINITY;
        } else {
            (1.0 - q) * et / (1.0 - q * et)
        };
        let (p, l) = (self.explode, self.explosions);
        if p == 0.0 || l == 0 {
            return g.ln();
        }
        // Σ_{j=1..L} p^(j-1) (1-p) g^j + p^L g^(L+1).
        let r = p * g;
        let lf = l as f64;
        let geometric = if (r - 1.0).abs() < 1e-12 {
            lf
        } else {
            (1.0 - r.powf(lf)) / (1.0 - r)
        };
        let total = (1.0 - p) * g * geometric + r.powf(lf) * g;
        if total.is_finite() && total > 0.0 {
            total.ln()
        } else {
            f64::INFINITY
        }
    }
}

impl Draws {
    /// Adds `count` independent dice that draw like `die`.
    pub fn add(&mut self, count: u64, die: &DieDraws) {
        // No dice draw nothing, however they reroll (found by the
        // `exact_odds` fuzz target: `0d6r<3!` was refused as rolls that may
        // fail, its "most" lost to the die's unbounded rerolls).
        if count == 0 {
            return;
        }
        self.least = self.least.saturating_add(count);
        self.most = match (self.most, die.most()) {
            (Some(a), Some(b)) => a.checked_add(b.saturating_mul(count)),
            _ => None,
        };
        let n = count as f64;
        for (x, t) in self.log_mgf.iter_mut().zip(grid()) {
            *x += n * die.log_mgf(t);
        }
    }

    /// The worst of two alternatives (the branches of a computed count or
    /// computed sides, each on top of what came before).
    pub fn worst(self, other: Draws) -> Draws {
        let mut log_mgf = self.log_mgf;
        for (x, y) in log_mgf.iter_mut().zip(other.log_mgf) {
            *x = x.max(y);
        }
        Draws {
            least: self.least.min(other.least),
            most: match (self.most, other.most) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            },
            log_mgf,
        }
    }

    /// Refuses at once when every roll draws more faces than `max_dice`.
    pub fn check_least(&self, limits: &Limits, span: crate::Span) -> Result<(), ExactError> {
        if self.least > limits.max_dice {
            return Err(ExactError::MayFail {
                reason: format!(
                    "every roll rolls more than {} dice (max_dice)",
                    limits.max_dice
                ),
                span,
            });
        }
        Ok(())
    }

    /// An upper bound of the chance that a roll draws more than `max_dice`
    /// faces.
    pub fn chance_past(&self, max_dice: u64) -> f64 {
        if self.least > max_dice {
            return 1.0;
        }
        if self.most.is_some_and(|most| most <= max_dice) {
            return 0.0;
        }
        let b = max_dice as f64 + 1.0;
        self.log_mgf
            .iter()
            .zip(grid())
            .map(|(k, t)| (k - t * b).exp())
            .fold(1.0, f64::min)
    }

    /// Refuses when the chance that a roll fails by passing `max_dice` could
    /// be above the tail threshold (`10^-tail_digits`; with no threshold,
    /// any chance that is not nil in floating point).
    pub fn check(&self, limits: &Limits, span: crate::Span) -> Result<(), ExactError> {
        self.check_least(limits, span)?;
        let chance = self.chance_past(limits.max_dice);
        let threshold = match limits.tail_digits {
            0 => 0.0,
            digits => 10f64.powi(-(digits.min(300) as i32)),
        };
        if chance > threshold {
            return Err(ExactError::MayFail {
                reason: format!(
                    "a roll can need more than {} dice (max_dice), with a chance of up to {chance:.1e}: \
                     rerolls and explosions past it fail",
                    limits.max_dice
                ),
                span,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(reroll: f64, once: bool, explode: f64, explosions: u64) -> DieDraws {
        DieDraws {
            reroll,
            reroll_once: once,
            explode,
            explosions,
        }
    }

    /// `10d%r>1`: ten dice each drawing until a 1 (1 in 100). More than
    /// 10,000 faces in all is fewer than ten 1s in the first 10,000 draws:
    /// a binomial tail near 1e-33 (a Poisson(100) below 10). The bound must
    /// sit above it, and far below the default threshold of 1e-12.
    #[test]
    fn ten_percentile_dice_rerolled_to_a_one_rarely_pass_ten_thousand_dice() {
        let mut draws = Draws::default();
        draws.add(10, &die(0.99, false, 0.0, 0));
        let chance = draws.chance_past(10_000);
        assert!(chance > 1e-34 && chance < 1e-20, "{chance}");
        // With a limit of 1,000 dice, about as many draws as expected: refused.
        assert!(draws.chance_past(1_000) > 0.1);
    }

    /// `0d6r<3!`: no dice draw no faces, so no limit is ever passed, even
    /// with no tail threshold (once refused as a roll that may fail).
    #[test]
    fn no_dice_never_pass_the_limit() {
        let mut draws = Draws::default();
        draws.add(0, &die(1.0 / 3.0, false, 1.0 / 6.0, 2));
        assert_eq!(draws.chance_past(0), 0.0);
        let limits = Limits {
            max_dice: 40,
            tail_digits: 0,
            ..Limits::default()
        };
        assert!(draws.check(&limits, crate::Span::at(0)).is_ok());
    }

    /// Dice that draw a fixed number of faces pass the limit or never do.
    #[test]
    fn plain_dice_pass_the_limit_never_or_always() {
        let mut draws = Draws::default();
        draws.add(10_000, &DieDraws::plain());
        assert_eq!(draws.chance_past(10_000), 0.0);
        assert_eq!(draws.chance_past(9_999), 1.0);
    }

    /// `9999d6 + 1d6!` with `max_dice` 10,000: the roll fails when the
    /// exploding die explodes at all (1/6). The bound may not be below it.
    #[test]
    fn one_explosion_too_many_is_bounded_from_above() {
        let mut draws = Draws::default();
        draws.add(9_999, &DieDraws::plain());
        draws.add(1, &die(0.0, false, 1.0 / 6.0, 100));
        let chance = draws.chance_past(10_000);
        assert!((1.0 / 6.0..=1.0).contains(&chance), "{chance}");
        // Two faces more allowed: it fails on two explosions or more (1/36).
        let chance = draws.chance_past(10_001);
        assert!((1.0 / 36.0..0.2).contains(&chance), "{chance}");
    }

    /// The bound against the exact chance, computed by convolution, for a
    /// few small pools of rerolling and exploding dice.
    #[test]
    fn the_bound_is_never_below_the_exact_chance() {
        for (count, d, limit) in [
            (3u64, die(0.5, false, 0.0, 0), 8u64),
            (2, die(1.0 / 6.0, false, 1.0 / 5.0, 3), 5),
            (4, die(0.25, true, 0.25, 2), 9),
            (1, die(0.9, false, 0.0, 0), 30),
        ] {
            let mut draws = Draws::default();
            draws.add(count, &d);
            let exact = exact_chance_past(count, &d, limit);
            let bound = draws.chance_past(limit);
            assert!(
                bound >= exact,
                "{count} dice past {limit}: {bound} < {exact}"
            );
        }
    }

    /// P(faces drawn > limit) for `count` dice, by convolving the
    /// distribution of one die's faces (truncated far out).
    fn exact_chance_past(count: u64, d: &DieDraws, limit: u64) -> f64 {
        const FAR: usize = 400;
        // Faces drawn for one standing face.
        let mut g = vec![0.0; FAR];
        if d.reroll == 0.0 {
            g[1] = 1.0;
        } else if d.reroll_once {
            g[1] = 1.0 - d.reroll;
            g[2] = d.reroll;
        } else {
            for (k, x) in g.iter_mut().enumerate().skip(1) {
                *x = d.reroll.powi(k as i32 - 1) * (1.0 - d.reroll);
            }
        }
        let convolve = |a: &[f64], b: &[f64]| {
            let mut out = vec![0.0; FAR];
            for (i, x) in a.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    if i + j < FAR {
                        out[i + j] += x * y;
                    }
                }
            }
            out
        };
        // One die: N standing faces.
        let mut die = vec![0.0; FAR];
        let mut power = g.clone();
        for j in 1..=d.explosions + 1 {
            let p_n = if j <= d.explosions {
                d.explode.powi(j as i32 - 1) * (1.0 - d.explode)
            } else {
                d.explode.powi(d.explosions as i32)
            };
            for (x, y) in die.iter_mut().zip(&power) {
                *x += p_n * y;
            }
            power = convolve(&power, &g);
        }
        let mut total = vec![0.0; FAR];
        total[0] = 1.0;
        for _ in 0..count {
            total = convolve(&total, &die);
        }
        total[limit as usize + 1..].iter().sum()
    }
}
