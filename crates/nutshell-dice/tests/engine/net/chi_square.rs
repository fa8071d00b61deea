//! Pearson's chi-square test of sampled totals against exact probabilities.

use std::collections::BTreeMap;

/// The outcome of a test: the statistic, its degrees of freedom, the
/// probability of a statistic at least this large if the sampler follows
/// the distribution, and the bin that strays most (value range, seen,
/// expected).
#[derive(Debug)]
pub struct ChiSquare {
    pub statistic: f64,
    pub degrees: usize,
    pub p_value: f64,
    pub worst: Option<((i64, i64), u64, f64)>,
}

/// Tests `seen` (total → how many of `rolls` samples) against `expected`
/// probabilities (total → probability, ascending). Neighbouring totals are
/// pooled until each bin expects at least 5 samples; samples outside the
/// expected totals go into a bin of their own that expects `elsewhere`.
pub fn test(
    expected: &[(i64, f64)],
    elsewhere: f64,
    seen: &BTreeMap<i64, u64>,
    rolls: u64,
) -> ChiSquare {
    let n = rolls as f64;
    let mut bins: Vec<((i64, i64), f64, u64)> = Vec::new();
    let mut open: Option<((i64, i64), f64, u64)> = None;
    let mut accounted = 0u64;
    for &(v, p) in expected {
        let count = seen.get(&v).copied().unwrap_or(0);
        accounted += count;
        let bin = match open.take() {
            Some(((lo, _), e, o)) => ((lo, v), e + p * n, o + count),
            None => ((v, v), p * n, count),
        };
        if bin.1 >= 5.0 {
            bins.push(bin);
        } else {
            open = Some(bin);
        }
    }
    if let Some(rest) = open {
        match bins.last_mut() {
            Some(last) => {
                last.0.1 = rest.0.1;
                last.1 += rest.1;
                last.2 += rest.2;
            }
            None => bins.push(rest),
        }
    }
    let outside = rolls - accounted;
    if outside > 0 || elsewhere * n >= 5.0 {
        bins.push(((i64::MIN, i64::MAX), (elsewhere * n).max(1e-300), outside));
    }
    let mut statistic = 0.0;
    let mut worst: Option<((i64, i64), u64, f64)> = None;
    let mut worst_term = -1.0;
    for &(range, e, o) in &bins {
        let term = (o as f64 - e).powi(2) / e;
        statistic += term;
        if term > worst_term {
            worst_term = term;
            worst = Some((range, o, e));
        }
    }
    let degrees = bins.len().saturating_sub(1);
    let p_value = if degrees == 0 {
        1.0
    } else {
        upper_gamma(degrees as f64 / 2.0, statistic / 2.0)
    };
    ChiSquare {
        statistic,
        degrees,
        p_value,
        worst,
    }
}

/// The regularized upper incomplete gamma function Q(a, x): the chi-square
/// survival function is Q(df/2, x/2). Series below a + 1, Lentz's continued
/// fraction above (Numerical Recipes, 6.2).
pub fn upper_gamma(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).max(0.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        sum += g / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// Known values of the chi-square survival function (R's `pchisq(x, df,
/// lower.tail = FALSE)`; for even degrees of freedom the closed form
/// `e^(-x/2) Σ_{k < df/2} (x/2)^k / k!`), and a sampler that is wrong on
/// purpose.
#[test]
fn the_chi_square_test_knows_its_tables_and_catches_a_biased_die() {
    for (x, df, p) in [
        (3.841_458_820_694_124, 1.0, 0.05),
        (6.634_896_601_021_214, 1.0, 0.01),
        (11.070_497_693_516_35, 5.0, 0.05),
        (2.0, 2.0, (-1.0f64).exp()),
        (100.0, 10.0, 5.449_701_982_920_53e-17),
    ] {
        let q = upper_gamma(df / 2.0, x / 2.0);
        assert!((q / p - 1.0).abs() < 1e-6, "Q({df}, {x}) = {q}, not {p}");
    }
    let fair: Vec<(i64, f64)> = (1..=6).map(|v| (v, 1.0 / 6.0)).collect();
    let mut even = BTreeMap::new();
    let mut loaded = BTreeMap::new();
    for v in 1..=6 {
        even.insert(v, 3_333 + u64::from(v == 6));
        loaded.insert(v, if v == 6 { 3_733 } else { 3_253 });
    }
    assert!(test(&fair, 0.0, &even, 19_999).p_value > 0.99);
    let biased = test(&fair, 0.0, &loaded, 19_998);
    assert!(biased.p_value < 1e-9, "{biased:?}");
    assert_eq!(biased.worst.unwrap().0, (6, 6));
}
