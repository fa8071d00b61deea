//! Many fights: who wins how often, with confidence intervals, how long fights
//! last, and each combatant's chance to end unconscious or dead. One worker
//! runs its share on one thread; front ends spread workers over cores and
//! [`Tally::merge`] their tallies; `nutshell_dice::simulate::wilson` gives
//! the confidence intervals.

use crate::error::FightError;
use crate::fight::{Fight, FightOptions};
use crate::health::State;
use crate::sheet::Side;
use nutshell_dice::Seeded;

/// Counts over many fights.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tally {
    /// Fights run.
    pub fights: u64,
    /// Fights won by side 0 and side 1.
    pub wins: [u64; 2],
    /// Fights drawn.
    pub draws: u64,
    /// Turns summed over all fights.
    pub turns: u64,
    /// Per combatant (file order): fights it ended unconscious, dead, escaped.
    pub unconscious: Vec<u64>,
    /// See `unconscious`.
    pub dead: Vec<u64>,
    /// See `unconscious`.
    pub escaped: Vec<u64>,
}

/// The seed of fight number `index` of a run seeded with `seed`: a SplitMix64
/// step, so every fight has its own reproducible stream whichever worker runs it.
pub fn fight_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Tally {
    /// Runs fights `range` of a run seeded with `seed` (each from
    /// [`fight_seed`]), calling `progress` after each.
    pub fn run(
        sides: &[Side; 2],
        options: &FightOptions,
        seed: u64,
        range: std::ops::Range<u64>,
        progress: &dyn Fn(),
    ) -> Result<Tally, FightError> {
        let options = FightOptions {
            log: false,
            ..options.clone()
        };
        let template = Fight::new(sides.clone(), options)?;
        let n = template.fighters().len();
        let mut tally = Tally {
            unconscious: vec![0; n],
            dead: vec![0; n],
            escaped: vec![0; n],
            ..Tally::default()
        };
        for index in range {
            let mut fight = template.clone();
            let ending = fight.run(&mut Seeded::new(fight_seed(seed, index)))?;
            tally.fights += 1;
            tally.turns += u64::from(ending.turns);
            match ending.winner {
                Some(w) => tally.wins[w] += 1,
                None => tally.draws += 1,
            }
            for (i, f) in fight.fighters().iter().enumerate() {
                match f.state {
                    State::Unconscious(_) => tally.unconscious[i] += 1,
                    State::Dead => tally.dead[i] += 1,
                    State::Escaped => tally.escaped[i] += 1,
                    State::Standing => {}
                }
            }
            progress();
        }
        Ok(tally)
    }

    /// Adds another worker's counts.
    pub fn merge(mut self, other: Tally) -> Tally {
        if self.unconscious.is_empty() {
            return other;
        }
        self.fights += other.fights;
        self.draws += other.draws;
        self.turns += other.turns;
        for s in 0..2 {
            self.wins[s] += other.wins[s];
        }
        for (a, b) in [
            (&mut self.unconscious, &other.unconscious),
            (&mut self.dead, &other.dead),
            (&mut self.escaped, &other.escaped),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}
