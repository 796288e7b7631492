//! What players ask of the director and of the committee above him: a clock or an
//! observer (2.3), and appeals against a ruling (5). They are records: the decisions they
//! lead to are the director's own actions, each with its ruling.

use super::command::PlayerRequest;
use super::event::{Change, Event};
use super::{Match, RuleError};
use crate::side::Side;
use crate::time::Timestamp;

/// The longest grounds an appeal may give, in bytes: a paragraph, not a file.
pub const MAX_GROUNDS: usize = 2_000;

impl Match {
    /// A player's request for a clock or an observer is recorded (2.3); the director
    /// answers it with his own actions (a clock is imposed with `impose_clock`).
    pub(super) fn request(
        &mut self,
        side: Side,
        what: PlayerRequest,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if what == PlayerRequest::Clock && self.clock.is_some() {
            return Err(RuleError::rule("2.3", "this match already has a clock"));
        }
        self.emit(out, now, Change::Requested { side, what })
    }

    /// A player appeals one of the director's rulings to the committee (5).
    pub(super) fn appeal(
        &mut self,
        side: Side,
        ruling: u32,
        grounds: &str,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if grounds.trim().is_empty() || grounds.len() > MAX_GROUNDS {
            return Err(RuleError::invalid(
                "5",
                format!("an appeal gives its grounds, in 1 to {MAX_GROUNDS} bytes"),
            ));
        }
        if ruling == 0 {
            return Err(RuleError::invalid("5", "rulings are numbered from 1"));
        }
        if ruling > self.rulings {
            return Err(RuleError::rule(
                "5",
                format!(
                    "there is no ruling {ruling} to appeal: the director has made {} in this match",
                    self.rulings
                ),
            ));
        }
        if self.appeals.iter().any(|a| a.ruling == ruling) {
            return Err(RuleError::rule(
                "5",
                format!("ruling {ruling} has already been appealed"),
            ));
        }
        let grounds = grounds.to_string();
        self.emit(
            out,
            now,
            Change::Appealed {
                side,
                ruling,
                grounds,
            },
        )
    }

    /// Whether the committee's decision can be recorded: an open appeal, a committee of 3
    /// or 5, and a simple majority for the decision (5).
    pub(super) fn check_appeal_decision(
        &self,
        appeal: u32,
        committee: u32,
        votes_for: u32,
    ) -> Result<(), RuleError> {
        if appeal == 0 {
            return Err(RuleError::invalid("5", "appeals are numbered from 1"));
        }
        let index = usize::try_from(appeal).unwrap_or(usize::MAX);
        let open = index
            .checked_sub(1)
            .and_then(|i| self.appeals.get(i))
            .ok_or_else(|| {
                RuleError::rule(
                    "5",
                    format!("there is no appeal {appeal}: {} so far", self.appeals.len()),
                )
            })?;
        if open.decision.is_some() {
            return Err(RuleError::rule(
                "5",
                format!("appeal {appeal} has been decided already"),
            ));
        }
        if committee != 3 && committee != 5 {
            return Err(RuleError::invalid(
                "5",
                format!("an appeals committee has 3 or 5 members, not {committee}"),
            ));
        }
        if votes_for > committee || votes_for * 2 <= committee {
            return Err(RuleError::invalid(
                "5",
                format!(
                    "a committee of {committee} decides by simple majority: {votes_for} votes \
                     is not one"
                ),
            ));
        }
        Ok(())
    }
}
