//! What a tournament fixes for its backgammon matches: the clock, the time-out policy,
//! whether clocks are required, and the dice. A match takes these and brings its own
//! players, length and start ([`TournamentDefaults::match_setup`]).

use serde::{Deserialize, Serialize};

use super::RuleError;
use super::setup::{ClockSetup, DiceSource, MatchSetup, TimeoutPolicy};
use crate::clock::{BACKGAMMON_DELAY, BACKGAMMON_PER_POINT};
use crate::time::{Millis, Timestamp};

/// Whether a tournament's matches are clocked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockPolicy {
    /// Every match is clocked (3.5); the default.
    #[default]
    Required,
    /// A match may be created unclocked.
    Allowed,
    /// No match is clocked.
    Off,
}

/// A tournament's defaults for its backgammon matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentDefaults {
    /// Match time per point, T.
    pub per_point: Millis,
    /// Simple delay per turn, D.
    pub delay: Millis,
    /// What a time expiry does.
    pub timeout: TimeoutPolicy,
    /// Whether matches are clocked.
    pub clocks: ClockPolicy,
    /// Where the dice come from.
    pub dice: DiceSource,
    /// Whether breaks count in match time (4.3 (ii)(b)).
    pub breaks_in_match_time: bool,
    /// Whether the players' seeds are required before the first roll (older registries
    /// have no such field: optional).
    #[serde(default)]
    pub player_seeds: crate::dice::SeedPolicy,
    /// How long the players have to reveal their seeds once both committed
    /// (`crate::table::DEFAULT_REVEAL_WINDOW` when `None`, as in older registries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_window: Option<Millis>,
}

impl Default for TournamentDefaults {
    fn default() -> Self {
        TournamentDefaults {
            per_point: BACKGAMMON_PER_POINT,
            delay: BACKGAMMON_DELAY,
            timeout: TimeoutPolicy::LoseMatch,
            clocks: ClockPolicy::Required,
            dice: DiceSource::Server,
            breaks_in_match_time: false,
            player_seeds: crate::dice::SeedPolicy::Optional,
            reveal_window: None,
        }
    }
}

impl TournamentDefaults {
    fn clock(&self) -> ClockSetup {
        ClockSetup {
            per_point: self.per_point,
            delay: self.delay,
            breaks_in_match_time: self.breaks_in_match_time,
        }
    }

    /// The same checks a match's set-up gets: a positive time per point, a delay that is
    /// not negative, a time-out policy with sane values.
    pub fn validate(&self) -> Result<(), RuleError> {
        self.clock().validate()?;
        if let Some(window) = self.reveal_window
            && (window < Millis::secs(1) || window > crate::table::MAX_REVEAL_WINDOW)
        {
            return Err(RuleError::invalid(
                "2.3",
                format!(
                    "a reveal window is 1 s to {} s, not {} ms",
                    crate::table::MAX_REVEAL_WINDOW.as_ms() / 1000,
                    window.as_ms()
                ),
            ));
        }
        if self.player_seeds == crate::dice::SeedPolicy::Live && self.dice != DiceSource::Server {
            return Err(RuleError::invalid(
                "3.3",
                "live dice are server dice, drawn with the players' links: not with dice rolled at the table",
            ));
        }
        self.timeout.validate()
    }

    /// A match of this tournament; `unclocked` asks for no clock, which only a tournament
    /// that allows it grants (3.5). The set-up is checked ([`MatchSetup::validate`]).
    pub fn match_setup(
        &self,
        players: [String; 2],
        length: u32,
        scheduled_start: Timestamp,
        unclocked: bool,
    ) -> Result<MatchSetup, RuleError> {
        let clocked = match self.clocks {
            ClockPolicy::Off => false,
            ClockPolicy::Allowed => !unclocked,
            ClockPolicy::Required if unclocked => {
                return Err(RuleError::rule(
                    "3.5",
                    "this tournament requires clocks: a match cannot be unclocked",
                ));
            }
            ClockPolicy::Required => true,
        };
        let setup = MatchSetup {
            players,
            length,
            clock: clocked.then(|| self.clock()),
            timeout: self.timeout,
            scheduled_start,
            dice: self.dice,
            series_match: None,
            moves: Default::default(),
        };
        setup.validate()?;
        Ok(setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_policy_decides_whether_a_match_is_clocked() {
        let players = || ["A".to_string(), "B".to_string()];
        let mut d = TournamentDefaults::default();
        assert!(d.match_setup(players(), 5, Timestamp(0), true).is_err());
        assert!(
            d.match_setup(players(), 5, Timestamp(0), false)
                .unwrap()
                .clock
                .is_some()
        );
        d.clocks = ClockPolicy::Allowed;
        assert!(
            d.match_setup(players(), 5, Timestamp(0), true)
                .unwrap()
                .clock
                .is_none()
        );
        d.clocks = ClockPolicy::Off;
        assert!(
            d.match_setup(players(), 5, Timestamp(0), false)
                .unwrap()
                .clock
                .is_none()
        );
        let e = d
            .match_setup(players(), 1_000, Timestamp(0), false)
            .unwrap_err();
        assert!(e.invalid, "{e}");
        // Stored as the words the first registries wrote.
        assert_eq!(
            serde_json::to_string(&ClockPolicy::Allowed).unwrap(),
            "\"allowed\""
        );
    }

    #[test]
    fn defaults_are_checked_like_a_matchs_set_up() {
        let mut d = TournamentDefaults::default();
        assert!(d.validate().is_ok());
        d.per_point = Millis::ZERO;
        assert!(d.validate().unwrap_err().invalid);
        d = TournamentDefaults {
            timeout: TimeoutPolicy::UsbgfOvertime {
                overtime: Millis(90_000),
            },
            ..TournamentDefaults::default()
        };
        assert!(d.validate().unwrap_err().to_string().contains("4.3 (iv)"));
    }
}
