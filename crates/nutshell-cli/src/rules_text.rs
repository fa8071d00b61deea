//! How checks and contests read on the command line, the same for every
//! ruleset: the dice each roll drew, grouped by what they were rolled for
//! (`3d6 [4, 3, 4] for the check`, a botch check or a tie-break apart from
//! the dice that add up), and contest outcomes named by the sides.
//!
//! The results themselves (`--json`, and what the server records and
//! `nutshell verify` recomputes) are the rules library's, unchanged: only
//! their reading here is made.

use nutshell_rules::outcome::RolledDie;
use nutshell_rules::{ContestResult, favor_3d6, mls};

/// The dice as runs of the same die and purpose, in the order rolled:
/// `3d6 [4, 3, 4] for the check; 1d8 [7] for the edge gained`.
pub fn dice_groups(dice: &[RolledDie]) -> Vec<String> {
    let mut groups: Vec<(&str, &str, Vec<i64>)> = Vec::new();
    for d in dice {
        match groups.last_mut() {
            Some((die, purpose, faces)) if *die == d.die && *purpose == d.purpose => {
                faces.push(d.face)
            }
            _ => groups.push((&d.die, &d.purpose, vec![d.face])),
        }
    }
    groups
        .into_iter()
        .map(|(die, purpose, faces)| {
            let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
            format!("{}{die} [{}] {purpose}", faces.len(), faces.join(", "))
        })
        .collect()
}

/// What a contest side's line says of its outcome: a favor-3d6 tie is a
/// tie, won or lost on the tie-break, not a success against a failure.
pub fn side_outcome(contest: &ContestResult, side: usize) -> String {
    let outcome = contest.sides[side].outcome.id().to_string();
    let totals: Vec<Option<i64>> = contest.sides.iter().map(|s| s.total).collect();
    let tied = contest.ruleset == favor_3d6::ID
        && totals.len() == 2
        && totals[0].is_some()
        && totals[0] == totals[1]
        && contest.winner != "none";
    if !tied {
        return outcome;
    }
    let won = (side == 0) == (contest.winner == "first");
    format!(
        "a tie, {} on the tie-break",
        if won { "won" } else { "lost" }
    )
}

/// A contest's winner (`first`, `second`, `none`) named by the sides, for
/// its line and its odds' rows.
pub fn winner_name(ruleset: &str, winner: &str) -> &'static str {
    match (winner, ruleset == mls::ID) {
        ("first", true) => "the active side succeeds",
        ("none", true) => "the active side fails",
        ("first", false) => "the first side wins",
        ("second", _) => "the second side wins",
        _ => "neither side wins",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(die: &str, face: i64, purpose: &str) -> RolledDie {
        RolledDie {
            die: die.into(),
            face,
            purpose: purpose.into(),
        }
    }

    #[test]
    fn dice_are_grouped_by_die_and_purpose() {
        let dice = [
            die("d6", 1, "for side A"),
            die("d6", 3, "botch check for side A"),
        ];
        assert_eq!(
            dice_groups(&dice),
            ["1d6 [1] for side A", "1d6 [3] botch check for side A"]
        );
        let dice = [
            die("d6", 4, "for the check"),
            die("d6", 3, "for the check"),
            die("d6", 4, "for the check"),
        ];
        assert_eq!(dice_groups(&dice), ["3d6 [4, 3, 4] for the check"]);
    }

    #[test]
    fn winners_are_named_by_the_sides() {
        assert_eq!(winner_name("mls", "none"), "the active side fails");
        assert_eq!(winner_name("exploding-d6", "first"), "the first side wins");
        assert_eq!(winner_name("favor-3d6", "none"), "neither side wins");
    }
}
