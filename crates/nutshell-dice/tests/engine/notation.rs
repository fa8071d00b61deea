//! Every notation form, rolled with scripted faces, asserting the total and the
//! transcript. See docs/notation.md for the forms and the decisions behind them.

use crate::support::*;
use nutshell_dice::source::SourceError;
use nutshell_dice::{Expression, Limits, RollError, Scripted};

// ---- dice ----

#[test]
fn plain_dice() {
    check("d6", &[4], 4, "1d6 = [4] = 4");
    check("3d6", &[1, 6, 3], 10, "3d6 = [1, 6, 3] = 10");
    check("0d6", &[], 0, "0d6 = [] = 0");
    check("4D6", &[1, 2, 3, 4], 10, "4d6 = [1, 2, 3, 4] = 10");
}

/// RULING N-3: "`d%` and `d100` give 1..100."
#[test]
fn percentile_dice() {
    check("d%", &[100], 100, "1d100 = [100] = 100");
    check("2d100", &[1, 57], 58, "2d100 = [1, 57] = 58");
    assert!(matches!(
        roll_error("d%", &[0]),
        RollError::Source {
            error: SourceError::NotOnDie { face: 0 },
            ..
        }
    ));
}

/// RULING N-3: the percentile d10 of 004 ("each number ends in 0, ranging from 00
/// to 90") is a die with faces 0,10,...,90, spelled `d00`.
#[test]
fn percentile_tens_die() {
    check("d00", &[70], 70, "1d00 = [70] = 70");
    check("d00 + d10", &[0, 7], 7, "1d00 + 1d10 = [0] + [7] = 7");
    assert!(matches!(
        roll_error("d00", &[75]),
        RollError::Source {
            error: SourceError::NotOnDie { face: 75 },
            ..
        }
    ));
}

#[test]
fn fate_dice() {
    check("dF", &[-1], -1, "1dF = [-1] = -1");
    check("4dF", &[-1, 0, 1, 1], 1, "4dF = [-1, 0, 1, 1] = 1");
    assert!(
        roll_error("dF", &[2])
            .to_string()
            .contains("face 2 is not on a dF")
    );
}

/// RULING N-2: "`d66` and `d666` are digit rolls ... `d66` gives 11..66 with both
/// digits in 1..6." One face is typed per digit.
#[test]
fn digit_rolls() {
    check("d66", &[3, 5], 35, "1d66 = [35] = 35");
    check("d666", &[1, 6, 2], 162, "1d666 = [162] = 162");
    check("2d66", &[1, 1, 6, 6], 77, "2d66 = [11, 66] = 77");
    assert!(matches!(
        roll_error("d66", &[3, 7]),
        RollError::Source {
            error: SourceError::NotOnDie { face: 7 },
            ..
        }
    ));
}

/// RULING N-4: "`d3` exists (000's step ladder starts at d3)."
#[test]
fn d3_exists() {
    check("2d3", &[1, 3], 4, "2d3 = [1, 3] = 4");
}

#[test]
fn custom_faces() {
    check("d{0,10,20,30}", &[20], 20, "1d{0,10,20,30} = [20] = 20");
    check("2d{1,1,2}", &[1, 2], 3, "2d{1,1,2} = [1, 2] = 3");
    check("d{-2..2}", &[-2], -2, "1d{-2..2} = [-2] = -2");
    check("3d{ 5 .. 7 }", &[5, 6, 7], 18, "3d{5..7} = [5, 6, 7] = 18");
    assert!(
        roll_error("d{0,10,20,30}", &[5])
            .to_string()
            .contains("face 5 is not on a d{0,10,20,30}")
    );
}

#[test]
fn computed_counts_and_sides() {
    check(
        "(1d4)d6",
        &[3, 2, 5, 6],
        13,
        "(1d4)d6 = ([3])d6[2, 5, 6] = 13",
    );
    check("2d(3*2)", &[6, 1], 7, "2d(3 * 2) = 2d(3 * 2)[6, 1] = 7");
    check(
        "(1+1)d(2+2)",
        &[4, 4],
        8,
        "(1 + 1)d(2 + 2) = (1 + 1)d(2 + 2)[4, 4] = 8",
    );
    assert!(matches!(
        roll_error("(1d4-5)d6", &[1]),
        RollError::NegativeCount { count: -4, .. }
    ));
    assert!(matches!(
        roll_error("1d(1d4-4)", &[2]),
        RollError::BadSides { sides: -2, .. }
    ));
    // A computed die with one face that explodes can never stop: refused before rolling.
    assert!(matches!(
        roll_error("1d(2-1)!", &[]),
        RollError::Endless { .. }
    ));
}

// ---- arithmetic ----

#[test]
fn arithmetic_and_precedence() {
    check("1+2*3", &[], 7, "1 + 2 * 3 = 7");
    check("(1+2)*3", &[], 9, "(1 + 2) * 3 = 9");
    check("10-2-3", &[], 5, "10 - 2 - 3 = 5");
    check("2*3d6", &[1, 2, 3], 12, "2 * 3d6 = 2 * [1, 2, 3] = 12");
    check("-1d6", &[4], -4, "-1d6 = -[4] = -4");
    check("--3", &[], 3, "--3 = 3");
    check("+3", &[], 3, "3 = 3");
}

/// RULING N-1: "Division rounds down (toward negative infinity)".
#[test]
fn division_rounds_down() {
    check("7/2", &[], 3, "7 / 2 = 3");
    check("-7/2", &[], -4, "-7 / 2 = -4");
    check("1d6/2", &[5], 2, "1d6 / 2 = [5] / 2 = 2");
    assert!(matches!(
        roll_error("1/(1d2-1)", &[1]),
        RollError::DivisionByZero { .. }
    ));
}

#[test]
fn unicode_operators_are_accepted() {
    check(
        "4d6 − 2",
        &[1, 2, 3, 4],
        8,
        "4d6 - 2 = [1, 2, 3, 4] - 2 = 8",
    );
    check("2 × 3 ÷ 2", &[], 3, "2 * 3 / 2 = 3");
}

#[test]
fn functions() {
    check(
        "min(1d6, 1d8)",
        &[5, 2],
        2,
        "min(1d6, 1d8) = min([5], [2]) = 2",
    );
    check(
        "max(1d6, 1d8, 3)",
        &[1, 2],
        3,
        "max(1d6, 1d8, 3) = max([1], [2], 3) = 3",
    );
    check("abs(1d6-10)", &[4], 6, "abs(1d6 - 10) = abs([4] - 10) = 6");
    check("MAX(2, 5)", &[], 5, "max(2, 5) = 5");
}

/// RULING F-7 (fantasy, "Nominal Success and Imperfect Defences"): "`1d8+4` gives 5,
/// `5d6+12` gives 17 (the text's own examples)." No faces are consumed.
#[test]
fn nominal_shows_every_die_at_its_lowest() {
    check(
        "nominal(1d8+4)",
        &[],
        5,
        "nominal(1d8 + 4) = nominal([1] + 4) = 5",
    );
    check(
        "nominal(5d6+12)",
        &[],
        17,
        "nominal(5d6 + 12) = nominal([1, 1, 1, 1, 1] + 12) = 17",
    );
    check("nominal(1dF)", &[], -1, "nominal(1dF) = nominal([-1]) = -1");
    check(
        "nominal(2d6!)",
        &[],
        2,
        "nominal(2d6!) = nominal([1, 1]) = 2",
    );
}

/// RULING T-7 (tiered-d20, "Critical Failure/Success"): "A critical success
/// maximizes damage or healing dice."
#[test]
fn maximize_shows_every_die_at_its_highest() {
    check(
        "maximize(2d6+1)",
        &[],
        13,
        "maximize(2d6 + 1) = maximize([6, 6] + 1) = 13",
    );
    check(
        "maximize(d66)",
        &[],
        66,
        "maximize(1d66) = maximize([66]) = 66",
    );
    // Fixed dice never explode: a maximized d6! is 6, not endless.
    check(
        "maximize(1d6!)",
        &[],
        6,
        "maximize(1d6!) = maximize([6]) = 6",
    );
    // Only the dice inside are fixed.
    check(
        "maximize(1d6) + 1d6",
        &[2],
        8,
        "maximize(1d6) + 1d6 = maximize([6]) + [2] = 8",
    );
}

// ---- keep and drop ----

#[test]
fn keep_and_drop() {
    check("4d6kh3", &[6, 5, 3, 1], 14, "4d6kh3 = [6, 5, 3, (1)] = 14");
    check("4d6k3", &[6, 5, 3, 1], 14, "4d6kh3 = [6, 5, 3, (1)] = 14");
    check(
        "4d6kl1",
        &[6, 5, 3, 1],
        1,
        "4d6kl1 = [(6), (5), (3), 1] = 1",
    );
    check("4d6dh1", &[6, 5, 3, 1], 9, "4d6dh1 = [(6), 5, 3, 1] = 9");
    check("4d6dl1", &[6, 5, 3, 1], 14, "4d6dl1 = [6, 5, 3, (1)] = 14");
    check("4d6d1", &[1, 5, 3, 6], 14, "4d6dl1 = [(1), 5, 3, 6] = 14");
}

#[test]
fn keep_count_defaults_to_one() {
    check("2d20k", &[3, 17], 17, "2d20kh1 = [(3), 17] = 17");
    check("2d20kh", &[3, 17], 17, "2d20kh1 = [(3), 17] = 17");
    check("2d20kl", &[3, 17], 3, "2d20kl1 = [3, (17)] = 3");
    check("3d6dh", &[3, 6, 2], 5, "3d6dh1 = [3, (6), 2] = 5");
}

#[test]
fn keep_ties_keep_the_earlier_die() {
    check("3d6kh1", &[4, 4, 2], 4, "3d6kh1 = [4, (4), (2)] = 4");
    check("3d6dl1", &[2, 5, 2], 7, "3d6dl1 = [2, 5, (2)] = 7");
}

#[test]
fn keeping_more_dice_than_rolled_keeps_them_all() {
    check("2d6kh5", &[3, 4], 7, "2d6kh5 = [3, 4] = 7");
    check("2d6dl5", &[3, 4], 0, "2d6dl5 = [(3), (4)] = 0");
}

// ---- explosions ----

#[test]
fn exploding_on_the_highest_face() {
    check(
        "3d6!",
        &[6, 4, 2, 6, 6, 1],
        25,
        "3d6! = [6!+4, 2, 6!+6!+1] = 25",
    );
    check("1d6x", &[6, 2], 8, "1d6! = [6!+2] = 8");
}

#[test]
fn exploding_with_a_compare_point() {
    check("1d6!>=5", &[5, 6, 2], 13, "1d6!>=5 = [5!+6!+2] = 13");
    check("1d6!>4", &[5, 2], 7, "1d6!>=5 = [5!+2] = 7");
    check("1d6!=1", &[1, 1, 3], 5, "1d6!1 = [1!+1!+3] = 5");
    check("1d6!1", &[1, 4], 5, "1d6!1 = [1!+4] = 5");
}

#[test]
fn exploding_once() {
    check("1d6!o", &[6, 6], 12, "1d6!o = [6!+6] = 12");
    check("1d6xo", &[6, 6], 12, "1d6!o = [6!+6] = 12");
}

#[test]
fn compounding() {
    check("1d6!!", &[6, 6, 3], 15, "1d6!! = [6!!+6!!+3] = 15");
    // Success counting on a compounding die looks at the sum. Right after `!!`,
    // `>=8` would be the explosion's compare point, so the count is spelled `cs>=8`.
    check("2d6!!cs>=8", &[6, 3, 5], 1, "2d6!!cs>=8 = [6!!+3✓, 5] = 1");
    check(
        "2d6!!>=5",
        &[5, 6, 1, 2],
        14,
        "2d6!!>=5 = [5!!+6!!+1, 2] = 14",
    );
}

#[test]
fn penetrating() {
    // Each added roll counts one less: 6 + (6-1) + (3-1).
    check("1d6!p", &[6, 6, 3], 13, "1d6!p = [6!p+5!p+2] = 13");
    // With a clamp, each face shows what it counts for after both (`max3`
    // then -1): the numbers shown add up to the total.
    check(
        "1d6!pmax3",
        &[6, 6, 5],
        7,
        "1d6!pmax3 = [6↓3!p+6↓2!p+5↓2] = 7",
    );
    check("1d6!pmin2", &[6, 1], 7, "1d6!pmin2 = [6!p+1] = 7");
}

#[test]
fn explosion_limit_stops_a_die_and_says_so() {
    let limits = Limits {
        max_repeats_per_die: 2,
        ..Limits::default()
    };
    let (total, text) = roll_with("1d6!", &[6, 6, 6], &limits);
    assert_eq!(total, 18);
    assert_eq!(text, "1d6! = [6!+6!+6…] = 18");
}

// ---- rerolls ----

#[test]
fn reroll_again_while_it_matches() {
    check("1d6r1", &[1, 1, 4], 4, "1d6r1 = [1→1→4] = 4");
    check("2d6r<=2", &[2, 5, 1, 3], 8, "2d6r<=2 = [2→5, 1→3] = 8");
    check("1d6r<3", &[2, 3], 3, "1d6r<=2 = [2→3] = 3");
    check("1d6r", &[1, 2], 2, "1d6r1 = [1→2] = 2");
    check("1d6rr1", &[1, 2], 2, "1d6r1 = [1→2] = 2");
    check("1d6r1r2", &[1, 2, 5], 5, "1d6r1r2 = [1→2→5] = 5");
}

#[test]
fn reroll_once() {
    check("1d6ro1", &[1, 1], 1, "1d6ro1 = [1→1] = 1");
    check("1d6ro<=2", &[2, 6], 6, "1d6ro<=2 = [2→6] = 6");
}

/// `r` rerolls again while the face matches, with no limit of its own (not
/// `max_repeats_per_die`, which bounds explosions): only the roll's
/// `max_dice` stops it, and a roll that reaches it fails rather than keep a
/// face the exact odds say cannot stand (issue 23, item 3).
#[test]
fn rerolls_go_on_until_the_face_stands_or_the_roll_passes_max_dice() {
    let limits = Limits {
        max_repeats_per_die: 2,
        ..Limits::default()
    };
    let (total, text) = roll_with("1d6r1", &[1, 1, 1, 1, 5], &limits);
    assert_eq!(total, 5);
    assert_eq!(text, "1d6r1 = [1→1→1→1→5] = 5");
    let limits = Limits {
        max_dice: 3,
        ..Limits::default()
    };
    let expr = Expression::parse_with("1d6r1", &limits).unwrap();
    let err = expr
        .roll(&mut Scripted::new([1, 1, 1, 5]))
        .expect_err("a fourth face passes max_dice");
    assert!(
        matches!(err, RollError::TooManyDice { limit: 3, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "this roll needs more than 3 dice (max_dice)"
    );
}

#[test]
fn exploded_faces_are_rerolled_too() {
    check("1d6r1!", &[6, 1, 3], 9, "1d6r1! = [6!+1→3] = 9");
}

// ---- clamps ----

#[test]
fn clamps() {
    check("3d6min3", &[1, 4, 2], 10, "3d6min3 = [1↑3, 4, 2↑3] = 10");
    check("3d6max4", &[6, 1, 5], 9, "3d6max4 = [6↓4, 1, 5↓4] = 9");
    check(
        "2d20min10max15",
        &[3, 19],
        25,
        "2d20min10max15 = [3↑10, 19↓15] = 25",
    );
}

// ---- success and failure counting ----

#[test]
fn success_counting() {
    check(
        "8d10>=7",
        &[7, 3, 10, 6, 9, 1, 8, 2],
        4,
        "8d10>=7 = [7✓, 3, 10✓, 6, 9✓, 1, 8✓, 2] = 4",
    );
    check(
        "5d6=6",
        &[6, 1, 6, 6, 3],
        3,
        "5d6=6 = [6✓, 1, 6✓, 6✓, 3] = 3",
    );
    check("4d6cs>=5", &[6, 1, 5, 3], 2, "4d6>=5 = [6✓, 1, 5✓, 3] = 2");
}

/// RULING N-5: "`>` is strictly greater, `>=` is greater or equal." The
/// normalized echo shows exactly which faces count.
#[test]
fn bare_greater_is_strict() {
    check("3d6>3", &[3, 4, 6], 2, "3d6>=4 = [3, 4✓, 6✓] = 2");
    check("3d6<3", &[1, 2, 3], 2, "3d6<=2 = [1✓, 2✓, 3] = 2");
}

#[test]
fn failure_counting() {
    check(
        "6d10>=7f1",
        &[7, 1, 10, 1, 1, 5],
        -1,
        "6d10>=7f1 = [7✓, 1✗, 10✓, 1✗, 1✗, 5] = -1",
    );
    // Failures alone count up.
    check("4d6cf<=2", &[1, 2, 3, 6], 2, "4d6f<=2 = [1✗, 2✗, 3, 6] = 2");
}

#[test]
fn counting_kept_dice_only() {
    check(
        "4d6kh3>=5",
        &[6, 5, 3, 1],
        2,
        "4d6kh3>=5 = [6✓, 5✓, 3, (1)] = 2",
    );
}

#[test]
fn counting_every_face_of_an_exploding_die() {
    check(
        "3d6!cs>=5",
        &[6, 5, 2, 4],
        2,
        "3d6!cs>=5 = [6✓!+5✓, 2, 4] = 2",
    );
    check(
        "3d6!>=5",
        &[6, 5, 2, 4, 1],
        18,
        "3d6!>=5 = [6!+5!+2, 4, 1] = 18",
    );
}

// ---- sorting ----

#[test]
fn sorting_orders_the_transcript_only() {
    check("4d6s", &[5, 2, 6, 1], 14, "4d6sa = [1, 2, 5, 6] = 14");
    check("4d6sd", &[5, 2, 6, 1], 14, "4d6sd = [6, 5, 2, 1] = 14");
    check(
        "4d6kh3sd",
        &[5, 2, 6, 1],
        13,
        "4d6kh3sd = [6, 5, 2, (1)] = 13",
    );
}

// ---- groups ----

#[test]
fn groups_keep_over_members() {
    check(
        "{3d6, 2d8+1}kh1",
        &[3, 4, 3, 5, 1],
        10,
        "{3d6, 2d8 + 1}kh1 = {[3, 4, 3] = 10, ([5, 1] + 1 = 7)} = 10",
    );
    check(
        "{1d6, 1d8, 3}dl1",
        &[1, 2],
        5,
        "{1d6, 1d8, 3}dl1 = {([1] = 1), [2] = 2, 3 = 3} = 5",
    );
    check("{2d6}", &[1, 2], 3, "{2d6} = {[1, 2]} = 3");
}

#[test]
fn groups_count_members() {
    check(
        "{1d20+5, 1d20+5}>=15",
        &[12, 7],
        1,
        "{1d20 + 5, 1d20 + 5}>=15 = {[12] + 5 = 17✓, [7] + 5 = 12} = 1",
    );
}

/// A group of one sum of dice pools the dice, as in Roll20's `{4d6+3d8}k4`.
#[test]
fn a_single_sum_of_dice_pools_them() {
    check(
        "{4d6+3d8}k4",
        &[1, 2, 3, 4, 5, 6, 7],
        22,
        "{4d6 + 3d8}kh4 = {[(1), (2), (3), 4] + [5, 6, 7]} = 22",
    );
    check(
        "{3d6+2d8}>=5",
        &[5, 1, 6, 8, 2],
        3,
        "{3d6 + 2d8}>=5 = {[5✓, 1, 6✓] + [8✓, 2]} = 3",
    );
}

#[test]
fn nested_groups() {
    check(
        "{{1d6, 1d6}kh1, 1d4}kl1",
        &[2, 5, 3],
        3,
        "{{1d6, 1d6}kh1, 1d4}kl1 = {({([2] = 2), [5] = 5} = 5), [3] = 3} = 3",
    );
}

// ---- comparisons of totals ----

#[test]
fn comparisons_of_totals() {
    check(
        "3d6+2 >= 15",
        &[6, 5, 2],
        1,
        "3d6 + 2 >= 15 = [6, 5, 2] + 2 >= 15 = 1",
    );
    check("1d20 > 10", &[10], 0, "1d20 > 10 = [10] > 10 = 0");
    check("2d6 = 7", &[3, 4], 1, "2d6 = 7 = [3, 4] = 7 = 1");
    check("2d6 == 7", &[3, 3], 0, "2d6 = 7 = [3, 3] = 7 = 0");
    check("1d20+5<=10", &[5], 1, "1d20 + 5 <= 10 = [5] + 5 <= 10 = 1");
    // Comparisons give 1 or 0, so they can be counted.
    check(
        "(1d20 >= 11) + (1d20 >= 11)",
        &[11, 10],
        1,
        "(1d20 >= 11) + (1d20 >= 11) = ([11] >= 11) + ([10] >= 11) = 1",
    );
}

/// A comparison right after a dice term counts successes; after white space it
/// compares the total.
#[test]
fn white_space_separates_success_counts_from_total_comparisons() {
    check("3d6>=5", &[5, 6, 1], 2, "3d6>=5 = [5✓, 6✓, 1] = 2");
    check("3d6 >= 5", &[5, 6, 1], 1, "3d6 >= 5 = [5, 6, 1] >= 5 = 1");
    check(
        "5d6=6 >= 3",
        &[6, 6, 1, 6, 2],
        1,
        "5d6=6 >= 3 = [6✓, 6✓, 1, 6✓, 2] >= 3 = 1",
    );
}

// ---- labels ----

#[test]
fn labels_are_kept_in_the_transcript() {
    let expr = Expression::parse("2d6[fire] + 1d4[cold] + 2").unwrap();
    let roll = expr.roll(&mut Scripted::new([3, 5, 2])).unwrap();
    assert_eq!(roll.total, 12);
    assert_eq!(
        roll.render(),
        "2d6[fire] + 1d4[cold] + 2 = [3, 5][fire] + [2][cold] + 2 = 12"
    );
    let report = roll.report();
    let labels: Vec<(&str, i64)> = report
        .labels
        .iter()
        .map(|l| (l.label.as_str(), l.total))
        .collect();
    assert_eq!(labels, [("fire", 8), ("cold", 2)]);
    assert_eq!(report.dice[0].label.as_deref(), Some("fire"));
    assert_eq!(report.dice[2].label.as_deref(), Some("cold"));
    check(
        "(1d4+2)[slashing]",
        &[3],
        5,
        "(1d4 + 2)[slashing] = ([3] + 2)[slashing] = 5",
    );
    check("2[flat]", &[], 2, "2[flat] = 2");
}

// ---- the JSON report ----

#[test]
fn report_lists_every_die_in_roll_order() {
    let expr = Expression::parse("(1d4)d6r1!kh2").unwrap();
    let roll = expr.roll(&mut Scripted::new([3, 1, 4, 6, 2, 5])).unwrap();
    // 1d4 -> 3; d6 #1: 1 rerolled to 4; d6 #2: 6 explodes, 2; d6 #3: 5.
    assert_eq!(roll.total, 8 + 5);
    let report = roll.report();
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["expression"], "(1d4)d6r1!kh2");
    assert_eq!(json["total"], 13);
    let dice = json["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    assert_eq!(dice[0]["die"], "d4");
    assert_eq!(dice[1]["faces"][0]["face"], 1);
    assert_eq!(dice[1]["faces"][0]["rerolled"], true);
    assert_eq!(dice[1]["faces"][1]["cause"], "reroll");
    assert_eq!(dice[1]["kept"], false);
    assert_eq!(dice[2]["faces"][0]["exploded"], true);
    assert_eq!(dice[2]["faces"][1]["cause"], "explosion");
    assert_eq!(dice[2]["value"], 8);
    assert_eq!(dice[3]["value"], 5);
    assert_eq!(json["terms"][1]["expression"], "(1d4)d6r1!kh2");
    assert_eq!(json["terms"][0]["total"], 3);
}

/// A die inside a group member that keep/drop dropped counts for nothing: the
/// report says `kept: false`, so summing the kept dice gives the total.
#[test]
fn report_marks_the_dice_of_a_dropped_group_member_not_kept() {
    let expr = Expression::parse("{3d6, 2d8+1}kh1").unwrap();
    let report = expr
        .roll(&mut Scripted::new([3, 4, 3, 5, 1]))
        .unwrap()
        .report();
    assert_eq!(report.total, 10);
    let kept: Vec<bool> = report.dice.iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, true, true, false, false]);
    assert!(!report.groups[0].members[1].kept);
}

#[test]
fn report_marks_successes_and_clamps() {
    let expr = Expression::parse("2d6min3>=4").unwrap();
    let report = expr.roll(&mut Scripted::new([1, 5])).unwrap().report();
    assert_eq!(report.total, 1);
    assert!(report.dice[0].faces[0].clamped);
    assert_eq!(report.dice[0].faces[0].value, 3);
    assert_eq!(report.dice[0].faces[0].counted, None);
    assert_eq!(report.dice[1].faces[0].counted, Some("success"));
    assert_eq!(report.dice[1].successes, 1);
}

// ---- scripted faces ----

#[test]
fn faces_are_consumed_in_transcript_order_and_checked() {
    let err = roll_error("4d6kh3", &[6, 5]);
    assert_eq!(
        err.to_string(),
        "ran out of faces: die 3 (a d6 of `4d6kh3`) needs a face, but only 2 were given"
    );
    let err = roll_error("2d6 + 1d8", &[1, 2, 9]);
    assert_eq!(
        err.to_string(),
        "face 9 is not on a d8: die 3 (a d8 of `1d8`) cannot show it"
    );
    assert_eq!(err.span().column(), 7);
}

// ---- rounding functions, Foundry's df, signed compare points ----

/// Roll20 and Foundry compute `floor`, `ceil` and `round` over exact division
/// (`round` halves up, as JavaScript's `Math.round`); elsewhere `/` rounds down
/// (RULING N-1).
#[test]
fn floor_ceil_and_round_divide_exactly_then_round() {
    check("ceil(7/2)", &[], 4, "ceil(7 / 2) = 4");
    check("floor(7/2)", &[], 3, "floor(7 / 2) = 3");
    check("round(7/2)", &[], 4, "round(7 / 2) = 4");
    check("round(-7/2)", &[], -3, "round(-7 / 2) = -3");
    check("round(5/3)", &[], 2, "round(5 / 3) = 2");
    check("7/2", &[], 3, "7 / 2 = 3");
    // Every division inside is exact: 5/2 + 1/2 is 3, not 2 + 0.
    check("floor(5/2 + 1/2)", &[], 3, "floor((10 + 2) / 4) = 3");
    check(
        "ceil(1d6/2 + 1)",
        &[3],
        3,
        "ceil((1d6 + 2) / 2) = ceil(([3] + 2) / 2) = 3",
    );
    check(
        "ceil(10/1d4)",
        &[3],
        4,
        "ceil(10 / 1d4) = ceil(10 / [3]) = 4",
    );
    check(
        "ceil(4d6)",
        &[1, 2, 3, 4],
        10,
        "ceil(4d6) = ceil([1, 2, 3, 4]) = 10",
    );
    let e = Expression::parse("ceil(10/1d4 + 1)").unwrap_err();
    assert!(e.to_string().contains("can only divide by numbers"), "{e}");
    assert!(matches!(
        roll_error("round(6/(1d2 - 1))", &[1]),
        RollError::DivisionByZero { .. }
    ));
}

/// Foundry's `df` (deduct failures) after a success count: each failure counts
/// -1, as `f` does. Without a success count Foundry subtracts from the total of
/// the other dice, which nutshell does not do: refused, not misread.
#[test]
fn foundry_deduct_failures() {
    check(
        "6d6cs>4df=1",
        &[1, 6, 5, 2, 3, 4],
        1,
        "6d6>=5f1 = [1✗, 6✓, 5✓, 2, 3, 4] = 1",
    );
    check(
        "4d6>=5df<2",
        &[1, 1, 6, 3],
        -1,
        "4d6>=5f<=1 = [1✗, 1✗, 6✓, 3] = -1",
    );
    for bad in ["6d6df=1", "6d6cs>4df"] {
        let e = Expression::parse(bad).unwrap_err();
        assert!(e.to_string().contains("df"), "{bad}: {e}");
    }
}

/// A die with negative faces reads `-` after `r`, `!` or a count as the face's
/// sign (`4dFr-1` rerolls the -1s); on other dice it stays a subtraction.
#[test]
fn a_minus_after_a_compare_point_on_dice_with_negative_faces() {
    check(
        "4dFr-1",
        &[-1, 0, 1, 0, 0],
        1,
        "4dFr=-1 = [-1→0, 1, 0, 0] = 1",
    );
    check("1d6r-1", &[1, 4], 3, "1d6r1 - 1 = [1→4] - 1 = 3");
    check(
        "2d{-2..2}>=-1",
        &[-2, -1],
        1,
        "2d{-2..2}>=-1 = [-2, -1✓] = 1",
    );
}
