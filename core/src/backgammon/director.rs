//! Director actions (2.3, 3.5, 4.3, 4.4, 4.6–4.8): checked here, recorded as a ruling
//! with its reason and article, and followed by what they imply.

use super::command::{DirectorAction, Ruling};
use super::event::{Change, Event, GameEnd, MatchEnd};
use super::setup::{MAX_CUBE, MAX_LENGTH};
use super::{Match, RuleError};
use crate::time::Timestamp;

impl Match {
    /// Whether the director may take `action` now: a ruling with its reason and article,
    /// values in range, and the state it needs.
    fn check_director(&self, action: &DirectorAction, ruling: &Ruling) -> Result<(), RuleError> {
        if ruling.reason.trim().is_empty() || ruling.article.trim().is_empty() {
            return Err(RuleError::invalid(
                "",
                "a director action needs a reason and an article",
            ));
        }
        match *action {
            DirectorAction::AwardPoints { points: 0, .. }
            | DirectorAction::DeductPoints { points: 0, .. } => {
                return Err(RuleError::invalid(
                    "",
                    "a penalty of zero points changes nothing",
                ));
            }
            DirectorAction::AwardPoints { points, .. }
            | DirectorAction::DeductPoints { points, .. }
                if points > MAX_LENGTH =>
            {
                return Err(RuleError::invalid(
                    "",
                    format!("points are 1 to {MAX_LENGTH}, not {points}"),
                ));
            }
            DirectorAction::AdjustTime { delta, .. } => {
                self.clock_required()?;
                if delta.as_ms() == 0 {
                    return Err(RuleError::state("an adjustment of zero changes nothing"));
                }
            }
            DirectorAction::SetTime { time, .. } => {
                self.clock_required()?;
                if time.as_ms() < 0 {
                    return Err(RuleError::invalid(
                        "3.7",
                        "a clock cannot be set to a negative time",
                    ));
                }
            }
            DirectorAction::ForfeitGame { .. } => {
                self.current()?;
            }
            DirectorAction::ImposeClock { per_point, delay } => {
                if self.game.is_some() {
                    return Err(RuleError::rule(
                        "3.5",
                        "a clock is brought in at the start of a game, not during one",
                    ));
                }
                if per_point.as_ms() <= 0 || delay.as_ms() < 0 {
                    return Err(RuleError::invalid(
                        "3.5",
                        "the time per point must be positive and the delay not negative",
                    ));
                }
            }
            DirectorAction::RemoveClock => self.clock_required()?,
            DirectorAction::CorrectCube { value, owner } => {
                let game = self.current()?;
                if game.crawford {
                    return Err(RuleError::rule(
                        "4.4",
                        "the cube is off the board in the Crawford game",
                    ));
                }
                if matches!(game.turn, super::Turn::DoubleOffered { .. }) {
                    return Err(RuleError::rule(
                        "4.4 (vi)",
                        "a double is being decided: correct the cube once it is taken or passed",
                    ));
                }
                // Centred means at 1; after any take the cube has an owner.
                if !value.is_power_of_two() || value > MAX_CUBE || (value == 1) != owner.is_none() {
                    return Err(RuleError::invalid(
                        "4.4 (vi)",
                        format!(
                            "{value} is not a cube level (1 centred, or 2 to {MAX_CUBE} with an owner)"
                        ),
                    ));
                }
            }
            DirectorAction::CorrectLength { length } => {
                if length == 0 || length > MAX_LENGTH {
                    return Err(RuleError::invalid(
                        "4.8",
                        format!("a match length is 1 to {MAX_LENGTH} points"),
                    ));
                }
                if length == self.length {
                    return Err(RuleError::state(format!(
                        "the match length is already {length}"
                    )));
                }
            }
            DirectorAction::ConfirmResult if self.result.is_none_or(|r| r.confirmed) => {
                return Err(RuleError::rule(
                    "4.6",
                    "there is no unconfirmed match result",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) fn director(
        &mut self,
        action: &DirectorAction,
        ruling: &Ruling,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_director(action, ruling)?;
        self.emit(
            out,
            now,
            Change::Ruled {
                action: action.clone(),
                ruling: ruling.clone(),
            },
        )?;
        match *action {
            DirectorAction::ForfeitGame { loser, kind } => {
                let cube = self.current()?.cube_value();
                let ended = Change::GameEnded {
                    winner: loser.other(),
                    result: kind,
                    cube,
                    points: kind.multiplier() * cube,
                    how: GameEnd::Forfeit,
                };
                self.emit(out, now, ended)
            }
            DirectorAction::ForfeitMatch { loser } if self.result.is_none() => self.emit(
                out,
                now,
                Change::MatchEnded {
                    winner: loser.other(),
                    how: MatchEnd::Forfeit,
                },
            ),
            DirectorAction::CorrectLength { length } if self.game.is_none() => {
                self.correct_length(length, now, out)
            }
            _ => Ok(()),
        }
    }
}
