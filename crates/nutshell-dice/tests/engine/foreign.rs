//! Other dice languages' spellings (`syntax::foreign`): refused with the
//! expression to type.

use super::support::refused;
use nutshell_dice::Expression;

/// The expression a refusal offers (its last backquoted text), which
/// must parse.
fn offered(text: &str) -> Expression {
    let message = refused(text);
    let fix = message.rsplit('`').nth(1).expect("a fix").to_string();
    Expression::parse(&fix).unwrap_or_else(|e| panic!("{text}: {}", e.render(&fix)))
}

/// Issue "The second hour": AnyDice's keep brackets are answered with
/// the keep modifier, and the fix has AnyDice's distribution (checked
/// against AnyDice's published `[highest 1 of 2d20]`: 2k-1 in 400).
#[test]
fn anydice_brackets_are_answered_with_keep() {
    assert!(refused("[highest 3 of 4d6]").contains("did you mean `4d6kh3`?"));
    assert!(refused("[lowest 1 of 2d20] + 5").contains("as in `2d20kl1 + 5`"));
    assert!(refused("[HIGHEST 2 of 3d8]").contains("AnyDice"));
    assert_eq!(offered("[highest 3 of 4d6]").normalized(), "4d6kh3");
    assert_eq!(
        offered("1 + [highest 1 of 2d20]").normalized(),
        "1 + 2d20kh1"
    );
    let best = offered("[highest 1 of 2d20]").distribution().unwrap();
    for k in 1..=20i64 {
        assert_eq!(best.probability(k).to_string(), {
            let r = num_rational::BigRational::new((2 * k - 1).into(), 400.into());
            r.to_string()
        });
    }
    // Not AnyDice's: the parser's own error stands.
    assert!(refused("[fire]").contains("a label must follow the term it names"));
    assert!(refused("[highest of 4d6]").contains("a label must follow"));
}

#[test]
fn anydice_output_is_answered_with_the_expression() {
    assert!(refused("output 3d6").contains("did you mean `3d6`?"));
    assert!(refused("output [highest 3 of 4d6] named \"stat\"").contains("`4d6kh3`"));
    assert!(refused("output").contains("write the dice alone"));
    assert_eq!(offered("output 2d6 + 1").normalized(), "2d6 + 1");
    assert!(refused("outpt 3d6").contains("unknown function `outpt`"));
}

#[test]
fn attribute_references_are_explained() {
    let message = refused("1d20+@str");
    assert!(
        message.contains("`@str` refers to a character's attribute"),
        "{message}"
    );
    assert!(message.contains("as in `1d20+3`"), "{message}");
    assert!(refused("1d20 + @{strength_mod}").contains("`@{strength_mod}`"));
    assert!(refused("1@3d6").contains("AnyDice's pick"));
    assert!(refused("@").contains("no references"));
}
