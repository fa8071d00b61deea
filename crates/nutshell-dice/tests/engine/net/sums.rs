//! Sums grouped and reordered (issue 38) against the same sums added in
//! their written order, one part after another
//! (`Expression::distribution_in_order`): identical parts taken as one
//! power, nested groups read as one flat sum, partial sums merged shortest
//! first and capped for thresholds must change no probability and no tail.
//!
//! The parts are the net's own generated expressions, as people type them,
//! repeated and nested the ways people write long sums: `(a) + (a) + (a)`,
//! `{a, {a, {1d6, a}}}`, `a - a + 3 + b`, and thresholds on those.

use super::generate::Generator;
use super::oracles::Probabilities;
use super::{DEFAULT_SEED, env_u64, table_limits};
use nutshell_dice::{ExactError, Expression, Limits};

/// How the two computations of one expression compared.
#[derive(Debug, PartialEq)]
enum Compared {
    Same,
    /// One or both declined for size (the written order does more work).
    Declined,
}

/// The grouped distribution of `text` (capped at `cap`) against the one in
/// written order: equal probabilities and tail, or the same failure.
fn compare(text: &str, cap: Option<i64>, limits: &Limits) -> Result<Compared, String> {
    let Ok(expr) = Expression::parse_with(text, limits) else {
        return Ok(Compared::Declined);
    };
    let grouped = match cap {
        Some(c) => expr.distribution_capped(c),
        None => expr.distribution(),
    };
    let in_order = expr.distribution_in_order(cap);
    let big = |e: &ExactError| {
        matches!(
            e,
            ExactError::TooMuchWork { .. } | ExactError::TooManyOutcomes { .. }
        )
    };
    match (grouped, in_order) {
        (Ok(a), Ok(b)) => {
            let (a, b) = (Probabilities::of(&a), Probabilities::of(&b));
            if a == b {
                Ok(Compared::Same)
            } else {
                Err(format!(
                    "`{text}` capped at {cap:?}: grouped {a:?}, in written order {b:?}"
                ))
            }
        }
        (Err(a), Err(b)) if std::mem::discriminant(&a) == std::mem::discriminant(&b) => {
            Ok(Compared::Same)
        }
        (Err(e), _) | (_, Err(e)) if big(&e) => Ok(Compared::Declined),
        (a, b) => Err(format!(
            "`{text}` capped at {cap:?}: grouped {:?}, in written order {:?}",
            a.map(|d| Probabilities::of(&d)),
            b.map(|d| Probabilities::of(&d))
        )),
    }
}

/// The long sums made of one generated case's parts.
fn shapes(a: &str, b: &str) -> Vec<String> {
    let (a, b) = (format!("({a})"), format!("({b})"));
    vec![
        format!("{a} + {a} + {a}"),
        format!("{a}+{b}+{a}+{b}+{a}"),
        format!("{{{a}, {{{a}, {{1d6, {a}}}}}}}"),
        format!("{a} - {a} + 3 + {b}"),
        format!("-{a} - ({b} - {a}) + {a}"),
        format!("{{{a}, {b}}} + {{{a}, {b}}} + 1d4"),
    ]
}

#[test]
fn grouped_and_reordered_sums_equal_sums_added_in_written_order() {
    let seed = env_u64("NUTSHELL_NET_SEED", DEFAULT_SEED);
    let cases = env_u64("NUTSHELL_SUM_CASES", 40);
    let limits = table_limits();
    let (mut same, mut declined, mut capped) = (0u32, 0u32, 0u32);
    let mut failures = Vec::new();
    for i in 0..cases {
        let a = Generator::new(seed.wrapping_add(i)).case();
        let b = Generator::new(seed.wrapping_add(i).wrapping_add(1 << 32)).case();
        for text in shapes(&a.sum, &b.sum) {
            let mut caps = vec![None];
            // A threshold inside the sum's range, when it has one: what a
            // comparison asks (`... >= T`).
            if let Ok(expr) = Expression::parse_with(&text, &limits)
                && let Ok(d) = expr.distribution()
                && let Some((lo, hi)) = d.range()
            {
                let t = lo + (hi - lo) * ((i % 5) as i64 + 1) / 6;
                caps.push(Some(t));
                capped += 1;
            }
            for cap in caps {
                match compare(&text, cap, &limits) {
                    Ok(Compared::Same) => same += 1,
                    Ok(Compared::Declined) => declined += 1,
                    Err(why) => failures.push(format!("seed {:#x}: {why}", seed + i)),
                }
            }
        }
    }
    println!("sums: {same} the same, {declined} declined for size, {capped} capped");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The comparison must have been made, or it proves nothing.
    assert!(same as u64 >= cases * 5, "only {same} compared");
    assert!(capped as u64 >= cases * 2, "only {capped} capped");
}

#[test]
fn a_thousand_identical_terms_are_the_pool_and_a_deep_nesting_its_flat_sum() {
    let thousand = vec!["1d6"; 1000].join(" + ");
    let pool = Expression::parse("1000d6").unwrap().distribution().unwrap();
    let sum = Expression::parse(&thousand)
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(Probabilities::of(&sum), Probabilities::of(&pool));

    // `{1d6, {1d6, ... {1d6}}}` 999 deep is 999d6.
    let limits = Limits {
        max_nesting: 1000,
        ..Limits::default()
    };
    let depth = 999;
    let nested = format!("{}1d6{}", "{1d6, ".repeat(depth - 1), "}".repeat(depth - 1));
    let flat = Expression::parse("999d6").unwrap().distribution().unwrap();
    let deep = Expression::parse_with(&nested, &limits)
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(Probabilities::of(&deep), Probabilities::of(&flat));

    // Mixed parts, signs and a threshold: 200 × (1d6 - 1d4) + 100 × 2d6 >= 800
    // against the same parts in written order.
    let mixed = format!(
        "{} >= 800",
        vec!["1d6 - 1d4 + 2d6 + 1d6 - 1d4"; 100].join(" + ")
    );
    assert_eq!(
        compare(&mixed, None, &Limits::default()),
        Ok(Compared::Same)
    );
}
