//! Why a clock operation was refused. A refused operation changes nothing.

use std::fmt;

use super::PauseReason;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// A clock operation that the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// The operation is dated before the clock's last operation.
    TimeWentBackwards {
        /// The clock's last operation.
        last: Timestamp,
        /// The time given.
        now: Timestamp,
    },
    /// Nobody's clock is running.
    NotRunning,
    /// A side's clock is already running.
    AlreadyRunning(Side),
    /// The side that pressed is not the side whose clock runs.
    NotOnTurn {
        /// Who pressed.
        pressed: Side,
        /// Whose clock runs.
        running: Side,
    },
    /// The clock is paused.
    Paused(PauseReason),
    /// The clock is not paused.
    NotPaused,
    /// A flag fell and the clock froze.
    Frozen {
        /// Whose flag fell.
        side: Side,
        /// When.
        at: Timestamp,
    },
    /// The side must wait out the delay before ending this turn.
    MustWaitDelay {
        /// Delay still to wait.
        left: Millis,
    },
    /// A time given to the clock is negative.
    NegativeTime(Millis),
    /// A move counter above [`super::MAX_SET_MOVES`].
    TooManyMoves(u32),
    /// A time given to the clock is beyond its bound.
    OutOfBounds {
        /// What was given.
        what: &'static str,
        /// The value.
        value: Millis,
        /// The bound it passed (in either direction for an adjustment).
        bound: Millis,
    },
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::TimeWentBackwards { last, now } => {
                write!(
                    f,
                    "time went backwards: {now} is before the clock's last operation at {last}"
                )
            }
            ClockError::NotRunning => write!(f, "the clock is not running"),
            ClockError::AlreadyRunning(side) => write!(f, "side {side}'s clock is already running"),
            ClockError::NotOnTurn { pressed, running } => write!(
                f,
                "side {pressed} pressed while side {running}'s clock runs: a press ends only the \
                 running side's turn (chess 6.2; backgammon 4.2 (i))"
            ),
            ClockError::Paused(reason) => {
                write!(f, "the clock is paused ({reason}); resume it first")
            }
            ClockError::NotPaused => write!(f, "the clock is not paused"),
            ClockError::Frozen { side, at } => write!(
                f,
                "side {side}'s flag fell at {at} and the clock froze (FIDE clock standard: \
                 freeze at flag); the director must correct the time first"
            ),
            ClockError::MustWaitDelay { left } => write!(
                f,
                "this turn must wait out the delay ({left} left) before the move is made \
                 (backgammon 4.1 (v)(b), 4.2 (iii)(c))"
            ),
            ClockError::NegativeTime(t) => write!(f, "a clock time cannot be negative ({t})"),
            ClockError::TooManyMoves(n) => write!(
                f,
                "a move counter of {n} is above the bound of {} moves",
                super::MAX_SET_MOVES
            ),
            ClockError::OutOfBounds { what, value, bound } => write!(
                f,
                "{what} of {} ms is beyond the bound of {} ms ({bound})",
                value.as_ms(),
                bound.as_ms()
            ),
        }
    }
}

impl ClockError {
    /// True when the value given is one no clock accepts (negative, or beyond its
    /// bound), as opposed to an operation the clock's state refuses now.
    pub fn is_invalid_value(&self) -> bool {
        matches!(
            self,
            ClockError::NegativeTime(_)
                | ClockError::OutOfBounds { .. }
                | ClockError::TooManyMoves(_)
        )
    }
}

impl std::error::Error for ClockError {}
