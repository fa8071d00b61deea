//! The arithmetic the keep DP ([`super::keep`]) is written against: residues
//! of one lane ([`Prime`]), or of eight lanes side by side
//! ([`super::ifma::Field8`]), with the same operations, so that one program
//! runs on either.
//!
//! Products are summed unreduced in an accumulator ([`LaneField::Acc`]) and
//! reduced once per sum, as the scalar lanes always did (see
//! [`Prime::reduce_wide`]).

use super::field::{LAZY_TERMS, Prime, SHORT_TERMS};

/// One row a row gathers from in [`LaneField::gather`]: the values of the
/// row numbered `row` land at `to..` of the target, times `coef`.
#[derive(Clone, Copy)]
pub(crate) struct Source<E> {
    pub row: usize,
    pub to: usize,
    pub coef: E,
}

/// Residue arithmetic in Montgomery form, on one lane or several at once.
pub(crate) trait LaneField: Sync {
    /// The residues of one number (one per lane); `Default` is zero.
    type E: Copy + Default + Send + Sync;
    /// A sum of products not yet reduced.
    type Acc: Copy;
    /// Products an accumulator takes (from [`LaneField::acc_zero`],
    /// [`LaneField::acc_with`] or [`LaneField::fold`]) before it is folded or
    /// reduced.
    const FOLD_TERMS: usize;

    fn one(&self) -> Self::E;
    /// The integer `n` (below every prime).
    fn small(&self, n: u64) -> Self::E;
    fn add(&self, a: Self::E, b: Self::E) -> Self::E;
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
    fn mul(&self, a: Self::E, b: Self::E) -> Self::E;
    /// The inverse of a number non-zero in every lane.
    fn inv(&self, a: Self::E) -> Self::E;
    /// Zero in every lane.
    fn is_zero(&self, a: Self::E) -> bool;
    fn acc_zero(&self) -> Self::Acc;
    /// An accumulator holding `x` (which [`LaneField::reduce`] gives back).
    fn acc_with(&self, x: Self::E) -> Self::Acc;
    /// `acc + a·b`.
    fn mul_add(&self, acc: Self::Acc, a: Self::E, b: Self::E) -> Self::Acc;
    /// The same sum, ready for [`LaneField::FOLD_TERMS`] more products.
    fn fold(&self, acc: Self::Acc) -> Self::Acc;
    /// The residues of the sum (each product counted as [`LaneField::mul`]).
    fn reduce(&self, acc: Self::Acc) -> Self::E;

    /// `row[s] += Σ coef · values(source.row)[s − to]` over the sources,
    /// for `s` in `lo..end` (the union of where the sources land), each place
    /// one sum reduced once; `row` is zero where nothing was yet, and
    /// `scratch` is this field's to use.
    ///
    /// This one goes place by place, the sum in registers (one store per
    /// place): see [`gather_in_pieces`].
    #[inline(always)]
    fn gather<'r>(
        &self,
        row: &mut [Self::E],
        sources: &[Source<Self::E>],
        values: impl Fn(usize) -> &'r [Self::E],
        (lo, end): (usize, usize),
        _scratch: &mut Vec<Self::Acc>,
    ) where
        Self::E: 'r,
    {
        if sources.len() <= PIECE_SOURCES {
            return gather_in_pieces(self, row, sources, &values, (lo, end));
        }
        for chunk in sources.chunks(PIECE_SOURCES) {
            let (lo, end) = chunk.iter().fold((usize::MAX, 0), |(lo, end), s| {
                (lo.min(s.to), end.max(s.to + values(s.row).len()))
            });
            gather_in_pieces(self, row, chunk, &values, (lo, end));
        }
    }
}

/// The most sources [`gather_in_pieces`] takes at once.
const PIECE_SOURCES: usize = 16;

/// [`LaneField::gather`] for at most [`PIECE_SOURCES`] sources, place by
/// place: the range is cut where a source starts or ends, so that within a
/// piece the same sources land on every place and the inner loop tests
/// nothing.
#[inline(always)]
fn gather_in_pieces<'r, F: LaneField + ?Sized>(
    f: &F,
    row: &mut [F::E],
    sources: &[Source<F::E>],
    values: &impl Fn(usize) -> &'r [F::E],
    (lo, end): (usize, usize),
) where
    F::E: 'r,
{
    let mut from: [&[F::E]; PIECE_SOURCES] = [&[]; PIECE_SOURCES];
    let mut cuts = [0usize; 2 * PIECE_SOURCES + 2];
    for (i, source) in sources.iter().enumerate() {
        from[i] = values(source.row);
        cuts[2 * i] = source.to;
        cuts[2 * i + 1] = source.to + from[i].len();
    }
    let n_cuts = 2 * sources.len() + 2;
    cuts[n_cuts - 2] = lo;
    cuts[n_cuts - 1] = end;
    let cuts = &mut cuts[..n_cuts];
    cuts.sort_unstable();
    let mut active: [(usize, usize); PIECE_SOURCES] = [(0, 0); PIECE_SOURCES];
    for piece in cuts.windows(2) {
        let (start, stop) = (piece[0].max(lo), piece[1].min(end));
        if start >= stop {
            continue;
        }
        let mut n = 0;
        for (i, source) in sources.iter().enumerate() {
            if source.to <= start && stop <= source.to + from[i].len() {
                active[n] = (i, source.to);
                n += 1;
            }
        }
        let active = &active[..n];
        for s in start..stop {
            let mut acc = f.acc_with(row[s]);
            for (terms, &(i, to)) in active.iter().enumerate() {
                if terms > 0 && terms % F::FOLD_TERMS == 0 {
                    acc = f.fold(acc);
                }
                acc = f.mul_add(acc, from[i][s - to], sources[i].coef);
            }
            row[s] = f.reduce(acc);
        }
    }
}

impl LaneField for Prime {
    type E = u64;
    type Acc = u128;
    const FOLD_TERMS: usize = LAZY_TERMS;

    #[inline(always)]
    fn one(&self) -> u64 {
        Prime::one(self)
    }

    #[inline(always)]
    fn small(&self, n: u64) -> u64 {
        self.enter(n)
    }

    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        Prime::add(self, a, b)
    }

    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        Prime::sub(self, a, b)
    }

    #[inline(always)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        Prime::mul(self, a, b)
    }

    fn inv(&self, a: u64) -> u64 {
        Prime::inv(self, a)
    }

    #[inline(always)]
    fn is_zero(&self, a: u64) -> bool {
        a == 0
    }

    #[inline(always)]
    fn acc_zero(&self) -> u128 {
        0
    }

    #[inline(always)]
    fn acc_with(&self, x: u64) -> u128 {
        u128::from(x) << 64
    }

    #[inline(always)]
    fn mul_add(&self, acc: u128, a: u64, b: u64) -> u128 {
        acc + Prime::wide(a, b)
    }

    #[inline(always)]
    fn fold(&self, acc: u128) -> u128 {
        Prime::fold(self, acc)
    }

    #[inline(always)]
    fn reduce(&self, acc: u128) -> u64 {
        self.reduce_wide(acc)
    }

    /// Source by source into `scratch` (sums of `u128` in memory, which one
    /// lane's words fit), with the shortest reduction the count of sources
    /// allows.
    fn gather<'r>(
        &self,
        row: &mut [u64],
        sources: &[Source<u64>],
        values: impl Fn(usize) -> &'r [u64],
        (lo, end): (usize, usize),
        scratch: &mut Vec<u128>,
    ) {
        if let [source] = sources {
            // One source: no sums to keep.
            let (to, from) = (source.to, values(source.row));
            for (d, &x) in row[to..to + from.len()].iter_mut().zip(from) {
                *d = self.reduce_short((u128::from(*d) << 64) + Prime::wide(x, source.coef));
            }
            return;
        }
        if scratch.len() < end {
            scratch.resize(end, 0);
        }
        // The row's own weight x enters as x·R (a high word x < p: as good
        // as a folded sum), then the products.
        for (d, &x) in scratch[lo..end].iter_mut().zip(&row[lo..end]) {
            *d = u128::from(x) << 64;
        }
        for (i, source) in sources.iter().enumerate() {
            if i > 0 && i % LAZY_TERMS == 0 {
                for d in scratch[lo..end].iter_mut() {
                    *d = Prime::fold(self, *d);
                }
            }
            let (to, from) = (source.to, values(source.row));
            for (d, &x) in scratch[to..to + from.len()].iter_mut().zip(from) {
                *d += Prime::wide(x, source.coef);
            }
        }
        if sources.len() <= SHORT_TERMS {
            for (o, &x) in row[lo..end].iter_mut().zip(&scratch[lo..end]) {
                *o = self.reduce_short(x);
            }
        } else {
            for (o, &x) in row[lo..end].iter_mut().zip(&scratch[lo..end]) {
                *o = self.reduce_wide(x);
            }
        }
    }
}
