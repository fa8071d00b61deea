//! Performing an action with its dice: the one dispatch that the routes
//! (when a member acts) and `nutshell verify` (when it recomputes a log)
//! share, so they cannot disagree. Above [`crate::fair`] (which gives the
//! dice and knows nothing of what they are for) and beside the modules that
//! know the rules ([`crate::fight`], [`crate::sheet`], the rulesets).
//!
//! ```
//! use nutshell_dice::Limits;
//! use nutshell_server::action::Action;
//! use nutshell_server::fair::{dice, DiceInput};
//! use nutshell_server::replay::perform;
//! let action = Action::Roll { expression: "3d6".into() };
//! let text = action.canonical();
//! let input = DiceInput::new("room", 0, 1, 1, "my seed", &text);
//! let once = perform(&action, &mut dice(&[7; 32], &input), &Limits::default(), None).unwrap();
//! let again = perform(&action, &mut dice(&[7; 32], &input), &Limits::default(), None).unwrap();
//! assert_eq!(once, again);
//! assert!((3..=18).contains(&once["total"].as_i64().unwrap()));
//! ```

use nutshell_dice::{Expression, Limits, Seeded};
use serde_json::Value;

use crate::action::Action;
use crate::fight::Running;
pub use crate::roll_error::RollError;

/// Performs `action` with `dice` and answers its result as JSON: a dice
/// expression's transcript (`nutshell roll --json`), a check's or contest's
/// result (`nutshell check --json`), a sheet, an advanced sheet, or a fight
/// step's rounds or a played fight's decision (on `fight`, the fight as its
/// earlier events left it; a step without one is refused).
pub fn perform(
    action: &Action,
    dice: &mut Seeded,
    limits: &Limits,
    fight: Option<&mut Running>,
) -> Result<Value, RollError> {
    let rules = |e: nutshell_rules::RulesError| RollError::Rules(e.to_string());
    let json = |value: Result<Value, serde_json::Error>| {
        value.map_err(|e| RollError::Rules(format!("the result is not JSON: {e}")))
    };
    match action {
        Action::Roll { expression } => {
            let expr = Expression::parse_with(expression, limits)
                .map_err(|e| RollError::Notation(e.render(expression)))?;
            let roll = expr
                .roll(dice)
                .map_err(|e| RollError::Roll(e.render(expression)))?;
            json(serde_json::to_value(roll.report()))
        }
        Action::Check { request } => {
            request.validate().map_err(rules)?;
            json(serde_json::to_value(request.roll(dice).map_err(rules)?))
        }
        Action::Contest { request } => {
            request.validate().map_err(rules)?;
            json(serde_json::to_value(request.roll(dice).map_err(rules)?))
        }
        Action::Sheet { request } => crate::sheet::make(request, dice),
        Action::Advance { record } => crate::sheet::perform_advance(record, dice),
        Action::FightStep { rounds, .. } => match fight {
            Some(Running::Stepped(fight)) => crate::fight::step(fight, dice, *rounds),
            Some(Running::Played(_)) => Err(RollError::Rules(
                "a played fight goes on by its decisions, not by steps".into(),
            )),
            None => Err(RollError::Rules(
                "a fight step needs its fight as the earlier steps left it".into(),
            )),
        },
        Action::FightDecision {
            decision,
            engine,
            rounds,
            ..
        } => match fight {
            Some(Running::Played(played)) => {
                crate::fight::decide(&mut played.play, dice, decision.as_ref(), engine, *rounds)
            }
            Some(Running::Stepped(_)) => Err(RollError::Rules(
                "a decision in a fight that is not played by decisions".into(),
            )),
            None => Err(RollError::Rules(
                "a fight's decision needs its fight as the earlier events left it".into(),
            )),
        },
    }
}

/// Events of earlier servers, which named an event's kind by a prefix of its
/// `expression` (`check `, `contest `, `fight `, `character `, `advance `)
/// and keyed its dice by the sequence number ([`crate::fair::RollRecord`]).
/// Read only so that old logs still verify; nothing writes them.
pub mod legacy {
    use nutshell_dice::{Limits, Seeded};
    use serde_json::Value;

    use super::RollError;
    use crate::action::Action;
    use crate::fair::{self, RollRecord, Seed};
    use crate::fight::{self, FightRequest};
    use crate::sheet::{AdvanceRecord, SheetRequest};

    /// What the text of a legacy roll names.
    #[derive(Debug)]
    pub enum Legacy {
        /// An action of today's kinds.
        Action(Action),
        /// A whole fight fought in one event.
        WholeFight(FightRequest),
    }

    /// Reads a legacy roll's `expression`.
    pub fn read(expression: &str) -> Result<Legacy, RollError> {
        fn parse<T: serde::de::DeserializeOwned>(json: &str, what: &str) -> Result<T, RollError> {
            serde_json::from_str(json).map_err(|e| RollError::Rules(format!("not {what}: {e}")))
        }
        Ok(Legacy::Action(
            if let Some(json) = expression.strip_prefix("check ") {
                Action::Check {
                    request: parse(json, "a check request")?,
                }
            } else if let Some(json) = expression.strip_prefix("contest ") {
                Action::Contest {
                    request: parse(json, "a contest request")?,
                }
            } else if let Some(json) = expression.strip_prefix(fight::FIGHT_PREFIX) {
                return Ok(Legacy::WholeFight(parse(json, "a fight request")?));
            } else if let Some(json) = expression.strip_prefix("character ") {
                Action::Sheet {
                    request: parse::<SheetRequest>(json, "a sheet request")?,
                }
            } else if let Some(json) = expression.strip_prefix("advance ") {
                Action::Advance {
                    record: parse::<AdvanceRecord>(json, "an advance")?,
                }
            } else {
                Action::Roll {
                    expression: expression.to_string(),
                }
            },
        ))
    }

    /// Replays a fight step of an earlier server on `fight`: its dice keyed
    /// by `record`, whose text is [`fight::step_text`].
    pub fn step(
        fight: &mut nutshell_mls::Fight,
        seed: &Seed,
        record: &RollRecord<'_>,
    ) -> Result<Value, RollError> {
        let json = record
            .expression
            .strip_prefix(fight::STEP_PREFIX)
            .ok_or_else(|| RollError::Rules("not a fight step's record".into()))?;
        let value: Value = serde_json::from_str(json)
            .map_err(|e| RollError::Rules(format!("not a fight step's record: {e}")))?;
        let rounds = fight::Rounds::from_json(&value["rounds"]).map_err(RollError::Rules)?;
        let mut dice = Seeded::from_key(fair::roll_key(seed, record));
        fight::step(fight, &mut dice, rounds)
    }

    /// Performs a legacy roll event with the dice of `seed` and `record`.
    pub fn perform(
        seed: &Seed,
        record: &RollRecord<'_>,
        limits: &Limits,
    ) -> Result<Value, RollError> {
        let mut dice = Seeded::from_key(fair::roll_key(seed, record));
        match read(record.expression)? {
            Legacy::Action(action) => super::perform(&action, &mut dice, limits, None),
            Legacy::WholeFight(request) => fight::run_whole(&request, &mut dice),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::{self, DiceInput};

    /// The dice of an action depend on its canonical JSON: a roll and a
    /// check asked by the same roller at the same count draw different
    /// dice, and one action performed twice gives one result.
    #[test]
    fn the_dice_follow_the_action() {
        let seed = [4u8; 32];
        let roll = Action::Roll {
            expression: "1d1000000".into(),
        };
        let other = Action::Roll {
            expression: "1d1000000 ".into(),
        };
        let result = |action: &Action| {
            let text = action.canonical();
            let input = DiceInput::new("r", 0, 1, 1, "", &text);
            perform(
                action,
                &mut fair::dice(&seed, &input),
                &Limits::default(),
                None,
            )
            .unwrap()
        };
        assert_eq!(result(&roll), result(&roll));
        assert_ne!(result(&roll)["total"], result(&other)["total"]);
    }

    /// A fight step needs its fight.
    #[test]
    fn a_step_without_its_fight_is_refused() {
        let step = Action::FightStep {
            fight: 1,
            step: 1,
            rounds: crate::fight::Rounds::Count(1),
        };
        let error = perform(&step, &mut Seeded::new(1), &Limits::default(), None).unwrap_err();
        assert!(error.to_string().contains("fight"), "{error}");
    }

    /// Legacy texts read as the kinds they named.
    #[test]
    fn legacy_texts_read_as_their_kinds() {
        let kind = |text: &str| match legacy::read(text).unwrap() {
            legacy::Legacy::Action(action) => action.kind(),
            legacy::Legacy::WholeFight(_) => "whole fight",
        };
        assert_eq!(kind("2d6 + 1"), "roll");
        assert_eq!(kind(r#"check {"ruleset":"fantasy","mod":1}"#), "check");
        assert_eq!(kind(r#"character {"choices":"x"}"#), "sheet");
        assert!(legacy::read("advance {not json").is_err());
    }
}
