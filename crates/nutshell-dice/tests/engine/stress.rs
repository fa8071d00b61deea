//! Inputs meant to break things: each must give a clear error or a correct
//! answer, never a panic, a hang, a stack overflow or an abort.

use nutshell_dice::{Expression, Limits, Seeded};

#[test]
fn ten_thousand_nested_parentheses_are_refused_by_length() {
    let text = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let err = Expression::parse(&text).unwrap_err();
    assert!(err.message.contains("limit is 10000"), "{}", err.message);
}

#[test]
fn ten_thousand_nested_parentheses_within_the_length_limit_are_refused_by_nesting() {
    let text = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let limits = Limits {
        max_expression_chars: 1_000_000,
        ..Limits::default()
    };
    let err = Expression::parse_with(&text, &limits).unwrap_err();
    assert_eq!(
        err.message,
        "the expression nests deeper than 64 levels (max_nesting)"
    );
    assert_eq!(err.column(), 65);
}

#[test]
fn nesting_at_the_ceiling_works_on_a_large_stack() {
    // The ceiling (1000 levels) is safe on an 8 MiB stack in an optimized build;
    // the tool runs its commands on a 256 MiB stack so debug builds are safe too.
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let limits = Limits {
                max_nesting: 5_000, // capped at the ceiling of 1000
                ..Limits::default()
            };
            let ok = format!("{}1d6{}", "(".repeat(999), ")".repeat(999));
            let expr = Expression::parse_with(&ok, &limits).unwrap();
            assert_eq!(expr.normalized(), "1d6");
            let too_deep = format!("{}1{}", "(".repeat(1001), ")".repeat(1001));
            let err = Expression::parse_with(&too_deep, &limits).unwrap_err();
            assert_eq!(
                err.message,
                "the expression nests deeper than 1000 levels (max_nesting)"
            );
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn ten_thousand_unary_minuses_are_refused() {
    let text = format!("{}1", "-".repeat(10_000));
    let err = Expression::parse(&text).unwrap_err();
    assert!(err.message.contains("limit is 10000") || err.message.contains("nests deeper"));
    let limits = Limits {
        max_expression_chars: 20_000,
        ..Limits::default()
    };
    let err = Expression::parse_with(&text, &limits).unwrap_err();
    assert_eq!(
        err.message,
        "the expression nests deeper than 64 levels (max_nesting)"
    );
}

#[test]
fn huge_dice_counts_are_refused_before_rolling() {
    let err = Expression::parse("999999999d999999999").unwrap_err();
    assert_eq!(
        err.message,
        "999999999 dice is too many: the limit is 10000 dice per roll (max_dice)"
    );
    assert_eq!(err.column(), 1);
    let ok = Expression::parse("10000d6").unwrap();
    let total = ok.roll(&mut Seeded::new(5)).unwrap().total;
    assert!((10_000..=60_000).contains(&total));
    assert!(Expression::parse("10001d6").is_err());
}

#[test]
fn a_megabyte_of_plus_one_is_refused_by_default_and_summed_when_allowed() {
    let text = "+1".repeat(500_000);
    let err = Expression::parse(&text).unwrap_err();
    assert_eq!(
        err.message,
        "the expression is 1000000 characters long; the limit is 10000 (max_expression_chars)"
    );
    let limits = Limits {
        max_expression_chars: 1_000_000,
        ..Limits::default()
    };
    let expr = Expression::parse_with(&text, &limits).unwrap();
    assert_eq!(expr.roll(&mut Seeded::new(1)).unwrap().total, 500_000);
}

#[test]
fn non_ascii_text_is_refused_with_its_column() {
    // After white space a word is flavour text, the roll's label
    // (`4d6 über` is `4d6[über]`, syntax::habits); a symbol there is not.
    for (text, column) in [
        ("4d6 €", 5),
        ("4d6ü", 4),
        ("4d6 + ü", 7),
        ("ü", 1),
        ("1d6+🎲", 5),
        ("２d6", 1),
        ("1d６", 3),
    ] {
        let err = Expression::parse(text).unwrap_err();
        assert_eq!(err.column(), column, "{text}: {}", err.message);
    }
}

#[test]
fn overflow_is_an_error_never_a_wrap() {
    for text in [
        "9223372036854775807 + 1",
        "9223372036854775807 * 2",
        "-9223372036854775807 - 2",
        "abs(-9223372036854775807 - 1)",
        "3d{9223372036854775807}",
    ] {
        let expr = Expression::parse(text).unwrap();
        let err = expr.roll(&mut Seeded::new(1)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the result is too large for a 64-bit integer",
            "{text}"
        );
    }
    assert!(Expression::parse("9223372036854775808").is_err());
}

#[test]
fn endless_rolls_are_refused_before_any_die_is_rolled() {
    for text in [
        "1d1!",
        "1d6r<=6",
        "1d6!>=1",
        "d{3,3}!",
        "1dF r>=-1",
        "2d6r1r2r3r4r5r6",
        // Every face that stands explodes (found by the differential net:
        // rolls always ran into the explosion limit).
        "1d6r<6!",
        "1d{0,10,20}r0r10!",
        "4d4294967295r<4294967295!",
        "d{-1..1}r<=0!>=1",
    ] {
        let text = text.replace(' ', "");
        let err = Expression::parse(&text).unwrap_err();
        assert!(err.message.contains("forever"), "{text}: {}", err.message);
    }
    assert_eq!(
        Expression::parse("1d6r<6!").unwrap_err().message,
        "this roll would roll forever: every face that is not rerolled explodes"
    );
    // Once-only versions end and are accepted, and so does a die one of
    // whose standing faces stops.
    for text in [
        "1d1!o",
        "1d6ro<=6",
        "1d6ro<6!",
        "1d6r<6!o",
        "1d6r<5!",
        "1d6r<=4!>=6",
    ] {
        assert!(Expression::parse(text).is_ok(), "{text}");
    }
    // Computed sides are checked when rolled.
    let expr = Expression::parse("1d(1d2 + 5)r<6!").unwrap();
    let err = expr
        .roll(&mut nutshell_dice::Scripted::new([1]))
        .unwrap_err();
    assert!(err.to_string().contains("forever"), "{err}");
}

#[test]
fn long_sums_of_dice_stay_flat() {
    let text = vec!["1d6"; 2_000].join("+");
    let expr = Expression::parse(&text).unwrap();
    let total = expr.roll(&mut Seeded::new(3)).unwrap().total;
    assert!((2_000..=12_000).contains(&total));
}
