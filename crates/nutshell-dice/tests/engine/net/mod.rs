//! The differential net (issue 23, docs/fuzzing.md): expressions generated
//! the way people type them, each checked by oracles that share no code with
//! the exact engine's shortcuts. `1d20 + 5 - 2 >= 10` once came out 0 because
//! partial sums were capped before a later subtraction; the random test
//! before this one only wrote `(a) - (b)` in brackets and never saw it.
//!
//! `cargo test` runs a few hundred seeded cases. For a longer run:
//!
//! ```text
//! NUTSHELL_NET_CASES=100000 cargo test -p nutshell-dice --test engine net:: -- --nocapture
//! ```
//!
//! `NUTSHELL_NET_SEED` starts from another seed (the default is fixed, so a
//! plain `cargo test` always runs the same cases); a failure names the seed
//! of its case, and `NUTSHELL_NET_SEED=<seed> NUTSHELL_NET_CASES=1` replays it.

pub mod chi_square;
mod generate;
mod oracles;
mod rng;
mod sums;

use crate::enumerate::enumerate;
use generate::Generator;
use num_traits::Zero;
use nutshell_dice::{ExactError, Expression, Limits};

/// The seed of the first case of a plain `cargo test`.
const DEFAULT_SEED: u64 = 0x2023_0023;
/// Cases of a plain `cargo test`.
const DEFAULT_CASES: u64 = 300;
/// Samples per case for the chi-square test.
const SAMPLES: u64 = 20_000;
/// The chi-square test's significance: a correct engine fails one case in a
/// billion, so a run of 100,000 cases flakes once in ten thousand runs.
const ALPHA: f64 = 1e-9;
/// Face sequences enumerated at most, for the cases meant to be small and
/// for the others.
const SEQUENCES_SMALL: usize = 20_000;
const SEQUENCES_OTHER: usize = 2_000;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => {
            let text = text.trim();
            let parsed = match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={text} is not a whole number"))
        }
        Err(_) => default,
    }
}

/// Limits for the oracles that compare with exact odds as a user gets them
/// (explosions followed until the tail is below 1e-12), smaller work limits
/// so each case stays fast.
fn table_limits() -> Limits {
    Limits {
        max_work: 50_000_000,
        max_outcomes: 200_000,
        ..Limits::default()
    }
}

/// Limits for enumeration: one explosion per die, followed to the limit by
/// exact odds too (no tail threshold), so both see the same rolls.
fn enumeration_limits() -> Limits {
    Limits {
        max_repeats_per_die: 1,
        tail_digits: 0,
        ..table_limits()
    }
}

/// What a run did: how many cases reached each oracle.
#[derive(Default, Debug)]
pub struct Tally {
    pub cases: u64,
    pub parsed: u64,
    pub exact: u64,
    pub declined: u64,
    pub may_fail: u64,
    pub enumerated: u64,
    /// Enumerated again under a higher explosion limit.
    pub deeper: u64,
    pub laws: u64,
    pub capped: u64,
    pub cut: u64,
    pub complement: u64,
    pub shift: u64,
    pub difference: u64,
    pub sampled: u64,
    pub past_max_dice: u64,
    pub failures: Vec<Failure>,
    pub unparsed: Vec<String>,
    /// Time spent in each oracle: enumeration, laws, sampling.
    pub spent: [std::time::Duration; 3],
}

#[derive(Debug)]
pub struct Failure {
    pub seed: u64,
    pub text: String,
    pub oracle: &'static str,
    pub why: String,
}

impl Tally {
    fn fail(&mut self, seed: u64, text: &str, oracle: &'static str, why: String) {
        self.failures.push(Failure {
            seed,
            text: text.to_string(),
            oracle,
            why,
        });
    }

    fn failed_cases(&self) -> usize {
        let mut seeds: Vec<u64> = self.failures.iter().map(|f| f.seed).collect();
        seeds.dedup();
        seeds.len()
    }

    /// Cases failed by each oracle (a case may fail several).
    fn failed_by(&self, oracle: &str) -> usize {
        self.failures.iter().filter(|f| f.oracle == oracle).count()
    }

    fn summary(&self) -> String {
        format!(
            "{} cases: {} parsed, {} exact ({} declined for size or feature, {} may fail), \
             {} enumerated ({} deeper), {} with laws (cut {}, capped {}, complement {}, shift {}, \
             difference {}), \
             {} sampled ({} rolls past max_dice); {} cases failed (enumeration {}, laws {}, \
             sampling {}); \
             seconds in enumeration {:.1}, laws {:.1}, sampling {:.1}",
            self.cases,
            self.parsed,
            self.exact,
            self.declined,
            self.may_fail,
            self.enumerated,
            self.deeper,
            self.laws,
            self.cut,
            self.capped,
            self.complement,
            self.shift,
            self.difference,
            self.sampled,
            self.past_max_dice,
            self.failed_cases(),
            self.failed_by("enumeration"),
            self.failed_by("law"),
            self.failed_by("sampling"),
            self.spent[0].as_secs_f64(),
            self.spent[1].as_secs_f64(),
            self.spent[2].as_secs_f64(),
        )
    }
}

/// Runs the oracles over `cases` cases from `first_seed`.
pub fn run(first_seed: u64, cases: u64, samples: u64) -> Tally {
    let mut tally = Tally::default();
    for i in 0..cases {
        let seed = first_seed.wrapping_add(i);
        check(seed, samples, &mut tally);
    }
    tally
}

fn check(seed: u64, samples: u64, tally: &mut Tally) {
    let case = Generator::new(seed).case();
    let text = case.text.as_str();
    tally.cases += 1;
    let limits = table_limits();
    let expr = match Expression::parse_with(text, &limits) {
        Ok(expr) => expr,
        Err(_) => {
            tally.unparsed.push(case.text.clone());
            return;
        }
    };
    tally.parsed += 1;

    // Enumeration, under one explosion per die and a small dice limit.
    let small = Limits {
        max_dice: 12,
        ..enumeration_limits()
    };
    if let (Ok(exact_expr), Ok(dice_expr)) = (
        Expression::parse_with(text, &enumeration_limits()),
        Expression::parse_with(text, &small),
    ) {
        let most = if case.small {
            SEQUENCES_SMALL
        } else {
            SEQUENCES_OTHER
        };
        let start = std::time::Instant::now();
        if let Some(all) = enumerate(&dice_expr, most) {
            tally.enumerated += 1;
            // Rolls left unfinished at one explosion per die: look one
            // explosion deeper, where that is still small.
            let deeper_limits = Limits {
                max_repeats_per_die: 3,
                max_dice: 16,
                ..small
            };
            let deeper = match all.unresolved.is_zero() {
                true => None,
                false => Expression::parse_with(text, &deeper_limits)
                    .ok()
                    .and_then(|e| enumerate(&e, most)),
            };
            tally.deeper += u64::from(deeper.is_some());
            let exact = exact_expr.distribution();
            if let Err(why) = oracles::against_enumeration(&exact, &all, deeper.as_ref()) {
                tally.fail(seed, text, "enumeration", why);
            }
        }
        tally.spent[0] += start.elapsed();
    }

    let d = match expr.distribution() {
        Ok(d) => d,
        Err(ExactError::MayFail { .. }) => {
            tally.may_fail += 1;
            return;
        }
        Err(_) => {
            tally.declined += 1;
            return;
        }
    };
    tally.exact += 1;

    let start = std::time::Instant::now();
    match oracles::exact(&case.sum, &limits) {
        Ok(Some(sum)) => match oracles::laws(&case, &sum, &limits, seed) {
            Ok(done) => {
                tally.laws += u64::from(done.cut || done.complement || done.shift);
                tally.cut += u64::from(done.cut);
                tally.capped += u64::from(done.capped);
                tally.complement += u64::from(done.complement);
                tally.shift += u64::from(done.shift);
                tally.difference += u64::from(done.difference);
            }
            Err(why) => tally.fail(seed, text, "law", why),
        },
        Ok(None) => {}
        Err(why) => tally.fail(seed, text, "law", why),
    }
    tally.spent[1] += start.elapsed();
    let start = std::time::Instant::now();
    match oracles::sampling(&expr, &d, samples, seed ^ 0x5EED, ALPHA) {
        Ok(found) => {
            tally.sampled += 1;
            tally.past_max_dice += found.too_many_dice;
        }
        Err(why) => tally.fail(seed, text, "sampling", why),
    }
    tally.spent[2] += start.elapsed();
}

/// Panics with every failure found (up to a screenful), after the summary.
fn report(tally: &Tally) {
    println!("differential net: {}", tally.summary());
    if tally.failures.is_empty() {
        return;
    }
    let mut text = format!(
        "{} of {} cases failed:\n",
        tally.failed_cases(),
        tally.cases
    );
    for f in tally.failures.iter().take(40) {
        text.push_str(&format!(
            "  seed {:#x} `{}` ({}): {}\n",
            f.seed, f.text, f.oracle, f.why
        ));
    }
    if tally.failures.len() > 40 {
        text.push_str(&format!("  ... and {} more\n", tally.failures.len() - 40));
    }
    panic!("{text}");
}

/// The net over a few hundred seeded cases (more with `NUTSHELL_NET_CASES`).
#[test]
fn the_exact_engine_survives_the_differential_net() {
    let seed = env_u64("NUTSHELL_NET_SEED", DEFAULT_SEED);
    let cases = env_u64("NUTSHELL_NET_CASES", DEFAULT_CASES);
    let samples = env_u64("NUTSHELL_NET_SAMPLES", SAMPLES);
    let tally = run(seed, cases, samples);
    report(&tally);
    // The net must reach its oracles, or it proves nothing.
    if cases >= 100 {
        let share = |n: u64| n * 100 / tally.cases;
        assert!(share(tally.parsed) >= 95, "{}", tally.summary());
        assert!(share(tally.exact) >= 60, "{}", tally.summary());
        assert!(share(tally.enumerated) >= 30, "{}", tally.summary());
        assert!(share(tally.laws) >= 40, "{}", tally.summary());
        assert!(share(tally.sampled) >= 55, "{}", tally.summary());
    }
}
