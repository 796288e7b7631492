//! What a director's correction changed, before and after, recorded with the ruling.
//!
//! A new director's `correct-score`, `deduct`, `adjust-time`, `set-time`,
//! `correct-result` and `confirm` were all said as "ruling, art. 4.7: the director's
//! decision": nobody reading the log, the page or `follow` could tell what they changed.
//! So `bg.ruling` carries an [`Effect`] for those actions — the score, or the side's
//! clock, read just before and just after the ruling at its instant. The effect is a
//! statement the fold checks: [`super::Match::evolve`] reads the same two values and
//! refuses a ruling whose effect says otherwise, so it cannot be forged in an export.
//! Rulings recorded before effects existed carry none and replay as they did.

use super::Match;
use super::command::DirectorAction;
pub use super::event::Effect;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// One reading of what an action changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    Score([u32; 2]),
    Clock(Side, Millis),
}

impl Reading {
    /// The effect between two readings of the same thing.
    pub(super) fn to(self, after: Reading) -> Option<Effect> {
        match (self, after) {
            (Reading::Score(before), Reading::Score(after)) => {
                Some(Effect::Score { before, after })
            }
            (Reading::Clock(side, before), Reading::Clock(_, after)) => Some(Effect::Clock {
                side,
                before,
                after,
            }),
            _ => None,
        }
    }
}

impl Match {
    /// What `action` is seen to change, read at `at`: the score for the corrections of
    /// points and results and for the confirmation, the side's main time for the
    /// corrections of a clock; `None` for every other action (their own events say what
    /// they change).
    pub(super) fn reading(&self, action: &DirectorAction, at: Timestamp) -> Option<Reading> {
        match *action {
            DirectorAction::AwardPoints { .. }
            | DirectorAction::DeductPoints { .. }
            | DirectorAction::CorrectScore { .. }
            | DirectorAction::CorrectResult { .. }
            | DirectorAction::ConfirmResult => Some(Reading::Score(self.score)),
            DirectorAction::AdjustTime { side, .. } | DirectorAction::SetTime { side, .. } => self
                .clock
                .as_ref()
                .map(|c| Reading::Clock(side, c.view(side, at).main)),
            _ => None,
        }
    }
}
