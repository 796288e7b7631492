//! The commands of a game that are more than a line: a player's arrival, a flag claimed,
//! a lost-on-time game drawn for want of mating material, the clocks stopped and started,
//! and the arbiter's correction of a clock (FIDE Laws, Article 6).

use super::{Color, Event, Game, GameResult, Outcome, Reason};
use crate::chess::error::ChessError;
use crate::clock::PauseReason;
use crate::time::{Millis, Timestamp};

impl Game {
    /// A player arrives at the board, once.
    pub(super) fn arrive(
        &mut self,
        color: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if self.present[color.index()] {
            return Err(ChessError::state(format!("{color:?} is already here")));
        }
        self.emit(Event::Arrived { color, at: now }, out)
    }

    /// `claimant` claims the opponent's fallen flag (6.8); the result depends on what
    /// the board and the other flag say.
    pub(super) fn claim_flag(
        &mut self,
        claimant: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let flagged = claimant.other();
        if !self.flags.iter().any(|(c, _)| *c == flagged) {
            return Err(ChessError::rule(
                "6.8",
                format!("{flagged:?}'s flag has not fallen"),
            ));
        }
        let result = self.flag_result(flagged);
        self.emit(Event::Ended { result, at: now }, out)
    }

    /// A game lost on time becomes a draw when the opponent cannot checkmate (6.9).
    pub(super) fn cannot_checkmate(
        &mut self,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        match self.result {
            Some(GameResult {
                reason: Reason::Flag,
                ..
            }) => {
                let result = GameResult {
                    outcome: Outcome::Draw,
                    reason: Reason::FlagInsufficientMaterial,
                };
                self.emit(Event::Ended { result, at: now }, out)
            }
            _ => Err(ChessError::rule(
                "6.9",
                "only a game lost on time becomes a draw because the opponent cannot checkmate",
            )),
        }
    }

    /// The clocks stop (6.12) to call the arbiter or by his decision, for no other reason.
    pub(super) fn pause(
        &mut self,
        reason: PauseReason,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if !matches!(
            reason,
            PauseReason::DirectorCalled | PauseReason::DirectorStopped
        ) {
            return Err(ChessError::invalid(
                "6.12",
                format!(
                    "the clocks stop to call the arbiter or by his decision, not for \"{}\"",
                    reason.describe()
                ),
            ));
        }
        self.emit(
            Event::Paused {
                reason: reason.name().to_string(),
                at: now,
            },
            out,
        )
    }

    /// The clocks restart, but not over a quickplay claim the arbiter has yet to rule on.
    pub(super) fn resume(
        &mut self,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if self.claim.is_some() && !self.claim_postponed {
            return Err(ChessError::state("rule on the quickplay claim first"));
        }
        self.emit(Event::Resumed { at: now }, out)
    }

    /// The arbiter corrects a clock (6.10) while the clocks are stopped.
    pub(super) fn set_time(
        &mut self,
        color: Color,
        time: Millis,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if time < Millis::ZERO {
            return Err(ChessError::invalid("6.10", "a time is not negative"));
        }
        self.stopped("6.10")?;
        self.emit(
            Event::TimeSet {
                color,
                time,
                why: "6.10: arbiter's correction".into(),
                at: now,
            },
            out,
        )
    }
}
