//! Eight residue lanes side by side: one 512-bit register holds a number's
//! residues modulo eight primes below 2^50 ([`super::field::Family::Narrow`]),
//! and the 52-bit multiply-adds of AVX-512 IFMA multiply all eight at once,
//! so a job of `k` lanes runs its keep DP `⌈k/8⌉` times instead of `k`.
//!
//! Arithmetic is in Montgomery form with `R = 2^52`. A product `a·b` of
//! residues below `q < 2^50` is below `2^100`; IFMA gives its low 52 bits and
//! its high 48 bits as two 64-bit words, so a sum of products is kept as two
//! sums (`lo`, `hi`), each with room for thousands of terms, and reduced once:
//! `(hi·2^52 + lo)·2^−52 mod q` by one Montgomery step ([`Field8::redc`]).
//!
//! The register operations are [`Words8`]: [`Zmm`] on the processor, and
//! [`Lanes8`], the same operations on plain words, which runs everywhere (the
//! tests hold the two and the one-lane arithmetic to one answer).
//!
//! A computation on the narrow family keeps its weights as usual, one lane
//! after the other in the lanes' Montgomery form (`R = 2^64`); the keep DP
//! takes lanes `8g .. 8g + 8` into one register (times `2^−12`, to this
//! field's form), runs, and gives its results back (times `2^12`).

use super::lane_field::LaneField;

const LOW52: u64 = (1 << 52) - 1;

/// Eight 64-bit words and the operations [`Field8`] needs, lane by lane.
pub(crate) trait Words8: Copy + Default + Send + Sync {
    fn from_lanes(x: [u64; 8]) -> Self;
    fn lanes(self) -> [u64; 8];
    fn splat(x: u64) -> Self {
        Self::from_lanes([x; 8])
    }
    /// `self + (b·c mod 2^52)`, with `b, c < 2^52`.
    fn madd52lo(self, b: Self, c: Self) -> Self;
    /// `self + ⌊b·c / 2^52⌋`, with `b, c < 2^52`.
    fn madd52hi(self, b: Self, c: Self) -> Self;
    /// Wrapping.
    fn add(self, b: Self) -> Self;
    /// Wrapping.
    fn sub(self, b: Self) -> Self;
    /// Unsigned.
    fn min(self, b: Self) -> Self;
    fn low52(self) -> Self;
    fn shift_down52(self) -> Self;
    /// `self + 1` in the lanes where `x` is not zero.
    fn plus_one_where_nonzero(self, x: Self) -> Self;
    fn all_zero(self) -> bool;
    /// `if_set` in the lanes whose bit of `mask` is set, else `if_clear`.
    fn select(mask: u8, if_set: Self, if_clear: Self) -> Self;
}

/// [`Words8`] on plain words: the reference for [`Zmm`], and the fallback
/// where the processor has no IFMA (used by tests only: the scalar lanes are
/// faster there).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Lanes8(pub [u64; 8]);

impl Lanes8 {
    #[inline(always)]
    fn zip(self, b: Self, op: impl Fn(u64, u64) -> u64) -> Self {
        Lanes8(std::array::from_fn(|l| op(self.0[l], b.0[l])))
    }
}

impl Words8 for Lanes8 {
    fn from_lanes(x: [u64; 8]) -> Self {
        Lanes8(x)
    }
    fn lanes(self) -> [u64; 8] {
        self.0
    }
    fn madd52lo(self, b: Self, c: Self) -> Self {
        let product = b.zip(c, |b, c| {
            ((u128::from(b & LOW52) * u128::from(c & LOW52)) as u64) & LOW52
        });
        self.add(product)
    }
    fn madd52hi(self, b: Self, c: Self) -> Self {
        let product = b.zip(c, |b, c| {
            ((u128::from(b & LOW52) * u128::from(c & LOW52)) >> 52) as u64
        });
        self.add(product)
    }
    fn add(self, b: Self) -> Self {
        self.zip(b, u64::wrapping_add)
    }
    fn sub(self, b: Self) -> Self {
        self.zip(b, u64::wrapping_sub)
    }
    fn min(self, b: Self) -> Self {
        self.zip(b, u64::min)
    }
    fn low52(self) -> Self {
        self.zip(self, |a, _| a & LOW52)
    }
    fn shift_down52(self) -> Self {
        self.zip(self, |a, _| a >> 52)
    }
    fn plus_one_where_nonzero(self, x: Self) -> Self {
        self.zip(x, |a, x| a.wrapping_add(u64::from(x != 0)))
    }
    fn all_zero(self) -> bool {
        self.0 == [0; 8]
    }
    fn select(mask: u8, if_set: Self, if_clear: Self) -> Self {
        Lanes8(std::array::from_fn(|l| {
            if mask >> l & 1 == 1 {
                if_set.0[l]
            } else {
                if_clear.0[l]
            }
        }))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use zmm::Zmm;

#[cfg(target_arch = "x86_64")]
mod zmm {
    use super::{LOW52, Words8};
    use std::arch::x86_64::*;

    /// [`Words8`] in a 512-bit register. Its operations are AVX-512F and
    /// IFMA instructions: a `Zmm` is only computed on after [`super::available`]
    /// said yes, inside a function compiled for those instructions (there
    /// every operation below is inlined to one or two instructions).
    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct Zmm(__m512i);

    impl Default for Zmm {
        #[inline(always)]
        fn default() -> Zmm {
            Zmm::from_lanes([0; 8])
        }
    }

    // SAFETY (every `unsafe` block below): the instructions exist on this
    // processor, as `Zmm`s are only operated on once `available()` said so.
    impl Words8 for Zmm {
        #[inline(always)]
        fn from_lanes(x: [u64; 8]) -> Zmm {
            // SAFETY: both are 64 bytes of plain integers.
            Zmm(unsafe { std::mem::transmute::<[u64; 8], __m512i>(x) })
        }
        #[inline(always)]
        fn lanes(self) -> [u64; 8] {
            // SAFETY: both are 64 bytes of plain integers.
            unsafe { std::mem::transmute::<__m512i, [u64; 8]>(self.0) }
        }
        #[inline(always)]
        fn madd52lo(self, b: Zmm, c: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_madd52lo_epu64(self.0, b.0, c.0) })
        }
        #[inline(always)]
        fn madd52hi(self, b: Zmm, c: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_madd52hi_epu64(self.0, b.0, c.0) })
        }
        #[inline(always)]
        fn add(self, b: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_add_epi64(self.0, b.0) })
        }
        #[inline(always)]
        fn sub(self, b: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_sub_epi64(self.0, b.0) })
        }
        #[inline(always)]
        fn min(self, b: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_min_epu64(self.0, b.0) })
        }
        #[inline(always)]
        fn low52(self) -> Zmm {
            Zmm(unsafe { _mm512_and_si512(self.0, _mm512_set1_epi64(LOW52 as i64)) })
        }
        #[inline(always)]
        fn shift_down52(self) -> Zmm {
            Zmm(unsafe { _mm512_srli_epi64::<52>(self.0) })
        }
        #[inline(always)]
        fn plus_one_where_nonzero(self, x: Zmm) -> Zmm {
            Zmm(unsafe {
                let nonzero = _mm512_test_epi64_mask(x.0, x.0);
                _mm512_mask_add_epi64(self.0, nonzero, self.0, _mm512_set1_epi64(1))
            })
        }
        #[inline(always)]
        fn all_zero(self) -> bool {
            unsafe { _mm512_test_epi64_mask(self.0, self.0) == 0 }
        }
        #[inline(always)]
        fn select(mask: u8, if_set: Zmm, if_clear: Zmm) -> Zmm {
            Zmm(unsafe { _mm512_mask_blend_epi64(mask, if_clear.0, if_set.0) })
        }
    }
}

/// Whether this processor has AVX-512 IFMA (asked once), and it was not
/// turned off with `NUTSHELL_IFMA=0` (to compare the two ways).
pub(crate) fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        if std::env::var_os("NUTSHELL_IFMA").is_some_and(|v| v == "0") {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        {
            processor_has_ifma()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// Whether the processor has AVX-512F and IFMA and the system saves their
/// registers, asked with two `cpuid`s: the same answer as the standard
/// library's detection (a test checks), which asks about every feature at
/// once with about eight, and a `cpuid` costs microseconds in a virtual
/// machine, where it traps.
#[cfg(target_arch = "x86_64")]
fn processor_has_ifma() -> bool {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    const OSXSAVE: u32 = 1 << 27;
    const AVX: u32 = 1 << 28;
    // Leaf 1 exists on every x86-64 processor. With AVX, leaf 7 exists too.
    let one = __cpuid(1);
    if one.ecx & OSXSAVE == 0 || one.ecx & AVX == 0 {
        return false;
    }
    // XCR0: the system saves SSE, AVX, the mask registers and both halves
    // of the 512-bit registers (bits 1, 2, 5, 6 and 7).
    // SAFETY: OSXSAVE says the system enabled XGETBV.
    let xcr0 = unsafe { std::arch::x86_64::_xgetbv(0) };
    if xcr0 & 0xe6 != 0xe6 {
        return false;
    }
    const AVX512F: u32 = 1 << 16;
    const AVX512_IFMA: u32 = 1 << 21;
    let seven = __cpuid_count(7, 0);
    seven.ebx & AVX512F != 0 && seven.ebx & AVX512_IFMA != 0
}

#[cfg(test)]
thread_local! {
    /// Set by a test to run the eight lanes on plain words ([`Lanes8`]) on
    /// this thread although the processor has IFMA.
    pub(crate) static PLAIN_WORDS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether eight lanes side by side run in registers ([`Zmm`]), or else on
/// plain words ([`Lanes8`]).
pub(crate) fn in_registers() -> bool {
    #[cfg(test)]
    if PLAIN_WORDS.with(|plain| plain.get()) {
        return false;
    }
    available()
}

/// Arithmetic modulo eight primes `2^49 < q < 2^50` at once, in Montgomery
/// form with `R = 2^52`.
pub(crate) struct Field8<W> {
    q: W,
    q2: W,
    q4: W,
    /// `−q^−1 mod 2^52`.
    neg_inv: W,
    /// `R mod q`.
    one: W,
    /// `R² mod q`.
    r2: W,
    /// `2^40 mod q` and `2^64 mod q`: from and to the lanes' form
    /// (Montgomery with `R = 2^64`).
    enter_lanes_form: W,
    leave_to_lanes_form: W,
    /// For each bit of `q − 2` (Fermat's exponent), the lanes where it is set.
    inverse_bits: [u8; 50],
}

impl<W: Words8> Field8<W> {
    /// The field of these primes (each odd, between 2^49 and 2^50).
    pub fn new(primes: [u64; 8]) -> Field8<W> {
        assert!(
            primes.iter().all(|&q| q % 2 == 1 && q >> 49 == 1),
            "primes for Field8 lie between 2^49 and 2^50: {primes:x?}"
        );
        let each = |f: &dyn Fn(u64) -> u64| W::from_lanes(primes.map(f));
        let power_of_two = |e: u32| each(&|q| ((1u128 << e) % u128::from(q)) as u64);
        let mut inverse_bits = [0u8; 50];
        for (bit, lanes) in inverse_bits.iter_mut().enumerate() {
            for (l, &q) in primes.iter().enumerate() {
                *lanes |= (((q - 2) >> bit & 1) as u8) << l;
            }
        }
        Field8 {
            q: each(&|q| q),
            q2: each(&|q| 2 * q),
            q4: each(&|q| 4 * q),
            neg_inv: each(&|q| {
                // Newton's iteration doubles the correct low bits of q^−1.
                let mut inv = q;
                for _ in 0..6 {
                    inv = inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(inv)));
                }
                inv.wrapping_neg() & LOW52
            }),
            one: power_of_two(52),
            r2: power_of_two(104),
            enter_lanes_form: power_of_two(40),
            leave_to_lanes_form: power_of_two(64),
            inverse_bits,
        }
    }

    /// `(hi·2^52 + lo)·2^−52 mod q`, for `hi < q + 16·2^48 + 16` and
    /// `lo < 16·2^52` (a residue and sixteen products at most: see
    /// [`LaneField::FOLD_TERMS`]).
    ///
    /// With `l` the low 52 bits of the sum and `m = l·(−q^−1) mod 2^52`,
    /// `l + m·q` is `0` (when `l = 0`) or exactly `2^52`, so the result is
    /// `h + ⌊m·q/2^52⌋ + [l ≠ 0]`, below `8q`, and three conditional
    /// subtractions (as unsigned minimums) bring it under `q`.
    #[inline(always)]
    fn redc(&self, lo: W, hi: W) -> W {
        let h = hi.add(lo.shift_down52());
        let l = lo.low52();
        let m = W::default().madd52lo(l, self.neg_inv);
        let r = h.madd52hi(m, self.q).plus_one_where_nonzero(l);
        let r = r.min(r.sub(self.q4));
        let r = r.min(r.sub(self.q2));
        r.min(r.sub(self.q))
    }

    /// Residues in the lanes' form (`x·2^64 mod q`, eight lanes) in this
    /// field's (`x·2^52`).
    #[inline(always)]
    pub fn enter_lanes_form(&self, x: [u64; 8]) -> W {
        self.mul(W::from_lanes(x), self.enter_lanes_form)
    }

    /// The inverse of [`Field8::enter_lanes_form`].
    #[inline(always)]
    pub fn leave_to_lanes_form(&self, x: W) -> [u64; 8] {
        self.mul(x, self.leave_to_lanes_form).lanes()
    }
}

impl<W: Words8> LaneField for Field8<W> {
    type E = W;
    /// The sums of the low and of the high 52 bits of the products.
    type Acc = (W, W);
    /// `16·2^48 ≤ 4q + 2^14`, so a residue and sixteen products keep
    /// [`Field8::redc`]'s result below `8q`.
    const FOLD_TERMS: usize = 16;

    #[inline(always)]
    fn one(&self) -> W {
        self.one
    }

    #[inline(always)]
    fn small(&self, n: u64) -> W {
        self.mul(W::splat(n), self.r2)
    }

    #[inline(always)]
    fn add(&self, a: W, b: W) -> W {
        let s = a.add(b);
        s.min(s.sub(self.q))
    }

    #[inline(always)]
    fn sub(&self, a: W, b: W) -> W {
        let d = a.sub(b);
        d.min(d.add(self.q))
    }

    #[inline(always)]
    fn mul(&self, a: W, b: W) -> W {
        let zero = W::default();
        self.redc(zero.madd52lo(a, b), zero.madd52hi(a, b))
    }

    /// By Fermat, `a^(q−2)`, each lane with its own exponent.
    #[inline(always)]
    fn inv(&self, a: W) -> W {
        let mut acc = self.one;
        for &lanes in self.inverse_bits.iter().rev() {
            acc = self.mul(acc, acc);
            acc = W::select(lanes, self.mul(acc, a), acc);
        }
        acc
    }

    #[inline(always)]
    fn is_zero(&self, a: W) -> bool {
        a.all_zero()
    }

    #[inline(always)]
    fn acc_zero(&self) -> (W, W) {
        (W::default(), W::default())
    }

    #[inline(always)]
    fn acc_with(&self, x: W) -> (W, W) {
        (W::default(), x)
    }

    #[inline(always)]
    fn mul_add(&self, (lo, hi): (W, W), a: W, b: W) -> (W, W) {
        (lo.madd52lo(a, b), hi.madd52hi(a, b))
    }

    #[inline(always)]
    fn fold(&self, acc: (W, W)) -> (W, W) {
        self.acc_with(self.reduce(acc))
    }

    #[inline(always)]
    fn reduce(&self, (lo, hi): (W, W)) -> W {
        self.redc(lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::field::{Family, Prime, primes_of};

    fn primes8() -> ([u64; 8], Vec<Prime>) {
        let lanes = primes_of(Family::Narrow, 8);
        (std::array::from_fn(|l| lanes[l].p), lanes)
    }

    /// Products, sums of up to FOLD_TERMS of the largest products on the
    /// largest residue, folds, inverses and the change of form: lane by lane
    /// the same as the one-lane arithmetic of the same primes.
    fn agrees_with_one_lane<W: Words8>(field: &Field8<W>) {
        let (_, lanes) = primes8();
        let top: [u64; 8] = std::array::from_fn(|l| lanes[l].p - 1);
        let values: Vec<[u64; 8]> = vec![
            top,
            [0, 1, 2, 3, 4, 5, 6, 7],
            std::array::from_fn(|l| lanes[l].p / 2 + l as u64),
            std::array::from_fn(|l| (0x1234_5678_9abc_u64 * (l as u64 + 1)) % lanes[l].p),
        ];
        // In the lanes' form and back.
        for v in &values {
            let entered: [u64; 8] = std::array::from_fn(|l| lanes[l].enter(v[l]));
            let x = field.enter_lanes_form(entered);
            assert_eq!(field.leave_to_lanes_form(x), entered);
        }
        // Every result is a residue: below its prime in each lane.
        let canonical = |x: W| {
            let words = x.lanes();
            assert!((0..8).all(|l| words[l] < lanes[l].p), "{words:x?}");
            x
        };
        let enter = |v: &[u64; 8]| {
            canonical(field.enter_lanes_form(std::array::from_fn(|l| lanes[l].enter(v[l]))))
        };
        let leave = |x: W| {
            let back = field.leave_to_lanes_form(canonical(x));
            std::array::from_fn::<u64, 8, _>(|l| lanes[l].leave(back[l]))
        };
        for a in &values {
            for b in &values {
                let expected: [u64; 8] = std::array::from_fn(|l| {
                    ((u128::from(a[l]) * u128::from(b[l])) % u128::from(lanes[l].p)) as u64
                });
                assert_eq!(leave(field.mul(enter(a), enter(b))), expected);
                let sum: [u64; 8] = std::array::from_fn(|l| (a[l] + b[l]) % lanes[l].p);
                assert_eq!(leave(field.add(enter(a), enter(b))), sum);
                let diff: [u64; 8] =
                    std::array::from_fn(|l| (a[l] + lanes[l].p - b[l]) % lanes[l].p);
                assert_eq!(leave(field.sub(enter(a), enter(b))), diff);
            }
        }
        // The worst lazy sums: the largest residue, then FOLD_TERMS products
        // of the largest residues, folded, and again.
        let t = enter(&top);
        let mut acc = field.acc_with(t);
        let mut expected = t;
        for round in 0..3 {
            for _ in 0..Field8::<W>::FOLD_TERMS {
                acc = field.mul_add(acc, t, t);
                expected = field.add(expected, field.mul(t, t));
            }
            assert_eq!(
                canonical(field.reduce(acc)).lanes(),
                expected.lanes(),
                "round {round}"
            );
            acc = field.fold(acc);
        }
        let x = enter(&values[3]);
        assert_eq!(leave(field.mul(x, field.inv(x))), [1; 8]);
        assert_eq!(leave(field.small(41)), [41; 8]);
        assert_eq!(leave(field.one()), [1; 8]);
        assert!(field.is_zero(field.sub(x, x)) && !field.is_zero(x));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_processor_is_asked_as_the_standard_library_asks() {
        assert_eq!(
            processor_has_ifma(),
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512ifma")
        );
    }

    #[test]
    fn eight_lanes_on_plain_words_agree_with_one_lane() {
        agrees_with_one_lane(&Field8::<Lanes8>::new(primes8().0));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn eight_lanes_in_a_register_agree_with_one_lane() {
        if !available() {
            eprintln!("no AVX-512 IFMA here: the register path is not tested");
            return;
        }
        #[target_feature(enable = "avx512f,avx512ifma")]
        fn run() {
            agrees_with_one_lane(&Field8::<Zmm>::new(primes8().0));
        }
        // SAFETY: available() said the processor has these features.
        unsafe { run() }
    }
}
