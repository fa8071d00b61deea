//! Habits from other tools (`syntax::habits`): chat wrappers, flavour text,
//! other tools' modifiers refused with the fix, notes on what reads
//! differently (docs/notation.md, "Habits from other tools").

use super::support::refused;
use nutshell_dice::{Expression, Scripted};

fn normalized(text: &str) -> String {
    Expression::parse(text)
        .unwrap_or_else(|e| panic!("{text}: {}", e.render(text)))
        .normalized()
        .to_string()
}

/// The corrected expression a refusal offers (`did you mean `X``),
/// which must itself parse.
fn offered(text: &str) -> String {
    let message = refused(text);
    let fix = message
        .rsplit("`")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}: no fix in {message}"))
        .to_string();
    Expression::parse(&fix)
        .unwrap_or_else(|e| panic!("{text}: the fix {fix} fails: {}", e.render(&fix)));
    fix
}

/// Issue "A newcomer's first hour": flavour text after the roll is its label.
#[test]
fn flavour_text_is_the_rolls_label() {
    assert_eq!(normalized("1d20+5 # attack"), "(1d20 + 5)[attack]");
    assert_eq!(normalized("1d20+5 to hit"), "(1d20 + 5)[to hit]");
    assert_eq!(normalized("8d6 fire"), "8d6[fire]");
    assert_eq!(normalized("1d20+5 #"), "1d20 + 5");
    assert_eq!(
        normalized("1d20 + 5   Schwert-Angriff"),
        "(1d20 + 5)[Schwert-Angriff]"
    );
    // The label changes nothing of the roll.
    let labelled = Expression::parse("1d20+5 to hit").unwrap();
    let roll = labelled.roll(&mut Scripted::new([12])).unwrap();
    assert_eq!(roll.total, 17);
    // The echo parses back to itself.
    let echo = normalized("2d6[fire] + 1d4 # damage");
    assert_eq!(normalized(&echo), echo);
}

/// A misplaced modifier is not flavour text: the parser's own error stands.
#[test]
fn misplaced_modifiers_are_still_refused() {
    assert!(refused("4d6 kh3").contains("modifiers follow their dice with no space"));
    assert!(refused("4d6 kh").contains("modifiers follow their dice with no space"));
    assert!(refused("4d6 min").contains("modifiers follow their dice with no space"));
    assert!(refused("1d20+5 to [hit]").contains("cannot contain `[`"));
    assert!(refused("1d20 5").contains("unexpected `5`"));
}

/// Roll20's inline rolls and the chat commands of Roll20, Foundry and Avrae.
#[test]
fn chat_wrappers_are_read_as_the_expression() {
    assert_eq!(normalized("[[1d20+5]]"), "1d20 + 5");
    assert_eq!(normalized("  [[ 1d20+5 ]] "), "1d20 + 5");
    assert_eq!(normalized("/r 1d20+5"), "1d20 + 5");
    assert_eq!(normalized("/roll 4d6kh3"), "4d6kh3");
    assert_eq!(normalized("!r 1d20 to hit"), "1d20[to hit]");
    assert_eq!(normalized("[[1d20+5]] to hit"), "(1d20 + 5)[to hit]");
    // Carets still point at the user's text.
    let message = refused("[[1d20+]]");
    assert!(message.contains("[[1d20+]]"), "{message}");
    // Unclosed inline brackets are not unwrapped.
    assert!(refused("[[1d20+5").contains("label"));
}

#[test]
fn advantage_words_are_answered_with_the_expression() {
    assert_eq!(offered("1d20 adv"), "2d20kh1");
    assert_eq!(offered("1d20+5 dis"), "2d20kl1+5");
    assert_eq!(offered("d20 + 3 advantage"), "2d20kh1 + 3");
    assert!(refused("3d6 adv").contains("roll it as `2d20kh1`"));
}

/// Avrae's modifiers, each answered with nutshell's spelling.
#[test]
fn avrae_modifiers_are_answered_with_the_fix() {
    assert_eq!(offered("4d6e6"), "4d6!6");
    assert_eq!(offered("1d20ra1"), "1d20!o1");
    assert_eq!(offered("1d6mi2"), "1d6min2");
    assert_eq!(offered("1d6ma5+1"), "1d6max5+1");
    assert_eq!(offered("4d6p1"), "4d6dl1");
    assert_eq!(offered("4d6ph1"), "4d6dh1");
    assert_eq!(offered("8d6e>5"), "8d6!>5");
    assert!(refused("1d20mi10").contains("did you mean `min10`"));
    // The fixes mean what Avrae means: the same distribution as the
    // spelling the fix gives, for one die.
    let min = Expression::parse("1d6min2")
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(min.probability(2).to_string(), "1/3");
}

/// Roll20 reads `cs20` as a critical mark; nutshell counts (docs/notation.md).
#[test]
fn a_success_count_added_to_other_terms_is_noted() {
    let expr = Expression::parse("1d20cs20+5").unwrap();
    assert_eq!(expr.notes().len(), 1);
    assert!(
        expr.notes()[0].contains("`1d20cs20` counts successes"),
        "{:?}",
        expr.notes()
    );
    assert!(
        expr.notes()[0].contains("write `1d20+5`"),
        "{:?}",
        expr.notes()
    );
    // Read as documented: 1 or 0, plus 5.
    let roll = expr.roll(&mut Scripted::new([20])).unwrap();
    assert_eq!(roll.total, 6);
    let counted = Expression::parse("8d10>=7 + 2").unwrap();
    assert_eq!(counted.notes().len(), 1);
    assert!(!counted.notes()[0].contains("Roll20"));
    for quiet in ["1d20+5", "8d10>=7", "3d6 >= 15", "{3d6, 2d6}kh1 + 2"] {
        assert!(
            Expression::parse(quiet).unwrap().notes().is_empty(),
            "{quiet}"
        );
    }
}

/// Issue "The second hour": every `cs` that turns a total into a count
/// says so at the roll, alone too (Roll20 reads `1d20cs>19` as a d20
/// with its 20 marked).
#[test]
fn every_cs_that_counts_is_noted() {
    for (text, without, total) in [
        ("1d20cs>19", "1d20", 0),
        ("1d20cs20", "1d20", 0),
        ("{1d20}cs20", "{1d20}", 0),
        ("(1d20cs20)", "1d20", 0),
        ("3d6cs6 >= 1", "3d6", 0),
    ] {
        let expr = Expression::parse(text).unwrap();
        assert_eq!(expr.notes().len(), 1, "{text}: {:?}", expr.notes());
        let note = &expr.notes()[0];
        assert!(note.contains("the total is how many"), "{text}: {note}");
        assert!(
            note.contains(&format!("write `{without}`")),
            "{text}: {note}"
        );
        // Still a count, as documented: a 2 matches nothing.
        let roll = expr.roll(&mut Scripted::new([2, 2, 2])).unwrap();
        assert_eq!(roll.total, total, "{text}");
    }
    // Added to other terms: the one note of that case, not two.
    assert_eq!(Expression::parse("1d20cs20+5").unwrap().notes().len(), 1);
    assert!(Expression::parse("8d10>=7").unwrap().notes().is_empty());
}

/// Issue "The second hour": `vs N` compares the total (`>= N`).
#[test]
fn versus_is_at_least() {
    assert_eq!(normalized("1d20+5 vs 15"), "1d20 + 5 >= 15");
    assert_eq!(
        normalized("1d20+5 VS 15 to hit"),
        "(1d20 + 5 >= 15)[to hit]"
    );
    assert_eq!(normalized("2d6 versus 1d6+3"), "2d6 >= 1d6 + 3");
    assert_eq!(normalized("1d20 vs. 12"), "1d20 >= 12");
    let expr = Expression::parse("1d20+5 vs 15").unwrap();
    assert_eq!(expr.roll(&mut Scripted::new([10])).unwrap().total, 1);
    assert_eq!(expr.roll(&mut Scripted::new([9])).unwrap().total, 0);
    assert!(
        expr.notes()[0].contains("read as `>= 15`"),
        "{:?}",
        expr.notes()
    );
    // The odds are those of `>=`.
    assert_eq!(
        expr.distribution().unwrap().probability(1),
        Expression::parse("1d20+5 >= 15")
            .unwrap()
            .distribution()
            .unwrap()
            .probability(1)
    );
    // Not followed by a number or dice: flavour text, as before.
    assert_eq!(normalized("1d20 vs goblins"), "1d20[vs goblins]");
    assert_eq!(normalized("1d20 vs dragons"), "1d20[vs dragons]");
}

/// Issue "The second hour": `6#4d6kh3` is refused naming the repetition.
#[test]
fn another_tools_repetition_is_refused_naming_repeat() {
    let message = refused("6#4d6kh3");
    assert!(
        message.contains("`6#` asks for 6 rolls of `4d6kh3`"),
        "{message}"
    );
    assert!(message.contains("--repeat 6"), "{message}");
    assert!(message.contains("repeat=6"), "{message}");
    // A comment after white space stays a label.
    assert_eq!(normalized("6 # six"), "6[six]");
    assert_eq!(normalized("1d20 #3"), "1d20[3]");
    // The front ends' reading of it.
    assert_eq!(
        nutshell_dice::syntax::repeated("6#4d6kh3"),
        Some((6, "4d6kh3"))
    );
    assert_eq!(nutshell_dice::syntax::repeated("6#"), None);
}
