//! Seeded rolls pinned (issue 38, item 7): the same seed gives the same faces,
//! the same transcript and the same totals, whatever the roll path is made of.
//! Written before the roll path was made faster, so that any change to which
//! words of the stream a die uses, to the faces drawn or to what the
//! transcript records shows up here.

use nutshell_dice::{Expression, Seeded, Transcript};

/// Expressions of every shape the roll path treats apart: plain dice, keep
/// and drop of one die and of several, explosions, rerolls, clamps, counting,
/// groups (pooled or not), digit rolls, fixed faces, computed counts and sides.
const PINNED: &[Pin] = &[
    Pin {
        text: "4d6kh3+2",
        first: "4d6kh3 + 2 = [3, 6, (3), 4] + 2 = 15",
        sum: 28476,
        digest: 0x864c8766e3d17f2d,
    },
    Pin {
        text: "1d20+5",
        first: "1d20 + 5 = [9] + 5 = 14",
        sum: 30477,
        digest: 0x77c5e7dbad44bd0b,
    },
    Pin {
        text: "2d20kh1+3",
        first: "2d20kh1 + 3 = [(9), 18] + 3 = 21",
        sum: 33434,
        digest: 0x4de173a84a5513ab,
    },
    Pin {
        text: "2d20kl1",
        first: "2d20kl1 = [9, (18)] = 9",
        sum: 14393,
        digest: 0xdb0c038d8f6e39e5,
    },
    Pin {
        text: "8d6",
        first: "8d6 = [3, 6, 3, 4, 6, 2, 4, 6] = 34",
        sum: 55854,
        digest: 0x7de77b1208281bc2,
    },
    Pin {
        text: "3d6",
        first: "3d6 = [3, 6, 3] = 12",
        sum: 20945,
        digest: 0x567c17141d638dd0,
    },
    Pin {
        text: "4d6dl1",
        first: "4d6dl1 = [3, 6, (3), 4] = 13",
        sum: 24476,
        digest: 0x864c8766e3d17f2d,
    },
    Pin {
        text: "6d6kh3",
        first: "6d6kh3 = [(3), 6, (3), 4, 6, (2)] = 16",
        sum: 28472,
        digest: 0xdf14e1e4e30855d9,
    },
    Pin {
        text: "5d6dh2",
        first: "5d6dh2 = [3, (6), 3, 4, (6)] = 10",
        sum: 15081,
        digest: 0xc3c456fe32e98b07,
    },
    Pin {
        text: "10d6!",
        first: "10d6! = [3, 6!+3, 4, 6!+2, 4, 6!+6!+4, 4, 1, 5, 6!+4] = 64",
        sum: 83665,
        digest: 0xa3f287b7e51ee86e,
    },
    Pin {
        text: "8d10>=7",
        first: "8d10>=7 = [5, 9✓, 4, 6, 9✓, 2, 7✓, 9✓] = 4",
        sum: 6338,
        digest: 0xc9d851e1569e9636,
    },
    Pin {
        text: "{3d6, 2d8+1}kh1",
        first: "{3d6, 2d8 + 1}kh1 = {([3, 6, 3] = 12), [5, 7] + 1 = 13} = 13",
        sum: 24047,
        digest: 0x1c092735904e0337,
    },
    Pin {
        text: "{4d6+3d8}kh4",
        first: "{4d6 + 3d8}kh4 = {[(3), 6, (3), 4] + [7, (2), 6]} = 23",
        sum: 41666,
        digest: 0x6aad51c49014cbe2,
    },
    Pin {
        text: "2d6r1 + 3d6min2max5",
        first: "2d6r1 + 3d6min2max5 = [3, 6] + [3, 4, 6↓5] = 21",
        sum: 36953,
        digest: 0x4679bd01ba4bdc12,
    },
    Pin {
        text: "d66 + 1d% + 4dF",
        first: "1d66 + 1d100 + 4dF = [36] + [38] + [0, 1, -1, 0] = 74",
        sum: 175751,
        digest: 0x3f195f37c17650f2,
    },
    Pin {
        text: "maximize(2d6) + nominal(1d8) + (1d4)d6 + 1d(1d6+2)",
        first: "maximize(2d6) + nominal(1d8) + (1d4)d6 + 1d(1d6 + 2) = maximize([6, 6]) + nominal([1]) + ([2])d6[6, 3] + 1d([4] + 2)[6] = 28",
        sum: 50047,
        digest: 0xd787a311813f1cd6,
    },
];

/// What seed 2024 gives for one expression: the first roll as rendered, the
/// sum of the totals of 2,000 rolls with one reused roller, and a digest of
/// those 2,000 transcripts.
struct Pin {
    text: &'static str,
    first: &'static str,
    sum: i64,
    digest: u64,
}

/// FNV-1a over the transcript's debug form: every record, every field.
fn digest(hash: &mut u64, transcript: &Transcript) {
    for byte in format!("{transcript:?}").bytes() {
        *hash ^= u64::from(byte);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The first render, the sum and the digest of 2,000 seeded rolls of `text`.
fn measure(text: &str) -> (String, i64, u64) {
    let expr = Expression::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let first = expr.roll(&mut Seeded::new(2024)).unwrap().render();
    let mut roller = expr.roller();
    let mut dice = Seeded::new(2024);
    let (mut sum, mut hash) = (0i64, 0xcbf2_9ce4_8422_2325u64);
    for i in 0..2000 {
        let total = roller.roll(&mut dice).unwrap();
        if i == 0 {
            assert_eq!(roller.to_roll(total).render(), first, "{text}");
        }
        sum += total;
        digest(&mut hash, roller.transcript());
    }
    (first, sum, hash)
}

#[test]
fn seeded_rolls_are_pinned() {
    let mut wrong = Vec::new();
    let mut table = String::new();
    for pin in PINNED {
        let (first, sum, hash) = measure(pin.text);
        table += &format!(
            "    Pin {{\n        text: {:?},\n        first: {first:?},\n        sum: {sum},\n        digest: {hash:#018x},\n    }},\n",
            pin.text
        );
        if (first.as_str(), sum, hash) != (pin.first, pin.sum, pin.digest) {
            wrong.push(pin.text);
        }
    }
    assert!(wrong.is_empty(), "changed: {wrong:?}; now:\n{table}");
}
