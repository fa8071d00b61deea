//! Property tests: random expressions from the notation's grammar.

use nutshell_dice::{Expression, Scripted, Seeded};
use proptest::prelude::*;

/// A dice term with a random die and random modifiers.
fn dice_term() -> impl Strategy<Value = String> {
    let sides = prop::sample::select(vec![
        "2",
        "3",
        "4",
        "6",
        "8",
        "10",
        "12",
        "20",
        "100",
        "%",
        "F",
        "66",
        "00",
        "{0,10,20}",
        "{-2..2}",
        "{1,1,2}",
    ]);
    let reroll = prop::sample::select(vec!["", "", "", "r1", "ro1", "r<=1", "ro<=2"]);
    let explode = prop::sample::select(vec!["", "", "", "!", "!!", "!p", "!o", "!>=5"]);
    let clamp = prop::sample::select(vec!["", "", "", "min2", "max3", "min0max5"]);
    let keep = prop::sample::select(vec!["", "", "kh1", "kl2", "dh1", "dl1", "k"]);
    let count = prop::sample::select(vec!["", "", ">=4", "=1", "<=2", ">=3f1"]);
    let sort = prop::sample::select(vec!["", "", "", "s", "sd"]);
    (0u8..5, sides, reroll, explode, clamp, keep, count, sort).prop_map(
        |(n, sides, reroll, explode, clamp, keep, count, sort)| {
            format!("{n}d{sides}{reroll}{explode}{clamp}{keep}{count}{sort}")
        },
    )
}

/// An expression built from dice terms, numbers and every combinator.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![3 => dice_term(), 1 => (0i64..30).prop_map(|n| n.to_string())];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            inner.clone().prop_map(|a| format!("nominal({a})")),
            inner.clone().prop_map(|a| format!("maximize({a})")),
            (
                inner.clone(),
                inner.clone(),
                prop::sample::select(vec!["kh1", "dl1", ">=3", ""])
            )
                .prop_map(|(a, b, m)| format!("{{{a}, {b}}}{m}")),
            (dice_term(), dice_term()).prop_map(|(a, b)| format!("{{{a} + {b}}}kh2")),
            inner.clone().prop_map(|a| format!("({a})[x]")),
            (1u8..4, dice_term())
                .prop_map(|(n, d)| format!("({n}d4){}", &d[d.find('d').unwrap()..])),
            // Parenthesized whole: a comparison inside a sum would otherwise
            // chain with another (`a >= b + c >= d`), which the notation refuses.
            (inner.clone(), inner).prop_map(|(a, b)| format!("(({a}) >= ({b}))")),
        ]
    })
}

/// The faces of a roll in the order a player would type them in.
fn typed_faces(roll: &nutshell_dice::Roll<'_>) -> Vec<i64> {
    let report = roll.report();
    let mut faces = Vec::new();
    for die in &report.dice {
        for face in &die.faces {
            if face.cause == nutshell_dice::roll::transcript::FaceCause::Fixed {
                continue;
            }
            if die.die == "d66" || die.die == "d666" {
                faces.extend(
                    face.face
                        .to_string()
                        .chars()
                        .map(|c| i64::from(c.to_digit(10).unwrap())),
                );
            } else {
                faces.push(face.face);
            }
        }
    }
    faces
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The normalized echo is a fixed point: it parses back to itself.
    #[test]
    fn normalized_expression_parses_to_itself(text in expression()) {
        if let Ok(expr) = Expression::parse(&text) {
            let again = Expression::parse(expr.normalized())
                .unwrap_or_else(|e| panic!("{} from {text}: {}", expr.normalized(), e.render(expr.normalized())));
            prop_assert_eq!(again.normalized(), expr.normalized());
        }
    }

    /// Only rolls that could never end are refused among well-formed expressions.
    #[test]
    fn well_formed_expressions_parse(text in expression()) {
        if let Err(e) = Expression::parse(&text) {
            let refusal = e.message.contains("forever") || e.message.contains("counted by the group");
            prop_assert!(refusal, "{}: {}", text, e.render(&text));
        }
    }

    /// A seed gives the same roll every time, and the faces the transcript lists,
    /// typed back in, give the same roll again.
    #[test]
    fn rolls_replay_from_the_seed_and_from_the_transcript(text in expression(), seed in any::<u64>()) {
        let Ok(expr) = Expression::parse(&text) else { return Ok(()) };
        let first = expr.roll(&mut Seeded::new(seed));
        let second = expr.roll(&mut Seeded::new(seed));
        prop_assert_eq!(&first, &second);
        let Ok(roll) = first else { return Ok(()) };
        let faces = typed_faces(&roll);
        let mut scripted = Scripted::new(faces.clone());
        let replay = expr.roll(&mut scripted).unwrap_or_else(|e| panic!("{text} with {faces:?}: {e}"));
        prop_assert_eq!(scripted.remaining(), 0);
        prop_assert_eq!(replay.total, roll.total);
        prop_assert_eq!(replay.render(), roll.render());
    }

    /// Any text at all: an error or a roll, never a panic.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,40}") {
        if let Ok(expr) = Expression::parse(&text) {
            let _ = expr.roll(&mut Seeded::new(1)).map(|r| r.render());
        }
    }

    /// Text made of notation characters: an error or a roll, never a panic.
    #[test]
    fn notation_soup_never_panics(text in "[0-9dDkhlrofFxsacm!<>=+*/(){},.\\[\\]% -]{0,30}") {
        if let Ok(expr) = Expression::parse(&text) {
            let _ = expr.roll(&mut Seeded::new(1)).map(|r| r.report());
            prop_assert!(Expression::parse(expr.normalized()).is_ok());
        }
    }
}
