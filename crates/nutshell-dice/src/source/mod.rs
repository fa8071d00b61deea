//! Where faces come from: one trait, several sources.
//!
//! - [`Seeded`]: ChaCha8 from a 64-bit seed, the whole algorithm pinned in this
//!   crate (see [`chacha`] and [`below`]), so a seed gives the same faces on every
//!   platform and in every future version;
//! - [`Entropy`]: the same generator keyed from the operating system's entropy
//!   (feature `os-entropy`, on by default);
//! - [`Scripted`]: faces typed in from physical dice, and every test that needs
//!   exact faces;
//! - [`Random`] over any [`RandomBits`], such as [`Xoshiro256`] for fast simulation.

pub mod chacha;
mod scripted;
mod xoshiro;

pub use chacha::ChaCha8;
pub use scripted::Scripted;
pub use xoshiro::Xoshiro256;

use crate::plan::Faces;

/// Why a source could not give a face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceError {
    /// A scripted source has no faces left.
    Exhausted {
        /// How many faces it was given.
        given: usize,
    },
    /// A scripted face that the die cannot show.
    NotOnDie {
        /// The face given.
        face: i64,
    },
}

/// Gives the face of one die.
///
/// A source sees only the faces of the die, one die at a time, in the order the
/// transcript lists the dice. Digit rolls (`d66`) ask for each digit as a d6.
pub trait DiceSource {
    /// The face the die shows.
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError>;
}

impl<S: DiceSource + ?Sized> DiceSource for &mut S {
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        (**self).draw(faces)
    }
}

impl<S: DiceSource + ?Sized> DiceSource for Box<S> {
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        (**self).draw(faces)
    }
}

/// A stream of uniformly random 32-bit words.
pub trait RandomBits {
    /// The next word.
    fn next_u32(&mut self) -> u32;
}

/// A uniform integer in `0..n` (`n >= 1`) from 32-bit words, without modulo bias.
///
/// This is D. Lemire's multiply-and-reject method, pinned here: `x * n` as a
/// 64-bit product, the high word is the result unless the low word falls below
/// `2^32 mod n`, in which case a new word is drawn. For a d6 a word is rejected
/// with probability 4 in 2^32.
///
/// ```
/// use nutshell_dice::source::{below, ChaCha8};
/// let mut rng = ChaCha8::from_seed(7);
/// assert!((0..1000).all(|_| below(&mut rng, 6) < 6));
/// ```
#[inline(always)]
pub fn below<R: RandomBits + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n >= 1);
    let mut product = u64::from(rng.next_u32()) * u64::from(n);
    let mut low = product as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
            low = product as u32;
        }
    }
    (product >> 32) as u32
}

/// Fair dice from any stream of random words.
#[derive(Clone, Debug)]
pub struct Random<R> {
    bits: R,
}

impl<R: RandomBits> Random<R> {
    /// Dice drawn from `bits`.
    pub fn new(bits: R) -> Random<R> {
        Random { bits }
    }

    /// The underlying generator.
    pub fn bits(&mut self) -> &mut R {
        &mut self.bits
    }
}

impl<R: RandomBits> DiceSource for Random<R> {
    #[inline(always)]
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        // Faces::len is at most MAX_FACES = u32::MAX, checked when the plan is made.
        let index = below(&mut self.bits, faces.len() as u32);
        Ok(faces.nth(u64::from(index)))
    }
}

/// Reproducible dice: the same seed gives the same faces everywhere, forever.
///
/// ```
/// use nutshell_dice::{Expression, Seeded};
/// let expr = Expression::parse("4d6kh3")?;
/// let a = expr.roll(&mut Seeded::new(2024))?.total;
/// let b = expr.roll(&mut Seeded::new(2024))?.total;
/// assert_eq!(a, b);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Seeded(Random<ChaCha8>);

impl Seeded {
    /// Dice from `seed` (see [`ChaCha8::from_seed`]).
    pub fn new(seed: u64) -> Seeded {
        Seeded(Random::new(ChaCha8::from_seed(seed)))
    }

    /// Dice keyed with 256 bits (read as eight little-endian words), stream 0:
    /// the verifiable dice of `nutshell serve`, where the key is an
    /// HMAC-SHA256 of the room's secret seed and the roll's record. The same
    /// key gives the same faces on every machine, forever.
    ///
    /// ```
    /// use nutshell_dice::{DiceSource, Faces, Seeded};
    /// let mut a = Seeded::from_key([7; 32]);
    /// let mut b = Seeded::from_key([7; 32]);
    /// let d20 = Faces::standard(20);
    /// assert_eq!(a.draw(&d20).unwrap(), b.draw(&d20).unwrap());
    /// ```
    pub fn from_key(key: [u8; 32]) -> Seeded {
        let mut words = [0u32; 8];
        for (word, chunk) in words.iter_mut().zip(key.chunks_exact(4)) {
            *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        Seeded(Random::new(ChaCha8::new(words, 0)))
    }
}

impl DiceSource for Seeded {
    #[inline(always)]
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        self.0.draw(faces)
    }
}

/// Fair dice from the same generator as [`Seeded`], keyed with 256 bits and a
/// stream id from the operating system's entropy.
#[cfg(feature = "os-entropy")]
#[derive(Clone, Debug)]
pub struct Entropy(Random<ChaCha8>);

#[cfg(feature = "os-entropy")]
impl Entropy {
    /// Asks the operating system for a key.
    pub fn new() -> Result<Entropy, getrandom::Error> {
        let mut bytes = [0u8; 40];
        getrandom::fill(&mut bytes)?;
        let mut key = [0u32; 8];
        for (word, chunk) in key.iter_mut().zip(bytes.chunks_exact(4)) {
            *word = u32::from_le_bytes(chunk.try_into().expect("four bytes"));
        }
        let stream = u64::from_le_bytes(bytes[32..40].try_into().expect("eight bytes"));
        Ok(Entropy(Random::new(ChaCha8::new(key, stream))))
    }
}

#[cfg(feature = "os-entropy")]
impl DiceSource for Entropy {
    #[inline(always)]
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        self.0.draw(faces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The faces of `4d6` for seed 1 are pinned forever: a change here breaks
    /// every reproducible roll users have shared.
    /// The faces of a keyed generator are pinned as well: `nutshell verify`
    /// recomputes old server rolls with it.
    #[test]
    fn keyed_faces_are_pinned() {
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = i as u8;
        }
        let mut dice = Seeded::from_key(key);
        let d20 = Faces::standard(20);
        let faces: Vec<i64> = (0..8).map(|_| dice.draw(&d20).unwrap()).collect();
        assert_eq!(faces, PINNED_KEY_0_TO_31_D20);
    }

    #[test]
    fn seeded_faces_are_pinned() {
        let mut dice = Seeded::new(1);
        let d6 = Faces::standard(6);
        let faces: Vec<i64> = (0..12).map(|_| dice.draw(&d6).unwrap()).collect();
        assert_eq!(faces, PINNED_SEED_1_D6);
        let d20 = Faces::standard(20);
        let mut dice = Seeded::new(u64::MAX);
        let faces: Vec<i64> = (0..8).map(|_| dice.draw(&d20).unwrap()).collect();
        assert_eq!(faces, PINNED_SEED_MAX_D20);
    }

    const PINNED_KEY_0_TO_31_D20: [i64; 8] = [12, 9, 10, 4, 4, 7, 17, 16];
    const PINNED_SEED_1_D6: [i64; 12] = [3, 2, 2, 2, 1, 6, 3, 4, 1, 5, 3, 1];
    const PINNED_SEED_MAX_D20: [i64; 8] = [19, 19, 2, 5, 12, 4, 19, 10];

    struct Words(Vec<u32>);
    impl RandomBits for Words {
        fn next_u32(&mut self) -> u32 {
            self.0.remove(0)
        }
    }

    #[test]
    fn below_rejects_the_biased_low_words() {
        // n = 6: threshold = 2^32 mod 6 = 4. Word 0 gives low word 0 < 4: rejected.
        let mut words = Words(vec![0, u32::MAX]);
        assert_eq!(below(&mut words, 6), 5);
        assert!(words.0.is_empty());
        // A word whose low product is at or above the threshold is used at once.
        let mut words = Words(vec![(1 << 31) + 1, 7]);
        assert_eq!(below(&mut words, 6), 3);
        assert_eq!(words.0, vec![7]);
    }

    #[test]
    fn below_is_uniform_over_a_small_range() {
        let mut rng = ChaCha8::from_seed(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        // Each count is Binomial(60000, 1/6): mean 10000, sd ~91; 5 sd is 456.
        assert!(
            counts.iter().all(|&c| (9_544..=10_456).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_die_with_one_face_always_shows_it() {
        let mut dice = Seeded::new(9);
        assert_eq!(dice.draw(&Faces::List(&[7])).unwrap(), 7);
    }

    #[cfg(feature = "os-entropy")]
    #[test]
    fn entropy_gives_faces_on_the_die() {
        let mut dice = Entropy::new().unwrap();
        let d6 = Faces::standard(6);
        assert!((0..100).all(|_| (1..=6).contains(&dice.draw(&d6).unwrap())));
    }
}
