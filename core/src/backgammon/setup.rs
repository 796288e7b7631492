//! How a match is set up: length, clock, time-out policy, start time, dice.

use serde::{Deserialize, Serialize};

use crate::clock::{BACKGAMMON_DELAY, BACKGAMMON_PER_POINT};
use crate::time::{Millis, Timestamp};

/// Whether a match records the checkers' moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovesSetting {
    /// Only the clock, the dice and the cube, as before (the default).
    #[default]
    Off,
    /// Every move is sent, checked against the roll, and decides the result.
    Recorded,
}

impl MovesSetting {
    /// For serde: `off` is not written, so set-ups from before moves read and write the same.
    pub fn is_off(&self) -> bool {
        *self == MovesSetting::Off
    }
}

/// What happens when a player's reserve expires (backgammon rules §1, "time expiry" and
/// "other federations' timeout policies").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "policy")]
pub enum TimeoutPolicy {
    /// The player whose time expired loses the match (4.3 (iv)); the default.
    LoseMatch,
    /// USBGF optional overtime: the first expiry gives `overtime` (1 or 2 minutes); a
    /// second expiry loses the match.
    UsbgfOvertime {
        /// Overtime granted at the first expiry.
        overtime: Millis,
    },
    /// Penalty-point time-out: `points` to the opponent and the reserve reset to half its
    /// initial value; play goes on.
    PenaltyPoints {
        /// Points awarded per expiry (default 1).
        points: u32,
    },
}

impl TimeoutPolicy {
    /// USBGF overtime of 1 or 2 minutes; at least one point per penalty-point time-out.
    pub fn validate(&self) -> Result<(), super::RuleError> {
        use super::RuleError;
        match *self {
            TimeoutPolicy::UsbgfOvertime { overtime }
                if overtime != Millis::mins(1) && overtime != Millis::mins(2) =>
            {
                Err(RuleError::invalid(
                    "4.3 (iv)",
                    format!("USBGF overtime is 1 or 2 minutes, not {overtime}"),
                ))
            }
            TimeoutPolicy::PenaltyPoints { points } if !(1..=MAX_LENGTH).contains(&points) => {
                Err(RuleError::invalid(
                    "",
                    format!(
                        "a penalty-point time-out awards 1 to {MAX_LENGTH} points, not {points}"
                    ),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// Where the dice come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceSource {
    /// The server's audited dice (commit–reveal).
    Server,
    /// Dice rolled at the table and reported.
    Physical,
}

/// The clock settings of a clocked match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSetup {
    /// Match time per point, T (default 2 minutes).
    pub per_point: Millis,
    /// Simple delay per turn, D (default 12 seconds).
    pub delay: Millis,
    /// Whether breaks count in match time (the breaking player's clock runs); by
    /// default they do not and the clock stands still (4.3 (ii)(b)).
    pub breaks_in_match_time: bool,
}

impl ClockSetup {
    /// A time per point above zero and at most [`MAX_PER_POINT`], and a delay from zero to
    /// [`MAX_DELAY`] (3.5).
    pub fn validate(&self) -> Result<(), super::RuleError> {
        check_clock_settings(self.per_point, self.delay)
    }
}

impl Default for ClockSetup {
    fn default() -> Self {
        ClockSetup {
            per_point: BACKGAMMON_PER_POINT,
            delay: BACKGAMMON_DELAY,
            breaks_in_match_time: false,
        }
    }
}

/// Everything fixed before a match starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchSetup {
    /// The players' names, A then B.
    pub players: [String; 2],
    /// Match length N in points.
    pub length: u32,
    /// The clock, or `None` for an unclocked match.
    pub clock: Option<ClockSetup>,
    /// What a time expiry does.
    pub timeout: TimeoutPolicy,
    /// When the match is scheduled to start: lateness is counted from here (2.2).
    pub scheduled_start: Timestamp,
    /// Where the dice come from.
    pub dice: DiceSource,
    /// Which match of a best-of-three series between the same players this is (1 to 3):
    /// breaks are then taken only between matches (2.2). `None` for a single match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_match: Option<u32>,
    /// Whether the checkers' moves are recorded (issue 23); `off` is not written.
    #[serde(default, skip_serializing_if = "MovesSetting::is_off")]
    pub moves: MovesSetting,
}

impl MatchSetup {
    /// A clocked match with every default: 2 min per point, 12 s delay, lose the match at
    /// a time-out, server dice.
    pub fn new(players: [&str; 2], length: u32, scheduled_start: Timestamp) -> MatchSetup {
        MatchSetup {
            players: players.map(str::to_string),
            length,
            clock: Some(ClockSetup::default()),
            timeout: TimeoutPolicy::LoseMatch,
            scheduled_start,
            dice: DiceSource::Server,
            series_match: None,
            moves: MovesSetting::Off,
        }
    }
}

impl MatchSetup {
    /// Checks the set-up: a length of 1 to [`MAX_LENGTH`], two named players, a positive
    /// time per point and a delay that is not negative, USBGF overtime of 1 or 2 minutes,
    /// and at least one point per penalty-point time-out.
    pub fn validate(&self) -> Result<(), super::RuleError> {
        use super::RuleError;
        if !(1..=MAX_LENGTH).contains(&self.length) {
            return Err(RuleError::invalid(
                "",
                format!(
                    "a match length is 1 to {MAX_LENGTH} points, not {}",
                    self.length
                ),
            ));
        }
        if self.players.iter().any(|p| p.trim().is_empty()) {
            return Err(RuleError::invalid("", "both players need a name"));
        }
        if let Some(clock) = &self.clock {
            clock.validate()?;
        }
        if let Some(n) = self.series_match.filter(|n| !(1..=3).contains(n)) {
            return Err(RuleError::invalid(
                "2.2",
                format!("a best-of-three series has matches 1 to 3, not {n}"),
            ));
        }
        self.timeout.validate()
    }
}

/// Length of a permitted break (2.2).
pub const BREAK_LENGTH: Millis = Millis::mins(5);

/// Lateness: one penalty point per this much lateness (2.2).
pub const LATENESS_STEP: Millis = Millis::mins(5);

/// The highest value of the cube (4.4).
pub const MAX_CUBE: u32 = 64;

/// Longest match accepted: far beyond any real match.
pub const MAX_LENGTH: u32 = 999;

/// Breaks each player may take in a match of `length` points: one up to 15 points, two
/// in longer matches (2.2).
pub const fn break_allowance(length: u32) -> u32 {
    if length <= 15 { 1 } else { 2 }
}

/// The longest time per point a match may be given (3.5): an hour, 24 times the US
/// practice's 2½ minutes and far past any tournament's (test rigs use it to keep flags
/// away). The reserve, length × time per point, must also fit the clock's bound of a
/// week ([`crate::clock::MAX_BASE`]).
pub const MAX_PER_POINT: Millis = Millis::mins(60);

/// The longest delay (3.5): ten times the 12 s default.
pub const MAX_DELAY: Millis = Millis::mins(2);

/// The most a director may add to, take from, or set on a clock at once (3.7, 4.3 (v)):
/// the clock's own bound, a week ([`crate::clock::MAX_SET_TIME`]).
pub const MAX_CLOCK_TIME: Millis = crate::clock::MAX_SET_TIME;

/// How far before or after the server's time a match may be scheduled: a director enters
/// a match that already began, or one of a later round; an instant outside is a mistake
/// (1969, or a date in seconds read as milliseconds).
pub const SCHEDULE_WINDOW: Millis = Millis::mins(400 * 24 * 60);

/// Checks a time per point and a delay against their bounds (3.5).
pub fn check_clock_settings(per_point: Millis, delay: Millis) -> Result<(), super::RuleError> {
    if per_point <= Millis::ZERO || per_point > MAX_PER_POINT {
        return Err(super::RuleError::invalid(
            "3.5",
            format!(
                "the time per point is above zero and at most {MAX_PER_POINT}, not {per_point}"
            ),
        ));
    }
    if delay < Millis::ZERO || delay > MAX_DELAY {
        return Err(super::RuleError::invalid(
            "3.5",
            format!("the delay is 0 to {MAX_DELAY}, not {delay}"),
        ));
    }
    Ok(())
}

/// Checks a scheduled start against the server's time `now` ([`SCHEDULE_WINDOW`]).
pub fn check_schedule(scheduled: Timestamp, now: Timestamp) -> Result<(), super::RuleError> {
    let window = SCHEDULE_WINDOW.as_ms();
    let (at, now) = (scheduled.as_ms(), now.as_ms());
    if at < now.saturating_sub(window) || at > now.saturating_add(window) {
        return Err(super::RuleError::invalid(
            "2.2",
            format!(
                "a match is scheduled within 400 days of now: {scheduled} is not (times are \
                 milliseconds since 1970-01-01 UTC)"
            ),
        ));
    }
    Ok(())
}
