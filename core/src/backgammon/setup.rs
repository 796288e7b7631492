//! How a match is set up: length, clock, time-out policy, start time, dice.

use serde::{Deserialize, Serialize};

use super::moves::MovesSetting;
use crate::clock::{BACKGAMMON_DELAY, BACKGAMMON_PER_POINT};
use crate::time::{Millis, Timestamp};

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
            TimeoutPolicy::PenaltyPoints { points: 0 } => Err(RuleError::invalid(
                "",
                "a penalty-point time-out awards at least one point",
            )),
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
    /// A positive time per point and a delay that is not negative (3.5).
    pub fn validate(&self) -> Result<(), super::RuleError> {
        if self.per_point <= Millis::ZERO || self.delay < Millis::ZERO {
            return Err(super::RuleError::invalid(
                "3.5",
                "the time per point must be positive and the delay not negative",
            ));
        }
        Ok(())
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
