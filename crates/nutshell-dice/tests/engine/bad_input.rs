//! Bad input: every case must be refused with a message that says what is
//! wrong and a caret under the offending column, before any die is rolled.

use nutshell_dice::{Expression, Limits};

/// (input, 1-based column of the caret, message)
const CASES: &[(&str, usize, &str)] = &[
    ("", 1, "the expression is empty"),
    ("   ", 1, "the expression is empty"),
    (
        "4d6+",
        5,
        "expected a number, a die, `(`, `{` or a function after `+`",
    ),
    (
        "4d",
        3,
        "expected the sides of the die after `d`, found the end of the expression",
    ),
    ("d0", 2, "a die needs at least one side"),
    ("4d6z", 4, "unknown modifier `z` after a dice term"),
    ("(1+2", 5, "expected `)` to close the `(` at column 1"),
    ("1+2)", 4, "unexpected `)`: there is no `(` to close"),
    ("4d6 kh3", 5, "unexpected `k` after white space"),
    ("foo(1)", 1, "unknown function `foo`"),
    ("min(1,)", 7, "expected an argument of `min`, found `)`"),
    ("min 1", 5, "expected `(` after `min`, found `1`"),
    ("1 < 2 < 3", 7, "comparisons cannot be chained"),
    (
        "1d6!>",
        6,
        "expected a number after `!>`, found the end of the expression",
    ),
    ("d{}", 2, "a die needs at least one face"),
    (
        "d{1,2",
        6,
        "expected `,` or `}` in the list of faces, found the end of the expression",
    ),
    ("d{3..1}", 3, "the range 3..1 runs backwards"),
    ("99999999999999999999", 1, "the number is too large"),
    // A letter after white space starts flavour text (a label); a symbol does not.
    ("4d6 €", 5, "unexpected character `€`"),
    ("2d6[fire", 4, "unclosed label: expected `]`"),
    ("[fire]", 1, "a label must follow the term it names"),
    ("{}", 1, "a group needs at least one member"),
    ("{1d6,2d6", 9, "expected `}` to close the `{` at column 1"),
    ("{1d6}!", 6, "unknown modifier `!` after a group"),
    ("1d6kh1kh1", 7, "a dice term takes only one keep or drop"),
    ("1d6!!!", 6, "a dice term takes only one explosion"),
    ("1d6r1ro2", 6, "a dice term cannot mix `r` and `ro`"),
    // Issue 23, item 11: `2d6kh-1` was read as `2d6kh1 - 1`.
    ("2d6kh-1", 6, "a keep or drop count cannot be negative"),
    ("2d6k-1", 5, "a keep or drop count cannot be negative"),
    (
        "4d6dl\u{2212}2",
        6,
        "a keep or drop count cannot be negative",
    ),
    (
        "{1d6,1d6}kh-1",
        12,
        "a keep or drop count cannot be negative",
    ),
    (
        "1d1!",
        1,
        "this roll would explode forever: every face of the die explodes",
    ),
    (
        "1d6r<=6",
        1,
        "this roll would reroll forever: every face of the die is rerolled",
    ),
    (
        "999999999d999999999",
        1,
        "999999999 dice is too many: the limit is 10000 dice per roll (max_dice)",
    ),
    (
        "d99999999999",
        2,
        "a die with 99999999999 faces is too large: a die has at most 4294967295 faces",
    ),
    (
        "1d6f",
        5,
        "expected a comparison such as `>=5` after `f`, found the end of the expression",
    ),
    (
        "1d6min",
        7,
        "expected a number after `min`, found the end of the expression",
    ),
    (
        "1d6cs",
        6,
        "expected a comparison such as `>=5` after `cs`, found the end of the expression",
    ),
    (
        "1d6 >= ",
        8,
        "expected a number, a die, `(`, `{` or a function after `>=`",
    ),
    (
        "abs(1, 2)",
        1,
        "`abs` takes exactly one argument, but was given 2",
    ),
    (
        "nominal()",
        1,
        "`nominal` takes exactly one argument, but was given 0",
    ),
    ("1d6kh1.5", 7, "unexpected `.`: numbers are whole numbers"),
    ("1e5", 2, "unexpected `e`"),
    ("1,2", 2, "unexpected `,` outside a group or a function"),
    (
        "}",
        1,
        "expected a number, a die, `(`, `{` or a function, found `}`",
    ),
    ("1d6 2", 5, "unexpected `2`"),
    ("1d6>=5>=3", 7, "a dice term takes only one success count"),
    ("1d6min5max3", 4, "`min5` is above `max3`"),
    (
        "d{1..99999999999}",
        2,
        "a die with 99999999999 faces is too large: a die has at most 4294967295 faces",
    ),
    ("2d6[]", 4, "a label cannot be empty"),
    ("{2d6, 1d6}!", 11, "unknown modifier `!` after a group"),
    (
        "1d6r>=1",
        1,
        "this roll would reroll forever: every face of the die is rerolled",
    ),
    ("4d6sa s", 7, "unexpected `s` after white space"),
    ("3d6 kh 3", 5, "unexpected `k` after white space"),
    (
        ")",
        1,
        "expected a number, a die, `(`, `{` or a function, found `)`",
    ),
    (
        "*3",
        1,
        "expected a number, a die, `(`, `{` or a function, found `*`",
    ),
    (
        "1d6**2",
        5,
        "expected a number, a die, `(`, `{` or a function after `*`, found `*`",
    ),
    ("1d{0,x}", 6, "expected a number after `,`, found `x`"),
    ("1 2", 3, "unexpected `2`"),
    ("d%%", 3, "unexpected `%`"),
    (
        "1d6!p<",
        7,
        "expected a number after `!p<`, found the end of the expression",
    ),
    (
        "min()",
        1,
        "`min` takes one or more arguments, but was given 0",
    ),
    ("4d6[a][b]", 7, "a term has only one label"),
];

#[test]
fn every_bad_input_names_the_problem_and_its_column() {
    assert!(CASES.len() >= 40);
    for &(input, column, message) in CASES {
        let err = match Expression::parse(input) {
            Ok(expr) => panic!(
                "`{input}` should be refused, but parsed as `{}`",
                expr.normalized()
            ),
            Err(err) => err,
        };
        assert_eq!(err.message, message, "message for `{input}`");
        assert_eq!(err.column(), column, "column for `{input}`");
        // The rendered error shows the expression and a caret under the column.
        let rendered = err.render(input);
        let caret_line = rendered.lines().nth(2).unwrap_or_default();
        assert_eq!(
            caret_line.find('^'),
            Some(column + 1),
            "caret for `{input}`:\n{rendered}"
        );
    }
}

#[test]
fn limits_are_reported_with_their_names() {
    let limits = Limits {
        max_dice: 5,
        max_nesting: 3,
        max_expression_chars: 12,
        ..Limits::default()
    };
    let err = Expression::parse_with("6d6", &limits).unwrap_err();
    assert_eq!(
        err.message,
        "6 dice is too many: the limit is 5 dice per roll (max_dice)"
    );
    let err = Expression::parse_with("((((1))))", &limits).unwrap_err();
    assert_eq!(
        err.message,
        "the expression nests deeper than 3 levels (max_nesting)"
    );
    assert_eq!(err.column(), 4);
    let err = Expression::parse_with("1+1+1+1+1+1+1", &limits).unwrap_err();
    assert_eq!(
        err.message,
        "the expression is 13 characters long; the limit is 12 (max_expression_chars)"
    );
    assert_eq!(err.column(), 13);
}

#[test]
fn roll_time_errors_point_at_the_term() {
    let cases: &[(&str, usize, &str)] = &[
        ("1 + 1/(1d2-1)", 7, "division by zero"),
        (
            "2 + (1d4-5)d6",
            6,
            "the dice count came out as -4; it must be 0 or more",
        ),
        (
            "1d(1d2-2)",
            4,
            "the number of sides came out as -1; it must be from 1 to 4294967295",
        ),
        (
            "9223372036854775807 + 1d6",
            1,
            "the result is too large for a 64-bit integer",
        ),
        (
            "1d6 + 1d(2-1)!",
            7,
            "this roll would explode forever: every face of the die explodes",
        ),
    ];
    for &(input, column, message) in cases {
        let expr = Expression::parse(input).unwrap();
        let err = expr
            .roll(&mut nutshell_dice::Scripted::new([1, 1, 1]))
            .expect_err(input);
        assert_eq!(err.to_string(), message, "{input}");
        assert_eq!(err.span().column(), column, "{input}");
    }
}

#[test]
fn a_computed_dice_count_respects_the_dice_limit() {
    let limits = Limits {
        max_dice: 10,
        ..Limits::default()
    };
    let expr = Expression::parse_with("(1d20)d6", &limits).unwrap();
    let err = expr
        .roll(&mut nutshell_dice::Scripted::new([15]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "this roll needs more than 10 dice (max_dice)"
    );
    // Explosions count too.
    let expr = Expression::parse_with("2d6!", &limits).unwrap();
    let err = expr.roll(&mut AlwaysHighest).unwrap_err();
    assert_eq!(
        err.to_string(),
        "this roll needs more than 10 dice (max_dice)"
    );
}

/// A source whose dice always show their highest face.
struct AlwaysHighest;

impl nutshell_dice::DiceSource for AlwaysHighest {
    fn draw(
        &mut self,
        faces: &nutshell_dice::Faces<'_>,
    ) -> Result<i64, nutshell_dice::source::SourceError> {
        Ok(faces.max())
    }
}

/// A control character (an escape that would restyle the terminal) is named
/// by its code point, never printed.
#[test]
fn control_characters_are_named_not_printed() {
    for text in ["1d6\u{1b}[31mX", "1d6+\u{7}"] {
        let e = Expression::parse(text).unwrap_err();
        let shown = e.render(text);
        assert!(shown.contains("control character U+00"), "{shown}");
        assert!(
            !shown.chars().any(|c| c.is_control() && c != '\n'),
            "{shown:?}"
        );
    }
}

/// Issue 23, item 11: a keep count is never negative, so `2d6kh-1` is
/// refused with the caret at the `-`; written with a space, or with a count,
/// the subtraction is what it looks like.
#[test]
fn a_negative_keep_count_is_refused_and_a_spaced_subtraction_is_not() {
    let err = Expression::parse("2d6kh-1").unwrap_err();
    assert_eq!(
        err.render("2d6kh-1"),
        "error: a keep or drop count cannot be negative\n  2d6kh-1\n       ^ to subtract, put a space before the `-`, as in `2d6kh1 - 1`"
    );
    for (text, normalized) in [
        ("2d6kh - 1", "2d6kh1 - 1"),
        ("2d6kh1-1", "2d6kh1 - 1"),
        ("2d6k -1", "2d6kh1 - 1"),
        ("4d6dl1-2", "4d6dl1 - 2"),
    ] {
        assert_eq!(
            Expression::parse(text).unwrap().normalized(),
            normalized,
            "{text}"
        );
    }
}
