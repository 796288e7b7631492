//! Breaks and absences (2.2): the breaks a player takes, those the director grants or
//! ends, leaving the table mid-game, and a best-of-three series, whose breaks fall only
//! between its matches.

use super::command::DirectorAction;
use super::event::{Change, Event};
use super::setup::{BREAK_LENGTH, break_allowance};
use super::{Match, RuleError};
use crate::side::Side;
use crate::time::Timestamp;

impl Match {
    /// A player's 5-minute break (2.2): between games, within his allowance; in a
    /// best-of-three series only between its matches, that is before this match's first
    /// game when it is not the series' first match.
    pub(super) fn take_break(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if let Some(n) = self.setup.series_match {
            if self.game.is_some() || !self.games.is_empty() || n == 1 {
                return Err(RuleError::rule(
                    "2.2",
                    "in a best-of-three series breaks are taken only between matches",
                ));
            }
        } else if self.game.is_some() || self.games.is_empty() {
            return Err(RuleError::rule(
                "2.2",
                "breaks are taken only between games",
            ));
        }
        if self.breaks_left(side) == 0 {
            let n = break_allowance(self.length);
            return Err(RuleError::rule(
                "2.2",
                format!(
                    "player {side} has had his {n} break(s) in a {}-point match",
                    self.length
                ),
            ));
        }
        self.start_break(side, false, now, out)
    }

    fn start_break(
        &mut self,
        side: Side,
        granted: bool,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        // Consecutive breaks follow one another.
        let until = self.break_until.unwrap_or(now).max(now) + BREAK_LENGTH;
        self.emit(
            out,
            now,
            Change::BreakStarted {
                side,
                until,
                granted,
            },
        )
    }

    /// Whether the director's action on attendance fits the match now (2.2).
    pub(super) fn check_attendance_action(&self, action: &DirectorAction) -> Result<(), RuleError> {
        match action {
            DirectorAction::EndBreak if self.break_until.is_none() => {
                Err(RuleError::state("no break is running"))
            }
            DirectorAction::GrantBreak { .. } if self.game.is_some() => Err(RuleError::rule(
                "2.2",
                "a break is granted between games: mid-game, stop the clock (director called)",
            )),
            DirectorAction::LeftTable { .. } if self.game.is_none() => Err(RuleError::rule(
                "2.2",
                "leaving the table between games is a break: take_break",
            )),
            _ => Ok(()),
        }
    }

    /// The events that follow the director's ruling on attendance (2.2).
    pub(super) fn attendance_action(
        &mut self,
        action: &DirectorAction,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match *action {
            DirectorAction::EndBreak => self.emit(out, now, Change::BreakEnded),
            DirectorAction::GrantBreak { side } => self.start_break(side, true, now, out),
            _ => Ok(()),
        }
    }
}
