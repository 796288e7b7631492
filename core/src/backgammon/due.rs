//! What is due next, so the server can set one timer without knowing any rule.

use super::event::{Change, Event, Expiry, MatchEnd};
use super::setup::{LATENESS_STEP, TimeoutPolicy};
use super::{Match, RuleError};
use crate::side::Side;
use crate::time::Timestamp;

/// Something that falls due at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Due {
    /// A player's reserve runs out (4.3 (iv)).
    Flag(Side),
    /// The break ends (2.2).
    BreakEnd,
    /// A lateness penalty point against a player who is not there (2.2).
    Lateness(Side),
}

impl Match {
    /// The next thing due and when, if anything is. The server sets a timer for that
    /// instant and then sends [`super::Command::Tick`].
    pub fn next_due(&self) -> Option<(Timestamp, Due)> {
        if self.result.is_some() || self.undecided {
            return None;
        }
        let mut due: Vec<(Timestamp, Due)> = Vec::new();
        if let Some(clock) = &self.clock {
            if let Some(at) = clock.next_flag_at() {
                due.push((
                    at,
                    Due::Flag(clock.running().expect("a flag falls on the running side")),
                ));
            }
            for side in Side::BOTH {
                // A flag that fell (e.g. a time deduction) and has not been dealt with yet.
                if let Some(at) = clock.view(side, clock.last_operation()).flagged_at {
                    due.push((at, Due::Flag(side)));
                }
            }
        }
        if let Some(until) = self.break_until {
            due.push((until, Due::BreakEnd));
        }
        for side in Side::BOTH {
            if let Some(at) = self.next_lateness_at(side) {
                due.push((at, Due::Lateness(side)));
            }
        }
        due.into_iter().min_by_key(|(at, _)| *at)
    }

    /// When `side`'s next lateness point falls, if he is absent and lateness counts (2.2).
    fn next_lateness_at(&self, side: Side) -> Option<Timestamp> {
        let from = self.lateness_from.filter(|_| !self.present[side.index()])?;
        let step = i64::from(self.lateness_charged[side.index()]) + 1;
        Some(from + LATENESS_STEP * step)
    }

    /// The absent players whose next lateness point falls at `at`, A first.
    fn lateness_due_at(&self, at: Timestamp) -> Vec<Side> {
        Side::BOTH
            .into_iter()
            .filter(|s| self.next_lateness_at(*s) == Some(at))
            .collect()
    }

    /// Emits everything due by `now`, each at its own instant (a time-out at `now`, when
    /// it is dealt with).
    pub(super) fn catch_up(
        &mut self,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        while let Some((at, due)) = self.next_due().filter(|(at, _)| *at <= now) {
            match due {
                Due::BreakEnd => self.emit(out, at, Change::BreakEnded)?,
                Due::Lateness(_) => {
                    // Points that fall due at one instant are awarded together, and only
                    // then is the match settled: no side order decides it (2.2).
                    for late in self.lateness_due_at(at) {
                        self.record(out, at, Change::LatenessPoint { late })?;
                    }
                    self.settle_result(out, at)?;
                }
                Due::Flag(side) => self.expire(side, at, now, out)?,
            }
        }
        Ok(())
    }

    fn expire(
        &mut self,
        side: Side,
        flagged_at: Timestamp,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let expiry = match self.setup.timeout {
            TimeoutPolicy::LoseMatch => Expiry::LoseMatch,
            TimeoutPolicy::UsbgfOvertime { overtime } if self.expiries[side.index()] == 0 => {
                Expiry::Overtime { time: overtime }
            }
            TimeoutPolicy::UsbgfOvertime { .. } => Expiry::LoseMatch,
            TimeoutPolicy::PenaltyPoints { points } => Expiry::PenaltyPoints {
                points,
                // Half the initial reserve; never zero, or the flag would fall again at once.
                reserve: crate::time::Millis((self.clock_initial.as_ms() / 2).max(1_000)),
            },
        };
        self.emit(
            out,
            now,
            Change::TimeExpired {
                side,
                flagged_at,
                expiry,
            },
        )?;
        if expiry == Expiry::LoseMatch && self.result.is_none() {
            self.emit(
                out,
                now,
                Change::MatchEnded {
                    winner: side.other(),
                    how: MatchEnd::Timeout,
                },
            )?;
        }
        Ok(())
    }
}
