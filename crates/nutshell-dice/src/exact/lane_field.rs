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
    /// This one goes place by place with the sum in registers; a field may
    /// do better.
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
        for (s, place) in row[lo..end].iter_mut().enumerate() {
            let s = s + lo;
            let mut acc = self.acc_with(*place);
            let mut terms = 0;
            for source in sources {
                let from = values(source.row);
                if s < source.to || s - source.to >= from.len() {
                    continue;
                }
                if terms == Self::FOLD_TERMS {
                    acc = self.fold(acc);
                    terms = 0;
                }
                acc = self.mul_add(acc, from[s - source.to], source.coef);
                terms += 1;
            }
            *place = self.reduce(acc);
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
