//! What a member asks the dice for, as one typed value: an [`Action`] is a
//! tagged JSON object (`"kind"`), one variant per kind of event that draws
//! dice, each written only by its own route. The kind of an event is its
//! structure, never a prefix of a text: `POST /rolls` can only make
//! [`Action::Roll`] (an expression that must parse as dice), so no roll can
//! pass for a check, a sheet or an advance.
//!
//! The dice are keyed by the action's canonical JSON ([`Action::canonical`],
//! through [`crate::fair::DiceInput`]); performing an action is
//! [`crate::replay::perform`], the one dispatch the server and `nutshell
//! verify` share.
//!
//! ```
//! use nutshell_server::action::Action;
//! let roll: Action = serde_json::from_str(r#"{"kind":"roll","expression":"1d20"}"#).unwrap();
//! assert_eq!(roll, Action::Roll { expression: "1d20".into() });
//! assert_eq!(roll.canonical(), r#"{"expression":"1d20","kind":"roll"}"#);
//! // A field no variant has is refused, not ignored.
//! assert!(serde_json::from_str::<Action>(r#"{"kind":"roll","expression":"1d6","x":1}"#).is_err());
//! ```

use nutshell_rules::request::{CheckRequest, ContestRequest};
use serde::{Deserialize, Serialize};

use crate::fight::Rounds;
use crate::sheet::{AdvanceRecord, SheetRequest};

/// One action that draws dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// A dice expression (`POST /rolls`).
    Roll {
        /// The expression exactly as sent.
        expression: String,
    },
    /// A check of a ruleset (`POST /checks`).
    Check {
        /// `nutshell check`'s options, tagged by `ruleset`.
        request: CheckRequest,
    },
    /// A contest of a ruleset (`POST /contests`).
    Contest {
        /// `nutshell contest`'s options, tagged by `ruleset`.
        request: ContestRequest,
    },
    /// An MLS character made from choices (`POST /sheets`).
    Sheet {
        /// The choices.
        request: SheetRequest,
    },
    /// An advance of a sheet (`POST /sheets/{sheet}/advance`): the sheet,
    /// the version it starts from and the options.
    Advance {
        /// What is advanced and how.
        record: AdvanceRecord,
    },
    /// Rounds of an MLS fight (`POST /fights/{fight}/step`), each says how
    /// far to go.
    FightStep {
        /// The fight (its first event's `seq`).
        fight: i64,
        /// The step's number in the fight (1 for the first).
        step: i64,
        /// How many rounds it resolves.
        rounds: Rounds,
    },
    /// A decision in a played MLS fight (`POST /fights/{fight}/decisions`,
    /// or the engine's default when the time for it ran out), and the
    /// rounds it lets the fight resolve until the next person's decision.
    FightDecision {
        /// The fight (its first event's `seq`).
        fight: i64,
        /// The event's number in the fight's thread (1 for the first after
        /// the fight's own event).
        step: i64,
        /// The answer, as the engine's log writes it (who, kind, choice,
        /// by whom); none when the fight only goes on (its start, or the
        /// combatant waited for handed to the engine).
        decision: Option<nutshell_mls::fight::Made>,
        /// The combatants the engine controls at this point, by name.
        engine: Vec<String>,
        /// The most rounds this event resolves before it stops (the next
        /// event goes on); none: until a person's decision or the end, as
        /// earlier servers wrote.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rounds: Option<u32>,
    },
}

impl Action {
    /// The canonical JSON of the action (keys sorted, no spaces): what its
    /// dice are keyed by.
    pub fn canonical(&self) -> String {
        crate::fair::canonical(&self.to_json())
    }

    /// The action as a JSON value (the `action` field of its event's body).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("an action is plain data")
    }

    /// The kind, as its tag names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Roll { .. } => "roll",
            Action::Check { .. } => "check",
            Action::Contest { .. } => "contest",
            Action::Sheet { .. } => "sheet",
            Action::Advance { .. } => "advance",
            Action::FightStep { .. } => "fight-step",
            Action::FightDecision { .. } => "fight-decision",
        }
    }

    /// The kind of log event an action of this kind is written as: a fight
    /// step is a `fight-step` event and a decision a `fight-decision` event
    /// (they continue their fight's thread), every other action a `roll`
    /// event.
    pub fn event_kind(&self) -> &'static str {
        match self {
            Action::FightStep { .. } => "fight-step",
            Action::FightDecision { .. } => "fight-decision",
            _ => "roll",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every variant reads back from its JSON, and its tag is the kind.
    #[test]
    fn every_action_round_trips_through_its_json() {
        let check: CheckRequest =
            serde_json::from_value(json!({"ruleset": "fantasy", "mod": 5, "dc": "hard"})).unwrap();
        let actions = [
            Action::Roll {
                expression: "4d6kh3".into(),
            },
            Action::Check { request: check },
            Action::Sheet {
                request: SheetRequest {
                    choices: "name = \"x\"".into(),
                },
            },
            Action::FightStep {
                fight: 3,
                step: 1,
                rounds: Rounds::ToEnd,
            },
        ];
        for action in actions {
            let value = action.to_json();
            assert_eq!(value["kind"], action.kind());
            let back: Action = serde_json::from_value(value).unwrap();
            assert_eq!(back, action);
        }
    }

    /// A text that used to name another kind by its prefix is only an
    /// expression inside a roll: its kind is the tag.
    #[test]
    fn a_prefix_in_an_expression_is_only_text() {
        let action: Action =
            serde_json::from_value(json!({"kind": "roll", "expression": "advance {\"sheet\":4}"}))
                .unwrap();
        assert_eq!(action.kind(), "roll");
        // An unknown kind, or a kind with another's fields, is refused.
        for bad in [
            json!({"kind": "fight", "expression": "1d6"}),
            json!({"kind": "check", "expression": "1d6"}),
            json!({"expression": "1d6"}),
        ] {
            assert!(
                serde_json::from_value::<Action>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }
}
