//! xoshiro256++ (Blackman and Vigna): a fast generator for Monte Carlo simulation.

use super::RandomBits;

/// xoshiro256++, seeded through SplitMix64. Not for reproducible rolls users
/// share (that is [`super::Seeded`]), but fast for millions of simulated rolls.
#[derive(Clone, Debug)]
pub struct Xoshiro256 {
    s: [u64; 4],
    spare: Option<u32>,
}

impl Xoshiro256 {
    /// A generator whose state is four SplitMix64 outputs of `seed`.
    pub fn from_seed(seed: u64) -> Xoshiro256 {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Xoshiro256 {
            s: [next(), next(), next(), next()],
            spare: None,
        }
    }

    /// The next 64-bit output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A generator for the `index`-th of many parallel workers: its state comes
    /// from SplitMix64 of `seed` and `index` together, so each worker's stream
    /// starts at an unrelated point of the 2^256 - 1 cycle (overlap between
    /// streams of realistic length is vanishingly unlikely). Cheap for any
    /// index, unlike jumping ahead `index` times.
    pub fn for_worker(seed: u64, index: u64) -> Xoshiro256 {
        let mixed =
            Xoshiro256::from_seed(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95)).next_u64();
        Xoshiro256::from_seed(mixed ^ index)
    }

    /// Advances the state by 2^128 steps.
    pub fn jump(&mut self) {
        const JUMP: [u64; 4] = [
            0x180e_c6d3_3cfd_0aba,
            0xd5a6_1266_f0c9_392c,
            0xa958_2618_e03f_c9aa,
            0x39ab_dc45_29b1_661c,
        ];
        let mut acc = [0u64; 4];
        for word in JUMP {
            for bit in 0..64 {
                if word & (1 << bit) != 0 {
                    for (a, s) in acc.iter_mut().zip(self.s) {
                        *a ^= s;
                    }
                }
                self.next_u64();
            }
        }
        self.s = acc;
        self.spare = None;
    }
}

impl RandomBits for Xoshiro256 {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if let Some(word) = self.spare.take() {
            return word;
        }
        let x = self.next_u64();
        self.spare = Some((x >> 32) as u32);
        x as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference output of xoshiro256++ from the state {1, 2, 3, 4}.
    #[test]
    fn matches_the_reference_implementation() {
        let mut rng = Xoshiro256 {
            s: [1, 2, 3, 4],
            spare: None,
        };
        let out: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(out, [41943041, 58720359, 3588806011781223]);
    }

    #[test]
    fn workers_get_different_streams() {
        let mut a = Xoshiro256::for_worker(5, 0);
        let mut b = Xoshiro256::for_worker(5, 1);
        assert_ne!(a.next_u64(), b.next_u64());
    }
}
